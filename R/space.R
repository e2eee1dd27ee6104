# Typed search spaces: numeric, integer and categorical parameters, their
# encoding on the unit cube and the kernel's input transform
# (src/transform.h).

#' Parameters of a typed search space
#'
#' The parameters of a [bo_space()]: a number in \[`lower`, `upper`\]
#' (`param_num()`), an integer in \[`lower`, `upper`\] (`param_int()`), or
#' one of a set of levels (`param_cat()`). With `log = TRUE` a numeric or
#' integer parameter is searched on a log scale (`lower` must then be
#' positive, and at least 1 for an integer).
#'
#' @param lower,upper The bounds (`lower < upper`; whole numbers for
#'   `param_int()`).
#' @param log Search on a log scale?
#' @param levels The levels of a categorical parameter: at least two
#'   distinct, non-empty strings.
#' @return An object of class `costbo_param`.
#' @family spaces
#' @examples
#' param_num(0.01, 1, log = TRUE)
#' param_int(1, 13)
#' param_cat(c("gini", "extratrees"))
#' @export
param_num <- function(lower, upper, log = FALSE) {
  new_param("num", lower, upper, log, call = sys.call())
}

#' @rdname param_num
#' @export
param_int <- function(lower, upper, log = FALSE) {
  new_param("int", lower, upper, log, call = sys.call())
}

#' @rdname param_num
#' @export
param_cat <- function(levels) {
  if (!is.character(levels) || length(levels) < 2L || anyNA(levels) ||
      any(!nzchar(levels)) || anyDuplicated(levels)) {
    stop_arg("levels", "at least two distinct, non-empty strings", levels)
  }
  structure(list(type = "cat", levels = as.vector(levels)),
            class = "costbo_param")
}

new_param <- function(type, lower, upper, log, call) {
  lower <- check_number(lower, call = call)
  upper <- check_number(upper, call = call)
  log <- check_flag(log, call = call)
  if (!(upper > lower)) {
    stop_arg("upper", sprintf("greater than `lower` (%g)", lower), upper,
             call = call)
  }
  if (type == "int") {
    if (lower != round(lower)) {
      stop_arg("lower", "a whole number", lower, call = call)
    }
    if (upper != round(upper)) {
      stop_arg("upper", "a whole number", upper, call = call)
    }
    for (b in c("lower", "upper")) {
      v <- get(b)
      if (abs(v) > 2^31 - 1) {
        stop_arg(b, "within the range of R's integers", v, call = call)
      }
    }
  }
  if (log && lower < if (type == "int") 1 else .Machine$double.xmin) {
    stop_arg("lower", sprintf("%s on a log scale",
                              if (type == "int") "at least 1" else
                                "positive"), lower, call = call)
  }
  structure(list(type = type, lower = lower, upper = upper, log = log),
            class = "costbo_param")
}

#' @export
format.costbo_param <- function(x, ...) {
  switch(x$type,
    cat = sprintf("categorical {%s}", paste(x$levels, collapse = ", ")),
    sprintf("%s in [%s, %s]%s",
            if (x$type == "num") "numeric" else "integer",
            format(x$lower), format(x$upper),
            if (x$log) ", log scale" else ""))
}

#' @export
print.costbo_param <- function(x, ...) {
  cat("Parameter:", format(x), "\n")
  invisible(x)
}

