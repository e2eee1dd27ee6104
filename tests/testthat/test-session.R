# Ask/tell sessions for real experiments.

# Four told points of the measured-cost Branin (helper-problems.R), and a
# session on them with a free design.
measured_init <- function() {
  data.frame(x1 = c(-2, 3, 8, 0), x2 = c(2, 12, 6, 1),
             value = c(-5, -20, -9, -30), cost = c(1.2, 2, 4, 1.5))
}
measured_session <- function(budget) {
  bo_session(measured_cost_problem(budget = budget), policy_ei_pu(),
             initial = measured_init(), charge_initial = FALSE)
}

test_that("ask/tell reproduces the loop and survives saveRDS()", {
  prob <- known_cost_problem(budget = 30)
  init <- data.frame(x1 = c(-2, 3, 8), x2 = c(2, 12, 6))
  init$value <- apply(init, 1, branin_max)
  # the budget of the optimization phase, as the papers count it
  s <- bo_session(prob, policy_ei_pu(), initial = init,
                  charge_initial = FALSE)
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
                     charge_initial = FALSE, progress = FALSE)
  set.seed(1)
  s2 <- bo_session(prob, policy_ei_pu(), initial = init,
                   charge_initial = FALSE)
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
  s <- bo_session(prob, policy_ei_pu(), initial = init,
                  charge_initial = FALSE)
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

# --- budgets, predicted costs, batches, reports --------------------------------

# A one-input problem of known cost 1 + x, and a session on it.
line_session <- function(budget = 6, charge_initial = FALSE) {
  prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
                     cost = function(x) 1 + x, budget = budget)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9), value = c(0.2, 0.8, 0.1))
  bo_session(prob, policy_ei_pu(), initial = init,
             charge_initial = charge_initial)
}

test_that("budget_left() is budget - spent; a spent budget ends bo_ask()", {
  s <- line_session(budget = 3)
  expect_identical(budget_left(s), 3)
  expect_false(is_finished(s))
  costs <- numeric()
  for (x in c(0.3, 0.7)) {
    s <- bo_tell(s, x, value = sin(6 * x))
    costs <- c(costs, 1 + x)
    # the spend is the told costs added one by one
    expect_identical(budget_left(s), 3 - Reduce(`+`, costs, 0))
  }
  expect_identical(budget_left(s), 3 - (1.3 + 1.7))
  expect_lte(budget_left(s), 0)
  expect_true(is_finished(s))
  expect_error(bo_ask(s), class = "costbo_error_budget")
  err <- tryCatch(bo_ask(s), error = function(e) e)
  expect_s3_class(err, c("costbo_error_budget", "costbo_error", "error",
                         "condition"), exact = TRUE)
  expect_snapshot(bo_ask(s), error = TRUE)
  expect_error(budget_left(list()), class = "costbo_error_arg")
  expect_error(is_finished("s"), class = "costbo_error_arg")
  # runs: finished when the budget stopped them
  prob <- known_cost_problem(budget = 60)
  run <- bo_optimize(prob, policy_ei(), n_init = 4, charge_initial = TRUE,
                     seed = 1, max_evaluations = 2, progress = FALSE)
  df <- as.data.frame(run)
  expect_identical(budget_left(run), 60 - Reduce(`+`, df$cost, 0))
  expect_identical(run$stop_code, "max_evaluations")
  expect_false(is_finished(run))
  run$stop_code <- "budget"
  expect_true(is_finished(run))
})

