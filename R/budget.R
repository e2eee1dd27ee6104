# Budgets: which points the remaining budget can pay for, and the best
# point the policy would take among them when its own proposal does not
# fit (the budget-feasible rule of bo_optimize(), bo_session() and the
# mlr3 tuner).

#' How costbo keeps to a budget
#'
#' One set of rules decides what a budget pays for in [bo_optimize()] (and
#' its asynchronous runs, `workers = k`), in ask/tell sessions
#' ([bo_session()], [bo_ask()], [bo_tell()]) and in the mlr3 tuner
#' ([mlr_tuners_costbo]). This page says what is charged and when an
#' evaluation may start; the functions' pages link here.
#'
#' @section What is charged:
#' * **A design costbo runs or proposes** is charged by default, as every
#'   evaluation after it: the budget is everything the run spends.
#'   `bo_optimize(charge_initial = FALSE)` and the tuner's
#'   `charge_initial = FALSE` leave the design unpaid, as the papers'
#'   reference implementations do (and costbo's studies, which say so in
#'   their recipes).
#' * **History a user brings** to a session (`bo_session(initial = )`, a
#'   lab's past runs) was paid before the session existed: it is not
#'   charged unless `charge_initial = TRUE`. A session whose charged
#'   history already exceeds its budget is refused, naming the budget and
#'   the spend. `bo_optimize(initial = )` charges its `initial` points
#'   with its own design, as `charge_initial` says.
#' * A measured cost that could not be measured (`NA`) is not charged; a
#'   failed evaluation's cost is (see [bo_optimize()], "Failures").
#'
#' @section The initial design:
#' A charged design never starts a point that the budget cannot pay for (a
#' known cost exactly; a measured one when its predicted cost fits, below).
#' The default design, `2 (k + 1)` points for `k` settings, ends early, once
#' a model can be fitted, rather than spend more than a quarter of the
#' budget. Several design points start together (asynchronous workers, a
#' batch of the tuner, `bo_ask(n = )`) only when their costs, counted
#' together, fit: known costs as they are; measured costs each at the
#' largest cost seen, so while no cost has been measured one point starts
#' alone. Points of measured cost that start together may cost more than
#' any seen, and so take the design past its quarter by more than one
#' evaluation; the loop and the mlr3 tuner therefore run a charged design
#' of measured cost one point at a time, which ends within its quarter
#' plus its last evaluation. A session without enough history for its models
#' proposes the loop's default design itself, one point (or `n`) per
#' [bo_ask()], charged as the loop charges its own, then model-based
#' points; told in the same order with the same seed it reproduces
#' [bo_optimize()] point for point.
#'
#' @section When an evaluation may start:
#' With `budget_rule = "feasible"` (the default), an evaluation starts only
#' when the remaining budget can pay for it: a known cost when it fits; a
#' measured cost when the GP of the log cost gives probability at least
#' `budget_prob` that it fits (while the costs cannot yet be modelled, when
#' their geometric mean fits). When the policy's proposal does not fit, the
#' point the policy values most among those that fit is taken instead, and
#' the run ends when nothing fits. A known cost therefore never overruns
#' the budget; a measured one overruns it by at most its last evaluation.
#' With `budget_rule = "stop"` the run ends at the first proposal whose
#' known cost does not fit, and the evaluation of measured cost that
#' crosses the budget ends it (the papers' reporting rule).
#'
#' @section A budget too small:
#' A charged run whose budget cannot pay for one evaluation of known cost
#' is an error naming `budget`, with the cheapest cost found, and nothing is
#' paid. A measured cost is known only once paid: a charged run whose first
#' evaluation cost more than the whole budget keeps that evaluation and
#' warns (class `costbo_warning_budget`).
#'
#' @name bo_budget
#' @family runs
#' @seealso [budget_left()] and [is_finished()] for where a session or run
#'   stands.
#' @examples
#' # a lab's past runs are history: not charged
#' prob <- bo_problem(function(x) NA, lower = 0, upper = 1, budget = 10)
#' past <- data.frame(x1 = c(0.2, 0.5, 0.8), value = c(1, 3, 2),
#'                    cost = c(3, 4, 2))
#' s <- bo_session(prob, policy_ei_pu(), initial = past)
#' budget_left(s)
#' # a session from nothing proposes costbo's design, charged
#' s0 <- bo_session(prob, policy_ei_pu())
#' x <- bo_ask(s0)
#' s0 <- bo_tell(s0, x, value = 1, cost = 1.5)
#' budget_left(s0)
NULL

