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
              SEXP pshape, SEXP prate);
SEXP C_gp_fit(SEXP X, SEXP y, SEXP kernel, SEXP starts, SEXP lower,
              SEXP upper, SEXP fixed, SEXP use_prior, SEXP pshape, SEXP prate,
              SEXP control);
SEXP C_gp_condition(SEXP X, SEXP y, SEXP L, SEXP beta, SEXP kernel, SEXP hyp,
                    SEXP fmean, SEXP fcov, SEXP Xadd, SEXP yadd);
SEXP C_gp_fantasy_roundtrip(SEXP X, SEXP y, SEXP L, SEXP beta, SEXP kernel,
                            SEXP hyp, SEXP fmean, SEXP fcov, SEXP Xadd,
                            SEXP yadd, SEXP Xtest);
SEXP C_gp_sample(SEXP X, SEXP y, SEXP L, SEXP beta, SEXP kernel, SEXP hyp,
                 SEXP fmean, SEXP fcov, SEXP Xnew, SEXP nsim);
SEXP C_gp_rff_eval(SEXP X, SEXP omega, SEXP phase, SEXP weight, SEXP scale);

/* qmc.c */
SEXP C_qmc_sobol_max_dim(void);
SEXP C_qmc_sobol_scramble(SEXP d);
SEXP C_qmc_sobol(SEXP n, SEXP d, SEXP skip, SEXP scramble, SEXP normal);
SEXP C_qmc_gauss_hermite(SEXP n, SEXP physicists);

#endif
