# Rollout policies (src/rollout.c): CMDP rollout (Lee et al. 2021), the
# knowledge gradient and rolling-horizon rollout (Yue and Kontar 2020).

#' CMDP rollout (Lee et al. 2021)
#'
#' The cost-constrained rollout of paper 001: a nonmyopic policy that
#' values a point \eqn{x} by simulating, on fantasy updates of the
#' objective's GP, what the base policy "EI per unit cost for \eqn{h - 1}
#' steps, then EI" would collect after evaluating it, counting only the
#' trajectories that fit the remaining budget.
#'
#' @section The value:
#' With horizon \eqn{h}, the value of \eqn{x} is the expected total
#' improvement \eqn{E[\max(f^*, y_1, \dots, y_L) - f^*]} of the trajectory
#' "\eqn{x}, then \eqn{h - 2} steps of argmax EI per unit cost, then one
#' step of argmax EI" (`base = "ei"`: EI at every step), where the outcomes
#' \eqn{y_t} are fantasy outcomes (see *Fantasy outcomes*) conditioned on by
#' rank-one Cholesky updates (paper 001, App. B). A trajectory stops before
#' the first step whose cumulative cost would exceed the remaining budget,
#' so only feasible trajectories are counted; a point whose own cost
#' exceeds the remaining budget has value 0 and is proposed only when no
#' point is feasible (then the cheapest design point). The last stage's
#' improvement is integrated in closed form, \eqn{E[(y_L - b)^+]} given the
#' running best \eqn{b} (computed from log EI, so accurate far in the
#' tail). On a deterministic objective the outcomes are values of
#' \eqn{f}, so the last stage is the EI of \eqn{f} and `horizon = 1` is EI
#' (restricted to affordable points), computed once rather than averaged
#' over samples. The expectation over the other \eqn{h - 1} outcomes is a
#' quasi-Monte Carlo average over `n_samples` scrambled Sobol normal draws,
#' the same for every \eqn{x} (common random numbers). With the default
#' `optimizer = "paper"` the average has the first outcome's EI as a
#' control variate: the first stage's realized improvement \eqn{(y_1 -
#' f^*)^+} is replaced by its mean, the closed-form EI of the fantasy
#' outcome at \eqn{x}, so the average is over the improvement beyond the
#' first outcome only (the estimator stays unbiased; `bench/cmdp-samples.R`
#' and the tests compare it with the plain average).
#'
#' Costs: the known cost, or, for a measured cost, the posterior mean
#' \eqn{\exp(m_c + s_c^2/2)} of the log-cost GP, the expected price, so that
#' a trajectory is feasible when its expected spending fits the budget (paper
#' 001 treats costs as deterministic). The cost GP is not updated along a
#' trajectory. A known cost may be any of [bo_problem()]'s: a constant, a
#' cost constructor's ([cost_linear()], [cost_cosine()], the costs of
#' [test_problem()]'s problems), evaluated in C, or a function written in
#' R, which the C core calls back wherever the rollout prices a point.
#'
#' @section Maximization (`optimizer = "paper"`, the default):
#' As paper 001 does (Sec. 6): every argmax of the base policy inside a
#' trajectory runs L-BFGS-B from the 5 best (`control$inner_starts`) of
#' \eqn{\max(10 d, 100)} scrambled Sobol raw points (`control$n_raw`;
#' the paper's `10 d`, and below \eqn{d = 10} the 100 of the compass
#' search, without which those argmaxes miss the best EI in some
#' trajectories), at most `control$inner_maxit` = 40 iterations each (as
#' the reference code), on the log of EI per unit cost or of EI (the same
#' argmax; the logs are well scaled where EI is tiny), from the starts
#' alone, so the base policy is a deterministic function of the state
#' (sequentially consistent). The
#' rollout value is maximized over \eqn{x} from the 5 (`control$starts`)
#' best of a `10 d`-point scrambled Sobol design plus the base policy's own
#' first choice. The design is screened with the first `control$n_screen`
#' (8) of the `n_samples` draws; from each start a local search climbs the
#' value with the first `control$n_search` (32) draws and its gradient, at
#' most `control$maxit` (15) values; the ends of the searches are valued
#' with all `n_samples` draws and the best is proposed. The gradient holds
#' the trajectory's later points fixed and is exact for \eqn{h = 2} (the
#' last point maximizes the last stage's EI) but where the inner argmax
#' jumps. The local search is L-BFGS-B's method, a projected quasi-Newton
#' ascent (L-BFGS direction, Armijo backtracking), written in C: R's
#' L-BFGS-B keeps its state in static variables and cannot run while the
#' inner maximizations run it. It reaches better values than the compass
#' search, whose polls move one coordinate at a time, at a fraction of the
#' cost (`bench/cmdp-speed.R`).
#'
#' @section Maximization (`optimizer = "compass"`):
#' The search of [policy_rollout()], kept bit for bit so that results made
#' with it can be reproduced: the inner argmax steps use the C maximizer on
#' fixed raw points (`control$n_raw` = 100, `control$inner_starts` = 2
#' L-BFGS-B starts chosen by Boltzmann sampling, at most
#' `control$inner_maxit` = 50 iterations, on EI per unit cost or EI), the
#' values are plain quasi-Monte Carlo averages, and the rollout value is
#' maximized from the `10 d`-point design plus the base policy's first
#' choice by a derivative-free compass search from the best
#' `control$starts` = 2 of them (steps from 0.05 of the box, halved after a
#' failed poll, at most `control$maxit` = 10 polls).
#'
#' @section Sample count:
#' Paper 001 states none (the code it cites, for the authors' earlier
#' rollout paper, averages 1000 draws). costbo's default, 64, is the
#' smallest power of 2 at which, on the states of `bench/cmdp-samples.R`
#' (Levy with a known linear cost and Ackley with a measured cosine cost,
#' 20 points, \eqn{d = 2, 8, 16}, \eqn{h = 2, 3, 4}), the standard error of
#' the value difference between the two best candidates of a proposal is
#' at most 5% of the best value at every state (at 32 draws, at 34 of 36),
#' so that the expected loss of choosing the wrong one of them (at most
#' 0.17 standard errors) is below 1% of the value.
#'
#' @section Fantasy outcomes:
#' All lookahead in the rollouts follows one rule. On a noisy objective a
#' fantasy outcome at \eqn{x} is an observation, drawn from its predictive
#' distribution, mean \eqn{m(x)} and variance \eqn{s^2(x) +
#' \sigma_\epsilon^2} (the posterior variance of \eqn{f} plus the noise
#' variance and the jitter). On a deterministic objective (`noise = FALSE`
#' in [bo_problem()], the default), whose GP has a noise variance only for
#' numerical reasons, it is the latent value \eqn{f(x)}, variance
#' \eqn{s^2(x)}, so a rollout's last stage is the EI of \eqn{f}. Either is
#' conditioned on as the GP conditions on data (with the noise on its
#' diagonal). `fantasy = "observation"` draws observations on every
#' objective: the rollouts of costbo before this rule, kept so that results
#' made with them can be reproduced.
#'
#' @section Random numbers:
#' Each proposal draws, in this order: the scrambled Sobol normals
#' (`n_samples` x \eqn{h}), the inner raw points (`control$n_raw`), with
#' the compass optimizer their selection uniforms, and the outer design
#' (`10 d` points). So `set.seed()` repeats a run.
#'
#' @param horizon The horizon \eqn{h}, a whole number from 1 to 100 (the
#'   work grows like \eqn{h}).
#' @param n_samples Quasi-Monte Carlo samples (at most 1024; 64, costbo's
#'   choice: see *Sample count*).
#' @param base The base policy: `"eipu_then_ei"` (paper 001's, EI per unit
#'   cost then EI at the last step) or `"ei"` (EI at every step).
#' @param fantasy What a fantasy outcome is on a deterministic objective:
#'   `"latent"` (default), the value of \eqn{f}, or `"observation"`, an
#'   observation whose variance includes the GP's noise band and jitter
#'   (see *Fantasy outcomes*). On a noisy objective both draw observations.
#' @param optimizer How the value is estimated and maximized: `"paper"`
#'   (default; see *Maximization*) or `"compass"`, the search of
#'   [policy_rollout()], kept bit for bit.
#' @param control A list of tuning settings, all optional, with defaults
#'   for `optimizer = "paper"` / `"compass"`: `n_raw` (\eqn{\max(10 d,
#'   100)} / 100),
#'   `inner_starts` (5 / 2), `inner_maxit` (40 / 50): raw points, L-BFGS-B
#'   starts and iterations of the inner maximizations; `starts` (5 / 2) and
#'   `maxit` (15 values / 10 polls): the outer search's starts and length;
#'   `n_screen` (8) and `n_search` (32): the draws of the screening and of
#'   the local searches (paper only, at most `n_samples`). Caps: `n_raw`
#'   1e5, `inner_starts` and `starts` 1000, `inner_maxit` and `maxit` 10000,
#'   `n_screen` and `n_search` 1024. (The settings of [policy_kg_rollout()]
#'   are accepted and unused.)
#' @return A `bo_policy`.
#' @references
#' Lee, E. H., Eriksson, D., Perrone, V. and Seeger, M. (2021). A
#' nonmyopic approach to cost-constrained Bayesian optimization. *UAI*.
#' @family policies
#' @examples
#' prob <- test_problem("lee2021", budget = 20)
#' run <- bo_optimize(prob, policy_cmdp_rollout(horizon = 2, n_samples = 8),
#'                    seed = 1, progress = FALSE)
#' as.data.frame(run)[, c("x1", "x2", "value", "acquisition")]
#' @export
policy_cmdp_rollout <- function(horizon = 4, n_samples = 64,
                                base = c("eipu_then_ei", "ei"),
                                fantasy = c("latent", "observation"),
                                optimizer = c("paper", "compass"),
                                control = list()) {
  horizon <- check_count_max(horizon, 1L, 100L, arg = "horizon")
  n_samples <- check_count_max(n_samples, 1L, 1024L, arg = "n_samples")
  base <- check_choice(base, c("eipu_then_ei", "ei"))
  fantasy <- check_choice(fantasy, c("latent", "observation"))
  optimizer <- check_choice(optimizer, c("paper", "compass"))
  control <- check_rollout_control(control, paper = optimizer == "paper")
  label <- sprintf("%s rollout (h = %d, %d QMC samples%s%s)",
                   if (base == "ei") "EI" else "CMDP", horizon, n_samples,
                   if (fantasy == "observation") ", observed fantasies" else "",
                   if (optimizer == "compass") ", compass search" else "")
  cmdp_policy(if (base == "ei") "ei_rollout" else "cmdp_rollout", label,
              horizon, n_samples, base, fantasy, control,
              params = list(horizon = horizon, n_samples = n_samples,
                            base = base, fantasy = fantasy,
                            optimizer = optimizer),
              optimizer = optimizer)
}

