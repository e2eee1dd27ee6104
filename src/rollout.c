/* rollout.c -- CMDP rollout (paper 001), knowledge gradient and
 * rolling-horizon rollout (paper 004).  See rollout.h. */
#include "rollout.h"

#include "costbo.h"
#include "entry.h"
#include "qmc.h"

/* CMDP rollout ------------------------------------------------------------ */

void rollout_cmdp_setup(cb_cmdp *r) {
  const int d = r->d;
  r->lower = (double *)R_alloc((size_t)(6 * d), sizeof(double));
  r->upper = r->lower + d;
  r->path = r->lower + 2 * d; /* current and next point */
  r->xh = r->lower + 4 * d;
  for (int k = 0; k < d; k++) {
    r->lower[k] = 0.0;
    r->upper[k] = 1.0;
  }
  r->samples = (double *)R_alloc((size_t)(r->nsamp > 0 ? r->nsamp : 1),
                                 sizeof(double));
}

/* Predictive mean and sd of f at x in the user's units. */
static void cmdp_moments(cb_acq *a, const double *x, double *m, double *s) {
  double mi, vi;
  gp_predict1(a->f, x, 1, a->alpha_f, &mi, &vi, NULL, NULL, a->work);
  *m = a->f_shift + a->f_scale * mi;
  *s = a->f_scale * (vi > 0.0 ? sqrt(vi) : 0.0);
}

/* One trajectory from x with the draws z[i + t * nsamp]; f is left as found
 * (the fantasies are dropped before returning). */
static double cmdp_sample(cb_cmdp *r, const double *x, int i, double c0) {
  cb_acq *a = r->acq;
  cb_gp *f = (cb_gp *)a->f;
  const int d = r->d;
  const double best0 = a->best;
  double best = best0, spent = c0, val = 0.0;
  double *xcur = r->path, *xnext = r->path + d;
  int added = 0;
  memcpy(xcur, x, (size_t)d * sizeof(double));
  for (int t = 0; t < r->h; t++) {
    if (t == r->h - 1) { /* last stage: its improvement in closed form */
      a->type = CB_ACQ_EI;
      a->best = best;
      val = best - best0 + acq_at(d, xcur, NULL, a);
      break;
    }
    double m, s;
    cmdp_moments(a, xcur, &m, &s);
    const double y = m + s * r->z[i + (size_t)t * r->nsamp];
    if (y > best) best = y;
    if (gp_fantasy_add(f, xcur, 1, (y - a->f_shift) / a->f_scale) == 0) {
      added++;
      acq_refresh(a);
    }
    /* the base policy's next point */
    a->best = best;
    if (r->base == CB_BASE_EIPU_THEN_EI && t + 1 < r->h - 1) {
      a->type = CB_ACQ_EI_PU_CC;
      a->nu = 1.0;
    } else {
      a->type = CB_ACQ_EI;
    }
    max_box(acq_at, a, d, r->lower, r->upper, r->n_raw, r->raw, r->unif,
            &r->inner, xnext, NULL);
    const double c = acq_cost(a, d, xnext);
    if (!(spent + c <= r->remaining)) { /* infeasible: stop before it */
      val = best - best0;
      break;
    }
    spent += c;
    double *tmp = xcur;
    xcur = xnext;
    xnext = tmp;
  }
  for (int j = 0; j < added; j++) gp_fantasy_drop(f);
  if (added) acq_refresh(a);
  a->best = best0;
  return val;
}

double rollout_cmdp_value(cb_cmdp *r, const double *x, double *samples) {
  cb_acq *a = r->acq;
  const int type = a->type;
  const double best = a->best, nu = a->nu;
  const double c0 = acq_cost(a, r->d, x);
  double tot = 0.0;
  for (int i = 0; i < r->nsamp; i++) {
    double v = 0.0;
    if (c0 <= r->remaining) {
      R_CheckUserInterrupt();
      v = cmdp_sample(r, x, i, c0);
    }
    if (samples) samples[i] = v;
    tot += v;
  }
  a->type = type;
  a->best = best;
  a->nu = nu;
  return r->nsamp > 0 ? tot / r->nsamp : 0.0;
}

