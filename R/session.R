# The state of an optimization: evaluations, budget, models and policy
# memory. bo_session()/bo_ask()/bo_tell() expose it for real experiments;
# bo_optimize() drives the same machinery with the problem's objective.
#
# All state lives in plain R objects, so sessions and runs survive saveRDS()
# and travel to parallel workers.

new_state <- function(problem, policy, charge_initial, model = list()) {
  d <- problem$d
  list(
    problem = problem, policy = policy,
    X = matrix(0, 0, d), value = double(), cost = double(),
    charged = logical(), phase = character(), status = character(),
    message = character(), fit_time = double(), policy_time = double(),
    eval_time = double(), info = list(),
    control_set = integer(), random = matrix(0, 0, d), expected = double(),
    source = integer(), index = integer(),
    spent = 0, budget = problem$budget, budget_start = problem$budget,
    charge_initial = charge_initial, models = list(f = NULL, cost = NULL),
    model_args = model,
    memory = NULL, pending = NULL, stop_reason = NULL, iteration = 0L
  )
}

# Record one evaluation (or failure) of a step (new_step(); its point x
# is the one evaluated).
state_record <- function(state, step, value, cost, phase, status = "ok",
                         message = "", fit_time = NA_real_,
                         policy_time = NA_real_, eval_time = NA_real_,
                         info = list()) {
  charge <- phase != "initial" || state$charge_initial
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
  state$eval_time <- c(state$eval_time, eval_time)
  state$info <- c(state$info, list(info))
  if (paid) state$spent <- state$spent + cost
  if (phase == "initial" && !state$charge_initial) {
    state$budget_start <- state$budget
  } else if (phase == "initial") {
    state$budget_start <- state$budget - state$spent
  }
  state
}

# The evaluations that inform the models: successful ones.
state_ok <- function(state) state$status == "ok"

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
  model <- state$models$f
  if (!isTRUE(pr$noisy) || is.null(model)) return(state_best(state))
  ok <- state_objective(state)
  if (!any(ok)) return(NA_real_)
  newdata <- unique(problem_model_x(pr, state, ok))
  max(predict(model, newdata, sd = FALSE)$mean)
}

# Successful evaluations of the objective itself (source 0).
state_objective <- function(state) {
  problem_objective_rows(state$problem, state)
}

state_remaining <- function(state) state$budget - state$spent

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

# The noise variance band of a GP of exact data (a deterministic objective,
# and every measured cost), on the standardized scale: the band in which the
# reference implementation of Astudillo et al. (2021) holds the noise of
# both its GPs, so that the GP (nearly) interpolates. Free noise on such data
# can explain a lone good observation as noise and flatten the posterior
# (Dropwave, seed 2: noise twice the outputscale, every EI below 1e-8).
exact_noise_band <- c(1e-4, 1e-3)

# The gp_fit() arguments `args` of the user with the band above for exact
# data, unless the user set the noise model (`noise`, `noise_floor`,
# `noise_ceiling` or `estimate`): then gp_fit()'s own defaults fill in.
model_noise_default <- function(args, exact) {
  user <- c("noise", "noise_floor", "noise_ceiling", "estimate")
  if (!exact || any(user %in% names(args))) return(args)
  args$noise_floor <- exact_noise_band[1L]
  args$noise_ceiling <- exact_noise_band[2L]
  args
}

# gp_fit() of y on X over the problem's box with the user's settings
# `model_args`, warm-started from the previous fit `prev` when its kernel is
# the one asked for (and no start was given).
refit_gp <- function(X, y, pr, model_args, prev) {
  args <- c(list(X = X, y = y, lower = pr$lower, upper = pr$upper),
            model_args)
  kernel <- if (is.null(args$kernel)) "matern52" else args$kernel
  if (is.null(args$start) && !is.null(prev) &&
      identical(prev$kernel, kernel)) {
    args$start <- prev
  }
  do.call(gp_fit, args)
}

