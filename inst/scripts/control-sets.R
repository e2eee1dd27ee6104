# Bayesian optimization with cost-varying variable subsets (Tay et al.
# 2023, paper 003, Sec. 5, Fig. 2 and App. C): the cache of
# vignette("control-sets").
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/control-sets.R list
#   Rscript inst/scripts/control-sets.R run <part> [<part> ...]
#     [--backend parallel --processes 2]
#   Rscript inst/scripts/control-sets.R join
# `list` prints each part's status, build, date, seconds and command, from
# the part files; `run` writes each part to studies/control-sets/<part>.rds
# as soon as it is done (with the build of costbo that made it and the
# command); `join` reads all parts and writes inst/extdata/control-sets.rds
# (see inst/scripts/study.R): the provenance, the curves of study_slim(),
# and for the vignette's verdicts `final` (one row per replication:
# objective, cost set, variance, policy, the simple regret at the budget,
# the cost spent with control sets other than the full one and the cost
# after which only the full set was played, the paper's diamond) and `sets`
# (the plays and cost of every control set per replication), with
# `settings`. A part made by another build is accepted when this build's
# behaviour fingerprint for the part's policies and problems equals the one
# recorded with the part, else after a replay of its cheapest cell (see
# study.R).
#
# Protocol of the paper and its reference code (github.com/sebtsh/bocvs):
# the GP-sample (a new sample per replication, test_problem_cvs(seed = r))
# and Hartmann-3 objectives on [0, 1]^3 with all seven control sets; the
# cheap, moderate and expensive cost sets; every input drawn, when not
# controlled, from a normal of mean 0.5 truncated to [0, 1] with variance
# 0.02, 0.04 or 0.08; observation noise 0.01; budget 50; 5 random initial
# points (free); the GP of the reference, SE kernel with fixed lengthscale
# 0.1, outputscale 1 and noise 1e-4; beta = 2; the simple regret of the
# expected objective of the played (control set, partial query). Policies
# of Fig. 2: TS-PSQ (1024 random Fourier features), UCB-PSQ, and the
# explore-then-commit variants of UCB-CVS, ETC-50, ETC-100 and ETC-Ada
# (floor(4 / c) plays of the cost group of cost c); 10 replications (the
# paper's 10 seeds). The paper runs UCB-CVS only through these variants
# (UCB-PSQ is UCB-CVS with epsilon = 0; no other epsilon schedule is
# tested), so policy_ucb_cvs() with a schedule is not part of the study.
# The maximizer is costbo's (100 scrambled Sobol raw points and 4 L-BFGS-B
# starts per controlled input; the reference: 100 random raw points and 5
# starts), and the expectations use scrambled Sobol samples (the
# reference: i.i.d. samples).
#
# Monte Carlo sample count. UCB-PSQ, TS-PSQ and ETC's commit phase play the
# full control set, which needs no expectation: they run with the paper's
# 1024 samples at no cost. ETC's exploring steps maximize the expected UCB
# of every set of a cost group, at a cost proportional to the sample count
# times the square of the number of observations; at 1024 samples ETC-Ada
# under cheap costs (about 440 exploring steps, up to ~450 observations)
# takes over an hour per replication, the study about 100 core-hours. The
# exploring steps use `n_samples_etc` = 256 samples instead, the smallest
# count that changes no chosen control set in the fixed-state check
# inst/scripts/control-sets-mc.R (studies/control-sets/mc-check.rds): ETC's
# two decisions (the best singleton, the best pair) in 48 fixed states (GP
# posteriors after n = 5, 20, 50 and, under cheap costs, 100 observations of
# ETC-Ada runs on both objectives, the three cost sets and the three
# variances, seed 1), with k samples against 1024 (gap: the 1024-sample
# expected UCB lost by the differing choice; margin: the 1024-sample lead
# of the 1024-sample choice in those states; CPU seconds of one decision at
# n = 50):
#
#   samples  differ/96   max gap  max margin  s/decision (n = 50)
#        16         18     0.095       0.061  0.014
#        32         16     0.032       0.017  0.027
#        64          6     0.024       0.011  0.052
#       128          2     0.014       0.009  0.103
#       256          0     0           -      0.212
#      1024          -     -           -      0.823
#   1024, other samples      0      -   -
#   1024, other raw points   1      0.009  0.007  (the maximizer's own noise)
#
# (Rscript inst/scripts/control-sets-mc.R; 341 core-seconds.) The choices
# that 128 samples change are near-ties (margins below 0.009, the size of
# the disagreement of 1024 samples with itself under other raw points of
# the maximizer). 256 samples cost a quarter of 1024.
#
# Run time, CPU seconds of one replication (Hartmann-3, variance 0.02,
# replication 1, with the other core busy; Rscript
# inst/scripts/control-sets-time.R, studies/control-sets/timings.csv):
#
#   policy    cheap   moderate  expensive   (evaluations, cheap)
#   UCB-PSQ     0.2     (the same runs: only the full set is played)
#   TS-PSQ      5.9     (the same runs)
#   ETC-50     34.5       32.9      ~8       149
#   ETC-100   198.4      183.1       9.9     244
#   ETC-Ada  ~1244         8.6       0.6    ~490
#
# (ETC-Ada under cheap costs: 171 s measured for its first 250 evaluations,
# the rest extrapolated from its measured step times; ETC-50 under
# expensive costs not measured, taken as about ETC-100's: 75 against 88
# exploring steps.) The GP-sample problems make the same number of
# evaluations. Parts, with their core-hours estimated from these times and
# measured (the part files' seconds):
#
#   part                          parts  estimated  measured
#   psq_v<var>                        3       0.10  0.13-0.21  both objectives
#   etc50_v<var>                      3       0.42  0.55-0.63  both objectives
#   etc100_<obj>_v<var>_r<block>     12       0.54  0.49-0.68  5 replications
#   etcada_mx_v<var>                  3       0.05  0.12-0.20  moderate and
#                                                              expensive costs,
#                                                              both objectives
#   etcada_<obj>_v<var>_r<block>     30       0.70  0.55-1.13  cheap costs,
#                                                              2 replications
#
# about 29 core-hours in all estimated, 30.2 measured, 21 of them ETC-Ada
# under cheap costs; run the parts one per core (`run <part> ...` in groups
# that fit a session) and commit each part file. The cache records the
# measured total (provenance$core_seconds). TS-PSQ and UCB-PSQ play the
# full control set and so make the same runs at every cost set and variance
# (checked: the same points and regrets); they are run at each variance
# anyway (half a core-hour) so that every problem has all five policies.

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
source(file.path(dirname(script), "study.R"))
suppressMessages(library(costbo))