double rollout_cmdp_search(cb_cmdp *r, double *x, double v, int maxit) {
  const int d = r->d;
  double step = 0.05;
  for (int it = 0; it < maxit && step >= 1e-3; it++) {
    int improved = 0;
    for (int k = 0; k < d && !improved; k++) {
      for (int sgn = 1; sgn >= -1 && !improved; sgn -= 2) {
        memcpy(r->xh, x, (size_t)d * sizeof(double));
        double t = x[k] + sgn * step;
        r->xh[k] = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        if (r->xh[k] == x[k]) continue;
        const double vt = rollout_cmdp_value(r, r->xh, NULL);
        if (vt > v) {
          memcpy(x, r->xh, (size_t)d * sizeof(double));
          v = vt;
          improved = 1;
        }
      }
    }
    if (!improved) step *= 0.5;
  }
  return v;
}

/* Knowledge gradient -------------------------------------------------------- */

void rollout_kg_setup(cb_kg *k) {
  const int cap = k->f->cap, na = cap + k->m + 1;
  k->V = (double *)R_alloc((size_t)cap * (size_t)na, sizeof(double));
  k->mu = (double *)R_alloc((size_t)(3 * na + 3 * cap), sizeof(double));
  k->cov = k->mu + na; /* holds the posterior variances after prepare */
  k->work = k->mu + 2 * na;
  k->v = k->mu + 3 * na;
  k->v0 = k->v + cap;
  k->xs = (double *)R_alloc((size_t)(k->max_h + 2) * (size_t)k->d,
                            sizeof(double));
  k->x0 = (double *)R_alloc((size_t)k->d, sizeof(double));
  k->a0 = k->miso ? (double *)R_alloc((size_t)cap * (size_t)k->d,
                                      sizeof(double))
                  : NULL;
}

/* Row j of the set A = (inputs of f, candidates): pointer and stride. */
static const double *kg_row(const cb_kg *k, int j, int *ld) {
  if (j < k->f->n) {
    *ld = k->f->cap;
    return (k->miso ? k->a0 : k->f->X) + j;
  }
  *ld = k->m;
  return k->cand + (j - k->f->n);
}

void rollout_kg_prepare(cb_kg *k) {
  const cb_gp *f = k->f;
  const int n = f->n, na = n + k->m, ld = f->cap;
  const double one = 1.0;
  if (k->miso) { /* the conditioned inputs at source 0 */
    for (int c = 0; c < k->d; c++)
      for (int i = 0; i < n; i++)
        k->a0[i + (size_t)c * ld] =
            c == k->d - 1 ? 0.0 : f->X[i + (size_t)c * ld];
  }
  for (int j = 0; j < na; j++) {
    int lda;
    const double *a = kg_row(k, j, &lda);
    for (int i = 0; i < n; i++)
      k->V[i + (size_t)j * (n > 0 ? n : 1)] =
          gp_kernel(f, f->X + i, ld, a, lda);
  }
  if (n > 0)
    F77_CALL(dtrsm)("L", "L", "N", "N", &n, &na, &one, f->L, &ld, k->V, &n
                    FCONE FCONE FCONE FCONE);
  for (int j = 0; j < na; j++) {
    int lda;
    const double *a = kg_row(k, j, &lda);
    const double *vj = k->V + (size_t)j * n;
    double mj = gp_prior_mean(f, a, lda), q = 0.0;
    for (int i = 0; i < n; i++) {
      mj += vj[i] * f->beta[i];
      q += vj[i] * vj[i];
    }
    k->mu[j] = mj;
    k->cov[j] = gp_kernel(f, a, lda, a, lda) - q;
  }
}

