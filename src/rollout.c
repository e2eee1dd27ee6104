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

/* CMDP rollout: the paper engine (see rollout.h) -------------------------- */

/* One run of R's lbfgsb() from x, as the runs of max_box(): -f is
 * minimized, a non-finite value is the worst (its gradient 0) and is never
 * evaluated at a non-finite point, the evaluation at the point last
 * evaluated is reused; and the best point seen is kept, so that the run
 * returns it (L-BFGS-B may stop at a trial point). */
typedef struct {
  cb_objfn f;
  void *ctx;
  int d, have, hb;
  double *lx, *lg, lf; /* the last point, -gradient and -value there */
  double *bx, bv;      /* the best point seen and its value */
} pe_lb;

static int pe_finite(int d, const double *x) {
  for (int k = 0; k < d; k++)
    if (!R_FINITE(x[k])) return 0;
  return 1;
}

static void pe_lb_at(pe_lb *c, const double *x) {
  const int d = c->d;
  int same = c->have;
  for (int k = 0; k < d && same; k++) same = c->lx[k] == x[k];
  if (same) return;
  R_CheckUserInterrupt();
  const double v = pe_finite(d, x) ? c->f(d, x, c->lg, c->ctx) : R_NaN;
  if (R_FINITE(v)) {
    c->lf = -v;
    for (int k = 0; k < d; k++)
      c->lg[k] = R_FINITE(c->lg[k]) ? -c->lg[k] : 0.0;
    if (!c->hb || v > c->bv) {
      c->bv = v;
      memcpy(c->bx, x, (size_t)d * sizeof(double));
      c->hb = 1;
    }
  } else {
    c->lf = 1e300;
    for (int k = 0; k < d; k++) c->lg[k] = 0.0;
  }
  memcpy(c->lx, x, (size_t)d * sizeof(double));
  c->have = 1;
}

static double pe_lb_fn(int n, double *x, void *ex) {
  (void)n;
  pe_lb *c = (pe_lb *)ex;
  pe_lb_at(c, x);
  return c->lf;
}

static void pe_lb_gr(int n, double *x, double *g, void *ex) {
  pe_lb *c = (pe_lb *)ex;
  pe_lb_at(c, x);
  memcpy(g, c->lg, (size_t)n * sizeof(double));
}

/* Maximize f from x over the unit cube by L-BFGS-B under ctl (with the
 * climb and polish of a gradient hook, as max_box()); x receives the best
 * point seen, whose value is returned (-Inf when none was finite; x then
 * unchanged).  The workspace that lbfgsb() allocates with R_alloc is
 * released on return: the runs of one proposal are many. */
static double pe_lbfgsb(cb_cmdp_paper *q, cb_objfn f, void *ctx, double *x,
                        const cb_max_control *ctl) {
  const int d = q->r.d;
  pe_lb c = {f, ctx, d, 0, 0, q->lx, q->lg, 0.0, q->bx, R_NegInf};
  double fmin = 0.0;
  int fail = 0, fnc = 0, grc = 0;
  char msg[60];
  const void *vmax = vmaxget();
  if (ctl->grad_phase) ctl->grad_phase(ctl->hook, 0);
  lbfgsb(d, ctl->lmm, x, q->lo, q->hi, q->nbd, &fmin, pe_lb_fn, pe_lb_gr,
         &fail, &c, ctl->factr, ctl->pgtol, &fnc, &grc, ctl->maxit, msg, 0,
         10);
  if (ctl->grad_phase && ctl->grad_phase(ctl->hook, 1) && c.hb) {
    memcpy(x, c.bx, (size_t)d * sizeof(double));
    c.have = 0;
    lbfgsb(d, ctl->lmm, x, q->lo, q->hi, q->nbd, &fmin, pe_lb_fn, pe_lb_gr,
           &fail, &c, ctl->factr, ctl->pgtol, &fnc, &grc, ctl->maxit, msg, 0,
           10);
  }
  vmaxset(vmax);
  if (c.hb) memcpy(x, c.bx, (size_t)d * sizeof(double));
  return c.hb ? c.bv : R_NegInf;
}

/* Is the base policy's acquisition at stage t EI-PU (else EI)?  Stage 0
 * is x's (the base policy's own first choice). */
static int pe_pu(const cb_cmdp_paper *q, int t) {
  return q->r.base == CB_BASE_EIPU_THEN_EI && t < q->r.h - 1;
}

/* log EI(m, s; best) for s > 0 and (dm, ds may be NULL) its partial
 * derivatives in m and s: acq_log_ei() to about 1e-13 relative (1e-11
 * near u = -20) without its continued fraction, slow in the tail where the
 * inner maximizations spend their time.  With u = (m - best) / s and h(u) =
 * u Phi(u) + phi(u): for u > -2 directly; below, h(u) = phi(u) q(x) with x
 * = -u and q(x) = 1 - x R(x), R the Mills ratio Q(x) / phi(x), from the
 * upper tail of pnorm() in logs for x < 20 (q loses at most log10(x^2)
 * digits to the subtraction), above from the asymptotic series t (1 - 3 t
 * (1 - 5 t (1 - ...))), t = 1 / x^2, whose first omitted term is below
 * 1e-16 relative. */
static double pe_log_ei(double m, double s, double best, double *dm,
                        double *ds) {
  const double u = (m - best) / s;
  double lh, r1, r2; /* log h(u), Phi(u) / h(u), phi(u) / h(u) */
  if (u > -2.0) {
    const double P = Rf_pnorm5(u, 0.0, 1.0, 1, 0);
    const double p = Rf_dnorm4(u, 0.0, 1.0, 0), h = u * P + p;
    lh = log(h);
    r1 = P / h;
    r2 = p / h;
  } else {
    const double x = -u;
    double qx, R;
    if (x < 20.0) {
      R = exp(Rf_pnorm5(x, 0.0, 1.0, 0, 1) + 0.5 * x * x + M_LN_SQRT_2PI);
      qx = 1.0 - x * R;
    } else {
      const double t = 1.0 / (x * x);
      double acc = 1.0;
      for (int k = 12; k >= 1; k--) acc = 1.0 - (2 * k + 1) * t * acc;
      qx = t * acc;
      R = (1.0 - qx) / x;
    }
    lh = -0.5 * x * x - M_LN_SQRT_2PI + log(qx);
    r1 = R / qx;
    r2 = 1.0 / qx;
  }
  if (dm) *dm = r1 / s;
  if (ds) *ds = r2 / s;
  return log(s) + lh;
}

