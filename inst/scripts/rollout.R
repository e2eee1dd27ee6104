# Rollout policies at the protocols of Lee et al. (2021, paper 001) and Yue
# and Kontar (2020, paper 004): the cache of vignette("rollout").
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/rollout.R list
#   Rscript inst/scripts/rollout.R run <part> [<part> ...]
#     [--backend parallel --processes 2]
#   Rscript inst/scripts/rollout.R join [--partial <file>]
# `list` prints each part's status, build, date, seconds and command, from
# the part files; `run` writes each part to studies/rollout/<part>.rds as
# soon as it is done (with the build of costbo that made it and the
# command); `join` reads all parts and writes inst/extdata/rollout.rds (see
# inst/scripts/study.R): the curves and final measures of study_slim(),
# paper 004's Gap per replication (gap_runs), the rolling horizon's
# horizons and the multi-source runs' sources, and paper 001's measure,
# the best objective per replication at tenths of the budget (at_cost). A part made by another build is accepted when this
# build's behaviour fingerprint for the part's policies and problems equals
# the one recorded with the part, else after a replay of its cheapest cell
# (see study.R).
#
# Paper 001, Sec. 6.1 / Fig. 4: test_problem("lee2021") (known radial cost,
# budget 150), EI, EI per unit cost and CMDP rollout with h = 2, 3, 4 (64
# QMC samples; h = 1 is EI), 50 replications. The budget of lee2021 does not
# bind: every policy reaches the optimum. So the same policies also run on a
# problem where it does: Dropwave with paper 000's cosine cost (measured,
# learned by a GP on the log cost), budget 40, 50 replications. Paper 001
# models the cost of every problem with a log-warped GP (Sec. 6, footnote
# 2), so lee2021 also runs with its cost measured and learned that way
# (test_problem("lee2021", known_cost = FALSE), "lee2021, cost learned"):
# the paper's protocol; the known-cost runs isolate the policies from the
# cost model.
# Paper 004, Tables 2-3 / Fig. 1: Branin, Six-hump camel, Griewank-3 with
# one source (cost 1, 10 d evaluations after 9 initial points), and
# Goldstein-Price and Bohachevsky with three sources (test_problem_miso():
# the objective at cost 5 d, two biased sources at cost d, budget 10 d^2, 9
# initial points at every source); 30 replications each of the rolling
# horizon (alpha = 0.9, h <= 5, the default error bound), greedy KG
# (misoKG), EI (one source) and KG rollout with fixed h = 2, 3, 4, 5.
# Goldstein-Price and Bohachevsky also run with one source.
#
# Run time, seconds of one core per replication, measured on single
# replications (seed 1) with the other core busy: paper 004 with one
# source: rolling horizon 2-11 s, greedy KG and EI about 1 s, fixed h = 5
# 113 s (Branin) to 201 s (Griewank-3); three sources: rolling horizon 12 s,
# h = 3 15 s, h = 5 325 s; paper 001: CMDP rollout on lee2021 28 s (h = 2)
# and 81 s (h = 4), on Dropwave 322 s (h = 4). Estimated totals: paper 001
# about 2 core-hours on lee2021 and 9 on Dropwave; paper 004 about 9 with
# one source (6 of them fixed h = 5) and 7 with three (5 of them h = 5):
# about 27 core-hours in all, so run the parts in groups that fit a session
# (e.g. two parts at a time on two cores) and commit each part file; the
# costliest cells (fixed h = 4 and 5, CMDP h = 3 and 4 on Dropwave) are
# split into parts of 10 to 25 replications of about an hour each.
#
# Core-hours per part, measured (the part files' seconds): 13.8 for the 39
# parts, 9.5 of them paper 001's, about half the estimate above (the single
# replications overstate the mean run time):
#   p001_{lee,dropwave,leegp}_myopic              0.002-0.005
#   p001_lee_h2, p001_lee_h3, p001_lee_h4         0.27, 1.02, 0.87
#   p001_dropwave_h2                              1.35
#   p001_dropwave_h3_* (25 replications)          0.78-0.86
#   p001_dropwave_h4_* (10 replications)          0.40-0.46
#   p001_leegp_h2                                 0.30
#   p001_leegp_h3_* (25 replications)             0.36-0.43
#   p001_leegp_h4_* (25 replications)             0.45-0.66
#   p004_single_rh, p004_miso_rh                  0.11, 0.06
#   p004_single_kg, p004_single_ei, p004_miso_kg  0.002-0.011
#   p004_{single,miso}_h2, p004_{single,miso}_h3  0.08-0.09
#   p004_single_h4_* (10 replications)            0.07
#   p004_miso_h4_* (15 replications)              0.14-0.16
#   p004_single_h5_* (10 replications)            0.51-0.62
#   p004_miso_h5_* (10 replications)              0.54-0.57
# The cache records the measured total (provenance$core_seconds).

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
source(file.path(dirname(script), "study.R"))
suppressMessages(library(costbo))

