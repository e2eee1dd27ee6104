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
