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
 * the sources, and there are no x-gradients.
 *
 * Variants as tables of operations.  Everything that depends on the kernel
 * variant -- prior mean, covariance, the kernel column k(X, x), the
 * x-gradients and, for the radial kernels, the profile k(r^2) the
 * likelihood uses -- is reached through gp->ops, a cb_gp_ops table with one
 * const instance per variant (Matern 5/2, Matern 3/2 and squared exponential
 * share the radial functions and differ in their profile; finite and
 * multi-source have their own).  gp_ops() maps the kernel code that crosses
 * the .Call boundary to its table and is the only place that reads the
 * code.  A table of function pointers rather than one switch in a dispatch
 * function: a variant's code then sits together in gp.c (its functions and
 * its table) and adding one touches no consumer, whereas a switch repeats
 * the list of variants in every operation; an indirect call per kernel
 * column or per covariance costs no more than the switch it replaces (the
 * radial columns call their profile directly, so the inner loops are
 * unchanged).  Consumers ask what a variant can do (gp_has_xgrad(),
 * gp_inputs()), never which variant it is.  An operation a variant lacks
 * (x-gradients of CB_FINITE and CB_MISO) has a NULL entry, and asking for
 * it is an Rf_error(), never a silent 0; the R layer rejects such requests
 * first (gp_can() in R/gp-variants.R).
 *
 * Prediction at a point has one routine, gp_predict_at(); gp_predict runs
 * its stages for a block of points at once (the triangular solves of the
 * block by dtrsm, the rest through the same column and gradient operations).
 *
 * Typed inputs (integer and categorical parameters of a bo_space()) are a
 * wrapping table: gp_set_transform() points ops at the typed operations,
 * which transform their inputs (transform.h) and call the radial variant's
 * own (gp->base); consumers see no difference.
 *
 * Buffers have a capacity `cap` >= n so that fantasy observations can be
 * appended in O(n^2) (gp_fantasy_add) and removed in O(1) (gp_fantasy_drop):
 * X is cap x d, L is cap x cap (leading dimension cap), y and beta have length
 * cap.  All matrices are column-major.
 */
#ifndef COSTBO_GP_MODULE_H
#define COSTBO_GP_MODULE_H

#include "costbo.h"
#include "transform.h"

/* Kernel codes of the .Call boundary (gp_kernel_codes in R/gp-variants.R). */
enum {
  CB_MATERN52 = 0,
  CB_MATERN32 = 1,
  CB_SE = 2,
  CB_FINITE = 3,
  CB_MISO = 4
};

/* What an input is: a point of the unit cube, a 0-based candidate index
 * (in column 0), or a point of the unit cube followed by a source index. */
enum { CB_INPUT_BOX = 0, CB_INPUT_INDEX = 1, CB_INPUT_SOURCE = 2 };

struct cb_gp_s;

/* The operations of one kernel variant (see the header comment). */
typedef struct cb_gp_ops_s {
  const char *name;   /* for messages */
  int inputs;         /* CB_INPUT_BOX, CB_INPUT_INDEX or CB_INPUT_SOURCE */
  /* prior mean at x and covariance of x1, x2 (elements strided by ld) */
  double (*prior_mean)(const struct cb_gp_s *gp, const double *x, int ldx);
  double (*kernel)(const struct cb_gp_s *gp, const double *x1, int ld1,
                   const double *x2, int ld2);
  /* kx[i] = k(X_i, x) for the first n observations; dk (NULL unless the
   * variant has x-gradients) receives what grad_col and grad_moments read */
  void (*col)(const struct cb_gp_s *gp, const double *x, int ldx, double *kx,
              double *dk);
  /* x-gradients (NULL for a variant without them):
   * grad_col: g (length d) += sum_i u[i] d k(X_i, x) / dx, x contiguous;
   * grad_moments: dmean = d (alpha' k(X, x)) / dx and dvar = -2 d (w'
   *   k(X, x)) / dx with alpha, w fixed; w and dk are overwritten;
   * kernel_dx: k(x1, x2) and g += c d k(x1, x2) / d x1 (contiguous). */
  void (*grad_col)(const struct cb_gp_s *gp, const double *x, const double *u,
                   const double *dk, double *g);
  void (*grad_moments)(const struct cb_gp_s *gp, const double *x, int ldx,
                       const double *alpha, double *w, double *dk,
                       double *dmean, double *dvar);
  double (*kernel_dx)(const struct cb_gp_s *gp, const double *x1,
                      const double *x2, double c, double *g);
  /* radial kernels: k / sf2 as a function of the scaled squared distance,
   * with its derivative (dk may be NULL); NULL for the others */
  double (*profile)(double r2, double *dk);
} cb_gp_ops;


typedef struct cb_gp_s {
  const cb_gp_ops *ops; /* the variant's operations (gp_ops()) */
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
  /* typed inputs (gp_set_transform): ops is the typed table, which applies
   * tf to every input it is given and calls the radial operations of base;
   * the rows of X hold transformed inputs (T is idempotent) */
  const cb_gp_ops *base;
  cb_transform tf;
  double *tx;          /* scratch of the typed operations, 3 d */
} cb_gp;

/* The table of kernel code `kernel`; Rf_error for an unknown code. */
const cb_gp_ops *gp_ops(int kernel);

