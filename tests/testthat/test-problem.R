# Problem definitions and the papers' cost families.

test_that("bo_problem() stores a valid problem", {
  p <- bo_problem(function(x) -sum(x^2), lower = c(-1, -2), upper = c(1, 2),
                  cost = function(x) 1 + x[1]^2, budget = 10, name = "bowl",
                  optimum = 0)
  expect_s3_class(p, "bo_problem")
  expect_identical(p$d, 2L)
  expect_identical(p$cost_type, "known")
  expect_output(print(p), "bowl")
  m <- bo_problem(function(x) list(value = x, cost = 1), lower = 0, upper = 1,
                  budget = 3)
  expect_identical(m$cost_type, "measured")
  k <- bo_problem(function(x) x, lower = 0, upper = 1, cost = 2, budget = 3)
  expect_identical(k$cost(0.5), 2)
  cand <- matrix(c(0, 1, 2, 3), ncol = 1)
  f <- bo_problem(function(x) x, candidates = cand, budget = 2,
                  prior = list(mean = rep(0, 4), cov = diag(4)))
  expect_equal(f$lower, 0)
  expect_equal(f$upper, 3)
})

test_that("bo_problem() rejects bad arguments, naming them", {
  bad <- function(expr) expect_error(expr, class = "costbo_error_arg")
  f <- function(x) sum(x)
  bad(bo_problem("f", 0, 1, budget = 1))
  bad(bo_problem(f, 0, 1))
  bad(bo_problem(f, 0, 1, budget = -1))
  bad(bo_problem(f, 0, 1, budget = NA))
  bad(bo_problem(f, c(0, 1), c(1, 0), budget = 1))
  bad(bo_problem(f, 0, NULL, budget = 1))
  bad(bo_problem(f, 0, 1, cost = -2, budget = 1))
  bad(bo_problem(f, 0, 1, cost = "cheap", budget = 1))
  bad(bo_problem(f, 0, 1, budget = 1, prior = list(mean = 0, cov = 1)))
  bad(bo_problem(f, candidates = matrix(1:3), budget = 1,
                 prior = list(mean = c(0, 0), cov = diag(2))))
  bad(bo_problem(f, candidates = matrix(1:2), budget = 1,
                 prior = list(mean = c(0, 0), cov = matrix(c(1, 2, 2, 1), 2))))
  bad(bo_problem(f, 0, 1, budget = 1, name = 3))
  expect_snapshot(bo_problem(f, 0, 1, budget = -1), error = TRUE)
  expect_snapshot(bo_problem(f, 0, 1, budget = 1, noise = NA), error = TRUE)
  for (bad_noise in list("a", "yes", -1, NA, NA_real_, Inf, c(TRUE, FALSE),
                         c(0.1, 0.2))) {
    e <- expect_error(bo_problem(f, 0, 1, budget = 1, noise = bad_noise),
                      "`noise`", class = "costbo_error_arg")
    expect_identical(e$arg, "noise")
  }
})

test_that("bo_problem() records whether evaluations are noisy", {
  f <- function(x) sum(x)
  det <- bo_problem(f, 0, 1, cost = 1, budget = 1)
  expect_false(det$noisy)
  expect_output(print(det), "evaluations: deterministic")
  nz <- bo_problem(f, 0, 1, cost = 1, budget = 1, noise = TRUE)
  expect_true(nz$noisy)
  expect_identical(nz$noise, 0)
  expect_output(print(nz), "evaluations: noisy")
  expect_output(print(bo_problem(f, 0, 1, cost = 1, budget = 1,
                                 noise = FALSE)),
                "evaluations: deterministic")
  # a number declares the objective noisy when positive; without a prior
  # it is kept, and the GP estimates the noise as with TRUE
  num <- bo_problem(f, 0, 1, cost = 1, budget = 1, noise = 0.5)
  expect_true(num$noisy)
  expect_identical(num$noise, 0.5)
  expect_output(print(num), "evaluations: noisy")
  expect_false(bo_problem(f, 0, 1, cost = 1, budget = 1, noise = 0)$noisy)
  # an explicit prior with observation noise is noisy
  cand <- matrix(0:3, ncol = 1)
  pri <- list(mean = rep(0, 4), cov = diag(4))
  expect_true(bo_problem(f, candidates = cand, budget = 2, prior = pri,
                         noise = 0.1)$noisy)
  expect_false(bo_problem(f, candidates = cand, budget = 2, prior = pri)$noisy)
  expect_false(bo_problem(f, candidates = cand, budget = 2, prior = pri,
                          noise = 0)$noisy)
  # a typed space takes the flag
  sp <- bo_space(a = param_num(0, 1))
  expect_true(bo_problem(function(p) p$a, space = sp, cost = 1, budget = 1,
                         noise = TRUE)$noisy)
  expect_false(bo_problem(function(p) p$a, space = sp, cost = 1,
                          budget = 1)$noisy)
})

