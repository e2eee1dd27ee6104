# The multi-source GP (Poloczek et al. 2017, used by Yue and Kontar 2020,
# Sec. 7): one GP over (x, source) pairs, kernel CB_MISO of src/gp.c,
# fitted by gp_fit_miso(). The problems with sources are in
# problem-miso.R, the KG-based policies in policies-rollout.R.

#' Fit the multi-information-source Gaussian process
#'
#' Fits the model of Poloczek et al. (2017), used by Yue and Kontar (2020,
#' Sec. 7), to observations `y` of `n_sources` information sources: source
#' 0 is the objective \eqn{f}, and source \eqn{s \ge 1} observes \eqn{f(x) +
#' \delta_s(x)} with an independent bias GP \eqn{\delta_s}, so that
#' \deqn{k((x, s), (x', s')) = k_0(x, x') + 1\{s = s' \ne 0\} k_s(x, x'),}
#' all Matérn 5/2 with ARD lengthscales and their own outputscales, a
#' constant mean shared by the sources, and one noise variance shared by
#' them (the paper lets the noise depend on the source; costbo does not).
#'
#' Inputs are scaled to the unit cube and outputs (of all sources together)
#' standardized, as in [gp_fit()]. The log hyperparameters (lengthscales
#' and outputscales of \eqn{k_0} and of every \eqn{k_s}, and the noise) are
#' fitted by MAP (default; the priors of [gp_fit()] on every lengthscale,
#' outputscale and the noise) or ML with [stats::optim()]'s L-BFGS-B on the
#' log marginal likelihood computed by the C core (its Cholesky factor), the
#' mean being profiled out by generalized least squares. Without `start`,
#' the optimization starts from lengthscales 0.5, outputscale 1 (bias 0.1)
#' and noise 1e-3 and from a second, isotropic start with lengthscales 0.2;
#' with `start`, from the previous fit only.
#'
#' @param X Inputs, one row per observation.
#' @param source The source of each observation: whole numbers from 0
#'   (the objective) to `n_sources - 1`.
#' @param y Observations.
#' @param n_sources Number of sources (default: the largest `source` plus
#'   one), at most 100.
#' @param lower,upper The box of the inputs (default: the range of `X`).
#' @param estimate `"map"` or `"ml"`.
#' @param start Optional previous `gp_fit_miso()` fit with the same inputs
#'   and sources, to warm-start from.
#' @param noise_floor Smallest noise variance on the standardized scale.
#' @param priors As for [gp_fit()].
#' @return A `costbo_gp` of class `c("costbo_gp_miso", "costbo_gp")` (kernel
#'   `"miso"`). [predict()] takes `newdata`
#'   with one more column than `X`, the source (0 for the objective);
#'   [coef()] returns `lengthscale`, `outputscale`, `bias_lengthscale` (one
#'   row per source \eqn{s \ge 1}), `bias_outputscale`, `noise` and `mean`.
#' @references
#' Poloczek, M., Wang, J. and Frazier, P. (2017). Multi-information source
#' optimization. *NeurIPS 30*.
#' @family gaussian-process
#' @examples
#' set.seed(1)
#' X <- matrix(runif(24), ncol = 2)
#' s <- rep(0:1, 6)
#' y <- sin(6 * X[, 1]) + X[, 2] + 0.3 * s * cos(3 * X[, 2])
#' fit <- gp_fit_miso(X, s, y, lower = c(0, 0), upper = c(1, 1))
#' fit
#' predict(fit, cbind(0.5, 0.5, 0:1))
#' @export
gp_fit_miso <- function(X, source, y, n_sources = NULL, lower = NULL,
                        upper = NULL, estimate = c("map", "ml"), start = NULL,
                        noise_floor = 1e-6, priors = NULL) {
  estimate <- check_choice(estimate, c("map", "ml"))
  X <- check_matrix(X, min_rows = 2L)
  n <- nrow(X)
  d <- ncol(X)
  y <- check_vector(y)
  source <- check_sources(source, NULL)
  check_per_point(c(X = n, source = length(source), y = length(y)),
                  c("rows", "sources", "values"))
  check_y_spread(y)
  if (stats::sd(y) == 0) stop_arg("y", "non-constant", y, show = FALSE)
  # the hyperparameters number (d + 1) n_sources + 1: bounded
  if (any(source >= miso_max_sources)) {
    stop_arg("source", sprintf("labels in 0..%d (at most %d sources)",
                               miso_max_sources - 1L, miso_max_sources),
             source)
  }
  n_sources <- if (is.null(n_sources)) max(source) + 1L else
    check_count_max(n_sources, 1L, miso_max_sources, arg = "n_sources")
  if (any(source >= n_sources)) {
    stop_arg("source", sprintf("below `n_sources` = %d", n_sources), source)
  }
  bounds <- check_bounds(lower, upper, X)
  noise_floor <- check_number(noise_floor, min = 0, min_open = TRUE)
  priors <- check_priors(priors)
  if (!is.null(start)) start <- check_gp_object(start, arg = "start")
  if (!is.null(start) && !(identical(gp_variant(start), "miso") &&
                           start$d == d && start$n_sources == n_sources)) {
    stop_arg("start", sprintf(paste(
      "a gp_fit_miso() fit with as many sources (%d, `n_sources`) and",
      "inputs (%d, the columns of `X`)"), n_sources, d), start)
  }
  gp_fit_miso_run(X, source, y, n_sources, bounds, estimate, start,
                  noise_floor, priors)
}

