# The papers' test problems: objectives (maximized), domains, cost families
# and default budgets, built on bo_problem().

#' Test problems of the papers
#'
#' `test_problem()` builds one of the synthetic test problems used in the
#' papers costbo implements, as a [bo_problem()] ready for a policy;
#' `test_problems()` lists them with their defaults.
#'
#' Every objective is **maximized**. Functions usually stated for
#' minimization are negated; their standard (minimization) form, as in the
#' Virtual Library of Simulation Experiments (Surjanovic and Bingham), is
#' given below, with \eqn{r = \|x\|_2}.
#'
#' From Astudillo et al. (2021), paper 000 (cost family `"cosine"`, measured
#' by default):
#' * `"dropwave"`: \eqn{f(x) = (1 + \cos(12 r)) / (0.5 r^2 + 2)} on
#'   \eqn{[-5.12, 5.12]^2}, maximum 1 at 0. The usual form minimizes
#'   \eqn{-f}. (The paper's appendix prints \eqn{1 + 12 r} in the numerator,
#'   a text-extraction error; its code uses BoTorch's standard DropWave.)
#' * `"alpine1"`: minimize \eqn{\sum_i |x_i \sin x_i + 0.1 x_i|} on
#'   \eqn{[-10, 10]^3} (the domain of the paper's appendix and of its code),
#'   maximum 0. Since \eqn{x \sin x + 0.1 x = x (\sin x + 0.1)}, every
#'   coordinate may be 0 or any root of \eqn{\sin x = -0.1} in
#'   \eqn{[-10, 10]}: the 8^3 = 512 global maximizers are all listed.
#' * `"ackley"`: minimize \eqn{20 + e - 20 \exp(-0.2 \sqrt{\mathrm{mean}_i
#'   x_i^2}) - \exp(\mathrm{mean}_i \cos(2 \pi x_i))} on \eqn{[-1, 1]^d}, the
#'   domain used by both papers 000 and 002 (not the usual
#'   \eqn{[-32.768, 32.768]^d}); maximum 0 at 0; any `d`, default 3.
#' * `"shekel5"`: maximize \eqn{\sum_{j=1}^5 (\sum_{i=1}^4 (x_i - C_{ij})^2 +
#'   b_j)^{-1}} (usually minimized as its negative) on \eqn{[0, 10]^4}, with
#'   the standard \eqn{b = (1, 2, 2, 4, 4)/10} and \eqn{C}; maximum
#'   10.15320 at about \eqn{(4.00004, 4.00013, 4.00004, 4.00013)}.
#'
#' From Xie et al. (2024), paper 002 (cost family `"linear"`, known), any
#' `d` (default 8; the paper uses 4, 8, 16 and, for `"gp_sample"`, 32):
#' * `"ackley"` as above (its default family is paper 000's; pass
#'   `cost = "linear"` for paper 002's setting).
#' * `"levy"`: minimize \eqn{\sin^2(\pi w_1) + \sum_{i<d} (w_i - 1)^2 (1 + 10
#'   \sin^2(\pi w_i + 1)) + (w_d - 1)^2 (1 + \sin^2(2 \pi w_d))},
#'   \eqn{w_i = 1 + (x_i - 1)/4}, on \eqn{[-10, 10]^d}, divided by 100 as in
#'   the paper's code; maximum 0 at \eqn{(1, \dots, 1)}.
#' * `"rosenbrock"`: minimize \eqn{\sum_{i<d} 100 (x_{i+1} - x_i^2)^2 + (x_i -
#'   1)^2} on \eqn{[-5, 10]^d}, divided by \eqn{10^5}; maximum 0 at
#'   \eqn{(1, \dots, 1)}; `d >= 2`.
#' * `"gp_sample"`: a sample from a GP prior on \eqn{[0, 1]^d} (Matérn 5/2,
#'   lengthscale 0.1, outputscale 1, 1024 random Fourier features; see
#'   [gp_prior_sample()]) drawn from `seed`. Its maximum is not known in
#'   closed form: `optimum` and `maximizer` are a **numerical estimate**
#'   computed when the problem is created, the best of \eqn{2^{14}}
#'   scrambled Sobol points (\eqn{2^{10 + d}} for \eqn{d < 4}) refined by
#'   L-BFGS-B (analytic gradient) from the 10 best of them. The estimate can
#'   only fall short of the true maximum.
#'
#' From Lee et al. (2021), paper 001, Sec. 6.1:
#' * `"lee2021"`: minimize \eqn{10 r \sin(2 \pi r)} on \eqn{[-1, 1]^2} with
#'   the known cost \eqn{c(x) = 10 - 5 r} (family `"radial"`) and budget 150,
#'   exactly as written in the paper. The maximum of the negated function,
#'   about 7.66247, is attained on the whole circle \eqn{r = r^* \approx
#'   0.781957} (the root of \eqn{\tan(2 \pi r) = -2 \pi r}); `maximizer`
#'   lists four points of it. The paper says the cost's maximum aligns with
#'   the objective's minimum; as written, the cost is largest at the origin,
#'   a stationary point of the objective with value 0. `cost_family =
#'   "ring"` is the problem its text describes: the same radial cost
#'   measured from the circle of minimizers, \eqn{c(x) = 10 - 5 |r - r^*|},
#'   largest (10) exactly where the objective is smallest, 6.090 at the
#'   origin and 6.839 at the corners; budget 150.
#'
#' From Yue and Kontar (2020), paper 004, Table 1 (cost family `"uniform"`,
#' cost 1 per evaluation, budget \eqn{10 d} evaluations: the paper allows
#' "around \eqn{10 d}" evaluations):
#' * `"branin"`: minimize \eqn{(x_2 - \frac{5.1}{4 \pi^2} x_1^2 +
#'   \frac{5}{\pi} x_1 - 6)^2 + 10 (1 - \frac{1}{8 \pi}) \cos x_1 + 10} on
#'   \eqn{[-5, 10] \times [0, 15]}; maximum \eqn{-0.397887} at
#'   \eqn{(-\pi, 12.275)}, \eqn{(\pi, 2.275)}, \eqn{(3 \pi, 2.475)}.
#' * `"six_hump_camel"`: minimize \eqn{(4 - 2.1 x_1^2 + x_1^4/3) x_1^2 + x_1
#'   x_2 + (4 x_2^2 - 4) x_2^2} on \eqn{[-3, 3] \times [-2, 2]}; maximum
#'   1.0316285 at \eqn{\pm(0.0898420, -0.7126564)}.
#' * `"goldstein_price"`: minimize the standard Goldstein-Price function on
#'   \eqn{[-2, 2]^2}; maximum \eqn{-3} at \eqn{(0, -1)}.
#' * `"bohachevsky"`: minimize Bohachevsky's first function \eqn{x_1^2 + 2
#'   x_2^2 - 0.3 \cos(3 \pi x_1) - 0.4 \cos(4 \pi x_2) + 0.7} on
#'   \eqn{[-100, 100]^2}; maximum 0 at 0.
#' * `"griewank"`: minimize \eqn{\sum_i x_i^2 / 4000 - \prod_i \cos(x_i /
#'   \sqrt i) + 1} on \eqn{[-600, 600]^d}; maximum 0 at 0; any `d`, default
#'   3 as in the paper.
#'
#' Classical problems (cost family `"uniform"`):
#' * `"hartmann3"`, `"hartmann6"`: maximize the Hartmann functions
#'   \eqn{\sum_{i=1}^4 \alpha_i \exp(-\sum_j A_{ij} (x_j - P_{ij})^2)}
#'   (usually minimized as their negatives) with the standard constants, on
#'   \eqn{[0, 1]^3} and \eqn{[0, 1]^6}; maxima 3.862780 at about
#'   \eqn{(0.114589, 0.555649, 0.852547)} and 3.322368 at about
#'   \eqn{(0.201690, 0.150011, 0.476874, 0.275332, 0.311652, 0.657301)}.
#'   (The value 3.86278214782 often quoted for Hartmann-3 is not attained
#'   with these constants; the maximum is 3.86277978733.)
#'
#' **Cost families.** `"cosine"` is [cost_cosine()] with the coefficients
#' drawn from `seed` (modulo 20) as in paper 000's code and its period
#' divisor \eqn{P}: 5.12 (Dropwave), 10 (Alpine1), 4 (Shekel5), 1 (Ackley),
#' and half the mean side length of the box for the other problems. For
#' Shekel5, paper 000's code centres the cosine at the maximizer,
#' \eqn{\cos(2 \pi b (x_i - 4 + c)/4)}, and so does costbo. `"linear"` is
#' [cost_linear()] with its defaults, \eqn{20 (0.05 + \mathrm{mean}(u))}
#' (paper 002's code; its text writes \eqn{20 \|S(x)\|_1 + 1}). `"uniform"`
#' is 1 per evaluation. `"radial"` is the cost of `"lee2021"`, `"ring"` its
#' variant (see above).
#'
#' **Known or measured cost.** By default the cosine costs are measured
#' (unknown to the policy, as in paper 000) and all others known. A known
#' cost is passed to [bo_problem()] as `cost`; a measured one is returned by
#' the objective together with the value, as `list(value = , cost = )`.
#'
#' **Default budgets** depend on the cost family: \eqn{20 d} for `"cosine"`
#' (paper 000's budgets 40, 60, 80 and 60 for Dropwave, Alpine1, Shekel5 and
#' Ackley), \eqn{25 d} for `"linear"` (paper 002), \eqn{10 d} for
#' `"uniform"` and 150 for `"radial"` and `"ring"`.
#'
#' @param name The problem's name, one of `test_problems()$name`.
#' @param d The dimension: fixed for most problems; `"ackley"`, `"levy"`,
#'   `"rosenbrock"`, `"griewank"` and `"gp_sample"` accept any `d` (`d >= 2`
#'   for `"rosenbrock"`). `NULL` takes the default.
#' @param cost_family The cost family: `"cosine"`, `"linear"`, `"uniform"`
#'   (or the problem's own families: `"radial"` and `"ring"` for
#'   `"lee2021"`); `NULL` takes the problem's default.
#' @param known_cost Whether the policy knows the cost function (`TRUE`) or
#'   only observes each evaluation's cost (`FALSE`); `NULL` takes the
#'   family's default (measured for `"cosine"`, known otherwise).
#' @param seed A whole number: the replication seed, which draws the cosine
#'   cost's coefficients (from `seed` modulo 20, as paper 000's code) and the
#'   `"gp_sample"` function. The caller's random number stream is left
#'   untouched.
#' @param budget The total budget; `NULL` takes the default (see Details).
#' @param noise_sd Standard deviation of Gaussian noise added to each
#'   returned value (drawn from R's random number generator); 0 for none.
#'   The problem is declared noisy (see `noise` in [bo_problem()]) when it
#'   is positive, deterministic otherwise. [test_problem_scale()] gives a
#'   scale for a level relative to the function's range.
#' @param cost,noise Deprecated names of `cost_family` and `noise_sd`.
#' @return `test_problem()`: a [bo_problem()] whose `optimum` is the known
#'   maximum value of the (noise-free) objective, with an extra element
#'   `maximizer`, a matrix of known global maximizers (one per row). For
#'   `"gp_sample"` both are numerical estimates; for `"lee2021"` `maximizer`
#'   holds four points of its circle of maximizers.
#'
#'   `test_problems()`: a data frame with one row per problem and columns
#'   `name`, `d` (default dimension), `d_allowed`, `domain`, `cost_family`
#'   (default family), `known_cost` (default), `budget` (default, at the default `d`),
#'   `optimum` (`NA` when it depends on `seed`) and `paper`.
#' @references
#' Astudillo, R., Jiang, D. R., Balandat, M., Bakshy, E. and Frazier, P. I.
#' (2021). Multi-step budgeted Bayesian optimization with unknown evaluation
#' costs. *NeurIPS 34*.
#'
#' Lee, E. H., Eriksson, D., Perrone, V. and Seeger, M. (2021). A
#' nonmyopic approach to cost-constrained Bayesian optimization. *UAI*.
#'
#' Xie, Q., Astudillo, R., Frazier, P. I., Scully, Z. and Terenin, A.
#' (2024). Cost-aware Bayesian optimization via the Pandora's Box Gittins
#' index. *NeurIPS 37*.
#'
#' Yue, X. and Kontar, R. A. (2020). Why non-myopic Bayesian optimization is
#' promising and how far should we look-ahead? A study via rollout. *AISTATS*.
#'
#' Surjanovic, S. and Bingham, D. Virtual Library of Simulation Experiments:
#' Test Functions and Datasets. <https://www.sfu.ca/~ssurjano/>.
#' @family problems
#' @examples
#' test_problems()[, c("name", "d", "cost_family", "budget", "optimum")]
#' # paper 000: Dropwave with a measured cosine cost
#' p <- test_problem("dropwave", seed = 3)
#' p
#' p$objective(c(0, 0))
#' # paper 002's setting for Ackley in 4 dimensions
#' a <- test_problem("ackley", d = 4, cost_family = "linear")
#' a$cost(rep(0, 4))
#' @export
test_problem <- function(name, d = NULL, cost_family = NULL,
                         known_cost = NULL, seed = 1, budget = NULL,
                         noise_sd = 0, cost, noise) {
  if (!missing(cost)) {
    cost_family <- renamed_arg(cost, "cost", "cost_family",
                               !missing(cost_family))
  }
  if (!missing(noise)) {
    noise_sd <- renamed_arg(noise, "noise", "noise_sd", !missing(noise_sd))
  }
  specs <- tp_specs()
  name <- check_choice(name, names(specs))
  spec <- specs[[name]]
  if (is.null(d)) {
    d <- spec$d
  } else {
    d <- check_count(d, min = 1L)
    if (spec$d_fixed && d != spec$d) {
      stop_arg("d", sprintf("%d (or NULL) for \"%s\"", spec$d, name), d)
    }
    if (d < spec$d_min) {
      stop_arg("d", sprintf(">= %d for \"%s\"", spec$d_min, name), d)
    }
  }
  family <- if (is.null(cost_family)) spec$cost else
    check_choice(cost_family, unique(c("cosine", "linear", "uniform",
                                       spec$cost, spec$cost_variants)))
  known_cost <- if (is.null(known_cost)) family != "cosine" else
    check_flag(known_cost)
  seed <- check_count(seed)
  budget <- if (is.null(budget)) tp_budget(family, d) else
    check_number(budget, min = 0, min_open = TRUE)
  noise_sd <- check_number(noise_sd, min = 0)

  lower <- rep_len(spec$lower, d)
  upper <- rep_len(spec$upper, d)
  if (name == "gp_sample") {
    gp <- with_seed(seed, tp_gp_sample(d))
    f <- gp$f
    optimum <- gp$optimum
    maximizer <- gp$maximizer
  } else {
    f <- spec$f
    optimum <- spec$optimum
    maximizer <- spec$maximizer(d)
  }
  cost_fun <- switch(
    family,
    cosine = tp_cost_cosine(lower, upper, spec, seed),
    linear = cost_linear(lower, upper),
    uniform = 1,
    radial = tp_radial_cost(lower, d),
    ring = tp_radial_cost(lower, d, radius = tp_lee2021_max$radius)
  )
  value <- if (noise_sd > 0) {
    function(x) f(x) + stats::rnorm(1L, sd = noise_sd)
  } else f
  objective <- if (known_cost) value else {
    price <- if (is.function(cost_fun)) cost_fun else function(x) cost_fun
    function(x) list(value = value(x), cost = price(x))
  }
  prob <- bo_problem(objective, lower = lower, upper = upper,
                     cost = if (known_cost) cost_fun else NULL,
                     budget = budget, name = name, optimum = optimum,
                     noise = noise_sd > 0)
  prob$maximizer <- maximizer
  prob
}