#' Rolling-horizon rollout (Yue and Kontar 2020)
#'
#' The rollout of paper 004: a nonmyopic policy that values a point
#' \eqn{x} by the discounted knowledge gradients that greedy KG, its base
#' policy, would collect after evaluating it, on fantasy updates of the
#' objective's GP, looking ahead a fixed number of steps or, with
#' `horizon = "adaptive"`, as far as the Rolling Horizon Theorem allows at
#' each stage.
#'
#' @section The value:
#' The value of \eqn{x} with horizon \eqn{h} is \eqn{KG(x) +
#' \sum_{j=1}^{h-1} \alpha^j E[KG_j(x_j)]}, where \eqn{x_j} is the greedy
#' knowledge-gradient choice among the candidates in the \eqn{j}-th
#' fantasized state; the expectations over the fantasy outcomes (see
#' *Fantasy outcomes* in [policy_cmdp_rollout()]) are tensor Gauss-Hermite
#' rules with `n_nodes` nodes for the first transition and `control$n_deep`
#' for later ones, 10 and 10 by default as in the paper (fewer deep nodes,
#' e.g. `control = list(n_deep = 3)`, make long horizons cheaper at the
#' price of a coarser expectation). The end-stage decision, the argmax of
#' the posterior mean, is what the last KG term values (KG is the expected
#' gain of that maximum). `horizon = 1` is greedy KG ([policy_kg()] is
#' `policy_kg_rollout(1, fantasy = "observation")`). Every fantasized state
#' is conditioned on outcomes at \eqn{x} and at candidates only, so the
#' states of the lookahead tree are held as posterior means and covariances
#' of those points, and a fantasy is their rank-one update (exactly the
#' GP's conditioning); the greedy argmax skips candidates whose bound on KG
#' cannot beat the best one found, so it is exact.
#'
#' @section Rolling horizon:
#' With `horizon = "adaptive"` the horizon is chosen before every step by
#' the Rolling Horizon Theorem (paper 004, Thm. 3): the smallest \eqn{j} in
#' \eqn{2, \dots,} `max_horizon` with \eqn{\sum_{i=2}^j \alpha^{i-2}
#' \phi(i) > \bar e_k (1 - \alpha^{N-k}) / (1 - \alpha)}, else 1. The
#' profit \eqn{\phi(i)} is the KG of the base policy's choice in the
#' \eqn{(i-1)}-th state of its own path: greedy KG from the current state,
#' its first decision the greedy decision over the box (below) and its
#' fantasized outcomes the posterior means (the paper leaves \eqn{\phi}
#' generic). The error bound is Corollary 1, \eqn{\bar e_k = K \sigma^2
#' P_X \sqrt{\log(e/P_X)} + u}, with \eqn{P_X = \sqrt{s_n^2(x) /
#' \sigma^2}} the power function at the decision being evaluated and
#' \eqn{\sigma^2} the prior variance there (the outputscale), on the GP's
#' standardized scale. The decision whose power function is used is the
#' base policy's decision of the current stage, the greedy-KG choice over
#' the box: the theorem compares the rollout with that greedy step from the
#' same state, the horizon has to be known before the rollout values are
#' computed (paper 004, Alg. 1), and one \eqn{h} per stage keeps the
#' values of different decisions comparable (per-decision horizons would
#' compare sums of different lengths). As the data fill the region the
#' policy is about to sample, \eqn{P_X} and with it \eqn{\bar e_k} shrink
#' and the rule looks further ahead.
#'
#' The constants of Corollary 1 are not given by the paper (Wang et al.
#' 2019 leave \eqn{K} unspecified, and \eqn{u} sets the probability of the
#' bound). The defaults are \eqn{K} = `control$error_const` = 0.01 and
#' \eqn{u} = `control$error_offset` = 0: \eqn{u > 0} adds a constant,
#' not reduced by any data, to the error of every remaining stage, which
#' rules lookahead out whenever many evaluations remain; and \eqn{K =
#' 0.01} is the value at which, on paper 004's one-source problems
#' (Branin, Six-hump camel, Goldstein-Price, Bohachevsky, Griewank-3 with
#' their budgets of \eqn{10 d} evaluations), the rule looks ahead at about
#' half of the stages, mostly with \eqn{h = 2} or 3, as in the paper's
#' Fig. 1 (measured by `bench/rollout.R horizons`, with fantasy
#' observations; with \eqn{K = 1} it never looks ahead, with \eqn{K = 0.1}
#' almost never). The chosen \eqn{h} is non-decreasing in \eqn{K} while it
#' is above 1, and 1 for every \eqn{K} above the largest one that allows
#' lookahead. The number of remaining evaluations \eqn{N - k + 1} is the
#' remaining budget divided by the mean cost of the evaluations so far
#' (Alg. 1), rounded down, and \eqn{h} never exceeds it. Every evaluation
#' records the chosen `h`, `error_bound` (\eqn{\bar e_k}) and `power`
#' (\eqn{P_X}).
#'
#' @section Optimization over the box:
#' KG is computed on the finite set of the conditioned inputs, `n_cand`
#' scrambled Sobol candidates and \eqn{x}; the greedy choices inside the
#' lookahead are made over the candidates. The decision is optimized over
#' the whole box: the rewards are computed at a `10 d`-point design and the
#' candidates, and KG is refined by L-BFGS-B with its analytic gradient
#' (KG is differentiable in \eqn{x} except where the maximizing member of
#' the set changes) from the `control$n_top` best of them, at most
#' `control$inner_maxit` iterations each. With \eqn{h > 1}, the greedy
#' decision and the `control$n_top` best points are scored with the
#' rolling-horizon value, which is not differentiable (the greedy choices
#' inside jump), and a derivative-free compass search (steps from 0.05 of
#' the box, halved after a failed poll down to 0.001, at most
#' `control$maxit` polls) runs from the best `control$starts` of them. For
#' \eqn{h > 2} the screening and the search use the two-step value (a
#' tenth of the cost of each further stage), and only the end points of
#' the searches are scored with the \eqn{h}-step value, which chooses
#' among them. Ties go to the first point. A known cost is honoured as by
#' [policy_cmdp_rollout()]: points whose cost exceeds the remaining budget
#' are skipped.
#'
#' @section Multiple information sources (paper 004, Sec. 7):
#' On a problem with `sources` ([bo_problem()], [test_problem_miso()]) the
#' KG-based policies (this one and [policy_kg()]) model all sources
#' with [gp_fit_miso()] and choose a pair (point, source): the stage reward
#' is the knowledge gradient of the objective (source 0) per unit cost,
#' \eqn{KG(x, s) / c_s(x)} with \eqn{KG(x, s) = E[\max_a \mu_{n+1}(a, 0)]
#' - \max_a \mu_n(a, 0)} after observing source \eqn{s} at \eqn{x}
#' (paper 004, eq. 22-23, as misoKG), and the greedy base policy and the
#' decision run over every candidate and design point paired with every
#' source (ties go to the first pair: candidates and design points in
#' order, source 0 first). The fantasized outcome of a source is drawn
#' from that source's posterior, and the end stage is the argmax of the
#' objective's posterior mean. The horizon rule is the single-source one
#' with \eqn{\phi(i)} the KG (not divided by the cost) of the greedy
#' choice, so that profit and error bound are both in units of the
#' objective, and \eqn{N - k + 1} the remaining budget over the mean cost
#' of the evaluations so far. With one source of constant cost the
#' decisions are those of the single-source policy (the values are divided
#' by the cost).
#'
#' The pairs are refined over the box as for one source, by the compass
#' search for every \eqn{h} (the multi-source kernel has no
#' \eqn{x}-gradients) with the source of the starting pair held fixed; with
#' `source_costs` a function of \eqn{x} the search runs in R.
#'
#' @section Random numbers:
#' Each proposal draws the candidates, then the design. So `set.seed()`
#' repeats a run.
#'
#' @param horizon The horizon \eqn{h}: `"adaptive"` (default: chosen at
#'   every step by Theorem 3) or a whole number from 1 to 10 (the work
#'   grows like `n_nodes` \eqn{\times} `n_deep`\eqn{^{h-2}}).
#' @param max_horizon Largest horizon considered by `"adaptive"` (at most
#'   10).
#' @param discount The discount factor \eqn{\alpha} in (0, 1].
#' @param n_nodes Gauss-Hermite nodes of the knowledge gradient and of the
#'   first transition, at most 1000 (the range of [gauss_hermite()]).
#' @param n_cand Candidate points of the knowledge gradient, at most 2000
#'   (the rolling horizon keeps their joint covariances at every stage:
#'   memory grows like `n_cand`\eqn{^2} times the horizon).
#' @param fantasy What a fantasy outcome is on a deterministic objective:
#'   `"latent"` (default), the value of \eqn{f}, or `"observation"`, an
#'   observation whose variance includes the GP's noise band and jitter
#'   (see *Fantasy outcomes* in [policy_cmdp_rollout()]); it sets the
#'   spread \eqn{\tilde\sigma(a, x)} of the updated means (see
#'   [policy_kg()]), with \eqn{\sigma_\epsilon^2 = 0} for the latent value
#'   (conditioned on with the noise band on its diagonal: \eqn{\tilde
#'   \sigma(a, x) = \Sigma_n(a, x) \Sigma_n(x, x)^{1/2} / (\Sigma_n(x, x)
#'   + \sigma_\epsilon^2)}). On a noisy objective both draw observations.
#' @param control A list of tuning settings, all optional: `n_deep` (10):
#'   Gauss-Hermite nodes of later transitions; `n_top` (5): the points of
#'   largest reward from which the decision is refined; `inner_maxit` (50):
#'   L-BFGS-B iterations of the KG refinement; `starts` (2), `maxit` (10):
#'   the derivative-free search of the rolling-horizon values (starts,
#'   polls); `error_const` (0.01) and `error_offset` (0): \eqn{K} and
#'   \eqn{u} of the error bound. Caps: `n_deep` 1000, `starts` and `n_top`
#'   1000, `inner_maxit` and `maxit` 10000. (The settings of
#'   [policy_cmdp_rollout()] are accepted and unused.)
#' @return A `bo_policy`.
#' @references
#' Yue, X. and Kontar, R. A. (2020). Why non-myopic Bayesian optimization
#' is promising and how far should we look-ahead? A study via rollout.
#' *AISTATS*.
#'
#' Wang, W., Tuo, R. and Wu, C. F. J. (2019). On prediction properties of
#' kriging: uniform error bounds and robustness. *Journal of the American
#' Statistical Association*.
#' @family policies
#' @examples
#' # the rolling horizon: the chosen h, error bound and power function
#' run <- bo_optimize(test_problem("branin", budget = 4),
#'                    policy_kg_rollout(n_cand = 30),
#'                    seed = 1, progress = FALSE)
#' as.data.frame(run)[, c("h", "error_bound", "power")]
#' @export
policy_kg_rollout <- function(horizon = "adaptive", max_horizon = 5,
                              discount = 0.9, n_nodes = 10, n_cand = 100,
                              fantasy = c("latent", "observation"),
                              control = list()) {
  adaptive <- identical(horizon, "adaptive")
  if (!adaptive) {
    if (is.character(horizon)) {
      stop_arg("horizon", sprintf("\"adaptive\" or a whole number in 1..%d",
                                  rollout_max_kg_horizon), horizon)
    }
    horizon <- check_count_max(horizon, 1L, rollout_max_kg_horizon,
                               arg = "horizon")
  }
  max_horizon <- check_count_max(max_horizon, 1L, rollout_max_kg_horizon,
                                 arg = "max_horizon")
  discount <- check_number(discount, min = 0, max = 1, min_open = TRUE)
  n_nodes <- check_count_max(n_nodes, 1L, 1000L, arg = "n_nodes")
  n_cand <- check_count_max(n_cand, 1L, 2000L, arg = "n_cand")
  fantasy <- check_choice(fantasy, c("latent", "observation"))
  control <- check_rollout_control(control)
  if (!adaptive && horizon > max_horizon) max_horizon <- horizon
  obs <- if (fantasy == "observation") ", observed fantasies" else ""
  label <- if (adaptive) {
    sprintf("rolling-horizon rollout (KG, h <= %d, alpha = %g%s)",
            max_horizon, discount, obs)
  } else sprintf("KG rollout (h = %d, alpha = %g%s)", horizon, discount, obs)
  kg_policy("kg_rollout", label, if (adaptive) 0L else horizon, max_horizon,
            discount, n_nodes, n_cand, control,
            params = list(horizon = horizon, max_horizon = max_horizon,
                          discount = discount, n_nodes = n_nodes,
                          n_cand = n_cand, fantasy = fantasy),
            fantasy = fantasy)
}

