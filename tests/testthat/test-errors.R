# One error system (issue 16): every error is a costbo_error subclass that
# names the argument it blames, carries its value, and reports the call the
# user made; errors raised in C are re-signalled; runs record a stop code.

# The condition signalled by `expr` (an error is expected).
caught <- function(expr) {
  tryCatch({
    expr
    NULL
  }, error = function(e) e)
}

# `e` is a costbo_error_arg blaming `arg`, whose message starts with it and
# whose call is a call of `fun`.
expect_blames <- function(e, arg, fun) {
  expect_s3_class(e, "costbo_error_arg")
  expect_identical(e$arg, arg)
  expect_true(startsWith(conditionMessage(e), paste0("`", arg, "` must")))
  expect_identical(conditionCall(e)[[1L]], as.name(fun))
}

test_that("checks name the argument, not its deparsed value", {
  set.seed(1)
  X <- matrix(runif(12), 6)
  y <- sin(3 * X[, 1]) + X[, 2]
  y[2] <- NA
  e <- caught(gp_fit(X, y))
  expect_blames(e, "y", "gp_fit")
  expect_identical(e$value, y)
  fit <- gp_fit(X[-2, ], y[-2])
  expect_blames(caught(gp_condition(fit, c(0.5, 0.5), NA_real_)), "y",
                "gp_condition")
  s <- rep(0:1, 3)
  expect_blames(caught(gp_fit_miso(X, s, y, lower = c(0, 0),
                                   upper = c(1, 1))), "y", "gp_fit_miso")
  expect_blames(caught(cost_linear(c(0, NA), c(1, 1))), "lower",
                "cost_linear")
  e <- caught(sobol_points(4, 30000))
  expect_blames(e, "d", "sobol_points")
  expect_identical(e$value, 30000L)
  expect_match(conditionMessage(e), "`d` must be a single whole number in",
               fixed = TRUE)
})

test_that("the argument at fault is the one blamed", {
  e <- caught(acq_closed_form("ei", c(0, 1), 1, best = c(1, 2, 3)))
  expect_blames(e, "best", "acq_closed_form")
  expect_identical(e$value, c(1, 2, 3))
  expect_blames(caught(acq_closed_form("ei", NULL, 1, best = 0)), "mean",
                "acq_closed_form")
  e <- caught(test_problem_miso(source_costs = -1))
  expect_blames(e, "source_costs", "test_problem_miso")
  expect_identical(e$value, -1)
  set.seed(2)
  X <- matrix(runif(12), 6)
  y <- sin(3 * X[, 1]) + X[, 2]
  # only the missing scale is named (the noise defaults to noise_floor)
  expect_blames(caught(gp_fit(X, y, estimate = "fixed", lengthscale = 0.3)),
                "outputscale", "gp_fit")
  expect_blames(caught(gp_fit(X, y, estimate = "fixed", outputscale = 1)),
                "lengthscale", "gp_fit")
  fit <- gp_fit(X, y, estimate = "fixed", lengthscale = 0.3, outputscale = 1)
  expect_s3_class(fit, "costbo_gp")
  # a setting the type does not use must still be a number
  expect_blames(caught(acq_evaluate(fit, c(0.5, 0.5), "ei",
                                    remaining = function(x) x)),
                "remaining", "acq_evaluate")
  expect_blames(caught(acq_evaluate(fit, c(0.5, 0.5), "ei_pu",
                                    cost = function(x) x)),
                "cost", "acq_evaluate")
  expect_blames(caught(gp_fit(X, y, lower = function(x) x)), "lower",
                "gp_fit")
})

test_that("the reported call is the one the user made", {
  # gp_finite() conditions through gp_condition(); test_problem_miso() builds
  # its problem with bo_problem(): the user called neither
  expect_blames(caught(gp_finite(c(0, 0.2, 0), diag(3), x = 1, y = NA)),
                "y", "gp_finite")
  expect_blames(caught(test_problem_miso(budget = -1)), "budget",
                "test_problem_miso")
  # a method reports its own call
  g <- gp_finite(c(0, 0.2, 0), diag(3), x = 1, y = 0.5)
  e <- caught(predict(g, 7))
  expect_s3_class(e, "costbo_error_arg")
  expect_identical(e$arg, "newdata")
  expect_identical(conditionCall(e)[[1L]], as.name("predict.costbo_gp"))
  # an objective the user wrote that calls costbo wrongly: the run records
  # the error of that inner call
  prob <- bo_problem(function(x) sobol_points(1, -1)[1], lower = 0,
                     upper = 1, budget = 2)
  expect_warning(run <- bo_optimize(prob, policy_random(), seed = 1,
                                    n_init = 2, progress = FALSE),
                 class = "costbo_warning_failed")
  expect_identical(run$stop_code, "objective_failed")
  expect_match(run$stop_reason, "`d` must be", fixed = TRUE)
})

test_that("constructors reject settings that would fail later", {
  expect_blames(caught(policy_bmsei(steps = 3, fantasies = c(1e10, 2))),
                "fantasies", "policy_bmsei")
  expect_blames(caught(policy_bmsei(steps = 2, fantasies = Inf)),
                "fantasies", "policy_bmsei")
  expect_blames(caught(policy_etc(plays = Inf)), "plays", "policy_etc")
})

