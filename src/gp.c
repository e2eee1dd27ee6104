/* gp.c -- Gaussian-process engine: kernels, Cholesky factor with a jitter
 * ladder, log marginal likelihood with its analytic gradient, MAP / ML fit by
 * multistart L-BFGS-B, prediction with x-gradients, O(n^2) fantasy updates,
 * joint posterior samples and random-Fourier-feature prior samples. */
#include "gp.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define CB_AVX_DISPATCH 1 /* sub_panel() takes four entries at a time */
#endif

#include "entry.h"
#include "rlist.h"

#define CB_SQRT3 1.7320508075688772935
#define CB_SQRT5 2.2360679774997896964
#define CB_LOG2PI 1.8378770664093454836
#define CB_BLOCK 256 /* points per prediction block */
#define CB_RUNGS 10  /* jitter ladder: 0, 1e-10, ..., 1e-2 (relative) */

void la_check(const char *routine, int info) {
  if (info < 0)
    Rf_error("internal error: %s argument %d is invalid", routine, -info);
}

static double rung_jitter(int rung, double scale) {
  return rung == 0 ? 0.0 : scale * pow(10.0, (double)rung - 11.0);
}

/* ilaenv is part of every LAPACK but not declared by R_ext/Lapack.h. */
extern int F77_NAME(ilaenv)(const int *ispec, const char *name,
                            const char *opts, const int *n1, const int *n2,
                            const int *n3, const int *n4 FCLEN FCLEN);

/* LAPACK's block size for routine `name` on an n x n problem. */
static int la_block(const char *name, const char *opts, int n) {
  const int ispec = 1, none = -1;
#ifdef FC_LEN_T
  return F77_CALL(ilaenv)(&ispec, name, opts, &n, &none, &none, &none,
                          (FC_LEN_T)strlen(name), (FC_LEN_T)strlen(opts));
#else
  return F77_CALL(ilaenv)(&ispec, name, opts, &n, &none, &none, &none);
#endif
}

/* Interruptible Cholesky factorization and inverse (lower triangle).
 *
 * One dpotrf or dpotri call on n = 1200 takes about 0.5 s with the reference
 * BLAS (bench/chol-latency.R) and cannot be interrupted: one likelihood
 * evaluation with its gradient ran 1 s between interrupt checks, against the
 * 0.5 s within which an interrupt must be honoured.  la_potrf and la_potri
 * make the calls that reference LAPACK's dpotrf and dpotri (= dtrtri, then
 * dlauum) make, blocked with the block size LAPACK takes from ilaenv, in the
 * same order and on the same blocks, and check for an interrupt between
 * blocks.  The diagonal blocks go to dpotrf, dtrtri and dlauum themselves: on
 * a block no larger than their block size these call dpotrf2, dtrti2 and
 * dlauu2 directly, as the blocked code does.  So with reference LAPACK (R's
 * own, or the system's as here) the results are those of one dpotrf / dpotri
 * call bit for bit; with a tuned LAPACK they are a Cholesky factor / inverse
 * computed by that library's BLAS.  Transcribed from reference LAPACK 3.11
 * SRC/dpotrf.f, dtrtri.f and dlauum.f (UPLO = 'L'); these parts are the same
 * from 3.6 to the current release. */
static void la_potrf(int n, double *A, int lda, int *info) {
  const double one = 1.0, mone = -1.0;
  *info = 0;
  if (n <= 0) return;
  const int nb = la_block("DPOTRF", "L", n);
  if (nb <= 1 || nb >= n) {
    F77_CALL(dpotrf)("L", &n, A, &lda, info FCONE);
    return;
  }
  for (int j = 0; j < n; j += nb) {
    const int jb = nb < n - j ? nb : n - j, r = n - j - jb;
    double *Ajj = A + j + (size_t)j * lda;
    R_CheckUserInterrupt();
    /* update and factor the diagonal block */
    F77_CALL(dsyrk)("L", "N", &jb, &j, &mone, A + j, &lda, &one, Ajj, &lda
                    FCONE FCONE);
    F77_CALL(dpotrf)("L", &jb, Ajj, &lda, info FCONE);
    if (*info != 0) {
      if (*info > 0) *info += j;
      return;
    }
    if (r > 0) { /* the block column below it */
      F77_CALL(dgemm)("N", "T", &r, &jb, &j, &mone, A + j + jb, &lda, A + j,
                      &lda, &one, Ajj + jb, &lda FCONE FCONE);
      F77_CALL(dtrsm)("R", "L", "T", "N", &r, &jb, &one, Ajj, &lda, Ajj + jb,
                      &lda FCONE FCONE FCONE FCONE);
    }
  }
}

/* The lower triangle of A^{-1} from the Cholesky factor L of A (in A). */
static void la_potri(int n, double *A, int lda, int *info) {
  const double one = 1.0, mone = -1.0;
  *info = 0;
  if (n <= 0) return;
  /* dtrtri: L <- L^{-1} */
  for (int i = 0; i < n; i++)
    if (A[i + (size_t)i * lda] == 0.0) {
      *info = i + 1;
      return;
    }
  int nb = la_block("DTRTRI", "LN", n);
  if (nb <= 1 || nb >= n) {
    F77_CALL(dtrtri)("L", "N", &n, A, &lda, info FCONE FCONE);
  } else {
    for (int j = ((n - 1) / nb) * nb; j >= 0; j -= nb) {
      const int jb = nb < n - j ? nb : n - j, r = n - j - jb;
      double *Ajj = A + j + (size_t)j * lda;
      R_CheckUserInterrupt();
      if (r > 0) { /* rows below the diagonal block */
        F77_CALL(dtrmm)("L", "L", "N", "N", &r, &jb, &one,
                        Ajj + jb + (size_t)jb * lda, &lda, Ajj + jb, &lda
                        FCONE FCONE FCONE FCONE);
        F77_CALL(dtrsm)("R", "L", "N", "N", &r, &jb, &mone, Ajj, &lda,
                        Ajj + jb, &lda FCONE FCONE FCONE FCONE);
      }
      F77_CALL(dtrtri)("L", "N", &jb, Ajj, &lda, info FCONE FCONE);
    }
  }
  if (*info != 0) return;
  /* dlauum: L^{-1} <- L^{-T} L^{-1} */
  nb = la_block("DLAUUM", "L", n);
  if (nb <= 1 || nb >= n) {
    F77_CALL(dlauum)("L", &n, A, &lda, info FCONE);
    return;
  }
  for (int i = 0; i < n; i += nb) {
    const int ib = nb < n - i ? nb : n - i, r = n - i - ib;
    double *Aii = A + i + (size_t)i * lda;
    R_CheckUserInterrupt();
    F77_CALL(dtrmm)("L", "L", "T", "N", &ib, &i, &one, Aii, &lda, A + i, &lda
                    FCONE FCONE FCONE FCONE);
    F77_CALL(dlauum)("L", &ib, Aii, &lda, info FCONE);
    if (r > 0) {
      F77_CALL(dgemm)("T", "N", &ib, &i, &r, &one, Aii + ib, &lda, A + i + ib,
                      &lda, &one, A + i, &lda FCONE FCONE);
      F77_CALL(dsyrk)("L", "T", &ib, &r, &one, Aii + ib, &lda, &one, Aii, &lda
                      FCONE FCONE);
    }
  }
}

/* A factor whose squared pivot falls below 1e-14 of the diagonal scale is
 * numerically singular (dpotrf may still succeed on rounding noise): treat it
 * as a failure so that the jitter ladder climbs. */
static int pivots_ok(const double *L, int n, int ld, double scale) {
  const double tol = 1e-14 * scale;
  for (int i = 0; i < n; i++) {
    double p = L[i + (size_t)i * ld];
    if (!(p * p > tol)) return 0;
  }
  return 1;
}

/* Radial profiles: the unit-outputscale kernel as a function of the scaled
 * squared distance r2, with its derivative in r2 (all three are smooth in
 * r2 at 0).
 * Where exp(-sqrt(2 nu) r) underflows to 0 (r > 333, the distance between
 * inputs of huge magnitude may even overflow to r = Inf), the Matern kernels
 * and their derivatives are 0: returned directly, since the polynomial factor
 * times 0 is Inf * 0 = NaN once r2 overflows.  The values are those the
 * formulas give for any finite r2 in that range (+0 and -0). */
static inline double prof_matern52(double r2, double *dk) {
  const double r = sqrt(r2), e = exp(-CB_SQRT5 * r);
  if (e == 0.0) {
    if (dk) *dk = -0.0;
    return 0.0;
  }
  if (dk) *dk = -(5.0 / 6.0) * (1.0 + CB_SQRT5 * r) * e;
  return (1.0 + CB_SQRT5 * r + (5.0 / 3.0) * r2) * e;
}

static inline double prof_matern32(double r2, double *dk) {
  const double r = sqrt(r2), e = exp(-CB_SQRT3 * r);
  if (e == 0.0) {
    if (dk) *dk = -0.0;
    return 0.0;
  }
  if (dk) *dk = -1.5 * e;
  return (1.0 + CB_SQRT3 * r) * e;
}

static inline double prof_se(double r2, double *dk) {
  const double e = exp(-0.5 * r2);
  if (dk) *dk = -0.5 * e;
  return e;
}

static double scaled_r2(const double *x1, int ld1, const double *x2, int ld2,
                        const double *iell, int d) {
  double s = 0.0;
  for (int k = 0; k < d; k++) {
    double t = (x1[(size_t)k * ld1] - x2[(size_t)k * ld2]) * iell[k];
    s += t * t;
  }
  return s;
}

