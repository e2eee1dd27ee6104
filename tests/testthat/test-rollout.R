# A 1-D GP with fixed hyperparameters on [0, 1].
rollout_fit <- function() {
  X <- matrix(c(0.05, 0.3, 0.55, 0.8, 0.95))
  gp_fit(X, sin(6 * X[, 1]), lower = 0, upper = 1, estimate = "fixed",
         lengthscale = 0.2, outputscale = 1, noise = 1e-6, mean = 0)
}

# The packed EI acquisition and a CMDP rollout value through the C engine.
cmdp_values <- function(fit, X, h, cost = 1, remaining = Inf, base = 0L,
                        n = 64L, seed = 1) {
  spec <- costbo:::acq_spec(fit, "ei", NULL, cost, NULL, NULL, NULL, NULL,
                            NULL, call = NULL)
  ctl <- costbo:::check_rollout_control(list())
  set.seed(seed)
  dr <- costbo:::cmdp_draws(fit$d, h, n, ctl)
  .Call(costbo:::C_rollout_cmdp_value, costbo:::acq_pack(spec),
        matrix(X, ncol = fit$d), dr$z, dr$raw, dr$unif,
        costbo:::cmdp_par(h, base, remaining, ctl))
}

kg_values <- function(fit, X, cand, n_nodes = 10L, h = 1L, alpha = 0.9) {
  spec <- costbo:::acq_spec(fit, "ei", NULL, 1, NULL, NULL, NULL, NULL,
                            NULL, call = NULL)
  .Call(costbo:::C_rollout_rh_value, costbo:::acq_pack(spec),
        matrix(X, ncol = fit$d), cand, as.double(c(n_nodes, 3, alpha, h)),
        as.integer(h))
}

test_that("rollout with h = 1 is expected improvement exactly", {
  fit <- rollout_fit()
  x <- c(0.1, 0.2, 0.42, 0.67, 0.99)
  v <- cmdp_values(fit, x, 1L)$value
  expect_equal(v, acq_evaluate(fit, matrix(x), "ei"), tolerance = 1e-14)
})

test_that("uniform cost and unlimited budget: CMDP rollout is EI rollout", {
  fit <- rollout_fit()
  x <- c(0.2, 0.42, 0.67)
  for (h in 2:4) {
    a <- cmdp_values(fit, x, h, cost = 1, base = 0L, n = 16L)$value
    b <- cmdp_values(fit, x, h, cost = 1, base = 1L, n = 16L)$value
    expect_equal(a, b, tolerance = 1e-12)
    a3 <- cmdp_values(fit, x, h, cost = 3, base = 0L, n = 16L)$value
    expect_equal(a3, b, tolerance = 1e-6)
  }
})

test_that("CMDP rollout equals a brute-force Monte Carlo estimate", {
  skip_on_cran()
  fit <- rollout_fit()
  best <- max(fit$y)
  cost_fun <- cost_linear(0, 1, a = 1, b = 2)     # 1 + 2 x
  grid <- matrix(seq(0, 1, length.out = 401))
  for (case in list(list(x = 0.42, h = 2L, rem = Inf),
                    list(x = 0.42, h = 3L, rem = 3.6),
                    list(x = 0.67, h = 3L, rem = Inf))) {
    v <- cmdp_values(fit, case$x, case$h, cost = cost_fun,
                     remaining = case$rem, n = 1024L)$value
    set.seed(11)
    ref <- ref_cmdp_rollout(fit, case$x, case$h, best, cost_fun, case$rem,
                            grid, n = 1500L)
    # Monte Carlo error of the reference (4 se) plus the grid argmax
    expect_lt(abs(v - ref[["mean"]]), 4 * ref[["se"]] + 2e-3)
  }
})

test_that("infeasible steps are not counted; unaffordable x has value 0", {
  fit <- rollout_fit()
  cost_fun <- cost_linear(0, 1, a = 1, b = 2)
  # x = 0.9 costs 2.8 > 2.5: value 0 at every horizon
  for (h in 1:3) {
    r <- cmdp_values(fit, c(0.9, 0.2), h, cost = cost_fun, remaining = 2.5,
                     n = 8L)
    expect_identical(r$value[1], 0)
    expect_true(all(r$samples[, 1] == 0))
  }
  # budget for x only: each path collects its first improvement only
  r <- cmdp_values(fit, 0.2, 3L, cost = cost_fun, remaining = 1.4 + 1e-9,
                   n = 8L, seed = 9)
  set.seed(9)
  z <- costbo:::cmdp_draws(1L, 3L, 8L,
                           costbo:::check_rollout_control(list()))$z
  p <- predict(fit, matrix(0.2))
  expect_equal(drop(r$samples), pmax(p$mean + p$sd * z[, 1] - max(fit$y), 0),
               tolerance = 1e-12)
  # more budget never lowers the value of a sample path
  lo <- cmdp_values(fit, 0.2, 3L, cost = cost_fun, remaining = 3, n = 32L)
  hi <- cmdp_values(fit, 0.2, 3L, cost = cost_fun, remaining = Inf, n = 32L)
  expect_true(all(lo$samples <= hi$samples + 1e-12))
})