/* The objective of the inner maximizations: log EI, or log EI-PU when
 * q->pu (log EI + kappa(x), kappa = -log c for a known cost, -m_c + s_c^2
 * / 2 for a GP on log cost), with its gradient in the unit cube: acq_at()
 * of type CB_ACQ_LOG_EI or CB_ACQ_LOG_EI_PU_CC (nu = 1) through
 * pe_log_ei(); acq_at() itself where the sd vanishes (a->type is set). */
static double pe_obj(int d, const double *x, double *grad, void *ctx) {
  cb_cmdp_paper *q = (cb_cmdp_paper *)ctx;
  cb_acq *a = q->r.acq;
  const int g = grad != NULL;
  double mf, vf, dm, ds;
  gp_predict_at(a->f, x, 1, a->alpha_f, a->u_f, &mf, &vf, g ? a->gm : NULL,
                g ? a->gv : NULL, a->work);
  const double si = vf > 0.0 ? sqrt(vf) : 0.0;
  const double m = a->f_shift + a->f_scale * mf, s = a->f_scale * si;
  if (!(s > 0.0) || !R_FINITE((m - a->best) / s))
    return acq_at(d, x, grad, a);
  double v = pe_log_ei(m, s, a->best, g ? &dm : NULL, g ? &ds : NULL);
  if (g)
    for (int k = 0; k < d; k++)
      grad[k] = a->f_scale * (dm * a->gm[k] + ds * 0.5 * a->gv[k] / si);
  if (!q->pu) return v;
  if (q->known) {
    const double c = acq_cost_grad(a, d, x, g ? a->gmc : NULL);
    v -= log(c);
    if (g)
      for (int k = 0; k < d; k++) grad[k] -= a->gmc[k] / c;
  } else {
    double mc, vc;
    gp_predict_at(a->lc, x, 1, a->alpha_c, a->u_c, &mc, &vc,
                  g ? a->gmc : NULL, g ? a->gvc : NULL, a->work);
    const double sc = a->c_scale * (vc > 0.0 ? sqrt(vc) : 0.0);
    v += -(a->c_shift + a->c_scale * mc) + 0.5 * sc * sc;
    if (g)
      for (int k = 0; k < d; k++)
        grad[k] += -a->c_scale * a->gmc[k] +
                   (vc > 0.0 ? 0.5 * a->c_scale * a->c_scale * a->gvc[k] : 0.0);
  }
  return v;
}

/* The log acquisition (EI-PU when pu, else EI) at raw point j from its
 * moments in the user's units, as pe_obj() computes it (log EI plus the
 * raw point's kappa); -Inf when not finite. */
static double pe_raw_value(const cb_cmdp_paper *q, int j, double m, double s,
                           int pu) {
  const cb_acq *a = q->r.acq;
  double v;
  if (s > 0.0 && R_FINITE((m - a->best) / s)) {
    v = pe_log_ei(m, s, a->best, NULL, NULL) + (pu ? q->kap[j] : 0.0);
  } else {
    v = pu ? acq_log_ei_pu_cc(m, s, a->best, q->mcr[j], q->scr[j], 1.0,
                              q->known, q->cr[j], NULL)
           : acq_log_ei(m, s, a->best, NULL);
  }
  return R_FINITE(v) ? v : R_NegInf;
}

/* Columns nF.. of F, one per fantasy of the current state not yet there:
 * the fantasy's entry of L^-1 k(X, raw_j) for every raw point, by forward
 * substitution with the fantasy's row of L (W holds the data's entries). */
static void pe_fcols(cb_cmdp_paper *q) {
  const cb_gp *f = q->r.acq->f;
  const int n0 = q->n0, nf = f->n - n0, ld = q->cap, nr = q->r.n_raw;
  double *lrow = q->tmp;
  for (int c = q->nF; c < nf; c++) {
    const int row = n0 + c;
    for (int i = 0; i < row; i++) lrow[i] = f->L[row + (size_t)i * ld];
    const double piv = f->L[row + (size_t)row * ld];
    double *Fc = q->F + (size_t)c * nr;
    for (int j = 0; j < nr; j++) {
      double acc = gp_kernel(f, q->r.raw + j, nr, f->X + row, ld);
      const double *wj = q->W + (size_t)j * n0;
      for (int i = 0; i < n0; i++) acc -= lrow[i] * wj[i];
      for (int i = 0; i < c; i++)
        acc -= lrow[n0 + i] * q->F[j + (size_t)i * nr];
      Fc[j] = acc / piv;
    }
  }
  q->nF = nf;
}

/* The base policy's argmax in the current state (the data and the
 * trajectory's fantasies) into x: log EI-PU (pu) or log EI scored at the
 * raw points, L-BFGS-B from the inner.n_starts best (ties to the lower
 * index), the best point found (the best raw point when no run improves
 * on it).  Returns its log acquisition.  a->best must be the state's best
 * value; a->type and a->nu are left set to the acquisition. */