#' A typed search space
#'
#' The domain of a tuning problem with numeric, integer and categorical
#' parameters, for [bo_problem()]`(space = )` and [gp_fit()]`(space = )`.
#'
#' A space is searched on an encoding in the unit cube: one column per
#' numeric or integer parameter (on a log scale when asked) and one column
#' per level of a categorical parameter (one-hot). The Gaussian processes
#' see every input through the transform \eqn{T} of Garrido-Merchán and
#' Hernández-Lobato (2020), which maps a point of the cube to the encoding
#' of the typed point it stands for (an integer column to the centre of its
#' integer's cell, a categorical block to the one-hot vector of its largest
#' column): \eqn{k(u, u') = k_0(T(u), T(u'))}. The posterior is then
#' constant on the cell of each integer and each category, every
#' acquisition is a function of the typed point, and the maximizers, which
#' work on the cube, propose \eqn{T(u^*)}: always a valid typed point. The
#' integer cells have equal widths on the parameter's scale (linear, or
#' logarithmic with `log = TRUE`); each level of a categorical parameter
#' has its own lengthscale (the ARD lengthscales of its one-hot columns).
#'
#' `space_encode()` maps typed points to the cube, `space_decode()` maps
#' points of the cube to typed values (through \eqn{T}).
#'
#' @param ... Named parameters ([param_num()], [param_int()],
#'   [param_cat()]), or one list of them.
#' @return `bo_space()`: an object of class `bo_space`. `space_encode()`:
#'   a matrix with one row per point and one column per encoded coordinate.
#'   `space_decode()`: a data frame with one column per parameter (numeric,
#'   integer, or a factor with the parameter's levels).
#' @references
#' Garrido-Merchán, E. C. and Hernández-Lobato, D. (2020). Dealing with
#' categorical and integer-valued variables in Bayesian optimization with
#' Gaussian processes. *Neurocomputing* 380, 20--35.
#' @family spaces
#' @examples
#' sp <- bo_space(mtry = param_int(1, 13),
#'                sample_fraction = param_num(0.1, 1, log = TRUE),
#'                splitrule = param_cat(c("variance", "extratrees")))
#' sp
#' U <- space_encode(sp, data.frame(mtry = c(3, 7), sample_fraction = 0.5,
#'                                  splitrule = c("variance", "extratrees")))
#' U
#' space_decode(sp, U)
#' # any point of the cube stands for a typed point
#' space_decode(sp, matrix(c(0.5, 0.3, 0.2, 0.4), 1))
#' @export
bo_space <- function(...) {
  params <- list(...)
  if (length(params) == 1L && is.null(names(params)) &&
      is.list(params[[1L]]) && !inherits(params[[1L]], "costbo_param")) {
    params <- params[[1L]]
  }
  if (!length(params)) {
    stop_arg("...", "at least one parameter", NULL, show = FALSE)
  }
  nm <- names(params)
  if (is.null(nm) || anyNA(nm) || any(!nzchar(nm)) || anyDuplicated(nm) ||
      any(make.names(nm) != nm)) {
    stop_arg("...", "parameters with distinct syntactic names", nm,
             show = FALSE)
  }
  bad <- !vapply(params, inherits, NA, "costbo_param")
  if (any(bad)) {
    stop_arg(nm[which(bad)[1L]], "a parameter (param_num(), param_int() or param_cat())",
             params[[which(bad)[1L]]])
  }
  for (k in seq_along(params)) check_param(params[[k]], nm[k])
  new_space(params)
}

# A bo_space as bo_space() makes it, or an error naming `arg`: a changed
# or hand-built object (its parameters, or its encoding, which the C core
# reads) is refused.
check_space <- function(space, arg = "space", call = sys.call(-1L)) {
  must <- "a bo_space as bo_space() makes it"
  if (!inherits(space, "bo_space")) {
    stop_arg(arg, "a bo_space (see bo_space())", space, call = call)
  }
  if (!is.list(space$params) || !length(space$params)) {
    stop_arg(arg, paste(must, "(it has no parameters)"), show = FALSE,
             call = call)
  }
  again <- tryCatch(bo_space(space$params), costbo_error_arg = function(e) {
    stop_arg(arg, sprintf("%s (%s)", must, sub("[.]$", "",
                                               conditionMessage(e))),
             show = FALSE, call = call)
  })
  if (!identical(unclass(again), unclass(space))) {
    stop_arg(arg, paste(must, "(its fields were changed)"), show = FALSE,
             call = call)
  }
  space
}

# A parameter object as param_num(), param_int() or param_cat() make it
# (one changed since, or built by hand, is an error naming the parameter):
# its type, and its bounds and scale or levels as those functions check
# them.
check_param <- function(p, name, call = sys.call(-1L)) {
  must <- "a parameter made by param_num(), param_int() or param_cat()"
  type <- p$type
  if (!(is.character(type) && length(type) == 1L &&
        type %in% c("num", "int", "cat"))) {
    stop_arg(name, paste0(must, " (its `type` is not one of them)"),
             show = FALSE, call = call)
  }
  fields <- if (type == "cat") "levels" else c("lower", "upper", "log")
  again <- tryCatch(
    if (type == "cat") param_cat(p$levels) else
      new_param(type, p$lower, p$upper, p$log, call = call),
    costbo_error_arg = function(e) {
      stop_arg(name, sprintf("%s (its %s)", must,
                             sub("[.]$", "", conditionMessage(e))),
               show = FALSE, call = call)
    })
  if (!identical(unclass(p)[c("type", fields)], unclass(again)[c("type", fields)]) ||
      length(setdiff(names(p), c("type", fields))) > 0L) {
    stop_arg(name, paste0(must, " (its fields were changed)"), show = FALSE,
             call = call)
  }
  invisible(p)
}