static void need_xgrad(const cb_gp *gp) {
  if (!gp_has_xgrad(gp))
    Rf_error("internal error: x-gradients of a %s GP were asked for (it has "
             "none)",
             gp->ops->name);
}

/* ------------------------------------------------------------------------ */
/* Kernel variants: their operations and tables (see gp.h)                  */
/* ------------------------------------------------------------------------ */

/* Radial kernels (Matern 5/2, Matern 3/2, squared exponential): sf2 k(r2)
 * with r2 the lengthscale-scaled squared distance.  The operations are
 * written once, inline, with the profile as an argument; each kernel's
 * table gets copies with its profile called directly. */
static double radial_prior_mean(const cb_gp *gp, const double *x, int ldx) {
  (void)x;
  (void)ldx;
  return gp->mean;
}

static inline double radial_kernel(const cb_gp *gp, const double *x1, int ld1,
                                   const double *x2, int ld2,
                                   double (*prof)(double, double *)) {
  return gp->sf2 * prof(scaled_r2(x1, ld1, x2, ld2, gp->iell, gp->d), NULL);
}

/* Squared distances accumulated one input dimension at a time (a loop over
 * the n observations that vectorizes); dk: the r2-derivatives. */
static inline void radial_col(const cb_gp *gp, const double *x, int ldx,
                              double *kx, double *dk,
                              double (*prof)(double, double *)) {
  const int n = gp->n, ld = gp->cap, d = gp->d;
  for (int i = 0; i < n; i++) kx[i] = 0.0;
  for (int k = 0; k < d; k++) {
    const double xk = x[(size_t)k * ldx], ik = gp->iell[k];
    const double *Xk = gp->X + (size_t)k * ld;
    for (int i = 0; i < n; i++) {
      const double t = (xk - Xk[i]) * ik;
      kx[i] += t * t;
    }
  }
  if (dk) {
    for (int i = 0; i < n; i++) kx[i] = gp->sf2 * prof(kx[i], dk + i);
  } else {
    for (int i = 0; i < n; i++) kx[i] = gp->sf2 * prof(kx[i], NULL);
  }
}

static inline double radial_kernel_dx(const cb_gp *gp, const double *x1,
                                      const double *x2, double c, double *g,
                                      double (*prof)(double, double *)) {
  double dk, r2 = scaled_r2(x1, 1, x2, 1, gp->iell, gp->d);
  const double v = gp->sf2 * prof(r2, &dk);
  dk *= 2.0 * gp->sf2 * c;
  for (int k = 0; k < gp->d; k++)
    g[k] += dk * (x1[k] - x2[k]) * gp->iell[k] * gp->iell[k];
  return v;
}

static void radial_grad_col(const cb_gp *gp, const double *x, const double *u,
                            const double *dk, double *g) {
  const int n = gp->n, ld = gp->cap;
  for (int k = 0; k < gp->d; k++) {
    const double *Xk = gp->X + (size_t)k * ld;
    double s = 0.0;
    for (int i = 0; i < n; i++) s += u[i] * dk[i] * (x[k] - Xk[i]);
    g[k] += 2.0 * gp->sf2 * gp->iell[k] * gp->iell[k] * s;
  }
}

/* d k(X_i, x) / dx_k = 2 sf2 dk_i (x_k - X_ik) / ell_k^2: alpha and w
 * multiplied into dk once (in the arrays of w and dk), then one
 * vectorizable pass per input dimension. */
static void radial_grad_moments(const cb_gp *gp, const double *x, int ldx,
                                const double *alpha, double *w, double *dk,
                                double *dmean, double *dvar) {
  const int n = gp->n, ld = gp->cap, d = gp->d;
  double *a = w, *b = dk;
  for (int i = 0; i < n; i++) {
    const double di = dk[i];
    b[i] = w[i] * di;
    a[i] = alpha[i] * di;
  }
  for (int k = 0; k < d; k++) {
    const double xk = x[(size_t)k * ldx], *Xk = gp->X + (size_t)k * ld;
    const double c = 2.0 * gp->sf2 * gp->iell[k] * gp->iell[k];
    double gm = 0.0, gv = 0.0;
    for (int i = 0; i < n; i++) {
      const double t = xk - Xk[i];
      gm += a[i] * t;
      gv += b[i] * t;
    }
    dmean[k] = c * gm;
    dvar[k] = -2.0 * c * gv;
  }
}

#define CB_RADIAL_VARIANT(suffix, label, prof)                               \
  static double kernel_##suffix(const cb_gp *gp, const double *x1, int ld1,  \
                                const double *x2, int ld2) {                 \
    return radial_kernel(gp, x1, ld1, x2, ld2, prof);                        \
  }                                                                          \
  static void col_##suffix(const cb_gp *gp, const double *x, int ldx,        \
                           double *kx, double *dk) {                         \
    radial_col(gp, x, ldx, kx, dk, prof);                                    \
  }                                                                          \
  static double kernel_dx_##suffix(const cb_gp *gp, const double *x1,        \
                                   const double *x2, double c, double *g) {  \
    return radial_kernel_dx(gp, x1, x2, c, g, prof);                         \
  }                                                                          \
  static double profile_##suffix(double r2, double *dk) {                    \
    return prof(r2, dk);                                                     \
  }                                                                          \
  static const cb_gp_ops ops_##suffix = {                                    \
      label,           CB_INPUT_BOX,   radial_prior_mean,                    \
      kernel_##suffix, col_##suffix,   radial_grad_col,                      \
      radial_grad_moments, kernel_dx_##suffix, profile_##suffix};

CB_RADIAL_VARIANT(matern52, "Matern 5/2", prof_matern52)
CB_RADIAL_VARIANT(matern32, "Matern 3/2", prof_matern32)
CB_RADIAL_VARIANT(se, "squared-exponential", prof_se)

/* The column of a variant without x-gradients: one covariance per
 * observation. */
static void plain_col(const cb_gp *gp, const double *x, int ldx, double *kx,
                      double *dk) {
  const int n = gp->n, ld = gp->cap;
  (void)dk;
  for (int i = 0; i < n; i++)
    kx[i] = gp->ops->kernel(gp, gp->X + i, ld, x, ldx);
}

/* Finite domain (CB_FINITE): inputs are candidate indices, the prior an
 * explicit mean vector and covariance matrix. */
static double finite_prior_mean(const cb_gp *gp, const double *x, int ldx) {
  (void)ldx;
  return gp->fmean[(int)x[0]];
}

static double finite_kernel(const cb_gp *gp, const double *x1, int ld1,
                            const double *x2, int ld2) {
  (void)ld1;
  (void)ld2;
  const int i = (int)x1[0], j = (int)x2[0];
  return gp->fcov[i + (size_t)j * gp->nfin];
}

static const cb_gp_ops ops_finite = {
    "finite-domain", CB_INPUT_INDEX, finite_prior_mean, finite_kernel,
    plain_col,       NULL,           NULL,              NULL,
    NULL};

/* Multiple information sources (CB_MISO, see the header comment). */
static double miso_kernel(const cb_gp *gp, const double *x1, int ld1,
                          const double *x2, int ld2) {
  const int dx = gp->d - 1;
  double k = gp->sf2 * prof_matern52(
                           scaled_r2(x1, ld1, x2, ld2, gp->iell, dx), NULL);
  const int s1 = (int)x1[(size_t)dx * ld1], s2 = (int)x2[(size_t)dx * ld2];
  if (s1 == s2 && s1 > 0) {
    const double *b = gp->bias + (size_t)(s1 - 1) * (dx + 1);
    double r2 = 0.0;
    for (int j = 0; j < dx; j++) {
      const double t = (x1[(size_t)j * ld1] - x2[(size_t)j * ld2]) / b[j];
      r2 += t * t;
    }
    k += b[dx] * prof_matern52(r2, NULL);
  }
  return k;
}

static const cb_gp_ops ops_miso = {
    "multi-source", CB_INPUT_SOURCE, radial_prior_mean, miso_kernel,
    plain_col,      NULL,            NULL,              NULL,
    NULL};

/* Typed inputs (gp_set_transform): the radial operations of gp->base at
 * transformed inputs, with the x-gradients of the discrete columns 0 (the
 * derivative of a piecewise-constant transform).  Scratch gp->tx: the
 * transformed inputs in [0, 2d), the saved gradient entries in [2d, 3d). */
static double typed_prior_mean(const cb_gp *gp, const double *x, int ldx) {
  return gp->base->prior_mean(gp, x, ldx);
}

static double typed_kernel(const cb_gp *gp, const double *x1, int ld1,
                           const double *x2, int ld2) {
  double *t1 = gp->tx, *t2 = gp->tx + gp->d;
  transform_apply(&gp->tf, x1, ld1, t1);
  transform_apply(&gp->tf, x2, ld2, t2);
  return gp->base->kernel(gp, t1, 1, t2, 1);
}

static void typed_col(const cb_gp *gp, const double *x, int ldx, double *kx,
                      double *dk) {
  transform_apply(&gp->tf, x, ldx, gp->tx);
  gp->base->col(gp, gp->tx, 1, kx, dk);
}

/* g += ... in the numeric columns only: the discrete entries of g are
 * saved and put back */
static void typed_grad_col(const cb_gp *gp, const double *x, const double *u,
                           const double *dk, double *g) {
  const int d = gp->d;
  double *save = gp->tx + 2 * d;
  transform_apply(&gp->tf, x, 1, gp->tx);
  for (int k = 0; k < d; k++) save[k] = g[k];
  gp->base->grad_col(gp, gp->tx, u, dk, g);
  for (int k = 0; k < d; k++)
    if (gp->tf.kind[k] != CB_TF_NUM) g[k] = save[k];
}

