/* design.c -- minimax (fill-distance) designs by relocation (design.h). */
#include "design.h"

#include <float.h>

#include "entry.h"

#define DESIGN_BLOCK 256 /* reference points per block of distances */

/* dist[i] = ||p_i - c||^2 for the m rows of P (m x d), column by column. */
static void sq_dist_to(const double *P, int m, int d, const double *c,
                       double *dist) {
  for (int i = 0; i < m; i++) dist[i] = 0.0;
  for (int k = 0; k < d; k++) {
    const double *col = P + (size_t)k * m, ck = c[k];
    for (int i = 0; i < m; i++) {
      const double t = col[i] - ck;
      dist[i] += t * t;
    }
  }
}

/* Index of the largest of v[0..m) (the first on ties). */
static int which_max(const double *v, int m) {
  int a = 0;
  for (int i = 1; i < m; i++)
    if (v[i] > v[a]) a = i;
  return a;
}

/* Row i of P (m x d) into x. */
static void get_row(const double *P, int m, int d, int i, double *x) {
  for (int k = 0; k < d; k++) x[k] = P[i + (size_t)k * m];
}

/* The farthest-point start: reference point s, then repeatedly the
 * reference point farthest from the points chosen (the first on ties). */
static void farthest_start(const double *ref, int N, int d, int n, int s,
                           double *X, double *near, double *dist, double *x) {
  get_row(ref, N, d, s, x);
  for (int k = 0; k < d; k++) X[(size_t)k * n] = x[k];
  sq_dist_to(ref, N, d, x, near);
  for (int j = 1; j < n; j++) {
    if (j % 16 == 0) R_CheckUserInterrupt();
    const int i = which_max(near, N);
    get_row(ref, N, d, i, x);
    for (int k = 0; k < d; k++) X[j + (size_t)k * n] = x[k];
    sq_dist_to(ref, N, d, x, dist);
    for (int r = 0; r < N; r++)
      if (dist[r] < near[r]) near[r] = dist[r];
  }
}

/* One relocation sweep: every design point with a non-empty cell (given
 * by near) to the centre of the smallest ball of its cell (at most
 * 1000 + 100 d Frank-Wolfe steps per cell, far more than the linear
 * convergence needs).  Returns the number of steps taken. */
static double relocate(const double *ref, int N, int d, double *X, int n,
                       const int *near, double tol, int *count, int *idx,
                       double *P, double *c, double *bdist, double *u) {
  double steps = 0.0;
  for (int j = 0; j <= n; j++) count[j] = 0;
  for (int i = 0; i < N; i++) count[near[i] + 1]++;
  for (int j = 0; j < n; j++) count[j + 1] += count[j];
  /* idx lists the reference points cell by cell, in increasing order */
  for (int i = 0; i < N; i++) idx[count[near[i]]++] = i;
  for (int j = n; j > 0; j--) count[j] = count[j - 1];
  count[0] = 0;
  for (int j = 0; j < n; j++) {
    const int m = count[j + 1] - count[j];
    if (j % 16 == 15) R_CheckUserInterrupt();
    if (m == 0) continue;
    const int *cell = idx + count[j];
    for (int k = 0; k < d; k++) {
      const double *col = ref + (size_t)k * N;
      double *pk = P + (size_t)k * m;
      for (int t = 0; t < m; t++) pk[t] = col[cell[t]];
    }
    get_row(X, n, d, j, c);
    double r2;
    steps += design_ball_centre(P, m, d, tol, 1000 + 100 * d, c, bdist, u, &r2);
    for (int k = 0; k < d; k++) {
      /* the centre is a convex combination of points of the cube */
      const double ck = c[k] < 0.0 ? 0.0 : (c[k] > 1.0 ? 1.0 : c[k]);
      X[j + (size_t)k * n] = ck;
    }
  }
  return steps;
}

/* ------------------------------------------------------------------------ */
/* Public C API                                                             */
/* ------------------------------------------------------------------------ */

