/* sobol_table.h -- the packed Sobol direction numbers of Joe and Kuo (2008),
 * table new-joe-kuo-6.21201 (dimensions 2..21201; dimension 1 is the van der
 * Corput sequence and has no entry).
 *
 * The table's lines are sorted by the degree s of their primitive
 * polynomial; qmc_sobol_per_degree[s - 1] lines have degree s.  Line t (in
 * order) is a record of (s - 1) + s (s - 1) / 2 bits in the little-endian bit
 * stream qmc_sobol_packed (bit p is bit p % 32 of word p / 32): first the
 * polynomial coefficients a in s - 1 bits, then (m_k - 1) / 2 in k - 1 bits
 * for k = 2, ..., s (m_1 = 1).  Each field is stored least significant bit
 * first.  src/sobol_table.c is written by tools/sobol-table.R. */
#ifndef COSTBO_SOBOL_TABLE_H
#define COSTBO_SOBOL_TABLE_H

#include <stdint.h>

#define QMC_SOBOL_MAX_DIM 21201
#define QMC_SOBOL_MAX_DEGREE 18
#define QMC_SOBOL_PACKED_WORDS 98407

extern const int qmc_sobol_per_degree[QMC_SOBOL_MAX_DEGREE];
extern const uint32_t qmc_sobol_packed[QMC_SOBOL_PACKED_WORDS];

#endif
