# Quasi-Monte Carlo: Sobol points, their normal transform, Gauss-Hermite
# rules. The numerical work is in src/qmc.c.

#' Sobol points
#'
#' The first `n` points (after `skip`) of the `d`-dimensional Sobol sequence,
#' optionally scrambled.
#'
#' The direction numbers are those of Joe and Kuo (2008), table
#' `new-joe-kuo-6.21201`, so `d` can be at most 21201; the first coordinate is
#' the van der Corput sequence. Points are generated in Gray-code order with
#' 32-bit integer arithmetic, as `scipy.stats.qmc.Sobol`: the unscrambled
#' sequence starts at the origin, then `(1/2, ..., 1/2)`, then
#' `(3/4, 1/4, ...)`, and every coordinate is a multiple of \eqn{2^{-32}}.
#'
#' Scrambling applies a random lower-triangular binary matrix (unit diagonal)
#' to the direction numbers of each coordinate and then a random digital
#' shift (an exclusive or with a random 32-bit word), like
#' `scipy.stats.qmc.Sobol(scramble = TRUE)`. It keeps the stratification of
#' the sequence: for every \eqn{k}, each coordinate of the first \eqn{2^k}
#' points has exactly one point in each interval
#' \eqn{[j 2^{-k}, (j + 1) 2^{-k})}, while each point is uniform on the cube.
#' Prefer `n` a power of 2.
#'
#' The random bits come from R's random number generator, so [set.seed()]
#' reproduces the points exactly. Coordinate by coordinate, 33 words of 32
#' bits are drawn: the 32 rows of the matrix (from the most significant bit;
#' only the bits above the diagonal are used) and then the shift. Each word
#' takes two uniform draws \eqn{u_1, u_2} and is
#' \eqn{65536 \lfloor 65536 u_1 \rfloor + \lfloor 65536 u_2 \rfloor}, so a
#' call consumes exactly `66 * d` uniform draws (none when
#' `scramble = FALSE`).
#'
#' @param n Number of points, a whole number \eqn{\ge 0}.
#' @param d Dimension, a whole number in \eqn{[1, 21201]}.
#' @param scramble `TRUE` (the default) for a randomly scrambled sequence,
#'   `FALSE` for the plain Sobol sequence.
#' @param skip Number of initial points of the sequence to leave out, a whole
#'   number \eqn{\ge 0}; `n + skip` may not exceed `.Machine$integer.max`.
#' @return An `n` x `d` numeric matrix with entries in \eqn{[0, 1)}; row
#'   \eqn{i} is point `skip + i - 1` of the sequence (counting from 0).
#' @references Joe, S. and Kuo, F. Y. (2008). Constructing Sobol sequences
#'   with better two-dimensional projections. *SIAM Journal on Scientific
#'   Computing*, 30(5), 2635--2654.
#'
#'   Owen, A. B. (2003). Variance with alternative scramblings of digital
#'   nets. *ACM Transactions on Modeling and Computer Simulation*, 13(4),
#'   363--378.
#' @family qmc
#' @examples
#' sobol_points(8, 2, scramble = FALSE)
#' set.seed(1)
#' x <- sobol_points(256, 3)
#' colMeans(x)
#' @export
sobol_points <- function(n, d, scramble = TRUE, skip = 0) {
  sobol_checked(n, d, scramble, skip, normal = FALSE, call = sys.call())
}

# Validate the arguments shared by sobol_points() and sobol_normal(), then
# generate.
sobol_checked <- function(n, d, scramble, skip, normal, call) {
  d <- check_sobol_dim(d, call = call)
  n <- check_count_cells(n, d, min = 0L, arg = "n", call = call)
  scramble <- check_flag(scramble, call = call)
  skip <- check_sobol_skip(skip, n, call = call)
  sobol_run(n, d, scramble, skip, normal = normal)
}

