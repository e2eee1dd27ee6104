# Policies: small objects that choose the next point from a state; the
# protocol every policy follows (the policies are in policies-*.R).

#' Policies and the policy protocol
#'
#' A policy chooses the next point to evaluate from the current state of an
#' optimization. costbo's policies are small objects of class `bo_policy`
#' made by the `policy_*()` constructors; every policy works with known and
#' with measured (unknown) costs.
#'
#' @section The protocol:
#' A `bo_policy` is a list with
#' * `name`, `label`: an identifier and a display name;
#' * `params`: its parameters;
#' * `propose(state)`: returns `list(x = , info = , memory = )`: the next
#'   point (for a problem with an explicit prior over candidates, a candidate
#'   index), a named list of scalar diagnostics recorded with the evaluation,
#'   and the policy's memory for the next step;
#' * `acquisition(state, X)`: the values the policy maximizes, at the rows of
#'   `X` (used by [bo_acquisition()] and the plots);
#' * `init(state)` (optional): the initial memory.
#'
#' The `state` holds the problem, the evaluations (`X`, `value`, `cost`,
#' `status`), the budget (`budget`, `spent`, and `budget_start`, the budget
#' at the start of the optimization phase), the fitted models (`models$f`,
#' the GP of the objective, and `models$cost`, the GP of the log cost when the
#' cost is measured and can be learned), and `memory`. Lookahead policies
#' (scenario trees, rollouts, control sets) implement the same four
#' functions, so [bo_optimize()], [bo_session()] and the plots work with all
#' of them.
#' @section Which policy?:
#' [bo_policy_guide()] ranks the policies compared in the studies cached
#' with the package, setting by setting (known or measured costs, low or
#' high dimension, typed spaces, control sets, information sources);
#' `vignette("costbo")` reads it with the papers' verdicts. The policy
#' ranked first in each setting when this page was made:
#' `r guide_firsts()`
#'
#' @name bo_policy
#' @family policies
NULL

# A policy object, with what it needs declared at construction (read by
# problem_accepts(), check_run_ready() and the budget rule, so that a
# problem it cannot serve is refused before anything is paid):
#   domains  where it can search, among the kinds of problem_search() ("box",
#            "rows": candidate rows, "indices": candidates under an explicit
#            prior, "pairs": points and information sources);
#   known_cost  it calls a known cost written in R from C;
#   cheap_acquisition  its acquisition is a closed form (the budget rule
#            values many points with it);
#   cvs, miso  it is a policy for control sets, for information sources.
new_bo_policy <- function(name, label, propose, acquisition, init = NULL,
                          params = list(),
                          domains = c("box", "rows", "indices"),
                          known_cost = FALSE, cheap_acquisition = FALSE,
                          cvs = FALSE, miso = FALSE) {
  structure(list(name = name, label = label, params = params,
                 propose = propose, acquisition = acquisition, init = init,
                 domains = domains, known_cost = known_cost,
                 cheap_acquisition = cheap_acquisition, cvs = cvs,
                 miso = miso),
            class = "bo_policy")
}

policy_init <- function(policy, state) {
  if (is.null(policy$init)) NULL else policy$init(state)
}

#' @export
print.bo_policy <- function(x, ...) {
  cat("Policy:", x$label, "\n")
  if (length(x$params)) {
    p <- vapply(x$params, function(v) paste(format(v), collapse = ", "),
                character(1))
    cat(paste0("  ", names(p), " = ", p, collapse = "\n"), "\n")
  }
  invisible(x)
}