/* Posterior mean and variance of f at x from L (v receives L^-1 k(X, x)). */
static void kg_post(const cb_kg *k, const double *x, double *mean,
                    double *var) {
  const cb_gp *f = k->f;
  const int n = f->n, ld = f->cap, one = 1;
  for (int i = 0; i < n; i++) k->v[i] = gp_kernel(f, f->X + i, ld, x, 1);
  if (n > 0)
    F77_CALL(dtrsv)("L", "N", "N", &n, f->L, &ld, k->v, &one
                    FCONE FCONE FCONE);
  double m = gp_prior_mean(f, x, 1), q = 0.0;
  for (int i = 0; i < n; i++) {
    m += k->v[i] * f->beta[i];
    q += k->v[i] * k->v[i];
  }
  *mean = m;
  *var = gp_kernel(f, x, 1, x, 1) - q;
}

double rollout_kg_at(cb_kg *k, const double *x) {
  const cb_gp *f = k->f;
  const int n = f->n, na = n + k->m, ld = f->cap, one = 1;
  double mx, vx;
  kg_post(k, x, &mx, &vx);
  const double den = vx + f->noise + f->jitter;
  if (!(vx > 0.0) || !(den > 0.0)) return 0.0;
  const double sd = sqrt(den);
  /* the last member of A is (x, 0): its mean and covariance with x */
  double m0x = mx, c0x = vx;
  if (k->miso && x[k->d - 1] != 0.0) {
    memcpy(k->x0, x, (size_t)k->d * sizeof(double));
    k->x0[k->d - 1] = 0.0;
    for (int i = 0; i < n; i++) k->v0[i] = gp_kernel(f, f->X + i, ld, k->x0, 1);
    if (n > 0)
      F77_CALL(dtrsv)("L", "N", "N", &n, f->L, &ld, k->v0, &one
                      FCONE FCONE FCONE);
    m0x = gp_prior_mean(f, k->x0, 1);
    c0x = gp_kernel(f, k->x0, 1, x, 1);
    for (int i = 0; i < n; i++) {
      m0x += k->v0[i] * f->beta[i];
      c0x -= k->v0[i] * k->v[i];
    }
  }
  double *sig = k->work, m0 = m0x;
  for (int j = 0; j < na; j++) {
    int lda;
    const double *a = kg_row(k, j, &lda);
    const double *vj = k->V + (size_t)j * n;
    double c = gp_kernel(f, a, lda, x, 1);
    for (int i = 0; i < n; i++) c -= vj[i] * k->v[i];
    sig[j] = c / sd;
    if (k->mu[j] > m0) m0 = k->mu[j];
  }
  sig[na] = c0x / sd;
  double e = 0.0;
  for (int g = 0; g < k->n_nodes; g++) {
    const double z = k->gh_x[g];
    double mz = m0x + sig[na] * z;
    for (int j = 0; j < na; j++) {
      const double t = k->mu[j] + sig[j] * z;
      if (t > mz) mz = t;
    }
    e += k->gh_w[g] * mz;
  }
  e -= m0;
  return e > 0.0 ? e : 0.0;
}

/* Candidate j with source s into xs (the source column only with miso). */
static void kg_pair(const cb_kg *k, int j, int s, double *xs) {
  for (int c = 0; c < k->d; c++) xs[c] = k->cand[j + (size_t)c * k->m];
  if (k->miso) xs[k->d - 1] = (double)s;
}

int rollout_kg_argmax(cb_kg *k, double *best, double *raw) {
  int ib = 0;
  double vb = -1.0, rb = 0.0;
  for (int j = 0; j < k->m; j++) {
    for (int s = 0; s < k->nsrc; s++) {
      kg_pair(k, j, s, k->xs);
      const double g = rollout_kg_at(k, k->xs);
      const double v = k->cand_cost ? g / k->cand_cost[j + (size_t)s * k->m]
                                    : g;
      if (v > vb) {
        vb = v;
        rb = g;
        ib = j + s * k->m;
      }
    }
  }
  *best = vb > 0.0 ? vb : 0.0;
  if (raw) *raw = rb > 0.0 ? rb : 0.0;
  return ib;
}

/* Rolling horizon ---------------------------------------------------------- */

static double rh_expect(cb_kg *k, const double *x, int j, int level);

