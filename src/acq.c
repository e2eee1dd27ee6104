/* acq.c -- closed-form acquisition functions and their partial derivatives
 * in the posterior moments (see acq.h for the definitions and conventions). */
#include "acq.h"

#include <float.h>

#include "costbo.h"
#include "entry.h"
#include "rlist.h"
#include "maximize.h"
#include "rcall.h"

/* log phi(x), finite until x*x overflows. */
static double log_phi(double x) { return -0.5 * x * x - M_LN_SQRT_2PI; }

/* log Phi(x), accurate far into the lower tail (Rmath's pnorm on log scale). */
static double log_Phi(double x) { return Rf_pnorm5(x, 0.0, 1.0, 1, 1); }

/* log q(x) for x >= 2, where q(x) = 1 - x R(x) and R(x) = Q(x) / phi(x) is
 * Mills' ratio, so that h(-x) = phi(x) q(x).  Writing Laplace's continued
 * fraction R(x) = 1 / (x + r), r = 1 / (x + 2 / (x + 3 / (x + ...))), gives
 * q(x) = r / (x + r) without the catastrophic cancellation of 1 - x R(x)
 * (q ~ 1/x^2).  The tail of the fraction is evaluated backwards from N
 * terms; the truncation error decays like exp(-c x sqrt(N)), and
 * N = 10 + 1000 / x^2 leaves it below 1e-20 for every x >= 2. */
static double log_q(double x) {
  const int n = 10 + (int)ceil(1000.0 / (x * x));
  double acc = x;
  for (int k = n; k >= 2; k--) acc = x + k / acc;
  return -log(acc) - log(x + 1.0 / acc);
}

/* log EI and the logs of its partial derivatives in m and s; far in the
 * lower tail also the derivatives of log EI themselves. */
typedef struct {
  double l;  /* log EI */
  double lm; /* log dEI/dm = log Phi(u) */
  double ls; /* log dEI/ds = log phi(u) */
  double dm; /* d log EI / dm for u < -CB_EI_FAR_TAIL, else NaN */
  double ds; /* d log EI / ds for u < -CB_EI_FAR_TAIL, else NaN */
} ei_parts;

/* Below u = -1e5, lm - l and ls - l are differences of two logs of
 * magnitude u^2 / 2 that have lost log2(u^2) bits: there the derivatives
 * of log EI come from Laplace's continued fraction (log_q()), with x = -u
 * and acc = x + 2 / (x + 3 / (x + ...)): Phi(u) / h(u) = acc and
 * phi(u) / h(u) = x acc + 1.  (Posterior sds of costbo's models keep |u|
 * far below this, so the policies' paths are unchanged.) */
#define CB_EI_FAR_TAIL 1e5

/* log EI = log s + log h(u) and its parts, for s > 0 and finite u. */
static void ei_parts_at(double u, double s, ei_parts *e) {
  e->l = log(s) + acq_log_h(u);
  e->lm = log_Phi(u);
  e->ls = log_phi(u);
  if (u < -CB_EI_FAR_TAIL) {
    const double x = -u;
    const int n = 10 + (int)ceil(1000.0 / (x * x));
    double acc = x;
    for (int k = n; k >= 2; k--) acc = x + k / acc;
    e->dm = acc / s;
    e->ds = (x * acc + 1.0) / s;
  }
}

static void ei_eval(double m, double s, double best, ei_parts *e) {
  const double diff = m - best;
  e->dm = e->ds = NAN;
  if (!R_FINITE(diff) && R_FINITE(m) && R_FINITE(best)) {
    /* |m - best| beyond the double range: the same with halves (only
     * extreme inputs get here, so every other path is unchanged). */
    const double half = 0.5 * m - 0.5 * best;
    const double u = s > 0.0 ? 2.0 * (half / s) : 0.0;
    if (s > 0.0 && R_FINITE(u)) {
      ei_parts_at(u, s, e);
    } else if (half > 0.0) {
      e->l = log(half) + M_LN2;
      e->lm = 0.0;
      e->ls = R_NegInf;
    } else {
      e->l = e->lm = e->ls = R_NegInf;
    }
    return;
  }
  const double u = s > 0.0 ? diff / s : 0.0;
  if (s > 0.0 && R_FINITE(u)) {
    ei_parts_at(u, s, e);
    return;
  }
  /* s = 0 (or s so small that u overflows): EI = (m - best)^+, with the
   * derivatives of the limit s -> 0+. */
  if (diff > 0.0) {
    e->l = log(diff);
    e->lm = 0.0;
    e->ls = R_NegInf;
  } else if (diff < 0.0) {
    e->l = e->lm = e->ls = R_NegInf;
  } else {
    e->l = R_NegInf;
    e->lm = -M_LN2;
    e->ls = log_phi(0.0);
  }
}

/* Value EI * exp(kappa) (or its log) and partial derivatives, where kappa
 * depends only on the cost moments with partials dk = (mc, sc, c). */
static double ei_times(const ei_parts *e, double kappa, double dk_mc,
                       double dk_sc, double dk_c, int logscale, acq_grad *d) {
  if (kappa == R_NegInf) dk_mc = dk_sc = dk_c = 0.0;
  if (logscale) {
    const double v = e->l + kappa;
    if (d) {
      const int ok = R_FINITE(v);
      d->m = ok ? (ISNAN(e->dm) ? exp(e->lm - e->l) : e->dm) : 0.0;
      d->s = ok ? (ISNAN(e->ds) ? exp(e->ls - e->l) : e->ds) : 0.0;
      d->mc = ok ? dk_mc : 0.0;
      d->sc = ok ? dk_sc : 0.0;
      d->c = ok ? dk_c : 0.0;
    }
    return v;
  }
  const double v = exp(e->l + kappa);
  if (d) {
    d->m = exp(e->lm + kappa);
    d->s = exp(e->ls + kappa);
    d->mc = v * dk_mc;
    d->sc = v * dk_sc;
    d->c = v * dk_c;
  }
  return v;
}

