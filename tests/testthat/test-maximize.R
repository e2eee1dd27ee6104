# The multistart L-BFGS-B maximizer of src/maximize.c, through the entry
# points that use it: acq_maximize() over a box (max_box() on raw points
# drawn in R) and the BOCVS maximizer (max_box_sobol(), raw points drawn in
# C), on GP posterior means (UCB with beta = 0) whose maxima are known: by
# symmetry, or from the textbook posterior mean of helper-reference.R
# polished by R's optim().

# A GP with fixed hyperparameters (Matern 5/2, outputscale 1, prior mean 0)
# and its textbook posterior mean.
max_fit <- function(X, y, lower, upper, ell) {
  fit <- gp_fit(X, y, lower = lower, upper = upper, estimate = "fixed",
                lengthscale = ell, outputscale = 1, noise = 1e-8, mean = 0)
  fit$ref_mean <- function(x) {
    ref_predict(X, y, matrix(x, ncol = ncol(X)), "matern52", ell, 1,
                coef(fit)$noise, 0)$mean
  }
  fit
}

# A star: value 1 at the centre c, 0 at c +- a e_k. Every reflection
# x_k -> 2 c_k - x_k maps the data onto themselves, so the posterior mean is
# stationary at c, where it takes its largest value.
star_fit <- function(centre, a, lower, upper, ell) {
  d <- length(centre)
  X <- rbind(centre, do.call(rbind, lapply(seq_len(d), function(k) {
    rbind(replace(centre, k, centre[k] + a), replace(centre, k, centre[k] - a))
  })), deparse.level = 0)
  max_fit(X, c(1, rep(0, 2 * d)), lower, upper, ell)
}

# The reference maximum: optim() on the textbook mean from each start.
ref_max <- function(fit, starts, lower, upper) {
  best <- list(value = -Inf)
  for (i in seq_len(nrow(starts))) {
    o <- optim(starts[i, ], fit$ref_mean, method = "L-BFGS-B", lower = lower,
               upper = upper, control = list(fnscale = -1, factr = 1,
                                             pgtol = 0, ndeps = rep(1e-6, ncol(starts))))
    if (o$value > best$value) best <- list(x = o$par, value = o$value)
  }
  best
}

test_that("the maximizer finds the known maxima of posterior means", {
  # 4-D star on [-2, 2]^4: the maximum at the centre (1, 1, 1, 1)
  star <- star_fit(rep(1, 4), 0.8, rep(-2, 4), rep(2, 4), rep(0.6, 4))
  set.seed(1)
  U <- matrix(runif(4000 * 4, -2, 2), ncol = 4)
  expect_lt(max(star$ref_mean(U)), star$ref_mean(rep(1, 4)))
  for (select in c("boltzmann", "best")) {
    set.seed(2)
    r <- acq_maximize(star, "ucb", beta = 0, n_raw = 800, n_starts = 40,
                      select = select)
    expect_equal(r$x, rep(1, 4), tolerance = 1e-6)
    expect_equal(r$value, star$ref_mean(rep(1, 4)), tolerance = 1e-10)
    expect_gte(r$value, r$raw_best)
  }
  # 2-D, three separated peaks of heights 1, 1.5, 1.2 on [-5, 10] x [0, 15]
  # (at the maximizers of the negated Branin function)
  P <- rbind(c(-pi, 12.275), c(pi, 2.275), c(3 * pi, 2.475))
  X <- rbind(P, c(2, 8), c(7, 12), c(-3, 3))
  b <- max_fit(X, c(1, 1.5, 1.2, 0, 0, 0), c(-5, 0), c(10, 15), c(2, 2))
  ref <- ref_max(b, P, c(-5, 0), c(10, 15))
  for (select in c("boltzmann", "best")) {
    set.seed(3)
    r <- acq_maximize(b, "ucb", beta = 0, n_raw = 400, n_starts = 20,
                      select = select)
    expect_gte(r$value, ref$value - 1e-12)
    expect_equal(r$value, b$ref_mean(r$x), tolerance = 1e-10)
    expect_lt(sqrt(sum((r$x - ref$x)^2)), 1e-4)
  }
  # 6-D, four peaks of heights 1, 1.2, 3, 3.2 at the centres of the
  # Hartmann-6 function
  H <- rbind(c(0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886),
             c(0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991),
             c(0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650),
             c(0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381))
  h <- max_fit(rbind(H, matrix(c(0.9, 0.1), 2, 6)), c(1, 1.2, 3, 3.2, 0, 0),
               rep(0, 6), rep(1, 6), rep(0.3, 6))
  ref <- ref_max(h, H, rep(0, 6), rep(1, 6))
  set.seed(4)
  r <- acq_maximize(h, "ucb", beta = 0, n_raw = 1200, n_starts = 60)
  expect_gte(r$value, ref$value - 1e-12)
  expect_lt(sqrt(sum((r$x - ref$x)^2)), 1e-4)
})

test_that("the maximizer is deterministic given its random draws", {
  star <- star_fit(c(0.3, 0.6), 0.3, c(0, 0), c(1, 1), c(0.2, 0.2))
  set.seed(3)
  a <- acq_maximize(star, "ucb", beta = 0, n_raw = 100, n_starts = 5)
  set.seed(3)
  b <- acq_maximize(star, "ucb", beta = 0, n_raw = 100, n_starts = 5)
  expect_identical(a, b)
})

test_that("points stay inside the box", {
  # the mean decreases with the scaled distance to the centre (0.3, 0.6, 0.5)
  # near it, so over a box that excludes the centre the maximum is the
  # centre clamped to the box
  star <- star_fit(c(0.3, 0.6, 0.5), 0.7, rep(-1, 3), rep(2, 3),
                   c(0.5, 0.5, 0.5))
  lo <- c(0.5, -0.5, 0.4)
  up <- c(1, 0.2, 0.7)
  set.seed(5)
  r <- acq_maximize(star, "ucb", beta = 0, lower = lo, upper = up,
                    n_raw = 300, n_starts = 15)
  expect_true(all(r$x >= lo & r$x <= up))
  expect_equal(r$x, c(0.5, 0.2, 0.5), tolerance = 1e-7)
  expect_equal(r$value, star$ref_mean(c(0.5, 0.2, 0.5)), tolerance = 1e-10)
})

test_that("C callers draw the raw Sobol points from R's RNG", {
  # the BOCVS maximizer with every variable controlled (one sample row):
  # the UCB itself, here the posterior mean
  star <- star_fit(c(0.4, 0.7), 0.25, c(0, 0), c(1, 1), c(0.2, 0.2))
  draw <- function(seed) {
    set.seed(seed)
    .Call(costbo:::C_cvs_maximize, costbo:::gp_pack(star), 0:1,
          matrix(0.5, 1, 2), 0, 400L, costbo:::max_control(20L))
  }
  a <- draw(11)
  expect_equal(a$x, c(0.4, 0.7), tolerance = 1e-6)
  expect_equal(star$ymean + star$ysd * a$value, star$ref_mean(c(0.4, 0.7)),
               tolerance = 1e-10)
  expect_identical(a, draw(11))
})
