# Rollout policies on the protocols of Lee et al. (2021) and Yue and
# Kontar (2020): the cache of vignette("rollout", package = "costbo").
#
# Run from the repository root with costbo installed:
#   Rscript inst/scripts/rollout.R [reduced|full] [backend] [workers]
# e.g. `Rscript inst/scripts/rollout.R full parallel 32` on a 32-core node,
# or backend "future" under a future::plan() set in ~/.Rprofile (a cluster
# or a batch scheduler through future.batchtools).  The result is written
# to inst/extdata/rollout.rds: a list with the two benchmarks (`lee2021`,
# `gap`; bo_benchmark objects), the parts they join (`parts`), the Gap
# table (`gap_runs`, one row per replication) and the settings.
#
# Full scale (the papers' protocols):
# * Paper 001, Sec. 6.1 / Fig. 4: test_problem("lee2021"), budget 150,
#   EI, EI per unit cost and CMDP rollout h = 2 and h = 4 with 64 QMC
#   samples, 50 replications.
# * Paper 004, Tables 2 and 3 / Fig. 1: Branin, Six-hump camel and
#   Griewank-3 with one source, 10 d evaluations of cost 1 after 9 initial
#   points; Goldstein-Price and Bohachevsky with three sources
#   (test_problem_miso(): the objective at cost 5 d = 10 and two biased
#   sources at cost d = 2, budget 10 d^2 = 40, 9 initial points at every
#   source); 30 replications of the rolling-horizon rollout (alpha = 0.9,
#   h <= 5) with the error constant K = 1 and K = 0.01, greedy KG (misoKG
#   with sources), EI (one source only) and KG rollout with fixed
#   h = 2, 3, 4, 5.  Goldstein-Price and Bohachevsky are also run with one
#   source, as a supplement.
# Run time on one core (replications of paper 004 measured while the other
# core ran another replication).  Paper 001 (64 QMC samples): a replication
# of CMDP rollout takes about 20 s with h = 2 and 75 s with h = 4, so 50
# replications take about 80 minutes.  Paper 004, one source: a replication
# of KG rollout with fixed horizon takes about 3 s (h = 2), 10 s (h = 3),
# 32 s (h = 4) and 105 s (h = 5) on Branin and Six-hump camel (Gauss-Hermite
# quadrature with 10 nodes per stage; Griewank-3 takes about 2.8 times as
# long); the rolling horizon with K = 0.01 about 20 s, with K = 1, KG and
# EI about a second.  Three sources: about 30 s (h = 2) and 110 s (h = 3)
# per replication, each further stage multiplying that by about 3.5, so
# h = 4 and h = 5 take about 7 and 25 minutes; the rolling horizon with
# K = 0.01 several minutes.  In all, about 50 core-hours, two thirds of them
# the three-source fixed h = 4 and 5: about an hour on 64 cores.
#
# Reduced scale (the shipped cache): paper 001 at the protocol's settings
# with 20 replications of EI, EI per unit cost and CMDP rollout h = 2 and
# h = 4 (64 QMC samples).  Paper 004 with 30 replications (the protocol's
# number) of the rolling horizon (K = 1) and greedy KG on all five
# functions, of EI with one source, of fixed h = 2, 3, 4 on Branin,
# Six-hump camel and Griewank-3, and of fixed h = 2 with three sources.
# 10 replications of fixed h = 5 and of the rolling horizon with K = 0.01
# on Branin, Six-hump camel and Griewank-3, of fixed h = 3 with three
# sources, and of fixed h = 2, 3, 4 on the one-source Goldstein-Price and
# Bohachevsky.  About 3 hours on 2 cores.  Parts already in the cache file
# are reused, so deleting one part from it and rerunning recomputes that
# part only.

