# Tuning a model under a time budget: the cache of vignette("tuning").
#
# Usage, from the package's source directory with costbo, ranger and MASS
# installed (and mlr3, mlr3learners, mlr3tuning, paradox for the mlr3
# parts):
#   Rscript inst/scripts/tuning.R list
#   Rscript inst/scripts/tuning.R run <part> [<part> ...]
#   Rscript inst/scripts/tuning.R join [--partial <file>]
# `list` prints whether each mlr3 part is done and each other part's
# status, build, date, seconds and command, from the part files; `run`
# writes each part to studies/tuning/<part>.rds (see study.R); `join`
# writes inst/extdata/tuning.rds. A part made by another build is accepted
# when this build's behaviour fingerprint for the part's policies and
# problems equals the one recorded with the part, else after a replay of
# its cheapest cell (see study.R); the mlr3 parts are not certified (below).
#
# Three studies:
# - direct_*: the ranger-Pima problem of tuning-problem.R (a probability
#   forest on the Pima data shipped with R, three integer settings, one
#   numeric on the log scale, one categorical; minus the 5-fold CV Brier
#   score; cost the CPU seconds of the CV, measured, recorded and replayed)
#   tuned directly with bo_problem(space = ): random search, EI, EI-PU-CC
#   and the 2-step B-MS-EI tree, budget 5 CPU seconds after a free initial
#   design of 10 typed Sobol points, 20 replications in parts of 10 (folds
#   and forest seed fixed by the replication; the policies of a replication
#   share them and the initial design).
# - mlr3_*: the same learner and space through mlr3tuning,
#   tnr("costbo", policy = ...) with the same four policies, the cost the
#   archive's runtime_learners (elapsed seconds of training and prediction)
#   and the budget 20 seconds including the initial design of 16 points
#   (the tuner's default; with 5 seconds, the tuner's cautious rule for a
#   measured cost stopped EI-PU-CC after 7 evaluations and 3.4 seconds),
#   10 replications in parts of 2 (rsmp("cv", folds = 5)
#   instantiated and the learner seeded by the replication). Elapsed times
#   cannot be replayed: these parts keep the archives, the build and the
#   command, and are not certified by a replay.
# - rf_typed_*: RF-Boston (rf-boston-problem.R) on a typed space
#   (rf_boston_typed(): integers for the trees, the depth and mtry, mtry on
#   the log scale) with the paper's policies but the full 4-step tree (145
#   CPU seconds per replication on the rounded version), 30 replications in
#   parts of 10; the rounded version's cache is inst/extdata/rf-boston.rds.
#
# Run time, CPU seconds of one core, measured on replication 1 with the
# other core busy, with a budget of 10 CPU seconds: random search 12.7 s
# (64 evaluations), EI-PU-CC 13.4 s (111 evaluations), the 2-step tree
# 210 s (195 evaluations: the cheap forests make proposals, about 1 s each,
# the larger part). Hence the budget of 5 seconds, which roughly halves
# the evaluations.
#
# Core-hours per part, measured (the part files' seconds, 1.2 for the 10
# parts; wall time for the study parts, CPU time for the mlr3 parts):
# direct_* 0.16-0.23, rf_typed_* 0.14-0.17, mlr3_* 0.05-0.10. The cache
# records the measured total of the study parts (provenance$core_seconds),
# and the mlr3 parts their own seconds.

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
source(file.path(dirname(script), "study.R"))
suppressMessages(library(costbo))
study_need_packages(c("ranger", "MASS"))
source(system.file("scripts", "tuning-problem.R", package = "costbo"),
       local = TRUE)

# --- the recipes -------------------------------------------------------------
# (the problems' files are sourced where the recipe is evaluated, so that a
# replay needs only the installed package)
pima <- quote(local({
  source(system.file("scripts", "tuning-problem.R", package = "costbo"),
         local = TRUE)
  list(`ranger-Pima` = ranger_pima)
}))
rf_typed <- quote(local({
  source(system.file("scripts", "rf-boston-problem.R", package = "costbo"),
         local = TRUE)
  list(`RF-Boston (typed)` = rf_boston_typed)
}))
tuning_policies <- alist(
  Random = policy_random(), EI = policy_ei(), `EI-PU-CC` = policy_ei_pu_cc(),
  `2-B-MS-EI` = policy_bmsei(steps = 2))
rf_policies <- alist(
  EI = policy_ei(), `EI-PU` = policy_ei_pu(), `EI-PU-CC` = policy_ei_pu_cc(),
  `2-B-MS-EI_p` = policy_bmsei(steps = 2, path = TRUE),
  `2-B-MS-EI` = policy_bmsei(steps = 2),
  `4-B-MS-EI_p` = policy_bmsei(steps = 4, path = TRUE))
