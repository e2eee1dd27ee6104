# Problems with control sets (Tay et al. 2023, paper 003; class
# "bo_problem_cvs", see problem-questions.R): a step chooses a control set
# and the values of its inputs (the partial query); the other inputs are
# drawn from their distributions when the step is realized, and the step
# costs the control set's cost. The initial design evaluates full queries at
# the largest control-set cost.

problem_step.bo_problem_cvs <- function(problem, p) {
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
    df$expected_value <- run$expected
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
