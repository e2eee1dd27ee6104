/* rlist.h -- reading the named lists that cross the boundary from R.
 *
 * Options and packed objects cross the boundary as lists built and checked
 * by one R constructor each (a class per struct); C reads them by name
 * through these accessors, which turn a missing or mistyped element (an
 * object edited, or restored from an old version) into an error instead of
 * a read out of bounds.  The bottom module of src/: it uses nothing of
 * costbo, and every module that unpacks an object uses it.
 */
#ifndef COSTBO_RLIST_H
#define COSTBO_RLIST_H

#include <Rinternals.h>

/* Elements of a named object of class cls, by name: the element (any
 * type), a list, one integer (not NA), one double, or a double vector of
 * length len (any length when len < 0).  A missing or mistyped element,
 * or an object of another class, is an error. */
SEXP cb_elt(SEXP list, const char *cls, const char *name);
SEXP cb_elt_list(SEXP list, const char *cls, const char *name);
int cb_elt_int(SEXP list, const char *cls, const char *name);
double cb_elt_real(SEXP list, const char *cls, const char *name);
const double *cb_elt_reals(SEXP list, const char *cls, const char *name,
                           R_xlen_t len);

#endif
