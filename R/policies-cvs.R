# Policies for control sets (BOCVS; Tay et al. 2023, paper 003): the
# expected UCB of a control partial query and its maximization, UCB-CVS,
# ETC (and ETC-Ada), UCB-PSQ and TS-PSQ with its posterior sampler. The
# problems with control sets are in problem-cvs.R.
#
# A control set i is a set of input indices I_i the learner sets itself, at
# cost c_i; the other inputs are drawn from their distributions when the
# point is evaluated. Policies return the control partial query x_i (the
# controlled coordinates, in increasing index order) and the index i.

# --- the expected UCB --------------------------------------------------------

#' Expected upper confidence bound of control partial queries
#'
#' For a control set \eqn{I} (the inputs the learner sets) and a control
#' partial query \eqn{x_I}, the expected UCB of Tay et al. (2023) is
#' \eqn{E[\mu([x_I, X_{-I}]) + \beta \sigma([x_I, X_{-I}])]}, the expectation
#' over the random inputs \eqn{X_{-I}}. It is approximated by the average over
#' the rows of `samples` (the same rows for every candidate, so the
#' approximation is a smooth function of \eqn{x_I}); the gradient is in the
#' controlled inputs. Computed in C.
#'
#' @param model A fitted GP ([gp_fit()]) of the objective.
#' @param x Control partial queries, one per row, with `length(controlled)`
#'   columns (in the order of `sort(controlled)`; a vector is one query).
#' @param controlled The indices of the controlled inputs.
#' @param samples A matrix of samples of all `d` inputs (one per row, e.g.
#'   from their distributions); only the columns of the random inputs are
#'   used.
#' @param beta The UCB weight (`>= 0`; small enough that the expected UCB is
#'   a finite number, else an error).
#' @param grad Also return the gradient?
#' @return With `grad = FALSE` a numeric vector (one value per row of `x`);
#'   otherwise a list with `value` and `grad` (one row per query, one column
#'   per controlled input), in the units of the objective.
#' @family acquisition
#' @seealso [policy_ucb_cvs()] which maximizes it for every control set.
#' @examples
#' set.seed(1)
#' X <- matrix(runif(30), ncol = 3)
#' fit <- gp_fit(X, sin(5 * X[, 1]) + X[, 2] * X[, 3], lower = 0, upper = 1)
#' Z <- matrix(runif(3 * 256), ncol = 3)
#' acq_expected_ucb(fit, rbind(c(0.2, 0.5), c(0.8, 0.1)), controlled = c(1, 3),
#'                  samples = Z, grad = TRUE)
#' @export
acq_expected_ucb <- function(model, x, controlled, samples, beta = 2,
                             grad = FALSE) {
  model <- check_gp_object(model, arg = "model")
  # the expected UCB averages over random inputs of one objective: a GP
  # over candidates has no inputs to draw, and the bias sources of a
  # multi-source GP are not part of the BOCVS model
  gp_require(model, "control_sets", arg = "model",
             must = sprintf(paste("a costbo_gp with a continuous kernel",
                                  "(see gp_fit()), not a %s GP"),
                            gp_label(model)))
  d <- model$d
  if (!(is.numeric(controlled) && length(controlled) >= 1L &&
        !anyNA(controlled) && all(controlled == round(controlled)) &&
        all(controlled >= 1 & controlled <= d) && !anyDuplicated(controlled))) {
    stop_arg("controlled", sprintf("distinct whole numbers in 1..%d", d),
             controlled)
  }
  ctrl <- sort(as.integer(controlled))
  k <- length(ctrl)
  if (is.numeric(x) && (if (is.matrix(x)) ncol(x) != k else
    length(x) %% k != 0L)) {
    stop_args(c("x", "controlled"), sprintf(paste(
      "match: one column of `x` per controlled input (%d of them; a vector",
      "of a multiple of %d values is rows of them)"), k, k))
  }
  x <- check_matrix(x, d = k)
  samples <- check_matrix(samples, d = d)
  beta <- check_number(beta, min = 0)
  grad <- check_flag(grad)
  range <- model$upper - model$lower
  xs <- sweep(sweep(x, 2L, model$lower[ctrl]), 2L, range[ctrl], "/")
  check_in_box(xs, "x", sys.call())
  Zs <- sweep(sweep(samples, 2L, model$lower), 2L, range, "/")
  check_in_box(Zs, "samples", sys.call())
  if (length(ctrl) == d) Zs <- Zs[1L, , drop = FALSE]
  r <- call_c(C_cvs_eucb, gp_pack(model), xs, ctrl - 1L, Zs, beta, grad)
  value <- model$ymean + model$ysd * r$value
  if (!all(is.finite(value)) || (grad && !all(is.finite(r$grad)))) {
    stop_arg("beta", paste("small enough that the expected UCB (the mean of",
                           "mean + beta * sd) and its gradient are finite"),
             beta)
  }
  if (!grad) return(value)
  g <- sweep(t(r$grad), 2L, model$ysd / range[ctrl], "*")
  list(value = value, grad = g)
}

