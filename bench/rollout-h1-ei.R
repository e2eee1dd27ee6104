# Is an h = 1 CMDP rollout EI on a deterministic objective? On Dropwave
# states (paper 000's cosine cost, a budget that never binds, 6 design
# points and 4 steps of EI, seeds 1-4), the relative difference between
# policy_cmdp_rollout(1)'s acquisition and EI's (policy_ei()) at 200
# uniform points and 200 points within about 0.02 of the evaluations, where
# EI is tiny, by band of EI; with fantasy = "latent" (the default) and
# "observation" (the former rule, what policy_rollout() makes). Also KG
# (policy_kg_rollout(1)) with latent against observed fantasies.
#   R_LIBS=<lib> Rscript bench/rollout-h1-ei.R
suppressPackageStartupMessages(library(costbo))
cat(sprintf("costbo build %s\n", substr(costbo_build()$source_hash, 1L, 8L)))
states <- lapply(1:4, function(seed) {
  prob <- test_problem("dropwave", cost_family = "linear", budget = 1e6)
  run <- bo_optimize(prob, policy_ei(), n_init = 6, seed = seed,
                     max_evaluations = 4, progress = FALSE,
                     charge_initial = FALSE)
  init <- as.data.frame(run)[, c("x1", "x2", "value", "cost")]
  set.seed(100 + seed)
  X <- rbind(matrix(runif(400, -5.12, 5.12), ncol = 2),
             as.matrix(init[rep(1:10, 20), 1:2]) +
               matrix(rnorm(400, sd = 0.02), ncol = 2))
  list(prob = prob, init = init, X = pmin(pmax(X, -5.12), 5.12))
})
acq <- function(s, pol) {
  set.seed(1)
  bo_acquisition(bo_session(s$prob, pol, initial = s$init), s$X)
}
for (fantasy in c("latent", "observation")) {
  rel <- do.call(rbind, lapply(states, function(s) {
    ei <- acq(s, policy_ei())
    r <- acq(s, policy_cmdp_rollout(1, n_samples = 64, fantasy = fantasy))
    ok <- ei > 0
    data.frame(ei = ei[ok], rel = abs(r[ok] / ei[ok] - 1))
  }))
  band <- cut(log10(rel$ei), c(-Inf, -80, -40, -10, -4, 0))
  cat(sprintf("\nfantasy = \"%s\": |rollout / EI - 1| at %d points, EI from %.3g to %.3g\n",
              fantasy, nrow(rel), min(rel$ei), max(rel$ei)))
  tab <- do.call(rbind, lapply(split(rel$rel, band), function(v) {
    c(points = length(v), median = stats::median(v), max = max(v))
  }))
  print(signif(tab, 3))
}
rel <- unlist(lapply(states, function(s) {
  lat <- acq(s, policy_kg_rollout(1, fantasy = "latent"))
  obs <- acq(s, policy_kg_rollout(1, fantasy = "observation"))
  ok <- obs > 0
  abs(lat[ok] / obs[ok] - 1)
}))
cat("\nKG, |latent / observed - 1|:\n")
print(signif(stats::quantile(rel, c(0.5, 0.9, 0.99, 1)), 3))