#' Rollout policies (deprecated)
#'
#' `policy_rollout()` made two policies, switching on `base`: use
#' [policy_cmdp_rollout()] (a numeric `horizon` with `base =
#' "eipu_then_ei"` or `"ei"`) and [policy_kg_rollout()] (`base = "kg"`, or
#' `horizon = "adaptive"`). It keeps working for one release, with a
#' warning of class `costbo_warning_deprecated` that names the call to use,
#' and makes the policies it always made: their fantasy outcomes are
#' observations on every objective, as those of the new constructors with
#' `fantasy = "observation"` (whose default, `"latent"`, fantasizes the
#' value of \eqn{f} on a deterministic objective; see *Fantasy outcomes*
#' in [policy_cmdp_rollout()]), and its CMDP rollout estimates and
#' maximizes the value as [policy_cmdp_rollout()] does with `optimizer =
#' "compass"` (whose default, `"paper"`, is paper 001's optimizer).
#'
#' @inheritParams policy_kg_rollout
#' @param horizon The horizon \eqn{h}: a whole number \eqn{\ge 1} (at most
#'   100, or 10 with `base = "kg"`), or `"adaptive"` (needs `base = "kg"`).
#' @param base The base policy: `"eipu_then_ei"` (the CMDP rollout, the
#'   default for a numeric horizon), `"ei"` (EI rollout) or `"kg"`
#'   (rolling-horizon rollout, the default for `horizon = "adaptive"`).
#' @param n_samples Quasi-Monte Carlo samples of the CMDP rollout (at most
#'   1024).
#' @param control As for [policy_cmdp_rollout()] and [policy_kg_rollout()].
#' @return A `bo_policy`.
#' @family policies
#' @examples
#' pol <- suppressWarnings(policy_rollout(2, n_samples = 8))
#' # the same policy:
#' policy_cmdp_rollout(2, n_samples = 8, fantasy = "observation",
#'                     optimizer = "compass")
#' @export
policy_rollout <- function(horizon = 4, base = NULL, n_samples = 64,
                           max_horizon = 5, discount = 0.9, n_nodes = 10,
                           n_cand = 100, control = list()) {
  control_given <- control
  adaptive <- identical(horizon, "adaptive")
  base <- if (is.null(base)) {
    if (adaptive) "kg" else "eipu_then_ei"
  } else check_choice(base, c("eipu_then_ei", "ei", "kg"))
  # the rolling-horizon work grows like n_nodes * n_deep^(h - 2), the CMDP
  # work like h
  h_max <- if (base == "kg") rollout_max_kg_horizon else 100L
  if (!adaptive) {
    horizon <- check_count_max(horizon, 1L, h_max, arg = "horizon")
  }
  if (adaptive && base != "kg") {
    stop_arg("base", "\"kg\" when `horizon` is \"adaptive\"", base)
  }
  n_samples <- check_count_max(n_samples, 1L, 1024L, arg = "n_samples")
  max_horizon <- check_count_max(max_horizon, 1L, rollout_max_kg_horizon,
                                 arg = "max_horizon")
  discount <- check_number(discount, min = 0, max = 1, min_open = TRUE)
  n_nodes <- check_count_max(n_nodes, 1L, 1000L, arg = "n_nodes")
  n_cand <- check_count_max(n_cand, 1L, 2000L, arg = "n_cand")
  control <- check_rollout_control(control)
  # the call that makes the same policy (fantasy observations): the
  # arguments given that the new constructor takes, by value
  given <- names(match.call())[-1L]
  arg <- function(name, value, always = FALSE) {
    if (is.numeric(value)) value <- as.double(value)
    if (always || name %in% given) {
      paste(name, "=", paste(deparse(value), collapse = " "))
    }
  }
  args <- if (base == "kg") {
    c(arg("horizon", horizon, TRUE), arg("max_horizon", max_horizon),
      arg("discount", discount), arg("n_nodes", n_nodes),
      arg("n_cand", n_cand))
  } else {
    c(arg("horizon", horizon, TRUE), arg("n_samples", n_samples, TRUE),
      if (base == "ei") arg("base", base, TRUE))
  }
  args <- c(args, "fantasy = \"observation\"",
            if (base != "kg") "optimizer = \"compass\"",
            if (length(control_given)) arg("control", control_given))
  new <- sprintf("%s(%s)", if (base == "kg") "policy_kg_rollout" else
    "policy_cmdp_rollout", paste(args, collapse = ", "))
  deprecated_function("policy_rollout", new, paste(
    "the same policy; by default, `fantasy = \"latent\"`:",
    "values of f on a deterministic objective"))
  if (!adaptive && base == "kg" && horizon > max_horizon) {
    max_horizon <- horizon
  }
  if (base == "kg") {
    h <- if (adaptive) 0L else horizon
    label <- if (adaptive) {
      sprintf("rolling-horizon rollout (KG, h <= %d, alpha = %g)",
              max_horizon, discount)
    } else sprintf("KG rollout (h = %d, alpha = %g)", horizon, discount)
    return(kg_policy("rollout_kg", label, h, max_horizon, discount, n_nodes,
                     n_cand, control,
                     params = list(horizon = horizon, base = base,
                                   max_horizon = max_horizon,
                                   discount = discount, n_nodes = n_nodes,
                                   n_cand = n_cand)))
  }
  cmdp_policy(paste0("rollout_", base),
              sprintf("%s rollout (h = %d, %d QMC samples)",
                      if (base == "ei") "EI" else "CMDP", horizon, n_samples),
              horizon, n_samples, base, "observation", control,
              params = list(horizon = horizon, base = base,
                            n_samples = n_samples))
}

