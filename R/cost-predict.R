# What a cost is predicted to be, for the budget: at points of a state whose
# models are fitted, the predicted cost (a median), its 90% interval and the
# probability that it fits in a remaining budget. One module for every
# prediction of a cost made for budget purposes: the budget-feasible rule
# and the charged initial design (budget_fits()), the predicted costs of
# bo_ask() points (session_ask()), the cost the mlr3 tuner counts
# on (tuner_cost_bound()) and the predictions every step records
# (cost_predict_step()).
#
# A known cost is the cost itself (its interval degenerate, its probability
# of fitting 0 or 1). A measured cost is predicted by the GP of the log
# cost, calibrated: log c(x) = m(x) + k s(x) Z, with m the GP's predictive
# mean (the median cost is exp(m)), s the predictive sd of an observation of
# the GP with its lengthscales halved, Z standard normal and the scale k
# uncertain, learned from the standardized errors of the run's own earlier
# predictions (cost_calibration()): a lognormal scale mixture of normals,
# heavy-tailed while few costs have been predicted. The GP itself and what
# the policies see of it (m_c, s_c in EI-PU, EI-PU-CC, B-MS-EI, the
# rollouts) are unchanged; so is the cost a pending evaluation counts with
# in asynchronous runs and batches (async_bound(): the GP's mean cost, which
# the policies see as spent). Nothing here draws random numbers.
#
# Why (bench/cost-coverage.R, paper 000's measured costs under EI-PU-CC):
# the GP's own 90% intervals covered 56% of the costs paid in the first 5
# steps of a run and 79% after. Its errors are largest at points a little
# away from the data, because the lengthscales fitted to few costs are too
# long; leave-one-out residuals of the fitted GP do not show it (their mean
# square is below 1: the design's points are far apart and the
# hyperparameters were fitted to them). The run's own out-of-sample errors
# do, and halving the lengthscales of the sd puts the width where the
# errors are.

# The level of the recorded and reported intervals.
cost_interval_level <- 0.9

# The factor applied to the log-cost GP's lengthscales for the sd of the
# predictions (cost_model_wide()).
cost_lengthscale_factor <- 0.5

# The calibration's prior on log k (normal, mean 0: the sd as it is, sd
# cost_scale_prior_sd), the discount of older errors (the weight of the
# j-th most recent is cost_scale_discount^(j - 1): the GP's calibration
# changes as its hyperparameters settle), the variance of log|Z| for Z
# standard normal (pi^2 / 8) and its mean (-(gamma + log 2) / 2), the
# smallest |error| taken (a near-exact prediction, e.g. at a point
# evaluated before, would otherwise pull log k without bound), and the
# Gauss-Hermite nodes of the mixture over log k.
cost_scale_prior_sd <- 1
cost_scale_discount <- 0.9
cost_logabs_var <- pi^2 / 8
cost_logabs_mean <- -(-digamma(1) + log(2)) / 2
cost_scale_floor <- 0.01
cost_scale_nodes <- 64L

# The log-cost GP `model` with its lengthscales multiplied by
# cost_lengthscale_factor and refactored on its own data (the data of a
# fantasy model too), its mean, outputscale and noise kept: its sd is the
# sd of the budget's predictions (its mean is not used).
cost_model_wide <- function(model) {
  d <- model$d
  hyp <- model$hyp
  hyp[seq_len(d)] <- hyp[seq_len(d)] * cost_lengthscale_factor
  hyp[d + 4L] <- 0
  fac <- call_c(C_gp_factor, model$Xs, model$ys, as.integer(model$kcode),
                as.double(hyp), double(), double())
  hyp[d + 4L] <- fac$jitter
  model$hyp <- hyp
  model$L <- fac$L
  model$beta <- fac$beta
  model
}

# The standardized errors of the predictions a state recorded (those of
# measured costs with a valid cost paid), oldest first: (log cost - log
# mean) / log sd, as cost_predict_step() recorded the mean and sd.
cost_residuals <- function(state) {
  P <- cost_record_matrix(state)
  if (!nrow(P)) return(double())
  lc <- log(state$cost[seq_len(nrow(P))])
  ok <- is.finite(P[, "log_mean"]) & is.finite(P[, "log_sd"]) &
    P[, "log_sd"] > 0 & is.finite(lc)
  (lc[ok] - P[ok, "log_mean"]) / P[ok, "log_sd"]
}

