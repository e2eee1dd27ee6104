/* init.c -- the .Call registration table of costbo, nothing else. */
#include <R_ext/Rdynload.h>
#include <R_ext/Visibility.h>

#include "entry.h"

#define CALLDEF(f, n) {#f, (DL_FUNC) & f, n}

static const R_CallMethodDef call_entries[] = {
    CALLDEF(C_gp_factor, 6),
    CALLDEF(C_gp_predict, 10),
    CALLDEF(C_gp_lik, 7),
    CALLDEF(C_gp_fit, 11),
    CALLDEF(C_gp_condition, 10),
    CALLDEF(C_gp_fantasy_roundtrip, 11),
    CALLDEF(C_gp_sample, 10),
    CALLDEF(C_gp_rff_eval, 5),
    CALLDEF(C_qmc_sobol_max_dim, 0),
    CALLDEF(C_qmc_sobol_scramble, 1),
    CALLDEF(C_qmc_sobol, 5),
    CALLDEF(C_qmc_gauss_hermite, 2),
    {NULL, NULL, 0}};

void attribute_visible R_init_costbo(DllInfo *dll) {
  R_registerRoutines(dll, NULL, call_entries, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
}