# Whether the fantasy outcomes of a rollout with setting `fantasy` are latent
# values of f in `state` (the rule of src/gp.h): on a deterministic
# objective unless the setting is "observation".
rollout_latent <- function(fantasy, state) {
  fantasy == "latent" && !isTRUE(state$problem$noisy)
}

# The CMDP engine's policies (checked settings): base "eipu_then_ei" or "ei";
# optimizer "paper" (the paper engine of src/rollout.c) or "compass" (the
# search of policy_rollout(), kept bit for bit).
cmdp_policy <- function(name, label, horizon, n_samples, base, fantasy,
                        control, params, optimizer = "compass") {
  base_code <- match(base, c("eipu_then_ei", "ei")) - 1L
  if (optimizer == "paper") {
    return(cmdp_paper_policy(name, label, horizon, n_samples, base_code,
                             fantasy, control, params))
  }
  # the engine's control, checked once (cmdp_control_at() sets each
  # proposal's remaining budget and fantasy rule)
  ctl <- cmdp_control(horizon, base_code, Inf, control, FALSE)
  propose <- function(state) {
    s <- rollout_state(state)
    dr <- cmdp_draws(s$d, horizon, n_samples, control)
    ds <- sobol_unit(10L * s$d, s$d)
    r <- call_c(C_rollout_cmdp_propose, s$pack, ds, dr$z, dr$raw,
               dr$unif, cmdp_control_at(ctl, s$remaining,
                                        rollout_latent(fantasy, state)))
    list(x = s$lower + r$x * (s$upper - s$lower),
         info = list(acquisition = r$value, h = horizon),
         memory = state$memory)
  }
  acquisition <- function(state, X) {
    s <- rollout_state(state)
    dr <- cmdp_draws(s$d, horizon, n_samples, control)
    call_c(C_rollout_cmdp_value, s$pack, to_unit(X, s), dr$z, dr$raw, dr$unif,
          cmdp_control_at(ctl, s$remaining,
                          rollout_latent(fantasy, state)))$value
  }
  # (calls a known cost written in R from C, see check_run_ready())
  new_bo_policy(name, label, propose, acquisition, params = params,
                domains = "box", known_cost = TRUE)
}

