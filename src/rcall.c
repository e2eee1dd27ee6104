/* rcall.c -- a known cost written in R, called from C (see rcall.h). */
#include "rcall.h"

#include <float.h>
#include <stdint.h>
#include <stdio.h>

#include "entry.h"

/* The point u as text for messages, "(0.25, 0.5)", at most 8 coordinates. */
static void point_text(const double *u, int d, char *buf, size_t len) {
  size_t k = (size_t)snprintf(buf, len, "(");
  for (int i = 0; i < d && i < 8 && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%.4g", i ? ", " : "", u[i]);
  if (k < len) snprintf(buf + k, len - k, "%s)", d > 8 ? ", ..." : "");
}

/* The point at which the closure was called, as text: x = o + u r for a
 * closure of the user's units, else u. */
static void rcall_point_text(const cb_rcall *r, const double *u, char *buf,
                             size_t len) {
  double x[8];
  const int m = r->d < 8 ? r->d : 8;
  for (int k = 0; k < m; k++)
    x[k] = r->xunits ? r->offset[k] + u[k] * r->range[k] : u[k];
  point_text(x, m, buf, len);
  if (r->d > 8) {
    const size_t k = strlen(buf);
    if (k >= 1 && k + 5 < len) snprintf(buf + k - 1, len - k + 1, ", ...)");
  }
}

/* A description of a bad value: "NA", "-1", "2 numbers", "a character
 * vector". */
static void value_text(SEXP v, char *buf, size_t len) {
  if ((TYPEOF(v) == REALSXP || TYPEOF(v) == INTSXP) && XLENGTH(v) == 1) {
    const double x = Rf_asReal(v);
    if (ISNA(x))
      snprintf(buf, len, "NA");
    else
      snprintf(buf, len, "%g", x);
  } else if (TYPEOF(v) == LGLSXP && XLENGTH(v) == 1) {
    const int b = LOGICAL(v)[0];
    snprintf(buf, len, "%s", b == NA_LOGICAL ? "NA" : b ? "TRUE" : "FALSE");
  } else if (TYPEOF(v) == REALSXP || TYPEOF(v) == INTSXP) {
    snprintf(buf, len, "%lld numbers", (long long)XLENGTH(v));
  } else if (Rf_isNull(v)) {
    snprintf(buf, len, "NULL");
  } else {
    snprintf(buf, len, "a %s of length %lld", Rf_type2char(TYPEOF(v)),
             (long long)XLENGTH(v));
  }
}

/* Signal the costbo_error_cost `msg` with the offending value (R's stop():
 * does not return; the unwinding is safe, see rcall.h). */
static void rcall_fail(const char *msg, SEXP value) {
  const char *nms[] = {"message", "call", "arg", "value", ""};
  SEXP cond = PROTECT(Rf_mkNamed(VECSXP, nms));
  SET_VECTOR_ELT(cond, 0, Rf_mkString(msg));
  SET_VECTOR_ELT(cond, 2, Rf_mkString("cost"));
  SET_VECTOR_ELT(cond, 3, value);
  SEXP cls = PROTECT(Rf_allocVector(STRSXP, 5));
  SET_STRING_ELT(cls, 0, Rf_mkChar("costbo_error_cost"));
  SET_STRING_ELT(cls, 1, Rf_mkChar("costbo_error_arg"));
  SET_STRING_ELT(cls, 2, Rf_mkChar("costbo_error"));
  SET_STRING_ELT(cls, 3, Rf_mkChar("error"));
  SET_STRING_ELT(cls, 4, Rf_mkChar("condition"));
  Rf_setAttrib(cond, R_ClassSymbol, cls);
  SEXP call = PROTECT(Rf_lang2(Rf_install("stop"), cond));
  Rf_eval(call, R_BaseEnv);
  UNPROTECT(3); /* not reached */
}

/* One call fn(u): the value, and the gradient attribute into grad when
 * given (*has_grad = 1 if there was one, else 0); a bad gradient is an
 * error when strict, else ignored (*has_grad = 2). */
static double rcall_once(const cb_rcall *r, const double *u, double *grad,
                         int *has_grad, int strict) {
  const int d = r->d;
  SEXP uv = PROTECT(Rf_allocVector(REALSXP, d));
  double *arg = REAL(uv);
  if (r->xunits)
    for (int k = 0; k < d; k++) arg[k] = r->offset[k] + u[k] * r->range[k];
  else
    memcpy(arg, u, (size_t)d * sizeof(double));
  SEXP call = PROTECT(Rf_lang2(r->fn, uv));
  SEXP v = PROTECT(R_forceAndCall(call, 1, R_GlobalEnv));
  char msg[512], pt[160], val[64];
  /* messages show the point recomputed from u: the function may have
   * modified its argument */
  const char *where = r->xunits ? "" : " of the unit cube";
  double c = NA_REAL;
  if ((TYPEOF(v) == REALSXP || TYPEOF(v) == INTSXP) && XLENGTH(v) == 1)
    c = Rf_asReal(v);
  if (!(R_FINITE(c) && c > 0.0)) {
    rcall_point_text(r, u, pt, sizeof pt);
    value_text(v, val, sizeof val);
    snprintf(msg, sizeof msg,
             "`cost` must return one positive finite number, not %s (at "
             "the point %s%s).",
             val, pt, where);
    rcall_fail(msg, v);
  }
  *has_grad = 0;
  if (grad) {
    SEXP g = Rf_getAttrib(v, Rf_install("gradient"));
    if (!Rf_isNull(g)) {
      int ok = (TYPEOF(g) == REALSXP || TYPEOF(g) == INTSXP) &&
               XLENGTH(g) == d;
      for (int k = 0; ok && k < d; k++) {
        grad[k] = TYPEOF(g) == REALSXP ? REAL(g)[k]
                  : INTEGER(g)[k] == NA_INTEGER ? NA_REAL
                                                : (double)INTEGER(g)[k];
        ok = R_FINITE(grad[k]);
        /* d cost / d u = d cost / d x * range */
        if (r->xunits) grad[k] *= r->range[k];
      }
      if (!ok && !strict) {
        UNPROTECT(3); /* a bad gradient nobody asked for is ignored, */
        *has_grad = 2; /* and reported when one is asked for */
        return c;
      }
      if (!ok) {
        rcall_point_text(r, u, pt, sizeof pt);
        value_text(g, val, sizeof val);
        snprintf(msg, sizeof msg,
                 "`cost` must return a \"gradient\" attribute of %d finite "
                 "numbers (d cost / d x), not %s (at the point %s%s).",
                 d, val, pt, where);
        rcall_fail(msg, g);
      }
      *has_grad = 1;
    }
  }
  UNPROTECT(3);
  return c;
}

void rcall_setup(cb_rcall *r, SEXP fn, int d, const double *offset,
                 const double *range) {
  r->fn = fn;
  r->d = d;
  r->offset = offset;
  r->range = range;
  SEXP units = Rf_getAttrib(fn, Rf_install("costbo_units"));
  r->xunits = TYPEOF(units) == STRSXP && XLENGTH(units) == 1 &&
              strcmp(CHAR(STRING_ELT(units, 0)), "x") == 0;
  const size_t dd = (size_t)(d > 0 ? d : 1);
  r->u = (double *)R_alloc(dd, sizeof(double));
  r->tf = NULL;
  r->cache_u = (double *)R_alloc(RCALL_CACHE * dd, sizeof(double));
  r->cache_g = (double *)R_alloc(RCALL_CACHE * dd, sizeof(double));
  r->cache_c = (double *)R_alloc(RCALL_CACHE, sizeof(double));
  r->cache_has_g = (int *)R_alloc(RCALL_CACHE, sizeof(int));
  for (int i = 0; i < RCALL_CACHE; i++) r->cache_has_g[i] = -1; /* empty */
  r->allow_secant = 1;
  r->secant = r->secant_used = r->anchored = 0;
  r->anchor_u = (double *)R_alloc(dd, sizeof(double));
  r->anchor_g = (double *)R_alloc(dd, sizeof(double));
  r->anchor_c = 0.0;
}

/* The slot of u in the direct-mapped cache: FNV-1a over u's bytes. */
static int cache_slot(const cb_rcall *r, const double *u) {
  const unsigned char *b = (const unsigned char *)u;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < (size_t)r->d * sizeof(double); i++) {
    h ^= b[i];
    h *= 1099511628211ULL;
  }
  return (int)((h ^ (h >> 29)) & (RCALL_CACHE - 1));
}

