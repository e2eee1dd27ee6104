# The myopic policies: one closed-form acquisition maximized per step (EI,
# EI per unit cost, EI-PU with cost cooling, Q1, UCB, PBGI and PBGI-D), and
# random search.

# The settings of a closed-form type in a state (the arguments of
# new_acq_spec()); `extra` holds the type's own parameters.
myopic_args <- function(state, type, extra = list()) {
  cost <- problem_cost_args(state$problem, state)
  if (is.numeric(cost$cost) && length(cost$cost) == 1L && is.na(cost$cost)) {
    # a measured cost none of whose evaluations was valid: a cost-aware
    # type cannot go on; the others do not read the cost
    if (acq_type(type)$cost) stop_cost_never_valid(state)
    cost$cost <- 1
  }
  a <- list(model = state$models$f, type = type, cost_model = cost$cost_model,
            cost = cost$cost)
  if (!(type %in% c("ucb", "pbgi"))) a$best <- state_incumbent(state)
  if (type == "q1") a$remaining <- state_remaining(state)
  if (type == "ei_pu_cc") {
    a$nu <- min(1, max(0, state_remaining(state) / state$budget_start))
  }
  c(a, extra)
}

# A policy that maximizes one closed-form acquisition: over the box by the
# protocol of acq_maximize() (200 d raw points, 10 d Boltzmann-selected
# starts), exactly over candidates. The state is checked, so the policy
# calls the workers of acq_maximize() and acq_evaluate(), not the
# validating functions.
myopic_policy <- function(name, label, type, extra = function(state) list(),
                          params = list(), init = NULL, after = NULL) {
  propose <- function(state) {
    a <- myopic_args(state, type, extra(state))
    spec <- do.call(new_acq_spec, a)
    model <- spec$model
    where <- problem_search(state$problem)
    if (where$kind == "indices") {
      r <- acq_argmax_rows(spec, matrix(seq_len(where$n) - 1, ncol = 1L))
      x <- r$index
    } else if (where$kind == "rows") {
      r <- acq_argmax_rows(spec, gp_newdata(model, where$rows,
                                            arg = "candidates"))
      x <- where$rows[r$index, ]
    } else {
      d <- model$d
      r <- acq_maximize_box(spec, rep(0, d), rep(1, d), 200L * d,
                            max_control(10L * d))
      x <- r$x
    }
    out <- list(x = x, info = list(acquisition = r$value),
                memory = state$memory)
    if (!is.null(after)) out <- after(state, out, a)
    out
  }
  acquisition <- function(state, X) {
    spec <- do.call(new_acq_spec, myopic_args(state, type, extra(state)))
    X <- problem_model_newdata(state$problem, X)
    acq_values(spec, gp_newdata(spec$model, X, arg = "X"), FALSE)$value
  }
  # a known cost written in R is called back from C by the cost-aware types
  # (check_run_ready() validates it before anything is paid); the
  # acquisition is a closed form (budget_feasible_proposal())
  new_bo_policy(name, label, propose, acquisition, init = init,
                params = params, known_cost = acq_type(type)$cost,
                cheap_acquisition = TRUE)
}

#' Expected improvement and its cost-aware variants
#'
#' Myopic policies that maximize a closed-form acquisition (see
#' [acq_closed_form()] for the formulas) with [acq_maximize()]:
#' * `policy_ei()`: expected improvement, ignoring costs;
#' * `policy_ei_pu()`: expected improvement per unit cost,
#'   \eqn{E[(f - f^*)^+ / c]};
#' * `policy_ei_pu_cc()`: with cost cooling, \eqn{E[(f - f^*)^+ / c^\nu]},
#'   \eqn{\nu} = remaining budget / budget at the start of the optimization
#'   phase (Astudillo et al. 2021, Prop. 2);
#' * `policy_q1()`: the budgeted one-step value \eqn{E[(f - f^*)^+ 1\{c \le
#'   R\}]} (Astudillo et al. 2021, Prop. 1);
#' * `policy_ucb()`: upper confidence bound \eqn{m + \beta s}.
#'
#' With a measured cost the cost is modelled by a GP on its logarithm (and
#' by the observed cost while all observed costs are equal).
#'
#' @return A `bo_policy`.
#' @family policies
#' @examples
#' policy_ei_pu_cc()
#' prob <- test_problem("branin", budget = 4)
#' run <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
#' summary(run)
#' @export
policy_ei <- function() myopic_policy("ei", "EI", "ei")