# --- the recipes -------------------------------------------------------------
lee <- quote(list(lee2021 = test_problem("lee2021")))
leegp <- quote(list(
  `lee2021, cost learned` = test_problem("lee2021", known_cost = FALSE)))
dropwave <- quote(list(
  `Dropwave, cosine cost` = function(r) test_problem("dropwave", seed = r)))
myopic <- quote(list(EI = policy_ei(), `EI-PU` = policy_ei_pu()))
# list(`<label>` = <code>), as a call
one <- function(label, code) {
  as.call(c(as.name("list"), stats::setNames(list(code), label)))
}
# (the horizon a double, as the code of the parts on disk has it)
cmdp <- function(h) {
  one(sprintf("CMDP rollout h = %d", h),
      bquote(policy_rollout(.(as.double(h)), n_samples = 64L)))
}
single <- quote(list(
  `Branin` = test_problem("branin"),
  `Six-hump camel` = test_problem("six_hump_camel"),
  `Griewank-3` = test_problem("griewank", d = 3),
  `Goldstein-Price` = test_problem("goldstein_price"),
  `Bohachevsky` = test_problem("bohachevsky")))
miso <- quote(list(
  `Goldstein-Price, 3 sources` = test_problem_miso("goldstein_price"),
  `Bohachevsky, 3 sources` = test_problem_miso("bohachevsky")))