test_that("the CMDP proposal is affordable", {
  fit <- rollout_fit()
  spec <- costbo:::acq_spec(fit, "ei", NULL, cost_linear(0, 1, a = 1, b = 2),
                            NULL, NULL, NULL, NULL, NULL, call = NULL)
  ctl <- costbo:::check_rollout_control(list())
  set.seed(3)
  dr <- costbo:::cmdp_draws(1L, 2L, 16L, ctl)
  for (rem in c(1.5, 2, Inf)) {
    r <- .Call(costbo:::C_rollout_cmdp_propose, costbo:::acq_pack(spec),
               sobol_points(10, 1), dr$z, dr$raw, dr$unif,
               costbo:::cmdp_par(2L, 0L, rem, ctl), c(2, 5))
    expect_lte(r$cost, rem)
    expect_equal(r$cost, 1 + 2 * r$x, tolerance = 1e-12)
    expect_gt(r$value, 0)
  }
})

test_that("KG by Gauss-Hermite agrees with a Monte Carlo reference", {
  skip_on_cran()
  fit <- rollout_fit()
  cand <- matrix(seq(0, 1, length.out = 41))
  noise <- coef(fit)$noise
  for (x in c(0.2, 0.42, 0.67)) {
    A <- rbind(fit$X, cand, x)
    set.seed(5)
    ref <- ref_kg(fit, x, A, noise, n = 3000L)
    kg10 <- kg_values(fit, x, cand, n_nodes = 10L)
    kg100 <- kg_values(fit, x, cand, n_nodes = 100L)
    expect_lt(abs(kg100 - ref[["mean"]]), 4 * ref[["se"]])
    # 10 nodes: quadrature error of the piecewise-linear maximum
    expect_equal(kg10, kg100, tolerance = 0.05)
  }
})

test_that("rolling-horizon value with h = 1 is KG; larger h adds discounted KG", {
  fit <- rollout_fit()
  cand <- matrix(seq(0, 1, length.out = 21))
  x <- c(0.2, 0.67)
  kg <- kg_values(fit, x, cand)
  expect_equal(kg_values(fit, x, cand, h = 1L), kg, tolerance = 1e-15)
  v2 <- kg_values(fit, x, cand, h = 2L)
  expect_true(all(v2 >= kg))
  # alpha -> 0 leaves KG
  expect_equal(kg_values(fit, x, cand, h = 2L, alpha = 1e-12), kg,
               tolerance = 1e-9)
})

test_that("the horizon rule returns the hand-worked values of Theorem 3", {
  hr <- function(phi, ebar, alpha, n_left) {
    .Call(costbo:::C_rollout_horizon, as.double(phi), as.double(ebar),
          as.double(alpha), as.integer(n_left))
  }
  phi <- c(0.5, 0.3, 0.2, 0.1)
  # n_left = 4: N - k = 3, (1 - 0.9^3) / 0.1 = 2.71
  expect_identical(hr(phi, 0.05, 0.9, 4L), 2L)  # 0.3 > 0.1355
  expect_identical(hr(phi, 0.15, 0.9, 4L), 3L)  # 0.48 > 0.4065 >= 0.3
  expect_identical(hr(phi, 0.20, 0.9, 4L), 4L)  # 0.561 > 0.542 >= 0.48
  expect_identical(hr(phi, 0.25, 0.9, 4L), 1L)  # 0.561 <= 0.6775
  expect_identical(hr(phi, 1e3, 0.9, 4L), 1L)   # large error bound
  expect_identical(hr(phi, 0.05, 0.9, 1L), 1L)  # last evaluation
  expect_identical(hr(phi, 0.05, 0.9, 2L), 2L)  # rhs 0.05
  expect_identical(hr(phi, 0.15, 0.9, 2L), 2L)  # rhs 0.15 < 0.3
  expect_identical(hr(phi, 0.15, 0.9, 3L), 2L)  # rhs 0.15 * 1.9 = 0.285
  expect_identical(hr(phi, 0.20, 0.9, 3L), 3L)  # rhs 0.38; 0.48, j <= 3
  expect_identical(hr(phi, 0.1, 1, 4L), 3L)     # alpha = 1: rhs 0.3
})

test_that("a large error bound gives h = 1 and h is recorded", {
  prob <- test_problem("branin", budget = 3)
  run <- bo_optimize(prob, policy_rollout("adaptive",
                                          control = list(error_offset = 1e6)),
                     seed = 2, progress = FALSE)
  df <- as.data.frame(run)
  h <- df$h[df$phase != "initial"]
  expect_length(h, 3L)
  expect_true(all(h == 1))
  expect_true(all(df$error_bound[df$phase != "initial"] >= 1e6))
  run2 <- bo_optimize(prob, policy_rollout("adaptive",
                                           control = list(error_const = 0)),
                      seed = 2, progress = FALSE)
  h2 <- as.data.frame(run2)$h[run2$phase != "initial"]
  expect_true(all(h2 == c(2, 2, 1)))  # h <= remaining evaluations
})

