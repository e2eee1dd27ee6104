# Budgeted multi-step expected improvement (B-MS-EI): the scenario tree of
# src/tree.c and its policy.

#' Budgeted multi-step expected improvement (B-MS-EI)
#'
#' The non-myopic, budget-aware policy of Astudillo et al. (2021): the next
#' point maximizes the `steps`-step budgeted value \eqn{\hat Q_N(x \mid D)},
#' a sample-average scenario tree of fantasy outcomes (paper Sec. 4.2).
#'
#' @section The scenario tree:
#' At the root, \eqn{Q_1(x)} (see [policy_q1()]); then, for each of
#' \eqn{m_1} fantasy outcomes \eqn{(y, z)} at \eqn{x} (\eqn{y} from the
#' objective's posterior predictive distribution, \eqn{\log z} from the
#' log-cost GP's, by reparametrization with fixed standard normal base
#' samples shared by the nodes of a stage; a known cost makes \eqn{z = c(x)},
#' any known cost: a number, a cost constructor's, or a function written in
#' R, which the C core calls back for each node's decision),
#' the best next decision in that fantasy state, and so on for `steps`
#' stages, with `fantasies` \eqn{= (m_1, \dots, m_{N-1})} outcomes per stage.
#' Along every path the best value is the largest (fantasy) observation and
#' the fantasized costs accumulate; each stage's \eqn{Q_1} uses the tree
#' budget minus the path's cost, so a path contributes nothing once its cost
#' reaches the budget. Fantasy states condition the GPs by Cholesky row
#' updates, without refitting the hyperparameters. With `path = TRUE` the
#' tree is a path: one fantasy per stage, placed at the posterior mean
#' (base samples 0), as in the reference implementation's path variant.
#'
#' @section Optimization:
#' Over a box, every tree node has its own decision variable and all of them
#' are optimized jointly (the paper's one-shot approach) by multistart
#' L-BFGS-B with the exact gradient of the tree value in all decisions: a
#' node's decision moves its own \eqn{Q_1} and, through its fantasy outcomes
#' (fixed base samples), the fantasy costs, the best value and the
#' conditioned GPs seen by its whole subtree. The posterior given a path's
#' fantasies is written in closed form through the posterior given the data
#' alone, and the gradient follows by reverse accumulation in the same
#' depth-first pass as the value. The path's best value
#' \eqn{\max(y^*, y)} is smoothed where a fantasy outcome \eqn{y} is
#' within \eqn{10^{-5}} standard deviations of it (a quadratic joining the
#' two lines, never more than \eqn{2.5 \cdot 10^{-6}} standard deviations
#' above the max), since L-BFGS-B otherwise stops on the ridges of the tree
#' value where a fantasy outcome ties the best one. The tests check the
#' gradient against finite differences and that the optimization reaches the
#' optimum of an exact nested maximization on small trees.
#'
#' The starts: (1) greedy trees, one from each of the `n_greedy` best
#' distinct local maximizers of the root's \eqn{Q_1} (found from its
#' \eqn{200 d} scrambled Sobol points, the \eqn{10 d} best of them refined
#' by L-BFGS-B), every later node at the maximizer of its own \eqn{Q_1} in
#' its fantasy state (\eqn{200 d} raw points and \eqn{10 d} starts each):
#' the tree of the myopic policy's decisions below that root; (2) the warm
#' start: the previous iteration's tree, re-rooted at the root branch whose
#' fantasy outcome is closest to the value actually observed (paper App. F;
#' the missing last stage repeats the previous leaves); (3) `n_starts` of
#' `n_raw` raw points of the whole tree (scrambled Sobol points and one point
#' with every node at the maximizer of the root's \eqn{Q_1}), chosen by
#' Boltzmann-weighted sampling on their tree values, always keeping the
#' best. Every start runs L-BFGS-B (memory 10, relative tolerance
#' \eqn{10^4} machine epsilons; at most `maxit` iterations from a raw
#' point, `4 * maxit` from a greedy tree or the warm start, which usually
#' hold the best tree) and the best tree found is returned.
#'
#' Effort, against the reference implementation (BudgetedBO,
#' `optimize_acqf_and_get_suggested_point()`: the same settings for the
#' path and the full tree): it calls BoTorch's `optimize_acqf()` with
#' `raw_samples = 200 d` and `num_restarts = 10 d` (\eqn{d} the input
#' dimension, not the tree's; a scaling by the number of stages is
#' commented out) and options `maxiter = 200`, `batch_limit = 2`,
#' `nonnegative = TRUE` (BoTorch's initialization heuristic on the raw
#' points of the whole tree), scipy's L-BFGS-B (memory 10, `ftol` \eqn{2.2
#' \cdot 10^{-9}}); from the second iteration on, one restart is the
#' previous tree (BoTorch's `warmstart_multistep()`) and one a heuristic
#' tree: the root at the maximizer of the posterior mean, the later stages
#' at the decisions of a path-variant B-MS-EI maximized in the state
#' fantasized at that root. Its budget schedule maximizes EI-PU-CC with 50 d
#' raw points, 5 d restarts and 100 iterations (costbo: 100 d, 5 d, 100).
#' costbo's defaults are at least that effort for both variants: `n_raw =
#' 200 d`, `n_starts = 10 d`, `maxit = 500` (2000 for the greedy trees and
#' the warm start; 200 iterations often stop before convergence on a full
#' tree of 53 nodes), plus `n_greedy = 2 d` greedy trees and the warm
#' start. On 20 fixed states (Dropwave, Alpine1,
#' Shekel5 and Ackley with cosine costs, \eqn{n = 10}--\eqn{30},
#' `bench/tree-quality.R`) the defaults reach at least 99\% of the value
#' found with 10 times the raw points and starts (and up to 10 d greedy
#' trees, all the distinct root maximizers of \eqn{Q_1} found) in
#' 19 of the 20 states for the (4, 4, 2) tree and 19 of 20 for the
#' path (the settings of costbo 0.1.0, `n_raw = 100 d`, `n_starts = 4 d`,
#' `maxit = 200` without greedy trees: 70\% and 55\%). One proposal takes
#' at most 5.5 s for the full tree and 0.14 s for the path at
#' \eqn{n = 20}, \eqn{d \le 4} (`bench/tree.R`).
#'
#' On a finite domain with an
#' explicit prior, every node is instead maximized exactly by enumeration
#' (\eqn{K^N m_1 \cdots m_{N-1}} node evaluations for \eqn{K} candidates).
#'
#' @section Budget:
#' With `budget_rule = "scheduled"` (the paper's rule, Sec. 4.3) the tree
#' budget is the smaller of the remaining budget and a fantasy budget: the
#' summed fantasy costs of `steps` sequential evaluations of the base policy
#' (EI-PU-CC by default) on fantasy outcomes drawn from the posterior. As in
#' the reference implementation, the previous fantasy budget minus the cost
#' just observed is reused until it falls below the cheapest of its
#' fantasized costs, and only then is a new one fantasized. With
#' `budget_rule = "remaining"` the tree budget is the true remaining budget.
#' The two differ where a cheap base policy hides an expensive evaluation: on
#' the construction of Theorem 1 of the paper (one high-variance point that
#' costs the whole budget, many cheap low-variance points) EI-PU-CC only
#' fantasizes cheap points, the fantasy budget is a few cheap costs, the
#' expensive point does not fit in it, and the scheduled tree chooses a cheap
#' point; with the remaining budget the tree sees that the expensive point is
#' worth more and chooses it. Every step records the tree budget used in
#' `fantasy_budget` (see [as.data.frame.bo_run()]).
#'
#' @section Random numbers:
#' Each proposal draws from R's generator in this order: with the scheduled
#' rule, when a new fantasy budget is needed, `steps` base samples of the
#' objective and `steps` of the log cost (`rnorm()`), then the Sobol
#' scrambles and selection uniforms of the base policy's maximizations; the
#' tree's base samples, \eqn{\sum m_i} for the objective then \eqn{\sum m_i}
#' for the log cost (none for the path variant); then the Sobol scramble of
#' the root's \eqn{Q_1} maximization, the Sobol scrambles and selection
#' uniforms of the greedy trees' node maximizations (depth first), the
#' scramble of the tree's raw points and the `n_raw` selection uniforms. Runs are therefore
#' reproducible under [set.seed()].
#'
#' @param steps Number of lookahead steps \eqn{N \ge 1} (`steps = 1` is
#'   [policy_q1()] with the tree budget).
#' @param fantasies Fantasy outcomes per stage, \eqn{N - 1} whole numbers
#'   (by default the first \eqn{N - 1} of 4, 4, 2, 2, ...: the reference
#'   implementation's full trees for \eqn{N = 4}). Ignored when `path` is
#'   `TRUE`. The tree, \eqn{1 + m_1 + m_1 m_2 + \dots} nodes, has at most
#'   200 nodes: one proposal takes about 0.7 s on 50 points in \eqn{d = 2}
#'   with the default 53 nodes, 2.5 s with 187 and 9 s with 585 (so the
#'   default fantasies allow at most 5 `steps`).
#' @param path Use the path variant (one fantasy per stage, at the posterior
#'   mean)?
#' @param base The base policy of the budget schedule: [policy_ei_pu_cc()]
#'   (default), [policy_ei_pu()] or [policy_ei()].
#' @param budget_rule `"scheduled"` or `"remaining"` (see the Budget
#'   section).
#' @param ... Optimizer settings (see the Optimization section): `n_raw`
#'   (raw points of the whole tree, default `200 * d`), `n_starts`
#'   (L-BFGS-B starts from them, default `10 * d`), `maxit` (iterations per
#'   start from a raw point, default 500; 4 times that from a greedy tree
#'   or the warm start) and `n_greedy` (greedy trees from distinct root
#'   maximizers of \eqn{Q_1}, default `2 * d`; 0 for none), with \eqn{d}
#'   the input dimension.
#' @return A `bo_policy`.
#' @references Astudillo, R., Jiang, D. R., Balandat, M., Bakshy, E. and
#'   Frazier, P. I. (2021). Multi-step budgeted Bayesian optimization with
#'   unknown evaluation costs. *NeurIPS 34*.
#' @family policies
#' @examples
#' policy_bmsei()
#' prob <- test_problem("branin", budget = 3)
#' run <- bo_optimize(prob, policy_bmsei(steps = 2, path = TRUE), seed = 1,
#'                    progress = FALSE)
#' as.data.frame(run)$fantasy_budget
#' @export
policy_bmsei <- function(steps = 4, fantasies = c(4, 4, 2), path = FALSE,
                         base = policy_ei_pu_cc(),
                         budget_rule = c("scheduled", "remaining"), ...) {
  # (a tree of N steps has at least N nodes)
  steps <- check_count_max(steps, 1L, bmsei_max_nodes, arg = "steps")
  path <- check_flag(path)
  if (missing(fantasies)) {
    fantasies <- c(4L, 4L, rep(2L, max(0L, steps - 3L)))[seq_len(steps - 1L)]
  }
  if (path) fantasies <- rep(1L, steps - 1L)
  ok <- is.numeric(fantasies) && is.null(dim(fantasies)) &&
    !anyNA(fantasies) && all(is.finite(fantasies)) &&
    all(fantasies == round(fantasies)) && all(fantasies >= 1)
  if (ok && length(fantasies) != steps - 1L) {
    stop_args(c("steps", "fantasies"), sprintf(paste(
      "match: one number of fantasies per step after the first (steps = %d",
      "needs %d, not %d)"), steps, steps - 1L, length(fantasies)))
  }
  if (!ok) {
    stop_arg("fantasies", sprintf("%d whole number%s >= 1 (`steps` - 1)",
                                  steps - 1L, if (steps == 2L) "" else "s"),
             fantasies)
  }
  n_nodes <- sum(cumprod(c(1, fantasies)))
  # one proposal on 50 points in d = 2 takes about 0.7 s with the default
  # 53 nodes, 2.5 s with 187 and 9 s with 585
  if (n_nodes > bmsei_max_nodes) {
    stop_arg(if (path) "steps" else "fantasies", sprintf(paste(
      "a tree of at most %d nodes (1 + m1 + m1 m2 + ...), not %g;",
      "use fewer `steps` or `fantasies`"), bmsei_max_nodes, n_nodes),
      show = FALSE)
  }
  fantasies <- as.integer(fantasies)
  if (!(inherits(base, "bo_policy") &&
        base$name %in% c("ei", "ei_pu", "ei_pu_cc"))) {
    stop_arg("base", "policy_ei_pu_cc(), policy_ei_pu() or policy_ei()",
             base)
  }
  budget_rule <- check_choice(budget_rule, c("scheduled", "remaining"))
  ctl <- check_bmsei_control(list(...))
  params <- list(steps = steps, fantasies = if (steps > 1L) fantasies else 0L,
                 path = path, base = base$name, budget_rule = budget_rule)
  propose <- function(state) {
    sched <- bmsei_budget(state, steps, base$name, budget_rule)
    r <- bmsei_optimize(state, fantasies, path, sched$budget, ctl,
                        warm = state$memory$tree)
    memory <- sched$memory
    memory$tree <- r$tree
    list(x = r$x, info = list(acquisition = r$value,
                              fantasy_budget = sched$budget),
         memory = memory)
  }
  acquisition <- function(state, X) {
    sched <- bmsei_budget(state, steps, base$name, budget_rule)
    bmsei_values(state, X, fantasies, path, sched$budget, ctl)
  }
  label <- sprintf("%d-step B-MS-EI%s", steps, if (path) " (path)" else "")
  # a tree over candidates is maximized exactly under an explicit prior;
  # candidate rows without one have no tree
  # (calls a known cost written in R from C, see check_run_ready())
  new_bo_policy("bmsei", label, propose, acquisition, params = params,
                domains = c("box", "indices"), known_cost = TRUE)
}

