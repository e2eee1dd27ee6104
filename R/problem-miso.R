# Problems with several information sources (Poloczek et al. 2017, paper
# 004 Sec. 7; class "bo_problem_miso", see problem-questions.R): source 0
# is the objective, the others cheaper biased versions of it; a step
# chooses a point and a source, costs that source's cost there, and calls
# objective(x, source). One GP models all sources (gp_fit_miso()); the
# best value and the regret are those of source 0. The initial design
# evaluates every point at every source.

problem_step.bo_problem_miso <- function(problem, p, state) {
  new_step(p$x, source = p$source)
}

problem_design.bo_problem_miso <- function(problem, n, design = "sobol") {
  box <- NextMethod()
  S <- problem$n_sources
  list(x = box$x[rep(seq_len(n), each = S), , drop = FALSE],
       control_set = rep(NA_integer_, n * S),
       source = rep(seq_len(S) - 1L, times = n),
       index = rep(NA_integer_, n * S))
}

problem_synthetic.bo_problem_miso <- function(problem, m) {
  out <- NextMethod()
  out$sources <- seq_len(problem$n_sources) - 1L
  out
}

problem_price.bo_problem_miso <- function(problem, step) {
  checked_price(function() miso_cost(problem, step$x, step$source))
}

problem_decline.bo_problem_miso <- function(problem, step, cost, info) {
  list(reason = "budget spent: the next point would not fit",
       declined = list(x = step$x, source = step$source, cost = cost,
                       info = info))
}

# The same point may be asked of another source.
problem_repeats_failure.bo_problem_miso <- function(problem, state, step) {
  FALSE
}

problem_call.bo_problem_miso <- function(problem, step) {
  problem$objective(step$x, step$source)
}

problem_record.bo_problem_miso <- function(problem, state, step) {
  state$source <- c(state$source, step$source)
  state
}

problem_objective_rows.bo_problem_miso <- function(problem, state) {
  state_ok(state) & state$source == 0L
}

# A failure at the worst successful value of its own source (of any source
# when its own has none).
problem_failure_values.bo_problem_miso <- function(problem, state, ok) {
  y <- state$value
  worst <- min(state$value[ok])
  for (i in which(!ok)) {
    same <- ok & state$source == state$source[i]
    y[i] <- if (any(same)) min(state$value[same]) else worst
  }
  y
}

# The refit of the multi-source GP (gp_fit_miso()'s defaults), from the
# state's own records, which its worker trusts, warm-started from the
# previous fit.
problem_fit.bo_problem_miso <- function(problem, state, use, y) {
  if (length(y) < 2L || !(stats::sd(y) > 0)) {
    stop_costbo(paste("the objective model needs at least two successful",
                      "evaluations with different values"))
  }
  gp_fit_miso_run(state$X[use, , drop = FALSE],
                  as.integer(state$source[use]), as.double(y),
                  as.integer(problem$n_sources),
                  list(lower = as.double(problem$lower),
                       upper = as.double(problem$upper)),
                  "map", state$models$f, 1e-6, default_gp_priors())
}

problem_model_x.bo_problem_miso <- function(problem, state, rows) {
  cbind(state$X[rows, , drop = FALSE], state$source[rows])
}

problem_model_newdata.bo_problem_miso <- function(problem, X) cbind(X, 0)

problem_accepts.bo_problem_miso <- function(problem, policy, call) {
  if (!isTRUE(policy$miso)) {
    stop_arg("policy", paste("a policy for several information sources",
                             "(policy_kg() or policy_rollout() with",
                             "base = \"kg\") for a problem with sources"),
             policy$label, call = call)
  }
  problem_searchable(problem, policy, call)
}

problem_initial_columns.bo_problem_miso <- function(problem) {
  c(NextMethod(), "source")
}

problem_initial_steps.bo_problem_miso <- function(problem, initial, X, index,
                                                  call) {
  s <- check_sources(initial$source, nrow(X), arg = "initial$source",
                     call = call)
  if (any(s >= problem$n_sources)) {
    stop_arg("initial$source", sprintf("below the number of sources, %d",
                                       problem$n_sources), show = FALSE,
             call = call)
  }
  steps <- lapply(seq_len(nrow(X)), function(i) new_step(X[i, ], source = s[i]))
  cost <- if ("cost" %in% names(initial)) initial$cost else {
    vapply(seq_len(nrow(X)), function(i) miso_cost(problem, X[i, ], s[i]), 0)
  }
  list(steps = steps, cost = cost)
}

