# The Pandora's Box Gittins index against expected improvement (Xie et al.
# 2024, paper 002, Fig. 3 right, 4 and 5, cost-aware setting): the cache of
# vignette("pandora").
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/pandora.R list
#   Rscript inst/scripts/pandora.R run <part> [<part> ...]
#     [--backend parallel --processes 2]
#   Rscript inst/scripts/pandora.R join [--partial <file>]
# `list` prints each part's status, build, date, seconds and command, from
# the part files; `run` writes each part to studies/pandora/<part>.rds as
# soon as it is done (with the build of costbo that made it and the
# command); `join` reads all parts and writes inst/extdata/pandora.rds (see
# inst/scripts/study.R), with each replication's regret at 10%, 25% and
# 50% of the budget (`at_fraction`) next to the measures at the budget and
# the curves. A part made by another build is accepted when this build's
# behaviour fingerprint for the part's policies and problems equals the one
# recorded with the part, else after a replay of its cheapest cell (see
# study.R).
#
# Protocol of the paper's code: the known cost c(x) = 20 (0.05 + mean(u))
# (u: x scaled to the unit cube; costs in [1, 21]), budget 25 d, an initial
# design of 2(d + 1) Sobol points (free), 16 replications.
# * Bayesian regret: objectives drawn from the GP prior (Matern 5/2,
#   lengthscale 0.1, outputscale 1, 1024 random Fourier features, a new
#   sample per replication) at d = 4, 8, 16 and 32, optimized with a GP that
#   has these same fixed hyperparameters (mean 0, no estimation).
# * Ackley on [-1, 1]^16, Levy / 100 and Rosenbrock / 1e5 at d = 16 (the
#   paper's code), with GP hyperparameters estimated (by MAP at every step;
#   the paper estimates them once in advance by maximum likelihood).
# Policies: PBGI (lambda = 1e-4), PBGI-D (lambda from 0.1, halved whenever
# the Pandora stopping rule fires), EI-PU (the paper's EIPC) and EI (its
# EIPC-U); B-MS-EI (paper 000; 2- and 4-step path variants) on the GP
# samples at d = 4 and 8, and the 4-step tree at d = 4; PBGI with lambda =
# 1e-1, 1e-2 and 1e-3 on the GP samples at d = 8 (the paper's study of
# lambda).
#
# Run time, seconds of one core per replication, measured on single
# replications with the other core busy: GP samples at d = 4: B-MS-EI
# paths 2-4 s; d = 8: EI 7 s, PBGI 11 s, PBGI-D 21 s, PBGI with lambda =
# 0.1 30 s; d = 16: PBGI about 3 min, PBGI-D 2 min, EI and EI-PU 20 s;
# d = 32: EI 8 s (138 evaluations), PBGI 20 min (517 evaluations: the index
# buys many cheap evaluations and the GP grows to hundreds of points in 32
# dimensions; the parts' replications of PBGI and PBGI-D at d = 32 made
# 517-664 evaluations each). Hence parts of one policy and 8 (d = 16) or 4
# (d = 32) replications. On Ackley, Levy and Rosenbrock at d = 16 a run
# makes about 35 evaluations after its initial design of 34.
#
# Core-hours per part, measured (the part files' seconds, 9.8 for the 60
# parts):
#   gp4_*, gp8_*                                         0.02-0.09 (0.3 in all)
#   gp16_ei_*, gp16_ei_pu_*                              0.003-0.011
#   gp16_pbgi_*, gp16_pbgi_d_*                           0.07-0.12
#   gp32_ei_*, gp32_ei_pu_*                              0.005-0.023
#   gp32_pbgi_*                                          0.76-1.05
#   gp32_pbgi_d_*                                        0.88-1.65
#   {ackley,levy,rosenbrock}16_{pbgi,pbgi_d,ei,ei_pu}_*  0.001-0.007
#   {ackley,levy,rosenbrock}16_bmsei4p_*                 0.08-0.10
# so about 8.5 of the 9.8 core-hours are PBGI and PBGI-D at d = 32. The
# cache records the measured total (provenance$core_seconds).

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
source(file.path(dirname(script), "study.R"))
suppressMessages(library(costbo))

# list(`<label>` = <code>), as a call
one <- function(label, code) {
  as.call(c(as.name("list"), stats::setNames(list(code), label)))
}
gp <- function(d) {
  one(sprintf("GP d=%d", d),
      bquote(function(r) test_problem("gp_sample", d = .(as.integer(d)),
                                      seed = r)))
}
# The GP prior of the samples, held fixed.
prior <- list(estimate = "fixed", lengthscale = 0.1, outputscale = 1,
              noise = 1e-6, mean = 0)