test_that("a proposal carries its predicted cost and interval", {
  # known cost: the cost itself
  s <- line_session()
  set.seed(1)
  x <- bo_ask(s)
  expect_identical(attr(x, "predicted_cost"), 1 + as.numeric(x))
  expect_identical(attr(x, "cost_interval"), rep(1 + as.numeric(x), 2))
  expect_snapshot(print(x))
  # measured cost: the log-cost GP's median and the calibrated 90%
  # interval (R/cost-predict.R): before any prediction has been paid for,
  # log cost = m + s k Z, with s the sd of an observation of the GP with
  # halved lengthscales and log k ~ N(0, 1) a priori
  init <- measured_init()
  s <- measured_session(20)
  prob <- s$problem
  set.seed(2)
  x <- bo_ask(s)
  cm <- attr(x, "models")$cost
  u <- matrix(as.numeric(x), 1L)
  p <- predict(cm, u)
  expect_equal(attr(x, "predicted_cost"), exp(p$mean), tolerance = 1e-12)
  cf <- coef(cm)
  wide <- gp_fit(cm$X, cm$y, estimate = "fixed",
                 lengthscale = cf$lengthscale / 2, outputscale = cf$outputscale,
                 noise = cf$noise, mean = cf$mean, lower = cm$lower,
                 upper = cm$upper)
  sw <- sqrt(predict(wide, u)$sd^2 + cf$noise)
  cdf <- function(c_) {
    integrate(function(t) pnorm((log(c_) - p$mean) / (sw * exp(t))) *
                dnorm(t), -Inf, Inf, rel.tol = 1e-10)$value
  }
  ci <- attr(x, "cost_interval")
  expect_equal(c(cdf(ci[1]), cdf(ci[2])), c(0.05, 0.95), tolerance = 1e-6)
  # the probability of fitting in the budget left
  expect_equal(attr(x, "prob_fit"), cdf(budget_left(s)), tolerance = 1e-6)
  # the GP of the log cost is that of the told costs
  ref <- gp_fit(as.matrix(init[, 1:2]), log(init$cost), lower = prob$lower,
                upper = prob$upper, noise_floor = 1e-4, noise_ceiling = 1e-3)
  expect_equal(predict(ref, matrix(as.numeric(x), 1L))$mean, p$mean,
               tolerance = 1e-4)
  expect_output(print(x), "predicted cost [0-9.]+ \\(90% interval")
})

test_that("q points at once are the kriging-believer sequence of asks", {
  cand <- matrix(seq(0, 1, length.out = 41))
  cost <- function(x) 1 + 2 * x
  prob <- bo_problem(function(x) NA, candidates = cand, cost = cost,
                     budget = 20)
  init <- data.frame(x1 = cand[c(3, 15, 27, 39), 1],
                     value = c(0.1, 0.9, 0.4, -0.2))
  s <- bo_session(prob, policy_ei_pu(), initial = init,
                  charge_initial = FALSE)
  b <- bo_ask(s, n = 3)
  expect_s3_class(b, "bo_batch")
  expect_length(b, 3L)
  # the reference: EI per unit cost over the candidates, the model
  # conditioned on each chosen point at its posterior mean (hyperparameters
  # kept), the incumbent counting the fantasized values; a chosen point is
  # not chosen again (the fantasy of a model with noise keeps some variance
  # there: here the second point would be chosen again)
  model <- attr(b[[1]], "models")$f
  best <- max(init$value)
  chosen <- integer()
  for (k in 1:3) {
    p <- predict(model, cand)
    a <- ref_ei(p$mean, p$sd, best) / cost(cand[, 1])
    i <- which.max(replace(a, chosen, -Inf))
    chosen <- c(chosen, i)
    mu <- p$mean[i]
    model <- gp_condition(model, cand[i, , drop = FALSE], mu)
    best <- max(best, mu)
  }
  expect_identical(vapply(b, as.numeric, 0), cand[chosen, 1])
  expect_identical(anyDuplicated(chosen), 0L)
  # the first is what bo_ask() alone proposes
  expect_identical(as.numeric(bo_ask(s)), as.numeric(b[[1]]))
})