check_budget_rule <- function(budget_rule, call = sys.call(-1L)) {
  check_choice(budget_rule, c("feasible", "stop"), arg = "budget_rule",
               call = call)
}

check_budget_prob <- function(budget_prob, call = sys.call(-1L)) {
  ok <- is.numeric(budget_prob) && length(budget_prob) == 1L &&
    !is.na(budget_prob) && budget_prob > 0 && budget_prob < 1
  if (!ok) {
    stop_arg("budget_prob", "a single probability in (0, 1)", budget_prob,
             call)
  }
  as.double(budget_prob)
}

# The budget rule of a state ("stop" for states saved before the rule
# existed: they resume as they ran).
state_budget_rule <- function(state) {
  if (is.null(state$budget_rule)) "stop" else state$budget_rule
}

# Whether each row of X (points as policies propose them, in the problem's
# units) fits in `remaining`: a known cost when it is at most `remaining`;
# a measured cost when its calibrated prediction (cost_predict(),
# cost-predict.R) gives it probability at least `prob` of being at most
# `remaining` (before the costs can be modelled, when their geometric mean
# is at most `remaining`; before any is seen, always). A known cost that
# fails at a point (an error, or not a positive number) does not fit there.
budget_fits <- function(state, X, remaining, prob) {
  if (!(remaining > 0)) return(rep(FALSE, nrow(X)))
  cost_predict(state, X, remaining)$prob >= prob
}

# Which rows of X equal a row of Y (element by element, as == compares
# them): by the hashed row ids of row_ids() over both, without a string per
# row.
rows_in <- function(X, Y) {
  if (!nrow(X) || !nrow(Y)) return(rep(FALSE, nrow(X)))
  ids <- row_ids(rbind(X, Y, deparse.level = 0L))
  ids[seq_len(nrow(X))] %in% ids[nrow(X) + seq_len(nrow(Y))]
}

# How many candidates the rule values: many for a closed-form acquisition
# (`cheap`), 64 for a lookahead policy's.
budget_candidate_count <- function(problem, cheap) {
  if (cheap) min(2048L, 256L * problem$d) else 64L
}

# When the policy's proposal p does not fit in `remaining`: the proposal
# maximizing the policy's acquisition among the candidate points that fit
# (state: the state the policy saw), list(p = the new proposal) or
# list(p = NULL, none = TRUE) when no candidate fits; NULL when the
# problem has no candidates (the rule "stop" applies).
budget_feasible_proposal <- function(state, p, remaining) {
  pr <- state$problem
  # a policy whose acquisition is a closed form values many points; a
  # lookahead policy's values cost a tree or a rollout each
  n <- budget_candidate_count(pr, isTRUE(state$policy$cheap_acquisition))
  X <- problem_candidates(pr, n)
  if (is.null(X)) return(NULL)
  # an evaluated point of a deterministic objective is not proposed again
  if (!isTRUE(pr$noisy) && nrow(state$X)) {
    X <- X[!rows_in(X, state$X), , drop = FALSE]
  }
  fits <- if (nrow(X)) budget_fits(state, X, remaining, state$budget_prob)
  if (!any(fits)) return(list(p = NULL, none = TRUE))
  X <- X[fits, , drop = FALSE]
  if (nrow(X) > n) {
    # (the candidates of a finite domain) n of them, evenly in their order
    X <- X[unique(round(seq(1, nrow(X), length.out = n))), , drop = FALSE]
  }
  a <- state$policy$acquisition(state, X)
  k <- which.max(replace(a, !is.finite(a), -Inf))
  if (!length(k)) k <- 1L
  x <- problem_proposal_x(pr, X[k, , drop = FALSE])
  p$x <- x
  p$step <- problem_step(pr, list(x = x), state)
  p$info$acquisition <- a[k]
  p$info$budget_feasible <- TRUE
  list(p = p, none = FALSE)
}

