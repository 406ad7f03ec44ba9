/*
 * The independent reference of the drop-in tests: SGEMM and SGEMV as plain
 * double-precision loops over the caller's layout, and a comparison whose
 * bound grows with k and with the magnitude of the terms summed, so that a
 * correct float result always passes and a wrong one cannot hide in it.
 * Header-only, so that the preloaded test program links nothing of oclblas.
 */
#ifndef OCLBLAS_CBLAS_TEST_REFERENCE_H
#define OCLBLAS_CBLAS_TEST_REFERENCE_H

#include <float.h>
#include <math.h>
#include <stddef.h>

/* Element (i, j) of op(X) for X stored row- or column-major with leading dimension ld. */
static inline double ref_elem(int row_major, int trans, const float *x, size_t ld, size_t i, size_t j)
{
    if (trans) {
        const size_t t = i;
        i = j;
        j = t;
    }
    return row_major ? x[i * ld + j] : x[j * ld + i];
}

static inline float *ref_at(int row_major, float *c, size_t ld, size_t i, size_t j)
{
    return row_major ? c + i * ld + j : c + j * ld + i;
}

/* Checks C (m x n) after C = alpha op(A) op(B) + beta C0; c0 is a copy of C
 * before the call. Every element of the arrays outside the m x n block must
 * be unchanged. Returns the worst ratio of error to bound (<= 1 passes), or
 * a huge value when memory outside C changed. */
static inline double ref_check_gemm(int row_major, int ta, int tb, size_t m, size_t n, size_t k, float alpha,
                                    const float *a, size_t lda, const float *b, size_t ldb, float beta,
                                    const float *c0, const float *c, size_t ldc, size_t c_count)
{
    double worst = 0.0;
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double sum = 0.0, mag = 0.0;
            if (alpha != 0.0f)
                for (size_t p = 0; p < k; ++p) {
                    const double t = ref_elem(row_major, ta, a, lda, i, p) * ref_elem(row_major, tb, b, ldb, p, j);
                    sum += t;
                    mag += fabs(t);
                }
            const double old = beta == 0.0f ? 0.0 : *ref_at(row_major, (float *)c0, ldc, i, j);
            const double want = (double)alpha * sum + (double)beta * old;
            const double bound = (double)(k + 2) * FLT_EPSILON * (fabs((double)alpha) * mag + fabs((double)beta * old))
                                 + FLT_MIN;
            const double got = *ref_at(row_major, (float *)c, ldc, i, j);
            const double r = isnan(got) || isnan(want) ? (isnan(got) && isnan(want) ? 0.0 : 1e300)
                                                       : fabs(got - want) / bound;
            if (r > worst)
                worst = r;
        }
    /* Nothing outside the block may change: the padding of each line, and
     * whatever follows the last one. */
    const size_t lines = row_major ? m : n, inner = row_major ? n : m;
    for (size_t e = 0; e < c_count; ++e) {
        const size_t line = e / ldc, pos = e % ldc;
        if ((line >= lines || pos >= inner) && !(c[e] == c0[e] || (isnan(c[e]) && isnan(c0[e]))))
            return 1e300;
    }
    return worst;
}

/* Element i of a vector of length len with increment inc, as BLAS walks it. */
static inline size_t ref_vidx(size_t i, size_t len, ptrdiff_t inc)
{
    return inc > 0 ? i * (size_t)inc : (len - 1 - i) * (size_t)(-inc);
}

/* Checks y after y = alpha op(A) x + beta y0 (A m x n in its layout);
 * elements of y between the strided ones must be unchanged. */
static inline double ref_check_gemv(int row_major, int trans, size_t m, size_t n, float alpha, const float *a,
                                    size_t lda, const float *x, ptrdiff_t incx, float beta, const float *y0,
                                    const float *y, ptrdiff_t incy, size_t y_count)
{
    const size_t len_x = trans ? m : n, len_y = trans ? n : m;
    double worst = 0.0;
    for (size_t i = 0; i < len_y; ++i) {
        double sum = 0.0, mag = 0.0;
        if (alpha != 0.0f)
            for (size_t j = 0; j < len_x; ++j) {
                const double t = ref_elem(row_major, trans, a, lda, i, j) * x[ref_vidx(j, len_x, incx)];
                sum += t;
                mag += fabs(t);
            }
        const size_t iy = ref_vidx(i, len_y, incy);
        const double old = beta == 0.0f ? 0.0 : y0[iy];
        const double want = (double)alpha * sum + (double)beta * old;
        const double bound = (double)(len_x + 2) * FLT_EPSILON * (fabs((double)alpha) * mag + fabs((double)beta * old))
                             + FLT_MIN;
        const double got = y[iy];
        const double r = isnan(got) || isnan(want) ? (isnan(got) && isnan(want) ? 0.0 : 1e300)
                                                   : fabs(got - want) / bound;
        if (r > worst)
            worst = r;
    }
    const size_t step = (size_t)(incy < 0 ? -incy : incy);
    for (size_t e = 0; e < y_count; ++e)
        if ((e % step != 0 || e / step >= len_y) && !(y[e] == y0[e] || (isnan(y[e]) && isnan(y0[e]))))
            return 1e300;
    return worst;
}

/* Uniform in [-1, 1) from a small LCG, so that a failure reproduces. */
static inline void ref_fill(float *x, size_t count, unsigned *seed)
{
    for (size_t i = 0; i < count; ++i) {
        *seed = *seed * 1664525u + 1013904223u;
        x[i] = (float)((*seed >> 8) * (1.0 / 16777216.0) * 2.0 - 1.0);
    }
}

#endif
