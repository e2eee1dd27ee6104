# How much of its budget the mlr3 tuner spends: a random forest (ranger,
# one thread) tuned over five settings on the Pima data with the training
# and prediction time of a 5-fold CV as the cost (the archive's
# runtime_learners, in seconds), budgets of 20 and 60 seconds, seeds 1-3.
# Prints per run the budget spent (and its share), the evaluations, the
# initial design's size and the best Brier score; run it with two builds to
# compare them (R_LIBS=<library> Rscript bench/tuning-budget.R).
#
# Needs mlr3, mlr3learners, mlr3tuning, ranger and MASS; about 5 minutes.
for (pkg in c("mlr3", "mlr3learners", "mlr3tuning", "ranger", "MASS")) {
  if (!requireNamespace(pkg, quietly = TRUE)) stop("needs ", pkg)
}
suppressMessages({
  library(costbo)
  library(mlr3)
  library(mlr3learners)
  library(mlr3tuning)
})
lgr::get_logger("mlr3")$set_threshold("warn")
lgr::get_logger("bbotk")$set_threshold("warn")
args <- commandArgs(trailingOnly = TRUE)
budgets <- if (length(args)) as.numeric(args) else c(20, 60)

tune <- function(budget, seed) {
  task <- TaskClassif$new("pima", backend = rbind(MASS::Pima.tr, MASS::Pima.te),
                          target = "type", positive = "Yes")
  learner <- lrn("classif.ranger", predict_type = "prob", num.threads = 1,
                 seed = seed,
                 num.trees = to_tune(p_int(10, 1000, logscale = TRUE)),
                 mtry = to_tune(1, 7),
                 min.node.size = to_tune(p_int(1, 64, logscale = TRUE)),
                 sample.fraction = to_tune(p_dbl(0.1, 1, logscale = TRUE)),
                 splitrule = to_tune(c("gini", "extratrees", "hellinger")))
  resampling <- rsmp("cv", folds = 5)
  set.seed(seed)
  resampling$instantiate(task)
  instance <- ti(task = task, learner = learner, resampling = resampling,
                 measures = msr("classif.bbrier"), terminator = trm("none"))
  tuner <- tnr("costbo", policy = policy_ei_pu_cc(), budget = budget)
  set.seed(seed)
  tuner$optimize(instance)
  run <- tuner$run
  df <- as.data.frame(run)
  data.frame(budget = budget, seed = seed, spent = run$spent,
             share = run$spent / budget, evaluations = nrow(df),
             design = sum(df$phase == "initial"),
             best_brier = min(instance$archive$data$classif.bbrier),
             fit_time_na = mean(is.na(df$fit_time[df$phase == "bo"])),
             stop = run$stop_code)
}

build <- costbo_build()
cat(sprintf("costbo build %s\n", substr(build$source_hash, 1, 8)))
res <- do.call(rbind, lapply(budgets, function(b) {
  do.call(rbind, lapply(1:3, function(s) tune(b, s)))
}))
print(res, digits = 3, row.names = FALSE)
