# Problems with control sets (Tay et al. 2023, paper 003; class
# "bo_problem_cvs", see problem-questions.R): a step chooses a control set
# and the values of its inputs (the partial query); the other inputs are
# drawn from their distributions when the step is realized, and the step
# costs the control set's cost. The initial design evaluates full queries at
# the largest control-set cost.

problem_step.bo_problem_cvs <- function(problem, p, state) {
  new_step(p$x, control_set = p$control_set)
}

problem_price.bo_problem_cvs <- function(problem, step) {
  if (is.na(step$control_set)) return(NextMethod())
  list(cost = problem$control_costs[step$control_set], message = "")
}

problem_decline.bo_problem_cvs <- function(problem, step, cost, info) {
  list(reason = "budget spent: the chosen control set would not fit",
       declined = list(x = step$x, control_set = step$control_set,
                       cost = cost, info = info))
}

# A realized query is random: a partial query that failed before may well
# succeed.
problem_repeats_failure.bo_problem_cvs <- function(problem, state, step) {
  FALSE
}

problem_realize.bo_problem_cvs <- function(problem, step) {
  step$x <- cvs_realize(problem, step$x, step$control_set)
  step
}

# The realized random inputs, and the expected noise-free objective of the
# chosen (control set, partial query) for the regret.
problem_record.bo_problem_cvs <- function(problem, state, step) {
  x <- step$x
  i <- step$control_set
  random <- rep(NA_real_, problem$d)
  expected <- NA_real_
  if (!is.na(i)) {
    ctrl <- problem$control_sets[[i]]
    random[-ctrl] <- x[-ctrl]
    if (!is.null(problem$noise_free)) {
      expected <- cvs_expected_value(problem, x[ctrl], i)
    }
  } else if (!is.null(problem$noise_free)) {
    expected <- problem$noise_free(matrix(x, 1L))
  }
  state$control_set <- c(state$control_set, i)
  state$random <- rbind(state$random, random, deparse.level = 0L)
  state$expected <- c(state$expected, expected)
  state
}

problem_accepts.bo_problem_cvs <- function(problem, policy, call) {
  if (!isTRUE(policy$cvs)) {
    stop_arg("policy", paste("a policy for control sets (policy_ucb_cvs(),",
                             "policy_etc(), policy_ucb_psq(), policy_ts_psq())",
                             "for a problem with control sets"),
             policy$label, call = call)
  }
  invisible(TRUE)
}

# bo_tell() takes the realized full query `x` with the point bo_ask()
# returned (`asked`, or `x` itself when it is that point), which carries the
# control set; the cost is the set's.
problem_tell.bo_problem_cvs <- function(problem, x, xm, index, cost, asked,
                                        call) {
  src <- x
  if (!is.null(asked)) {
    if (!inherits(asked, "bo_point") || is.null(attr(asked, "control_set"))) {
      stop_arg("asked", "the point bo_ask() returned", asked, call = call)
    }
    src <- asked
  }
  i <- attr(src, "control_set")
  if (is.null(i)) {
    stop_arg("asked", paste("given (the point bo_ask() returned) for a",
                            "problem with control sets"), NULL, show = FALSE,
             call = call)
  }
  ctrl <- problem$control_sets[[i]]
  if (!is.null(asked) && any(abs(xm[1L, ctrl] - as.double(asked)) >
                             1e-8 * (problem$upper[ctrl] -
                                       problem$lower[ctrl]))) {
    stop_arg("x", "equal to the asked point in the controlled inputs", x,
             call = call)
  }
  cc <- problem$control_costs[i]
  if (!is.null(cost) && !isTRUE(all.equal(as.double(cost), cc))) {
    stop_arg("cost", sprintf("NULL or the control set's cost %g", cc), cost,
             call = call)
  }
  list(step = new_step(xm[1L, ], control_set = i), cost = cc, src = src)
}

problem_ask_point.bo_problem_cvs <- function(problem, step, p) {
  x <- step$x
  names(x) <- paste0("x", problem$control_sets[[step$control_set]])
  x
}

problem_columns.bo_problem_cvs <- function(problem, run, df) {
  df$control_set <- run$control_set
  R <- run$random
  colnames(R) <- paste0("random_x", seq_len(problem$d))
  df <- cbind(df, as.data.frame(R))
  if (!is.null(problem$noise_free)) {
    df$expected_value <- user_value(problem, run$expected)
    df$simple_regret <- cvs_simple_regret(run)
  }
  df
}

