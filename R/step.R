# The step engine: what a run does with its policy's proposal. One decision,
# step_decide(), used by the sequential loop (run_step() in loop.R), the
# asynchronous loop (async_fill() in async.R) and the mlr3 tuner
# (tuner_optimize() in mlr3.R), and one table of the reasons a run stops,
# by code (as bbotk's terminators), with the codes and reasons of failures:
# the loops record, launch, wait or stop; they never decide.

# Why a run stops, for people, by the code programs read (run$stop_code).
# Codes whose reason depends on the run ("policy_failed", "objective_failed",
# "cost_failed", the budget's declined proposals) carry their own.
stop_reasons <- c(
  budget = "budget spent",
  max_evaluations = "maximum number of evaluations reached",
  pandora = "Pandora stopping rule",
  repeated_failure = "the policy proposed a point that failed before",
  exhausted = paste("every point of the space near the proposal has been",
                    "evaluated (a deterministic objective)"),
  interrupted = "interrupted",
  terminated = "terminator of the instance")

# The cap on evaluations after the initial design of a run whose control
# `ctl` has no max_evaluations (max_run_evaluations), and the reason a run
# stopped by it gives.
# (options(costbo.max_run_evaluations = n) sets another cap.)
run_cap <- function() {
  cap <- getOption("costbo.max_run_evaluations", max_run_evaluations)
  if (is.numeric(cap) && length(cap) == 1L && !is.na(cap) && cap >= 1) {
    as.integer(min(cap, .Machine$integer.max))
  } else max_run_evaluations
}
run_max_evaluations <- function(ctl) {
  if (is.null(ctl$max_evaluations)) run_cap() else ctl$max_evaluations
}
run_max_reason <- function(ctl) {
  if (!is.null(ctl$max_evaluations)) return(stop_reasons[["max_evaluations"]])
  sprintf(paste("costbo's cap of %d evaluations after the initial design",
                "(max_evaluations = NULL): the budget has no natural end"),
          run_cap())
}

# A run stopped by that cap says so: a warning of class
# costbo_warning_cap.
warn_if_capped <- function(run) {
  if (!identical(run$stop_code, "max_evaluations") ||
      !startsWith(run$stop_reason, "costbo's cap")) {
    return(run)
  }
  warning(costbo_condition(
    c("costbo_warning_cap", "costbo_warning"),
    sprintf(paste("the run stopped at %s with %s of the budget %s left; give",
                  "max_evaluations to go further (a cost tiny against the",
                  "budget, or never charged, leaves a run no other end)"),
            run$stop_reason, format(signif(run$budget - run$spent, 4)),
            format(signif(run$budget, 4))), type = "warning"))
  run
}

# Stop the run: `code` says why for programs (one of the codes documented
# in bo_optimize(): "budget", "max_evaluations", "pandora", "policy_failed",
# "objective_failed", "cost_failed", "repeated_failure", "exhausted",
# "interrupted"), `reason` for people (the table's, by default).
stop_run <- function(state, code, reason = stop_reasons[[code]]) {
  state$stop_code <- code
  state$stop_reason <- reason
  state
}

# The stop code of a run that stops on the failed evaluation `ev`.
failure_code <- function(ev) {
  if (isTRUE(ev$cost_function)) "cost_failed" else "objective_failed"
}

# Why a run stops on the failed evaluation `ev` (at an initial point or not).
failure_reason <- function(ev, initial = FALSE) {
  if (isTRUE(ev$cost_function)) {
    return(if (initial) paste(ev$message, "(at an initial point)") else
      ev$message)
  }
  if (initial) {
    sprintf("the objective failed at an initial point: %s", ev$message)
  } else paste("the objective failed:", ev$message)
}

# How a run ends when its policy signals the error e: a known cost written
# in R that failed where the policy asked for it ends it as "cost_failed"
# (with on_error = "skip" the policy sees such points as unaffordable
# instead, see cost_skipping_failures()), anything else as "policy_failed".
policy_failure_code <- function(e) {
  if (inherits(e, "costbo_error_cost")) "cost_failed" else "policy_failed"
}
policy_failure_reason <- function(e) {
  if (inherits(e, "costbo_error_cost_never_valid")) return(conditionMessage(e))
  if (inherits(e, "costbo_error_cost")) {
    paste(conditionMessage(e), "(where the policy asked for it)")
  } else paste("the policy failed:", conditionMessage(e))
}

# The end of a run (of either loop): its progress closed, its state a bo_run.
finish_run <- function(state, ctl) {
  progress_end(ctl)
  structure(state, class = "bo_run")
}

# What to do with the policy's proposal p (from state_propose() or
# async_propose()) in `state`, with `committed` of the budget held by
# pending evaluations, `busy` when some are pending (a finished one may
# change the models, so a proposal that does not fit waits for it), and
# `model` the state the policy decided in (the state itself, or its
# fantasy given the pending points). A list with `action`:
#   "fail"     the step's known cost cannot be worked out: record `ev`, a
#              failed evaluation, unpaid;
#   "evaluate" evaluate (or launch) `step`, realized, at its price `cost`;
#   "wait"     wait for a pending evaluation;
#   "stop"     stop with `code` and `reason` (and `declined`, the proposal
#              the budget refused, or NULL);
# and `p`, the proposal acted on (the budget rule's replacement when the
# policy's point does not fit: the best point that does, by the policy's
# acquisition), with, to evaluate, `prediction`: its cost's prediction in
# `model` given what remains (cost_predict_step(), recorded with it), and
# the seconds the budget rule took in `p$rule_time` (0 when the step fails
# before the rule is applied).
step_decide <- function(state, p, committed = 0, busy = FALSE,
                        model = state) {
  p$rule_time <- 0
  pr <- state$problem
  step <- p$step
  fail <- function(p, message) {
    list(action = "fail", p = p, step = p$step, ev = cost_failure(message))
  }
  halt <- function(code, reason = stop_reasons[[code]], declined = NULL) {
    list(action = "stop", p = p, code = code, reason = reason,
         declined = declined)
  }
  declined <- function(pc, reason = NULL) {
    if (busy) return(list(action = "wait", p = p))
    no <- problem_decline(pr, step, pc$cost, p$info)
    halt("budget", if (is.null(reason)) no$reason else reason, no$declined)
  }
  pc <- problem_price(pr, step)
  if (nzchar(pc$message)) return(fail(p, pc$message))
  remaining <- state$budget - state$spent - committed
  t0 <- proc.time()[["elapsed"]]
  alt <- budget_apply_rule(model, p, remaining, pc)
  rule_time <- proc.time()[["elapsed"]] - t0
  if (alt$none) return(declined(pc, budget_none_reason(state, remaining)))
  if (!identical(alt$p, p)) {
    p <- alt$p
    step <- p$step
    p$rule_time <- rule_time
    pc <- problem_price(pr, step)
    if (nzchar(pc$message)) return(fail(p, pc$message))
  }
  p$rule_time <- rule_time
  if (!is.na(pc$cost) &&
      state$spent + committed + pc$cost > state$budget * (1 + 1e-12)) {
    return(declined(pc))
  }
  if (problem_repeats_failure(pr, state, step)) return(halt("repeated_failure"))
  if (problem_exhausted(pr, model, step)) return(halt("exhausted"))
  # what the step's cost is predicted to be, as the rule saw it (recorded)
  p$prediction <- cost_predict_step(model, step, pc$cost, remaining)
  list(action = "evaluate", p = p, step = problem_realize(pr, step),
       cost = pc$cost)
}
