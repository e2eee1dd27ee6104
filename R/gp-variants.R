# The variants of a fitted GP (continuous, finite-domain, multi-source) as
# classes of costbo_gp: one table of what each can do, their constructors,
# the checks of a fit before C reads it, and the packing for C.
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
# saved states read by upgrade_state().

gp_kernels <- c("matern52", "matern32", "se")

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
    stop(costbo_condition("costbo_error", sprintf(
      "internal error: unknown GP capability %s", describe_value(what))))
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
  stop(costbo_condition(c("costbo_error_capability", "costbo_error_arg",
                          "costbo_error"),
                        sprintf("`%s` must be %s%s.",
                                paste(arg, collapse = " "), must, got),
                        user_call(call), arg = arg, value = value,
                        capability = what, variant = gp_variant(model)))
}

# Kernel names with the smoothness nu of their spectral density (Inf: the
# squared exponential), for random Fourier features.
gp_kernel_nu <- c(matern52 = 2.5, matern32 = 1.5, se = Inf)

# The constructor of the three variants (`variant`: a name of
# gp_variant_table); it trusts its input, which the fitting functions have
# built, and adds log N(y; m, K) of the standardized data from the Cholesky
# factor L of K and beta = L^{-1} (y - m).
new_gp_object <- function(x, variant) {
  n <- length(x$beta)
  x$loglik_std <- if (n == 0L) 0 else
    -0.5 * sum(x$beta^2) - sum(log(diag(x$L))) - 0.5 * n * log(2 * pi)
  structure(x, class = c(gp_variant_table[[variant]]$class, "costbo_gp"))
}

# The GP in the fixed positional layout the C entry points read (see
# gp_unpack() in src/gp.c): list(X, y, L, beta, kernel, hyp, fmean, fcov),
# all on the internal scale and of the storage types C expects.
#
# The fit must have been checked (check_gp_object()) where it entered: by
# the exported function it was given to, or made by costbo itself (a
# state's models). Every element C indexes by is checked there, so that a
# fit restored from an edited file or altered by hand gives an error naming
# the argument and the field instead of a crash; the pack trusts it.
gp_pack <- function(object) {
  structure(list(X = object$Xs, y = object$ys, L = object$L,
                 beta = object$beta, kcode = as.integer(object$kcode),
                 hyp = as.double(object$hyp),
                 fmean = as.double(object$fmean),
                 fcov = as.double(object$fcov),
                 transform = gp_transform(object)),
            class = "costbo_gp_pack")
}

# The input transform of a fit (its space's, or the identity).
gp_transform <- function(object) {
  if (is.null(object$space)) no_transform else object$space$transform
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
  if (!is.null(object$space)) {
    sp <- object$space
    tf <- sp$transform
    if (!(inherits(sp, "bo_space") && identical(gp_inputs(object), "box") &&
          is_count(sp$d) && sp$d == d && inherits(tf, "costbo_transform") &&
          is.integer(tf$kind) && length(tf$kind) == d &&
          all(tf$kind %in% 0:4) && is.double(tf$a) && length(tf$a) == d &&
          is.double(tf$b) && length(tf$b) == d)) {
      bad("space", sprintf("NULL or a bo_space of %d encoded columns", d))
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
  if (!is.null(object$space)) {
    return(space_inputs(object$space, newdata, arg, call))
  }
  Xn <- check_matrix(newdata, d = object$d, arg = arg, call = call)
  sweep(sweep(Xn, 2L, object$lower), 2L, object$upper - object$lower, "/")
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

