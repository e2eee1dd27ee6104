# Optimization problems: domain, objective, cost and budget.

#' Define a cost-aware optimization problem
#'
#' A problem is an expensive objective to maximize (or, with
#' `maximize = FALSE`, to minimize) over a box (or a finite set of candidate
#' points), the cost of each evaluation, and the total budget.
#'
#' The cost is either known in advance, as a function of the input (or a
#' constant), or measured: with `cost = NULL` the objective returns the cost
#' it incurred together with the value, as `list(value = , cost = )` (or a
#' named numeric vector `c(value = , cost = )`), and policies learn the cost
#' with a Gaussian process on the log cost.
#'
#' @param objective The function to maximize (or minimize, with `maximize =
#'   FALSE`). It receives one point `x` (a numeric vector of length `d`) and
#'   returns a number, or, when the cost is measured (`cost = NULL`),
#'   `list(value = , cost = )`.
#' @param lower,upper Bounds of the box (length `d`; a single number is
#'   recycled when `d` is known from the other bound or `candidates`).
#'   Optional with `candidates`, whose range then defines the box.
#' @param cost The cost of an evaluation: `NULL` (measured by the objective),
#'   a positive number (every evaluation costs the same), or a function of
#'   one point returning a positive number (see also [cost_linear()] and
#'   [cost_cosine()], which the C core evaluates directly). A function
#'   written in R works with every policy: the C core calls it back at the
#'   points it prices (thousands of calls per proposal, so keep it cheap and
#'   free of random numbers). It may return its gradient in `x` as
#'   attribute `"gradient"` (a vector of length `d`); otherwise the policies
#'   that need one take forward differences (step \eqn{\sqrt{\epsilon}
#'   \max(1, |x_k|)}, about \eqn{1.5 \times 10^{-8} \max(1, |x_k|)}; backward
#'   at the upper faces, so `cost` is never called outside the box). An
#'   acquisition's maximizer climbs from each start with secant gradients
#'   (one call per step while the cost's tangent predicts its change within
#'   1 percent, as for an affine cost; differences where it curves) and ends
#'   each start with forward differences
#'   (`options(costbo.secant_gradients = FALSE)` differences every step). A
#'   point priced again within a
#'   proposal is answered from a cache. A cost that fails or returns
#'   anything but one positive finite number while a policy prices points
#'   is an error of
#'   class `costbo_error_cost` naming `cost`; a policy that prices points
#'   has the cost checked at a few points before anything is paid.
#'   `bo_problem()` itself calls a cost function written in R once, at the
#'   centre of the box (the first of `candidates`; for a typed `space`, the
#'   typed point of the centre of its encoding), with R's random-number
#'   state kept, and refuses it when that value is not one positive finite
#'   number (a vector, a negative value, `NA`): a cost function that counts
#'   its calls counts this one. An error there is left to the run, since a
#'   cost may fail at some points only (see `on_error` of [bo_optimize()]).
#'   costbo's own costs ([cost_linear()], [cost_cosine()], a number) are not
#'   called.
#' @param budget Total budget (positive), in the units of the cost.
#' @param candidates Optional matrix of candidate points (one per row): the
#'   problem's domain is then this finite set.
#' @param prior Optional explicit Gaussian prior over the candidates,
#'   `list(mean = , cov = )` (length and dimension `nrow(candidates)`); the
#'   objective is then modelled by [gp_finite()] with this prior instead of a
#'   fitted GP (as in the papers' exact constructions).
#' @param noise Are evaluations of the objective noisy? `FALSE` (default):
#'   a deterministic objective; `TRUE`: a noisy objective whose noise
#'   variance the model estimates; or a number >= 0, the observation noise
#'   variance (in the objective's units squared), which declares the
#'   objective noisy when positive (0 is `FALSE`). With `prior` a number is
#'   the known noise variance of the explicit prior model (as in
#'   [gp_finite()]) and `TRUE` is an error, since that model does not
#'   estimate its noise. Without `prior` a positive number declares the
#'   objective noisy, exactly as `TRUE` does: the GP estimates the variance
#'   (to hold it fixed, give [bo_optimize()] `gp_args = list(noise = )`).
#'
#'   The papers' test problems, simulations and tuning runs with fixed seeds
#'   return the same value at the same point, and a GP that explains part
#'   of such data as noise flattens its posterior until every expected
#'   improvement is negligible, which makes every proposal of the EI family
#'   arbitrary. A noisy objective must therefore be declared. This decides
#'   the default model (see `gp_args` of [bo_optimize()]): a
#'   deterministic objective is modelled by a GP whose noise variance is
#'   held in \[1e-4, 1e-3\] of the variance of the observations (the band
#'   of the reference implementation of Astudillo et al. 2021), so that the
#'   GP (nearly) interpolates them; a noisy one by a GP whose noise is
#'   estimated freely, and the incumbent of the expected-improvement family
#'   (and of B-MS-EI's tree, the rollouts and PBGI's stopping rule) is then
#'   the largest posterior mean at the evaluated points (the plug-in of
#'   Picheny et al. 2013) instead of the largest noisy observation.
#'   Reported results (best value, regret) are the best observed values in
#'   both cases. With `prior` the model is that prior, and with `sources`
#'   the multi-source GP of [gp_fit_miso()] estimates its noise in either
#'   case; `noise` then decides the incumbent only.
#' @param name A name for printing.
#' @param optimum The known optimum (the maximum, or the minimum with
#'   `maximize = FALSE`), if any, so that regret can be reported. With
#'   control sets: the best expected value over control sets and partial
#'   queries (the optimum of the objective when the full control set is
#'   among them).
#' @param control_sets Optional list of control sets: vectors of the indices
#'   of the inputs the learner sets itself (Tay et al. 2023). Each evaluation
#'   then uses one control set: the policy chooses the set and the values of
#'   its inputs (a control partial query), the other inputs are drawn from
#'   `distributions`, the objective is evaluated at the realized full query,
#'   and the evaluation costs the set's cost. Use the policies of
#'   [policy_ucb_cvs()] with such problems.
#' @param control_costs The cost of each control set (positive); with
#'   `control_sets`, `cost` must be `NULL`.
#' @param distributions With `control_sets`: the distribution of each input
#'   when it is not controlled, as a vectorized quantile function
#'   (`function(p)` with values in \[lower, upper\]), one function for all
#'   inputs or a list of one per input (`NULL` entries take the default): by
#'   default a normal distribution with mean the centre of the box truncated
#'   to \[lower, upper\], with variance `variance` on the unit scale (after
#'   truncation; the paper uses 0.02, 0.04 and 0.08).
#' @param variance The default distributions' variance on the unit interval
#'   (one number or one per input, in (1e-8, 1/12), the truncated normal's
#'   scale being found in \[1e-4, 1e3\]).
#' @param noise_free With `control_sets`: optionally the noise-free
#'   objective as a function of a matrix of points (one per row) returning
#'   one value per row. With it (and `optimum`) runs report the regret of
#'   Tay et al. (2023): the optimum minus the expected noise-free objective
#'   of the chosen control set and partial query, by Monte Carlo over 8192
#'   samples of the random inputs (fixed for the problem), in
#'   [as.data.frame()], [summary()] and [plot()].
#' @param sources Optional number of information sources (Yue and Kontar
#'   2020, Sec. 7; Poloczek et al. 2017). The objective is then
#'   `function(x, source)`: source 0 is the objective itself, sources 1, 2,
#'   ... are cheaper, possibly biased, approximations of it. Each evaluation
#'   chooses a source and costs that source's cost; the best value and the
#'   regret count evaluations of source 0 only. Use [policy_kg()] or the
#'   rolling-horizon [policy_rollout()] with such problems (see also
#'   [test_problem_miso()]).
#' @param source_costs With `sources`: the cost of each source (positive
#'   numbers, source 0 first), or a function `function(x, source)` returning
#'   the cost of evaluating `source` at `x`; `cost` must then be `NULL`. A
#'   function is called once per source at the centre of the box, as a
#'   `cost` function is (see `cost`).
#' @param space Optional typed search space ([bo_space()]) in place of the
#'   box: numeric, integer and categorical parameters. The objective (and a
#'   cost function) then receives one point as a named list of typed values
#'   (numbers, integers, strings); `lower`, `upper`, `candidates`,
#'   `control_sets` and `sources` must be `NULL`. Runs record each point
#'   both as its typed values (in [as.data.frame()]) and as its encoding on
#'   the unit cube (`run$X`, what the models see); every proposal is a valid
#'   typed point, and a proposal of a deterministic objective that repeats
#'   an evaluated point is moved to the nearest point not yet evaluated (see
#'   [bo_space()] for the models).
#' @param maximize `TRUE` (default) to maximize the objective, `FALSE` to
#'   minimize it (a loss, an error rate, a Brier score). costbo maximizes
#'   internally: with `FALSE` the value the objective returns (the number,
#'   or the `value` of `list(value = , cost = )`), the `optimum`, the mean
#'   of a `prior` and the values of `noise_free` are negated where the
#'   problem is defined, so that a minimized problem is run exactly as the
#'   maximization of its negation. Everything reported speaks in the
#'   objective's own direction and units: printed runs and summaries (the
#'   best value is the smallest), [as.data.frame()], plots, benchmarks and
#'   their comparisons, and the `value` given to [bo_tell()] (and the
#'   `value` column of `initial`) is the objective's own. Regret stays the
#'   distance to the optimum (non-negative).
#' @param noisy Deprecated name of `noise` (`noisy = TRUE` is `noise =
#'   TRUE`; the two cannot be given together).
#' @return An object of class `bo_problem`.
#' @references
#' Astudillo, R., Jiang, D. R., Balandat, M., Bakshy, E. and Frazier, P. I.
#' (2021). Multi-step budgeted Bayesian optimization with unknown evaluation
#' costs. *NeurIPS 34*.
#'
#' Picheny, V., Wagner, T. and Ginsbourger, D. (2013). A benchmark of
#' kriging-based infill criteria for noisy optimization. *Structural and
#' Multidisciplinary Optimization* 48, 607--626.
#' @family problems
#' @seealso [test_problem()] for the papers' test problems.
#' @examples
#' # a 2-D problem whose evaluations cost more on the right
#' prob <- bo_problem(function(x) -sum((x - 0.3)^2), lower = c(0, 0),
#'                    upper = c(1, 1), cost = function(x) 1 + 4 * x[1],
#'                    budget = 20, name = "quadratic", optimum = 0)
#' prob
#' # a noisy experiment must say so
#' noisy <- bo_problem(function(x) -sum((x - 0.3)^2) + rnorm(1, sd = 0.05),
#'                     lower = c(0, 0), upper = c(1, 1), cost = 1,
#'                     budget = 20, noise = TRUE)
#' noisy
#' # a cost measured by the experiment itself
#' timed <- bo_problem(function(x) list(value = sin(5 * x), cost = 1 + x),
#'                     lower = 0, upper = 2, budget = 15)
#' # control sets: set x1 alone (cost 0.1) or both inputs (cost 1); an input
#' # that is not set is drawn from its distribution
#' cvs <- bo_problem(function(x) -sum((x - 0.3)^2), lower = c(0, 0),
#'                   upper = c(1, 1), budget = 10,
#'                   control_sets = list(1, c(1, 2)),
#'                   control_costs = c(0.1, 1),
#'                   distributions = list(NULL, function(p) p))
#' cvs
#' # two information sources: the objective (cost 10) and a biased cheap
#' # approximation (cost 1)
#' miso <- bo_problem(function(x, source) -sum((x - 0.3)^2) + 0.1 * source,
#'                    lower = c(0, 0), upper = c(1, 1), budget = 30,
#'                    sources = 2, source_costs = c(10, 1))
#' miso
#' # a typed space: an integer, a log-scale number and a category
#' sp <- bo_space(trees = param_int(10, 200),
#'                rate = param_num(1e-3, 1, log = TRUE),
#'                rule = param_cat(c("a", "b")))
#' typed <- bo_problem(function(p) -(log10(p$rate) + 1)^2 + (p$rule == "b") -
#'                       (p$trees - 120)^2 / 1e4,
#'                     space = sp, cost = function(p) 1 + p$trees / 100,
#'                     budget = 10)
#' typed
#' # a loss to minimize: reports show the loss itself
#' loss <- bo_problem(function(x) sum((x - 0.3)^2), lower = c(0, 0),
#'                    upper = c(1, 1), cost = 1, budget = 10, optimum = 0,
#'                    maximize = FALSE)
#' loss
#' @export
bo_problem <- function(objective, lower = NULL, upper = NULL, cost = NULL,
                       budget, candidates = NULL, prior = NULL, noise = FALSE,
                       name = NULL, optimum = NULL, control_sets = NULL,
                       control_costs = NULL, distributions = NULL,
                       variance = 0.02, noise_free = NULL, sources = NULL,
                       source_costs = NULL, space = NULL,
                       maximize = TRUE, noisy) {
  if (!is.function(objective)) {
    stop_arg("objective", "a function of one point", objective)
  }
  maximize <- check_flag(maximize)
  if (!missing(noisy)) {
    noise <- renamed_arg(noisy, "noisy", "noise", !missing(noise))
  }
  # the problem keeps the noise variance (`noise`, 0 when unknown) and the
  # flag (`noisy`)
  nz <- check_noise(noise)
  noise_unknown <- isTRUE(noise)
  noisy <- nz$noisy
  noise <- nz$variance
  user_objective <- objective
  if (!maximize) objective <- negate_objective(objective)
  if (!is.null(space)) {
    return(typed_problem(objective, space, cost, budget, name, optimum,
                         noisy, lower, upper, candidates, prior,
                         control_sets, sources, sys.call(), maximize,
                         user_objective))
  }
  if (missing(budget)) stop_arg("budget", "given", NULL, show = FALSE)
  budget <- check_number(budget, min = 0, min_open = TRUE)
  d <- NULL
  if (!is.null(candidates)) {
    candidates <- check_matrix(candidates, arg = "candidates")
    d <- ncol(candidates)
    rc <- apply(candidates, 2L, range)
    if (is.null(lower)) lower <- rc[1L, ]
    if (is.null(upper)) upper <- rc[2L, ] + ifelse(rc[2L, ] > rc[1L, ], 0, 1)
  } else if (is.null(lower) || is.null(upper)) {
    stop_arg(if (is.null(lower)) "lower" else "upper",
             "given when there are no `candidates`", NULL, show = FALSE)
  }
  box <- check_box(lower, upper, d, of = "the columns of `candidates`")
  lower <- box$lower
  upper <- box$upper
  d <- length(lower)
  if (!is.null(candidates)) {
    tol <- 1e-10 * (upper - lower)
    if (any(sweep(candidates, 2L, lower - tol) < 0) ||
        any(sweep(candidates, 2L, upper + tol) > 0)) {
      stop_arg("candidates", "inside [`lower`, `upper`]", show = FALSE)
    }
  }
  if (!is.null(prior)) {
    if (is.null(candidates)) {
      stop_arg("prior", "given only together with `candidates`", prior)
    }
    if (!(is.list(prior) && all(c("mean", "cov") %in% names(prior)))) {
      stop_arg("prior", "a list with elements `mean` and `cov`", prior)
    }
    if (noise_unknown) {
      stop_arg("noise", paste("the known noise variance (a number >= 0) with",
                              "`prior`, whose model does not estimate it"),
               TRUE)
    }
    # gp_finite() validates the mean and the covariance; the problem keeps
    # them as it read them (a double vector and matrix), which its refits
    # trust (gp_finite_run())
    checked <- gp_finite(prior$mean, prior$cov, noise = noise)
    if (length(prior$mean) != nrow(candidates)) {
      stop_arg("prior", sprintf("of dimension nrow(`candidates`) = %d",
                                nrow(candidates)), prior)
    }
    prior <- list(mean = checked$fmean, cov = checked$fcov)
  }
  cost_type <- "measured"
  cvs <- NULL
  if (!is.null(control_sets)) {
    if (!is.null(cost)) {
      stop_arg("cost", "NULL with `control_sets` (use `control_costs`)", cost)
    }
    if (!is.null(candidates)) {
      stop_arg("candidates", "NULL with `control_sets`", candidates,
               show = FALSE)
    }
    cvs <- check_cvs(control_sets, control_costs, distributions, variance,
                     noise_free, d, lower, upper)
    if (!maximize && !is.null(cvs$noise_free)) {
      cvs$noise_free <- local({
        f <- cvs$noise_free
        function(X) -f(X)
      })
    }
    # initial (full) queries are recorded at the largest control-set cost
    cost <- cost_constant(max(cvs$control_costs))
    cost_type <- "control"
  } else if (!is.null(control_costs) || !is.null(distributions) ||
             !is.null(noise_free) || !missing(variance)) {
    stop_arg("control_sets", paste("given with `control_costs`,",
                                   "`distributions`, `variance` and",
                                   "`noise_free`"),
             NULL, show = FALSE)
  }
  miso <- NULL
  if (!is.null(sources)) {
    if (!is.null(cost)) {
      stop_arg("cost", "NULL with `sources` (use `source_costs`)", cost)
    }
    if (!is.null(candidates) || !is.null(cvs)) {
      stop_arg("sources", "NULL with `candidates` or `control_sets`",
               sources)
    }
    miso <- check_miso(sources, source_costs)
    # the objective's own cost (source 0)
    cost <- local({
      source_cost <- miso$source_cost
      function(x) source_price(source_cost, x, 0L)
    })
  } else if (!is.null(source_costs)) {
    stop_arg("sources", "given with `source_costs`", NULL, show = FALSE)
  }
  if (!is.null(cost) && is.null(cvs)) {
    if (is.numeric(cost)) {
      cost <- cost_constant(check_number(cost, min = 0, min_open = TRUE,
                                         arg = "cost"))
    } else if (!is.function(cost)) {
      stop_arg("cost", "NULL, a positive number or a function of one point",
               cost)
    }
    cost_type <- "known"
  }
  if (!is.null(name) && !(is.character(name) && length(name) == 1L)) {
    stop_arg("name", "a single string", name)
  }
  if (!is.null(optimum)) optimum <- check_number(optimum)
  if (!maximize) {
    # the internal direction: maximize the negation
    optimum <- if (!is.null(optimum)) -optimum
    if (!is.null(prior)) prior$mean <- -prior$mean
  }
  prob <- list(
    objective = objective, d = d, lower = lower, upper = upper, cost = cost,
    cost_type = cost_type, budget = budget, candidates = candidates,
    prior = prior, noise = noise, noisy = noisy,
    name = if (is.null(name)) "problem" else name, optimum = optimum,
    maximize = maximize
  )
  # the user's own function, whose globals an asynchronous run exports
  if (!maximize) prob$user_objective <- user_objective
  if (!is.null(cvs)) {
    prob <- c(prob, cvs, list(cvs = TRUE))
    # fixed samples of the inputs for the regret's expectations, drawn
    # without touching the caller's random stream
    prob$regret_samples <- with_seed(1L, cvs_samples(prob, 8192L))
  }
  if (!is.null(miso)) prob <- c(prob, miso)
  # a known cost written in R (or a function of the sources) is looked at
  # once, at a point of the domain
  at <- if (is.null(candidates)) (lower + upper) / 2 else candidates[1L, ]
  where <- if (is.null(candidates)) "the centre of the box" else
    "the first candidate"
  if (!is.null(miso)) {
    if (is.null(miso$source_costs)) {
      for (s in seq_len(miso$n_sources) - 1L) {
        probe_cost(function(x) miso$source_cost(x, s), at, sprintf(
          "%s, source %d", where, s), "source_costs")
      }
    }
  } else if (cost_type == "known") {
    probe_cost(cost, at, where, "cost")
  }
  new_bo_problem(prob)
}

