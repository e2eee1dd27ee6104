# Rollout policies at the protocols of Lee et al. (2021, paper 001) and Yue
# and Kontar (2020, paper 004): the cache of vignette("rollout").
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/rollout.R list
#   Rscript inst/scripts/rollout.R run <part> [<part> ...]
#     [--backend parallel --processes 2]
#   Rscript inst/scripts/rollout.R join [--set v1|v2] [--partial <file>]
#   Rscript inst/scripts/rollout.R check | fingerprint
#   Rscript inst/scripts/rollout.R time <part> [<replications>]
# The study has two sets of parts, both in studies/rollout/: set v1, the
# parts the cache inst/extdata/rollout.rds is joined from (the recipes
# below under "set v1"), and set v2, the papers' protocols with the new
# decisions (the recipes under "set v2", parts named v2_*; see "Set v2"
# below). `list`, `run`, `check` and `fingerprint` take the parts of both
# sets (their names differ); `join` joins one set, v1 unless `--set v2`,
# and writes the cache only when every part of that set exists (else it
# stops and names the parts not run yet), so the cache, its replay test
# and the vignette stay those of set v1 until set v2 is complete and
# joined. `time` runs the first replications of a part (1 by default),
# writes nothing, and prints their CPU seconds and the part's projected
# core-hours.
# `list` prints each part's status, build, date, seconds and command, from
# the part files; `run` writes each part to studies/rollout/<part>.rds as
# soon as it is done (with the build of costbo that made it and the
# command); `join` reads all parts of a set and writes
# inst/extdata/rollout.rds (see inst/scripts/study.R): the curves and
# final measures of study_slim(),
# paper 004's Gap per replication (gap_runs), the rolling horizon's
# horizons and the multi-source runs' sources, and paper 001's measure,
# the best objective per replication at tenths of the budget (at_cost). A part made by another build is accepted when this
# build's behaviour fingerprint for the part's policies and problems equals
# the one recorded with the part, else after a replay of its cheapest cell
# (see study.R).
#
# Set v1, the cache's parts (made with policy_rollout(), whose fantasy
# outcomes are observations, its compass searches and its two-step
# screening of the KG rollout):
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
#
# Set v2, the papers' protocols with the new decisions (parts v2_*):
# * the policies: policy_cmdp_rollout(h) with its defaults (paper 001's
#   optimizer: L-BFGS-B restarts, the EI control variate; fantasies of f on
#   a deterministic problem), policy_kg_rollout(h) and
#   policy_kg_rollout("adaptive") with the h-step decision setting named
#   in one place, `kg_setting` below, and greedy KG as
#   policy_kg_rollout(1), the rollouts' own base policy (on a noisy
#   problem it is policy_kg(); on a deterministic one its fantasies are
#   values of f, as the rollouts' are). `run` refuses a v2 part until the
#   installed costbo has paper 001's optimizer (a CMDP part) or
#   `kg_setting` names the KG setting (a KG part).
# * paper 001: the problems of set v1 (lee2021 with its cost known and
#   learned, Dropwave with its cosine cost), and paper 001's supplement
#   (beyond the paper): test_problem("lee2021", cost_family = "ring",
#   known_cost = FALSE), the problem its text describes, whose most
#   expensive points (cost 10) are the objective's minimum, the circle r =
#   r* (the cost as printed is largest at the origin, where f is 0), its
#   cost learned as the paper learns every cost. Paper 001's own measure
#   (the mean objective against cost, Fig. 4) is at_cost, beside log10
#   regret; 50 replications.
# * paper 004: every problem observed with noise (Sec. 5.1 "original
#   objective function (with noise)", no level given). costbo's choice:
#   Gaussian noise of sd 0.1% of the function's scale,
#   `noise_level` * test_problem_scale() (the optimum minus the median of
#   the objective over the box: Branin 0.035, Six-hump camel 0.0093,
#   Griewank-3 0.088, Goldstein-Price 6.6, Bohachevsky 9.0), added to every
#   source of the three-source problems. Why: paper 004 measures the Gap
#   G = (f_N - f_1) / (f* - f_1), whose denominator is the regret of the
#   initial design's best point; over 30 minimax designs its median is
#   0.85 (Branin), 1.1 (Six-hump camel), 21 (Griewank-3), 210
#   (Goldstein-Price), 132 (Bohachevsky), so noise of 0.1% of the scale
#   is 0.4% to 7% of it on every problem: the problems are noisy (the GP
#   estimates the noise, fantasies are observations, the EI incumbent is
#   the best posterior mean) while the Gap still measures the search. One
#   fraction of the max-min range could not do both: Goldstein-Price spans
#   1.0e6 on its box, Branin 300. The noise-free problems of set v1 run as
#   well, labelled ", noise-free": a "beyond the paper" row.
#   The initial design is paper 004's 9-point minimax (fill-distance)
#   design (design = "minimax", one per replication), free. With three
#   sources the 9 points are evaluated at every source, free: paper 004
#   fits the GP to D_1 and "obtain[s] parameters of bias terms" from it
#   (Alg. 2), and the bias of source i, delta_i = f(i, .) - f(.), is
#   identified only where source i and the objective are both observed;
#   the budget of 10 d^2 = 40 could not pay the objective's 9 evaluations
#   at 5 d = 10 each, so the design is not charged (as in set v1).
#   Policies: rolling horizon, greedy KG, KG rollout h = 2, 3, 4, 5, and
#   EI with one source (beyond the paper: its Table 2 compares GLASSES,
#   M-EI, MPI, LCB and misoKG); 30 replications. The Gap of a noisy run
#   takes f_1 and f_N as the noise-free objective at the recommendation
#   after the initial design and after the last evaluation (the evaluated
#   point of largest posterior mean, as Alg. 1 fits a GP to D_N to
#   "obtain the optimal value"); the curves and final measures of a noisy
#   run are those of the noise-free objective at the points it evaluated.
#
# Run time of set v2, measured in CPU seconds (user + system, so that the
# other work of a shared machine does not count; `time`, or the same
# study_run() of the first replications) with the build of this script's
# commit (main's paper 001 optimizer, dceafab; the KG rollout still
# screening its decision with the two-step value), e.g.
#   Rscript inst/scripts/rollout.R time v2_p004_single 1
# Core-hours of each part:
#   v2_p001_lee                  0.28  time, 1 replication: 20.2 s
#   v2_p001_leegp                0.33  CMDP h = 2 / 4: 3.3 / 12.2 s a run
#   v2_p001_ring                 0.21  CMDP h = 4: 7.6 s a run
#   v2_p001_dropwave             0.75  time, 1 replication: 53.8 s
#   v2_p004_single               0.31  time, 1 replication (30 runs): 37.4 s
#   v2_p004_single_h5            1.18  KG h = 5: 28.4 s a run
#   v2_p004_miso                 0.27  time, 1 replication (10 runs): 32.4 s
#   v2_p004_miso_h5              0.93  KG h = 5: 56 s a run
#   v2_p004_noisefree_*          as the noisy parts (not measured)
# About 6.9 core-hours in all (1.6 of them paper 001's): each part is one
# cell group of at most about an hour, so v2_sizes splits none. Measuring
# took 13 minutes of CPU. The per-run seconds are the means of 2
# replications (1 for h = 5), so they may be off by half. With the KG
# rollout's h-step decisions (kg_setting) every paper 004 part with h >= 3
# or the rolling horizon costs more: time one part again once kg_setting
# is named (`time v2_p004_miso 1` takes half a minute now) and split the
# parts that would outlive an hour with v2_sizes.

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
source(file.path(dirname(script), "study.R"))
suppressMessages(library(costbo))

