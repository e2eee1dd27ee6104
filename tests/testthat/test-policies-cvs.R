# Control sets with costs (BOCVS): expected UCB, the policies, the loop.

fixed_model <- list(kernel = "se", estimate = "fixed", lengthscale = 0.1,
                    outputscale = 1, noise = 1e-4)

# The runs and sessions below follow the paper's protocol: the budget is
# for the optimization, the initial design is free (charge_initial =
# FALSE); problems with control sets always stop at the first proposal that
# does not fit (budget_rule "stop").

# A 2-D problem with control sets {1} (0.1), {2} (0.2) and {1, 2} (1).
cvs_problem2 <- function(budget = 3, sets = list(1L, 2L, 1:2),
                         costs = c(0.1, 0.2, 1)) {
  f <- function(x) sin(6 * x[1]) + cos(5 * x[2])
  bo_problem(f, lower = c(0, 0), upper = c(1, 1), budget = budget,
             control_sets = sets, control_costs = costs,
             noise_free = function(X) sin(6 * X[, 1]) + cos(5 * X[, 2]),
             optimum = 2)
}

test_that("the expected UCB is a Monte Carlo average of mu + beta sd", {
  set.seed(1)
  X <- matrix(runif(45), ncol = 3)
  fit <- gp_fit(X, sin(5 * X[, 1]) + X[, 2] * X[, 3], kernel = "se",
                estimate = "fixed", lengthscale = 0.2, outputscale = 1,
                noise = 1e-4, lower = 0, upper = 1)
  Z <- matrix(runif(3 * 200), ncol = 3)
  xq <- rbind(c(0.2, 0.7), c(0.9, 0.4))
  got <- acq_expected_ucb(fit, xq, controlled = c(3, 1), samples = Z,
                          beta = 1.5)
  ref <- apply(xq, 1L, function(xc) {
    F <- Z
    F[, 1] <- xc[1]
    F[, 3] <- xc[2]
    p <- predict(fit, F)
    mean(p$mean + 1.5 * p$sd)
  })
  expect_equal(got, ref, tolerance = 1e-10)
  # the full control set: the UCB itself
  p <- predict(fit, c(0.3, 0.4, 0.5))
  expect_equal(acq_expected_ucb(fit, c(0.3, 0.4, 0.5), 1:3, Z, beta = 2),
               p$mean + 2 * p$sd, tolerance = 1e-12)
  # gradient in the controlled inputs against central differences
  g <- acq_expected_ucb(fit, xq, controlled = c(1, 3), samples = Z,
                        beta = 1.5, grad = TRUE)
  for (r in 1:2) {
    fd <- ref_grad(function(z) acq_expected_ucb(fit, z, c(1, 3), Z, 1.5),
                   xq[r, ], h = 1e-6)
    expect_equal(g$grad[r, ], fd, tolerance = 1e-6)
  }
})

test_that("the expected UCB of a block of samples equals each sample's prediction", {
  # n = 61 (not a multiple of the solves' four columns), a lengthscale so
  # short that most kernel entries underflow to 0 (the solves skip their
  # columns, as the reference BLAS does), 37 samples (two blocks and a part)
  set.seed(3)
  X <- matrix(runif(183), ncol = 3)
  fit <- gp_fit(X, sin(5 * X[, 1]) + X[, 2] * X[, 3], kernel = "se",
                estimate = "fixed", lengthscale = 0.02, outputscale = 1,
                noise = 1e-4, lower = 0, upper = 1)
  Z <- rbind(X[1:5, ], matrix(runif(3 * 32), ncol = 3))
  xq <- rbind(X[1, 2:3], c(0.5, 0.5), c(0.01, 0.99))
  got <- acq_expected_ucb(fit, xq, controlled = 2:3, samples = Z, beta = 2,
                          grad = TRUE)
  for (r in 1:3) {
    F <- Z
    F[, 2:3] <- rep(xq[r, ], each = nrow(Z))
    p <- predict(fit, F, grad = TRUE)
    expect_equal(got$value[r], mean(p$mean + 2 * p$sd), tolerance = 1e-12)
    g <- colMeans(p$mean_grad + 2 * p$sd_grad)[2:3]
    expect_equal(got$grad[r, ], g, tolerance = 1e-10)
  }
})

