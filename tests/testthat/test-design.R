# Minimax (fill-distance) designs (R/design.R), against known optimal
# designs and an independent fill distance on a fine grid.

# The fill distance of X on the grid of k^d points of the unit cube.
grid_fill <- function(X, k = 201L) {
  d <- ncol(X)
  G <- as.matrix(expand.grid(rep(list(seq(0, 1, length.out = k)), d)))
  D <- outer(rowSums(G^2), rowSums(X^2), "+") - 2 * tcrossprod(G, X)
  sqrt(max(apply(pmax(D, 0), 1L, min)))
}

test_that("minimax designs find the known optima in one and two dimensions", {
  set.seed(1)
  x <- minimax_points(1, 1, restarts = 1)
  expect_equal(x[1, 1], 0.5, tolerance = 1e-3)
  x <- sort(minimax_points(2, 1, restarts = 2)[, 1])
  # the optimum: 1/4 and 3/4, fill distance 1/4
  expect_equal(x, c(0.25, 0.75), tolerance = 5e-3)
  # 4 points in the square: the 2 x 2 grid at 1/4, 3/4, fill sqrt(2)/4
  # (within the resolution of the reference set: its grid step is 1/32)
  X <- minimax_points(4, 2, restarts = 2)
  expect_lt(grid_fill(X), sqrt(2) / 4 * 1.03)
  # 9 points: the 3 x 3 grid at 1/6, 1/2, 5/6 reaches sqrt(2)/6
  X <- minimax_points(9, 2, restarts = 2)
  f <- grid_fill(X)
  expect_lt(f, sqrt(2) / 6 * 1.05)
  # the attribute is the fill distance on the reference set: at most the
  # grid's, and close to it
  expect_lte(attr(X, "fill_distance"), f + 1e-12)
  expect_gt(attr(X, "fill_distance"), 0.9 * f)
  expect_identical(dim(X), c(9L, 2L))
  expect_true(all(X >= 0 & X <= 1))
})

test_that("a minimax design leaves smaller holes than Sobol points, and set.seed() repeats it", {
  set.seed(3)
  a <- minimax_points(9, 3, restarts = 1)
  b <- sobol_points(9, 3)
  expect_lt(grid_fill(a, 31L), 0.8 * grid_fill(b, 31L))
  set.seed(3)
  expect_identical(minimax_points(9, 3, restarts = 1), a)
  set.seed(4)
  expect_false(identical(minimax_points(9, 3, restarts = 1), a))
})

test_that("minimax_points() checks its arguments", {
  expect_error(minimax_points(0, 2), "`n` must be", class = "costbo_error_arg")
  expect_error(minimax_points(3, 0), "`d` must be", class = "costbo_error_arg")
  expect_error(minimax_points(9, 2, n_ref = 5), "`n_ref` must be",
               class = "costbo_error_arg")
  expect_error(minimax_points(9, 2, restarts = NA), "`restarts` must be",
               class = "costbo_error_arg")
})