#' Standard normal quasi-Monte Carlo draws
#'
#' Sobol points ([sobol_points()]) mapped coordinate by coordinate to the
#' standard normal distribution, for quasi-Monte Carlo estimates of
#' expectations over \eqn{N(0, I_d)}.
#'
#' A Sobol coordinate is a multiple \eqn{x 2^{-32}} of \eqn{2^{-32}}; it is
#' mapped to [qnorm()] of the midpoint of its cell, \eqn{(x + 1/2) 2^{-32}},
#' so no draw is infinite (all lie within \eqn{\pm 6.4}). Randomness is drawn
#' exactly as in [sobol_points()].
#'
#' @inheritParams sobol_points
#' @return An `n` x `d` numeric matrix of standard normal draws.
#' @family qmc
#' @examples
#' set.seed(1)
#' z <- sobol_normal(1024, 2)
#' colMeans(z)
#' mean(pmax(z[, 1], 0)) # E max(Z, 0) = 1 / sqrt(2 pi) = 0.3989
#' @export
sobol_normal <- function(n, d, scramble = TRUE, skip = 0) {
  sobol_checked(n, d, scramble, skip, normal = TRUE, call = sys.call())
}

#' Gauss-Hermite quadrature
#'
#' Nodes and weights of the `n`-point Gauss-Hermite rule. With the default
#' `convention = "probabilists"`, \eqn{\sum_i w_i g(x_i)} approximates
#' \eqn{E[g(Z)]} for \eqn{Z \sim N(0, 1)} and the weights sum to 1; with
#' `"physicists"` it approximates \eqn{\int e^{-x^2} g(x) dx} and the weights
#' sum to \eqn{\sqrt\pi}. The rule is exact when \eqn{g} is a polynomial of
#' degree at most \eqn{2n - 1}.
#'
#' The nodes are the roots of the Hermite polynomial of degree `n`: each is
#' bracketed by bisection on the Sturm sequence of the Jacobi matrix and then
#' polished by Newton's method on the three-term recurrence of the
#' orthonormal Hermite polynomials (rescaled against overflow), which also
#' gives the weights. Nodes and weights are accurate to about \eqn{10^{-14}}
#' relative to their size. Weights of the outermost nodes of large rules fall
#' below the smallest double and are returned as 0.
#'
#' @param n Number of nodes, a whole number in \eqn{[1, 1000]}.
#' @param convention `"probabilists"` (weight function the standard normal
#'   density) or `"physicists"` (weight function \eqn{e^{-x^2}}).
#' @return A list with numeric vectors `nodes` (ascending, symmetric about 0)
#'   and `weights`, each of length `n`.
#' @family qmc
#' @examples
#' gh <- gauss_hermite(10)
#' sum(gh$weights * cos(gh$nodes)) # E cos(Z) = exp(-1/2) = 0.6065307
#' sum(gh$weights * gh$nodes^4)    # E Z^4 = 3
#' @export
gauss_hermite <- function(n, convention = c("probabilists", "physicists")) {
  n <- check_count(n, min = 1L)
  if (n > 1000L) stop_arg("n", "a single whole number in [1, 1000]", n)
  convention <- check_choice(convention, c("probabilists", "physicists"))
  call_c(C_qmc_gauss_hermite, n, identical(convention, "physicists"))
}

# Internals -----------------------------------------------------------------

sobol_max_dim <- function() call_c(C_qmc_sobol_max_dim)

# Scrambled Sobol points (with normal = TRUE their standard normal images)
# for internal callers whose n and d were checked where they entered: the
# draws of sobol_points(n, d) and sobol_normal(n, d), without checking again
# (C refuses sizes outside its tables with an error).
sobol_unit <- function(n, d, normal = FALSE) {
  call_c(C_qmc_sobol, as.integer(n), as.integer(d), 0L, TRUE, normal)
}

# Trusts its arguments; C draws the scramble from R's RNG when asked.
sobol_run <- function(n, d, scramble, skip, normal) {
  call_c(C_qmc_sobol, n, d, skip, if (scramble) TRUE, normal)
}

check_sobol_dim <- function(d, arg = deparse(substitute(d)),
                            call = sys.call(-1L)) {
  force(arg)
  d <- check_count(d, min = 1L, arg = arg, call = call)
  dmax <- sobol_max_dim()
  if (d > dmax) {
    stop_arg(arg, sprintf("a single whole number in [1, %d]", dmax), d, call)
  }
  d
}

check_sobol_skip <- function(skip, n, arg = deparse(substitute(skip)),
                             call = sys.call(-1L)) {
  force(arg)
  skip <- check_count(skip, arg = arg, call = call)
  if (as.double(skip) + n > .Machine$integer.max) {
    stop_arg(arg, sprintf("a whole number with `n` + `%s` <= %d", arg,
                          .Machine$integer.max), skip, call)
  }
  skip
}
