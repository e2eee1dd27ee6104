# The multistart L-BFGS-B maximizer on smooth functions with known maxima.

max_test <- function(code, lower, upper, n_raw, n_starts, select = 0L,
                     seed = 1) {
  set.seed(seed)
  d <- length(lower)
  raw <- matrix(runif(n_raw * d), ncol = d)
  .Call(costbo:::C_max_test, as.integer(code), as.double(lower),
        as.double(upper), raw, runif(n_raw), c(n_starts, select, 1))
}

test_that("the maximizer finds the maxima of smooth test functions", {
  for (select in 0:1) {
    r <- max_test(0L, rep(-2, 4), rep(2, 4), 800, 40, select)
    expect_equal(r$value, 0, tolerance = 1e-10)
    expect_equal(r$x, rep(1, 4), tolerance = 1e-6)
    h <- max_test(2L, rep(0, 6), rep(1, 6), 1200, 60, select)
    expect_equal(h$value, 3.32236801141551, tolerance = 1e-9)
    expect_equal(h$x, c(0.20168952, 0.15001069, 0.47687398, 0.27533243,
                        0.31165162, 0.65730054), tolerance = 1e-6)
    b <- max_test(1L, c(-5, 0), c(10, 15), 400, 20, select)
    expect_equal(b$value, -0.397887357729739, tolerance = 1e-10)
    maximizers <- rbind(c(-pi, 12.275), c(pi, 2.275), c(3 * pi, 2.475))
    expect_lt(min(sqrt(rowSums(sweep(maximizers, 2, b$x)^2))), 1e-5)
    expect_gte(b$value, b$raw_best)
  }
})

test_that("the maximizer is deterministic given its random draws", {
  a <- max_test(1L, c(-5, 0), c(10, 15), 400, 20, seed = 3)
  b <- max_test(1L, c(-5, 0), c(10, 15), 400, 20, seed = 3)
  expect_identical(a, b)
})

test_that("points stay inside the box", {
  # Rosenbrock on [1.5, 2] x [-2, 2]: the valley x2 = x1^2 leaves the box,
  # and the constrained maximum is the corner (1.5, 2)
  r <- max_test(0L, c(1.5, -2), c(2, 2), 200, 10)
  expect_true(all(r$x >= c(1.5, -2) & r$x <= c(2, 2)))
  expect_equal(r$x, c(1.5, 2), tolerance = 1e-8)
  expect_equal(r$value, -(100 * 0.25^2 + 0.25), tolerance = 1e-10)
})

test_that("C callers can draw the raw Sobol points from R's RNG", {
  draw <- function(seed) {
    set.seed(seed)
    .Call(costbo:::C_max_test, 2L, rep(0, 6), rep(1, 6), matrix(0, 0, 6),
          double(), c(60, 0, 1))
  }
  a <- draw(11)
  expect_equal(a$value, 3.32236801141551, tolerance = 1e-9)
  expect_identical(a, draw(11))
})
