# Fitting Gaussian processes: gp_fit() (MAP, ML or fixed hyperparameters,
# the likelihood and its gradient in C) and gp_finite() (an explicit prior
# over candidates).
#
# Internally the GP lives on inputs scaled to the unit cube by `lower`/`upper`
# and on standardized outputs; `theta` = (log lengthscales, log outputscale,
# log noise, constant mean) on that scale. Everything a user sees is converted
# back to the user's units.

default_gp_priors <- function() {
  list(lengthscale = c(3, 6), outputscale = c(2, 0.15), noise = c(1.1, 0.05))
}

#' Fit a Gaussian process
#'
#' Fits a Gaussian process (GP) with a constant mean and a stationary kernel
#' to observations `y` at inputs `X`, by maximum a posteriori (default),
#' maximum likelihood, or with fixed hyperparameters. All numerical work is
#' done in C: the Cholesky factor by LAPACK `dpotrf` (with a jitter ladder
#' when the covariance matrix is numerically singular, so duplicated inputs are
#' legal), and the log marginal likelihood with its analytic gradient in every
#' log hyperparameter, maximized by multistart L-BFGS-B (R's C-level
#' `lbfgsb`).
#'
#' @section Model:
#' Inputs are scaled to the unit cube by `lower` and `upper`, outputs are
#' standardized, and the model is
#' \deqn{y_i = f(x_i) + \epsilon_i, \quad f \sim GP(\mu, \sigma^2 \kappa(r)),
#'   \quad \epsilon_i \sim N(0, \tau^2),}
#' with \eqn{r^2 = \sum_k ((x_k - x'_k)/\ell_k)^2} the lengthscale-scaled
#' Euclidean distance (one lengthscale per input, "ARD"), and
#' \eqn{\kappa(r)} one of
#' * `"matern52"`: \eqn{(1 + \sqrt5 r + 5 r^2/3) e^{-\sqrt5 r}},
#' * `"matern32"`: \eqn{(1 + \sqrt3 r) e^{-\sqrt3 r}},
#' * `"se"` (squared exponential): \eqn{e^{-r^2/2}}.
#'
#' The Matérn kernels are functions of the scaled Euclidean distance, as in
#' the GPyTorch/BoTorch implementations used by the papers costbo implements;
#' DiceKriging and hetGP use a product of one-dimensional Matérn kernels
#' instead, so their Matérn fits are a different model. The squared
#' exponential is the same function in every package.
#'
#' For `estimate = "map"` the default priors, stated on the unit-cube and
#' standardized scale, are those of the reference implementations:
#' lengthscale Gamma(3, 6), outputscale Gamma(2, 0.15) and noise variance
#' Gamma(1.1, 0.05) (shape, rate). The noise variance is bounded below by
#' `noise_floor` and above by `noise_ceiling` (standardized scale; for
#' `estimate = "ml"` with free noise and outputscale, the ratio
#' noise/outputscale is bounded instead,
#' because the outputscale and the mean are then profiled out of the
#' likelihood in closed form, as in kriging). The constant mean is always
#' profiled out. Lengthscales are searched in
#' \[1e-3, 1e3\] on the unit-cube scale, outputscales in \[1e-4, 1e8\].
#'
#' Fixed settings must stay within a factor 1e300 of the data's own scale
#' (see the arguments), and a fit whose log marginal likelihood is beyond
#' the double range (data far more than 1e150 standard deviations from a
#' fixed mean, say) is refused with an error naming the fixed settings, or
#' `y` when there are none, instead of returning a model that predicts
#' infinities.
#'
#' @param X Numeric matrix of inputs, one row per observation (a vector is
#'   taken as one input dimension). At least two rows, no missing values.
#' @param y Numeric vector of observations, one per row of `X`; not constant,
#'   with a mean and a variance that are finite doubles.
#' @param kernel Kernel name: `"matern52"` (default), `"matern32"` or `"se"`.
#' @param mean `"constant"` to estimate a constant mean, or a number to fix
#'   the mean (in the units of `y`; within 1e300 standard deviations of
#'   `mean(y)`).
#' @param estimate `"map"` (maximum a posteriori, default), `"ml"` (maximum
#'   likelihood) or `"fixed"` (no estimation: `lengthscale` and `outputscale`
#'   must be given).
#' @param noise `NULL` to estimate the noise variance, or a fixed noise
#'   variance (units of `y` squared, `>= 0`, at most 1e300 `var(y)`).
#' @param lengthscale `NULL` to estimate, or fixed lengthscales in the units of
#'   `X` (one number, or one per column; each between 1e-300 and 1e300
#'   times the width of its input's box).
#' @param outputscale `NULL` to estimate, or a fixed signal variance (units of
#'   `y` squared; between 1e-300 and 1e300 `var(y)`).
#' @param lower,upper Bounds of the input box, used to scale inputs to the
#'   unit cube (default: the range of each column of `X`). `X` must lie inside.
#' @param ard Automatic relevance determination: one lengthscale per input
#'   (default). With `FALSE`, one lengthscale is shared by all inputs on the
#'   unit-cube scale (so in the units of `X` each input's lengthscale is
#'   proportional to its range).
#' @param start A previous `costbo_gp` fit of the same kernel and dimension to
#'   warm-start the optimizer from (typically the fit before one new point was
#'   added inside an optimization loop).
#' @param n_starts Number of L-BFGS-B runs. Without `start` they begin at
#'   screened points: a default point, a grid of shared lengthscales (0.1,
#'   0.2, 0.4, 0.8 on the unit cube) with the noise at its floor and at 1e-3,
#'   and `4 * n_starts` random points drawn with R's RNG (screening costs one
#'   Cholesky factorization per point). The first run starts at the best
#'   screened point, the second at the best one on the other side of a noise
#'   level of `max(1e-4, 10 * noise_floor)` (so that noisy and noise-free
#'   explanations of the data are both explored), the others at the next
#'   best. Runs after the first get 10 iterations and continue only if they
#'   have overtaken the best run by then. With `start`, the first run begins at the warm start, with a
#'   looser convergence tolerance (a relative change of the objective below
#'   about 2e-7, against 2e-8 for cold fits). Default 2, or 1 with `start`.
#'   Cold fits with more than 300 observations and free lengthscales do all
#'   of this on a random subset of 150 observations (drawn with R's RNG),
#'   where one evaluation is (n / 150)^3 times cheaper, and then one run on
#'   all the data, warm-started from the subset's optimum (lengthscales
#'   beyond 5 on the unit cube brought back to 5). The noise regime is then
#'   checked on all the data: the converged fit is evaluated with the noise
#'   on the other side of the noise level above (at its floor, or at 1e-3
#'   and 1e-2), and a second run starts from there only if that is already
#'   better. The count of evaluations in the fit (`nfun`) includes those on
#'   the subset.
#' @param noise_floor Lower bound of the estimated noise variance, on the
#'   standardized scale (a fraction of `var(y)`).
#' @param noise_ceiling Upper bound of the estimated noise variance, on the
#'   standardized scale (default 10: in effect unbounded). A small band such
#'   as `noise_floor = 1e-4, noise_ceiling = 1e-3` makes the GP interpolate
#'   a deterministic objective, as the reference implementation of Astudillo
#'   et al. (2021) does for all its models; when the band lies on one side of
#'   the noise level that separates the two noise regimes of the multistart,
#'   only that regime is searched.
#' @param priors For `estimate = "map"`: a list with elements `lengthscale`,
#'   `outputscale` and `noise`, each `c(shape, rate)` of a Gamma prior on the
#'   unit-cube/standardized scale. `NULL` gives the defaults above.
#' @param space Optional typed search space ([bo_space()]): `X` is then a
#'   data frame of typed points (one column per parameter) or a matrix of
#'   their encodings on the unit cube, `lower` and `upper` must be `NULL`,
#'   and the kernel sees every input through the space's transform, so that
#'   the posterior is constant on each integer's and each category's cell
#'   (see [bo_space()]); [predict()] then takes typed or encoded points.
#' @return An object of class `c("costbo_gp_continuous", "costbo_gp")`: a
#'   list holding the data, the scaling, the hyperparameters, the Cholesky
#'   factor, the fit's log marginal likelihood and the checked settings it
#'   was fitted with (`settings`, with which costbo refits a run's model to
#'   new data); its element `kernel` names the kernel (as printed). Use [coef()], [logLik()], [predict()],
#'   [simulate()] and [gp_condition()] on it.
#' @section GP variants:
#' A fitted GP is one of three subclasses of `costbo_gp`:
#' `costbo_gp_continuous` ([gp_fit()]: a kernel on a box, with gradients in
#' the input), `costbo_gp_finite` ([gp_finite()]: candidate indices as
#' inputs) and `costbo_gp_miso` ([gp_fit_miso()]: inputs with an information
#' source). Asking a variant for what it cannot give (gradients of a
#' finite-domain or multi-source GP, a box search or a cost model of a
#' multi-source GP, control sets of either) is an error of class
#' `costbo_error_capability` (a `costbo_error_arg`) naming the argument that
#' asked for it, with the capability and the variant in its `capability`
#' and `variant` elements. Fits saved by earlier versions of costbo
#' (class `costbo_gp` alone) are recognized by their `kernel` and work
#' unchanged.
#' @family gaussian-process
#' @seealso [gp_finite()] for a GP over a finite set of candidates with an
#'   explicit prior.
#' @examples
#' set.seed(1)
#' X <- matrix(runif(40), ncol = 2)
#' y <- sin(6 * X[, 1]) + cos(4 * X[, 2])
#' fit <- gp_fit(X, y, lower = c(0, 0), upper = c(1, 1))
#' fit
#' coef(fit)
#' logLik(fit)
#' predict(fit, rbind(c(0.5, 0.5), c(0.1, 0.9)))
#' @export
gp_fit <- function(X, y, kernel = "matern52", mean = "constant",
                   estimate = c("map", "ml", "fixed"), noise = NULL,
                   lengthscale = NULL, outputscale = NULL, lower = NULL,
                   upper = NULL, ard = TRUE, start = NULL, n_starts = NULL,
                   noise_floor = 1e-6, noise_ceiling = 10, priors = NULL,
                   space = NULL) {
  kernel <- check_choice(kernel, gp_kernels)
  if (!is.null(space)) {
    check_space(space)
    if (!is.null(lower) || !is.null(upper)) {
      stop_arg(if (is.null(lower)) "upper" else "lower",
               "NULL with `space` (its encoding is on the unit cube)",
               if (is.null(lower)) upper else lower)
    }
    X <- space_inputs(space, X, "X")
    lower <- rep(0, space$d)
    upper <- rep(1, space$d)
  }
  ard <- check_flag(ard)
  estimate <- check_choice(estimate, c("map", "ml", "fixed"))
  X <- check_matrix(X, min_rows = 2L)
  n <- nrow(X)
  if (as.double(n) * n > .Machine$integer.max) {
    stop_arg("X", "small enough for an n x n covariance matrix with 32-bit BLAS indexing",
             X)
  }
  d <- ncol(X)
  y <- check_vector(y)
  check_per_point(c(X = n, y = length(y)), c("rows", "values"))
  check_y_spread(y)
  bounds <- check_bounds(lower, upper, X)
  noise_floor <- check_number(noise_floor, min = 0, min_open = TRUE)
  noise_ceiling <- check_number(noise_ceiling, min = 0, min_open = TRUE)
  if (noise_ceiling <= noise_floor) {
    stop_arg("noise_floor", sprintf("below `noise_ceiling` (%g)",
                                    noise_ceiling), noise_floor)
  }
  priors <- check_priors(priors)
  if (!is.null(start)) start <- check_gp_object(start, arg = "start")
  if (!is.null(start) && !(identical(gp_variant(start), "continuous") &&
                           identical(start$kernel, kernel) && start$d == d &&
                           identical(gp_transform(start),
                                     if (is.null(space)) no_transform else
                                       space$transform))) {
    stop_arg("start", sprintf(paste(
      "a costbo_gp fit of the same `kernel` (\"%s\") on as many inputs as",
      "`X` has columns (%d)%s"), kernel, d,
      if (is.null(space)) "" else ", on the same `space`"), start)
  }
  if (!is.null(n_starts)) {
    n_starts <- check_count_max(n_starts, 1L, 1000L, arg = "n_starts")
  }
  range <- bounds$upper - bounds$lower
  if (!is.null(lengthscale)) {
    lengthscale <- check_positive_vector(lengthscale, d,
                                         of = "one per column of `X`")
    if (!ard && length(unique(lengthscale / range)) > 1L) {
      stop_arg("lengthscale", "proportional to the input ranges when ard = FALSE",
               lengthscale)
    }
  }
  if (!is.null(outputscale)) {
    outputscale <- check_number(outputscale, min = 0, min_open = TRUE)
  }
  if (!is.null(noise)) noise <- check_number(noise, min = 0)
  if (is.numeric(mean)) {
    mean <- check_number(mean)
  } else if (!identical(mean, "constant")) {
    stop_arg("mean", "\"constant\" or a single finite number", mean)
  }
  # estimate = "fixed" needs both scales (the noise defaults to noise_floor)
  if (estimate == "fixed" && is.null(lengthscale)) {
    stop_arg("lengthscale", "given when estimate = \"fixed\"", show = FALSE)
  }
  if (estimate == "fixed" && is.null(outputscale)) {
    stop_arg("outputscale", "given when estimate = \"fixed\"", show = FALSE)
  }
  check_fixed_scales(y, range, lengthscale, outputscale, noise, mean)
  settings <- list(kernel = kernel, mean = mean, estimate = estimate,
                   noise = noise, lengthscale = lengthscale,
                   outputscale = outputscale, bounds = bounds, ard = ard,
                   n_starts = n_starts, noise_floor = noise_floor,
                   noise_ceiling = noise_ceiling, priors = priors,
                   space = space)
  fit <- gp_fit_run(X, y, start, settings)
  fixed <- c(mean = is.numeric(mean), noise = !is.null(noise),
             outputscale = !is.null(outputscale),
             lengthscale = !is.null(lengthscale))
  check_fit_finite(fit, if (any(fixed)) names(fixed)[fixed] else "y")
  fit
}