# The calibration from the standardized errors z (oldest first): with
# log k ~ N(0, cost_scale_prior_sd^2) a priori and log|z_j| = log k +
# log|Z_j| taken as normal with the mean and variance of log|Z|, Z standard
# normal (the j-th most recent error weighted by cost_scale_discount^(j -
# 1)), log k is a posteriori N(mu, tau^2); list(k, w): the scales at the
# Gauss-Hermite nodes of that normal and their weights. The predictive of a
# new standardized error is the mixture sum_i w_i N(0, k_i^2).
cost_calibration <- function(z) {
  m <- length(z)
  w <- cost_scale_discount^(rev(seq_len(m)) - 1)
  prec <- 1 / cost_scale_prior_sd^2 + sum(w) / cost_logabs_var
  a <- log(pmax(abs(z), cost_scale_floor)) - cost_logabs_mean
  mu <- sum(w * a) / cost_logabs_var / prec
  gh <- gauss_hermite_nodes(cost_scale_nodes)
  list(k = exp(mu + gh$nodes / sqrt(prec)), w = gh$weights)
}

# Gauss-Hermite nodes and weights (probabilists'), memoized by size.
gauss_hermite_nodes <- local({
  memo <- list()
  function(n) {
    key <- as.character(n)
    if (is.null(memo[[key]])) {
      memo[[key]] <<- call_c(C_qmc_gauss_hermite, as.integer(n), FALSE)
    }
    memo[[key]]
  }
})

# The distribution function of the calibrated standardized error at x (a
# vector), and its quantile at p (one probability).
cost_cal_cdf <- function(x, cal) {
  as.vector(stats::pnorm(outer(x, cal$k, "/")) %*% cal$w)
}
cost_cal_quantile <- function(p, cal) {
  hi <- max(cal$k) * 40
  stats::uniroot(function(x) cost_cal_cdf(x, cal) - p, c(-hi, hi),
                 tol = 1e-12)$root
}

# The calibrated predictive of a measured cost at the rows of X (points of
# the problem, as the log-cost GP was fitted to them) in a state with a
# log-cost GP: list(m, s, cal), log cost = m + s e, e of the calibration's
# mixture; m and s (of the wide model, cost_model_wide(), with the noise)
# are what a step records.
cost_predictive <- function(state, X) {
  cm <- state$models$cost
  m <- predict(cm, X, sd = FALSE)$mean
  wide <- cost_model_wide(cm)
  sd <- predict(wide, X)$sd
  noise <- cm$hyp[cm$d + 2L] * cm$ysd^2
  list(m = m, s = sqrt(sd^2 + noise),
       cal = cost_calibration(cost_residuals(state)))
}

# The known costs at the rows of X (NA where the cost function fails or
# gives anything but one positive number).
cost_known <- function(problem, X) problem_known_costs(problem, X)

