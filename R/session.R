# Ask-and-tell sessions: the state of state.R driven by an experimenter
# instead of an objective: bo_session(), bo_ask(), bo_tell() and
# bo_acquisition().

#' Ask-and-tell sessions for real experiments
#'
#' A session holds the state of a cost-aware optimization whose evaluations
#' happen outside R: in the lab, on a cluster, or by hand. `bo_ask()` fits the
#' models and returns the point the policy proposes next; the experiment is
#' run; `bo_tell()` records its value and cost. Sessions are plain R objects:
#' save them with [saveRDS()] between experiments and load them with
#' [readRDS()].
#'
#' A failed experiment (`value = NA` in `bo_tell()`) informs the next
#' proposals as in [bo_optimize()] (see its section on failures): the
#' objective's model takes the failed point at the worst value observed, so
#' `bo_ask()` does not propose it, or points near it, again.
#' `bo_session()` checks the settings the session will need (`gp_args`, and
#' whether the policy suits the problem) at once, as [bo_optimize()] does.
#'
#' @param problem A [bo_problem()]. Its objective is not called by a session
#'   (give any function, e.g. `function(x) NA`).
#' @param policy A policy, e.g. [policy_ei_pu()].
#' @param initial Optional data frame of points already evaluated, with
#'   columns `x1`, ..., `xd`, `value`, and `cost` when the cost is measured
#'   (for a known cost, `cost` is computed when absent).
#' @param charge_initial Do the costs of the `initial` points count against
#'   the budget? Default `FALSE`: they are history, paid before the session
#'   existed (a lab's past runs); `TRUE` charges them, and a history whose
#'   charged costs exceed the budget is refused. The points of the initial
#'   design a session proposes itself (when its history is not enough for
#'   the models) are charged, as [bo_optimize()] charges its design. See
#'   [bo_budget] for what is charged everywhere.
#' @param budget_rule,budget_prob How proposals are kept within the budget,
#'   as in [bo_optimize()] (see its section on budget accounting). With
#'   `budget_rule = "feasible"` (the default), when the policy's own point
#'   does not fit in the budget left (less the costs of the pending points),
#'   `bo_ask()` proposes the point the policy values most among those that
#'   fit, and the session is finished ([is_finished()]) when none fits or
#'   the budget is spent. With `"stop"`, `bo_ask()` proposes only the
#'   policy's own point, refuses it (error of class `costbo_error_budget`)
#'   when its known cost does not fit, and the session is finished only
#'   when the budget is spent. `budget_prob` (in (0, 1), default 0.9) is
#'   the probability with which the GP of the log cost must predict that a
#'   measured cost fits for a point to be proposed under `"feasible"`.
#' @param gp_args A named list of further arguments to [gp_fit()] for the
#'   objective's GP, e.g. `list(kernel = "se")` or fixed hyperparameters
#'   `list(estimate = "fixed", lengthscale = 0.1, outputscale = 1,
#'   noise = 1e-4)`. By default a Matérn 5/2 GP fitted by MAP, warm-started
#'   from the previous fit, whose noise depends on the problem (`noise` in
#'   [bo_problem()]): for a deterministic objective the noise variance is
#'   held in \[1e-4, 1e-3\] of the variance of the observations
#'   (`noise_floor = 1e-4, noise_ceiling = 1e-3`, the band of the reference
#'   implementation of Astudillo et al. 2021), so that the GP (nearly)
#'   interpolates the data and does not explain a good observation away as
#'   noise; for a noisy objective it is estimated (between [gp_fit()]'s
#'   defaults `noise_floor = 1e-6` and `noise_ceiling = 10`). Settings given
#'   here win: with any of `noise`, `noise_floor`, `noise_ceiling` or
#'   `estimate` in `gp_args`, the band is not applied and [gp_fit()]'s
#'   defaults fill in the rest. Its element `cost`, a list of the same kind,
#'   is for the GP on the log cost of a measured cost; a measured cost is
#'   exact, so that GP holds its noise in the same band by default (under
#'   the same rule), e.g. `list(cost = list(noise_floor = 1e-6))` lets it
#'   estimate a noisy cost.
#' @param model Deprecated name of `gp_args`.
#' With control sets (see [bo_problem()]), `bo_ask()` returns the control
#' partial query: the values of the chosen control set's inputs (named
#' `x1`, `x3`, ...), with attribute `control_set`, the index of the set; the
#' other inputs are drawn by the experiment, and `bo_tell()` takes the
#' realized full query together with what `bo_ask()` returned (`asked`).
#' The cost is then the control set's cost.
#' With several information sources (see [bo_problem()]), the point
#' `bo_ask()` returns carries the source to evaluate (attribute `source`);
#' `initial` then needs a column `source`.
#' @return `bo_session()` and `bo_tell()` return a `bo_session`.
#' @family sessions
#' @examples
#' prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
#'                    cost = function(x) 1 + x, budget = 10)
#' init <- data.frame(x1 = c(0.1, 0.5, 0.9), value = c(0.2, 0.8, 0.1))
#' s <- bo_session(prob, policy_ei_pu(), initial = init)
#' x <- bo_ask(s)
#' x
#' # ... run the experiment at x, then:
#' s <- bo_tell(s, x, value = 0.75)
#' s
#' @export
bo_session <- function(problem, policy, initial = NULL,
                       charge_initial = FALSE, gp_args = list(),
                       budget_rule = c("feasible", "stop"), budget_prob = 0.9,
                       model) {
  call <- sys.call()
  problem <- check_problem_policy(problem, policy, call)
  charge_initial <- check_flag(charge_initial)
  budget_rule <- check_budget_rule(budget_rule)
  budget_prob <- check_budget_prob(budget_prob)
  if (!missing(model)) {
    gp_args <- renamed_arg(model, "model", "gp_args", !missing(gp_args))
  }
  gp_args <- check_model_args(gp_args)
  new_session(problem, policy, initial, charge_initial, gp_args, budget_rule,
              budget_prob, call)
}

