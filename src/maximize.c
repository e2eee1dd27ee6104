/* maximize.c -- multistart L-BFGS-B over a box, exact argmax over a finite
 * set. */
#include "maximize.h"

#include "entry.h"
#include "rlist.h"
#include "qmc.h"

typedef struct {
  cb_objfn f;
  void *ctx;
  int d;
  double *x, *g; /* scratch of length d */
  double last_f;
  int have;
  double *last_x, *last_g;
} max_ctx;

static double safe_value(double v) { return R_FINITE(v) ? v : R_NegInf; }

static int all_finite(int d, const double *x) {
  for (int k = 0; k < d; k++)
    if (!R_FINITE(x[k])) return 0;
  return 1;
}

/* L-BFGS-B minimizes: evaluate -f with its gradient, cached by point */
static void max_at(max_ctx *c, const double *x) {
  int same = c->have;
  for (int k = 0; k < c->d && same; k++) same = c->last_x[k] == x[k];
  if (same) return;
  R_CheckUserInterrupt();
  /* L-BFGS-B can step to a non-finite point (its updates divide by
   * products of subnormal gradient components): such a point is never
   * evaluated (an objective written in R would be called with NaN) but is
   * the worst, as a non-finite value was before */
  double v = all_finite(c->d, x) ? c->f(c->d, x, c->last_g, c->ctx) : R_NaN;
  if (R_FINITE(v)) {
    c->last_f = -v;
    for (int k = 0; k < c->d; k++) {
      c->last_g[k] = -c->last_g[k];
      if (!R_FINITE(c->last_g[k])) c->last_g[k] = 0.0;
    }
  } else {
    c->last_f = 1e300;
    for (int k = 0; k < c->d; k++) c->last_g[k] = 0.0;
  }
  memcpy(c->last_x, x, (size_t)c->d * sizeof(double));
  c->have = 1;
}

static double max_fn(int n, double *x, void *ex) {
  (void)n;
  max_ctx *c = (max_ctx *)ex;
  max_at(c, x);
  return c->last_f;
}

static void max_gr(int n, double *x, double *g, void *ex) {
  max_ctx *c = (max_ctx *)ex;
  max_at(c, x);
  memcpy(g, c->last_g, (size_t)n * sizeof(double));
}

void max_control_default(cb_max_control *ctl, int d) {
  ctl->n_starts = 10 * d;
  ctl->select = CB_SELECT_BOLTZMANN;
  ctl->eta = 1.0;
  ctl->maxit = 200;
  ctl->factr = 1e7;
  ctl->pgtol = 0.0;
  ctl->lmm = 5;
  ctl->grad_phase = NULL;
  ctl->hook = NULL;
}

/* Sort idx[0..n-1] by increasing key, ties by increasing index. */
static void order_by_key(int n, double *key, int *idx) {
  for (int i = 0; i < n; i++) idx[i] = i;
  rsort_with_index(key, idx, n);
  for (int a = 0; a < n;) {
    int b = a + 1;
    while (b < n && key[b] == key[a]) b++;
    R_isort(idx + a, b - a);
    a = b;
  }
}

/* Choose k of the n raw points.  CB_SELECT_BEST: the k largest values.
 * CB_SELECT_BOLTZMANN: sample without replacement with weights
 * exp(eta * z), z the standardized values (Efraimidis-Spirakis keys
 * -log(u_i) / w_i, one uniform u_i per raw point), always keeping the best
 * raw point, as the initializer of the reference implementations does.
 * Without spread in the values (e.g. EI = 0 everywhere) the first k points
 * of the space-filling design are used. */