check_bmsei_control <- function(ctl, call = sys.call(-1L)) {
  bad <- setdiff(names(ctl), c("n_raw", "n_starts", "maxit", "n_greedy"))
  if (length(ctl) && (is.null(names(ctl)) || any(!nzchar(names(ctl))) ||
                      length(bad))) {
    stop_arg("...", paste("named optimizer settings n_raw, n_starts, maxit",
                          "or n_greedy"),
             show = FALSE, call = call)
  }
  out <- list()
  for (nm in names(ctl)) {
    out[[nm]] <- check_count(ctl[[nm]],
                             min = if (nm %in% c("n_starts", "n_greedy")) 0L
                                   else 1L,
                             arg = nm, call = call)
  }
  out
}

# The packed Q1 acquisition of a state with tree budget `budget` (or the
# base policy's closed form, with `type`).
bmsei_pack <- function(state, budget, type = "q1") {
  a <- myopic_args(state, type)
  if (type == "q1") a$remaining <- budget
  spec <- do.call(new_acq_spec, a)
  spec$state[["remaining"]] <- state_remaining(state)
  if (type == "q1") spec$state[["remaining"]] <- budget
  list(pack = acq_pack(spec), spec = spec)
}

# The tree budget of the step and the schedule's memory.
bmsei_budget <- function(state, steps, base, rule) {
  rem <- state_remaining(state)
  mem <- state$memory
  if (rule == "remaining") return(list(budget = rem, memory = list()))
  sb <- mem$scheduled
  if (!is.null(sb)) sb <- sb - (state$spent - mem$spent)
  if (is.null(sb) || sb < mem$min_cost) {
    zf <- stats::rnorm(steps)
    zc <- stats::rnorm(steps)
    p <- bmsei_pack(state, rem, type = base)
    m <- p$spec$model
    lo <- if (p$spec$finite) 0 else rep(0, m$d)
    up <- if (p$spec$finite) 1 else rep(1, m$d)
    costs <- call_c(C_tree_schedule, p$pack, zf, zc, as.double(lo),
                   as.double(up), 100L * m$d,
                   max_control(5L * m$d, maxit = 100L),
                   if (base == "ei_pu_cc") as.double(state$budget_start)
                   else 0)
    sb <- sum(costs)
    mem$min_cost <- min(costs)
  }
  mem$scheduled <- sb
  mem$spent <- state$spent
  list(budget = min(sb, rem), memory = mem[c("scheduled", "min_cost",
                                              "spent")])
}