# A session of checked arguments: the design costbo proposes is charged
# unless `charge_design` is FALSE (the mlr3 tuner's setting), the history
# `initial` as `charge_initial` says; with `plan`, the design the session
# proposes while its history is not enough for the models (session_plan()).
new_session <- function(problem, policy, initial, charge_initial, gp_args,
                        budget_rule, budget_prob, call, charge_design = TRUE,
                        plan = TRUE) {
  state <- new_state(problem, policy, charge_design, gp_args, budget_rule,
                     budget_prob)
  if (!is.null(initial)) {
    state <- state_initial(state, initial, call, charge = charge_initial)
  }
  if (state$spent > state$budget) {
    stop_arg("initial", sprintf(paste(
      "a history whose charged costs fit in the budget: with",
      "charge_initial = TRUE its costs, %s, exceed the budget %s (a lab's",
      "past runs are not charged with charge_initial = FALSE)"),
      format(signif(state$spent, 6)), format(signif(state$budget, 6))),
      show = FALSE, call = call)
  }
  check_run_ready(state, call)
  state$memory <- policy_init(policy, state)
  if (plan) state$design_plan <- session_plan(state)
  structure(state, class = "bo_session")
}

#' @rdname bo_session
#' @param session A `bo_session`.
#' @param n The number of points to propose at once, for `n` experiments run
#'   in parallel (e.g. `n` reactors). They are proposed one after another,
#'   each given the ones before it as *kriging-believer* fantasies (the
#'   models conditioned on their posterior means, as for the pending
#'   evaluations of an asynchronous run, see [bo_async]), so they are
#'   distinct, and they fit in the budget together: the budget left must
#'   pay for all their costs (predicted costs, for a measured cost, see
#'   below). When the budget or the policy allows fewer, fewer are proposed,
#'   with a warning of class `costbo_warning_batch`.
#' @return `bo_ask()` returns the next point to evaluate: a numeric vector
#'   of length `d` of class `bo_point` (for a typed space, the typed point:
#'   a named list of class `bo_point_typed`), carrying the policy's
#'   diagnostics (attribute `"info"`), its state (e.g. the current
#'   \eqn{\lambda} of [policy_pbgi_d()]), the fitted models and its
#'   predicted cost: attribute `"predicted_cost"`, the cost itself for a
#'   known cost, and for a measured cost the predictive median
#'   \eqn{\exp(m)} of the GP of the log cost, with its calibrated 90%
#'   interval in attribute `"cost_interval"` (shown by [print()]) and the
#'   probability that it fits in the budget left (the pending points'
#'   costs counted) in attribute `"prob_fit"` (see the section on budget
#'   accounting of [bo_optimize()]). Pass it back to `bo_tell()` unchanged:
#'   the next `bo_ask()` then warm-starts from these models, a known cost
#'   is not worked out again (the price `bo_ask()` worked out is kept with
#'   the point it is of, attribute `"price"`), the session
#'   records the prediction (columns `cost_predicted`, `cost_lower`,
#'   `cost_upper` and `prob_fit` of [as.data.frame()], from which later
#'   intervals learn their calibration) and proceeds exactly as
#'   [bo_optimize()] would (`as.numeric(x)` gives the bare coordinates for
#'   the experiment). With `n > 1`, a list of such points of class
#'   `bo_batch`. Tell them in any order as their experiments finish: once
#'   one of them is told, the others are *pending* in the session until
#'   they are told too, and a `bo_ask()` meanwhile proposes points given
#'   them (a worker that frees up gets a new point while the others run;
#'   points asked in separate calls are pending only once one of their
#'   call is told, so ask together the points that run together). A
#'   session whose budget is spent (see [is_finished()]) signals an error
#'   of class `costbo_error_budget` naming the budget, the spend and what
#'   is left.
#' @export
bo_ask <- function(session, n = 1L) {
  if (!inherits(session, "bo_session")) {
    stop_arg("session", "a bo_session", session)
  }
  n <- check_count(n, min = 1L)
  session <- upgrade_state(session)
  check_state_records(session, "session", sys.call())
  t0 <- proc.time()[["elapsed"]]
  check_session_budget(session)
  # the budget rule's check that something fits counts as the first point's
  asked <- session_ask(session, n, proc.time()[["elapsed"]] - t0)
  session_points(session, asked, n)
}

