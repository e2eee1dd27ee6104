# The cost of one value of the KG rolling-horizon rollout at horizon h
# (paper 004: a tensor Gauss-Hermite rule of 10 nodes per transition, so
# about 10 times more per step): milliseconds per value on a grid of
# points, for a GP on 20 points in two dimensions and 100 candidates.
#   R_LIBS=<lib> Rscript bench/rollout-hstep-cost.R [max h] [grid side]
suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
max_h <- if (length(args)) as.integer(args[1L]) else 4L
k <- if (length(args) > 1L) as.integer(args[2L]) else 20L
set.seed(1)
X <- matrix(runif(40), ncol = 2)
fit <- gp_fit(X, sin(5 * X[, 1]) + cos(4 * X[, 2]), lower = c(0, 0),
              upper = c(1, 1))
spec <- costbo:::acq_spec(fit, "ei", NULL, 1, NULL, NULL, NULL, NULL, NULL,
                          call = NULL)
cand <- sobol_points(100, 2)
G <- as.matrix(expand.grid(seq(0, 1, length.out = k), seq(0, 1, length.out = k)))
cat(sprintf("costbo build %s, %d points\n",
            substr(costbo_build()$source_hash, 1L, 8L), nrow(G)))
for (h in 2:max_h) {
  t <- system.time(.Call(costbo:::C_rollout_rh_value, costbo:::acq_pack(spec),
                         G, cand, costbo:::kg_control(10L, 10L, 0.9, h, FALSE),
                         as.integer(h)))[["elapsed"]]
  cat(sprintf("h = %d: %.1f ms per value\n", h, 1000 * t / nrow(G)))
}
