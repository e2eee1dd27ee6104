# Where a session (or a run) stands: the budget left, whether it is
# finished (and the error of bo_ask() when nothing more can be paid for),
# and the summary and plot of a session through those of runs.

#' The budget left to a session or a run
#'
#' `budget_left()` is the budget minus what has been charged to it,
#' `x$budget - x$spent`, in the units of the budget.
#'
#' Charged to the budget are the costs of the evaluations recorded: told
#' to a session by [bo_tell()], or made by a run. That includes the initial
#' design costbo runs or proposes, unless `charge_initial = FALSE` in
#' [bo_optimize()] (then its costs are not charged and the budget is the
#' optimization phase's alone), but not a session's `initial` points (a
#' lab's history), unless `bo_session(charge_initial = TRUE)` (see
#' [bo_budget]); a failed evaluation whose cost is known,
#' and, with control sets or information sources, the cost of the chosen
#' control set or source. A value told with a missing or invalid measured
#' cost is not charged. Points asked by [bo_ask()] and not yet told are not
#' charged: `budget_left()` does not count them (a later `bo_ask()` does,
#' when it proposes given the pending points).
#'
#' `budget_left()` is negative when the spend ran over the budget, which
#' only a measured cost can do: with `budget_rule = "stop"` the evaluation
#' that crosses the budget is recorded (its cost is known only once paid),
#' and with `"feasible"` the last evaluation, predicted to fit with
#' probability `budget_prob`, can cost more than predicted. A known cost
#' never overruns the budget.
#'
#' @param x A `bo_session` or a `bo_run`.
#' @param ... Unused.
#' @return A single number: the budget left (0 or negative once the budget
#'   is spent).
#' @seealso [is_finished()], whether anything more can be paid for.
#' @family sessions
#' @examples
#' prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
#'                    cost = function(x) 1 + x, budget = 5)
#' init <- data.frame(x1 = c(0.1, 0.5), value = c(0.2, 0.8))
#' # the initial points' costs, 1.1 and 1.5, are history: not charged
#' budget_left(bo_session(prob, policy_ei_pu(), initial = init))
#' budget_left(bo_session(prob, policy_ei_pu(), initial = init,
#'                        charge_initial = TRUE))
#' # a run: the budget less the costs of its evaluations
#' run <- bo_optimize(test_problem("branin", budget = 6), policy_ei(),
#'                    seed = 1, max_evaluations = 1, progress = FALSE)
#' budget_left(run)
#' @export
budget_left <- function(x, ...) {
  if (!inherits(x, c("bo_session", "bo_run"))) {
    stop_arg("x", "a bo_session or a bo_run", x)
  }
  UseMethod("budget_left")
}

#' @export
budget_left.bo_session <- function(x, ...) x$budget - x$spent

#' @export
budget_left.bo_run <- budget_left.bo_session