#' @rdname test_problem
#' @export
test_problems <- function() {
  specs <- tp_specs()
  rows <- lapply(names(specs), function(nm) {
    s <- specs[[nm]]
    dom <- if (length(s$lower) == 1L) {
      sprintf("[%g, %g]^%s", s$lower, s$upper, if (s$d_fixed) s$d else "d")
    } else {
      paste(sprintf("[%g, %g]", s$lower, s$upper), collapse = " x ")
    }
    data.frame(
      name = nm, d = s$d,
      d_allowed = if (s$d_fixed) as.character(s$d) else
        sprintf(">= %d", s$d_min),
      domain = dom, cost_family = s$cost, known_cost = s$cost != "cosine",
      budget = tp_budget(s$cost, s$d),
      optimum = if (is.null(s$optimum)) NA_real_ else s$optimum,
      paper = s$paper, stringsAsFactors = FALSE
    )
  })
  do.call(rbind, rows)
}

#' The scale of a test problem's objective
#'
#' `test_problem_scale()` measures how far a test problem's objective
#' spreads over its domain: its optimum minus its median, \eqn{f^* -
#' \mathrm{median}\, f(X)} for \eqn{X} uniform on the box, the regret of a
#' typical point. It sets a noise level relative to the function's range,
#' the same for every problem, e.g. `test_problem("branin", noise_sd = 1e-3
#' * test_problem_scale("branin"))`.
#'
#' The median is that of the objective at the first \eqn{2^{14}} points of
#' the (unscrambled) Sobol sequence mapped to the box, so the scale is a
#' fixed number of each problem (of `d`, and of `seed` for `"gp_sample"`),
#' and the caller's random number stream is left untouched. Rounded, at
#' the default `d`: Branin 34.6, Six-hump camel 9.26, Goldstein-Price
#' 6550, Bohachevsky 9010, Griewank-3 88.0, lee2021 5.88.
#'
#' Why the median and not the minimum: the minimum of a function on a box
#' is often set by one corner that no search visits. Goldstein-Price
#' ranges over 1.0e6 on \eqn{[-2, 2]^2}, about 5000 times the regret of
#' the best point of a 9-point minimax design (median over 30 designs:
#' 210), and Branin over 300, 350 times that regret (0.85), so one
#' fraction of those ranges would make the noise either negligible on
#' Branin or overwhelming on Goldstein-Price. Against the scale, that
#' regret is 1.5% (Bohachevsky), 2.5% (Branin), 3.2% (Goldstein-Price),
#' 12% (Six-hump camel) and 24% (Griewank-3).
#'
#' @param name,d,seed As in [test_problem()]: the problem, its dimension
#'   (`NULL` takes the default) and the seed of a `"gp_sample"` function.
#' @return A single positive number, in the objective's units.
#' @family problems
#' @examples
#' s <- test_problem_scale("branin")
#' s
#' # paper 004's problems observed with noise of 0.1% of their scale
#' p <- test_problem("branin", noise_sd = 1e-3 * s)
#' p$noisy
#' @export
test_problem_scale <- function(name, d = NULL, seed = 1) {
  # (a uniform cost: the objective returns the value alone)
  p <- test_problem(name, d = d, cost_family = "uniform", seed = seed)
  U <- sobol_run(tp_scale_points, p$d, FALSE, 0L, normal = FALSE)
  X <- sweep(sweep(U, 2L, p$upper - p$lower, "*"), 2L, p$lower, "+")
  p$optimum - stats::median(apply(X, 1L, p$objective))
}

