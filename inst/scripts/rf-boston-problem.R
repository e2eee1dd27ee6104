# The RF-Boston problem (Astudillo et al. 2021, Sec. 5.1), in a file of its
# own so that the recipe of inst/scripts/rf-boston.R can source it where the
# script's functions do not exist: study_eval() evaluates a recipe in a
# fresh environment whose parent is the global one, and the provenance test
# of the package (tests/testthat/test-studies.R) replays the cache's recipe
# without the script. The recipe's problem code is
#   local({
#     source(system.file("scripts", "rf-boston-problem.R", package = "costbo"),
#            local = TRUE)
#     list(`RF-Boston` = rf_boston)
#   })
# Sourcing defines rf_boston(), rf_boston_typed(), study_recorded_objective()
# with its helpers study_point_key() and study_record_keys(), and
# study_keep_stream() and study_folds(), and nothing else; it needs ranger
# and MASS only when a problem is built.
#
# The problem of replication `rep`: the number of trees in [1, 256] and the
# maximum depth in [1, 64] (both rounded), and log10 of the fraction of
# features tried at each split in [-1, 0]; the forest is grown by ranger
# (mtry = the fraction times the 13 predictors, rounded, at least 1; one
# thread) on MASS::Boston. The objective is minus the 5-fold cross-validated
# mean squared error of medv, with folds and forest seed fixed by the
# replication. The cost is the CPU time of the five trainings and
# predictions, in units of the CPU time of the same CV of a default forest
# (100 trees, unlimited depth, all features; median of three, measured
# before the first measured evaluation), as the reference implementation
# scales training times by a default forest's. CPU time rather than elapsed
# time keeps the costs meaningful on a shared machine.
#
# Measured costs and replays. A CPU time cannot be reproduced, so a replay
# of a recorded replication (study_reproduces() in inst/scripts/study.R)
# could never be bit-identical. The costs are therefore recorded and
# replayed, through two options that study.R sets:
# - `costbo.study.costs`, a directory, set by study_run() while it runs a
#   recipe: every problem built then writes the points it evaluated and
#   their costs to a file of its own in that directory after each
#   evaluation, and study_run() attaches to each record the costs of its run
#   (`record$costs`, one per row of `record$x`).
# - `costbo.study.replay`, the record being replayed, set by
#   study_reproduces() for the duration of the replay: a problem built for
#   the record's replication, when the record has costs, returns at each
#   point the cost recorded for exactly the same point (bit for bit; the
#   next unused occurrence of that point in `record$x`). The objective, a
#   CV with fixed folds and forest seed, is still computed. The replay thus
#   checks every value of the objective and every decision of the code
#   (initial design, model fits, acquisitions, budget accounting) given the
#   observed costs; only the timings themselves are taken from the record.
#   At a point the record did not evaluate (the replay has diverged) the
#   cost is measured, and the replay fails.

# Wrap `objective(x, measure)`, which returns list(value, cost) (the cost
# only when `measure` is TRUE), into an objective of bo_problem() whose costs
# are recorded and replayed as described above, for replication `rep`. For a
# problem on a typed space (bo_problem(space = )), give the space: its
# objective receives typed points (a named list), which are logged and
# matched by a key of their values (study_point_key()); the record's rows
# (the space's encoding) are decoded to the same keys.
study_recorded_objective <- function(objective, rep, space = NULL) {
  replay <- getOption("costbo.study.replay")
  if (!is.null(replay) && !(isTRUE(replay$rep == rep) &&
                            !is.null(replay$costs) && !is.null(replay$x))) {
    replay <- NULL
  }
  rkeys <- if (!is.null(replay) && !is.null(space)) {
    study_record_keys(space, replay$x)
  }
  dir <- getOption("costbo.study.costs")
  # tempfile() names the file without R's random number generator
  file <- if (is.null(replay) && !is.null(dir)) {
    tempfile(sprintf("rep%d-", rep), tmpdir = dir, fileext = ".rds")
  }
  used <- if (!is.null(replay)) logical(nrow(replay$x))
  X <- NULL
  keys <- character()
  costs <- double()
  function(x) {
    if (!is.null(replay)) {
      same <- !used & if (is.null(space)) {
        colSums(t(replay$x) == x) == length(x)
      } else rkeys == study_point_key(x)
      if (any(same)) {
        k <- which(same)[1L]
        used[k] <<- TRUE
        return(list(value = objective(x, FALSE)$value,
                    cost = replay$costs[k]))
      }
    }
    if (!is.null(file)) {
      # the point is logged before it is evaluated, so that the log keeps
      # one row per row of the record (NA for a failed evaluation)
      if (is.null(space)) {
        X <<- rbind(X, as.double(x), deparse.level = 0L)
      } else {
        keys <<- c(keys, study_point_key(x))
      }
      costs <<- c(costs, NA_real_)
      on.exit(saveRDS(if (is.null(space)) {
        list(rep = rep, x = X, costs = costs)
      } else list(rep = rep, keys = keys, space = space, costs = costs), file))
    }
    out <- objective(x, TRUE)
    if (!is.null(file)) costs[length(costs)] <<- out$cost
    out
  }
}

