/* qmc.h -- the pure-C face of the quasi-Monte Carlo module: Sobol points
 * (optionally scrambled), their standard normal transform, and Gauss-Hermite
 * quadrature rules.
 *
 * Sobol points.  Direction numbers are those of Joe and Kuo (2008), table
 * new-joe-kuo-6.21201, in 32-bit integer arithmetic; dimension 1 is the van
 * der Corput sequence.  Point i (i = 0, 1, ...) is generated in Gray-code
 * order, so the unscrambled sequence starts 0, 1/2, then (3/4, 1/4) in the
 * first two coordinates, ... (the order of scipy.stats.qmc.Sobol).  A point
 * is an integer x of 32 bits; its coordinate is x / 2^32, in [0, 1).
 *
 * Scrambling is a random linear matrix scramble plus a random digital shift
 * (as scipy.stats.qmc.Sobol(scramble = TRUE)).  It is described by
 * QMC_SOBOL_WORDS random 32-bit words per dimension, stored dimension by
 * dimension: words 0..31 are the rows of the lower-triangular binary matrix,
 * row r for output bit r counted from the most significant bit (only the r
 * bits of the word above the diagonal are used; the diagonal is 1), and word
 * 32 is the digital shift.  The scrambled direction numbers are L v_k and the
 * points x XOR shift, which keeps every dyadic stratification of the
 * unscrambled sequence.  Pure functions receive these words as an array
 * (NULL means unscrambled); qmc_sobol_draw() fills it from R's RNG.
 *
 * Matrices are column-major: out[i + j * n] is coordinate j of point i. */
#ifndef COSTBO_QMC_MODULE_H
#define COSTBO_QMC_MODULE_H

#include <stdint.h>

#include "costbo.h"

#define QMC_SOBOL_BITS 32  /* bits of every Sobol coordinate */
#define QMC_SOBOL_WORDS 33 /* random words per dimension for a scramble */
#define QMC_GH_MAX_N 1000  /* largest Gauss-Hermite rule */

/* Largest supported dimension of the Sobol points (21201). */
int qmc_sobol_max_dim(void);

/* Fill scramble (d * QMC_SOBOL_WORDS words) from R's RNG, in the order of
 * the array; each word takes two unif_rand() draws u1, u2 and is
 * 65536 floor(65536 u1) + floor(65536 u2).  The caller brackets the call by
 * GetRNGstate() / PutRNGstate(). */
void qmc_sobol_draw(int d, uint32_t *scramble);

/* n scrambled Sobol points in d dimensions, out is n x d: uniform in
 * [0, 1), or when normal is nonzero standard normal (the integer point x
 * maps to qnorm((x + 1/2) / 2^32), the midpoint of its cell, so no
 * coordinate is infinite, |z| < 6.4), with a fresh scramble drawn by
 * qmc_sobol_draw(); the caller brackets the call by GetRNGstate() /
 * PutRNGstate().  Requires 1 <= d <= qmc_sobol_max_dim(), n >= 0.  Scratch
 * memory comes from R_alloc. */
void qmc_sobol_random(int n, int d, int normal, double *out);

/* Gauss-Hermite rule with n nodes (1 <= n <= QMC_GH_MAX_N), nodes ascending.
 * physicists == 0: sum_i w_i g(x_i) approximates E g(Z), Z ~ N(0, 1), and
 * the weights sum to 1; otherwise it approximates the integral of
 * exp(-x^2) g(x) and the weights sum to sqrt(pi).  Exact for polynomials of
 * degree <= 2n - 1.  Returns 0, or 1 if Newton's method did not converge. */
int qmc_gauss_hermite(int n, int physicists, double *nodes, double *weights);

#endif