#' @rdname policy_ei
#' @export
policy_ei_pu <- function() myopic_policy("ei_pu", "EI per unit cost", "ei_pu")

#' @rdname policy_ei
#' @export
policy_ei_pu_cc <- function() {
  myopic_policy("ei_pu_cc", "EI per unit cost with cost cooling", "ei_pu_cc")
}

#' @rdname policy_ei
#' @export
policy_q1 <- function() {
  myopic_policy("q1", "budgeted one-step EI (Q1)", "q1")
}

#' @rdname policy_ei
#' @param beta Exploration weight of UCB (`>= 0`).
#' @export
policy_ucb <- function(beta = 2) {
  beta <- check_number(beta, min = 0)
  myopic_policy("ucb", sprintf("UCB (beta = %g)", beta), "ucb",
                extra = function(state) list(beta = beta),
                params = list(beta = beta))
}

#' Pandora's Box Gittins index policies
#'
#' `policy_pbgi()` maximizes the Pandora's Box Gittins index (Xie et al.
#' 2024, eq. 6): the \eqn{g} with \eqn{E[(f(x) - g)^+] = \lambda c(x)}; with a
#' measured cost, PBGI-U (eq. 20) with \eqn{c} replaced by its posterior
#' mean \eqn{\exp(m_c + s_c^2/2)}. `policy_pbgi_d()` is PBGI with dynamic
#' decay (PBGI-D).
#'
#' @section The scale of lambda:
#' \eqn{\lambda} is in units of the objective per unit of cost: the index
#' is computed from the posterior of \eqn{f} in the objective's own units
#' (the GP is fitted to standardized outputs, and its posterior is mapped
#' back before the index is computed), as in the authors' reference code,
#' where BoTorch returns the posterior in the original units whether or not
#' the outputs were standardized for the fit, and where the paper's
#' experiments divide Levy and Rosenbrock by 100 and 1e5 instead. So
#' multiplying the objective by \eqn{a > 0} (and shifting it) leaves a run
#' unchanged exactly when `lambda` is multiplied by \eqn{a} too. The
#' paper's values (`lambda` from 1e-4 to 1e-2, PBGI-D from 0.1) are for
#' objectives whose values spread over about one unit; for another
#' objective, scale them by its spread.
#'
#' @section PBGI-D:
#' \eqn{\lambda} starts at `lambda`. After each evaluation, as in the
#' reference code, the Pandora stopping rule is checked with the updated
#' data: when the incumbent (the best observed value, the new evaluation
#' included; on a noisy objective the best posterior mean at the evaluated
#' points, see [bo_problem()]) exceeds the index of the point just evaluated
#' (the largest index found when it was proposed), \eqn{\lambda} is
#' multiplied by `decay` (\eqn{\beta} of the paper) for the following
#' proposals. So on a deterministic objective
#' \eqn{\lambda_{k+1} = \beta \lambda_k} if
#' \eqn{\max_{i \le k} y_i > g_k} and \eqn{\lambda_k} otherwise, with
#' \eqn{g_k} the index of the \eqn{k}-th proposal (its `acquisition`).
#'
#' Every step records `lambda` (the value used for the proposal) and
#' `stop_rule`: whether the Pandora stopping rule holds when the point is
#' proposed (the incumbent before it is at least its index), the
#' rule that `bo_optimize(pandora_stop = TRUE)` stops on.
#'
#' @param lambda The cost multiplier \eqn{\lambda > 0}, in units of the
#'   objective per unit of cost.
#' @param decay The decay factor \eqn{\beta} in (0, 1) of PBGI-D.
#' @param beta Deprecated name of `decay`.
#' @return A `bo_policy`.
#' @family policies
#' @examples
#' policy_pbgi(1e-3)
#' policy_pbgi_d(0.1, decay = 0.5)
#' prob <- test_problem("branin", budget = 30)
#' run <- bo_optimize(prob, policy_pbgi_d(1), seed = 1, progress = FALSE)
#' as.data.frame(run)[, c("value", "acquisition", "lambda")]
#' @export
policy_pbgi <- function(lambda = 1e-4) {
  lambda <- check_number(lambda, min = 0, min_open = TRUE)
  myopic_policy("pbgi", sprintf("PBGI (lambda = %g)", lambda), "pbgi",
                extra = function(state) list(lambda = lambda),
                params = list(lambda = lambda), after = pandora_info)
}