# bo_problem()'s look at a known cost written in R: one call at a point of
# the domain `x` (`where` says which), with R's random-number state kept;
# a value that is not one positive finite number is refused, naming `arg`.
# An error there is left to the run (a cost may fail at some points only,
# which on_error decides), and costbo's own costs (costbo_cost) are not
# called.
probe_cost <- function(cost, x, where, arg, call = sys.call(-1L)) {
  if (inherits(cost, "costbo_cost")) return(invisible())
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had) old <- get(".Random.seed", envir = globalenv())
  v <- tryCatch(cost(x), error = function(e) e)
  if (had) {
    assign(".Random.seed", old, envir = globalenv())
  } else if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
    rm(".Random.seed", envir = globalenv())
  }
  if (inherits(v, "error")) return(invisible())
  if (!(is.numeric(v) && length(v) == 1L && !is.na(v) && is.finite(v) &&
        v > 0)) {
    pt <- if (is.numeric(x)) {
      sprintf(" (%s)", paste(format(signif(x[seq_len(min(8L, length(x)))],
                                           4L)), collapse = ", "))
    } else ""
    stop_arg(arg, sprintf(paste(
      "a function returning one positive finite number (at %s%s it",
      "returned %s)"), where, pt, describe_value(unname(v))), show = FALSE,
      call = call)
  }
  invisible()
}