/* log P(c <= remaining) and its partials in (mc, sc) for lognormal c. */
static double q1_kappa(double mc, double sc, double remaining, int known_cost,
                       double cost, double *dk_mc, double *dk_sc) {
  *dk_mc = *dk_sc = 0.0;
  if (known_cost) return cost <= remaining ? 0.0 : R_NegInf;
  if (remaining <= 0.0) return R_NegInf;
  const double lr = log(remaining);
  const double z = sc > 0.0 ? (lr - mc) / sc : 0.0;
  if (!(sc > 0.0 && R_FINITE(z))) return mc <= lr ? 0.0 : R_NegInf;
  const double k = log_Phi(z);
  *dk_mc = -exp(log_phi(z) - k) / sc;
  *dk_sc = z * *dk_mc;
  return k;
}

static double pu_kappa(double mc, double sc, double nu, int known_cost,
                       double cost, double *dk_mc, double *dk_sc,
                       double *dk_c) {
  *dk_mc = *dk_sc = *dk_c = 0.0;
  if (known_cost) {
    *dk_c = -nu / cost;
    return -nu * log(cost);
  }
  *dk_mc = -nu;
  *dk_sc = nu * nu * sc;
  return -nu * mc + 0.5 * nu * nu * sc * sc;
}

/* The PBGI solver: the t with h(t) = r, r = lambda E[c] / s > 0.
 *
 * Cost is what matters here (an acquisition maximizer evaluates the index
 * at thousands of points per step), so the solver is built to need one or
 * two evaluations of h, each with one erfc and one exp (and one log in log
 * space), and no pnorm/dnorm:
 *
 *   r >= 8             t = r: h(t) = t + h(-t) and h(-t) < 1e-16 for t >= 8,
 *                      below half an ulp of t.  No evaluation.
 *   h(3) <= r < 8      start at t = r (error h(-t) < 4e-4); Halley on
 *                      F = h(t) - r.
 *   h(0) <= r < h(3)   start from a degree-6 polynomial in sqrt(r) (error
 *                      < 2e-5); Halley on F = h(t) - r.
 *   h(-3) <= r < h(0)  start from a degree-7 polynomial in y = log r (error
 *                      < 8e-5); Halley on F = log h(t) - y.
 *   r < h(-3)          start from the asymptote h(-x) ~ phi(x) / (x^2 + 3),
 *                      x = -t (error < 3e-3 at x = 3, < 1e-7 at x = 30);
 *                      Halley on F = log h(t) - y.
 *
 * The polynomials are least-squares fits of t at 600 Chebyshev nodes of
 * their intervals (coefficients rounded to 10 digits).  The starting points
 * only decide how many steps are needed: the root is what the iteration
 * converges to.  Halley's method converges cubically, so once a step is
 * below 1e-6 max(1, |t|) the error after it is far below an ulp, and the
 * iteration stops there without another evaluation.  F is increasing, and a
 * bracket of points with F < 0 and F > 0 guards against poor steps.
 *
 * Accuracy.  For t < 0, h(t) = phi(t) + t Phi(t) cancels (h ~ phi / t^2),
 * which makes the computed root inherit the relative errors of phi(t) and
 * Phi(t) (not t^2 times them: F' ~ |t| absorbs the amplification).  So both
 * are evaluated to about an ulp (norm_pair(): the rounding of t^2 and of
 * t / sqrt(2) in the arguments of exp and erfc, ~ t^2 ulp, is corrected with
 * fma), and below t = -30, where erfc nears underflow, h and Phi come from
 * their asymptotic series (cancellation-free, truncated below 1e-19). */

/* 1 / sqrt(2) and 1 / sqrt(2 pi) as unevaluated sums hi + lo. */
#define CB_SQRT1_2_HI 0.70710678118654757
#define CB_SQRT1_2_LO (-4.8336466567264567e-17)
#define CB_RSQRT2PI_HI 0.3989422804014327
#define CB_RSQRT2PI_LO (-2.49232720227773e-17)
/* h(-3), h(0) = phi(0), h(3) and log h(-3), log h(0) */
#define CB_H_M3 3.8215431704771514e-4
#define CB_H_0 0.3989422804014327
#define CB_H_3 3.0003821543170477
#define CB_LOGH_M3 (-7.8696860596030289)
#define CB_LOGH_0 (-0.91893853320467267)

/* Phi(t) and phi(t) to about an ulp each, for t >= -38 (1 and 0 above 40). */
static void norm_pair(double t, double *Phi, double *phi) {
  if (t > 40.0) {
    *Phi = 1.0;
    *phi = 0.0;
    return;
  }
  const double a = t * t, a_lo = fma(t, t, -a); /* t^2 = a + a_lo exactly */
  const double e = exp(-0.5 * a);
  const double p =
      e * CB_RSQRT2PI_HI + e * (CB_RSQRT2PI_LO - 0.5 * a_lo * CB_RSQRT2PI_HI);
  /* Phi(t) = erfc(z) / 2 at z = -t / sqrt 2 = zc + dz; d erfc(z) / 2 / dz
   * = -sqrt(2) phi(t). */
  const double zc = -t * CB_SQRT1_2_HI;
  const double dz = fma(-t, CB_SQRT1_2_HI, -zc) - t * CB_SQRT1_2_LO;
  *phi = p;
  *Phi = 0.5 * erfc(zc) - M_SQRT2 * p * dz;
}

