/* rollout.h -- the pure-C face of the rollout policies.
 *
 * Two lookahead values of a first decision x, both computed by fantasy
 * updates of the objective's GP (gp_fantasy_add / gp_fantasy_drop):
 *
 * CMDP rollout (Lee et al. 2021, paper 001).  The value of x is the expected
 * total improvement E[max(best, y_1, ..., y_L) - best] of the trajectory
 * "x, then h - 2 steps of argmax EI per unit cost, then one step of argmax
 * EI" (base CB_BASE_EIPU_THEN_EI; CB_BASE_EI uses EI at every step), where
 * a trajectory stops before the first step whose cumulative cost would
 * exceed the remaining budget (only feasible prefixes are counted; an x
 * whose own cost exceeds it has value 0).  Outcomes y_t are fantasy
 * outcomes by the rule of gp.h (latent: values of f; else observations),
 * y_t = m_t + s_t z_t, with z given per sample (the same z for every x:
 * common random numbers).  The last stage's improvement is integrated in
 * closed form, acq_ei() at the last point given the running best (from log
 * EI, accurate in the far tail), so with latent outcomes h = 1 is EI of f
 * exactly (computed once, not per sample).  Costs are acq_cost(): the known
 * cost, or the posterior mean of a lognormal cost.  Inner maximizations run
 * max_box() on fixed raw points, so the value is a deterministic function
 * of x.
 *
 * Rolling-horizon rollout (Yue and Kontar 2020, paper 004).  The value of x
 * with horizon h is KG(x) + sum_{j=1}^{h-1} alpha^j E[KG_j(x_j)], where x_j
 * is the greedy-KG choice among the candidates in the j-th fantasized state;
 * the expectations over the fantasized observations are tensor
 * Gauss-Hermite rules (n_nodes nodes for the first transition, n_deep for
 * later ones; both 10 by default, as in the paper).  The knowledge gradient
 * KG(x) = E[max_a mu'(a)] - max_a mu(a) is taken over the finite set A =
 * (conditioned inputs, candidates, x), by Gauss-Hermite quadrature over the
 * fantasy outcome at x (the rule of gp.h: latent or an observation, as for
 * the CMDP rollout); the end-stage decision argmax_A mu of the last state
 * is what the last KG term values.  h = 1 is greedy KG.
 *
 * Every state of the lookahead tree is conditioned on observations at x
 * and at candidates only, so A is the same set in every state.  A state is
 * therefore held as the posterior means of the points (A, candidates at
 * every source) and their covariances with the decisions (candidates at
 * every source, x), and a fantasy observation is the rank-one update of
 * these that gp_fantasy_add makes to the GP (the fantasy convention of
 * gp.h): O(rows x decisions) per state instead of refactoring the GP.
 *
 * All inputs are on the unit cube of the GPs; values are in the user's
 * units of the objective unless stated otherwise.
 */
#ifndef COSTBO_ROLLOUT_MODULE_H
#define COSTBO_ROLLOUT_MODULE_H

#include "acq.h"
#include "gp.h"
#include "maximize.h"

enum { CB_BASE_EIPU_THEN_EI = 0, CB_BASE_EI = 1 };

/* CMDP rollout.  acq: the objective GP (capacity >= n + h) and the cost
 * model; its type, best and nu are changed during a rollout and restored. */
typedef struct {
  cb_acq *acq;
  int d, h, base;
  int latent; /* fantasy outcomes are latent values of f (else observations) */
  int nsamp;
  const double *z; /* nsamp x h standard normal draws (column-major) */
  double remaining;
  int n_raw;                /* inner maximizations: raw points, uniforms */
  const double *raw, *unif; /* n_raw x d unit-cube points; n_raw uniforms */
  cb_max_control inner;
  double *lower, *upper, *path, *xh, *samples; /* scratch */
} cb_cmdp;

/* Allocate the scratch (R_alloc) after the fields above are set. */
void rollout_cmdp_setup(cb_cmdp *r);

/* Rollout value at x; samples (may be NULL) receives the nsamp per-sample
 * values. */
double rollout_cmdp_value(cb_cmdp *r, const double *x, double *samples);

