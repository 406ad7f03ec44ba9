/*
 * What the tests, the tuner and the benchmark share to check results: the
 * seeded input data and the error bound a result is held to. Header-only
 * (static inline), since the tests link the shared library, whose internal
 * symbols are hidden, and the tuner links the internals.
 */
#ifndef OCLBLAS_VERIFY_H
#define OCLBLAS_VERIFY_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

/* Uniform in [-1, 1) from a 32-bit LCG, so a failure reproduces from its seed. */
static inline void oclblas__fill_uniform(float *x, size_t n, uint32_t *seed)
{
    for (size_t i = 0; i < n; ++i) {
        *seed = *seed * 1664525u + 1013904223u;
        x[i] = (float)((*seed >> 8) * (1.0 / 8388608.0) - 1.0);
    }
}

/* How far element (i, j) of alpha op(A) op(B) + beta C may be from the
 * exact result: 4 (k + 2) eps (|alpha| (|op(A)| |op(B)|)_ij + |beta| |C_ij|),
 * the classical bound of a dot product of length k with a factor for the
 * reference's own rounding, plus the smallest normal float so that an exact
 * zero has some room. magnitude is the bracket, computed by the same
 * routine on absolute values, so the bound scales with k and with the
 * operands, element by element. */
static inline double oclblas__error_bound(size_t k, double magnitude)
{
    return 4.0 * ((double)k + 2.0) * FLT_EPSILON * magnitude + FLT_MIN;
}

#endif
