/* tree.c -- the B-MS-EI scenario tree (paper 000, Sec. 4): the budgeted
 * multi-step value of a root decision on a sample-average tree of fantasy
 * outcomes, its one-shot maximization, exact maximization on finite
 * domains, and budget scheduling by rollout of a base policy.  See tree.h. */
#include "tree.h"

#include "costbo.h"
#include "entry.h"
#include "rlist.h"
#include "qmc.h"

/* Relative predictive variance below which a fantasy is deterministic. */
#define TREE_VAR_TOL 1e-10
/* Half-width of the smoothed max of the path's best value, on the
 * standardized scale of the objective. */
#define TREE_MAX_SMOOTH 1e-5
/* The greedy trees and the warm start, which usually hold the best tree,
 * run this many times the iterations of a start from a raw point. */
#define TREE_FORCED_MAXIT 4

/* The path's best value after a fantasy outcome y: max(best, y), smoothed
 * where |y - best| < delta by the quadratic that joins the two lines with
 * a continuous slope, so that the tree value is continuously
 * differentiable across the ridges where a fantasy outcome ties the best
 * value (exact gradients stall L-BFGS-B on them).  It exceeds the max by
 * at most delta / 4.  *lam receives its derivative in y (1 - *lam in
 * best). */
static double smooth_max(double best, double y, double delta, double *lam) {
  const double t = y - best;
  if (t >= delta) {
    *lam = 1.0;
    return y;
  }
  if (t <= -delta) {
    *lam = 0.0;
    return best;
  }
  *lam = 0.5 + t / (2.0 * delta);
  return 0.5 * (best + y) + t * t / (4.0 * delta) + 0.25 * delta;
}

/* Condition a GP on the fantasy value mu(x) + sqrt(var(x) + noise) z at x;
 * *val receives that value (internal scale).  Returns 1 if the GP was
 * conditioned (to be undone by gp_fantasy_drop), 0 if the fantasy is
 * deterministic (zero predictive variance) and the GP left unchanged. */