# Maximize the expected UCB of control set i in a state; returns list(x =
# partial query (problem scale), value (objective units)). Zs: S x d samples
# on the unit scale.
cvs_maximize_set <- function(state, i, Zs, beta, n_raw, n_starts) {
  pr <- state$problem
  model <- state$models$f
  ctrl <- pr$control_sets[[i]]
  nc <- length(ctrl)
  if (nc == pr$d) {
    # no expectation: the UCB itself, maximized as by acq_maximize()
    Zs <- Zs[1L, , drop = FALSE]
    n_raw <- max(n_raw, 200L)
    n_starts <- max(n_starts, 10L)
  }
  r <- call_c(C_cvs_maximize, gp_pack(model), ctrl - 1L, Zs, beta,
             as.integer(n_raw * nc), max_control(n_starts * nc))
  range <- model$upper - model$lower
  list(x = model$lower[ctrl] + range[ctrl] * r$x,
       value = model$ymean + model$ysd * r$value)
}

# Maximized expected UCB of the control sets `sets`: list(value, x).
cvs_all_sets <- function(state, sets, Zs, beta, n_raw, n_starts) {
  out <- lapply(sets, function(i) {
    cvs_maximize_set(state, i, Zs, beta, n_raw, n_starts)
  })
  list(value = vapply(out, `[[`, 0, "value"), x = lapply(out, `[[`, "x"))
}

# Steps 3-6 of Alg. 1: g = max value; S1 = {i : value_i + epsilon >= g};
# S2 = the cheapest sets of S1; the set of S2 of largest value (the first on
# ties). Returns the index into `values`.
cvs_choose <- function(values, costs, epsilon) {
  g <- max(values)
  s1 <- which(values + epsilon >= g)
  s2 <- s1[costs[s1] == min(costs[s1])]
  s2[which.max(values[s2])]
}

# The unit-scale samples of the random inputs used by a policy: drawn once,
# when the policy starts, and kept in its memory (common random numbers).
cvs_init_samples <- function(state, n_samples) {
  pr <- state$problem
  Z <- cvs_samples(pr, n_samples)
  sweep(sweep(Z, 2L, pr$lower), 2L, pr$upper - pr$lower, "/")
}

cvs_full_set <- function(problem) {
  which(lengths(problem$control_sets) == problem$d)[1L]
}

# The UCB at full queries: what bo_acquisition() shows for these policies.
cvs_ucb_acquisition <- function(beta) {
  function(state, X) {
    p <- predict(state$models$f, X)
    p$mean + beta * p$sd
  }
}

new_cvs_policy <- function(name, label, propose, acquisition, init, params) {
  new_bo_policy(name, label, propose, acquisition, init = init,
                params = params, cvs = TRUE)
}

check_cvs_common <- function(beta, n_samples, n_raw, n_starts,
                             call = sys.call(-1L)) {
  list(beta = check_number(beta, min = 0, arg = "beta", call = call),
       n_samples = check_count_max(n_samples, 1L, 1e5, arg = "n_samples",
                                   call = call),
       n_raw = check_count_max(n_raw, 1L, 1e5, arg = "n_raw", call = call),
       n_starts = check_count_max(n_starts, 0L, 1000L, arg = "n_starts",
                                  call = call))
}