test_that("acq_expected_ucb() validates its arguments", {
  set.seed(2)
  X <- matrix(runif(20), ncol = 2)
  fit <- gp_fit(X, X[, 1], lower = 0, upper = 1)
  Z <- matrix(runif(20), ncol = 2)
  expect_error(acq_expected_ucb(fit, 0.5, 3, Z), class = "costbo_error_arg")
  expect_error(acq_expected_ucb(fit, 0.5, c(1, 1), Z),
               class = "costbo_error_arg")
  expect_error(acq_expected_ucb(fit, 1.5, 1, Z), class = "costbo_error_arg")
  expect_error(acq_expected_ucb(fit, 0.5, 1, Z[, 1, drop = FALSE]),
               class = "costbo_error_arg")
  expect_error(acq_expected_ucb(fit, 0.5, 1, Z, beta = -1),
               class = "costbo_error_arg")
  expect_error(acq_expected_ucb(list(), 0.5, 1, Z), class = "costbo_error_arg")
})

test_that("the S1/S2 choice of Alg. 1 matches a hand-worked example", {
  choose <- costbo:::cvs_choose
  vals <- c(1.0, 1.6, 1.9, 2.0)
  costs <- c(0.1, 0.1, 0.5, 1)
  # epsilon 0.5: S1 = {2, 3, 4} (1.6 + 0.5 >= 2); S2 = {2}
  expect_identical(choose(vals, costs, 0.5), 2L)
  # epsilon 0.2: S1 = {3, 4}; S2 = {3}
  expect_identical(choose(vals, costs, 0.2), 3L)
  # epsilon 1: S1 = all; S2 = {1, 2}; the larger value: 2
  expect_identical(choose(vals, costs, 1), 2L)
  # epsilon 0: the largest value, whatever its cost
  expect_identical(choose(vals, costs, 0), 4L)
  expect_identical(choose(c(3, 1, 2), c(1, 0.1, 0.5), 0), 1L)
})

test_that("UCB-CVS with epsilon 0 takes the largest expected UCB, with a huge epsilon the cheapest set", {
  prob <- cvs_problem2(sets = list(1L, 2L), costs = c(1, 0.1))
  init <- data.frame(x1 = c(0.1, 0.5, 0.9, 0.3), x2 = c(0.2, 0.8, 0.5, 0.1),
                     value = c(0.1, -0.5, 0.7, 1.2))
  set.seed(3)
  s <- bo_session(prob, policy_ucb_cvs(0, n_samples = 128), initial = init,
                  gp_args = fixed_model, charge_initial = FALSE)
  x <- bo_ask(s)
  i <- attr(x, "control_set")
  # every set's expected UCB on a fine grid stays below the chosen value
  fit <- attr(x, "models")$f
  Z <- s$memory$Z
  grid <- seq(0, 1, length.out = 201)
  best <- vapply(1:2, function(k) {
    max(acq_expected_ucb(fit, grid, k, Z))
  }, 0)
  expect_equal(attr(x, "info")$expected_ucb, max(best), tolerance = 1e-6)
  expect_identical(i, which.max(best))
  expect_identical(names(x), paste0("x", i))

  set.seed(3)
  s2 <- bo_session(prob, policy_ucb_cvs(1e6, n_samples = 128), initial = init,
                   gp_args = fixed_model, charge_initial = FALSE)
  expect_identical(attr(bo_ask(s2), "control_set"), 2L)
  # an epsilon schedule as a function of t
  set.seed(3)
  s3 <- bo_session(prob, policy_ucb_cvs(function(t) 1e6 / t,
                                        n_samples = 128),
                   initial = init, gp_args = fixed_model,
                   charge_initial = FALSE)
  expect_identical(attr(bo_ask(s3), "control_set"), 2L)
})

test_that("ETC plays each cost group its number of times, cheapest first, then commits", {
  prob <- cvs_problem2(budget = 2.7, sets = list(2L, 1L, 1:2),
                       costs = c(0.2, 0.1, 1))
  run <- bo_optimize(prob, policy_etc(plays = c(3, 2), n_samples = 32,
                                      n_raw = 20, n_starts = 1),
                     n_init = 4, seed = 1, progress = FALSE,
                     gp_args = fixed_model, charge_initial = FALSE)
  df <- as.data.frame(run)
  bo <- df[df$phase == "bo", ]
  # group of cost 0.1 (set 2) 3 times, group of cost 0.2 (set 1) twice,
  # then the full set while it fits: 0.3 + 0.4 + 1 + 1 = 2.7
  expect_identical(bo$control_set, c(2L, 2L, 2L, 1L, 1L, 3L, 3L))
  expect_equal(bo$explore, c(1, 1, 1, 1, 1, 0, 0))
  expect_equal(sum(bo$cost), 2.7, tolerance = 1e-12)
  # ETC-Ada plays floor(4 / c): 40 and 20 here
  pol <- policy_etc("adaptive")
  st <- list(problem = prob)
  expect_identical(pol$init(c(st, list()))$played, c(0L, 0L))
  expect_error(policy_etc(plays = -1), class = "costbo_error_arg")
  expect_error(policy_etc(plays = "often"), class = "costbo_error_arg")
})