# What the cost at the rows of X is predicted to be, in a state whose models
# are fitted, with `remaining` budget (NULL: no probability): a data frame
# with `cost` (a known cost itself; for a measured cost the median of the
# calibrated predictive, exp(m); while the costs cannot be modelled, their
# geometric mean, NA before any is seen), `lower` and `upper` (the 90%
# interval: a known cost's is the cost itself; none, NA, while a measured
# cost cannot be modelled), `prob`, the probability that the cost is at
# most `remaining` (a known cost: 1 or 0, 0 where it fails; a measured cost
# that cannot be modelled: 1 when its geometric mean fits or none is seen,
# else 0; 0 whenever nothing remains), and `log_mean`, `log_sd` (m and s of
# cost_predictive(); NA without a model).
cost_predict <- function(state, X, remaining = NULL) {
  pr <- state$problem
  n <- nrow(X)
  none <- rep(NA_real_, n)
  prob <- none
  if (pr$cost_type != "measured") {
    cost <- cost_known(pr, X)
    if (!is.null(remaining)) {
      prob <- as.double(!is.na(cost) & cost <= remaining * (1 + 1e-12))
    }
    out <- data.frame(cost = cost, lower = cost, upper = cost, prob = prob,
                      log_mean = none, log_sd = none)
  } else if (is.null(state$models$cost)) {
    seen <- state_seen_cost(state)
    if (!is.null(remaining)) {
      prob <- rep(as.double(is.na(seen) || seen <= remaining), n)
    }
    out <- data.frame(cost = rep(seen, n), lower = none, upper = none,
                      prob = prob, log_mean = none, log_sd = none)
  } else {
    p <- cost_predictive(state, X)
    q <- cost_cal_quantile((1 + cost_interval_level) / 2, p$cal) * p$s
    if (!is.null(remaining) && remaining > 0) {
      lr <- log(remaining)
      prob <- ifelse(p$s > 0, cost_cal_cdf((lr - p$m) / p$s, p$cal),
                     as.double(p$m <= lr))
    }
    out <- data.frame(cost = exp(p$m), lower = exp(p$m - q),
                      upper = exp(p$m + q), prob = prob, log_mean = p$m,
                      log_sd = p$s)
  }
  if (!is.null(remaining) && !(remaining > 0)) out$prob <- 0
  out
}

# The cost at quantile `prob` of the prediction at the rows of X (a known
# cost: the cost itself; while a measured cost cannot be modelled, the
# geometric mean of the costs seen, 0 before any).
cost_quantile <- function(state, X, prob) {
  pr <- state$problem
  if (pr$cost_type != "measured") return(cost_known(pr, X))
  if (is.null(state$models$cost)) {
    seen <- state_seen_cost(state)
    return(rep(if (is.na(seen)) 0 else seen, nrow(X)))
  }
  p <- cost_predictive(state, X)
  exp(p$m + cost_cal_quantile(prob, p$cal) * p$s)
}

# The columns of the predictions recorded in a state: those of
# as.data.frame() of a run, then the log-scale mean and sd the calibration
# learns from (cost_residuals()).
cost_record_columns <- c("cost_predicted", "cost_lower", "cost_upper",
                         "prob_fit")
cost_record_all <- c(cost_record_columns, "log_mean", "log_sd")

# The prediction a step records: for the step `step` with known price
# `price` (NA: measured) decided in `state` (the state the budget rule
# saw) with `remaining` budget, a named vector of cost_record_all; a known
# price is the cost itself with probability 1 when it fits.
cost_predict_step <- function(state, step, price, remaining) {
  if (!is.na(price)) {
    return(c(cost_predicted = price, cost_lower = price, cost_upper = price,
             prob_fit = as.double(price <= remaining * (1 + 1e-12)),
             log_mean = NA_real_, log_sd = NA_real_))
  }
  p <- cost_predict(state, matrix(step$x, 1L), remaining)
  c(cost_predicted = p$cost, cost_lower = p$lower, cost_upper = p$upper,
    prob_fit = p$prob, log_mean = p$log_mean, log_sd = p$log_sd)
}

# Record the prediction `pred` (cost_predict_step()'s, or NULL: none) of
# the state's last evaluation. The predictions are a matrix with one row
# per evaluation, NA where none was made (the initial design; rows recorded
# before it had predictions are padded).
state_record_prediction <- function(state, pred) {
  n <- length(state$value)
  P <- cost_record_matrix(state, n)
  if (!is.null(pred)) P[n, ] <- pred[cost_record_all]
  state$cost_prediction <- P
  state
}

# The predictions of the first n evaluations of a state, padded with NA.
cost_record_matrix <- function(state, n = length(state$value)) {
  P <- state$cost_prediction
  if (is.null(P)) {
    P <- matrix(NA_real_, 0L, length(cost_record_all),
                dimnames = list(NULL, cost_record_all))
  }
  if (nrow(P) < n) {
    P <- rbind(P, matrix(NA_real_, n - nrow(P), ncol(P)))
  }
  P[seq_len(n), , drop = FALSE]
}

# The recorded predictions as columns of a run's data frame df.
cost_record_df <- function(x, df) {
  P <- cost_record_matrix(x, nrow(df))
  for (k in cost_record_columns) df[[k]] <- P[, k]
  df
}