# The largest factor between a fixed hyperparameter (or the distance of a
# fixed mean) and the scale of the data, on the unit-cube and standardized
# scale C works on: beyond it, products with the data leave the double
# range (a lengthscale of 5e-324 makes its inverse infinite).
gp_scale_max <- 1e300

# `y` whose mean and variance are doubles, the variance positive when the
# values differ (values 1e200 apart make the variance overflow, values
# 1e-300 apart underflow to 0; the GP works on standardized values).
check_y_spread <- function(y, call = sys.call(-1L)) {
  v <- stats::var(y)
  if (!is.finite(mean(y)) || !is.finite(v)) {
    stop_arg("y", paste("values whose mean and variance are finite doubles",
                        "(their spread overflows the double range)"),
             show = FALSE, call = call)
  }
  if (v == 0 && any(y != y[1L])) {
    stop_arg("y", paste("values whose variance is a positive double (their",
                        "spread underflows it to 0)"), show = FALSE,
             call = call)
  }
  invisible(y)
}

# Fixed hyperparameters of gp_fit() (checked numbers) on the scale C works
# on: lengthscales per unit of the box's width, the outputscale and the noise
# per unit of var(y), the mean's distance from mean(y) per unit of sd(y),
# each within gp_scale_max (a noise may be 0).
check_fixed_scales <- function(y, range, lengthscale, outputscale, noise,
                               mean, call = sys.call(-1L)) {
  v <- stats::var(y)
  if (!(v > 0)) return(invisible()) # refused as constant by gp_fit_run()
  within <- function(x) all(x >= 1 / gp_scale_max & x <= gp_scale_max)
  if (!is.null(lengthscale) && !within(lengthscale / range)) {
    stop_args(c("lengthscale", "lower", "upper"), sprintf(paste(
      "keep each lengthscale between %g and %g times the width of its",
      "input's box [lower, upper]"), 1 / gp_scale_max, gp_scale_max),
      call = call)
  }
  if (!is.null(outputscale) && !within(outputscale / v)) {
    stop_arg("outputscale", sprintf(
      "between %g and %g times var(`y`) (%g)", 1 / gp_scale_max,
      gp_scale_max, v), outputscale, call = call)
  }
  if (!is.null(noise) && noise > 0 && !(noise / v <= gp_scale_max)) {
    stop_arg("noise", sprintf("at most %g times var(`y`) (%g)",
                              gp_scale_max, v), noise, call = call)
  }
  if (is.numeric(mean) &&
      !(abs(mean / 2 - mean(y) / 2) / sqrt(v) <= gp_scale_max / 2)) {
    stop_arg("mean", sprintf("within %g sd(`y`) of mean(`y`)",
                             gp_scale_max), mean, call = call)
  }
  invisible()
}