test_that("a batch is told in any order; its untold points are pending", {
  s <- line_session(budget = 8)
  set.seed(3)
  b <- bo_ask(s, n = 3)
  x <- vapply(b, as.numeric, 0)
  expect_identical(anyDuplicated(x), 0L)
  expect_lte(sum(1 + x), budget_left(s))
  expect_identical(vapply(b, function(p) attr(p, "predicted_cost"), 0), 1 + x)
  s1 <- bo_tell(s, b[[3]], value = sin(6 * x[3]))
  expect_identical(vapply(s1$pending, function(e) e$step$x, 0), x[1:2])
  expect_output(print(s1), "2 asked points pending")
  # a point asked while others run is given them as fantasies
  set.seed(4)
  y <- bo_ask(s1)
  expect_false(any(abs(as.numeric(y) - x) < 1e-8))
  s1 <- bo_tell(s1, b[[1]], value = sin(6 * x[1]))
  expect_identical(vapply(s1$pending, function(e) e$step$x, 0), x[2])
  # bare coordinates are matched to the pending point
  s1 <- bo_tell(s1, x[2], value = sin(6 * x[2]))
  expect_null(s1$pending)
  s2 <- s
  for (i in 1:3) s2 <- bo_tell(s2, b[[i]], value = sin(6 * x[i]))
  expect_null(s2$pending)
  expect_equal(sort(as.data.frame(s1)$x1), sort(as.data.frame(s2)$x1))
  expect_identical(budget_left(s1), budget_left(s2) +
                     (Reduce(`+`, 1 + x[c(1, 2, 3)], 0) -
                        Reduce(`+`, 1 + x[c(3, 1, 2)], 0)))
  expect_error(bo_ask(s, n = 0), class = "costbo_error_arg")
  expect_error(bo_ask(s, n = 1.5), class = "costbo_error_arg")
})

test_that("a batch fits in the budget with all its costs", {
  s <- line_session(budget = 3.5)
  set.seed(5)
  expect_warning(b <- bo_ask(s, n = 3), class = "costbo_warning_batch")
  expect_length(b, 2L)
  costs <- vapply(b, function(p) 1 + as.numeric(p), 0)
  expect_lte(sum(costs), 3.5)
  # a measured cost counts the pending points' predicted costs
  s <- measured_session(4)
  set.seed(6)
  b <- suppressWarnings(bo_ask(s, n = 4))
  cm <- attr(b[[1]], "models")$cost
  X <- t(vapply(b, as.numeric, c(0, 0)))
  p <- predict(cm, X)
  # each predicted cost from the GP of the finished evaluations
  expect_equal(vapply(b, function(q) attr(q, "predicted_cost"), 0),
               exp(p$mean), tolerance = 1e-12)
  # the points after the first fit with the mean costs of those before
  mean_cost <- exp(p$mean + p$sd^2 / 2)
  expect_lte(sum(mean_cost), 4 * (1 + 1e-12))
})

test_that("print(), summary() and plot() of a session", {
  sp <- bo_space(n = param_int(1, 6), lr = param_num(1e-3, 1, log = TRUE),
                 rule = param_cat(c("a", "b", "c")))
  prob <- bo_problem(function(p) NA, space = sp,
                     cost = function(p) 1 + p$n / 3, budget = 20)
  ini <- data.frame(n = c(1, 3, 5, 6), lr = c(0.001, 0.01, 0.1, 1),
                    rule = c("a", "b", "c", "a"), value = c(0.1, 0.5, 0.2, 0.3))
  s <- bo_session(prob, policy_ei_pu(), initial = ini, charge_initial = FALSE)
  # the best point in the user's types
  expect_snapshot(print(s))
  s <- bo_tell(s, list(n = 2L, lr = 0.05, rule = "b"), value = 0.7)
  sm <- summary(s)
  expect_s3_class(sm, c("summary.bo_session", "summary.bo_run"))
  expect_identical(sm$best_value, 0.7)
  expect_identical(sm$best_x$n, 2L)
  expect_identical(sm$budget_left, 20 - (1 + 2 / 3))
  expect_false(sm$finished)
  expect_identical(sm$pending, 0L)
  expect_snapshot(print(sm))
  f <- tempfile(fileext = ".pdf")
  grDevices::pdf(f)
  on.exit({
    grDevices::dev.off()
    unlink(f)
  })
  expect_invisible(plot(s))
  # the plotted data: the session's records
  expect_identical(withVisible(plot(s))$value$evaluations$value,
                   as.data.frame(s)$value)
  s1 <- line_session()
  expect_invisible(plot(s1, type = "posterior"))
  expect_error(plot(s1, type = "surface"), class = "costbo_error_arg")
})