# list() of the named policies, as a call
code <- function(pols) as.call(c(as.name("list"), pols))
block_name <- function(prefix, b) sprintf("%s_r%03d_%03d", prefix, min(b), max(b))
blocks <- function(prefix, reps, size, make) {
  b <- split(reps, (seq_along(reps) - 1L) %/% size)
  stats::setNames(lapply(b, make),
                  vapply(b, function(r) block_name(prefix, r), ""))
}
parts <- c(
  blocks("direct", 1:20, 10L, function(r) {
    study_recipe(pima, code(tuning_policies), r, n_init = 10L)
  }),
  blocks("rf_typed", 1:30, 10L, function(r) {
    study_recipe(rf_typed, code(rf_policies), r, n_init = 8L)
  }))

# --- the mlr3 parts ----------------------------------------------------------
mlr3_parts <- lapply(split(1:10, rep(1:5, each = 2)), identity)
names(mlr3_parts) <- vapply(mlr3_parts, function(r) block_name("mlr3", r), "")

# One tuning of the ranger learner through mlr3tuning with a costbo policy:
# the archive (configuration, Brier score, runtime_learners, cost bound).
mlr3_tune <- function(policy, rep, budget = 20) {
  task <- mlr3::TaskClassif$new("pima", backend = pima_data(),
                                target = "type", positive = "Yes")
  learner <- mlr3::lrn("classif.ranger", predict_type = "prob",
                       num.threads = 1L, seed = rep)
  learner$param_set$set_values(
    num.trees = paradox::to_tune(paradox::p_int(10, 1000, logscale = TRUE)),
    mtry = paradox::to_tune(1, 7),
    min.node.size = paradox::to_tune(paradox::p_int(1, 64, logscale = TRUE)),
    sample.fraction = paradox::to_tune(paradox::p_dbl(0.1, 1,
                                                      logscale = TRUE)),
    splitrule = paradox::to_tune(c("gini", "extratrees", "hellinger")))
  resampling <- mlr3::rsmp("cv", folds = 5)
  set.seed(rep)
  resampling$instantiate(task)
  instance <- mlr3tuning::ti(task = task, learner = learner,
                             resampling = resampling,
                             measures = mlr3::msr("classif.bbrier"),
                             terminator = mlr3tuning::trm("none"))
  tuner <- mlr3tuning::tnr("costbo", policy = policy, budget = budget)
  set.seed(rep)
  t0 <- proc.time()
  tuner$optimize(instance)
  t <- proc.time() - t0
  a <- as.data.frame(data.table::as.data.table(instance$archive$data))
  keep <- c("num.trees", "mtry", "min.node.size", "sample.fraction",
            "splitrule", "classif.bbrier", "runtime_learners", "batch_nr")
  out <- a[, intersect(keep, names(a))]
  out$seconds <- t[["user.self"]] + t[["sys.self"]]
  out
}

mlr3_run <- function(name) {
  study_need_packages(c("mlr3", "mlr3learners", "mlr3tuning", "paradox",
                        "data.table", "lgr"))
  suppressMessages(library(mlr3learners))
  lgr::get_logger("mlr3")$set_threshold("warn")
  lgr::get_logger("bbotk")$set_threshold("warn")
  reps <- mlr3_parts[[name]]
  t0 <- proc.time()
  runs <- list()
  for (r in reps) for (pn in names(tuning_policies)) {
    pol <- eval(tuning_policies[[pn]])
    a <- mlr3_tune(pol, r)
    a$policy <- pn
    a$rep <- r
    runs[[length(runs) + 1L]] <- a
    message(sprintf("%s: rep %d %s, %d evaluations", name, r, pn, nrow(a)))
  }
  t <- proc.time() - t0
  dir <- file.path("studies", "tuning")
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  saveRDS(list(archives = do.call(rbind, runs), build = costbo_build(),
               command = paste("Rscript inst/scripts/tuning.R run", name),
               seconds = t[["user.self"]] + t[["sys.self"]],
               date = format(Sys.time(), tz = "UTC", usetz = TRUE),
               packages = vapply(c("mlr3", "mlr3tuning", "mlr3learners",
                                   "paradox", "ranger"), function(p) {
                 as.character(utils::packageVersion(p))
               }, "")),
          study_file(dir, name))
}