# The `gp_args` of a run, a session or a benchmark (`model`): a named list
# of gp_fit()'s arguments, and `cost`, a list of them for the log-cost GP
# (their values are checked by the run's first fit, check_run_ready()).
check_model_args <- function(model, call = sys.call(-1L)) {
  # `model` holds the user's `gp_args`
  allowed <- setdiff(names(formals(gp_fit)), c("X", "y", "lower", "upper"))
  ok <- function(m, extra = NULL) {
    is.list(m) && (!length(m) || (!is.null(names(m)) &&
                                    all(names(m) %in% c(allowed, extra))))
  }
  if (!ok(model, "cost")) {
    stop_arg("gp_args", sprintf(paste("a named list of gp_fit() arguments",
                                    "among %s, and `cost`"),
                              paste(allowed, collapse = ", ")), model,
             call = call)
  }
  if (!is.null(model$cost) && !ok(model$cost)) {
    stop_arg("gp_args$cost", sprintf(paste("a named list of gp_fit() arguments",
                                         "among %s for the log-cost GP"),
                                   paste(allowed, collapse = ", ")),
             model$cost, call = call)
  }
  model
}

# The fit of gp_fit() from checked data and settings (the list gp_fit()
# builds; `n_starts` NULL for its default): X a double matrix inside
# settings$bounds (on the space's encoding with a space), y a double vector
# (refused when constant), start NULL or a checked continuous fit of the same kernel,
# inputs and transform. Runs with the settings of a fit made by gp_fit()
# (fit$settings) refit it to new data without checking them again.
gp_fit_run <- function(X, y, start, settings) {
  if (stats::sd(y) == 0) stop_arg("y", "non-constant", y, show = FALSE)
  kernel <- settings$kernel
  mean <- settings$mean
  estimate <- settings$estimate
  noise <- settings$noise
  lengthscale <- settings$lengthscale
  outputscale <- settings$outputscale
  bounds <- settings$bounds
  ard <- settings$ard
  noise_floor <- settings$noise_floor
  noise_ceiling <- settings$noise_ceiling
  priors <- settings$priors
  space <- settings$space
  n <- nrow(X)
  d <- ncol(X)
  n_starts <- settings$n_starts
  if (is.null(n_starts)) n_starts <- if (is.null(start)) 2L else 1L

  range <- bounds$upper - bounds$lower
  Xs <- sweep(sweep(X, 2L, bounds$lower), 2L, range, "/")
  ymean <- mean(y)
  ysd <- stats::sd(y)
  ys <- (y - ymean) / ysd

  p <- d + 3L
  fixed <- rep(FALSE, p)
  theta0 <- c(rep(log(0.5), d), 0, log(max(1e-3, noise_floor)), 0)
  if (!is.null(lengthscale)) {
    theta0[seq_len(d)] <- log(lengthscale / range)
    fixed[seq_len(d)] <- TRUE
  }
  if (!is.null(outputscale)) {
    theta0[d + 1L] <- log(outputscale / ysd^2)
    fixed[d + 1L] <- TRUE
  }
  if (!is.null(noise)) {
    theta0[d + 2L] <- log(noise / ysd^2)
    fixed[d + 2L] <- TRUE
  } else if (estimate == "fixed") {
    theta0[d + 2L] <- log(noise_floor)
    fixed[d + 2L] <- TRUE
  }
  if (is.numeric(mean)) {
    theta0[p] <- (mean - ymean) / ysd
    fixed[p] <- TRUE
  }

  # The constant mean is profiled out (its optimum given the rest is closed
  # form); for ML with free outputscale and noise, so is the outputscale, and
  # the noise entry of theta is then log(noise / outputscale).
  profile <- if (fixed[p]) 0L else 1L
  if (estimate == "ml" && !fixed[d + 1L] && !fixed[d + 2L]) profile <- 2L
  lo <- c(rep(log(1e-3), d), log(1e-4), log(noise_floor), -Inf)
  up <- c(rep(log(1e3), d), log(1e8), log(noise_ceiling), Inf)
  # clamp every column (a start) into the bounds, leaving fixed entries
  clamp <- function(th) {
    th <- as.matrix(th)
    free <- which(!fixed)
    th[free, ] <- pmin(pmax(th[free, , drop = FALSE], lo[free]), up[free])
    th
  }
  starts <- clamp(theta0)
  if (!is.null(start)) {
    # a warm start alone: the previous optimum is close to the new one
    wt <- warm_theta(start, theta0, fixed, range, ymean, ysd)
    if (!ard) wt[seq_len(d)] <- mean(wt[seq_len(d)])
    if (profile == 2L) wt[d + 2L] <- wt[d + 2L] - wt[d + 1L]
    starts <- cbind(clamp(wt), if (n_starts > 1L) starts)
  } else {
    iso <- iso_starts(theta0, d, fixed, noise_floor, noise_ceiling)
    if (!is.null(iso)) starts <- cbind(starts, clamp(iso))
  }
  n_random <- if (is.null(start)) 4L * n_starts else n_starts - 1L
  rnd <- matrix(rep(theta0, n_random), p, n_random)
  free_l <- !fixed[seq_len(d)]
  if (any(free_l)) {
    rl <- log(stats::runif(if (ard) d * n_random else n_random, 0.05, 2))
    rnd[seq_len(d), ] <- matrix(rl, d, n_random, byrow = !ard)
  }
  if (!fixed[d + 1L]) rnd[d + 1L, ] <- log(stats::runif(n_random, 0.3, 3))
  if (!fixed[d + 2L]) {
    rnd[d + 2L, ] <- stats::runif(n_random, log(noise_floor),
                                  log(min(0.1, noise_ceiling)))
  }
  starts <- cbind(starts, clamp(rnd))
  use_prior <- estimate == "map"
  shape <- c(priors$lengthscale[1L], priors$outputscale[1L], priors$noise[1L])
  rate <- c(priors$lengthscale[2L], priors$outputscale[2L], priors$noise[2L])
  kcode <- match(kernel, gp_kernels) - 1L
  # optimizer slot of each theta entry (-1: fixed); without ARD the
  # lengthscales share one slot
  slot <- rep(-1L, p)
  group <- c(if (ard) seq_len(d) else rep(1L, d), d + 1:3)
  opt_free <- !fixed
  opt_free[p] <- FALSE
  if (profile == 2L) opt_free[d + 1L] <- FALSE
  slot[opt_free] <- match(group[opt_free], unique(group[opt_free])) - 1L
  # the noise level between the two regimes raced by the multistart; none
  # when the noise is fixed or its band lies on one side of the level
  split <- log(max(1e-4, 10 * noise_floor))
  if (fixed[d + 2L] || split >= up[d + 2L]) split <- NA
  ctl <- gp_fit_control(n_starts, factr = if (is.null(start)) 1e8 else 1e9,
                        split = split)
  fit_c <- function(idx, starts, ctl) {
    if (is.null(idx)) {
      call_c(C_gp_fit, Xs, ys, kcode, starts, lo, up, slot, use_prior, shape,
            rate, profile, ctl)
    } else {
      call_c(C_gp_fit, Xs[idx, , drop = FALSE], ys[idx], kcode, starts, lo,
            up, slot, use_prior, shape, rate, profile, ctl)
    }
  }
  if (is.null(start) && n > 2L * gp_subset_size && !all(fixed[seq_len(d)])) {
    opt <- gp_fit_subset(fit_c, n, d, starts, ctl, fixed, lo, up,
                         noise_floor)
  } else {
    opt <- fit_c(NULL, starts, ctl)
  }
  new_gp_object(list(
    kernel = kernel, kcode = kcode, d = d, n = n, X = X, y = y, Xs = Xs,
    ys = ys, lower = bounds$lower, upper = bounds$upper, ymean = ymean,
    ysd = ysd, theta = opt$theta, hyp = opt$hyp, fixed = fixed, L = opt$L,
    beta = opt$beta, estimate = estimate, priors = priors,
    noise_floor = noise_floor, noise_ceiling = noise_ceiling, ard = ard,
    log_posterior = -opt$value, nfun = opt$nfun,
    convergence = opt$convergence, fmean = double(), fcov = double(),
    space = space, settings = settings
  ), "continuous")
}

