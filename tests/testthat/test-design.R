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

test_that("the default minimax design of 9 points in the square is within 5% of the 3 x 3 grid's fill distance", {
  # the 3 x 3 grid at 1/6, 1/2, 5/6 is a minimax design (fill sqrt(2)/6);
  # both fill distances by brute force on the same fine grid
  g <- c(1, 3, 5) / 6
  f_grid <- grid_fill(as.matrix(expand.grid(g, g)))
  expect_equal(f_grid, sqrt(2) / 6, tolerance = 1e-12)
  for (s in 1:3) {
    set.seed(s)
    X <- minimax_points(9, 2)
    expect_lt(grid_fill(X), 1.05 * f_grid)
  }
})

test_that("a minimax design's fill distance is the brute-force one on its reference set, and set.seed() repeats the design", {
  set.seed(11)
  ref <- costbo:::minimax_reference(256L * 4L, 4L)
  set.seed(11)
  X <- minimax_points(7, 4, n_ref = 256L * 4L, restarts = 2)
  D <- outer(rowSums(ref^2), rowSums(X^2), "+") - 2 * tcrossprod(ref, X)
  expect_equal(attr(X, "fill_distance"), sqrt(max(apply(D, 1L, min))),
               tolerance = 1e-10)
  expect_identical(names(attributes(X)), c("dim", "fill_distance"))
  set.seed(11)
  expect_identical(minimax_points(7, 4, n_ref = 256L * 4L, restarts = 2), X)
  set.seed(12)
  expect_false(identical(minimax_points(7, 4, n_ref = 256L * 4L,
                                        restarts = 2), X))
})

test_that("one design point moves to the centre of the smallest ball of the reference set", {
  # an acute triangle: the circumcentre; with points inside it, the same
  A <- rbind(c(0.1, 0.2), c(0.9, 0.3), c(0.4, 0.95))
  set.seed(2)
  w <- matrix(runif(60), 20)
  ref <- rbind(A, (w / rowSums(w)) %*% A)
  circ <- function(A) {
    # |x - a|^2 = |x - b|^2 = |x - c|^2: two linear equations
    M <- 2 * rbind(A[2, ] - A[1, ], A[3, ] - A[1, ])
    solve(M, c(sum(A[2, ]^2 - A[1, ]^2), sum(A[3, ]^2 - A[1, ]^2)))
  }
  res <- costbo:::minimax_run(ref, 1L, 5L, tol = 1e-10)
  expect_equal(as.vector(res$x), circ(A), tolerance = 1e-6)
  expect_equal(res$fill, sqrt(sum((A[1, ] - circ(A))^2)), tolerance = 1e-9)
  # an obtuse triangle: the midpoint of its longest side
  B <- rbind(c(0.1, 0.1), c(0.9, 0.2), c(0.45, 0.3))
  res <- costbo:::minimax_run(B, 1L, 3L, tol = 1e-10)
  expect_equal(as.vector(res$x), (B[1, ] + B[2, ]) / 2, tolerance = 1e-6)
  # the corners of the 6-cube with inner points: its centre, radius sqrt(6)/2
  C <- rbind(as.matrix(expand.grid(rep(list(c(0, 1)), 6))),
             matrix(runif(600, 0.2, 0.8), 100))
  res <- costbo:::minimax_run(C, 1L, 70L, tol = 1e-10)
  expect_equal(as.vector(res$x), rep(0.5, 6), tolerance = 1e-6)
  expect_equal(res$fill, sqrt(6) / 2, tolerance = 1e-9)
  expect_lte(res$sweeps, 2L)
})

test_that("relocation sweeps do not increase the fill distance of the farthest-point start", {
  set.seed(5)
  ref <- costbo:::minimax_reference(512L * 3L, 3L)
  start <- costbo:::minimax_run(ref, 10L, 17L, maxit = 0L)
  # the farthest-point start by brute force: from row 17, the farthest row
  far <- ref[17L, , drop = FALSE]
  near <- colSums((t(ref) - ref[17L, ])^2)
  while (nrow(far) < 10L) {
    i <- which.max(near)
    far <- rbind(far, ref[i, ])
    near <- pmin(near, colSums((t(ref) - ref[i, ])^2))
  }
  expect_equal(start$x, unname(far), tolerance = 0)
  expect_equal(start$fill, sqrt(max(near)), tolerance = 1e-12)
  expect_identical(start$sweeps, 0L)
  res <- costbo:::minimax_run(ref, 10L, 17L)
  expect_lt(res$fill, 0.9 * start$fill)
  expect_gte(res$sweeps, 1L)
  expect_lte(res$sweeps, 30L)
})

test_that("minimax_points() checks its arguments", {
  expect_error(minimax_points(0, 2), "`n` must be", class = "costbo_error_arg")
  expect_error(minimax_points(3, 0), "`d` must be", class = "costbo_error_arg")
  # a reference set smaller than the design: either may be wrong
  expect_error(minimax_points(9, 2, n_ref = 5), "`n_ref` and `n` must",
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