#' Policies for control sets with costs (BOCVS)
#'
#' Policies for problems with control sets ([bo_problem()] with
#' `control_sets`), after Tay et al. (2023). In each iteration they choose a
#' control set and the values of its inputs (the control partial query); the
#' other inputs are drawn from their distributions when the point is
#' evaluated. Every policy maximizes, for each control set it considers, the
#' expected UCB \eqn{E[\mu + \beta\sigma]} over the random inputs
#' ([acq_expected_ucb()]), approximated with `n_samples` samples of the random
#' inputs drawn once when the run starts (scrambled Sobol points through the
#' quantile functions) and used for every candidate and every iteration. The
#' maximization is multistart L-BFGS-B in C from `n_raw` scrambled Sobol raw
#' points and `n_starts` starts per controlled input. For the full control
#' set (no expectation to take) at least 200 raw points and 10 starts per
#' input are used, as by [acq_maximize()] (TS-PSQ: at least 1000 raw points
#' and 2 starts per input).
#'
#' * `policy_ucb_cvs()`: UCB-CVS (Alg. 1). With \eqn{g_t} the largest
#'   expected UCB over all control sets, \eqn{S_1} holds the sets whose best
#'   expected UCB is at least \eqn{g_t - \epsilon_t}, \eqn{S_2} the cheapest
#'   sets of \eqn{S_1}, and the set of \eqn{S_2} with the largest expected UCB
#'   is played. \eqn{\epsilon_t} (in the units of the objective) is a number
#'   or a function of the iteration \eqn{t = 1, 2, \dots} (counted after the
#'   initial design).
#' * `policy_etc()`: the explore-then-commit variant (Sec. 4.2). The control
#'   sets of equal cost below the largest cost form cost groups; each group is
#'   played `plays` times, cheapest group first, choosing within the group the
#'   set of largest expected UCB; then the policy commits: to the full control
#'   set when one exists (as in the reference implementation), otherwise to
#'   the set of largest expected UCB among all sets. `plays` is one number for
#'   every group (ETC-50, ETC-100), one per group, or `"adaptive"`:
#'   \eqn{\lfloor 4 / c \rfloor} plays for the group of cost \eqn{c} (ETC-Ada).
#' * `policy_ucb_psq()`: UCB-PSQ, UCB-CVS with \eqn{\epsilon = 0} (costs
#'   ignored). When the full control set exists it always has the largest
#'   expected UCB, so it is played without computing the others (as in the
#'   reference implementation).
#' * `policy_ts_psq()`: TS-PSQ (Hayashi et al. 2022): Thompson sampling with
#'   a posterior sample of the objective from `n_features` random Fourier
#'   features (weight-space posterior, drawn exactly by Matheron's rule);
#'   plays the full control set at the sample's maximizer when it exists,
#'   otherwise the set and partial query of the largest expected sample.
#'
#' The chosen set is recorded with every evaluation (`control_set` in
#' [as.data.frame()]), with the diagnostics `expected_ucb` (of the chosen
#' set and query) and, for UCB-CVS, `epsilon`. [bo_acquisition()] gives the
#' UCB \eqn{\mu + \beta\sigma} at full queries. The paper's experiments use
#' \eqn{\beta = 2} and 1024 samples.
#'
#' @param epsilon The \eqn{\epsilon} schedule: a number `>= 0` or a function
#'   of the iteration `t` returning one.
#' @param beta The UCB weight.
#' @param n_samples Number of samples of the random inputs for the
#'   expectations.
#' @param n_raw,n_starts Raw points and L-BFGS-B starts of the maximization,
#'   per controlled input.
#' @return A `bo_policy`.
#' @references Tay, S. S., Foo, C. S., Urano, D., Leong, R. C. X. and Low, B.
#'   K. H. (2023). Bayesian optimization with cost-varying variable subsets.
#'   NeurIPS 2023.
#' @family policies
#' @examples
#' prob <- test_problem_cvs("hartmann3", cost_set = "moderate", budget = 1)
#' run <- bo_optimize(prob, policy_etc(plays = 2, n_samples = 64), n_init = 5,
#'                    seed = 1, progress = FALSE, gp_args = list(
#'                      kernel = "se", estimate = "fixed", lengthscale = 0.1,
#'                      outputscale = 1, noise = 1e-4))
#' as.data.frame(run)[, c("control_set", "cost", "simple_regret")]
#' policy_ucb_cvs(epsilon = function(t) 0.5 / t)
#' @export
policy_ucb_cvs <- function(epsilon = 0, beta = 2, n_samples = 1024L,
                           n_raw = 100L, n_starts = 4L) {
  if (is.function(epsilon)) {
    eps_fun <- epsilon
    eps_label <- "a function of t"
  } else {
    eps <- check_number(epsilon, min = 0)
    eps_fun <- function(t) eps
    eps_label <- format(eps)
  }
  cc <- check_cvs_common(beta, n_samples, n_raw, n_starts)
  propose <- function(state) {
    pr <- state$problem
    t <- state$iteration + 1L
    e <- eps_fun(t)
    if (!(is.numeric(e) && length(e) == 1L && is.finite(e) && e >= 0)) {
      stop_costbo(sprintf("the epsilon schedule returned %s at t = %d, not a number >= 0",
                          describe_value(e), t))
    }
    sets <- seq_along(pr$control_sets)
    a <- cvs_all_sets(state, sets, state$memory$Z, cc$beta, cc$n_raw,
                      cc$n_starts)
    i <- cvs_choose(a$value, pr$control_costs, e)
    list(x = a$x[[i]], control_set = i,
         info = list(expected_ucb = a$value[i], epsilon = e),
         memory = state$memory)
  }
  new_cvs_policy("ucb_cvs", sprintf("UCB-CVS (epsilon = %s)", eps_label),
                 propose, cvs_ucb_acquisition(cc$beta),
                 init = function(state) {
                   list(Z = cvs_init_samples(state, cc$n_samples))
                 },
                 params = c(list(epsilon = eps_label), cc))
}