# The CMDP rollout with the paper engine (C_rollout_cmdp_paper_*).
cmdp_paper_policy <- function(name, label, horizon, n_samples, base_code,
                              fantasy, control, params) {
  # the engine's control, checked once (as in cmdp_policy())
  ctl <- cmdp_paper_control(horizon, base_code, Inf, control, FALSE)
  propose <- function(state) {
    s <- rollout_state(state)
    dr <- cmdp_paper_draws(s$d, horizon, n_samples, control)
    r <- call_c(C_rollout_cmdp_paper_propose, s$pack,
               sobol_unit(10L * s$d, s$d), dr$z, dr$raw,
               cmdp_control_at(ctl, s$remaining,
                               rollout_latent(fantasy, state)))
    list(x = s$lower + r$x * (s$upper - s$lower),
         info = list(acquisition = r$value, h = horizon),
         memory = state$memory)
  }
  acquisition <- function(state, X) {
    s <- rollout_state(state)
    dr <- cmdp_paper_draws(s$d, horizon, n_samples, control)
    call_c(C_rollout_cmdp_paper_value, s$pack, to_unit(X, s), dr$z, dr$raw,
          cmdp_control_at(ctl, s$remaining,
                          rollout_latent(fantasy, state)), FALSE)$value
  }
  # (calls a known cost written in R from C, see check_run_ready())
  new_bo_policy(name, label, propose, acquisition, params = params,
                domains = "box", known_cost = TRUE)
}

