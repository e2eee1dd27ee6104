# Queries of a state that ask its problem: its best value, incumbent and
# objective rows. A
# module below the state (state.R), the loops, the budget rule and the
# policies, which read a state through it; it asks the problem's questions
# and the GP (the plain records' queries are in state-records.R).

# The best value of the objective (source 0 of a multi-source problem).
state_best <- function(state) {
  ok <- state_objective(state)
  if (!any(ok)) return(NA_real_)
  max(state$value[ok])
}

# The incumbent of the expected-improvement family (EI and its cost-aware
# variants, B-MS-EI's tree, the rollouts, PBGI's stopping rule), in a state
# whose models are fitted: the best observed value of a deterministic
# objective; for a noisy one, the largest posterior mean of the objective at
# its evaluated points (the plug-in of Picheny et al. 2013), so that an
# improvement is measured against what the model believes rather than a
# lucky noisy observation (which the GP partly calls noise: against it,
# every expected improvement can vanish). Reporting keeps state_best().
state_incumbent <- function(state) {
  pr <- state$problem
  ok <- problem_objective_rows(pr, state)
  if (!any(ok)) return(NA_real_)
  model <- state$models$f
  if (!isTRUE(pr$noisy) || is.null(model)) return(max(state$value[ok]))
  newdata <- unique(problem_model_x(pr, state, ok))
  max(predict(model, newdata, sd = FALSE)$mean)
}

# Successful evaluations of the objective itself (source 0).
state_objective <- function(state) {
  problem_objective_rows(state$problem, state)
}

# A cost-aware policy asked for a measured cost none of whose evaluations
# gave a valid cost (NA, 0, Inf or negative; kept by on_error = "skip"): an
# error of class costbo_error_cost_never_valid (a costbo_error_cost), which
# ends a run with the stop code "cost_failed" and this reason.
stop_cost_never_valid <- function(state) {
  n <- length(state$cost)
  stop(costbo_condition(
    c("costbo_error_cost_never_valid", "costbo_error_cost", "costbo_error"),
    sprintf(paste("the measured cost was never valid: none of the %d",
                  "evaluations gave a positive finite cost (NA, 0, Inf or",
                  "negative), and the cost-aware policy needs one"), n)))
}