test_that("a session is finished when nothing it could propose fits", {
  # a known cost of at least 1: with 0.5 left nothing fits
  prob <- bo_problem(function(x) -sum((x - 0.4)^2), lower = c(0, 0),
                     upper = c(1, 1), cost = function(x) 1 + x[1],
                     budget = 5.5)
  init <- data.frame(x1 = c(0, 0, 0.5), x2 = c(0.1, 0.9, 0.5),
                     value = c(-0.25, -0.41, -0.02))
  s <- bo_session(prob, policy_ei(), initial = init, charge_initial = TRUE)
  # the initial points, charged, cost 1 + 1 + 1.5 of 5.5: 2 left, a point
  # fits
  expect_equal(budget_left(s), 2)
  expect_false(is_finished(s))
  s <- bo_tell(s, c(0.5, 0.3), -0.02)
  expect_equal(budget_left(s), 0.5)
  set.seed(3)
  before <- .Random.seed
  expect_true(is_finished(s))
  # asking the question does not move the caller's random numbers
  expect_identical(.Random.seed, before)
  expect_error(bo_ask(s), "nothing affordable remains",
               class = "costbo_error_budget")
  # under the rule "stop" only a spent budget finishes it
  s2 <- bo_session(prob, policy_ei(), initial = init, budget_rule = "stop",
                   charge_initial = TRUE)
  s2 <- bo_tell(s2, c(0.5, 0.3), -0.02)
  expect_false(is_finished(s2))
})

test_that("a session without history proposes the loop's initial design, charged", {
  prob <- bo_problem(function(x) -sum((x - 0.3)^2), lower = c(0, 0),
                     upper = c(1, 1), cost = function(x) 1 + x[1],
                     budget = 20)
  pol <- policy_ei_pu()
  run <- bo_optimize(prob, pol, seed = 5, max_evaluations = 3,
                     progress = FALSE)
  set.seed(5)
  s <- bo_session(prob, pol)
  n <- length(run$value)
  for (i in seq_len(n)) {
    x <- bo_ask(s)
    s <- bo_tell(s, x, -sum((as.numeric(x) - 0.3)^2))
  }
  # the same points, phases and charges as the loop's, design and proposals
  expect_equal(s$X, run$X, tolerance = 1e-12)
  expect_identical(s$phase, run$phase)
  expect_identical(s$charged, rep(TRUE, n))
  expect_equal(s$spent, sum(1 + run$X[, 1]), tolerance = 1e-12)
  # the default design ended within a quarter of the budget, once the two
  # points a model needs were in
  init <- which(s$phase == "initial")
  expect_gte(length(init), 2L)
  expect_lte(sum(s$cost[init][-length(init)]), 0.25 * 20)
  expect_gt(sum(s$cost[init]) + min(1 + s$X[-init, 1]), 0.25 * 20)
})