test_that("noise is the one argument for noise; noisy is its deprecated name", {
  f <- function(x) sum(x)
  norm <- function(p) {
    # closures differ in their environments only
    p[vapply(p, is.function, NA)] <- NULL
    p
  }
  # the old name warns and gives the same problem
  for (flag in c(TRUE, FALSE)) {
    expect_warning(
      old <- bo_problem(f, 0, 1, cost = 1, budget = 1, noisy = flag),
      "`noisy` is deprecated: use `noise`", class = "costbo_warning_deprecated")
    expect_identical(norm(old),
                     norm(bo_problem(f, 0, 1, cost = 1, budget = 1,
                                     noise = flag)))
  }
  # both names: an error naming the old one
  e <- expect_error(bo_problem(f, 0, 1, cost = 1, budget = 1, noise = TRUE,
                               noisy = TRUE),
                    "`noisy`", class = "costbo_error_arg")
  expect_identical(e$arg, "noisy")
  # a known noise variance with a prior: the problem that `noise = 0.01,
  # noisy = TRUE` gave, modelled by the prior with that noise
  cand <- matrix(0:3, ncol = 1)
  pri <- list(mean = rep(0, 4), cov = diag(4))
  p <- bo_problem(f, candidates = cand, budget = 2, prior = pri,
                  noise = 0.01)
  expect_identical(p$noise, 0.01)
  expect_true(p$noisy)
  expect_identical(p$prior, pri)
  expect_output(print(p), "evaluations: noisy")
  fit <- costbo:::problem_fit(p, list(index = c(1, 3)), 1:2, c(0.5, -0.5))
  expect_identical(coef(fit)$noise, 0.01)
  expect_equal(predict(fit, 1)$mean, 0.5 / 1.01, tolerance = 1e-12)
  # a prior's noise must be known: TRUE is an error naming `noise`
  e <- expect_error(bo_problem(f, candidates = cand, budget = 2, prior = pri,
                               noise = TRUE),
                    "`noise`", class = "costbo_error_arg")
  expect_identical(e$arg, "noise")
})

test_that("the cost families follow the papers' formulas", {
  # Xie et al. (2024): c(x) = 20 (0.05 + mean(u)), costs in [1, 21]
  cl <- cost_linear(c(-5, 0), c(10, 15))
  expect_equal(cl(c(-5, 0)), 1)
  expect_equal(cl(c(10, 15)), 21)
  expect_equal(cl(c(2.5, 3)), 20 * (0.05 + mean(c(0.5, 0.2))))
  # Astudillo et al. (2021), in its code: ln c = a mean cos(2 pi b (x + c) / P)
  cc <- cost_cosine(c(-5.12, -5.12), c(5.12, 5.12), a = 1, b = 2, c = 0.5,
                    period = 5.12)
  x <- c(1.3, -2.2)
  expect_equal(cc(x), exp(mean(cos(2 * pi * 2 * (x + 0.5) / 5.12))))
  s1 <- cost_cosine(0, 1, seed = 3)
  s2 <- cost_cosine(0, 1, seed = 23)
  expect_identical(s1(0.4), s2(0.4))
  par <- attr(s1, "costbo_cost")$par
  expect_true(par$a >= 0.75 && par$a <= 1.5)
  expect_true(par$b >= 1 && par$b <= 3)
  expect_true(par$c >= 0 && par$c <= 2 * pi)
  set.seed(1)
  r1 <- runif(1)
  cost_cosine(0, 1, seed = 4)
  set.seed(1)
  expect_identical(runif(1), r1)
  expect_output(print(cl), "linear")
})

