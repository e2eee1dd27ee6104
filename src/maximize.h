/* maximize.h -- the pure-C face of the acquisition maximizer.
 *
 * Maximizes a smooth objective with an analytic gradient over a box by the
 * protocol of the reference implementations: score n_raw space-filling raw
 * points, select n_starts of them (Boltzmann-weighted sampling or the best
 * ones), run L-BFGS-B (R's lbfgsb) from each, and return the best point.
 * Finite candidate sets get an exact argmax.  Ties are broken
 * deterministically: the lowest raw-point, start or candidate index wins.
 */
#ifndef COSTBO_MAXIMIZE_H
#define COSTBO_MAXIMIZE_H

#include "costbo.h"

/* Objective: value at x (length d); when grad != NULL also its gradient.
 * A non-finite value counts as -Inf. */
typedef double (*cb_objfn)(int d, const double *x, double *grad, void *ctx);

enum { CB_SELECT_BOLTZMANN = 0, CB_SELECT_BEST = 1 };

typedef struct cb_max_control_s {
  int n_starts; /* number of L-BFGS-B runs */
  int select;   /* CB_SELECT_BOLTZMANN or CB_SELECT_BEST */
  double eta;   /* Boltzmann temperature on standardized raw values */
  int maxit;    /* L-BFGS-B iterations per run */
  double factr; /* L-BFGS-B relative reduction tolerance (in machine eps) */
  double pgtol; /* L-BFGS-B projected-gradient tolerance */
  int lmm;      /* L-BFGS-B memory (number of correction pairs) */
  /* Optional (NULL: none): a hook for an objective whose gradient is
   * cheaper when approximate.  Each start calls grad_phase(hook, 0), runs
   * L-BFGS-B (the climb), then calls grad_phase(hook, 1); when that
   * returns 1 (approximate gradients were given), L-BFGS-B runs again from
   * where the climb ended (the polish), with the objective's exact
   * gradients.  The only hook is rcall_grad_phase() (rcall.h), set by
   * acq_max_control() (acq.h). */
  int (*grad_phase)(void *hook, int phase);
  void *hook;
} cb_max_control;

/* Fill ctl with the defaults: 10 d starts, Boltzmann selection with eta = 1,
 * 200 iterations, factr 1e7, pgtol 0, memory 5 (those of the R constructor
 * max_control(), for C callers that maximize inner acquisitions), no
 * gradient hook. */
void max_control_default(cb_max_control *ctl, int d);

/* Maximize f over [lower, upper] (length d).  raw: n_raw x d points in the
 * unit cube (column-major), mapped onto the box; unif: n_raw uniforms on
 * (0, 1) for the Boltzmann sampling (one per raw point).  Writes the maximizer to xbest and
 * returns the maximum; raw_best (may be NULL) receives the best raw value.
 * Checks for user interrupts once per start and objective call. */
double max_box(cb_objfn f, void *ctx, int d, const double *lower,
               const double *upper, int n_raw, const double *raw,
               const double *unif, const cb_max_control *ctl, double *xbest,
               double *raw_best);

/* max_box with its random inputs drawn here: n_raw scrambled Sobol points
 * (qmc.h) and n_raw selection uniforms, in that order, from R's RNG; the
 * caller brackets the call with GetRNGstate()/PutRNGstate().  This is the
 * entry for the acquisition maximizer and for C modules (lookahead
 * policies) that maximize inner acquisitions; raw_best as in max_box. */
double max_box_sobol(cb_objfn f, void *ctx, int d, const double *lower,
                     const double *upper, int n_raw,
                     const cb_max_control *ctl, double *xbest,
                     double *raw_best);

/* Exact argmax of f over m candidates (m x d, column-major); vals (may be
 * NULL) receives every value.  Returns the 0-based index of the first
 * maximal candidate. */
int max_finite(cb_objfn f, void *ctx, int d, int m, const double *cand,
               double *vals);

#endif