# The fit of gp_fit_miso() from checked arguments: X a double matrix inside
# `bounds` (list(lower, upper)), `source` integer labels below `n_sources`
# (an integer), y a double vector of at least two different values,
# `start` NULL or a multi-source fit of the same inputs and sources,
# `estimate`, `noise_floor` and `priors` as gp_fit_miso() checks them. A
# problem with information sources refits through it (problem-miso.R).
gp_fit_miso_run <- function(X, source, y, n_sources, bounds, estimate, start,
                            noise_floor, priors) {
  n <- nrow(X)
  d <- ncol(X)
  range <- bounds$upper - bounds$lower
  Xs <- cbind(sweep(sweep(X, 2L, bounds$lower), 2L, range, "/"), source)
  dimnames(Xs) <- NULL
  ymean <- mean(y)
  ysd <- stats::sd(y)
  ys <- (y - ymean) / ysd

  nb <- n_sources - 1L
  theta0 <- c(rep(log(0.5), d), 0, rep(c(rep(log(0.5), d), log(0.1)), nb),
              log(max(1e-3, noise_floor)))
  lo <- c(rep(c(rep(log(1e-3), d), log(1e-4)), n_sources), log(noise_floor))
  up <- c(rep(c(rep(log(1e3), d), log(1e8)), n_sources), log(10))
  starts <- if (!is.null(start)) {
    list(miso_warm_theta(start, range, ysd))
  } else {
    iso <- theta0
    iso[miso_ell_index(d, n_sources)] <- log(0.2)
    list(theta0, iso)
  }
  obj <- function(th) miso_nlp(th, Xs, ys, d, n_sources, estimate == "map",
                               priors)$value
  best <- NULL
  for (th in starts) {
    th <- pmin(pmax(th, lo), up)
    o <- stats::optim(th, obj, method = "L-BFGS-B", lower = lo, upper = up,
                      control = list(maxit = 200L))
    if (is.null(best) || o$value < best$value) best <- o
  }
  ev <- miso_nlp(best$par, Xs, ys, d, n_sources, estimate == "map", priors)
  if (!is.finite(ev$value)) {
    stop_costbo("the multi-source covariance matrix could not be factored")
  }
  new_gp_object(list(
    kernel = "miso", kcode = 4L, d = d, n = n, n_sources = n_sources, X = X,
    source = source, y = y, Xs = Xs, ys = ys, lower = bounds$lower,
    upper = bounds$upper, ymean = ymean, ysd = ysd, theta = best$par,
    hyp = ev$hyp, fixed = rep(FALSE, length(best$par) + 1L), L = ev$L,
    beta = ev$beta, estimate = estimate, priors = priors,
    noise_floor = noise_floor, log_posterior = -best$value,
    nfun = best$counts[["function"]], convergence = best$convergence,
    fmean = double(), fcov = double()
  ), "miso")
}

# Positions of the lengthscales in theta = (log ell_0, log sf2_0, (log ell_s,
# log sf2_s) for s = 1.., log noise).
miso_ell_index <- function(d, n_sources) {
  as.vector(outer(seq_len(d), (d + 1L) * (seq_len(n_sources) - 1L), "+"))
}

