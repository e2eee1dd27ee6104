# Gaussian-process regression: the R face of src/gp.c.
#
# Internally the GP lives on inputs scaled to the unit cube by `lower`/`upper`
# and on standardized outputs; `theta` = (log lengthscales, log outputscale,
# log noise, constant mean) on that scale. Everything a user sees is converted
# back to the user's units.

gp_kernels <- c("matern52", "matern32", "se")

# GP variants ----------------------------------------------------------------
#
# A fit is a list of one of three S3 subclasses of "costbo_gp", each made by
# one constructor: "costbo_gp_continuous" (gp_fit(): a radial kernel on a
# box), "costbo_gp_finite" (gp_finite(): an explicit prior over candidates)
# and "costbo_gp_miso" (gp_fit_miso(): several information sources). What a
# consumer may do with a fit is asked of gp_can() (and what its inputs are
# of gp_inputs()), never read from `kernel`, which stays a field for
# print() and coef() (the name of a continuous fit's kernel, "finite" or
# "miso"); C reads the kernel code `kcode`, the position of `kernel` in
# gp_kernel_codes, and keeps the variant's operations in one table per
# kernel (src/gp.h). Fits saved before the subclasses existed (class
# "costbo_gp" alone) are upgraded where they enter: check_gp_object(), and
# the checkpoints read by bo_resume().

# Per variant: its class, the kernels it holds, what its inputs are ("box":
# a point of the box; "candidates": a candidate index; "sources": a point
# and an information source), a label for messages, and its capabilities.
gp_variant_table <- list(
  continuous = list(class = "costbo_gp_continuous", kernels = gp_kernels,
                    inputs = "box", label = "continuous",
                    can = c("gradient", "box", "condition", "sample",
                            "acq_closed_form", "cost_model", "prior_sample",
                            "control_sets")),
  finite = list(class = "costbo_gp_finite", kernels = "finite",
                inputs = "candidates", label = "finite-domain",
                can = c("condition", "sample", "acq_closed_form",
                        "cost_model")),
  miso = list(class = "costbo_gp_miso", kernels = "miso", inputs = "sources",
              label = "multi-source",
              can = c("condition", "sample", "acq_closed_form"))
)

# The capabilities gp_can() knows, with what a variant lacking one cannot do.
gp_capabilities <- c(
  gradient = "has no x-gradients",
  box = "is not defined on a box",
  condition = "cannot be conditioned on new observations",
  sample = "cannot draw joint posterior samples",
  acq_closed_form = "has no closed-form acquisitions",
  cost_model = "cannot be paired with a GP on the log cost",
  prior_sample = "has no random-Fourier-feature samples of its kernel",
  control_sets = "has no random inputs to average over (control sets)"
)

# The variant of a fit: from its class, or for a fit saved before the
# subclasses existed, from its kernel (NA when neither tells).
gp_variant <- function(model) {
  cls <- vapply(gp_variant_table, `[[`, "", "class")
  v <- match(class(model), cls)
  v <- v[!is.na(v)][1L]
  if (is.na(v) && identical(class(model), "costbo_gp")) {
    k <- model$kernel
    if (is.character(k) && length(k) == 1L) {
      v <- which(vapply(gp_variant_table, function(t) k %in% t$kernels, NA))[1L]
    }
  }
  names(gp_variant_table)[v]
}

# A fit saved by an earlier costbo (class "costbo_gp" alone) with its
# variant's class; any other object unchanged.
gp_upgrade <- function(model) {
  if (identical(class(model), "costbo_gp")) {
    v <- gp_variant(model)
    if (!is.na(v)) class(model) <- c(gp_variant_table[[v]]$class, "costbo_gp")
  }
  model
}

# A state's list of fitted models (of a checkpoint, a saved session or
# run), each upgraded (gp_upgrade()).
gp_upgrade_models <- function(models) {
  if (is.list(models)) {
    for (i in seq_along(models)) {
      if (inherits(models[[i]], "costbo_gp")) {
        models[[i]] <- gp_upgrade(models[[i]])
      }
    }
  }
  models
}

# Can the fit do `what` (one of names(gp_capabilities))?
gp_can <- function(model, what) {
  if (!(is.character(what) && length(what) == 1L &&
        what %in% names(gp_capabilities))) {
    stop(sprintf("internal error: unknown GP capability %s",
                 describe_value(what)))
  }
  v <- gp_variant(model)
  !is.na(v) && what %in% gp_variant_table[[v]]$can
}

# What the fit's inputs are: "box", "candidates" or "sources".
gp_inputs <- function(model) gp_variant_table[[gp_variant(model)]]$inputs

# The variant's label for messages ("finite-domain", ...).
gp_label <- function(model) gp_variant_table[[gp_variant(model)]]$label

