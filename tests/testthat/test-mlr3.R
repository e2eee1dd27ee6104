# The mlr3 tuner "costbo" and as_bo_space() (R/mlr3.R, R/zzz.R).

skip_mlr3 <- function() {
  for (p in c("mlr3", "mlr3tuning", "paradox", "bbotk", "data.table", "R6",
              "rpart")) {
    skip_if_not_installed(p)
  }
  loadNamespace("mlr3tuning")
  for (lg in c("mlr3", "bbotk")) {
    lgr::get_logger(lg)$set_threshold("warn")
  }
}

test_that("as_bo_space() converts each kind of parameter", {
  skip_if_not_installed("paradox")
  ps <- paradox::ps(
    x = paradox::p_dbl(-1, 2),
    lr = paradox::p_dbl(1e-4, 1, logscale = TRUE),
    n = paradox::p_int(2, 20),
    k = paradox::p_int(1, 100, logscale = TRUE),
    rule = paradox::p_fct(c("gini", "extratrees", "hellinger")),
    flag = paradox::p_lgl()
  )
  sp <- as_bo_space(ps)
  expect_s3_class(sp, "bo_space")
  expect_identical(as_bo_space(sp), sp)
  p <- sp$params
  expect_setequal(names(p), c("x", "lr", "n", "k", "rule", "flag"))
  expect_identical(unclass(p$x), list(type = "num", lower = -1, upper = 2,
                                      log = FALSE))
  expect_identical(p$lr$type, "num")
  expect_equal(c(p$lr$lower, p$lr$upper), c(1e-4, 1), tolerance = 1e-14)
  expect_true(p$lr$log)
  expect_identical(unclass(p$n), list(type = "int", lower = 2, upper = 20,
                                      log = FALSE))
  expect_identical(unclass(p$k), list(type = "int", lower = 1, upper = 100,
                                      log = TRUE))
  expect_identical(p$rule$levels, c("gini", "extratrees", "hellinger"))
  expect_identical(p$flag$levels, c("TRUE", "FALSE"))
  expect_identical(sp$d, 4L + 3L + 2L)
  # every typed point maps to the untransformed value whose paradox trafo
  # gives the typed point back (paradox's own trafo as the reference)
  spec <- paradox_spec(ps, NULL)
  set.seed(4)
  U <- matrix(runif(50 * sp$d), 50)
  U[1, ] <- 0
  U[2, ] <- 1
  for (i in seq_len(nrow(U))) {
    pt <- space_point(sp, U[i, ])
    xdt <- paradox_xdt(spec, pt)
    expect_true(ps$check_dt(xdt))
    back <- ps$trafo(as.list(xdt))
    expect_equal(back$x, pt$x, tolerance = 1e-14)
    expect_equal(back$lr, pt$lr, tolerance = 1e-12)
    expect_identical(back$n, pt$n)
    expect_identical(back$k, pt$k)
    expect_identical(back$rule, pt$rule)
    expect_identical(back$flag, as.logical(pt$flag))
  }
})

test_that("as_bo_space() names the parameters it cannot convert", {
  skip_if_not_installed("paradox")
  expect_error(as_bo_space(paradox::ps(a = paradox::p_dbl(0, 1),
                                       f = paradox::p_uty())),
               "`x\\$f`.*ParamUty", class = "costbo_error_arg")
  expect_error(as_bo_space(paradox::ps(a = paradox::p_dbl(0, Inf))),
               "`x\\$a`.*finite bounds", class = "costbo_error_arg")
  expect_error(as_bo_space(paradox::ps(a = paradox::p_fct("only"))),
               "`x\\$a`.*two levels", class = "costbo_error_arg")
  dep <- paradox::ps(a = paradox::p_fct(c("u", "v")),
                     b = paradox::p_dbl(0, 1, depends = a == "u"))
  expect_error(as_bo_space(dep), "`x\\$b`.*dependencies",
               class = "costbo_error_arg")
  expect_error(as_bo_space(list(1)), "`x`", class = "costbo_error_arg")
})

