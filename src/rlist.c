/* rlist.c -- the accessors of named lists from R (rlist.h). */
#include "rlist.h"

#include <string.h>

SEXP cb_elt(SEXP list, const char *cls, const char *name) {
  if (!(TYPEOF(list) == VECSXP && Rf_inherits(list, cls)))
    Rf_error("expected a %s object", cls);
  SEXP nms = Rf_getAttrib(list, R_NamesSymbol);
  const int n = Rf_length(list);
  if (TYPEOF(nms) == STRSXP)
    for (int i = 0; i < n; i++)
      if (strcmp(CHAR(STRING_ELT(nms, i)), name) == 0)
        return VECTOR_ELT(list, i);
  Rf_error("the %s object has no element `%s`", cls, name);
  return R_NilValue; /* not reached */
}

int cb_elt_int(SEXP list, const char *cls, const char *name) {
  SEXP v = cb_elt(list, cls, name);
  if (!(TYPEOF(v) == INTSXP && XLENGTH(v) == 1 && INTEGER(v)[0] != NA_INTEGER))
    Rf_error("element `%s` of the %s object must be one integer, not NA",
             name, cls);
  return INTEGER(v)[0];
}

double cb_elt_real(SEXP list, const char *cls, const char *name) {
  SEXP v = cb_elt(list, cls, name);
  if (!(TYPEOF(v) == REALSXP && XLENGTH(v) == 1))
    Rf_error("element `%s` of the %s object must be one double", name, cls);
  return REAL(v)[0];
}

SEXP cb_elt_list(SEXP list, const char *cls, const char *name) {
  SEXP v = cb_elt(list, cls, name);
  if (TYPEOF(v) != VECSXP)
    Rf_error("element `%s` of the %s object must be a list", name, cls);
  return v;
}

const double *cb_elt_reals(SEXP list, const char *cls, const char *name,
                           R_xlen_t len) {
  SEXP v = cb_elt(list, cls, name);
  if (!(TYPEOF(v) == REALSXP && (len < 0 || XLENGTH(v) == len)))
    Rf_error("element `%s` of the %s object must be a double vector%s", name,
             cls, len < 0 ? "" : " of the expected length");
  return REAL(v);
}
