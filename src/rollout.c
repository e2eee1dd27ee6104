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

/* Mean and sd of a fantasy outcome at x in the user's units (the fantasy
 * rule of gp.h): of the latent value f(x) when latent (a deterministic
 * objective), else of an observation, whose variance includes the noise
 * variance and jitter. */
static void cmdp_moments(cb_acq *a, const double *x, int latent, double *m,
                         double *s) {
  double mi, vi;
  gp_predict_at(a->f, x, 1, NULL, NULL, &mi, &vi, NULL, NULL, a->work);
  *m = a->f_shift + a->f_scale * mi;
  if (latent)
    *s = a->f_scale * sqrt(vi > 0.0 ? vi : 0.0);
  else
    *s = a->f_scale * sqrt((vi > 0.0 ? vi : 0.0) + a->f->noise + a->f->jitter);
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
    double m, s;
    cmdp_moments(a, xcur, r->latent, &m, &s);
    if (t == r->h - 1) { /* last stage: E[(y - best)^+] in closed form */
      val = best - best0 + acq_ei(m, s, best, NULL);
      break;
    }
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
    const cb_max_control mc = acq_max_control(a, &r->inner);
    max_box(acq_at, a, d, r->lower, r->upper, r->n_raw, r->raw, r->unif, &mc,
            xnext, NULL);
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
  if (r->latent && r->h == 1) {
    /* no outcome is drawn: the value is EI of f, the same for every draw */
    const double v = c0 <= r->remaining ? cmdp_sample(r, x, 0, c0) : 0.0;
    if (samples)
      for (int i = 0; i < r->nsamp; i++) samples[i] = v;
    a->type = type;
    a->best = best;
    a->nu = nu;
    return v;
  }
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

/* Knowledge gradient and rolling horizon ---------------------------------- */

/* Rows of the point set: the conditioned inputs (at source 0), the
 * candidates (source 0), x at source 0 (these nb rows are the set A over
 * which KG maximizes the posterior mean), then the candidates at sources
 * 1, ..., nsrc - 1 and x at its own source.  Decision columns: candidate j
 * at source s is column j + s m, x is the last column. */
static int rh_row_of(const cb_kg *k, int c) {
  if (c == k->nd - 1) return k->nr - 1;
  const int j = c % k->m, s = c / k->m;
  return s == 0 ? k->n + j : k->nb + j + (s - 1) * k->m;
}

/* Sums of w |z| over the positive and the negative nodes of a rule. */
/* Row r of the level-0 state from the data alone: V[, r] = L^-1 k(X, P_r)
 * and its posterior mean mu[r]. */
static void rh_row_posterior(cb_kg *k, int r) {
  const cb_gp *f = k->f;
  const int n = k->n, nr = k->nr, ld = f->cap, one = 1;
  double *vr = k->V + (size_t)r * n, mr = gp_prior_mean(f, k->P + r, nr);
  for (int i = 0; i < n; i++) vr[i] = gp_kernel(f, f->X + i, ld, k->P + r, nr);
  if (n > 0)
    F77_CALL(dtrsv)("L", "N", "N", &n, f->L, &ld, vr, &one FCONE FCONE FCONE);
  for (int i = 0; i < n; i++) mr += vr[i] * f->beta[i];
  k->mu[r] = mr;
}

static void gh_halves(int nn, const double *gx, const double *gw, double *hi,
                      double *lo) {
  *hi = *lo = 0.0;
  for (int g = 0; g < nn; g++) {
    if (gx[g] > 0.0) *hi += gw[g] * gx[g];
    if (gx[g] < 0.0) *lo -= gw[g] * gx[g];
  }
}

void rollout_kg_setup(cb_kg *k) {
  const int n = k->f->n, m = k->m, d = k->d, S = k->nsrc;
  k->n = n;
  k->nb = n + m + 1;
  k->nr = k->nb + m * (S - 1) + 1;
  k->nd = m * S + 1;
  const int nr = k->nr, nd = k->nd, nl = k->max_h > 0 ? k->max_h : 1;
  k->col = (int *)R_alloc((size_t)nd, sizeof(int));
  for (int c = 0; c < nd; c++) k->col[c] = rh_row_of(k, c);
  k->P = (double *)R_alloc((size_t)nr * (size_t)d, sizeof(double));
  k->V = (double *)R_alloc((size_t)(n > 0 ? n : 1) * (size_t)nr,
                           sizeof(double));
  k->mu = (double *)R_alloc((size_t)nl * (size_t)nr, sizeof(double));
  k->C = (double *)R_alloc((size_t)nl * (size_t)nr * (size_t)nd,
                           sizeof(double));
  k->work = (double *)R_alloc((size_t)(4 * nr + 4 * n + 4 * d + 4 * nd + 64),
                              sizeof(double));
  k->sig = k->work;
  k->bound = k->sig + nr;
  k->kx = k->bound + nd;
  k->dk = k->kx + n + 1;
  k->u = k->dk + n + 1;
  k->xt = k->u + n + 1;
  k->xs = k->xt + d;
  k->xb = k->xs + d;
  k->order = (int *)R_alloc((size_t)(nd + k->n_nodes), sizeof(int));
  k->arg = k->order + nd;
  gh_halves(k->n_nodes, k->gh_x, k->gh_w, &k->ep_hi, &k->ep_lo);
  /* the rows that do not involve x: inputs, candidates at every source */
  const cb_gp *f = k->f;
  const int ld = f->cap;
  for (int c = 0; c < d; c++) {
    for (int i = 0; i < n; i++)
      k->P[i + (size_t)c * nr] =
          (k->miso && c == d - 1) ? 0.0 : f->X[i + (size_t)c * ld];
    for (int s = 0; s < S; s++)
      for (int j = 0; j < m; j++) {
        const int r = rh_row_of(k, j + s * m);
        k->P[r + (size_t)c * nr] =
            (k->miso && c == d - 1) ? (double)s : k->cand[j + (size_t)c * m];
      }
  }
  for (int r = 0; r < nr; r++) {
    if ((r & 63) == 63) R_CheckUserInterrupt();
    if (r == k->nb - 1 || r == nr - 1) continue;
    rh_row_posterior(k, r);
  }
  for (int c = 0; c < nd - 1; c++) {
    if ((c & 15) == 15) R_CheckUserInterrupt();
    const int rc = k->col[c];
    const double *vc = k->V + (size_t)rc * n;
    double *Cc = k->C + (size_t)c * nr;
    for (int r = 0; r < nr; r++) {
      if (r == k->nb - 1 || r == nr - 1) continue;
      const double *vr = k->V + (size_t)r * n;
      double q = gp_kernel(f, k->P + r, nr, k->P + rc, nr);
      for (int i = 0; i < n; i++) q -= vr[i] * vc[i];
      Cc[r] = q;
    }
  }
}

/* Put x (length d; with miso (x, s)) into the state of level 0: the rows
 * (x, 0) and x, their means, and their covariances with every row. */
static void rh_set_x(cb_kg *k, const double *x) {
  const cb_gp *f = k->f;
  const int n = k->n, nr = k->nr, nd = k->nd, d = k->d;
  const int r0 = k->nb - 1, r1 = nr - 1;
  for (int c = 0; c < d; c++) {
    k->P[r1 + (size_t)c * nr] = x[c];
    k->P[r0 + (size_t)c * nr] = (k->miso && c == d - 1) ? 0.0 : x[c];
  }
  rh_row_posterior(k, r0);
  rh_row_posterior(k, r1);
  /* rows r0, r1 of the candidate columns */
  for (int c = 0; c < nd - 1; c++) {
    const int rc = k->col[c];
    const double *vc = k->V + (size_t)rc * n;
    for (int t = 0; t < 2; t++) {
      const int r = t == 0 ? r0 : r1;
      const double *vr = k->V + (size_t)r * n;
      double q = gp_kernel(f, k->P + r, nr, k->P + rc, nr);
      for (int i = 0; i < n; i++) q -= vr[i] * vc[i];
      k->C[r + (size_t)c * nr] = q;
    }
  }
  /* the column of x */
  const double *v1 = k->V + (size_t)r1 * n;
  double *Cx = k->C + (size_t)(nd - 1) * nr;
  for (int r = 0; r < nr; r++) {
    const double *vr = k->V + (size_t)r * n;
    double q = gp_kernel(f, k->P + r, nr, k->P + r1, nr);
    for (int i = 0; i < n; i++) q -= vr[i] * v1[i];
    Cx[r] = q;
  }
}

/* The coefficient of the standard normal Z in the change of the posterior
 * mean at a row whose covariance with the fantasized decision is 1, when
 * the decision's posterior variance is v (the fantasy rule of gp.h):
 * conditioned on an observation, mean + sqrt(v + nj) Z, with nj the noise
 * variance and jitter on its diagonal, 1 / sqrt(v + nj); on the latent
 * value, mean + sqrt(v) Z, conditioned on with the same diagonal,
 * sqrt(v) / (v + nj). */
static double rh_coef(const cb_kg *k, double v) {
  const double nj = k->f->noise + k->f->jitter;
  if (!k->latent) return 1.0 / sqrt(v + nj);
  return sqrt(v > 0.0 ? v : 0.0) / (v + nj);
}

/* State l + 1 = state l conditioned on the fantasy outcome of column b at
 * z (the fantasy rule of gp.h: mean + sd z with sd that of an observation,
 * or of the latent value when k->latent): the rank-one update of the means
 * and covariances that gp_fantasy_add makes to the GP. */
static void rh_update(cb_kg *k, int l, int b, double z) {
  const int nr = k->nr, nd = k->nd;
  const double *mu = k->mu + (size_t)l * nr, *C = k->C + (size_t)l * nr * nd;
  double *mu1 = k->mu + (size_t)(l + 1) * nr;
  double *C1 = k->C + (size_t)(l + 1) * nr * nd;
  const double *cb = C + (size_t)b * nr;
  const int rb = k->col[b];
  const double piv = cb[rb] + k->f->noise + k->f->jitter;
  if (!(piv > 0.0)) { /* as a failed gp_fantasy_add: no update */
    memcpy(mu1, mu, (size_t)nr * sizeof(double));
    memcpy(C1, C, (size_t)nr * (size_t)nd * sizeof(double));
    return;
  }
  const double a = k->latent ? z * rh_coef(k, cb[rb]) : z / sqrt(piv);
  for (int r = 0; r < nr; r++) mu1[r] = mu[r] + cb[r] * a;
  for (int c = 0; c < nd; c++) {
    const double *Cc = C + (size_t)c * nr;
    double *C1c = C1 + (size_t)c * nr;
    const double t = Cc[rb] / piv;
    for (int r = 0; r < nr; r++) C1c[r] = Cc[r] - cb[r] * t;
  }
}

/* KG of column c in state l (internal scale), over the nb rows of A, by
 * the rule of the first transition (nodes = 0) or the later ones. */
static double rh_kg(cb_kg *k, int l, int c, double mmax) {
  const int nb = k->nb, nr = k->nr;
  const double *mu = k->mu + (size_t)l * nr;
  const double *Cc = k->C + ((size_t)l * k->nd + c) * nr;
  const double v = Cc[k->col[c]];
  if (!(v > 0.0)) return 0.0;
  const double is = k->latent ? rh_coef(k, v)
                              : 1.0 / sqrt(v + k->f->noise + k->f->jitter);
  double e = 0.0;
  for (int g = 0; g < k->n_nodes; g++) {
    const double z = k->gh_x[g] * is;
    double mz = R_NegInf;
    for (int i = 0; i < nb; i++) {
      const double t = mu[i] + Cc[i] * z;
      if (t > mz) mz = t;
    }
    e += k->gh_w[g] * mz;
  }
  e -= mmax;
  return e > 0.0 ? e : 0.0;
}

static double rh_mmax(const cb_kg *k, int l) {
  const double *mu = k->mu + (size_t)l * k->nr;
  double m = R_NegInf;
  for (int i = 0; i < k->nb; i++)
    if (mu[i] > m) m = mu[i];
  return m;
}

static double rh_cost(const cb_kg *k, int c) {
  return k->cand_cost ? k->cand_cost[c] : 1.0;
}

/* The greedy choice in state l: the first candidate column of largest
 * reward KG / cost.  Columns whose upper bound on KG, E+ max sig - E-
 * min sig with sig the covariances with A over the sd, is below the best
 * reward found are not evaluated (the bound holds for the quadrature, so
 * the argmax is exact).  *raw receives its KG. */
static int rh_argmax(cb_kg *k, int l, double *best, double *raw) {
  const int nc = k->nd - 1, nb = k->nb, nr = k->nr;
  const double nj = k->f->noise + k->f->jitter;
  const double mmax = rh_mmax(k, l);
  for (int c = 0; c < nc; c++) {
    const double *Cc = k->C + ((size_t)l * k->nd + c) * nr;
    const double v = Cc[k->col[c]];
    double b = 0.0;
    if (v > 0.0) {
      double hi = R_NegInf, lo = R_PosInf;
      for (int i = 0; i < nb; i++) {
        if (Cc[i] > hi) hi = Cc[i];
        if (Cc[i] < lo) lo = Cc[i];
      }
      b = k->latent ? (k->ep_hi * hi - k->ep_lo * lo) * rh_coef(k, v)
                    : (k->ep_hi * hi - k->ep_lo * lo) / sqrt(v + nj);
      if (b < 0.0) b = 0.0;
    }
    k->bound[c] = b / rh_cost(k, c) * (1.0 + 1e-12) + 1e-300;
    k->order[c] = c;
  }
  revsort(k->bound, k->order, nc);
  int ib = -1;
  double vb = -1.0, rb = 0.0;
  for (int t = 0; t < nc; t++) {
    if (k->bound[t] < vb) break;
    /* ties in the order of the pairs: candidate j, then source s */
    const int c = k->order[t];
    const double g = rh_kg(k, l, c, mmax), v = g / rh_cost(k, c);
    const int pj = c % k->m, ps = c / k->m;
    const int bj = ib % k->m, bs = ib / k->m;
    if (v > vb || (v == vb && (pj < bj || (pj == bj && ps < bs)))) {
      vb = v;
      rb = g;
      ib = c;
    }
  }
  *best = vb > 0.0 ? vb : 0.0;
  if (raw) *raw = rb;
  return ib;
}

static double rh_expect(cb_kg *k, int l, int b, int j);

/* Value of j more greedy-KG stages from state l. */
static double rh_future(cb_kg *k, int l, int j) {
  double v;
  const int ib = rh_argmax(k, l, &v, NULL);
  if (j == 1) return v;
  return v + k->alpha * rh_expect(k, l, ib, j - 1);
}

/* Expectation over the observation of column b in state l of the value of
 * j more stages. */
static double rh_expect(cb_kg *k, int l, int b, int j) {
  const int nn = l == 0 ? k->n_nodes : k->n_deep;
  const double *gx = l == 0 ? k->gh_x : k->gd_x;
  const double *gw = l == 0 ? k->gh_w : k->gd_w;
  double e = 0.0;
  for (int g = 0; g < nn; g++) {
    if (l == 0) R_CheckUserInterrupt();
    rh_update(k, l, b, gx[g]);
    e += gw[g] * rh_future(k, l + 1, j);
  }
  return e;
}

double rollout_rh_value(cb_kg *k, const double *x, int h, double cost) {
  rh_set_x(k, x);
  const double v = rh_kg(k, 0, k->nd - 1, rh_mmax(k, 0)) / cost;
  if (h <= 1) return v;
  return v + k->alpha * rh_expect(k, 0, k->nd - 1, h - 1);
}

double rollout_kg_at(cb_kg *k, const double *x, double *grad) {
  const cb_gp *f = k->f;
  const int n = k->n, na = k->nb - 1, d = k->d, ld = f->cap, one = 1;
  const int dograd = grad != NULL; /* gp_kernel_col: an error without */
  if (grad)
    for (int c = 0; c < d; c++) grad[c] = 0.0;
  double *w = k->kx;
  gp_kernel_col(f, x, 1, w, dograd ? k->dk : NULL);
  if (n > 0)
    F77_CALL(dtrsv)("L", "N", "N", &n, f->L, &ld, w, &one FCONE FCONE FCONE);
  double mx = gp_prior_mean(f, x, 1), vx = gp_kernel(f, x, 1, x, 1);
  for (int i = 0; i < n; i++) {
    mx += w[i] * f->beta[i];
    vx -= w[i] * w[i];
  }
  if (!(vx > 0.0)) return 0.0;
  /* sig = cov / s (an observation) or cov * q (the latent value) */
  const double den = vx + f->noise + f->jitter, s = sqrt(den);
  const int lat = k->latent;
  const double q = lat ? rh_coef(k, vx) : 0.0;
  /* the member (x, 0) of A: its mean and covariance with x */
  double m0x = mx, c0x = vx;
  if (k->miso && x[d - 1] != 0.0) {
    memcpy(k->xt, x, (size_t)d * sizeof(double));
    k->xt[d - 1] = 0.0;
    double *w0 = k->u;
    for (int i = 0; i < n; i++) w0[i] = gp_kernel(f, f->X + i, ld, k->xt, 1);
    if (n > 0)
      F77_CALL(dtrsv)("L", "N", "N", &n, f->L, &ld, w0, &one
                      FCONE FCONE FCONE);
    m0x = gp_prior_mean(f, k->xt, 1);
    c0x = gp_kernel(f, k->xt, 1, x, 1);
    for (int i = 0; i < n; i++) {
      m0x += w0[i] * f->beta[i];
      c0x -= w0[i] * w[i];
    }
  }
  double *sig = k->sig, mmax = m0x;
  for (int i = 0; i < na; i++) {
    const double *vi = k->V + (size_t)i * n;
    double c = gp_kernel(f, k->P + i, k->nr, x, 1);
    for (int t = 0; t < n; t++) c -= vi[t] * w[t];
    sig[i] = lat ? c * q : c / s;
    if (k->mu[i] > mmax) mmax = k->mu[i];
  }
  sig[na] = lat ? c0x * q : c0x / s;
  double e = 0.0;
  for (int g = 0; g < k->n_nodes; g++) {
    const double z = k->gh_x[g];
    double mz = m0x + sig[na] * z;
    int ig = na;
    for (int i = 0; i < na; i++) {
      const double t = k->mu[i] + sig[i] * z;
      if (t > mz) {
        mz = t;
        ig = i;
      }
    }
    k->arg[g] = ig;
    e += k->gh_w[g] * mz;
  }
  e -= mmax;
  if (!(e > 0.0)) return 0.0;
  if (!dograd) return e;
  /* gradient: KG = sum_g w_g (mu_i + sig_i z_g) - max mu, with i the
   * member at node g; sig_i = c_i / s (an observation) or c_i q (the
   * latent value), c_i = k(a_i, x) - V_i' w, s^2 = den = v + noise,
   * q = sqrt(v) / den, v = k(x, x) - w'w, w = L^-1 k(X, x); gv collects
   * the derivative in v, gm that in the mean of x.  The terms in
   * L^-1 dk(X, x)/dx are collected in r and solved once. */
  double *r = k->u, gv = 0.0, gm = 0.0;
  for (int i = 0; i < n; i++) r[i] = 0.0;
  for (int g = 0; g < k->n_nodes; g++) {
    const double wz = k->gh_w[g] * k->gh_x[g];
    const int i = k->arg[g];
    if (i == na) {
      gm += k->gh_w[g];
      /* d(v / s) / dv, or d(v q) / dv = q (3/2 - v / den) */
      gv += lat ? wz * q * (1.5 - vx / den)
                : wz * (1.0 / s - vx / (2.0 * den * s));
    } else {
      const double *vi = k->V + (size_t)i * n;
      const double ci = lat ? wz * q : wz / s;
      for (int c = 0; c < d; c++) k->xt[c] = k->P[i + (size_t)c * k->nr];
      gp_kernel_dx(f, x, k->xt, ci, grad);
      for (int t = 0; t < n; t++) r[t] -= ci * vi[t];
      /* c_i d(1 / s) / dv, or c_i dq / dv = c_i q (1 / (2 v) - 1 / den) */
      if (lat)
        gv += wz * sig[i] * (0.5 / vx - 1.0 / den);
      else
        gv -= wz * sig[i] / (2.0 * den);
    }
  }
  if (mmax == mx) gm -= 1.0;
  for (int t = 0; t < n; t++) r[t] += gm * f->beta[t] - 2.0 * gv * w[t];
  if (n > 0) {
    F77_CALL(dtrsv)("L", "T", "N", &n, f->L, &ld, r, &one FCONE FCONE FCONE);
    gp_kernel_col_grad(f, x, r, k->dk, grad);
  }
  return e;
}

void rollout_rh_profits(cb_kg *k, const double *x, int nphi, double *phi) {
  rh_set_x(k, x);
  phi[0] = rh_kg(k, 0, k->nd - 1, rh_mmax(k, 0));
  if (nphi > 1) rh_update(k, 0, k->nd - 1, 0.0);
  for (int i = 1; i < nphi; i++) {
    double v;
    const int ib = rh_argmax(k, i, &v, phi + i);
    if (i < nphi - 1) rh_update(k, i, ib, 0.0);
  }
}

double rollout_error_bound(const cb_kg *k, const double *x, double K,
                           double u, double *power) {
  const cb_gp *f = k->f;
  const int n = k->n, ld = f->cap, one = 1;
  double *w = k->kx;
  for (int i = 0; i < n; i++) w[i] = gp_kernel(f, f->X + i, ld, x, 1);
  if (n > 0)
    F77_CALL(dtrsv)("L", "N", "N", &n, f->L, &ld, w, &one FCONE FCONE FCONE);
  const double s2 = gp_kernel(f, x, 1, x, 1);
  double v = s2;
  for (int i = 0; i < n; i++) v -= w[i] * w[i];
  double p = s2 > 0.0 && v > 0.0 ? sqrt(v / s2) : 0.0;
  if (p > 1.0) p = 1.0;
  if (power) *power = p;
  return (p > 0.0 ? K * s2 * p * sqrt(log(M_E / p)) : 0.0) + u;
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

/* The cost of the pair x (single source: the acquisition's cost model;
 * several sources: the source's cost, which does not depend on x). */
static double rh_pair_cost(const cb_kg *k, const double *x) {
  if (!k->miso) return acq_cost(k->acq, k->d, x);
  return k->src_cost[(int)x[k->d - 1]];
}

/* Reward of the pair x of cost c with horizon h (h = 1: KG, per unit cost
 * with several sources); -Inf when c exceeds the remaining budget. */
static double rh_reward(cb_kg *k, const double *x, int h, double c,
                        double remaining) {
  if (!(c <= remaining)) return R_NegInf;
  const double cc = k->cand_cost ? c : 1.0;
  if (h <= 1) return rollout_kg_at(k, x, NULL) / cc;
  return rollout_rh_value(k, x, h, cc);
}

/* Derivative-free compass search in the x coordinates (the source stays):
 * poll x +- step e_c in coordinate order, move to the first improvement,
 * halve the step (from 0.05) after a failed poll; at most maxit polls or
 * until the step is below 1e-3.  Overwrites x, returns its value. */
static double rh_search(cb_kg *k, double *x, double v, int h,
                        double remaining, int maxit) {
  const int dx = k->d - k->miso;
  double step = 0.05, *xh = k->xb;
  for (int it = 0; it < maxit && step >= 1e-3; it++) {
    int improved = 0;
    for (int c = 0; c < dx && !improved; c++) {
      for (int sgn = 1; sgn >= -1 && !improved; sgn -= 2) {
        memcpy(xh, x, (size_t)k->d * sizeof(double));
        const double t = x[c] + sgn * step;
        xh[c] = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        if (xh[c] == x[c]) continue;
        const double vt = rh_reward(k, xh, h, rh_pair_cost(k, xh), remaining);
        if (vt > v) {
          memcpy(x, xh, (size_t)k->d * sizeof(double));
          v = vt;
          improved = 1;
        }
      }
    }
    if (!improved) step *= 0.5;
  }
  return v;
}

static double kg_objective(int d, const double *x, double *grad, void *ctx) {
  (void)d;
  return rollout_kg_at((cb_kg *)ctx, x, grad);
}

/* R entry points --------------------------------------------------------- */

/* A costbo_cmdp_control object (R: cmdp_control()): horizon, base policy,
 * remaining budget and the inner maximizer's control. */
static void unpack_cmdp(SEXP ctl, cb_cmdp *r) {
  const char *cls = "costbo_cmdp_control";
  r->h = cb_elt_int(ctl, cls, "h");
  r->base = cb_elt_int(ctl, cls, "base");
  r->remaining = cb_elt_real(ctl, cls, "remaining");
  r->latent = cb_elt_int(ctl, cls, "latent");
  unpack_max_control(cb_elt_list(ctl, cls, "inner"), &r->inner);
}

/* The CMDP engine on the acquisition a, with draws z, inner raw points and
 * selection uniforms. */
static void cmdp_setup(cb_cmdp *r, cb_acq *a, SEXP z, SEXP raw, SEXP unif,
                       SEXP control) {
  unpack_cmdp(control, r);
  r->acq = a;
  r->d = a->f->d;
  r->nsamp = Rf_nrows(z);
  r->z = REAL(z);
  r->n_raw = Rf_nrows(raw);
  r->raw = REAL(raw);
  r->unif = REAL(unif);
  a->grad_unit = 1;
  rollout_cmdp_setup(r);
}

SEXP C_rollout_cmdp_value(SEXP acq, SEXP X, SEXP z, SEXP raw, SEXP unif,
                          SEXP control) {
  const int m = Rf_nrows(X), d = Rf_ncols(X);
  int np = 0;
  cb_acq a;
  cb_gp f, lc;
  cb_cmdp r;
  unpack_acq(acq, &a, &f, &lc,
             cb_elt_int(control, "costbo_cmdp_control", "h"));
  cmdp_setup(&r, &a, z, raw, unif, control);
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

/* control: as for C_rollout_cmdp_value, with the outer search's starts and
 * polls (maxit); design: unit-cube start candidates, to which the base
 * policy's own first choice is added.  When no design point is feasible,
 * the cheapest one is returned with value 0. */
SEXP C_rollout_cmdp_propose(SEXP acq, SEXP design, SEXP z,
                            SEXP raw, SEXP unif, SEXP control) {
  const int nd = Rf_nrows(design), d = Rf_ncols(design);
  int np = 0;
  cb_acq a;
  cb_gp f, lc;
  cb_cmdp r;
  unpack_acq(acq, &a, &f, &lc,
             cb_elt_int(control, "costbo_cmdp_control", "h"));
  cmdp_setup(&r, &a, z, raw, unif, control);
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
  const cb_max_control mc = acq_max_control(&a, &r.inner);
  max_box(acq_at, &a, d, r.lower, r.upper, r.n_raw, r.raw, r.unif, &mc, x0,
          NULL);
  a.type = type;
  a.nu = nu;
  for (int k = 0; k < d; k++) des[nd + (size_t)k * n1] = x0[k];
  const int starts = cb_elt_int(control, "costbo_cmdp_control", "starts");
  const int polls = cb_elt_int(control, "costbo_cmdp_control", "maxit");
  const int ns = starts < n1 ? starts : n1;
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
    const double vs = rollout_cmdp_search(&r, xs, dv[ib], polls);
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

/* A costbo_kg_control object (R: kg_control()): Gauss-Hermite nodes of the
 * first and of later transitions, discount and largest horizon. */
static void unpack_kg(SEXP ctl, cb_kg *k) {
  const char *cls = "costbo_kg_control";
  k->n_nodes = cb_elt_int(ctl, cls, "n_nodes");
  k->n_deep = cb_elt_int(ctl, cls, "n_deep");
  k->alpha = cb_elt_real(ctl, cls, "alpha");
  k->max_h = cb_elt_int(ctl, cls, "max_h");
  k->latent = cb_elt_int(ctl, cls, "latent");
}

/* nodes: a costbo_kg_control; ccost: m x nsrc costs of the candidates
 * (R_NilValue: a single source, rewards are KG); scost: the nsrc costs of
 * the sources when they do not depend on x (or NULL). */
static void kg_unpack(cb_kg *k, cb_gp *f, const cb_acq *a, double f_scale,
                      SEXP cand, SEXP nodes, SEXP ccost, const double *scost) {
  unpack_kg(nodes, k);
  k->f = f;
  k->acq = a;
  k->f_scale = f_scale;
  k->d = f->d;
  k->m = Rf_nrows(cand);
  k->cand = REAL(cand);
  k->miso = gp_inputs(f) == CB_INPUT_SOURCE;
  k->cand_cost = Rf_isNull(ccost) ? NULL : REAL(ccost);
  k->nsrc = Rf_isNull(ccost) ? 1 : Rf_ncols(ccost);
  k->src_cost = scost;
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
  unpack_acq(acq, &a, &f, &lc, 1);
  kg_unpack(&k, &f, &a, a.f_scale, cand, nodes, R_NilValue, NULL);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < m; i++) {
    R_CheckUserInterrupt();
    for (int c = 0; c < d; c++) x[c] = REAL(X)[i + (size_t)c * m];
    REAL(out)[i] = a.f_scale * (hh <= 1 ? rollout_kg_at(&k, x, NULL)
                                        : rollout_rh_value(&k, x, hh, 1.0));
  }
  UNPROTECT(1);
  return out;
}

/* KG at the rows of X with its gradient in the unit cube (internal
 * scale), for the tests of the refinement. */
SEXP C_rollout_kg_grad(SEXP acq, SEXP X, SEXP cand, SEXP nodes) {
  const int m = Rf_nrows(X), d = Rf_ncols(X);
  cb_acq a;
  cb_gp f, lc;
  cb_kg k;
  unpack_acq(acq, &a, &f, &lc, 1);
  kg_unpack(&k, &f, &a, a.f_scale, cand, nodes, R_NilValue, NULL);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, m, d + 1));
  double *o = REAL(out);
  double *x = (double *)R_alloc((size_t)(2 * d), sizeof(double)), *g = x + d;
  for (int i = 0; i < m; i++) {
    for (int c = 0; c < d; c++) x[c] = REAL(X)[i + (size_t)c * m];
    o[i] = rollout_kg_at(&k, x, g);
    for (int c = 0; c < d; c++) o[i + (size_t)(c + 1) * m] = g[c];
  }
  UNPROTECT(1);
  return out;
}

/* The settings of a rolling-horizon decision: a costbo_rh_control object
 * (R: rh_control()). */
typedef struct {
  int h;            /* horizon; 0: by Theorem 3 */
  double K, u;      /* constants of the error bound (Corollary 1) */
  int n_left;       /* evaluations left, N - k + 1 */
  double remaining; /* remaining budget */
  int n_top;        /* pairs of largest reward refined */
  int starts;       /* compass searches */
  int maxit;        /* polls per search */
  int lbfgs_maxit;  /* L-BFGS-B iterations of the KG refinement */
} cb_rh_control;

static void unpack_rh_control(SEXP ctl, cb_rh_control *p) {
  const char *cls = "costbo_rh_control";
  p->h = cb_elt_int(ctl, cls, "h");
  p->K = cb_elt_real(ctl, cls, "error_const");
  p->u = cb_elt_real(ctl, cls, "error_offset");
  p->n_left = cb_elt_int(ctl, cls, "n_left");
  p->remaining = cb_elt_real(ctl, cls, "remaining");
  p->n_top = cb_elt_int(ctl, cls, "n_top");
  p->starts = cb_elt_int(ctl, cls, "starts");
  p->maxit = cb_elt_int(ctl, cls, "maxit");
  p->lbfgs_maxit = cb_elt_int(ctl, cls, "inner_maxit");
}

/* The decision among the nd design rows (pairs with miso) and the
 * candidates x sources, refined over the box; see rollout.h.  Returns (x,
 * value (internal scale), h, error_bound, phi, power). */
static SEXP rh_choose(cb_kg *k, const double *design, int nd,
                      const double *dcost, const cb_rh_control *p) {
  const int d = k->d, mc = k->m, ns = k->nsrc, max_h = k->max_h;
  const int n_left = p->n_left, n_top = p->n_top > 0 ? p->n_top : 1;
  const int starts = p->starts, maxit = p->maxit, lmaxit = p->lbfgs_maxit;
  const double remaining = p->remaining;
  const int refine = !k->miso || k->src_cost != NULL;
  int np = 0;
  const char *nms[] = {"x", "value", "h", "error_bound", "phi", "power", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SEXP phi = PROTECT(Rf_allocVector(REALSXP, max_h));
  np++;
  SEXP x = PROTECT(Rf_allocVector(REALSXP, d));
  np++;
  for (int i = 0; i < max_h; i++) REAL(phi)[i] = 0.0;
  /* every pair: design rows, then candidate j at source s (j-major) */
  const int nt = nd + mc * ns;
  double *U = (double *)R_alloc((size_t)nt * (size_t)d, sizeof(double));
  double *rw = (double *)R_alloc((size_t)nt, sizeof(double));
  double *xi = (double *)R_alloc((size_t)(3 * d), sizeof(double));
  double *xg = xi + d, *xb = xi + 2 * d;
  for (int i = 0; i < nt; i++) {
    for (int c = 0; c < d; c++) {
      double v;
      if (i < nd) {
        v = design[i + (size_t)c * nd];
      } else {
        const int j = (i - nd) / ns, s = (i - nd) % ns;
        v = (k->miso && c == d - 1) ? (double)s : k->cand[j + (size_t)c * mc];
      }
      U[i + (size_t)c * nt] = v;
    }
  }
  double *cst = (double *)R_alloc((size_t)nt, sizeof(double));
  int ib = -1, nfeas = 0;
  for (int i = 0; i < nt; i++) {
    /* one KG evaluation costs O(n_nodes (n + n_cand)) */
    R_CheckUserInterrupt();
    for (int c = 0; c < d; c++) xi[c] = U[i + (size_t)c * nt];
    if (!k->miso) {
      cst[i] = acq_cost(k->acq, d, xi);
    } else if (i < nd) {
      cst[i] = dcost[i];
    } else {
      const int j = (i - nd) / ns, s = (i - nd) % ns;
      cst[i] = k->cand_cost[j + (size_t)s * mc];
    }
    if (cst[i] <= remaining) {
      rw[i] = rollout_kg_at(k, xi, NULL) / (k->cand_cost ? cst[i] : 1.0);
      nfeas++;
      if (ib < 0 || rw[i] > rw[ib]) ib = i;
    } else {
      rw[i] = R_NegInf;
    }
  }
  if (ib < 0) { /* nothing affordable: the first pair, value 0 */
    for (int c = 0; c < d; c++) REAL(x)[c] = U[(size_t)c * nt];
    SET_VECTOR_ELT(out, 0, x);
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(0.0));
    SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(1));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal(NA_REAL));
    SET_VECTOR_ELT(out, 4, phi);
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal(NA_REAL));
    UNPROTECT(np);
    return out;
  }
  /* the n_top affordable pairs of largest reward, best first */
  const int ntop = n_top < nfeas ? n_top : nfeas;
  int *top = (int *)R_alloc((size_t)ntop, sizeof(int));
  for (int t = 0; t < ntop; t++) {
    int jb = -1;
    for (int i = 0; i < nt; i++) {
      int used = 0;
      for (int s = 0; s < t; s++) used |= top[s] == i;
      if (!used && rw[i] > R_NegInf && (jb < 0 || rw[i] > rw[jb])) jb = i;
    }
    top[t] = jb;
  }
  /* the greedy (KG) decision over the box */
  for (int c = 0; c < d; c++) xg[c] = U[ib + (size_t)c * nt];
  double vg = rw[ib], cg = cst[ib];
  if (refine && !k->miso) {
    double *raw = (double *)R_alloc((size_t)ntop * (size_t)d + ntop,
                                    sizeof(double));
    double *unif = raw + (size_t)ntop * d;
    for (int t = 0; t < ntop; t++) {
      unif[t] = 0.5;
      for (int c = 0; c < d; c++)
        raw[t + (size_t)c * ntop] = U[top[t] + (size_t)c * nt];
    }
    double *lo = xb, *hi = (double *)R_alloc((size_t)(2 * d), sizeof(double));
    double *xr = hi + d;
    for (int c = 0; c < d; c++) {
      lo[c] = 0.0;
      hi[c] = 1.0;
    }
    cb_max_control ctl;
    max_control_default(&ctl, d);
    ctl.n_starts = ntop;
    ctl.select = CB_SELECT_BEST;
    ctl.maxit = lmaxit;
    const double vr = max_box(kg_objective, k, d, lo, hi, ntop, raw, unif,
                              &ctl, xr, NULL);
    const double cr = acq_cost(k->acq, d, xr);
    if (vr > vg && cr <= remaining) {
      vg = vr;
      cg = cr;
      memcpy(xg, xr, (size_t)d * sizeof(double));
    }
  } else if (refine) {
    for (int t = 0; t < ntop && t < starts; t++) {
      for (int c = 0; c < d; c++) xi[c] = U[top[t] + (size_t)c * nt];
      const double v = rh_search(k, xi, rw[top[t]], 1, remaining, maxit);
      if (v > vg) {
        vg = v;
        cg = rh_pair_cost(k, xi);
        memcpy(xg, xi, (size_t)d * sizeof(double));
      }
    }
  }
  /* the horizon */
  double power = NA_REAL, ebar = NA_REAL;
  int h = p->h;
  if (h == 0) {
    ebar = rollout_error_bound(k, xg, p->K, p->u, &power);
    rollout_rh_profits(k, xg, max_h, REAL(phi));
    h = rollout_horizon(REAL(phi), max_h, ebar, k->alpha, n_left);
  }
  if (h > n_left) h = n_left > 1 ? n_left : 1;
  double vb = vg;
  memcpy(xb, xg, (size_t)d * sizeof(double));
  if (h > 1) {
    /* the greedy decision and the top pairs, by the rolling-horizon
     * value; then a compass search from the best `starts` of them */
    const int nc = ntop + 1;
    double *val = (double *)R_alloc((size_t)nc, sizeof(double));
    int *used = (int *)R_alloc((size_t)nc, sizeof(int));
    double *D = (double *)R_alloc((size_t)nc * (size_t)d, sizeof(double));
    for (int t = 0; t < nc; t++) {
      for (int c = 0; c < d; c++)
        D[t + (size_t)c * nc] = t == 0 ? xg[c] : U[top[t - 1] + (size_t)c * nt];
      for (int c = 0; c < d; c++) xi[c] = D[t + (size_t)c * nc];
      /* h > 2: screened by the two-step value */
      val[t] = rh_reward(k, xi, h < 2 ? h : 2, t == 0 ? cg : cst[top[t - 1]],
                         remaining);
      used[t] = 0;
    }
    vb = R_NegInf;
    for (int s = 0; s < starts && s < nc; s++) {
      int tb = -1;
      for (int t = 0; t < nc; t++)
        if (!used[t] && (tb < 0 || val[t] > val[tb])) tb = t;
      used[tb] = 1;
      for (int c = 0; c < d; c++) xi[c] = D[tb + (size_t)c * nc];
      /* the search polls the two-step value (h = 2 exactly), and its end
       * point is scored with the h-step value */
      double v = val[tb];
      if (refine) v = rh_search(k, xi, v, 2, remaining, maxit);
      if (h > 2) {
        const double cs = refine ? rh_pair_cost(k, xi)
                                 : tb == 0 ? cg : cst[top[tb - 1]];
        v = rh_reward(k, xi, h, cs, remaining);
      }
      if (v > vb) {
        vb = v;
        memcpy(xg, xi, (size_t)d * sizeof(double));
      }
    }
    memcpy(xb, xg, (size_t)d * sizeof(double));
  }
  memcpy(REAL(x), xb, (size_t)d * sizeof(double));
  SET_VECTOR_ELT(out, 0, x);
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(vb > 0.0 ? vb : 0.0));
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(h));
  SET_VECTOR_ELT(out, 3, Rf_ScalarReal(ebar));
  SET_VECTOR_ELT(out, 4, phi);
  SET_VECTOR_ELT(out, 5, Rf_ScalarReal(power));
  UNPROTECT(np);
  return out;
}

