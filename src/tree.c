/* tree.c -- the B-MS-EI scenario tree (paper 000, Sec. 4): the budgeted
 * multi-step value of a root decision on a sample-average tree of fantasy
 * outcomes, its one-shot maximization, exact maximization on finite
 * domains, and budget scheduling by rollout of a base policy.  See tree.h. */
#include "tree.h"

#include "costbo.h"
#include "entry.h"
#include "qmc.h"

/* Relative predictive variance below which a fantasy is deterministic. */
#define TREE_VAR_TOL 1e-10
/* L-BFGS-B tolerance of the one-shot optimization: the tree's value is
 * flat in many of its decisions, and the default 1e7 stops far from the
 * optimum. */
#define TREE_FACTR 1e4
/* Central-difference step (unit cube) of the fantasy-update derivative. */
#define TREE_FD_STEP 1e-5

/* Condition a GP on the fantasy value mu(x) + sqrt(var(x) + noise) z at x;
 * *val receives that value (internal scale).  Returns 1 if the GP was
 * conditioned (to be undone by gp_fantasy_drop), 0 if the fantasy is
 * deterministic (zero predictive variance) and the GP left unchanged. */
static int fantasy_one(cb_gp *gp, const double *x, double z, double *work,
                       double *val) {
  double mu, var;
  gp_predict1(gp, x, 1, NULL, &mu, &var, NULL, NULL, work);
  if (var < 0.0) var = 0.0;
  const double pv = var + gp->noise;
  const double prior = gp_kernel(gp, x, 1, x, 1) + gp->noise;
  if (!(pv > TREE_VAR_TOL * prior)) {
    *val = mu;
    return 0;
  }
  *val = mu + sqrt(pv) * z;
  return gp_fantasy_add(gp, x, 1, *val) == 0;
}

/* The fantasy outcome at x: objective value y (user units) and cost.
 * Returns flags of the GPs conditioned: bit 0 f, bit 1 lc. */
static int fantasize(const cb_acq *a, cb_gp *f, cb_gp *lc, int d,
                     const double *x, double ef, double ec, double *work,
                     double *y, double *cost) {
  double v;
  int fl = fantasy_one(f, x, ef, work, &v);
  *y = a->f_shift + a->f_scale * v;
  if (a->cost_kind == CB_COST_GP) {
    if (fantasy_one(lc, x, ec, work, &v)) fl |= 2;
    *cost = exp(a->c_shift + a->c_scale * v);
  } else {
    *cost = acq_cost(a, d, x);
  }
  return fl;
}

static void unfantasize(cb_gp *f, cb_gp *lc, int fl) {
  if (fl & 1) gp_fantasy_drop(f);
  if (fl & 2) gp_fantasy_drop(lc);
}

static void visit(cb_tree *t) {
  if ((++t->visits & 63UL) == 0UL) R_CheckUserInterrupt();
}

static double node_value(cb_tree *t, int k, int j, const double *X,
                         double best, double spent, double *G, double w);

/* Mean value of the children of node j of stage k when the node decides x
 * (the children's own decisions are read from X). */
static double kids_value(cb_tree *t, int k, int j, const double *x,
                         const double *X, double best, double spent,
                         double *G, double w) {
  const int mk = t->m[k];
  double s = 0.0;
  for (int c = 0; c < mk; c++) {
    double y, z;
    int fl = fantasize(t->acq, t->f, t->lc, t->d, x, t->zf[t->zoff[k] + c],
                       t->zc[t->zoff[k] + c], t->work, &y, &z);
    s += node_value(t, k + 1, j * mk + c, X, y > best ? y : best, spent + z,
                    G, w / mk);
    unfantasize(t->f, t->lc, fl);
  }
  return s / mk;
}

/* Value of the subtree of node j of stage k; G (may be NULL) accumulates
 * w times the gradient in the subtree's decisions. */