test_that("the base policy is sequentially consistent and runs reproduce", {
  fit <- rollout_fit()
  a <- cmdp_values(fit, c(0.2, 0.67), 3L, n = 16L, seed = 4)
  b <- cmdp_values(fit, c(0.2, 0.67), 3L, n = 16L, seed = 4)
  expect_identical(a, b)
  # duplicated candidates: the first of tied maxima is chosen
  cand <- matrix(c(0.5, 0.5, 0.1, 0.9))
  expect_identical(kg_values(fit, 0.3, cand, h = 2L),
                   kg_values(fit, 0.3, cand[c(1, 1, 2, 3, 4), , drop = FALSE],
                             h = 2L))
  prob <- test_problem("lee2021", budget = 15)
  pol <- policy_rollout(2, n_samples = 4, control = list(maxit = 2))
  r1 <- bo_optimize(prob, pol, seed = 7, progress = FALSE)
  r2 <- bo_optimize(prob, pol, seed = 7, progress = FALSE)
  expect_identical(r1$X, r2$X)
  expect_true(all(as.data.frame(r1)$within_budget))
  k1 <- bo_optimize(test_problem("branin", budget = 2), policy_kg(),
                    seed = 3, progress = FALSE)
  k2 <- bo_optimize(test_problem("branin", budget = 2), policy_kg(),
                    seed = 3, progress = FALSE)
  expect_identical(k1$X, k2$X)
})

test_that("rollout policies reject bad arguments", {
  expect_error(policy_rollout(0), class = "costbo_error_arg")
  expect_error(policy_rollout("adaptive", base = "ei"),
               class = "costbo_error_arg")
  expect_error(policy_rollout(2, base = "pi"), class = "costbo_error_arg")
  expect_error(policy_rollout(2, n_samples = 0), class = "costbo_error_arg")
  expect_error(policy_rollout(2, discount = 0), class = "costbo_error_arg")
  expect_error(policy_rollout(2, control = list(foo = 1)),
               class = "costbo_error_arg")
  expect_error(policy_rollout(2, control = list(n_raw = -1)),
               class = "costbo_error_arg")
  expect_error(policy_kg(n_nodes = 0), class = "costbo_error_arg")
  expect_error(policy_kg(n_cand = 1.5), class = "costbo_error_arg")
})

test_that("with a measured cost CMDP rollout prices steps at the GP's mean cost", {
  skip_on_cran()
  fit <- rollout_fit()
  X <- matrix(c(0.05, 0.3, 0.55, 0.8, 0.95))
  cfit <- gp_fit(X, log(1 + 2 * X[, 1]), lower = 0, upper = 1,
                 estimate = "fixed", lengthscale = 0.3, outputscale = 0.5,
                 noise = 1e-6, mean = log(2))
  # the expected price exp(m + s^2 / 2) of the log-cost GP
  price <- function(x) {
    p <- predict(cfit, matrix(x, ncol = 1L))
    exp(p$mean + p$sd^2 / 2)
  }
  spec <- costbo:::acq_spec(fit, "ei", cfit, NULL, NULL, NULL, NULL, NULL,
                            NULL, call = NULL)
  ctl <- costbo:::check_rollout_control(list())
  values <- function(x, h, remaining, n, seed = 1) {
    set.seed(seed)
    dr <- costbo:::cmdp_draws(1L, h, n, ctl)
    .Call(costbo:::C_rollout_cmdp_value, costbo:::acq_pack(spec),
          matrix(x, ncol = 1L), dr$z, dr$raw, dr$unif,
          costbo:::cmdp_par(h, 0L, remaining, ctl))
  }
  # a point priced above the remaining budget has value 0
  expect_identical(values(0.42, 2L, price(0.42) - 1e-6, 8L)$value, 0)
  expect_gt(values(0.42, 2L, price(0.42) + 1e-6, 8L)$value, 0)
  # and the values equal brute-force Monte Carlo with the same prices
  grid <- matrix(seq(0, 1, length.out = 401))
  best <- max(fit$y)
  for (case in list(list(x = 0.42, h = 3L, rem = 3.6),
                    list(x = 0.67, h = 2L, rem = Inf))) {
    v <- values(case$x, case$h, case$rem, 1024L)$value
    set.seed(12)
    ref <- ref_cmdp_rollout(fit, case$x, case$h, best, price, case$rem,
                            grid, n = 1500L)
    expect_lt(abs(v - ref[["mean"]]), 4 * ref[["se"]] + 2e-3)
  }
})