test_that("the tuner is registered and meets mlr3tuning's conventions", {
  skip_mlr3()
  expect_true("costbo" %in% mlr3tuning::mlr_tuners$keys())
  tuner <- mlr3tuning::tnr("costbo", policy = policy_ei_pu(), budget = 60)
  # mlr3tuning's expect_tuner() (inst/testthat/helper_expectations.R)
  expect_true(inherits(tuner, c("TunerBatchCostbo", "TunerBatch", "Tuner",
                                "R6"), which = TRUE)[3] > 0)
  expect_true(all(c("optimize", "param_set") %in% names(tuner)))
  expect_true(".optimize" %in% names(tuner$.__enclos_env__$private))
  expect_s3_class(tuner$param_set, "ParamSet")
  expect_identical(names(formals(tuner$optimize)), "inst")
  # the help page mlr3 points to exists
  expect_identical(tuner$man, "costbo::mlr_tuners_costbo")
  expect_length(utils::help("mlr_tuners_costbo", package = "costbo"), 1L)
  expect_identical(tuner$id, "costbo")
  expect_identical(tuner$properties, "single-crit")
  expect_setequal(tuner$packages, c("mlr3tuning", "costbo"))
  expect_setequal(tuner$param_classes,
                  c("ParamDbl", "ParamInt", "ParamFct", "ParamLgl"))
  expect_setequal(tuner$param_set$ids(),
                  c("policy", "budget", "cost", "n_init", "charge_initial",
                    "budget_prob", "noise", "gp_args"))
  v <- tuner$param_set$values
  expect_identical(v$budget, 60)
  expect_s3_class(v$policy, "bo_policy")
  expect_identical(v$policy$label, policy_ei_pu()$label)
  expect_identical(v$cost, "runtime_learners")
  expect_true(v$charge_initial)
  expect_identical(mlr3tuning::tnr("costbo")$param_set$values$policy$label,
                   policy_ei_pu_cc()$label)
  expect_output(print(tuner), "TunerBatchCostbo")
  expect_error(tuner$param_set$set_values(policy = "ei"), "costbo policy")
  # mlr3tuning's test_tuner(n_dim = 2, term_evals = 2)
  # (inst/testthat/helper_tuner.R): the terminator stops the tuner
  inst <- mlr3tuning::ti(
    task = mlr3::tsk("iris"), learner = mlr3::lrn("classif.rpart"),
    resampling = mlr3::rsmp("holdout"), measures = mlr3::msr("classif.ce"),
    terminator = bbotk::trm("evals", n_evals = 2),
    search_space = paradox::ps(cp = paradox::p_dbl(0.1, 0.3),
                               minsplit = paradox::p_int(1, 9)))
  set.seed(1)
  tuner$optimize(inst)
  expect_identical(nrow(inst$archive$data), 2L)
  expect_identical(inst$archive$n_evals, 2L)
  expect_named(inst$result_x_domain, c("cp", "minsplit"))
  expect_named(inst$result_y, "classif.ce")
  expect_identical(tuner$run$stop_code, "terminated")
  # the tuner's run and session are read-only, by a costbo error
  expect_error(tuner$run <- NULL, "read-only", class = "costbo_error")
  expect_error(tuner$session <- NULL, "read-only", class = "costbo_error")
})

