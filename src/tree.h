/* tree.h -- the pure-C face of the B-MS-EI scenario tree (paper 000, Sec. 4).
 *
 * The N-step budgeted value of a root decision x on a sample-average tree:
 *
 *   Q_N(x | D) = Q1(x | D) + 1/m_1 sum_j [ Q1(x_j | D_j)
 *                + 1/m_2 sum_k [ Q1(x_jk | D_jk) + ... ] ]
 *
 * Every node carries its own decision variable.  Stage k = 0, ..., N - 1 of
 * the tree holds P_k = m_1 ... m_k nodes (P_0 = 1, the root), stored stage
 * by stage; the children of node j of stage k are nodes j m_{k+1} + c,
 * c = 0, ..., m_{k+1} - 1, of stage k + 1.  The decision variables are a
 * d x n_nodes column-major matrix (column = node; unit-cube inputs of the
 * GPs, or 0-based candidate indices for a finite domain).
 *
 * The fantasy outcome on the edge from a node at x to its child c (stage
 * k + 1) is, on the GPs' internal scales,
 *   y = mu_f(x) + sqrt(var_f(x) + noise_f) zf[k][c]       (objective),
 *   l = mu_lc(x) + sqrt(var_lc(x) + noise_lc) zc[k][c]    (log cost),
 * with the base samples shared by all nodes of a stage (reparametrization
 * with fixed base samples, a sample-average approximation), and the child's
 * data are D plus (x, y) (and (x, l)), conditioned by gp_fantasy_add without
 * refitting (tree_argmax_finite) or equivalently in closed form
 * (tree_value, below).  A known cost makes the fantasy cost the known c(x).
 * Along a path the best value is max(best, fantasy y) (in tree_value
 * smoothed where |y - best| < 1e-5 f_scale, see smooth_max in tree.c:
 * the tree value has ridges where a fantasy outcome ties the best value, on
 * which L-BFGS-B with exact gradients stops) and the fantasized costs
 * accumulate: the node's Q1 uses remaining = budget - (cost spent on the
 * path), and a node whose path has spent the whole budget contributes 0 with
 * its whole subtree.  A fantasy at a point whose predictive variance is 0
 * (a finite domain without noise, at a candidate already known) is the
 * posterior mean and leaves the GP unchanged.
 *
 * Closed form along a path.  tree_value() never conditions the GPs: the
 * posterior given the fantasies on the path to a node is written through
 * the posterior given the data alone (mean mu, covariance C).  For the path
 * x_0 (the root), ..., x_k, the fantasies at x_0, ..., x_{k-1} form a
 * lower-triangular factor whose row i is r_i = R_i^{-1} C(x_<i, x_i)
 * (R_i: the rows before i) with pivot D_i = sqrt(C(x_i, x_i) - |r_i|^2 +
 * noise + jitter): exactly the rows gp_fantasy_add appends to the Cholesky
 * factor.  The posterior at x_k given the path's fantasies is
 *   m_k = mu(x_k) + r_k . e,   var_k = C(x_k, x_k) - |r_k|^2,
 * with the whitened innovations e_i = (y_i - m_i) / D_i
 * = z_i sqrt(var_i + noise) / D_i (= z_i without jitter); fantasies that
 * did not condition the GP are left out of the factor.  With
 * w_i = K^{-1} k(X, x_i), C(x_i, x_k) = k(x_i, x_k) - w_i . k(X, x_k) costs
 * O(n) per pair, so a node costs two triangular solves per GP.
 *
 * Optimization.  tree_value() is the one-shot objective over all decision
 * variables jointly (paper 000, Sec. 4.2) with its exact gradient, by
 * reverse accumulation through the closed form above: a node's Q1 depends
 * on its own decision and, through the fantasy outcomes, the fantasy costs
 * (remaining budget), the best value and the conditioned posterior, on its
 * ancestors' decisions (the pathwise derivative with fixed base samples).
 * The adjoints of a node's quantities are complete once its subtree has
 * been visited, so one depth-first pass computes the value and the
 * gradient.  C_tree_maximize (tree.c) starts L-BFGS-B from greedy trees
 * (each node at the maximizer of its own Q1 in its fantasy state, below
 * distinct root maximizers of Q1), the warm start and the best of the raw
 * points.  On a finite domain tree_argmax_finite() instead maximizes
 * every node exactly by enumeration (cost K^N m_1 ... m_{N-1} node
 * evaluations for K candidates).
 */
