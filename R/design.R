# Space-filling initial designs beyond the Sobol points of qmc.R: the
# minimax (fill-distance) design of Johnson, Moore and Ylvisaker (1990),
# which paper 004 uses for its initial data (Sec. 4, 5.4).

#' Minimax (fill-distance) design
#'
#' `n` points in the unit cube \eqn{[0, 1]^d} that make the fill distance
#' small: the largest distance from a point of the cube to its nearest
#' design point, \eqn{\max_{x} \min_i \|x - x_i\|}. A design minimizing it is
#' a minimax distance design (Johnson, Moore and Ylvisaker 1990); Yue and
#' Kontar (2020) start their rolling-horizon rollout from one, since the
#' error bound of their horizon rule shrinks with the fill distance.
#'
#' The fill distance is measured on a reference set of the cube (`n_ref`
#' scrambled Sobol points, with a regular grid of 1025, \eqn{33^2} or
#' \eqn{17^3} points for \eqn{d \le 3} and the \eqn{2^d} corners for
#' \eqn{d \le 10}), and
#' minimized by the relocation algorithm of minimax designs: from a
#' farthest-point start, each design point moves to the centre of the
#' smallest ball holding the reference points nearest to it (its Voronoi
#' cell; the centre by the Frank-Wolfe algorithm with away steps of Yildirim
#' (2008), to a radius within 0.1% of the smallest), until the cells repeat
#' or five sweeps in a row have not reduced the fill distance by 0.1% (at
#' most 30 sweeps); the best of `restarts` random starts is kept. The
#' sweeps run in C; at the default sizes a design takes well under a second
#' up to \eqn{d = 10} and seconds at \eqn{d = 50}.
#' All randomness comes from R's generator, so `set.seed()` repeats a design
#' and different seeds give different designs of about the same fill
#' distance.
#'
#' @param n Number of points (at least 1, at most 1000).
#' @param d Dimension (at least 1, at most 50).
#' @param n_ref Size of the Sobol part of the reference set (at least `n`,
#'   at most 1e5).
#' @param restarts Number of random starts (at least 1, at most 100).
#' @return An `n` x `d` matrix with attribute `"fill_distance"`, the fill
#'   distance on the reference set.
#' @references
#' Johnson, M. E., Moore, L. M. and Ylvisaker, D. (1990). Minimax and
#' maximin distance designs. *Journal of Statistical Planning and
#' Inference*, 26, 131--148.
#'
#' Yildirim, E. A. (2008). Two algorithms for the minimum enclosing ball
#' problem. *SIAM Journal on Optimization*, 19(3), 1368--1391.
#' @seealso [sobol_points()]
#' @examples
#' set.seed(1)
#' X <- minimax_points(9, 2)
#' attr(X, "fill_distance")
#' # a Sobol design of the same size leaves larger holes
#' S <- sobol_points(9, 2)
#' ref <- sobol_points(4096, 2)
#' max(apply(ref, 1, function(r) min(sqrt(colSums((t(S) - r)^2)))))
#' @export
minimax_points <- function(n, d, n_ref = 1024L * d, restarts = 5L) {
  call <- sys.call()
  n <- check_count_max(n, min = 1L, max = 1000L, arg = "n", call = call)
  d <- check_count_max(d, min = 1L, max = 50L, arg = "d", call = call)
  n_ref <- check_count_max(n_ref, min = 1L, max = 100000L, arg = "n_ref",
                           call = call)
  if (n_ref < n) {
    stop_args(c("n_ref", "n"), sprintf(
      "match: the reference set is at least as large as the design (%d < %d)",
      n_ref, n), call = call)
  }
  restarts <- check_count_max(restarts, min = 1L, max = 100L,
                              arg = "restarts", call = call)
  ref <- minimax_reference(n_ref, d)
  starts <- sample.int(nrow(ref), restarts, replace = TRUE)
  res <- minimax_run(ref, n, starts)
  structure(res$x, fill_distance = res$fill)
}

# The reference set of minimax_points(): n_ref scrambled Sobol points, with
# a regular grid for d <= 3 and the corners for d <= 10.
minimax_reference <- function(n_ref, d) {
  ref <- sobol_points(n_ref, d)
  if (d <= 3L) {
    # in few dimensions also a regular grid (odd, so with the centre, the
    # midpoints of the faces and the corners, where fill distances of
    # symmetric designs are attained)
    k <- c(1025L, 33L, 17L)[d]
    grid <- as.matrix(expand.grid(rep(list(seq(0, 1, length.out = k)), d)))
    ref <- rbind(ref, unname(grid))
  } else if (d <= 10L) {
    corners <- as.matrix(expand.grid(rep(list(c(0, 1)), d)))
    ref <- rbind(ref, unname(corners))
  }
  ref
}

# The relocation algorithm in C (design.c): from a farthest-point start at
# each of the reference points `starts` (row numbers of `ref`), each design
# point moves to the centre of the smallest ball of its Voronoi cell in
# `ref` (within a factor 1 + tol of the smallest radius) until the cells
# repeat or `patience` sweeps in a row have not reduced the fill distance
# by about tol (at most `maxit` sweeps). Returns list(x, fill,
# fills, sweeps, steps): the best design seen and its fill distance on
# `ref`, and per start the best fill distance, the sweeps run and the
# Frank-Wolfe steps taken.
minimax_run <- function(ref, n, starts, maxit = 30L, patience = 5L,
                        tol = 1e-3) {
  storage.mode(ref) <- "double"
  .Call(C_design_minimax, ref, as.integer(n), as.integer(starts),
        as.integer(maxit), as.integer(patience), as.double(tol))
}

# The checked `design` of bo_optimize() and bo_benchmark(): "sobol" or
# "minimax", the latter for boxes (with or without information sources)
# only, when `problem` is given.
check_design <- function(design, problem = NULL, call = sys.call(-1L)) {
  design <- check_choice(design, c("sobol", "minimax"), arg = "design",
                         call = call)
  if (design == "minimax" && inherits(problem, c("bo_problem_finite",
                                                 "bo_problem_typed",
                                                 "bo_problem_cvs"))) {
    stop_arg("design", paste("\"sobol\" for problems with candidates,",
                             "control sets or a typed space"), design,
             call = call)
  }
  design
}