library(costbo)
args <- commandArgs(trailingOnly = TRUE)
scale <- if (length(args) >= 1L) args[[1L]] else "reduced"
scale <- match.arg(scale, c("reduced", "full"))
backend <- if (length(args) >= 2L) args[[2L]] else "parallel"
workers <- if (length(args) >= 3L) as.integer(args[[3L]]) else 2L
out_file <- file.path("inst", "extdata", "rollout.rds")
full <- scale == "full"
bench <- function(problems, policies, reps, n_init = NULL) {
  bo_benchmark(problems, policies, reps = reps, backend = backend,
               workers = workers, seed = 1L, n_init = n_init,
               progress = TRUE)
}
# Each part is saved as soon as it is done, and a rerun at the same scale
# reuses the parts already in the file (so an interrupted run resumes).
res <- if (file.exists(out_file)) readRDS(out_file) else list()
if (!identical(res$scale, scale)) res <- list(scale = scale, parts = list())
part <- function(name, expr) {
  if (is.null(res$parts[[name]])) {
    res$parts[[name]] <<- expr
    res$backend <<- backend
    res$workers <<- workers
    res$date <<- Sys.Date()
    res$costbo <<- as.character(utils::packageVersion("costbo"))
    saveRDS(res, out_file, compress = "xz")
  }
  res$parts[[name]]
}

# --- Paper 001, Sec. 6.1 ----------------------------------------------------
n_qmc <- 64L
res$n_qmc <- n_qmc
lee <- list(lee2021 = test_problem("lee2021"))
bm1 <- c(
  part("lee_myopic", bench(lee, list(EI = policy_ei(),
                                     `EI-PU` = policy_ei_pu()),
                           reps = if (full) 50L else 20L)),
  part("lee_rollout", bench(lee, stats::setNames(
    list(policy_rollout(2, n_samples = n_qmc),
         policy_rollout(4, n_samples = n_qmc)),
    c("CMDP rollout h = 2", "CMDP rollout h = 4")),
    reps = if (full) 50L else 20L)))

# --- Paper 004, Tables 2 and 3 -----------------------------------------------
# Single source: Branin, Six-hump camel and Griewank-3 (the protocol), and
# Goldstein-Price and Bohachevsky as well (a supplement: the protocol runs
# these two with information sources).
problems <- list(
  `Branin` = test_problem("branin"),
  `Six-hump camel` = test_problem("six_hump_camel"),
  `Goldstein-Price` = test_problem("goldstein_price"),
  `Bohachevsky` = test_problem("bohachevsky"),
  `Griewank-3` = test_problem("griewank", d = 3))
single <- problems[c("Branin", "Six-hump camel", "Griewank-3")]
# Three sources: the objective (cost 5 d = 10) and two biased versions of it
# (cost d = 2 each), budget 10 d^2 = 40 (test_problem_miso()).
miso <- list(
  `Goldstein-Price, 3 sources` = test_problem_miso("goldstein_price"),
  `Bohachevsky, 3 sources` = test_problem_miso("bohachevsky"))
n_init <- 9L
greedy <- list(`rolling horizon` = policy_rollout("adaptive"),
               `greedy KG` = policy_kg(), EI = policy_ei())
small_k <- list(`rolling horizon (K = 0.01)` = policy_rollout(
  "adaptive", control = list(error_const = 0.01)))
