# What a run reports: print(), summary() and as.data.frame() of runs and
# sessions.

#' @export
print.bo_run <- function(x, ...) {
  cat(sprintf("Bayesian optimization run: %s on \"%s\"%s\n", x$policy$label,
              x$problem$name,
              if (problem_maximize(x$problem)) "" else " (minimize)"))
  print_state_summary(x)
  print_async(x)
  cat(sprintf("  stopped: %s\n", x$stop_reason))
  if (!is.null(x$id)) cat(sprintf("  run id: %s\n", x$id))
  print_checkpoint_error(x$checkpoint_error)
  invisible(x)
}

# A line on the workers and the clock of an asynchronous run.
print_async <- function(x) {
  if (is.null(x$n_workers)) return(invisible())
  cat(sprintf("  %d worker%s; the last evaluation finished at %s %s\n",
              x$n_workers, if (x$n_workers > 1L) "s" else "",
              format(x$clock, digits = 4),
              if (identical(x$timing, "simulated")) "(simulated clock)"
              else "s"))
}

#' Summarize a run
#'
#' @param object A `bo_run`.
#' @param ... Unused.
#' @return An object of class `summary.bo_run`: a list with the best point,
#'   best value (of the objective, source 0, with information sources; the
#'   smallest value of a minimized problem, see `maximize` in
#'   [bo_problem()]), the direction (`maximize`), the known optimum
#'   (`optimum`, in the objective's direction too),
#'   simple regret (`regret`, when the problem's optimum is known; with
#'   control sets, the simple regret of Tay et al. 2023 on the expected
#'   noise-free objective, when the problem records it; `regret_of` says
#'   which: `"optimum"` or `"expected"`), the
#'   spend, the numbers of evaluations (within budget, initial, failed),
#'   the evaluations that ended over the budget (`over_budget`: their row
#'   numbers in [as.data.frame()]; with a measured cost, the one that
#'   crossed it),
#'   the reason the run stopped (`stop_reason`, and `stop_code`: see
#'   [bo_optimize()]) and, when checkpoints could not be written,
#'   `checkpoint_error` (the number of failed writes, the last message and
#'   the number of evaluations then).
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 4), policy_ei(),
#'                    seed = 2, progress = FALSE)
#' summary(run)
#' @export
summary.bo_run <- function(object, ...) {
  object <- upgrade_state(object)
  pr <- object$problem
  df <- as.data.frame(object)
  n_failed <- sum(df$status != "ok")
  ok <- state_objective(object)
  # the best in the internal direction (maximization); reported in the
  # user's
  best_i <- if (any(ok)) which(ok)[which.max(object$value[ok])] else
    NA_integer_
  best_value <- if (is.na(best_i)) NA_real_ else object$value[best_i]
  regret <- problem_regret(pr, object, best_value)
  structure(list(
    problem = pr$name, policy = object$policy$label,
    maximize = problem_maximize(pr),
    best_x = if (is.na(best_i)) NULL else problem_point_of(pr,
                                                           object$X[best_i, ]),
    best_value = user_value(pr, best_value),
    optimum = if (!is.null(pr$optimum)) user_value(pr, pr$optimum),
    regret = regret$value, regret_of = regret$what,
    spent = object$spent, budget = object$budget,
    n = nrow(df), n_initial = sum(df$phase == "initial"),
    n_within_budget = sum(df$within_budget & df$phase == "bo"),
    over_budget = which(!df$within_budget & df$phase == "bo"),
    n_failed = n_failed, stop_reason = object$stop_reason,
    stop_code = object$stop_code,
    checkpoint_error = object$checkpoint_error
  ), class = "summary.bo_run")
}

# A line on the checkpoint writes that failed, if any.
print_checkpoint_error <- function(err) {
  if (is.null(err)) return(invisible())
  cat(sprintf("  checkpoint:  %d write%s failed (last after evaluation %d: %s)\n",
              err$n, if (err$n == 1L) "" else "s", err$evaluations,
              err$message))
}

#' @export
print.summary.bo_run <- function(x, digits = max(3L, getOption("digits") - 3L),
                                 ...) {
  digits <- check_digits(digits)
  cat(sprintf("%s on \"%s\"%s\n", x$policy, x$problem,
              if (isFALSE(x$maximize)) " (minimize)" else ""))
  cat(sprintf("  best value:  %s\n", format(x$best_value, digits = digits)))
  if (!is.null(x$best_x)) {
    cat(sprintf("  best point:  (%s)\n", if (is.list(x$best_x)) {
      paste0(names(x$best_x), " = ", vapply(x$best_x, function(v) {
        if (is.character(v)) v else format(v, digits = digits)
      }, ""), collapse = ", ")
    } else paste(format(x$best_x, digits = digits), collapse = ", ")))
  }
  if (!is.na(x$regret) && identical(x$regret_of, "expected")) {
    cat(sprintf("  regret:      %s (simple regret of the expected objective; optimum %s)\n",
                format(x$regret, digits = digits),
                format(x$optimum, digits = digits)))
  } else if (!is.na(x$regret)) {
    cat(sprintf("  regret:      %s (known optimum %s)\n",
                format(x$regret, digits = digits),
                format(x$optimum, digits = digits)))
  }
  cat(sprintf("  spent:       %s of budget %s\n",
              format(x$spent, digits = digits), format(x$budget, digits = digits)))
  over <- if (length(x$over_budget)) {
    sprintf(", %d over budget (#%s)", length(x$over_budget),
            paste(x$over_budget, collapse = ", #"))
  } else ""
  cat(sprintf("  evaluations: %d (%d initial, %d within budget after them%s, %d failed)\n",
              x$n, x$n_initial, x$n_within_budget, over, x$n_failed))
  cat(sprintf("  stopped:     %s\n", x$stop_reason))
  print_checkpoint_error(x$checkpoint_error)
  invisible(x)
}