/* control: a costbo_rh_control (see rh_choose()).  The value is in the
 * user's units. */
SEXP C_rollout_rh_propose(SEXP acq, SEXP design, SEXP cand, SEXP nodes,
                          SEXP control) {
  cb_acq a;
  cb_gp f, lc;
  cb_kg k;
  cb_rh_control p;
  unpack_acq(acq, &a, &f, &lc, 1);
  kg_unpack(&k, &f, &a, a.f_scale, cand, nodes, R_NilValue, NULL);
  unpack_rh_control(control, &p);
  SEXP out = PROTECT(rh_choose(&k, REAL(design), Rf_nrows(design), NULL,
                               &p));
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(a.f_scale *
                                       REAL(VECTOR_ELT(out, 1))[0]));
  UNPROTECT(1);
  return out;
}

/* Multi-information-source rolling horizon on a CB_MISO GP (packed by
 * gp_pack()).  X / design rows are pairs (x, s); xcost their costs;
 * cand: m candidates with source 0 in the last column; ccost: m x nsrc
 * costs.  Values are KG per unit cost in the user's units per unit cost
 * (scale = user units per internal unit); h: the horizon. */
SEXP C_rollout_miso_value(SEXP gp, SEXP X, SEXP xcost, SEXP cand,
                          SEXP ccost, SEXP nodes, SEXP h, SEXP scale) {
  const int m = Rf_nrows(X), d = Rf_ncols(X);
  const int hh = Rf_asInteger(h);
  const double sc = Rf_asReal(scale);
  cb_gp f;
  cb_kg k;
  gp_unpack(&f, gp, 1);
  kg_unpack(&k, &f, NULL, sc, cand, nodes, ccost, NULL);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < m; i++) {
    R_CheckUserInterrupt();
    for (int c = 0; c < d; c++) x[c] = REAL(X)[i + (size_t)c * m];
    const double cst = REAL(xcost)[i];
    REAL(out)[i] = sc * (hh <= 1 ? rollout_kg_at(&k, x, NULL) / cst
                                 : rollout_rh_value(&k, x, hh, cst));
  }
  UNPROTECT(1);
  return out;
}