# --- the recipes of set v1 (the cache's) ----------------------------------------
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
parts_v1 <- c(
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

# --- the recipes of set v2 (the papers' protocols, the new decisions) ---------
# The h-step decision setting of policy_kg_rollout() (the KG rollout
# screening and refining its decision with the h-step value), named here
# and only here once the installed costbo has it, as a list of arguments,
# e.g. kg_setting <- list(decision = "h-step"): every KG rollout of set v2
# (fixed h, rolling horizon, greedy KG) is made with it. NULL: not named
# yet, and `run` refuses the KG parts of set v2.
kg_setting <- NULL
kg_rollout <- function(horizon) {
  as.call(c(list(as.name("policy_kg_rollout"), horizon), kg_setting))
}
# The noise of paper 004's problems, a fraction of each function's scale
# (test_problem_scale(); see "Set v2" above).
noise_level <- 1e-3

lee_v2 <- lee
leegp_v2 <- leegp
dropwave_v2 <- dropwave
ring <- quote(list(
  `lee2021 ring, cost learned` = test_problem("lee2021", cost_family = "ring",
                                              known_cost = FALSE)))
myopic_v2 <- myopic
cmdp_v2 <- function(h) {
  one(sprintf("CMDP rollout h = %d", h), bquote(policy_cmdp_rollout(.(h))))
}
# paper 004's problems: label, name, dimension
p004_single <- data.frame(
  label = c("Branin", "Six-hump camel", "Griewank-3", "Goldstein-Price",
            "Bohachevsky"),
  name = c("branin", "six_hump_camel", "griewank", "goldstein_price",
           "bohachevsky"),
  d = c(NA, NA, 3L, NA, NA), stringsAsFactors = FALSE)
p004_miso <- data.frame(
  label = c("Goldstein-Price, 3 sources", "Bohachevsky, 3 sources"),
  name = c("goldstein_price", "bohachevsky"), stringsAsFactors = FALSE)
# The named list of a table's problems, as a call: observed with noise
# (`noisy`), else noise-free and labelled so; `miso`: three sources.
p004_call <- function(tab, noisy, miso = FALSE) {
  calls <- lapply(seq_len(nrow(tab)), function(i) {
    nm <- tab$name[i]
    d <- if (!miso && !is.na(tab$d[i])) tab$d[i]
    scale <- as.call(c(list(as.name("test_problem_scale"), nm),
                       if (!is.null(d)) list(d = d)))
    noise <- if (noisy) list(noise_sd = bquote(.(noise_level) * .(scale)))
    as.call(c(list(as.name(if (miso) "test_problem_miso" else
      "test_problem"), nm), if (!is.null(d)) list(d = d), noise))
  })
  labels <- if (noisy) tab$label else paste0(tab$label, ", noise-free")
  as.call(c(as.name("list"), stats::setNames(calls, labels)))
}
single_v2 <- p004_call(p004_single, TRUE)
single_free <- p004_call(p004_single, FALSE)
miso_v2 <- p004_call(p004_miso, TRUE, miso = TRUE)
miso_free <- p004_call(p004_miso, FALSE, miso = TRUE)
rh_v2 <- one("rolling horizon", kg_rollout("adaptive"))
kg_v2 <- one("greedy KG", kg_rollout(1))
fixed_v2 <- function(h) one(sprintf("KG rollout h = %d", h), kg_rollout(h))
ei_v2 <- quote(list(EI = policy_ei()))

# The policies of several named lists (calls) in one.
calls_c <- function(...) {
  as.call(c(as.name("list"), do.call(c, lapply(list(...), function(cl) {
    as.list(cl)[-1L]
  }))))
}
p001_policies <- calls_c(myopic_v2, cmdp_v2(2), cmdp_v2(3), cmdp_v2(4))
p004_policies <- function(miso) {
  calls_c(rh_v2, kg_v2, if (!miso) ei_v2 else quote(list()), fixed_v2(2),
          fixed_v2(3), fixed_v2(4))
}

# Parts of about an hour of one core or less (see "Run time of set v2"
# above): `size` replications per part (blocks()), all in one part when
# NULL.
v2 <- function(name, problems, policies, reps, size = NULL, ...) {
  if (is.null(size) || size >= length(reps)) {
    return(stats::setNames(list(study_recipe(problems, policies, reps, ...)),
                           paste0("v2_", name)))
  }
  blocks(paste0("v2_", name), problems, policies, reps, size, ...)
}
# A paper 004 part: the minimax design of 9 points, free (study_recipe()'s
# default, as every recipe of this study), 30 replications
v2_004 <- function(name, problems, policies, size = NULL) {
  v2(name, problems, policies, 1:30, size, n_init = 9L, design = "minimax")
}
# The replications per part of each cell (NULL: all in one part), from the
# measured run time (see the header): the one place to resize the parts,
# e.g. once the KG rollout's h-step decisions make them slower.
v2_sizes <- list(
  p001_lee = NULL, p001_leegp = NULL, p001_ring = NULL, p001_dropwave = NULL,
  p004_single = NULL, p004_single_h5 = NULL,
  p004_noisefree_single = NULL, p004_noisefree_single_h5 = NULL,
  p004_miso = NULL, p004_miso_h5 = NULL,
  p004_noisefree_miso = NULL, p004_noisefree_miso_h5 = NULL)
p001_v2 <- list(lee = lee_v2, leegp = leegp_v2, ring = ring,
                dropwave = dropwave_v2)
p004_v2 <- list(single = single_v2, noisefree_single = single_free,
                miso = miso_v2, noisefree_miso = miso_free)
# Paper 001: one part per problem, its five policies (EI, EI-PU, CMDP
# rollout h = 2, 3, 4); paper 004: per problem set, one part of rolling
# horizon, greedy KG, EI (one source) and KG rollout h = 2, 3, 4, and one
# of KG rollout h = 5.
parts_v2 <- c(
  do.call(c, lapply(names(p001_v2), function(pb) {
    nm <- paste0("p001_", pb)
    v2(nm, p001_v2[[pb]], p001_policies, 1:50, v2_sizes[[nm]])
  })),
  do.call(c, lapply(names(p004_v2), function(pb) {
    nm <- paste0("p004_", pb)
    h5 <- paste0(nm, "_h5")
    c(v2_004(nm, p004_v2[[pb]], p004_policies(grepl("miso", pb)),
             v2_sizes[[nm]]),
      v2_004(h5, p004_v2[[pb]], fixed_v2(5), v2_sizes[[h5]]))
  })))

# --- the Gap of paper 004 (eq. 17, for maximization) ---------------------------
# G = (f_N - f_1) / (optimum - f_1) per replication. With one source, f_1
# and f_N are the best values of the initial design and of all evaluations.
# With information sources the objective itself is rarely evaluated, so f_1
# and f_N are the objective at the recommendation after the initial design
# and after the last evaluation: among the points evaluated so far (at any
# source), the one of largest posterior mean of the objective (source 0)
# under gp_fit_miso() of those evaluations (Poloczek et al. 2017).
# `truth`: for the problems observed with noise (set v2), their noise-free
# twins, named as they are. A noisy problem's f_1 and f_N are the
# noise-free objective at the recommendation, with one source the
# evaluated point of largest posterior mean under gp_fit() of the
# evaluations (paper 004, Alg. 1: "Fit GP to data D_N; obtain optimal
# value"): its best observed value would count the noise as progress.
# (The fits draw their random starts from R's generator: seeded here, so
# that a join writes the same Gaps.)
gap_runs <- function(bm, problems, truth = list()) {
  if (length(truth)) {
    old <- if (exists(".Random.seed", globalenv())) .Random.seed
    on.exit(if (!is.null(old)) assign(".Random.seed", old, globalenv()))
    set.seed(1L)
  }
  miso_value <- function(e, prob, f0) {
    X <- as.matrix(e[, paste0("x", seq_len(prob$d))])
    fit <- gp_fit_miso(X, e$source, e$value, n_sources = prob$n_sources,
                       lower = prob$lower, upper = prob$upper)
    mu <- stats::predict(fit, cbind(X, 0), sd = FALSE)$mean
    f0(X[which.max(mu), ])
  }
  noisy_value <- function(e, prob, f0) {
    X <- as.matrix(e[, paste0("x", seq_len(prob$d))])
    fit <- gp_fit(X, e$value, lower = prob$lower, upper = prob$upper)
    mu <- stats::predict(fit, X, sd = FALSE)$mean
    f0(X[which.max(mu), ])
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
    tw <- truth[[name]]
    if (isTRUE(prob$miso)) {
      f0 <- if (is.null(tw)) function(x) prob$objective(x, 0L) else
        function(x) tw$objective(x, 0L)
      c(miso_value(e[e$phase == "initial", ], prob, f0),
        miso_value(e, prob, f0))
    } else if (!is.null(tw)) {
      c(noisy_value(e[e$phase == "initial", ], prob, tw$objective),
        noisy_value(e, prob, tw$objective))
    } else {
      c(max(e$value[e$phase == "initial"]), max(e$value))
    }
  }, runs, first$problem))
  optimum <- vapply(problems, function(p) p$optimum, 0)[first$problem]
  first$gap <- (f1fn[, 2L] - f1fn[, 1L]) / (optimum - f1fn[, 1L])
  first$sources <- unname(vapply(problems, function(p) {
    if (isTRUE(p$miso)) p$n_sources else 1L
  }, 0L)[first$problem])
  if (length(truth)) first$noisy <- first$problem %in% names(truth)
  rownames(first) <- NULL
  first
}