# The simple regret of the chosen control sets and partial queries.
problem_regret.bo_problem_cvs <- function(problem, run, best_value) {
  sr <- cvs_simple_regret(run)
  list(value = if (length(sr)) sr[length(sr)] else NA_real_,
       what = "expected")
}

# The simple regret of Tay et al. (2023) after each evaluation of the
# optimization phase: optimum minus the best expected noise-free objective of
# the chosen (control set, partial query) so far; NA without it.
cvs_simple_regret <- function(x) {
  pr <- x$problem
  n <- length(x$value)
  if (is.null(pr$noise_free) || is.null(pr$optimum)) {
    return(rep(NA_real_, n))
  }
  e <- ifelse(x$phase == "bo", x$expected, -Inf)
  r <- pr$optimum - cummax(e)
  r[!is.finite(r)] <- NA_real_
  r
}

problem_regret_curve.bo_problem_cvs <- function(problem, run) {
  if (is.null(problem$noise_free) || is.null(problem$optimum)) return(NULL)
  cvs_simple_regret(run)
}

problem_cost_label.bo_problem_cvs <- function(problem) {
  sets <- vapply(problem$control_sets, function(s) {
    paste0("{", paste(s, collapse = ","), "}")
  }, "")
  paste0("by control set: ", paste0(sets, " ", format(problem$control_costs),
                                    collapse = ", "))
}

is_cvs <- function(problem) inherits(problem, "bo_problem_cvs")

# Validate control sets, costs and distributions; returns the problem fields.
check_cvs <- function(control_sets, control_costs, distributions, variance,
                      noise_free, d, lower, upper, call = sys.call(-1L)) {
  if (!is.list(control_sets) || length(control_sets) == 0L) {
    stop_arg("control_sets", "a non-empty list of vectors of input indices",
             control_sets, call = call)
  }
  sets <- lapply(seq_along(control_sets), function(i) {
    s <- control_sets[[i]]
    ok <- is.numeric(s) && length(s) >= 1L && !anyNA(s) &&
      all(s == round(s)) && all(s >= 1 & s <= d) && !anyDuplicated(s)
    if (!ok) {
      stop_arg(sprintf("control_sets[[%d]]", i),
               sprintf("distinct whole numbers in 1..%d", d), s, call = call)
    }
    sort(as.integer(s))
  })
  keys <- vapply(sets, paste, "", collapse = ",")
  if (anyDuplicated(keys)) {
    stop_arg("control_sets", "free of duplicated sets", show = FALSE,
             call = call)
  }
  if (is.null(control_costs)) {
    stop_arg("control_costs", "given with `control_sets`", NULL, show = FALSE,
             call = call)
  }
  control_costs <- check_vector(control_costs, arg = "control_costs",
                                call = call)
  check_same_length(c(control_sets = length(sets),
                      control_costs = length(control_costs)), call = call)
  if (any(control_costs <= 0)) {
    stop_arg("control_costs", "positive", control_costs, call = call)
  }
  full_rng <- upper - lower
  if (is.function(distributions)) {
    distributions <- rep(list(distributions), d)
  }
  if (is.null(distributions)) distributions <- vector("list", d)
  if (!is.list(distributions) || length(distributions) != d) {
    stop_arg("distributions",
             sprintf(paste("NULL, a quantile function or a list of %d of",
                           "them (one per input of [`lower`, `upper`])"), d),
             distributions, call = call)
  }
  variance <- if (length(variance) == 1L) rep(variance, d) else variance
  variance <- check_vector(variance, arg = "variance", call = call)
  if (length(variance) != d) {
    stop_arg("variance", sprintf(
      "of length 1 or %d (one per input of [`lower`, `upper`])", d),
      variance, call = call)
  }
  quantiles <- vector("list", d)
  for (j in seq_len(d)) {
    q <- distributions[[j]]
    if (is.null(q)) {
      # truncnorm_scale() finds the normal's scale in [1e-4, 1e3]: the
      # smallest variance it reaches is that of scale 1e-4 (1e-8, as
      # uniroot() evaluates it)
      if (any(variance < truncnorm_variance(0.5, exp(log(1e-4)))) ||
          any(variance >= 1 / 12)) {
        stop_arg("variance", "in (1e-8, 1/12) (on the unit interval)",
                 variance, call = call)
      }
      quantiles[[j]] <- truncnorm_quantile(0.5, variance[j], lower[j],
                                           upper[j])
      next
    }
    arg <- sprintf("distributions[[%d]]", j)
    if (!is.function(q)) {
      stop_arg(arg, "NULL or a quantile function", q, call = call)
    }
    p <- c(0.001, 0.25, 0.5, 0.75, 0.999)
    v <- tryCatch(q(p), error = function(e) NULL)
    tol <- 1e-10 * full_rng[j]
    if (!(is.numeric(v) && length(v) == length(p) && all(is.finite(v)) &&
          all(diff(v) >= 0) && all(v >= lower[j] - tol) &&
          all(v <= upper[j] + tol))) {
      stop_arg(arg, paste("a vectorized quantile function with finite,",
                          "non-decreasing values inside [lower, upper]"),
               show = FALSE, call = call)
    }
    quantiles[[j]] <- q
  }
  if (!is.null(noise_free) && !is.function(noise_free)) {
    stop_arg("noise_free", "NULL or a function of a matrix of points",
             noise_free, call = call)
  }
  list(control_sets = sets, control_costs = control_costs,
       quantiles = quantiles, noise_free = noise_free)
}