#' Knowledge gradient
#'
#' The greedy knowledge-gradient policy, the base heuristic of the
#' rolling-horizon rollout ([policy_kg_rollout()]): it maximizes
#' \eqn{KG(x) = E[\max_a \mu_{n+1}(a)] - \max_a \mu_n(a)}, the expected
#' gain of the maximum of the posterior mean after observing \eqn{x}, over
#' the finite set \eqn{a} of the observed inputs, `n_cand` scrambled Sobol
#' candidates and \eqn{x}. The expectation over the observation at \eqn{x}
#' is a Gauss-Hermite rule with `n_nodes` nodes: the updated mean is
#' \eqn{\mu_n(a) + \tilde\sigma(a, x) Z} with \eqn{\tilde\sigma(a, x) =
#' \Sigma_n(a, x) / \sqrt{\Sigma_n(x, x) + \sigma_\epsilon^2}} (paper 004,
#' eq. 23), the observation's noise variance \eqn{\sigma_\epsilon^2} being
#' the GP's (on a deterministic objective, its numerical noise band: this
#' is [policy_kg_rollout()] with `horizon = 1` and `fantasy =
#' "observation"`). KG is maximized over the box: over a `10 d`-point
#' design plus the candidates, then by L-BFGS-B with its analytic gradient
#' from the 5 best of them; points whose cost exceeds the remaining budget
#' are skipped. On a problem
#' with information sources this is misoKG (Poloczek et al. 2017): it
#' maximizes KG of the objective per unit cost over pairs (point, source);
#' see [policy_kg_rollout()].
#'
#' @inheritParams policy_kg_rollout
#' @return A `bo_policy`.
#' @family policies
#' @examples
#' prob <- test_problem("branin", budget = 3)
#' run <- bo_optimize(prob, policy_kg(), seed = 1, progress = FALSE)
#' summary(run)
#' @export
policy_kg <- function(n_nodes = 10, n_cand = 100) {
  n_nodes <- check_count_max(n_nodes, 1L, 1000L, arg = "n_nodes")
  n_cand <- check_count_max(n_cand, 1L, 2000L, arg = "n_cand")
  kg_policy("kg", "knowledge gradient", 1L, 1L, 1, n_nodes, n_cand,
            check_rollout_control(list()),
            params = list(n_nodes = n_nodes, n_cand = n_cand))
}

# Largest horizon of the KG-based rollouts (exponential work in h).
rollout_max_kg_horizon <- 10L

# The KG-based policies: h = 0 chooses the horizon by Theorem 3. On a
# problem with information sources they choose pairs (x, source) by
# miso_propose(). `fantasy` as in policy_kg_rollout(): the engine's control
# with latent fantasies serves the states where rollout_latent() says so.
kg_policy <- function(name, label, h, max_h, alpha, n_nodes, n_cand, control,
                      params, fantasy = "observation") {
  nodes_of <- local({
    obs <- kg_control(n_nodes, control$n_deep, alpha, max(max_h, h, 1L),
                      latent = FALSE)
    lat <- kg_control(n_nodes, control$n_deep, alpha, max(max_h, h, 1L),
                      latent = TRUE)
    function(state) if (rollout_latent(fantasy, state)) lat else obs
  })
  # the decision's control, checked once (rh_control_at() sets each
  # proposal's evaluations left and remaining budget)
  rh <- rh_control(h, control, 0, Inf)
  propose <- function(state) {
    nodes <- nodes_of(state)
    if (problem_search(state$problem)$kind == "pairs") {
      return(miso_propose(state, h, nodes, n_cand, control, rh))
    }
    s <- rollout_state(state)
    cand <- sobol_unit(n_cand, s$d)
    ds <- sobol_unit(10L * s$d, s$d)
    ctl <- rh_control_at(rh, remaining_evaluations(state, s$remaining),
                         s$remaining)
    r <- call_c(C_rollout_rh_propose, s$pack, ds, cand, nodes, ctl)
    list(x = s$lower + r$x * (s$upper - s$lower),
         info = list(acquisition = r$value, h = r$h,
                     error_bound = r$error_bound, power = r$power),
         memory = state$memory)
  }
  acquisition <- function(state, X) {
    nodes <- nodes_of(state)
    if (problem_search(state$problem)$kind == "pairs") {
      return(miso_acquisition(state, X, max(h, 1L), nodes, n_cand))
    }
    s <- rollout_state(state)
    cand <- sobol_unit(n_cand, s$d)
    call_c(C_rollout_rh_value, s$pack, to_unit(X, s), cand, nodes,
          max(h, 1L))
  }
  # (calls a known cost written in R from C, see check_run_ready())
  new_bo_policy(name, label, propose, acquisition, params = params,
                domains = c("box", "pairs"), known_cost = TRUE, miso = TRUE)
}

# The multi-source decision: candidates and design as for one source, in the
# same order, each paired with every source; costs from the problem. `rh`:
# the decision's control (rh_control()), built once by the policy.
miso_propose <- function(state, h, nodes, n_cand, control,
                         rh = rh_control(h, control, 0, Inf)) {
  pr <- state$problem
  d <- pr$d
  S <- pr$n_sources
  model <- state$models$f
  remaining <- state_remaining(state)
  cand <- sobol_unit(n_cand, d)
  ds <- sobol_unit(10L * d, d)
  user <- function(U) sweep(sweep(U, 2L, pr$upper - pr$lower, "*"), 2L,
                            pr$lower, "+")
  ccost <- miso_cost_matrix(pr, user(cand))
  dcost <- as.vector(miso_cost_matrix(pr, user(ds)))
  design <- cbind(ds[rep(seq_len(nrow(ds)), S), , drop = FALSE],
                  rep(seq_len(S) - 1L, each = nrow(ds)), deparse.level = 0L)
  per_source <- !is.null(pr$source_costs)
  ctl <- rh_control_at(rh, remaining_evaluations(state, remaining),
                       remaining)
  r <- call_c(C_rollout_miso_propose, gp_pack(model), design, dcost,
             cbind(cand, 0, deparse.level = 0L), ccost, nodes, ctl,
             as.double(model$ysd), per_source)
  if (!per_source) r <- miso_refine(state, r, nodes, cand, control,
                                    remaining)
  list(x = pr$lower + r$x[seq_len(d)] * (pr$upper - pr$lower),
       source = as.integer(round(r$x[d + 1L])),
       info = list(acquisition = r$value, h = r$h,
                   error_bound = r$error_bound, power = r$power),
       memory = state$memory)
}