static double node_value(cb_tree *t, int k, int j, const double *X,
                         double best, double spent, double *G, double w) {
  visit(t);
  if (!(t->budget - spent > 0.0)) return 0.0; /* budget spent: no value */
  const int d = t->d, node = t->off[k] + j;
  const double *x = X + (size_t)node * d;
  cb_acq *a = t->acq;
  a->best = best;
  a->remaining = t->budget - spent;
  double q;
  if (G) {
    acq_refresh(a);
    q = acq_at(d, x, t->gtmp, a);
    for (int i = 0; i < d; i++) G[(size_t)node * d + i] += w * t->gtmp[i];
  } else {
    q = acq_at(d, x, NULL, a);
  }
  if (!R_FINITE(q)) q = 0.0;
  if (k == t->steps - 1) return q;
  const double c = kids_value(t, k, j, x, X, best, spent, G, w);
  if (G) {
    double *xp = t->xpert + (size_t)k * d, h = t->fd_step;
    memcpy(xp, x, (size_t)d * sizeof(double));
    for (int i = 0; i < d; i++) {
      xp[i] = x[i] + h;
      const double cp = kids_value(t, k, j, xp, X, best, spent, NULL, w);
      xp[i] = x[i] - h;
      const double cm = kids_value(t, k, j, xp, X, best, spent, NULL, w);
      xp[i] = x[i];
      const double gi = (cp - cm) / (2.0 * h);
      if (R_FINITE(gi)) G[(size_t)node * d + i] += w * gi;
    }
  }
  return q + c;
}

/* Exact maximum over the candidates of a finite domain of the value of a
 * stage-k node; vals (may be NULL) receives every candidate's value. */
static double finite_best(cb_tree *t, int k, double best, double spent,
                          double *vals, int *arg) {
  const int K = t->f->nfin;
  double bv = R_NegInf;
  if (arg) *arg = 0;
  if (!(t->budget - spent > 0.0)) {
    if (vals)
      for (int i = 0; i < K; i++) vals[i] = 0.0;
    return 0.0;
  }
  for (int i = 0; i < K; i++) {
    visit(t);
    double x = (double)i;
    t->acq->best = best;
    t->acq->remaining = t->budget - spent;
    double q = acq_at(1, &x, NULL, t->acq);
    if (!R_FINITE(q)) q = 0.0;
    if (k < t->steps - 1) {
      const int mk = t->m[k];
      double s = 0.0;
      for (int c = 0; c < mk; c++) {
        double y, z;
        int fl = fantasize(t->acq, t->f, t->lc, 1, &x, t->zf[t->zoff[k] + c],
                           t->zc[t->zoff[k] + c], t->work, &y, &z);
        s += finite_best(t, k + 1, y > best ? y : best, spent + z, NULL,
                         NULL);
        unfantasize(t->f, t->lc, fl);
      }
      q += s / mk;
    }
    if (vals) vals[i] = q;
    if (q > bv) {
      bv = q;
      if (arg) *arg = i;
    }
  }
  return bv;
}

/* Public API -------------------------------------------------------------- */

int tree_n_nodes(int steps, const int *m) {
  int n = 1, p = 1;
  for (int k = 0; k < steps - 1; k++) {
    p *= m[k];
    n += p;
  }
  return n;
}

void tree_setup(cb_tree *t) {
  const int N = t->steps;
  t->d = t->f->d;
  t->n_nodes = tree_n_nodes(N, t->m);
  t->off = (int *)R_alloc((size_t)N, sizeof(int));
  t->zoff = (int *)R_alloc((size_t)N, sizeof(int));
  t->off[0] = 0;
  t->zoff[0] = 0;
  int p = 1;
  for (int k = 1; k < N; k++) {
    t->off[k] = t->off[k - 1] + p;
    p *= t->m[k - 1];
    t->zoff[k] = t->zoff[k - 1] + t->m[k - 1];
  }
  int cap = t->f->cap;
  if (t->lc && t->lc->cap > cap) cap = t->lc->cap;
  t->work = (double *)R_alloc(2 * (size_t)cap + 2, sizeof(double));
  t->gtmp = (double *)R_alloc((size_t)t->d, sizeof(double));
  t->xpert = (double *)R_alloc((size_t)t->d * N, sizeof(double));
  t->visits = 0UL;
  if (!(t->fd_step > 0.0)) t->fd_step = TREE_FD_STEP;
}

double tree_value(int D, const double *X, double *grad, void *ctx) {
  cb_tree *t = (cb_tree *)ctx;
  if (grad) memset(grad, 0, (size_t)D * sizeof(double));
  return node_value(t, 0, 0, X, t->best, 0.0, grad, 1.0);
}

int tree_argmax_finite(cb_tree *t, double *vals) {
  int arg = 0;
  finite_best(t, 0, t->best, 0.0, vals, &arg);
  return arg;
}