# The budget-feasible rule applied to the policy's proposal p (as
# state_propose() returns it), whose price `pc` (problem_price() of
# p$step) the caller worked out, in `state`, the state the policy saw, with
# `remaining` budget: list(p, none), p the proposal to evaluate (the
# policy's own when it fits, when the rule is "stop" or when the problem
# has no candidates, else the best one that fits) and none TRUE when
# nothing fits (the run ends). A proposal whose known cost fails is left
# to the caller, which records the failure.
budget_apply_rule <- function(state, p, remaining, pc) {
  same <- list(p = p, none = FALSE)
  if (state_budget_rule(state) != "feasible") return(same)
  if (nzchar(pc$message) ||
      budget_step_fits(state, p$step, pc$cost, remaining)) {
    return(same)
  }
  alt <- budget_feasible_proposal(state, p, remaining)
  if (is.null(alt)) same else alt
}

# Does the step fit in `remaining` by the state's rule? (A known cost is
# checked by the loop itself.)
budget_step_fits <- function(state, step, cost, remaining) {
  if (!is.na(cost)) return(cost <= remaining * (1 + 1e-12))
  budget_fits(state, matrix(step$x, 1L), remaining, state$budget_prob)
}

# The reason a run ends when nothing fits.
budget_none_reason <- function(state, remaining) {
  sprintf(paste("budget spent: no point fits in the remaining budget (%s)",
                "by the rule of `budget_rule`%s"),
          format(signif(remaining, 4)),
          if (state$problem$cost_type == "measured") {
            sprintf(" (cost predicted to fit with probability %s)",
                    format(state$budget_prob))
          } else "")
}

# The default size of the initial design: 2 (k + 1) points for k settings
# (the inputs of a box, the parameters of a typed space, not their
# encoding's columns), at most all but one of a finite domain's
# candidates.
default_n_init <- function(problem) {
  k <- if (inherits(problem, "bo_problem_typed")) {
    length(problem$space$params)
  } else problem$d
  n <- 2L * (k + 1L)
  np <- problem_n_points(problem)
  if (is.finite(np)) n <- max(1L, min(n, np - 1L))
  as.integer(n)
}

# The share of the budget a charged initial design of the default size may
# spend: the design ends early, once it has the points a model needs, when
# its next point would take its charged costs past this share.
design_share <- 0.25

