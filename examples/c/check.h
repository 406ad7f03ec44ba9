/*
 * What the C examples share: a repeatable uniform fill and the check of a
 * product against float64 with the error bound the library's tests use,
 * 4 (k + 2) eps |A| |B| per element. Included by each example, so that
 * each still builds with one cc command.
 */
#ifndef OCLBLAS_EXAMPLE_CHECK_H
#define OCLBLAS_EXAMPLE_CHECK_H

#include <float.h>
#include <math.h>
#include <stddef.h>

/* A number in [-1, 1) from a linear congruential sequence. */
static float uniform(unsigned *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return (float)((*seed >> 8) * (1.0 / 8388608.0) - 1.0);
}

/* Worst ratio of error to bound over C = A B (row-major m x k times k x n). */
static double worst_gemm(const float *a, const float *b, const float *c, size_t m, size_t n, size_t k)
{
    double worst = 0;
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double sum = 0, mag = 0;
            for (size_t p = 0; p < k; ++p) {
                sum += (double)a[i * k + p] * b[p * n + j];
                mag += fabs((double)a[i * k + p] * b[p * n + j]);
            }
            const double ratio = fabs(c[i * n + j] - sum) / (4.0 * (k + 2) * FLT_EPSILON * mag + FLT_MIN);
            worst = ratio > worst || isnan(ratio) ? ratio : worst;
        }
    return worst;
}

#endif
