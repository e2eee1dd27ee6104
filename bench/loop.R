# Overhead of costbo's optimization loop over the policy's own work.
#
# Run from the repository root after installing costbo:
#   Rscript bench/loop.R
# or as part of every benchmark with bench/run.R, which sources this file
# and calls bench_loop() (it returns the rows of run.R's summary table).
# Starts from n = 100 evaluated points and runs 20 iterations of EI-PU with a
# measured cost (two GPs refitted per step) and with a known cost. The loop's
# overhead per iteration is the wall time of the run minus the time spent
# fitting the models, in the policy and in the objective (all recorded per
# evaluation by bo_optimize()). Target: at most 5 ms per iteration.

source("bench/common.R")
suppressPackageStartupMessages(library(costbo))

bench_loop <- function(quick = FALSE) {
  cat("== Loop overhead\n")
  cat(paste(bench_header(), collapse = "\n"), "\n\n")
  f <- function(x) sin(6 * x[1]) + cos(4 * x[2]) - (x[3] - 0.5)^2
  make <- function(measured) {
    if (measured) {
      bo_problem(function(x) list(value = f(x), cost = exp(x[1])), rep(0, 3),
                 rep(1, 3), budget = 1e6, name = "measured cost")
    } else {
      bo_problem(f, rep(0, 3), rep(1, 3), cost = function(x) exp(x[1]),
                 budget = 1e6, name = "known cost")
    }
  }
  set.seed(1)
  X <- sobol_points(100, 3)
  init <- data.frame(X, value = apply(X, 1, f), cost = exp(X[, 1]))
  names(init)[1:3] <- paste0("x", 1:3)

  rows <- list()
  for (measured in c(TRUE, FALSE)) {
    prob <- make(measured)
    t <- system.time(run <- bo_optimize(prob, policy_ei_pu(), initial = init,
                                        max_evaluations = 20, seed = 2,
                                        progress = FALSE))[["elapsed"]]
    df <- as.data.frame(run)
    bo <- df$phase == "bo"
    inner <- sum(df$fit_time[bo] + df$policy_time[bo] + df$eval_time[bo])
    rows[[length(rows) + 1L]] <- data.frame(
      problem = prob$name, iterations = sum(bo),
      fit_ms = 1000 * mean(df$fit_time[bo]),
      policy_ms = 1000 * mean(df$policy_time[bo]),
      overhead_ms_per_iteration = 1000 * (t - inner) / sum(bo),
      target_ms = 5)
  }
  lt <- do.call(rbind, rows)
  print(lt, digits = 3, row.names = FALSE)
  cat("\n(overhead includes the one-off initial setup, spread over the iterations)\n\n")
  tab <- do.call(rbind, lapply(seq_len(nrow(lt)), function(i) {
    bench_row("loop", sprintf("loop overhead per iteration, EI-PU, %s, n = 100, d = 3",
                              lt$problem[i]),
              lt$overhead_ms_per_iteration[i] / 1e3, target = "< 5 ms",
              meets_target = lt$overhead_ms_per_iteration[i] < 5,
              note = sprintf("wall time; fit %.1f ms, policy %.1f ms per iteration",
                             lt$fit_ms[i], lt$policy_ms[i]))
  }))
  invisible(tab)
}

if (sys.nframe() == 0L) {
  invisible(bench_loop(quick = nzchar(Sys.getenv("BENCH_QUICK"))))
}