static void typed_grad_moments(const cb_gp *gp, const double *x, int ldx,
                               const double *alpha, double *w, double *dk,
                               double *dmean, double *dvar) {
  transform_apply(&gp->tf, x, ldx, gp->tx);
  gp->base->grad_moments(gp, gp->tx, 1, alpha, w, dk, dmean, dvar);
  transform_zero_discrete(&gp->tf, dmean);
  transform_zero_discrete(&gp->tf, dvar);
}

static double typed_kernel_dx(const cb_gp *gp, const double *x1,
                              const double *x2, double c, double *g) {
  const int d = gp->d;
  double *t1 = gp->tx, *t2 = gp->tx + d, *save = gp->tx + 2 * d;
  transform_apply(&gp->tf, x1, 1, t1);
  transform_apply(&gp->tf, x2, 1, t2);
  for (int k = 0; k < d; k++) save[k] = g[k];
  const double v = gp->base->kernel_dx(gp, t1, t2, c, g);
  for (int k = 0; k < d; k++)
    if (gp->tf.kind[k] != CB_TF_NUM) g[k] = save[k];
  return v;
}

static const cb_gp_ops ops_typed = {
    "typed-input",  CB_INPUT_BOX,       typed_prior_mean,
    typed_kernel,   typed_col,          typed_grad_col,
    typed_grad_moments, typed_kernel_dx, NULL};

void gp_set_transform(cb_gp *gp, const cb_transform *tf) {
  if (!tf->discrete) return;
  if (gp->ops->inputs != CB_INPUT_BOX || !gp->ops->profile || tf->d != gp->d)
    Rf_error("internal error: typed inputs for a %s GP", gp->ops->name);
  gp->tf = *tf;
  gp->base = gp->ops;
  gp->ops = &ops_typed;
  gp->tx = (double *)R_alloc((size_t)3 * gp->d, sizeof(double));
}

/* The one place that reads a kernel code. */
const cb_gp_ops *gp_ops(int kernel) {
  static const cb_gp_ops *const table[] = {&ops_matern52, &ops_matern32,
                                           &ops_se, &ops_finite, &ops_miso};
  if (kernel < 0 || kernel >= (int)(sizeof(table) / sizeof(table[0])))
    return NULL;
  return table[kernel];
}

/* ------------------------------------------------------------------------ */
/* Public C API                                                             */
/* ------------------------------------------------------------------------ */

void gp_init(cb_gp *gp, int kernel, int d, int n, int cap, const double *X,
             const double *y, const double *L, const double *beta,
             const double *hyp, int nfin, const double *fmean,
             const double *fcov) {
  gp->ops = gp_ops(kernel);
  if (!gp->ops) Rf_error("internal error: unknown kernel code %d", kernel);
  gp->d = d;
  gp->n = n;
  gp->cap = cap < 1 ? 1 : cap;
  gp->X = (double *)R_alloc((size_t)gp->cap * d, sizeof(double));
  gp->y = (double *)R_alloc((size_t)gp->cap, sizeof(double));
  gp->beta = (double *)R_alloc((size_t)gp->cap, sizeof(double));
  gp->L = (double *)R_alloc((size_t)gp->cap * gp->cap, sizeof(double));
  for (int k = 0; k < d; k++)
    for (int i = 0; i < n; i++)
      gp->X[i + (size_t)k * gp->cap] = X[i + (size_t)k * n];
  for (int i = 0; i < n; i++) {
    gp->y[i] = y[i];
    gp->beta[i] = beta ? beta[i] : 0.0;
  }
  if (L)
    for (int j = 0; j < n; j++)
      for (int i = j; i < n; i++)
        gp->L[i + (size_t)j * gp->cap] = L[i + (size_t)j * n];
  gp->ell = hyp;
  gp->iell = (double *)R_alloc((size_t)(d > 0 ? d : 1), sizeof(double));
  for (int k = 0; k < d; k++) gp->iell[k] = 1.0 / hyp[k];
  gp->sf2 = hyp[d];
  gp->noise = hyp[d + 1];
  gp->mean = hyp[d + 2];
  gp->jitter = hyp[d + 3];
  gp->nfin = nfin;
  gp->fmean = fmean;
  gp->fcov = fcov;
  gp->bias = hyp + d + 4; /* read by the CB_MISO operations only */
  gp->base = NULL;
  gp->tf.d = d;
  gp->tf.discrete = 0;
  gp->tf.kind = NULL;
  gp->tf.a = gp->tf.b = NULL;
  gp->tx = NULL;
}

double gp_kernel(const cb_gp *gp, const double *x1, int ld1, const double *x2,
                 int ld2) {
  return gp->ops->kernel(gp, x1, ld1, x2, ld2);
}

double gp_prior_mean(const cb_gp *gp, const double *x, int ldx) {
  return gp->ops->prior_mean(gp, x, ldx);
}

int gp_factor(cb_gp *gp) {
  const int n = gp->n, ld = gp->cap, one = 1;
  int info = 1;
  double scale = 0.0;
  if (n == 0) {
    gp->jitter = 0.0;
    return 0;
  }
  for (int i = 0; i < n; i++)
    scale += gp_kernel(gp, gp->X + i, ld, gp->X + i, ld) + gp->noise;
  scale /= n;
  for (int rung = 0; rung < CB_RUNGS && info != 0; rung++) {
    double jit = rung_jitter(rung, scale);
    for (int j = 0; j < n; j++) {
      if (j % 256 == 255) R_CheckUserInterrupt();
      for (int i = j; i < n; i++)
        gp->L[i + (size_t)j * ld] =
            gp_kernel(gp, gp->X + i, ld, gp->X + j, ld);
      gp->L[j + (size_t)j * ld] += gp->noise + jit;
    }
    la_potrf(n, gp->L, ld, &info);
    la_check("dpotrf", info);
    if (info == 0 && !pivots_ok(gp->L, n, ld, scale)) info = n;
    gp->jitter = jit;
  }
  if (info != 0) return 1;
  for (int i = 0; i < n; i++)
    gp->beta[i] = gp->y[i] - gp_prior_mean(gp, gp->X + i, ld);
  F77_CALL(dtrsv)("L", "N", "N", &n, gp->L, &ld, gp->beta, &one
                  FCONE FCONE FCONE);
  return 0;
}

void gp_alpha(const cb_gp *gp, double *alpha) {
  const int n = gp->n, ld = gp->cap, one = 1;
  if (n == 0) return;
  memcpy(alpha, gp->beta, (size_t)n * sizeof(double));
  F77_CALL(dtrsv)("L", "T", "N", &n, gp->L, &ld, alpha, &one
                  FCONE FCONE FCONE);
}

/* Points are processed in blocks of nb rows: Vt = k(Xb, X) L^{-T} by a
 * right-side triangular solve keeps the nb x n block in cache while L is read
 * once per block (a left-side solve would stream all of L once per point).
 * Per point, the stages of gp_predict_at: prior moments, the variant's
 * kernel column and gradient operations. */
void gp_predict(const cb_gp *gp, int m, const double *Xn, int ldn,
                double *mean, double *var, double *dmean, double *dvar) {
  const int n = gp->n, ld = gp->cap, d = gp->d, one = 1;
  const int grad = dmean != NULL;
  if (grad) need_xgrad(gp);
  const cb_gp_ops *ops = gp->ops;
  const double done = 1.0;
  int nb = n > 0 ? 65536 / n : CB_BLOCK;
  nb = nb < 16 ? 16 : (nb > CB_BLOCK ? CB_BLOCK : nb);
  double *Vt = NULL, *alpha = NULL, *col = NULL, *dk = NULL;
  if (n > 0) {
    Vt = (double *)R_alloc((size_t)n * nb, sizeof(double));
    col = (double *)R_alloc((size_t)n, sizeof(double));
    if (grad) {
      alpha = (double *)R_alloc((size_t)n, sizeof(double));
      dk = (double *)R_alloc((size_t)n * nb, sizeof(double));
      gp_alpha(gp, alpha);
    }
  }
  for (int b0 = 0; b0 < m; b0 += nb) {
    const int bs = m - b0 < nb ? m - b0 : nb;
    R_CheckUserInterrupt();
    for (int j = 0; j < bs; j++) {
      const double *x = Xn + b0 + j;
      mean[b0 + j] = ops->prior_mean(gp, x, ldn);
      var[b0 + j] = ops->kernel(gp, x, ldn, x, ldn);
    }
    if (n == 0) continue;
    for (int j = 0; j < bs; j++) {
      ops->col(gp, Xn + b0 + j, ldn, col, grad ? dk + (size_t)j * n : NULL);
      for (int i = 0; i < n; i++) Vt[j + (size_t)i * bs] = col[i];
    }
    F77_CALL(dtrsm)("R", "L", "T", "N", &bs, &n, &done, gp->L, &ld, Vt, &bs
                    FCONE FCONE FCONE FCONE);
    F77_CALL(dgemv)("N", &bs, &n, &done, Vt, &bs, gp->beta, &one, &done,
                    mean + b0, &one FCONE);
    for (int i = 0; i < n; i++) {
      const double *v = Vt + (size_t)i * bs;
      for (int j = 0; j < bs; j++) var[b0 + j] -= v[j] * v[j];
    }
    if (!grad) continue;
    /* Wt = Vt L^{-1}: row j is w = K^{-1} k(X, x_j) */
    F77_CALL(dtrsm)("R", "L", "N", "N", &bs, &n, &done, gp->L, &ld, Vt, &bs
                    FCONE FCONE FCONE FCONE);
    for (int j = 0; j < bs; j++) {
      for (int i = 0; i < n; i++) col[i] = Vt[j + (size_t)i * bs];
      ops->grad_moments(gp, Xn + b0 + j, ldn, alpha, col, dk + (size_t)j * n,
                        dmean + (size_t)(b0 + j) * d,
                        dvar + (size_t)(b0 + j) * d);
    }
  }
  if (grad && n == 0)
    for (size_t k = 0; k < (size_t)m * d; k++) dmean[k] = dvar[k] = 0.0;
}