test_that("cost constructors reject bad arguments, naming them", {
  bad <- function(expr) expect_error(expr, class = "costbo_error_arg")
  bad(cost_linear(c(0, 0), c(1, 1, 1)))
  bad(cost_linear(c(0, 0), c(1, -1)))
  bad(cost_linear(0, 1, a = -1))
  bad(cost_linear(0, 1, a = 1, b = -2))
  bad(cost_linear(0, 1, b = NA))
  bad(cost_cosine(0, 1, period = 0))
  bad(cost_cosine(0, 1, seed = -1))
  bad(cost_cosine(c(0, 0), c(1, 1), a = "a"))
})

# --- the direction: maximize = FALSE --------------------------------------------

test_that("maximize is checked, printed, and a minimized optimum is the user's", {
  f <- function(x) sum(x)
  expect_error(bo_problem(f, 0, 1, budget = 1, maximize = NA), "`maximize`",
               class = "costbo_error_arg")
  expect_error(bo_problem(f, 0, 1, budget = 1, maximize = "min"),
               "`maximize`", class = "costbo_error_arg")
  expect_error(bo_problem(f, space = bo_space(a = param_num(0, 1)),
                          budget = 1, maximize = 0), "`maximize`",
               class = "costbo_error_arg")
  up <- bo_problem(f, 0, 1, cost = 1, budget = 1, optimum = 2)
  expect_true(up$maximize)
  expect_identical(up$optimum, 2)
  down <- bo_problem(f, 0, 1, cost = 1, budget = 1, optimum = 2,
                     maximize = FALSE, name = "loss")
  expect_false(down$maximize)
  # stored in costbo's direction, printed in the user's
  expect_identical(down$optimum, -2)
  expect_output(print(up), "\\(maximize\\)")
  expect_snapshot(print(down))
  # a problem saved before the field existed maximizes
  old <- up
  old$maximize <- NULL
  expect_true(costbo:::problem_maximize(old))
  expect_identical(costbo:::user_value(old, c(1, -2)), c(1, -2))
  expect_identical(costbo:::user_value(down, c(1, -2)), c(-1, 2))
})

