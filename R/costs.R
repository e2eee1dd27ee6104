# Known cost functions: constants and the cost families of the papers'
# experiments.

# Cost functions the C core evaluates itself (src/acq.c, CB_COST_*): an R
# function of one point carrying attribute "costbo_cost" = list(kind, par,
# label), `par` the named parameters of its kind (cost_par()).
new_cost <- function(fun, kind, par, label) {
  structure(fun, costbo_cost = list(kind = kind, par = lapply(par, as.double),
                                    label = label),
            class = c("costbo_cost", "function"))
}

cost_constant <- function(value) {
  new_cost(function(x) value, "const", list(value = value),
           sprintf("constant %g", value))
}

#' Cost functions of the papers' experiments
#'
#' Known cost functions evaluated by costbo's C core (so acquisitions using
#' them are maximized entirely in C), with the formulas of the papers'
#' reference implementations.
#'
#' `cost_linear()` is \eqn{c(x) = a + b\,\bar u} with \eqn{\bar u} the mean
#' of the coordinates of \eqn{x} mapped to the unit cube; with the defaults
#' \eqn{a = 1, b = 20} this is \eqn{20 (0.05 + \bar u)}, costs in
#' \[1, 21\] (Xie et al. 2024).
#'
#' `cost_cosine()` is \eqn{\log c(x) = a \cdot \mathrm{mean}_i
#' \cos(2\pi b (x_i + c) / P)} on the problem's own input scale (Astudillo et
#' al. 2021, as in its code). With `seed` the coefficients are drawn as there:
#' \eqn{a \in [0.75, 1.5]}, \eqn{b \in [1, 3]}, \eqn{c \in [0, 2\pi]},
#' uniformly, from a generator seeded with `seed` modulo 20.
#'
#' @param lower,upper The problem's box: bounds of the same length (a single
#'   number is recycled to the other's length), each upper bound above its
#'   lower bound.
#' @param a,b Coefficients (see Details). `cost_linear()` needs a positive,
#'   finite cost on the box (\eqn{a > 0}, \eqn{a + b > 0} and finite);
#'   `cost_cosine()`'s \eqn{|a| \le 709}, so that \eqn{e^{\pm a}} is a
#'   positive double.
#' @param c Phase of `cost_cosine()`.
#' @param period The period divisor \eqn{P}; with `b` and `c` it must keep
#'   \eqn{2\pi b (x + c) / P} finite on the box.
#' @param seed For `cost_cosine()`: draw `a`, `b`, `c` from this seed instead
#'   (they are then left out).
#' @return A function of one point `x` returning its cost, of class
#'   `costbo_cost`.
#' @family problems
#' @examples
#' cl <- cost_linear(c(0, 0), c(1, 1))
#' cl(c(0, 0)); cl(c(1, 1))
#' cc <- cost_cosine(c(-5.12, -5.12), c(5.12, 5.12), period = 5.12, seed = 1)
#' cc(c(0, 0))
#' @export
cost_linear <- function(lower, upper, a = 1, b = 20) {
  box <- check_box(lower, upper)
  lower <- box$lower
  upper <- box$upper
  a <- check_number(a)
  b <- check_number(b)
  if (!is.finite(a + b)) {
    stop_args(c("a", "b"), "keep the largest cost a + b finite")
  }
  if (a <= 0 || a + b <= 0) {
    stop_args(c("a", "b"), sprintf(paste(
      "make the cost a + b * mean(u) positive on the box (a = %g and",
      "a + b = %g)"), a, a + b))
  }
  range <- upper - lower
  new_cost(function(x) a + b * mean((x - lower) / range), "linear",
           list(a = a, b = b), sprintf("linear %g + %g mean(u)", a, b))
}

# The largest |a| of cost_cosine(): log(.Machine$double.xmax), rounded down.
cosine_max_a <- 709

#' @rdname cost_linear
#' @export
cost_cosine <- function(lower, upper, a = 1, b = 2, c = 0, period = 1,
                        seed = NULL) {
  box <- check_box(lower, upper)
  lower <- box$lower
  upper <- box$upper
  period <- check_number(period, min = 0, min_open = TRUE)
  if (!is.null(seed)) {
    given <- base::c(a = !missing(a), b = !missing(b), c = !missing(c))
    if (any(given)) {
      stop_args(base::c(names(given)[given][1L], "seed"),
                "not be given together (`seed` draws `a`, `b` and `c`)")
    }
    seed <- check_count(seed)
    coef <- with_seed(seed %% 20L, stats::runif(3L))
    a <- 0.75 + 0.75 * coef[1L]
    b <- 1 + 2 * coef[2L]
    c <- 2 * pi * coef[3L]
  } else {
    # exp(a mean(cos(.))) is finite and positive for |a| <= log(DBL_MAX)
    a <- check_number(a, min = -cosine_max_a, max = cosine_max_a)
    b <- check_number(b)
    c <- check_number(c)
  }
  # the cosine's argument 2 pi b (x + c) / period is finite on the box
  if (!is.finite(2 * pi * abs(b) * max(abs(base::c(lower, upper) + c)) / period)) {
    stop_args(base::c("period", "b", "c"), paste(
      "keep 2 pi b (x + c) / period finite on the box [`lower`, `upper`]",
      "(it overflows the double range)"))
  }
  new_cost(function(x) exp(a * mean(cos(2 * pi * b * (x + c) / period))),
           "cosine", list(a = a, b = b, c = c, period = period,
                          offset = lower),
           sprintf("cosine a = %.3g, b = %.3g, c = %.3g, P = %g", a, b, c,
                   period))
}

# The parameters of a known cost of `kind` on d inputs, as C reads them (a
# costbo_cost_par object, unpack_cost_par() in src/acq.c), or NULL when
# they are not what the kind needs (an altered cost object). Costs saved by
# earlier versions hold them as one vector in the layout (a, b[, c, period],
# offset); they are read in that layout. A radial cost made before it had
# a radius has radius 0.
cost_par <- function(kind, par, d) {
  names_of <- switch(kind, const = "value", linear = c("a", "b"),
                     cosine = c("a", "b", "c", "period", "offset"),
                     radial = c("a", "b", "offset"), NULL)
  if (is.null(names_of)) return(NULL)
  if (is.numeric(par) && is.null(names(par))) {
    k <- length(names_of) - ("offset" %in% names_of)
    if (length(par) != k + if ("offset" %in% names_of) d else 0L) return(NULL)
    par <- c(as.list(par[seq_len(k)]),
             if ("offset" %in% names_of) list(offset = par[-seq_len(k)]))
    names(par) <- names_of
  }
  if (kind == "radial") {
    if (is.list(par) && is.null(par[["radius"]])) par[["radius"]] <- 0
    names_of <- c(names_of, "radius")
  }
  if (!is.list(par) || !identical(sort(names(par)), sort(names_of))) {
    return(NULL)
  }
  par <- par[names_of]
  len <- vapply(names_of, function(n) if (n == "offset") d else 1L, 1L)
  ok <- vapply(seq_along(par), function(i) {
    is.numeric(par[[i]]) && length(par[[i]]) == len[i] &&
      all(is.finite(par[[i]]))
  }, NA)
  if (!all(ok)) return(NULL)
  structure(lapply(par, as.double), class = "costbo_cost_par")
}

#' @export
print.costbo_cost <- function(x, ...) {
  cat("Cost function:", attr(x, "costbo_cost")$label, "\n")
  invisible(x)
}