# Base samples of a tree: the objective's then the log cost's.
bmsei_base <- function(fantasies, path) {
  n <- sum(fantasies)
  if (path) return(list(zf = double(n), zc = double(n)))
  list(zf = stats::rnorm(n), zc = stats::rnorm(n))
}

# Maximize the tree in a state; returns the proposal and the tree for the
# next warm start.
bmsei_optimize <- function(state, fantasies, path, budget, ctl, warm = NULL) {
  p <- bmsei_pack(state, budget)
  z <- bmsei_base(fantasies, path)
  m <- p$spec$model
  if (p$spec$finite) {
    r <- call_c(C_tree_argmax, p$pack, fantasies, z$zf, z$zc, budget)
    return(list(x = r$index, value = r$values[r$index], tree = NULL))
  }
  d <- m$d
  ctl <- bmsei_control(ctl, d)
  w <- bmsei_warm(state, warm, fantasies)
  r <- call_c(C_tree_maximize, p$pack, fantasies, z$zf, z$zc, budget,
             rep(0, d), rep(1, d), bmsei_tree_control(ctl), w)
  tree <- list(decisions = r$decisions, fantasy_y = r$fantasy_y,
               fantasies = fantasies, n = nrow(state$X))
  list(x = m$lower + r$x * (m$upper - m$lower), value = r$value, tree = tree)
}

