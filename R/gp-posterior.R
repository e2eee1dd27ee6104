# What a fitted GP answers: predictions with gradients, conditioning on new
# observations, joint posterior samples, prior samples by random Fourier
# features, and its print/coef/logLik methods.

# Random-Fourier-feature frequencies of a radial kernel with unit
# lengthscales from standard normal draws z (M x d): multivariate Student t
# with 2 nu degrees of freedom for Matern nu (one chi-square draw per
# feature), normal for the squared exponential.
rff_spectral <- function(z, kernel) {
  nu2 <- 2 * gp_kernel_nu[[kernel]]
  if (is.finite(nu2)) z <- z * sqrt(nu2 / stats::rchisq(nrow(z), df = nu2))
  z
}

#' @export
print.costbo_gp <- function(x, digits = max(3L, getOption("digits") - 3L),
                            ...) {
  digits <- check_digits(digits)
  gp_print(check_gp_object(x, arg = "x"), digits)
  invisible(x)
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
# of a checked fit (check_gp_object())
gp_newdata <- function(object, newdata, arg = "newdata",
                       call = sys.call(-1L)) {
  gp_scale_inputs(object, newdata, arg, call)
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
#' @param y New observations, one per point of `x`; observations so far
#'   from the model that its log marginal likelihood leaves the double range
#'   (1e200 standard deviations, say) are refused.
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
  y <- check_vector(y)
  check_per_point(c(x = nrow(Xa), y = length(y)), c("points", "values"))
  ya <- (y - object$ymean) / object$ysd
  if (!all(is.finite(ya))) {
    stop_arg("y", paste("values that the model's standardization keeps",
                        "finite ((y - mean) / sd overflows the double range)"),
             show = FALSE)
  }
  r <- call_c(C_gp_condition, gp_pack(object), Xa, ya)
  object <- gp_append_inputs(object, x, Xa)
  object$Xs <- rbind(object$Xs, Xa)
  object$y <- c(object$y, y)
  object$ys <- c(object$ys, ya)
  object$n <- length(object$y)
  object$L <- r$L
  object$beta <- r$beta
  object <- new_gp_object(unclass(object), gp_variant(object))
  check_fit_finite(object, "y")
  object
}

# Largest number of points of simulate(): their joint covariance is factored
# by one LAPACK call, which cannot be interrupted (about 0.15 s at 1000
# points with R's reference LAPACK).
gp_max_sample_points <- 1000L

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
#'   be interrupted. By default the inputs the GP was fitted to, as
#'   [stats::simulate()] does for other models.
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
  object <- check_gp_object(object)
  # as simulate() of stats' models: at the data the model was fitted to
  if (missing(newdata)) newdata <- gp_fitted_inputs(object)
  gp_require(object, "sample", arg = "object")
  Xn <- gp_newdata(object, newdata)
  if (as.double(nsim) * nrow(Xn) > 1e8) {
    stop_arg("nsim", sprintf("at most %d for %d points of `newdata` (1e8 values)",
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
#' @param lengthscale Lengthscale(s), one number or one per input; small
#'   lengthscales whose frequencies (spectral draws divided by them) leave
#'   the double range, such as 5e-324, are refused.
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
  n_features <- check_count_max(n_features, 1L, 1e6, arg = "n_features")
  d <- check_count_cells(d, n_features, arg = "d")
  kernel <- check_choice(kernel, gp_kernels)
  lengthscale <- check_positive_vector(lengthscale, d,
                                       of = "one per input, `d`")
  outputscale <- check_number(outputscale, min = 0, min_open = TRUE)
  M <- n_features
  z <- rff_spectral(matrix(stats::rnorm(M * d), M, d), kernel)
  omega <- sweep(z, 2L, lengthscale, "/")
  if (!all(is.finite(omega))) {
    stop_arg("lengthscale", paste(
      "large enough that the features' frequencies (spectral draws divided",
      "by the lengthscale) are finite doubles"), lengthscale)
  }
  phase <- stats::runif(M, 0, 2 * pi)
  weight <- stats::rnorm(M)
  scale <- sqrt(2 * outputscale / M)
  # an outputscale near the largest double: 2 * outputscale overflows
  if (!is.finite(scale)) scale <- sqrt(2 / M) * sqrt(outputscale)
  f <- function(x) {
    x <- check_matrix(x, d = d)
    v <- call_c(C_gp_rff_eval, x, omega, phase, weight, scale)
    if (!all(is.finite(v))) {
      stop_arg("x", paste("points at which the features' phases omega'x",
                          "are finite (x is too large for the sample's",
                          "frequencies)"), show = FALSE)
    }
    v
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

#' Fitted values and residuals of a Gaussian process
#'
#' The posterior mean of the GP at the inputs it was fitted to, and the
#' observations minus it, as [stats::fitted()] and [stats::residuals()]
#' give them for other models. An interpolating GP (a small noise
#' variance) has residuals near 0; a noisy one's show what the noise
#' explains.
#'
#' @param object A fitted GP ([gp_fit()], [gp_finite()], [gp_fit_miso()]).
#' @param ... Unused.
#' @return A numeric vector with one value per observation.
#' @family gaussian-process
#' @examples
#' set.seed(1)
#' X <- matrix(runif(20), ncol = 2)
#' fit <- gp_fit(X, sin(5 * X[, 1]) + X[, 2] + rnorm(10, sd = 0.1))
#' cbind(fitted = fitted(fit), residual = residuals(fit))[1:3, ]
#' @export
fitted.costbo_gp <- function(object, ...) {
  object <- check_gp_object(object)
  predict(object, gp_fitted_inputs(object), sd = FALSE)$mean
}

# The inputs a GP was fitted to, as predict() takes them (with their
# sources as the last column for the multi-source GP).
gp_fitted_inputs <- function(object) {
  if (inherits(object, "costbo_gp_miso")) {
    return(cbind(object$X, object$source, deparse.level = 0L))
  }
  object$X
}

#' @rdname fitted.costbo_gp
#' @export
residuals.costbo_gp <- function(object, ...) {
  object <- check_gp_object(object)
  object$y - stats::fitted(object)
}