# --- what the vignette reads besides study_slim()'s measures -----------------
# The gap between each run's best value and the best value any policy found
# in the same replication of the same problem, on the cost grid of the
# curves: mean and quartiles per problem, policy and cost.
tuning_gaps <- function(bm, grid) {
  df <- as.data.frame(bm)
  df <- df[df$cost %in% grid, ]
  last <- df$cost == stats::ave(df$cost, df$problem, FUN = max)
  key <- paste(df$problem, df$rep)
  known <- tapply(df$best_value[last], key[last], max)
  df$gap <- known[key] - df$best_value
  g <- stats::aggregate(gap ~ problem + policy + cost, df, function(v) {
    q <- stats::quantile(v, c(0.25, 0.5, 0.75), names = FALSE)
    c(n = length(v), mean = mean(v), q25 = q[1], median = q[2], q75 = q[3])
  })
  out <- cbind(g[, c("problem", "policy", "cost")], as.data.frame(g$gap))
  out[order(out$problem, out$policy, out$cost), ]
}
# Evaluations after the initial design, per run.
tuning_effort <- function(bm) {
  do.call(rbind, lapply(bm$records, function(r) {
    if (r$status != "ok") return(NULL)
    tr <- r$trace
    data.frame(problem = r$problem, policy = r$policy, rep = r$rep,
               evaluations = sum(tr$phase != "initial"))
  }))
}
# Wall seconds of three acquisitions (model fits + policy) per policy on
# replication 1 of ranger-Pima, after the initial design (made by the join,
# on the machine that joins).
# (study_acquisition_seconds() takes the policies as R code in strings)
time_acquisitions <- function() {
  study_acquisition_seconds(ranger_pima(1),
                            vapply(tuning_policies, deparse1, ""),
                            n_init = 10L)
}
# The mlr3 archives (settings with a log scale as mlr3 searches them: the
# natural logarithm of num.trees, min.node.size and sample.fraction): per
# run the best Brier score after each evaluation
# against cumulative training seconds, and the gap to the best score any
# policy found in the replication, on a grid of seconds.
mlr3_curves <- function(archives, grid = seq(0, 20, by = 0.25)) {
  runs <- split(archives, list(archives$policy, archives$rep), drop = TRUE)
  rows <- lapply(runs, function(a) {
    spent <- cumsum(pmax(a$runtime_learners, 1e-3))
    best <- cummin(a$classif.bbrier)
    at <- vapply(grid, function(s) {
      k <- which(spent <= s)
      if (length(k)) best[max(k)] else NA_real_
    }, 0)
    data.frame(policy = a$policy[1L], rep = a$rep[1L], seconds = grid,
               best_brier = at, evaluations = nrow(a),
               spent = max(spent))
  })
  cur <- do.call(rbind, rows)
  known <- tapply(archives$classif.bbrier, archives$rep, min)
  cur$gap <- cur$best_brier - known[as.character(cur$rep)]
  rownames(cur) <- NULL
  cur
}

# `run` takes study parts and mlr3 parts alike
args <- commandArgs(trailingOnly = TRUE)
if (length(args) && args[1L] == "run") {
  for (name in intersect(args[-1L], names(mlr3_parts))) mlr3_run(name)
  args <- setdiff(args, names(mlr3_parts))
}
if (length(args) && args[1L] == "list") {
  print(data.frame(part = names(mlr3_parts), done = file.exists(
    study_file(file.path("studies", "tuning"), names(mlr3_parts)))))
}
if (!(length(args) == 1L && args[1L] == "run")) {
  study_main(parts, "tuning", args = args, write = function(j) {
    slim <- study_slim(j$benchmark)
    files <- study_file(file.path("studies", "tuning"), names(mlr3_parts))
    got <- lapply(files[file.exists(files)], readRDS)
    archives <- do.call(rbind, lapply(got, `[[`, "archives"))
    c(slim,
      list(gaps = tuning_gaps(j$benchmark, unique(slim$curves$cost)),
           effort = tuning_effort(j$benchmark),
           acquisition_seconds = time_acquisitions(),
           mlr3 = if (length(got)) list(
             curves = mlr3_curves(archives),
             evaluations = stats::aggregate(
               cbind(evaluations = classif.bbrier) ~ policy + rep, archives,
               length),
             parts = data.frame(
               part = names(mlr3_parts)[file.exists(files)],
               source_hash = vapply(got, function(p) p$build$source_hash, ""),
               seconds = vapply(got, `[[`, 0, "seconds"),
               command = vapply(got, `[[`, "", "command"),
               date = vapply(got, `[[`, "", "date")),
             packages = got[[1L]]$packages),
           provenance = j$provenance,
           packages = c(ranger = as.character(utils::packageVersion("ranger")),
                        MASS = as.character(utils::packageVersion("MASS")))))
  })
}
