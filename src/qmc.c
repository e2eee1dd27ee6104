/* qmc.c -- quasi-Monte Carlo: Sobol points with linear matrix scrambling and
 * a digital shift, their standard normal transform, and Gauss-Hermite rules
 * (roots bracketed by Sturm-sequence bisection, polished by Newton's method
 * on the orthonormal Hermite recurrence). */
#include "qmc.h"

#include <float.h>
#include <limits.h>

#include "entry.h"
#include "sobol_table.h"

#define QMC_TWO_M32 2.3283064365386962890625e-10 /* 2^-32 */
#define QMC_PIM4 0.7511255444649424828587        /* pi^(-1/4) */
#define QMC_SQRTPI 1.7724538509055160272982
#define QMC_BIG 1e150 /* rescaling threshold of the Hermite recurrence */

/* ------------------------------------------------------------------------ */
/* Sobol direction numbers                                                  */
/* ------------------------------------------------------------------------ */

/* The next nb bits of the packed table, least significant first. */
static uint32_t table_bits(size_t *pos, int nb) {
  uint32_t v = 0;
  for (int i = 0; i < nb; i++, (*pos)++) {
    uint32_t bit = (qmc_sobol_packed[*pos >> 5] >> (*pos & 31u)) & 1u;
    v |= bit << i;
  }
  return v;
}

/* The 32 direction numbers of dimension j (0-based), v[k] for bit k + 1. */
static void sobol_direction(int j, uint32_t *v) {
  uint32_t m[QMC_SOBOL_MAX_DEGREE];
  if (j == 0) {
    for (int k = 0; k < QMC_SOBOL_BITS; k++) v[k] = 1u << (31 - k);
    return;
  }
  /* Locate the record of table line t = j - 1: its degree and bit offset. */
  int t = j - 1, s = 1;
  size_t pos = 0;
  for (;;) {
    size_t rec = (size_t)(s - 1) + (size_t)s * (size_t)(s - 1) / 2;
    if (t < qmc_sobol_per_degree[s - 1]) {
      pos += (size_t)t * rec;
      break;
    }
    pos += (size_t)qmc_sobol_per_degree[s - 1] * rec;
    t -= qmc_sobol_per_degree[s - 1];
    s++;
  }
  uint32_t a = table_bits(&pos, s - 1);
  m[0] = 1u;
  for (int k = 2; k <= s; k++) m[k - 1] = 2u * table_bits(&pos, k - 1) + 1u;
  for (int k = 0; k < s && k < QMC_SOBOL_BITS; k++) v[k] = m[k] << (31 - k);
  for (int k = s; k < QMC_SOBOL_BITS; k++) {
    uint32_t w = v[k - s] ^ (v[k - s] >> s);
    for (int i = 1; i < s; i++)
      if ((a >> (s - 1 - i)) & 1u) w ^= v[k - i];
    v[k] = w;
  }
}

static uint32_t parity32(uint32_t x) {
  x ^= x >> 16;
  x ^= x >> 8;
  x ^= x >> 4;
  x ^= x >> 2;
  x ^= x >> 1;
  return x & 1u;
}

/* Left-multiply the direction numbers by the lower-triangular matrix whose
 * rows are given (row r = output bit r from the most significant). */
static void sobol_scramble(const uint32_t *rows, uint32_t *v) {
  uint32_t L[QMC_SOBOL_BITS];
  for (int r = 0; r < QMC_SOBOL_BITS; r++) {
    uint32_t diag = 1u << (31 - r);
    uint32_t above = ~((diag << 1) - 1u); /* 0 for r = 0 */
    L[r] = (rows[r] & above) | diag;
  }
  for (int k = 0; k < QMC_SOBOL_BITS; k++) {
    uint32_t w = 0;
    for (int r = 0; r < QMC_SOBOL_BITS; r++)
      w |= parity32(L[r] & v[k]) << (31 - r);
    v[k] = w;
  }
}

/* Index of the lowest set bit of i > 0. */
static int lowest_bit(uint32_t i) {
  int c = 0;
  while (!(i & 1u)) {
    i >>= 1;
    c++;
  }
  return c;
}