/* For x >= 30 and v = 1 / x^2: h(-x) = phi(x) v Sq(v) and Phi(-x) = phi(x)
 * sqrt(v) SR(v), the asymptotic series of Mills' ratio, truncated where
 * the next term is below 1e-19. */
static double series_q(double v) {
  static const double c[] = {1.0,      -3.0,       15.0,     -105.0,
                             945.0,    -10395.0,   135135.0, -2027025.0,
                             34459425.0, -654729075.0};
  double s = c[9];
  for (int k = 8; k >= 0; k--) s = s * v + c[k];
  return s;
}

static double series_r(double v) {
  static const double c[] = {1.0,    -1.0,    3.0,       -15.0,   105.0,
                             -945.0, 10395.0, -135135.0, 2027025.0};
  double s = c[8];
  for (int k = 7; k >= 0; k--) s = s * v + c[k];
  return s;
}

/* phi(t) / Phi(t) and 1 / Phi(t) (the latter overflows to Inf below
 * t = -37.5, where Phi(t) < DBL_MIN). */
static void mills(double t, double *ratio, double *inv_Phi) {
  if (t < -30.0) {
    const double x = -t, sr = series_r(1.0 / (x * x));
    *ratio = x / sr;
    *inv_Phi = exp(0.5 * x * x + M_LN_SQRT_2PI) * x / sr;
    return;
  }
  double P, p;
  norm_pair(t, &P, &p);
  *ratio = p / P;
  *inv_Phi = 1.0 / P;
}

/* Starting point for t < -3 (y = log r < log h(-3)): with w = x^2, the
 * asymptote log h(-x) ~ log phi(x) - log(x^2 + 3) reads
 * w = A - 2 log w - 2 log(1 + 3 / w), A = -2 (y + log sqrt(2 pi)); two
 * fixed-point steps (the map contracts by 2 / w). */
static double h_inv_start_left(double y) {
  const double A = -2.0 * (y + M_LN_SQRT_2PI);
  double w = A - 2.0 * log(A);
  w = A - 2.0 * log(w) - 6.0 / (w + 1.5);
  return -sqrt(w);
}

/* The t with h(t) = r; y = log r (NaN: not computed yet; needed only for
 * r < h(0)).  When r is outside the normal range the caller passes y and
 * r = 0 or Inf.  *iter (may be NULL): the number of evaluations of h. */
static double h_solve(double r, double y, int *iter) {
  int k = 0;
  double t;
  if (r >= 8.0) {
    if (iter) *iter = 0;
    return r;
  }
  const int logspace = r < CB_H_0;
  if (logspace) {
    if (ISNAN(y)) y = log(r);
    if (y >= CB_LOGH_M3) {
      static const double c[] = {-1.857183265,  1.355847207,   0.2918525925,
                                 0.1126428247,  0.04246675881, 0.01864477593,
                                 0.02280208514, 0.01284769763};
      const double z = (2.0 * y - (CB_LOGH_M3 + CB_LOGH_0)) /
                       (CB_LOGH_0 - CB_LOGH_M3);
      t = c[7];
      for (int j = 6; j >= 0; j--) t = t * z + c[j];
    } else {
      t = h_inv_start_left(y);
    }
  } else if (r >= CB_H_3) {
    t = r;
  } else {
    static const double c[] = {1.356541185,     1.425517191,
                               0.1548774079,    0.07461716775,
                               -0.009038898444, -0.0001538301052,
                               -0.00237990026};
    const double a = 0.63161877774606467, b = 1.7321611228528543;
    const double z = (2.0 * sqrt(r) - (a + b)) / (b - a);
    t = c[6];
    for (int j = 5; j >= 0; j--) t = t * z + c[j];
  }
  double lo = R_NegInf, hi = R_PosInf;
  for (k = 0; k < 100;) {
    double f, f1, f2;
    if (t < -30.0) {
      /* log h(t) = log phi(x) + log(v Sq(v)); F' = Phi / h = x SR / Sq */
      const double x = -t, v = 1.0 / (x * x);
      const double sq = series_q(v), sr = series_r(v);
      f = -0.5 * x * x - M_LN_SQRT_2PI + log(v * sq) - y;
      f1 = x * sr / sq;
      f2 = x * x / sq - f1 * f1;
      if (!logspace) { /* h(t) - r < 0 here: the safeguard moves right */
        f = -r;
        f1 = f2 = 0.0;
      }
    } else {
      double P, p;
      norm_pair(t, &P, &p);
      const double h = t * P + p;
      if (logspace) {
        f = log(h) - y;
        f1 = P / h;
        f2 = p / h - f1 * f1;
      } else {
        f = h - r;
        f1 = P;
        f2 = p;
      }
    }
    k++;
    if (f == 0.0) break;
    if (f < 0.0) {
      if (t > lo) lo = t;
    } else if (t < hi) {
      hi = t;
    }
    const double den = 2.0 * f1 * f1 - f * f2;
    double tn = den > 0.0 ? t - 2.0 * f * f1 / den : t - f / f1;
    if (!(R_FINITE(tn) && tn >= lo && tn <= hi)) {
      /* Only rounding or a far-off iterate gets here: bisect a finite
       * bracket, else move by 1 + |t| towards the root. */
      if (R_FINITE(lo) && R_FINITE(hi)) {
        tn = 0.5 * (lo + hi);
      } else {
        tn = f < 0.0 ? t + 1.0 + fabs(t) : t - 1.0 - fabs(t);
      }
    }
    const double step = fabs(tn - t);
    t = tn;
    if (step <= 1e-6 * fmax(1.0, fabs(t))) break;
  }
  if (iter) *iter = k;
  return t;
}

