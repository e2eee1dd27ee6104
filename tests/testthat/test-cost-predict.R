# What a cost is predicted to be for the budget (R/cost-predict.R): the
# calibrated predictive of a measured cost, its interval and probability of
# fitting, and the predictions every step records.

# A session on the measured-cost Branin after `k` steps of EI-PU (the
# proposals carry the models they were made with).
measured_steps <- function(k, budget = 200, seed = 3) {
  prob <- measured_cost_problem(budget = budget)
  init <- data.frame(x1 = c(-2, 3, 8, 0, 9), x2 = c(2, 12, 6, 1, 14))
  init$value <- apply(init, 1, branin_max)
  init$cost <- exp(2 * (init$x1 + 5) / 15)
  s <- bo_session(prob, policy_ei_pu(), initial = init,
                  charge_initial = FALSE)
  set.seed(seed)
  pts <- list()
  for (i in seq_len(k)) {
    x <- bo_ask(s)
    pts[[i]] <- x
    ev <- prob$objective(as.numeric(x))
    s <- bo_tell(s, x, ev$value, ev$cost)
  }
  list(session = s, points = pts, problem = prob)
}

test_that("the predictive's sd is the GP's with halved lengthscales", {
  m <- measured_steps(3)
  s <- costbo:::state_fit(m$session)
  cm <- s$models$cost
  X <- rbind(c(0, 5), c(7, 11), c(-4, 14))
  p <- costbo:::cost_predictive(s, X)
  # the GP's own mean
  expect_equal(p$m, predict(cm, X)$mean, tolerance = 1e-12)
  # the sd of an observation of the GP refitted to the same data with its
  # hyperparameters fixed, the lengthscales halved
  cf <- coef(cm)
  wide <- gp_fit(cm$X, cm$y, estimate = "fixed",
                 lengthscale = cf$lengthscale / 2, outputscale = cf$outputscale,
                 noise = cf$noise, mean = cf$mean, lower = cm$lower,
                 upper = cm$upper)
  expect_equal(p$s, sqrt(predict(wide, X)$sd^2 + cf$noise), tolerance = 1e-8)
  # wider than the GP's own
  expect_true(all(p$s > predict(cm, X)$sd))
})

test_that("the calibration learns from the run's own errors", {
  m <- measured_steps(6)
  s <- m$session
  df <- as.data.frame(s)
  P <- s$cost_prediction
  bo <- which(df$phase == "bo")
  # each step recorded the mean and the wide sd of its prediction, from
  # the models it was proposed with
  for (i in seq_along(bo)) {
    x <- m$points[[i]]
    cm <- attr(x, "models")$cost
    st <- s
    st$models <- attr(x, "models")
    p <- costbo:::cost_predictive(st, matrix(as.numeric(x), 1L))
    expect_equal(P[[bo[i], "log_mean"]],
                 predict(cm, matrix(as.numeric(x), 1L))$mean, tolerance = 1e-12)
    expect_equal(P[[bo[i], "log_sd"]], p$s, tolerance = 1e-12)
  }
  z <- (log(df$cost[bo]) - P[bo, "log_mean"]) / P[bo, "log_sd"]
  expect_equal(costbo:::cost_residuals(s), unname(z), tolerance = 1e-12)
  # the posterior of log k: normal prior N(0, 1), each log|z| (|z| at
  # least 0.01; the latest with weight 1, older ones 0.9 per step) an
  # observation of log k plus log|Z|, whose mean and variance are
  # -(gamma + log 2) / 2 and pi^2 / 8
  w <- 0.9^(rev(seq_along(z)) - 1)
  v <- pi^2 / 8
  prec <- 1 + sum(w) / v
  mu <- sum(w * (log(pmax(abs(z), 0.01)) +
                   (0.5772156649015329 + log(2)) / 2)) / v / prec
  cal <- costbo:::cost_calibration(z)
  expect_equal(sum(cal$w), 1, tolerance = 1e-12)
  expect_equal(sum(cal$w * log(cal$k)), mu, tolerance = 1e-10)
  expect_equal(sqrt(sum(cal$w * (log(cal$k) - mu)^2)), 1 / sqrt(prec),
               tolerance = 1e-10)
  # without errors: the prior (log k ~ N(0, 1))
  cal0 <- costbo:::cost_calibration(double())
  expect_equal(sum(cal0$w * log(cal0$k)^2), 1, tolerance = 1e-10)
  # errors larger than the sd say widen, smaller ones narrow
  expect_gt(sum(cal0$w * log(costbo:::cost_calibration(rep(3, 5))$k)), 0)
  expect_lt(sum(cal0$w * log(costbo:::cost_calibration(rep(0.3, 5))$k)), 0)
})