fixed <- function(h) {
  stats::setNames(list(policy_rollout(h, base = "kg")),
                  sprintf("KG rollout h = %d", h))
}
parts <- if (full) {
  c(list(part("gap_greedy", bench(problems, greedy, 30L, n_init)),
         part("gap_small_k", bench(problems, small_k, 30L, n_init)),
         part("miso_greedy", bench(miso, greedy[1:2], 30L, n_init)),
         part("miso_small_k", bench(miso, small_k, 30L, n_init))),
    lapply(2:5, function(h) {
      part(sprintf("gap_h%d", h), bench(problems, fixed(h), 30L, n_init))
    }),
    lapply(2:5, function(h) {
      part(sprintf("miso_h%d", h), bench(miso, fixed(h), 30L, n_init))
    }))
} else {
  list(part("gap_greedy", bench(problems, greedy, 30L, n_init)),
       part("gap_h2", bench(problems, fixed(2), 10L, n_init)),
       part("gap_h3", bench(problems, fixed(3), 10L, n_init)),
       part("gap_h4", bench(problems, fixed(4), 10L, n_init)),
       part("gap_small_k", bench(problems["Branin"], small_k, 4L, n_init)),
       part("miso_greedy", bench(miso, greedy[1:2], 30L, n_init)),
       part("miso_h2", bench(miso, fixed(2), 10L, n_init)),
       part("gap_h5", bench(single, fixed(5), 10L, n_init)),
       part("miso_h3", bench(miso, fixed(3), 10L, n_init)),
       part("gap_h2_more", bench(single, fixed(2), 11:30, n_init)),
       part("gap_h3_more", bench(single, fixed(3), 11:30, n_init)),
       part("gap_h4_more", bench(single, fixed(4), 11:30, n_init)),
       part("gap_small_k_more", bench(single[-1L], small_k, 4L, n_init)),
       part("miso_h2_more", bench(miso, fixed(2), 11:30, n_init)),
       part("gap_small_k_10", bench(single, small_k, 5:10, n_init)))
}
bm4 <- do.call(c, parts)
res$lee2021 <- bm1
res$gap <- bm4

# The Gap G = (f_N - f_1) / (optimum - f_1) per replication (paper 004,
# eq. 17, written for maximization).  With one source, f_1 and f_N are the
# best values of the initial design and of all evaluations.  With
# information sources the objective itself is rarely evaluated, so f_1 and
# f_N are the objective at the recommendation after the initial design and
# after the last evaluation: among the points evaluated so far (at any
# source), the one of largest posterior mean of the objective (source 0)
# under gp_fit_miso() of those evaluations (Poloczek et al. 2017).
miso_value <- function(e, prob) {
  X <- as.matrix(e[, paste0("x", seq_len(prob$d))])
  fit <- gp_fit_miso(X, e$source, e$value, n_sources = prob$n_sources,
                     lower = prob$lower, upper = prob$upper)
  mu <- stats::predict(fit, cbind(X, 0), sd = FALSE)$mean
  prob$objective(X[which.max(mu), ], 0L)
}
ev <- bm4$evaluations
ok <- ev$status == "ok"
key <- interaction(ev$problem, ev$policy, ev$rep, drop = TRUE)
first <- ev[!duplicated(key), c("problem", "policy", "rep")]
runs <- split(ev[ok, ], key[ok], drop = TRUE)[
  as.character(interaction(first$problem, first$policy, first$rep,
                           drop = TRUE))]
all_problems <- c(problems, miso)
f1fn <- t(mapply(function(e, name) {
  prob <- all_problems[[name]]
  if (isTRUE(prob$miso)) {
    c(miso_value(e[e$phase == "initial", ], prob), miso_value(e, prob))
  } else {
    c(max(e$value[e$phase == "initial"]), max(e$value))
  }
}, runs, first$problem))
optimum <- vapply(all_problems, function(p) p$optimum, 0)[first$problem]
first$gap <- (f1fn[, 2L] - f1fn[, 1L]) / (optimum - f1fn[, 1L])
first$sources <- unname(vapply(all_problems, function(p) {
  if (isTRUE(p$miso)) p$n_sources else 1L
}, 0L)[first$problem])
rownames(first) <- NULL
res$gap_runs <- first
res$seconds <- bm1$seconds + bm4$seconds
saveRDS(res, out_file, compress = "xz")

print(summary(bm1))
print(stats::aggregate(gap ~ problem + policy, first,
                       function(v) c(mean = mean(v), median = stats::median(v),
                                     n = length(v))))
rh <- ev[ev$phase == "bo" & grepl("^rolling", ev$policy), ]
print(table(rh$policy, rh$h))
cat(sprintf("total %.0f s\n", res$seconds))