#' @rdname policy_ucb_cvs
#' @param plays Plays per cost group: a number, one number per cost group
#'   (cheapest first), or `"adaptive"` for \eqn{\lfloor 4/c \rfloor}.
#' @export
policy_etc <- function(plays = "adaptive", beta = 2, n_samples = 1024L,
                       n_raw = 100L, n_starts = 4L) {
  adaptive <- identical(plays, "adaptive")
  if (!adaptive && !(is.numeric(plays) && length(plays) >= 1L &&
                     !anyNA(plays) && all(is.finite(plays)) &&
                     all(plays >= 0) &&
                     all(plays == round(plays)))) {
    stop_arg("plays", "\"adaptive\" or whole numbers >= 0", plays)
  }
  cc <- check_cvs_common(beta, n_samples, n_raw, n_starts)
  label <- if (adaptive) "ETC-Ada" else
    sprintf("ETC-%s", paste(plays, collapse = "/"))
  groups_of <- function(pr) {
    cs <- pr$control_costs
    g <- sort(unique(cs[cs < max(cs)]))
    target <- if (adaptive) floor(4 / g + 1e-9) else {
      if (length(plays) != 1L && length(plays) != length(g)) {
        stop_costbo(sprintf("`plays` has %d values for %d cost groups",
                            length(plays), length(g)))
      }
      rep_len(plays, length(g))
    }
    list(cost = g, target = target)
  }
  propose <- function(state) {
    pr <- state$problem
    mem <- state$memory
    grp <- groups_of(pr)
    k <- which(mem$played < grp$target)[1L]
    full <- cvs_full_set(pr)
    if (!is.na(k)) {
      sets <- which(pr$control_costs == grp$cost[k])
      mem$played[k] <- mem$played[k] + 1L
    } else if (!is.na(full)) {
      sets <- full
    } else {
      sets <- seq_along(pr$control_sets)
    }
    a <- cvs_all_sets(state, sets, mem$Z, cc$beta, cc$n_raw, cc$n_starts)
    j <- which.max(a$value)
    list(x = a$x[[j]], control_set = sets[j],
         info = list(expected_ucb = a$value[j],
                     explore = as.double(!is.na(k))),
         memory = mem)
  }
  new_cvs_policy("etc", label, propose, cvs_ucb_acquisition(cc$beta),
                 init = function(state) {
                   list(Z = cvs_init_samples(state, cc$n_samples),
                        played = integer(length(groups_of(state$problem)$cost)))
                 },
                 params = c(list(plays = if (adaptive) "4 / cost" else plays),
                            cc))
}

#' @rdname policy_ucb_cvs
#' @export
policy_ucb_psq <- function(beta = 2, n_samples = 1024L, n_raw = 100L,
                           n_starts = 4L) {
  cc <- check_cvs_common(beta, n_samples, n_raw, n_starts)
  propose <- function(state) {
    pr <- state$problem
    full <- cvs_full_set(pr)
    sets <- if (is.na(full)) seq_along(pr$control_sets) else full
    a <- cvs_all_sets(state, sets, state$memory$Z, cc$beta, cc$n_raw,
                      cc$n_starts)
    j <- which.max(a$value)
    list(x = a$x[[j]], control_set = sets[j],
         info = list(expected_ucb = a$value[j]), memory = state$memory)
  }
  new_cvs_policy("ucb_psq", "UCB-PSQ", propose, cvs_ucb_acquisition(cc$beta),
                 init = function(state) {
                   list(Z = cvs_init_samples(state, cc$n_samples))
                 },
                 params = cc)
}

