## The default noise model on a deterministic and on a noisy objective.
##
## Run from the repository root, after installing costbo:
##     Rscript bench/model-noise.R
##
## 1. Dropwave (test_problem("dropwave", seed = 2)) after 6 BO steps of
##    EI-PU-CC (bo_optimize(seed = 2)): the objective GP's noise and
##    outputscale (and both over var(y), the standardized scale) and the
##    largest EI over 4096 scrambled Sobol points (set.seed(1)), also over
##    sd(y). Rows: the old default (noise estimated freely for both GPs,
##    reproduced by model = list(noise_floor = 1e-6, noise_ceiling = 10,
##    cost = <the same>)), the new default (deterministic: the noise held
##    in [1e-4, 1e-3] of var(y)) fitted to the same 12 points, and the run
##    under the new default.
## 2. Hartmann-6 with noise sd 0.1 (noisy = TRUE) after 100 evaluations of
##    EI (14 initial), seeds 1-6: the estimated noise sd, the plug-in
##    incumbent (largest posterior mean at the evaluated points) against the
##    largest observation, and the largest EI over 4096 Sobol points with
##    each.
## 3. The same noisy Hartmann-6 at 100 uniform random points: the noise is
##    much less identifiable there (no points close together).
library(costbo)

prob <- test_problem("dropwave", seed = 2)
set.seed(1)
U2 <- sobol_points(4096, 2)
X2 <- sweep(sweep(U2, 2, prob$upper - prob$lower, "*"), 2, prob$lower, "+")
row <- function(label, st) {
  st <- costbo:::state_fit(st)
  fit <- st$models$f
  cf <- coef(fit)
  y <- st$value[st$status == "ok"]
  ei <- acq_evaluate(fit, X2, type = "ei", best = costbo:::state_incumbent(st))
  data.frame(model = label, max_y = max(y), sd_y = sd(y),
             noise = cf$noise, outputscale = cf$outputscale,
             noise_std = cf$noise / sd(y)^2,
             outputscale_std = cf$outputscale / sd(y)^2,
             max_ei = max(ei), max_ei_over_sd = max(ei) / sd(y))
}
free <- list(noise_floor = 1e-6, noise_ceiling = 10)
old <- bo_optimize(prob, policy_ei_pu_cc(), seed = 2, max_evaluations = 6,
                   progress = FALSE, gp_args = c(free, list(cost = free)))
new <- bo_optimize(prob, policy_ei_pu_cc(), seed = 2, max_evaluations = 6,
                   progress = FALSE)
s <- bo_session(prob, policy_ei_pu_cc(),
                initial = data.frame(x1 = old$X[, 1], x2 = old$X[, 2],
                                     value = old$value, cost = old$cost))
tab <- rbind(row("old default (free noise), old run", old),
             row("new default (band), same 12 points", s),
             row("new default (band), new run", new))
cat("Dropwave, seed 2, after 6 steps of EI-PU-CC\n")
print(format(tab, digits = 3), row.names = FALSE)

h6 <- test_problem("hartmann6", noise_sd = 0.1, budget = 1000)
set.seed(1)
U6 <- sobol_points(4096, 6)
rows <- lapply(1:6, function(seed) {
  run <- bo_optimize(h6, policy_ei(), seed = seed, max_evaluations = 86,
                     progress = FALSE)
  st <- costbo:::state_fit(run)
  fit <- st$models$f
  inc <- costbo:::state_incumbent(st)
  data.frame(seed = seed, n = length(run$value),
             noise_sd = sqrt(coef(fit)$noise), incumbent = inc,
             best_observed = max(run$value),
             max_ei_plugin = max(acq_evaluate(fit, U6, "ei", best = inc)),
             max_ei_best_obs = max(acq_evaluate(fit, U6, "ei",
                                                best = max(run$value))))
})
cat("\nHartmann-6, noise sd 0.1 (true maximum 3.32237), after 100",
    "evaluations of EI\n")
print(format(do.call(rbind, rows), digits = 3), row.names = FALSE)

# 3. The same noisy Hartmann-6 at 100 uniform random points (no BO): the
#    estimated noise sd of the default (noisy) fit, and the realized sd.
f6 <- test_problem("hartmann6")$objective
rows <- lapply(1:6, function(seed) {
  set.seed(seed)
  X <- matrix(stats::runif(600), 100)
  f <- apply(X, 1, f6)
  y <- f + stats::rnorm(100, sd = 0.1)
  init <- data.frame(X, value = y)
  names(init)[1:6] <- paste0("x", 1:6)
  st <- costbo:::state_fit(bo_session(h6, policy_ei(), initial = init))
  data.frame(seed = seed, noise_sd = sqrt(coef(st$models$f)$noise),
             realized_sd = sd(y - f))
})
cat("\nHartmann-6, noise sd 0.1, at 100 uniform random points\n")
print(format(do.call(rbind, rows), digits = 3), row.names = FALSE)
