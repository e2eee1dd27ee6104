/* acq.h -- the pure-C face of the closed-form acquisition functions.
 *
 * Everything is a maximization.  At one input x the caller supplies the
 * posterior moments of the objective, m = E[f(x)] and s = sd[f(x)] >= 0, the
 * best value observed so far `best`, and for an unknown cost the posterior
 * moments of the log cost, mc = E[log c(x)] and sc = sd[log c(x)] >= 0 (an
 * independent GP on log cost, so c(x) is lognormal).  A known cost is passed
 * as cost = c(x) > 0.
 *
 * With u = (m - best) / s and h(u) = u Phi(u) + phi(u):
 *
 *   EI          = s h(u)                       (= max(m - best, 0) if s = 0)
 *   UCB         = m + beta s
 *   Q1          = EI * Phi((log R - mc) / sc)  (unknown cost, R = remaining
 *                 budget; 0 when R <= 0)       paper 000, Prop. 1
 *               = EI * 1{cost <= R}            (known cost)
 *   EI-PU-CC    = EI * exp(-nu mc + nu^2 sc^2 / 2)  (unknown cost, = E[(f -
 *                 best)^+ / c^nu]; nu = 1 is EI-PU)  paper 000, Prop. 2
 *               = EI / cost^nu                 (known cost)
 *   PBGI        = g solving s h((m - g) / s) = lambda cost  (paper 002, eq. 6)
 *   PBGI-U      = the same with cost = exp(mc + sc^2 / 2)   (paper 002, eq. 20)
 *
 * All quantities are computed from log EI, which is accurate to a few ulps
 * of log EI for every finite input, i.e. EI to ~1e-13 relative even at
 * u = -40 (no underflow to 0 in the tail), so the products above keep that
 * accuracy wherever the true value is a normal double.  The
 * log_* variants return the natural log of the acquisition (-Inf only where
 * the acquisition is exactly 0: s = 0 and m <= best, a known cost above the
 * remaining budget, R <= 0, or sc = 0 and mc > log R; or where the log
 * itself is beyond the double range, |u| > ~1e154).
 *
 * Partial derivatives.  Every function takes an acq_grad *d (NULL: no
 * derivatives) and fills every field: the partial derivative of its return
 * value with respect to m, s, mc, sc and a known cost c, holding the other
 * arguments fixed; fields that do not apply are 0.  They are derivatives in
 * the posterior moments, so that a caller chains them with the gradients of
 * m, s, mc, sc (and of a known c) in x.  At the non-differentiable points
 * (s = 0, sc = 0, cost = R) the one-sided limit from s > 0, sc > 0 is
 * returned, and where a log value is -Inf its derivatives are 0.
 *
 * No function checks its arguments (the R layer validates): s, sc >= 0,
 * cost > 0, lambda > 0, nu in [0, 1], beta >= 0, all finite.
 */
#ifndef COSTBO_ACQ_MODULE_H
#define COSTBO_ACQ_MODULE_H

typedef struct {
  double m;  /* d / d m   (posterior mean of f) */
  double s;  /* d / d s   (posterior sd of f) */
  double mc; /* d / d mc  (posterior mean of log cost) */
  double sc; /* d / d sc  (posterior sd of log cost) */
  double c;  /* d / d c   (known cost) */
} acq_grad;

/* log h(u) = log(u Phi(u) + phi(u)), accurate to a few ulps for every
 * finite u; -Inf only for u < -1.3e154, where the true value is below
 * -DBL_MAX. */
double acq_log_h(double u);

/* Expected improvement E[(f - best)^+] and its log. */
double acq_ei(double m, double s, double best, acq_grad *d);
double acq_log_ei(double m, double s, double best, acq_grad *d);

/* Upper confidence bound m + beta s. */
double acq_ucb(double m, double s, double beta, acq_grad *d);

/* Budgeted one-step EI Q1 and its log.  known_cost != 0 selects the known
 * cost `cost` (then mc, sc are ignored and d->c = 0: the indicator is flat
 * almost everywhere); otherwise mc, sc are used and cost is ignored. */
double acq_q1(double m, double s, double best, double mc, double sc,
              double remaining, int known_cost, double cost, acq_grad *d);
double acq_log_q1(double m, double s, double best, double mc, double sc,
                  double remaining, int known_cost, double cost, acq_grad *d);

/* EI per unit cost with cost cooling exponent nu (nu = 1: EI-PU) and its
 * log.  known_cost as for acq_q1. */
double acq_ei_pu_cc(double m, double s, double best, double mc, double sc,
                    double nu, int known_cost, double cost, acq_grad *d);
double acq_log_ei_pu_cc(double m, double s, double best, double mc, double sc,
                        double nu, int known_cost, double cost, acq_grad *d);

/* Inverse of h in log space: the t with log h(t) = y, for any finite y.
 * Safeguarded Halley iteration on h (t >= 0) or log h (t < 0) from starts
 * within 1e-4 (fitted polynomials and asymptotes, see acq.c); *iter (may be
 * NULL) receives the number of evaluations of h: 0 for exp(y) >= 8 (then
 * t = exp(y)), else 1 or 2 over the double range.  Accurate to a few ulps
 * of max(|t|, 1); +Inf when exp(y) overflows. */
double acq_h_inv_log(double y, int *iter);

/* Pandora's Box Gittins index for a known cost: the g with
 * EI(m, s; g) = lambda cost.  d->m = 1, d->s = phi(t) / Phi(t),
 * d->c = -lambda / Phi(t), with t = (m - g) / s (paper 002, Prop. 3);
 * s = 0 gives g = m - lambda cost. *iter as for acq_h_inv_log. */
double acq_pbgi(double m, double s, double lambda, double cost, acq_grad *d,
                int *iter);