# Whether the initial design starts its point `step`, of price `pc`
# (problem_price(), worked out by the caller, which pays for the step at
# it), now: the one rule of a charged design, for the loop, the
# asynchronous loop, sessions and the mlr3 tuner's batches. `committed` is the cost counted for the design's
# `n_pending` points that run (or are in the same batch) and are not
# recorded yet. NULL when the point starts, list(wait = TRUE) when it must
# wait for a pending point, else list(code, reason) (code NULL: the
# design ends and the optimization starts). A charged design never starts
# a point that does not fit in the remaining budget (a known cost; a
# measured one by budget_fits(), at the geometric mean of the costs seen
# while they cannot be modelled; with points pending, each of them and the
# new one at the largest cost seen); while no measured cost has been seen,
# nothing can size a batch, so a point starts only when none is pending;
# with `cap` (the default size) the design also ends once the points a
# model needs are in (or pending) and the next would take its costs past
# design_share of the budget. With nothing pending this is the sequential
# loop's rule.
design_ends <- function(state, step, pc, cap, committed = 0,
                        n_pending = 0L) {
  if (!state$charge_initial) return(NULL)
  pr <- state$problem
  need <- max(1L, problem_min_data(pr))
  have <- sum(state_ok(state))
  if (nzchar(pc$message)) return(NULL)
  if (n_pending > 0L && is.na(pc$cost) && is.na(state_seen_cost(state))) {
    return(list(wait = TRUE))
  }
  # points that start together (a batch, pending workers) share the risk
  # of their measured costs: each counts as the largest cost seen
  guess <- NA_real_
  if (n_pending > 0L && is.na(pc$cost)) {
    guess <- max(state$cost[!is.na(state$cost)])
    committed <- max(committed, n_pending * guess)
  }
  spent <- state$spent + committed
  fits <- function(limit) {
    if (!is.na(pc$cost)) return(spent + pc$cost <= limit * (1 + 1e-12))
    if (!is.na(guess)) return(spent + guess <= limit * (1 + 1e-12))
    budget_fits(state, matrix(step$x, 1L), limit - spent, state$budget_prob)
  }
  if (!fits(state$budget)) {
    if (have >= need) return(list(code = NULL))
    if (n_pending > 0L) return(list(wait = TRUE))
    return(list(code = "budget", reason = paste(
      "budget spent: the next point of the initial design would not fit,",
      "and the design has fewer points than a model needs")))
  }
  if (cap && have + n_pending >= need && !fits(design_share * state$budget)) {
    # (pending points may fail: the design ends once they have not)
    return(if (have >= need) list(code = NULL) else list(wait = TRUE))
  }
  NULL
}

# A charged run whose budget could not pay for any evaluation of known cost
# (it stopped for its budget before its first evaluation, so nothing was
# paid) is an error naming `budget`, with the cheapest cost found among the
# budget rule's candidate points (problem_candidates(): scrambled Sobol
# points and the box's corners, a finite domain's candidates, a typed
# space's valid points). The caller's random-number stream is not moved.
check_budget_affordable <- function(run, call) {
  pr <- run$problem
  if (!identical(run$stop_code, "budget") || length(run$value) ||
      pr$cost_type != "known") {
    return(run)
  }
  saved <- save_rng()
  on.exit(restore_rng(saved))
  X <- problem_candidates(pr, budget_candidate_count(pr, TRUE))
  cost <- if (!is.null(X)) vapply(seq_len(nrow(X)), function(i) {
    v <- tryCatch(pr$cost(X[i, ]), error = function(e) NA_real_)
    if (is.numeric(v) && length(v) == 1L) v else NA_real_
  }, numeric(1))
  cheapest <- suppressWarnings(min(cost, na.rm = TRUE))
  stop_arg("budget", if (is.finite(cheapest) && cheapest > run$budget) {
    sprintf(paste("at least the cost of one evaluation: the cheapest of %d",
                  "points of the domain costs %s"), nrow(X),
            format(signif(cheapest, 6)))
  } else {
    "large enough for the points of the initial design a model needs"
  }, run$budget, call = call)
}

# A charged run of measured cost whose first evaluation cost more than the
# whole budget says so: a warning of class costbo_warning_budget.
warn_budget_small <- function(run) {
  # (the run's first evaluation, charged: a free design says nothing of
  # the budget)
  first <- 1L
  if (!isTRUE(run$charged[first]) || run$problem$cost_type != "measured" ||
      !(run$cost[first] > run$budget)) {
    return(run)
  }
  warning(costbo_condition(
    c("costbo_warning_budget", "costbo_warning"),
    sprintf(paste("the budget %s is smaller than the cost of one",
                  "evaluation (the first cost %s): the run has only what",
                  "that evaluation gave"),
            format(signif(run$budget, 6)),
            format(signif(run$cost[first], 6))),
    type = "warning"))
  run
}
