# Validation before paying: the run's models fitted and its policy asked on
# synthetic data of the problem's kind, before its first evaluation (of a
# run, an asynchronous run or a session).

# Validate before paying: everything the run will need is checked before
# its first evaluation, by the code that would reject it later. The models
# are fitted (as state_fit() does, the objective's GP first, then the
# log-cost GP of a measured cost) and the policy's acquisition is evaluated
# at one point, in a state of synthetic data of the problem's kind (a small
# Kronecker-sequence design, or the first candidates, with distinct values
# and costs). A costbo error there (a `gp_args` setting gp_fit() rejects, a
# policy that does not suit the problem, a known cost written in R that
# fails or returns a bad value when the policy calls it from C) is signalled
# now, naming `gp_args`, `gp_args$cost`, `policy` or `cost`; a policy that
# calls such a cost has it evaluated, with gradients, at every synthetic
# point; anything else (a numerical accident of the
# synthetic data) is left for the run to meet. With `pending` (an
# asynchronous run), the policy is also evaluated given a pending point
# (async_fantasy_state()). The random-number generator's state is
# restored, so the run itself is unchanged.
check_run_ready <- function(state, call, pending = FALSE) {
  saved <- save_rng()
  on.exit(restore_rng(saved))
  pr <- state$problem
  syn <- synthetic_state(state)
  stage <- function(arg, expr) {
    withCallingHandlers(
      tryCatch(expr, costbo_error = function(e) {
        stop_arg_cause(if (inherits(e, "costbo_error_cost")) "cost" else arg,
                       e, call = call)
      }),
      warning = function(w) invokeRestart("muffleWarning"))
  }
  if (!is.null(state$model_args$cost)) {
    # the objective's GP alone, so that an error names the right setting
    alone <- syn
    alone$model_args$cost <- NULL
    stage("gp_args", state_fit(alone))
    syn <- stage("gp_args$cost", state_fit(syn))
  } else {
    syn <- stage("gp_args", state_fit(syn))
  }
  X <- syn$X[1L, , drop = FALSE]
  stage("policy", {
    syn$memory <- policy_init(syn$policy, syn)
    syn$policy$acquisition(syn, X)
    if (pending) {
      step <- new_step(syn$X[2L, ], index = if (length(syn$index)) syn$index[2L] else NA)
      syn$pending <- list(list(step = step, bound = 0))
      syn$policy$acquisition(async_fantasy_state(syn), X)
    }
  })
  closure <- problem_cost_closure(pr)
  if (!is.null(closure) && isTRUE(syn$policy$known_cost)) {
    # the policy calls it from C: its values and gradients (or forward
    # differences) at every synthetic point, as C will ask for them. With
    # on_error = "skip" a failure is a point the policy cannot afford, so a
    # cost that fails at every synthetic point is refused, one that fails
    # at some is not
    U <- sweep(sweep(syn$X, 2L, pr$lower), 2L, pr$upper - pr$lower, "/")
    skip <- isTRUE(state$skip_cost_failures)
    failed <- 0L
    for (i in seq_len(nrow(U))) {
      ok <- tryCatch({
        stage("cost", call_c(C_rcall_eval, closure, U[i, , drop = FALSE],
                             as.double(pr$lower),
                             as.double(pr$upper - pr$lower), TRUE))
        TRUE
      }, costbo_error_arg = function(e) {
        if (!skip || !inherits(e$parent, "costbo_error_cost") ||
            is.null(e$parent$parent)) stop(e)
        FALSE
      })
      failed <- failed + !ok
    }
    if (failed == nrow(U)) {
      stop_arg("cost", sprintf(paste(
        "a function that works at some points: it failed at every one of",
        "the %d points it was tried at"), nrow(U)), show = FALSE, call = call)
    }
  }
  invisible(TRUE)
}

# A state of the run's problem, policy and settings holding synthetic
# evaluations (see check_run_ready()).
synthetic_state <- function(state) {
  pr <- state$problem
  design <- problem_synthetic(pr, 2L * (pr$d + 1L))
  syn <- new_state(pr, state$policy, state$charge_initial, state$model_args,
                   state_budget_rule(state), state$budget_prob)
  syn$skip_cost_failures <- state$skip_cost_failures
  k <- 0L
  for (i in seq_len(nrow(design$x))) for (s in design$sources) {
    k <- k + 1L
    step <- new_step(design$x[i, ], source = s,
                     index = if (is.null(design$index)) NA else
                       design$index[i])
    # a measured cost, or a known one that fails here, at synthetic values
    cost <- problem_price(pr, step)$cost
    if (is.na(cost)) cost <- exp(0.5 * cos(2 * k))
    syn <- state_record(syn, step, sin(3 * k), cost, "initial")
  }
  syn
}