test_that("the probability of fitting and the interval are the predictive's", {
  m <- measured_steps(4)
  s <- costbo:::state_fit(m$session)
  X <- rbind(c(0, 5), c(7, 11), c(9.5, 2))
  p <- costbo:::cost_predictive(s, X)
  remaining <- 3.5
  pr <- costbo:::cost_predict(s, X, remaining)
  # Monte Carlo from the predictive: log k from the calibration's normal,
  # then log cost = m + s k Z
  cal <- p$cal
  mu <- sum(cal$w * log(cal$k))
  tau <- sqrt(sum(cal$w * (log(cal$k) - mu)^2))
  set.seed(10)
  N <- 4e5
  k <- exp(mu + tau * rnorm(N))
  e <- k * rnorm(N)
  for (i in seq_len(nrow(X))) {
    lc <- p$m[i] + p$s[i] * e
    expect_equal(pr$prob[i], mean(lc <= log(remaining)), tolerance = 3e-3)
    # the 90% interval: the predictive's 5% and 95% quantiles, around the
    # median exp(m)
    expect_equal(log(c(pr$lower[i], pr$upper[i])),
                 unname(quantile(lc, c(0.05, 0.95))), tolerance = 0.01)
    expect_equal(pr$cost[i], exp(p$m[i]), tolerance = 1e-12)
  }
  # the budget rule asks exactly this probability
  expect_identical(costbo:::budget_fits(s, X, remaining, 0.9), pr$prob >= 0.9)
  # a quantile of the predictive has that probability
  q <- costbo:::cost_quantile(s, X, 0.9)
  for (i in seq_len(nrow(X))) {
    expect_equal(costbo:::cost_predict(s, X[i, , drop = FALSE], q[i])$prob,
                 0.9, tolerance = 1e-8)
  }
  # nothing remains: nothing fits
  expect_identical(costbo:::cost_predict(s, X, 0)$prob, rep(0, 3))
  # no random numbers are drawn
  set.seed(4)
  before <- .Random.seed
  costbo:::cost_predict(s, X, remaining)
  costbo:::cost_quantile(s, X, 0.9)
  expect_identical(.Random.seed, before)
})

test_that("known costs, and measured ones before they can be modelled", {
  prob <- known_cost_problem(budget = 30)
  s <- bo_session(prob, policy_ei(), charge_initial = FALSE,
                  initial = data.frame(x1 = c(-2, 3, 8), x2 = c(2, 12, 6),
                                       value = c(-5, -20, -9)))
  X <- rbind(c(0, 5), c(9, 14))
  c_ <- apply(X, 1, prob$cost)
  p <- costbo:::cost_predict(s, X, c_[1] + 1e-9)
  expect_equal(p$cost, c_)
  expect_equal(p$lower, c_)
  expect_equal(p$upper, c_)
  expect_identical(p$prob, c(1, 0))
  expect_identical(costbo:::cost_quantile(s, X, 0.9), c_)
  # measured, before a model: the geometric mean of the costs seen
  m <- measured_cost_problem()
  s <- bo_session(m, policy_ei_pu(), charge_initial = FALSE)
  s <- costbo:::state_record(s, costbo:::new_step(c(0, 1)), 1, 2, "initial")
  s <- costbo:::state_record(s, costbo:::new_step(c(1, 1)), 2, 8, "initial")
  p <- costbo:::cost_predict(s, X, 5)
  expect_equal(p$cost, c(4, 4))
  expect_true(all(is.na(c(p$lower, p$upper))))
  expect_identical(p$prob, c(1, 1))
  expect_identical(costbo:::cost_predict(s, X, 3)$prob, c(0, 0))
})

