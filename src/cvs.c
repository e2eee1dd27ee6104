/* cvs.c -- expected UCB of control partial queries and its maximization
 * (BOCVS, Tay et al. 2023, Alg. 1 steps 3-6).  See cvs.h. */
#include "cvs.h"

#include "entry.h"

void cvs_setup(cb_cvs *c, const cb_gp *gp, const double *alpha, int nc,
               const int *ctrl, int S, const double *Z, double beta) {
  const int d = gp->d;
  c->gp = gp;
  c->alpha = alpha;
  c->nc = nc;
  c->ctrl = ctrl;
  c->S = S;
  c->Z = Z;
  c->beta = beta;
  const size_t B = CB_CVS_BLOCK;
  c->x = (double *)R_alloc(B * (size_t)(3 * d + 2), sizeof(double));
  c->m = c->x + B * d;
  c->v = c->m + B;
  c->dm = c->v + B;
  c->dv = c->dm + B * d;
  const int cap = gp->cap > 0 ? gp->cap : 1;
  c->work = (double *)R_alloc(2 * B * (size_t)cap, sizeof(double));
  c->U = (double *)R_alloc((size_t)cap * cap, sizeof(double));
  gp_upper(gp, c->U);
}

double cvs_eucb(int nc, const double *xc, double *grad, void *ctx) {
  cb_cvs *c = (cb_cvs *)ctx;
  const int d = c->gp->d, S = c->S;
  double total = 0.0;
  if (grad)
    for (int k = 0; k < nc; k++) grad[k] = 0.0;
  /* the samples in blocks predicted together; sums in sample order */
  for (int s0 = 0; s0 < S; s0 += CB_CVS_BLOCK) {
    const int bs = S - s0 < CB_CVS_BLOCK ? S - s0 : CB_CVS_BLOCK;
    /* S (n_samples) may be large: one check per 256 predictions */
    if ((s0 & 255) + bs > 255) R_CheckUserInterrupt();
    for (int b = 0; b < bs; b++) {
      double *x = c->x + b;
      for (int j = 0; j < d; j++)
        x[(size_t)j * bs] = c->Z[s0 + b + (size_t)j * S];
      for (int k = 0; k < nc; k++) x[(size_t)c->ctrl[k] * bs] = xc[k];
    }
    gp_predict_at_many(c->gp, c->x, bs, bs, c->alpha, c->U, c->m, c->v,
                       grad ? c->dm : NULL, grad ? c->dv : NULL, c->work);
    for (int b = 0; b < bs; b++) {
      const double v = c->v[b];
      const double sd = v > 0.0 ? sqrt(v) : 0.0;
      total += c->m[b] + c->beta * sd;
      if (grad) {
        const double *dm = c->dm + (size_t)b * d, *dv = c->dv + (size_t)b * d;
        for (int k = 0; k < nc; k++) {
          const int j = c->ctrl[k];
          grad[k] += dm[j] + (sd > 0.0 ? c->beta * dv[j] / (2.0 * sd) : 0.0);
        }
      }
    }
  }
  if (grad)
    for (int k = 0; k < nc; k++) grad[k] /= S;
  return total / S;
}

double cvs_maximize(cb_cvs *c, int n_raw, const cb_max_control *ctl,
                    double *xbest) {
  const int nc = c->nc;
  double *lo = (double *)R_alloc((size_t)(2 * nc), sizeof(double));
  double *up = lo + nc;
  for (int k = 0; k < nc; k++) {
    lo[k] = 0.0;
    up[k] = 1.0;
  }
  return max_box_sobol(cvs_eucb, c, nc, lo, up, n_raw, ctl, xbest, NULL);
}

/* R entry points --------------------------------------------------------- */

/* gp: gp_pack() of a continuous-kernel fit; ctrl: 0-based integer indices;
 * Z: S x d samples on the unit scale; beta: UCB weight. */
static void cvs_unpack(cb_cvs *c, cb_gp *gp, SEXP packed, SEXP ctrl, SEXP Z,
                       SEXP beta) {
  gp_unpack(gp, packed, 0);
  if (gp_inputs(gp) != CB_INPUT_BOX || !gp_has_xgrad(gp))
    Rf_error("internal error: the expected UCB of a %s GP", gp->ops->name);
  double *alpha = (double *)R_alloc((size_t)(gp->n > 0 ? gp->n : 1),
                                    sizeof(double));
  gp_alpha(gp, alpha);
  cvs_setup(c, gp, alpha, Rf_length(ctrl), INTEGER(ctrl), Rf_nrows(Z), REAL(Z),
            Rf_asReal(beta));
}

SEXP C_cvs_eucb(SEXP gp, SEXP X, SEXP ctrl, SEXP Z, SEXP beta, SEXP grad) {
  cb_cvs c;
  cb_gp f;
  cvs_unpack(&c, &f, gp, ctrl, Z, beta);
  return max_eval_rows(cvs_eucb, &c, X, Rf_asLogical(grad));
}

SEXP C_cvs_maximize(SEXP gp, SEXP ctrl, SEXP Z, SEXP beta, SEXP n_raw,
                    SEXP control) {
  const int nc = Rf_length(ctrl);
  int np = 0;
  cb_cvs c;
  cb_gp f;
  cvs_unpack(&c, &f, gp, ctrl, Z, beta);
  cb_max_control mc;
  unpack_max_control(control, &mc);
  const char *nms[] = {"x", "value", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  np++;
  SEXP x = PROTECT(Rf_allocVector(REALSXP, nc));
  np++;
  GetRNGstate();
  double v = cvs_maximize(&c, Rf_asInteger(n_raw), &mc, REAL(x));
  PutRNGstate();
  SET_VECTOR_ELT(out, 0, x);
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(v));
  UNPROTECT(np);
  return out;
}