# A problem over a typed search space (problem-typed.R): a box problem on
# the unit cube of the space's encoding, whose objective and known cost
# receive the decoded typed point. `noisy` is the flag checked by
# bo_problem(); a typed problem keeps no noise variance (its GP estimates it).
typed_problem <- function(objective, space, cost, budget, name, optimum,
                          noisy, lower, upper, candidates, prior,
                          control_sets, sources, call, maximize = TRUE,
                          user_objective = objective) {
  check_space(space, call = call)
  other <- list(lower = lower, upper = upper, candidates = candidates,
                prior = prior, control_sets = control_sets,
                sources = sources)
  given <- names(other)[!vapply(other, is.null, NA)]
  if (length(given)) {
    stop_arg(given[1L], "NULL with `space` (the space is the domain)",
             other[[given[1L]]], call = call)
  }
  if (missing(budget)) stop_arg("budget", "given", NULL, show = FALSE, call = call)
  budget <- check_number(budget, min = 0, min_open = TRUE, call = call)
  cost_type <- "known"
  user_cost <- NULL
  if (is.null(cost)) {
    cost_type <- "measured"
  } else if (is.numeric(cost)) {
    cost <- cost_constant(check_number(cost, min = 0, min_open = TRUE,
                                       arg = "cost", call = call))
  } else if (is.function(cost) && is.null(attr(cost, "costbo_cost"))) {
    user_cost <- cost
    cost <- typed_cost(space, cost)
  } else {
    stop_arg("cost", paste("NULL, a positive number or a function of the",
                           "typed point (a named list) with `space`"),
             cost, call = call)
  }
  if (!is.null(name) && !(is.character(name) && length(name) == 1L)) {
    stop_arg("name", "a single string", name, call = call)
  }
  if (!is.null(optimum)) {
    optimum <- check_number(optimum, call = call)
    if (!maximize) optimum <- -optimum
  }
  if (!is.null(user_cost)) {
    probe_cost(cost, space_transform(space, matrix(0.5, 1L, space$d))[1L, ],
               "the typed point of the centre of the space's encoding",
               "cost", call = call)
  }
  new_bo_problem(list(
    objective = typed_objective(space, objective), d = space$d,
    lower = rep(0, space$d), upper = rep(1, space$d), cost = cost,
    cost_type = cost_type, budget = budget, candidates = NULL, prior = NULL,
    noise = 0, noisy = noisy, name = if (is.null(name)) "problem" else name,
    optimum = optimum, maximize = maximize, space = space,
    user_objective = user_objective, user_cost = user_cost))
}

