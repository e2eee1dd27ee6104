# The Pandora's Box Gittins index against expected improvement (Xie et al.
# 2024, Fig. 3 right, 4 and 5, cost-aware setting): simple regret against
# the budget spent, with the paper's known cost c(x) = 20 (0.05 + mean(u))
# (u: x scaled to the unit cube; costs in [1, 21]), budget 25 d, initial
# design 2(d + 1) Sobol points (free).
# * Bayesian regret: objectives drawn from the GP prior (Matern 5/2,
#   lengthscale 0.1, outputscale 1, a new sample per replication), optimized
#   with a GP that has these same fixed hyperparameters (mean 0, no
#   estimation), as in the paper.
# * Ackley on [-1, 1]^d, Levy / 100 and Rosenbrock / 1e5 (the paper's code),
#   with GP hyperparameters estimated (by MAP at every step; the paper
#   estimates them once in advance by maximum likelihood).
# Policies: PBGI (lambda = 1e-4), PBGI-D (lambda from 0.1, halved whenever
# the Pandora stopping rule fires), EI-PU (the paper's EIPC) and EI (its
# EIPC-U); and, for the effect of lambda, PBGI with lambda = 1e-1, 1e-2,
# 1e-3 on the GP samples of the smallest d.
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/pandora.R [reduced|full] [backend] [workers]
# backend: "sequential" (default), "parallel" (workers: local workers) or
# "future" (the plan set in ~/.future.R or by R_FUTURE_PLAN).
#
# Full scale (the paper's protocol): 16 replications of GP samples at
# d = 8, 16 and 32 and of Ackley, Levy and Rosenbrock at d = 16 (the
# lambda study at d = 8).
# Reduced scale (the cached result in inst/extdata/pandora.rds): GP samples
# at d = 8 and Ackley, Levy and Rosenbrock at d = 8, replications 1 to 3
# (no d = 16 or 32: too slow for the machine that made the cache).
#
# Run time, on one core of the machine that made the cache (shared with
# other jobs): see the end of this header, measured at reduced scale.
#
# Writes inst/extdata/pandora.rds: a list with `benchmark` (the joined
# bo_benchmark), `scale`, `date`, `version` and `seconds` (wall time).
library(costbo)

args <- commandArgs(trailingOnly = TRUE)
scale <- if (length(args) >= 1L) args[1L] else "reduced"
scale <- match.arg(scale, c("reduced", "full"))
backend <- if (length(args) >= 2L) args[2L] else "sequential"
workers <- if (length(args) >= 3L) as.integer(args[3L]) else NULL
out <- file.path("inst", "extdata", "pandora.rds")

main <- list(PBGI = policy_pbgi(lambda = 1e-4), `PBGI-D` = policy_pbgi_d(),
             `EI-PU` = policy_ei_pu(), EI = policy_ei())
lambdas <- list(`PBGI 1e-1` = policy_pbgi(lambda = 1e-1),
                `PBGI 1e-2` = policy_pbgi(lambda = 1e-2),
                `PBGI 1e-3` = policy_pbgi(lambda = 1e-3))
# The GP prior of the samples: test_problem("gp_sample") draws from
# Matern 5/2 with lengthscale 0.1 and outputscale 1 on [0, 1]^d.
prior <- list(estimate = "fixed", lengthscale = 0.1, outputscale = 1,
              noise = 1e-6, mean = 0)

gp_sample <- function(d) function(r) test_problem("gp_sample", d = d, seed = r)
synthetic <- function(name, d) {
  function(r) test_problem(name, d = d, cost = "linear", seed = r)
}
run <- function(problems, policies, reps, model = list()) {
  bo_benchmark(problems, policies, reps = reps, backend = backend,
               workers = workers, seed = 1L, model = model, progress = TRUE)
}

started <- Sys.time()
if (scale == "full") {
  d_syn <- 16L
  parts <- list(
    run(list(`GP d=8` = gp_sample(8L)), c(main, lambdas), 16L, prior),
    run(list(`GP d=16` = gp_sample(16L), `GP d=32` = gp_sample(32L)), main,
        16L, prior))
  reps_syn <- 16L
} else {
  d_syn <- 8L
  parts <- list(
    run(list(`GP d=8` = gp_sample(8L)), c(main, lambdas), 3L, prior))
  reps_syn <- 3L
}
syn <- list(synthetic("ackley", d_syn), synthetic("levy", d_syn),
            synthetic("rosenbrock", d_syn))
names(syn) <- sprintf("%s d=%d", c("Ackley", "Levy", "Rosenbrock"), d_syn)
parts <- c(parts, list(run(syn, main, reps_syn)))
bm <- do.call(c, parts)
seconds <- as.double(difftime(Sys.time(), started, units = "secs"))

saveRDS(list(benchmark = bm, scale = scale, date = format(Sys.Date()),
             version = as.character(utils::packageVersion("costbo")),
             seconds = seconds),
        out, compress = "xz")

print(bm)
print(summary(bm))
cat(sprintf("wall time %.1f min; core time of the runs %.1f min\n",
            seconds / 60, sum(bm$replications$seconds) / 60))