# The space of the parameters `params` (checked): the columns of its
# encoding, the transform C reads (space_transform_pack()).
new_space <- function(params) {
  width <- vapply(params, function(p) {
    if (p$type == "cat") length(p$levels) else 1L
  }, 1L)
  first <- cumsum(c(1L, width))[seq_along(width)]
  d <- sum(width)
  kind <- integer(d)
  a <- b <- numeric(d)
  for (i in seq_along(params)) {
    p <- params[[i]]
    j <- first[i]
    if (p$type == "int") {
      kind[j] <- if (p$log) 2L else 1L
      a[j] <- p$lower
      b[j] <- p$upper
    } else if (p$type == "cat") {
      kind[j] <- 3L
      kind[j + seq_len(width[i] - 1L)] <- 4L
      b[j] <- width[i]
    }
  }
  cols <- unlist(lapply(seq_along(params), function(i) {
    if (params[[i]]$type == "cat") {
      paste0(names(params)[i], ".", params[[i]]$levels)
    } else names(params)[i]
  }))
  structure(list(params = params, d = d, first = first, width = width,
                 columns = cols,
                 transform = structure(list(kind = kind, a = a, b = b),
                                       class = "costbo_transform")),
            class = "bo_space")
}

#' @export
print.bo_space <- function(x, ...) {
  cat(sprintf("Search space of %d parameter%s (%d encoded column%s):\n",
              length(x$params), if (length(x$params) == 1L) "" else "s",
              x$d, if (x$d == 1L) "" else "s"))
  for (i in seq_along(x$params)) {
    cat(sprintf("  %s: %s\n", names(x$params)[i], format(x$params[[i]])))
  }
  invisible(x)
}

# Is any parameter integer or categorical?
space_discrete <- function(space) any(space$transform$kind != 0L)

# The identity transform (a GP without a space).
no_transform <- structure(list(kind = integer(), a = numeric(),
                               b = numeric()), class = "costbo_transform")

# T at the rows of U (a matrix of the space's d columns).
space_transform <- function(space, U) {
  storage.mode(U) <- "double"
  call_c(C_space_transform, space$transform, U)
}

#' @rdname bo_space
#' @param space A `bo_space`.
#' @param x Typed points: a data frame (or a named list) with one column
#'   (element) per parameter; categorical values as strings or factors.
#' @export
space_encode <- function(space, x) {
  check_space(space)
  space_encode_rows(space, x, "x", sys.call())
}

space_encode_rows <- function(space, x, arg, call) {
  if (is.list(x) && !is.data.frame(x)) {
    lens <- lengths(x)
    if (length(x) && any(lens != lens[1L])) {
      stop_arg(arg, "a data frame, or a named list of equally long values",
               x, call = call)
    }
    x <- as.data.frame(lapply(x, function(v) if (is.factor(v)) as.character(v) else v),
                       stringsAsFactors = FALSE)
  }
  if (!is.data.frame(x)) {
    stop_arg(arg, "a data frame or a named list of typed values", x,
             call = call)
  }
  nm <- names(space$params)
  miss <- setdiff(nm, names(x))
  if (length(miss)) {
    stop_arg(arg, sprintf("with a column for every parameter (missing: %s)",
                          paste(miss, collapse = ", ")), names(x),
             call = call)
  }
  n <- nrow(x)
  U <- matrix(0, n, space$d)
  for (i in seq_along(nm)) {
    p <- space$params[[i]]
    v <- x[[nm[i]]]
    j <- space$first[i]
    what <- sprintf("%s$%s", arg, nm[i])
    if (p$type == "cat") {
      v <- if (is.factor(v)) as.character(v) else v
      k <- match(v, p$levels)
      if (!is.character(v) || anyNA(k)) {
        stop_arg(what, sprintf("one of the levels %s",
                               paste0("\"", p$levels, "\"", collapse = ", ")),
                 v, call = call)
      }
      U[cbind(seq_len(n), j - 1L + k)] <- 1
      next
    }
    if (!is.numeric(v) || anyNA(v) || any(!is.finite(v)) ||
        any(v < p$lower) || any(v > p$upper)) {
      stop_arg(what, sprintf("numbers in [%s, %s]", format(p$lower),
                             format(p$upper)), v, call = call)
    }
    if (p$type == "int") {
      if (any(v != round(v))) stop_arg(what, "whole numbers", v, call = call)
      U[, j] <- if (p$log) {
        (log(v) - log(p$lower)) / (log(p$upper) - log(p$lower))
      } else ((v - p$lower) + 0.5) / (p$upper - p$lower + 1)
    } else {
      U[, j] <- if (p$log) {
        (log(v) - log(p$lower)) / (log(p$upper) - log(p$lower))
      } else (v - p$lower) / (p$upper - p$lower)
    }
  }
  # the encodings are fixed points of T (the same arithmetic); T makes sure
  space_transform(space, pmin(pmax(U, 0), 1))
}