# The points of test_problem_scale()'s median.
tp_scale_points <- 2L^14L

# Default budget of a cost family at dimension d.
tp_budget <- function(family, d) {
  switch(family, cosine = 20 * d, linear = 25 * d, uniform = 10 * d,
         radial = 150, ring = 150)
}

# Paper 000's cosine cost with coefficients drawn from the seed. Shekel5's
# cosine is centred at its maximizer (x_i - 4 + c) in paper 000's code.
tp_cost_cosine <- function(lower, upper, spec, seed) {
  period <- if (is.null(spec$period)) mean(upper - lower) / 2 else spec$period
  cc <- cost_cosine(lower, upper, period = period, seed = seed)
  if (is.null(spec$shift)) return(cc)
  par <- attr(cc, "costbo_cost")$par
  cost_cosine(lower, upper, a = par$a, b = par$b, c = par$c - spec$shift,
              period = period)
}

# Paper 001's radial cost 10 - 5 ||x||, evaluated by the C core as well;
# with a radius, 10 - 5 | ||x|| - radius | (the "ring" variant, largest on
# the circle of that radius).
tp_radial_cost <- function(lower, d, radius = 0) {
  if (radius == 0) {
    return(new_cost(function(x) 10 - 5 * sqrt(sum(x^2)), "radial",
                    list(a = 10, b = 5, offset = rep_len(lower, d)),
                    "radial 10 - 5 ||x||"))
  }
  new_cost(function(x) 10 - 5 * abs(sqrt(sum(x^2)) - radius), "radial",
           list(a = 10, b = 5, offset = rep_len(lower, d), radius = radius),
           sprintf("ring 10 - 5 | ||x|| - %.6g |", radius))
}