test_that("a tuning run stays within its budget of training time", {
  skip_mlr3()
  learner <- mlr3::lrn("classif.rpart",
    cp = paradox::to_tune(1e-4, 0.5, logscale = TRUE),
    minsplit = paradox::to_tune(2, 64),
    keep_model = paradox::to_tune())
  inst <- mlr3tuning::ti(task = mlr3::tsk("sonar"), learner = learner,
    resampling = mlr3::rsmp("holdout"), measures = mlr3::msr("classif.ce"),
    terminator = bbotk::trm("none"))
  budget <- 0.5
  tuner <- mlr3tuning::tnr("costbo", policy = policy_ei_pu_cc(),
                           budget = budget)
  set.seed(2)
  tuner$optimize(inst)
  run <- tuner$run
  a <- inst$archive$data
  n <- nrow(a)
  expect_s3_class(run, "bo_run")
  expect_identical(run$stop_code, "budget")
  # the run's records are the archive's rows, costs its training times
  expect_identical(length(run$value), n)
  expect_gte(n, 1L)
  # (a time below the clock's resolution, 0, is charged as 0.001 s)
  expect_identical(run$cost, ifelse(a$runtime_learners == 0, 0.001,
                                    a$runtime_learners))
  expect_true(all(run$charged))
  expect_equal(run$spent, sum(run$cost), tolerance = 1e-12)
  # the budget rule, exactly: each evaluation after the initial design was
  # launched only when the spent budget plus its cost bound (the cost
  # model's 0.9 quantile) fitted, so the budget is exceeded only when the
  # last cost exceeded its bound (a measured time is known only after it
  # has been spent)
  df0 <- as.data.frame(run)
  bo <- which(df0$phase == "bo")
  before <- c(0, cumsum(run$cost))[bo]
  expect_true(all(before + df0$cost_bound[bo] <= budget * (1 + 1e-12)))
  over <- run$spent - budget
  if (over > 0 && df0$phase[n] == "bo") {
    expect_gt(run$cost[n], df0$cost_bound[n])
  }
  # the archive has each configuration's predicted cost, as the run
  # records it: NA for the initial design; after it the median, the 90%
  # interval and the probability of fitting that the rule compared with
  # budget_prob, the bound (the 0.9 quantile) between the median and the
  # interval's upper end
  cols <- c("cost_predicted", "cost_lower", "cost_upper", "prob_fit")
  expect_true(all(cols %in% names(a)))
  expect_equal(as.data.frame(a)[, cols], df0[, cols], tolerance = 1e-12,
               ignore_attr = TRUE)
  expect_true(all(is.na(as.matrix(df0[df0$phase == "initial", cols]))))
  if (length(bo)) {
    expect_true(all(df0$prob_fit[bo] >= 0.9))
    expect_true(all(df0$cost_lower[bo] < df0$cost_predicted[bo] &
                      df0$cost_predicted[bo] < df0$cost_bound[bo] &
                      df0$cost_bound[bo] < df0$cost_upper[bo]))
  }
  # typed records: the archive holds log(cp), costbo the original scale
  df <- as.data.frame(run)
  expect_equal(log(df$cp), a$cp, tolerance = 1e-12)
  expect_identical(df$minsplit, a$minsplit)
  expect_identical(as.character(df$keep_model), as.character(a$keep_model))
  # classif.ce is minimized: a problem with maximize = FALSE, whose reports
  # give the measure itself (costbo's own records hold its negation)
  expect_false(run$problem$maximize)
  expect_equal(df$value, a$classif.ce, tolerance = 0)
  expect_equal(run$value, -a$classif.ce, tolerance = 0)
  best <- which.min(a$classif.ce)
  expect_identical(inst$result$classif.ce, min(a$classif.ce))
  expect_identical(summary(run)$best_value, min(a$classif.ce))
  expect_identical(df$best_value, cummin(a$classif.ce))
  expect_equal(summary(run)$best_x$cp, exp(a$cp[best]), tolerance = 1e-12)
  # the session continues by hand
  s <- tuner$session
  expect_s3_class(s, "bo_session")
  expect_identical(s$value, run$value)
})

test_that("a known cost is checked before each evaluation and archived", {
  skip_mlr3()
  learner <- mlr3::lrn("classif.rpart",
    cp = paradox::to_tune(1e-3, 0.5, logscale = TRUE),
    minsplit = paradox::to_tune(2, 64))
  inst <- mlr3tuning::ti(task = mlr3::tsk("sonar"), learner = learner,
    resampling = mlr3::rsmp("holdout"), measures = mlr3::msr("classif.acc"),
    terminator = bbotk::trm("none"))
  cost <- function(p) 1 + p$minsplit / 16
  tuner <- mlr3tuning::tnr("costbo", policy = policy_ei_pu(), budget = 20,
                           cost = cost, n_init = 6)
  set.seed(3)
  tuner$optimize(inst)
  run <- tuner$run
  a <- inst$archive$data
  expect_identical(run$stop_code, "budget")
  expect_identical(a$cost, 1 + a$minsplit / 16)
  expect_identical(run$cost, a$cost)
  expect_lte(run$spent, 20)
  expect_equal(run$spent, sum(a$cost), tolerance = 1e-12)
  # stopped because the proposal's known cost did not fit
  left <- 20 - run$spent
  expect_lt(left, 1 + 64 / 16)
  # classif.acc is maximized: values are not negated
  expect_true(run$problem$maximize)
  expect_equal(run$value, a$classif.acc, tolerance = 0)
  expect_identical(inst$result$classif.acc, max(a$classif.acc))
})