# Pairs of problems of every kind: the minimization of f and the
# maximization of -f, and a policy for them.
direction_cases <- function() {
  f <- function(x) 1 + sum((x - c(0.3, 0.6))^2) + 0.1 * sin(5 * x[1])
  cand <- with_golden_seed(3, matrix(stats::runif(40), 20))
  K <- exp(-as.matrix(stats::dist(cand))^2 / (2 * 0.3^2)) + diag(1e-8, 20)
  m0 <- 1 + rowSums(cand^2) / 4
  sp <- bo_space(n = param_int(1, 4), rule = param_cat(c("a", "b")),
                 x = param_num(0, 1))
  g <- function(p) (p$n - 2)^2 / 4 + (p$rule == "b") + (p$x - 0.4)^2
  pair <- function(make, policy) {
    list(min = make(function(v) v, FALSE), max = make(function(v) -v, TRUE),
         policy = policy)
  }
  list(
    known = pair(function(s, mx) {
      bo_problem(function(x) s(f(x)), c(0, 0), c(1, 1),
                 cost = function(x) 1 + x[1], budget = 10, optimum = s(1),
                 maximize = mx)
    }, policy_ei_pu()),
    measured_list = pair(function(s, mx) {
      bo_problem(function(x) list(value = s(f(x)), cost = exp(x[2])),
                 c(0, 0), c(1, 1), budget = 10, maximize = mx)
    }, policy_ei_pu_cc()),
    measured_named = pair(function(s, mx) {
      bo_problem(function(x) c(value = s(f(x)), cost = exp(x[2])),
                 c(0, 0), c(1, 1), budget = 10, maximize = mx)
    }, policy_ei_pu()),
    finite_prior = pair(function(s, mx) {
      bo_problem(function(x) s(f(x)), candidates = cand,
                 prior = list(mean = s(m0), cov = K), noise = 1e-6,
                 cost = function(x) 1 + x[1], budget = 9, maximize = mx)
    }, policy_ei()),
    cvs = pair(function(s, mx) {
      bo_problem(function(x) s(f(x) + stats::rnorm(1, sd = 0.01)),
                 c(0, 0), c(1, 1), budget = 6, control_sets = list(1, 1:2),
                 control_costs = c(0.2, 1), optimum = s(1),
                 noise_free = function(X) s(apply(X, 1L, f)), noise = TRUE,
                 maximize = mx)
    }, policy_ucb_cvs(epsilon = 0.1, n_samples = 32, n_raw = 10,
                      n_starts = 1)),
    miso = pair(function(s, mx) {
      bo_problem(function(x, source) s(f(x) + 0.1 * source), c(0, 0),
                 c(1, 1), budget = 22, sources = 2,
                 source_costs = c(3, 1), maximize = mx)
    }, policy_kg(n_nodes = 3, n_cand = 10)),
    typed = pair(function(s, mx) {
      bo_problem(function(p) s(g(p)), space = sp,
                 cost = function(p) 0.5 + p$n / 4, budget = 8,
                 optimum = s(0), maximize = mx)
    }, policy_ei_pu()))
}

test_that("a minimized problem of every kind runs exactly as its negation", {
  for (nm in names(cases <- direction_cases())) {
    k <- cases[[nm]]
    lo <- bo_optimize(k$min, k$policy, n_init = 4, seed = 5, progress = FALSE)
    hi <- bo_optimize(k$max, k$policy, n_init = 4, seed = 5, progress = FALSE)
    # the same points, costs and decisions; costbo's own values identical
    expect_identical(lo$X, hi$X, label = nm)
    expect_identical(lo$value, hi$value, label = nm)
    expect_identical(lo$cost, hi$cost, label = nm)
    expect_identical(lo$stop_reason, hi$stop_reason, label = nm)
    expect_gte(length(lo$value), 5L)
    # reported in each problem's own direction: the user's values
    dl <- as.data.frame(lo)
    dh <- as.data.frame(hi)
    expect_identical(dl$value, -dh$value, label = nm)
    expect_identical(dl$best_value, -dh$best_value, label = nm)
    expect_identical(dl[setdiff(names(dl), c("value", "best_value",
                                             "expected_value", "fit_time",
                                             "policy_time", "rule_time",
                                             "eval_time"))],
                     dh[setdiff(names(dh), c("value", "best_value",
                                             "expected_value", "fit_time",
                                             "policy_time", "rule_time",
                                             "eval_time"))],
                     label = nm)
    if (!is.null(dl$expected_value)) {
      expect_identical(dl$expected_value, -dh$expected_value, label = nm)
    }
    sl <- summary(lo)
    sh <- summary(hi)
    expect_identical(sl$best_value, -sh$best_value, label = nm)
    expect_identical(sl$regret, sh$regret, label = nm)
    expect_identical(sl$best_x, sh$best_x, label = nm)
  }
})

