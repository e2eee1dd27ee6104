/* rcall.h -- the one module of the C core that calls back into R: a known
 * cost written in R (CB_COST_R of acq.h), evaluated wherever the C core
 * needs a known cost, as stats' optim.c evaluates `fn` (fminfn).
 *
 * What is called.  An R closure of one point u of the GP's unit cube (a
 * double vector of length d; R builds it: problem_cost_closure() maps u
 * to the user's units or a typed point, acq_pack() wraps the matrix
 * functions of acq_evaluate()/acq_maximize()).  It returns one positive
 * finite number (double or integer, attributes allowed), optionally with
 * attribute "gradient" = d cost / d u, d finite numbers.  Every call is
 * fn(u) with a fresh REAL vector u (R_forceAndCall on a two-cell call, as
 * fminfn), so the closure may keep or modify its argument; it is
 * evaluated in R_GlobalEnv (only the call's frame matters: fn is a
 * closure object, not a name).  The closure must not draw random numbers:
 * tree.c draws between GetRNGstate() and PutRNGstate() while it calls
 * costs, and a draw in the closure would reseed that stream from
 * .Random.seed (runs stay reproducible, but no longer match the same cost
 * given as a cost constructor).
 *
 * Gradients.  When the caller asks for one and the value has no
 * "gradient" attribute, it is taken by central differences in u with the
 * step h_k = 1e-6 max(1, |x_k|) / r_k, where x_k = o_k + u_k r_k is the
 * coordinate in the GP's input units (offset o = lower, r = upper -
 * lower, given by R): the step of the former R path, 1e-6 max(1, |x|) in
 * the user's units.  Where u_k + h_k > 1 (u_k - h_k < 0) the difference
 * is one-sided backwards (forwards) with the value at u, so the closure
 * is never called outside the unit cube.  A gradient therefore costs 2d
 * more calls without the attribute, none with it.
 *
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
 * one closure evaluation: about 1 us plus the closure's own work; the
 * closure built by problem_cost_closure() adds one R function call and
 * two vector operations.  bench/rcost.R measures the effect per proposal.
 */
#ifndef COSTBO_RCALL_H
#define COSTBO_RCALL_H

#include "costbo.h"
#include "transform.h"

typedef struct cb_rcall_s {
  SEXP fn;              /* the closure of u (not protected: see above) */
  int d;                /* length of u */
  const double *offset; /* o: x = o + u r in the GP's input units (d) */
  const double *range;  /* r (d) */
  double *u;            /* scratch: the points of a central difference */
  const cb_transform *tf; /* typed inputs (NULL: none): see rcall_setup */
} cb_rcall;

/* Set up r for the closure fn of points of length d; offset and range as
 * above (they must outlive r; R_alloc scratch). */
void rcall_setup(cb_rcall *r, SEXP fn, int d, const double *offset,
                 const double *range);

/* The cost at the unit-cube point u (length d); grad (may be NULL)
 * receives d cost / d u (the "gradient" attribute, else central
 * differences).  Signals a costbo_error_cost for a value that is not one
 * positive finite number. */
double rcall_cost(const cb_rcall *r, const double *u, double *grad);

#endif