/* The forward-difference step of coordinate k at u, in u (rcall.h). */
static double fd_step(const cb_rcall *r, const double *u, int k) {
  const double x = r->offset[k] + u[k] * r->range[k];
  return RCALL_FD_STEP * fmax(1.0, fabs(x)) / r->range[k];
}

/* The gradient at u, whose value is c, by forward differences (d calls;
 * backward at the upper face; 0 in the discrete columns of typed
 * inputs). */
static void rcall_differences(cb_rcall *r, const double *u, double c,
                              double *grad) {
  const int d = r->d, typed = r->tf != NULL && r->tf->discrete;
  int has_grad;
  double *up = r->u;
  memcpy(up, u, (size_t)d * sizeof(double));
  for (int k = 0; k < d; k++) {
    grad[k] = 0.0;
    if (typed && r->tf->kind[k] != CB_TF_NUM) continue;
    const double h = fd_step(r, u, k);
    if (u[k] + h <= 1.0)
      up[k] = u[k] + h;
    else if (u[k] - h >= 0.0)
      up[k] = u[k] - h;
    else
      continue; /* a face-to-face range narrower than the step */
    const double step = up[k] - u[k]; /* exactly representable */
    const double cs = rcall_once(r, up, NULL, &has_grad, 1);
    up[k] = u[k];
    grad[k] = (cs - c) / step;
  }
}

static void rcall_anchor(cb_rcall *r, const double *u, double c,
                         const double *grad) {
  memcpy(r->anchor_u, u, (size_t)r->d * sizeof(double));
  memcpy(r->anchor_g, grad, (size_t)r->d * sizeof(double));
  r->anchor_c = c;
  r->anchored = 1;
}