# bo_tell() takes the point bo_ask() returned, which carries its source;
# the cost is the source's.
problem_tell.bo_problem_miso <- function(problem, x, xm, index, cost, asked,
                                         call) {
  if (!is.null(asked)) {
    stop_arg("asked", "NULL for a problem without control sets", asked,
             call = call)
  }
  source <- attr(x, "source")
  if (is.null(source)) {
    stop_arg("x", paste("the point bo_ask() returned (it carries its",
                        "source) for a problem with sources"), x, call = call)
  }
  sc <- miso_cost(problem, xm[1L, ], source)
  if (!is.null(cost) && !isTRUE(all.equal(as.double(cost), sc))) {
    stop_arg("cost", sprintf("NULL or the source's cost %g", sc), cost,
             call = call)
  }
  list(step = new_step(xm[1L, ], source = source), cost = sc, src = x)
}

# bo_acquisition() takes points, or pairs (x, source) in d + 1 columns.
problem_acq_points.bo_problem_miso <- function(problem, X, call) {
  if (is.matrix(X) && ncol(X) == problem$d + 1L) {
    check_sources(X[, problem$d + 1L], nrow(X), arg = "X[, d + 1]",
                  call = call)
    Xx <- check_matrix(X[, seq_len(problem$d), drop = FALSE], d = problem$d,
                       arg = "X", call = call)
    return(list(X = X, Xx = Xx))
  }
  NextMethod()
}

problem_columns.bo_problem_miso <- function(problem, run, df) {
  df$source <- run$source
  df
}

problem_cost_label.bo_problem_miso <- function(problem) {
  if (is.null(problem$source_costs)) {
    sprintf("by source (%d sources, function of x and the source)",
            problem$n_sources)
  } else {
    paste0("by source: ", paste0("source ", seq_len(problem$n_sources) - 1L,
                                 " ", format(problem$source_costs),
                                 collapse = ", "))
  }
}

# The cost of evaluating source s at x given the problem's source-cost
# function, checked.
source_price <- function(source_cost, x, s) {
  c <- source_cost(x, s)
  if (!(is.numeric(c) && length(c) == 1L && is.finite(c) && c > 0)) {
    stop_costbo(sprintf("`source_costs` returned %s for source %d, not a positive number",
                        describe_value(c), s))
  }
  as.double(c)
}

is_miso <- function(problem) inherits(problem, "bo_problem_miso")

# Validate the multi-source arguments of bo_problem(); returns the problem's
# multi-source elements.
check_miso <- function(sources, source_costs, call = sys.call(-1L)) {
  S <- check_count(sources, min = 1L, arg = "sources", call = call)
  if (is.null(source_costs)) {
    stop_arg("source_costs", "given with `sources`", NULL, show = FALSE,
             call = call)
  }
  if (is.numeric(source_costs)) {
    if (!(length(source_costs) == S && all(is.finite(source_costs)) &&
          all(source_costs > 0))) {
      if (length(source_costs) != S) {
        stop_args(c("sources", "source_costs"), sprintf(paste(
          "match: one cost in `source_costs` per source (%d sources, %d",
          "costs), or a function(x, source)"), S, length(source_costs)),
          call = call)
      }
      stop_arg("source_costs",
               sprintf("%d positive numbers (one per source) or a function(x, source)",
                       S), source_costs, call = call)
    }
    cc <- as.double(source_costs)
    fun <- function(x, source) cc[source + 1L]
  } else if (is.function(source_costs)) {
    f <- formals(source_costs)
    if (!is.primitive(source_costs) && length(f) < 2L &&
        !("..." %in% names(f))) {
      stop_arg("source_costs", paste(
        "positive numbers (one per source) or a function(x, source) of two",
        "arguments"), source_costs, call = call)
    }
    fun <- source_costs
  } else {
    stop_arg("source_costs",
             "positive numbers (one per source) or a function(x, source)",
             source_costs, call = call)
  }
  list(miso = TRUE, n_sources = S, source_cost = fun,
       source_costs = if (is.numeric(source_costs)) cc)
}

# The cost of evaluating source s at x, checked (see source_price()).
miso_cost <- function(problem, x, s) source_price(problem$source_cost, x, s)

# Costs of the rows of X (user units) at every source: nrow(X) x S.
miso_cost_matrix <- function(problem, X) {
  S <- problem$n_sources
  if (!is.null(problem$source_costs)) {
    return(matrix(problem$source_costs, nrow(X), S, byrow = TRUE))
  }
  vapply(seq_len(S) - 1L, function(s) {
    apply(X, 1L, function(x) miso_cost(problem, x, s))
  }, numeric(nrow(X)))
}

# the policies price their own choices: no budget-feasible replacement
# (the rule "stop")
problem_candidates.bo_problem_miso <- function(problem, n) NULL

# a policy for several sources chooses pairs (x, source) of the box and the
# sources 0, ..., n_sources - 1, priced by problem_price()
problem_search.bo_problem_miso <- function(problem) {
  list(kind = "pairs", lower = problem$lower, upper = problem$upper,
       sources = problem$n_sources)
}