double design_assign(const double *ref, int N, int d, const double *X, int n,
                     int *near, double *dist) {
  double tmp[DESIGN_BLOCK], worst = 0.0;
  for (int b = 0; b < N; b += DESIGN_BLOCK) {
    if (b % (64 * DESIGN_BLOCK) == 0) R_CheckUserInterrupt();
    const int m = N - b < DESIGN_BLOCK ? N - b : DESIGN_BLOCK;
    double *best = dist + b;
    int *arg = near + b;
    for (int i = 0; i < m; i++) {
      best[i] = DBL_MAX;
      arg[i] = 0;
    }
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < m; i++) tmp[i] = 0.0;
      for (int k = 0; k < d; k++) {
        const double *col = ref + b + (size_t)k * N;
        const double xk = X[j + (size_t)k * n];
        for (int i = 0; i < m; i++) {
          const double t = col[i] - xk;
          tmp[i] += t * t;
        }
      }
      for (int i = 0; i < m; i++)
        if (tmp[i] < best[i]) {
          best[i] = tmp[i];
          arg[i] = j;
        }
    }
    for (int i = 0; i < m; i++)
      if (best[i] > worst) worst = best[i];
  }
  return worst;
}

int design_ball_centre(const double *P, int m, int d, double tol, int maxit,
                       double *c, double *dist, double *u, double *r2) {
  sq_dist_to(P, m, d, c, dist);
  const int a = which_max(dist, m);
  get_row(P, m, d, a, c);
  sq_dist_to(P, m, d, c, dist);
  const int b = which_max(dist, m);
  *r2 = 0.0;
  if (!(dist[b] > 0.0)) return 0; /* one point, or all equal */
  for (int i = 0; i < m; i++) u[i] = 0.0;
  u[a] = u[b] = 0.5;
  for (int k = 0; k < d; k++)
    c[k] = 0.5 * (P[a + (size_t)k * m] + P[b + (size_t)k * m]);
  const double bound = (1.0 + tol) * (1.0 + tol);
  for (int it = 0;; it++) {
    sq_dist_to(P, m, d, c, dist);
    double gamma = 0.0, dmin = DBL_MAX;
    int far = 0, near = -1;
    for (int i = 0; i < m; i++) {
      if (dist[i] > dist[far]) far = i;
      if (u[i] > 0.0) {
        gamma += u[i] * dist[i];
        if (dist[i] < dmin) {
          dmin = dist[i];
          near = i;
        }
      }
    }
    /* gamma, the dual objective, only grows from its positive start */
    if (it >= maxit || dist[far] <= bound * gamma || !(gamma > 0.0)) {
      *r2 = dist[far];
      return it;
    }
    const double up = dist[far] / gamma - 1.0, down = 1.0 - dmin / gamma;
    if (up >= down || u[near] >= 1.0) {
      /* towards the farthest point, by the exact line search */
      const double lam = up / (2.0 * (1.0 + up));
      for (int i = 0; i < m; i++) u[i] *= 1.0 - lam;
      u[far] += lam;
      for (int k = 0; k < d; k++)
        c[k] = (1.0 - lam) * c[k] + lam * P[far + (size_t)k * m];
    } else {
      /* away from the nearest support point, dropping it at the most */
      double lam = down / (2.0 * (1.0 - down));
      const double drop = u[near] / (1.0 - u[near]);
      const int dropped = lam >= drop;
      if (dropped) lam = drop;
      for (int i = 0; i < m; i++) u[i] *= 1.0 + lam;
      u[near] = dropped ? 0.0 : u[near] - lam;
      for (int k = 0; k < d; k++)
        c[k] = (1.0 + lam) * c[k] - lam * P[near + (size_t)k * m];
    }
  }
}