#' @export
print.bo_point_typed <- function(x, ...) {
  v <- unclass_point(x)
  cat("Next point to evaluate:",
      paste0(names(v), " = ", vapply(v, function(e) {
        if (is.character(e)) dQuote(e, FALSE) else format(e, digits = 6)
      }, ""), collapse = ", "), "\n")
  print_point_info(x)
  invisible(x)
}

print_point_info <- function(x) {
  print_point_cost(x)
  info <- attr(x, "info")
  if (length(info)) {
    cat(paste0("  ", names(info), " = ",
               vapply(info, function(v) format(v, digits = 4), ""),
               collapse = "\n"), "\n")
  }
}

#' @export
print.bo_point <- function(x, ...) {
  cs <- attr(x, "control_set")
  if (!is.null(attr(x, "source"))) {
    cat(sprintf("Next point to evaluate, at source %d:", attr(x, "source")),
        format(as.double(x), digits = 6), "\n")
  } else if (is.null(cs)) {
    cat("Next point to evaluate:", format(as.double(x), digits = 6), "\n")
  } else {
    cat(sprintf("Control set %d: set %s; the other inputs are drawn\n", cs,
                paste0(names(x), " = ", format(as.double(x), digits = 6),
                       collapse = ", ")))
  }
  print_point_info(x)
  invisible(x)
}