#' @rdname policy_pbgi
#' @export
policy_pbgi_d <- function(lambda = 0.1, decay = 0.5, beta) {
  if (!missing(beta)) {
    decay <- renamed_arg(beta, "beta", "decay", !missing(decay))
  }
  lambda <- check_number(lambda, min = 0, min_open = TRUE)
  decay <- check_number(decay, min = 0, max = 1, min_open = TRUE)
  if (decay >= 1) stop_arg("decay", "below 1", decay)
  remember <- function(state, out, a) {
    out <- pandora_info(state, out, a)
    out$memory <- list(lambda = a$lambda, index = out$info$acquisition)
    out
  }
  myopic_policy("pbgi_d", sprintf("PBGI-D (lambda = %g, decay = %g)",
                                  lambda, decay), "pbgi",
                extra = function(state) {
                  list(lambda = pbgi_d_lambda(state, decay))
                },
                params = list(lambda = lambda, decay = decay),
                init = function(state) list(lambda = lambda),
                after = remember)
}

# Record lambda and whether the Pandora stopping rule holds at the proposal:
# the proposed point carries the largest index.
pandora_info <- function(state, out, a) {
  out$info$lambda <- a$lambda
  out$info$stop_rule <- pandora_stop(state_incumbent(state),
                                     out$info$acquisition)
  out
}

# PBGI-D's lambda for the next proposal. The memory holds the lambda and the
# index of the previous proposal; its evaluation is now in the state. As in
# the reference code (PandoraBayesOpt, BayesianOptimizer.iterate()), lambda
# decays when the incumbent (the best observed value on a deterministic
# objective), the new evaluation included, exceeds that index (strictly).
pbgi_d_lambda <- function(state, decay) {
  mem <- state$memory
  if (is.null(mem$index)) return(mem$lambda)
  best <- state_incumbent(state)
  if (!is.na(best) && best > mem$index) mem$lambda * decay else mem$lambda
}

#' Random search
#'
#' Proposes points uniformly at random in the box (or uniformly among the
#' candidates), with R's random-number generator; a baseline.
#'
#' @return A `bo_policy`.
#' @family policies
#' @examples
#' policy_random()
#' @export
policy_random <- function() {
  propose <- function(state) {
    where <- problem_search(state$problem)
    x <- switch(where$kind,
      indices = sample.int(where$n, 1L),
      rows = where$rows[sample.int(nrow(where$rows), 1L), ],
      box = where$lower + stats::runif(length(where$lower)) *
        (where$upper - where$lower))
    list(x = x, info = list(), memory = state$memory)
  }
  # every point is as good: a uniform draw, so that the best of several
  # points (e.g. those that fit in the budget) is one at random
  acquisition <- function(state, X) stats::runif(nrow(X))
  new_bo_policy("random", "random search", propose, acquisition,
                cheap_acquisition = TRUE)
}