# The control of the multistart L-BFGS-B of C_gp_fit (class
# costbo_fit_control, read by name by C_gp_fit() in src/gp.c):
# `n_starts` runs to convergence from the best screened starts, `maxit`,
# `factr`, `pgtol` and `lmm` of L-BFGS-B, the log-noise level `split`
# between the two noise regimes the multistart races (NA: none), the
# racing iterations `race` of later runs (0: none), `bar`: a run happens
# only when the best screened value is below it, and `factor`: whether the
# result holds the GP at the optimum too (its hyp, and the L, beta and
# jitter of its factor).
gp_fit_control <- function(n_starts, maxit = 200L, factr = 1e8, pgtol = 0,
                           lmm = 5L, split = NA_real_, race = 10L,
                           bar = Inf, factor = TRUE) {
  structure(list(n_starts = as.integer(n_starts), maxit = as.integer(maxit),
                 factr = as.double(factr), pgtol = as.double(pgtol),
                 lmm = as.integer(lmm), split = as.double(split),
                 race = as.integer(race), bar = as.double(bar),
                 factor = as.integer(factor)),
            class = "costbo_fit_control")
}

# Points in the random subset on which large cold fits are screened.
gp_subset_size <- 150L

# A cold fit at large n: the multistart (screening and racing of both noise
# regimes) runs on a random subset of gp_subset_size points, where one
# likelihood evaluation is (n / gp_subset_size)^3 times cheaper, and one
# L-BFGS-B run at full n is warm-started from the subset's optimum, with
# lengthscales beyond 5 (unit cube; flat directions of the likelihood)
# brought back to 5. A subset can mistake the noise regime of the full data
# (small noise looks interpolable in few points, and the reverse), so the
# converged full fit is re-evaluated on the other side of the noise split
# (noise at its floor, or at 1e-3 and 1e-2): one Cholesky factorization per
# level, and a second run only if one of them is already better.
# fit_c(idx, starts, ctl) calls C_gp_fit on the rows idx (NULL: all).
gp_fit_subset <- function(fit_c, n, d, starts, ctl, fixed, lo, up,
                          noise_floor) {
  p <- d + 3L
  idx <- sort(sample.int(n, gp_subset_size))
  ctl0 <- ctl
  ctl0$factor <- 0L # the subset's factor is not needed
  sub <- fit_c(idx, starts, ctl0)
  th <- sub$runs[, which.min(sub$run_values)]
  free_l <- !fixed[seq_len(d)]
  th[seq_len(d)][free_l] <- pmin(th[seq_len(d)][free_l], log(5))
  ctl1 <- ctl
  ctl1$n_starts <- 1L
  opt <- fit_c(NULL, as.matrix(th), ctl1)
  nfun <- sub$nfun + opt$nfun
  split <- ctl$split
  if (!fixed[d + 2L] && is.finite(split)) {
    th <- opt$runs[, 1L]
    alt <- if (th[d + 2L] < split) log(c(1e-3, 1e-2)) else log(noise_floor)
    alt <- unique(pmin(pmax(alt, lo[d + 2L]), up[d + 2L]))
    cand <- matrix(th, p, length(alt))
    cand[d + 2L, ] <- alt
    # run only from a level whose value already beats the converged fit
    ctl1$bar <- opt$value
    opt2 <- fit_c(NULL, cand, ctl1)
    nfun <- nfun + opt2$nfun
    if (opt2$value < opt$value) opt <- opt2
  }
  opt$nfun <- nfun
  opt
}