/* Value of j more greedy-KG stages from the current state. */
static double rh_future(cb_kg *k, int j, int level) {
  double v;
  rollout_kg_prepare(k);
  const int i = rollout_kg_argmax(k, &v, NULL);
  if (j == 1) return v;
  double *xs = k->xs + (size_t)(level + 1) * k->d;
  kg_pair(k, i % k->m, i / k->m, xs);
  return v + k->alpha * rh_expect(k, xs, j - 1, level + 1);
}

/* Expectation over the observation at x of the value of j more stages. */
static double rh_expect(cb_kg *k, const double *x, int j, int level) {
  cb_gp *f = k->f;
  double m, var;
  kg_post(k, x, &m, &var);
  const double s = sqrt((var > 0.0 ? var : 0.0) + f->noise + f->jitter);
  const int nn = level == 0 ? k->n_nodes : k->n_deep;
  const double *gx = level == 0 ? k->gh_x : k->gd_x;
  const double *gw = level == 0 ? k->gh_w : k->gd_w;
  double e = 0.0;
  for (int g = 0; g < nn; g++) {
    if (level == 0) R_CheckUserInterrupt();
    const int ok = gp_fantasy_add(f, x, 1, m + s * gx[g]) == 0;
    e += gw[g] * rh_future(k, j, level);
    if (ok) gp_fantasy_drop(f);
  }
  return e;
}

double rollout_rh_value(cb_kg *k, const double *x, int h, double cost) {
  rollout_kg_prepare(k);
  const double v = rollout_kg_at(k, x) / cost;
  if (h <= 1) return v;
  return v + k->alpha * rh_expect(k, x, h - 1, 0);
}

void rollout_rh_profits(cb_kg *k, int nphi, double *phi) {
  int added = 0;
  for (int i = 0; i < nphi; i++) {
    double r;
    rollout_kg_prepare(k);
    const int j = rollout_kg_argmax(k, &r, phi + i);
    if (i == nphi - 1) break;
    kg_pair(k, j % k->m, j / k->m, k->xs);
    double m = k->mu[k->f->n + j % k->m], v;
    if (j >= k->m) kg_post(k, k->xs, &m, &v);
    if (gp_fantasy_add(k->f, k->xs, 1, m) == 0) added++;
  }
  for (int i = 0; i < added; i++) gp_fantasy_drop(k->f);
}

double rollout_error_bound(cb_kg *k, double K, double u) {
  const cb_gp *f = k->f;
  double p = 0.0;
  for (int j = 0; j < k->m; j++) {
    const double v = k->cov[f->n + j];
    if (v > p) p = v;
  }
  p = f->sf2 > 0.0 ? sqrt(p / f->sf2) : 0.0;
  if (p > 1.0) p = 1.0;
  return (p > 0.0 ? K * f->sf2 * p * sqrt(log(M_E / p)) : 0.0) + u;
}

int rollout_horizon(const double *phi, int max_h, double ebar, double alpha,
                    int n_left) {
  const int nk = n_left - 1; /* N - k */
  const double rhs =
      ebar * (alpha == 1.0 ? (double)nk : (1.0 - pow(alpha, nk)) / (1.0 - alpha));
  const int top = max_h < n_left ? max_h : n_left;
  double acc = 0.0, w = 1.0;
  for (int j = 2; j <= top; j++) {
    acc += w * phi[j - 1];
    w *= alpha;
    if (acc > rhs) return j;
  }
  return 1;
}

/* R entry points --------------------------------------------------------- */

/* par = (h, base, remaining, inner starts, inner maxit) */
static void cmdp_unpack(cb_cmdp *r, cb_acq *a, SEXP z, SEXP raw, SEXP unif,
                        SEXP par) {
  const double *p = REAL(par);
  r->acq = a;
  r->d = a->f->d;
  r->h = (int)p[0];
  r->base = (int)p[1];
  r->remaining = p[2];
  r->nsamp = Rf_nrows(z);
  r->z = REAL(z);
  r->n_raw = Rf_nrows(raw);
  r->raw = REAL(raw);
  r->unif = REAL(unif);
  max_control_default(&r->inner, r->d);
  r->inner.n_starts = (int)p[3];
  r->inner.maxit = (int)p[4];
  a->grad_unit = 1;
  rollout_cmdp_setup(r);
}

