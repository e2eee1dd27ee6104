# Secant gradients of a known cost written in R without a gradient
# (src/rcall.h): the closure calls and CPU seconds of one EI-PU proposal
# with the maximizer's climb on secant gradients (the default) against
# forward differences at every step (options(costbo.secant_gradients =
# FALSE)), in one run, on the same states and seeds.
#
# Run from the repository root:
#   R_LIBS=<library> nice -n 10 Rscript bench/rcost-secant.R [reps]
# States: Hartmann-6 restricted to its first d inputs (the others at 0.5)
# for d = 2, 3, 4 and 6, n = 20 uniformly random evaluations (seeds 1-3),
# the proposal's seed 7. Costs, all without a "gradient" attribute:
#   affine    1 + 20 mean(x)
#   sin-exp   1 + sum(sin(3 x)^2) + exp(x_d)
#   bilinear  1 + 10 x_1 x_2 + 5 x_d
#   quadratic 1 + 5 sum((x - 0.3)^2)
# Printed per d and cost: the calls with secant gradients / with
# differences (range over the seeds), the median over seeds and `reps`
# (default 5) repetitions of the CPU ratio, and the largest relative
# difference of the maximum found.

suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 5L
source("bench/rcost-setup.R")

restricted <- function(d) {
  force(d)
  list(f = function(x) hartmann6(c(x, rep(0.5, 6L - d))), d = d)
}
costs <- list(
  affine = function(x) 1 + 20 * sum(x) / length(x),
  "sin-exp" = function(x) 1 + sum(sin(3 * x)^2) + exp(x[length(x)]),
  bilinear = function(x) 1 + 10 * x[1] * x[2] + 5 * x[length(x)],
  quadratic = function(x) 1 + 5 * sum((x - 0.3)^2))

pol <- policy_ei_pu()
one <- function(st, cost, secant) {
  old <- options(costbo.secant_gradients = secant)
  on.exit(options(old))
  calls <- 0L
  counted <- function(x) {
    calls <<- calls + 1L
    cost(x)
  }
  s <- st
  s$problem$cost <- counted
  set.seed(7)
  p <- pol$propose(s)
  s$problem$cost <- cost
  t <- cpu(function() {
    set.seed(7)
    pol$propose(s)
  })
  c(calls = calls, value = p$info$acquisition, cpu = t)
}

rows <- list()
for (d in c(2L, 3L, 4L, 6L)) {
  for (cn in names(costs)) {
    calls <- NULL
    cpu_ratio <- NULL
    dval <- 0
    for (seed in 1:3) {
      st <- state_for(restricted(d), pol, seed = seed)
      for (r in seq_len(reps)) {
        a <- one(st, costs[[cn]], TRUE)
        b <- one(st, costs[[cn]], FALSE)
        cpu_ratio <- c(cpu_ratio, a[["cpu"]] / b[["cpu"]])
      }
      calls <- c(calls, a[["calls"]] / b[["calls"]])
      dval <- max(dval, abs(a[["value"]] - b[["value"]]) / abs(b[["value"]]))
    }
    rows[[length(rows) + 1L]] <- data.frame(
      d = d, cost = cn,
      calls_ratio = sprintf("%.2f-%.2f", min(calls), max(calls)),
      cpu_ratio = sprintf("%.2f", stats::median(cpu_ratio)),
      max_rel_diff = sprintf("%.1e", dval))
    cat(".")
  }
}
cat("\n")
cat(sprintf("R %s, costbo %s: EI-PU, secant gradients / differences at every",
            getRversion(), utils::packageVersion("costbo")),
    sprintf("step (calls: range over 3 states; CPU: median of %d ratios)\n",
            3L * reps))
print(do.call(rbind, rows), row.names = FALSE)