# Screened starting points on a grid: one lengthscale shared by all inputs,
# and the noise at its floor (noise-free data) or at 1e-3 (noisy data). The
# noise is the slowest direction for L-BFGS-B, so starting it on the right
# side saves most of the iterations.
iso_starts <- function(theta0, d, fixed, noise_floor, noise_ceiling) {
  if (any(fixed[seq_len(d)])) return(NULL)
  ls <- log(c(0.1, 0.2, 0.4, 0.8))
  noise <- if (fixed[d + 2L]) theta0[d + 2L] else
    unique(log(c(noise_floor, min(noise_ceiling, max(noise_floor, 1e-3)))))
  g <- expand.grid(l = ls, noise = noise)
  out <- matrix(rep(theta0, nrow(g)), length(theta0), nrow(g))
  out[seq_len(d), ] <- rep(g$l, each = d)
  out[d + 2L, ] <- g$noise
  out
}

check_bounds <- function(lower, upper, X, call = sys.call(-1L)) {
  d <- ncol(X)
  rx <- apply(X, 2L, range)
  if (is.null(lower)) {
    lower <- rx[1L, ] - ifelse(rx[2L, ] > rx[1L, ], 0, 0.5)
  }
  if (is.null(upper)) {
    upper <- rx[2L, ] + ifelse(rx[2L, ] > rx[1L, ], 0, 0.5)
  }
  box <- check_box(lower, upper, d, of = "the columns of `X`", call = call)
  lower <- box$lower
  upper <- box$upper
  tol <- 1e-10 * (upper - lower)
  out <- which(rx[1L, ] < lower - tol | rx[2L, ] > upper + tol)
  if (length(out)) {
    stop_arg("X", sprintf(
      "inside the box [`lower`, `upper`] (column %d is not)", out[1L]),
      show = FALSE, call = call)
  }
  box
}