/* log(1 / Phi(t)) for t < -30, where 1 / Phi(t) itself may overflow
 * (mills()). */
static double log_inv_Phi_left(double t) {
  const double x = -t;
  return 0.5 * x * x + M_LN_SQRT_2PI + log(x) - log(series_r(1.0 / (x * x)));
}

/* Gittins index g = m - s t with s h(t) = lc, lc = lambda E[c] > 0; log_lc
 * is log(lc) when lc itself is outside the normal range (else NaN).  Sets
 * *dg_ds = phi(t) / Phi(t) and *dg_dlc = dg / d(lc) = -1 / Phi(t) when
 * dg_ds is not NULL; then *log_dlc is log(1 / Phi(t)) when 1 / Phi(t)
 * overflows (else NaN), for the callers' products with tiny factors. */
static double pbgi_core(double m, double s, double lc, double log_lc,
                        double *dg_ds, double *dg_dlc, double *log_dlc,
                        int *iter) {
  if (dg_ds) *log_dlc = NAN;
  if (!(s > 0.0)) {
    /* s = 0: EI(g) = (m - g)^+ = lc. */
    if (iter) *iter = 0;
    if (dg_ds) {
      *dg_ds = 0.0;
      *dg_dlc = -1.0;
    }
    return m - lc;
  }
  double r = lc / s, y = NAN;
  if (!(r >= DBL_MIN && r <= DBL_MAX)) {
    y = (ISNAN(log_lc) ? log(lc) : log_lc) - log(s);
    r = y > 0.0 ? R_PosInf : 0.0;
  }
  const double t = h_solve(r, y, iter);
  if (dg_ds) {
    mills(t, dg_ds, dg_dlc);
    *dg_dlc = -*dg_dlc;
    if (!R_FINITE(*dg_dlc)) *log_dlc = log_inv_Phi_left(t);
  }
  /* For r >= 8, s t = lc - s h(-t) with s h(-t) below 1e-16 lc: take
   * g = m - lc, which also holds for lc / s beyond the double range. */
  const double g = r >= 8.0 ? m - lc : m - s * t;
  /* s t (or m - s t) beyond the double range while g is not: halves */
  if (!R_FINITE(g) && r < 8.0) return 2.0 * (0.5 * m - (0.5 * s) * t);
  return g;
}

static void grad_zero(acq_grad *d) {
  if (d) d->m = d->s = d->mc = d->sc = d->c = 0.0;
}

/* Public C API ----------------------------------------------------------- */

double acq_log_h(double u) {
  if (u > -2.0)
    return log(u * Rf_pnorm5(u, 0.0, 1.0, 1, 0) + Rf_dnorm4(u, 0.0, 1.0, 0));
  return log_phi(u) + log_q(-u);
}

double acq_ei(double m, double s, double best, acq_grad *d) {
  ei_parts e;
  ei_eval(m, s, best, &e);
  return ei_times(&e, 0.0, 0.0, 0.0, 0.0, 0, d);
}

double acq_log_ei(double m, double s, double best, acq_grad *d) {
  ei_parts e;
  ei_eval(m, s, best, &e);
  return ei_times(&e, 0.0, 0.0, 0.0, 0.0, 1, d);
}

double acq_ucb(double m, double s, double beta, acq_grad *d) {
  if (d) {
    grad_zero(d);
    d->m = 1.0;
    d->s = beta;
  }
  const double v = m + beta * s;
  /* beta s beyond the double range while m + beta s is not: halves */
  return R_FINITE(v) ? v : 2.0 * (0.5 * m + beta * (0.5 * s));
}

static double q1_any(double m, double s, double best, double mc, double sc,
                     double remaining, int known_cost, double cost,
                     int logscale, acq_grad *d) {
  ei_parts e;
  double dmc, dsc;
  const double k = q1_kappa(mc, sc, remaining, known_cost, cost, &dmc, &dsc);
  ei_eval(m, s, best, &e);
  return ei_times(&e, k, dmc, dsc, 0.0, logscale, d);
}

double acq_q1(double m, double s, double best, double mc, double sc,
              double remaining, int known_cost, double cost, acq_grad *d) {
  return q1_any(m, s, best, mc, sc, remaining, known_cost, cost, 0, d);
}

double acq_log_q1(double m, double s, double best, double mc, double sc,
                  double remaining, int known_cost, double cost, acq_grad *d) {
  return q1_any(m, s, best, mc, sc, remaining, known_cost, cost, 1, d);
}

static double pu_any(double m, double s, double best, double mc, double sc,
                     double nu, int known_cost, double cost, int logscale,
                     acq_grad *d) {
  ei_parts e;
  double dmc, dsc, dc;
  const double k = pu_kappa(mc, sc, nu, known_cost, cost, &dmc, &dsc, &dc);
  ei_eval(m, s, best, &e);
  return ei_times(&e, k, dmc, dsc, dc, logscale, d);
}

double acq_ei_pu_cc(double m, double s, double best, double mc, double sc,
                    double nu, int known_cost, double cost, acq_grad *d) {
  return pu_any(m, s, best, mc, sc, nu, known_cost, cost, 0, d);
}

double acq_log_ei_pu_cc(double m, double s, double best, double mc, double sc,
                        double nu, int known_cost, double cost, acq_grad *d) {
  return pu_any(m, s, best, mc, sc, nu, known_cost, cost, 1, d);
}

double acq_h_inv_log(double y, int *iter) {
  return h_solve(exp(y), y, iter);
}