static void solve_lower_many(int n, const double *L, int ld, double *V,
                             int ldv, int bs);
static void solve_upper_many(int n, const double *U, int ld, double *V,
                             int ldv, int bs);

void gp_predict_at(const cb_gp *gp, const double *x, int ldx,
                   const double *alpha, const double *U, double *mean,
                   double *var, double *dmean, double *dvar, double *work) {
  const int n = gp->n, ld = gp->cap, d = gp->d, one = 1;
  const int grad = dmean != NULL;
  if (grad) need_xgrad(gp);
  *mean = gp->ops->prior_mean(gp, x, ldx);
  *var = gp->ops->kernel(gp, x, ldx, x, ldx);
  if (grad)
    for (int k = 0; k < d; k++) dmean[k] = dvar[k] = 0.0;
  if (n == 0) return;
  double *v = work, *dk = work + n;
  gp->ops->col(gp, x, ldx, v, grad ? dk : NULL);
  /* dtrsv's solves, bit for bit, four columns at a time (one column of
   * solve_lower_many()) */
  solve_lower_many(n, gp->L, ld, v, n, 1);
  *mean += F77_CALL(ddot)(&n, v, &one, gp->beta, &one);
  *var -= F77_CALL(ddot)(&n, v, &one, v, &one);
  if (!grad) return;
  /* v <- K^{-1} k(X, x) = L^{-T} v: by a column-oriented (axpy) back
   * substitution in U = L', whose loops vectorize, instead of the
   * row-oriented (dot product) solve with L, whose serial sums bound the
   * speed at small n */
  solve_upper_many(n, U, ld, v, n, 1);
  gp->ops->grad_moments(gp, x, ldx, alpha, v, dk, dmean, dvar);
}

/* x_b <- L^{-1} x_b for the bs columns x_b = V + b ldv (L lower, leading
 * dimension ld).  Every x_b receives the reference BLAS dtrsv's operations
 * in its order -- for j = 0, 1, ...: when x_b[j] != 0, x_b[j] /= L[j, j],
 * then x_b[i] -= x_b[j] L[i, j] for i > j -- so that the result is
 * dtrsv's bit for bit; but the columns are taken four at a time, so that
 * each x_b[i] below the four is loaded and stored once for their four
 * updates (in the same order), and the four columns are read from cache
 * for every x_b of the block. */
#define CB_PANEL 4

#ifdef CB_AVX_DISPATCH
/* sub_panel() four entries at a time, on a processor with AVX (checked at
 * run time; no fused multiply-add, so each entry gets the same two roundings
 * per column). */
__attribute__((target("avx"))) static int sub_panel_avx(
    double *x, const double *a0, const double *a1, const double *a2,
    const double *a3, const double *t, int i0, int i1) {
  int i = i0;
  const __m256d t0 = _mm256_set1_pd(t[0]), t1 = _mm256_set1_pd(t[1]),
                t2 = _mm256_set1_pd(t[2]), t3 = _mm256_set1_pd(t[3]);
  for (; i + 3 < i1; i += 4) {
    __m256d xi = _mm256_loadu_pd(x + i);
    xi = _mm256_sub_pd(xi, _mm256_mul_pd(t0, _mm256_loadu_pd(a0 + i)));
    xi = _mm256_sub_pd(xi, _mm256_mul_pd(t1, _mm256_loadu_pd(a1 + i)));
    xi = _mm256_sub_pd(xi, _mm256_mul_pd(t2, _mm256_loadu_pd(a2 + i)));
    xi = _mm256_sub_pd(xi, _mm256_mul_pd(t3, _mm256_loadu_pd(a3 + i)));
    _mm256_storeu_pd(x + i, xi);
  }
  return i;
}
#endif

/* x[i] -= t[0] a0[i], then t[1] a1[i], t[2] a2[i], t[3] a3[i], for i in
 * [i0, i1): four entries at a time with AVX where the processor has it, two
 * with SSE2 (the same operations on each, so the same results). */
static void sub_panel(double *x, const double *a0, const double *a1,
                      const double *a2, const double *a3, const double *t,
                      int i0, int i1) {
  int i = i0;
#ifdef CB_AVX_DISPATCH
  static int avx = -1;
  if (avx < 0) avx = __builtin_cpu_supports("avx") ? 1 : 0;
  if (avx) i = sub_panel_avx(x, a0, a1, a2, a3, t, i0, i1);
#endif
#ifdef __SSE2__
  const __m128d t0 = _mm_set1_pd(t[0]), t1 = _mm_set1_pd(t[1]),
                t2 = _mm_set1_pd(t[2]), t3 = _mm_set1_pd(t[3]);
  for (; i + 1 < i1; i += 2) {
    __m128d xi = _mm_loadu_pd(x + i);
    xi = _mm_sub_pd(xi, _mm_mul_pd(t0, _mm_loadu_pd(a0 + i)));
    xi = _mm_sub_pd(xi, _mm_mul_pd(t1, _mm_loadu_pd(a1 + i)));
    xi = _mm_sub_pd(xi, _mm_mul_pd(t2, _mm_loadu_pd(a2 + i)));
    xi = _mm_sub_pd(xi, _mm_mul_pd(t3, _mm_loadu_pd(a3 + i)));
    _mm_storeu_pd(x + i, xi);
  }
#endif
  for (; i < i1; i++) {
    double xi = x[i];
    xi -= t[0] * a0[i];
    xi -= t[1] * a1[i];
    xi -= t[2] * a2[i];
    xi -= t[3] * a3[i];
    x[i] = xi;
  }
}

static void solve_lower_many(int n, const double *L, int ld, double *V,
                             int ldv, int bs) {
  for (int j0 = 0; j0 < n; j0 += CB_PANEL) {
    const int p = n - j0 < CB_PANEL ? n - j0 : CB_PANEL, lo = j0 + p;
    const double *l0 = L + (size_t)j0 * ld;
    for (int b = 0; b < bs; b++) {
      double *x = V + (size_t)b * ldv, t[CB_PANEL];
      int active = 0;
      /* the panel's own rows, column by column */
      for (int q = 0; q < p; q++) {
        const int j = j0 + q;
        const double *lj = L + (size_t)j * ld;
        t[q] = 0.0;
        if (x[j] == 0.0) continue;
        active |= 1 << q;
        x[j] = x[j] / lj[j];
        t[q] = x[j];
        for (int i = j + 1; i < lo; i++) x[i] -= t[q] * lj[i];
      }
      if (p == CB_PANEL && active == (1 << CB_PANEL) - 1) {
        sub_panel(x, l0, l0 + ld, l0 + 2 * (size_t)ld, l0 + 3 * (size_t)ld, t,
                  lo, n);
      } else {
        for (int q = 0; q < p; q++) {
          if (!(active & (1 << q))) continue;
          const double *lj = L + (size_t)(j0 + q) * ld;
          for (int i = lo; i < n; i++) x[i] -= t[q] * lj[i];
        }
      }
    }
  }
}

/* The same with U upper (dtrsv "U", "N": for j = n - 1, n - 2, ...,
 * x_b[j] /= U[j, j], then x_b[i] -= x_b[j] U[i, j] for i < j). */
static void solve_upper_many(int n, const double *U, int ld, double *V,
                             int ldv, int bs) {
  for (int j1 = n - 1; j1 >= 0; j1 -= CB_PANEL) {
    const int p = j1 + 1 < CB_PANEL ? j1 + 1 : CB_PANEL, hi = j1 - p + 1;
    for (int b = 0; b < bs; b++) {
      double *x = V + (size_t)b * ldv, t[CB_PANEL];
      int active = 0;
      for (int q = 0; q < p; q++) {
        const int j = j1 - q;
        const double *uj = U + (size_t)j * ld;
        t[q] = 0.0;
        if (x[j] == 0.0) continue;
        active |= 1 << q;
        x[j] = x[j] / uj[j];
        t[q] = x[j];
        for (int i = j - 1; i >= hi; i--) x[i] -= t[q] * uj[i];
      }
      if (p == CB_PANEL && active == (1 << CB_PANEL) - 1) {
        const double *u0 = U + (size_t)j1 * ld;
        sub_panel(x, u0, u0 - ld, u0 - 2 * (size_t)ld, u0 - 3 * (size_t)ld, t,
                  0, hi);
      } else {
        for (int q = 0; q < p; q++) {
          if (!(active & (1 << q))) continue;
          const double *uj = U + (size_t)(j1 - q) * ld;
          for (int i = 0; i < hi; i++) x[i] -= t[q] * uj[i];
        }
      }
    }
  }
}