# Quantile function of N(mean, s^2) truncated to [lower, upper] whose
# variance is `variance` * (upper - lower)^2, i.e. `variance` on the unit
# interval (the paper's parameterization: the truncated distribution's own
# variance).
truncnorm_quantile <- function(mean_unit, variance, lower, upper) {
  s <- truncnorm_scale(variance, mean_unit)
  a <- stats::pnorm(-mean_unit / s)
  b <- stats::pnorm((1 - mean_unit) / s)
  rng <- upper - lower
  f <- function(p) {
    lower + rng * pmin(pmax(mean_unit + s * stats::qnorm(a + p * (b - a)), 0),
                       1)
  }
  structure(f, costbo_dist = sprintf("truncated normal, variance %g", variance))
}

# Variance of N(m, s^2) truncated to [0, 1].
truncnorm_variance <- function(m, s) {
  al <- -m / s
  be <- (1 - m) / s
  z <- stats::pnorm(be) - stats::pnorm(al)
  s^2 * (1 + (al * stats::dnorm(al) - be * stats::dnorm(be)) / z -
           ((stats::dnorm(al) - stats::dnorm(be)) / z)^2)
}

truncnorm_scale <- function(variance, m = 0.5) {
  exp(stats::uniroot(function(ls) truncnorm_variance(m, exp(ls)) - variance,
                     c(log(1e-4), log(1e3)), tol = 1e-12)$root)
}

# Draw the random inputs of control set i (R's RNG, one uniform per random
# coordinate, in increasing index order) and return the full query.
cvs_realize <- function(problem, partial, i) {
  x <- double(problem$d)
  ctrl <- problem$control_sets[[i]]
  x[ctrl] <- partial
  for (j in setdiff(seq_len(problem$d), ctrl)) {
    x[j] <- problem$quantiles[[j]](stats::runif(1L))
  }
  x
}

# n samples of all inputs from their distributions (problem scale): scrambled
# Sobol points through the quantile functions.
cvs_samples <- function(problem, n) {
  U <- sobol_unit(n, problem$d)
  # a matrix also for n = 1 (vapply() then returns a vector)
  matrix(vapply(seq_len(problem$d), function(j) problem$quantiles[[j]](U[, j]),
                numeric(n)), n)
}

# Expected noise-free objective of (i, partial) over the problem's fixed
# regret samples.
cvs_expected_value <- function(problem, partial, i) {
  ctrl <- problem$control_sets[[i]]
  if (length(ctrl) == problem$d) {
    return(problem$noise_free(matrix(partial, 1L)))
  }
  Z <- problem$regret_samples
  Z[, ctrl] <- rep(partial, each = nrow(Z))
  mean(problem$noise_free(Z))
}

# the policies price their own choices: no budget-feasible replacement
# (the rule "stop")
problem_candidates.bo_problem_cvs <- function(problem, n) NULL