# The objective of a minimized problem: the user's, negated. What it
# returns keeps its shape (a number, list(value = , cost = ) or a named
# vector c(value = , cost = )); only a finite numeric value is negated, so
# that evaluate_step() describes anything invalid as the user's
# function returned it.
negate_objective <- function(objective) {
  force(objective)
  function(...) negate_result(objective(...))
}

negate_result <- function(out) {
  neg <- function(v) {
    if (is.numeric(v) && all(is.finite(v))) -v else v
  }
  if (is.list(out)) {
    if (!is.null(out$value)) out$value <- neg(out$value)
  } else if (is.numeric(out) && "value" %in% names(out)) {
    out["value"] <- neg(out["value"])
  } else {
    out <- neg(out)
  }
  out
}

# The variants of a problem are classes (see "The questions the loop asks"
# below): "bo_problem_cvs" (control sets), "bo_problem_miso" (information
# sources), "bo_problem_finite" (candidate points, with or without an
# explicit prior) and "bo_problem_box" (a box), each also a "bo_problem".
new_bo_problem <- function(x) {
  kind <- if (isTRUE(x$cvs)) "cvs" else if (isTRUE(x$miso)) "miso" else
    if (!is.null(x$candidates)) "finite" else "box"
  structure(x, class = c(if (!is.null(x$space)) "bo_problem_typed",
                         paste0("bo_problem_", kind), "bo_problem"))
}

