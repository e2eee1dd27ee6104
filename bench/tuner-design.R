# How the mlr3 tuner's charged initial design keeps to the budget: rpart on
# the spam task (holdout, classification error) with its training time as
# the measured cost (the archive's runtime_learners, in seconds), budgets
# 0.3, 1 and 10 s, and a ranger forest (one thread, 5-fold CV on Pima, the
# Brier score) at 10 and 120 s when mlr3learners and ranger are installed;
# seeds 1-3, the default design (2 (k + 1) points, a quarter of the budget).
# Prints per run what the design spent (and its share of the budget), its
# size and batches, the whole spend and the overrun beyond the budget (at
# most the last evaluation's cost), and two checks: the design spent at
# most a quarter of the budget plus its last evaluation, or only the
# configurations a model needs (`design_ok`), and the run at most the budget plus its last evaluation
# (`total_ok`). Run it with two builds to compare them:
#
#   R_LIBS=<library> Rscript bench/tuner-design.R [results file]
#
# Needs mlr3, mlr3tuning and rpart (ranger rows: mlr3learners, ranger and
# MASS); about 5 minutes.
for (pkg in c("mlr3", "mlr3tuning", "rpart")) {
  if (!requireNamespace(pkg, quietly = TRUE)) stop("needs ", pkg)
}
suppressMessages({
  library(costbo)
  library(mlr3)
  library(mlr3tuning)
})
lgr::get_logger("mlr3")$set_threshold("warn")
lgr::get_logger("bbotk")$set_threshold("warn")
args <- commandArgs(trailingOnly = TRUE)
out_file <- if (length(args)) args[1L] else NA_character_

rpart_instance <- function(seed) {
  learner <- lrn("classif.rpart",
                 cp = to_tune(1e-4, 0.2, logscale = TRUE),
                 minsplit = to_tune(2, 64),
                 maxdepth = to_tune(2, 30))
  set.seed(seed)
  ti(task = tsk("spam"), learner = learner, resampling = rsmp("holdout"),
     measures = msr("classif.ce"), terminator = trm("evals", n_evals = 60))
}

forest_instance <- function(seed) {
  task <- TaskClassif$new("pima", backend = rbind(MASS::Pima.tr, MASS::Pima.te),
                          target = "type", positive = "Yes")
  learner <- lrn("classif.ranger", predict_type = "prob", num.threads = 1,
                 seed = seed,
                 num.trees = to_tune(p_int(10, 1000, logscale = TRUE)),
                 mtry = to_tune(1, 7),
                 min.node.size = to_tune(p_int(1, 64, logscale = TRUE)),
                 sample.fraction = to_tune(p_dbl(0.1, 1, logscale = TRUE)),
                 splitrule = to_tune(c("gini", "extratrees", "hellinger")))
  set.seed(seed)
  ti(task = task, learner = learner, resampling = rsmp("cv", folds = 5),
     measures = msr("classif.bbrier"), terminator = trm("evals", n_evals = 60))
}

tune <- function(job, make, budget, seed) {
  inst <- make(seed)
  tuner <- tnr("costbo", policy = policy_ei_pu_cc(), budget = budget)
  set.seed(seed)
  tuner$optimize(inst)
  run <- tuner$run
  a <- inst$archive$data
  init <- which(run$phase == "initial")
  design <- sum(run$cost[init])
  last <- run$cost[length(run$cost)]
  # the costs of the configurations a model needs (2), in order
  needed <- sum(run$cost[init][seq_len(min(2L, length(init)))])
  data.frame(
    job = job, budget = budget, seed = seed,
    design_points = length(init),
    design_batches = length(unique(a$batch_nr[init])),
    design_spent = design, design_share = design / budget,
    evaluations = length(run$cost), spent = run$spent,
    overrun = max(0, run$spent - budget), last_cost = last,
    design_ok = design - run$cost[max(init)] <= 0.25 * budget * (1 + 1e-9) ||
      design <= needed * (1 + 1e-9),
    total_ok = run$spent - last <= budget * (1 + 1e-9),
    stop = run$stop_code)
}

build <- costbo_build()
cat(sprintf("costbo build %s\n", substr(build$source_hash, 1, 8)))
jobs <- list(list("rpart-spam", rpart_instance, c(0.3, 1, 10)))
if (requireNamespace("mlr3learners", quietly = TRUE) &&
    requireNamespace("ranger", quietly = TRUE) &&
    requireNamespace("MASS", quietly = TRUE)) {
  suppressMessages(library(mlr3learners))
  jobs <- c(jobs, list(list("ranger-pima", forest_instance, c(10, 120))))
} else {
  cat("(ranger rows left out: mlr3learners, ranger or MASS is missing)\n")
}
res <- do.call(rbind, lapply(jobs, function(j) {
  do.call(rbind, lapply(j[[3]], function(b) {
    do.call(rbind, lapply(1:3, function(s) tune(j[[1]], j[[2]], b, s)))
  }))
}))
print(res, digits = 3, row.names = FALSE)
cat(sprintf("\ndesign within its share plus its last evaluation (or the 2 points a model needs): %d of %d runs\n",
            sum(res$design_ok), nrow(res)))
cat(sprintf("spend within the budget plus the last evaluation: %d of %d runs\n",
            sum(res$total_ok), nrow(res)))
if (!is.na(out_file)) {
  sink(out_file)
  cat(sprintf("costbo build %s; %s\n", substr(build$source_hash, 1, 8),
              format(Sys.time(), tz = "UTC", usetz = TRUE)))
  print(res, digits = 3, row.names = FALSE)
  cat(sprintf("\ndesign within its share plus its last evaluation (or the 2 points a model needs): %d of %d runs\n",
              sum(res$design_ok), nrow(res)))
  cat(sprintf("spend within the budget plus the last evaluation: %d of %d runs\n",
              sum(res$total_ok), nrow(res)))
  sink()
}