test_that("the commit phase without a full control set takes the best expected UCB", {
  prob <- cvs_problem2(budget = 1.5, sets = list(1L, 2L), costs = c(0.1, 0.5))
  run <- bo_optimize(prob, policy_etc(plays = 1, n_samples = 32, n_raw = 20,
                                      n_starts = 1),
                     n_init = 4, seed = 2, progress = FALSE,
                     gp_args = fixed_model, charge_initial = FALSE)
  bo <- as.data.frame(run)
  bo <- bo[bo$phase == "bo", ]
  expect_identical(bo$control_set[1], 1L)
  expect_true(all(bo$control_set %in% 1:2))
  expect_true(all(bo$explore[-1] == 0))
})

test_that("the run stops when the chosen control set no longer fits", {
  prob <- cvs_problem2(budget = 2.5)
  run <- bo_optimize(prob, policy_ucb_psq(n_samples = 16), n_init = 4,
                     seed = 1, progress = FALSE, gp_args = fixed_model,
                     charge_initial = FALSE)
  df <- as.data.frame(run)
  expect_identical(df$control_set[df$phase == "bo"], c(3L, 3L))
  expect_equal(run$spent, 2)
  expect_match(run$stop_reason, "chosen control set would not fit")
  expect_identical(run$declined$control_set, 3L)
  expect_true(all(df$within_budget))
})

test_that("random inputs are drawn, recorded and evaluated", {
  prob <- cvs_problem2(budget = 0.5)
  run <- bo_optimize(prob, policy_ucb_cvs(1e6, n_samples = 16, n_raw = 10,
                                          n_starts = 1),
                     n_init = 4, seed = 4, progress = FALSE,
                     gp_args = fixed_model, charge_initial = FALSE)
  df <- as.data.frame(run)
  bo <- df[df$phase == "bo", ]
  expect_true(all(bo$control_set == 1L))
  expect_identical(nrow(bo), 5L)
  expect_equal(bo$random_x2, bo$x2)
  expect_true(all(is.na(bo$random_x1)))
  expect_true(all(is.na(df$control_set[df$phase == "initial"])))
  expect_true(all(bo$x2 >= 0 & bo$x2 <= 1))
  expect_equal(bo$value, sin(6 * bo$x1) + cos(5 * bo$x2), tolerance = 1e-12)
  # the expected value of the chosen set: average over the regret samples
  Z <- prob$regret_samples
  ev <- vapply(bo$x1, function(a) mean(sin(6 * a) + cos(5 * Z[, 2])), 0)
  expect_equal(bo$expected_value, ev, tolerance = 1e-12)
  expect_equal(bo$simple_regret, 2 - cummax(ev), tolerance = 1e-12)
  expect_equal(summary(run)$regret, 2 - max(ev), tolerance = 1e-12)
})

test_that("runs with control sets are reproducible under set.seed()", {
  prob <- test_problem_cvs("hartmann3", cost_set = "moderate", budget = 1)
  go <- function() {
    set.seed(11)
    bo_optimize(prob, policy_etc(plays = 2, n_samples = 16, n_raw = 10,
                                 n_starts = 1),
                n_init = 5, progress = FALSE, gp_args = fixed_model,
                charge_initial = FALSE)
  }
  expect_identical(run_frame(go()), run_frame(go()))
  ts <- function() {
    bo_optimize(prob, policy_ts_psq(n_features = 128), n_init = 5, seed = 5,
                progress = FALSE, gp_args = fixed_model,
                charge_initial = FALSE)
  }
  a <- ts()
  expect_identical(run_frame(a), run_frame(ts()))
  expect_true(all(as.data.frame(a)$control_set[6] == 7L))
})

test_that("TS-PSQ's posterior sample follows the data and works without a full set", {
  set.seed(5)
  X <- matrix(runif(40), ncol = 2)
  y <- sin(6 * X[, 1]) + X[, 2]
  fit <- gp_fit(X, y, kernel = "se", estimate = "fixed", lengthscale = 0.2,
                outputscale = 1, noise = 1e-4, lower = 0, upper = 1)
  g <- costbo:::rff_posterior_sample(fit, 2048)
  fs <- fit$ymean + fit$ysd * costbo:::rff_value(g, fit$Xs)
  expect_lt(max(abs(fs - y)), 0.1)
  fd <- ref_grad(function(z) costbo:::rff_value(g, matrix(z, 1)), c(0.3, 0.6))
  expect_equal(costbo:::rff_grad(g, c(0.3, 0.6)), fd, tolerance = 1e-6)

  prob <- cvs_problem2(budget = 0.3, sets = list(1L, 2L), costs = c(0.1, 0.1))
  run <- bo_optimize(prob, policy_ts_psq(n_features = 128, n_samples = 32,
                                         n_raw = 10, n_starts = 1),
                     n_init = 4, seed = 6, progress = FALSE,
                     gp_args = fixed_model, charge_initial = FALSE)
  expect_identical(sum(run$phase == "bo"), 3L)
})