# The problem table. f: the maximized function of one point; maximizer(d):
# a matrix of global maximizers.
tp_specs <- function() {
  # fixed(...): the coordinates column by column; at(v): the point (v, ..., v)
  fixed <- function(...) {
    v <- c(...)
    function(d) matrix(v, ncol = d)
  }
  at <- function(v) function(d) matrix(v, nrow = 1L, ncol = d)
  list(
    dropwave = list(
      f = tp_dropwave, d = 2L, d_fixed = TRUE, d_min = 2L, lower = -5.12,
      upper = 5.12, cost = "cosine", period = 5.12, optimum = 1,
      maximizer = at(0), paper = "000 Astudillo et al. 2021"),
    alpine1 = list(
      f = tp_alpine1, d = 3L, d_fixed = TRUE, d_min = 3L, lower = -10,
      upper = 10, cost = "cosine", period = 10, optimum = 0,
      maximizer = tp_alpine1_maximizers, paper = "000 Astudillo et al. 2021"),
    ackley = list(
      f = tp_ackley, d = 3L, d_fixed = FALSE, d_min = 1L, lower = -1,
      upper = 1, cost = "cosine", period = 1, optimum = 0, maximizer = at(0),
      paper = "000 Astudillo et al. 2021; 002 Xie et al. 2024"),
    shekel5 = list(
      f = tp_shekel5, d = 4L, d_fixed = TRUE, d_min = 4L, lower = 0,
      upper = 10, cost = "cosine", period = 4, shift = 4,
      optimum = 10.153199679058227,
      maximizer = fixed(4.0000371528196759, 4.0001332765915603,
                        4.0000371528196759, 4.0001332765915603),
      paper = "000 Astudillo et al. 2021"),
    levy = list(
      f = tp_levy, d = 8L, d_fixed = FALSE, d_min = 1L, lower = -10,
      upper = 10, cost = "linear", optimum = 0, maximizer = at(1),
      paper = "002 Xie et al. 2024"),
    rosenbrock = list(
      f = tp_rosenbrock, d = 8L, d_fixed = FALSE, d_min = 2L, lower = -5,
      upper = 10, cost = "linear", optimum = 0, maximizer = at(1),
      paper = "002 Xie et al. 2024"),
    gp_sample = list(
      f = NULL, d = 8L, d_fixed = FALSE, d_min = 1L, lower = 0, upper = 1,
      cost = "linear", optimum = NULL, maximizer = NULL,
      paper = "002 Xie et al. 2024"),
    lee2021 = list(
      f = tp_lee2021, d = 2L, d_fixed = TRUE, d_min = 2L, lower = -1,
      upper = 1, cost = "radial", cost_variants = "ring",
      optimum = tp_lee2021_max$value,
      maximizer = function(d) {
        r <- tp_lee2021_max$radius
        matrix(c(r, 0, 0, r, -r, 0, 0, -r), ncol = 2L, byrow = TRUE)
      },
      paper = "001 Lee et al. 2021"),
    branin = list(
      f = tp_branin, d = 2L, d_fixed = TRUE, d_min = 2L, lower = c(-5, 0),
      upper = c(10, 15), cost = "uniform", optimum = -5 / (4 * pi),
      maximizer = fixed(-pi, pi, 3 * pi, 12.275, 2.275, 2.475),
      paper = "004 Yue and Kontar 2020"),
    six_hump_camel = list(
      f = tp_six_hump_camel, d = 2L, d_fixed = TRUE, d_min = 2L,
      lower = c(-3, -2), upper = c(3, 2), cost = "uniform",
      optimum = 1.0316284534898774,
      maximizer = fixed(0.089842013100318072, -0.089842013100318072,
                        -0.712656403020739626, 0.712656403020739626),
      paper = "004 Yue and Kontar 2020"),
    goldstein_price = list(
      f = tp_goldstein_price, d = 2L, d_fixed = TRUE, d_min = 2L, lower = -2,
      upper = 2, cost = "uniform", optimum = -3, maximizer = fixed(0, -1),
      paper = "004 Yue and Kontar 2020"),
    bohachevsky = list(
      f = tp_bohachevsky, d = 2L, d_fixed = TRUE, d_min = 2L, lower = -100,
      upper = 100, cost = "uniform", optimum = 0, maximizer = at(0),
      paper = "004 Yue and Kontar 2020"),
    griewank = list(
      f = tp_griewank, d = 3L, d_fixed = FALSE, d_min = 1L, lower = -600,
      upper = 600, cost = "uniform", optimum = 0, maximizer = at(0),
      paper = "004 Yue and Kontar 2020"),
    hartmann3 = list(
      f = tp_hartmann3, d = 3L, d_fixed = TRUE, d_min = 3L, lower = 0,
      upper = 1, cost = "uniform", optimum = 3.8627797873326628,
      maximizer = fixed(0.11458887665506896, 0.55564889461693012,
                        0.85254698468667744),
      paper = "classical (Hartmann)"),
    hartmann6 = list(
      f = tp_hartmann6, d = 6L, d_fixed = TRUE, d_min = 6L, lower = 0,
      upper = 1, cost = "uniform", optimum = 3.3223680114155152,
      maximizer = fixed(0.20168951100670543, 0.15001069182345797,
                        0.47687397422189703, 0.27533243049405609,
                        0.31165161660011326, 0.65730053406562039),
      paper = "classical (Hartmann)")
  )
}

