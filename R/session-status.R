# Where a session (or a run) stands: the budget left, whether it is
# finished, and the summary and plot of a session through those of runs.

#' The budget left, and whether a session or run is finished
#'
#' `budget_left()` is the budget minus what has been charged to it,
#' `budget - spent` (negative when a measured cost ran over the budget).
#' `is_finished()` says whether nothing more can be paid for: a session is
#' finished when its budget is spent (`spent >= budget`), and [bo_ask()]
#' then signals an error of class `costbo_error_budget` instead of
#' proposing; a run is finished when it stopped because its budget was
#' spent (`stop_code == "budget"`, see [bo_optimize()]), not when it
#' stopped for another reason that [bo_resume()] can go past.
#'
#' @param x A `bo_session` or a `bo_run`.
#' @param ... Unused.
#' @return `budget_left()`: a number. `is_finished()`: `TRUE` or `FALSE`.
#' @family sessions
#' @examples
#' prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
#'                    cost = function(x) 1 + x, budget = 3)
#' init <- data.frame(x1 = c(0.1, 0.5, 0.9), value = c(0.2, 0.8, 0.1))
#' s <- bo_session(prob, policy_ei_pu(), initial = init,
#'                 charge_initial = FALSE)
#' while (!is_finished(s)) {
#'   x <- tryCatch(bo_ask(s), costbo_error_budget = function(e) NULL)
#'   if (is.null(x)) break # the next point would not fit
#'   s <- bo_tell(s, x, value = sin(6 * as.numeric(x)))
#'   cat("spent", s$spent, "left", budget_left(s), "\n")
#' }
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

#' @rdname budget_left
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