# Signal, unless the fit can do `what`, an error naming the argument `arg`
# that asked for it, with the capability and the variant as data (class
# costbo_error_capability, a costbo_error_arg).
gp_require <- function(model, what, arg, must = NULL, value = NULL,
                       show = FALSE, call = sys.call(-1L)) {
  if (gp_can(model, what)) return(invisible(model))
  label <- gp_label(model)
  if (is.null(must)) {
    must <- sprintf("a GP that can do this (a %s GP %s)", label,
                    gp_capabilities[[what]])
  }
  got <- if (show) sprintf(", not %s", describe_value(value)) else ""
  stop(structure(
    class = c("costbo_error_capability", "costbo_error_arg", "costbo_error",
              "error", "condition"),
    list(message = sprintf("`%s` must be %s%s.", paste(arg, collapse = " "),
                           must, got),
         call = user_call(call), arg = arg, value = value, capability = what,
         variant = gp_variant(model))
  ))
}

# Kernel names with the smoothness nu of their spectral density (Inf: the
# squared exponential), for random Fourier features.
gp_kernel_nu <- c(matern52 = 2.5, matern32 = 1.5, se = Inf)

# Random-Fourier-feature frequencies of a radial kernel with unit
# lengthscales from standard normal draws z (M x d): multivariate Student t
# with 2 nu degrees of freedom for Matern nu (one chi-square draw per
# feature), normal for the squared exponential.
rff_spectral <- function(z, kernel) {
  nu2 <- 2 * gp_kernel_nu[[kernel]]
  if (is.finite(nu2)) z <- z * sqrt(nu2 / stats::rchisq(nrow(z), df = nu2))
  z
}

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
#' @param X Numeric matrix of inputs, one row per observation (a vector is
#'   taken as one input dimension). At least two rows, no missing values.
#' @param y Numeric vector of observations, one per row of `X`; not constant.
#' @param kernel Kernel name: `"matern52"` (default), `"matern32"` or `"se"`.
#' @param mean `"constant"` to estimate a constant mean, or a number to fix
#'   the mean (in the units of `y`).
#' @param estimate `"map"` (maximum a posteriori, default), `"ml"` (maximum
#'   likelihood) or `"fixed"` (no estimation: `lengthscale` and `outputscale`
#'   must be given).
#' @param noise `NULL` to estimate the noise variance, or a fixed noise
#'   variance (units of `y` squared, `>= 0`).
#' @param lengthscale `NULL` to estimate, or fixed lengthscales in the units of
#'   `X` (one number, or one per column).
#' @param outputscale `NULL` to estimate, or a fixed signal variance (units of
#'   `y` squared).
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
#' @return An object of class `c("costbo_gp_continuous", "costbo_gp")`: a
#'   list holding the data, the scaling, the hyperparameters, the Cholesky
#'   factor and the fit's log marginal likelihood; its element `kernel` names
#'   the kernel (as printed). Use [coef()], [logLik()], [predict()],
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
                   noise_floor = 1e-6, noise_ceiling = 10, priors = NULL) {
  kernel <- check_choice(kernel, gp_kernels)
  ard <- check_flag(ard)
  estimate <- check_choice(estimate, c("map", "ml", "fixed"))
  X <- check_matrix(X, min_rows = 2L)
  n <- nrow(X)
  if (as.double(n) * n > .Machine$integer.max) {
    stop_arg("X", "small enough for an n x n covariance matrix with 32-bit BLAS indexing",
             X)
  }
  d <- ncol(X)
  y <- check_vector(y, n)
  if (stats::sd(y) == 0) stop_arg("y", "non-constant", y, show = FALSE)
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
                           identical(start$kernel, kernel) && start$d == d)) {
    stop_arg("start", sprintf("a costbo_gp fit with kernel \"%s\" on %d inputs",
                              kernel, d), start)
  }
  if (is.null(n_starts)) n_starts <- if (is.null(start)) 2L else 1L
  n_starts <- check_count_max(n_starts, 1L, 1000L, arg = "n_starts")

  range <- bounds$upper - bounds$lower
  Xs <- sweep(sweep(X, 2L, bounds$lower), 2L, range, "/")
  ymean <- mean(y)
  ysd <- stats::sd(y)
  ys <- (y - ymean) / ysd

  p <- d + 3L
  fixed <- rep(FALSE, p)
  theta0 <- c(rep(log(0.5), d), 0, log(max(1e-3, noise_floor)), 0)
  if (!is.null(lengthscale)) {
    lengthscale <- check_positive_vector(lengthscale, d)
    if (!ard && length(unique(lengthscale / range)) > 1L) {
      stop_arg("lengthscale", "proportional to the input ranges when ard = FALSE",
               lengthscale)
    }
    theta0[seq_len(d)] <- log(lengthscale / range)
    fixed[seq_len(d)] <- TRUE
  }
  if (!is.null(outputscale)) {
    outputscale <- check_number(outputscale, min = 0, min_open = TRUE)
    theta0[d + 1L] <- log(outputscale / ysd^2)
    fixed[d + 1L] <- TRUE
  }
  if (!is.null(noise)) {
    noise <- check_number(noise, min = 0)
    theta0[d + 2L] <- log(noise / ysd^2)
    fixed[d + 2L] <- TRUE
  } else if (estimate == "fixed") {
    theta0[d + 2L] <- log(noise_floor)
    fixed[d + 2L] <- TRUE
  }
  if (is.numeric(mean)) {
    mean <- check_number(mean)
    theta0[p] <- (mean - ymean) / ysd
    fixed[p] <- TRUE
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
  ctl <- c(n_starts, 200, if (is.null(start)) 1e8 else 1e9, 0, 5, split, 10)
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
  theta <- opt$theta
  hyp <- c(exp(theta[seq_len(d + 2L)]), theta[p], 0)
  fac <- call_c(C_gp_factor, Xs, ys, kcode, hyp, double(), double())
  hyp[p + 1L] <- fac$jitter
  new_costbo_gp_continuous(list(
    kernel = kernel, kcode = kcode, d = d, n = n, X = X, y = y, Xs = Xs,
    ys = ys, lower = bounds$lower, upper = bounds$upper, ymean = ymean,
    ysd = ysd, theta = theta, hyp = hyp, fixed = fixed, L = fac$L,
    beta = fac$beta, estimate = estimate, priors = priors,
    noise_floor = noise_floor, noise_ceiling = noise_ceiling, ard = ard,
    log_posterior = -opt$value, nfun = opt$nfun,
    convergence = opt$convergence, fmean = double(), fcov = double()
  ))
}