test_that("runs and sessions record the predictions their steps decided on", {
  # bo_optimize() with a measured cost and the feasible rule
  prob <- measured_cost_problem(budget = 20)
  run <- bo_optimize(prob, policy_ei_pu_cc(), seed = 4, progress = FALSE,
                     charge_initial = FALSE)
  df <- as.data.frame(run)
  cols <- c("cost_predicted", "cost_lower", "cost_upper", "prob_fit")
  expect_true(all(cols %in% names(df)))
  ini <- df$phase == "initial"
  expect_true(all(is.na(as.matrix(df[ini, cols]))))
  bo <- df[!ini, ]
  expect_gt(nrow(bo), 2L)
  expect_true(all(bo$cost_lower < bo$cost_predicted &
                    bo$cost_predicted < bo$cost_upper))
  # every evaluated step fitted with probability budget_prob
  expect_true(all(bo$prob_fit >= 0.9))
  # the asynchronous loop records them too (one worker on the simulated
  # clock: the sequential run)
  arun <- bo_optimize(prob, policy_ei_pu_cc(), seed = 4, progress = FALSE,
                      charge_initial = FALSE, workers = 1L,
                      clock = "simulated")
  adf <- as.data.frame(arun)
  expect_equal(adf[, cols], df[, cols], tolerance = 1e-10)
  # a known cost: the cost itself, which fitted
  krun <- bo_optimize(known_cost_problem(budget = 25), policy_ei_pu(),
                      seed = 2, progress = FALSE, charge_initial = FALSE)
  kdf <- as.data.frame(krun)
  kb <- kdf$phase == "bo"
  expect_identical(kdf$cost_predicted[kb], kdf$cost[kb])
  expect_identical(kdf$cost_upper[kb], kdf$cost[kb])
  expect_identical(kdf$prob_fit[kb], rep(1, sum(kb)))
  expect_true(all(is.na(kdf$prob_fit[!kb])))
  # a session: bo_tell() records what the point of bo_ask() carried, the
  # prediction the rule made in the state it saw
  m <- measured_steps(3, budget = 30)
  sdf <- as.data.frame(m$session)
  sb <- which(sdf$phase == "bo")
  for (i in seq_along(sb)) {
    x <- m$points[[i]]
    expect_equal(sdf$cost_predicted[sb[i]], attr(x, "predicted_cost"))
    expect_equal(c(sdf$cost_lower[sb[i]], sdf$cost_upper[sb[i]]),
                 attr(x, "cost_interval"))
    expect_equal(sdf$prob_fit[sb[i]], attr(x, "prob_fit"))
  }
  # recomputed from the models of the point and the budget left then
  s0 <- m$session
  st <- s0
  st$models <- attr(m$points[[1]], "models")
  keep <- seq_len(sb[1] - 1L)
  for (f in c("X", "value", "cost", "charged", "phase", "status"))
    st[[f]] <- if (is.matrix(st[[f]])) st[[f]][keep, , drop = FALSE] else
      st[[f]][keep]
  st$cost_prediction <- NULL
  st$spent <- sum(st$cost[st$charged])
  pr1 <- costbo:::cost_predict(st, matrix(as.numeric(m$points[[1]]), 1L),
                               st$budget - st$spent)
  expect_equal(sdf$prob_fit[sb[1]], pr1$prob, tolerance = 1e-12)
  expect_equal(sdf$cost_upper[sb[1]], pr1$upper, tolerance = 1e-12)
  # coordinates told without bo_ask(): no prediction
  s2 <- bo_tell(m$session, c(1, 1), value = -3, cost = 1.5)
  expect_true(all(is.na(as.matrix(as.data.frame(s2)[length(s2$value), cols]))))
  # bo_benchmark() records do not carry them
  bm <- bo_benchmark(list(m = prob), list(e = policy_ei_pu()), reps = 1,
                     max_evaluations = 2, progress = FALSE)
  expect_false(any(cols %in% names(bm$records[[1]]$trace)))
})

test_that("the intervals hold their level on costs drawn from a GP", {
  # log costs drawn from a Matern-5/2 GP prior (lengthscale 0.25), the
  # proposals at random: 40 predictions in each of 6 runs
  cover <- logical()
  early <- logical()
  for (seed in 1:6) {
    g <- costbo:::with_seed(100 + seed, gp_prior_sample(2, lengthscale = 0.25,
                                              outputscale = 0.5))
    prob <- bo_problem(function(x) list(value = sum(sin(3 * x)),
                                        cost = exp(g(x))),
                       lower = c(0, 0), upper = c(1, 1), budget = 1e6)
    set.seed(seed)
    X0 <- matrix(runif(12), 6)
    ev0 <- lapply(1:6, function(i) prob$objective(X0[i, ]))
    s <- bo_session(prob, policy_random(), budget_rule = "stop",
                    initial = data.frame(
                      x1 = X0[, 1], x2 = X0[, 2],
                      value = vapply(ev0, `[[`, 0, "value"),
                      cost = vapply(ev0, `[[`, 0, "cost")))
    for (k in 1:40) {
      x <- bo_ask(s)
      ev <- prob$objective(as.numeric(x))
      ci <- attr(x, "cost_interval")
      cover <- c(cover, ev$cost >= ci[1] && ev$cost <= ci[2])
      early <- c(early, k <= 5)
      s <- bo_tell(s, x, ev$value, ev$cost)
    }
  }
  # near 90% (a little above: the sd of halved lengthscales is wider than
  # a well-specified GP needs, and the scale is learned from recent errors)
  expect_gte(mean(cover), 0.85)
  expect_lte(mean(cover), 0.97)
  expect_gte(mean(cover[early]), 0.8)
})