test_that("the tuner calls a known cost once per configuration", {
  skip_mlr3()
  calls <- 0L
  cost <- function(p) {
    calls <<- calls + 1L
    1 + p$minsplit / 16
  }
  learner <- mlr3::lrn("classif.rpart",
    cp = paradox::to_tune(1e-3, 0.5, logscale = TRUE),
    minsplit = paradox::to_tune(2, 64))
  inst <- mlr3tuning::ti(task = mlr3::tsk("sonar"), learner = learner,
    resampling = mlr3::rsmp("holdout"), measures = mlr3::msr("classif.acc"),
    terminator = bbotk::trm("evals", n_evals = 8))
  tuner <- mlr3tuning::tnr("costbo", policy = policy_ei(), budget = 1000,
                           cost = cost, n_init = 4, charge_initial = TRUE)
  set.seed(3)
  tuner$optimize(inst)
  a <- inst$archive$data
  expect_identical(nrow(a), 8L)
  expect_identical(a$cost, 1 + a$minsplit / 16)
  # bo_problem()'s check of the cost (one call), the 2 (d + 1) = 6
  # synthetic points of check_run_ready(), one price per configuration
  # evaluated, and one for the proposal the terminator ended before its
  # evaluation
  expect_identical(calls, 1L + 6L + 8L + 1L)
})

test_that("the initial design goes in the fewest batches the budget allows", {
  skip_mlr3()
  learner <- mlr3::lrn("classif.rpart",
    cp = paradox::to_tune(1e-3, 0.5, logscale = TRUE),
    minsplit = paradox::to_tune(2, 64))
  tune <- function(budget, cost = "runtime_learners", charge_initial = TRUE,
                   terminator = bbotk::trm("none")) {
    # (before ti(), which draws the holdout split: the runs do not depend
    # on what earlier tests drew)
    set.seed(4)
    inst <- mlr3tuning::ti(task = mlr3::tsk("sonar"), learner = learner,
      resampling = mlr3::rsmp("holdout"), measures = mlr3::msr("classif.ce"),
      terminator = terminator)
    tuner <- mlr3tuning::tnr("costbo", policy = policy_ei_pu(),
                             budget = budget, cost = cost, n_init = 6,
                             charge_initial = charge_initial)
    tuner$optimize(inst)
    list(a = inst$archive$data, run = tuner$run)
  }
  cost <- function(p) 1 + p$minsplit / 16
  # known costs that all fit: the design is one batch, then one per proposal
  r <- tune(60, cost)
  n <- nrow(r$a)
  expect_gt(n, 6L)
  expect_identical(r$a$batch_nr, c(rep(1L, 6), 2:(n - 5L)))
  expect_identical(as.data.frame(r$run)$phase[1:6], rep("initial", 6))
  expect_lte(r$run$spent, 60)
  # known costs that do not: the longest prefix that fits, then the
  # optimization, which ends when no configuration fits (the cheapest
  # costs 1 + 2 / 16)
  design_cost <- r$a$cost[1:6]
  budget <- sum(design_cost[1:4]) + 0.5 * design_cost[5]
  r2 <- tune(budget, cost)
  expect_identical(r2$a$batch_nr[1:4], rep(1L, 4))
  expect_identical(r2$a$cost[1:4], design_cost[1:4])
  expect_lte(r2$run$spent, budget)
  expect_identical(r2$run$stop_code, "budget")
  expect_match(r2$run$stop_reason, "no point fits")
  expect_lt(budget - r2$run$spent, 1 + 2 / 16)
  # an unpaid design: one batch whatever the measured costs
  r3 <- tune(0.05, charge_initial = FALSE)
  expect_identical(r3$a$batch_nr[1:6], rep(1L, 6))
  expect_false(any(as.data.frame(r3$run)$cumulative_cost[1:6] > 0))
  # a paid design of measured cost: the first configuration alone (nothing
  # is known of the cost), then batches whose costs fit in the budget: a
  # lone point at the geometric mean of the costs seen so far, each point
  # of a larger batch at the largest
  r4 <- tune(1)
  d4 <- as.data.frame(r4$run)
  init <- which(d4$phase == "initial")
  expect_identical(r4$a$batch_nr[1], 1L)
  expect_false(isTRUE(r4$a$batch_nr[2] == 1L))
  paid <- r4$run$cost
  for (b in setdiff(unique(r4$a$batch_nr[init]), 1L)) {
    rows <- which(r4$a$batch_nr == b)
    seen <- paid[seq_len(min(rows) - 1L)]
    each <- if (length(rows) > 1L) max(seen) else exp(mean(log(seen)))
    expect_lte(sum(seen) + length(rows) * each, 1 + 1e-12)
  }
  # an evaluation terminator caps the batch: no evaluation beyond it
  r5 <- tune(60, cost, terminator = bbotk::trm("evals", n_evals = 4))
  expect_identical(nrow(r5$a), 4L)
  expect_identical(r5$a$batch_nr, rep(1L, 4))
  expect_identical(r5$run$stop_code, "terminated")
  # a known cost that fails at a design point: an error before any evaluation
  inst <- mlr3tuning::ti(task = mlr3::tsk("sonar"), learner = learner,
    resampling = mlr3::rsmp("holdout"), measures = mlr3::msr("classif.ce"),
    terminator = bbotk::trm("none"))
  bad <- function(p) if (p$minsplit > 40) NA_real_ else 1
  tuner <- mlr3tuning::tnr("costbo", policy = policy_ei_pu(), budget = 60,
                           cost = bad, n_init = 6)
  expect_error(tuner$optimize(inst), "cost")
  expect_identical(nrow(inst$archive$data), 0L)
})