/* Does the variant have x-gradients?  What are its inputs? */
static inline int gp_has_xgrad(const cb_gp *gp) {
  return gp->ops->grad_moments != NULL;
}
static inline int gp_inputs(const cb_gp *gp) { return gp->ops->inputs; }

/* Allocate (R_alloc) a cb_gp of capacity cap and copy the posterior into it.
 * hyp = (ell[0..d-1], sf2, noise, mean, jitter[, CB_MISO bias
 * hyperparameters]); L is n x n, beta length n. */
void gp_init(cb_gp *gp, int kernel, int d, int n, int cap, const double *X,
             const double *y, const double *L, const double *beta,
             const double *hyp, int nfin, const double *fmean,
             const double *fcov);

/* Make a radial-kernel GP see its inputs through the typed-space transform
 * tf (transform.h): k(u, u') = k0(T(u), T(u')), with the x-gradients of the
 * integer and categorical columns 0.  The rows of X must already be
 * transformed (they are: the R layer records T(u) and C appends T(u) in
 * gp_fantasy_add).  A transform with no discrete column changes nothing. */
void gp_set_transform(cb_gp *gp, const cb_transform *tf);

/* Prior covariance of two inputs x1, x2 (elements strided by ld1, ld2). */
double gp_kernel(const cb_gp *gp, const double *x1, int ld1, const double *x2,
                 int ld2);

/* Prior mean at x (elements strided by ldx). */
double gp_prior_mean(const cb_gp *gp, const double *x, int ldx);

/* Factor K + (noise + jitter) I for the first n rows of X, climbing a jitter
 * ladder when dpotrf fails; sets L, beta and jitter.  Returns 0 on success. */
int gp_factor(cb_gp *gp);

/* Posterior mean and variance of f at m points Xn (m x d, leading dim ldn).
 * dmean and dvar (d x m, column j = gradient at point j) may be NULL; they
 * must be NULL for a variant without x-gradients. */
void gp_predict(const cb_gp *gp, int m, const double *Xn, int ldn,
                double *mean, double *var, double *dmean, double *dvar);

/* The predict-at-one-point routine, without allocation: posterior mean and
 * variance at x (elements strided by ldx); work has length 2 n.  With
 * dmean, dvar (length d; only for a variant with x-gradients) also their
 * gradients, for which alpha = gp_alpha(gp) and U = L' from gp_upper()
 * are read (a column-oriented back substitution, whose loops vectorize);
 * U is read only for gradients and may be NULL without them. */
void gp_predict_at(const cb_gp *gp, const double *x, int ldx,
                   const double *alpha, const double *U, double *mean,
                   double *var, double *dmean, double *dvar, double *work);

/* gp_predict_at at the bs points X + b (b = 0, ..., bs - 1; elements
 * strided by ldx), bit for bit as bs calls of it with R's reference BLAS,
 * with each column of the Cholesky factor read once per block instead of
 * once per point: mean[b], var[b] and, with gradients, dmean and dvar
 * (d x bs); work has length 2 n bs. */
void gp_predict_at_many(const cb_gp *gp, const double *X, int ldx, int bs,
                        const double *alpha, const double *U, double *mean,
                        double *var, double *dmean, double *dvar,
                        double *work);

/* Kernel column kx[i] = k(X_i, x) for the first n observations and, when
 * dk != NULL (variants with x-gradients only), what gp_kernel_col_grad
 * reads at the same x. */
void gp_kernel_col(const cb_gp *gp, const double *x, int ldx, double *kx,
                   double *dk);

/* g (length d) += sum_i u[i] d k(X_i, x) / dx over the first n
 * observations, with dk from gp_kernel_col at the same x; variants with
 * x-gradients only. */
void gp_kernel_col_grad(const cb_gp *gp, const double *x, const double *u,
                        const double *dk, double *g);

/* k(x1, x2) and, when g != NULL (variants with x-gradients only), g += c d
 * k(x1, x2) / d x1 (length d; radial kernels: the gradient in x2 is its
 * negative). */
double gp_kernel_dx(const cb_gp *gp, const double *x1, const double *x2,
                    double c, double *g);

/* U = L' (upper triangle of a cap x cap array), for gp_predict_at. */
void gp_upper(const cb_gp *gp, double *U);

/* Condition on a hypothetical observation (x, y) by appending one row to the
 * Cholesky factor, O(n^2).  Returns 0, or 1 when n == cap or the new pivot
 * is not positive.
 *
 * The fantasy rule of the lookaheads: on a noisy objective a fantasy
 * outcome at x is an observation, drawn from its predictive distribution,
 * y = m(x) + sqrt(var(x) + noise + jitter) z with z standard normal (or a
 * Gauss-Hermite node); on a deterministic objective, whose noise band is
 * numerical only, it is the latent value, y = m(x) + sqrt(var(x)) z, so
 * that the last stage of a lookahead is EI of f and a one-step lookahead
 * is EI.  Either is conditioned on as the GP conditions on data, with the
 * noise and jitter on its diagonal (this function).  The rollouts
 * (rollout.c) follow the rule (`latent` of their controls; the setting
 * "observation" of the rollout policies draws observations everywhere, as
 * costbo did before the rule); the B-MS-EI tree (tree.c) still draws
 * observations everywhere.  The rank-one covariance updates of the rolling
 * horizon are this update written on the posterior covariances. */
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