static double pe_argmax(cb_cmdp_paper *q, int pu, double *x) {
  cb_cmdp *r = &q->r;
  cb_acq *a = r->acq;
  const cb_gp *f = a->f;
  const int d = r->d, nr = r->n_raw, n0 = q->n0, nf = f->n - n0;
  const int ns = r->inner.n_starts < nr ? r->inner.n_starts : nr;
  pe_fcols(q);
  /* the raw values: exact where u >= -2; below, log h(u) lies in [log
   * phi(u) - log(u^2 + 3), log phi(u) - log(u^2 + 1)] (the third and second
   * convergents of the Mills ratio's continued fraction bound it), and the
   * exact value is computed only where this upper bound reaches the
   * ns-th largest lower bound; the others keep their upper bound, below
   * every value that can be among the ns best, which are therefore the
   * same */
  const double *bf = f->beta + n0;
  double *rv = q->rv, *tl = q->rv + nr;
  int ntl = 0;
  for (int j = 0; j < nr; j++) {
    double mm = q->m0r[j], vv = q->v0r[j];
    for (int c = 0; c < nf; c++) {
      const double fj = q->F[j + (size_t)c * nr];
      mm += fj * bf[c];
      vv -= fj * fj;
    }
    const double m = a->f_shift + a->f_scale * mm;
    const double s = a->f_scale * sqrt(vv > 0.0 ? vv : 0.0);
    const double u = s > 0.0 ? (m - a->best) / s : 0.0;
    double lb;
    if (s > 0.0 && u < -2.0 && R_FINITE(u)) {
      const double base = log(s) - 0.5 * u * u - M_LN_SQRT_2PI +
                          (pu ? q->kap[j] : 0.0);
      lb = base - log(u * u + 3.0);
      lb -= 1e-9 * (fabs(lb) + 1.0);
      rv[j] = base - log(u * u + 1.0);
      rv[j] += 1e-9 * (fabs(rv[j]) + 1.0);
      q->exact[j] = 0;
    } else {
      lb = rv[j] = pe_raw_value(q, j, m, s, pu);
      q->exact[j] = 1;
    }
    /* the ns largest lower bounds, in decreasing order */
    if (ntl < ns || lb > tl[ntl - 1]) {
      int k = ntl < ns ? ntl++ : ntl - 1;
      while (k > 0 && tl[k - 1] < lb) {
        tl[k] = tl[k - 1];
        k--;
      }
      tl[k] = lb;
    }
  }
  const double thr = ntl > 0 ? tl[ntl - 1] : R_NegInf;
  for (int j = 0; j < nr; j++) {
    if (q->exact[j] || rv[j] < thr) continue;
    double mm = q->m0r[j], vv = q->v0r[j];
    for (int c = 0; c < nf; c++) {
      const double fj = q->F[j + (size_t)c * nr];
      mm += fj * bf[c];
      vv -= fj * fj;
    }
    rv[j] = pe_raw_value(q, j, a->f_shift + a->f_scale * mm,
                         a->f_scale * sqrt(vv > 0.0 ? vv : 0.0), pu);
  }
  /* the ns best raw points, best first */
  for (int k = 0; k < ns; k++) {
    int jb = -1;
    for (int j = 0; j < nr; j++) {
      int used = 0;
      for (int s = 0; s < k && !used; s++) used = q->sel[s] == j;
      if (!used && (jb < 0 || rv[j] > rv[jb])) jb = j;
    }
    q->sel[k] = jb;
  }
  a->type = pu ? CB_ACQ_LOG_EI_PU_CC : CB_ACQ_LOG_EI;
  a->nu = 1.0;
  q->pu = pu;
  const cb_max_control mc = acq_max_control(a, &r->inner);
  const int j0 = ns > 0 ? q->sel[0] : 0;
  double best = rv[j0];
  for (int c = 0; c < d; c++) x[c] = r->raw[j0 + (size_t)c * nr];
  for (int k = 0; k < ns; k++) {
    const int j = q->sel[k];
    if (!(rv[j] > R_NegInf)) break; /* EI = 0 there: nothing to climb */
    for (int c = 0; c < d; c++) q->xs[c] = r->raw[j + (size_t)c * nr];
    R_CheckUserInterrupt();
    const double v = pe_lbfgsb(q, pe_obj, q, q->xs, &mc);
    if (v > best) {
      best = v;
      memcpy(x, q->xs, (size_t)d * sizeof(double));
    }
  }
  return best;
}

