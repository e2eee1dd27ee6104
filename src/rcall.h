/* rcall.h -- the one module of the C core that calls back into R: a known
 * cost written in R (CB_COST_R of acq.h), evaluated wherever the C core
 * needs a known cost, as stats' optim.c evaluates `fn` (fminfn).
 *
 * What is called.  An R function of one point: either the user's own
 * cost function, called with x = o + u r (offset o = lower, range r =
 * upper - lower of the GP's inputs, given by R; C computes x, so that no
 * R wrapper runs per call), or an R closure of the point u of the GP's
 * unit cube (a typed point's decoding, the matrix functions of
 * acq_evaluate()/acq_maximize()).  R marks which: attribute
 * "costbo_units" = "x" on the function (problem_cost_closure(),
 * new_unit_cost() in R).  It returns one positive finite number (double
 * or integer, attributes allowed), optionally with attribute "gradient" =
 * d cost / d x (a function of x; times r gives d cost / d u) or d cost /
 * d u (a closure of u), d finite numbers.  Every call is fn(x) with a
 * fresh REAL vector (R_forceAndCall on a two-cell call, as fminfn), so
 * the function may keep or modify its argument; it is evaluated in
 * R_GlobalEnv (only the call's frame matters: fn is a closure object, not
 * a name).  The function must not draw random numbers:
 * tree.c draws between GetRNGstate() and PutRNGstate() while it calls
 * costs, and a draw in the closure would reseed that stream from
 * .Random.seed (runs stay reproducible, but no longer match the same cost
 * given as a cost constructor).
 * Repeated points.  The maximizers ask for the cost at the same point
 * again (a raw point's value, then value and gradient as an L-BFGS-B
 * start; the tree's nodes; 10-20% of the calls of a B-MS-EI proposal):
 * the points asked are kept in a direct-mapped cache of RCALL_CACHE slots
 * (hashed on u's bytes, a new point replacing the slot's old one) with
 * their costs and gradients (the "gradient" attribute is kept even when
 * not asked for; a bad one is then ignored, and is an error only when a
 * gradient is asked), and a point asked again is answered from it,
 * exactly.  The cache lives as long as the costbo_acq object's unpacking
 * (one .Call).
 * Gradients.  When the caller asks for one and the value has no
 * "gradient" attribute, it is taken by forward differences in u with the
 * step h_k = sqrt(eps) max(1, |x_k|) / r_k (eps the double precision
 * machine epsilon), where x_k = o_k + u_k r_k is the coordinate in the
 * GP's input units: the step that balances truncation (h f''/2) against
 * rounding (eps |f| / h), both about 1e-8 relative, and the default of
 * SciPy's L-BFGS-B ("2-point").  Where u_k + h_k > 1 the difference is
 * backwards, so the function is never called outside the unit cube.  A
 * gradient therefore costs d more calls without the attribute (central
 * differences would cost 2d for accuracy L-BFGS-B does not need), none
 * with it; at a point whose value is cached, d.
 * Secant gradients while a maximizer climbs.  In 6-D forward differences
 * make 7 calls of each of L-BFGS-B's ~25 evaluations per start, ~90% of
 * the calls of an EI-PU proposal (bench/rcost-calls.R), and the closure
 * calls, not the C core, are then most of the proposal's time.  So the
 * single-point acquisition maximizers (acq_max_control() of acq.h) run
 * each L-BFGS-B start in two phases, switched by rcall_grad_phase()
 * through the maximizer's hook (maximize.h).  In the climb (phase 0) the
 * gradient of a function without the attribute is differenced once, at
 * the first point asked; after that a point costs one call, and its
 * gradient is the last one, g_a at u_a, corrected along the step s = u -
 * u_a so that its slope along s is that of the quadratic through both
 * values with slope g_a.s at u_a:
 *   g = g_a + s 2 (c(u) - c(u_a) - g_a.s) / s.s,
 * exact for an affine cost (and along s for a quadratic one), the other
 * directions kept (a rank-one update, as Broyden's; Nocedal and Wright
 * 2006, Sec. 8.1).  Where the tangent at u_a misses c(u) by more than
 * RCALL_SECANT_TOL (1%) of the change g_a.s it predicts, the cost curves
 * too much for the other directions to be kept: the gradient at u is
 * differenced and becomes the anchor.  A step shorter than the
 * difference step in every coordinate keeps g_a and its anchor (its
 * difference is rounding).  The climb's gradients are kept out of the
 * cache.  Then (phase 1) the maximizer restarts L-BFGS-B from where the
 * climb ended with forward differences, as without the hook, so each
 * start still ends where the differenced gradient vanishes (or at a
 * face): the secant gradients only choose the path.  A function with the
 * attribute never gets a secant gradient, no polish runs, and its
 * proposals are those without the hook, bit for bit; typed inputs with
 * discrete columns keep differences (a step there is a jump).  R turns
 * the climb's secants off with options(costbo.secant_gradients = FALSE)
 * (element `secant` of the cost's parameters), for comparisons.
 * bench/rcost-secant.R, EI-PU proposals in 2, 3, 4 and 6-D: an affine
 * cost makes 0.33-0.94 times the calls of differences at every step
 * (0.33-0.52 in 6-D); sin, bilinear and quadratic costs 0.60-1.15 times;
 * the maxima agree to 2e-8.
 * Errors.  An error signalled inside the closure is not caught here: it
 * unwinds through the C frames to R, where call_c() (R/checks.R), whose
 * calling handler runs before the unwinding, sees the closure (class
 * "costbo_unit_cost") among the active frames and re-signals the error as
 * a costbo_error_cost naming `cost`, with the point and the original
 * condition as `parent`.  This is the one place where an R error crosses
 * C frames, and it is safe for the same reason R_CheckUserInterrupt() is
 * (STYLE 5, 6): every consumer of a known cost (acq.c, maximize.c,
 * tree.c, rollout.c) holds only R_alloc() scratch and the PROTECT stack,
 * both restored by R when it unwinds, no malloc/R_Calloc memory, files or
 * other state to release; an entry point between GetRNGstate() and
 * PutRNGstate() leaves .Random.seed as it was at entry, as an interrupt
 * does.  Catching each call with R_tryCatchError() would cost an R-level
 * tryCatch() per evaluation (about 6 us measured, more than the closure
 * itself), and the C caller could do nothing but raise the error again.
 * A value that is not one positive finite number, or a "gradient" that is
 * not d finite numbers, is detected here and signalled (rcall_fail():
 * R's stop() on a costbo_error_cost condition built here), naming `cost`,
 * the value and the point; never a crash and never a silent NaN.
 *
 * Interrupts.  R checks for interrupts while it evaluates the closure; an
 * interrupt unwinds like an error (the "interrupt" condition reaches the
 * loop's handler, which records an interrupted run).  The C loops keep
 * their own R_CheckUserInterrupt() strides.
 *
 * PROTECT discipline.  The closure is reachable from the costbo_acq
 * object (a .Call argument) and is not protected here; each call protects
 * its argument vector and call, and unprotects both (balanced) before
 * returning, so rcall_cost() never changes the protect stack of its
 * caller and can be called from any loop.
 *
 * The cost of a call.  Two small allocations (the vector, the call) and
 * one evaluation of the function: about 0.3 us plus the function's own
 * work (a closure of u adds its own).  bench/rcost.R measures the effect
 * per proposal.
 */