/* Derivative-free compass search for a larger value from x (value v):
 * poll x +- step e_k in coordinate order, move to the first improvement,
 * halve the step (from 0.05) after a failed poll; at most maxit polls or
 * until the step is below 1e-3.  Overwrites x, returns its value. */
double rollout_cmdp_search(cb_cmdp *r, double *x, double v, int maxit);

/* The paper engine of the CMDP rollout (the default optimizer of
 * policy_cmdp_rollout(); the functions above are the "compass" optimizer,
 * which policy_rollout() keeps).  The same value, estimated and maximized
 * as paper 001 does.
 *
 * Estimator.  With the first ns rows of z,
 *   V(x) = EI_0(x) + (1 / ns) sum_i [v_i - (y_{0,i} - best)^+],
 * v_i the trajectory's improvement as above: the first stage's realized
 * improvement is replaced by its mean EI_0(x) = E[(y_0 - best)^+], the
 * closed-form EI of the fantasy outcome at x (of f when latent, of an
 * observation otherwise), a control variate with coefficient 1, so the
 * estimator stays unbiased (the residual is the improvement beyond the
 * first outcome, max(b_1, y_1, ...) - b_1 with b_1 = max(best, y_0)).
 * h = 1 is EI_0 exactly.  The fantasy at x is shared by the samples (its
 * row of the Cholesky factor does not depend on the outcome; only beta's
 * last entry does).
 *
 * Inner maximizations (the base policy's argmax at stages 1..h-1, paper
 * 001 Sec. 6): L-BFGS-B (R's lbfgsb(), at most inner.maxit iterations,
 * tolerance inner.factr) from the inner.n_starts best of the n_raw raw
 * points, of log EI-PU or log EI (the argmaxes of EI-PU and EI; the logs
 * are well scaled where EI is tiny).  The raw points are scored from their
 * posterior under the data (W = L0^-1 k(X0, raw), the moments and costs,
 * computed once) and the rank-one parts of the trajectory's fantasies (F,
 * a column per fantasy), and log EI is computed exactly only where a bound
 * says a raw point can be among the best.
 *
 * Gradient.  Holding the trajectory's later points fixed, v_i depends on
 * x through the data-posterior mean and variance at x and its covariances
 * with the later points; d v_i / d(those) is computed by forward
 * differentiation of the trajectory replayed on the L x L joint posterior
 * of its points, and chained with their x-gradients.  It is exact for h =
 * 2 (the last point maximizes the last stage's EI: envelope theorem) but
 * where the inner argmax jumps; for h > 2 it omits the motion of the
 * intermediate argmaxes. */
typedef struct {
  cb_cmdp r; /* the problem: acq, d, h, base, latent, nsamp, z, remaining,
              * n_raw, raw, inner (n_starts, maxit, factr, lmm) */
  int ns;    /* samples of an estimate: the first ns rows of z */
  int n0;    /* observations of the data */
  int cap;   /* the GP's leading dimension */
  double *W, *m0r, *v0r;  /* the data's n0 x n_raw W, raw moments */
  double *cr, *mcr, *scr; /* raw costs: known, or log-cost mean and sd */
  double *kap;            /* log cost factors of EI-PU at the raw points */
  int known;              /* known cost (else a GP on log cost) */
  int need_pu;            /* the base policy's first choice is EI-PU's */
  int pu;                 /* the inner objective is log EI-PU (else EI) */
  double *F;              /* n_raw x h fantasy parts */
  int nF;                 /* valid columns of F */
  double *rv;             /* raw values; the largest lower bounds */
  int *sel, *exact;       /* the starts; exact raw values */
  double *lo, *hi, *xs, *lx, *lg, *bx; /* L-BFGS-B's box and scratch */
  int *nbd;
  double mi, vi, *gmi, *gvi, *kx, *dk, *wx; /* per x */
  double *path, *kc, *wp, *M, *S, *Lc, *dLc, *e, *de, *dmu, *tmp, *dres;
  double *acc, *gdir; /* per trajectory: the replay and the gradient */
} cb_cmdp_paper;

/* Allocate (R_alloc) and precompute after r's fields are set (the acq's
 * GP holding the data, with capacity for h fantasies). */
void rollout_cmdp_paper_setup(cb_cmdp_paper *q);