void gp_predict_at_many(const cb_gp *gp, const double *X, int ldx, int bs,
                        const double *alpha, const double *U, double *mean,
                        double *var, double *dmean, double *dvar,
                        double *work) {
  const int n = gp->n, ld = gp->cap, d = gp->d, one = 1;
  const int grad = dmean != NULL;
  if (grad) need_xgrad(gp);
  for (int b = 0; b < bs; b++) {
    mean[b] = gp->ops->prior_mean(gp, X + b, ldx);
    var[b] = gp->ops->kernel(gp, X + b, ldx, X + b, ldx);
    if (grad)
      for (int k = 0; k < d; k++)
        dmean[k + (size_t)b * d] = dvar[k + (size_t)b * d] = 0.0;
  }
  if (n == 0) return;
  double *V = work, *dk = work + (size_t)bs * n;
  for (int b = 0; b < bs; b++)
    gp->ops->col(gp, X + b, ldx, V + (size_t)b * n,
                 grad ? dk + (size_t)b * n : NULL);
  solve_lower_many(n, gp->L, ld, V, n, bs);
  for (int b = 0; b < bs; b++) {
    const double *v = V + (size_t)b * n;
    mean[b] += F77_CALL(ddot)(&n, v, &one, gp->beta, &one);
    var[b] -= F77_CALL(ddot)(&n, v, &one, v, &one);
  }
  if (!grad) return;
  solve_upper_many(n, U, ld, V, n, bs);
  for (int b = 0; b < bs; b++)
    gp->ops->grad_moments(gp, X + b, ldx, alpha, V + (size_t)b * n,
                          dk + (size_t)b * n, dmean + (size_t)b * d,
                          dvar + (size_t)b * d);
}

void gp_upper(const cb_gp *gp, double *U) {
  const int n = gp->n, ld = gp->cap;
  for (int j = 0; j < n; j++)
    for (int i = 0; i <= j; i++)
      U[i + (size_t)j * ld] = gp->L[j + (size_t)i * ld];
}

/* Element `name` of a packed fit: doubles. */
static SEXP pack_reals(SEXP packed, const char *name) {
  SEXP v = cb_elt(packed, "costbo_gp_pack", name);
  if (TYPEOF(v) != REALSXP)
    Rf_error("element `%s` of the costbo_gp_pack object must be doubles",
             name);
  return v;
}

/* A fit packed by gp_pack() (R/gp-variants.R), read by name. */
void gp_unpack(cb_gp *gp, SEXP packed, int extra) {
  SEXP X = pack_reals(packed, "X"), y = pack_reals(packed, "y");
  SEXP L = pack_reals(packed, "L"), beta = pack_reals(packed, "beta");
  SEXP hyp = pack_reals(packed, "hyp"), fmean = pack_reals(packed, "fmean");
  SEXP fcov = pack_reals(packed, "fcov");
  const int kern = cb_elt_int(packed, "costbo_gp_pack", "kcode");
  if (!Rf_isMatrix(X))
    Rf_error("element `X` of the costbo_gp_pack object must be a matrix");
  const int n = Rf_nrows(X), d = Rf_ncols(X);
  /* R checked the whole object (check_gp_object()); these are the sizes
   * every later index relies on, checked once more in O(1). */
  const cb_gp_ops *ops = gp_ops(kern);
  const R_xlen_t nn = (R_xlen_t)n * n, nf = Rf_xlength(fmean);
  if (ops == NULL || Rf_xlength(y) != n || Rf_xlength(L) != nn ||
      Rf_xlength(beta) != n || Rf_xlength(hyp) < d + 4 ||
      (ops->inputs == CB_INPUT_INDEX &&
       (d != 1 || nf < 1 || Rf_xlength(fcov) != nf * nf)))
    Rf_error("internal error: an inconsistent GP reached C");
  gp_init(gp, kern, d, n, n + extra, REAL(X), REAL(y), REAL(L), REAL(beta),
          REAL(hyp), Rf_length(fmean), REAL(fmean), REAL(fcov));
  cb_transform tf;
  transform_unpack(&tf, cb_elt_list(packed, "costbo_gp_pack", "transform"),
                   d);
  gp_set_transform(gp, &tf);
}

void gp_kernel_col(const cb_gp *gp, const double *x, int ldx, double *kx,
                   double *dk) {
  if (dk) need_xgrad(gp);
  gp->ops->col(gp, x, ldx, kx, dk);
}

void gp_kernel_col_grad(const cb_gp *gp, const double *x, const double *u,
                        const double *dk, double *g) {
  need_xgrad(gp);
  gp->ops->grad_col(gp, x, u, dk, g);
}

double gp_kernel_dx(const cb_gp *gp, const double *x1, const double *x2,
                    double c, double *g) {
  if (!g) return gp->ops->kernel(gp, x1, 1, x2, 1);
  need_xgrad(gp);
  return gp->ops->kernel_dx(gp, x1, x2, c, g);
}

int gp_fantasy_add(cb_gp *gp, const double *x, int ldx, double y) {
  const int n = gp->n, ld = gp->cap;
  double *row = gp->L + n, s = 0.0, t = 0.0;
  if (n >= gp->cap) return 1;
  if (gp->tf.discrete) {
    /* the row of a typed GP holds T(x) (see gp_set_transform) */
    transform_apply(&gp->tf, x, ldx, gp->tx + 2 * gp->d);
    for (int k = 0; k < gp->d; k++)
      gp->X[n + (size_t)k * ld] = gp->tx[2 * gp->d + k];
  } else {
    for (int k = 0; k < gp->d; k++)
      gp->X[n + (size_t)k * ld] = x[(size_t)k * ldx];
  }
  for (int j = 0; j < n; j++)
    row[(size_t)j * ld] = gp_kernel(gp, gp->X + j, ld, gp->X + n, ld);
  if (n > 0)
    F77_CALL(dtrsv)("L", "N", "N", &n, gp->L, &ld, row, &ld
                    FCONE FCONE FCONE);
  for (int j = 0; j < n; j++) {
    s += row[(size_t)j * ld] * row[(size_t)j * ld];
    t += row[(size_t)j * ld] * gp->beta[j];
  }
  double piv = gp_kernel(gp, gp->X + n, ld, gp->X + n, ld) + gp->noise +
               gp->jitter - s;
  if (!(piv > 0.0)) return 1;
  piv = sqrt(piv);
  gp->L[n + (size_t)n * ld] = piv;
  gp->y[n] = y;
  gp->beta[n] = (y - gp_prior_mean(gp, gp->X + n, ld) - t) / piv;
  gp->n = n + 1;
  return 0;
}

void gp_fantasy_drop(cb_gp *gp) {
  if (gp->n > 0) gp->n--;
}

double gp_sample(const cb_gp *gp, int m, const double *Xn, int ldn, int nsim,
                 const double *z, double *out) {
  const int n = gp->n, ld = gp->cap, one = 1;
  const double done = 1.0;
  double *S = (double *)R_alloc((size_t)m * m, sizeof(double));
  double *mu = (double *)R_alloc((size_t)m, sizeof(double));
  double *V = NULL, scale = 0.0, jit = 0.0;
  int info = 1;
  for (int j = 0; j < m; j++) {
    mu[j] = gp_prior_mean(gp, Xn + j, ldn);
    for (int i = j; i < m; i++)
      S[i + (size_t)j * m] = gp_kernel(gp, Xn + i, ldn, Xn + j, ldn);
    scale += S[j + (size_t)j * m];
  }
  scale = scale > 0.0 ? scale / m : 1.0;
  if (n > 0) {
    V = (double *)R_alloc((size_t)n * m, sizeof(double));
    /* V = L^{-1} k(X, Xn) in blocks of 64 columns, with an interrupt check
     * between blocks (the columns of a triangular solve are independent) */
    for (int j0 = 0; j0 < m; j0 += 64) {
      int cs = m - j0 < 64 ? m - j0 : 64;
      R_CheckUserInterrupt();
      for (int j = j0; j < j0 + cs; j++)
        for (int i = 0; i < n; i++)
          V[i + (size_t)j * n] = gp_kernel(gp, gp->X + i, ld, Xn + j, ldn);
      F77_CALL(dtrsm)("L", "L", "N", "N", &n, &cs, &done, gp->L, &ld,
                      V + (size_t)j0 * n, &n FCONE FCONE FCONE FCONE);
    }
    F77_CALL(dgemv)("T", &n, &m, &done, V, &n, gp->beta, &one, &done, mu,
                    &one FCONE);
    /* S <- S - V'V (lower triangle) in blocks of 64 columns, with an
     * interrupt check between blocks (m = 1000 points of a fit to n = 1200
     * held an interrupt for up to 0.55 s).  The reference BLAS dsyrk on the
     * diagonal block and dgemm below it form every element as the same dot
     * product as one dsyrk call, in the same order: the same bits. */
    const double mone = -1.0;
    for (int j0 = 0; j0 < m; j0 += 64) {
      const int cs = m - j0 < 64 ? m - j0 : 64, r = m - j0 - cs;
      const double *Vj = V + (size_t)j0 * n;
      double *Sj = S + j0 + (size_t)j0 * m;
      R_CheckUserInterrupt();
      F77_CALL(dsyrk)("L", "T", &cs, &n, &mone, Vj, &n, &done, Sj, &m
                      FCONE FCONE);
      if (r > 0)
        F77_CALL(dgemm)("T", "N", &r, &cs, &n, &mone, Vj + (size_t)cs * n, &n,
                        Vj, &n, &done, Sj + cs, &m FCONE FCONE);
    }
  }
  double *C = (double *)R_alloc((size_t)m * m, sizeof(double));
  for (int rung = 0; rung < CB_RUNGS && info != 0; rung++) {
    R_CheckUserInterrupt();
    jit = rung_jitter(rung, scale);
    for (int j = 0; j < m; j++) {
      for (int i = j; i < m; i++) C[i + (size_t)j * m] = S[i + (size_t)j * m];
      for (int i = 0; i < j; i++) C[i + (size_t)j * m] = 0.0;
      C[j + (size_t)j * m] += jit;
    }
    la_potrf(m, C, m, &info);
    la_check("dpotrf", info);
  }
  if (info != 0) return -1.0;
  for (int s = 0; s < nsim; s++)
    for (int i = 0; i < m; i++) out[i + (size_t)s * m] = mu[i];
  /* out += C z in blocks of samples (about 2^24 multiply-adds each), with
   * an interrupt check between blocks: every column of a dgemm product is
   * computed on its own, so the blocks give the product of one call. */
  const double per = (double)m * m;
  int bs = per >= 16777216.0 ? 1 : (int)(16777216.0 / per);
  if (bs > nsim) bs = nsim;
  for (int s0 = 0; s0 < nsim; s0 += bs) {
    int cs = nsim - s0 < bs ? nsim - s0 : bs;
    R_CheckUserInterrupt();
    F77_CALL(dgemm)("N", "N", &m, &cs, &m, &done, C, &m, z + (size_t)s0 * m,
                    &m, &done, out + (size_t)s0 * m, &m FCONE FCONE);
  }
  return jit;
}