double acq_pbgi(double m, double s, double lambda, double cost, acq_grad *d,
                int *iter) {
  double ds, dlc, log_dlc;
  const double lc = lambda * cost;
  const double log_lc =
      (lc >= DBL_MIN && lc <= DBL_MAX) ? NAN : log(lambda) + log(cost);
  const double g =
      pbgi_core(m, s, lc, log_lc, d ? &ds : NULL, &dlc, &log_dlc, iter);
  if (d) {
    grad_zero(d);
    d->m = 1.0;
    d->s = ds;
    d->c = lambda * dlc;
    /* lambda / Phi(t) with 1 / Phi(t) beyond the double range */
    if (!R_FINITE(d->c) && !ISNAN(log_dlc)) d->c = -exp(log(lambda) + log_dlc);
  }
  return g;
}

double acq_pbgi_u(double m, double s, double lambda, double mc, double sc,
                  acq_grad *d, int *iter) {
  double ds, dlc, log_dlc;
  const double log_lc = log(lambda) + mc + 0.5 * sc * sc;
  const double lc = exp(log_lc);
  const double g =
      pbgi_core(m, s, lc, log_lc, d ? &ds : NULL, &dlc, &log_dlc, iter);
  if (d) {
    grad_zero(d);
    d->m = 1.0;
    d->s = ds;
    d->mc = lc * dlc;
    /* lc / Phi(t) with 1 / Phi(t) beyond the double range */
    if (!R_FINITE(d->mc) && !ISNAN(log_dlc)) d->mc = -exp(log_lc + log_dlc);
    d->sc = sc * d->mc;
  }
  return g;
}

/* The one switch over the acquisition types (CB_ACQ_* of acq.h), mirrored
 * in R by the table acq_table (R/closed-forms.R): the closed form of type `type` at
 * posterior moments (m, s) of the objective and (mc, sc) of the log cost
 * (known = 0) or the known cost `cost` (known = 1), with the type's
 * settings; d and iter may be NULL. */
static double acq_value(int type, double m, double s, double best,
                        double remaining, double nu, double lambda,
                        double beta, double mc, double sc, int known,
                        double cost, acq_grad *d, int *iter) {
  switch (type) {
    case CB_ACQ_EI:
      return acq_ei(m, s, best, d);
    case CB_ACQ_LOG_EI:
      return acq_log_ei(m, s, best, d);
    case CB_ACQ_UCB:
      return acq_ucb(m, s, beta, d);
    case CB_ACQ_Q1:
      return acq_q1(m, s, best, mc, sc, remaining, known, cost, d);
    case CB_ACQ_LOG_Q1:
      return acq_log_q1(m, s, best, mc, sc, remaining, known, cost, d);
    case CB_ACQ_EI_PU_CC:
      return acq_ei_pu_cc(m, s, best, mc, sc, nu, known, cost, d);
    case CB_ACQ_LOG_EI_PU_CC:
      return acq_log_ei_pu_cc(m, s, best, mc, sc, nu, known, cost, d);
    case CB_ACQ_PBGI:
      return known ? acq_pbgi(m, s, lambda, cost, d, iter)
                   : acq_pbgi_u(m, s, lambda, mc, sc, d, iter);
    default:
      Rf_error("internal error: unknown acquisition code %d", type);
  }
  return NAN; /* not reached */
}

/* Acquisitions at inputs ------------------------------------------------- */

/* Whether the closed form of `type` depends on the cost, and whether on
 * its gradient (Q1's indicator is flat almost everywhere: d->c = 0).  A
 * known cost written in R is called, and its gradient asked for, only
 * then. */
static int acq_type_uses_cost(int type) {
  return type != CB_ACQ_EI && type != CB_ACQ_LOG_EI && type != CB_ACQ_UCB;
}
static int acq_type_uses_cost_grad(int type) {
  return acq_type_uses_cost(type) && type != CB_ACQ_Q1 &&
         type != CB_ACQ_LOG_Q1;
}

void acq_setup(cb_acq *a, int cap) {
  const int d = a->f->d, c = cap > 0 ? cap : 1;
  a->alpha_f = (double *)R_alloc((size_t)c, sizeof(double));
  a->alpha_c = (double *)R_alloc((size_t)c, sizeof(double));
  a->work = (double *)R_alloc((size_t)(2 * c), sizeof(double));
  a->gm = (double *)R_alloc((size_t)(4 * d), sizeof(double));
  a->gv = a->gm + d;
  a->gmc = a->gm + 2 * d;
  a->gvc = a->gm + 3 * d;
  /* alpha and U = L' serve the gradients of gp_predict_at */
  a->u_f = gp_has_xgrad(a->f)
               ? (double *)R_alloc((size_t)c * c, sizeof(double))
               : NULL;
  a->u_c = a->cost_kind == CB_COST_GP && gp_has_xgrad(a->lc)
               ? (double *)R_alloc((size_t)c * c, sizeof(double))
               : NULL;
  acq_refresh(a);
}

void acq_refresh(cb_acq *a) {
  if (gp_has_xgrad(a->f)) {
    gp_alpha(a->f, a->alpha_f);
    gp_upper(a->f, a->u_f);
  }
  if (a->cost_kind == CB_COST_GP && gp_has_xgrad(a->lc)) {
    gp_alpha(a->lc, a->alpha_c);
    gp_upper(a->lc, a->u_c);
  }
}

/* sd and its gradient from a variance and its gradient (0 where var <= 0) */
static double sd_of(double var, int d, const double *dvar, double *dsd) {
  double s = var > 0.0 ? sqrt(var) : 0.0;
  if (dsd)
    for (int k = 0; k < d; k++) dsd[k] = s > 0.0 ? dvar[k] / (2.0 * s) : 0.0;
  return s;
}

