# Dropwave (seed 2) after 6 BO steps of EI-PU-CC (seed 2): the objective
# GP's noise and outputscale (standardized: over var(y)) and the largest EI
# over 4096 scrambled Sobol points (set.seed(1)), relative to sd(y).
# Rows: the old default model (free noise; reproduced by model =
# list(noise_floor = 1e-6, noise_ceiling = 10) for both GPs), the new default fitted to
# the same 12 points, and the run under the new default.
library(costbo)
prob <- test_problem("dropwave", seed = 2)
row <- function(label, st) {
  st <- costbo:::state_fit(st)
  fit <- st$models$f
  cf <- coef(fit)
  y <- st$value[st$status == "ok"]
  set.seed(1)
  U <- sobol_points(4096, prob$d)
  X <- sweep(sweep(U, 2, prob$upper - prob$lower, "*"), 2, prob$lower, "+")
  ei <- acq_evaluate(fit, X, type = "ei", best = costbo:::state_incumbent(st))
  data.frame(model = label, max_y = max(y), sd_y = sd(y),
             noise = cf$noise, outputscale = cf$outputscale,
             noise_std = cf$noise / sd(y)^2,
             outputscale_std = cf$outputscale / sd(y)^2,
             max_ei = max(ei), max_ei_over_sd = max(ei) / sd(y))
}
t0 <- proc.time()
old <- bo_optimize(prob, policy_ei_pu_cc(), seed = 2, max_evaluations = 6,
                   progress = FALSE,
                   model = list(noise_floor = 1e-6, noise_ceiling = 10,
                                cost = list(noise_floor = 1e-6,
                                            noise_ceiling = 10)))
new <- bo_optimize(prob, policy_ei_pu_cc(), seed = 2, max_evaluations = 6,
                   progress = FALSE)
init <- as.data.frame(old)
s <- bo_session(prob, policy_ei_pu_cc(),
                initial = data.frame(x1 = old$X[, 1], x2 = old$X[, 2],
                                     value = old$value, cost = old$cost))
tab <- rbind(row("old default (free noise), old run", old),
             row("new default (band), same 12 points", s),
             row("new default (band), new run", new))
print(format(tab, digits = 3), row.names = FALSE)
cat("elapsed", (proc.time() - t0)[["elapsed"]], "s\n")