/* ------------------------------------------------------------------------ */
/* Marginal likelihood and its gradient (for fitting)                       */
/* ------------------------------------------------------------------------ */

/* theta = (log ell[0..d-1], log sf2, log noise, mean); priors on ell, sf2 and
 * noise (Gamma(shape, rate) densities of the natural-scale values).
 *
 * profile = 0: the log posterior at theta as given.
 * profile = 1: the constant mean is replaced by its optimum given the other
 *   hyperparameters (generalized least squares; no prior on the mean), which
 *   is exact for ML and MAP alike.
 * profile = 2 (maximum likelihood only): the concentrated likelihood of
 *   kriging.  theta[d + 1] is then log g with noise = g * sf2, and sf2 as well
 *   as the mean take their closed-form optima; theta[d] is ignored.
 * In the profiled modes the gradient in the profiled entries is zero (they
 * sit at their optimum), and lik_eval writes the optimal values into
 * c->prof = (sf2, noise, mean). */
typedef struct {
  int n, d, p, profile;
  double (*kprof)(double r2, double *dk); /* the radial kernel's profile */
  const double *X, *y;
  int use_prior;
  const double *pshape, *prate;
  double *A, *B, *alpha, *v1, *theta, *gfull, *ell, *dl, *pg;
  const int *slot; /* slot[k]: free-vector index of theta[k], -1 if fixed */
  int nfree;
  double *last_x, last_f, *last_g, last_lml, jitter, prof[3];
  int have, nfun;
} lik_ctx;

static double log_gamma_prior(double v, double a, double b, double *dlog) {
  *dlog = (a - 1.0) - b * v;
  return a * log(b) - lgammafn(a) + (a - 1.0) * log(v) - b * v;
}

/* Negative log posterior (or negative log likelihood) at theta; grad (length
 * p) may be NULL.  Sets c->last_lml to the log likelihood. */
static double lik_eval(lik_ctx *c, const double *theta, double *grad) {
  const int n = c->n, d = c->d, one = 1, conc = c->profile == 2;
  double *A = c->A, *B = c->B, *alpha = c->alpha, *ell = c->ell;
  /* in concentrated mode the matrix factored is C = R + g I (unit scale) */
  double sf2 = conc ? 1.0 : exp(theta[d]);
  double noise = exp(theta[d + 1]), mu = theta[d + 2];
  int info = 1;
  double jit = 0.0;
  for (int k = 0; k < d; k++) ell[k] = exp(theta[k]);
  /* r2 into the lower triangle of A, then the unit kernel (upper triangle of
   * B) and its r2-derivative (lower triangle of B) */
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++) A[i + (size_t)j * n] = 0.0;
  for (int k = 0; k < d; k++) {
    const double *xk = c->X + (size_t)k * n, il2 = 1.0 / (ell[k] * ell[k]);
    for (int j = 0; j < n; j++) {
      double xj = xk[j], *a = A + (size_t)j * n;
      for (int i = j + 1; i < n; i++) {
        double t = xk[i] - xj;
        a[i] += t * t * il2;
      }
    }
  }
  for (int j = 0; j < n; j++) {
    if (j % 256 == 255) R_CheckUserInterrupt();
    for (int i = j + 1; i < n; i++) {
      double dk, kv = c->kprof(A[i + (size_t)j * n], &dk);
      B[j + (size_t)i * n] = kv;
      B[i + (size_t)j * n] = dk;
    }
  }
  for (int rung = 0; rung < CB_RUNGS && info != 0; rung++) {
    jit = rung_jitter(rung, sf2 + noise);
    for (int j = 0; j < n; j++) {
      A[j + (size_t)j * n] = sf2 + noise + jit;
      for (int i = j + 1; i < n; i++)
        A[i + (size_t)j * n] = sf2 * B[j + (size_t)i * n];
    }
    la_potrf(n, A, n, &info);
    la_check("dpotrf", info);
    if (info == 0 && !pivots_ok(A, n, n, sf2 + noise)) info = n;
  }
  c->jitter = jit;
  if (info != 0) {
    if (grad)
      for (int k = 0; k < c->p; k++) grad[k] = 0.0;
    c->last_lml = R_NegInf;
    return 1e300;
  }
  double logdet = 0.0, quad;
  for (int i = 0; i < n; i++) logdet += 2.0 * log(A[i + (size_t)i * n]);
  if (c->profile > 0) {
    /* mean = (1' K^-1 y) / (1' K^-1 1) through v1 = L^-1 1, alpha = L^-1 y */
    double *v1 = c->v1, s11, s1y;
    for (int i = 0; i < n; i++) {
      v1[i] = 1.0;
      alpha[i] = c->y[i];
    }
    F77_CALL(dtrsv)("L", "N", "N", &n, A, &n, v1, &one FCONE FCONE FCONE);
    F77_CALL(dtrsv)("L", "N", "N", &n, A, &n, alpha, &one FCONE FCONE FCONE);
    s11 = F77_CALL(ddot)(&n, v1, &one, v1, &one);
    s1y = F77_CALL(ddot)(&n, v1, &one, alpha, &one);
    mu = s1y / s11;
    for (int i = 0; i < n; i++) alpha[i] -= mu * v1[i];
  } else {
    for (int i = 0; i < n; i++) alpha[i] = c->y[i] - mu;
    F77_CALL(dtrsv)("L", "N", "N", &n, A, &n, alpha, &one FCONE FCONE FCONE);
  }
  quad = F77_CALL(ddot)(&n, alpha, &one, alpha, &one);
  F77_CALL(dtrsv)("L", "T", "N", &n, A, &n, alpha, &one FCONE FCONE FCONE);
  double lml, scale = 1.0; /* scale: the profiled sf2 in concentrated mode */
  if (conc) {
    scale = quad / n;
    lml = -0.5 * n * (log(scale) + CB_LOG2PI + 1.0) - 0.5 * logdet;
  } else {
    lml = -0.5 * quad - 0.5 * logdet - 0.5 * n * CB_LOG2PI;
  }
  c->prof[0] = conc ? scale : sf2;
  c->prof[1] = conc ? noise * scale : noise;
  c->prof[2] = mu;
  double lp = 0.0, *dl = c->dl, dsf = 0.0, dno = 0.0, dmu = 0.0;
  double *pg = c->pg;
  for (int k = 0; k < d + 2; k++) pg[k] = 0.0;
  if (c->use_prior) {
    for (int k = 0; k < d; k++)
      lp += log_gamma_prior(ell[k], c->pshape[0], c->prate[0], pg + k);
    lp += log_gamma_prior(sf2, c->pshape[1], c->prate[1], pg + d);
    lp += log_gamma_prior(noise, c->pshape[2], c->prate[2], pg + d + 1);
  }
  c->last_lml = lml;
  if (grad) {
    la_potri(n, A, n, &info);
    la_check("dpotri", info);
    /* A <- W = alpha alpha' / scale - K^{-1} (lower triangle); for K = s C
     * the gradient is (1/2) tr(W dC) in every kernel parameter */
    double wdiag = 0.0, offk = 0.0;
    const double is = 1.0 / scale;
    for (int j = 0; j < n; j++) {
      dmu += alpha[j];
      wdiag += alpha[j] * alpha[j] * is - A[j + (size_t)j * n];
      for (int i = j + 1; i < n; i++) {
        double w = alpha[i] * alpha[j] * is - A[i + (size_t)j * n];
        offk += w * B[j + (size_t)i * n];
        /* fold W into dk for the lengthscale pass */
        B[i + (size_t)j * n] *= w;
      }
    }
    for (int k = 0; k < d; k++) {
      const double *xk = c->X + (size_t)k * n;
      double s = 0.0;
      for (int j = 0; j < n; j++) {
        double xj = xk[j];
        const double *b = B + (size_t)j * n;
        for (int i = j + 1; i < n; i++) {
          double t = xk[i] - xj;
          s += b[i] * t * t;
        }
      }
      dl[k] = -2.0 * sf2 * s / (ell[k] * ell[k]);
    }
    dsf = conc ? 0.0 : sf2 * (offk + 0.5 * wdiag);
    dno = 0.5 * noise * wdiag;
    if (c->profile > 0) dmu = 0.0;
    for (int k = 0; k < d; k++) grad[k] = -(dl[k] + pg[k]);
    grad[d] = -(dsf + pg[d]);
    grad[d + 1] = -(dno + pg[d + 1]);
    grad[d + 2] = -dmu;
  }
  return -(lml + lp);
}

static void lik_at(lik_ctx *c, const double *xfree) {
  int same = c->have;
  for (int k = 0; k < c->nfree && same; k++) same = c->last_x[k] == xfree[k];
  if (same) return;
  R_CheckUserInterrupt();
  for (int k = 0; k < c->p; k++)
    if (c->slot[k] >= 0) c->theta[k] = xfree[c->slot[k]];
  c->last_f = lik_eval(c, c->theta, c->gfull);
  for (int k = 0; k < c->nfree; k++) {
    c->last_x[k] = xfree[k];
    c->last_g[k] = 0.0;
  }
  for (int k = 0; k < c->p; k++)
    if (c->slot[k] >= 0) c->last_g[c->slot[k]] += c->gfull[k];
  c->have = 1;
  c->nfun++;
}