test_that("a session of measured cost sizes its design batches from the costs seen", {
  prob <- bo_problem(function(x) NA, lower = c(0, 0), upper = c(1, 1),
                     budget = 10)
  set.seed(2)
  s <- bo_session(prob, policy_ei_pu())
  # no cost seen: one point, with a warning that the others wait
  expect_warning(b <- bo_ask(s, n = 3), "1 of the 3", class =
                   "costbo_warning_batch")
  expect_s3_class(b, "bo_batch")
  expect_length(b, 1L)
  s <- bo_tell(s, b[[1]], value = 1, cost = 0.8)
  # at the cost seen, 0.8, two more fit in the quarter
  # of the budget, 2.5, with the 0.8 spent (0.8 + 2 * 0.8 <= 2.5); a third
  # would not, and the model still lacks a second value: it waits
  expect_warning(b2 <- bo_ask(s, n = 3), "2 of the 3",
                 class = "costbo_warning_batch")
  expect_length(b2, 2L)
  expect_true(all(vapply(b2, function(p) {
    isTRUE(attr(p, "info")$initial_design)
  }, NA)))
  s <- bo_tell(s, b2[[1]], value = 2, cost = 0.9)
  s <- bo_tell(s, b2[[2]], value = 0.5, cost = 0.7)
  expect_identical(s$phase, rep("initial", 3))
  expect_equal(s$spent, 0.8 + 0.9 + 0.7)
  # the next design point would take the design past 2.5: model-based
  x <- bo_ask(s)
  expect_null(attr(x, "info")$initial_design)
  s <- bo_tell(s, x, value = 1.5, cost = 1)
  expect_identical(s$phase[4], "bo")
})

test_that("a session's history is not charged unless asked, and must fit when charged", {
  prob <- bo_problem(function(x) NA, lower = c(0, 0), upper = c(1, 1),
                     budget = 10)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9), x2 = c(0.2, 0.4, 0.6),
                     value = c(1, 2, 3), cost = c(4, 5, 3))
  s <- bo_session(prob, policy_ei_pu(), initial = init)
  expect_identical(s$spent, 0)
  expect_identical(budget_left(s), 10)
  expect_identical(s$charged, rep(FALSE, 3))
  # no design is proposed: the history is enough for the models
  expect_null(s$design_plan)
  expect_error(bo_session(prob, policy_ei_pu(), initial = init,
                          charge_initial = TRUE),
               "costs, 12, exceed the budget 10", class = "costbo_error_arg")
  init$cost <- c(4, 5, 1)
  s2 <- bo_session(prob, policy_ei_pu(), initial = init,
                   charge_initial = TRUE)
  expect_identical(s2$spent, 10)
  expect_true(is_finished(s2))
})

test_that("bo_tell() refuses a point whose coordinates do not match the problem", {
  prob <- bo_problem(function(x) NA, lower = c(0, 0), upper = c(1, 1),
                     cost = 1, budget = 10)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9), x2 = c(0.2, 0.4, 0.6),
                     value = c(1, 2, 3))
  s <- bo_session(prob, policy_ei(), initial = init)
  expect_error(bo_tell(s, c(a = 0.1, b = 0.2), 1), "named x1, x2",
               class = "costbo_error_arg")
  expect_error(bo_tell(s, c(x2 = 0.1, x1 = 0.2), 1), "in that order",
               class = "costbo_error_arg")
  expect_error(bo_tell(s, c(0.1, 0.2, 0.3), 1), "2 coordinates",
               class = "costbo_error_arg")
  s <- bo_tell(s, c(x1 = 0.2, x2 = 0.3), 1)
  expect_equal(s$X[4, ], c(0.2, 0.3))
})

test_that("bo_ask() says whether a session it refuses is finished", {
  prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
                     cost = function(x) 1 + x, budget = 3)
  init <- data.frame(x1 = c(0.1, 0.5), value = c(0.2, 0.8))
  # charged, the initial points leave 0.4 and a cost is at least 1
  s <- bo_session(prob, policy_ei_pu(), initial = init, charge_initial = TRUE)
  expect_equal(budget_left(s), 3 - 1.1 - 1.5)
  expect_true(is_finished(s))
  expect_error(bo_ask(s), "; the session is finished \\(is_finished\\(\\)\\)$",
               class = "costbo_error_budget")
  # under the rule "stop" the session is not finished, and bo_ask() says so
  s <- bo_session(prob, policy_ei_pu(), initial = init, budget_rule = "stop",
                  charge_initial = TRUE)
  expect_false(is_finished(s))
  expect_error(bo_ask(s), "the session is not finished .*the rule \"stop\"",
               class = "costbo_error_budget")
  # uncharged initial points (the default) leave the whole budget
  s <- bo_session(prob, policy_ei_pu(), initial = init)
  expect_identical(budget_left(s), 3)
  expect_false(is_finished(s))
})