tp_dropwave <- function(x) {
  r2 <- sum(x^2)
  (1 + cos(12 * sqrt(r2))) / (0.5 * r2 + 2)
}

tp_alpine1 <- function(x) -sum(abs(x * sin(x) + 0.1 * x))

# Each coordinate is 0 or a root of sin(x) = -0.1 in [-10, 10].
tp_alpine1_maximizers <- function(d) {
  s <- asin(-0.1)
  k <- -2:2
  roots <- c(0, s + 2 * pi * k, pi - s + 2 * pi * k)
  roots <- sort(roots[abs(roots) <= 10])
  as.matrix(unname(expand.grid(rep(list(roots), d))))
}

tp_ackley <- function(x) {
  20 * exp(-0.2 * sqrt(mean(x^2))) + exp(mean(cos(2 * pi * x))) - 20 -
    exp(1)
}

tp_shekel_c <- matrix(c(4, 1, 8, 6, 3,
                        4, 1, 8, 6, 7,
                        4, 1, 8, 6, 3,
                        4, 1, 8, 6, 7), nrow = 4L, byrow = TRUE)
tp_shekel5 <- function(x) {
  sum(1 / (colSums((x - tp_shekel_c)^2) + c(1, 2, 2, 4, 4) / 10))
}

tp_levy <- function(x) {
  w <- 1 + (x - 1) / 4
  d <- length(x)
  wi <- w[-d]
  -(sin(pi * w[1L])^2 + sum((wi - 1)^2 * (1 + 10 * sin(pi * wi + 1)^2)) +
      (w[d] - 1)^2 * (1 + sin(2 * pi * w[d])^2)) / 100
}

