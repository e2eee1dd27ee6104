/* gp.h -- the pure-C face of the Gaussian-process engine.
 *
 * A cb_gp describes a GP posterior by its training inputs, the lower Cholesky
 * factor L of K + (noise + jitter) I and beta = L^{-1} (y - m(X)).  Inputs are
 * on the unit cube and outputs standardized (the R layer scales); for the
 * finite-domain kernel CB_FINITE an input is a 0-based candidate index stored
 * as a double in column 0, and the prior is an explicit mean vector and
 * covariance matrix over the candidates.
 *
 * CB_MISO is the multi-information-source kernel of Poloczek et al. (2017),
 * used by paper 004 Sec. 7: an input is (x, s) with x on the unit cube in
 * the first d - 1 columns and the source index s = 0, 1, ... (a double) in
 * the last column, and
 *   k((x, s), (x', s')) = k_0(x, x') + 1{s = s' != 0} k_s(x, x'),
 * the objective's kernel plus an independent bias GP per cheap source, all
 * Matern 5/2 with ARD lengthscales.  hyp is laid out as for the other
 * kernels with d = (number of x columns) + 1 (hyp[d - 1], the "lengthscale"
 * of the source column, is unused and must be positive), followed by
 * (ell_s[0..d-2], sf2_s) for s = 1, 2, ...  The noise variance is shared by
 * the sources, and there are no x-gradients (gp_predict ignores dmean).
 *
 * Buffers have a capacity `cap` >= n so that fantasy observations can be
 * appended in O(n^2) (gp_fantasy_add) and removed in O(1) (gp_fantasy_drop):
 * X is cap x d, L is cap x cap (leading dimension cap), y and beta have length
 * cap.  All matrices are column-major.
 */
#ifndef COSTBO_GP_MODULE_H
#define COSTBO_GP_MODULE_H

#include "costbo.h"

enum {
  CB_MATERN52 = 0,
  CB_MATERN32 = 1,
  CB_SE = 2,
  CB_FINITE = 3,
  CB_MISO = 4
};

typedef struct cb_gp_s {
  int kernel;          /* CB_MATERN52, CB_MATERN32, CB_SE or CB_FINITE */
  int d;               /* input dimension (1 for CB_FINITE) */
  int n;               /* number of observations currently conditioned on */
  int cap;             /* capacity: rows of X and L */
  double *X;           /* cap x d inputs */
  double *y;           /* observations (standardized) */
  double *L;           /* cap x cap lower Cholesky factor */
  double *beta;        /* L^{-1} (y - m(X)) */
  const double *ell;   /* d lengthscales */
  double *iell;        /* their inverses */
  double sf2;          /* outputscale (signal variance) */
  double noise;        /* noise variance */
  double mean;         /* constant prior mean */
  double jitter;       /* diagonal jitter in use */
  int nfin;            /* CB_FINITE: number of candidates */
  const double *fmean; /* CB_FINITE: prior mean, length nfin */
  const double *fcov;  /* CB_FINITE: prior covariance, nfin x nfin */
  const double *bias;  /* CB_MISO: (ell_s, sf2_s) of sources 1, 2, ... */
} cb_gp;

/* Allocate (R_alloc) a cb_gp of capacity cap and copy the posterior into it.
 * hyp = (ell[0..d-1], sf2, noise, mean, jitter[, CB_MISO bias
 * hyperparameters]); L is n x n, beta length n. */
void gp_init(cb_gp *gp, int kernel, int d, int n, int cap, const double *X,
             const double *y, const double *L, const double *beta,
             const double *hyp, int nfin, const double *fmean,
             const double *fcov);

/* Prior covariance of two inputs x1, x2 (elements strided by ld1, ld2). */
double gp_kernel(const cb_gp *gp, const double *x1, int ld1, const double *x2,
                 int ld2);

/* Prior mean at x (elements strided by ldx). */
double gp_prior_mean(const cb_gp *gp, const double *x, int ldx);

/* Factor K + (noise + jitter) I for the first n rows of X, climbing a jitter
 * ladder when dpotrf fails; sets L, beta and jitter.  Returns 0 on success. */
int gp_factor(cb_gp *gp);

/* Posterior mean and variance of f at m points Xn (m x d, leading dim ldn).
 * dmean and dvar (d x m, column j = gradient at point j) may be NULL. */
void gp_predict(const cb_gp *gp, int m, const double *Xn, int ldn,
                double *mean, double *var, double *dmean, double *dvar);

/* One point without allocation: work has length 2 n; alpha = gp_alpha(gp)
 * (read only when gradients are requested: dmean, dvar of length d, may be
 * NULL). */
void gp_predict1(const cb_gp *gp, const double *x, int ldx,
                 const double *alpha, double *mean, double *var, double *dmean,
                 double *dvar, double *work);

/* Kernel column kx[i] = k(X_i, x) for the first n observations and, when
 * dk != NULL (continuous kernels), the derivatives of the unit-outputscale
 * kernel in the scaled squared distance, the input of gp_kernel_col_grad. */
void gp_kernel_col(const cb_gp *gp, const double *x, int ldx, double *kx,
                   double *dk);

/* g (length d) += sum_i u[i] d k(X_i, x) / dx over the first n
 * observations, with dk from gp_kernel_col at the same x; continuous
 * kernels only. */
void gp_kernel_col_grad(const cb_gp *gp, const double *x, const double *u,
                        const double *dk, double *g);

/* k(x1, x2) and, when g != NULL, g += c d k(x1, x2) / d x1 (length d;
 * continuous kernels: the gradient in x2 is its negative). */
double gp_kernel_dx(const cb_gp *gp, const double *x1, const double *x2,
                    double c, double *g);

/* U = L' (upper triangle of a cap x cap array), for gp_predict1u. */
void gp_upper(const cb_gp *gp, double *U);

/* gp_predict1 with U = L' from gp_upper (the same values, faster with its
 * gradient); work has length 2 n, and dmean, dvar may be NULL. */
void gp_predict1u(const cb_gp *gp, const double *x, int ldx,
                  const double *alpha, const double *U, double *mean,
                  double *var, double *dmean, double *dvar, double *work);

/* Condition on a hypothetical observation (x, y) by appending one row to the
 * Cholesky factor, O(n^2).  Returns 0, or 1 when n == cap or the new pivot
 * is not positive.
 *
 * The fantasy convention of every lookahead (B-MS-EI tree, CMDP rollout,
 * KG and rolling-horizon rollout): a fantasy observation at x is drawn
 * from the predictive distribution of an observation, y = m(x) +
 * sqrt(var(x) + noise + jitter) z with z standard normal (or a
 * Gauss-Hermite node), and conditioned on as an observation, with the
 * noise and jitter on its diagonal (this function).  The rank-one
 * covariance updates of the rolling horizon (rollout.c) are this update
 * written on the posterior covariances. */
int gp_fantasy_add(cb_gp *gp, const double *x, int ldx, double y);

/* Undo the most recent gp_fantasy_add exactly. */
void gp_fantasy_drop(cb_gp *gp);

/* alpha = L^{-T} beta = (K + noise I)^{-1} (y - m(X)), length n. */
void gp_alpha(const cb_gp *gp, double *alpha);

/* Joint posterior samples at m points: out is m x nsim; z holds m * nsim
 * standard normal draws.  Returns the jitter needed by the posterior
 * covariance, or a negative value when it could not be factored. */
double gp_sample(const cb_gp *gp, int m, const double *Xn, int ldn, int nsim,
                 const double *z, double *out);

#endif