#ifndef COSTBO_TREE_MODULE_H
#define COSTBO_TREE_MODULE_H

#include "acq.h"
#include "maximize.h"

typedef struct {
  cb_acq *acq;      /* type CB_ACQ_Q1, grad_unit = 1; its GPs f and lc are
                       conditioned in place and restored on return */
  cb_gp *f, *lc;    /* the same GPs, writable (lc NULL for a known cost);
                       capacity at least n + steps - 1 */
  int steps;        /* N >= 1 */
  const int *m;     /* fantasies per stage, m[0..N-2] (m_1, ..., m_{N-1}) */
  const double *zf; /* base samples of f: stage k uses zf[zoff[k] + c] */
  const double *zc; /* base samples of the log cost, same layout */
  double budget;    /* budget of the tree (remaining at the root) */
  double best;      /* best value observed, user units */
  /* set by tree_setup() */
  int d, n_nodes;
  int *off;         /* first node of stage k */
  int *zoff;        /* first base sample of stage k */
  struct tree_gp_s *pf, *pc; /* the GPs along the current path (pc NULL for
                                a known cost) */
  const double **px; /* decision of stage k on the current path */
  double **pg;      /* its gradient */
  double *dbest;    /* N x N: dbest[k + i N] = d bestk[k] / d (fantasy
                       outcome of stage i), i < k */
  double *bestk, *spent, *cost; /* path's best value and cost spent at stage
                                   k, cost of the edge out of stage k */
  double *work, *gtmp;
  unsigned long visits;
} cb_tree;

/* Number of nodes of a tree with `steps` stages and fantasies m. */
int tree_n_nodes(int steps, const int *m);

/* Fill the derived fields and scratch (R_alloc) of a tree whose inputs
 * above are set. */
void tree_setup(cb_tree *t);

/* The tree value at the decision variables X (d x n_nodes, length D) and,
 * when grad != NULL, its gradient (length D); ctx is a cb_tree *.  The
 * signature is cb_objfn's, so max_box maximizes it.  Checks for user
 * interrupts every 64 node visits. */
double tree_value(int D, const double *X, double *grad, void *ctx);

/* Value of every root candidate of a finite domain (K = f->nfin values in
 * vals) with every later decision maximized exactly; returns the 0-based
 * index of the first maximal candidate. */
int tree_argmax_finite(cb_tree *t, double *vals);

/* The fantasy outcomes (user units) and costs on the edges from the root,
 * m_1 of each, at the decisions X; requires steps >= 2. */
void tree_root_fantasies(cb_tree *t, const double *X, double *y, double *cost);

/* Budget scheduling by rollout of a base policy (paper 000, Sec. 4.3):
 * `steps` sequential evaluations of the closed form of `base` (EI, EI-PU or
 * EI-PU-CC; when budget_start > 0, cost cooling with nu = (remaining -
 * fantasy cost so far) / budget_start, clamped to [0, 1]), each maximized by max_box_sobol over
 * [lower, upper] (or exactly over the candidates of a finite domain), each
 * followed by a fantasy outcome drawn with the base samples zf[i], zc[i] as
 * on the tree's edges.  f and lc are base's GPs, writable, with capacity
 * n + steps.  Writes the fantasy costs to costs (length steps) and returns
 * their sum.  Draws from R's RNG through max_box_sobol: the caller brackets
 * the call by GetRNGstate() / PutRNGstate(). */
double tree_schedule(cb_acq *base, cb_gp *f, cb_gp *lc, int steps,
                     const double *zf, const double *zc, double budget_start,
                     const double *lower, const double *upper, int n_raw,
                     const cb_max_control *ctl, double *costs);

#endif