rh <- quote(list(`rolling horizon` = policy_rollout("adaptive")))
kg <- quote(list(`greedy KG` = policy_kg()))
fixed <- function(h) {
  one(sprintf("KG rollout h = %d", h),
      bquote(policy_rollout(.(as.double(h)), base = "kg")))
}
# The costly cells in parts of `size` replications: <name>_r001_010, ...
blocks <- function(name, problems, policies, reps, size, ...) {
  b <- split(reps, (seq_along(reps) - 1L) %/% size)
  stats::setNames(lapply(b, function(r) study_recipe(problems, policies, r, ...)),
                  sprintf("%s_r%03d_%03d", name, vapply(b, min, 0L),
                          vapply(b, max, 0L)))
}
parts <- c(
  list(
    p001_lee_myopic = study_recipe(lee, myopic, 50L),
    p001_dropwave_myopic = study_recipe(dropwave, myopic, 50L)),
  stats::setNames(lapply(2:4, function(h) study_recipe(lee, cmdp(h), 50L)),
                  sprintf("p001_lee_h%d", 2:4)),
  list(p001_dropwave_h2 = study_recipe(dropwave, cmdp(2), 50L)),
  blocks("p001_dropwave_h3", dropwave, cmdp(3), 1:50, 25L),
  blocks("p001_dropwave_h4", dropwave, cmdp(4), 1:50, 10L),
  list(p001_leegp_myopic = study_recipe(leegp, myopic, 50L),
       p001_leegp_h2 = study_recipe(leegp, cmdp(2), 50L)),
  blocks("p001_leegp_h3", leegp, cmdp(3), 1:50, 25L),
  blocks("p001_leegp_h4", leegp, cmdp(4), 1:50, 25L),
  list(
    p004_single_rh = study_recipe(single, rh, 30L, n_init = 9L),
    p004_single_kg = study_recipe(single, kg, 30L, n_init = 9L),
    p004_single_ei = study_recipe(single, quote(list(EI = policy_ei())),
                                  30L, n_init = 9L)),
  stats::setNames(lapply(2:3, function(h) {
    study_recipe(single, fixed(h), 30L, n_init = 9L)
  }), sprintf("p004_single_h%d", 2:3)),
  blocks("p004_single_h4", single, fixed(4), 1:30, 10L, n_init = 9L),
  blocks("p004_single_h5", single, fixed(5), 1:30, 10L, n_init = 9L),
  list(
    p004_miso_rh = study_recipe(miso, rh, 30L, n_init = 9L),
    p004_miso_kg = study_recipe(miso, kg, 30L, n_init = 9L)),
  stats::setNames(lapply(2:3, function(h) {
    study_recipe(miso, fixed(h), 30L, n_init = 9L)
  }), sprintf("p004_miso_h%d", 2:3)),
  blocks("p004_miso_h4", miso, fixed(4), 1:30, 15L, n_init = 9L),
  blocks("p004_miso_h5", miso, fixed(5), 1:30, 10L, n_init = 9L))

# --- the Gap of paper 004 (eq. 17, for maximization) ---------------------------
# G = (f_N - f_1) / (optimum - f_1) per replication. With one source, f_1
# and f_N are the best values of the initial design and of all evaluations.
# With information sources the objective itself is rarely evaluated, so f_1
# and f_N are the objective at the recommendation after the initial design
# and after the last evaluation: among the points evaluated so far (at any
# source), the one of largest posterior mean of the objective (source 0)
# under gp_fit_miso() of those evaluations (Poloczek et al. 2017).
gap_runs <- function(bm, problems) {
  miso_value <- function(e, prob) {
    X <- as.matrix(e[, paste0("x", seq_len(prob$d))])
    fit <- gp_fit_miso(X, e$source, e$value, n_sources = prob$n_sources,
                       lower = prob$lower, upper = prob$upper)
    mu <- stats::predict(fit, cbind(X, 0), sd = FALSE)$mean
    prob$objective(X[which.max(mu), ], 0L)
  }
  ev <- bm$evaluations
  ev <- ev[ev$problem %in% names(problems), , drop = FALSE]
  ok <- ev$status == "ok"
  key <- interaction(ev$problem, ev$policy, ev$rep, drop = TRUE)
  first <- ev[!duplicated(key), c("problem", "policy", "rep")]
  runs <- split(ev[ok, ], key[ok], drop = TRUE)[
    as.character(interaction(first$problem, first$policy, first$rep,
                             drop = TRUE))]
  f1fn <- t(mapply(function(e, name) {
    prob <- problems[[name]]
    if (isTRUE(prob$miso)) {
      c(miso_value(e[e$phase == "initial", ], prob), miso_value(e, prob))
    } else {
      c(max(e$value[e$phase == "initial"]), max(e$value))
    }
  }, runs, first$problem))
  optimum <- vapply(problems, function(p) p$optimum, 0)[first$problem]
  first$gap <- (f1fn[, 2L] - f1fn[, 1L]) / (optimum - f1fn[, 1L])
  first$sources <- unname(vapply(problems, function(p) {
    if (isTRUE(p$miso)) p$n_sources else 1L
  }, 0L)[first$problem])
  rownames(first) <- NULL
  first
}

