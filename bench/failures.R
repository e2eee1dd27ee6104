# Does a failing region stop absorbing the budget? (issue 16)
#
# Branin (maximized, negated) on [-5, 10] x [0, 15] whose simulation fails
# (throws) whenever x1 > 2.5, i.e. on half of the box; every evaluation
# costs 1, budget 30, default initial design (6 Sobol points, not charged),
# on_error = "skip". For each policy and seeds 1..10: the number of failed
# evaluations among the 30 of the optimization phase, the evaluations made,
# the best value found and why the run stopped.
#   R_LIBS=<lib> Rscript bench/failures.R
# Run it with the build before and after a change to compare.

suppressPackageStartupMessages(library(costbo))
branin <- function(x) {
  -((x[2] - 5.1 / (4 * pi^2) * x[1]^2 + 5 / pi * x[1] - 6)^2 +
      10 * (1 - 1 / (8 * pi)) * cos(x[1]) + 10)
}
half_failing <- bo_problem(function(x) {
  if (x[1] > 2.5) stop("simulation crashed")
  branin(x)
}, lower = c(-5, 0), upper = c(10, 15), cost = 1, budget = 30,
name = "branin failing for x1 > 2.5", optimum = -0.397887357729739)

pols <- list(EI = policy_ei(), UCB = policy_ucb(2), PBGI = policy_pbgi(1e-3))
rows <- list()
for (pn in names(pols)) for (seed in 1:10) {
  run <- bo_optimize(half_failing, pols[[pn]], seed = seed,
                     on_error = "skip", progress = FALSE)
  df <- as.data.frame(run)
  bo <- df$phase == "bo"
  rows[[length(rows) + 1L]] <- data.frame(
    policy = pn, seed = seed, bo_evaluations = sum(bo),
    failed = sum(bo & df$status != "ok"),
    best = max(df$value[df$status == "ok"]), stop = run$stop_reason)
}
tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)
cat("\nfailed evaluations of the 30 (mean over seeds 1..10):\n")
print(aggregate(cbind(failed, bo_evaluations, best) ~ policy, tab, mean))
