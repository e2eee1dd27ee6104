/* init.c -- the .Call registration table of costbo, nothing else. */
#include <R_ext/Rdynload.h>
#include <R_ext/Visibility.h>

#include "entry.h"

#define CALLDEF(f, n) {#f, (DL_FUNC) & f, n}

static const R_CallMethodDef call_entries[] = {
    CALLDEF(C_gp_factor, 6),
    CALLDEF(C_gp_predict, 3),
    CALLDEF(C_gp_lik, 8),
    CALLDEF(C_gp_fit, 12),
    CALLDEF(C_gp_condition, 3),
    CALLDEF(C_gp_sample, 3),
    CALLDEF(C_gp_rff_eval, 5),
    CALLDEF(C_space_transform, 2),
    CALLDEF(C_acq_closed_form, 13),
    CALLDEF(C_acq_evaluate, 3),
    CALLDEF(C_acq_maximize, 5),
    CALLDEF(C_acq_argmax, 2),
    CALLDEF(C_acq_h_inv, 1),
    CALLDEF(C_rcall_eval, 5),
    CALLDEF(C_acq_log_h, 1),
    CALLDEF(C_cvs_eucb, 6),
    CALLDEF(C_cvs_maximize, 6),
    CALLDEF(C_qmc_sobol_max_dim, 0),
    CALLDEF(C_qmc_sobol, 5),
    CALLDEF(C_qmc_gauss_hermite, 2),
    CALLDEF(C_design_minimax, 6),
    CALLDEF(C_tree_value, 7),
    CALLDEF(C_tree_maximize, 9),
    CALLDEF(C_tree_argmax, 5),
    CALLDEF(C_tree_schedule, 8),
    CALLDEF(C_rollout_cmdp_value, 6),
    CALLDEF(C_rollout_cmdp_propose, 6),
    CALLDEF(C_rollout_cmdp_paper_value, 6),
    CALLDEF(C_rollout_cmdp_paper_propose, 5),
    CALLDEF(C_rollout_rh_value, 5),
    CALLDEF(C_rollout_kg_grad, 4),
    CALLDEF(C_rollout_rh_propose, 5),
    CALLDEF(C_rollout_horizon, 4),
    CALLDEF(C_rollout_miso_value, 8),
    CALLDEF(C_rollout_miso_propose, 9),
    {NULL, NULL, 0}};

void attribute_visible R_init_costbo(DllInfo *dll) {
  R_registerRoutines(dll, NULL, call_entries, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
}