/* PBGI-U: as acq_pbgi with cost = exp(mc + sc^2 / 2); then
 * d->mc = -lambda cost / Phi(t), d->sc = sc d->mc and d->c = 0. */
double acq_pbgi_u(double m, double s, double lambda, double mc, double sc,
                  acq_grad *d, int *iter);

/* ------------------------------------------------------------------------
 * Acquisitions at inputs, for fitted models.
 *
 * A cb_acq couples a closed form with a GP on the objective and a cost
 * model, and evaluates the acquisition (and its gradient) at an input x on
 * the unit cube of the GPs, chaining the partial derivatives above with the
 * gradients of the posterior moments in x (gp_predict_at).  Its signature
 * matches cb_objfn of maximize.h, so it is maximized by max_box and
 * max_finite, and the lookahead modules evaluate it on fantasy states by
 * pointing f (and the cost GP) at a conditioned cb_gp and calling
 * acq_refresh().
 * ------------------------------------------------------------------------ */
#include "gp.h"
#include "maximize.h"

enum {
  CB_ACQ_EI = 1,
  CB_ACQ_LOG_EI,
  CB_ACQ_UCB,
  CB_ACQ_Q1,
  CB_ACQ_LOG_Q1,
  CB_ACQ_EI_PU_CC,
  CB_ACQ_LOG_EI_PU_CC,
  CB_ACQ_PBGI
};

/* CB_COST_CONST: a known cost `value` everywhere; CB_COST_GP: a GP on log
 * cost; CB_COST_TABLE: known costs `values` of the candidates of a finite
 * domain; CB_COST_LINEAR: a + b * mean(u), u the unit-cube input;
 * CB_COST_COSINE: log c = a mean_i cos(2 pi b (x_i + c) / period) with x
 * in the user's units (x = offset + u * xrange, offset the box's lower
 * corner); CB_COST_RADIAL: a - b | ||x|| - radius |, x in the user's
 * units as for CB_COST_COSINE (radius 0: a - b ||x||); CB_COST_R: a known cost written in R, a closure of the
 * unit-cube point called back through rcall.h (only where the type uses
 * the cost).  The parameters cross by name (unpack_cost_par()). */
enum {
  CB_COST_CONST = 0,
  CB_COST_GP = 1,
  CB_COST_TABLE = 2,
  CB_COST_LINEAR = 3,
  CB_COST_COSINE = 4,
  CB_COST_RADIAL = 5,
  CB_COST_R = 6
};

struct cb_rcall_s; /* rcall.h: the closure of a CB_COST_R cost */

typedef struct cb_acq_s {
  int type;             /* CB_ACQ_* */
  const cb_gp *f;       /* objective GP (internal scale) */
  double f_shift;       /* objective in user units = f_shift + f_scale * f */
  double f_scale;
  int cost_kind;        /* CB_COST_* */
  const cb_gp *lc;      /* CB_COST_GP: GP on log cost (internal scale) */
  double c_shift;       /* log cost = c_shift + c_scale * lc */
  double c_scale;
  /* the parameters of a known cost (a costbo_cost_par object, read by
   * name): CB_COST_CONST `value`; CB_COST_TABLE `values` per candidate;
   * CB_COST_LINEAR a + b mean(u); CB_COST_COSINE exp(a mean(cos(2 pi b
   * (x + c) / period))); CB_COST_RADIAL a - b | ||x|| - c |, c its
   * `radius`, with x = offset + u xrange on the problem's scale */
  double cost_value, cost_a, cost_b, cost_c, cost_period;
  const double *cost_values, *cost_offset;
  struct cb_rcall_s *rcost; /* CB_COST_R (its cache changes) */
  const double *xrange; /* user units per unit of the cube (d) */
  int grad_unit;        /* gradients in unit-cube (1) or user (0) units */
  double best, remaining, nu, lambda, beta;
  double *alpha_f, *alpha_c, *work, *gm, *gv, *gmc, *gvc; /* scratch */
  double *u_f, *u_c;    /* the GPs' L' (gp_upper), cap x cap */
} cb_acq;

/* Allocate the scratch (R_alloc, for GPs of up to cap observations) and
 * compute the GP weights; call once after the fields above are set. */
void acq_setup(cb_acq *a, int cap);

/* Recompute the GP weights after f or lc changed (e.g. a fantasy update). */
void acq_refresh(cb_acq *a);

/* The acquisition at x (unit cube; for a finite domain, the 0-based
 * candidate index in x[0]); grad (may be NULL) receives its gradient in
 * unit-cube units when grad_unit is set, else in the user's units of x
 * (divided by xrange).  ctx is a cb_acq *. */
double acq_at(int d, const double *x, double *grad, void *ctx);

/* The cost of an evaluation at x (unit cube, or the candidate index of a
 * finite domain), in the user's units: the known cost, or for CB_COST_GP the
 * posterior mean exp(mc + sc^2 / 2) of the lognormal cost. */
double acq_cost(const cb_acq *a, int d, const double *x);

/* acq_cost() with, when grad != NULL, its gradient in unit-cube units for a
 * known cost (as acq_at() chains it; a cost written in R is asked for its
 * gradient as acq_at() asks it); for CB_COST_GP (whose cost is not a
 * function of x alone but of the cost GP's moments) and the constant and
 * tabled costs the gradient is 0. */
double acq_cost_grad(const cb_acq *a, int d, const double *x, double *grad);

/* The control ctl for maximizing acq_at on a: a copy, with the secant
 * gradient hook of rcall.h when a's cost is written in R (every
 * single-point maximization of an acquisition goes through it; the hook
 * changes nothing for a cost that is not, or whose gradient is given or
 * not used). */
cb_max_control acq_max_control(const cb_acq *a, const cb_max_control *ctl);

#endif