test_that("bo_ask(), bo_tell() and bo_resume() refuse states whose records disagree", {
  prob <- bo_problem(function(x) -sum((x - 0.4)^2), lower = c(0, 0),
                     upper = c(1, 1), cost = function(x) 1 + x[1],
                     budget = 20)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9), x2 = c(0.2, 0.4, 0.6),
                     value = c(-0.13, -0.01, -0.29))
  s <- bo_session(prob, policy_ei(), initial = init, charge_initial = TRUE)
  s <- bo_tell(s, c(0.3, 0.3), -0.02)
  edits <- list(
    function(s) { s$value <- s$value[-1]; s },
    function(s) { s$cost <- c(s$cost, 1); s },
    function(s) { s$X <- s$X[-1, , drop = FALSE]; s },
    function(s) { s$phase[2] <- "warmup"; s },
    function(s) { s$status <- as.list(s$status); s },
    function(s) { s$spent <- s$spent + 1; s },
    function(s) { s$info <- s$info[-1]; s })
  for (e in edits) {
    bad <- e(s)
    expect_error(bo_tell(bad, c(0.2, 0.2), -0.05), "`session` must be",
                 class = "costbo_error_arg")
    expect_error(bo_ask(bad), "records agree", class = "costbo_error_arg")
  }
  # the unaltered session goes on
  expect_s3_class(bo_tell(s, c(0.2, 0.2), -0.05), "bo_session")
  # a checkpoint whose state was altered (and its checksum made again by
  # writing it through costbo's own writer) is refused by bo_resume()
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  run <- bo_optimize(test_problem("branin", budget = 8), policy_ei(),
                     seed = 1, max_evaluations = 1, checkpoint = f,
                     progress = FALSE)
  saved <- costbo:::read_checkpoint(f)
  saved$state$cost <- saved$state$cost[-1]
  costbo:::write_checkpoint(saved, f)
  expect_error(bo_resume(f, progress = FALSE), "`checkpoint` must be",
               class = "costbo_error_arg")
})

test_that("a known cost written in R is called once per point asked and told", {
  calls <- 0L
  cost <- function(x) {
    calls <<- calls + 1L
    1 + x[1]
  }
  f <- function(x) sin(3 * x[1]) + cos(2 * x[2])
  # a budget the whole default design (6 points) and every proposal fit in;
  # the rule "stop" (under "feasible", bo_ask() also prices candidates to
  # see whether anything fits, see is_finished())
  prob <- bo_problem(f, lower = c(0, 0), upper = c(1, 1), cost = cost,
                     budget = 100)
  for (q in 1:2) {
    calls <- 0L
    set.seed(1)
    s <- bo_session(prob, policy_ei(), budget_rule = "stop")
    # the 2 (d + 1) = 6 synthetic points of check_run_ready()
    expect_identical(calls, 6L)
    for (i in seq_len(10L / q)) {
      xs <- bo_ask(s, n = q)
      if (q == 1L) xs <- list(xs)
      for (x in xs) s <- bo_tell(s, x, f(as.numeric(x)))
    }
    df <- as.data.frame(s)
    expect_identical(c(sum(df$phase == "initial"), sum(df$phase == "bo")),
                     c(6L, 4L))
    expect_equal(df$cost, 1 + df$x1, tolerance = 1e-15)
    # priced when asked, not again when told
    expect_identical(calls, 6L + 10L, label = sprintf("calls (n = %d)", q))
  }
  # a point told with other coordinates than asked is priced at them
  x <- bo_ask(s)
  x[1] <- x[1] / 2
  calls <- 0L
  s <- bo_tell(s, x, f(as.numeric(x)))
  expect_identical(calls, 1L)
  expect_equal(s$cost[length(s$cost)], 1 + x[[1]], tolerance = 1e-15)
})