void tree_root_fantasies(cb_tree *t, const double *X, double *y,
                         double *cost) {
  for (int c = 0; c < t->m[0]; c++) {
    int fl = fantasize(t->acq, t->f, t->lc, t->d, X, t->zf[c], t->zc[c],
                       t->work, y + c, cost + c);
    unfantasize(t->f, t->lc, fl);
  }
}

double tree_schedule(cb_acq *base, cb_gp *f, cb_gp *lc, int steps,
                     const double *zf, const double *zc, double budget_start,
                     const double *lower, const double *upper, int n_raw,
                     const cb_max_control *ctl, double *costs) {
  const int d = f->d;
  const double remaining = base->remaining, best0 = base->best;
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  double *work = (double *)R_alloc(2 * (size_t)(f->cap + (lc ? lc->cap : 0)),
                                   sizeof(double));
  int *flags = (int *)R_alloc((size_t)steps, sizeof(int));
  double total = 0.0;
  for (int i = 0; i < steps; i++) {
    R_CheckUserInterrupt();
    if (budget_start > 0.0) {
      const double nu = (remaining - total) / budget_start;
      base->nu = nu < 0.0 ? 0.0 : (nu > 1.0 ? 1.0 : nu);
    }
    acq_refresh(base);
    if (f->kernel == CB_FINITE) {
      double *cand = (double *)R_alloc((size_t)f->nfin, sizeof(double));
      for (int c = 0; c < f->nfin; c++) cand[c] = (double)c;
      x[0] = (double)max_finite(acq_at, base, 1, f->nfin, cand, NULL);
    } else {
      max_box_sobol(acq_at, base, d, lower, upper, n_raw, ctl, x);
    }
    double y, z;
    flags[i] = fantasize(base, f, lc, d, x, zf[i], zc[i], work, &y, &z);
    if (y > base->best) base->best = y;
    costs[i] = z;
    total += z;
  }
  for (int i = steps - 1; i >= 0; i--) unfantasize(f, lc, flags[i]);
  base->best = best0;
  acq_refresh(base);
  return total;
}

/* R entry points ---------------------------------------------------------- */

/* A tree over the acquisition packed by acq_pack() (type Q1), fantasies
 * m (integer, length N - 1), base samples zf, zc (sum(m) each), budget. */
static void tree_unpack(cb_tree *t, cb_acq *a, cb_gp *f, cb_gp *lc, SEXP acq,
                        SEXP fantasies, SEXP zf, SEXP zc, SEXP budget) {
  const int N = Rf_length(fantasies) + 1;
  acq_unpack(a, f, lc, acq, N);
  a->grad_unit = 1;
  t->acq = a;
  t->f = f;
  t->lc = a->cost_kind == CB_COST_GP ? lc : NULL;
  t->steps = N;
  t->m = INTEGER(fantasies);
  t->zf = REAL(zf);
  t->zc = REAL(zc);
  t->budget = Rf_asReal(budget);
  t->best = a->best;
  t->fd_step = TREE_FD_STEP;
  tree_setup(t);
}

SEXP C_tree_value(SEXP acq, SEXP fantasies, SEXP zf, SEXP zc, SEXP budget,
                  SEXP X, SEXP grad) {
  cb_tree t;
  cb_acq a;
  cb_gp f, lc;
  int np = 0;
  tree_unpack(&t, &a, &f, &lc, acq, fantasies, zf, zc, budget);
  const int D = t.d * t.n_nodes, g = Rf_asLogical(grad);
  const char *nms[] = {"value", "grad", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  double *gr = NULL;
  if (g) {
    SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, t.d, t.n_nodes));
    gr = REAL(VECTOR_ELT(out, 1));
  }
  SET_VECTOR_ELT(out, 0, Rf_ScalarReal(tree_value(D, REAL(X), gr, &t)));
  UNPROTECT(np);
  return out;
}

