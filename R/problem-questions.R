# The questions the loop asks a problem.
#
# A run, a session and their reports handle every variant of problem the
# same way; what differs between a box, a finite set of candidates, control
# sets and information sources is answered by the problem's class
# ("bo_problem_box", "bo_problem_finite", "bo_problem_cvs",
# "bo_problem_miso"; see new_bo_problem()). The methods here are those of a
# problem over a box, with a known or a measured cost; the other variants
# override what they do differently (problem-finite.R, problem-cvs.R,
# problem-miso.R).
#
# A decision ("step") is what the policy chose and the problem makes of it:
# list(x, control_set, source, index), with `x` the point on the problem's
# scale (with control sets, the partial query until problem_realize() draws
# the other inputs), `control_set` and `source` NA where the variant has
# none, and `index` the candidate's row on a finite domain (NA otherwise).

new_step <- function(x, control_set = NA_integer_, source = NA_integer_,
                     index = NA_integer_) {
  list(x = as.double(x), control_set = as.integer(control_set),
       source = as.integer(source), index = as.integer(index))
}

# The direction of a problem: does it maximize the objective as its user
# wrote it? FALSE for bo_problem(maximize = FALSE), whose objective is
# negated at its definition; problems saved before the field existed
# maximize. Anything with a `maximize` field answers (a benchmark's record).
problem_maximize <- function(problem) !isFALSE(problem$maximize)

# A value of the objective (an observation, a best value, an optimum, a
# posterior mean) between costbo's internal direction (maximization) and
# the user's: negated for a minimized problem. It is its own inverse, so it
# converts both ways: reports call it on internal values, bo_tell() on the
# user's.
user_value <- function(problem, v) if (problem_maximize(problem)) v else -v

# --- proposing ---------------------------------------------------------------

# The step of a policy's proposal `p` (list(x, control_set, source) as the
# policy returns it) in `state`.
problem_step <- function(problem, p, state) UseMethod("problem_step")
problem_step.bo_problem <- function(problem, p, state) new_step(p$x)

# The step of the proposal `p` of the policy of `state` (problem_step()),
# after checking it: every proposal the loop, the asynchronous loop and
# bo_ask() receive passes here before anything is priced or paid. A proposal
# that is not a list with a finite point of the problem's dimension inside
# the domain (on a finite domain with a prior, the index of a candidate;
# with control sets, a control set and a point of its inputs; with
# information sources, a source) signals an error of class
# costbo_error_policy (field `policy`, the policy's name) saying what was
# wrong: the loops end the run "policy_failed" with it, bo_ask() signals it.
proposal_step <- function(problem, p, state) {
  policy <- state$policy$name
  bad <- function(what, x) {
    msg <- sprintf("policy \"%s\" proposed %s, not %s", policy, what,
                   describe_value(x))
    stop(costbo_condition(c("costbo_error_policy", "costbo_error"), msg,
                          user_call(sys.call(-1L)), policy = policy))
  }
  whole_in <- function(v, lo, hi) {
    is.numeric(v) && length(v) == 1L && is.finite(v) && v == round(v) &&
      v >= lo && v <= hi
  }
  if (!is.list(p)) bad("no list(x = , info = , memory = )", p)
  x <- p$x
  if (inherits(problem, "bo_problem_finite") && !is.null(problem$prior)) {
    n <- nrow(problem$candidates)
    if (!whole_in(x, 1, n)) {
      bad(sprintf("`x` that is no candidate index in 1..%d", n), x)
    }
    return(problem_step(problem, p, state))
  }
  dims <- seq_len(problem$d)
  if (inherits(problem, "bo_problem_cvs")) {
    k <- length(problem$control_sets)
    if (!whole_in(p$control_set, 1, k)) {
      bad(sprintf("a `control_set` that is no control set in 1..%d", k),
          p$control_set)
    }
    dims <- problem$control_sets[[p$control_set]]
  }
  if (inherits(problem, "bo_problem_miso")) {
    S <- problem$n_sources
    if (!whole_in(p$source, 0, S - 1)) {
      bad(sprintf("a `source` that is no source in 0..%d", S - 1L), p$source)
    }
  }
  what <- sprintf("`x` that is no point of %d finite numbers", length(dims))
  if (!is.numeric(x) || length(x) != length(dims)) bad(what, x)
  x <- as.double(x)
  if (!all(is.finite(x))) bad(what, x)
  lo <- problem$lower[dims]
  up <- problem$upper[dims]
  tol <- sqrt(.Machine$double.eps) * pmax(up - lo, 1)
  out <- which(x < lo - tol | x > up + tol)
  if (length(out)) {
    j <- out[1L]
    bad(sprintf("`x` outside the domain (coordinate %d must be in [%g, %g])",
                dims[j], lo[j], up[j]), x[j])
  }
  problem_step(problem, p, state)
}