SEXP C_rollout_cmdp_value(SEXP acq, SEXP X, SEXP z, SEXP raw, SEXP unif,
                          SEXP par) {
  const int m = Rf_nrows(X), d = Rf_ncols(X);
  int np = 0;
  cb_acq a;
  cb_gp f, lc;
  cb_cmdp r;
  acq_unpack(&a, &f, &lc, acq, (int)REAL(par)[0]);
  cmdp_unpack(&r, &a, z, raw, unif, par);
  const char *nms[] = {"value", "samples", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, m));
  SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, r.nsamp, m));
  double *val = REAL(VECTOR_ELT(out, 0)), *smp = REAL(VECTOR_ELT(out, 1));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < m; i++) {
    for (int k = 0; k < d; k++) x[k] = REAL(X)[i + (size_t)k * m];
    val[i] = rollout_cmdp_value(&r, x, smp + (size_t)i * r.nsamp);
  }
  UNPROTECT(np);
  return out;
}

/* outer = (starts, maxit); design: unit-cube start candidates, to which
 * the base policy's own first choice is added.  When no design point is feasible, the cheapest one is returned
 * with value 0. */
SEXP C_rollout_cmdp_propose(SEXP acq, SEXP design, SEXP z,
                            SEXP raw, SEXP unif, SEXP par, SEXP outer) {
  const int nd = Rf_nrows(design), d = Rf_ncols(design);
  int np = 0;
  cb_acq a;
  cb_gp f, lc;
  cb_cmdp r;
  acq_unpack(&a, &f, &lc, acq, (int)REAL(par)[0]);
  cmdp_unpack(&r, &a, z, raw, unif, par);
  /* the design plus the base policy's first choice */
  const int n1 = nd + 1;
  double *des = (double *)R_alloc((size_t)n1 * (size_t)d, sizeof(double));
  for (int k = 0; k < d; k++)
    for (int i = 0; i < nd; i++)
      des[i + (size_t)k * n1] = REAL(design)[i + (size_t)k * nd];
  double *x0 = (double *)R_alloc((size_t)d, sizeof(double));
  const int type = a.type;
  const double nu = a.nu;
  if (r.base == CB_BASE_EIPU_THEN_EI && r.h > 1) {
    a.type = CB_ACQ_EI_PU_CC;
    a.nu = 1.0;
  } else {
    a.type = CB_ACQ_EI;
  }
  max_box(acq_at, &a, d, r.lower, r.upper, r.n_raw, r.raw, r.unif, &r.inner,
          x0, NULL);
  a.type = type;
  a.nu = nu;
  for (int k = 0; k < d; k++) des[nd + (size_t)k * n1] = x0[k];
  const int ns = (int)REAL(outer)[0] < n1 ? (int)REAL(outer)[0] : n1;
  const char *nms[] = {"x", "value", "cost", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SEXP x = PROTECT(Rf_allocVector(REALSXP, d));
  np++;
  /* values at the design, then compass search from the best ns of them */
  double *dv = (double *)R_alloc((size_t)n1, sizeof(double));
  int *used = (int *)R_alloc((size_t)n1, sizeof(int));
  for (int i = 0; i < n1; i++) {
    for (int k = 0; k < d; k++) x0[k] = des[i + (size_t)k * n1];
    dv[i] = rollout_cmdp_value(&r, x0, NULL);
    used[i] = 0;
  }
  double v = R_NegInf;
  double *xs = (double *)R_alloc((size_t)d, sizeof(double));
  for (int s = 0; s < ns; s++) {
    int ib = -1;
    for (int i = 0; i < n1; i++)
      if (!used[i] && (ib < 0 || dv[i] > dv[ib])) ib = i;
    used[ib] = 1;
    for (int k = 0; k < d; k++) xs[k] = des[ib + (size_t)k * n1];
    const double vs = rollout_cmdp_search(&r, xs, dv[ib], (int)REAL(outer)[1]);
    if (vs > v) {
      v = vs;
      memcpy(REAL(x), xs, (size_t)d * sizeof(double));
    }
  }
  double c = acq_cost(&a, d, REAL(x));
  if (!(v > 0.0) || !(c <= r.remaining)) { /* nothing feasible: cheapest */
    int ib = 0;
    double cb = R_PosInf;
    for (int i = 0; i < n1; i++) {
      for (int k = 0; k < d; k++) x0[k] = des[i + (size_t)k * n1];
      const double ci = acq_cost(&a, d, x0);
      if (ci < cb) {
        cb = ci;
        ib = i;
      }
    }
    for (int k = 0; k < d; k++) REAL(x)[k] = des[ib + (size_t)k * n1];
    c = cb;
    v = c <= r.remaining ? rollout_cmdp_value(&r, REAL(x), NULL) : 0.0;
  }
  SET_VECTOR_ELT(out, 0, x);
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(v));
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(c));
  UNPROTECT(np);
  return out;
}