test_that("ask/tell sessions take the realized full query", {
  prob <- cvs_problem2(budget = 3)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9, 0.3), x2 = c(0.2, 0.8, 0.5, 0.1),
                     value = c(0.1, -0.5, 0.7, 1.2))
  set.seed(8)
  s <- bo_session(prob, policy_etc(plays = 1, n_samples = 16, n_raw = 10,
                                   n_starts = 1),
                  initial = init, gp_args = fixed_model,
                  charge_initial = FALSE)
  x <- bo_ask(s)
  expect_identical(attr(x, "control_set"), 1L)
  expect_length(x, 1L)
  expect_output(print(x), "Control set 1")
  full <- c(x[[1]], 0.42)
  s <- bo_tell(s, full, value = 0.3, asked = x)
  df <- as.data.frame(s)
  expect_equal(df$random_x2[5], 0.42)
  expect_equal(df$cost[5], 0.1)
  expect_identical(df$control_set[5], 1L)
  expect_identical(s$memory$played, c(1L, 0L))
  x2 <- bo_ask(s)
  expect_identical(attr(x2, "control_set"), 2L)
  expect_error(bo_tell(s, c(0.5, x2[[1]] + 0.1), 0.1, asked = x2),
               class = "costbo_error_arg")
  expect_error(bo_tell(s, c(0.5, 0.5), 0.1), class = "costbo_error_arg")
  expect_error(bo_tell(s, c(0.5, x2[[1]]), 0.1, cost = 3, asked = x2),
               class = "costbo_error_arg")
  expect_error(bo_tell(s, x2, 0.1), class = "costbo_error_arg")
})

test_that("problems with control sets validate their arguments", {
  f <- function(x) sum(x)
  ok <- function(...) {
    bo_problem(f, lower = c(0, 0), upper = c(1, 1), budget = 1, ...)
  }
  expect_s3_class(ok(control_sets = list(1, 2:1), control_costs = c(1, 2)),
                  "bo_problem")
  expect_error(ok(control_sets = list(3), control_costs = 1),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1, 1), control_costs = c(1, 1)),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(c(1, 1)), control_costs = 1),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(), control_costs = 1),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1)), class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1), control_costs = 0),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1), control_costs = c(1, 2)),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1), control_costs = 1, cost = 1),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1), control_costs = 1, variance = 0.1),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1), control_costs = 1,
                  distributions = list(function(p) p + 2, NULL)),
               class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1), control_costs = 1,
                  distributions = list(1, NULL)), class = "costbo_error_arg")
  expect_error(ok(control_costs = 1), class = "costbo_error_arg")
  expect_error(ok(control_sets = list(1), control_costs = 1,
                  noise_free = 3), class = "costbo_error_arg")
  # policies and problems must match
  prob <- ok(control_sets = list(1), control_costs = 1)
  expect_error(bo_optimize(prob, policy_ei(), progress = FALSE),
               class = "costbo_error_arg")
  expect_error(bo_session(known_cost_problem(), policy_ucb_psq()),
               class = "costbo_error_arg")
  expect_error(policy_ucb_cvs(-1), class = "costbo_error_arg")
  expect_error(policy_ucb_cvs(n_samples = 0), class = "costbo_error_arg")
  expect_error(policy_ts_psq(n_features = 0), class = "costbo_error_arg")
})

test_that("the default distributions are the paper's truncated normals", {
  for (v in c(0.02, 0.04, 0.08)) {
    q <- costbo:::truncnorm_quantile(0.5, v, 0, 1)
    p <- (seq_len(20000) - 0.5) / 20000
    z <- q(p)
    expect_equal(mean(z), 0.5, tolerance = 1e-6)
    expect_equal(mean((z - 0.5)^2), v, tolerance = 1e-3)
    expect_true(all(z >= 0 & z <= 1))
  }
  # on a wider box the variance scales with the squared range
  q <- costbo:::truncnorm_quantile(0.5, 0.04, -2, 2)
  z <- q((seq_len(20000) - 0.5) / 20000)
  expect_equal(mean(z^2), 0.04 * 16, tolerance = 1e-3)
  prob <- bo_problem(function(x) sum(x), lower = c(0, 0), upper = c(1, 1),
                     budget = 1, control_sets = list(1), control_costs = 1,
                     distributions = function(p) p)
  expect_equal(prob$quantiles[[2]](0.3), 0.3)
})

