# The tuning problem of vignette("tuning"), in a file of its own so that the
# recipes of inst/scripts/tuning.R can source it where the script's
# functions do not exist (as rf-boston-problem.R, whose recorder of measured
# costs it uses). The recipe's problem code is
#   local({
#     source(system.file("scripts", "tuning-problem.R", package = "costbo"),
#            local = TRUE)
#     list(`ranger-Pima` = ranger_pima)
#   })
# Sourcing defines ranger_pima(), pima_space() and pima_data(), and those of
# rf-boston-problem.R; it needs ranger and MASS only when a problem is built.
#
# The problem of replication `rep`: a probability forest of ranger (one
# thread) classifying diabetes (`type`) in the Pima Indians data shipped
# with R (MASS::Pima.tr and MASS::Pima.te together, 532 women, 7
# predictors), tuned over five settings of three kinds (pima_space()):
#   num.trees        integer in 10..1000, log scale
#   mtry             integer in 1..7
#   min.node.size    integer in 1..64, log scale
#   sample.fraction  number in [0.1, 1], log scale
#   splitrule        category: gini, extratrees, hellinger
# The objective is minus the 5-fold cross-validated Brier score of the
# predicted probability of diabetes, with folds and forest seed fixed by the
# replication (so the objective is deterministic and costbo never trains a
# configuration twice). The cost is the CPU time of the five trainings and
# predictions, in seconds (at least 0.001): it varies 50-fold over the
# space, with the number of trees and the sample fraction. CPU time rather
# than elapsed time keeps the costs meaningful on a shared machine; the
# costs are recorded and replayed as rf-boston-problem.R describes.

source(system.file("scripts", "rf-boston-problem.R", package = "costbo"),
       local = TRUE)

pima_space <- function() {
  costbo::bo_space(
    num.trees = costbo::param_int(10, 1000, log = TRUE),
    mtry = costbo::param_int(1, 7),
    min.node.size = costbo::param_int(1, 64, log = TRUE),
    sample.fraction = costbo::param_num(0.1, 1, log = TRUE),
    splitrule = costbo::param_cat(c("gini", "extratrees", "hellinger")))
}

pima_data <- function() {
  if (!requireNamespace("MASS", quietly = TRUE)) {
    stop("the tuning problem needs the MASS package", call. = FALSE)
  }
  rbind(MASS::Pima.tr, MASS::Pima.te)
}

ranger_pima <- function(rep, budget = 5) {
  for (pkg in c("ranger", "MASS")) {
    if (!requireNamespace(pkg, quietly = TRUE)) {
      stop("the tuning problem needs the ", pkg, " package", call. = FALSE)
    }
  }
  data <- pima_data()
  yes <- as.numeric(data$type == "Yes")
  folds <- study_folds(rep, nrow(data))
  objective <- function(x, measure) study_keep_stream({
    t0 <- proc.time()
    prob <- numeric(nrow(data))
    for (k in 1:5) {
      fit <- ranger::ranger(type ~ ., data = data[folds != k, ],
                            probability = TRUE, num.trees = x$num.trees,
                            mtry = x$mtry, min.node.size = x$min.node.size,
                            sample.fraction = x$sample.fraction,
                            splitrule = x$splitrule, num.threads = 1,
                            seed = rep)
      prob[folds == k] <- stats::predict(
        fit, data[folds == k, ], seed = rep)$predictions[, "Yes"]
    }
    t <- proc.time() - t0
    list(value = -mean((prob - yes)^2),
         cost = if (measure) max(t[["user.self"]] + t[["sys.self"]], 1e-3))
  })
  space <- pima_space()
  costbo::bo_problem(study_recorded_objective(objective, rep, space = space),
                     space = space, budget = budget, name = "ranger-Pima")
}
