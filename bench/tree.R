# Speed of one B-MS-EI acquisition (the proposal of policy_bmsei() with its
# default optimizer settings), before and after, in one run.
#
# Run from the repository root:
#   nice -n 10 Rscript bench/tree.R [old_library] [new_library]
# (defaults /work/wt/lib-main and the library costbo loads from R_LIBS).
# Each library is timed in its own Rscript process on the same fixed
# states: Dropwave (d = 2), Alpine1 (d = 3) and Shekel5 (d = 4) from
# test_problem(name, cost_family = "cosine", seed = 1), n = 20 and 50 evaluations
# of a uniformly random design, both GPs fitted with the reference
# implementation's noise band (noise_floor = 1e-4, noise_ceiling = 1e-3).
# One proposal of policy_bmsei(path = TRUE) and of policy_bmsei() (4 steps,
# fantasies 4, 4, 2), each including its budget schedule, in CPU seconds
# (user + system of the worker). Targets: full tree <= 10 s and path <= 1 s
# at n = 20.

bt_cases <- data.frame(problem = c("dropwave", "alpine1", "shekel5"),
                       d = 2:4, stringsAsFactors = FALSE)
bt_n <- c(20L, 50L)

bt_worker <- function(out) {
  suppressPackageStartupMessages(library(costbo))
  rows <- list()
  for (n in bt_n) for (i in seq_len(nrow(bt_cases))) {
    prob <- test_problem(bt_cases$problem[i], cost_family = "cosine", seed = 1)
    d <- prob$d
    set.seed(100 + n)
    U <- matrix(stats::runif(n * d), n, d)
    X <- sweep(sweep(U, 2, prob$upper - prob$lower, "*"), 2, prob$lower, "+")
    ev <- lapply(seq_len(n), function(j) prob$objective(X[j, ]))
    init <- data.frame(X, value = vapply(ev, `[[`, 0, "value"),
                       cost = vapply(ev, `[[`, 0, "cost"))
    names(init)[seq_len(d)] <- paste0("x", seq_len(d))
    band <- list(noise_floor = 1e-4, noise_ceiling = 1e-3)
    for (path in c(TRUE, FALSE)) {
      pol <- policy_bmsei(path = path)
      s <- bo_session(prob, pol, initial = init,
                      gp_args = c(band, list(cost = band)))
      set.seed(7)
      s <- costbo:::state_fit(s)
      set.seed(8)
      tm <- system.time(s$policy$propose(s))
      rows[[length(rows) + 1L]] <- data.frame(
        problem = prob$name, d = d, n = n,
        variant = if (path) "path" else "full (4, 4, 2)",
        seconds = tm[["user.self"]] + tm[["sys.self"]])
    }
  }
  saveRDS(do.call(rbind, rows), out)
}

bt_main <- function(args) {
  old <- if (length(args) >= 1L) args[1] else "/work/wt/lib-main"
  new <- if (length(args) >= 2L) args[2] else {
    dirname(find.package("costbo"))
  }
  run <- function(lib) {
    out <- tempfile(fileext = ".rds")
    st <- system2(file.path(R.home("bin"), "Rscript"),
                  c("bench/tree.R", "--worker", out),
                  env = paste0("R_LIBS=", lib))
    if (st != 0L) stop("the worker for ", lib, " failed")
    readRDS(out)
  }
  a <- run(old)
  b <- run(new)
  tab <- data.frame(a[c("problem", "d", "n", "variant")],
                    before_s = a$seconds, after_s = b$seconds,
                    after_over_before = b$seconds / a$seconds)
  tab$target <- ifelse(tab$n == 20L,
                       ifelse(tab$variant == "path", "<= 1 s", "<= 10 s"),
                       "-")
  lim <- ifelse(tab$variant == "path", 1, 10)
  tab$meets <- ifelse(tab$n == 20L,
                      ifelse(tab$after_s <= lim, "yes", "NO"), "-")
  cat(sprintf("B-MS-EI, one proposal (CPU s): before = %s, after = %s\n",
              old, new))
  print(tab, digits = 3, row.names = FALSE)
  invisible(tab)
}

if (sys.nframe() == 0L) {
  args <- commandArgs(TRUE)
  if (length(args) >= 2L && args[1] == "--worker") {
    bt_worker(args[2])
  } else {
    bt_main(args)
  }
}
