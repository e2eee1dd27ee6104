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
  expect_snapshot(bo_problem(f, 0, 1, budget = 1, noisy = NA), error = TRUE)
  expect_error(bo_problem(f, 0, 1, budget = 1, noisy = "yes"), "`noisy`",
               class = "costbo_error_arg")
  expect_error(bo_problem(f, 0, 1, budget = 1, noisy = c(TRUE, FALSE)),
               "`noisy`", class = "costbo_error_arg")
  expect_error(bo_problem(f, 0, 1, budget = 1, noise = -1), "`noise`",
               class = "costbo_error_arg")
})

test_that("bo_problem() records whether evaluations are noisy", {
  f <- function(x) sum(x)
  det <- bo_problem(f, 0, 1, cost = 1, budget = 1)
  expect_false(det$noisy)
  expect_output(print(det), "evaluations: deterministic")
  nz <- bo_problem(f, 0, 1, cost = 1, budget = 1, noisy = TRUE)
  expect_true(nz$noisy)
  expect_output(print(nz), "evaluations: noisy")
  # an explicit prior with observation noise is noisy unless told otherwise
  cand <- matrix(0:3, ncol = 1)
  pri <- list(mean = rep(0, 4), cov = diag(4))
  expect_true(bo_problem(f, candidates = cand, budget = 2, prior = pri,
                         noise = 0.1)$noisy)
  expect_false(bo_problem(f, candidates = cand, budget = 2, prior = pri)$noisy)
  expect_false(bo_problem(f, candidates = cand, budget = 2, prior = pri,
                          noise = 0.1, noisy = FALSE)$noisy)
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
  bad(cost_linear(c(0, 0), 1))
  bad(cost_linear(c(0, 0), c(1, -1)))
  bad(cost_linear(0, 1, a = -1))
  bad(cost_linear(0, 1, a = 1, b = -2))
  bad(cost_linear(0, 1, b = NA))
  bad(cost_cosine(0, 1, period = 0))
  bad(cost_cosine(0, 1, seed = -1))
  bad(cost_cosine(c(0, 0), c(1, 1), a = "a"))
})