n_samples_etc <- 256L
variances <- c(0.02, 0.04, 0.08)
objectives <- c(gp = "gp_sample", h3 = "hartmann3")
labels <- c(gp_sample = "GP sample", hartmann3 = "Hartmann-3")
cost_sets <- c("cheap", "moderate", "expensive")
model <- list(kernel = "se", estimate = "fixed", lengthscale = 0.1,
              outputscale = 1, noise = 1e-4)

# a call of list() with the arguments `args`, a named list of calls
list_call <- function(args) as.call(c(as.name("list"), args))
# the problems of some objectives at one variance (all three cost sets), as
# a call; the replication's GP sample is drawn from its number
problems_code <- function(names, variance, costs = cost_sets) {
  g <- expand.grid(costs = costs, name = names, stringsAsFactors = FALSE)
  problems <- Map(function(name, costs) {
    bquote(function(r) test_problem_cvs(.(name), cost_set = .(costs),
                                        variance = .(variance), seed = r,
                                        budget = 50))
  }, g$name, g$costs)
  names(problems) <- sprintf("%s, %s, variance %g", labels[g$name], g$costs,
                             variance)
  list_call(problems)
}
psq <- quote(list(
  `TS-PSQ` = policy_ts_psq(n_features = 1024L, n_samples = 1024L),
  `UCB-PSQ` = policy_ucb_psq(beta = 2, n_samples = 1024L)))
