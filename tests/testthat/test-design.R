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

test_that("bo_optimize(design = \"minimax\") starts from a minimax design, at every source with information sources", {
  prob <- bo_problem(function(x) -sum((x - 0.3)^2), c(-1, 0), c(1, 2),
                     cost = 1, budget = 3)
  run <- bo_optimize(prob, policy_ei(), n_init = 9, seed = 2,
                     design = "minimax", max_evaluations = 1,
                     charge_initial = FALSE, progress = FALSE)
  df <- as.data.frame(run)
  U <- sweep(sweep(as.matrix(df[df$phase == "initial", c("x1", "x2")]), 2L,
                   c(-1, 0)), 2L, c(2, 2), "/")
  sob <- bo_optimize(prob, policy_ei(), n_init = 9, seed = 2,
                     max_evaluations = 1, charge_initial = FALSE,
                     progress = FALSE)
  V <- sweep(sweep(as.matrix(as.data.frame(sob)[1:9, c("x1", "x2")]), 2L,
                   c(-1, 0)), 2L, c(2, 2), "/")
  expect_lt(grid_fill(U, 101L), sqrt(2) / 6 * 1.05)
  expect_lt(grid_fill(U, 101L), 0.8 * grid_fill(V, 101L))
  # set.seed() repeats it
  again <- bo_optimize(prob, policy_ei(), n_init = 9, seed = 2,
                       design = "minimax", max_evaluations = 1,
                       charge_initial = FALSE, progress = FALSE)
  expect_identical(again$X, run$X)
  # with three sources: each design point at every source
  mp <- test_problem_miso("goldstein_price", budget = 40)
  r <- bo_optimize(mp, policy_kg(), n_init = 3, seed = 1, design = "minimax",
                   max_evaluations = 1, charge_initial = FALSE,
                   progress = FALSE)
  init <- as.data.frame(r)
  init <- init[init$phase == "initial", ]
  expect_identical(nrow(init), 9L)
  expect_identical(as.vector(table(init$source)), c(3L, 3L, 3L))
  expect_identical(nrow(unique(init[, c("x1", "x2")])), 3L)
  # bo_benchmark() passes it on
  bm <- bo_benchmark(list(p = prob), list(ei = policy_ei()), reps = 1,
                     n_init = 9, design = "minimax", max_evaluations = 1,
                     charge_initial = FALSE, progress = FALSE)
  W <- sweep(sweep(bm$records[[1]]$x[1:9, ], 2L, c(-1, 0)), 2L, c(2, 2), "/")
  expect_lt(grid_fill(W, 101L), sqrt(2) / 6 * 1.05)
})

test_that("design = \"minimax\" is refused where it does not apply", {
  fin <- bo_problem(function(x) -sum(x^2), candidates = matrix(runif(20), 10),
                    cost = 1, budget = 3)
  expect_error(bo_optimize(fin, policy_ei(), design = "minimax",
                           progress = FALSE),
               "`design` must be \"sobol\" for problems with candidates",
               class = "costbo_error_arg")
  expect_error(bo_optimize(test_problem("branin"), policy_ei(),
                           design = "lhs", progress = FALSE),
               "`design` must be one of", class = "costbo_error_arg")
  expect_error(bo_benchmark(list(p = test_problem("branin")),
                            list(ei = policy_ei()), design = NA),
               "`design` must be", class = "costbo_error_arg")
})
