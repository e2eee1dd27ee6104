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
  fit <- gp_fit(as.matrix(init[, 1:2]), init$value, lower = prob$lower,
                upper = prob$upper)
  ref <- acq_evaluate(fit, X, "ei_pu", cost = prob$cost)
  expect_equal(a, ref, tolerance = 1e-12)
  x <- bo_ask(s)
  expect_equal(attr(x, "info")$acquisition, max(a, attr(x, "info")$acquisition))
  expect_error(bo_acquisition(s, c(50, 5)), class = "costbo_error_arg")
  expect_error(bo_acquisition("s", c(5, 5)), class = "costbo_error_arg")
})