/* control: a costbo_rh_control (see rh_choose()); per_source: TRUE when the
 * cost of a pair depends on its source only (then ccost[0, s] is that cost
 * and the pairs are refined over the box); dcost: the costs of the design
 * rows; scale: as for C_rollout_miso_value(). */
SEXP C_rollout_miso_propose(SEXP gp, SEXP design, SEXP dcost, SEXP cand,
                            SEXP ccost, SEXP nodes, SEXP control,
                            SEXP scale, SEXP per_source) {
  const double sc = Rf_asReal(scale);
  const int S = Rf_ncols(ccost), m = Rf_nrows(cand);
  cb_gp f;
  cb_kg k;
  cb_rh_control p;
  gp_unpack(&f, gp, 1);
  double *scost = NULL;
  if (Rf_asLogical(per_source)) {
    scost = (double *)R_alloc((size_t)S, sizeof(double));
    for (int s = 0; s < S; s++) scost[s] = REAL(ccost)[(size_t)s * m];
  }
  kg_unpack(&k, &f, NULL, sc, cand, nodes, ccost, scost);
  unpack_rh_control(control, &p);
  SEXP out = PROTECT(rh_choose(&k, REAL(design), Rf_nrows(design),
                               REAL(dcost), &p));
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(sc * REAL(VECTOR_ELT(out, 1))[0]));
  UNPROTECT(1);
  return out;
}

SEXP C_rollout_horizon(SEXP phi, SEXP ebar, SEXP alpha, SEXP n_left) {
  return Rf_ScalarInteger(rollout_horizon(REAL(phi), Rf_length(phi),
                                          Rf_asReal(ebar), Rf_asReal(alpha),
                                          Rf_asInteger(n_left)));
}
