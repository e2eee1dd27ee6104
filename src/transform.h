/* transform.h -- the input transform of typed search spaces.
 *
 * A typed space (R: bo_space()) is encoded on the unit cube, one column per
 * numeric or integer parameter and one per level of a categorical one
 * (one-hot).  Garrido-Merchan and Hernandez-Lobato (2020) model such inputs
 * by a GP whose kernel sees every input through a transform T that maps a
 * point of the cube to the encoding of the typed point it stands for:
 *   k(u, u') = k0(T(u), T(u')),
 * so that the posterior is constant on the cell of each integer and each
 * category, and a maximizer working on the cube proposes T(u*), a valid
 * typed point, whose acquisition is the one it maximized.  Per column:
 *
 *   CB_TF_NUM     u (a numeric parameter, on a linear or log scale);
 *   CB_TF_INT     an integer in [a, b] on a linear scale: the cube is cut
 *                 into k = b - a + 1 cells of equal width and T(u) is the
 *                 centre of the cell of u, (floor(u k) + 0.5) / k;
 *   CB_TF_INT_LOG an integer in [a, b], 1 <= a, on a log scale: the value
 *                 v = floor(exp(log a + u (log b - log a)) + 0.5) clamped to
 *                 [a, b] and T(u) = (log v - log a) / (log b - log a);
 *   CB_TF_CAT     the first column of a categorical parameter's block of
 *                 `b` columns (the others are CB_TF_LEVEL): T sets the
 *                 largest column of the block (the first on ties) to 1 and
 *                 the others to 0.
 *
 * T is idempotent, and piecewise constant in the integer and categorical
 * columns, so the x-gradient of anything computed through it is 0 there
 * (exactly, except on the cell boundaries, a set of measure 0); the GP
 * layer zeroes those entries (gp.c, the typed variant of the kernel
 * operations).  The R layer transforms and decodes points through
 * C_space_transform, so R and C cannot disagree on a cell. */
#ifndef COSTBO_TRANSFORM_H
#define COSTBO_TRANSFORM_H

#include "costbo.h"

enum {
  CB_TF_NUM = 0,
  CB_TF_INT = 1,
  CB_TF_INT_LOG = 2,
  CB_TF_CAT = 3,
  CB_TF_LEVEL = 4
};

typedef struct cb_transform_s {
  int d;             /* columns */
  const int *kind;   /* CB_TF_* per column */
  const double *a;   /* CB_TF_INT*: the lower bound; otherwise unused */
  const double *b;   /* CB_TF_INT*: the upper bound; CB_TF_CAT: the block's
                      * number of columns; otherwise unused */
  int discrete;      /* any column other than CB_TF_NUM? */
} cb_transform;

/* out (contiguous, length d) = T(x), x strided by ldx. */
void transform_apply(const cb_transform *t, const double *x, int ldx,
                     double *out);

/* Zero the entries of g (length d) of the columns where T is constant. */
void transform_zero_discrete(const cb_transform *t, double *g);

/* A costbo_transform object (R: the `transform` of a bo_space) of d columns
 * into the struct; `kind` of length 0 gives the identity (t->discrete = 0).
 * The kinds, bounds and block sizes are checked here (O(d)): C indexes by
 * them. */
void transform_unpack(cb_transform *t, SEXP pack, int d);

#endif
