/* cvs.h -- the pure-C face of Bayesian optimization with cost-varying
 * variable subsets (BOCVS, Tay et al. 2023).
 *
 * A control set fixes nc of the d inputs (the controlled coordinates ctrl);
 * the others are random.  The expected UCB of a control partial query xc is
 * the Monte Carlo average over S fixed samples z_s of the random inputs of
 * mu(x_s) + beta sd(x_s), x_s = [xc, z_s], for a GP posterior (gp.h) on the
 * unit cube.  The same samples serve every candidate (common random
 * numbers), so the average is a smooth function of xc whose gradient is the
 * average of the pointwise gradients in the controlled coordinates.
 */
#ifndef COSTBO_CVS_MODULE_H
#define COSTBO_CVS_MODULE_H

#include "gp.h"
#include "maximize.h"

/* Samples predicted together (gp_predict_at_many). */
#define CB_CVS_BLOCK 16

typedef struct {
  const cb_gp *gp;     /* GP posterior on the unit cube (continuous kernel) */
  const double *alpha; /* gp_alpha(gp) */
  int nc;              /* number of controlled coordinates (>= 1) */
  const int *ctrl;     /* their 0-based indices, length nc */
  int S;               /* number of samples of the random inputs */
  const double *Z;     /* S x d samples (column-major), unit scale; only the
                          columns of random coordinates are read */
  double beta;         /* UCB weight */
  double *x;           /* scratch: CB_CVS_BLOCK x d points */
  double *m, *v;       /* scratch: CB_CVS_BLOCK moments each */
  double *dm, *dv;     /* scratch: d x CB_CVS_BLOCK gradients each */
  double *work;        /* scratch: 2 gp->cap CB_CVS_BLOCK */
  double *U;           /* gp_upper(gp), for the gradients */
} cb_cvs;

/* Fill c and allocate its scratch (R_alloc).  alpha must hold gp_alpha(gp). */
void cvs_setup(cb_cvs *c, const cb_gp *gp, const double *alpha, int nc,
               const int *ctrl, int S, const double *Z, double beta);

/* Expected UCB at the control partial query xc (length nc, unit scale); with
 * grad != NULL also its gradient in xc.  Has the cb_objfn signature (d = nc,
 * ctx = the cb_cvs). */
double cvs_eucb(int nc, const double *xc, double *grad, void *ctx);

/* Maximize the expected UCB over [0, 1]^nc by max_box_sobol (n_raw Sobol raw
 * points and their selection uniforms from R's RNG: the caller brackets the
 * call with GetRNGstate()/PutRNGstate()).  Writes the maximizer to xbest. */
double cvs_maximize(cb_cvs *c, int n_raw, const cb_max_control *ctl,
                    double *xbest);

#endif