/* A parametric known cost at unit-cube x; dc (may be NULL) receives its
 * gradient in unit-cube units. */
static double known_cost_at(const cb_acq *a, int d, const double *x,
                            double *dc) {
  const double ca = a->cost_a, cb = a->cost_b, *off = a->cost_offset;
  if (a->cost_kind == CB_COST_LINEAR) {
    double u = 0.0;
    for (int k = 0; k < d; k++) u += x[k];
    if (dc)
      for (int k = 0; k < d; k++) dc[k] = cb / d;
    return ca + cb * u / d;
  }
  if (a->cost_kind == CB_COST_RADIAL) {
    /* a - b | ||x|| - c |: with c = 0 (paper 001's cost) exactly a - b r,
     * as before the radius was a parameter (r - 0 = r, |r| = r, and the
     * sign 1 multiplies exactly) */
    double r2 = 0.0;
    for (int k = 0; k < d; k++) {
      const double xk = off[k] + x[k] * a->xrange[k];
      r2 += xk * xk;
    }
    const double r = sqrt(r2), t = r - a->cost_c;
    const double sgn = t < 0.0 ? -1.0 : 1.0;
    if (dc)
      for (int k = 0; k < d; k++)
        dc[k] = r > 0.0
                    ? -cb * sgn * (off[k] + x[k] * a->xrange[k]) / r *
                          a->xrange[k]
                    : 0.0;
    return ca - cb * fabs(t);
  }
  const double w = 2.0 * M_PI * cb / a->cost_period;
  double s = 0.0;
  for (int k = 0; k < d; k++) {
    double th = w * (off[k] + x[k] * a->xrange[k] + a->cost_c);
    s += cos(th);
    if (dc) dc[k] = -ca / d * sin(th) * w * a->xrange[k];
  }
  const double c = exp(ca * s / d);
  if (dc)
    for (int k = 0; k < d; k++) dc[k] *= c;
  return c;
}

double acq_at(int d, const double *x, double *grad, void *ctx) {
  cb_acq *a = (cb_acq *)ctx;
  const int g = grad != NULL; /* gp_predict_at: an error without them */
  double mf, vf, mc = 0.0, vc = 0.0, sc = 0.0, cost = 1.0, v;
  int known = 1;
  acq_grad pd;
  gp_predict_at(a->f, x, 1, a->alpha_f, a->u_f, &mf, &vf, g ? a->gm : NULL,
                g ? a->gv : NULL, a->work);
  double s = sd_of(vf, d, a->gv, g ? a->gv : NULL); /* gv: now d sd */
  double m = a->f_shift + a->f_scale * mf;
  s *= a->f_scale;
  switch (a->cost_kind) {
    case CB_COST_GP:
      known = 0;
      gp_predict_at(a->lc, x, 1, a->alpha_c, a->u_c, &mc, &vc,
                    g ? a->gmc : NULL, g ? a->gvc : NULL, a->work);
      sc = a->c_scale * sd_of(vc, d, a->gvc, g ? a->gvc : NULL);
      mc = a->c_shift + a->c_scale * mc;
      break;
    case CB_COST_TABLE:
      cost = a->cost_values[(int)x[0]];
      break;
    case CB_COST_LINEAR:
      cost = known_cost_at(a, d, x, g ? a->gmc : NULL);
      break;
    case CB_COST_COSINE:
    case CB_COST_RADIAL:
      cost = known_cost_at(a, d, x, g ? a->gmc : NULL);
      break;
    case CB_COST_R:
      if (acq_type_uses_cost(a->type))
        cost = rcall_cost(a->rcost, x,
                          g && acq_type_uses_cost_grad(a->type) ? a->gmc
                                                                : NULL);
      break;
    default:
      cost = a->cost_value;
  }
  const int dcost = g && (a->cost_kind == CB_COST_LINEAR ||
                          a->cost_kind == CB_COST_COSINE ||
                          a->cost_kind == CB_COST_RADIAL ||
                          (a->cost_kind == CB_COST_R &&
                           acq_type_uses_cost_grad(a->type)));
  acq_grad *pg = g ? &pd : NULL;
  v = acq_value(a->type, m, s, a->best, a->remaining, a->nu, a->lambda,
                a->beta, mc, sc, known, cost, pg, NULL);
  if (grad) {
    for (int k = 0; k < d; k++) {
      double gk = 0.0;
      if (g) {
        gk = pd.m * a->f_scale * a->gm[k] + pd.s * a->f_scale * a->gv[k];
        if (!known)
          gk += pd.mc * a->c_scale * a->gmc[k] + pd.sc * a->c_scale * a->gvc[k];
        if (dcost) gk += pd.c * a->gmc[k];
        if (!a->grad_unit) gk /= a->xrange[k];
      }
      grad[k] = R_FINITE(gk) ? gk : 0.0;
    }
  }
  return v;
}

double acq_cost(const cb_acq *a, int d, const double *x) {
  switch (a->cost_kind) {
    case CB_COST_GP: {
      double mc, vc;
      gp_predict_at(a->lc, x, 1, NULL, NULL, &mc, &vc, NULL, NULL, a->work);
      const double sc = a->c_scale * (vc > 0.0 ? sqrt(vc) : 0.0);
      return exp(a->c_shift + a->c_scale * mc + 0.5 * sc * sc);
    }
    case CB_COST_TABLE:
      return a->cost_values[(int)x[0]];
    case CB_COST_LINEAR:
    case CB_COST_COSINE:
    case CB_COST_RADIAL:
      return known_cost_at(a, d, x, NULL);
    case CB_COST_R:
      return rcall_cost(a->rcost, x, NULL);
    default:
      return a->cost_value;
  }
}

