# The CMDP rollout of paper 001 before and after its paper optimizer: CPU
# seconds per proposal, and the rollout value reached at the chosen point,
# so that speed is not bought with worse decisions.
#
#   Rscript bench/cmdp-speed.R [lib_old] [lib_new]
#
# old: the build in lib_old (default /tmp/lib-cmdp-main: install main
# there), policy_rollout(h), i.e. the compass search on plain quasi-Monte
# Carlo values with fantasy observations; new: the build in lib_new
# (default: the first library of this R), policy_cmdp_rollout(h), its
# defaults (the paper optimizer, latent fantasies). Both with 64 samples.
# States: cmdp_fixed_state() of bench/common.R, Levy with its known linear
# cost and Ackley with its measured cosine cost, n = 20 points, d = 8 and
# 16, seed 1; h = 2, 3, 4. Each proposal runs in a fresh Rscript process
# with R_LIBS set to its build's library (the two builds cannot share one):
# the models are fitted, then the policy's propose() is timed alone after
# set.seed(2) (CPU: user + system seconds of that process). The chosen
# points are then valued by one common estimator in lib_new: the paper
# engine's value with 1024 draws (seed 99), latent fantasies, and inner
# maximizations from the 20 best of max(40 d, 400) raw points; with common
# draws, the difference of the two values has a standard error from the
# per-draw differences (an upper bound for quasi-Monte Carlo).
args <- commandArgs(TRUE)
mode <- if (length(args) && args[1] %in% c("worker", "judge", "build")) {
  args[1]
} else "main"
self <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(FALSE),
                                              value = TRUE)))
root <- dirname(dirname(self))
source(file.path(root, "bench", "common.R"))

# The fitted state of a fixed state and policy.
bench_state <- function(name, d, s, pol) {
  fs <- cmdp_fixed_state(name, d, s)
  sess <- bo_session(fs$problem, pol, initial = fs$initial)
  costbo:::state_fit(sess)
}

if (mode == "build") {
  suppressMessages(library(costbo))
  cat(deparse(substr(costbo_build()$source_hash, 1L, 8L)), sep = "\n")
  quit(save = "no")
}

if (mode == "worker") {
  suppressMessages(library(costbo))
  which <- args[2]
  name <- args[3]
  d <- as.integer(args[4])
  s <- as.integer(args[5])
  h <- as.integer(args[6])
  pol <- if (which == "old") {
    suppressWarnings(policy_rollout(h, n_samples = 64))
  } else policy_cmdp_rollout(h, n_samples = 64)
  st <- bench_state(name, d, s, pol)
  set.seed(2)
  t <- system.time(p <- st$policy$propose(st))
  pr <- st$problem
  out <- list(x = (p$x - pr$lower) / (pr$upper - pr$lower),
              cpu = t[["user.self"]] + t[["sys.self"]])
  cat(deparse(out, control = c("niceNames", "digits17")), sep = "\n")
  quit(save = "no")
}

if (mode == "judge") {
  suppressMessages(library(costbo))
  job <- readRDS(args[2])
  st <- bench_state(job$name, job$d, job$s, policy_cmdp_rollout(job$h))
  rs <- costbo:::rollout_state(st)
  ctl <- costbo:::check_rollout_control(list(inner_starts = 20L),
                                        paper = TRUE)
  set.seed(99)
  z <- costbo:::sobol_unit(1024L, job$h, normal = TRUE)
  raw <- costbo:::sobol_unit(max(40L * job$d, 400L), job$d)
  v <- .Call(costbo:::C_rollout_cmdp_paper_value, rs$pack, job$X, z, raw,
             costbo:::cmdp_paper_control(job$h, 0L, rs$remaining, ctl, TRUE),
             FALSE)
  dd <- v$samples[, 2L] - v$samples[, 1L]
  out <- list(value = v$value, se = stats::sd(dd) / sqrt(length(dd)))
  cat(deparse(out, control = c("niceNames", "digits17")), sep = "\n")
  quit(save = "no")
}

lib_old <- if (length(args) > 0) args[1] else "/tmp/lib-cmdp-main"
lib_new <- if (length(args) > 1) args[2] else .libPaths()[1]
run <- function(lib, ...) {
  out <- system2("Rscript", c(self, ...), env = paste0("R_LIBS=", lib),
                 stdout = TRUE)
  eval(parse(text = out))
}
cat(sprintf("old: %s (costbo build %s); new: %s (costbo build %s)\n",
            lib_old, run(lib_old, "build"), lib_new, run(lib_new, "build")))
rows <- list()
for (name in c("levy", "ackley")) for (d in c(8L, 16L)) for (h in 2:4) {
  old <- run(lib_old, "worker", "old", name, d, 1L, h)
  new <- run(lib_new, "worker", "new", name, d, 1L, h)
  f <- tempfile(fileext = ".rds")
  saveRDS(list(name = name, d = d, s = 1L, h = h,
               X = rbind(old$x, new$x, deparse.level = 0L)), f)
  j <- run(lib_new, "judge", f)
  unlink(f)
  rows[[length(rows) + 1L]] <- data.frame(
    problem = name, d = d, h = h, old_s = old$cpu, new_s = new$cpu,
    ratio = new$cpu / old$cpu, value_old = j$value[1L],
    value_new = j$value[2L],
    gain = (j$value[2L] - j$value[1L]) / j$value[1L],
    gain_se = j$se / j$value[1L])
  print(rows[[length(rows)]], digits = 3, row.names = FALSE)
}
tab <- do.call(rbind, rows)
cat("\nCPU seconds per proposal (n = 20 points, 64 samples), old and new,",
    "and the rollout\nvalue at each choice by the common estimator (gain:",
    "new over old, relative):\n")
print(tab, digits = 3, row.names = FALSE)
cat(sprintf(paste0("\nd = 16: h = 4 at most %.2f s (target 5), h = 2 at ",
                   "most %.2f s (target 1.5)\n"),
            max(tab$new_s[tab$d == 16 & tab$h == 4]),
            max(tab$new_s[tab$d == 16 & tab$h == 2])))
