/* entry.h -- prototypes of every .Call entry point of costbo. */
#ifndef COSTBO_ENTRY_H
#define COSTBO_ENTRY_H

#include <Rinternals.h>

/* gp.c */
SEXP C_gp_factor(SEXP X, SEXP y, SEXP kernel, SEXP hyp, SEXP fmean,
                 SEXP fcov);
SEXP C_gp_predict(SEXP X, SEXP y, SEXP L, SEXP beta, SEXP kernel, SEXP hyp,
                  SEXP fmean, SEXP fcov, SEXP Xnew, SEXP grad);
SEXP C_gp_lik(SEXP X, SEXP y, SEXP kernel, SEXP theta, SEXP use_prior,
              SEXP pshape, SEXP prate, SEXP profile);
SEXP C_gp_fit(SEXP X, SEXP y, SEXP kernel, SEXP starts, SEXP lower,
              SEXP upper, SEXP slot, SEXP use_prior, SEXP pshape, SEXP prate,
              SEXP profile, SEXP control);
SEXP C_gp_condition(SEXP X, SEXP y, SEXP L, SEXP beta, SEXP kernel, SEXP hyp,
                    SEXP fmean, SEXP fcov, SEXP Xadd, SEXP yadd);
SEXP C_gp_fantasy_roundtrip(SEXP X, SEXP y, SEXP L, SEXP beta, SEXP kernel,
                            SEXP hyp, SEXP fmean, SEXP fcov, SEXP Xadd,
                            SEXP yadd, SEXP Xtest);
SEXP C_gp_sample(SEXP X, SEXP y, SEXP L, SEXP beta, SEXP kernel, SEXP hyp,
                 SEXP fmean, SEXP fcov, SEXP Xnew, SEXP nsim);
SEXP C_gp_rff_eval(SEXP X, SEXP omega, SEXP phase, SEXP weight, SEXP scale);

/* maximize.c */
SEXP C_max_test(SEXP code, SEXP lower, SEXP upper, SEXP raw, SEXP unif,
                SEXP control);

/* acq.c */
SEXP C_acq_closed_form(SEXP type, SEXP m, SEXP s, SEXP best, SEXP cost,
                       SEXP mc, SEXP sc, SEXP remaining, SEXP nu,
                       SEXP lambda, SEXP beta, SEXP known_cost, SEXP grad);
SEXP C_acq_h_inv(SEXP y);
SEXP C_acq_log_h(SEXP u);

#endif