# The initial design of n points: list(x, control_set, source, index), one
# entry (row of x) per evaluation.
problem_design <- function(problem, n, design = "sobol") {
  UseMethod("problem_design")
}
problem_design.bo_problem <- function(problem, n, design = "sobol") {
  U <- if (identical(design, "minimax")) {
    unname(minimax_points(n, problem$d))[, , drop = FALSE]
  } else sobol_unit(n, problem$d)
  x <- sweep(sweep(U, 2L, problem$upper - problem$lower, "*"), 2L,
             problem$lower, "+")
  list(x = x, control_set = rep(NA_integer_, n),
       source = rep(NA_integer_, n), index = rep(NA_integer_, n))
}

# The step of row k of an initial design (plans saved by earlier versions
# hold x and source only).
plan_step <- function(plan, k) {
  at <- function(v) if (is.null(v)) NA_integer_ else v[k]
  new_step(plan$x[k, ], control_set = at(plan$control_set),
           source = at(plan$source), index = at(plan$index))
}

# Points at which to validate a run before paying (check_run_ready()), and
# the sources each is evaluated at: a Kronecker sequence in the box,
# frac(i sqrt(p_j)) for the first d primes.
problem_synthetic <- function(problem, m) UseMethod("problem_synthetic")
problem_synthetic.bo_problem <- function(problem, m) {
  p <- first_primes(problem$d)
  U <- (outer(seq_len(m), sqrt(p)) %% 1) * 0.9 + 0.05
  x <- sweep(sweep(U, 2L, problem$upper - problem$lower, "*"), 2L,
             problem$lower, "+")
  list(x = x, sources = NA_integer_)
}

# The first n primes.
first_primes <- function(n) {
  p <- integer()
  k <- 2L
  while (length(p) < n) {
    if (all(k %% p[p <= sqrt(k)] != 0L)) p <- c(p, k)
    k <- k + 1L
  }
  p
}

# --- paying -----------------------------------------------------------------

# The price of a step, worked out before paying for it: list(cost, message),
# the cost NA with a message when the cost function fails or returns
# anything but one positive number. A measured cost is not known in advance
# (NA, no message).
problem_price <- function(problem, step) UseMethod("problem_price")
problem_price.bo_problem <- function(problem, step) {
  if (problem$cost_type == "measured") {
    return(list(cost = NA_real_, message = ""))
  }
  checked_price(function() problem$cost(step$x))
}