/* V(x) with q->ns samples (user units); grad (may be NULL) receives its
 * gradient in the unit cube, samples (may be NULL) the ns terms
 * EI_0(x) + v_i - (y_{0,i} - best)^+ whose mean is V(x).  0 (and a zero
 * gradient) when x's cost exceeds the remaining budget. */
double rollout_cmdp_paper_value(cb_cmdp_paper *q, const double *x,
                                double *grad, double *samples);

/* The base policy's first choice on the data (argmax of EI-PU when it is
 * the first stage's acquisition, else of EI) by the inner maximization;
 * returns its log acquisition. */
double rollout_cmdp_paper_first(cb_cmdp_paper *q, double *x);

/* Knowledge gradient and rolling-horizon rollout on the GP f (its n
 * observations; the GP is never modified), with m candidate points (m x d),
 * Gauss-Hermite rules of n_nodes and n_deep nodes (probabilists', weights
 * summing to 1). */
typedef struct {
  cb_gp *f;
  const cb_acq *acq; /* one source: the cost model (acq_cost); else NULL */
  double f_scale;    /* user units per internal unit */
  int d, m;
  const double *cand;
  int n_nodes, n_deep;
  const double *gh_x, *gh_w, *gd_x, *gd_w;
  double ep_hi, ep_lo; /* sum of w |z| over the positive / negative nodes */
  double alpha;        /* discount */
  int max_h;           /* levels of states kept (largest horizon) */
  int latent;          /* fantasy outcomes are latent values (gp.h) */
  int miso;            /* f is CB_MISO (inputs carry the source) */
  int nsrc;            /* sources of the greedy choices (1 if !miso) */
  const double *cand_cost; /* m x nsrc costs, or NULL: rewards are KG */
  const double *src_cost;  /* nsrc costs when they do not depend on x */
  /* the states: rows P (nr x d; the first nb form A), decision columns
   * (candidate j at source s is j + s m, x is nd - 1), V = L^-1 k(X, P),
   * per level the means mu (nr) and covariances C (nr x nd) */
  int n, nb, nr, nd;
  int *col, *order, *arg;
  double *P, *V, *mu, *C;
  double *work, *sig, *bound, *kx, *dk, *u, *xt, *xs, *xb; /* scratch */
} cb_kg;

/* Set up the states after the fields above are set: allocate (R_alloc)
 * and compute the rows and covariances that do not involve x. */
void rollout_kg_setup(cb_kg *k);

/* KG at x (internal scale) over A = (inputs, candidates, x); with miso,
 * x = (x, s) and the gain is on source 0.  grad (may be NULL; length d)
 * receives its gradient in x (one source only; zero with miso). */
double rollout_kg_at(cb_kg *k, const double *x, double *grad);

/* Rolling-horizon value of x with horizon h >= 1 (internal scale), whose
 * first reward is KG(x) / cost (cost = 1: KG). */
double rollout_rh_value(cb_kg *k, const double *x, int h, double cost);

/* phi[0] = KG(x) and phi[i] = KG of the greedy choice in the i-th state of
 * the path that starts with x and whose fantasized observations are the
 * posterior means, i = 1..nphi - 1 (internal scale; the choices maximize
 * the reward, phi is their KG, not divided by a cost). */
void rollout_rh_profits(cb_kg *k, const double *x, int nphi, double *phi);

/* The GP error bound of paper 004 Sec. 4.1 (Corollary 1) at the decision
 * x, on the internal scale: K s2 P sqrt(log(e / P)) + u with s2 = k(x, x)
 * the prior variance at x and P = sqrt(var_n(x) / s2) its power function;
 * *power (may be NULL) receives P. */
double rollout_error_bound(const cb_kg *k, const double *x, double K,
                           double u, double *power);

/* Rolling Horizon Theorem (paper 004, Thm. 3): the smallest j in
 * 2..min(max_h, n_left) with sum_{i=2}^j alpha^(i-2) phi[i-1] >
 * ebar (1 - alpha^(n_left-1)) / (1 - alpha) (n_left - 1 when alpha = 1),
 * else 1.  n_left counts the remaining evaluations including the current
 * one (N - k = n_left - 1). */
int rollout_horizon(const double *phi, int max_h, double ebar, double alpha,
                    int n_left);

#endif
