# Problems over a finite set of candidate points (class "bo_problem_finite",
# see problem-questions.R): with an explicit prior (mean and covariance over
# the candidates), the objective's model is a gp_finite() over their
# indices; without one, a GP on their coordinates. The state keeps each
# evaluation's candidate index (state$index), so that the models never map
# coordinates back to candidates; points given by users (bo_tell(),
# bo_session(initial = ), bo_acquisition()) are matched to candidates once,
# where they enter.

problem_step.bo_problem_finite <- function(problem, p, state) {
  if (!is.null(problem$prior)) {
    # the policy proposes a candidate index
    i <- as.integer(p$x)
    return(new_step(problem$candidates[i, ], index = i))
  }
  x <- as.double(p$x)
  new_step(x, index = match_candidates(problem$candidates,
                                       matrix(x, 1L)))
}

# A deterministic objective has nothing left to show once every candidate
# has been evaluated: a run stops ("exhausted") rather than paying for a
# candidate again.
problem_exhausted.bo_problem_finite <- function(problem, state, step) {
  !isTRUE(problem$noisy) && !is.na(step$index) &&
    all(seq_len(nrow(problem$candidates)) %in%
          state$index[state_ok(state)])
}

problem_design.bo_problem_finite <- function(problem, n, design = "sobol") {
  i <- sample.int(nrow(problem$candidates), n)
  list(x = problem$candidates[i, , drop = FALSE],
       control_set = rep(NA_integer_, n), source = rep(NA_integer_, n),
       index = i)
}

problem_synthetic.bo_problem_finite <- function(problem, m) {
  k <- seq_len(min(m, nrow(problem$candidates)))
  list(x = problem$candidates[k, , drop = FALSE], sources = NA_integer_,
       index = k)
}

problem_record.bo_problem_finite <- function(problem, state, step) {
  state$index <- c(state$index, step$index)
  state
}

problem_fit.bo_problem_finite <- function(problem, state, use, y) {
  if (is.null(problem$prior)) return(NextMethod())
  gp_finite_run(problem$prior$mean, problem$prior$cov, problem$noise,
                x = state$index[use], y = y)
}

problem_model_x.bo_problem_finite <- function(problem, state, rows) {
  if (is.null(problem$prior)) return(NextMethod())
  state$index[rows]
}

problem_min_data.bo_problem_finite <- function(problem) {
  if (is.null(problem$prior)) 2L else 0L
}

problem_n_points.bo_problem_finite <- function(problem) {
  nrow(problem$candidates)
}

problem_points.bo_problem_finite <- function(problem, n) problem$candidates

problem_proposal_x.bo_problem_finite <- function(problem, X) {
  if (is.null(problem$prior)) X[1L, ] else
    match_candidates(problem$candidates, X)
}

# a state saved before states kept candidate indices
problem_upgrade_state.bo_problem_finite <- function(problem, state) {
  if (length(state$index) != length(state$value)) {
    state$index <- match_candidates(problem$candidates, state$X)
  }
  state
}

problem_candidates.bo_problem_finite <- function(problem, n) {
  problem$candidates
}

problem_search.bo_problem_finite <- function(problem) {
  if (is.null(problem$prior)) {
    list(kind = "rows", rows = problem$candidates)
  } else list(kind = "indices", n = nrow(problem$candidates))
}

problem_model_newdata.bo_problem_finite <- function(problem, X) {
  if (is.null(problem$prior)) X else match_candidates(problem$candidates, X)
}

# With an explicit prior the acquisitions take costs per candidate: the
# known cost of each, or the log-cost GP's mean cost (exp(m + s^2 / 2)).
problem_cost_args.bo_problem_finite <- function(problem, state) {
  if (is.null(problem$prior)) return(NextMethod())
  if (problem$cost_type == "known") {
    cost <- problem$cost
    if (isTRUE(state$skip_cost_failures)) {
      cost <- cost_skipping_failures(cost, problem$d)
    }
    return(list(cost = as.double(apply(problem$candidates, 1L, cost)),
                cost_model = NULL))
  }
  if (!is.null(state$models$cost)) {
    # a GP on the candidates' coordinates
    p <- predict(state$models$cost, problem$candidates)
    return(list(cost = exp(p$mean + p$sd^2 / 2), cost_model = NULL))
  }
  NextMethod()
}

problem_in_domain.bo_problem_finite <- function(problem, X, arg, call) {
  NextMethod()
  idx <- tryCatch(match_candidates(problem$candidates, X),
                  costbo_error = function(e) NULL)
  if (is.null(idx)) {
    stop_arg(arg, "made of the problem's candidate points", show = FALSE,
             call = call)
  }
  idx
}

# Row indices of the points X among the candidates: the first candidate
# equal to each point within 1e-10 of the candidates' spread in every
# coordinate (an error when a point is none of them).
match_candidates <- function(candidates, X) {
  X <- matrix(as.double(X), ncol = ncol(candidates))
  spread <- apply(candidates, 2L, function(v) diff(range(v)))
  tol <- 1e-10 * ifelse(spread > 0, spread, pmax(abs(candidates[1L, ]), 1))
  idx <- vapply(seq_len(nrow(X)), function(i) {
    near <- colSums(abs(t(candidates) - X[i, ]) <= tol) == ncol(candidates)
    if (any(near)) which(near)[1L] else NA_integer_
  }, integer(1))
  if (anyNA(idx)) stop_costbo("an evaluated point is not one of the candidates")
  idx
}