static double lik_fn(int np, double *x, void *ex) {
  (void)np;
  lik_ctx *c = (lik_ctx *)ex;
  lik_at(c, x);
  return c->last_f;
}

static void lik_gr(int np, double *x, double *g, void *ex) {
  lik_ctx *c = (lik_ctx *)ex;
  lik_at(c, x);
  for (int k = 0; k < np; k++) g[k] = c->last_g[k];
}

static void lik_setup(lik_ctx *c, int kernel, int n, int d, const double *X,
                      const double *y, int use_prior, const double *pshape,
                      const double *prate, int profile) {
  const cb_gp_ops *ops = gp_ops(kernel);
  if (!ops || !ops->profile)
    Rf_error("internal error: the likelihood of kernel code %d", kernel);
  c->kprof = ops->profile;
  c->profile = profile;
  c->n = n;
  c->d = d;
  c->p = d + 3;
  c->X = X;
  c->y = y;
  c->use_prior = use_prior;
  c->pshape = pshape;
  c->prate = prate;
  c->A = (double *)R_alloc((size_t)n * n, sizeof(double));
  c->B = (double *)R_alloc((size_t)n * n, sizeof(double));
  c->alpha = (double *)R_alloc((size_t)n, sizeof(double));
  c->v1 = (double *)R_alloc((size_t)n, sizeof(double));
  c->theta = (double *)R_alloc((size_t)c->p, sizeof(double));
  c->gfull = (double *)R_alloc((size_t)c->p, sizeof(double));
  c->ell = (double *)R_alloc((size_t)c->p, sizeof(double));
  c->dl = (double *)R_alloc((size_t)c->p, sizeof(double));
  c->pg = (double *)R_alloc((size_t)c->p, sizeof(double));
  c->last_x = (double *)R_alloc((size_t)c->p, sizeof(double));
  c->last_g = (double *)R_alloc((size_t)c->p, sizeof(double));
  c->have = 0;
  c->nfun = 0;
}

/* ------------------------------------------------------------------------ */
/* R entry points                                                           */
/* ------------------------------------------------------------------------ */

/* Factor gp (gp_factor()), or stop when even the largest jitter fails. */
static void factor_or_stop(cb_gp *gp) {
  if (gp_factor(gp) != 0)
    Rf_error("the covariance matrix is not positive definite even with "
             "jitter %g",
             rung_jitter(CB_RUNGS - 1, 1.0));
}

/* The factor of gp as out[at], out[at + 1], out[at + 2]: L (its lower
 * triangle, zeros above), beta and the jitter it needed. */
static void set_factor(SEXP out, int at, const cb_gp *gp) {
  const int n = gp->n;
  SEXP Lr = PROTECT(Rf_allocMatrix(REALSXP, n, n));
  double *l = REAL(Lr);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      l[i + (size_t)j * n] = i >= j ? gp->L[i + (size_t)j * gp->cap] : 0.0;
  SET_VECTOR_ELT(out, at, Lr);
  SEXP br = PROTECT(Rf_allocVector(REALSXP, n));
  if (n > 0) memcpy(REAL(br), gp->beta, (size_t)n * sizeof(double));
  SET_VECTOR_ELT(out, at + 1, br);
  SET_VECTOR_ELT(out, at + 2, Rf_ScalarReal(gp->jitter));
  UNPROTECT(2);
}

SEXP C_gp_factor(SEXP X, SEXP y, SEXP kernel, SEXP hyp, SEXP fmean,
                 SEXP fcov) {
  const int n = Rf_nrows(X), d = Rf_ncols(X);
  cb_gp gp;
  gp_init(&gp, Rf_asInteger(kernel), d, n, n, REAL(X), REAL(y), NULL, NULL,
          REAL(hyp), Rf_length(fmean), REAL(fmean), REAL(fcov));
  factor_or_stop(&gp);
  const char *nms[] = {"L", "beta", "jitter", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  set_factor(out, 0, &gp);
  UNPROTECT(1);
  return out;
}

SEXP C_gp_predict(SEXP gpk, SEXP Xnew, SEXP grad) {
  const int m = Rf_nrows(Xnew), g = Rf_asLogical(grad);
  int np = 0;
  cb_gp gp;
  gp_unpack(&gp, gpk, 0);
  const int d = gp.d; /* outputs sized by the GP's own dimension */
  if (g) need_xgrad(&gp);
  if (Rf_ncols(Xnew) != d)
    Rf_error("internal error: points with %d columns for a GP on %d",
             Rf_ncols(Xnew), d);
  const char *nms[] = {"mean", "var", "dmean", "dvar", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, m));
  SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, m));
  double *dm = NULL, *dv = NULL;
  if (g) {
    SET_VECTOR_ELT(out, 2, Rf_allocMatrix(REALSXP, d, m));
    SET_VECTOR_ELT(out, 3, Rf_allocMatrix(REALSXP, d, m));
    dm = REAL(VECTOR_ELT(out, 2));
    dv = REAL(VECTOR_ELT(out, 3));
  }
  gp_predict(&gp, m, REAL(Xnew), m, REAL(VECTOR_ELT(out, 0)),
             REAL(VECTOR_ELT(out, 1)), dm, dv);
  UNPROTECT(np);
  return out;
}

SEXP C_gp_lik(SEXP X, SEXP y, SEXP kernel, SEXP theta, SEXP use_prior,
              SEXP pshape, SEXP prate, SEXP profile) {
  const int n = Rf_nrows(X), d = Rf_ncols(X);
  int np = 0;
  lik_ctx c;
  lik_setup(&c, Rf_asInteger(kernel), n, d, REAL(X), REAL(y),
            Rf_asLogical(use_prior), REAL(pshape), REAL(prate),
            Rf_asInteger(profile));
  const char *nms[] = {"value", "gradient", "loglik", "jitter", "profiled",
                       ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SEXP gr = PROTECT(Rf_allocVector(REALSXP, d + 3));
  np++;
  double v = lik_eval(&c, REAL(theta), REAL(gr));
  SET_VECTOR_ELT(out, 0, Rf_ScalarReal(v));
  SET_VECTOR_ELT(out, 1, gr);
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(c.last_lml));
  SET_VECTOR_ELT(out, 3, Rf_ScalarReal(c.jitter));
  SEXP pr = PROTECT(Rf_allocVector(REALSXP, 3));
  np++;
  memcpy(REAL(pr), c.prof, 3 * sizeof(double));
  SET_VECTOR_ELT(out, 4, pr);
  UNPROTECT(np);
  return out;
}