double acq_cost_grad(const cb_acq *a, int d, const double *x, double *grad) {
  switch (a->cost_kind) {
    case CB_COST_LINEAR:
    case CB_COST_COSINE:
    case CB_COST_RADIAL:
      return known_cost_at(a, d, x, grad);
    case CB_COST_R:
      return rcall_cost(a->rcost, x, grad);
    default:
      if (grad)
        for (int k = 0; k < d; k++) grad[k] = 0.0;
      return acq_cost(a, d, x);
  }
}

cb_max_control acq_max_control(const cb_acq *a, const cb_max_control *ctl) {
  cb_max_control mc = *ctl;
  if (a->cost_kind == CB_COST_R && a->rcost != NULL) {
    mc.grad_phase = rcall_grad_phase;
    mc.hook = a->rcost;
  }
  return mc;
}

/* The parameters of a known cost: a costbo_cost_par object (acq_pack() in
 * R), the elements its kind needs, by name; `ncand` candidates of a finite
 * domain, `d` inputs. */
static void unpack_cost_par(SEXP par, cb_acq *a, int d, int ncand) {
  const char *cls = "costbo_cost_par";
  if (!Rf_inherits(par, cls)) Rf_error("expected a %s object", cls);
  a->cost_value = a->cost_a = a->cost_b = a->cost_c = 0.0;
  a->cost_period = 1.0;
  a->cost_values = a->cost_offset = NULL;
  a->rcost = NULL;
  switch (a->cost_kind) {
    case CB_COST_GP:
      break;
    case CB_COST_TABLE:
      a->cost_values = cb_elt_reals(par, cls, "values", ncand);
      break;
    case CB_COST_LINEAR:
      a->cost_a = cb_elt_real(par, cls, "a");
      a->cost_b = cb_elt_real(par, cls, "b");
      break;
    case CB_COST_COSINE:
      a->cost_a = cb_elt_real(par, cls, "a");
      a->cost_b = cb_elt_real(par, cls, "b");
      a->cost_c = cb_elt_real(par, cls, "c");
      a->cost_period = cb_elt_real(par, cls, "period");
      a->cost_offset = cb_elt_reals(par, cls, "offset", d);
      break;
    case CB_COST_RADIAL:
      a->cost_a = cb_elt_real(par, cls, "a");
      a->cost_b = cb_elt_real(par, cls, "b");
      a->cost_c = cb_elt_real(par, cls, "radius");
      a->cost_offset = cb_elt_reals(par, cls, "offset", d);
      break;
    case CB_COST_CONST:
      a->cost_value = cb_elt_real(par, cls, "value");
      break;
    case CB_COST_R: {
      SEXP fn = cb_elt(par, cls, "fun");
      if (!Rf_isFunction(fn))
        Rf_error("element `fun` of the %s object must be a function", cls);
      cb_rcall *r = (cb_rcall *)R_alloc(1, sizeof(cb_rcall));
      rcall_setup(r, fn, d, cb_elt_reals(par, cls, "offset", d),
                  cb_elt_reals(par, cls, "range", d));
      SEXP sec = cb_elt(par, cls, "secant");
      if (!(TYPEOF(sec) == LGLSXP && XLENGTH(sec) == 1 &&
            LOGICAL(sec)[0] != NA_LOGICAL))
        Rf_error("element `secant` of the %s object must be TRUE or FALSE",
                 cls);
      r->allow_secant = LOGICAL(sec)[0];
      /* a cost of the typed point is flat in the discrete columns of the
       * objective GP's inputs (rcall.h); a->f is set by unpack_acq */
      if (a->f->tf.discrete) r->tf = &a->f->tf;
      a->rcost = r;
      break;
    }
    default:
      Rf_error("unknown cost kind %d", a->cost_kind);
  }
}

/* R entry points --------------------------------------------------------- */

/* A costbo_acq object built by the R function acq_pack(): the closed form,
 * the GPs (gp_pack()) with their scalings to user units, the cost and the
 * type's settings, all by name. */
void unpack_acq(SEXP acq, cb_acq *a, cb_gp *f, cb_gp *lc, int extra) {
  const char *cls = "costbo_acq";
  a->type = cb_elt_int(acq, cls, "type");
  gp_unpack(f, cb_elt_list(acq, cls, "model"), extra);
  a->f = f;
  a->f_shift = cb_elt_real(acq, cls, "f_shift");
  a->f_scale = cb_elt_real(acq, cls, "f_scale");
  a->cost_kind = cb_elt_int(acq, cls, "cost_kind");
  /* NULL unless the cost is a GP */
  SEXP cm = cb_elt(acq, cls, "cost_model");
  a->lc = NULL;
  if (a->cost_kind == CB_COST_GP) {
    gp_unpack(lc, cb_elt_list(acq, cls, "cost_model"), extra);
    a->lc = lc;
  } else if (!Rf_isNull(cm)) {
    Rf_error("element `cost_model` of the %s object must be NULL", cls);
  }
  a->c_shift = cb_elt_real(acq, cls, "c_shift");
  a->c_scale = cb_elt_real(acq, cls, "c_scale");
  a->xrange = cb_elt_reals(acq, cls, "xrange", -1);
  unpack_cost_par(cb_elt_list(acq, cls, "cost_par"), a, f->d,
                  f->nfin > 0 ? f->nfin : -1);

  a->grad_unit = 0;
  a->best = cb_elt_real(acq, cls, "best");
  a->remaining = cb_elt_real(acq, cls, "remaining");
  a->nu = cb_elt_real(acq, cls, "nu");
  a->lambda = cb_elt_real(acq, cls, "lambda");
  a->beta = cb_elt_real(acq, cls, "beta");
  int cap = f->cap;
  if (a->lc && a->lc->cap > cap) cap = a->lc->cap;
  acq_setup(a, cap);
}

