/* transform.c -- the input transform of typed search spaces (transform.h). */
#include "transform.h"
#include "entry.h"
#include "rlist.h"

static inline double tf_int(double u, double a, double b) {
  const double k = b - a + 1.0;
  double j = floor(u * k);
  if (!(j >= 0.0)) j = 0.0; /* also NaN */
  if (j > k - 1.0) j = k - 1.0;
  return (j + 0.5) / k;
}

static inline double tf_int_log(double u, double a, double b) {
  const double la = log(a), lb = log(b);
  double v = floor(exp(la + u * (lb - la)) + 0.5);
  if (!(v >= a)) v = a; /* also NaN */
  if (v > b) v = b;
  return (log(v) - la) / (lb - la);
}

void transform_apply(const cb_transform *t, const double *x, int ldx,
                     double *out) {
  const int d = t->d;
  for (int k = 0; k < d; k++) out[k] = x[(size_t)k * ldx];
  if (!t->discrete) return;
  for (int k = 0; k < d; k++) {
    switch (t->kind[k]) {
    case CB_TF_INT:
      out[k] = tf_int(out[k], t->a[k], t->b[k]);
      break;
    case CB_TF_INT_LOG:
      out[k] = tf_int_log(out[k], t->a[k], t->b[k]);
      break;
    case CB_TF_CAT: {
      const int m = (int)t->b[k];
      int best = k;
      for (int j = k + 1; j < k + m; j++)
        if (out[j] > out[best]) best = j;
      for (int j = k; j < k + m; j++) out[j] = j == best ? 1.0 : 0.0;
      k += m - 1;
      break;
    }
    default:
      break;
    }
  }
}

void transform_zero_discrete(const cb_transform *t, double *g) {
  if (!t->discrete) return;
  for (int k = 0; k < t->d; k++)
    if (t->kind[k] != CB_TF_NUM) g[k] = 0.0;
}

void transform_unpack(cb_transform *t, SEXP pack, int d) {
  SEXP kind = cb_elt(pack, "costbo_transform", "kind");
  t->d = d;
  t->discrete = 0;
  t->kind = NULL;
  t->a = t->b = NULL;
  if (TYPEOF(kind) != INTSXP)
    Rf_error("element `kind` of the costbo_transform object must be integers");
  if (XLENGTH(kind) == 0) return;
  if (XLENGTH(kind) != d)
    Rf_error("internal error: a transform of %d columns for %d inputs",
             (int)XLENGTH(kind), d);
  t->kind = INTEGER(kind);
  t->a = cb_elt_reals(pack, "costbo_transform", "a", d);
  t->b = cb_elt_reals(pack, "costbo_transform", "b", d);
  /* the layout C indexes by: valid kinds, a categorical block of m >= 2
   * columns followed by its m - 1 levels, integer bounds a < b (a >= 1 on
   * a log scale) */
  for (int k = 0; k < d; k++) {
    const int kk = t->kind[k];
    const double a = t->a[k], b = t->b[k];
    int ok = 1;
    switch (kk) {
    case CB_TF_NUM:
      break;
    case CB_TF_INT:
    case CB_TF_INT_LOG:
      ok = R_FINITE(a) && R_FINITE(b) && a < b && a == floor(a) &&
           b == floor(b) && (kk == CB_TF_INT || a >= 1.0);
      t->discrete = 1;
      break;
    case CB_TF_CAT:
      ok = R_FINITE(b) && b >= 2.0 && b == floor(b) && b <= d - k;
      if (ok) {
        const int m = (int)b;
        for (int j = k + 1; j < k + m; j++)
          if (t->kind[j] != CB_TF_LEVEL) ok = 0;
        if (ok) k += m - 1;
      }
      t->discrete = 1;
      break;
    default:
      ok = 0; /* CB_TF_LEVEL outside a block, or an unknown kind */
    }
    if (!ok)
      Rf_error("internal error: an inconsistent costbo_transform reached C "
               "(column %d)", k + 1);
  }
}

/* T at the rows of X (m x d). */
SEXP C_space_transform(SEXP pack, SEXP X) {
  if (!Rf_isMatrix(X) || TYPEOF(X) != REALSXP)
    Rf_error("internal error: `X` must be a double matrix");
  const int m = Rf_nrows(X), d = Rf_ncols(X);
  cb_transform t;
  transform_unpack(&t, pack, d);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, m, d));
  double *row = (double *)R_alloc((size_t)(d > 0 ? d : 1), sizeof(double));
  const double *x = REAL(X);
  double *o = REAL(out);
  for (int i = 0; i < m; i++) {
    transform_apply(&t, x + i, m, row);
    for (int k = 0; k < d; k++) o[i + (size_t)k * m] = row[k];
  }
  UNPROTECT(1);
  return out;
}