/* nodes = (n_nodes, n_deep, alpha, max_h); ccost: m x nsrc costs of the
 * candidates (R_NilValue: a single source, rewards are KG). */
static void kg_unpack(cb_kg *k, cb_gp *f, double f_scale, SEXP cand,
                      SEXP nodes, SEXP ccost) {
  const double *p = REAL(nodes);
  k->f = f;
  k->f_scale = f_scale;
  k->d = f->d;
  k->m = Rf_nrows(cand);
  k->cand = REAL(cand);
  k->n_nodes = (int)p[0];
  k->n_deep = (int)p[1];
  k->alpha = p[2];
  k->max_h = (int)p[3];
  k->miso = f->kernel == CB_MISO;
  k->cand_cost = Rf_isNull(ccost) ? NULL : REAL(ccost);
  k->nsrc = Rf_isNull(ccost) ? 1 : Rf_ncols(ccost);
  double *g = (double *)R_alloc((size_t)(2 * (k->n_nodes + k->n_deep)),
                                sizeof(double));
  if (qmc_gauss_hermite(k->n_nodes, 0, g, g + k->n_nodes) ||
      qmc_gauss_hermite(k->n_deep, 0, g + 2 * k->n_nodes,
                        g + 2 * k->n_nodes + k->n_deep))
    Rf_error("Gauss-Hermite nodes did not converge");
  k->gh_x = g;
  k->gh_w = g + k->n_nodes;
  k->gd_x = g + 2 * k->n_nodes;
  k->gd_w = g + 2 * k->n_nodes + k->n_deep;
  rollout_kg_setup(k);
}

/* Rolling-horizon values (h >= 1; h = 1 is KG) at the rows of X. */
SEXP C_rollout_rh_value(SEXP acq, SEXP X, SEXP cand, SEXP nodes, SEXP h) {
  const int m = Rf_nrows(X), d = Rf_ncols(X), hh = Rf_asInteger(h);
  cb_acq a;
  cb_gp f, lc;
  cb_kg k;
  acq_unpack(&a, &f, &lc, acq, hh + 1);
  kg_unpack(&k, &f, a.f_scale, cand, nodes, R_NilValue);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < m; i++) {
    R_CheckUserInterrupt();
    for (int c = 0; c < d; c++) x[c] = REAL(X)[i + (size_t)c * m];
    REAL(out)[i] = a.f_scale * rollout_rh_value(&k, x, hh, 1.0);
  }
  UNPROTECT(1);
  return out;
}

/* The rolling-horizon decision among the nd design rows (costs dcost) and
 * the candidates x sources (costs k->cand_cost, or ccost1 for a single
 * source): par = (h (0: by Theorem 3), K, u, n_left, remaining, n_top).
 * With h = 1 by the reward over all of them, else by the rolling-horizon
 * value over the design rows and the n_top candidate pairs of largest
 * reward.  Pairs whose cost exceeds the remaining budget are skipped; when
 * none fits, the cheapest one is returned with value 0.  The result list is
 * (x, value (internal scale), h, error_bound, phi). */