check_priors <- function(priors, call = sys.call(-1L)) {
  def <- default_gp_priors()
  if (is.null(priors)) return(def)
  if (!is.list(priors) || !all(names(priors) %in% names(def))) {
    stop_arg("priors", "a list with elements among `lengthscale`, `outputscale` and `noise`",
             priors, call = call)
  }
  for (nm in names(priors)) {
    v <- priors[[nm]]
    if (!(is.numeric(v) && length(v) == 2L && all(is.finite(v)) && all(v > 0)))
      stop_arg(sprintf("priors$%s", nm), "c(shape, rate) with both positive",
               v, call = call)
    def[[nm]] <- as.double(v)
  }
  def
}

# The theta of a previous continuous fit (checked where it entered: gp_fit()
# or a state's models), re-expressed on the scaling of a new fit: its
# coefficients in the user's units (as gp_coef() gives them), on the new
# fit's range and standardization.
warm_theta <- function(start, theta0, fixed, range, ymean, ysd) {
  d <- start$d
  h <- start$hyp
  s2 <- start$ysd^2
  th <- c(log(h[seq_len(d)] * (start$upper - start$lower) / range),
          log(h[d + 1L] * s2 / ysd^2), log(max(h[d + 2L] * s2, 1e-300) / ysd^2),
          (start$ymean + start$ysd * h[d + 3L] - ymean) / ysd)
  ifelse(fixed, theta0, th)
}