void rollout_cmdp_paper_setup(cb_cmdp_paper *q) {
  cb_cmdp *r = &q->r;
  cb_acq *a = r->acq;
  const cb_gp *f = a->f;
  const int d = r->d, h = r->h, nr = r->n_raw, n0 = f->n, ld = f->cap;
  const int one = 1, np = h + 1, nst = r->inner.n_starts;
  q->n0 = n0;
  q->cap = ld;
  q->known = a->cost_kind != CB_COST_GP;
  q->need_pu = r->base == CB_BASE_EIPU_THEN_EI && h > 1;
  q->pu = 0;
  q->ns = r->nsamp;
  q->nF = 0;
  q->W = (double *)R_alloc((size_t)(n0 > 0 ? n0 : 1) * nr, sizeof(double));
  q->m0r = (double *)R_alloc((size_t)7 * nr + nst + 1, sizeof(double));
  q->v0r = q->m0r + nr;
  q->cr = q->m0r + 2 * (size_t)nr;
  q->mcr = q->m0r + 3 * (size_t)nr;
  q->scr = q->m0r + 4 * (size_t)nr;
  q->kap = q->m0r + 5 * (size_t)nr;
  q->rv = q->m0r + 6 * (size_t)nr; /* nr values, then nst lower bounds */
  q->F = (double *)R_alloc((size_t)nr * h, sizeof(double));
  q->sel = (int *)R_alloc((size_t)nst + nr + 1, sizeof(int));
  q->exact = q->sel + nst + 1;
  q->lo = (double *)R_alloc((size_t)9 * d, sizeof(double));
  q->hi = q->lo + d;
  q->xs = q->lo + 2 * (size_t)d;
  q->lx = q->lo + 3 * (size_t)d;
  q->lg = q->lo + 4 * (size_t)d;
  q->bx = q->lo + 5 * (size_t)d;
  q->gmi = q->lo + 6 * (size_t)d;
  q->gvi = q->lo + 7 * (size_t)d;
  q->gdir = q->lo + 8 * (size_t)d;
  q->nbd = (int *)R_alloc((size_t)d, sizeof(int));
  for (int c = 0; c < d; c++) {
    q->lo[c] = 0.0;
    q->hi[c] = 1.0;
    q->nbd[c] = 2;
  }
  const int nt = (ld > 3 * np ? ld : 3 * np) + 8;
  q->kx = (double *)R_alloc((size_t)4 * (n0 + 1) + (size_t)h * (n0 + 1) + nt,
                            sizeof(double));
  q->dk = q->kx + n0 + 1;
  q->wx = q->dk + n0 + 1;
  q->acc = q->wx + n0 + 1;
  q->tmp = q->acc + n0 + 1; /* a row of L; the replay's 3 np */
  q->wp = q->tmp + nt;      /* n0 x h */
  q->kc = (double *)R_alloc((size_t)(n0 + 1) * h, sizeof(double));
  q->path = (double *)R_alloc((size_t)h * d, sizeof(double));
  q->M = (double *)R_alloc((size_t)h * (3 + 3 * (size_t)h + (size_t)h * np) +
                               2 * (size_t)np,
                           sizeof(double));
  q->S = q->M + h;
  q->Lc = q->S + (size_t)h * h;
  q->dLc = q->Lc + (size_t)h * h;
  q->e = q->dLc + (size_t)h * h * np;
  q->de = q->e + h;
  q->dmu = q->de + (size_t)h * np;
  q->dres = q->dmu + np;
  /* the data's moments at the raw points, and their costs */
  for (int j = 0; j < nr; j++) {
    double *wj = q->W + (size_t)j * n0;
    const double *xj = r->raw + j;
    double mm = gp_prior_mean(f, xj, nr), vv = gp_kernel(f, xj, nr, xj, nr);
    if (n0 > 0) {
      gp_kernel_col(f, xj, nr, wj, NULL);
      F77_CALL(dtrsv)("L", "N", "N", &n0, f->L, &ld, wj, &one
                      FCONE FCONE FCONE);
      for (int i = 0; i < n0; i++) {
        mm += wj[i] * f->beta[i];
        vv -= wj[i] * wj[i];
      }
    }
    q->m0r[j] = mm;
    q->v0r[j] = vv;
    q->cr[j] = 1.0;
    q->mcr[j] = q->scr[j] = q->kap[j] = 0.0;
  }
  if (q->need_pu) {
    for (int j = 0; j < nr; j++) {
      if (j % 256 == 255) R_CheckUserInterrupt();
      for (int c = 0; c < d; c++) q->xs[c] = r->raw[j + (size_t)c * nr];
      if (q->known) {
        q->cr[j] = acq_cost(a, d, q->xs);
        q->kap[j] = -log(q->cr[j]);
      } else {
        double mc, vc;
        gp_predict_at(a->lc, q->xs, 1, NULL, NULL, &mc, &vc, NULL, NULL,
                      a->work);
        q->mcr[j] = a->c_shift + a->c_scale * mc;
        q->scr[j] = a->c_scale * sqrt(vc > 0.0 ? vc : 0.0);
        q->kap[j] = -q->mcr[j] + 0.5 * q->scr[j] * q->scr[j];
      }
    }
  }
}

double rollout_cmdp_paper_first(cb_cmdp_paper *q, double *x) {
  cb_acq *a = q->r.acq;
  const int type = a->type;
  const double nu = a->nu;
  q->nF = 0;
  const double v = pe_argmax(q, q->need_pu, x);
  a->type = type;
  a->nu = nu;
  return v;
}

/* The residual v - (y_0 - best)^+ of one trajectory, on the internal
 * scale, replayed from the joint data posterior of its L points (mean M,
 * covariance S, L x L) with its draws z (stride zs): outcomes y_t = mu_t +
 * s_t z_t conditioned on with the nugget on the diagonal (the fantasy rule
 * of gp.h); closed: the last point's improvement is the closed-form EI,
 * else the trajectory stopped after its L outcomes.  q->dres (L + 1)
 * receives its derivatives in (M_0, S_00, S_01, ..., S_0(L-1)), by forward
 * differentiation of the conditioning (a Cholesky factorization built a
 * row at a time).  NaN when a pivot is not positive. */
