# The state of an optimization: evaluations, budget, models and policy
# memory, in plain R objects, so that sessions and runs survive saveRDS()
# and travel to parallel workers. bo_session()/bo_ask()/bo_tell() expose it
# for real experiments; bo_optimize() drives it with the problem's objective.
# A user's table of evaluations enters it as its initial design
# (state_initial(), for bo_optimize(initial = ) and bo_session(initial = )).

new_state <- function(problem, policy, charge_initial, model = list(),
                      budget_rule = "feasible", budget_prob = 0.9) {
  d <- problem$d
  list(
    problem = problem, policy = policy,
    X = matrix(0, 0, d), value = double(), cost = double(),
    charged = logical(), phase = character(), status = character(),
    message = character(), fit_time = double(), policy_time = double(),
    rule_time = double(), eval_time = double(), info = list(),
    control_set = integer(), random = matrix(0, 0, d), expected = double(),
    source = integer(), index = integer(),
    spent = 0, budget = problem$budget, budget_start = problem$budget,
    charge_initial = charge_initial, budget_rule = budget_rule,
    budget_prob = budget_prob, models = list(f = NULL, cost = NULL),
    model_args = model,
    memory = NULL, pending = NULL, stop_reason = NULL, iteration = 0L
  )
}

# Record one evaluation (or failure) of a step (new_step(); its point x
# is the one evaluated), with the seconds spent fitting the models, in the
# policy, in the budget rule (step_decide()) and in the evaluation.
# `charge`: does its cost count against the budget (by default every cost
# but an initial point's of a state that does not charge its initial
# design; a session's history passes its own)?
state_record <- function(state, step, value, cost, phase, status = "ok",
                         message = "", fit_time = NA_real_,
                         policy_time = NA_real_, eval_time = NA_real_,
                         info = list(), rule_time = NA_real_,
                         charge = phase != "initial" || state$charge_initial) {
  rule_times <- state_rule_time(state)
  if (length(rule_time) != 1L) rule_time <- NA_real_
  state <- problem_record(state$problem, state, step)
  x <- step$x
  paid <- !is.na(cost) && charge
  state$X <- rbind(state$X, x, deparse.level = 0L)
  state$value <- c(state$value, value)
  state$cost <- c(state$cost, cost)
  state$charged <- c(state$charged, paid)
  state$phase <- c(state$phase, phase)
  state$status <- c(state$status, status)
  state$message <- c(state$message, message)
  state$fit_time <- c(state$fit_time, fit_time)
  state$policy_time <- c(state$policy_time, policy_time)
  state$rule_time <- c(rule_times, rule_time)
  state$eval_time <- c(state$eval_time, eval_time)
  state$info <- c(state$info, list(info))
  if (paid) state$spent <- state$spent + cost
  if (phase == "initial" && !charge) {
    state$budget_start <- state$budget
  } else if (phase == "initial") {
    state$budget_start <- state$budget - state$spent
  }
  state
}

# Record a data frame of evaluated points as the initial design (`charge`:
# do their costs count against the budget?).
state_initial <- function(state, initial, call = sys.call(-1L),
                          charge = state$charge_initial) {
  pr <- state$problem
  d <- pr$d
  if (!is.data.frame(initial)) {
    stop_arg("initial", "a data frame with columns x1..xd and value", initial,
             call = call)
  }
  ix <- problem_initial_x(pr, initial, call)
  miss <- c(ix$missing, setdiff(c("value", problem_initial_columns(pr)),
                                names(initial)))
  if (length(miss)) {
    stop_arg("initial", sprintf("a data frame with column%s %s",
                                if (length(miss) > 1L) "s" else "",
                                paste(miss, collapse = ", ")),
             show = FALSE, call = call)
  }
  X <- ix$X
  value <- check_vector(initial$value, nrow(X), arg = "initial$value",
                        call = call)
  value <- user_value(pr, value) # the objective's direction to costbo's
  index <- problem_in_domain(pr, X, "initial", call)
  init <- problem_initial_steps(pr, initial, X, index, call)
  cost <- check_vector(init$cost, nrow(X), arg = "initial$cost", call = call)
  if (any(cost <= 0)) {
    stop_arg("initial$cost", "positive", show = FALSE, call = call)
  }
  for (i in seq_len(nrow(X))) {
    state <- state_record(state, init$steps[[i]], value[i], cost[i],
                          "initial", charge = charge)
  }
  state
}

# The budget rule's seconds of each recorded evaluation (NA for the
# evaluations of a state saved before they were recorded).
state_rule_time <- function(state) {
  n <- length(state$value)
  t <- state$rule_time
  if (length(t) == n) t else c(t, rep(NA_real_, n - length(t)))[seq_len(n)]
}

# The evaluations that inform the objective's model: the successful ones
# and the failed ones, each failure with the worst successful value (of its
# source, with information sources; of any source when its own has none),
# so that the model, and through it every policy, steers away from points
# near failures (see "Failures and interruptions" in ?bo_optimize). Without
# failures, the successful evaluations alone. Returns list(use, y): the
# rows of the state and their values.
state_model_data <- function(state) {
  ok <- state_ok(state)
  use <- ok
  y <- state$value
  if (any(ok) && !all(ok)) {
    y <- problem_failure_values(state$problem, state, ok)
    use <- rep(TRUE, length(ok))
  }
  list(use = use, y = y[use])
}

# Fit (warm-started) the objective model, on the successful evaluations and
# the failed ones at the worst successful value (state_model_data()), and,
# for measured costs, the GP on log cost, on the evaluations whose cost is
# known (valid).
state_fit <- function(state) {
  pr <- state$problem
  md <- state_model_data(state)
  state$models$f <- problem_fit(pr, state, md$use, md$y)
  state$models$cost <- problem_fit_cost(pr, state)
  state
}

# Fit the models and ask the policy; returns list(x, info, memory,
# fit_time, policy_time, state).
state_propose <- function(state) {
  t0 <- proc.time()[["elapsed"]]
  state <- state_fit(state)
  t1 <- proc.time()[["elapsed"]]
  p <- state$policy$propose(state)
  t2 <- proc.time()[["elapsed"]]
  step <- proposal_step(state$problem, p, state)
  list(step = step, x = step$x, info = p$info, memory = p$memory,
       fit_time = t1 - t0, policy_time = t2 - t1, state = state,
       control_set = p$control_set, source = p$source)
}

# A run or session saved by an earlier costbo: its problem and its fitted
# models get their variants' classes and, on a finite domain, the state its
# candidate indices.
upgrade_state <- function(state) {
  pr <- upgrade_problem(state$problem)
  state$problem <- pr
  state$models <- gp_upgrade_models(state$models)
  problem_upgrade_state(pr, state)
}