bmsei_control <- function(ctl, d) {
  list(n_raw = if (is.null(ctl$n_raw)) 200L * d else ctl$n_raw,
       n_starts = if (is.null(ctl$n_starts)) 10L * d else ctl$n_starts,
       maxit = if (is.null(ctl$maxit)) 500L else ctl$maxit,
       n_greedy = if (is.null(ctl$n_greedy)) 2L * d else ctl$n_greedy)
}

# The control object of C_tree_maximize (read by unpack_tree_control() in
# src/tree.c) from the settings of bmsei_control(): raw points of the whole
# tree, greedy trees, and the maximizer of the starts from raw points, whose
# L-BFGS-B runs with relative tolerance 1e4 (the tree's value is flat in
# many of its decisions, and the default 1e7 stops far from the optimum)
# and memory 10 (scipy's default maxcor, which the reference
# implementation's optimizer uses; the hundreds of decision variables of a
# full tree converge in far fewer iterations than with the default 5).
bmsei_tree_control <- function(ctl) {
  structure(list(n_raw = check_count(ctl$n_raw, min = 1L, arg = "n_raw"),
                 n_greedy = check_count(ctl$n_greedy, arg = "n_greedy"),
                 max = max_control(ctl$n_starts, maxit = ctl$maxit,
                                   factr = 1e4, lmm = 10L)),
            class = "costbo_tree_control")
}