# Largest number of points of simulate(): their joint covariance is factored
# by one LAPACK call, which cannot be interrupted (about 0.15 s at 1000
# points with R's reference LAPACK).
gp_max_sample_points <- 1000L

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
  sub <- fit_c(idx, starts, ctl)
  th <- sub$runs[, which.min(sub$run_values)]
  free_l <- !fixed[seq_len(d)]
  th[seq_len(d)][free_l] <- pmin(th[seq_len(d)][free_l], log(5))
  ctl1 <- ctl
  ctl1[1L] <- 1
  opt <- fit_c(NULL, as.matrix(th), ctl1)
  nfun <- sub$nfun + opt$nfun
  split <- ctl[6L]
  if (!fixed[d + 2L] && is.finite(split)) {
    th <- opt$runs[, 1L]
    alt <- if (th[d + 2L] < split) log(c(1e-3, 1e-2)) else log(noise_floor)
    alt <- unique(pmin(pmax(alt, lo[d + 2L]), up[d + 2L]))
    cand <- matrix(th, p, length(alt))
    cand[d + 2L, ] <- alt
    # run only from a level whose value already beats the converged fit
    opt2 <- fit_c(NULL, cand, c(ctl1, opt$value))
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

# The constructors of the three variants (see gp_variant_table); they trust
# their input, which the fitting functions have built.
new_costbo_gp_continuous <- function(x) new_gp_object(x, "continuous")
new_costbo_gp_finite <- function(x) new_gp_object(x, "finite")
new_costbo_gp_miso <- function(x) new_gp_object(x, "miso")

new_gp_object <- function(x, variant) {
  x$loglik_std <- chol_loglik(x$L, x$beta)
  structure(x, class = c(gp_variant_table[[variant]]$class, "costbo_gp"))
}

# log N(y; m, K) from the Cholesky factor L of K and beta = L^{-1} (y - m)
chol_loglik <- function(L, beta) {
  n <- length(beta)
  if (n == 0L) return(0)
  -0.5 * sum(beta^2) - sum(log(diag(L))) - 0.5 * n * log(2 * pi)
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
  if (is.numeric(lower) && length(lower) == 1L) lower <- rep(lower, d)
  if (is.numeric(upper) && length(upper) == 1L) upper <- rep(upper, d)
  lower <- check_vector(lower, d, arg = "lower", call = call)
  upper <- check_vector(upper, d, arg = "upper", call = call)
  if (any(upper <= lower)) {
    stop_arg("upper", "greater than `lower` in every coordinate", upper,
             call = call)
  }
  tol <- 1e-10 * (upper - lower)
  out <- which(rx[1L, ] < lower - tol | rx[2L, ] > upper + tol)
  if (length(out)) {
    stop_arg("X", sprintf("inside the box [lower, upper] (column %d is not)",
                          out[1L]), show = FALSE, call = call)
  }
  list(lower = lower, upper = upper)
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

# the theta of a previous fit, re-expressed on the scaling of a new fit
warm_theta <- function(start, theta0, fixed, range, ymean, ysd) {
  cf <- coef(start)
  d <- start$d
  th <- c(log(cf$lengthscale / range), log(cf$outputscale / ysd^2),
          log(max(cf$noise, 1e-300) / ysd^2), (cf$mean - ymean) / ysd)
  ifelse(fixed, theta0, th)
}

# The GP in the fixed positional layout the C entry points read (see
# gp_unpack() in src/gp.c): list(X, y, L, beta, kernel, hyp, fmean, fcov),
# all on the internal scale and of the storage types C expects.
#
# Every element C indexes by is checked first (check_gp_object()), so that a
# fit restored from an edited file or altered by hand gives an error naming
# the argument and the field instead of a crash; `arg` and `call` name the
# argument of the user's function the fit came in.
gp_pack <- function(object, arg = "object", call = sys.call(-1L)) {
  object <- check_gp_object(object, arg = arg, call = call)
  list(object$Xs, object$ys, object$L, object$beta, as.integer(object$kcode),
       as.double(object$hyp), as.double(object$fmean),
       as.double(object$fcov))
}

# Kernel names in the order of the C kernel codes (enum in src/gp.h).
gp_kernel_codes <- c(gp_kernels, "finite", "miso")

# Largest number of information sources of a multi-source GP.
miso_max_sources <- 100L

# The consistency of a costbo_gp: class (a fit of an earlier costbo is
# upgraded to its variant's class, and returned), kernel and its code, dimensions,
# the data on the internal scale, the Cholesky factor and its weights, the
# hyperparameters (their number fixed by the kernel, the dimension and, for
# multi-source fits, the number of sources), the candidate indices and the
# prior of a finite-domain GP, and the source labels of a multi-source GP.
# Cost: one pass over the factor (O(n^2)), less than one prediction.
check_gp_object <- function(object, arg = "object", call = sys.call(-1L)) {
  if (!(inherits(object, "costbo_gp") && is.list(object))) {
    stop_arg(arg, "a costbo_gp fit (see gp_fit(), gp_finite() and gp_fit_miso())",
             object, call = call)
  }
  bad <- function(field, must) {
    stop_arg(sprintf("%s$%s", arg, field),
             paste(must, "(the fit was altered after fitting; refit it)"),
             object[[field]], call = call)
  }
  is_count <- function(x, min = 0) {
    is.numeric(x) && length(x) == 1L && is.finite(x) && x == round(x) &&
      x >= min && x <= .Machine$integer.max
  }
  is_real <- function(x, len) {
    is.double(x) && length(x) == len && all(is.finite(x))
  }
  object <- gp_upgrade(object)
  variant <- gp_variant(object)
  kernel <- object$kernel
  if (is.na(variant)) {
    # an unknown subclass, or an old fit whose kernel names no variant
    if (!identical(class(object), "costbo_gp")) {
      stop_arg(sprintf("class(%s)", arg),
               sprintf("one of %s, then \"costbo_gp\"",
                       paste0("\"", vapply(gp_variant_table, `[[`, "", "class"),
                              "\"", collapse = ", ")),
               class(object), call = call)
    }
    bad("kernel", sprintf("one of %s", paste0("\"", gp_kernel_codes, "\"",
                                               collapse = ", ")))
  }
  kernels <- gp_variant_table[[variant]]$kernels
  if (!(is.character(kernel) && length(kernel) == 1L && kernel %in% kernels)) {
    bad("kernel", sprintf("one of %s for a %s GP (class \"%s\")",
                          paste0("\"", kernels, "\"", collapse = ", "),
                          gp_label(object), class(object)[1L]))
  }
  code <- match(kernel, gp_kernel_codes) - 1L
  if (!(is_count(object$kcode) && object$kcode == code)) {
    bad("kcode", sprintf("%d, the code of kernel \"%s\"", code, kernel))
  }
  finite <- gp_inputs(object) == "candidates"
  miso <- gp_inputs(object) == "sources"
  if (!is_count(object$d, min = 1) || (finite && object$d != 1)) {
    bad("d", if (finite) "1 for a GP over candidates" else
      "a whole number >= 1 (the input dimension)")
  }
  d <- as.integer(object$d)
  if (!is_count(object$n)) bad("n", "a whole number >= 0")
  n <- as.integer(object$n)
  S <- 1L
  if (miso) {
    if (!is_count(object$n_sources, min = 1) ||
        object$n_sources > miso_max_sources) {
      bad("n_sources", sprintf("a whole number in 1..%d", miso_max_sources))
    }
    S <- as.integer(object$n_sources)
  }
  nfin <- 0L
  if (finite) {
    nfin <- length(object$fmean)
    if (!(nfin >= 1L && is_real(object$fmean, nfin))) {
      bad("fmean", "a finite double vector of length >= 1 (the prior mean)")
    }
    fc <- object$fcov
    if (!(is.matrix(fc) && all(dim(fc) == nfin) && is_real(fc, nfin^2))) {
      bad("fcov", sprintf("a finite %d x %d double matrix (the prior covariance)",
                          nfin, nfin))
    }
  }
  dc <- d + miso # columns of Xs
  Xs <- object$Xs
  if (!(is.matrix(Xs) && nrow(Xs) == n && ncol(Xs) == dc &&
        is_real(Xs, n * dc))) {
    bad("Xs", sprintf("a finite %d x %d double matrix (`n` x %s)", n, dc,
                      if (miso) "(`d` + 1)" else "`d`"))
  }
  if (finite && any(Xs != round(Xs) | Xs < 0 | Xs > nfin - 1)) {
    bad("Xs", sprintf("candidate indices in 0..%d", nfin - 1L))
  }
  if (miso && n > 0L) {
    s <- Xs[, dc]
    if (any(s != round(s) | s < 0 | s > S - 1)) {
      bad("Xs", sprintf("source labels in 0..%d in its last column", S - 1L))
    }
  }
  if (!is_real(object$ys, n)) bad("ys", sprintf("a finite double vector of length %d", n))
  if (!(is.numeric(object$y) && length(object$y) == n && all(is.finite(object$y)))) {
    bad("y", sprintf("a finite numeric vector of length %d", n))
  }
  L <- object$L
  if (!(is.matrix(L) && nrow(L) == n && ncol(L) == n && is_real(L, n * n) &&
        all(diag(L) > 0))) {
    bad("L", sprintf("a finite %d x %d double matrix with a positive diagonal (the Cholesky factor)",
                     n, n))
  }
  if (!is_real(object$beta, n)) {
    bad("beta", sprintf("a finite double vector of length %d", n))
  }
  nh <- dc + 4L + if (miso) dc * (S - 1L) else 0L
  h <- object$hyp
  if (!(is.numeric(h) && length(h) == nh && all(is.finite(h)))) {
    bad("hyp", sprintf("%d finite numbers", nh))
  }
  # bias blocks of a multi-source fit: (lengthscales, outputscale) per source
  bias <- matrix(h[dc + 4L + seq_len(dc * (S - 1L))], dc, S - 1L)
  if (!finite && (any(h[seq_len(dc)] <= 0) || any(bias[-dc, ] <= 0))) {
    bad("hyp", "positive lengthscales")
  }
  if (any(h[c(dc + 1:2, dc + 4L)] < 0) || any(bias[dc, ] < 0)) {
    bad("hyp", "non-negative variances and jitter")
  }
  if (!finite) {
    ok_lo <- is.numeric(object$lower) && is_real(as.double(object$lower), d)
    if (!(ok_lo && is.numeric(object$upper) &&
          is_real(as.double(object$upper), d) &&
          all(object$upper > object$lower))) {
      bad(if (ok_lo) "upper" else "lower",
          sprintf("%d finite numbers with `upper` > `lower`", d))
    }
  }
  if (!(is.numeric(object$ymean) && length(object$ymean) == 1L &&
        is.finite(object$ymean))) {
    bad("ymean", "a single finite number")
  }
  if (!(is.numeric(object$ysd) && length(object$ysd) == 1L &&
        is.finite(object$ysd) && object$ysd > 0)) {
    bad("ysd", "a single positive finite number")
  }
  invisible(object)
}

#' @export
print.costbo_gp <- function(x, digits = max(3L, getOption("digits") - 3L),
                            ...) {
  gp_print(check_gp_object(x, arg = "x"), digits)
  invisible(x)
}

# The body of print() for each variant.
gp_print <- function(x, digits) UseMethod("gp_print")

#' @exportS3Method
gp_print.costbo_gp_finite <- function(x, digits) {
  cat(sprintf("Gaussian process on %d candidates (explicit prior), %d observation%s\n",
              length(x$fmean), x$n, if (x$n == 1L) "" else "s"))
  cat(sprintf("  noise variance: %s\n", format(x$hyp[3L], digits = digits)))
}

#' @exportS3Method
gp_print.costbo_gp_continuous <- function(x, digits) {
  cf <- coef(x)
  cat(sprintf("Gaussian process, %s kernel, %d input%s, %d observations (%s fit)\n",
              x$kernel, x$d, if (x$d == 1L) "" else "s", x$n,
              toupper(x$estimate)))
  cat("  lengthscale: ", paste(format(cf$lengthscale, digits = digits),
                               collapse = " "), "\n", sep = "")
  cat(sprintf("  outputscale: %s   noise: %s   mean: %s\n",
              format(cf$outputscale, digits = digits),
              format(cf$noise, digits = digits),
              format(cf$mean, digits = digits)))
  cat(sprintf("  log marginal likelihood: %s", format(as.numeric(logLik(x)),
                                                      digits = digits)))
  if (x$hyp[length(x$hyp)] > 0) {
    cat(sprintf("   (jitter %s)", format(x$hyp[length(x$hyp)], digits = 3L)))
  }
  cat("\n")
}

#' Hyperparameters of a fitted Gaussian process
#'
#' @param object A `costbo_gp` fit from [gp_fit()].
#' @param ... Unused.
#' @return A list with `lengthscale` (one per input, in the units of `X`),
#'   `outputscale` (signal variance) and `noise` (noise variance), both in the
#'   units of `y` squared, and `mean` (the constant mean, units of `y`).
#' @family gaussian-process
#' @examples
#' fit <- gp_fit(1:10, sin(1:10), kernel = "se", estimate = "ml")
#' coef(fit)
#' @export
coef.costbo_gp <- function(object, ...) {
  gp_coef(check_gp_object(object))
}

# The hyperparameters of each variant, in the user's units.
gp_coef <- function(object) UseMethod("gp_coef")

#' @exportS3Method
gp_coef.costbo_gp_finite <- function(object) {
  list(mean = object$fmean, cov = object$fcov, noise = object$hyp[3L])
}

#' @exportS3Method
gp_coef.costbo_gp_continuous <- function(object) {
  d <- object$d
  range <- object$upper - object$lower
  ls <- object$hyp[seq_len(d)] * range
  names(ls) <- colnames(object$X)
  list(lengthscale = ls,
       outputscale = object$hyp[d + 1L] * object$ysd^2,
       noise = object$hyp[d + 2L] * object$ysd^2,
       mean = object$ymean + object$ysd * object$hyp[d + 3L])
}

#' Log marginal likelihood of a fitted Gaussian process
#'
#' @param object A `costbo_gp` fit.
#' @param ... Unused.
#' @return The log marginal likelihood of the observations, in the units of
#'   `y`, as an object of class `"logLik"` with attributes `df` (number of
#'   estimated hyperparameters) and `nobs`.
#' @family gaussian-process
#' @examples
#' fit <- gp_fit(1:10, sin(1:10), estimate = "ml")
#' logLik(fit)
#' AIC(fit)
#' @export
logLik.costbo_gp <- function(object, ...) {
  object <- check_gp_object(object)
  val <- object$loglik_std - object$n * log(object$ysd)
  structure(val, df = sum(!object$fixed), nobs = object$n, class = "logLik")
}

#' @export
nobs.costbo_gp <- function(object, ...) object$n

#' Predict from a Gaussian process
#'
#' Posterior mean and standard deviation of the latent function at new
#' points, and optionally their gradients with respect to the input.
#'
#' @param object A `costbo_gp` from [gp_fit()] or [gp_finite()].
#' @param newdata Points to predict at: a matrix with one row per point and
#'   one column per input (a vector is one point when the GP has several
#'   inputs, several points when it has one). For [gp_finite()] models, a
#'   vector of candidate indices (1-based). For [gp_fit_miso()] models, one
#'   more column: the source (0 for the objective).
#' @param sd Return the posterior standard deviation?
#' @param grad Return gradients with respect to the input (continuous
#'   kernels only)?
#' @param ... Unused.
#' @return A list with `mean` and, if `sd`, `sd` (of the latent function,
#'   without observation noise; a variance that rounding makes negative is
#'   reported as sd 0); with `grad = TRUE` also `mean_grad` and `sd_grad`,
#'   matrices with one row per point and one column per input (in the units
#'   of `y` per unit of input; 0 where the sd is 0).
#' @family gaussian-process
#' @examples
#' fit <- gp_fit(matrix(seq(0, 1, length.out = 8)), sin(6 * seq(0, 1, length.out = 8)))
#' p <- predict(fit, c(0.25, 0.5), grad = TRUE)
#' p$mean; p$sd; p$mean_grad
#' @export
predict.costbo_gp <- function(object, newdata, sd = TRUE, grad = FALSE,
                              ...) {
  sd <- check_flag(sd)
  grad <- check_flag(grad)
  object <- check_gp_object(object)
  Xn <- gp_newdata(object, newdata)
  if (grad) {
    gp_require(object, "gradient", arg = "grad",
               must = sprintf("FALSE for a %s GP (it has no x-gradients)",
                              gp_label(object)), value = grad, show = TRUE)
  }
  r <- call_c(C_gp_predict, gp_pack(object), Xn, grad)
  out <- list(mean = object$ymean + object$ysd * r$mean)
  s <- sqrt(pmax(r$var, 0))
  if (sd) out$sd <- object$ysd * s
  if (grad) {
    range <- object$upper - object$lower
    out$mean_grad <- sweep(t(r$dmean), 2L, object$ysd / range, "*")
    sg <- t(r$dvar) / (2 * ifelse(s > 0, s, Inf))
    out$sd_grad <- sweep(sg, 2L, object$ysd / range, "*")
  }
  out
}

# newdata on the internal scale (unit cube, or 0-based candidate indices)
gp_newdata <- function(object, newdata, arg = "newdata",
                       call = sys.call(-1L), object_arg = "object") {
  object <- check_gp_object(object, arg = object_arg, call = call)
  gp_scale_inputs(object, newdata, arg, call)
}

# Points of a variant's inputs on its internal scale.
gp_scale_inputs <- function(object, newdata, arg, call) {
  UseMethod("gp_scale_inputs")
}

#' @exportS3Method
gp_scale_inputs.costbo_gp_finite <- function(object, newdata, arg, call) {
  matrix(check_index(newdata, length(object$fmean), arg = arg, call = call) - 1,
         ncol = 1L)
}

#' @exportS3Method
gp_scale_inputs.costbo_gp_miso <- function(object, newdata, arg, call) {
  Xn <- check_matrix(newdata, d = object$d + 1L, arg = arg, call = call)
    d <- object$d
    s <- check_sources(Xn[, d + 1L], nrow(Xn), arg = sprintf("%s[, %d]", arg,
                                                            d + 1L),
                       call = call)
    if (any(s >= object$n_sources)) {
      stop_arg(arg, sprintf("with sources (last column) below %d",
                            object$n_sources), show = FALSE, call = call)
    }
    U <- sweep(sweep(Xn[, seq_len(d), drop = FALSE], 2L, object$lower), 2L,
               object$upper - object$lower, "/")
    cbind(U, as.double(s), deparse.level = 0L)
}

#' @exportS3Method
gp_scale_inputs.costbo_gp_continuous <- function(object, newdata, arg, call) {
  Xn <- check_matrix(newdata, d = object$d, arg = arg, call = call)
  sweep(sweep(Xn, 2L, object$lower), 2L, object$upper - object$lower, "/")
}

check_index <- function(x, n, arg = deparse(substitute(x)),
                        call = sys.call(-1L)) {
  force(arg)
  if (is.matrix(x) && ncol(x) == 1L) x <- drop(x)
  ok <- is.numeric(x) && length(x) >= 1L && !anyNA(x) && all(x == round(x)) &&
    all(x >= 1) && all(x <= n)
  if (!ok) stop_arg(arg, sprintf("candidate indices between 1 and %d", n), x,
                    call = call)
  as.double(x)
}

#' Condition a Gaussian process on new observations
#'
#' Adds observations to a fitted GP without refitting its hyperparameters,
#' by appending one row per observation to the Cholesky factor: O(n^2) per
#' point instead of the O(n^3) of a fresh factorization. This is the
#' "fantasy" update on which every lookahead policy is built (the same C
#' routine conditions on hypothetical outcomes inside scenario trees and
#' rollouts, where it is undone just as cheaply).
#'
#' @param object A `costbo_gp` from [gp_fit()] or [gp_finite()].
#' @param x New inputs (as `newdata` in [predict.costbo_gp()]: candidate
#'   indices for [gp_finite()] models, rows (x, source) for [gp_fit_miso()]
#'   models).
#' @param y New observations, one per point of `x`.
#' @return A `costbo_gp` with the observations added and the same
#'   hyperparameters and scaling. Its [logLik()] is the log marginal likelihood
#'   of all observations under those hyperparameters.
#' @family gaussian-process
#' @examples
#' X <- matrix(c(0.1, 0.4, 0.9))
#' fit <- gp_fit(X, sin(6 * X[, 1]), lower = 0, upper = 1)
#' fit2 <- gp_condition(fit, 0.6, sin(3.6))
#' predict(fit2, 0.6)
#' @export
gp_condition <- function(object, x, y) {
  object <- check_gp_object(object)
  gp_require(object, "condition", arg = "object")
  Xa <- gp_newdata(object, x, arg = "x")
  y <- check_vector(y, nrow(Xa))
  ya <- (y - object$ymean) / object$ysd
  r <- call_c(C_gp_condition, gp_pack(object), Xa, ya)
  object <- gp_append_inputs(object, x, Xa)
  object$Xs <- rbind(object$Xs, Xa)
  object$y <- c(object$y, y)
  object$ys <- c(object$ys, ya)
  object$n <- length(object$y)
  object$L <- r$L
  object$beta <- r$beta
  new_gp_object(unclass(object), gp_variant(object))
}

# The user-scale record of new inputs x (Xa: on the internal scale).
gp_append_inputs <- function(object, x, Xa) UseMethod("gp_append_inputs")

#' @exportS3Method
gp_append_inputs.costbo_gp_finite <- function(object, x, Xa) {
  object$X <- rbind(object$X, Xa + 1)
  object
}

#' @exportS3Method
gp_append_inputs.costbo_gp_miso <- function(object, x, Xa) {
  # rows (x, source), as for predict(): inputs and sources kept apart
  d <- object$d
  xm <- check_matrix(x, d = d + 1L)
  object$X <- rbind(object$X, xm[, seq_len(d), drop = FALSE])
  object$source <- c(object$source, as.integer(Xa[, d + 1L]))
  object
}

#' @exportS3Method
gp_append_inputs.costbo_gp_continuous <- function(object, x, Xa) {
  object$X <- rbind(object$X, check_matrix(x, d = object$d))
  object
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
  cov <- check_matrix(cov, d = N)
  if (nrow(cov) != N) stop_arg("cov", sprintf("a %d x %d matrix", N, N), cov)
  if (max(abs(cov - t(cov))) > 1e-10 * max(1, max(abs(cov)))) {
    stop_arg("cov", "symmetric", cov, show = FALSE)
  }
  ev <- eigen(cov, symmetric = TRUE, only.values = TRUE)$values
  if (min(ev) < -1e-10 * max(1, max(ev))) {
    stop_arg("cov", sprintf("positive semi-definite (smallest eigenvalue %g)",
                            min(ev)), cov, show = FALSE)
  }
  noise <- check_number(noise, min = 0)
  obj <- new_costbo_gp_finite(list(
    kernel = "finite", kcode = 3L, d = 1L, n = 0L,
    X = matrix(0, 0, 1), y = double(), Xs = matrix(0, 0, 1), ys = double(),
    lower = 0, upper = 1, ymean = 0, ysd = 1, theta = double(),
    hyp = c(1, 1, noise, 0, 0), fixed = logical(), L = matrix(0, 0, 0),
    beta = double(), estimate = "fixed", fmean = mean, fcov = cov
  ))
  if (!is.null(x) || !is.null(y)) {
    if (is.null(x) || is.null(y)) {
      stop_arg(if (is.null(x)) "x" else "y",
               "given together with the other of `x` and `y`", NULL)
    }
    obj <- gp_condition(obj, x, y)
  }
  obj
}

#' Joint posterior samples from a Gaussian process
#'
#' Draws `nsim` samples of the latent function jointly at the points
#' `newdata`, from the posterior of a fitted GP (or the prior of a
#' [gp_finite()] model without observations). Random numbers come from R's
#' generator, so `set.seed()` or `seed` reproduces the draws exactly.
#'
#' @param object A `costbo_gp`.
#' @param nsim Number of samples (at most 1e8 values in all, `nsim` times
#'   the number of points).
#' @param seed `NULL`, or an integer passed to [set.seed()] before drawing
#'   (the previous random-number state is restored afterwards), as in
#'   [stats::simulate()].
#' @param newdata Points (as in [predict.costbo_gp()]), at most 1000: their
#'   joint posterior covariance is factored by one LAPACK call, which cannot
#'   be interrupted.
#' @param ... Unused.
#' @return A matrix with one row per point and one column per sample, with
#'   attribute `"seed"` as in [stats::simulate()].
#' @family gaussian-process
#' @examples
#' fit <- gp_fit(c(0.1, 0.5, 0.9), c(1, -1, 0.5), lower = 0, upper = 1)
#' s <- simulate(fit, nsim = 3, seed = 1, newdata = seq(0, 1, by = 0.25))
#' dim(s)
#' @export
simulate.costbo_gp <- function(object, nsim = 1, seed = NULL, newdata, ...) {
  nsim <- check_count(nsim, min = 1L)
  if (missing(newdata)) stop_arg("newdata", "given", NULL)
  object <- check_gp_object(object)
  gp_require(object, "sample", arg = "object")
  Xn <- gp_newdata(object, newdata)
  if (as.double(nsim) * nrow(Xn) > 1e8) {
    stop_arg("nsim", sprintf("at most %d for %d points (1e8 values)",
                             floor(1e8 / nrow(Xn)), nrow(Xn)), nsim)
  }
  if (nrow(Xn) > gp_max_sample_points) {
    stop_arg("newdata", sprintf(paste("at most %d points (their joint",
                                      "covariance is factored)"),
                                gp_max_sample_points), newdata,
             show = FALSE)
  }
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
    stats::runif(1)
  }
  if (is.null(seed)) {
    rng_state <- get(".Random.seed", envir = globalenv())
  } else {
    seed <- check_count(seed, min = 0L)
    old <- get(".Random.seed", envir = globalenv())
    on.exit(assign(".Random.seed", old, envir = globalenv()))
    set.seed(seed)
    rng_state <- structure(seed, kind = as.list(RNGkind()))
  }
  s <- call_c(C_gp_sample, gp_pack(object), Xn, nsim)
  out <- object$ymean + object$ysd * s
  attr(out, "seed") <- rng_state
  out
}

#' Sample a function from a Gaussian-process prior
#'
#' Draws one function from a zero-mean stationary GP prior by random Fourier
#' features (Rahimi and Recht, 2007): \eqn{f(x) = \sqrt{2\sigma^2/M}
#' \sum_{m=1}^M w_m \cos(\omega_m^\top x + b_m)} with \eqn{w_m \sim N(0,1)},
#' \eqn{b_m \sim U(0, 2\pi)} and \eqn{\omega_m} drawn from the kernel's
#' spectral density (Gaussian for `"se"`, multivariate Student t with 2
#' \eqn{\nu} degrees of freedom for Matérn \eqn{\nu}). The sample is a
#' deterministic function that can be evaluated anywhere, which is how the
#' Bayesian-regret test problems are built.
#'
#' @param d Input dimension.
#' @param kernel `"matern52"`, `"matern32"` or `"se"`.
#' @param lengthscale Lengthscale(s), one number or one per input.
#' @param outputscale Signal variance.
#' @param n_features Number of random features `M` (at most 1e6).
#' @return A function of `x` (a matrix with `d` columns, or a vector of length
#'   `d` for one point) returning the sampled values; its attributes hold the
#'   features.
#' @family gaussian-process
#' @examples
#' set.seed(1)
#' f <- gp_prior_sample(2, lengthscale = 0.1)
#' f(c(0.3, 0.7))
#' f(matrix(runif(10), ncol = 2))
#' @export
gp_prior_sample <- function(d, kernel = "matern52", lengthscale = 0.1,
                            outputscale = 1, n_features = 1024L) {
  d <- check_count(d, min = 1L)
  kernel <- check_choice(kernel, gp_kernels)
  lengthscale <- check_positive_vector(lengthscale, d)
  outputscale <- check_number(outputscale, min = 0, min_open = TRUE)
  n_features <- check_count_max(n_features, 1L, 1e6, arg = "n_features")
  M <- n_features
  z <- rff_spectral(matrix(stats::rnorm(M * d), M, d), kernel)
  omega <- sweep(z, 2L, lengthscale, "/")
  phase <- stats::runif(M, 0, 2 * pi)
  weight <- stats::rnorm(M)
  scale <- sqrt(2 * outputscale / M)
  f <- function(x) {
    x <- check_matrix(x, d = d)
    call_c(C_gp_rff_eval, x, omega, phase, weight, scale)
  }
  structure(f, class = c("costbo_prior_sample", "function"),
            kernel = kernel, lengthscale = lengthscale,
            outputscale = outputscale, n_features = M)
}

#' @export
print.costbo_prior_sample <- function(x, ...) {
  cat(sprintf("GP prior sample: %s kernel, %d input%s, lengthscale %s, outputscale %s, %d random features\n",
              attr(x, "kernel"), length(attr(x, "lengthscale")),
              if (length(attr(x, "lengthscale")) == 1L) "" else "s",
              paste(format(unique(attr(x, "lengthscale"))), collapse = " "),
              format(attr(x, "outputscale")), attr(x, "n_features")))
  invisible(x)
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
