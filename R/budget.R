# Budgets: which points the remaining budget can pay for, and the best
# point the policy would take among them when its own proposal does not
# fit (the budget-feasible rule of bo_optimize(), bo_session() and the
# mlr3 tuner).

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
# a measured cost when the log-cost GP of the state gives it probability
# at least `prob` of being at most `remaining` (before the costs can be
# modelled, when their geometric mean is at most `remaining`; before any is
# seen, always). A known cost that fails at a point (an error, or not a
# positive number) does not fit there.
budget_fits <- function(state, X, remaining, prob) {
  pr <- state$problem
  n <- nrow(X)
  if (!(remaining > 0)) return(rep(FALSE, n))
  if (pr$cost_type == "known") {
    cost <- problem_known_costs(pr, X)
    return(!is.na(cost) & cost <= remaining * (1 + 1e-12))
  }
  cm <- state$models$cost
  if (is.null(cm)) {
    seen <- state_seen_cost(state)
    return(rep(is.na(seen) || seen <= remaining, n))
  }
  p <- predict(cm, problem_model_newdata(pr, X))
  z <- (log(remaining) - p$mean) / p$sd
  z[!(p$sd > 0)] <- ifelse(p$mean[!(p$sd > 0)] <= log(remaining), Inf, -Inf)
  stats::pnorm(z) >= prob
}

# The known costs at the rows of X (points as policies propose them), NA
# where the cost fails (an error, or not a positive number): one call of
# the problem's cost per row.
problem_known_costs <- function(problem, X) UseMethod("problem_known_costs")
problem_known_costs.bo_problem <- function(problem, X) {
  cost <- problem$cost
  vapply(seq_len(nrow(X)), function(i) {
    valid_cost(tryCatch(cost(X[i, ]), error = function(e) NA_real_))
  }, numeric(1))
}

# A known cost's value v when it is a positive number, else NA.
valid_cost <- function(v) {
  if (is.numeric(v) && length(v) == 1L && is.finite(v) && v > 0) {
    v
  } else NA_real_
}

# The points among which a budget-feasible proposal is chosen: scrambled
# Sobol points of the box (and its two corners for a known cost), the valid
# points of a typed space, the candidates of a finite domain (their indices
# with a prior); NULL for problems whose policies price their own choices
# (control sets, information sources), which keep the rule "stop".
problem_candidates <- function(problem, n) UseMethod("problem_candidates")
problem_candidates.bo_problem <- function(problem, n) {
  x <- problem_design(problem, n)$x
  # the corners, where a known cost often has its extremes (a measured
  # cost's model would extrapolate there)
  if (problem$cost_type == "known") {
    x <- rbind(x, problem$lower, problem$upper, deparse.level = 0L)
  }
  x
}

# The keys by which the rule tells an evaluated point: each row of X as its
# coordinates in 15 significant digits (as.character()), joined by ",", made
# a column at a time (what pasting each row gives, without a call per row).
point_keys <- function(X) {
  if (!nrow(X)) return(character())
  do.call(paste, c(lapply(seq_len(ncol(X)), function(j) X[, j]), sep = ","))
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
    X <- X[!(point_keys(X) %in% point_keys(state$X)), , drop = FALSE]
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
# state_propose() returns it) in `state`, the state the policy saw, with
# `remaining` budget: list(p, none), p the proposal to evaluate (the
# policy's own when it fits, when the rule is "stop" or when the problem
# has no candidates, else the best one that fits) and none TRUE when
# nothing fits (the run ends). A proposal whose known cost fails is left
# to the caller, which records the failure.
budget_apply_rule <- function(state, p, remaining) {
  same <- list(p = p, none = FALSE)
  if (state_budget_rule(state) != "feasible") return(same)
  pc <- problem_price(state$problem, p$step)
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

# Whether the initial design ends before its point `step`: NULL when the
# point is evaluated, else list(code, reason) (code NULL: the design ends
# and the optimization starts). A charged design never starts a point that
# does not fit in the remaining budget (a known cost; a measured one by
# budget_fits()); with `cap` (the default size) it also ends once the
# points a model needs are in and the next would take its costs past
# design_share of the budget.
design_ends <- function(state, step, cap) {
  if (!state$charge_initial) return(NULL)
  pr <- state$problem
  # (a design has at least one point, also under a prior)
  enough <- sum(state_ok(state)) >= max(1L, problem_min_data(pr))
  pc <- problem_price(pr, step)
  if (nzchar(pc$message)) return(NULL)
  fits <- function(limit) {
    if (!is.na(pc$cost)) return(state$spent + pc$cost <= limit * (1 + 1e-12))
    budget_fits(state, matrix(step$x, 1L), limit - state$spent,
                state$budget_prob)
  }
  if (!fits(state$budget)) {
    if (enough) return(list(code = NULL))
    return(list(code = "budget", reason = paste(
      "budget spent: the next point of the initial design would not fit,",
      "and the design has fewer points than a model needs")))
  }
  if (cap && enough && !fits(design_share * state$budget)) {
    return(list(code = NULL))
  }
  NULL
}

# bo_ask() when nothing more can be paid for: an error of class
# costbo_error_budget naming the budget, the spend and what is left.
stop_budget <- function(session, what, call = sys.call(-1L)) {
  msg <- sprintf(paste("%s: %s of the budget %s is spent, %s is left;",
                       "the session is finished (is_finished())"),
                 what, format(signif(session$spent, 6)),
                 format(signif(session$budget, 6)),
                 format(signif(session$budget - session$spent, 6)))
  stop(costbo_condition(c("costbo_error_budget", "costbo_error"), msg,
                        user_call(call)))
}