tp_rosenbrock <- function(x) {
  d <- length(x)
  -sum(100 * (x[-1L] - x[-d]^2)^2 + (x[-d] - 1)^2) / 1e5
}

tp_lee2021 <- function(x) {
  r <- sqrt(sum(x^2))
  -10 * r * sin(2 * pi * r)
}

# The maximizing radius solves sin(2 pi r) + 2 pi r cos(2 pi r) = 0 on
# (1/2, 1); computed once by uniroot() to machine precision.
tp_lee2021_max <- list(radius = 0.78195695323847225,
                       value = 7.6624668131479972)

tp_branin <- function(x) {
  -((x[2L] - 5.1 / (4 * pi^2) * x[1L]^2 + 5 / pi * x[1L] - 6)^2 +
      10 * (1 - 1 / (8 * pi)) * cos(x[1L]) + 10)
}

tp_six_hump_camel <- function(x) {
  x1 <- x[1L]
  x2 <- x[2L]
  -((4 - 2.1 * x1^2 + x1^4 / 3) * x1^2 + x1 * x2 + (4 * x2^2 - 4) * x2^2)
}

tp_goldstein_price <- function(x) {
  x1 <- x[1L]
  x2 <- x[2L]
  a <- 1 + (x1 + x2 + 1)^2 *
    (19 - 14 * x1 + 3 * x1^2 - 14 * x2 + 6 * x1 * x2 + 3 * x2^2)
  b <- 30 + (2 * x1 - 3 * x2)^2 *
    (18 - 32 * x1 + 12 * x1^2 + 48 * x2 - 36 * x1 * x2 + 27 * x2^2)
  -a * b
}

tp_bohachevsky <- function(x) {
  -(x[1L]^2 + 2 * x[2L]^2 - 0.3 * cos(3 * pi * x[1L]) -
      0.4 * cos(4 * pi * x[2L]) + 0.7)
}

tp_griewank <- function(x) {
  -(sum(x^2) / 4000 - prod(cos(x / sqrt(seq_along(x)))) + 1)
}

# Hartmann at a point x, or at each row of a matrix x (vectorized: the
# expected objectives of control partial queries average it over thousands
# of points per step).
tp_hartmann <- function(x, A, P) {
  X <- if (is.matrix(x)) t(x) else matrix(x, ncol = 1L)
  alpha <- c(1, 1.2, 3, 3.2)
  out <- double(ncol(X))
  for (i in 1:4) out <- out + alpha[i] * exp(-colSums(A[i, ] * (X - P[i, ])^2))
  out
}

tp_hartmann3 <- function(x) {
  tp_hartmann(x,
              matrix(c(3, 10, 30,
                       0.1, 10, 35,
                       3, 10, 30,
                       0.1, 10, 35), nrow = 4L, byrow = TRUE),
              1e-4 * matrix(c(3689, 1170, 2673,
                              4699, 4387, 7470,
                              1091, 8732, 5547,
                              381, 5743, 8828), nrow = 4L, byrow = TRUE))
}

tp_hartmann6 <- function(x) {
  tp_hartmann(x,
              matrix(c(10, 3, 17, 3.5, 1.7, 8,
                       0.05, 10, 17, 0.1, 8, 14,
                       3, 3.5, 1.7, 10, 17, 8,
                       17, 8, 0.05, 10, 0.1, 14), nrow = 4L, byrow = TRUE),
              1e-4 * matrix(c(1312, 1696, 5569, 124, 8283, 5886,
                              2329, 4135, 8307, 3736, 1004, 9991,
                              2348, 1451, 3522, 2883, 3047, 6650,
                              4047, 8828, 8732, 5743, 1091, 381),
                            nrow = 4L, byrow = TRUE))
}

# A GP prior sample on [0, 1]^d and a numerical estimate of its maximum: the
# best of 2^14 scrambled Sobol points (2^(10 + d) for d < 4), refined by L-BFGS-B with the analytic
# gradient of the random-feature expansion from the 10 best. Uses the RNG.
tp_gp_sample <- function(d, n_points = 2L^min(14L, 10L + d),
                         n_starts = 10L, kernel = "matern52") {
  g <- gp_prior_sample(d, kernel = kernel, lengthscale = 0.1,
                       n_features = 1024L)
  env <- environment(g)
  omega <- env$omega
  phase <- env$phase
  weight <- env$weight
  scale <- env$scale
  X <- sobol_points(n_points, d)
  v <- g(X)
  fn <- function(x) scale * sum(weight * cos(drop(omega %*% x) + phase))
  gr <- function(x) {
    -scale * drop(crossprod(omega, weight * sin(drop(omega %*% x) + phase)))
  }
  best_x <- X[which.max(v), ]
  best_v <- max(v)
  for (i in order(v, decreasing = TRUE)[seq_len(min(n_starts, n_points))]) {
    o <- stats::optim(X[i, ], fn, gr, method = "L-BFGS-B", lower = 0,
                      upper = 1, control = list(fnscale = -1, factr = 10,
                                                pgtol = 0, maxit = 500L))
    if (o$value > best_v) {
      best_v <- o$value
      best_x <- o$par
    }
  }
  # the optimum as the problem's own objective evaluates it
  list(f = g, optimum = g(best_x), maximizer = matrix(best_x, nrow = 1L))
}

