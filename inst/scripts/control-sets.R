# Bayesian optimization with cost-varying variable subsets (Tay et al.
# 2023, Fig. 2 protocol): the cache of vignette("control-sets",
# package = "costbo").
#
# Run from the repository root with costbo installed:
#   Rscript inst/scripts/control-sets.R [reduced|quality|full] [backend] [workers]
# e.g. `Rscript inst/scripts/control-sets.R full parallel 32`, or backend
# "future" under a future::plan() set in ~/.Rprofile.  The reduced and full
# scales write inst/extdata/control-sets.rds, the quality scale
# inst/extdata/control-sets-quality.rds: a list with the benchmark (`bm`, a
# bo_benchmark; its `evaluations` record the control set played) and the
# settings.
#
# Protocol (paper 003, Sec. 5 and App. C): the GP-sample and Hartmann-3
# objectives on [0, 1]^3 with all seven control sets, the cheap, moderate
# and expensive cost sets, inputs drawn from truncated normals of variance
# 0.02, 0.04 and 0.08, observation noise 0.01, budget 50, 5 random initial
# points, fixed GP hyperparameters (SE kernel, lengthscale 0.1, outputscale
# 1), beta = 2, and the simple regret of the expected objective against the
# cost spent.
#
# Full scale: 10 seeds of TS-PSQ, UCB-PSQ, ETC-50, ETC-100 and ETC-Ada with
# 1024 samples per expectation, 100 raw points and 4 starts per controlled
# input, for the variances 0.02, 0.04 and 0.08.
# Quality scale (the cache of the vignette's ten-seed table; about 40
# minutes on 2 cores): 10 seeds of TS-PSQ, UCB-PSQ and ETC-Ada, variance
# 0.02, all three cost sets, with the reduced scale's expectations and
# maximizations (32 samples, 8 raw points, 1 start).
# Reduced scale (the vignette's other cache; 16 minutes on 2 cores):
# 2 seeds, 32 samples, 8 raw points and 1 start per controlled input,
# variance 0.02 only, TS-PSQ, UCB-PSQ, ETC-50 and ETC-Ada (ETC-Ada under
# moderate and expensive costs; the quality scale has it under cheap costs).
#
# Run time on one core at the reduced settings, per run: UCB-PSQ 2 s,
# TS-PSQ 35 s, ETC-Ada 30 s (moderate and expensive costs) to about a
# minute (cheap costs: 440 exploring steps with up to ~500 observations),
# ETC-50 100 s.  An exploring step of the ETC variants costs about
# 32 (samples) x 6 (raw points and starts) = 200 times more at full scale:
# an ETC-Ada run under moderate costs takes about a minute at full scale,
# under cheap costs (the cost of a step grows with the square of the
# number of observations) several hours, and an ETC-50 or ETC-100 run up
# to about 5 hours; UCB-PSQ and TS-PSQ, which play the full control set,
# stay within minutes.  In all, several hundred core-hours for 10 seeds and
# three variances: a day on a 64-core node with backend "parallel", or a
# batch scheduler through backend "future".

library(costbo)
args <- commandArgs(trailingOnly = TRUE)
scale <- if (length(args) >= 1L) args[[1L]] else "reduced"
scale <- match.arg(scale, c("reduced", "quality", "full"))
backend <- if (length(args) >= 2L) args[[2L]] else "parallel"
workers <- if (length(args) >= 3L) as.integer(args[[3L]]) else 2L
out_file <- file.path("inst", "extdata",
                      if (scale == "quality") "control-sets-quality.rds" else
                        "control-sets.rds")
full <- scale == "full"
settings <- list(seeds = if (scale == "reduced") 2L else 10L,
                 n_samples = if (full) 1024L else 32L,
                 n_raw = if (full) 100L else 8L,
                 n_starts = if (full) 4L else 1L,
                 variances = if (full) c(0.02, 0.04, 0.08) else 0.02,
                 budget = 50, n_init = 5L)
model <- list(kernel = "se", estimate = "fixed", lengthscale = 0.1,
              outputscale = 1, noise = 1e-4)
acq <- settings[c("n_samples", "n_raw", "n_starts")]
policies <- list(
  `TS-PSQ` = do.call(policy_ts_psq, acq),
  `UCB-PSQ` = do.call(policy_ucb_psq, acq),
  `ETC-50` = do.call(policy_etc, c(list(plays = 50), acq)),
  `ETC-100` = do.call(policy_etc, c(list(plays = 100), acq)),
  `ETC-Ada` = do.call(policy_etc, c(list(plays = "adaptive"), acq)))
if (!full) policies$`ETC-100` <- NULL
if (scale == "quality") policies <- policies[c("TS-PSQ", "UCB-PSQ", "ETC-Ada")]
# the replication's GP sample; the closure carries everything it needs, so
# it runs on PSOCK and future workers too
problem <- function(name, costs, variance, budget) {
  force(name)
  force(costs)
  force(variance)
  force(budget)
  function(r) {
    test_problem_cvs(name, costs = costs, variance = variance, seed = r,
                     budget = budget)
  }
}
grid <- expand.grid(costs = c("cheap", "moderate", "expensive"),
                    name = c("gp_sample", "hartmann3"),
                    variance = settings$variances,
                    stringsAsFactors = FALSE)
problems <- stats::setNames(
  Map(problem, grid$name, grid$costs, grid$variance, settings$budget),
  sprintf("%s, %s%s", ifelse(grid$name == "gp_sample", "GP sample",
                             "Hartmann-3"), grid$costs,
          if (full) sprintf(", variance %g", grid$variance) else ""))
bench <- function(problems, policies) {
  bo_benchmark(problems, policies, reps = settings$seeds, backend = backend,
               workers = workers, seed = 1L, n_init = settings$n_init,
               model = model, progress = TRUE)
}
t_start <- proc.time()[["elapsed"]]
cheap <- grepl("cheap", names(problems))
bm <- if (scale != "reduced") bench(problems, policies) else {
  c(bench(problems, policies[names(policies) != "ETC-Ada"]),
    bench(problems[!cheap], policies["ETC-Ada"]))
}
res <- list(bm = bm, settings = settings, model = model, scale = scale,
            backend = backend, workers = workers,
            seconds = proc.time()[["elapsed"]] - t_start, date = Sys.Date(),
            costbo = as.character(utils::packageVersion("costbo")))
saveRDS(res, out_file, compress = "xz")
print(summary(bm))
cat(sprintf("total %.0f s\n", res$seconds))
