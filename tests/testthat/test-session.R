# Ask/tell sessions for real experiments.

test_that("ask/tell reproduces the loop and survives saveRDS()", {
  prob <- known_cost_problem(budget = 30)
  init <- data.frame(x1 = c(-2, 3, 8), x2 = c(2, 12, 6))
  init$value <- apply(init, 1, branin_max)
  s <- bo_session(prob, policy_ei_pu(), initial = init)
  expect_output(print(s), "Ask/tell session")
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  for (i in 1:3) {
    x <- bo_ask(s)
    expect_length(x, 2L)
    saveRDS(s, f)
    s <- readRDS(f)
    s <- bo_tell(s, x, value = branin_max(x))
  }
  df <- as.data.frame(s)
  expect_identical(nrow(df), 6L)
  expect_equal(s$spent, sum(df$cost[df$phase == "bo"]))
  expect_equal(df$cost[4:6], unname(apply(as.matrix(df[4:6, 1:2]), 1,
                                          prob$cost)))
  # the same steps through bo_optimize() with that initial design
  set.seed(1)
  run <- bo_optimize(prob, policy_ei_pu(), initial = init, max_evaluations = 3,
                     progress = FALSE)
  set.seed(1)
  s2 <- bo_session(prob, policy_ei_pu(), initial = init)
  for (i in 1:3) {
    x <- bo_ask(s2)
    s2 <- bo_tell(s2, x, value = branin_max(x))
  }
  expect_equal(as.matrix(as.data.frame(s2)[, 1:4]),
               as.matrix(as.data.frame(run)[, 1:4]))
})

test_that("measured costs must be told; failures are recorded", {
  prob <- measured_cost_problem()
  init <- data.frame(x1 = c(-2, 3, 8), x2 = c(2, 12, 6), value = c(-5, -20, -9),
                     cost = c(1.2, 2, 4))
  s <- bo_session(prob, policy_ei_pu_cc(), initial = init)
  x <- bo_ask(s)
  expect_error(bo_tell(s, x, value = 1), class = "costbo_error_arg")
  s <- bo_tell(s, x, value = NA, cost = 2)
  df <- as.data.frame(s)
  expect_identical(df$status[4], "error")
  expect_error(bo_session(prob, policy_ei(), initial = init[, -4]),
               class = "costbo_error_arg")
  expect_error(bo_tell(s, c(100, 1), value = 1, cost = 1),
               class = "costbo_error_arg")
  expect_error(bo_tell(s, x, value = "a", cost = 1),
               class = "costbo_error_arg")
  expect_error(bo_tell(s, x, value = 1, cost = 0), class = "costbo_error_arg")
  expect_error(bo_ask(list()), class = "costbo_error_arg")
  expect_error(bo_session(prob, "ei"), class = "costbo_error_arg")
})

test_that("bo_acquisition() gives the policy's acquisition in the current state", {
  prob <- known_cost_problem(budget = 30)
  init <- data.frame(x1 = c(-2, 3, 8, 0), x2 = c(2, 12, 6, 1))
  init$value <- apply(init, 1, branin_max)
  s <- bo_session(prob, policy_ei_pu(), initial = init)
  X <- rbind(c(0, 5), c(9, 3))
  set.seed(3)
  a <- bo_acquisition(s, X)
  set.seed(3)
  # a deterministic objective: the noise held in [1e-4, 1e-3] of var(y)
  fit <- gp_fit(as.matrix(init[, 1:2]), init$value, lower = prob$lower,
                upper = prob$upper, noise_floor = 1e-4, noise_ceiling = 1e-3)
  ref <- acq_evaluate(fit, X, "ei_pu", cost = prob$cost)
  expect_equal(a, ref, tolerance = 1e-12)
  x <- bo_ask(s)
  expect_equal(attr(x, "info")$acquisition, max(a, attr(x, "info")$acquisition))
  expect_error(bo_acquisition(s, c(50, 5)), class = "costbo_error_arg")
  expect_error(bo_acquisition("s", c(5, 5)), class = "costbo_error_arg")
})

