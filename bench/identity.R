# Bit-identity of valid runs across a change to the C boundary (issue 16):
# runs a few small benchmarks and optimizations with one installed build and
# saves their records; with a second file, compares them with identical().
#   R_LIBS=<lib-before> Rscript bench/identity.R /tmp/before.rds
#   R_LIBS=<lib-after>  Rscript bench/identity.R /tmp/after.rds /tmp/before.rds
suppressPackageStartupMessages(library(costbo))
args <- commandArgs(TRUE)
strip <- function(x) {
  # wall-clock times differ between any two runs; everything else must not
  if (is.data.frame(x)) {
    x[grep("time|seconds|elapsed", names(x))] <- NULL
    return(x)
  }
  if (is.list(x)) {
    drop <- grep("time|seconds|elapsed|provenance|build", names(x))
    if (length(drop)) x[drop] <- NULL
    return(lapply(x, strip))
  }
  x
}
out <- list()
prob <- test_problem("branin", cost_family = "cosine", budget = 8)
pols <- list(ei = policy_ei(), bmsei = policy_bmsei(steps = 3, fantasies = c(2, 2)),
             rollout_adaptive = policy_rollout("adaptive", max_horizon = 3, n_cand = 20),
             kg = policy_kg(n_cand = 20), pbgi = policy_pbgi(1e-3))
bm <- bo_benchmark(list(branin = prob), pols, reps = 2L, seed = 3L)
out$bm <- strip(as.data.frame(bm))
for (nm in names(pols)) {
  r <- bo_optimize(prob, pols[[nm]], seed = 11, progress = FALSE)
  out[[paste0("run_", nm)]] <- strip(as.data.frame(r))
}
pc <- test_problem_cvs("hartmann3", budget = 8)
r <- bo_optimize(pc, policy_ucb_cvs(n_samples = 64L), seed = 5, progress = FALSE)
out$run_cvs <- strip(as.data.frame(r))
pm <- test_problem_miso("goldstein_price", budget = 30)
r <- bo_optimize(pm, policy_kg(n_cand = 20), seed = 7, progress = FALSE)
out$run_miso_kg <- strip(as.data.frame(r))
r <- bo_optimize(pm, policy_rollout("adaptive", max_horizon = 2, n_cand = 20),
                 seed = 7, progress = FALSE)
out$run_miso_rollout <- strip(as.data.frame(r))
# above LAPACK's block size (64), the likelihood, its gradient, the final
# factor and joint samples go through the blocked factorizations of gp.c
set.seed(1)
X <- matrix(runif(2400), ncol = 2)
fit <- gp_fit(X, sin(9 * X[, 1]) + X[, 2])
out$gp_fit_n1200 <- strip(unclass(fit))
out$simulate_n1200_500 <- simulate(fit, nsim = 3, seed = 2,
                                   newdata = X[1:500, ])
saveRDS(out, args[1L])
if (length(args) > 1L) {
  before <- readRDS(args[2L])
  same <- vapply(names(before), function(n) identical(before[[n]], out[[n]]),
                 logical(1))
  print(same)
  cat(sprintf("%d of %d records identical\n", sum(same), length(same)))
}