static void select_starts(int n, const double *vals, int k, int method,
                          double eta, const double *unif, int *chosen) {
  if (k <= 0) return;
  int *idx = (int *)R_alloc((size_t)n, sizeof(int));
  double *key = (double *)R_alloc((size_t)n, sizeof(double));
  int best = 0, nf = 0;
  double mean = 0.0, sd = 0.0;
  for (int i = 0; i < n; i++) {
    if (vals[i] > vals[best]) best = i;
    if (R_FINITE(vals[i])) {
      mean += vals[i];
      nf++;
    }
  }
  mean = nf > 0 ? mean / nf : 0.0;
  for (int i = 0; i < n; i++)
    if (R_FINITE(vals[i])) sd += (vals[i] - mean) * (vals[i] - mean);
  sd = nf > 1 ? sqrt(sd / (nf - 1)) : 0.0;
  if (!(sd > 0.0)) {
    for (int j = 0; j < k; j++) chosen[j] = j;
    return;
  }
  for (int i = 0; i < n; i++) {
    if (!R_FINITE(vals[i])) {
      key[i] = R_PosInf;
    } else if (method == CB_SELECT_BEST) {
      key[i] = -vals[i];
    } else {
      /* log weight shifted so that the best point has weight 1 */
      double lw = eta * (vals[i] - vals[best]) / sd;
      key[i] = -log(unif[i]) * exp(-lw);
    }
  }
  order_by_key(n, key, idx);
  int has_best = 0;
  for (int j = 0; j < k; j++) {
    chosen[j] = idx[j];
    if (idx[j] == best) has_best = 1;
  }
  if (!has_best) chosen[k - 1] = best;
}

double max_box(cb_objfn f, void *ctx, int d, const double *lower,
               const double *upper, int n_raw, const double *raw,
               const double *unif, const cb_max_control *ctl, double *xbest,
               double *raw_best) {
  max_ctx c;
  c.f = f;
  c.ctx = ctx;
  c.d = d;
  c.have = 0;
  c.last_x = (double *)R_alloc((size_t)d, sizeof(double));
  c.last_g = (double *)R_alloc((size_t)d, sizeof(double));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  double *pts = (double *)R_alloc((size_t)n_raw * d, sizeof(double));
  double *vals = (double *)R_alloc((size_t)n_raw, sizeof(double));
  int *nbd = (int *)R_alloc((size_t)d, sizeof(int));
  double *lo = (double *)R_alloc((size_t)d, sizeof(double));
  double *up = (double *)R_alloc((size_t)d, sizeof(double));
  for (int k = 0; k < d; k++) {
    nbd[k] = 2;
    lo[k] = lower[k];
    up[k] = upper[k];
  }
  for (int i = 0; i < n_raw; i++) {
    if (i % 256 == 255) R_CheckUserInterrupt();
    for (int k = 0; k < d; k++)
      x[k] = pts[i + (size_t)k * n_raw] =
          lower[k] + raw[i + (size_t)k * n_raw] * (upper[k] - lower[k]);
    vals[i] = safe_value(f(d, x, NULL, ctx));
  }
  int ns = ctl->n_starts < n_raw ? ctl->n_starts : n_raw;
  int *chosen = (int *)R_alloc((size_t)(ns > 0 ? ns : 1), sizeof(int));
  select_starts(n_raw, vals, ns, ctl->select, ctl->eta, unif, chosen);
  int ibest = 0;
  for (int i = 1; i < n_raw; i++)
    if (vals[i] > vals[ibest]) ibest = i;
  if (raw_best) *raw_best = vals[ibest];
  double best = vals[ibest];
  for (int k = 0; k < d; k++) xbest[k] = pts[ibest + (size_t)k * n_raw];
  char msg[60];
  for (int s = 0; s < ns; s++) {
    R_CheckUserInterrupt();
    for (int k = 0; k < d; k++) x[k] = pts[chosen[s] + (size_t)k * n_raw];
    double fmin = 0.0;
    int fail = 0, fnc = 0, grc = 0;
    c.have = 0;
    if (ctl->grad_phase) ctl->grad_phase(ctl->hook, 0);
    lbfgsb(d, ctl->lmm, x, lo, up, nbd, &fmin, max_fn, max_gr, &fail, &c, ctl->factr,
           ctl->pgtol, &fnc, &grc, ctl->maxit, msg, 0, 10);
    /* the polish: exact gradients from where the approximate ones led (a
     * fresh L-BFGS-B, whose memory holds no approximate pair) */
    if (ctl->grad_phase && ctl->grad_phase(ctl->hook, 1) && all_finite(d, x)) {
      c.have = 0;
      lbfgsb(d, ctl->lmm, x, lo, up, nbd, &fmin, max_fn, max_gr, &fail, &c,
             ctl->factr, ctl->pgtol, &fnc, &grc, ctl->maxit, msg, 0, 10);
    }
    /* re-evaluate at the returned point: L-BFGS-B may return its last
     * trial rather than the best point seen (or a non-finite one, the
     * worst, never evaluated) */
    double v = all_finite(d, x) ? safe_value(f(d, x, NULL, ctx)) : R_NegInf;
    if (v > best) {
      best = v;
      memcpy(xbest, x, (size_t)d * sizeof(double));
    }
  }
  return best;
}