# Call `price()` and check that it gives one positive number.
checked_price <- function(price) {
  out <- tryCatch(price(), error = function(e) e)
  if (inherits(out, "error")) {
    return(list(cost = NA_real_, message = paste("the cost function failed:",
                                                 conditionMessage(out))))
  }
  if (!(is.numeric(out) && length(out) == 1L && !is.na(out) &&
        is.finite(out) && out > 0)) {
    return(list(cost = NA_real_, message = sprintf(
      "the cost function returned %s, not a positive number",
      describe_value(unname(out)))))
  }
  list(cost = as.double(out), message = "")
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

# Why a step whose price does not fit the budget is declined, and what the
# run keeps of it (`declined`).
problem_decline <- function(problem, step, cost, info) {
  UseMethod("problem_decline")
}
problem_decline.bo_problem <- function(problem, step, cost, info) {
  list(reason = "budget spent: the next point would not fit",
       declined = list(x = step$x, cost = cost, info = info))
}

# Whether the policy proposed a point that failed before (the run stops
# rather than pay for it again).
problem_repeats_failure <- function(problem, state, step) {
  UseMethod("problem_repeats_failure")
}
problem_repeats_failure.bo_problem <- function(problem, state, step) {
  failed <- state$X[!state_ok(state), , drop = FALSE]
  nrow(failed) > 0L &&
    any(rowSums(abs(sweep(failed, 2L, step$x)) <=
                  1e-10 * (problem$upper - problem$lower)) == problem$d)
}

# Whether a deterministic objective would be evaluated again at a point it
# was evaluated at, with no other point left to move to (typed spaces, see
# problem_step.bo_problem_typed(); finite sets of candidates).
problem_exhausted <- function(problem, state, step) {
  UseMethod("problem_exhausted")
}
problem_exhausted.bo_problem <- function(problem, state, step) FALSE

# The step ready to evaluate (with control sets, the other inputs drawn).
problem_realize <- function(problem, step) UseMethod("problem_realize")
problem_realize.bo_problem <- function(problem, step) step

# Call the objective for a step (may throw).
problem_call <- function(problem, step) UseMethod("problem_call")
problem_call.bo_problem <- function(problem, step) problem$objective(step$x)

# --- recording ----------------------------------------------------------------

# The state with the variant's own record of a step appended.
problem_record <- function(problem, state, step) UseMethod("problem_record")
problem_record.bo_problem <- function(problem, state, step) state

# The evaluations of the objective itself among those that succeeded.
problem_objective_rows <- function(problem, state) {
  UseMethod("problem_objective_rows")
}
problem_objective_rows.bo_problem <- function(problem, state) state_ok(state)

# The values the objective's model takes at the evaluations (all of them
# when some failed): each failure at the worst successful value.
problem_failure_values <- function(problem, state, ok) {
  UseMethod("problem_failure_values")
}
problem_failure_values.bo_problem <- function(problem, state, ok) {
  y <- state$value
  y[!ok] <- min(state$value[ok])
  y
}

# --- modelling ----------------------------------------------------------------

# The objective's model fitted to the rows `use` of the state with values y.
problem_fit <- function(problem, state, use, y) UseMethod("problem_fit")
problem_fit.bo_problem <- function(problem, state, use, y) {
  if (length(y) < 2L || !(stats::sd(y) > 0)) {
    stop_costbo(paste("the objective model needs at least two successful",
                      "evaluations with different values"))
  }
  args <- state$model_args
  args$cost <- NULL # model$cost is for the log-cost GP
  refit_gp(state$X[use, , drop = FALSE], y, problem, args, state$models$f,
           exact = !isTRUE(problem$noisy))
}

# The GP of the log cost, for a measured cost (NULL otherwise, and while the
# costs do not vary).
problem_fit_cost <- function(problem, state) UseMethod("problem_fit_cost")
problem_fit_cost.bo_problem <- function(problem, state) {
  if (problem$cost_type != "measured") return(state$models$cost)
  known <- !is.na(state$cost)
  lc <- log(state$cost[known])
  if (length(lc) < 2L || !(stats::sd(lc) > 0)) return(NULL)
  # a measured cost is exact
  refit_gp(state$X[known, , drop = FALSE], lc, problem,
           state$model_args$cost, state$models$cost, exact = TRUE)
}

# How many successful evaluations the objective's model needs before a
# policy can propose (none under an explicit prior).
problem_min_data <- function(problem) UseMethod("problem_min_data")
problem_min_data.bo_problem <- function(problem) 2L

# The number of points of the domain (Inf for a continuous one).
problem_n_points <- function(problem) UseMethod("problem_n_points")
problem_n_points.bo_problem <- function(problem) Inf

# Points of the domain to screen: n design points of a box (problem_design(),
# scrambled from R's RNG), every candidate of a finite domain.
problem_points <- function(problem, n) UseMethod("problem_points")
problem_points.bo_problem <- function(problem, n) problem_design(problem, n)$x

# What a policy proposes for the point X (a one-row matrix of the domain):
# the point, or under an explicit prior its candidate index.
problem_proposal_x <- function(problem, X) UseMethod("problem_proposal_x")
problem_proposal_x.bo_problem <- function(problem, X) X[1L, ]

# A state saved by an earlier costbo, brought up to date for the problem.
problem_upgrade_state <- function(problem, state) {
  UseMethod("problem_upgrade_state")
}
problem_upgrade_state.bo_problem <- function(problem, state) state

# Where a policy searches: list(kind = "box", lower, upper) for a box;
# list(kind = "rows", rows) for a finite set of candidate rows, whose
# proposal is a row; list(kind = "indices", n) for candidates under an
# explicit prior, whose proposal is a candidate's index in 1..n (the model's
# inputs are the indices minus one); list(kind = "pairs", lower, upper,
# sources) for a box with information sources, whose proposal is a pair
# (x, source). Policies ask; they do not read the problem's
# candidates, prior or sources.
problem_search <- function(problem) UseMethod("problem_search")
problem_search.bo_problem <- function(problem) {
  list(kind = "box", lower = problem$lower, upper = problem$upper)
}

# The inputs of the objective's model at the rows `rows` of the state.
problem_model_x <- function(problem, state, rows) {
  UseMethod("problem_model_x")
}
problem_model_x.bo_problem <- function(problem, state, rows) {
  state$X[rows, , drop = FALSE]
}

# The inputs of the objective's model for the points X of the problem (of
# the objective itself, with information sources).
problem_model_newdata <- function(problem, X) {
  UseMethod("problem_model_newdata")
}
problem_model_newdata.bo_problem <- function(problem, X) X

# What the acquisition functions need to know about the cost in a state: a
# known cost, the log-cost GP, or (measured but not yet learnable, e.g. all
# costs equal) the constant observed cost.
problem_cost_args <- function(problem, state) UseMethod("problem_cost_args")
problem_cost_args.bo_problem <- function(problem, state) {
  if (problem$cost_type == "known") {
    cost <- problem_cost_closure(problem)
    if (is.null(cost)) {
      cost <- problem$cost
    } else if (isTRUE(state$skip_cost_failures)) {
      cost <- cost_skipping_failures(cost, problem$d)
    }
    return(list(cost = cost, cost_model = NULL))
  }
  if (!is.null(state$models$cost)) {
    return(list(cost = NULL, cost_model = state$models$cost))
  }
  list(cost = state_seen_cost(state), cost_model = NULL)
}

# A known cost written in R as the C core calls it (src/rcall.h): the
# user's function of one point x in the box, marked by new_unit_cost(),
# which C calls at x = lower + u * (upper - lower) for the points u of the
# unit cube of the objective's GP (a typed problem's box is the unit cube
# and its cost decodes the point). NULL when the cost is measured or one
# the C core evaluates itself (a number or a cost constructor's). Every
# known cost written in R reaches the policies through this function.
problem_cost_closure <- function(problem) {
  f <- problem$cost
  if (problem$cost_type != "known" || !is.null(attr(f, "costbo_cost"))) {
    return(NULL)
  }
  # the user's function itself: C calls it at x = lower + u * range and
  # multiplies its gradient (d cost / d x) by range
  new_unit_cost(f, units = "x")
}

# A run with on_error = "skip" (state$skip_cost_failures) handles a known
# cost written in R that fails at some points as it handles a failing
# objective: the run goes on. To the policies such a point is unaffordable:
# the closure `f` (of new_unit_cost(), the problem's d inputs) returns
# `unaffordable_cost` there, with a zero gradient, instead of the error, so
# that a cost-aware acquisition values it at (nearly) nothing and no budget
# admits it; a point the policy still proposes is priced by problem_price(),
# which records the failure. (1e100: far above any budget, far below
# overflow when summed or squared by the C core's cost arithmetic.)
unaffordable_cost <- 1e100
cost_skipping_failures <- function(f, d) {
  skip <- function(x) {
    v <- tryCatch(f(x), error = function(e) NULL)
    if (is.null(v)) structure(unaffordable_cost, gradient = numeric(d)) else v
  }
  new_unit_cost(skip, units = attr(f, "costbo_units"))
}

# --- users' data ----------------------------------------------------------------

# Whether a policy suits the problem (an error naming `policy` if not).
problem_accepts <- function(problem, policy, call) {
  UseMethod("problem_accepts")
}
problem_accepts.bo_problem <- function(problem, policy, call) {
  if (isTRUE(policy$cvs)) {
    stop_arg("policy", "a policy for problems without control sets",
             policy$label, call = call)
  }
  problem_searchable(problem, policy, call)
}

# Whether the policy can search where the problem says (its `domains`; a
# policy saved before policies declared them can search anywhere).
problem_searchable <- function(problem, policy, call) {
  kind <- problem_search(problem)$kind
  if (!is.null(policy$domains) && !(kind %in% policy$domains)) {
    what <- c(box = "a box", rows = "candidate points without a prior",
              indices = "candidate points with an explicit prior",
              pairs = "points and information sources")
    stop_arg("policy", sprintf("a policy that can search %s (%s searches %s)",
                               what[[kind]], policy$label,
                               paste(what[policy$domains], collapse = " or ")),
             policy$label, call = call)
  }
  invisible(TRUE)
}

# Check that the points X (a matrix) are in the problem's domain; returns the
# steps' candidate indices on a finite domain (NA otherwise).
problem_in_domain <- function(problem, X, arg, call) {
  UseMethod("problem_in_domain")
}
problem_in_domain.bo_problem <- function(problem, X, arg, call) {
  tol <- 1e-10 * (problem$upper - problem$lower)
  if (any(sweep(X, 2L, problem$lower - tol) < 0) ||
      any(sweep(X, 2L, problem$upper + tol) > 0)) {
    stop_arg(arg, "inside the problem's box [lower, upper]", show = FALSE,
             call = call)
  }
  rep(NA_integer_, nrow(X))
}

# The columns an `initial` data frame of bo_session() needs besides x1..xd
# and value.
problem_initial_columns <- function(problem) {
  UseMethod("problem_initial_columns")
}
problem_initial_columns.bo_problem <- function(problem) {
  if (problem$cost_type == "measured") "cost"
}

# The steps of the initial data frame's points X (checked) and their costs
# (given in `initial$cost`, or computed).
problem_initial_steps <- function(problem, initial, X, index, call) {
  UseMethod("problem_initial_steps")
}
problem_initial_steps.bo_problem <- function(problem, initial, X, index,
                                             call) {
  steps <- lapply(seq_len(nrow(X)), function(i) {
    new_step(X[i, ], index = index[i])
  })
  cost <- if ("cost" %in% names(initial)) initial$cost else
    apply(X, 1L, problem$cost)
  list(steps = steps, cost = cost)
}

# The step and cost of an evaluation reported to bo_tell() (cost NULL when
# the problem works it out).
# `src` is the point that carries what bo_ask() returned with it.
problem_tell <- function(problem, x, xm, index, cost, asked, call) {
  UseMethod("problem_tell")
}
problem_tell.bo_problem <- function(problem, x, xm, index, cost, asked,
                                    call) {
  if (!is.null(asked)) {
    stop_arg("asked", "NULL for a problem without control sets", asked,
             call = call)
  }
  list(step = new_step(xm[1L, ], index = index), cost = cost, src = x)
}

# The point bo_ask() returns for a step.
problem_ask_point <- function(problem, step, p) {
  UseMethod("problem_ask_point")
}
problem_ask_point.bo_problem <- function(problem, step, p) step$x

# The points and sources of bo_acquisition()'s X, checked: list(X, Xx) with
# X what the policy's acquisition takes and Xx the points alone.
problem_acq_points <- function(problem, X, call) {
  UseMethod("problem_acq_points")
}
problem_acq_points.bo_problem <- function(problem, X, call) {
  X <- check_matrix(X, d = problem$d, call = call)
  list(X = X, Xx = X)
}

# --- reporting ------------------------------------------------------------------

# The columns of as.data.frame() a variant adds after `eval_time`.
problem_columns <- function(problem, run, df) UseMethod("problem_columns")
problem_columns.bo_problem <- function(problem, run, df) df

# The regret a summary reports for the best value found: list(value, what),
# `what` "known optimum" (or the variant's kind of regret).
problem_regret <- function(problem, run, best_value) {
  UseMethod("problem_regret")
}
problem_regret.bo_problem <- function(problem, run, best_value) {
  list(value = if (is.null(problem$optimum)) NA_real_ else
    problem$optimum - best_value, what = "optimum")
}

# The regret after each evaluation that the variant records (the simple
# regret of control sets), or NULL.
problem_regret_curve <- function(problem, run) {
  UseMethod("problem_regret_curve")
}
problem_regret_curve.bo_problem <- function(problem, run) NULL

# A recorded point as reports show it: the coordinates x1..xd (named), or
# the typed point of a typed space.
problem_point_of <- function(problem, x) UseMethod("problem_point_of")
problem_point_of.bo_problem <- function(problem, x) {
  stats::setNames(as.double(x), paste0("x", seq_along(x)))
}

# How the problem's cost is described by print().
problem_cost_label <- function(problem) UseMethod("problem_cost_label")
problem_cost_label.bo_problem <- function(problem) {
  if (problem$cost_type == "measured") {
    "measured by the objective (unknown in advance)"
  } else if (!is.null(attr(problem$cost, "costbo_cost"))) {
    sprintf("known (%s)", attr(problem$cost, "costbo_cost")$label)
  } else "known (function of x)"
}