SEXP C_tree_maximize(SEXP acq, SEXP fantasies, SEXP zf, SEXP zc,
                     SEXP budget, SEXP lower, SEXP upper, SEXP n_raw,
                     SEXP control, SEXP warm) {
  cb_tree t;
  cb_acq a;
  cb_gp f, lc;
  int np = 0;
  tree_unpack(&t, &a, &f, &lc, acq, fantasies, zf, zc, budget);
  const int d = t.d, nn = t.n_nodes, D = d * nn, nr = Rf_asInteger(n_raw);
  const double *lo = REAL(lower), *up = REAL(upper);
  cb_max_control ctl;
  max_control_from(&ctl, D, REAL(control), Rf_length(control));
  ctl.factr = TREE_FACTR;
  double *LO = (double *)R_alloc((size_t)D, sizeof(double));
  double *UP = (double *)R_alloc((size_t)D, sizeof(double));
  for (int i = 0; i < D; i++) {
    LO[i] = lo[i % d];
    UP[i] = up[i % d];
  }
  double *raw = (double *)R_alloc((size_t)nr * D, sizeof(double));
  double *unif = (double *)R_alloc((size_t)nr, sizeof(double));
  double *xq = (double *)R_alloc((size_t)d, sizeof(double));
  cb_max_control ctl1;
  max_control_default(&ctl1, d);
  GetRNGstate();
  /* 1. the myopic (Q1) maximizer at the root: 200 d raw points, 10 d starts */
  a.best = t.best;
  a.remaining = t.budget;
  acq_refresh(&a);
  max_box_sobol(acq_at, &a, d, lo, up, 200 * d, &ctl1, xq);
  /* 2. raw points of the whole tree, 3. selection uniforms */
  qmc_sobol_random(nr, D, 0, raw);
  for (int i = 0; i < nr; i++) unif[i] = unif_rand();
  PutRNGstate();
  /* raw point 0: every node at the myopic maximizer; raw point 1: the warm
   * start (decision variables of the previous tree, if any) */
  for (int i = 0; i < D; i++) {
    const int k = i % d;
    raw[(size_t)i * nr] = (xq[k] - lo[k]) / (up[k] - lo[k]);
    if (nr > 1 && Rf_length(warm) == D) {
      double r = (REAL(warm)[i] - lo[k]) / (up[k] - lo[k]);
      raw[1 + (size_t)i * nr] = r < 0.0 ? 0.0 : (r > 1.0 ? 1.0 : r);
    }
  }
  const char *nms[] = {"x", "value", "decisions", "fantasy_y",
                       "fantasy_cost", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 2, Rf_allocMatrix(REALSXP, d, nn));
  double *X = REAL(VECTOR_ELT(out, 2));
  double v = max_box(tree_value, &t, D, LO, UP, nr, raw, unif, &ctl, X, NULL);
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, d));
  memcpy(REAL(VECTOR_ELT(out, 0)), X, (size_t)d * sizeof(double));
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(v));
  if (t.steps > 1) {
    SET_VECTOR_ELT(out, 3, Rf_allocVector(REALSXP, t.m[0]));
    SET_VECTOR_ELT(out, 4, Rf_allocVector(REALSXP, t.m[0]));
    tree_root_fantasies(&t, X, REAL(VECTOR_ELT(out, 3)),
                        REAL(VECTOR_ELT(out, 4)));
  }
  UNPROTECT(np);
  return out;
}

SEXP C_tree_argmax(SEXP acq, SEXP fantasies, SEXP zf, SEXP zc, SEXP budget) {
  cb_tree t;
  cb_acq a;
  cb_gp f, lc;
  int np = 0;
  tree_unpack(&t, &a, &f, &lc, acq, fantasies, zf, zc, budget);
  const char *nms[] = {"index", "values", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, f.nfin));
  int ib = tree_argmax_finite(&t, REAL(VECTOR_ELT(out, 1)));
  SET_VECTOR_ELT(out, 0, Rf_ScalarInteger(ib + 1));
  UNPROTECT(np);
  return out;
}

SEXP C_tree_schedule(SEXP acq, SEXP zf, SEXP zc, SEXP lower, SEXP upper,
                     SEXP n_raw, SEXP control, SEXP budget_start) {
  const int steps = Rf_length(zf);
  cb_acq a;
  cb_gp f, lc;
  acq_unpack(&a, &f, &lc, acq, steps);
  a.grad_unit = 1;
  cb_max_control ctl;
  max_control_from(&ctl, f.d, REAL(control), Rf_length(control));
  SEXP out = PROTECT(Rf_allocVector(REALSXP, steps));
  GetRNGstate();
  tree_schedule(&a, &f, a.cost_kind == CB_COST_GP ? &lc : NULL, steps,
                REAL(zf), REAL(zc), Rf_asReal(budget_start), REAL(lower),
                REAL(upper), Rf_asInteger(n_raw), &ctl, REAL(out));
  PutRNGstate();
  UNPROTECT(1);
  return out;
}
