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
SEXP C_gp_sample(SEXP gp, SEXP Xnew, SEXP nsim);
SEXP C_gp_rff_eval(SEXP X, SEXP omega, SEXP phase, SEXP weight, SEXP scale);

/* transform.c */
SEXP C_space_transform(SEXP pack, SEXP X);

/* maximize.c */
/* list(value, grad) of an objective (maximize.h's cb_objfn) at the rows of
 * X; grad is d x m, or NULL when grad = 0. */
SEXP max_eval_rows(double (*f)(int, const double *, double *, void *),
                   void *ctx, SEXP X, int grad);
/* The list(x, value, raw_best) returned by the maximizing entry points. */
SEXP max_box_result(const double *x, int d, double value, double raw_best);
/* Elements of a named control object of class cls, by name: the element
 * (any type), a list, one integer (not NA), one double, or a double vector
 * of length len (any length when len < 0).  A missing or mistyped element,
 * or an object of another class, is an error. */
SEXP cb_elt(SEXP list, const char *cls, const char *name);
SEXP cb_elt_list(SEXP list, const char *cls, const char *name);
int cb_elt_int(SEXP list, const char *cls, const char *name);
double cb_elt_real(SEXP list, const char *cls, const char *name);
const double *cb_elt_reals(SEXP list, const char *cls, const char *name,
                           R_xlen_t len);
/* A costbo_max_control object (R: max_control()) into the struct. */
struct cb_max_control_s;
void unpack_max_control(SEXP ctl, struct cb_max_control_s *mc);

/* rcall.c */
SEXP C_rcall_eval(SEXP fn, SEXP U, SEXP offset, SEXP range, SEXP grad);

/* acq.c */
/* A costbo_acq object (R: acq_pack()) into the struct; its GPs get `extra`
 * rows of capacity for fantasy updates (tree.c, rollout.c). */
struct cb_acq_s;
void unpack_acq(SEXP acq, struct cb_acq_s *a, struct cb_gp_s *f,
                struct cb_gp_s *lc, int extra);
SEXP C_acq_closed_form(SEXP type, SEXP m, SEXP s, SEXP best, SEXP cost,
                       SEXP mc, SEXP sc, SEXP remaining, SEXP nu,
                       SEXP lambda, SEXP beta, SEXP known_cost, SEXP grad);
SEXP C_acq_evaluate(SEXP acq, SEXP X, SEXP grad);
SEXP C_acq_maximize(SEXP acq, SEXP lower, SEXP upper, SEXP n_raw,
                    SEXP control);
SEXP C_acq_argmax(SEXP acq, SEXP cand);
SEXP C_acq_h_inv(SEXP y);
SEXP C_acq_log_h(SEXP u);

/* cvs.c */
SEXP C_cvs_eucb(SEXP gp, SEXP X, SEXP ctrl, SEXP Z, SEXP beta, SEXP grad);
SEXP C_cvs_maximize(SEXP gp, SEXP ctrl, SEXP Z, SEXP beta, SEXP n_raw,
                    SEXP control);

/* qmc.c */
SEXP C_qmc_sobol_max_dim(void);
SEXP C_qmc_sobol(SEXP n, SEXP d, SEXP skip, SEXP scramble, SEXP normal);
SEXP C_qmc_gauss_hermite(SEXP n, SEXP physicists);

/* design.c */
SEXP C_design_minimax(SEXP ref, SEXP n, SEXP starts, SEXP maxit,
                      SEXP patience, SEXP tol);

/* tree.c */
SEXP C_tree_value(SEXP acq, SEXP fantasies, SEXP zf, SEXP zc, SEXP budget,
                  SEXP X, SEXP grad);
SEXP C_tree_maximize(SEXP acq, SEXP fantasies, SEXP zf, SEXP zc,
                     SEXP budget, SEXP lower, SEXP upper, SEXP control,
                     SEXP warm);
SEXP C_tree_argmax(SEXP acq, SEXP fantasies, SEXP zf, SEXP zc, SEXP budget);
SEXP C_tree_schedule(SEXP acq, SEXP zf, SEXP zc, SEXP lower, SEXP upper,
                     SEXP n_raw, SEXP control, SEXP budget_start);

/* rollout.c */
SEXP C_rollout_cmdp_value(SEXP acq, SEXP X, SEXP z, SEXP raw, SEXP unif,
                          SEXP control);
SEXP C_rollout_cmdp_propose(SEXP acq, SEXP design, SEXP z, SEXP raw,
                            SEXP unif, SEXP control);
SEXP C_rollout_cmdp_paper_value(SEXP acq, SEXP X, SEXP z, SEXP raw,
                                SEXP control, SEXP grad);
SEXP C_rollout_cmdp_paper_propose(SEXP acq, SEXP design, SEXP z, SEXP raw,
                                  SEXP control);
SEXP C_rollout_rh_propose(SEXP acq, SEXP design, SEXP cand, SEXP nodes,
                          SEXP control);
SEXP C_rollout_rh_value(SEXP acq, SEXP X, SEXP cand, SEXP nodes, SEXP h);
SEXP C_rollout_kg_grad(SEXP acq, SEXP X, SEXP cand, SEXP nodes);
SEXP C_rollout_horizon(SEXP phi, SEXP ebar, SEXP alpha, SEXP n_left);
SEXP C_rollout_miso_value(SEXP gp, SEXP X, SEXP xcost, SEXP cand,
                          SEXP ccost, SEXP nodes, SEXP h, SEXP scale);
SEXP C_rollout_miso_propose(SEXP gp, SEXP design, SEXP dcost, SEXP cand,
                            SEXP ccost, SEXP nodes, SEXP control,
                            SEXP scale, SEXP per_source);

#endif