# The hyp vector of CB_MISO (see src/gp.h) from theta, the mean and jitter.
miso_hyp <- function(theta, d, n_sources, mean = 0, jitter = 0) {
  p <- (d + 1L) * n_sources
  e <- exp(theta)
  c(e[seq_len(d)], 1, e[d + 1L], e[p + 1L], mean, jitter,
    if (n_sources > 1L) e[(d + 2L):p])
}

# Negative log posterior (MAP) or likelihood at theta with the mean profiled
# out; also returns the hyp, L and beta of the optimum mean.
miso_nlp <- function(theta, Xs, ys, d, n_sources, use_prior, priors) {
  bad <- list(value = 1e300)
  hyp <- miso_hyp(theta, d, n_sources)
  fac <- tryCatch(call_c(C_gp_factor, Xs, ys, 4L, hyp, double(), double()),
                  error = function(e) NULL)
  if (is.null(fac)) return(bad)
  n <- length(ys)
  v1 <- forwardsolve(fac$L, rep(1, n))
  mu <- sum(v1 * fac$beta) / sum(v1^2)
  r <- fac$beta - mu * v1
  lml <- -0.5 * sum(r^2) - sum(log(diag(fac$L))) - 0.5 * n * log(2 * pi)
  lp <- 0
  if (use_prior) {
    e <- exp(theta)
    p <- (d + 1L) * n_sources
    il <- miso_ell_index(d, n_sources)
    isf <- (d + 1L) * seq_len(n_sources)
    lp <- sum(stats::dgamma(e[il], priors$lengthscale[1L],
                            priors$lengthscale[2L], log = TRUE)) +
      sum(stats::dgamma(e[isf], priors$outputscale[1L],
                        priors$outputscale[2L], log = TRUE)) +
      stats::dgamma(e[p + 1L], priors$noise[1L], priors$noise[2L], log = TRUE)
  }
  hyp[d + 4L] <- mu
  hyp[d + 5L] <- fac$jitter
  list(value = -(lml + lp), hyp = hyp, L = fac$L, beta = r)
}

# theta of a previous fit on the scaling of a new one.
miso_warm_theta <- function(start, range, ysd) {
  d <- start$d
  th <- start$theta
  old_range <- start$upper - start$lower
  il <- miso_ell_index(d, start$n_sources)
  th[il] <- th[il] + log(old_range / range)
  isf <- (d + 1L) * seq_len(start$n_sources)
  p <- length(th)
  th[c(isf, p)] <- th[c(isf, p)] + 2 * log(start$ysd / ysd)
  th
}

#' @exportS3Method
gp_coef.costbo_gp_miso <- function(object) {
  d <- object$d
  S <- object$n_sources
  range <- object$upper - object$lower
  h <- object$hyp
  b <- if (S > 1L) matrix(h[-seq_len(d + 5L)], d + 1L, S - 1L) else
    matrix(0, d + 1L, 0L)
  bl <- t(b[seq_len(d), , drop = FALSE] * range)
  dimnames(bl) <- list(paste0("source", seq_len(S - 1L)), colnames(object$X))
  ls <- h[seq_len(d)] * range
  names(ls) <- colnames(object$X)
  list(lengthscale = ls, outputscale = h[d + 2L] * object$ysd^2,
       bias_lengthscale = bl, bias_outputscale = b[d + 1L, ] * object$ysd^2,
       noise = h[d + 3L] * object$ysd^2,
       mean = object$ymean + object$ysd * h[d + 4L])
}

#' @exportS3Method
gp_print.costbo_gp_miso <- function(x, digits) {
  cf <- coef(x)
  cat(sprintf("Multi-source Gaussian process, %d sources, %d input%s, %d observations (%s fit)\n",
              x$n_sources, x$d, if (x$d == 1L) "" else "s", x$n,
              toupper(x$estimate)))
  cat("  source 0 lengthscale: ", paste(format(cf$lengthscale, digits = digits),
                                        collapse = " "),
      "   outputscale: ", format(cf$outputscale, digits = digits), "\n",
      sep = "")
  for (s in seq_len(x$n_sources - 1L)) {
    cat(sprintf("  bias %d lengthscale: %s   outputscale: %s\n", s,
                paste(format(cf$bias_lengthscale[s, ], digits = digits),
                      collapse = " "),
                format(cf$bias_outputscale[s], digits = digits)))
  }
  cat(sprintf("  noise: %s   mean: %s\n", format(cf$noise, digits = digits),
              format(cf$mean, digits = digits)))
  invisible(x)
}