# --- the horizons the rolling horizon chose (paper 004, Fig. 1) --------------
# One row per problem and chosen h: how many decisions of all replications.
horizons <- function(bm) {
  ev <- bm$evaluations
  ev <- ev[ev$policy == "rolling horizon" & ev$phase == "bo" & !is.na(ev$h), ]
  tab <- as.data.frame(table(problem = ev$problem, h = ev$h),
                       stringsAsFactors = FALSE)
  tab$h <- as.integer(tab$h)
  tab[order(tab$problem, tab$h), ]
}

# --- where the multi-source runs went (paper 004, Sec. 5.4.1) -----------------
# One row per problem with information sources, policy and source: the
# evaluations after the initial design and the cost they spent (the steps of
# the cumulative cost), summed over the `runs` replications.
sources <- function(bm) {
  ev <- bm$evaluations
  ev <- ev[!is.na(ev$source), , drop = FALSE]
  if (!nrow(ev)) {
    return(data.frame(problem = character(), policy = character(),
                      source = integer(), runs = integer(),
                      evaluations = integer(), cost = numeric()))
  }
  key <- interaction(ev$problem, ev$policy, ev$rep, drop = TRUE)
  ev$cost <- stats::ave(ev$cumulative_cost, key,
                        FUN = function(v) c(v[1L], diff(v)))
  ev <- ev[ev$phase == "bo", , drop = FALSE]
  by <- ev[, c("problem", "policy", "source")]
  out <- stats::aggregate(data.frame(evaluations = rep(1L, nrow(ev)),
                                     cost = ev$cost), by = by, FUN = sum)
  runs <- stats::aggregate(data.frame(runs = ev$rep),
                           by = ev[, c("problem", "policy")],
                           FUN = function(r) length(unique(r)))
  out <- merge(runs, out, by = c("problem", "policy"))
  out <- out[order(out$problem, out$policy, out$source),
             c("problem", "policy", "source", "runs", "evaluations", "cost")]
  rownames(out) <- NULL
  out
}

# --- paper 001's measure (Sec. 6, Fig. 4) ----------------------------------------
# The paper interpolates each replication's objective onto a set of costs
# and plots the mean with one standard deviation. One row per problem,
# policy, replication and cost point: the best objective value found once
# that much of the budget is spent (the initial design's best at cost 0; a
# step function of the cumulative cost), in costbo's direction (the
# paper's objective is its negative for lee2021, which it minimizes), at
# `points` = 0, 1/10, ..., 1 of the budget.
at_cost <- function(bm, problems, points = seq(0, 1, by = 0.1)) {
  ev <- bm$evaluations
  ev <- ev[ev$problem %in% problems & ev$status == "ok", , drop = FALSE]
  budget <- vapply(bm$records, `[[`, 0, "budget")
  names(budget) <- vapply(bm$records, `[[`, "", "problem")
  key <- interaction(ev$problem, ev$policy, ev$rep, drop = TRUE)
  rows <- lapply(split(ev, key, drop = TRUE), function(e) {
    cost <- points * budget[[e$problem[1L]]]
    best <- vapply(cost, function(c) {
      v <- e$value[e$cumulative_cost <= c * (1 + 1e-12)]
      if (length(v)) max(v) else NA_real_
    }, 0)
    data.frame(problem = e$problem[1L], policy = e$policy[1L],
               rep = e$rep[1L], share = points, cost = cost,
               best_value = best, stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  out <- out[order(out$problem, out$policy, out$rep, out$share), ]
  rownames(out) <- NULL
  out
}

# --- command line ----------------------------------------------------------------
study_main(parts, "rollout", write = function(j) {
  c(study_slim(j$benchmark),
    list(gap_runs = gap_runs(j$benchmark, c(study_eval(single), study_eval(miso))),
         horizons = horizons(j$benchmark),
         at_cost = at_cost(j$benchmark, names(c(study_eval(lee),
                                                 study_eval(leegp),
                                                 study_eval(dropwave)))),
         sources = sources(j$benchmark),
         provenance = j$provenance))
})
