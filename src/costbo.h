/* Common includes of the costbo C core. No SEXP prototypes live here. */
#ifndef COSTBO_H
#define COSTBO_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>
#include <Rmath.h>
#include <R_ext/Applic.h>
#include <R_ext/BLAS.h>
#include <R_ext/Lapack.h>
#include <R_ext/Utils.h>

#ifndef FCONE
#define FCONE
#endif

/* Turns a negative LAPACK info into an internal error (defined in gp.c). */
void la_check(const char *routine, int info);

#endif