void design_minimax(const double *ref, int N, int d, int n, const int *starts,
                    int restarts, int maxit, int patience, double tol,
                    double *X, double *fill, double *fills, int *sweeps,
                    double *steps) {
  int *near = (int *)R_alloc((size_t)N, sizeof(int));
  int *prev = (int *)R_alloc((size_t)N, sizeof(int));
  int *idx = (int *)R_alloc((size_t)N, sizeof(int));
  int *count = (int *)R_alloc((size_t)n + 1, sizeof(int));
  double *dist = (double *)R_alloc((size_t)N, sizeof(double));
  double *work = (double *)R_alloc((size_t)N, sizeof(double));
  double *u = (double *)R_alloc((size_t)N, sizeof(double));
  double *P = (double *)R_alloc((size_t)N * d, sizeof(double));
  double *Xs = (double *)R_alloc((size_t)n * d, sizeof(double));
  double *c = (double *)R_alloc((size_t)d, sizeof(double));
  double best = DBL_MAX;
  for (int s = 0; s < restarts; s++) {
    R_CheckUserInterrupt();
    farthest_start(ref, N, d, n, starts[s], Xs, dist, work, c);
    double f = design_assign(ref, N, d, Xs, n, near, dist), fs = f;
    if (f < best) {
      best = f;
      memcpy(X, Xs, sizeof(double) * n * d);
    }
    int it = 0, last = 0;
    double nsteps = 0.0;
    while (it < maxit) {
      R_CheckUserInterrupt();
      nsteps +=
          relocate(ref, N, d, Xs, n, near, tol, count, idx, P, c, work, u);
      int *t = prev;
      prev = near;
      near = t;
      f = design_assign(ref, N, d, Xs, n, near, dist);
      it++;
      if (f < fs * (1.0 - 2.0 * tol)) last = it;
      if (f < fs) fs = f;
      if (f < best) {
        best = f;
        memcpy(X, Xs, sizeof(double) * n * d);
      }
      if (memcmp(near, prev, sizeof(int) * N) == 0) break;
      if (it - last >= patience) break;
    }
    if (fills) fills[s] = sqrt(fs);
    if (sweeps) sweeps[s] = it;
    if (steps) steps[s] = nsteps;
  }
  *fill = sqrt(best);
}

/* ------------------------------------------------------------------------ */
/* R entry points                                                           */
/* ------------------------------------------------------------------------ */

/* list(x, fill, fills, sweeps): the minimax design of n points on the
 * reference set ref (N x d), from the reference points starts (1-based),
 * at most maxit sweeps each, ball centres within 1 + tol. */
SEXP C_design_minimax(SEXP ref, SEXP n, SEXP starts, SEXP maxit, SEXP patience,
                      SEXP tol) {
  const int N = Rf_nrows(ref), d = Rf_ncols(ref), nn = Rf_asInteger(n);
  const int restarts = Rf_length(starts), mx = Rf_asInteger(maxit);
  /* the sizes C indexes by, checked once more in O(restarts) */
  if (nn == NA_INTEGER || nn < 1 || nn > N || d < 1 || restarts < 1 ||
      mx == NA_INTEGER || mx < 0)
    Rf_error("internal error: inconsistent design sizes reached C");
  int *st = (int *)R_alloc((size_t)restarts, sizeof(int));
  for (int s = 0; s < restarts; s++) {
    const int i = INTEGER(starts)[s];
    if (i == NA_INTEGER || i < 1 || i > N)
      Rf_error("internal error: a start outside the reference set reached C");
    st[s] = i - 1;
  }
  const char *nms[] = {"x", "fill", "fills", "sweeps", "steps", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  SET_VECTOR_ELT(out, 0, Rf_allocMatrix(REALSXP, nn, d));
  SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, 1));
  SET_VECTOR_ELT(out, 2, Rf_allocVector(REALSXP, restarts));
  SET_VECTOR_ELT(out, 3, Rf_allocVector(INTSXP, restarts));
  SET_VECTOR_ELT(out, 4, Rf_allocVector(REALSXP, restarts));
  design_minimax(REAL(ref), N, d, nn, st, restarts, mx, Rf_asInteger(patience),
                 Rf_asReal(tol), REAL(VECTOR_ELT(out, 0)),
                 REAL(VECTOR_ELT(out, 1)), REAL(VECTOR_ELT(out, 2)),
                 INTEGER(VECTOR_ELT(out, 3)), REAL(VECTOR_ELT(out, 4)));
  UNPROTECT(1);
  return out;
}