#' One row per evaluation of a run or session
#'
#' @param x A `bo_run` or `bo_session`.
#' @param row.names,optional Passed on to [as.data.frame()].
#' @param ... Unused.
#' @return A data frame with columns `x1`, ..., `xd`, `value` (the
#'   objective's value as the objective returned it, also for a minimized
#'   problem: see `maximize` in [bo_problem()]), `cost`,
#'   `cumulative_cost` (charged costs only), `within_budget`, `phase`
#'   (`"initial"` or `"bo"`), `status` (`"ok"` or `"error"`), `message`,
#'   `cost_valid` (`FALSE` when no valid cost is known: the known cost
#'   function failed at the point, which was then not evaluated, or a
#'   measured cost was missing, not a positive number, or not reported
#'   because the objective failed; the cost is then `NA` and not charged,
#'   and a valid value reported with an invalid measured cost is kept with
#'   status `"ok"`), `best_value` (the best successful value so far, of the
#'   objective itself, source 0, with information sources: the largest, or
#'   the smallest for a minimized problem; `NA` before the first),
#'   `fit_time`, `policy_time`, `rule_time`, `eval_time` (seconds spent
#'   fitting the models, in the policy, in the budget rule of
#'   `budget_rule` (checking that the proposal fits and, when it does not,
#'   choosing among the points that do; see [bo_optimize()]) and in the
#'   evaluation; the first three are `NA` for the initial design, and
#'   `rule_time` also for evaluations recorded before costbo recorded it),
#'   then the policy's diagnostics (e.g. `acquisition`, `lambda`). With control sets, after
#'   `eval_time`: `control_set` (the index of the chosen set, `NA` for the
#'   initial design), `random_x1`, ..., `random_xd` (the realized random
#'   inputs, `NA` where controlled), and when the problem records its
#'   noise-free objective `expected_value` (of the chosen set and partial
#'   query) and `simple_regret`. With information sources, after
#'   `eval_time`: `source` (0 for the objective). Before the policy's
#'   diagnostics, every run and session has `cost_predicted`, `cost_lower`,
#'   `cost_upper` and `prob_fit`: what the step's cost was predicted to be
#'   when it was decided (median, 90% interval and probability of fitting
#'   in the budget left; `NA` for the initial design; see the section on
#'   what a run records in [bo_optimize()]).
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 3), policy_ei_pu(),
#'                    seed = 3, progress = FALSE)
#' as.data.frame(run)
#' @export
as.data.frame.bo_run <- function(x, row.names = NULL, optional = FALSE,
                                 ...) {
  n <- length(x$value)
  X <- x$X
  colnames(X) <- paste0("x", seq_len(x$problem$d))
  cum <- cumsum(ifelse(x$charged, x$cost, 0))
  pr <- x$problem <- upgrade_problem(x$problem)
  best <- cummax(ifelse(state_objective(x), x$value, -Inf))
  best[!is.finite(best)] <- NA_real_
  df <- data.frame(X, value = user_value(pr, x$value), cost = x$cost,
                   cumulative_cost = cum,
                   within_budget = cum <= x$budget * (1 + 1e-12),
                   phase = x$phase, status = x$status, message = x$message,
                   cost_valid = !is.na(x$cost),
                   best_value = user_value(pr, best), fit_time = x$fit_time,
                   policy_time = x$policy_time,
                   rule_time = state_rule_time(x),
                   eval_time = x$eval_time, stringsAsFactors = FALSE)
  if (!is.null(x$launch)) {
    # an asynchronous run (bo_async): launch order, worker and clock times
    df$launch <- x$launch
    df$worker <- x$worker
    df$t_launch <- x$t_launch
    df$t_done <- x$t_done
  }
  df <- problem_columns(pr, x, df)
  df <- cost_record_df(x, df)
  keys <- unique(unlist(lapply(x$info, names)))
  for (k in keys) {
    df[[k]] <- vapply(x$info, function(i) {
      v <- i[[k]]
      if (is.null(v) || length(v) != 1L) NA_real_ else as.double(v)
    }, numeric(1))
  }
  row.names <- check_row_names(row.names, nrow(df))
  if (!is.null(row.names)) row.names(df) <- row.names
  if (n == 0L) df <- df[0, , drop = FALSE]
  df
}

#' @rdname as.data.frame.bo_run
#' @export
as.data.frame.bo_session <- as.data.frame.bo_run