SEXP C_acq_evaluate(SEXP acq, SEXP X, SEXP grad) {
  cb_acq a;
  cb_gp f, lc;
  unpack_acq(acq, &a, &f, &lc, 0);
  if (Rf_ncols(X) != f.d)
    Rf_error("internal error: points with %d columns for a GP on %d",
             Rf_ncols(X), f.d);
  return max_eval_rows(acq_at, &a, X, Rf_asLogical(grad));
}

/* The maximum over [lower, upper] of the unit cube: max_box from n_raw
 * scrambled Sobol points and their selection uniforms, drawn here from R's
 * RNG (max_box_sobol()). */
SEXP C_acq_maximize(SEXP acq, SEXP lower, SEXP upper, SEXP n_raw,
                    SEXP control) {
  const int d = Rf_length(lower), nr = Rf_asInteger(n_raw);
  cb_acq a;
  cb_gp f, lc;
  unpack_acq(acq, &a, &f, &lc, 0);
  if (d != f.d || Rf_length(upper) != d)
    Rf_error("internal error: a box of dimension %d for a GP on %d", d, f.d);
  if (nr == NA_INTEGER || nr < 1)
    Rf_error("internal error: %d raw points reached C", nr);
  /* optimize on the unit cube of the GPs; gradients there */
  a.grad_unit = 1;
  cb_max_control mc0;
  unpack_max_control(control, &mc0);
  const cb_max_control mc = acq_max_control(&a, &mc0);
  double *x = (double *)R_alloc((size_t)d, sizeof(double)), rb;
  GetRNGstate();
  double v = max_box_sobol(acq_at, &a, d, REAL(lower), REAL(upper), nr, &mc,
                           x, &rb);
  PutRNGstate();
  return max_box_result(x, d, v, rb);
}

SEXP C_acq_argmax(SEXP acq, SEXP cand) {
  const int m = Rf_nrows(cand), d = Rf_ncols(cand);
  int np = 0;
  cb_acq a;
  cb_gp f, lc;
  unpack_acq(acq, &a, &f, &lc, 0);
  if (d != f.d)
    Rf_error("internal error: points with %d columns for a GP on %d", d, f.d);
  const char *nms[] = {"index", "values", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, m));
  int ib = max_finite(acq_at, &a, d, m, REAL(cand), REAL(VECTOR_ELT(out, 1)));
  SET_VECTOR_ELT(out, 0, Rf_ScalarInteger(ib + 1));
  UNPROTECT(np);
  return out;
}


SEXP C_acq_closed_form(SEXP type, SEXP m, SEXP s, SEXP best, SEXP cost, SEXP mc,
                       SEXP sc, SEXP remaining, SEXP nu, SEXP lambda, SEXP beta,
                       SEXP known_cost, SEXP grad) {
  const int n = Rf_length(m), code = Rf_asInteger(type);
  const int kc = Rf_asLogical(known_cost), g = Rf_asLogical(grad);
  const double *pm = REAL(m), *ps = REAL(s), *pb = REAL(best), *pc = REAL(cost),
               *pmc = REAL(mc), *psc = REAL(sc), *pr = REAL(remaining),
               *pnu = REAL(nu), *pl = REAL(lambda), *pbeta = REAL(beta);
  int np = 0;
  const char *nms[] = {"value",         "d_mean", "d_sd", "d_log_cost_mean",
                       "d_log_cost_sd", "d_cost", "iter", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, n));
  double *val = REAL(VECTOR_ELT(out, 0)), *dd[5] = {NULL};
  if (g) {
    for (int j = 0; j < 5; j++) {
      SET_VECTOR_ELT(out, j + 1, Rf_allocVector(REALSXP, n));
      dd[j] = REAL(VECTOR_ELT(out, j + 1));
    }
  }
  int *it = NULL;
  if (code == CB_ACQ_PBGI) {
    SET_VECTOR_ELT(out, 6, Rf_allocVector(INTSXP, n));
    it = INTEGER(VECTOR_ELT(out, 6));
  }
  acq_grad d, *pd = g ? &d : NULL;
  for (int i = 0; i < n; i++) {
    if ((i & 1023) == 1023) R_CheckUserInterrupt();
    val[i] = acq_value(code, pm[i], ps[i], pb[i], pr[i], pnu[i], pl[i],
                       pbeta[i], pmc[i], psc[i], kc, pc[i], pd,
                       it ? it + i : NULL);
    if (g) {
      dd[0][i] = d.m;
      dd[1][i] = d.s;
      dd[2][i] = d.mc;
      dd[3][i] = d.sc;
      dd[4][i] = d.c;
    }
  }
  UNPROTECT(np);
  return out;
}

SEXP C_acq_h_inv(SEXP y) {
  const int n = Rf_length(y);
  const double *py = REAL(y);
  int np = 0;
  const char *nms[] = {"t", "iter", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, n));
  SET_VECTOR_ELT(out, 1, Rf_allocVector(INTSXP, n));
  double *t = REAL(VECTOR_ELT(out, 0));
  int *it = INTEGER(VECTOR_ELT(out, 1));
  for (int i = 0; i < n; i++) t[i] = acq_h_inv_log(py[i], it + i);
  UNPROTECT(np);
  return out;
}

SEXP C_acq_log_h(SEXP u) {
  const int n = Rf_length(u);
  const double *pu = REAL(u);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
  double *po = REAL(out);
  for (int i = 0; i < n; i++) po[i] = acq_log_h(pu[i]);
  UNPROTECT(1);
  return out;
}