static double pe_replay(cb_cmdp_paper *q, int L, int closed, double nug,
                        const double *z, int zs, double best0) {
  const int np = L + 1, latent = q->r.latent;
  const double *M = q->M, *S = q->S;
  double *Lc = q->Lc, *dLc = q->dLc, *e = q->e, *de = q->de, *dmu = q->dmu;
  double *dres = q->dres, *tmp = q->tmp, *dbst = tmp + np, *dy0 = tmp + 2 * np;
  double bst = best0, y0 = best0, val = 0.0;
  for (int p = 0; p < np; p++) dbst[p] = dy0[p] = 0.0;
#define CB_LC(t, j) Lc[(t) + (size_t)(j) * L]
#define CB_DLC(t, j, p) dLc[((t) + (size_t)(j) * L) * np + (p)]
  for (int t = 0; t < L; t++) {
    /* row t of the factor; tmp holds the derivatives being formed */
    for (int j = 0; j < t; j++) {
      double num = S[t + (size_t)j * L];
      for (int p = 0; p < np; p++) tmp[p] = (j == 0 && p == 1 + t) ? 1.0 : 0.0;
      for (int k = 0; k < j; k++) {
        num -= CB_LC(t, k) * CB_LC(j, k);
        for (int p = 0; p < np; p++)
          tmp[p] -= CB_DLC(t, k, p) * CB_LC(j, k) +
                    CB_LC(t, k) * CB_DLC(j, k, p);
      }
      const double ljj = CB_LC(j, j), ltj = num / ljj;
      CB_LC(t, j) = ltj;
      for (int p = 0; p < np; p++)
        CB_DLC(t, j, p) = (tmp[p] - ltj * CB_DLC(j, j, p)) / ljj;
    }
    double rho2 = S[t + (size_t)t * L] + nug;
    for (int p = 0; p < np; p++) tmp[p] = (t == 0 && p == 1) ? 1.0 : 0.0;
    for (int j = 0; j < t; j++) {
      rho2 -= CB_LC(t, j) * CB_LC(t, j);
      for (int p = 0; p < np; p++)
        tmp[p] -= 2.0 * CB_LC(t, j) * CB_DLC(t, j, p);
    }
    if (!(rho2 > 0.0)) return NAN;
    const double rho = sqrt(rho2);
    CB_LC(t, t) = rho;
    for (int p = 0; p < np; p++) CB_DLC(t, t, p) = tmp[p] / (2.0 * rho);
    double mu = M[t];
    for (int p = 0; p < np; p++) dmu[p] = (t == 0 && p == 0) ? 1.0 : 0.0;
    for (int j = 0; j < t; j++) {
      mu += CB_LC(t, j) * e[j];
      for (int p = 0; p < np; p++)
        dmu[p] += CB_DLC(t, j, p) * e[j] + CB_LC(t, j) * de[j * np + p];
    }
    /* the outcome's sd s and cs = d s / d rho2 (d rho2 is in tmp) */
    const double v = rho2 - nug;
    double s, cs;
    if (latent) {
      s = v > 0.0 ? sqrt(v) : 0.0;
      cs = v > 0.0 ? 0.5 / s : 0.0;
    } else {
      s = v > 0.0 ? rho : sqrt(nug);
      cs = v > 0.0 ? 0.5 / rho : 0.0;
    }
    if (closed && t == L - 1) {
      acq_grad g;
      val = bst - best0 + acq_ei(mu, s, bst, &g);
      for (int p = 0; p < np; p++)
        dres[p] = dbst[p] + g.m * (dmu[p] - dbst[p]) + g.s * cs * tmp[p];
      break;
    }
    const double zt = z[(size_t)t * zs], y = mu + s * zt;
    e[t] = s * zt / rho;
    for (int p = 0; p < np; p++) {
      const double ds = cs * tmp[p], dy = dmu[p] + ds * zt;
      de[t * np + p] = (ds * zt - e[t] * CB_DLC(t, t, p)) / rho;
      if (t == 0) dy0[p] = dy;
      if (y > bst) dbst[p] = dy;
    }
    if (t == 0) y0 = y;
    if (y > bst) bst = y;
  }
#undef CB_LC
#undef CB_DLC
  if (!closed) {
    val = bst - best0;
    for (int p = 0; p < np; p++) dres[p] = dbst[p];
  }
  if (y0 > best0) {
    val -= y0 - best0;
    for (int p = 0; p < np; p++) dres[p] -= dy0[p];
  }
  return val;
}

/* Accumulate the gradient terms of sample i's trajectory (its L points in
 * q->path, closed as in pe_replay()): d res / d M_0 and d res / d S_00 into
 * gm and gs; with c_j = d res / d S_0j, c_j k(X0, p_j) into q->acc and
 * c_j d k(x, p_j) / dx into q->gdir.  The GP holds the data and the
 * fantasy at x (whose row of L is q->wx). */
static void pe_path_grad(cb_cmdp_paper *q, int i, int L, int closed,
                         double *gm, double *gs) {
  cb_acq *a = q->r.acq;
  const cb_gp *f = a->f;
  const int d = q->r.d, n0 = q->n0, ld = q->cap, one = 1;
  const double *x = q->path;
  double *M = q->M, *S = q->S;
  M[0] = q->mi;
  S[0] = q->vi;
  for (int j = 1; j < L; j++) {
    const double *pj = q->path + (size_t)j * d;
    double *kc = q->kc + (size_t)j * (n0 + 1), *w = q->wp + (size_t)j * n0;
    double mj = gp_prior_mean(f, pj, 1);
    for (int l = 0; l < n0; l++)
      w[l] = kc[l] = gp_kernel(f, f->X + l, ld, pj, 1);
    if (n0 > 0)
      F77_CALL(dtrsv)("L", "N", "N", &n0, f->L, &ld, w, &one
                      FCONE FCONE FCONE);
    for (int l = 0; l < n0; l++) mj += w[l] * f->beta[l];
    M[j] = mj;
    double s0 = gp_kernel(f, x, 1, pj, 1);
    for (int l = 0; l < n0; l++) s0 -= q->wx[l] * w[l];
    S[(size_t)j * L] = S[j] = s0;
    for (int k = 1; k <= j; k++) {
      const double *pk = q->path + (size_t)k * d, *wk = q->wp + (size_t)k * n0;
      double sjk = gp_kernel(f, pj, 1, pk, 1);
      for (int l = 0; l < n0; l++) sjk -= w[l] * wk[l];
      S[j + (size_t)k * L] = S[k + (size_t)j * L] = sjk;
    }
  }
  const double best0 = (a->best - a->f_shift) / a->f_scale;
  if (ISNAN(pe_replay(q, L, closed, f->noise + f->jitter, q->r.z + i,
                      q->r.nsamp, best0)))
    return;
  *gm += q->dres[0];
  *gs += q->dres[1];
  for (int j = 1; j < L; j++) {
    const double c = q->dres[1 + j];
    const double *kc = q->kc + (size_t)j * (n0 + 1);
    for (int l = 0; l < n0; l++) q->acc[l] += c * kc[l];
    gp_kernel_dx(f, x, q->path + (size_t)j * d, c, q->gdir);
  }
}