test_that("one sample of the random inputs is a matrix (n_samples = 1)", {
  prob <- test_problem_cvs("hartmann3", cost_set = "cheap", budget = 2)
  set.seed(3)
  one <- costbo:::cvs_samples(prob, 1L)
  set.seed(3)
  four <- costbo:::cvs_samples(prob, 4L)
  expect_identical(dim(one), c(1L, 3L))
  # the same first Sobol point, mapped through the same quantiles
  expect_equal(one[1, ], four[1, ], tolerance = 1e-14)
  # the budget of 2 is for the optimization phase (a free design, as in
  # the papers), so that each policy proposes once
  for (pol in list(policy_ucb_cvs(n_samples = 1), policy_etc(n_samples = 1),
                   policy_ucb_psq(n_samples = 1),
                   policy_ts_psq(n_samples = 1, n_features = 16))) {
    run <- bo_optimize(prob, pol, seed = 1, max_evaluations = 1,
                       charge_initial = FALSE, progress = FALSE)
    expect_identical(run$stop_code, "max_evaluations")
    expect_identical(sum(as.data.frame(run)$phase == "bo"), 1L)
  }
})

test_that("errors raised in C are re-signalled as costbo_error_c", {
  g <- gp_finite(c(0, 0.2, 0), diag(3), x = 1, y = 0.5, noise = 0)
  e <- caught(gp_condition(g, 1, 0.7))
  expect_s3_class(e, "costbo_error_c")
  expect_s3_class(e, "costbo_error")
  expect_identical(e$routine, "C_gp_condition")
  expect_identical(conditionCall(e)[[1L]], as.name("gp_condition"))
  expect_match(conditionMessage(e), "in the C routine C_gp_condition",
               fixed = TRUE)
  expect_s3_class(e$parent, "simpleError")
  # an error of R code evaluated by C passes unchanged
  f <- function() stop("mine")
  e <- caught(costbo:::call_c(costbo:::C_qmc_sobol_max_dim, f()))
  expect_identical(conditionMessage(e), "mine")
  expect_false(inherits(e, "costbo_error"))
})

test_that("runs record a stop code and the benchmark reads it", {
  prob <- test_problem("branin", budget = 3)
  run <- bo_optimize(prob, policy_random(), seed = 1, n_init = 2,
                     progress = FALSE)
  expect_identical(run$stop_code, "budget")
  expect_identical(summary(run)$stop_code, "budget")
  expect_output(print(run), "stopped: budget spent")
  # a charged design would spend the budget of 3 with the cap's evaluation
  # (the stop code is then "budget"): a free design isolates the cap
  run <- bo_optimize(prob, policy_random(), seed = 1, n_init = 2,
                     max_evaluations = 1, charge_initial = FALSE,
                     progress = FALSE)
  expect_identical(run$stop_code, "max_evaluations")
  calls <- 0L
  bad <- bo_problem(function(x) {
    calls <<- calls + 1L
    if (calls == 3L) stop("broken") else sum(x)
  }, lower = c(0, 0), upper = c(1, 1), cost = 1, budget = 10)
  expect_warning(run <- bo_optimize(bad, policy_random(), seed = 1,
                                    n_init = 2, progress = FALSE),
                 class = "costbo_warning_failed")
  expect_identical(run$stop_code, "objective_failed")
  expect_match(run$stop_reason, "^the objective failed: ")
  expect_identical(nrow(as.data.frame(run)), 3L)
  # a known cost that fails at a point
  costly <- bo_problem(function(x) sum(x), lower = c(0, 0), upper = c(1, 1),
                       cost = function(x) if (x[1] > 0.5) -1 else 1,
                       budget = 50)
  expect_warning(run <- bo_optimize(costly, policy_random(), seed = 1,
                                    n_init = 2, progress = FALSE),
                 class = "costbo_warning_failed")
  expect_identical(run$stop_code, "cost_failed")
  expect_match(run$stop_reason, "^the cost function")
  # the benchmark's status comes from the code
  probs <- list(ok = test_problem("branin", budget = 3), bad = bad)
  calls <- 0L
  expect_warning(bm <- bo_benchmark(probs, list(r = policy_random()),
                                    reps = 1, n_init = 2, progress = FALSE),
                 class = "costbo_warning_failed")
  reps <- bm$replications
  expect_identical(reps$stop_code[reps$problem == "ok"], "budget")
  expect_identical(reps$status[reps$problem == "ok"], "ok")
  expect_identical(reps$stop_code[reps$problem == "bad"], "objective_failed")
  expect_identical(reps$status[reps$problem == "bad"], "failed")
})

test_that("as.data.frame() methods check row.names", {
  run <- bo_optimize(test_problem("branin", budget = 3), policy_random(),
                     seed = 1, n_init = 2, progress = FALSE)
  n <- nrow(as.data.frame(run))
  expect_identical(rownames(as.data.frame(run, row.names = letters[1:n])),
                   letters[1:n])
  expect_blames(caught(as.data.frame(run, row.names = 1)), "row.names",
                "as.data.frame.bo_run")
})