# A problem saved by a costbo whose problems had the class "bo_problem" only
# (in a checkpoint, a saved session or run) gets its variant's class.
upgrade_problem <- function(x) {
  if (length(class(x)) == 1L) new_bo_problem(unclass(x)) else x
}

# Whether the policy suits the problem (see problem_accepts()).
check_policy_fits <- function(problem, policy, call = sys.call(-1L)) {
  problem_accepts(problem, policy, call)
}

# The problem and the policy of a run or session, and whether they fit
# together.
check_problem_policy <- function(problem, policy, call) {
  if (!inherits(problem, "bo_problem")) {
    stop_arg("problem", "a bo_problem (see bo_problem() and test_problem())",
             problem, call = call)
  }
  if (!inherits(policy, "bo_policy")) {
    stop_arg("policy", "a bo_policy (see policy_ei())", policy, call = call)
  }
  problem <- upgrade_problem(problem)
  check_policy_fits(problem, policy, call = call)
  invisible(problem)
}

#' @export
print.bo_problem <- function(x, ...) {
  dom <- if (!is.null(x$space)) {
    sprintf("typed space of %d parameters (%s)", length(x$space$params),
            paste(names(x$space$params), collapse = ", "))
  } else if (is.null(x$candidates)) {
    paste0("box ", paste0("[", format(x$lower), ", ", format(x$upper), "]",
                          collapse = " x "))
  } else {
    sprintf("%d candidate points%s", nrow(x$candidates),
            if (is.null(x$prior)) "" else " with an explicit prior")
  }
  cat(sprintf("Cost-aware optimization problem \"%s\" (%s), %d input%s\n",
              x$name, if (problem_maximize(x)) "maximize" else "minimize",
              x$d, if (x$d == 1L) "" else "s"))
  cat("  domain: ", dom, "\n", sep = "")
  cat("  cost:   ", problem_cost_label(upgrade_problem(x)), "\n", sep = "")
  cat("  budget: ", format(x$budget), "\n", sep = "")
  cat("  evaluations: ", if (isTRUE(x$noisy)) "noisy" else "deterministic",
      "\n", sep = "")
  if (!is.null(x$optimum)) cat("  known optimum: ",
                               format(user_value(x, x$optimum)), "\n",
                               sep = "")
  invisible(x)
}
