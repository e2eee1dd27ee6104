# Asynchronous evaluations on four workers: the cache of the section
# "Evaluations in parallel" of vignette("costbo").
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/async.R list
#   Rscript inst/scripts/async.R run <part> [<part> ...]
#   Rscript inst/scripts/async.R join [--partial <file>]
# `list` prints each part's status, build, date, seconds and command, from
# the part files; `run` writes each part to studies/async/<part>.rds (see
# study.R); `join` writes inst/extdata/async.rds. A part made by another
# build is accepted when this build's behaviour fingerprint for the part's
# policies and problems equals the one recorded with the part, else after a
# replay of its cheapest cell (see study.R).
#
# Dropwave with its cosine cost (the problem of paper 000, budget 40 after
# a free initial design of 6 Sobol points), EI-PU-CC and EI-PU, each on one
# and on four virtual workers of the simulated clock (bo_async: every
# evaluation takes its cost in simulated time, its result revealed to the
# models when it finishes; pending points are kriging-believer fantasies
# and their costs count against the budget). 50 replications; the
# policies of a replication share their problem and initial design.
# Measured: the simulated wall-clock when the budget is spent (the
# finishing time of the last evaluation), and the final simple regret.
#
# Core-hours per part, measured (the part files' seconds): k1 0.011, k4
# 0.013, under a second per replication and policy.

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
source(file.path(dirname(script), "study.R"))
suppressMessages(library(costbo))

dropwave <- quote(list(
  `Dropwave, cosine cost` = function(r) test_problem("dropwave", seed = r)))
# the policies on k workers, their names saying how many
cell <- function(k) {
  w <- if (k == 1L) "1 worker" else sprintf("%d workers", k)
  policies <- list(quote(policy_ei_pu_cc()), quote(policy_ei_pu()))
  names(policies) <- paste0(c("EI-PU-CC, ", "EI-PU, "), w)
  as.call(c(as.name("list"), policies))
}
parts <- list(
  k1 = study_recipe(dropwave, cell(1L), 50L, virtual_workers = 1L),
  k4 = study_recipe(dropwave, cell(4L), 50L, virtual_workers = 4L))

# The cache: per replication the final regret, the spend, the number of
# evaluations and the simulated clock when the budget was spent.
study_main(parts, "async", write = function(j) {
  bm <- j$benchmark
  reps <- bm$replications
  keep <- c("problem", "policy", "rep", "status", "n_evaluations", "spent",
            "regret", "clock", "seconds")
  final <- reps[, keep]
  final$log10_regret <- log10(pmax(final$regret, 1e-10))
  final$workers <- as.integer(sub(".*, ([0-9]+) workers?$", "\\1",
                                  final$policy))
  final$base <- sub(", [0-9]+ workers?$", "", final$policy)
  list(final = final, provenance = j$provenance)
})
