/* design.h -- the pure-C face of the design module: minimax (fill-distance)
 * designs of the unit cube by the relocation algorithm of Johnson, Moore
 * and Ylvisaker (1990), measured on a finite reference set.
 *
 * The fill distance of a design X (n points) on a reference set R (N
 * points) is max_{r in R} min_j ||r - x_j||.  A relocation sweep assigns
 * every reference point to its nearest design point (the first on ties),
 * which cuts R into the Voronoi cells of the design, and moves every design
 * point with a non-empty cell to the centre of the smallest ball holding
 * its cell (points with an empty cell stay).  For fixed cells this cannot
 * increase the radius of any cell, and reassigning cannot increase any
 * distance, so the fill distance does not grow from sweep to sweep (up to
 * the tolerance of the ball centres); the sweeps stop when the cells
 * repeat, which is a fixed point of the relocation, when `patience` sweeps
 * in a row have not reduced the fill distance by about tol (its square by a
 * factor 1 - 2 tol; on a
 * finite reference set the later sweeps move interior cells and seldom
 * the largest one), or after maxit sweeps.
 *
 * The smallest enclosing ball of a cell is found by the Frank-Wolfe
 * algorithm with away steps of Yildirim (2008, Algorithm 2) on the dual
 * problem (weights u on the simplex, centre c = sum_i u_i p_i), which
 * converges linearly; it stops when the ball around c through the
 * farthest point has a radius within a factor 1 + tol of the dual lower
 * bound sqrt(sum_i u_i ||p_i - c||^2), so within 1 + tol of the smallest.
 *
 * Matrices are column-major: ref[i + k * N] is coordinate k of reference
 * point i, X[j + k * n] coordinate k of design point j. */
#ifndef COSTBO_DESIGN_MODULE_H
#define COSTBO_DESIGN_MODULE_H

#include "costbo.h"

/* Nearest design point of every reference point: near[i] in 0..n-1 (the
 * first on ties) and its squared distance dist[i].  Returns the largest
 * of the dist[i] (the squared fill distance of X on R). */
double design_assign(const double *ref, int N, int d, const double *X, int n,
                     int *near, double *dist);

/* The centre c (length d) of the smallest ball holding the m points P
 * (m x d), within a factor 1 + tol of the smallest radius, at most maxit
 * Frank-Wolfe steps.  On entry c is a start: the first support points are
 * the point of P farthest from it and the point farthest from that one.
 * Sets *r2 to the squared radius max_i ||p_i - c||^2 of the ball found and
 * returns the number of steps.  Scratch: dist and u of length m.  Requires
 * m >= 1. */
int design_ball_centre(const double *P, int m, int d, double tol, int maxit,
                       double *c, double *dist, double *u, double *r2);

/* A minimax design of n points on the reference set ref (N x d, N >= n):
 * for each of the `restarts` starts, a farthest-point start from reference
 * point starts[s] (0-based: then repeatedly the reference point farthest
 * from the points chosen, the first on ties) followed by at most maxit
 * relocation sweeps (stopped early as above);
 * the design of smallest fill distance seen (the first on ties) is written
 * to X (n x d), its fill distance (on ref) to *fill.  Per start, fills[s],
 * sweeps[s] and steps[s] are the best fill distance, the number of sweeps
 * run and of Frank-Wolfe steps taken (each may be NULL).
 * Scratch memory comes from R_alloc; checks for a user interrupt once per
 * sweep and per start point. */
void design_minimax(const double *ref, int N, int d, int n, const int *starts,
                    int restarts, int maxit, int patience, double tol,
                    double *X, double *fill, double *fills, int *sweeps,
                    double *steps);

#endif