double max_box_sobol(cb_objfn f, void *ctx, int d, const double *lower,
                     const double *upper, int n_raw,
                     const cb_max_control *ctl, double *xbest,
                     double *raw_best) {
  double *raw = (double *)R_alloc((size_t)n_raw * d, sizeof(double));
  double *unif = (double *)R_alloc((size_t)n_raw, sizeof(double));
  qmc_sobol_random(n_raw, d, 0, raw);
  for (int i = 0; i < n_raw; i++) unif[i] = unif_rand();
  return max_box(f, ctx, d, lower, upper, n_raw, raw, unif, ctl, xbest,
                 raw_best);
}

int max_finite(cb_objfn f, void *ctx, int d, int m, const double *cand,
               double *vals) {
  double *x = (double *)R_alloc((size_t)d, sizeof(double)), best = R_NegInf;
  int ib = 0;
  for (int i = 0; i < m; i++) {
    if (i % 256 == 255) R_CheckUserInterrupt();
    for (int k = 0; k < d; k++) x[k] = cand[i + (size_t)k * m];
    double v = safe_value(f(d, x, NULL, ctx));
    if (vals) vals[i] = v;
    if (v > best) {
      best = v;
      ib = i;
    }
  }
  return ib;
}

/* ------------------------------------------------------------------------ */
/* R entry points                                                           */
/* ------------------------------------------------------------------------ */

SEXP max_eval_rows(cb_objfn f, void *ctx, SEXP X, int grad) {
  const int m = Rf_nrows(X), d = Rf_ncols(X);
  const char *nms[] = {"value", "grad", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, m));
  double *val = REAL(VECTOR_ELT(out, 0)), *gr = NULL;
  if (grad) {
    SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, d, m));
    gr = REAL(VECTOR_ELT(out, 1));
  }
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < m; i++) {
    if ((i & 63) == 63) R_CheckUserInterrupt();
    for (int k = 0; k < d; k++) x[k] = REAL(X)[i + (size_t)k * m];
    val[i] = f(d, x, grad ? gr + (size_t)i * d : NULL, ctx);
  }
  UNPROTECT(1);
  return out;
}

SEXP max_box_result(const double *x, int d, double value, double raw_best) {
  const char *nms[] = {"x", "value", "raw_best", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  SEXP xr = Rf_allocVector(REALSXP, d);
  SET_VECTOR_ELT(out, 0, xr);
  memcpy(REAL(xr), x, (size_t)d * sizeof(double));
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(value));
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(raw_best));
  UNPROTECT(1);
  return out;
}

void unpack_max_control(SEXP ctl, cb_max_control *mc) {
  const char *cls = "costbo_max_control";
  mc->n_starts = cb_elt_int(ctl, cls, "n_starts");
  mc->select = cb_elt_int(ctl, cls, "select");
  mc->eta = cb_elt_real(ctl, cls, "eta");
  mc->maxit = cb_elt_int(ctl, cls, "maxit");
  mc->factr = cb_elt_real(ctl, cls, "factr");
  mc->pgtol = cb_elt_real(ctl, cls, "pgtol");
  mc->lmm = cb_elt_int(ctl, cls, "lmm");
  mc->grad_phase = NULL;
  mc->hook = NULL;
  /* R built it from checked settings (max_control()); what the maximizer
   * indexes and loops by is checked once more in O(1) */
  if (mc->n_starts < 0 || mc->select < 0 || mc->select > 1 ||
      !(mc->eta > 0.0) || mc->maxit < 0 || !(mc->factr >= 0.0) ||
      !(mc->pgtol >= 0.0) || mc->lmm < 1)
    Rf_error("internal error: an inconsistent costbo_max_control reached C");
}