#' Test problems with control sets (Tay et al. 2023)
#'
#' The 3-D problems of Tay et al. (2023, Sec. 5 and App. C) as
#' [bo_problem()]s with control sets: a sample from a GP prior
#' (`"gp_sample"`: squared-exponential kernel, lengthscale 0.1, outputscale
#' 1, 1024 random Fourier features, drawn from `seed`; its maximum is a
#' numerical estimate, see [test_problem()]) or Hartmann-3 (`"hartmann3"`,
#' maximum 3.86278), on \eqn{[0, 1]^3}, with the seven control sets \{1\},
#' \{2\}, \{3\}, \{1, 2\}, \{1, 3\}, \{2, 3\}, \{1, 2, 3\} and the costs
#' * `"cheap"`: 0.01, 0.01, 0.01, 0.1, 0.1, 0.1, 1;
#' * `"moderate"`: 0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 1;
#' * `"expensive"`: 0.6, 0.6, 0.6, 0.8, 0.8, 0.8, 1.
#'
#' Every input is drawn, when not controlled, from a normal distribution with
#' mean 0.5 truncated to \[0, 1\] whose variance (after truncation) is
#' `variance` (0.02, 0.04 or 0.08 in the paper). Observations carry Gaussian
#' noise of standard deviation `noise_sd` (0.01 in the paper). The problem
#' records the noise-free objective, so runs report the paper's regret.
#' The reference implementation's protocol further fixes the GP
#' hyperparameters (`gp_args = list(kernel = "se", estimate = "fixed",
#' lengthscale = 0.1, outputscale = 1, noise = 1e-4)` in [bo_optimize()]) and
#' starts from 5 random points (`n_init = 5`).
#'
#' @param name `"gp_sample"` or `"hartmann3"`.
#' @param cost_set The control sets' costs: `"cheap"`, `"moderate"` or
#'   `"expensive"`.
#' @param variance Variance of every input's distribution (in (1e-8,
#'   1/12)).
#' @param seed Seed of the GP sample (the caller's random stream is left
#'   untouched).
#' @param budget The budget (50 in the paper).
#' @param noise_sd Standard deviation of the observation noise; the problem
#'   is declared noisy (`noise` of [bo_problem()]) when it is positive.
#' @param costs,noise Deprecated names of `cost_set` and `noise_sd`.
#' @return A `bo_problem` with control sets.
#' @family problems
#' @examples
#' p <- test_problem_cvs("hartmann3", cost_set = "cheap")
#' p
#' p$control_costs
#' @export
test_problem_cvs <- function(name = c("gp_sample", "hartmann3"),
                             cost_set = c("cheap", "moderate", "expensive"),
                             variance = 0.02, seed = 1, budget = 50,
                             noise_sd = 0.01, costs, noise) {
  if (!missing(costs)) {
    cost_set <- renamed_arg(costs, "costs", "cost_set", !missing(cost_set))
  }
  if (!missing(noise)) {
    noise_sd <- renamed_arg(noise, "noise", "noise_sd", !missing(noise_sd))
  }
  name <- check_choice(name, c("gp_sample", "hartmann3"))
  cost_set <- check_choice(cost_set, c("cheap", "moderate", "expensive"))
  variance <- check_number(variance, min = 0, max = 1 / 12, min_open = TRUE)
  seed <- check_count(seed)
  budget <- check_number(budget, min = 0, min_open = TRUE)
  noise_sd <- check_number(noise_sd, min = 0)
  cost_values <- switch(cost_set,
                        cheap = c(0.01, 0.01, 0.01, 0.1, 0.1, 0.1, 1),
                        moderate = c(0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 1),
                        expensive = c(0.6, 0.6, 0.6, 0.8, 0.8, 0.8, 1))
  if (name == "gp_sample") {
    gp <- with_seed(seed, tp_gp_sample(3L, kernel = "se"))
    f1 <- gp$f
    fm <- gp$f
    optimum <- gp$optimum
  } else {
    f1 <- tp_hartmann3
    fm <- tp_hartmann3
    optimum <- 3.86278214782076
  }
  objective <- if (noise_sd > 0) {
    function(x) f1(x) + stats::rnorm(1L, sd = noise_sd)
  } else f1
  sets <- list(1L, 2L, 3L, c(1L, 2L), c(1L, 3L), c(2L, 3L), 1:3)
  bo_problem(objective, lower = 0, upper = c(1, 1, 1), budget = budget,
             control_sets = sets, control_costs = cost_values,
             variance = variance, noise_free = fm,
             name = sprintf("%s, %s costs, variance %g", name, cost_set,
                            variance),
             optimum = optimum, noise = noise_sd > 0)
}