SEXP C_gp_fit(SEXP X, SEXP y, SEXP kernel, SEXP starts, SEXP lower,
              SEXP upper, SEXP slot, SEXP use_prior, SEXP pshape, SEXP prate,
              SEXP profile, SEXP control) {
  const int n = Rf_nrows(X), d = Rf_ncols(X), p = d + 3;
  const int S = Rf_ncols(starts);
  /* control: a costbo_fit_control (gp_fit_control() in R/gp-fit.R).  The
   * result also holds every run's end point (in the internal
   * parameterization, ready to be a start) and value. */
  const char *cls = "costbo_fit_control";
  const int n_opt = cb_elt_int(control, cls, "n_starts");
  const int maxit = cb_elt_int(control, cls, "maxit");
  const int lmm = cb_elt_int(control, cls, "lmm");
  const int race = cb_elt_int(control, cls, "race");
  /* run only when the best screened value is below the bar */
  const double bar = cb_elt_real(control, cls, "bar");
  const double factr = cb_elt_real(control, cls, "factr");
  const double pgtol = cb_elt_real(control, cls, "pgtol");
  const double split = cb_elt_real(control, cls, "split");
  /* the GP's factor at the optimum too (hyperparameters exp(theta), the
   * mean, no jitter to start from), as gp_factor() makes it */
  const int factor = cb_elt_int(control, cls, "factor");
  const int *sl = INTEGER(slot);
  int np = 0, nfree = 0;
  lik_ctx c;
  lik_setup(&c, Rf_asInteger(kernel), n, d, REAL(X), REAL(y),
            Rf_asLogical(use_prior), REAL(pshape), REAL(prate),
            Rf_asInteger(profile));
  /* first[j]: the theta index that represents free slot j */
  int *first = (int *)R_alloc((size_t)p, sizeof(int));
  for (int k = 0; k < p; k++)
    if (sl[k] >= 0 && sl[k] + 1 > nfree) nfree = sl[k] + 1;
  for (int k = p - 1; k >= 0; k--)
    if (sl[k] >= 0) first[sl[k]] = k;
  c.slot = sl;
  c.nfree = nfree;
  /* screen the starts by their value, then optimize from the best n_opt */
  double *sval = (double *)R_alloc((size_t)S, sizeof(double));
  int *order = (int *)R_alloc((size_t)S, sizeof(int));
  for (int s = 0; s < S; s++) {
    R_CheckUserInterrupt();
    sval[s] = lik_eval(&c, REAL(starts) + (size_t)s * p, NULL);
    order[s] = s;
    c.nfun++;
  }
  rsort_with_index(sval, order, S);
  /* Diversity: the second run starts from the best point on the other side
   * of the noise split (log noise entry), so that a noisy optimum and
   * a noise-free one are both explored; screening by value alone favours
   * low-noise starts, which overfit noisy data. */
  if (S > 2 && n_opt > 1 && R_FINITE(split)) {
    const double *best = REAL(starts) + (size_t)order[0] * p;
    const int low = best[d + 1] < split;
    for (int s = 1; s < S; s++) {
      const double *st = REAL(starts) + (size_t)order[s] * p;
      if ((st[d + 1] < split) != low) {
        int o = order[s];
        double v = sval[s];
        for (int t = s; t > 1; t--) {
          order[t] = order[t - 1];
          sval[t] = sval[t - 1];
        }
        order[1] = o;
        sval[1] = v;
        break;
      }
    }
  }
  double *xf = (double *)R_alloc((size_t)(nfree > 0 ? nfree : 1), sizeof(double));
  double *lo = (double *)R_alloc((size_t)(nfree > 0 ? nfree : 1), sizeof(double));
  double *up = (double *)R_alloc((size_t)(nfree > 0 ? nfree : 1), sizeof(double));
  int *nbd = (int *)R_alloc((size_t)(nfree > 0 ? nfree : 1), sizeof(int));
  for (int k = 0; k < nfree; k++) {
    double l = REAL(lower)[first[k]], u = REAL(upper)[first[k]];
    lo[k] = R_FINITE(l) ? l : 0.0;
    up[k] = R_FINITE(u) ? u : 0.0;
    nbd[k] = R_FINITE(l) ? (R_FINITE(u) ? 2 : 1) : (R_FINITE(u) ? 3 : 0);
  }
  double *best = (double *)R_alloc((size_t)p, sizeof(double));
  double bestf = R_PosInf;
  int conv = 0, runs = S < n_opt ? S : n_opt;
  if (!(sval[0] < bar)) {
    /* no run: report the best screened start */
    runs = 0;
    bestf = sval[0];
    memcpy(best, REAL(starts) + (size_t)order[0] * p, (size_t)p * sizeof(double));
  }
  char msg[60];
  SEXP rth = PROTECT(Rf_allocMatrix(REALSXP, p, runs));
  np++;
  SEXP rval = PROTECT(Rf_allocVector(REALSXP, runs));
  np++;
  for (int r = 0; r < runs; r++) {
    const double *st = REAL(starts) + (size_t)order[r] * p;
    for (int k = 0; k < p; k++) c.theta[k] = st[k];
    for (int k = 0; k < nfree; k++) xf[k] = st[first[k]];
    double fmin = 0.0;
    int fail = 0, fnc = 0, grc = 0;
    c.have = 0;
    if (nfree > 0) {
      /* Racing: a later run first gets `race` iterations, and continues to
       * convergence only if it has already overtaken the best run so far;
       * runs heading for a worse optimum stop early. */
      if (r > 0 && race > 0 && race < maxit) {
        lbfgsb(nfree, lmm, xf, lo, up, nbd, &fmin, lik_fn, lik_gr, &fail,
               &c, factr, pgtol, &fnc, &grc, race, msg, 0, 10);
        if (fail == 1 && fmin < bestf)
          lbfgsb(nfree, lmm, xf, lo, up, nbd, &fmin, lik_fn, lik_gr, &fail,
                 &c, factr, pgtol, &fnc, &grc, maxit - race, msg, 0, 10);
      } else {
        lbfgsb(nfree, lmm, xf, lo, up, nbd, &fmin, lik_fn, lik_gr, &fail,
               &c, factr, pgtol, &fnc, &grc, maxit, msg, 0, 10);
      }
      for (int k = 0; k < p; k++)
        if (sl[k] >= 0) c.theta[k] = xf[sl[k]];
    } else {
      fmin = lik_eval(&c, c.theta, NULL);
    }
    memcpy(REAL(rth) + (size_t)r * p, c.theta, (size_t)p * sizeof(double));
    REAL(rval)[r] = fmin;
    if (fmin < bestf) {
      bestf = fmin;
      conv = fail;
      memcpy(best, c.theta, (size_t)p * sizeof(double));
    }
  }
  lik_eval(&c, best, NULL);
  /* report theta in the plain parameterization */
  if (c.profile > 0) {
    best[d] = log(c.prof[0]);
    best[d + 1] = log(c.prof[1]);
    best[d + 2] = c.prof[2];
  }
  const char *nms[] = {"theta", "value", "loglik", "nfun", "convergence",
                       "runs", "run_values", "hyp", "L", "beta", "jitter",
                       ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SEXP th = PROTECT(Rf_allocVector(REALSXP, p));
  np++;
  memcpy(REAL(th), best, (size_t)p * sizeof(double));
  SET_VECTOR_ELT(out, 0, th);
  if (factor) {
    SEXP hyp = PROTECT(Rf_allocVector(REALSXP, p + 1));
    np++;
    double *h = REAL(hyp);
    for (int k = 0; k < d + 2; k++) h[k] = exp(best[k]);
    h[d + 2] = best[d + 2];
    h[d + 3] = 0.0;
    cb_gp gp;
    gp_init(&gp, Rf_asInteger(kernel), d, n, n, REAL(X), REAL(y), NULL, NULL,
            h, 0, NULL, NULL);
    factor_or_stop(&gp);
    h[d + 3] = gp.jitter;
    SET_VECTOR_ELT(out, 7, hyp);
    set_factor(out, 8, &gp);
  }
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(bestf));
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(c.last_lml));
  SET_VECTOR_ELT(out, 3, Rf_ScalarInteger(c.nfun));
  SET_VECTOR_ELT(out, 4, Rf_ScalarInteger(conv));
  SET_VECTOR_ELT(out, 5, rth);
  SET_VECTOR_ELT(out, 6, rval);
  UNPROTECT(np);
  return out;
}

static SEXP factor_to_sexp(const cb_gp *gp, const char **nms) {
  const int n = gp->n;
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  SEXP Lr = PROTECT(Rf_allocMatrix(REALSXP, n, n));
  double *l = REAL(Lr);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      l[i + (size_t)j * n] = i >= j ? gp->L[i + (size_t)j * gp->cap] : 0.0;
  SET_VECTOR_ELT(out, 0, Lr);
  SEXP br = PROTECT(Rf_allocVector(REALSXP, n));
  if (n > 0) memcpy(REAL(br), gp->beta, (size_t)n * sizeof(double));
  SET_VECTOR_ELT(out, 1, br);
  UNPROTECT(3);
  return out;
}

SEXP C_gp_condition(SEXP gpk, SEXP Xadd, SEXP yadd) {
  const int k = Rf_nrows(Xadd);
  cb_gp gp;
  gp_unpack(&gp, gpk, k);
  if (Rf_ncols(Xadd) != gp.d || Rf_xlength(yadd) != k)
    Rf_error("internal error: points with %d columns for a GP on %d",
             Rf_ncols(Xadd), gp.d);
  for (int i = 0; i < k; i++)
    if (gp_fantasy_add(&gp, REAL(Xadd) + i, k, REAL(yadd)[i]) != 0)
      Rf_error("conditioning on point %d failed: its posterior variance plus "
               "noise is not positive (a duplicated point with zero noise)",
               i + 1);
  const char *nms[] = {"L", "beta", ""};
  return factor_to_sexp(&gp, nms);
}

SEXP C_gp_sample(SEXP gpk, SEXP Xnew, SEXP nsim) {
  const int m = Rf_nrows(Xnew), ns = Rf_asInteger(nsim);
  int np = 0;
  cb_gp gp;
  gp_unpack(&gp, gpk, 0);
  if (Rf_ncols(Xnew) != gp.d)
    Rf_error("internal error: points with %d columns for a GP on %d",
             Rf_ncols(Xnew), gp.d);
  double *z = (double *)R_alloc((size_t)m * ns, sizeof(double));
  GetRNGstate();
  for (size_t i = 0; i < (size_t)m * ns; i++) {
    if ((i & 0xfffff) == 0xfffff) R_CheckUserInterrupt();
    z[i] = norm_rand();
  }
  PutRNGstate();
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, m, ns));
  np++;
  double jit = gp_sample(&gp, m, REAL(Xnew), m, ns, z, REAL(out));
  if (jit < 0.0)
    Rf_error("the posterior covariance is not positive semi-definite");
  UNPROTECT(np);
  return out;
}

SEXP C_gp_rff_eval(SEXP X, SEXP omega, SEXP phase, SEXP weight,
                   SEXP scale) {
  const int m = Rf_nrows(X), d = Rf_ncols(X), M = Rf_nrows(omega);
  const double sc = Rf_asReal(scale), dzero = 0.0, done = 1.0;
  /* rows per block: 512, fewer with many features, so that a block (and
   * the time between interrupt checks) holds about 2^20 cosines; every row
   * is computed on its own, so the blocking does not change the values */
  const int blk = M > 2048 ? (M >= 1048576 ? 1 : 1048576 / M) : 512;
  int np = 0;
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  np++;
  double *f = REAL(out), *P = (double *)R_alloc((size_t)blk * M, sizeof(double));
  const double *w = REAL(weight), *b = REAL(phase);
  for (int b0 = 0; b0 < m; b0 += blk) {
    int nb = m - b0 < blk ? m - b0 : blk;
    R_CheckUserInterrupt();
    /* P (nb x M) = X[b0:b0+nb, ] %*% t(omega) */
    F77_CALL(dgemm)("N", "T", &nb, &M, &d, &done, REAL(X) + b0, &m,
                    REAL(omega), &M, &dzero, P, &nb FCONE FCONE);
    for (int i = 0; i < nb; i++) f[b0 + i] = 0.0;
    for (int j = 0; j < M; j++) {
      const double *pj = P + (size_t)j * nb;
      for (int i = 0; i < nb; i++) f[b0 + i] += w[j] * cos(pj[i] + b[j]);
    }
    for (int i = 0; i < nb; i++) f[b0 + i] *= sc;
  }
  UNPROTECT(np);
  return out;
}