# The inputs X of a GP on `space`, encoded and transformed: typed points (a
# data frame or a named list) are encoded, points of the unit cube (a
# matrix or a vector) are transformed.
space_inputs <- function(space, X, arg, call = sys.call(-1L)) {
  if (is.list(X)) return(space_encode_rows(space, X, arg, call))
  X <- check_matrix(X, d = space$d, arg = arg, call = call)
  if (any(X < -1e-10 | X > 1 + 1e-10)) {
    stop_arg(arg, paste("points of the space's encoding (in the unit cube),",
                        "or typed points in a data frame"), show = FALSE,
             call = call)
  }
  space_transform(space, pmin(pmax(X, 0), 1))
}

#' @rdname bo_space
#' @param U Points of the unit cube, one per row (`space$d` columns; a
#'   vector is one point).
#' @export
space_decode <- function(space, U) {
  check_space(space)
  if (is.numeric(U) && (if (is.matrix(U)) ncol(U) != space$d else
    length(U) %% space$d != 0L)) {
    stop_args(c("U", "space"), sprintf(paste(
      "match: `U` has %d columns, one per coordinate of the encoding of",
      "`space` (a vector of a multiple of %d values is rows of them)"),
      space$d, space$d))
  }
  U <- check_matrix(U, d = space$d, arg = "U")
  if (any(U < 0 | U > 1)) stop_arg("U", "in the unit cube", show = FALSE)
  space_decode_rows(space, U)
}

# Typed values of the rows of U (no checks): a named list of one vector per
# parameter (numbers, integers, strings for categories). Called once per
# point by a typed objective or known cost (the acquisitions' maximizers
# call a known cost at every point they try), so one row takes a short
# path (min()/max() and which.max(), the values of pmin()/pmax() and
# max.col(ties.method = "first") on one row).
space_values <- function(space, U) {
  U <- space_transform(space, matrix(U, ncol = space$d))
  one <- nrow(U) == 1L
  params <- space$params
  first <- space$first
  out <- vector("list", length(params))
  for (i in seq_along(params)) {
    p <- unclass(params[[i]])
    j <- first[i]
    out[[i]] <- if (p$type == "cat") {
      B <- U[, j - 1L + seq_along(p$levels), drop = FALSE]
      p$levels[if (one) which.max(B) else max.col(B, "first")]
    } else {
      lo <- p$lower
      up <- p$upper
      u <- U[, j]
      if (p$type == "num") {
        v <- if (p$log) {
          exp(log(lo) + u * (log(up) - log(lo)))
        } else lo + u * (up - lo)
        if (one) min(max(v, lo), up) else pmin(pmax(v, lo), up)
      } else {
        as.integer(if (p$log) {
          round(exp(log(lo) + u * (log(up) - log(lo))))
        } else lo + round(u * (up - lo + 1) - 0.5))
      }
    }
  }
  names(out) <- names(params)
  out
}

# Typed values of the rows of U (no checks): a data frame, categories as
# factors with the parameter's levels.
space_decode_rows <- function(space, U) {
  v <- space_values(space, U)
  for (i in seq_along(v)) {
    p <- space$params[[i]]
    if (p$type == "cat") v[[i]] <- factor(v[[i]], levels = p$levels)
  }
  as.data.frame(v, stringsAsFactors = FALSE)
}

# The typed point of one row u, as the objective and a cost receive it: a
# named list (numbers, integers, and strings for categories).
space_point <- function(space, u) space_values(space, u)