double rollout_cmdp_paper_value(cb_cmdp_paper *q, const double *x,
                                double *grad, double *samples) {
  cb_cmdp *r = &q->r;
  cb_acq *a = r->acq;
  cb_gp *f = (cb_gp *)a->f;
  const int d = r->d, h = r->h, n0 = q->n0, ns = q->ns, ld = q->cap;
  const int type = a->type, one = 1;
  const double best0 = a->best, nu = a->nu;
  if (grad)
    for (int k = 0; k < d; k++) grad[k] = 0.0;
  const double c0 = acq_cost(a, d, x);
  if (!(c0 <= r->remaining)) {
    if (samples)
      for (int i = 0; i < ns; i++) samples[i] = 0.0;
    return 0.0;
  }
  /* the first outcome's moments and its EI, the control variate's mean */
  double mi, vi;
  gp_predict_at(f, x, 1, a->alpha_f, a->u_f, &mi, &vi, grad ? q->gmi : NULL,
                grad ? q->gvi : NULL, a->work);
  q->mi = mi;
  q->vi = vi;
  const double nug = f->noise + f->jitter, vx = vi > 0.0 ? vi : 0.0;
  const double si = r->latent ? sqrt(vx) : sqrt(vx + nug);
  const double m = a->f_shift + a->f_scale * mi, s = a->f_scale * si;
  acq_grad pd;
  const double ei0 = acq_ei(m, s, best0, grad ? &pd : NULL);
  if (grad) {
    const double cs = vi > 0.0 && si > 0.0 ? 0.5 / si : 0.0;
    for (int k = 0; k < d; k++)
      grad[k] = a->f_scale * (pd.m * q->gmi[k] + pd.s * cs * q->gvi[k]);
  }
  if (h == 1) {
    if (samples)
      for (int i = 0; i < ns; i++) samples[i] = ei0;
    return ei0;
  }
  /* the fantasy at x, shared by the samples: its row of L does not depend
   * on the outcome, only beta's last entry does */
  const int first = gp_fantasy_add(f, x, 1, mi) == 0;
  double pmt = 0.0, piv = 1.0;
  if (first) {
    piv = f->L[n0 + (size_t)n0 * ld];
    pmt = gp_prior_mean(f, f->X + n0, ld);
    for (int l = 0; l < n0; l++) {
      q->wx[l] = f->L[n0 + (size_t)l * ld];
      pmt += q->wx[l] * f->beta[l];
    }
  }
  q->nF = 0;
  pe_fcols(q);
  memcpy(q->path, x, (size_t)d * sizeof(double));
  double gm = 0.0, gs = 0.0, tot = 0.0;
  if (grad) {
    for (int l = 0; l < n0; l++) q->acc[l] = 0.0;
    for (int k = 0; k < d; k++) q->gdir[k] = 0.0;
  }
  for (int i = 0; i < ns; i++) {
    R_CheckUserInterrupt();
    const double y0 = m + s * r->z[i];
    if (first) {
      const double yi = (y0 - a->f_shift) / a->f_scale;
      f->y[n0] = yi;
      f->beta[n0] = (yi - pmt) / piv;
    }
    acq_refresh(a);
    double best = y0 > best0 ? y0 : best0, spent = c0, val = 0.0;
    int L = 1, closed = 0, exact = first;
    for (int t = 1;; t++) {
      double *xn = q->path + (size_t)t * d;
      a->best = best;
      pe_argmax(q, pe_pu(q, t), xn);
      const double c = acq_cost(a, d, xn);
      if (!(spent + c <= r->remaining)) { /* stop before it */
        val = best - best0;
        L = t;
        break;
      }
      spent += c;
      double mt, st;
      cmdp_moments(a, xn, r->latent, &mt, &st);
      if (t == h - 1) { /* the last stage in closed form */
        val = best - best0 + acq_ei(mt, st, best, NULL);
        L = h;
        closed = 1;
        break;
      }
      const double y = mt + st * r->z[i + (size_t)t * r->nsamp];
      if (y > best) best = y;
      if (gp_fantasy_add(f, xn, 1, (y - a->f_shift) / a->f_scale) == 0)
        acq_refresh(a);
      else
        exact = 0;
    }
    while (f->n > n0 + first) gp_fantasy_drop(f);
    q->nF = first;
    a->best = best0;
    const double res = val - (y0 > best0 ? y0 - best0 : 0.0);
    tot += res;
    if (samples) samples[i] = ei0 + res;
    if (grad && exact) pe_path_grad(q, i, L, closed, &gm, &gs);
  }
  if (first) gp_fantasy_drop(f);
  acq_refresh(a);
  q->nF = 0;
  a->type = type;
  a->best = best0;
  a->nu = nu;
  if (grad && ns > 0) {
    /* sum_j c_j d cov(x, p_j) / dx = gdir - sum_l u_l d k(X_l, x) / dx,
     * u = K^-1 acc */
    double *dt = q->xs;
    for (int k = 0; k < d; k++)
      dt[k] = gm * q->gmi[k] + gs * q->gvi[k] + q->gdir[k];
    if (n0 > 0) {
      F77_CALL(dtrsv)("L", "N", "N", &n0, f->L, &ld, q->acc, &one
                      FCONE FCONE FCONE);
      F77_CALL(dtrsv)("L", "T", "N", &n0, f->L, &ld, q->acc, &one
                      FCONE FCONE FCONE);
      gp_kernel_col(f, x, 1, q->kx, q->dk);
      for (int k = 0; k < d; k++) q->lg[k] = 0.0;
      gp_kernel_col_grad(f, x, q->acc, q->dk, q->lg);
      for (int k = 0; k < d; k++) dt[k] -= q->lg[k];
    }
    for (int k = 0; k < d; k++) grad[k] += a->f_scale / ns * dt[k];
  }
  return ei0 + (ns > 0 ? tot / ns : 0.0);
}

/* The outer search from x (overwritten by the best point seen, whose value
 * is returned): a projected quasi-Newton ascent of V with q->ns samples.
 * R's lbfgsb() keeps its state in static variables, so it cannot run while
 * the inner maximizations run it; this is its method in the small: the
 * L-BFGS two-loop direction (memory 5) of the gradient projected on the box
 * (a coordinate at a bound whose derivative points out is held), the step
 * projected on the box, an Armijo backtracking line search by safeguarded
 * quadratic interpolation (the first step, before any curvature pair,
 * moves at most 0.1 in any coordinate), stopping after maxit values or
 * when an iteration gains less than 1e-7 of the value or its line search
 * fails.  scale: the value's order (the gains are relative to it). */
