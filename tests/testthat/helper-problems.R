# Small problems for the loop tests, defined with bo_problem() directly.

branin_max <- function(x) {
  -((x[2] - 5.1 / (4 * pi^2) * x[1]^2 + 5 / pi * x[1] - 6)^2 +
      10 * (1 - 1 / (8 * pi)) * cos(x[1]) + 10)
}

known_cost_problem <- function(budget = 40) {
  lo <- c(-5, 0)
  up <- c(10, 15)
  bo_problem(branin_max, lo, up, cost = cost_linear(lo, up), budget = budget,
             name = "branin, linear cost", optimum = -0.397887357729739)
}

measured_cost_problem <- function(budget = 12) {
  # the objective carries its own copy of the function, so that it still
  # works after a checkpoint is read back in another session
  f <- branin_max
  bo_problem(function(x) list(value = f(x), cost = exp(2 * (x[1] + 5) / 15)),
             c(-5, 0), c(10, 15), budget = budget, name = "branin, measured",
             optimum = -0.397887357729739)
}

run_frame <- function(run) {
  df <- as.data.frame(run)
  df[, setdiff(names(df), c("fit_time", "policy_time", "rule_time",
                            "eval_time"))]
}