/* Row i of the decision set (design rows, then candidates x sources). */
static void decision_row(const cb_kg *k, const double *design, int nd, int i,
                         double *xi) {
  if (i < nd) {
    for (int c = 0; c < k->d; c++) xi[c] = design[i + (size_t)c * nd];
  } else {
    kg_pair(k, (i - nd) % k->m, (i - nd) / k->m, xi);
  }
}

static SEXP rh_choose(cb_kg *k, const double *design, int nd,
                      const double *dcost, const double *ccost1,
                      const double *p) {
  const int d = k->d, mc = k->m, ns = k->nsrc, max_h = k->max_h;
  const int n_left = (int)p[3], n_top = (int)p[5];
  const double remaining = p[4];
  const int per_cost = k->cand_cost != NULL;
  int np = 0;
  const char *nms[] = {"x", "value", "h", "error_bound", "phi", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SEXP phi = PROTECT(Rf_allocVector(REALSXP, max_h));
  np++;
  SEXP x = PROTECT(Rf_allocVector(REALSXP, d));
  np++;
  rollout_kg_prepare(k);
  const double ebar = rollout_error_bound(k, p[1], p[2]);
  rollout_rh_profits(k, max_h, REAL(phi));
  int h = (int)p[0];
  if (h == 0) h = rollout_horizon(REAL(phi), max_h, ebar, k->alpha, n_left);
  if (h > n_left) h = n_left > 1 ? n_left : 1;
  /* reward at every pair (design rows, then candidates x sources) */
  const int nt = nd + mc * ns;
  double *kg = (double *)R_alloc((size_t)nt, sizeof(double));
  double *cost = (double *)R_alloc((size_t)nt, sizeof(double));
  int *feas = (int *)R_alloc((size_t)nt, sizeof(int));
  double *xi = (double *)R_alloc((size_t)d, sizeof(double));
  rollout_kg_prepare(k);
  for (int i = 0; i < nt; i++) {
    decision_row(k, design, nd, i, xi);
    cost[i] = i < nd ? dcost[i]
                     : (per_cost ? k->cand_cost[i - nd] : ccost1[i - nd]);
    feas[i] = cost[i] <= remaining;
    kg[i] = feas[i] ? rollout_kg_at(k, xi) / (per_cost ? cost[i] : 1.0) : -1.0;
  }
  int ib = -1;
  double vb = -1.0;
  if (h == 1) {
    for (int i = 0; i < nt; i++)
      if (kg[i] > vb) {
        vb = kg[i];
        ib = i;
      }
  } else {
    /* the n_top feasible candidate pairs of largest reward, then the
     * design rows */
    int *top = (int *)R_alloc((size_t)(n_top > 0 ? n_top : 1), sizeof(int));
    int ntop = 0;
    for (int t = 0; t < n_top; t++) {
      int jb = -1;
      for (int i = nd; i < nt; i++) {
        int used = 0;
        for (int s = 0; s < ntop; s++) used |= top[s] == i;
        if (!used && feas[i] && (jb < 0 || kg[i] > kg[jb])) jb = i;
      }
      if (jb < 0) break;
      top[ntop++] = jb;
    }
    for (int i = 0; i < nd + ntop; i++) {
      const int row = i < nd ? i : top[i - nd];
      if (!feas[row]) continue;
      decision_row(k, design, nd, row, xi);
      const double v =
          rollout_rh_value(k, xi, h, per_cost ? cost[row] : 1.0);
      if (v > vb) {
        vb = v;
        ib = row;
      }
    }
  }
  if (ib < 0) { /* nothing feasible: the cheapest pair */
    double cb = R_PosInf;
    for (int i = 0; i < nt; i++)
      if (cost[i] < cb) {
        cb = cost[i];
        ib = i;
      }
    vb = 0.0;
  }
  decision_row(k, design, nd, ib, xi);
  memcpy(REAL(x), xi, (size_t)d * sizeof(double));
  SET_VECTOR_ELT(out, 0, x);
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(vb > 0.0 ? vb : 0.0));
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(h));
  SET_VECTOR_ELT(out, 3, Rf_ScalarReal(ebar));
  SET_VECTOR_ELT(out, 4, phi);
  UNPROTECT(np);
  return out;
}