static double pe_ascent(cb_cmdp_paper *q, double *x, int maxit,
                        double scale) {
  const int d = q->r.d, mem = 5;
  double *w = (double *)R_alloc((size_t)(2 * mem + 6) * d + 2 * mem,
                                sizeof(double));
  double *Sm = w, *Ym = Sm + (size_t)mem * d, *g = Ym + (size_t)mem * d;
  double *pg = g + d, *p = pg + d, *xt = p + d, *gt = xt + d, *xb = gt + d;
  double *al = xb + d, *rho = al + mem;
  int npair = 0, head = 0, nval = 1;
  /* f = -V / scale is minimized */
  double f = -rollout_cmdp_paper_value(q, x, g, NULL) / scale, fb = f;
  for (int k = 0; k < d; k++) g[k] = -g[k] / scale;
  memcpy(xb, x, (size_t)d * sizeof(double));
  while (nval < maxit) {
    double pgmax = 0.0;
    for (int k = 0; k < d; k++) {
      const int held =
          (x[k] <= 0.0 && g[k] > 0.0) || (x[k] >= 1.0 && g[k] < 0.0);
      pg[k] = held ? 0.0 : g[k];
      if (fabs(pg[k]) > pgmax) pgmax = fabs(pg[k]);
    }
    if (!(pgmax > 0.0)) break;
    /* the two-loop recursion */
    for (int k = 0; k < d; k++) p[k] = -pg[k];
    for (int j = 0; j < npair; j++) {
      const int c = (head - 1 - j + mem) % mem;
      double sp = 0.0;
      for (int k = 0; k < d; k++) sp += Sm[c * d + k] * p[k];
      al[j] = rho[c] * sp;
      for (int k = 0; k < d; k++) p[k] -= al[j] * Ym[c * d + k];
    }
    if (npair > 0) {
      const int c = (head - 1 + mem) % mem;
      double yy = 0.0, sy = 0.0;
      for (int k = 0; k < d; k++) {
        yy += Ym[c * d + k] * Ym[c * d + k];
        sy += Sm[c * d + k] * Ym[c * d + k];
      }
      for (int k = 0; k < d; k++) p[k] *= sy / yy;
    }
    for (int j = npair - 1; j >= 0; j--) {
      const int c = (head - 1 - j + mem) % mem;
      double yp = 0.0;
      for (int k = 0; k < d; k++) yp += Ym[c * d + k] * p[k];
      const double b = rho[c] * yp;
      for (int k = 0; k < d; k++) p[k] += (al[j] - b) * Sm[c * d + k];
    }
    double slope = 0.0, pmax = 0.0;
    for (int k = 0; k < d; k++) {
      if (pg[k] == 0.0) p[k] = 0.0;
      slope += p[k] * pg[k];
      if (fabs(p[k]) > pmax) pmax = fabs(p[k]);
    }
    if (!(slope < 0.0)) { /* not a descent direction: the gradient's */
      npair = 0;
      pmax = 0.0;
      for (int k = 0; k < d; k++) {
        p[k] = -pg[k];
        if (fabs(p[k]) > pmax) pmax = fabs(p[k]);
      }
    }
    double t = npair > 0 ? 1.0 : (pmax > 0.1 ? 0.1 / pmax : 1.0), ft = f;
    int ok = 0;
    while (nval < maxit) {
      double dec = 0.0;
      int moved = 0;
      for (int k = 0; k < d; k++) {
        const double v = x[k] + t * p[k];
        xt[k] = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
        moved |= xt[k] != x[k];
        dec += g[k] * (xt[k] - x[k]);
      }
      if (!moved) break;
      ft = -rollout_cmdp_paper_value(q, xt, gt, NULL) / scale;
      nval++;
      for (int k = 0; k < d; k++) gt[k] = -gt[k] / scale;
      if (ft < fb) {
        fb = ft;
        memcpy(xb, xt, (size_t)d * sizeof(double));
      }
      if (ft <= f + 1e-4 * dec) {
        ok = 1;
        break;
      }
      /* the minimizer of the quadratic through f, its slope and ft, kept
       * in [0.1, 0.5] of the step */
      const double den = 2.0 * (ft - f - dec);
      double al = den > 0.0 ? -dec / den : 0.5;
      t *= al < 0.1 ? 0.1 : (al > 0.5 ? 0.5 : al);
    }
    if (!ok) break;
    double sy = 0.0, ss = 0.0, yy = 0.0;
    for (int k = 0; k < d; k++) {
      const double sk = xt[k] - x[k], yk = gt[k] - g[k];
      Sm[head * d + k] = sk;
      Ym[head * d + k] = yk;
      sy += sk * yk;
      ss += sk * sk;
      yy += yk * yk;
    }
    if (sy > 1e-10 * sqrt(ss * yy)) {
      rho[head] = 1.0 / sy;
      head = (head + 1) % mem;
      if (npair < mem) npair++;
    }
    const double gain = f - ft;
    memcpy(x, xt, (size_t)d * sizeof(double));
    memcpy(g, gt, (size_t)d * sizeof(double));
    f = ft;
    if (gain <= 1e-7 * (fabs(f) > 1.0 ? fabs(f) : 1.0)) break;
  }
  memcpy(x, xb, (size_t)d * sizeof(double));
  return -fb * scale;
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

/* The paper engine on the acquisition a (its GP with capacity for h
 * fantasies), with the draws z and the inner raw points; control: a
 * costbo_cmdp_control of the paper engine (R: cmdp_paper_control()). */
static void pe_setup(cb_cmdp_paper *q, cb_acq *a, SEXP z, SEXP raw,
                     SEXP control) {
  cb_cmdp *r = &q->r;
  unpack_cmdp(control, r);
  r->acq = a;
  r->d = a->f->d;
  r->nsamp = Rf_nrows(z);
  r->z = REAL(z);
  r->n_raw = Rf_nrows(raw);
  r->raw = REAL(raw);
  r->unif = NULL;
  a->grad_unit = 1;
  rollout_cmdp_paper_setup(q);
}

/* Values of the paper engine at the rows of X with all the rows of z:
 * list(value, samples (nsamp x m: the terms whose mean is the value),
 * grad (d x m: the gradient in the unit cube; NULL unless grad)). */
SEXP C_rollout_cmdp_paper_value(SEXP acq, SEXP X, SEXP z, SEXP raw,
                                SEXP control, SEXP grad) {
  const int m = Rf_nrows(X), d = Rf_ncols(X), g = Rf_asLogical(grad) == 1;
  int np = 0;
  cb_acq a;
  cb_gp f, lc;
  cb_cmdp_paper q;
  unpack_acq(acq, &a, &f, &lc,
             cb_elt_int(control, "costbo_cmdp_control", "h"));
  pe_setup(&q, &a, z, raw, control);
  const char *nms[] = {"value", "samples", "grad", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, m));
  SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, q.ns, m));
  if (g) SET_VECTOR_ELT(out, 2, Rf_allocMatrix(REALSXP, d, m));
  double *val = REAL(VECTOR_ELT(out, 0)), *smp = REAL(VECTOR_ELT(out, 1));
  double *x = (double *)R_alloc((size_t)d, sizeof(double));
  for (int i = 0; i < m; i++) {
    for (int k = 0; k < d; k++) x[k] = REAL(X)[i + (size_t)k * m];
    val[i] = rollout_cmdp_paper_value(
        &q, x, g ? REAL(VECTOR_ELT(out, 2)) + (size_t)i * d : NULL,
        smp + (size_t)i * q.ns);
  }
  UNPROTECT(np);
  return out;
}

