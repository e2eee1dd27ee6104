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
  e <- caught(acq_closed_form("ei", c(0, 1), 1, best = NA))
  expect_blames(e, "best", "acq_closed_form")
  expect_identical(e$value, NA)
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

# `e` is a costbo_error_arg whose field `arg` holds `args` and whose message
# names each of them in backticks, with the user's call of `fun`.
expect_blames_all <- function(e, args, fun, label = fun) {
  expect_s3_class(e, "costbo_error_arg")
  expect_identical(e$arg, args, label = label)
  for (a in args) {
    expect_match(conditionMessage(e), paste0("`", a, "`"), fixed = TRUE,
                 label = label)
  }
  expect_identical(conditionCall(e)[[1L]], as.name(fun), label = label)
}

test_that("a mismatch of a pair names both members, whichever is wrong", {
  set.seed(4)
  X <- matrix(runif(12), 6)
  y <- sin(3 * X[, 1]) + X[, 2]
  fit <- gp_fit(X, y, lower = c(0, 0), upper = c(1, 1), n_starts = 1)
  f <- function(x) sum(x)
  pair <- function(expr, args, fun) expect_blames_all(caught(expr), args, fun)
  box <- c("lower", "upper")
  pair(bo_problem(f, c(0, 0), c(1, 1, 1), budget = 1), box, "bo_problem")
  pair(bo_problem(f, c(0, 0, 0), c(1, 1), budget = 1), box, "bo_problem")
  pair(cost_linear(c(0, 0), c(1, 1, 1)), box, "cost_linear")
  pair(cost_cosine(c(0, 0, 0), c(1, 1)), box, "cost_cosine")
  # a single bound is recycled to the other's length
  expect_identical(cost_linear(0, c(1, 1))(c(1, 1)), 21)
  # vectors of acq_closed_form(): one per point, or one for all
  pair(acq_closed_form("ei", c(0, 1), c(1, 2, 3), best = 0), c("mean", "sd"),
       "acq_closed_form")
  pair(acq_closed_form("ei", c(0, 1, 2), c(1, 2), best = 0), c("mean", "sd"),
       "acq_closed_form")
  pair(acq_closed_form("ei", 0, c(1, 2), best = c(1, 2, 3)), c("sd", "best"),
       "acq_closed_form")
  pair(acq_closed_form("ei", c(0, 1), 1, best = c(1, 2, 3)),
       c("mean", "best"), "acq_closed_form")
  # points and their values
  pair(gp_fit(X, y[-1]), c("X", "y"), "gp_fit")
  pair(gp_fit(X[-1, ], y), c("X", "y"), "gp_fit")
  pair(gp_fit(as.vector(X), y), c("X", "y"), "gp_fit")
  s <- rep(0:1, 3)
  pair(gp_fit_miso(X, s[-1], y, lower = c(0, 0), upper = c(1, 1)),
       c("X", "source", "y"), "gp_fit_miso")
  pair(gp_fit_miso(X, s, y[-1], lower = c(0, 0), upper = c(1, 1)),
       c("X", "source", "y"), "gp_fit_miso")
  pair(gp_condition(fit, rbind(c(0.5, 0.5), c(0.2, 0.2)), 1), c("x", "y"),
       "gp_condition")
  pair(gp_condition(fit, c(0.5, 0.5), c(1, 2)), c("x", "y"), "gp_condition")
  pair(gp_finite(c(0, 0), diag(3)), c("mean", "cov"), "gp_finite")
  pair(gp_finite(c(0, 0, 0, 0), diag(3)), c("mean", "cov"), "gp_finite")
  pair(gp_finite(c(0, 0, 0), diag(3), x = 1, y = c(1, 2)), c("x", "y"),
       "gp_finite")
  pair(gp_finite(c(0, 0, 0), diag(3), x = 1:2, y = 1), c("x", "y"),
       "gp_finite")
  # other pairs
  d <- data.frame(problem = "p", policy = rep(c("a", "b"), each = 3),
                  rep = 1:3, score = runif(6))
  pair(bo_compare(d, "a", "b", measure = "nope", higher_is_better = TRUE),
       c("measure", "x"), "bo_compare")
  pair(cost_linear(0, 1, a = 1, b = -2), c("a", "b"), "cost_linear")
  pair(cost_cosine(0, 1, a = 1, seed = 2), c("a", "seed"), "cost_cosine")
  pair(minimax_points(9, 2, n_ref = 5), c("n_ref", "n"), "minimax_points")
  pair(policy_bmsei(steps = 3, fantasies = c(4, 4, 2)),
       c("steps", "fantasies"), "policy_bmsei")
  pair(policy_bmsei(fantasies = c(4, 2)), c("steps", "fantasies"),
       "policy_bmsei")
  cfit <- gp_fit(matrix(runif(30), ncol = 3), runif(10), lower = 0,
                 upper = 1, n_starts = 1)
  pair(acq_expected_ucb(cfit, c(0.2, 0.7, 0.1), controlled = c(3, 1),
                        samples = matrix(runif(30), ncol = 3)),
       c("x", "controlled"), "acq_expected_ucb")
  sp <- bo_space(a = param_int(1, 3), b = param_num(0, 1),
                 k = param_cat(c("x", "y")))
  pair(space_decode(sp, c(0.1, 0.2)), c("U", "space"), "space_decode")
  pair(space_decode(sp, matrix(0.5, 2, 2)), c("U", "space"), "space_decode")
  pair(bo_problem(f, c(0, 0), c(1, 1), budget = 1, control_sets = list(1, 2),
                  control_costs = c(1, 2, 3)),
       c("control_sets", "control_costs"), "bo_problem")
  pair(bo_problem(f, c(0, 0), c(1, 1), budget = 1, sources = 2,
                  source_costs = c(1, 2, 3)),
       c("sources", "source_costs"), "bo_problem")
  # a bound against what fixes the dimension: the message names both
  for (e in list(caught(acq_maximize(fit, "ei", lower = c(0, 0, 0))),
                 caught(gp_fit(X, y, lower = c(0, 0, 0), upper = 1)),
                 caught(bo_problem(f, c(0, 0), c(1, 1), budget = 1,
                                   candidates = matrix(0.5, 1, 1))))) {
    expect_s3_class(e, "costbo_error_arg")
    expect_identical(e$arg, "lower")
    expect_match(conditionMessage(e),
                 "`lower` must be of length 1( or 2)? \\(.*`(model|X|candidates)`")
  }
  expect_match(conditionMessage(caught(gp_fit(X, y, upper = c(1, 0.5)))),
               "`X` must be inside the box [`lower`, `upper`]", fixed = TRUE)
  # a warm start of another kernel or dimension: the message names what
  # it must match
  e <- caught(gp_fit(X, y, kernel = "se", start = fit))
  expect_identical(e$arg, "start")
  expect_match(conditionMessage(e), "same `kernel` .* as `X` has columns")
  e <- caught(simulate(fit, nsim = 1e8, newdata = rbind(c(0.1, 0.2),
                                                        c(0.3, 0.4))))
  expect_match(conditionMessage(e), "2 points of `newdata`", fixed = TRUE)
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

test_that("an error about a renamed argument given by its old name names the old one", {
  prob <- test_problem("branin", budget = 10)
  old_name <- function(expr) {
    withCallingHandlers(caught(expr), costbo_warning_deprecated = function(w) {
      invokeRestart("muffleWarning")
    })
  }
  e <- old_name(bo_optimize(prob, policy_ei(), model = "foo",
                            progress = FALSE))
  expect_identical(e$arg, "gp_args")
  expect_match(conditionMessage(e), "^`model` \\(now `gp_args`\\) must be")
  e <- old_name(bo_benchmark(list(b = prob), list(ei = policy_ei()), reps = 1,
                             workers = -1, progress = FALSE))
  expect_match(conditionMessage(e), "^`workers` \\(now `processes`\\) must be")
  e <- old_name(bo_problem(function(x) 1, 0, 1, cost = 1, budget = 1,
                           noisy = "yes"))
  expect_match(conditionMessage(e), "^`noisy` \\(now `noise`\\) must be")
  # by its new name, the new name
  e <- caught(bo_problem(function(x) 1, 0, 1, cost = 1, budget = 1,
                         noise = "yes"))
  expect_match(conditionMessage(e), "^`noise` must be")
})

test_that("a typed problem's failing objective or cost says it receives a named list, and shows the typed point", {
  sp <- bo_space(a = param_num(0, 1), n = param_int(1, 5),
                 k = param_cat(c("u", "v")))
  tp <- bo_problem(function(x) x[1] + x$n, space = sp, cost = 1, budget = 5)
  expect_warning(run <- bo_optimize(tp, policy_ei(), progress = FALSE,
                                    seed = 1),
                 class = "costbo_warning_failed")
  df <- as.data.frame(run)
  expect_match(run$stop_reason, paste0(
    "non-numeric argument.*the objective receives a typed point as a named ",
    "list, here list\\(a = [0-9.]+, n = [1-5], k = \"[uv]\"\\)"))
  expect_match(run$stop_reason, sprintf("n = %d, k = \"%s\"", df$n[1],
                                        df$k[1]))
  tc <- bo_problem(function(x) x$a, space = sp,
                   cost = function(x) x[2] * 1, budget = 5)
  e <- caught(bo_optimize(tc, policy_ei_pu(), progress = FALSE, seed = 1))
  expect_s3_class(e, "costbo_error_arg")
  expect_match(conditionMessage(e), paste0(
    "`cost` failed at the point list\\(a = [0-9.]+, n = [1-5], ",
    "k = \"[uv]\"\\): non-numeric .*receives a typed point as a named list"))
  # not the encoded point of the unit cube
  expect_false(grepl("unit cube", conditionMessage(e)))
})

test_that("cost-aware acquisitions need a cost", {
  set.seed(1)
  X <- matrix(runif(10), 5)
  m <- gp_fit(X, sin(3 * X[, 1]))
  for (type in c("ei_pu", "log_ei_pu", "q1", "pbgi")) {
    e <- caught(acq_evaluate(m, X, type = type, remaining = 3, lambda = 0.1,
                             nu = 1))
    expect_blames(e, "cost", "acq_evaluate")
    expect_match(conditionMessage(e), sprintf("type \"%s\" is cost-aware",
                                              type))
  }
  expect_blames(caught(acq_maximize(m, type = "ei_pu")), "cost",
                "acq_maximize")
  # a unit cost given is EI
  expect_equal(acq_evaluate(m, X, type = "ei_pu", cost = 1),
               acq_evaluate(m, X, type = "ei"))
})

test_that("param_int() blames the bound out of R's integers", {
  expect_blames(caught(param_int(-3e9, 5)), "lower", "param_int")
  expect_blames(caught(param_int(0, 3e9)), "upper", "param_int")
})

test_that("digits of format() and print() of comparisons and summaries are checked", {
  prob <- test_problem("branin", budget = 10)
  bm <- bo_benchmark(list(b = prob), list(ei = policy_ei(),
                                          r = policy_random()),
                     reps = 2, progress = FALSE, n_init = 3,
                     max_evaluations = 1)
  cmp <- bo_compare(bm, "ei", "r")
  expect_blames(caught(format(cmp, digits = "x")), "digits",
                "format.bo_compare")
  expect_blames(caught(print(cmp, digits = -3)), "digits", "print.bo_compare")
  cl <- bo_claim(bm, "EI beats random search", "ei", "r")
  expect_blames(caught(format(cl, digits = 23)), "digits", "format.bo_claim")
  expect_blames(caught(print(cl, digits = NA)), "digits", "print.bo_claim")
  expect_blames(caught(print(summary(bm), digits = 0)), "digits",
                "print.summary.bo_benchmark")
  run <- bo_optimize(prob, policy_ei(), n_init = 3, max_evaluations = 1,
                     seed = 1, progress = FALSE)
  expect_blames(caught(print(summary(run), digits = 1.5)), "digits",
                "print.summary.bo_run")
  expect_blames(caught(print(run$models$f, digits = "a")), "digits",
                "print.costbo_gp")
  expect_output(print(cmp, digits = 2), "Paired comparison")
})

test_that("bo_space() and as_bo_space() refuse changed parameter and space objects", {
  p <- param_num(0, 1)
  p$upper <- -1
  e <- caught(bo_space(a = p))
  expect_blames(e, "a", "bo_space")
  expect_match(conditionMessage(e), "its `upper` must be greater than")
  q <- param_int(0, 10)
  q$lower <- 0.5
  expect_match(conditionMessage(caught(bo_space(n = q))),
               "its `lower` must be a whole number")
  k <- param_cat(c("u", "v"))
  k$type <- "zz"
  expect_match(conditionMessage(caught(bo_space(k = k))),
               "its `type` is not one of them")
  k <- param_cat(c("u", "v"))
  k$extra <- 1
  expect_match(conditionMessage(caught(bo_space(k = k))),
               "its fields were changed")
  sp <- bo_space(a = param_num(0, 1), n = param_int(1, 5))
  bad <- sp
  bad$params$n$upper <- 0
  expect_blames(caught(as_bo_space(bad)), "x", "as_bo_space")
  bad <- sp
  bad$transform$b[2] <- 50
  e <- caught(bo_problem(function(x) x$a, space = bad, cost = 1, budget = 3))
  expect_blames(e, "space", "bo_problem")
  expect_match(conditionMessage(e), "its fields were changed")
  expect_blames(caught(space_encode(bad, data.frame(a = 0.5, n = 2))),
                "space", "space_encode")
  expect_identical(as_bo_space(sp), sp)
})

test_that("costbo's conditions are built by one constructor, naming the user's call", {
  cnd <- costbo:::costbo_condition(c("costbo_error_arg", "costbo_error"),
                                   "`a` must be 1.", quote(f(a = 2)),
                                   arg = "a", value = 2)
  expect_identical(class(cnd), c("costbo_error_arg", "costbo_error", "error",
                                 "condition"))
  expect_identical(conditionMessage(cnd), "`a` must be 1.")
  expect_identical(conditionCall(cnd), quote(f(a = 2)))
  expect_identical(cnd[c("arg", "value")], list(arg = "a", value = 2))
  w <- costbo:::costbo_condition(c("costbo_warning_batch", "costbo_warning"),
                                 "fewer points", type = "warning")
  expect_identical(class(w), c("costbo_warning_batch", "costbo_warning",
                               "warning", "condition"))
  expect_null(conditionCall(w))
  # a deprecated argument's warning names the exported function the user
  # called, not the helper that noticed it
  w <- NULL
  f <- function() test_problem("ackley", d = 3, cost = "linear")
  withCallingHandlers(f(), costbo_warning_deprecated = function(c) {
    w <<- c
    invokeRestart("muffleWarning")
  })
  expect_identical(conditionCall(w)[[1L]], as.name("test_problem"))
  # a budget error: its classes and the user's call
  s <- bo_session(bo_problem(function(x) sin(6 * x), lower = 0, upper = 1,
                             cost = function(x) 1 + x, budget = 1),
                  policy_random())
  s <- bo_tell(s, 0.5, value = sin(3))
  e <- tryCatch(bo_ask(s), costbo_error_budget = function(e) e)
  expect_identical(class(e), c("costbo_error_budget", "costbo_error", "error",
                               "condition"))
  expect_identical(conditionCall(e)[[1L]], as.name("bo_ask"))
})

test_that("an exported function validates its fit once; what it calls trusts it", {
  set.seed(1)
  X <- matrix(runif(20), 10)
  fit <- gp_fit(X, sin(5 * X[, 1]), lower = 0, upper = 1)
  count <- new.env()
  count$n <- 0L
  suppressMessages(trace(costbo:::check_gp_object,
                         bquote(assign("n", get("n", .(count)) + 1L, .(count))),
                         print = FALSE, where = asNamespace("costbo")))
  on.exit(suppressMessages(untrace(costbo:::check_gp_object,
                                   where = asNamespace("costbo"))))
  p <- predict(fit, matrix(c(0.3, 0.4), 1))
  expect_identical(count$n, 1L)
  count$n <- 0L
  gp_condition(fit, matrix(c(0.3, 0.4), 1), 0.5)
  expect_identical(count$n, 1L)
  # a fit altered by hand is still refused, naming the field
  bad <- fit
  bad$L <- bad$L[-1L, ]
  expect_error(predict(bad, matrix(c(0.3, 0.4), 1)), "object\\$L",
               class = "costbo_error_arg")
})

test_that("size arguments are refused at once before the allocator", {
  t0 <- proc.time()[["elapsed"]]
  expect_error(policy_bmsei(steps = 1e8), "`steps`", class = "costbo_error_arg")
  expect_error(sobol_points(.Machine$integer.max, 2), "`n`",
               class = "costbo_error_arg")
  expect_error(sobol_normal(2^27, 2), "`n`", class = "costbo_error_arg")
  expect_error(gp_prior_sample(d = 1e7), "`d`", class = "costbo_error_arg")
  fit <- gp_fit(matrix(c(0.1, 0.5, 0.9), ncol = 1), c(1, 3, 2))
  expect_error(acq_maximize(fit, n_raw = 2^28), "`n_raw`",
               class = "costbo_error_arg")
  # (no timing is asserted: each refusal comes before any allocation)
  expect_error(bo_problem(function(x, s) sum(x), lower = 0, upper = 1,
                          budget = 5, sources = 2,
                          source_costs = function(x) 1),
               "two arguments", class = "costbo_error_arg")
})
