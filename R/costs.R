# Known cost functions: constants and the cost families of the papers'
# experiments.

# Cost functions the C core evaluates itself (src/acq.c, CB_COST_*): an R
# function of one point carrying attribute "costbo_cost" = list(kind, par,
# label). `par` is in the layout acq_at() reads.
new_cost <- function(fun, kind, par, label) {
  structure(fun, costbo_cost = list(kind = kind, par = as.double(par),
                                    label = label),
            class = c("costbo_cost", "function"))
}

cost_constant <- function(value) {
  new_cost(function(x) value, "const", value, sprintf("constant %g", value))
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
#' @param lower,upper The problem's box.
#' @param a,b Coefficients (see Details).
#' @param c Phase of `cost_cosine()`.
#' @param period The period divisor \eqn{P}.
#' @param seed For `cost_cosine()`: draw `a`, `b`, `c` from this seed instead.
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
  d <- length(lower)
  lower <- check_vector(lower)
  upper <- check_vector(upper, d)
  if (any(upper <= lower)) {
    stop_arg("upper", "greater than `lower` in every coordinate", upper)
  }
  a <- check_number(a)
  b <- check_number(b)
  if (a <= 0 || a + b <= 0) {
    stop_arg("a", "such that the cost a + b * mean(u) is positive on the box",
             a)
  }
  range <- upper - lower
  new_cost(function(x) a + b * mean((x - lower) / range), "linear", c(a, b),
           sprintf("linear %g + %g mean(u)", a, b))
}

#' @rdname cost_linear
#' @export
cost_cosine <- function(lower, upper, a = 1, b = 2, c = 0, period = 1,
                        seed = NULL) {
  d <- length(lower)
  lower <- check_vector(lower)
  upper <- check_vector(upper, d)
  if (any(upper <= lower)) {
    stop_arg("upper", "greater than `lower` in every coordinate", upper)
  }
  period <- check_number(period, min = 0, min_open = TRUE)
  if (!is.null(seed)) {
    seed <- check_count(seed)
    coef <- with_seed(seed %% 20L, stats::runif(3L))
    a <- 0.75 + 0.75 * coef[1L]
    b <- 1 + 2 * coef[2L]
    c <- 2 * pi * coef[3L]
  } else {
    a <- check_number(a)
    b <- check_number(b)
    c <- check_number(c)
  }
  new_cost(function(x) exp(a * mean(cos(2 * pi * b * (x + c) / period))),
           "cosine", c(a, b, c, period, lower),
           sprintf("cosine a = %.3g, b = %.3g, c = %.3g, P = %g", a, b, c,
                   period))
}

#' @export
print.costbo_cost <- function(x, ...) {
  cat("Cost function:", attr(x, "costbo_cost")$label, "\n")
  invisible(x)
}