#ifndef COSTBO_RCALL_H
#define COSTBO_RCALL_H

#include "costbo.h"
#include "transform.h"

#define RCALL_CACHE 1024 /* slots of the cache of points (a power of 2) */
#define RCALL_FD_STEP 1.4901161193847656e-08 /* sqrt(DBL_EPSILON) */
#define RCALL_SECANT_TOL 0.01 /* a tangent's miss that ends a secant */

typedef struct cb_rcall_s {
  SEXP fn;              /* the function (not protected: see above) */
  int d;                /* length of u */
  int xunits;           /* 1: fn takes x = o + u r, its gradient d / d x */
  const double *offset; /* o: x = o + u r in the GP's input units (d) */
  const double *range;  /* r (d) */
  double *u;            /* scratch: the point of a forward difference */
  const cb_transform *tf; /* typed inputs (NULL: none): see rcall_setup */
  /* the cache of points asked (direct-mapped, RCALL_CACHE slots): u,
   * cost, gradient; cache_has_g -1 empty, 0 no gradient, 1 gradient */
  double *cache_u, *cache_c, *cache_g;
  int *cache_has_g;
  /* secant gradients (see above): the climb's flag, whether one was given
   * since the climb began, and the anchor u_a, c(u_a), g_a */
  int allow_secant; /* 0: differences in the climb too (rcall_setup: 1) */
  int secant, secant_used, anchored;
  double *anchor_u, anchor_c, *anchor_g;
} cb_rcall;

/* Set up r for the function fn of points of length d; offset and range as
 * above (they must outlive r; R_alloc scratch); fn's attribute
 * "costbo_units" says whether it takes x or u. */
void rcall_setup(cb_rcall *r, SEXP fn, int d, const double *offset,
                 const double *range);

/* The cost at the unit-cube point u (length d); grad (may be NULL)
 * receives d cost / d u (the "gradient" attribute, else forward
 * differences).  Signals a costbo_error_cost for a value that is not one
 * positive finite number.  Updates r's cache. */
double rcall_cost(cb_rcall *r, const double *u, double *grad);

/* The maximizer's gradient hook (cb_max_control.grad_phase of maximize.h)
 * with hook = a cb_rcall: phase 0 starts a climb (secant gradients, no
 * anchor yet) and returns 0; phase 1 ends it (forward differences again)
 * and returns 1 when a secant gradient was given since, so that the
 * maximizer polishes. */
int rcall_grad_phase(void *hook, int phase);

#endif