/* The paper engine's decision.  The design (unit cube) plus the base
 * policy's first choice are screened with the first n_screen samples; from
 * the `starts` affordable ones of largest value, the ascent pe_ascent()
 * with the first n_search samples (at most `maxit` values each); the ends
 * of the searches are valued with all the samples, and the best is chosen
 * (ties to the earlier search).  When no design point is affordable, the
 * cheapest.  Returns list(x, value, cost, ends: the searches' ends with
 * their values in the last column). */
SEXP C_rollout_cmdp_paper_propose(SEXP acq, SEXP design, SEXP z, SEXP raw,
                                  SEXP control) {
  const char *cls = "costbo_cmdp_control";
  const int nd = Rf_nrows(design), d = Rf_ncols(design);
  int np = 0;
  cb_acq a;
  cb_gp f, lc;
  cb_cmdp_paper q;
  unpack_acq(acq, &a, &f, &lc, cb_elt_int(control, cls, "h"));
  pe_setup(&q, &a, z, raw, control);
  const int starts = cb_elt_int(control, cls, "starts");
  const int maxit = cb_elt_int(control, cls, "maxit");
  const int nsamp = q.r.nsamp;
  const int nscr = cb_elt_int(control, cls, "n_screen");
  const int nsea = cb_elt_int(control, cls, "n_search");
  const int n1 = nd + 1;
  double *des = (double *)R_alloc((size_t)n1 * (size_t)d, sizeof(double));
  for (int k = 0; k < d; k++)
    for (int i = 0; i < nd; i++)
      des[i + (size_t)k * n1] = REAL(design)[i + (size_t)k * nd];
  double *x0 = (double *)R_alloc((size_t)(2 * d), sizeof(double));
  double *xb = x0 + d;
  rollout_cmdp_paper_first(&q, x0);
  for (int k = 0; k < d; k++) des[nd + (size_t)k * n1] = x0[k];
  /* the screening */
  double *dv = (double *)R_alloc((size_t)(2 * n1), sizeof(double));
  double *cst = dv + n1;
  int *top = (int *)R_alloc((size_t)n1, sizeof(int));
  int nok = 0;
  q.ns = nscr < nsamp ? nscr : nsamp;
  for (int i = 0; i < n1; i++) {
    for (int k = 0; k < d; k++) x0[k] = des[i + (size_t)k * n1];
    cst[i] = acq_cost(&a, d, x0);
    if (cst[i] <= q.r.remaining) {
      dv[i] = rollout_cmdp_paper_value(&q, x0, NULL, NULL);
      nok++;
    } else {
      dv[i] = R_NegInf;
    }
  }
  const int ns = starts < nok ? starts : nok;
  for (int s = 0; s < ns; s++) {
    int ib = -1;
    for (int i = 0; i < n1; i++) {
      int used = 0;
      for (int t = 0; t < s && !used; t++) used = top[t] == i;
      if (!used && cst[i] <= q.r.remaining && (ib < 0 || dv[i] > dv[ib]))
        ib = i;
    }
    top[s] = ib;
  }
  /* the searches, then their ends valued with all the samples */
  SEXP ends = PROTECT(Rf_allocMatrix(REALSXP, ns, d + 1));
  np++;
  double *E = REAL(ends), v = R_NegInf, c = R_PosInf;
  const double scale = ns > 0 && dv[top[0]] > 0.0 ? dv[top[0]] : 1.0;
  for (int s = 0; s < ns; s++) {
    for (int k = 0; k < d; k++) x0[k] = des[top[s] + (size_t)k * n1];
    q.ns = nsea < nsamp ? nsea : nsamp;
    pe_ascent(&q, x0, maxit, scale);
    q.ns = nsamp;
    const double vs = rollout_cmdp_paper_value(&q, x0, NULL, NULL);
    for (int k = 0; k < d; k++) E[s + (size_t)k * ns] = x0[k];
    E[s + (size_t)d * ns] = vs;
    if (vs > v) {
      v = vs;
      memcpy(xb, x0, (size_t)d * sizeof(double));
    }
  }
  if (ns > 0) c = acq_cost(&a, d, xb);
  if (!(v > 0.0) || !(c <= q.r.remaining)) { /* nothing feasible: cheapest */
    int ib = 0;
    for (int i = 1; i < n1; i++)
      if (cst[i] < cst[ib]) ib = i;
    for (int k = 0; k < d; k++) xb[k] = des[ib + (size_t)k * n1];
    c = cst[ib];
    q.ns = nsamp;
    v = rollout_cmdp_paper_value(&q, xb, NULL, NULL);
  }
  const char *nms[] = {"x", "value", "cost", "ends", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SEXP xr = Rf_allocVector(REALSXP, d);
  SET_VECTOR_ELT(out, 0, xr);
  memcpy(REAL(xr), xb, (size_t)d * sizeof(double));
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(v));
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(c));
  SET_VECTOR_ELT(out, 3, ends);
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
