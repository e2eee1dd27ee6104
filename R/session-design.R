# The initial design a session proposes: a session whose history has fewer
# successful evaluations than its models need proposes costbo's initial
# design, as bo_optimize() runs it, one point (or a batch) per bo_ask(),
# charged as the loop charges its own design (design_ends()), then
# model-based points.

# The plan of a session made with the history in `state`: NULL when the
# history is enough for the models, else the design (problem_design(), drawn
# once, when the session is made, so that every bo_ask() proposes from the
# same plan) of the default size less the history, at least the points the
# models still need, with `told`, which of its points are recorded.
session_plan <- function(state) {
  pr <- state$problem
  need <- max(1L, problem_min_data(pr))
  have <- sum(state_ok(state))
  if (have >= need || inherits(pr, "bo_problem_cvs")) return(NULL)
  n <- max(default_n_init(pr) - length(state$value), need - have)
  n <- min(n, problem_n_points(pr) - length(state$value))
  if (n < 1L) return(NULL)
  plan <- problem_design(pr, n)
  plan$told <- rep(FALSE, nrow(plan$x))
  plan
}

# Is the session still in its design: a plan with points not told, and no
# model-based point recorded yet?
session_in_design <- function(session) {
  plan <- session$design_plan
  !is.null(plan) && !all(plan$told) && !any(session$phase == "bo")
}

# The row of the session's plan at the point x (encoded coordinates) not
# told yet, or NA.
session_plan_row <- function(session, x) {
  plan <- session$design_plan
  if (is.null(plan)) return(NA_integer_)
  pr <- session$problem
  tol <- 1e-8 * (pr$upper - pr$lower)
  hit <- which(!plan$told & apply(plan$x, 1L, function(r) {
    all(abs(r - x) <= tol)
  }))
  if (length(hit)) hit[1L] else NA_integer_
}

# Up to n points of the session's design, after the pending points `pend`
# (entries of session_ask()), as session_ask() lists its proposals; with
# `status` why the list ends: "full" (n points), "ended" (the design is
# over, and the models have the data they need), "wait" (the next point
# waits for the costs or values of pending points), "budget" (nothing of
# the design fits, `reason` says why).
session_ask_design <- function(session, n, pend) {
  pr <- session$problem
  plan <- session$design_plan
  out <- list()
  pending_at <- function(r) {
    session_repeats(pend, list(x = plan$x[r, ]), pr)
  }
  done <- function(status, reason = NULL) {
    list(out = out, pend = pend, status = status, reason = reason)
  }
  for (r in which(!plan$told)) {
    if (length(out) == n) return(done("full"))
    if (pending_at(r)) next
    step <- plan_step(plan, r)
    st <- session
    st$pending <- pend
    pc <- problem_price(pr, step)
    end <- design_ends(session, step, pc, TRUE, async_pending_cost(st),
                       length(pend))
    if (isTRUE(end$wait)) return(done("wait"))
    if (!is.null(end)) {
      return(if (is.null(end$code)) done("ended") else
        done("budget", "the next point of the initial design would not fit"))
    }
    entry <- list(step = step,
                  bound = async_bound(session, step, pc$cost, "initial"),
                  phase = "initial")
    pend <- c(pend, list(entry))
    p <- list(step = step, x = step$x, info = list(initial_design = TRUE),
              memory = session$memory, fit_time = 0, policy_time = 0,
              state = session, source = if (!is.na(step$source)) step$source)
    out[[length(out) + 1L]] <- list(
      p = p, price = pc, entry = entry,
      predicted = cost_predict_step(
        st, step, pc$cost, session$budget - session$spent -
          async_pending_cost(st)))
  }
  if (length(out) == n) return(done("full"))
  # every point of the design is asked or pending
  if (sum(state_ok(session)) >= max(1L, problem_min_data(pr))) {
    return(done("ended"))
  }
  done("wait")
}

# Whether `step` is one of the pending points `pend`.
session_repeats <- function(pend, step, problem) {
  tol <- 1e-10 * (problem$upper - problem$lower)
  any(vapply(pend, function(e) all(abs(e$step$x - step$x) <= tol), NA))
}