static int fantasy_one(cb_gp *gp, const double *x, double z, double *work,
                       double *val) {
  double mu, var;
  gp_predict_at(gp, x, 1, NULL, NULL, &mu, &var, NULL, NULL, work);
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

/* One GP along the current path of the tree (see tree.h, "Closed form along
 * a path"); arrays indexed by the stage k of the path's node. */
typedef struct tree_gp_s {
  const cb_gp *gp;
  int n, N;
  double nz;        /* noise + jitter: a fantasy's pivot is var + nz */
  double *alpha;    /* K^{-1} (y - m(X)), n */
  double *v, *w;    /* n x N: L^{-1} k(X, x_k) and K^{-1} k(X, x_k) */
  double *dk, *kb;  /* n x N: kernel r2-derivatives at x_k; adjoint of
                       k(X, x_k) */
  double *R, *Rb;   /* N x N: R[k + j N] = r_k[j] (j < k), R[k + k N] =
                       D_k; Rb its adjoint */
  double *mu, *c;   /* base mean and variance at x_k */
  double *m, *var, *pv; /* path posterior at x_k; pv = max(var, 0) + noise */
  double *e;        /* innovation of the edge out of stage k on the path */
  double *mb, *vb, *eb, *yb; /* adjoints of m, var, e and the fantasy value */
  int *rnd;         /* the fantasy at x_k is random (pv > tol prior) */
  int *cond;        /* ... and conditions the GP (positive pivot) */
} tree_gp;

static tree_gp *tree_gp_new(const cb_gp *gp, int N) {
  tree_gp *g = (tree_gp *)R_alloc(1, sizeof(tree_gp));
  const size_t n = (size_t)gp->n, nn = n * N + 1, NN = (size_t)N * N;
  g->gp = gp;
  g->n = gp->n;
  g->N = N;
  g->nz = gp->noise + gp->jitter;
  g->alpha = (double *)R_alloc(n + 1, sizeof(double));
  gp_alpha(gp, g->alpha);
  g->v = (double *)R_alloc(4 * nn, sizeof(double));
  g->w = g->v + nn;
  g->dk = g->w + nn;
  g->kb = g->dk + nn;
  g->R = (double *)R_alloc(2 * NN, sizeof(double));
  g->Rb = g->R + NN;
  g->mu = (double *)R_alloc(11 * (size_t)N, sizeof(double));
  g->c = g->mu + N;
  g->m = g->c + N;
  g->var = g->m + N;
  g->pv = g->var + N;
  g->e = g->pv + N;
  g->mb = g->e + N;
  g->vb = g->mb + N;
  g->eb = g->vb + N;
  g->yb = g->eb + N;
  g->rnd = (int *)R_alloc(2 * (size_t)N, sizeof(int));
  g->cond = g->rnd + N;
  memset(g->kb, 0, nn * sizeof(double));
  memset(g->Rb, 0, NN * sizeof(double));
  memset(g->mb, 0, 4 * (size_t)N * sizeof(double));
  return g;
}

/* v <- L^{-1} v and w <- L^{-T} w for the lower-triangular n x n factor L
 * (column-major, leading dimension ld).  The trees' n is small and the
 * solves run twice per node and GP, so these plain loops (the column and
 * dot-product forms of the reference BLAS's dtrsv) save its per-call
 * argument checks (dtrsv took a fifth of a tree value's time at n = 20 in
 * a profile). */
static void solve_lower(int n, const double *L, int ld, double *v) {
  for (int j = 0; j < n; j++) {
    const double *c = L + (size_t)j * ld;
    const double vj = (v[j] /= c[j]);
    if (vj != 0.0)
      for (int i = j + 1; i < n; i++) v[i] -= c[i] * vj;
  }
}

static void solve_lower_t(int n, const double *L, int ld, double *w) {
  for (int j = n - 1; j >= 0; j--) {
    const double *c = L + (size_t)j * ld;
    double t = w[j];
    for (int i = j + 1; i < n; i++) t -= c[i] * w[i];
    w[j] = t / c[j];
  }
}

/* The posterior at the stage-k node's decision x given the fantasies on
 * its path (decisions P[0..k-1]); grad: also what the adjoint needs. */
static void tree_gp_node(tree_gp *g, int k, const double *x,
                         const double *const *P, int grad) {
  const cb_gp *gp = g->gp;
  const int n = g->n, N = g->N, ld = gp->cap, one = 1;
  double *v = g->v + (size_t)k * n, *R = g->R;
  gp_kernel_col(gp, x, 1, v, grad ? g->dk + (size_t)k * n : NULL);
  const double kxx = gp_kernel(gp, x, 1, x, 1);
  double mu = gp_prior_mean(gp, x, 1), c = kxx;
  if (n > 0) {
    solve_lower(n, gp->L, ld, v);
    mu += F77_CALL(ddot)(&n, v, &one, gp->beta, &one);
    c -= F77_CALL(ddot)(&n, v, &one, v, &one);
    if (grad) {
      double *w = g->w + (size_t)k * n;
      memcpy(w, v, (size_t)n * sizeof(double));
      solve_lower_t(n, gp->L, ld, w);
    }
  }
  /* the row of the fantasy factor: forward substitution */
  double m = mu, var = c;
  for (int j = 0; j < k; j++) {
    double r = 0.0;
    if (g->cond[j]) {
      r = gp_kernel(gp, P[j], 1, x, 1);
      if (n > 0)
        r -= F77_CALL(ddot)(&n, g->v + (size_t)j * n, &one, v, &one);
      for (int l = 0; l < j; l++)
        if (g->cond[l]) r -= R[j + (size_t)l * N] * R[k + (size_t)l * N];
      r /= R[j + (size_t)j * N];
      m += r * g->e[j];
      var -= r * r;
    }
    R[k + (size_t)j * N] = r;
  }
  g->mu[k] = mu;
  g->c[k] = c;
  g->m[k] = m;
  g->var[k] = var;
  g->pv[k] = (var > 0.0 ? var : 0.0) + gp->noise;
  g->rnd[k] = g->pv[k] > TREE_VAR_TOL * (kxx + gp->noise);
  g->cond[k] = g->rnd[k] && var + g->nz > 0.0;
  R[k + (size_t)k * N] = g->cond[k] ? sqrt(var + g->nz) : 0.0;
}

/* The fantasy value on the edge out of stage k with base sample z
 * (internal scale); sets the edge's innovation. */
static double tree_gp_edge(tree_gp *g, int k, double z) {
  const double s = g->rnd[k] ? sqrt(g->pv[k]) : 0.0;
  g->e[k] = g->cond[k] ? s * z / g->R[k + (size_t)k * g->N] : 0.0;
  return g->m[k] + s * z;
}

/* Adjoint of tree_gp_edge: moves the edge's adjoints onto the node's mean
 * and variance. */
static void tree_gp_edge_back(tree_gp *g, int k, double z) {
  const double yb = g->yb[k], eb = g->eb[k];
  g->yb[k] = g->eb[k] = 0.0;
  g->mb[k] += yb;
  if (!g->rnd[k]) return;
  const double s = sqrt(g->pv[k]), ds = g->var[k] > 0.0 ? 0.5 / s : 0.0;
  g->vb[k] += yb * z * ds;
  if (g->cond[k]) {
    const double D = g->R[k + (size_t)k * g->N];
    g->vb[k] += eb * z * (ds / D - 0.5 * s / (D * D * D));
  }
}

/* Adjoint of tree_gp_node at stage k: adds the gradient in the node's
 * decision to gx and in its ancestors' decisions to G[j] (j < k), passes
 * the adjoints of the ancestors' quantities up the path, and clears the
 * node's own. */
static void tree_gp_node_back(tree_gp *g, int k, const double *x,
                              const double *const *P, double *gx,
                              double *const *G, double *gtmp) {
  const cb_gp *gp = g->gp;
  const int n = g->n, N = g->N, d = gp->d, one = 1;
  const double *R = g->R, *w = g->w + (size_t)k * n;
  double *Rb = g->Rb, *kb = g->kb + (size_t)k * n;
  double mb = g->mb[k], vb = g->vb[k];
  if (g->cond[k]) vb += Rb[k + (size_t)k * N] / (2.0 * R[k + (size_t)k * N]);
  /* m = mu + r . e, var = c - |r|^2: the row's adjoint, kept in Rb's row */
  for (int j = 0; j < k; j++) {
    if (!g->cond[j]) continue;
    const double r = R[k + (size_t)j * N];
    Rb[k + (size_t)j * N] += mb * g->e[j] - 2.0 * vb * r;
    g->eb[j] += mb * r;
  }
  /* r = R^{-1} b, b_j = k(x_j, x) - w_j . k(X, x): back substitution */
  for (int j = k - 1; j >= 0; j--) {
    if (!g->cond[j]) continue;
    const double bb = Rb[k + (size_t)j * N] / R[j + (size_t)j * N];
    Rb[j + (size_t)j * N] -= bb * R[k + (size_t)j * N];
    for (int l = 0; l < j; l++) {
      if (!g->cond[l]) continue;
      Rb[j + (size_t)l * N] -= bb * R[k + (size_t)l * N];
      Rb[k + (size_t)l * N] -= bb * R[j + (size_t)l * N];
    }
    if (n > 0) {
      const double mbb = -bb;
      F77_CALL(daxpy)(&n, &mbb, g->w + (size_t)j * n, &one, kb, &one);
      F77_CALL(daxpy)(&n, &mbb, w, &one, g->kb + (size_t)j * n, &one);
    }
    memset(gtmp, 0, (size_t)d * sizeof(double));
    gp_kernel_dx(gp, x, P[j], 1.0, gtmp);
    for (int i = 0; i < d; i++) {
      gx[i] += bb * gtmp[i];
      G[j][i] -= bb * gtmp[i];
    }
  }
  /* mu = m0 + alpha . k(X, x), c = k(x, x) - w . k(X, x) */
  if (n > 0) {
    const double m2 = -2.0 * vb;
    F77_CALL(daxpy)(&n, &mb, g->alpha, &one, kb, &one);
    F77_CALL(daxpy)(&n, &m2, w, &one, kb, &one);
    gp_kernel_col_grad(gp, x, kb, g->dk + (size_t)k * n, gx);
    memset(kb, 0, (size_t)n * sizeof(double));
  }
  for (int j = 0; j <= k; j++) Rb[k + (size_t)j * N] = 0.0;
  g->mb[k] = g->vb[k] = 0.0;
}

/* Value of the subtree of node j of stage k, whose path state (best value,
 * cost spent) is set at stage k; G (may be NULL) accumulates w times the
 * gradient in the decisions. */
static double node_value(cb_tree *t, int k, int j, const double *X,
                         double *G, double w) {
  visit(t);
  const double rem = t->budget - t->spent[k];
  if (!(rem > 0.0)) return 0.0; /* budget spent: no value */
  const int d = t->d, node = t->off[k] + j;
  const double *x = X + (size_t)node * d;
  const double *const *P = t->px;
  cb_acq *a = t->acq;
  tree_gp *pf = t->pf, *pc = t->pc;
  t->px[k] = x;
  if (G) t->pg[k] = G + (size_t)node * d;
  tree_gp_node(pf, k, x, P, G != NULL);
  const double sf = pf->var[k] > 0.0 ? sqrt(pf->var[k]) : 0.0;
  double mc = 0.0, sc = 0.0, cost = 1.0;
  if (pc) {
    tree_gp_node(pc, k, x, P, G != NULL);
    sc = pc->var[k] > 0.0 ? sqrt(pc->var[k]) : 0.0;
    mc = a->c_shift + a->c_scale * pc->m[k];
  } else {
    cost = acq_cost(a, d, x);
  }
  acq_grad pd;
  double q = acq_q1(a->f_shift + a->f_scale * pf->m[k], a->f_scale * sf,
                    t->bestk[k], mc, a->c_scale * sc, rem, pc == NULL, cost,
                    G ? &pd : NULL);
  if (!R_FINITE(q)) q = 0.0;
  else if (G) {
    /* the node's Q1 in its posterior moments, best value and budget */
    const double gm = R_FINITE(pd.m) ? w * pd.m : 0.0;
    const double gs = R_FINITE(pd.s) ? w * pd.s : 0.0;
    pf->mb[k] += gm * a->f_scale;
    if (sf > 0.0) pf->vb[k] += gs * a->f_scale / (2.0 * sf);
    for (int i = 0; i < k; i++)
      pf->yb[i] -= gm * a->f_scale * t->dbest[k + (size_t)i * t->steps];
    if (pc) {
      const double gmc = R_FINITE(pd.mc) ? w * pd.mc : 0.0;
      const double gsc = R_FINITE(pd.sc) ? w * pd.sc : 0.0;
      pc->mb[k] += gmc * a->c_scale;
      if (sc > 0.0) pc->vb[k] += gsc * a->c_scale / (2.0 * sc);
      /* Q1 depends on log(remaining) - mc: dQ/d remaining = -dQ/dmc / rem,
       * and remaining = budget - sum of the path's fantasy costs */
      const double gr = gmc / rem;
      for (int i = 0; i < k; i++) pc->yb[i] += gr * t->cost[i] * a->c_scale;
    }
  }
  if (k < t->steps - 1) {
    const int mk = t->m[k];
    double s = 0.0;
    for (int c = 0; c < mk; c++) {
      const double zf = t->zf[t->zoff[k] + c], zc = t->zc[t->zoff[k] + c];
      const double y = a->f_shift + a->f_scale * tree_gp_edge(pf, k, zf);
      double lam;
      t->bestk[k + 1] = smooth_max(t->bestk[k], y, TREE_MAX_SMOOTH * a->f_scale,
                                   &lam);
      if (G) {
        const int N = t->steps;
        for (int i = 0; i < k; i++)
          t->dbest[k + 1 + (size_t)i * N] =
              (1.0 - lam) * t->dbest[k + (size_t)i * N];
        t->dbest[k + 1 + (size_t)k * N] = lam;
      }
      if (pc) cost = exp(a->c_shift + a->c_scale * tree_gp_edge(pc, k, zc));
      t->cost[k] = cost;
      t->spent[k + 1] = t->spent[k] + cost;
      s += node_value(t, k + 1, j * mk + c, X, G, w / mk);
      if (G) {
        tree_gp_edge_back(pf, k, zf);
        if (pc) tree_gp_edge_back(pc, k, zc);
      }
    }
    q += s / mk;
  }
  if (G) {
    double *gx = G + (size_t)node * d;
    tree_gp_node_back(pf, k, x, P, gx, t->pg, t->gtmp);
    if (pc) tree_gp_node_back(pc, k, x, P, gx, t->pg, t->gtmp);
  }
  return q;
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

/* Greedy decisions for the descendants of node j of stage k, whose decision
 * is set in X (d x n_nodes, unit cube of the GPs): each child at the
 * maximizer of its own Q1 in its fantasy state (the GPs conditioned on the
 * fantasy outcomes of its path, the path's best value and budget left), by
 * max_box_sobol with n_raw raw points and control ctl; a child whose path
 * has spent the budget takes its parent's decision.  A good start for the
 * one-shot optimization: the tree of the myopic policy's decisions. */
static void greedy_fill(cb_tree *t, int k, int j, double *X, double best,
                        double spent, const double *lo, const double *up,
                        int n_raw, const cb_max_control *ctl) {
  if (k >= t->steps - 1) return;
  const int d = t->d, mk = t->m[k];
  const double *x = X + (size_t)(t->off[k] + j) * d;
  for (int c = 0; c < mk; c++) {
    double y, z;
    int fl = fantasize(t->acq, t->f, t->lc, d, x, t->zf[t->zoff[k] + c],
                       t->zc[t->zoff[k] + c], t->work, &y, &z);
    const double nb = y > best ? y : best, ns = spent + z;
    double *xc = X + (size_t)(t->off[k + 1] + j * mk + c) * d;
    if (t->budget - ns > 0.0) {
      t->acq->best = nb;
      t->acq->remaining = t->budget - ns;
      acq_refresh(t->acq);
      const cb_max_control mc = acq_max_control(t->acq, ctl);
      max_box_sobol(acq_at, t->acq, d, lo, up, n_raw, &mc, xc, NULL);
    } else {
      memcpy(xc, x, (size_t)d * sizeof(double));
    }
    greedy_fill(t, k + 1, j * mk + c, X, nb, ns, lo, up, n_raw, ctl);
    unfantasize(t->f, t->lc, fl);
  }
}

/* Up to K distinct local maximizers of the root's Q1 (the acquisition a,
 * set up for the root), best first, into R (d x K); returns how many.  The
 * n_raw scrambled Sobol points with the largest values start L-BFGS-B
 * (10 d of them, the protocol's number of starts); maximizers closer than
 * 1e-3 (sup norm, unit cube) to a better one are dropped.  Draws the Sobol
 * scramble from R's RNG. */
static int root_candidates(cb_acq *a, int d, const double *lo,
                           const double *up, int n_raw, int K, double *R) {
  double *raw = (double *)R_alloc((size_t)n_raw * d, sizeof(double));
  double *val = (double *)R_alloc((size_t)n_raw, sizeof(double));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  int *idx = (int *)R_alloc((size_t)n_raw, sizeof(int));
  qmc_sobol_random(n_raw, d, 0, raw);
  for (int i = 0; i < n_raw; i++) {
    for (int k = 0; k < d; k++)
      x[k] = lo[k] + raw[i + (size_t)k * n_raw] * (up[k] - lo[k]);
    double v = acq_at(d, x, NULL, a);
    val[i] = R_FINITE(v) ? -v : R_PosInf;
    idx[i] = i;
  }
  rsort_with_index(val, idx, n_raw);
  int ns = 10 * d < n_raw ? 10 * d : n_raw;
  double *opt = (double *)R_alloc((size_t)ns * d, sizeof(double));
  double *ov = (double *)R_alloc((size_t)ns, sizeof(double));
  int *oi = (int *)R_alloc((size_t)ns, sizeof(int));
  cb_max_control c0;
  max_control_default(&c0, d);
  c0.n_starts = 1;
  c0.select = CB_SELECT_BEST;
  const cb_max_control c1 = acq_max_control(a, &c0);
  const double u = 0.5;
  for (int s = 0; s < ns; s++) {
    for (int k = 0; k < d; k++) x[k] = raw[idx[s] + (size_t)k * n_raw];
    ov[s] = -max_box(acq_at, a, d, lo, up, 1, x, &u, &c1,
                     opt + (size_t)s * d, NULL);
    oi[s] = s;
  }
  rsort_with_index(ov, oi, ns);
  int m = 0;
  for (int s = 0; s < ns && m < K; s++) {
    const double *o = opt + (size_t)oi[s] * d;
    int dup = 0;
    for (int j = 0; j < m && !dup; j++) {
      double dist = 0.0;
      for (int k = 0; k < d; k++) {
        const double e = fabs(o[k] - R[(size_t)j * d + k]) / (up[k] - lo[k]);
        if (e > dist) dist = e;
      }
      dup = dist < 1e-3;
    }
    if (!dup) memcpy(R + (size_t)(m++) * d, o, (size_t)d * sizeof(double));
  }
  return m;
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
  t->pf = tree_gp_new(t->f, N);
  t->pc = t->lc ? tree_gp_new(t->lc, N) : NULL;
  t->px = (const double **)R_alloc((size_t)N, sizeof(double *));
  t->pg = (double **)R_alloc((size_t)N, sizeof(double *));
  t->dbest = (double *)R_alloc((size_t)N * N, sizeof(double));
  t->bestk = (double *)R_alloc(3 * (size_t)N, sizeof(double));
  t->spent = t->bestk + N;
  t->cost = t->spent + N;
  t->visits = 0UL;
}

double tree_value(int D, const double *X, double *grad, void *ctx) {
  cb_tree *t = (cb_tree *)ctx;
  double *G = grad;
  if (grad) {
    memset(grad, 0, (size_t)D * sizeof(double));
    if (!gp_has_xgrad(t->f)) G = NULL; /* no gradient on candidates */
  }
  t->bestk[0] = t->best;
  t->spent[0] = 0.0;
  return node_value(t, 0, 0, X, G, 1.0);
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
    if (gp_inputs(f) == CB_INPUT_INDEX) {
      double *cand = (double *)R_alloc((size_t)f->nfin, sizeof(double));
      for (int c = 0; c < f->nfin; c++) cand[c] = (double)c;
      x[0] = (double)max_finite(acq_at, base, 1, f->nfin, cand, NULL);
    } else {
      const cb_max_control mc = acq_max_control(base, ctl);
      max_box_sobol(acq_at, base, d, lower, upper, n_raw, &mc, x, NULL);
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
  unpack_acq(acq, a, f, lc, N);
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

/* The optimizer settings of the one-shot tree (R: bmsei_tree_control()):
 * raw points of the whole tree, greedy trees, and the L-BFGS-B control of
 * the starts from raw points. */
typedef struct {
  int n_raw;
  int n_greedy;
  cb_max_control max;
} cb_tree_control;

static void unpack_tree_control(SEXP ctl, cb_tree_control *tc) {
  const char *cls = "costbo_tree_control";
  tc->n_raw = cb_elt_int(ctl, cls, "n_raw");
  tc->n_greedy = cb_elt_int(ctl, cls, "n_greedy");
  unpack_max_control(cb_elt_list(ctl, cls, "max"), &tc->max);
}

SEXP C_tree_maximize(SEXP acq, SEXP fantasies, SEXP zf, SEXP zc,
                     SEXP budget, SEXP lower, SEXP upper, SEXP control,
                     SEXP warm) {
  cb_tree t;
  cb_acq a;
  cb_gp f, lc;
  int np = 0;
  tree_unpack(&t, &a, &f, &lc, acq, fantasies, zf, zc, budget);
  cb_tree_control tc;
  unpack_tree_control(control, &tc);
  const int d = t.d, nn = t.n_nodes, D = d * nn, nr = tc.n_raw;
  const double *lo = REAL(lower), *up = REAL(upper);
  const cb_max_control ctl = tc.max;
  double *LO = (double *)R_alloc((size_t)D, sizeof(double));
  double *UP = (double *)R_alloc((size_t)D, sizeof(double));
  for (int i = 0; i < D; i++) {
    LO[i] = lo[i % d];
    UP[i] = up[i % d];
  }
  /* the starts run in any case: the greedy trees and the warm start */
  const int has_warm = Rf_length(warm) == D;
  const int K = tc.n_greedy;
  double *roots = (double *)R_alloc((size_t)(K > 1 ? K : 1) * d,
                                    sizeof(double));
  double *G = (double *)R_alloc((size_t)(K + 1) * D, sizeof(double));
  double *raw = (double *)R_alloc((size_t)nr * D, sizeof(double));
  double *unif = (double *)R_alloc((size_t)nr, sizeof(double));
  const double *xq = roots;
  cb_max_control ctl1;
  max_control_default(&ctl1, d);
  GetRNGstate();
  /* 1. the distinct local maximizers of the root's Q1: 200 d raw points,
   * 10 d starts; the best one is the myopic maximizer */
  a.best = t.best;
  a.remaining = t.budget;
  acq_refresh(&a);
  int nroot = root_candidates(&a, d, lo, up, 200 * d, K > 1 ? K : 1, roots);
  if (K < 1) nroot = 0;
  /* 2. the greedy tree from each (200 d raw points, 10 d starts at every
   * node) */
  for (int r = 0; r < nroot; r++) {
    double *Gr = G + (size_t)r * D;
    memcpy(Gr, roots + (size_t)r * d, (size_t)d * sizeof(double));
    greedy_fill(&t, 0, 0, Gr, t.best, 0.0, lo, up, 200 * d, &ctl1);
  }
  a.best = t.best;
  a.remaining = t.budget;
  acq_refresh(&a);
  /* 3. raw points of the whole tree, 4. selection uniforms */
  qmc_sobol_random(nr, D, 0, raw);
  for (int i = 0; i < nr; i++) unif[i] = unif_rand();
  PutRNGstate();
  const int ng = nroot + has_warm;
  double *gr = (double *)R_alloc((size_t)(ng > 0 ? ng : 1) * D,
                                 sizeof(double));
  double *gu = (double *)R_alloc((size_t)(ng > 0 ? ng : 1), sizeof(double));
  /* raw point 0: every node at the myopic maximizer; forced starts: the
   * greedy trees and the warm start (decision variables of the previous
   * tree, if any) */
  for (int i = 0; i < D; i++) {
    const int k = i % d;
    const double w = up[k] - lo[k];
    raw[(size_t)i * nr] = (xq[k] - lo[k]) / w;
    for (int r = 0; r < nroot; r++)
      gr[r + (size_t)i * ng] = (G[(size_t)r * D + i] - lo[k]) / w;
    if (has_warm) {
      double v = (REAL(warm)[i] - lo[k]) / w;
      gr[nroot + (size_t)i * ng] = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
    }
  }
  for (int i = 0; i < ng; i++) gu[i] = 0.5;
  const char *nms[] = {"x", "value", "decisions", "fantasy_y",
                       "fantasy_cost", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 2, Rf_allocMatrix(REALSXP, d, nn));
  double *X = REAL(VECTOR_ELT(out, 2));
  cb_max_control ctlg = ctl;
  ctlg.n_starts = ng;
  ctlg.select = CB_SELECT_BEST;
  ctlg.maxit = TREE_FORCED_MAXIT * ctl.maxit;
  double vg = ng > 0 ? max_box(tree_value, &t, D, LO, UP, ng, gr, gu, &ctlg,
                               G, NULL) : R_NegInf;
  double v = max_box(tree_value, &t, D, LO, UP, nr, raw, unif, &ctl, X, NULL);
  if (vg > v) {
    v = vg;
    memcpy(X, G, (size_t)D * sizeof(double));
  }
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
  unpack_acq(acq, &a, &f, &lc, steps);
  a.grad_unit = 1;
  cb_max_control ctl;
  unpack_max_control(control, &ctl);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, steps));
  GetRNGstate();
  tree_schedule(&a, &f, a.cost_kind == CB_COST_GP ? &lc : NULL, steps,
                REAL(zf), REAL(zc), Rf_asReal(budget_start), REAL(lower),
                REAL(upper), Rf_asInteger(n_raw), &ctl, REAL(out));
  PutRNGstate();
  UNPROTECT(1);
  return out;
}