etc <- function(label, plays) {
  list_call(stats::setNames(list(bquote(
    policy_etc(plays = .(plays), beta = 2, n_samples = .(n_samples_etc)))),
    label))
}
recipe <- function(problems, policies, reps = 1:10) {
  study_recipe(problems, policies, reps = reps, n_init = 5L, model = model)
}
vtag <- function(v) sprintf("v%03d", round(100 * v))
block_name <- function(b) sprintf("r%02d_%02d", min(b), max(b))
# replication blocks of the ETC parts with many exploring steps, sized to
# about an hour of one core (see the run times above)
blocks_etc100 <- split(1:10, rep(1:2, each = 5))
blocks_etcada <- split(1:10, rep(1:5, each = 2))
parts <- list()
for (v in variances) {
  both <- problems_code(objectives, v)
  parts[[paste0("psq_", vtag(v))]] <- recipe(both, psq)
  parts[[paste0("etc50_", vtag(v))]] <- recipe(both, etc("ETC-50", 50))
  parts[[paste0("etcada_mx_", vtag(v))]] <- recipe(
    problems_code(objectives, v, c("moderate", "expensive")),
    etc("ETC-Ada", "adaptive"))
  for (o in names(objectives)) {
    one <- problems_code(objectives[[o]], v)
    for (b in blocks_etc100) {
      parts[[sprintf("etc100_%s_%s_%s", o, vtag(v), block_name(b))]] <-
        recipe(one, etc("ETC-100", 100), b)
    }
    # ETC-Ada explores long only under cheap costs
    cheap <- problems_code(objectives[[o]], v, "cheap")
    for (b in blocks_etcada) {
      parts[[sprintf("etcada_%s_%s_%s", o, vtag(v), block_name(b))]] <-
        recipe(cheap, etc("ETC-Ada", "adaptive"), b)
    }
  }
}

# --- what the verdicts need ---------------------------------------------------
# The problem's name "<objective>, <costs>, variance <v>" split into columns.
problem_columns <- function(problem) {
  p <- do.call(rbind, strsplit(problem, ", "))
  data.frame(objective = p[, 1L], costs = p[, 2L],
             variance = as.numeric(sub("variance ", "", p[, 3L])),
             stringsAsFactors = FALSE)
}

# One row per replication: the simple regret at the budget (regret of the
# best expected objective played within the budget, as in Fig. 2), the cost
# spent on control sets other than the full one, and the cost after which
# only the full set is played (0 when it always is; the budget spent when
# the last play is not the full set).
final_runs <- function(bm) {
  rp <- bm$replications
  ev <- bm$evaluations
  ev <- ev[ev$phase == "bo" & ev$status == "ok", , drop = FALSE]
  key <- paste(ev$problem, ev$policy, ev$rep, sep = "\r")
  full <- 7L # the seven control sets of test_problem_cvs(), {1, 2, 3} last
  step <- ave(ev$cumulative_cost, key, FUN = function(c) c - c(0, head(c, -1L)))
  partial <- ev$control_set != full
  by_run <- split(data.frame(cost = ev$cumulative_cost, step = step,
                             partial = partial), key)
  k <- paste(rp$problem, rp$policy, rp$rep, sep = "\r")
  stats_run <- t(vapply(by_run[k], function(r) {
    if (is.null(r)) return(c(NA_real_, NA_real_))
    c(sum(r$step[r$partial]),
      if (any(r$partial)) r$cost[max(which(r$partial))] else 0)
  }, c(0, 0)))
  out <- cbind(problem_columns(rp$problem),
               rp[, c("problem", "policy", "rep", "status", "n_evaluations",
                      "spent", "regret", "seconds")])
  out$cost_partial_sets <- stats_run[, 1L]
  out$cost_until_commit <- stats_run[, 2L]
  rownames(out) <- NULL
  out
}

# Plays and cost of every control set per replication.
set_plays <- function(bm) {
  ev <- bm$evaluations
  ev <- ev[ev$phase == "bo" & ev$status == "ok", , drop = FALSE]
  key <- paste(ev$problem, ev$policy, ev$rep, sep = "\r")
  ev$step <- ave(ev$cumulative_cost, key,
                 FUN = function(c) c - c(0, head(c, -1L)))
  s <- stats::aggregate(cbind(plays = 1, cost = step) ~ problem + policy +
                          rep + control_set, data = ev, FUN = sum)
  s <- s[order(s$problem, s$policy, s$rep, s$control_set), ]
  out <- cbind(problem_columns(s$problem), s)
  rownames(out) <- NULL
  out
}

study_main(parts, "control-sets", write = function(j) {
  mc <- file.path("studies", "control-sets", "mc-check.rds")
  list(final = final_runs(j$benchmark),
       curves = study_slim(j$benchmark)$curves,
       sets = set_plays(j$benchmark),
       settings = list(n_samples_etc = n_samples_etc, model = model,
                       variances = variances, budget = 50, n_init = 5L,
                       reps = 10L,
                       mc_check = if (file.exists(mc)) readRDS(mc)$table),
       provenance = j$provenance)
})