# What the acquisition functions need to know about the cost in this state
# (see problem_cost_args()).
state_cost_args <- function(state) problem_cost_args(state$problem, state)

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
#' `bo_session()` checks the settings the session will need (`model`, and
#' whether the policy suits the problem) at once, as [bo_optimize()] does.
#'
#' @param problem A [bo_problem()]. Its objective is not called by a session
#'   (give any function, e.g. `function(x) NA`).
#' @param policy A policy, e.g. [policy_ei_pu()].
#' @param initial Optional data frame of points already evaluated, with
#'   columns `x1`, ..., `xd`, `value`, and `cost` when the cost is measured
#'   (for a known cost, `cost` is computed when absent).
#' @param charge_initial Do the costs of the initial points count against the
#'   budget? Default `FALSE`: the budget is for the optimization phase, as in
#'   the papers' reference implementations.
#' @param model A named list of further arguments to [gp_fit()] for the
#'   objective's GP, e.g. `list(kernel = "se")` or fixed hyperparameters
#'   `list(estimate = "fixed", lengthscale = 0.1, outputscale = 1,
#'   noise = 1e-4)`. By default a Matérn 5/2 GP fitted by MAP, warm-started
#'   from the previous fit, whose noise depends on the problem (`noisy` in
#'   [bo_problem()]): for a deterministic objective the noise variance is
#'   held in \[1e-4, 1e-3\] of the variance of the observations
#'   (`noise_floor = 1e-4, noise_ceiling = 1e-3`, the band of the reference
#'   implementation of Astudillo et al. 2021), so that the GP (nearly)
#'   interpolates the data and does not explain a good observation away as
#'   noise; for a noisy objective it is estimated (between [gp_fit()]'s
#'   defaults `noise_floor = 1e-6` and `noise_ceiling = 10`). Settings given
#'   here win: with any of `noise`, `noise_floor`, `noise_ceiling` or
#'   `estimate` in `model`, the band is not applied and [gp_fit()]'s
#'   defaults fill in the rest. Its element `cost`, a list of the same kind,
#'   is for the GP on the log cost of a measured cost; a measured cost is
#'   exact, so that GP holds its noise in the same band by default (under
#'   the same rule), e.g. `list(cost = list(noise_floor = 1e-6))` lets it
#'   estimate a noisy cost.
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
#'                    cost = function(x) 1 + x, budget = 5)
#' init <- data.frame(x1 = c(0.1, 0.5, 0.9), value = c(0.2, 0.8, 0.1))
#' s <- bo_session(prob, policy_ei_pu(), initial = init)
#' x <- bo_ask(s)
#' x
#' # ... run the experiment at x, then:
#' s <- bo_tell(s, x, value = 0.75)
#' s
#' @export
bo_session <- function(problem, policy, initial = NULL,
                       charge_initial = FALSE, model = list()) {
  call <- sys.call()
  problem <- check_problem_policy(problem, policy, call)
  charge_initial <- check_flag(charge_initial)
  model <- check_model_args(model)
  state <- new_state(problem, policy, charge_initial, model)
  if (!is.null(initial)) state <- state_initial(state, initial)
  check_run_ready(state, call)
  state$memory <- policy_init(policy, state)
  structure(state, class = "bo_session")
}

# Record a data frame of evaluated points as the initial design.
state_initial <- function(state, initial, call = sys.call(-1L)) {
  pr <- state$problem
  d <- pr$d
  if (!is.data.frame(initial)) {
    stop_arg("initial", "a data frame with columns x1..xd and value", initial,
             call = call)
  }
  xn <- paste0("x", seq_len(d))
  need <- c(xn, "value", problem_initial_columns(pr))
  miss <- setdiff(need, names(initial))
  if (length(miss)) {
    stop_arg("initial", sprintf("a data frame with column%s %s",
                                if (length(miss) > 1L) "s" else "",
                                paste(miss, collapse = ", ")),
             show = FALSE, call = call)
  }
  X <- check_matrix(as.matrix(initial[xn]), d = d, arg = "initial", call = call)
  value <- check_vector(initial$value, nrow(X), arg = "initial$value",
                        call = call)
  index <- problem_in_domain(pr, X, "initial", call)
  init <- problem_initial_steps(pr, initial, X, index, call)
  cost <- check_vector(init$cost, nrow(X), arg = "initial$cost", call = call)
  if (any(cost <= 0)) {
    stop_arg("initial$cost", "positive", show = FALSE, call = call)
  }
  for (i in seq_len(nrow(X))) {
    state <- state_record(state, init$steps[[i]], value[i], cost[i],
                          "initial")
  }
  state
}