# The warm start: the previous tree re-rooted at the root branch whose
# fantasy outcome is closest to the value observed since (paper 000,
# App. F); node (k, j) of the new tree takes the decision of node
# j mod S of stage min(k + 1, N - 1) of that branch (S nodes).
bmsei_warm <- function(state, warm, fantasies) {
  if (is.null(warm) || length(fantasies) == 0L ||
      !identical(warm$fantasies, fantasies) ||
      nrow(state$X) != warm$n + 1L || state$status[warm$n + 1L] != "ok") {
    return(double())
  }
  jb <- which.min(abs(warm$fantasy_y - state$value[warm$n + 1L])) - 1L
  N <- length(fantasies) + 1L
  P <- cumprod(c(1L, fantasies))
  off <- c(0L, cumsum(P))[seq_len(N)]
  D <- warm$decisions
  cols <- unlist(lapply(seq_len(N) - 1L, function(k) {
    ko <- min(k + 1L, N - 1L)
    S <- P[ko + 1L] / fantasies[1L]
    off[ko + 1L] + jb * S + (seq_len(P[k + 1L]) - 1L) %% S
  }))
  as.double(D[, cols + 1L])
}

# Tree values at the rows of X: exact for a finite domain; over a box with
# the descendants' decisions of one optimized tree.
bmsei_values <- function(state, X, fantasies, path, budget, ctl) {
  p <- bmsei_pack(state, budget)
  z <- bmsei_base(fantasies, path)
  m <- p$spec$model
  if (p$spec$finite) {
    r <- call_c(C_tree_argmax, p$pack, fantasies, z$zf, z$zc, budget)
    return(r$values[problem_model_newdata(state$problem, X)])
  }
  ctl <- bmsei_control(ctl, m$d)
  r <- call_c(C_tree_maximize, p$pack, fantasies, z$zf, z$zc, budget,
             rep(0, m$d), rep(1, m$d), bmsei_tree_control(ctl), double())
  Xs <- gp_newdata(m, X, arg = "X")
  dec <- r$decisions
  vapply(seq_len(nrow(Xs)), function(i) {
    dec[, 1L] <- Xs[i, ]
    call_c(C_tree_value, p$pack, fantasies, z$zf, z$zc, budget, dec,
          FALSE)$value
  }, numeric(1))
}