test_that("bo_problem() refuses a known cost that is not one positive number at a point of the domain, calling it once", {
  obj <- function(x) -sum(x^2)
  bad <- list("a double vector of length 2" = function(x) x,
              "-1" = function(x) -1, "NA" = function(x) NA_real_,
              "0" = function(x) 0, "Inf" = function(x) Inf,
              "\"1\"" = function(x) "1", "NULL" = function(x) NULL)
  for (nm in names(bad)) {
    e <- expect_error(bo_problem(obj, c(0, 0), c(1, 1), cost = bad[[nm]],
                                 budget = 3), class = "costbo_error_arg")
    expect_identical(e$arg, "cost")
    expect_match(conditionMessage(e), sprintf(
      "at the centre of the box (0.5, 0.5) it returned %s", nm), fixed = TRUE)
    expect_identical(conditionCall(e)[[1L]], quote(bo_problem))
  }
  # one call, at the centre, with R's random-number state kept
  seen <- list()
  cost <- function(x) {
    seen[[length(seen) + 1L]] <<- x
    stats::runif(1)
    1 + x[1]
  }
  set.seed(3)
  r1 <- runif(2)
  set.seed(3)
  p <- bo_problem(obj, c(0, 2), c(1, 4), cost = cost, budget = 3)
  expect_identical(runif(2), r1)
  expect_identical(seen, list(c(0.5, 3)))
  # an error there is left to the run (a cost may fail at some points)
  p <- bo_problem(obj, c(0, 0), c(1, 1), cost = function(x) stop("closed"),
                  budget = 3)
  expect_s3_class(p, "bo_problem")
  # a finite domain: its first candidate
  seen <- list()
  cand <- rbind(c(0.1, 0.2), c(0.9, 0.8))
  p <- bo_problem(obj, candidates = cand, cost = cost, budget = 3)
  expect_identical(seen, list(cand[1L, ]))
  e <- expect_error(bo_problem(obj, candidates = cand, cost = function(x) -x,
                               budget = 3), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "at the first candidate (0.1, 0.2)",
               fixed = TRUE)
  # a typed space: the typed point of the centre of its encoding
  sp <- bo_space(n = param_int(1, 5), k = param_cat(c("a", "b", "c")))
  seen <- list()
  p <- bo_problem(function(x) 1, space = sp, budget = 3, cost = function(x) {
    seen[[length(seen) + 1L]] <<- x
    2
  })
  expect_length(seen, 1L)
  expect_identical(seen[[1L]]$n, 3L)
  expect_true(seen[[1L]]$k %in% c("a", "b", "c"))
  e <- expect_error(bo_problem(function(x) 1, space = sp, budget = 3,
                               cost = function(x) c(1, 2)),
                    class = "costbo_error_arg")
  expect_identical(e$arg, "cost")
  # sources: a function of (x, source) once per source
  seen <- list()
  sc <- function(x, source) {
    seen[[length(seen) + 1L]] <<- source
    if (source == 1) -1 else 1
  }
  e <- expect_error(bo_problem(obj, c(0, 0), c(1, 1), budget = 3,
                               sources = 2, source_costs = sc),
                    class = "costbo_error_arg")
  expect_identical(e$arg, "source_costs")
  expect_match(conditionMessage(e), "source 1", fixed = TRUE)
  expect_identical(seen, list(0L, 1L))
  # costbo's own costs are not called: they are valid by construction
  expect_s3_class(bo_problem(obj, c(0, 0), c(1, 1), budget = 3,
                             cost = cost_linear(c(0, 0), c(1, 1))),
                  "bo_problem")
})

test_that("cost functions at the extremes of the double range are refused naming their arguments", {
  bad <- function(expr, args) {
    e <- expect_error(expr, class = "costbo_error_arg")
    expect_identical(e$arg, args)
  }
  bad(cost_linear(0, 1, a = 1.797e308, b = 1.797e308), c("a", "b"))
  bad(cost_cosine(0, 1, a = 1000), "a")
  bad(cost_cosine(0, 1, period = 5e-324), c("period", "b", "c"))
  bad(cost_cosine(0, 1, a = NA, seed = 1), c("a", "seed"))
  bad(cost_linear(-1.797e308, 1.797e308), c("lower", "upper"))
  # at |a| = 709 the cost is still a positive double everywhere
  cc <- cost_cosine(0, 1, a = 709, b = 1)
  v <- vapply(c(0, 0.25, 0.5), cc, 1)
  expect_true(all(is.finite(v) & v > 0))
  expect_equal(v, exp(709 * cos(2 * pi * c(0, 0.25, 0.5))), tolerance = 1e-12)
})