/* par = (h (0: by Theorem 3), K, u, n_left, remaining, n_top); see
 * rh_choose().  The value is in the user's units. */
SEXP C_rollout_rh_propose(SEXP acq, SEXP design, SEXP cand, SEXP nodes,
                          SEXP par) {
  const int nd = Rf_nrows(design), d = Rf_ncols(design), mc = Rf_nrows(cand);
  const int max_h = (int)REAL(nodes)[3];
  cb_acq a;
  cb_gp f, lc;
  cb_kg k;
  acq_unpack(&a, &f, &lc, acq, max_h + 1);
  kg_unpack(&k, &f, a.f_scale, cand, nodes, R_NilValue);
  double *dcost = (double *)R_alloc((size_t)(nd + mc), sizeof(double));
  double *xi = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < nd + mc; i++) {
    const double *src = i < nd ? REAL(design) + i : REAL(cand) + (i - nd);
    const int ld = i < nd ? nd : mc;
    for (int c = 0; c < d; c++) xi[c] = src[(size_t)c * ld];
    dcost[i] = acq_cost(&a, d, xi);
  }
  SEXP out = PROTECT(rh_choose(&k, REAL(design), nd, dcost, dcost + nd,
                               REAL(par)));
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(a.f_scale *
                                       REAL(VECTOR_ELT(out, 1))[0]));
  UNPROTECT(1);
  return out;
}

/* Multi-information-source rolling horizon on a CB_MISO GP (packed by
 * gp_pack()).  X / design rows are pairs (x, s); xcost / dcost their costs;
 * cand: m candidates with source 0 in the last column; ccost: m x nsrc
 * costs.  Values are KG per unit cost in the user's units per unit cost
 * (scale = user units per internal unit). */
SEXP C_rollout_miso_value(SEXP gp, SEXP X, SEXP xcost, SEXP cand,
                          SEXP ccost, SEXP nodes, SEXP par) {
  const int m = Rf_nrows(X), d = Rf_ncols(X);
  const int hh = (int)REAL(par)[0];
  const double scale = REAL(par)[1];
  cb_gp f;
  cb_kg k;
  gp_unpack(&f, gp, hh + 1);
  kg_unpack(&k, &f, scale, cand, nodes, ccost);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < m; i++) {
    R_CheckUserInterrupt();
    for (int c = 0; c < d; c++) x[c] = REAL(X)[i + (size_t)c * m];
    REAL(out)[i] = scale * rollout_rh_value(&k, x, hh, REAL(xcost)[i]);
  }
  UNPROTECT(1);
  return out;
}

/* par = (h (0: by Theorem 3), K, u, n_left, remaining, n_top, scale). */
SEXP C_rollout_miso_propose(SEXP gp, SEXP design, SEXP dcost, SEXP cand,
                            SEXP ccost, SEXP nodes, SEXP par) {
  const int max_h = (int)REAL(nodes)[3];
  const double scale = REAL(par)[6];
  cb_gp f;
  cb_kg k;
  gp_unpack(&f, gp, max_h + 1);
  kg_unpack(&k, &f, scale, cand, nodes, ccost);
  SEXP out = PROTECT(rh_choose(&k, REAL(design), Rf_nrows(design),
                               REAL(dcost), NULL, REAL(par)));
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(scale * REAL(VECTOR_ELT(out, 1))[0]));
  UNPROTECT(1);
  return out;
}

SEXP C_rollout_horizon(SEXP phi, SEXP ebar, SEXP alpha, SEXP n_left) {
  return Rf_ScalarInteger(rollout_horizon(REAL(phi), Rf_length(phi),
                                          Rf_asReal(ebar), Rf_asReal(alpha),
                                          Rf_asInteger(n_left)));
}