#' @rdname bo_session
#' @param session A `bo_session`.
#' @return `bo_ask()` returns the next point to evaluate: a numeric vector
#'   of length `d` of class `bo_point`, carrying the policy's diagnostics
#'   (attribute `"info"`), its state (e.g. the current \eqn{\lambda} of
#'   [policy_pbgi_d()]) and the fitted models. Pass it back to `bo_tell()`
#'   unchanged: the next `bo_ask()` then warm-starts from these models and
#'   the session proceeds exactly as [bo_optimize()] would (`as.numeric(x)`
#'   gives the bare coordinates for the experiment).
#' @export
bo_ask <- function(session) {
  if (!inherits(session, "bo_session")) {
    stop_arg("session", "a bo_session", session)
  }
  session <- upgrade_state(session)
  p <- state_propose(session)
  x <- problem_ask_point(session$problem, p$step, p)
  structure(x, info = p$info, memory = p$memory, models = p$state$models,
            control_set = p$control_set, source = p$source,
            class = "bo_point")
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
  info <- attr(x, "info")
  if (length(info)) {
    cat(paste0("  ", names(info), " = ",
               vapply(info, function(v) format(v, digits = 4), ""),
               collapse = "\n"), "\n")
  }
  invisible(x)
}

# Fit the models and ask the policy; returns list(x, info, memory,
# fit_time, policy_time, state).
state_propose <- function(state) {
  t0 <- proc.time()[["elapsed"]]
  state <- state_fit(state)
  t1 <- proc.time()[["elapsed"]]
  p <- state$policy$propose(state)
  t2 <- proc.time()[["elapsed"]]
  step <- problem_step(state$problem, p)
  list(step = step, x = step$x, info = p$info, memory = p$memory,
       fit_time = t1 - t0, policy_time = t2 - t1, state = state,
       control_set = p$control_set, source = p$source)
}

#' @rdname bo_session
#' @param x The point that was evaluated (usually what `bo_ask()` returned;
#'   for a problem with several information sources it must be, since it
#'   carries the source, attribute `source`).
#' @param value The observed objective value (`NA` for a failed experiment).
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
  pr <- session$problem
  call <- sys.call()
  if (!is.numeric(x)) stop_arg("x", "a numeric point", x)
  xm <- check_matrix(as.double(x), d = pr$d, arg = "x")
  if (nrow(xm) != 1L) stop_arg("x", "one point", x)
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
    pc <- problem_price(pr, told$step)
    if (nzchar(pc$message)) {
      stop_arg("cost", sprintf(paste("given: the problem's cost function",
                                     "gives no cost at `x` (%s)"),
                               pc$message), NULL, show = FALSE)
    }
    cost <- pc$cost
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
  session <- state_record(session, told$step, as.double(value), cost, "bo",
                          status = if (ok) "ok" else "error",
                          message = if (ok) "" else "no value reported",
                          info = if (is.null(info)) list() else info)
  session$memory <- memory
  session$iteration <- session$iteration + 1L
  session
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
    cat(sprintf("  best value %s at x = (%s)\n", format(x$value[i], digits = 6),
                paste(format(x$X[i, ], digits = 4), collapse = ", ")))
  }
}

# Whether the policy suits the problem (see problem_accepts()).
check_policy_fits <- function(problem, policy, call = sys.call(-1L)) {
  problem_accepts(problem, policy, call)
}

check_model_args <- function(model, call = sys.call(-1L)) {
  allowed <- setdiff(names(formals(gp_fit)), c("X", "y", "lower", "upper"))
  ok <- function(m, extra = NULL) {
    is.list(m) && (!length(m) || (!is.null(names(m)) &&
                                    all(names(m) %in% c(allowed, extra))))
  }
  if (!ok(model, "cost")) {
    stop_arg("model", sprintf(paste("a named list of gp_fit() arguments",
                                    "among %s, and `cost`"),
                              paste(allowed, collapse = ", ")), model,
             call = call)
  }
  if (!is.null(model$cost) && !ok(model$cost)) {
    stop_arg("model$cost", sprintf(paste("a named list of gp_fit() arguments",
                                         "among %s for the log-cost GP"),
                                   paste(allowed, collapse = ", ")),
             model$cost, call = call)
  }
  model
}

# The problem and the policy of a run or session, and whether they fit
# together.
check_problem_policy <- function(problem, policy, call) {
  if (!inherits(problem, "bo_problem")) {
    stop_arg("problem", "a bo_problem (see bo_problem() and test_problem())",
             problem, call = call)
  }
  if (!inherits(policy, "bo_policy")) {
    stop_arg("policy", "a bo_policy (see policy_ei())", policy, call = call)
  }
  problem <- upgrade_problem(problem)
  check_policy_fits(problem, policy, call = call)
  invisible(problem)
}