# The control objects of the KG engine of src/rollout.c, read by name.
# kg_control() (unpack_kg()): Gauss-Hermite nodes of the first and of later
# transitions, discount alpha in (0, 1], largest horizon, and whether the
# fantasy outcomes are latent values of f (else observations; the rule of
# src/gp.h).
kg_control <- function(n_nodes, n_deep, alpha, max_h, latent,
                       call = sys.call(-1L)) {
  structure(list(
    n_nodes = check_count_max(n_nodes, 1L, 1000L, arg = "n_nodes",
                              call = call),
    n_deep = check_count_max(n_deep, 1L, 1000L, arg = "n_deep", call = call),
    alpha = check_number(alpha, min = 0, max = 1, min_open = TRUE,
                         arg = "alpha", call = call),
    max_h = check_count_max(max_h, 1L, rollout_max_kg_horizon,
                            arg = "max_h", call = call),
    latent = as.integer(check_flag(latent, arg = "latent", call = call))),
    class = "costbo_kg_control")
}

# rh_control() (unpack_rh_control()): a rolling-horizon decision with
# horizon h (0: by Theorem 3), the constants K, u of the error bound, the
# evaluations left N - k + 1, the remaining budget, and the refinement (the
# n_top pairs of largest reward, `starts` compass searches of at most
# `maxit` polls, L-BFGS-B iterations inner_maxit), from
# check_rollout_control()'s list. A policy builds it once, when it is made,
# and sets each proposal's n_left and remaining by rh_control_at().
rh_control <- function(h, control, n_left, remaining, call = sys.call(-1L)) {
  structure(list(
    h = check_count_max(h, 0L, rollout_max_kg_horizon, arg = "h",
                        call = call),
    error_const = check_number(control$error_const, min = 0,
                               arg = "error_const", call = call),
    error_offset = check_number(control$error_offset, min = 0,
                                arg = "error_offset", call = call),
    n_left = check_count_max(n_left, 0L, 1e6, arg = "n_left", call = call),
    remaining = rollout_remaining(remaining, call),
    n_top = check_count_max(control$n_top, 1L, 1000L, arg = "n_top",
                            call = call),
    starts = check_count_max(control$starts, 1L, 1000L, arg = "starts",
                             call = call),
    maxit = check_count_max(control$maxit, 0L, 10000L, arg = "maxit",
                            call = call),
    inner_maxit = check_count_max(control$inner_maxit, 1L, 10000L,
                                  arg = "inner_maxit", call = call)),
    class = "costbo_rh_control")
}

# An rh_control() object `ctl` for a proposal with `n_left` evaluations
# left (remaining_evaluations(): a whole number in [0, 1e6]) and
# `remaining` budget, both the state's: the constants were checked when
# `ctl` was built.
rh_control_at <- function(ctl, n_left, remaining) {
  ctl$n_left <- as.integer(n_left)
  ctl$remaining <- as.double(remaining)
  ctl
}

# A remaining budget: a number, possibly Inf (no budget), not NA.
rollout_remaining <- function(remaining, call) {
  if (!(is.numeric(remaining) && length(remaining) == 1L &&
        !is.na(remaining))) {
    stop_arg("remaining", "a single number", remaining, call = call)
  }
  as.double(remaining)
}

# With source costs that depend on x the C core cannot price a moved pair,
# so the compass search of the C decision runs here: poll x +- step e_k
# (the source fixed), move to the first improvement, halve the step (from
# 0.05 of the box) after a failed poll, at most control$maxit polls or
# until the step is below 1e-3; values on the proposal's candidates.
miso_refine <- function(state, r, nodes, cand, control, remaining) {
  pr <- state$problem
  d <- pr$d
  hh <- max(r$h, 1L)
  value <- function(u) {
    x <- pr$lower + u[seq_len(d)] * (pr$upper - pr$lower)
    if (!(miso_cost(pr, x, as.integer(u[d + 1L])) <= remaining)) return(-Inf)
    miso_values(state, matrix(c(x, u[d + 1L]), 1L), hh, nodes, cand)
  }
  u <- r$x
  v <- value(u)
  step <- 0.05
  for (it in seq_len(control$maxit)) {
    if (step < 1e-3) break
    moved <- FALSE
    for (k in seq_len(d)) {
      for (sgn in c(1, -1)) {
        ut <- u
        ut[k] <- min(1, max(0, u[k] + sgn * step))
        if (ut[k] == u[k]) next
        vt <- value(ut)
        if (vt > v) {
          u <- ut
          v <- vt
          moved <- TRUE
          break
        }
      }
      if (moved) break
    }
    if (!moved) step <- step / 2
  }
  r$x <- u
  r$value <- max(v, 0)
  r
}

# Values of pairs (x, source) (X with d + 1 columns; d columns: source 0).
miso_acquisition <- function(state, X, h, nodes, n_cand) {
  miso_values(state, X, h, nodes, sobol_unit(n_cand, state$problem$d))
}

# miso_acquisition() on given unit-cube candidates.
miso_values <- function(state, X, h, nodes, cand) {
  pr <- state$problem
  d <- pr$d
  X <- matrix(as.double(X), nrow = NROW(X))
  src <- if (ncol(X) == d + 1L) X[, d + 1L] else rep(0, nrow(X))
  Xu <- sweep(sweep(X[, seq_len(d), drop = FALSE], 2L, pr$lower), 2L,
              pr$upper - pr$lower, "/")
  xcost <- vapply(seq_len(nrow(X)), function(i) {
    miso_cost(pr, X[i, seq_len(d)], as.integer(src[i]))
  }, 0)
  user <- sweep(sweep(cand, 2L, pr$upper - pr$lower, "*"), 2L, pr$lower, "+")
  call_c(C_rollout_miso_value, gp_pack(state$models$f),
        cbind(Xu, src, deparse.level = 0L), xcost,
        cbind(cand, 0, deparse.level = 0L), miso_cost_matrix(pr, user),
        nodes, as.integer(h), as.double(state$models$f$ysd))
}