/* The secant gradient at u of value c from the anchor (rcall.h); a step
 * shorter than the difference step in every coordinate keeps g_a and the
 * anchor.  Returns 0 (grad unset) where the anchor's tangent misses c(u)
 * by more than RCALL_SECANT_TOL of its predicted change: the cost curves
 * there, and its gradient is differenced. */
static int rcall_secant(cb_rcall *r, const double *u, double c,
                        double *grad) {
  const int d = r->d;
  const double *ua = r->anchor_u, *ga = r->anchor_g;
  double ss = 0.0, gs = 0.0;
  int long_step = 0;
  for (int k = 0; k < d; k++) {
    const double s = u[k] - ua[k];
    ss += s * s;
    gs += ga[k] * s;
    if (fabs(s) >= fd_step(r, u, k)) long_step = 1;
  }
  const double miss = c - r->anchor_c - gs;
  if (long_step && fabs(miss) > RCALL_SECANT_TOL * fabs(gs) +
                                    4.0 * DBL_EPSILON * (c + r->anchor_c))
    return 0;
  memcpy(grad, ga, (size_t)d * sizeof(double));
  r->secant_used = 1;
  if (!long_step) return 1;
  const double t = 2.0 * miss / ss;
  for (int k = 0; k < d; k++) grad[k] += t * (u[k] - ua[k]);
  rcall_anchor(r, u, c, grad);
  return 1;
}

double rcall_cost(cb_rcall *r, const double *u, double *grad) {
  const int d = r->d, i = cache_slot(r, u);
  double *cu = r->cache_u + (size_t)i * d, *cg = r->cache_g + (size_t)i * d;
  int cached = r->cache_has_g[i] >= 0;
  for (int k = 0; k < d && cached; k++) cached = cu[k] == u[k];
  if (cached && (!grad || r->cache_has_g[i] == 1)) {
    if (grad) {
      memcpy(grad, cg, (size_t)d * sizeof(double));
      if (r->secant) rcall_anchor(r, u, r->cache_c[i], grad);
    }
    return r->cache_c[i];
  }
  const int typed = r->tf != NULL && r->tf->discrete;
  double c;
  int has_g;
  if (!grad) {
    /* a gradient the function returns anyway is kept for a later request */
    c = rcall_once(r, u, cg, &has_g, 0);
    if (has_g == 1 && typed) transform_zero_discrete(r->tf, cg);
  } else if (cached && r->cache_has_g[i] == 0) {
    /* the value is known and the function gives no gradient */
    c = r->cache_c[i];
    has_g = 0;
  } else {
    c = rcall_once(r, u, grad, &has_g, 1);
    if (has_g && typed) transform_zero_discrete(r->tf, grad);
  }
  if (grad && !has_g) {
    if (r->secant && r->anchored && rcall_secant(r, u, c, grad)) {
      /* a climb's gradient: the value only is cached */
    } else {
      rcall_differences(r, u, c, grad);
      if (r->secant) rcall_anchor(r, u, c, grad);
      has_g = 1;
    }
  }
  if (grad && has_g) memcpy(cg, grad, (size_t)d * sizeof(double));
  memcpy(cu, u, (size_t)d * sizeof(double));
  r->cache_c[i] = c;
  r->cache_has_g[i] = has_g;
  return c;
}

int rcall_grad_phase(void *hook, int phase) {
  cb_rcall *r = (cb_rcall *)hook;
  r->anchored = 0;
  if (phase == 0) {
    /* typed inputs with discrete columns keep differences: a step there
     * changes the cost by a jump that no gradient describes */
    r->secant = r->allow_secant && !(r->tf != NULL && r->tf->discrete);
    r->secant_used = 0;
    return 0;
  }
  r->secant = 0;
  return r->secant_used;
}

/* R entry points --------------------------------------------------------- */

/* The closure fn at the rows of U (m x d, unit cube) through rcall_cost():
 * list(value, grad (d x m, NULL without grad)); offset, range as in
 * rcall_setup().  check_run_ready() validates a cost with it. */
SEXP C_rcall_eval(SEXP fn, SEXP U, SEXP offset, SEXP range, SEXP grad) {
  const int m = Rf_nrows(U), d = Rf_ncols(U), g = Rf_asLogical(grad) == 1;
  if (!Rf_isFunction(fn)) Rf_error("internal error: `fn` is not a function");
  if (Rf_length(offset) != d || Rf_length(range) != d)
    Rf_error("internal error: offset and range of length %d expected", d);
  cb_rcall r;
  rcall_setup(&r, fn, d, REAL(offset), REAL(range));
  const char *nms[] = {"value", "grad", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, m));
  if (g) SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, d, m));
  double *u = (double *)R_alloc((size_t)(d > 0 ? d : 1), sizeof(double));
  for (int i = 0; i < m; i++) {
    for (int k = 0; k < d; k++) u[k] = REAL(U)[i + (size_t)k * m];
    REAL(VECTOR_ELT(out, 0))[i] =
        rcall_cost(&r, u, g ? REAL(VECTOR_ELT(out, 1)) + (size_t)i * d
                            : NULL);
  }
  UNPROTECT(1);
  return out;
}
