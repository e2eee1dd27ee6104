/* maximize.c -- multistart L-BFGS-B over a box, exact argmax over a finite
 * set. */
#include "maximize.h"

#include "entry.h"
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

/* L-BFGS-B minimizes: evaluate -f with its gradient, cached by point */
static void max_at(max_ctx *c, const double *x) {
  int same = c->have;
  for (int k = 0; k < c->d && same; k++) same = c->last_x[k] == x[k];
  if (same) return;
  R_CheckUserInterrupt();
  double v = c->f(c->d, x, c->last_g, c->ctx);
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
}

void max_control_from(cb_max_control *ctl, int d, const double *v, int len) {
  max_control_default(ctl, d);
  if (len > 0) ctl->n_starts = (int)v[0];
  if (len > 1) ctl->select = (int)v[1];
  if (len > 2) ctl->eta = v[2];
  if (len > 3) ctl->maxit = (int)v[3];
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
    lbfgsb(d, ctl->lmm, x, lo, up, nbd, &fmin, max_fn, max_gr, &fail, &c, ctl->factr,
           ctl->pgtol, &fnc, &grc, ctl->maxit, msg, 0, 10);
    /* re-evaluate at the returned point: L-BFGS-B may return its last
     * trial rather than the best point seen */
    double v = safe_value(f(d, x, NULL, ctx));
    if (v > best) {
      best = v;
      memcpy(xbest, x, (size_t)d * sizeof(double));
    }
  }
  return best;
}

double max_box_sobol(cb_objfn f, void *ctx, int d, const double *lower,
                     const double *upper, int n_raw,
                     const cb_max_control *ctl, double *xbest) {
  double *raw = (double *)R_alloc((size_t)n_raw * d, sizeof(double));
  double *unif = (double *)R_alloc((size_t)n_raw, sizeof(double));
  qmc_sobol_random(n_raw, d, 0, raw);
  for (int i = 0; i < n_raw; i++) unif[i] = unif_rand();
  return max_box(f, ctx, d, lower, upper, n_raw, raw, unif, ctl, xbest, NULL);
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

/* The starting points the maximizer would choose from raw values (1-based),
 * for objectives evaluated in R. */
SEXP C_max_select(SEXP vals, SEXP k, SEXP method, SEXP eta, SEXP unif) {
  const int n = Rf_length(vals), kk = Rf_asInteger(k);
  SEXP out = PROTECT(Rf_allocVector(INTSXP, kk));
  int *ch = INTEGER(out);
  select_starts(n, REAL(vals), kk, Rf_asInteger(method), Rf_asReal(eta),
                REAL(unif), ch);
  for (int j = 0; j < kk; j++) ch[j]++;
  UNPROTECT(1);
  return out;
}

/* ------------------------------------------------------------------------ */
/* Smooth test objectives with known maximizers, to exercise the maximizer  */
/* from R: 0 = negated Rosenbrock (any d; max 0 at 1), 1 = negated Branin    */
/* (d = 2; max -0.397887 at three points), 2 = Hartmann-6 (max 3.32237).    */
/* ------------------------------------------------------------------------ */

static double obj_rosenbrock(int d, const double *x, double *g, void *ctx) {
  (void)ctx;
  double v = 0.0;
  if (g)
    for (int k = 0; k < d; k++) g[k] = 0.0;
  for (int k = 0; k + 1 < d; k++) {
    double a = x[k + 1] - x[k] * x[k], b = 1.0 - x[k];
    v += 100.0 * a * a + b * b;
    if (g) {
      g[k] -= -400.0 * a * x[k] - 2.0 * b;
      g[k + 1] -= 200.0 * a;
    }
  }
  return -v;
}

static double obj_branin(int d, const double *x, double *g, void *ctx) {
  (void)d;
  (void)ctx;
  const double b = 5.1 / (4.0 * M_PI * M_PI), c = 5.0 / M_PI, t = 1.0 / (8.0 * M_PI);
  double u = x[1] - b * x[0] * x[0] + c * x[0] - 6.0;
  if (g) {
    g[0] = -(2.0 * u * (-2.0 * b * x[0] + c) - 10.0 * (1.0 - t) * sin(x[0]));
    g[1] = -(2.0 * u);
  }
  return -(u * u + 10.0 * (1.0 - t) * cos(x[0]) + 10.0);
}

static double obj_hartmann6(int d, const double *x, double *g, void *ctx) {
  (void)d;
  (void)ctx;
  static const double al[4] = {1.0, 1.2, 3.0, 3.2};
  static const double A[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                                 {0.05, 10, 17, 0.1, 8, 14},
                                 {3, 3.5, 1.7, 10, 17, 8},
                                 {17, 8, 0.05, 10, 0.1, 14}};
  static const double P[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                                 {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                                 {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                                 {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
  double v = 0.0;
  if (g)
    for (int k = 0; k < 6; k++) g[k] = 0.0;
  for (int i = 0; i < 4; i++) {
    double s = 0.0;
    for (int k = 0; k < 6; k++) s += A[i][k] * (x[k] - P[i][k]) * (x[k] - P[i][k]);
    double e = al[i] * exp(-s);
    v += e;
    if (g)
      for (int k = 0; k < 6; k++) g[k] += -2.0 * A[i][k] * (x[k] - P[i][k]) * e;
  }
  return v;
}

SEXP C_max_test(SEXP code, SEXP lower, SEXP upper, SEXP raw, SEXP unif,
                SEXP control) {
  const int d = Rf_length(lower), n_raw = Rf_nrows(raw);
  cb_objfn fns[3] = {obj_rosenbrock, obj_branin, obj_hartmann6};
  cb_max_control mc;
  max_control_from(&mc, d, REAL(control), Rf_length(control));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  double rb = R_NaN, v;
  if (n_raw > 0) {
    v = max_box(fns[Rf_asInteger(code)], NULL, d, REAL(lower), REAL(upper),
                n_raw, REAL(raw), REAL(unif), &mc, x, &rb);
  } else {
    /* draw 200 d raw points in C */
    GetRNGstate();
    v = max_box_sobol(fns[Rf_asInteger(code)], NULL, d, REAL(lower),
                      REAL(upper), 200 * d, &mc, x);
    PutRNGstate();
  }
  return max_box_result(x, d, v, rb);
}
