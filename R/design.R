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
#' cell, its centre by Badoiu and Clarkson's iteration, polished by
#' Nelder-Mead in the last sweeps), until the design stops moving (at most
#' 30 sweeps); the best of `restarts` random starts is kept.
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
#' Badoiu, M. and Clarkson, K. L. (2003). Smaller core-sets for balls.
#' *Proceedings of SODA*, 801--802.
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
  n_ref <- check_count_max(n_ref, min = n, max = 100000L, arg = "n_ref",
                           call = call)
  restarts <- check_count_max(restarts, min = 1L, max = 100L,
                              arg = "restarts", call = call)
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
  best <- NULL
  for (r in seq_len(restarts)) {
    X <- minimax_relocate(ref, minimax_start(ref, n))
    if (is.null(best) || attr(X, "fill_distance") <
        attr(best, "fill_distance")) {
      best <- X
    }
  }
  best
}

# Squared distances from the rows of A (m x d) to those of B (n x d).
sq_dist <- function(A, B) {
  D <- outer(rowSums(A^2), rowSums(B^2), "+") - 2 * tcrossprod(A, B)
  D[D < 0] <- 0
  D
}

# A farthest-point start: a random reference point, then repeatedly the
# reference point farthest from the points chosen.
minimax_start <- function(ref, n) {
  X <- ref[sample.int(nrow(ref), 1L), , drop = FALSE]
  near <- sq_dist(ref, X)[, 1L]
  while (nrow(X) < n) {
    i <- which.max(near)
    X <- rbind(X, ref[i, ])
    near <- pmin(near, sq_dist(ref, ref[i, , drop = FALSE])[, 1L])
  }
  X
}

# The relocation algorithm: each design point to the centre of the
# smallest ball of its Voronoi cell in the reference set, until the design
# stops moving (at most `maxit` sweeps, the last three polished); the best
# design seen, with its fill distance.
minimax_relocate <- function(ref, X, maxit = 30L) {
  fill <- function(X) sqrt(max(apply(sq_dist(ref, X), 1L, min)))
  sweep_once <- function(X, polish) {
    cell <- max.col(-sq_dist(ref, X), ties.method = "first")
    for (j in seq_len(nrow(X))) {
      P <- ref[cell == j, , drop = FALSE]
      if (nrow(P)) X[j, ] <- ball_centre(P, X[j, ], polish)
    }
    X
  }
  best <- X
  fb <- fill(X)
  for (it in seq_len(maxit)) {
    old <- X
    # the last sweeps polish the centres
    X <- sweep_once(X, polish = it > maxit - 3L)
    f <- fill(X)
    if (f < fb) {
      best <- X
      fb <- f
    }
    if (max(abs(X - old)) < 1e-6) break
  }
  structure(best, fill_distance = fb)
}

# The centre of the smallest ball holding the rows of P, from c: Badoiu
# and Clarkson's iteration c <- c + (p - c) / (k + 1), p the point of P
# farthest from c (within a factor 1 + 1/sqrt(k) of the radius), with
# `polish` refined by Nelder-Mead on the largest distance (a convex
# function of c).
ball_centre <- function(P, c, polish = TRUE, iterations = 200L) {
  for (k in seq_len(iterations)) {
    far <- which.max(colSums((t(P) - c)^2))
    c <- c + (P[far, ] - c) / (k + 1)
  }
  if (!polish || nrow(P) < 2L) return(c)
  radius <- function(c) max(colSums((t(P) - c)^2))
  if (length(c) == 1L) {
    return(stats::optimize(radius, range(P))$minimum)
  }
  stats::optim(c, radius, control = list(reltol = 1e-12,
                                         maxit = 200L * length(c)))$par
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