#' Gaussian process over a finite set of candidates with an explicit prior
#'
#' A GP whose domain is a finite set of `N` candidates and whose prior is given
#' directly as a mean vector and a covariance matrix, as in the exact
#' constructions of the papers (independent priors, Theorem 1 instances).
#' It has the same interface as a fitted GP: [predict.costbo_gp()] and
#' [gp_condition()] take candidate indices (1-based) as inputs, and
#' [simulate.costbo_gp()] draws joint posterior samples.
#'
#' @param mean Prior mean vector (length `N`).
#' @param cov Prior covariance matrix (`N x N`, symmetric positive
#'   semi-definite).
#' @param x Optional indices of observed candidates.
#' @param y Observations at `x`.
#' @param noise Observation noise variance (`>= 0`).
#' @return A `costbo_gp` over the candidates, of class
#'   `c("costbo_gp_finite", "costbo_gp")` (kernel `"finite"`).
#' @family gaussian-process
#' @examples
#' S <- diag(c(1, 1, 4))
#' g <- gp_finite(c(0, 0, 0), S, x = 1, y = 0.5)
#' predict(g, 1:3)
#' @export
gp_finite <- function(mean, cov, x = NULL, y = NULL, noise = 0) {
  mean <- check_vector(mean)
  N <- length(mean)
  if (N < 1L) stop_arg("mean", "of length at least 1", mean)
  cov <- check_matrix(cov)
  if (nrow(cov) != ncol(cov)) stop_arg("cov", "a square matrix", cov)
  if (nrow(cov) != N) {
    stop_args(c("mean", "cov"), sprintf(paste(
      "match: an N x N `cov` for a `mean` of length N (length %d, a %d x %d",
      "matrix)"), N, nrow(cov), ncol(cov)))
  }
  if (max(abs(cov - t(cov))) > 1e-10 * max(1, max(abs(cov)))) {
    stop_arg("cov", "symmetric", cov, show = FALSE)
  }
  ev <- eigen(cov, symmetric = TRUE, only.values = TRUE)$values
  if (min(ev) < -1e-10 * max(1, max(ev))) {
    stop_arg("cov", sprintf("positive semi-definite (smallest eigenvalue %g)",
                            min(ev)), cov, show = FALSE)
  }
  noise <- check_number(noise, min = 0)
  if (xor(is.null(x), is.null(y))) {
    stop_arg(if (is.null(x)) "x" else "y",
             "given together with the other of `x` and `y`", NULL)
  }
  gp_finite_run(mean, cov, noise, x, y)
}

