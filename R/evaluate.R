# Paying for a step at the price its caller worked out (problem_price(),
# once per step: the drivers price a step once and pass the price on),
# under error handling, so that nothing paid is lost and a failure is
# recorded.

# The record of a point whose known cost could not be worked out.
cost_failure <- function(message) {
  list(value = NA_real_, cost = NA_real_, status = "error",
       message = message, time = 0, cost_valid = FALSE, failed = TRUE,
       cost_function = TRUE)
}

# Evaluate a step: call the objective (problem_call()) under tryCatch;
# `cost` is the step's known price (NA for a measured cost). A step whose
# known cost cannot be worked out is not paid for: its caller records
# cost_failure() instead. Returns
# list(value, cost, status, message, time, cost_valid, failed): `status` is
# "ok" when the value is a finite number; with a measured cost, a valid
# value reported with a missing or invalid cost is kept ("ok", the cost NA
# and `cost_valid` FALSE) and a valid cost reported with an invalid value
# is kept (and charged); `failed` says whether anything was wrong.
evaluate_step <- function(problem, step, cost) {
  t0 <- proc.time()[["elapsed"]]
  out <- tryCatch(problem_call(problem, step), error = function(e) e)
  time <- proc.time()[["elapsed"]] - t0
  known <- problem$cost_type != "measured"
  result <- function(value, cost, message) {
    ok <- !is.na(value)
    list(value = value, cost = cost, status = if (ok) "ok" else "error",
         message = message, time = time, cost_valid = !is.na(cost),
         failed = !ok || is.na(cost))
  }
  if (inherits(out, "error")) {
    return(result(NA_real_, if (known) cost else NA_real_,
                  conditionMessage(out)))
  }
  if (known) {
    if (!(is.numeric(out) && length(out) == 1L && is.finite(out))) {
      return(result(NA_real_, cost, sprintf(
        "the objective returned %s, not a finite number", describe_value(out))))
    }
    return(result(as.double(out), cost, ""))
  }
  if (is.numeric(out) && length(out) == 1L && is.null(names(out))) {
    # a first script's mistake: a bare value where a measured cost is due
    return(result(NA_real_, NA_real_, paste(
      "the objective returned a number, but the problem has no `cost`, so",
      "its objective must return list(value = , cost = ) with the cost",
      "measured; give bo_problem() a `cost` (a number such as 1 for unit",
      "costs, or a function of the point) or return both")))
  }
  v <- if (is.list(out)) out$value else if (is.numeric(out)) out["value"]
  cst <- if (is.list(out)) out$cost else if (is.numeric(out)) out["cost"]
  v_ok <- is.numeric(v) && length(v) == 1L && is.finite(v)
  c_ok <- is.numeric(cst) && length(cst) == 1L && is.finite(cst) && cst > 0
  msg <- c(if (!v_ok) "the objective did not return a finite `value`",
           if (!c_ok) sprintf("the objective returned the cost %s, not a positive number",
                              describe_value(unname(cst))))
  if (v_ok && !c_ok) msg <- paste0(msg, " (the value is kept)")
  if (!v_ok && c_ok) msg <- paste0(msg, " (its cost is kept)")
  result(if (v_ok) as.double(v) else NA_real_,
         if (c_ok) as.double(cst) else NA_real_, paste(msg, collapse = "; "))
}