test_that("the tuner's design of measured cost keeps to the budget and its share", {
  skip_mlr3()
  learner <- mlr3::lrn("classif.rpart",
    cp = paradox::to_tune(1e-3, 0.5, logscale = TRUE),
    minsplit = paradox::to_tune(2, 64))
  # a measured cost that does not depend on the clock: the archive's column
  # minsplit (known to costbo only once evaluated), scaled by the budget
  tune <- function(budget) {
    set.seed(6)
    inst <- mlr3tuning::ti(task = mlr3::tsk("sonar"), learner = learner,
      resampling = mlr3::rsmp("holdout"), measures = mlr3::msr("classif.ce"),
      terminator = bbotk::trm("evals", n_evals = 20))
    tuner <- mlr3tuning::tnr("costbo", policy = policy_ei_pu_cc(),
                             budget = budget, cost = "minsplit")
    tuner$optimize(inst)
    list(a = inst$archive$data, run = tuner$run)
  }
  for (budget in c(30, 100, 1000, 12000)) {
    r <- tune(budget)
    run <- r$run
    init <- which(run$phase == "initial")
    cost <- run$cost
    expect_identical(cost, as.double(r$a$minsplit))
    # one configuration per batch in the design, as the loop's
    expect_identical(r$a$batch_nr[init], seq_along(init))
    # every design configuration after the first was started only when the
    # spend and its cost (the geometric mean of the costs seen) fitted in
    # the budget, and in a quarter of it once the two a model needs were in
    for (i in init[-1L]) {
      seen <- cost[seq_len(i - 1L)]
      guess <- exp(mean(log(seen)))
      expect_lte(sum(seen) + guess, budget * (1 + 1e-12))
      if (i > 2L) expect_lte(sum(seen) + guess, 0.25 * budget * (1 + 1e-12))
    }
    # so the design spent at most its quarter and its last evaluation
    if (length(init) > 2L) {
      expect_lte(sum(cost[init]) - cost[max(init)], 0.25 * budget)
    }
    # in all, at most the budget and the last evaluation
    expect_lte(run$spent - cost[length(cost)], budget)
    if (length(init) < 2L) expect_identical(run$stop_code, "budget")
  }
})