static void sobol_fill(int n, int d, int skip, const uint32_t *scramble,
                       int normal, double *out) {
  uint32_t v[QMC_SOBOL_BITS];
  const uint32_t g = (uint32_t)skip ^ ((uint32_t)skip >> 1);
  for (int j = 0; j < d; j++) {
    if (j % 256 == 255) R_CheckUserInterrupt();
    sobol_direction(j, v);
    uint32_t x = 0;
    if (scramble) {
      const uint32_t *w = scramble + (size_t)j * QMC_SOBOL_WORDS;
      sobol_scramble(w, v);
      x = w[QMC_SOBOL_BITS];
    }
    for (int k = 0; k < QMC_SOBOL_BITS; k++)
      if ((g >> k) & 1u) x ^= v[k];
    double *col = out + (size_t)j * n;
    for (int i = 0; i < n; i++) {
      if ((i & 0xfffff) == 0xfffff) R_CheckUserInterrupt();
      col[i] = normal
                   ? Rf_qnorm5(((double)x + 0.5) * QMC_TWO_M32, 0.0, 1.0, 1, 0)
                   : (double)x * QMC_TWO_M32;
      x ^= v[lowest_bit((uint32_t)skip + (uint32_t)i + 1u)];
    }
  }
}

/* ------------------------------------------------------------------------ */
/* Gauss-Hermite                                                            */
/* ------------------------------------------------------------------------ */

/* Orthonormal Hermite polynomials for the weight exp(-x^2) at z:
 * returns p_n(z) / p_{n-1}(z) and sets *lp = log |p_{n-1}(z)|. */
static double hermite_ratio(int n, double z, double *lp) {
  double p1 = QMC_PIM4, p2 = 0.0, p3, lscale = 0.0;
  for (int j = 1; j <= n; j++) {
    p3 = p2;
    p2 = p1;
    p1 = z * sqrt(2.0 / j) * p2 - sqrt((j - 1.0) / j) * p3;
    if (fabs(p1) > QMC_BIG) {
      p1 /= QMC_BIG;
      p2 /= QMC_BIG;
      lscale += log(QMC_BIG);
    }
  }
  *lp = log(fabs(p2)) + lscale;
  return p1 / p2;
}

/* Number of roots of the degree-n Hermite polynomial below x: the number
 * of negative pivots of J - x I, J the Jacobi matrix of the orthonormal
 * recurrence x p_k = b_{k+1} p_{k+1} + b_k p_{k-1}, b_k^2 = k / 2 (a Sturm
 * sequence count). */
static int hermite_count_below(int n, double x) {
  int count = 0;
  double q = -x;
  for (int k = 1;; k++) {
    if (q < 0.0) count++;
    if (k == n) break;
    if (q == 0.0) q = DBL_EPSILON * sqrt(0.5 * k);
    q = -x - (0.5 * k) / q;
  }
  return count;
}

/* Nonnegative roots of the degree-n Hermite polynomial (weight exp(-x^2)),
 * largest first, with their weights.  Each root is bracketed by bisection on
 * the Sturm count, then polished by Newton's method on the recurrence.
 * Returns 0 on success. */