synthetic <- function(name, label) {
  one(sprintf("%s d=16", label),
      bquote(function(r) test_problem(.(name), d = 16L,
                                      cost_family = "linear", seed = r)))
}
pbgi <- one("PBGI", quote(policy_pbgi(lambda = 1e-4)))
pbgi_d <- one("PBGI-D", quote(policy_pbgi_d()))
ei_pu <- one("EI-PU", quote(policy_ei_pu()))
ei <- one("EI", quote(policy_ei()))
main <- quote(list(PBGI = policy_pbgi(lambda = 1e-4),
                   `PBGI-D` = policy_pbgi_d(), `EI-PU` = policy_ei_pu(),
                   EI = policy_ei()))
bmsei <- quote(list(`2-B-MS-EI_p` = policy_bmsei(steps = 2, path = TRUE),
                    `4-B-MS-EI_p` = policy_bmsei(steps = 4, path = TRUE)))
tree <- quote(list(`4-B-MS-EI` = policy_bmsei(steps = 4,
                                              fantasies = c(4, 4, 2))))
lambdas <- quote(list(`PBGI 1e-1` = policy_pbgi(lambda = 1e-1),
                      `PBGI 1e-2` = policy_pbgi(lambda = 1e-2),
                      `PBGI 1e-3` = policy_pbgi(lambda = 1e-3)))
halves <- list(r01_08 = 1:8, r09_16 = 9:16)
quarters <- list(r01_04 = 1:4, r05_08 = 5:8, r09_12 = 9:12, r13_16 = 13:16)
per_policy <- list(pbgi = pbgi, pbgi_d = pbgi_d, ei_pu = ei_pu, ei = ei)
# the paper's BMSEI: 4 lookahead steps, one fantasy each (its Appendix B)
bmsei4p <- list(bmsei4p = one("4-B-MS-EI_p",
                              quote(policy_bmsei(steps = 4, path = TRUE))))
# parts of one problem: one per policy and block of replications
split_parts <- function(prefix, problems, blocks, model = list(),
                        policies = per_policy) {
  out <- list()
  for (p in names(policies)) for (b in names(blocks)) {
    out[[sprintf("%s_%s_%s", prefix, p, b)]] <-
      study_recipe(problems, policies[[p]], blocks[[b]], model = model)
  }
  out
}
parts <- c(
  list(gp4_main = study_recipe(gp(4), main, 16L, model = prior),
       gp4_bmsei = study_recipe(gp(4), bmsei, 16L, model = prior),
       gp4_tree = study_recipe(gp(4), tree, 16L, model = prior),
       gp8_main = study_recipe(gp(8), main, 16L, model = prior),
       gp8_bmsei = study_recipe(gp(8), bmsei, 16L, model = prior),
       gp8_lambda = study_recipe(gp(8), lambdas, 16L, model = prior)),
  split_parts("gp16", gp(16), halves, prior),
  split_parts("gp32", gp(32), quarters, prior),
  split_parts("ackley16", synthetic("ackley", "Ackley"), halves,
              policies = c(per_policy, bmsei4p)),
  split_parts("levy16", synthetic("levy", "Levy"), halves,
              policies = c(per_policy, bmsei4p)),
  split_parts("rosenbrock16", synthetic("rosenbrock", "Rosenbrock"), halves,
              policies = c(per_policy, bmsei4p)))

# Each replication's regret part-way through its budget: bo_claim() pairs
# replications, and the cache's curves are aggregated, so the claims about
# small cost budgets (Fig. 3 right, Levy and Rosenbrock in Fig. 5) need it.
# One row per problem, policy, replication and fraction of the budget, read
# at the grid cost at or just below that fraction (as bo_compare() reads a
# cost).
at_fractions <- function(bm, fractions = c(0.1, 0.25, 0.5)) {
  df <- as.data.frame(bm)
  out <- do.call(rbind, lapply(fractions, function(f) {
    at <- stats::ave(df$cost, df$problem, FUN = function(g) {
      max(g[g <= f * max(g) * (1 + 1e-12)])
    })
    e <- df[df$cost == at, c("problem", "policy", "rep", "cost", "regret",
                             "log10_regret")]
    cbind(e[, c("problem", "policy", "rep")], fraction = f,
          e[, c("cost", "regret", "log10_regret")])
  }))
  out <- out[order(out$problem, out$policy, out$fraction, out$rep), ]
  rownames(out) <- NULL
  out
}

# The cache: study_slim()'s final measures and curves, the regret part-way
# (at_fractions()) and the provenance.
study_main(parts, "pandora", write = function(j) {
  c(study_slim(j$benchmark), list(at_fraction = at_fractions(j$benchmark),
                                  provenance = j$provenance))
})