# Evaluate expr without moving the optimizer's stream of random numbers:
# R's random numbers drawn in it (fold assignment, a learner's seed) leave
# .Random.seed as it was.
study_keep_stream <- function(expr) {
  old <- get0(".Random.seed", globalenv(), inherits = FALSE)
  on.exit(if (is.null(old)) rm(".Random.seed", envir = globalenv()) else
    assign(".Random.seed", old, globalenv()))
  expr
}

# The assignment of n rows to 5 folds, fixed by the replication.
study_folds <- function(rep, n) {
  study_keep_stream({
    set.seed(rep, kind = "Mersenne-Twister")
    sample(rep_len(1:5, n))
  })
}

# The key of a typed point (a named list or a one-row data frame): its
# values, numbers to 17 significant digits, categories as their labels.
study_point_key <- function(x) {
  paste(vapply(x, function(v) {
    if (is.numeric(v)) sprintf("%.17g", as.double(v))
    else as.character(v)
  }, ""), collapse = "|")
}

# The keys of the rows of a run's points (the space's encoding).
study_record_keys <- function(space, X) {
  d <- costbo::space_decode(space, X)
  vapply(seq_len(nrow(d)), function(i) study_point_key(d[i, , drop = FALSE]),
         "")
}

# The problem of replication `rep`; `typed = TRUE` gives the same forests
# on a typed space (rf_boston_typed()).
rf_boston <- function(rep, budget = 10, typed = FALSE) {
  for (pkg in c("ranger", "MASS")) {
    if (!requireNamespace(pkg, quietly = TRUE)) {
      stop("RF-Boston needs the ", pkg, " package", call. = FALSE)
    }
  }
  data <- MASS::Boston
  p <- ncol(data) - 1L
  folds <- study_folds(rep, nrow(data))
  # ranger() and predict() draw a seed from R's generator unless given one;
  # both are given the replication's (predict() uses it only for ties in
  # classification), and the stream is guarded anyway, so that evaluating
  # or not (the cost unit is not measured in a replay) never moves it
  cv <- function(trees, depth, mtry) study_keep_stream({
    t0 <- proc.time()
    pred <- numeric(nrow(data))
    for (k in 1:5) {
      fit <- ranger::ranger(medv ~ ., data = data[folds != k, ],
                            num.trees = trees, max.depth = depth,
                            mtry = mtry, num.threads = 1, seed = rep)
      pred[folds == k] <- stats::predict(fit, data[folds == k, ],
                                         seed = rep)$predictions
    }
    t <- proc.time() - t0
    list(mse = mean((data$medv - pred)^2),
         seconds = max(t[["user.self"]] + t[["sys.self"]], 1e-3))
  })
  # the cost unit: the same CV of a default forest (median of three),
  # measured once, when the first cost is (not in a replay)
  unit <- NULL
  objective <- function(x, measure) {
    if (measure && is.null(unit)) {
      unit <<- stats::median(replicate(3, cv(100, 0, p)$seconds))
    }
    r <- cv(round(x[1]), round(x[2]), max(1, round(10^x[3] * p)))
    list(value = -r$mse, cost = if (measure) r$seconds / unit)
  }
  if (typed) {
    space <- costbo::bo_space(trees = costbo::param_int(1, 256),
                              depth = costbo::param_int(1, 64),
                              mtry = costbo::param_int(1, p, log = TRUE))
    typed_objective <- function(x, measure) {
      if (measure && is.null(unit)) {
        unit <<- stats::median(replicate(3, cv(100, 0, p)$seconds))
      }
      r <- cv(x$trees, x$depth, x$mtry)
      list(value = -r$mse, cost = if (measure) r$seconds / unit)
    }
    return(costbo::bo_problem(
      study_recorded_objective(typed_objective, rep, space = space),
      space = space, budget = budget, name = "RF-Boston (typed)"))
  }
  costbo::bo_problem(study_recorded_objective(objective, rep),
                     lower = c(1, 1, -1), upper = c(256, 64, 0),
                     budget = budget, name = "RF-Boston")
}

# RF-Boston on a typed space: the number of trees in 1..256 and the maximum
# depth in 1..64 (integers), and mtry in 1..13 (an integer on the log
# scale, as the rounded version's log10 of the fraction of features); the
# GP models the integers through the kernel's input transform instead of
# the rounding inside the objective, and no forest is trained twice.
rf_boston_typed <- function(rep, budget = 10) {
  rf_boston(rep, budget = budget, typed = TRUE)
}
