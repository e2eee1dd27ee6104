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
#   Rscript inst/scripts/pandora.R [reduced|d16|full] [backend] [workers]
# backend: "sequential" (default), "parallel" (workers: local workers) or
# "future" (the plan set in ~/.future.R or by R_FUTURE_PLAN).
#
# Full scale (the paper's protocol): 16 replications of GP samples at
# d = 8, 16 and 32 and of Ackley, Levy and Rosenbrock at d = 16 (the
# lambda study at d = 8).
# Reduced scale (the cached result in inst/extdata/pandora.rds): GP samples
# at d = 8 and Ackley, Levy and Rosenbrock at d = 8, replications 1 to 3;
# then `d16` adds replications 1 and 2 of the GP samples at d = 16 (PBGI,
# PBGI-D, EI-PU, EI) to that cache; no d = 32.
#
# Run time, measured at reduced scale on a 2-core machine shared with other
# jobs (elapsed seconds per run): the reduced scale took 7.7 minutes of run
# time, 4.3 minutes of wall time on 2 workers. A run on a GP sample at d = 8
# took 7 to 30 s (EI 7 s, PBGI 11 s, PBGI-D 21 s, PBGI with lambda = 0.1
# 30 s: more, cheaper evaluations), on Ackley, Levy or Rosenbrock at d = 8
# 1 to 5 s; one PBGI run on a GP sample at d = 16 (about 170 evaluations)
# took close to 3 minutes and PBGI-D about 2 minutes, EI and EI-PU about
# 20 s. Run time grows with the number of evaluations (budget 25 d) and the
# dimension; a rough extrapolation (d = 32 and the synthetic functions at
# d = 16 were not run) puts the full scale at some 20 to 60 core-hours,
# dominated by d = 32, i.e. 1 to 2 hours on 32 cores with backend
# "parallel" or "future".
#
# Writes inst/extdata/pandora.rds: a list with `benchmark` (the joined
# bo_benchmark), `scale`, `date`, `version` and `seconds` (wall time).
library(costbo)

args <- commandArgs(trailingOnly = TRUE)
scale <- if (length(args) >= 1L) args[1L] else "reduced"
scale <- match.arg(scale, c("reduced", "d16", "full"))
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
if (scale == "d16") {
  # add replications 1 and 2 of the GP samples at d = 16 to the cache
  res <- readRDS(out)
  more <- run(list(`GP d=16` = gp_sample(16L)), main, 1:2, prior)
  res$benchmark <- c(res$benchmark, more)
  res$seconds <- res$seconds + as.double(difftime(Sys.time(), started,
                                                  units = "secs"))
  saveRDS(res, out, compress = "xz")
  print(summary(more))
  quit(save = "no")
}
full <- scale == "full"
d_syn <- if (full) 16L else 8L
syn <- list(synthetic("ackley", d_syn), synthetic("levy", d_syn),
            synthetic("rosenbrock", d_syn))
names(syn) <- sprintf("%s d=%d", c("Ackley", "Levy", "Rosenbrock"), d_syn)
bm <- c(run(list(`GP d=8` = gp_sample(8L)), c(main, lambdas),
            if (full) 16L else 3L, prior),
        run(syn, main, if (full) 16L else 3L))
if (full) {
  bm <- c(bm, run(list(`GP d=16` = gp_sample(16L), `GP d=32` = gp_sample(32L)),
                  main, 16L, prior))
}
seconds <- as.double(difftime(Sys.time(), started, units = "secs"))

saveRDS(list(benchmark = bm, scale = scale, date = format(Sys.Date()),
             version = as.character(utils::packageVersion("costbo")),
             seconds = seconds),
        out, compress = "xz")

print(bm)
print(summary(bm))
cat(sprintf("wall time %.1f min; core time of the runs %.1f min\n",
            seconds / 60, sum(bm$replications$seconds) / 60))