# --- the noise-free measures of noisy runs (set v2) ----------------------------
# The records of the problems observed with noise, with the values of the
# objective's evaluations (source 0) replaced by the noise-free objective
# of their twins in `truth` at the same points, and their regrets by the
# optimum minus the best of those: the measures of the curves and of the
# final table are then the noise-free objective at the points evaluated,
# not the noise. The part files keep the observed values.
noise_free_records <- function(bm, truth) {
  for (i in seq_along(bm$records)) {
    rec <- bm$records[[i]]
    tw <- truth[[rec$problem]]
    if (is.null(tw) || is.null(rec$trace)) next
    tr <- rec$trace
    ok <- if (is.null(tr$counts)) tr$status == "ok" else tr$counts
    f0 <- if (isTRUE(tw$miso)) function(x) tw$objective(x, 0L) else
      tw$objective
    tr$value[ok] <- apply(rec$x[ok, , drop = FALSE], 1L, f0)
    tr$regret <- rec$optimum - cummax(ifelse(ok, tr$value, -Inf))
    tr$regret[!is.finite(tr$regret)] <- NA_real_
    bm$records[[i]]$trace <- tr
  }
  bm
}

# The noise of paper 004's problems (set v2): one row per problem observed
# with noise, its scale (test_problem_scale()), the level and the sd.
noise_table <- function() {
  tab <- rbind(p004_single, data.frame(p004_miso, d = NA_integer_))
  scale <- mapply(function(nm, d) {
    test_problem_scale(nm, d = if (!is.na(d)) d)
  }, tab$name, tab$d)
  data.frame(problem = tab$label, scale = unname(scale), level = noise_level,
             noise_sd = noise_level * unname(scale), stringsAsFactors = FALSE)
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
  # (none in a partial join without paper 001's parts)
  if (!nrow(ev)) return(NULL)
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
# The cache of set v1 (as it has always been written).
write_v1 <- function(j) {
  c(study_slim(j$benchmark),
    list(gap_runs = gap_runs(j$benchmark, c(study_eval(single), study_eval(miso))),
         horizons = horizons(j$benchmark),
         at_cost = at_cost(j$benchmark, names(c(study_eval(lee),
                                                 study_eval(leegp),
                                                 study_eval(dropwave)))),
         sources = sources(j$benchmark),
         provenance = j$provenance))
}
# The cache of set v2: the same elements, the measures of the noisy runs
# those of the noise-free objective (noise_free_records(), gap_runs()), and
# `noise`, the noise of each problem (noise_table()).
write_v2 <- function(j) {
  bm <- j$benchmark
  p004 <- c(study_eval(single_v2), study_eval(single_free),
            study_eval(miso_v2), study_eval(miso_free))
  truth <- c(stats::setNames(study_eval(single_free), p004_single$label),
             stats::setNames(study_eval(miso_free), p004_miso$label))
  c(study_slim(noise_free_records(bm, truth)),
    list(gap_runs = gap_runs(bm, p004, truth),
         horizons = horizons(bm),
         at_cost = at_cost(bm, names(c(study_eval(lee_v2),
                                       study_eval(leegp_v2),
                                       study_eval(ring),
                                       study_eval(dropwave_v2)))),
         sources = sources(bm),
         noise = noise_table(),
         provenance = j$provenance))
}

# Stop before running a part of set v2 whose policies the installed costbo
# (or this script) cannot make yet as set v2 means them.
v2_ready <- function(which) {
  for (nm in intersect(which, names(parts_v2))) {
    pol <- paste(deparse(parts_v2[[nm]]$policies), collapse = " ")
    if (grepl("policy_cmdp_rollout", pol, fixed = TRUE) &&
        !"optimizer" %in% names(formals(policy_cmdp_rollout))) {
      stop(sprintf(paste("part %s: the installed costbo's",
                         "policy_cmdp_rollout() has not paper 001's optimizer",
                         "(optimizer = \"paper\"): install a build that has",
                         "it"), nm), call. = FALSE)
    }
    if (grepl("policy_kg_rollout", pol, fixed = TRUE) && is.null(kg_setting)) {
      stop(sprintf(paste("part %s: the h-step decision setting of",
                         "policy_kg_rollout() is not named yet (kg_setting",
                         "in inst/scripts/rollout.R)"), nm), call. = FALSE)
    }
  }
}

# `--set v1|v2`: the set a command takes (by default: join set v1, the
# other commands both sets).
args <- commandArgs(trailingOnly = TRUE)
cmd <- if (length(args)) args[1L] else "list"
k <- match("--set", args)
set <- if (is.na(k)) NA_character_ else args[k + 1L]
if (!is.na(set) && !set %in% c("v1", "v2")) {
  stop("--set must be v1 or v2, not ", set, call. = FALSE)
}
if (is.na(set)) set <- if (cmd == "join") "v1" else "both"
if (cmd == "run") v2_ready(args[-1L])
# `time <part> [<k>]`: run the first k replications of a part (default 1),
# write nothing, and print their CPU seconds (user + system: the core's
# time, whatever else the machine runs) and the part's core-hours
# projected from them.
if (cmd == "time") {
  parts <- c(parts_v1, parts_v2)
  nm <- args[2L]
  if (is.na(nm) || !nm %in% names(parts)) {
    stop("usage: rollout.R time <part> [<replications>]", call. = FALSE)
  }
  recipe <- parts[[nm]]
  reps <- recipe$reps
  if (length(reps) == 1L) reps <- seq_len(reps)
  k <- if (length(args) >= 3L) as.integer(args[3L]) else 1L
  cpu <- function() sum(proc.time()[c(1L, 2L, 4L, 5L)], na.rm = TRUE)
  c0 <- cpu()
  bm <- study_run(recipe, reps = reps[seq_len(min(k, length(reps)))])
  used <- cpu() - c0
  per <- tapply(vapply(bm$records, `[[`, 0, "seconds"),
                vapply(bm$records, `[[`, "", "policy"), mean)
  cat(sprintf(paste("%s: %d replication(s), %d runs, %.1f CPU seconds;",
                    "the part's %d replications: %.2f core-hours\n"),
              nm, min(k, length(reps)), length(bm$records), used,
              length(reps), used * length(reps) / min(k, length(reps)) /
                3600))
  cat("wall seconds per run, by policy:\n")
  print(round(per, 1))
  quit(save = "no")
}
study_main(switch(set, v1 = parts_v1, v2 = parts_v2,
                  both = c(parts_v1, parts_v2)),
           "rollout", write = if (set == "v2") write_v2 else write_v1,
           args = args)