#' @rdname bo_session
#' @param x The point that was evaluated (usually what `bo_ask()` returned;
#'   for a problem with several information sources it must be, since it
#'   carries the source, attribute `source`).
#' @param value The observed objective value (`NA` for a failed
#'   experiment; any non-finite value is recorded as one), as the objective
#'   gives it (the loss itself for a problem with `maximize = FALSE`).
#' @param cost The cost it incurred; required when the problem's cost is
#'   measured (`NA` when it could not be measured: the value is kept and
#'   used, and no cost is charged), computed from the known cost function
#'   (or the control set) otherwise.
#' @param asked With control sets: the point `bo_ask()` returned (it carries
#'   the control set), when `x` is the realized full query.
#' @export
bo_tell <- function(session, x, value, cost = NULL, asked = NULL) {
  if (!inherits(session, "bo_session")) {
    stop_arg("session", "a bo_session", session)
  }
  session <- upgrade_state(session)
  call <- sys.call()
  check_state_records(session, "session", call)
  pr <- session$problem
  xm <- problem_told_point(pr, x, call)
  index <- problem_in_domain(pr, xm, "x", call)
  if (!(is.numeric(value) || is.logical(value)) || length(value) != 1L) {
    stop_arg("value", "a single number (NA for a failed experiment)", value)
  }
  told <- problem_tell(pr, x, xm, index, cost, asked, call)
  cost <- told$cost
  if (is.null(cost)) {
    if (pr$cost_type == "measured") {
      stop_arg("cost", "given: this problem's cost is measured", NULL,
               show = FALSE)
    }
    # the price bo_ask() worked out, when `x` is the point it was of
    asked <- if (inherits(told$src, "bo_point")) attr(told$src, "price")
    if (is.list(asked) && identical(asked$x, told$step$x)) {
      cost <- asked$cost
    } else {
      pc <- problem_price(pr, told$step)
      if (nzchar(pc$message)) {
        stop_arg("cost", sprintf(paste("given: the problem's cost function",
                                       "gives no cost at `x` (%s)"),
                                 pc$message), NULL, show = FALSE)
      }
      cost <- pc$cost
    }
  }
  cost <- if (pr$cost_type == "measured" && is.atomic(cost) &&
              length(cost) == 1L && is.na(cost)) {
    NA_real_ # not measured: the value is kept, no cost is charged
  } else check_number(cost, min = 0, min_open = TRUE)
  src <- told$src
  info <- attr(src, "info")
  ok <- is.finite(value)
  memory <- session$memory
  if (inherits(src, "bo_point")) {
    memory <- attr(src, "memory")
    session$models <- attr(src, "models")
  }
  times <- function(name) {
    t <- attr(src, name)
    if (is.numeric(t) && length(t) == 1L) t else NA_real_
  }
  # the objective's direction to costbo's (maximization)
  value <- user_value(pr, as.double(value))
  # a point of the design the session proposed (session-design.R)
  row <- session_plan_row(session, told$step$x)
  phase <- if (is.na(row) || !session_in_design(session)) "bo" else "initial"
  if (phase == "initial") session$design_plan$told[row] <- TRUE
  session <- state_record(session, told$step, value, cost, phase,
                          status = if (ok) "ok" else "error",
                          message = if (ok) "" else "no value reported",
                          fit_time = times("fit_time"),
                          policy_time = times("policy_time"),
                          rule_time = times("rule_time"),
                          info = if (is.null(info)) list() else info)
  # (the design records no prediction, as the loop's)
  session <- state_record_prediction(
    session, if (phase == "bo") session_point_prediction(src))
  session$memory <- memory
  if (phase == "bo") session$iteration <- session$iteration + 1L
  # the points of its batch not told yet are pending
  session_told(session, src, told$step)
}

#' Acquisition values of a session's policy
#'
#' The acquisition function of the session's policy in its current state
#' (models fitted to all successful evaluations, the current budget), at the
#' rows of `X`: what the policy maximizes to choose its next point. Useful to
#' plot and study a policy.
#'
#' @param session A `bo_session` or a `bo_run`.
#' @param X Points, one per row (a vector is one point, or several points of
#'   a 1-D problem). For a problem with several information sources, a
#'   last column may give the source of each point (default 0).
#' @return A numeric vector, one value per row of `X`.
#' @family sessions
#' @examples
#' prob <- bo_problem(function(x) NA, lower = 0, upper = 1, cost = 1,
#'                    budget = 5)
#' s <- bo_session(prob, policy_ei(), initial = data.frame(
#'   x1 = c(0.1, 0.5, 0.9), value = c(0.2, 0.8, 0.1)))
#' bo_acquisition(s, seq(0, 1, by = 0.25))
#' @export
bo_acquisition <- function(session, X) {
  if (!inherits(session, c("bo_session", "bo_run"))) {
    stop_arg("session", "a bo_session or bo_run", session)
  }
  session <- upgrade_state(session)
  pr <- session$problem
  pts <- problem_acq_points(pr, X, sys.call())
  check_in_box(sweep(sweep(pts$Xx, 2L, pr$lower), 2L, pr$upper - pr$lower,
                     "/"), "X", sys.call())
  state <- state_fit(session)
  state$policy$acquisition(state, pts$X)
}

#' @export
print.bo_session <- function(x, ...) {
  cat(sprintf("Ask/tell session: %s on \"%s\"\n", x$policy$label,
              x$problem$name))
  print_state_summary(x)
  print_session_status(x)
  invisible(x)
}

print_state_summary <- function(x) {
  cat(sprintf("  %d evaluations (%d initial, %d failed); spent %s of budget %s\n",
              length(x$value), sum(x$phase == "initial"),
              sum(!state_ok(x)), format(x$spent, digits = 4),
              format(x$budget, digits = 4)))
  if (any(state_objective(x))) {
    ok <- which(state_objective(x))
    i <- ok[which.max(x$value[ok])]
    cat(sprintf("  best value %s at %s\n",
                format(user_value(x$problem, x$value[i]), digits = 6),
                format_point(x$problem, x$X[i, ])))
  }
}