#' Multi-information-source test problems
#'
#' Problems with several information sources: source 0 is the objective,
#' the others cheaper biased versions of it, each with its own cost. They are
#' [bo_problem()]s with `sources`, for [policy_kg()] and the rolling-horizon
#' [policy_rollout()], and are **maximized** (the functions are negated).
#'
#' * `"rosenbrock"` (Poloczek et al. 2017, the misoKG benchmark that Yue
#'   and Kontar 2020 follow): \eqn{f(x) = -((1 - x_1)^2 + 100 (x_2 -
#'   x_1^2)^2)} on \eqn{[-2, 2]^2}; source 1 is \eqn{f(x) + 0.1 \sin(10 x_1
#'   + 5 x_2)}; costs 1000 and 1; maximum 0 at \eqn{(1, 1)}; default budget
#'   5000.
#' * `"goldstein_price"`, `"bohachevsky"` (Yue and Kontar 2020, Sec.
#'   5.4.1, three sources): the negated functions of [test_problem()];
#'   source 1 is \eqn{f(x) + 2 \sin(10 x_1 + 5 x_2)} and source 2 is
#'   \eqn{f(x) + \delta(x)} with \eqn{\delta} a sample of a GP with the
#'   squared-exponential kernel, lengthscale 1 and variance 1 (random
#'   Fourier features drawn from `seed`) plus independent Gaussian noise of
#'   variance 0.5 at every evaluation (the nugget of the paper's kernel).
#'   The paper applies both biases to the problem's own coordinates and so
#'   does costbo. Costs \eqn{5 d = 10} for source 0 and \eqn{d = 2} for the
#'   others, budget \eqn{10 d^2 = 40}, as in the paper's example.
#'
#' @param name `"rosenbrock"`, `"goldstein_price"` or `"bohachevsky"`.
#' @param budget The total budget; `NULL` takes the default.
#' @param source_costs Optional costs of the sources: one positive number
#'   each, or a function(x, source), as `source_costs` of [bo_problem()].
#' @param seed Seed of the bias GP sample of source 2 (the caller's random
#'   stream is left untouched).
#' @param noise_sd Standard deviation of Gaussian noise added to every
#'   source (relative to the objective's range: see
#'   [test_problem_scale()]). The problem is declared noisy (`noise` of [bo_problem()]) when
#'   it is positive, and always for `"goldstein_price"` and
#'   `"bohachevsky"`, whose source 2 is noisy.
#' @param costs,noise Deprecated names of `source_costs` and `noise_sd`.
#' @return A [bo_problem()] with `optimum` (of source 0) and `maximizer`.
#' @family problems
#' @examples
#' p <- test_problem_miso("rosenbrock")
#' p
#' p$objective(c(1, 1), 0)
#' p$objective(c(1, 1), 1)
#' @export
test_problem_miso <- function(name = c("rosenbrock", "goldstein_price",
                                       "bohachevsky"),
                              budget = NULL, source_costs = NULL, seed = 1,
                              noise_sd = 0, costs, noise) {
  if (!missing(costs)) {
    source_costs <- renamed_arg(costs, "costs", "source_costs",
                                !missing(source_costs))
  }
  if (!missing(noise)) {
    noise_sd <- renamed_arg(noise, "noise", "noise_sd", !missing(noise_sd))
  }
  name <- check_choice(if (is.character(name)) name[1L] else name,
                       c("rosenbrock", "goldstein_price", "bohachevsky"),
                       arg = "name")
  seed <- check_count(seed)
  noise_sd <- check_number(noise_sd, min = 0)
  eps <- function() if (noise_sd > 0) stats::rnorm(1L, 0, noise_sd) else 0
  if (name == "rosenbrock") {
    f <- function(x) 1e5 * tp_rosenbrock(x) # test_problem()'s is / 1e5
    obj <- function(x, source) {
      b <- if (source == 1L) 0.1 * sin(10 * x[1L] + 5 * x[2L]) else 0
      f(x) + b + eps()
    }
    lower <- c(-2, -2)
    upper <- c(2, 2)
    def_costs <- c(1000, 1)
    def_budget <- 5000
    optimum <- 0
    maximizer <- matrix(c(1, 1), 1L)
  } else {
    spec <- tp_specs()[[name]]
    f <- function(x) spec$f(x)
    lower <- rep_len(spec$lower, 2L)
    upper <- rep_len(spec$upper, 2L)
    delta <- with_seed(seed, gp_prior_sample(2L, kernel = "se",
                                             lengthscale = 1))
    obj <- function(x, source) {
      b <- switch(source + 1L, 0, 2 * sin(10 * x[1L] + 5 * x[2L]),
                  delta(matrix(x, 1L)) + stats::rnorm(1L, 0, sqrt(0.5)))
      f(x) + b + eps()
    }
    def_costs <- c(10, 2, 2)
    def_budget <- 40
    optimum <- spec$optimum
    maximizer <- spec$maximizer(2L)
  }
  S <- length(def_costs)
  if (!is.null(source_costs) && !is.function(source_costs) &&
      !(is.numeric(source_costs) && length(source_costs) == S &&
        all(is.finite(source_costs)) && all(source_costs > 0))) {
    stop_arg("source_costs",
             paste(sprintf("%d positive finite numbers (one per", S),
                   "source) or a function(x, source)"), source_costs)
  }
  costs <- if (is.null(source_costs)) def_costs else source_costs
  budget <- if (is.null(budget)) def_budget else budget
  prob <- bo_problem(obj, lower = lower, upper = upper, budget = budget,
                     name = paste0(name, "_miso"), optimum = optimum,
                     sources = S, source_costs = costs,
                     noise = noise_sd > 0 || name != "rosenbrock")
  prob$maximizer <- maximizer
  prob
}