# The GP of gp_finite() from a checked prior (`mean` a double vector, `cov`
# a symmetric positive semi-definite double matrix of its size, `noise` a
# variance >= 0), conditioned on the observations `y` at the candidate
# indices `x` when they are given (gp_condition() checks those). A problem
# with a prior refits through it: bo_problem() checked the prior.
gp_finite_run <- function(mean, cov, noise, x = NULL, y = NULL) {
  obj <- new_gp_object(list(
    kernel = "finite", kcode = 3L, d = 1L, n = 0L,
    X = matrix(0, 0, 1), y = double(), Xs = matrix(0, 0, 1), ys = double(),
    lower = 0, upper = 1, ymean = 0, ysd = 1, theta = double(),
    hyp = c(1, 1, noise, 0, 0), fixed = logical(), L = matrix(0, 0, 0),
    beta = double(), estimate = "fixed", fmean = mean, fcov = cov
  ), "finite")
  if (!is.null(x)) obj <- gp_condition(obj, x, y)
  obj
}

# Negative log posterior (or likelihood) and its gradient at theta on the
# internal scale of a fit: used by tests and benchmarks.
# profile: 0 none, 1 the mean, 2 mean and outputscale (theta[d + 2] is then
# log(noise / outputscale)).
gp_lik_eval <- function(object, theta = object$theta,
                        prior = object$estimate == "map", profile = 0L) {
  pr <- object$priors
  call_c(C_gp_lik, object$Xs, object$ys, object$kcode, as.double(theta),
        prior, c(pr$lengthscale[1L], pr$outputscale[1L], pr$noise[1L]),
        c(pr$lengthscale[2L], pr$outputscale[2L], pr$noise[2L]),
        as.integer(profile))
}
