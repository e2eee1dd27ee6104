# Queries of a state's records alone (no problem, no model): which
# evaluations succeeded, the remaining budget, the costs seen. The bottom of
# the state's modules: everything that reads a state may call them.

# The evaluations that inform the models: successful ones.
state_ok <- function(state) state$status == "ok"

state_remaining <- function(state) state$budget - state$spent

# The geometric mean of the costs the state has seen (NA before any): what
# a measured cost is taken to be while it cannot be modelled.
state_seen_cost <- function(state) {
  seen <- state$cost[!is.na(state$cost)]
  if (length(seen)) exp(mean(log(seen))) else NA_real_
}

# A structural check of a state that was saved or may have been edited by
# hand (a session told or asked, a checkpoint resumed): every record field
# has one entry per evaluation and its type, and the spend is the sum of
# the charged costs. An error of class costbo_error_arg naming `arg` says
# which field disagrees. Fields that older versions of costbo did not keep
# may be absent.
check_state_records <- function(state, arg, call = sys.call(-1L)) {
  n <- length(state$value)
  bad <- function(what) {
    stop_arg(arg, sprintf("a %s whose records agree: %s", arg, what),
             show = FALSE, call = call)
  }
  if (!is.numeric(state$value)) bad("`value` is not numeric")
  X <- state$X
  d <- state$problem$d
  if (!(is.matrix(X) && is.numeric(X) && nrow(X) == n && ncol(X) == d)) {
    bad(sprintf("`X` must be a matrix of %d rows (the evaluations) and %d columns",
                n, d))
  }
  kinds <- list(cost = is.numeric, phase = is.character,
                status = is.character, message = is.character,
                fit_time = is.numeric, policy_time = is.numeric)
  optional <- list(charged = is.logical, eval_time = is.numeric,
                   info = is.list, rule_time = is.numeric,
                   launch = is.numeric, worker = is.numeric,
                   t_launch = is.numeric, t_done = is.numeric)
  pr <- state$problem
  if (inherits(pr, "bo_problem_finite")) optional$index <- is.numeric
  if (inherits(pr, "bo_problem_miso")) kinds$source <- is.numeric
  if (inherits(pr, "bo_problem_cvs")) {
    optional$control_set <- is.numeric
    optional$expected <- is.numeric
  }
  for (f in names(kinds)) {
    v <- state[[f]]
    if (!(kinds[[f]](v) && length(v) == n)) {
      bad(sprintf("`%s` has %d entries for %d evaluations", f, length(v), n))
    }
  }
  for (f in names(optional)) {
    v <- state[[f]]
    if (is.null(v)) next
    if (!(optional[[f]](v) && length(v) == n)) {
      bad(sprintf("`%s` has %d entries for %d evaluations", f, length(v), n))
    }
  }
  if (!all(state$phase %in% c("initial", "bo"))) {
    bad("`phase` holds values other than \"initial\" and \"bo\"")
  }
  spent <- state$spent
  if (!(is.numeric(spent) && length(spent) == 1L && is.finite(spent))) {
    bad("`spent` is not a finite number")
  }
  if (!is.null(state$charged) && is.logical(state$charged)) {
    paid <- state$charged & !is.na(state$cost)
    total <- sum(state$cost[paid])
    if (abs(spent - total) > 1e-8 * max(1, abs(total))) {
      bad(sprintf("`spent` (%s) is not the sum of the charged costs (%s)",
                  format(signif(spent, 8)), format(signif(total, 8))))
    }
  }
  invisible(state)
}