# Hartmann-6 with noise sd 0.1 after 100 evaluations of EI (14 initial).
noisy_hartmann_run <- function(seed = 1) {
  prob <- test_problem("hartmann6", noise_sd = 0.1, budget = 1000)
  bo_optimize(prob, policy_ei(), seed = seed, max_evaluations = 86,
              progress = FALSE)
}

test_that("a noisy objective's incumbent is the best posterior mean at the evaluated points", {
  run <- noisy_hartmann_run()
  expect_true(run$problem$noisy)
  expect_identical(length(run$value), 100L)
  st <- costbo:::state_fit(run)
  fit <- st$models$f
  cf <- coef(fit)
  # the noise is estimated (gp_fit()'s defaults), within a factor 2 of 0.1
  expect_identical(c(fit$noise_floor, fit$noise_ceiling), c(1e-6, 10))
  expect_gt(sqrt(cf$noise), 0.05)
  expect_lt(sqrt(cf$noise), 0.2)
  # the textbook posterior mean at the evaluated points, by dense solve()
  m <- ref_predict(run$X, run$value, run$X, "matern52", cf$lengthscale,
                   cf$outputscale, cf$noise, cf$mean)$mean
  inc <- costbo:::state_incumbent(st)
  expect_equal(inc, max(m), tolerance = 1e-6)
  # a lucky draw above the true maximum 3.32237 is not the incumbent
  expect_gt(max(run$value), run$problem$optimum)
  expect_lt(inc, max(run$value) - 0.1)
  expect_identical(costbo:::state_best(st), max(run$value))
  # EI against the incumbent does not vanish: checked by the closed form
  set.seed(1)
  U <- sobol_points(4096, 6)
  p <- predict(fit, U)
  ei <- ref_ei(p$mean, p$sd, inc)
  expect_gte(max(ei), 1e-6)
  expect_equal(st$policy$acquisition(st, U[1:50, ]), ei[1:50], tolerance = 1e-8)
  # every EI-family acquisition gets the same incumbent
  for (type in c("ei", "ei_pu", "ei_pu_cc", "q1")) {
    expect_identical(costbo:::myopic_args(st, type)$best, inc, label = type)
  }
})

test_that("a deterministic objective's incumbent is its best observation", {
  prob <- known_cost_problem(budget = 30)
  init <- data.frame(x1 = c(-2, 3, 8, 0), x2 = c(2, 12, 6, 1))
  init$value <- apply(init, 1, branin_max)
  st <- costbo:::state_fit(bo_session(prob, policy_ei(), initial = init))
  expect_identical(costbo:::state_incumbent(st), max(init$value))
  expect_identical(costbo:::myopic_args(st, "ei")$best, max(init$value))
  # on a finite domain with a noisy prior: the largest posterior mean
  cand <- matrix(0:4, ncol = 1)
  S <- exp(-outer(0:4, 0:4, "-")^2 / 4)
  pr <- bo_problem(function(x) NA, candidates = cand, cost = 1, budget = 3,
                   prior = list(mean = rep(0, 5), cov = S), noise = 0.5)
  s <- bo_session(pr, policy_ei(), initial = data.frame(x1 = c(0, 2, 3),
                                                        value = c(0.1, 1.5, -0.4)))
  st <- costbo:::state_fit(s)
  idx <- c(1, 3, 4)
  K <- S[idx, idx] + diag(0.5, 3)
  m <- drop(S[idx, idx] %*% solve(K, c(0.1, 1.5, -0.4)))
  expect_equal(costbo:::state_incumbent(st), max(m), tolerance = 1e-10)
  expect_lt(max(m), 1.5)
})

test_that("PBGI's stopping rule compares the index with the incumbent", {
  run <- noisy_hartmann_run()
  init <- data.frame(run$X, value = run$value)
  names(init)[1:6] <- paste0("x", 1:6)
  s <- bo_session(run$problem, policy_pbgi(lambda = 1e-3), initial = init)
  set.seed(1)
  x <- bo_ask(s)
  g <- attr(x, "info")$acquisition
  inc <- costbo:::state_incumbent(costbo:::state_fit(s))
  # the index lies between the incumbent and the best noisy observation,
  # so the best observation would stop the search and the incumbent does not
  expect_gt(g, inc)
  expect_lte(g, max(run$value))
  expect_false(attr(x, "info")$stop_rule)
})