# The rollouts' control list, checked, with the defaults of the CMDP
# rollout's compass search (paper = FALSE: the settings of policy_rollout()
# and of the KG rollouts) or of its paper engine (paper = TRUE: n_raw NULL,
# max(10 d, 100) raw points, chosen when the dimension is known).
check_rollout_control <- function(control, paper = FALSE,
                                  call = sys.call(-1L)) {
  def <- list(n_raw = 100, inner_starts = 2, inner_maxit = 50, starts = 2,
              maxit = 10, n_deep = 10, n_top = 5,
              error_const = 0.01, error_offset = 0, n_screen = 8,
              n_search = 32)
  if (!is.list(control) || (length(control) && is.null(names(control))) ||
      !all(names(control) %in% names(def))) {
    stop_arg("control", sprintf("a list with elements among %s",
                                paste(names(def), collapse = ", ")),
             control, call = call)
  }
  if (paper) {
    keys <- c("inner_starts", "inner_maxit", "starts", "maxit", "n_screen",
              "n_search")
    def[keys] <- cmdp_paper_defaults[keys]
  }
  out <- utils::modifyList(def, control)
  caps <- c(n_raw = 1e5, inner_starts = 1000, inner_maxit = 10000,
            starts = 1000, n_deep = 1000, n_top = 1000, n_screen = 1024,
            n_search = 1024)
  for (nm in names(caps)) {
    if (paper && nm == "n_raw" && !("n_raw" %in% names(control))) next
    out[[nm]] <- check_count_max(out[[nm]], 1L, caps[[nm]],
                                 arg = paste0("control$", nm), call = call)
  }
  if (paper && !("n_raw" %in% names(control))) out["n_raw"] <- list(NULL)
  out$maxit <- check_count_max(out$maxit, 0L, 10000L, arg = "control$maxit",
                               call = call)
  out$error_const <- check_number(out$error_const, min = 0,
                                  arg = "control$error_const", call = call)
  out$error_offset <- check_number(out$error_offset, min = 0,
                                   arg = "control$error_offset", call = call)
  out
}

# What the rollout engines need from a state: the packed EI acquisition
# (objective GP, cost model, best value, remaining budget) and the box.
rollout_state <- function(state, call = sys.call(-1L)) {
  pr <- state$problem
  spec <- do.call(new_acq_spec, myopic_args(state, "ei"))
  list(pack = acq_pack(spec), d = pr$d, lower = pr$lower, upper = pr$upper,
       remaining = state_remaining(state))
}

to_unit <- function(X, s) {
  X <- matrix(as.double(X), ncol = s$d)
  sweep(sweep(X, 2L, s$lower, "-"), 2L, s$upper - s$lower, "/")
}

# The draws of one CMDP rollout, in their documented order.
cmdp_draws <- function(d, h, n_samples, control) {
  z <- sobol_unit(n_samples, h, normal = TRUE)
  raw <- sobol_unit(control$n_raw, d)
  list(z = z, raw = raw, unif = stats::runif(control$n_raw))
}

# The control object of the CMDP engine (unpack_cmdp() in src/rollout.c):
# horizon, base policy (0: EI-PU then EI, 1: EI), remaining budget, the
# inner maximizations' control (control$inner_starts L-BFGS-B starts,
# control$inner_maxit iterations), the outer compass search
# (control$starts searches of at most control$maxit polls), and whether the
# fantasy outcomes are latent values of f (else observations; the rule of
# src/gp.h). A policy builds it once, when it is made, and sets each
# proposal's remaining budget and fantasy rule by cmdp_control_at().
cmdp_control <- function(h, base_code, remaining, control, latent,
                         call = sys.call(-1L)) {
  structure(list(
    h = check_count_max(h, 1L, 100L, arg = "h", call = call),
    base = check_count_max(base_code, 0L, 1L, arg = "base", call = call),
    remaining = rollout_remaining(remaining, call),
    latent = as.integer(check_flag(latent, arg = "latent", call = call)),
    inner = max_control(control$inner_starts, maxit = control$inner_maxit),
    starts = check_count_max(control$starts, 1L, 1000L, arg = "starts",
                             call = call),
    maxit = check_count_max(control$maxit, 0L, 10000L, arg = "maxit",
                            call = call)),
    class = "costbo_cmdp_control")
}

# A CMDP control object `ctl` (of cmdp_control() or cmdp_paper_control())
# for a proposal with `remaining` budget (a number, Inf without a budget)
# and latent fantasies or not (`latent`, TRUE or FALSE), both the state's:
# the constants were checked when `ctl` was built.
cmdp_control_at <- function(ctl, remaining, latent) {
  ctl$remaining <- as.double(remaining)
  ctl$latent <- as.integer(latent)
  ctl
}

# The paper engine's defaults (see policy_cmdp_rollout()).
cmdp_paper_defaults <- list(inner_starts = 5L, inner_maxit = 40L, starts = 5L,
                            maxit = 15L, n_screen = 8L, n_search = 32L,
                            inner_factr = 1e11)

# The draws of one CMDP rollout of the paper engine, in their documented
# order: the Sobol normals, then the inner raw points (control$n_raw, else
# 10 d and at least 100).
cmdp_paper_draws <- function(d, h, n_samples, control) {
  z <- sobol_unit(n_samples, h, normal = TRUE)
  n_raw <- if (is.null(control$n_raw)) max(10L * d, 100L) else control$n_raw
  list(z = z, raw = sobol_unit(n_raw, d))
}

# The control object of the paper engine (pe_setup() in src/rollout.c):
# as cmdp_control(), the inner maximizations choosing their starts as the
# best raw points, and the outer search's screening samples.
cmdp_paper_control <- function(h, base_code, remaining, control, latent,
                               call = sys.call(-1L)) {
  structure(list(
    h = check_count_max(h, 1L, 100L, arg = "h", call = call),
    base = check_count_max(base_code, 0L, 1L, arg = "base", call = call),
    remaining = rollout_remaining(remaining, call),
    latent = as.integer(check_flag(latent, arg = "latent", call = call)),
    inner = max_control(control$inner_starts, select = "best",
                        maxit = control$inner_maxit,
                        factr = cmdp_paper_defaults$inner_factr),
    starts = check_count_max(control$starts, 1L, 1000L, arg = "starts",
                             call = call),
    maxit = check_count_max(control$maxit, 0L, 10000L, arg = "maxit",
                            call = call),
    n_screen = check_count_max(control$n_screen, 1L, 1024L, arg = "n_screen",
                               call = call),
    n_search = check_count_max(control$n_search, 1L, 1024L, arg = "n_search",
                               call = call)),
    class = "costbo_cmdp_control")
}

# N - k + 1 of paper 004's Alg. 1: the remaining budget over the mean cost of
# the evaluations so far.
remaining_evaluations <- function(state, remaining) {
  cst <- state$cost[is.finite(state$cost) & state$cost > 0]
  cbar <- if (length(cst)) mean(cst) else 1
  as.double(min(1e6, max(0, floor(remaining / cbar + 1e-9))))
}
