# Argument checks shared by every exported function. Each helper names the
# argument, says what was expected and shows what was given, and signals an
# error of class "costbo_error_arg" carrying the user's call.

stop_arg <- function(arg, must, x = NULL, call = sys.call(-1L), show = TRUE) {
  got <- if (show) sprintf(", not %s", describe_value(x)) else ""
  msg <- sprintf("`%s` must be %s%s.", arg, must, got)
  cond <- structure(
    class = c("costbo_error_arg", "costbo_error", "error", "condition"),
    list(message = msg, call = call)
  )
  stop(cond)
}

stop_costbo <- function(msg, call = sys.call(-1L)) {
  cond <- structure(
    class = c("costbo_error", "error", "condition"),
    list(message = msg, call = call)
  )
  stop(cond)
}

describe_value <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.function(x)) return("a function")
  if (is.matrix(x)) return(sprintf("a %d x %d %s matrix", nrow(x), ncol(x),
                                   typeof(x)))
  if (is.list(x)) return(sprintf("a list of length %d", length(x)))
  if (length(x) == 1L) {
    if (is.character(x)) return(sprintf("\"%s\"", x))
    return(format(x))
  }
  sprintf("a %s vector of length %d", typeof(x), length(x))
}

check_number <- function(x, min = -Inf, max = Inf, arg = deparse(substitute(x)),
                         call = sys.call(-1L), min_open = FALSE) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    (if (min_open) x > min else x >= min) && x <= max
  if (!ok) {
    rng <- if (is.finite(min) && is.finite(max)) {
      sprintf(" in [%g, %g]", min, max)
    } else if (is.finite(min)) {
      sprintf(" %s %g", if (min_open) ">" else ">=", min)
    } else if (is.finite(max)) sprintf(" <= %g", max) else ""
    stop_arg(arg, paste0("a single finite number", rng), x, call)
  }
  as.double(x)
}

check_count <- function(x, min = 0L, arg = deparse(substitute(x)),
                        call = sys.call(-1L)) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x == round(x) && x >= min && x <= .Machine$integer.max
  if (!ok) stop_arg(arg, sprintf("a single whole number >= %d", min), x, call)
  as.integer(x)
}

check_flag <- function(x, arg = deparse(substitute(x)), call = sys.call(-1L)) {
  if (!(is.logical(x) && length(x) == 1L && !is.na(x)))
    stop_arg(arg, "TRUE or FALSE", x, call)
  x
}

check_string <- function(x, arg = deparse(substitute(x)),
                         call = sys.call(-1L)) {
  if (!(is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x)))
    stop_arg(arg, "a single non-empty string", x, call)
  x
}

check_choice <- function(x, choices, arg = deparse(substitute(x)),
                         call = sys.call(-1L)) {
  if (!(is.character(x) && length(x) >= 1L)) {
    stop_arg(arg, sprintf("one of %s", paste0("\"", choices, "\"",
                                               collapse = ", ")), x, call)
  }
  if (identical(x, choices)) return(choices[1L])
  if (length(x) != 1L || is.na(x) || !(x %in% choices)) {
    stop_arg(arg, sprintf("one of %s", paste0("\"", choices, "\"",
                                               collapse = ", ")), x, call)
  }
  x
}

check_positive_vector <- function(x, len, arg = deparse(substitute(x)),
                                  call = sys.call(-1L)) {
  ok <- is.numeric(x) && length(x) %in% c(1L, len) && !anyNA(x) &&
    all(is.finite(x)) && all(x > 0)
  if (!ok) {
    stop_arg(arg, sprintf("positive finite numbers (1 or %d of them)", len),
             x, call)
  }
  rep_len(as.double(x), len)
}

# A numeric matrix with finite entries; a vector becomes a one-row matrix when
# `d` is known, else a one-column matrix.
check_matrix <- function(x, d = NULL, arg = deparse(substitute(x)),
                         call = sys.call(-1L), min_rows = 1L) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (is.numeric(x) && is.null(dim(x))) {
    if (!is.null(d) && length(x) %% d != 0L) {
      stop_arg(arg, sprintf("a matrix with %d columns (or a vector of a multiple of %d values)",
                            d, d), x, call)
    }
    x <- if (!is.null(d) && d > 1L) matrix(x, ncol = d, byrow = TRUE)
    else matrix(x, ncol = if (is.null(d)) 1L else d)
  }
  if (!(is.numeric(x) && is.matrix(x)))
    stop_arg(arg, "a numeric matrix", x, call)
  if (nrow(x) < min_rows)
    stop_arg(arg, sprintf("a matrix with at least %d row%s", min_rows,
                          if (min_rows == 1L) "" else "s"), x, call)
  if (!is.null(d) && ncol(x) != d)
    stop_arg(arg, sprintf("a matrix with %d column%s", d,
                          if (d == 1L) "" else "s"), x, call)
  if (anyNA(x) || !all(is.finite(x)))
    stop_arg(arg, "free of NA, NaN and infinite values", x, call,
             show = FALSE)
  if (as.double(nrow(x)) * ncol(x) > .Machine$integer.max)
    stop_arg(arg, "small enough for 32-bit BLAS indexing", x, call)
  storage.mode(x) <- "double"
  x
}

check_vector <- function(x, n = NULL, arg = deparse(substitute(x)),
                         call = sys.call(-1L)) {
  if (!(is.numeric(x) && is.null(dim(x)) || is.numeric(x) &&
        length(dim(x)) == 2L && min(dim(x)) == 1L))
    stop_arg(arg, "a numeric vector", x, call)
  x <- as.double(x)
  if (!is.null(n) && length(x) != n)
    stop_arg(arg, sprintf("of length %d", n), x, call)
  if (anyNA(x) || !all(is.finite(x)))
    stop_arg(arg, "free of NA, NaN and infinite values", x, call,
             show = FALSE)
  x
}

# Signal that argument `arg` cannot serve: the costbo error `cond` that the
# code using it raised (e.g. gp_fit() on a `model` setting) is re-signalled
# as a costbo_error_arg naming `arg`, with the user's call.
stop_arg_cause <- function(arg, cond, call = sys.call(-1L)) {
  msg <- sprintf("`%s` cannot be used for this run: %s", arg,
                 conditionMessage(cond))
  stop(structure(
    class = c("costbo_error_arg", "costbo_error", "error", "condition"),
    list(message = msg, call = call, parent = cond)))
}

# A whole number in [min, max]: the size arguments of the exported API,
# each with a documented cap (issue 16, bounded work). `arg` is given by
# every caller.
check_count_max <- function(x, min = 0L, max, arg, call = sys.call(-1L)) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x == round(x) && x >= min && x <= max
  if (!ok) {
    stop_arg(arg, sprintf("a single whole number in [%d, %s]", min,
                          format(max, scientific = FALSE, big.mark = "")),
             x, call)
  }
  as.integer(x)
}