test_that("test_problem_cvs() gives the paper's problems", {
  p <- test_problem_cvs("hartmann3", cost_set = "cheap")
  expect_identical(p$control_sets,
                   list(1L, 2L, 3L, c(1L, 2L), c(1L, 3L), c(2L, 3L), 1:3))
  expect_equal(p$control_costs, c(0.01, 0.01, 0.01, 0.1, 0.1, 0.1, 1))
  expect_equal(test_problem_cvs("hartmann3", "moderate")$control_costs,
               c(0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 1))
  expect_equal(test_problem_cvs("hartmann3", "expensive")$control_costs,
               c(0.6, 0.6, 0.6, 0.8, 0.8, 0.8, 1))
  expect_equal(p$budget, 50)
  expect_equal(p$noise_free(rbind(c(0.114614, 0.555649, 0.852547))),
               p$optimum, tolerance = 1e-5)
  # the noise-free objective takes many rows at once, each as the objective
  set.seed(4)
  Z <- matrix(runif(30), 10, 3)
  p0 <- test_problem_cvs("hartmann3", cost_set = "cheap", noise_sd = 0)
  expect_equal(p0$noise_free(Z), apply(Z, 1L, p0$objective),
               tolerance = 1e-14)
  expect_length(p0$objective(Z[1, ]), 1L)
  g <- test_problem_cvs("gp_sample", seed = 2)
  expect_identical(attr(g$noise_free, "kernel"), "se")
  expect_equal(g$noise_free(matrix(0.5, 1, 3)),
               g$noise_free(matrix(0.5, 1, 3)))
  Z <- sobol_points(4096, 3)
  expect_lte(max(g$noise_free(Z)), g$optimum + 1e-8)
  expect_output(print(p), "by control set")
  expect_error(test_problem_cvs("branin"), class = "costbo_error_arg")
  expect_error(test_problem_cvs(variance = 0.5), class = "costbo_error_arg")
})

test_that("plot() shows the regret of runs with control sets", {
  prob <- cvs_problem2(budget = 0.5)
  run <- bo_optimize(prob, policy_ucb_cvs(1e6, n_samples = 16, n_raw = 10,
                                          n_starts = 1),
                     n_init = 4, seed = 4, progress = FALSE,
                     gp_args = fixed_model, charge_initial = FALSE)
  f <- tempfile(fileext = ".pdf")
  grDevices::pdf(f)
  on.exit(unlink(f))
  # the plots return what they drew: the regret of the optimization phase
  r <- expect_invisible(plot(run))
  df <- as.data.frame(run)
  bo <- df$phase == "bo"
  expect_identical(r$regret, df$simple_regret[bo])
  expect_identical(r$control_set, df$control_set[bo])
  expect_identical(plot(run, type = "progress")$evaluations$value, df$value)
  grDevices::dev.off()
  expect_error(plot(bo_optimize(known_cost_problem(4), policy_ei(),
                                seed = 1, progress = FALSE),
                    type = "regret"), class = "costbo_error_arg")
})

test_that("the size arguments of the BOCVS policies are capped", {
  expect_error(policy_ucb_cvs(n_samples = 1e6), class = "costbo_error_arg")
  expect_error(policy_ucb_psq(n_raw = 1e6), class = "costbo_error_arg")
  expect_error(policy_etc(n_starts = 1001), class = "costbo_error_arg")
  expect_error(policy_ts_psq(n_features = 1e6), class = "costbo_error_arg")
  expect_s3_class(policy_ts_psq(n_features = 1e5), "bo_policy")
})

test_that("an expected UCB beyond the double range is refused naming `beta`", {
  set.seed(5)
  fit <- gp_fit(matrix(runif(30), ncol = 3), runif(10), lower = 0, upper = 1,
                n_starts = 1)
  Z <- matrix(runif(30), ncol = 3)
  e <- expect_error(acq_expected_ucb(fit, c(0.2, 0.7), controlled = c(3, 1),
                                     samples = Z, beta = 1.797e308),
                    class = "costbo_error_arg")
  expect_identical(e$arg, "beta")
  v <- acq_expected_ucb(fit, c(0.2, 0.7), controlled = c(3, 1), samples = Z,
                        beta = 1e300)
  expect_true(is.finite(v))
})