static int gauss_hermite_phys(int n, double *x, double *w) {
  const int m = (n + 1) / 2;
  double lp;
  for (int i = 0; i < m; i++) {
    if (n % 2 == 1 && i == m - 1) { /* the middle root, exactly */
      x[i] = 0.0;
      hermite_ratio(n, 0.0, &lp);
      w[i] = exp(-log((double)n) - 2.0 * lp);
      break;
    }
    /* Root i is the (n - i)-th smallest: count_below(x) >= n - i iff x is
     * above it.  All roots lie in (-sqrt(2n), sqrt(2n)) (Gershgorin). */
    double lo = 0.0, hi = i == 0 ? sqrt(2.0 * n) + 1.0 : x[i - 1];
    while (hi - lo > 1e-8 * fmax(1.0, hi)) {
      double mid = 0.5 * (lo + hi);
      if (hermite_count_below(n, mid) >= n - i)
        hi = mid;
      else
        lo = mid;
    }
    /* Newton on p_n, with p_n' = sqrt(2n) p_{n-1}; quadratic convergence
     * from the bracket, so one more step after a relative step of 1e-10
     * reaches rounding level. */
    double z = 0.5 * (lo + hi), width = hi - lo;
    int done = 0;
    for (int it = 0; it < 20 && done < 2; it++) {
      double dz = hermite_ratio(n, z, &lp) / sqrt(2.0 * n);
      z -= dz;
      if (fabs(dz) <= 1e-10 * fmax(1.0, fabs(z))) done++;
    }
    if (done < 2 || !(fabs(z - 0.5 * (lo + hi)) <= width) || !(z > 0.0))
      return 1;
    hermite_ratio(n, z, &lp);
    x[i] = z;
    /* w = 2 / p_n'(z)^2 = 1 / (n p_{n-1}(z)^2) */
    w[i] = exp(-log((double)n) - 2.0 * lp);
    if (i % 64 == 63) R_CheckUserInterrupt();
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Public C API                                                             */
/* ------------------------------------------------------------------------ */

int qmc_sobol_max_dim(void) { return QMC_SOBOL_MAX_DIM; }

void qmc_sobol_draw(int d, uint32_t *scramble) {
  const size_t len = (size_t)d * QMC_SOBOL_WORDS;
  for (size_t i = 0; i < len; i++) {
    uint32_t hi = (uint32_t)floor(65536.0 * unif_rand());
    uint32_t lo = (uint32_t)floor(65536.0 * unif_rand());
    scramble[i] = (hi << 16) | lo;
  }
}

void qmc_sobol_random(int n, int d, int normal, double *out) {
  uint32_t *scramble =
      (uint32_t *)R_alloc((size_t)d * QMC_SOBOL_WORDS, sizeof(uint32_t));
  qmc_sobol_draw(d, scramble);
  sobol_fill(n, d, 0, scramble, normal, out);
}

int qmc_gauss_hermite(int n, int physicists, double *nodes, double *weights) {
  const int m = (n + 1) / 2;
  double *x = (double *)R_alloc((size_t)m, sizeof(double));
  double *w = (double *)R_alloc((size_t)m, sizeof(double));
  if (gauss_hermite_phys(n, x, w)) return 1;
  const double xs = physicists ? 1.0 : M_SQRT2;
  const double ws = physicists ? 1.0 : 1.0 / QMC_SQRTPI;
  for (int i = 0; i < m; i++) {
    nodes[n - 1 - i] = xs * x[i];
    nodes[i] = -xs * x[i];
    weights[n - 1 - i] = weights[i] = ws * w[i];
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* R entry points                                                           */
/* ------------------------------------------------------------------------ */

SEXP C_qmc_sobol_max_dim(void) { return Rf_ScalarInteger(qmc_sobol_max_dim()); }

/* n x d Sobol points from point skip on; scramble is NULL (none), TRUE (the
 * scramble words drawn here from R's RNG, qmc_sobol_draw()'s order) or the
 * words themselves (whole numbers in [0, 2^32) stored as doubles). */
SEXP C_qmc_sobol(SEXP n, SEXP d, SEXP skip, SEXP scramble, SEXP normal) {
  const int nn = Rf_asInteger(n), dd = Rf_asInteger(d);
  const int sk = Rf_asInteger(skip), nrm = Rf_asLogical(normal);
  const int draw = TYPEOF(scramble) == LGLSXP;
  /* R checks what a user gives; the sizes the tables are indexed by are
   * checked once more in O(1) */
  if (dd == NA_INTEGER || dd < 1 || dd > QMC_SOBOL_MAX_DIM)
    Rf_error("internal error: a Sobol dimension outside [1, %d] reached C",
             QMC_SOBOL_MAX_DIM);
  if (nn == NA_INTEGER || nn < 0 || sk == NA_INTEGER || sk < 0 ||
      (double)sk + nn > INT_MAX ||
      (draw && (Rf_xlength(scramble) != 1 || LOGICAL(scramble)[0] != TRUE)) ||
      (!draw && !Rf_isNull(scramble) &&
       (TYPEOF(scramble) != REALSXP ||
        Rf_xlength(scramble) != (R_xlen_t)dd * QMC_SOBOL_WORDS)))
    Rf_error("internal error: inconsistent Sobol sizes reached C");
  uint32_t *words = NULL;
  const size_t len = (size_t)dd * QMC_SOBOL_WORDS;
  if (draw) {
    words = (uint32_t *)R_alloc(len, sizeof(uint32_t));
    GetRNGstate();
    qmc_sobol_draw(dd, words);
    PutRNGstate();
  } else if (!Rf_isNull(scramble)) {
    const double *s = REAL(scramble);
    words = (uint32_t *)R_alloc(len, sizeof(uint32_t));
    for (size_t i = 0; i < len; i++) words[i] = (uint32_t)s[i];
  }
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, nn, dd));
  sobol_fill(nn, dd, sk, words, nrm == TRUE, REAL(out));
  UNPROTECT(1);
  return out;
}

SEXP C_qmc_gauss_hermite(SEXP n, SEXP physicists) {
  const int nn = Rf_asInteger(n), phys = Rf_asLogical(physicists);
  const char *nms[] = {"nodes", "weights", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nms));
  SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, nn));
  SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, nn));
  int fail = qmc_gauss_hermite(nn, phys == TRUE, REAL(VECTOR_ELT(out, 0)),
                               REAL(VECTOR_ELT(out, 1)));
  UNPROTECT(1);
  if (fail)
    Rf_error(
        "Gauss-Hermite rule with %d nodes: Newton's method did not "
        "converge",
        nn);
  return out;
}
