# Rollout policies: per-proposal time before (main) and after (this
# branch), and the horizons the rolling-horizon rule chooses.
#
#   Rscript bench/rollout.R [speed] [lib_before] [lib_after]
#   Rscript bench/rollout.R horizons [lib] [runs]
#
# speed: every case runs in a fresh Rscript process per package (the two
# versions of costbo cannot share one), on the same problem, seed and
# initial design; it prints the median seconds per proposal and the ratio
# after / before. Cases: KG (policy_kg()) at n = 50, d = 2; the KG rollout at
# fixed h = 2, 3, 4 at n = 20; the rolling horizon with the defaults at
# n = 20 (the horizon it chooses, per step); CMDP rollout h = 4 at n = 20.
# horizons: runs of policy_rollout("adaptive") with the defaults on paper
# 004's one-source problems, counting the chosen horizons.

args <- commandArgs(TRUE)
mode <- if (length(args)) args[1] else "speed"

worker <- function(case, n, steps) {
  suppressMessages(library(costbo))
  prob <- test_problem("branin", seed = 1, budget = 100)
  pol <- switch(case,
                kg = policy_kg(),
                kg2 = policy_rollout(2, base = "kg"),
                kg3 = policy_rollout(3, base = "kg"),
                kg4 = policy_rollout(4, base = "kg"),
                adaptive = policy_rollout("adaptive"),
                cmdp4 = policy_rollout(4))
  run <- bo_optimize(prob, pol, n_init = n, seed = 1, max_evaluations = steps,
                     progress = FALSE, gp_args = list(noise_floor = 1e-4))
  df <- as.data.frame(run)
  df <- df[df$phase == "bo", ]
  list(time = df$policy_time, h = if (!is.null(df$h)) df$h)
}

if (mode == "worker") {
  r <- worker(args[2], as.integer(args[3]), as.integer(args[4]))
  cat(deparse(r), sep = "\n")
  quit(save = "no")
}

if (mode == "speed") {
  lib_before <- if (length(args) > 1) args[2] else "/work/wt/lib-main"
  lib_after <- if (length(args) > 2) args[3] else .libPaths()[1]
  self <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(FALSE),
                                                value = TRUE)))
  run_case <- function(lib, case, n, steps) {
    out <- system2("Rscript", c(self, "worker", case, n, steps),
                   env = paste0("R_LIBS=", lib), stdout = TRUE)
    eval(parse(text = out))
  }
  cases <- list(list("kg", 50, 5), list("kg2", 20, 3), list("kg3", 20, 3),
                list("kg4", 20, 2), list("cmdp4", 20, 3))
  rows <- lapply(cases, function(cs) {
    b <- run_case(lib_before, cs[[1]], cs[[2]], cs[[3]])
    a <- run_case(lib_after, cs[[1]], cs[[2]], cs[[3]])
    data.frame(case = cs[[1]], n = cs[[2]], before = median(b$time),
               after = median(a$time), ratio = median(a$time) / median(b$time))
  })
  tab <- do.call(rbind, rows)
  print(tab, digits = 3, row.names = FALSE)
  # the rolling horizon with the defaults: seconds per proposal by the
  # horizon it chose (after only: before, it always chose h = 1)
  ad <- run_case(lib_after, "adaptive", 20, 10)
  cat("\nrolling horizon (defaults), n = 20..29, seconds per proposal by h:\n")
  print(round(tapply(ad$time, ad$h, median), 3))
}

if (mode == "horizons") {
  lib <- if (length(args) > 1) args[2] else .libPaths()[1]
  runs <- if (length(args) > 2) as.integer(args[3]) else 3L
  library(costbo, lib.loc = lib)
  probs <- c("branin", "six_hump_camel", "goldstein_price", "bohachevsky",
             "griewank")
  res <- do.call(rbind, lapply(probs, function(p) {
    do.call(rbind, lapply(seq_len(runs), function(s) {
      run <- bo_optimize(test_problem(p, seed = s), policy_rollout("adaptive"),
                         seed = s, progress = FALSE)
      df <- as.data.frame(run)
      df <- df[df$phase == "bo", ]
      data.frame(problem = p, seed = s, h = df$h, time = df$policy_time)
    }))
  }))
  tab <- table(res$problem, factor(res$h, 1:5))
  print(tab)
  cat("\nshare of steps with h > 1:\n")
  print(round(tapply(res$h > 1, res$problem, mean), 2))
  cat(sprintf("all problems: %.2f of %d steps\n", mean(res$h > 1), nrow(res)))
  cat("\nmedian seconds per proposal by h:\n")
  print(round(tapply(res$time, res$h, median), 3))
}