#' @rdname policy_ucb_cvs
#' @param n_features Number of random Fourier features of TS-PSQ's
#'   posterior samples.
#' @export
policy_ts_psq <- function(n_features = 1024L, n_samples = 1024L,
                          n_raw = 100L, n_starts = 4L) {
  n_features <- check_count_max(n_features, 1L, 1e5, arg = "n_features")
  cc <- check_cvs_common(0, n_samples, n_raw, n_starts)
  propose <- function(state) {
    pr <- state$problem
    g <- rff_posterior_sample(state$models$f, n_features)
    full <- cvs_full_set(pr)
    sets <- if (is.na(full)) seq_along(pr$control_sets) else full
    out <- lapply(sets, function(i) {
      rff_maximize(g, pr$control_sets[[i]], pr$d, state$memory$Z, cc$n_raw,
                   cc$n_starts)
    })
    vals <- vapply(out, `[[`, 0, "value")
    j <- which.max(vals)
    model <- state$models$f
    ctrl <- pr$control_sets[[sets[j]]]
    range <- model$upper - model$lower
    list(x = model$lower[ctrl] + range[ctrl] * out[[j]]$x,
         control_set = sets[j],
         info = list(sample_value = model$ymean + model$ysd * vals[j]),
         memory = state$memory)
  }
  new_cvs_policy("ts_psq", "TS-PSQ", propose, cvs_ucb_acquisition(2),
                 init = function(state) {
                   list(Z = cvs_init_samples(state, cc$n_samples))
                 },
                 params = c(list(n_features = n_features), cc[-1L]))
}

# A posterior sample of a fitted GP (internal, standardized scale, unit
# cube) by random Fourier features: f(x) = m + phi(x)' theta with theta from
# the weight-space posterior, drawn by Matheron's rule theta = theta0 +
# Phi' (Phi Phi' + s2 I)^{-1} (y - m - Phi theta0 - e). R's RNG: the
# features (as gp_prior_sample()), then theta0, then e.
rff_posterior_sample <- function(model, n_features) {
  gp_require(model, "prior_sample", arg = "model")
  d <- model$d
  hyp <- model$hyp
  ell <- hyp[seq_len(d)]
  sf2 <- hyp[d + 1L]
  s2 <- hyp[d + 2L] + hyp[d + 4L]
  m0 <- hyp[d + 3L]
  M <- n_features
  z <- rff_spectral(matrix(stats::rnorm(M * d), M, d), model$kernel)
  omega <- sweep(z, 2L, ell, "/")
  phase <- stats::runif(M, 0, 2 * pi)
  scale <- sqrt(2 * sf2 / M)
  theta0 <- stats::rnorm(M)
  e <- stats::rnorm(model$n, sd = sqrt(s2))
  Phi <- scale * cos(sweep(model$Xs %*% t(omega), 2L, phase, "+"))
  r <- model$ys - m0 - drop(Phi %*% theta0) - e
  K <- tcrossprod(Phi) + diag(s2, model$n)
  theta <- theta0 + drop(crossprod(Phi, solve(K, r)))
  list(omega = omega, phase = phase, theta = theta, scale = scale, mean = m0)
}

rff_value <- function(g, X) {
  g$mean + call_c(C_gp_rff_eval, X, g$omega, g$phase, g$theta, g$scale)
}

rff_grad <- function(g, x) {
  -g$scale * drop(crossprod(g$omega, g$theta *
                              sin(drop(g$omega %*% x) + g$phase)))
}

# Maximize the expected sample E g([x_c, Z]) over x_c in [0, 1]^nc (the
# sample itself for the full set): best of n_raw * nc Sobol points, refined
# by L-BFGS-B from the n_starts * nc best with the analytic gradient.
rff_maximize <- function(g, ctrl, d, Zs, n_raw, n_starts) {
  nc <- length(ctrl)
  if (nc == d) {
    # no expectation: the sample itself, from many more raw points
    Zs <- Zs[1L, , drop = FALSE]
    n_raw <- max(n_raw, 1000L)
    n_starts <- max(n_starts, 2L)
  }
  S <- nrow(Zs)
  full <- function(xc) {
    X <- Zs
    X[, ctrl] <- rep(xc, each = S)
    X
  }
  fn <- function(xc) mean(rff_value(g, full(xc)))
  gr <- function(xc) {
    X <- full(xc)
    P <- sweep(X %*% t(g$omega), 2L, g$phase, "+")
    dv <- -g$scale * (sin(P) %*% (g$theta * g$omega[, ctrl, drop = FALSE]))
    colMeans(dv)
  }
  raw <- sobol_unit(n_raw * nc, nc)
  vals <- if (nc == d) rff_value(g, raw) else
    apply(raw, 1L, fn)
  best <- raw[which.max(vals), ]
  best_v <- max(vals)
  for (s in order(vals, decreasing = TRUE)[seq_len(min(n_starts * nc,
                                                        nrow(raw)))]) {
    o <- stats::optim(raw[s, ], fn, gr, method = "L-BFGS-B", lower = 0,
                      upper = 1, control = list(fnscale = -1, maxit = 200L))
    if (o$value > best_v) {
      best_v <- o$value
      best <- o$par
    }
  }
  list(x = best, value = best_v)
}