#' Whether a session or a run is finished
#'
#' `is_finished()` says whether nothing more can be paid for with the
#' budget: for a session, whether [bo_ask()] has nothing left to propose
#' within the budget; for a run, whether it stopped because its budget was
#' spent.
#'
#' @section Sessions:
#' A `bo_session` is finished when
#' * its budget is spent, `spent >= budget` ([budget_left()] is 0 or
#'   negative), under either `budget_rule`; or
#' * with `budget_rule = "feasible"` (the default of [bo_session()]), no
#'   point it could propose fits in the budget left: no candidate point
#'   (scrambled Sobol points of the box and, with a known cost, its corners;
#'   the valid points of a typed space; the candidates of a finite domain)
#'   has a known cost at most the budget left or, for a measured cost, a
#'   cost that the GP of the log cost fitted for the last proposal predicts
#'   to fit with probability at least `budget_prob` (before the costs can
#'   be modelled, when the geometric mean of the costs seen exceeds the
#'   budget left; before any cost is seen, every point fits).
#'
#' With `budget_rule = "stop"`, and for problems with control sets or
#' information sources (whose policies price their own choices and always
#' follow `"stop"`), only a spent budget finishes a session. Points asked
#' and not yet told are not charged (see [budget_left()]) and do not make a
#' session finished. A new session, without points or with uncharged
#' initial points (the default of [bo_session()]), is not finished.
#' `is_finished()` does not move the caller's random-number stream.
#'
#' [bo_ask()] on a finished session signals an error of class
#' `costbo_error_budget`. A session that is not finished can still have
#' `bo_ask()` refuse with that error, whose message then says that the
#' session is not finished: when the costs of its pending points leave too
#' little for another, when the policy's own point does not fit and the
#' rule `"stop"` proposes no other, or when the models refitted to the
#' points told since the last proposal predict that no point fits.
#'
#' @section Runs:
#' A `bo_run` (of [bo_optimize()], [bo_resume()] or the mlr3 tuner) is
#' finished when it stopped because of its budget, `stop_code ==
#' "budget"` (the budget is spent, or no point, control set or source fits
#' in what is left by the rule of `budget_rule`, so the spend can be below
#' the budget), or when its spend reached the budget, `spent >= budget`,
#' whatever stopped it. A run that stopped for another reason with budget
#' left (`stop_code` `"max_evaluations"`, `"pandora"`, `"policy_failed"`,
#' `"objective_failed"`, `"cost_failed"`, `"repeated_failure"`,
#' `"exhausted"`, `"interrupted"`, or `"terminated"` by the terminator of
#' an mlr3 instance; see [bo_optimize()]) is not finished: [bo_resume()]
#' can continue it from its checkpoint, e.g. with a larger
#' `max_evaluations`.
#'
#' @param x A `bo_session` or a `bo_run`.
#' @param ... Unused.
#' @return `TRUE` or `FALSE`.
#' @seealso [budget_left()], the budget left.
#' @family sessions
#' @examples
#' prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
#'                    cost = function(x) 1 + x, budget = 3)
#' init <- data.frame(x1 = c(0.1, 0.5), value = c(0.2, 0.8))
#' # charged, the initial points leave 0.4: a cost of at least 1 cannot fit
#' s <- bo_session(prob, policy_ei_pu(), initial = init, charge_initial = TRUE)
#' budget_left(s)
#' is_finished(s)
#' # under the rule "stop" only a spent budget finishes a session; bo_ask()
#' # refuses the point that does not fit, saying the session is not finished
#' s <- bo_session(prob, policy_ei_pu(), initial = init, budget_rule = "stop",
#'                 charge_initial = TRUE)
#' is_finished(s)
#' tryCatch(bo_ask(s), costbo_error_budget = conditionMessage)
#'
#' # ask and tell until the session is finished
#' s <- bo_session(prob, policy_ei_pu(), initial = init)
#' while (!is_finished(s)) {
#'   x <- bo_ask(s)
#'   s <- bo_tell(s, x, value = sin(6 * as.numeric(x)))
#'   cat("spent", s$spent, "left", budget_left(s), "\n")
#' }
#'
#' # runs: finished when the budget stopped them
#' prob <- test_problem("branin", budget = 6)
#' part <- bo_optimize(prob, policy_ei(), seed = 1, max_evaluations = 1,
#'                     progress = FALSE)
#' c(part$stop_code, is_finished(part))
#' full <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE)
#' c(full$stop_code, is_finished(full))
#' @export
is_finished <- function(x, ...) {
  if (!inherits(x, c("bo_session", "bo_run"))) {
    stop_arg("x", "a bo_session or a bo_run", x)
  }
  UseMethod("is_finished")
}

#' @export
is_finished.bo_session <- function(x, ...) {
  x$spent >= x$budget || !session_affordable(x)
}

#' @export
is_finished.bo_run <- function(x, ...) {
  identical(x$stop_code, "budget") || x$spent >= x$budget
}

# Whether anything the session could propose is affordable with the budget
# left, by the budget-feasible rule (budget_fits() on the candidates of
# budget_feasible_proposal(), with the models of the last proposal): FALSE
# ends the session (is_finished(), bo_ask()). TRUE under the rule "stop" and
# for problems whose policies price their own choices. The candidates'
# scrambling does not move the caller's random-number stream. The
# candidates are priced in blocks of 256, up to the first block with one
# that fits (a known cost is called once per candidate priced).
session_affordable <- function(state) {
  if (state_budget_rule(state) != "feasible") return(TRUE)
  saved <- save_rng()
  on.exit(restore_rng(saved))
  pr <- state$problem
  X <- problem_candidates(pr, budget_candidate_count(pr, TRUE))
  if (is.null(X)) return(TRUE)
  remaining <- state$budget - state$spent
  n <- nrow(X)
  for (from in seq_len(ceiling(n / 256L)) * 256L - 255L) {
    rows <- from:min(n, from + 255L)
    if (any(budget_fits(state, X[rows, , drop = FALSE], remaining,
                        state$budget_prob))) {
      return(TRUE)
    }
  }
  FALSE
}

# bo_ask() of a finished session: an error of class costbo_error_budget.
check_session_budget <- function(session) {
  if (session$spent >= session$budget) {
    stop_budget(session, "the budget is spent")
  }
  if (!session_affordable(session)) {
    stop_budget(session, "nothing affordable remains")
  }
  invisible(session)
}

