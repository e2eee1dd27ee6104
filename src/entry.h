/* entry.h -- prototypes of every .Call entry point of costbo. */
#ifndef COSTBO_ENTRY_H
#define COSTBO_ENTRY_H

#include <Rinternals.h>

/* gp.c */
/* A GP packed by the R function gp_pack(): list(X, y, L, beta, kernel, hyp,
 * fmean, fcov) on the internal scale; `extra` rows of capacity are added
 * for fantasy updates.  Used by every module whose entry points take a GP. */
struct cb_gp_s;
void gp_unpack(struct cb_gp_s *gp, SEXP packed, int extra);
SEXP C_gp_factor(SEXP X, SEXP y, SEXP kernel, SEXP hyp, SEXP fmean,
                 SEXP fcov);
SEXP C_gp_predict(SEXP gp, SEXP Xnew, SEXP grad);
SEXP C_gp_lik(SEXP X, SEXP y, SEXP kernel, SEXP theta, SEXP use_prior,
              SEXP pshape, SEXP prate, SEXP profile);
SEXP C_gp_fit(SEXP X, SEXP y, SEXP kernel, SEXP starts, SEXP lower,
              SEXP upper, SEXP slot, SEXP use_prior, SEXP pshape, SEXP prate,
              SEXP profile, SEXP control);
SEXP C_gp_condition(SEXP gp, SEXP Xadd, SEXP yadd);
SEXP C_gp_fantasy_roundtrip(SEXP gp, SEXP Xadd, SEXP yadd, SEXP Xtest);
SEXP C_gp_sample(SEXP gp, SEXP Xnew, SEXP nsim);
SEXP C_gp_rff_eval(SEXP X, SEXP omega, SEXP phase, SEXP weight, SEXP scale);

/* maximize.c */
SEXP C_max_select(SEXP vals, SEXP k, SEXP method, SEXP eta, SEXP unif);
SEXP C_max_test(SEXP code, SEXP lower, SEXP upper, SEXP raw, SEXP unif,
                SEXP control);

/* acq.c */
/* An acquisition packed by the R function acq_pack(), with `extra` rows of
 * fantasy capacity in its GPs.  Used by the lookahead modules. */
struct cb_acq_s;
void acq_unpack(struct cb_acq_s *a, struct cb_gp_s *f, struct cb_gp_s *lc,
                SEXP acq, int extra);
SEXP C_acq_closed_form(SEXP type, SEXP m, SEXP s, SEXP best, SEXP cost,
                       SEXP mc, SEXP sc, SEXP remaining, SEXP nu,
                       SEXP lambda, SEXP beta, SEXP known_cost, SEXP grad);
SEXP C_acq_evaluate(SEXP acq, SEXP X, SEXP grad);
SEXP C_acq_maximize(SEXP acq, SEXP lower, SEXP upper, SEXP raw, SEXP unif,
                    SEXP control);
SEXP C_acq_argmax(SEXP acq, SEXP cand);
SEXP C_acq_h_inv(SEXP y);
SEXP C_acq_log_h(SEXP u);

/* qmc.c */
SEXP C_qmc_sobol_max_dim(void);
SEXP C_qmc_sobol_scramble(SEXP d);
SEXP C_qmc_sobol(SEXP n, SEXP d, SEXP skip, SEXP scramble, SEXP normal);
SEXP C_qmc_gauss_hermite(SEXP n, SEXP physicists);

/* rollout.c */
SEXP C_rollout_cmdp_value(SEXP acq, SEXP X, SEXP z, SEXP raw, SEXP unif,
                          SEXP par);
SEXP C_rollout_cmdp_propose(SEXP acq, SEXP design, SEXP z, SEXP raw,
                            SEXP unif, SEXP par, SEXP outer);
SEXP C_rollout_rh_value(SEXP acq, SEXP X, SEXP cand, SEXP nodes, SEXP h);
SEXP C_rollout_rh_propose(SEXP acq, SEXP design, SEXP cand, SEXP nodes,
                          SEXP par);
SEXP C_rollout_horizon(SEXP phi, SEXP ebar, SEXP alpha, SEXP n_left);

#endif
