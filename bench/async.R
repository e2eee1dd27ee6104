# Wall-clock of an asynchronous run on a real multisession plan (issue 19).
#
# Branin (maximized) on [-5, 10] x [0, 15] whose evaluation sleeps in
# proportion to its known cost, 1 + (x1 + 5) / 15 (1 to 2), at `unit`
# seconds per unit of cost; budget 30 after a free initial design of 6
# Sobol points (whose time counts). EI-PU, seeds 1..`reps`, once with one
# evaluation at a time (the sequential loop, objective in this session)
# and once with workers = 2 on future::plan(multisession, workers = 2).
# Printed per seed: the wall-clock from the call to the end of the run, the
# ratio, the number of evaluations, and the smallest distance between a
# launched point and the points pending at its launch (0 would be two
# workers sent to the same point), beside the smallest distance between a
# point of the sequential run and the points evaluated before it (how
# close the model lets two evaluations be at all: near the optimum, within
# its noise band, it does not tell them apart).
#   R_LIBS=<lib> Rscript bench/async.R [reps] [unit]
# (default 5 seeds, unit = 1 s: an evaluation of 1 to 2 s). The ratio
# includes the start of the two worker processes (about 0.5 s per run) and
# future's round trip per evaluation (about 0.05 s here: a plain
# future(Sys.sleep(0.3)) on a multisession worker returns after 0.35 s),
# which the sequential run does not pay, so it approaches 1/2 only for
# evaluations much longer than that (at unit = 0.2 s it was 0.67-0.86).

suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 5L
unit <- if (length(args) >= 2L) as.double(args[2L]) else 1
lo <- c(-5, 0)
up <- c(10, 15)
cost <- function(x) 1 + (x[1] + 5) / 15
sleepy <- bo_problem(function(x) {
  Sys.sleep(unit * (1 + (x[1] + 5) / 15))
  -((x[2] - 5.1 / (4 * pi^2) * x[1]^2 + 5 / pi * x[1] - 6)^2 +
      10 * (1 - 1 / (8 * pi)) * cos(x[1]) + 10)
}, lower = lo, upper = up, cost = cost, budget = 30,
name = "sleepy branin")

# The smallest distance from each launched point to those pending at its
# launch (earlier = TRUE: to every point evaluated before it).
pending_gap <- function(run, earlier = FALSE) {
  df <- as.data.frame(run)
  X <- as.matrix(df[, c("x1", "x2")])
  gaps <- vapply(seq_len(nrow(df)), function(j) {
    pend <- if (earlier) seq_len(j - 1L) else
      which(df$launch < df$launch[j] & df$t_done > df$t_launch[j])
    if (!length(pend)) return(Inf)
    min(sqrt(colSums((t(X[pend, , drop = FALSE]) - X[j, ])^2)))
  }, 0)
  min(gaps)
}

old <- future::plan(future::multisession, workers = 2)
rows <- list()
for (seed in seq_len(reps)) {
  t0 <- proc.time()[["elapsed"]]
  s <- bo_optimize(sleepy, policy_ei_pu(), seed = seed, progress = FALSE)
  t_seq <- proc.time()[["elapsed"]] - t0
  t0 <- proc.time()[["elapsed"]]
  a <- bo_optimize(sleepy, policy_ei_pu(), seed = seed, workers = 2,
                   progress = FALSE)
  t_async <- proc.time()[["elapsed"]] - t0
  rows[[seed]] <- data.frame(
    seed = seed, seconds_sequential = t_seq, seconds_2_workers = t_async,
    ratio = t_async / t_seq, evaluations_sequential = length(s$value),
    evaluations_2_workers = length(a$value), spent_2_workers = a$spent,
    min_gap_to_pending = pending_gap(a),
    min_gap_sequential = pending_gap(s, earlier = TRUE))
}
future::plan(old)
tab <- do.call(rbind, rows)
cat(sprintf("unit = %g s per unit of cost, %d seeds\n", unit, reps))
print(format(tab, digits = 3), row.names = FALSE)
cat(sprintf("\nratio of wall-clocks (2 workers / sequential): median %.3f, max %.3f\n",
            stats::median(tab$ratio), max(tab$ratio)))
cat(sprintf("smallest distance between a launched and a pending point: %.3g\n",
            min(tab$min_gap_to_pending)))
cat(sprintf("smallest distance between a sequential point and an earlier one: %.3g\n",
            min(tab$min_gap_sequential)))