# bo_ask() when nothing more can be paid for: an error of class
# costbo_error_budget naming the budget, the spend and what is left, and
# whether the session is finished (is_finished()). It is not when the
# pending points' costs leave too little, when the policy's point does not
# fit and the rule "stop" proposes no other (control sets and information
# sources follow it too), or when the models refitted to the points told
# since the last proposal find no point that fits.
stop_budget <- function(session, what, call = sys.call(-1L)) {
  status <- if (is_finished(session)) {
    "the session is finished (is_finished())"
  } else if (length(session$pending)) {
    paste("the session is not finished (is_finished()): tell the pending",
          "points, then ask again")
  } else if (state_budget_rule(session) == "stop" ||
             inherits(session$problem,
                      c("bo_problem_cvs", "bo_problem_miso"))) {
    paste("the session is not finished (is_finished()), but the policy's",
          "point does not fit and the rule \"stop\" proposes no other")
  } else {
    paste("the session is not finished (is_finished(), by the models of",
          "the last proposal), but by the models refitted to the points",
          "told since, no point fits")
  }
  msg <- sprintf("%s: %s of the budget %s is spent, %s is left; %s",
                 what, format(signif(session$spent, 6)),
                 format(signif(session$budget, 6)),
                 format(signif(session$budget - session$spent, 6)), status)
  stop(costbo_condition(c("costbo_error_budget", "costbo_error"), msg,
                        user_call(call)))
}

# Where a session stands, as a run's stop_code and stop_reason: "budget"
# when it is finished, NA while it is not.
session_status <- function(session) {
  left <- budget_left(session)
  if (is_finished(session)) {
    return(list(code = "budget", reason = if (left <= 0) {
      "the budget is spent"
    } else "nothing affordable remains"))
  }
  n <- length(session$pending)
  list(code = NA_character_, reason = sprintf(
    "not yet: %s of the budget is left%s", format(left, digits = 4),
    if (n) sprintf(" (%d asked point%s pending)", n,
                   if (n > 1L) "s" else "") else ""))
}

# A session as a run, for the run's reports (summary(), plot()).
as_run <- function(session) {
  status <- session_status(session)
  run <- unclass(session)
  run$stop_code <- status$code
  run$stop_reason <- status$reason
  structure(run, class = "bo_run")
}

# The line print() of a session gives on where it stands.
print_session_status <- function(x) {
  cat(sprintf("  %s\n", if (is_finished(x)) {
    paste("finished:", session_status(x)$reason)
  } else session_status(x)$reason))
}

#' Summarize and plot a session
#'
#' The summary and the plots of a run ([summary.bo_run()],
#' [plot.bo_run()]) for the evaluations of a session so far, with where the
#' session stands: the budget left, whether it is finished (see
#' [is_finished()]) and the asked points pending (see [bo_ask()]).
#'
#' @param object,x A `bo_session`.
#' @param ... Passed on to [summary.bo_run()] or [plot.bo_run()] (e.g.
#'   `type = "posterior"`).
#' @return `summary()`: an object of class `summary.bo_session`, a
#'   `summary.bo_run` with `budget_left`, `finished` and `pending` (the
#'   number of asked points pending), whose `stop_reason` says where the
#'   session stands. `plot()`: the plotted data, invisibly (see
#'   [plot.bo_run()]).
#' @family sessions
#' @examples
#' prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
#'                    cost = function(x) 1 + x, budget = 8)
#' init <- data.frame(x1 = c(0.1, 0.5, 0.9), value = c(0.2, 0.8, 0.1))
#' s <- bo_session(prob, policy_ei_pu(), initial = init)
#' x <- bo_ask(s)
#' s <- bo_tell(s, x, value = 0.75)
#' summary(s)
#' plot(s)
#' @export
summary.bo_session <- function(object, ...) {
  out <- summary(as_run(object), ...)
  out$budget_left <- budget_left(object)
  out$finished <- is_finished(object)
  out$pending <- length(object$pending)
  class(out) <- c("summary.bo_session", class(out))
  out
}

#' @export
print.summary.bo_session <- function(x, ...) {
  cat("Ask/tell session: ")
  NextMethod()
}

#' @rdname summary.bo_session
#' @export
plot.bo_session <- function(x, ...) {
  invisible(plot(as_run(x), ...))
}

# A recorded point as print() shows it: x = (x1, ..., xd), or the typed
# point of a typed space (name = value, ...).
format_point <- function(problem, x) {
  v <- problem_point_of(problem, x)
  if (!is.list(v)) {
    return(sprintf("x = (%s)", paste(format(as.double(v), digits = 4),
                                     collapse = ", ")))
  }
  sprintf("(%s)", paste0(names(v), " = ", vapply(v, function(e) {
    if (is.character(e) || is.factor(e)) {
      dQuote(as.character(e), FALSE)
    } else format(e, digits = 4)
  }, ""), collapse = ", "))
}
