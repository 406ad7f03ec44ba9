/*
 * Host references for checking candidates: column-major SGEMM and SGEMV
 * through OpenBLAS when the tuner was built with it (fast enough for the
 * large problems tuning uses), else plain loops ordered for the cache.
 * Each result comes with an error bound per element, the tests' own
 * (oclblas__error_bound, src/verify.h), its magnitudes computed by the same
 * routine on absolute values, so that it scales with the depth of each dot
 * product and the magnitudes involved.
 */
#include "measure.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef OCLBLAS_TUNE_OPENBLAS
#include <cblas.h>
#endif

/* C = alpha op(A) op(B) + beta C, column-major; op = transpose when t. */
static void gemm(int ta, int tb, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                 const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
#ifdef OCLBLAS_TUNE_OPENBLAS
    cblas_sgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)m, (int)n,
                (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
#else
    /* Accumulating in double keeps the reference far inside the bound. */
    double *col = malloc(m * sizeof *col);
    if (!col) {
        for (size_t i = 0; i < m * n; ++i)
            c[i] = NAN; /* every candidate then fails its check: loud, not wrong */
        return;
    }
    for (size_t j = 0; j < n; ++j) {
        memset(col, 0, m * sizeof *col);
        for (size_t p = 0; p < k; ++p) {
            const double bv = tb ? b[p * ldb + j] : b[j * ldb + p];
            if (ta)
                for (size_t i = 0; i < m; ++i)
                    col[i] += (double)a[i * lda + p] * bv;
            else
                for (size_t i = 0; i < m; ++i)
                    col[i] += (double)a[p * lda + i] * bv;
        }
        for (size_t i = 0; i < m; ++i) {
            const double old = beta != 0.0f ? (double)beta * c[j * ldc + i] : 0.0;
            c[j * ldc + i] = (float)(alpha * col[i] + old);
        }
    }
    free(col);
#endif
}

static float *abs_copy(const float *x, size_t n)
{
    float *y = malloc((n ? n : 1) * sizeof *y);
    if (y)
        for (size_t i = 0; i < n; ++i)
            y[i] = fabsf(x[i]);
    return y;
}

int tune_ref_gemm(int ta, int tb, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                  const float *b, size_t ldb, float beta, const float *c0, float *ref, float *bound)
{
    const size_t na = ta ? m * lda : k * lda, nb = tb ? k * ldb : n * ldb;
    float *aa = abs_copy(a, na), *ab = abs_copy(b, nb);
    if (!aa || !ab) {
        free(aa);
        free(ab);
        return 0;
    }
    memcpy(ref, c0, m * n * sizeof *ref);
    gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, ref, m);
    for (size_t i = 0; i < m * n; ++i)
        bound[i] = fabsf(c0[i]);
    gemm(ta, tb, m, n, k, fabsf(alpha), aa, lda, ab, ldb, fabsf(beta), bound, m);
    for (size_t i = 0; i < m * n; ++i)
        bound[i] = (float)oclblas__error_bound(k, bound[i]);
    free(aa);
    free(ab);
    return 1;
}

int tune_ref_gemv(int trans, size_t m, size_t n, float alpha, const float *a, const float *x, float beta,
                  const float *y0, float *ref, float *bound)
{
    /* y = alpha op(A) x + beta y as a gemm with one column. */
    const size_t rows = trans ? n : m, depth = trans ? m : n;
    return tune_ref_gemm(trans, 0, rows, 1, depth, alpha, a, m, x, depth, beta, y0, ref, bound);
}

int tune_compare(const float *got, const float *ref, const float *bound, size_t n, char *note, size_t len)
{
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < n; ++i) {
        const double err = fabs((double)got[i] - (double)ref[i]);
        if (!(err <= bound[i])) { /* NaN fails too */
            if (!bad++)
                first = i;
        }
        const double ratio = err / bound[i];
        if (!(ratio <= worst))
            worst = ratio;
    }
    if (bad)
        snprintf(note, len, "%zu of %zu results wrong, first at %zu: %g instead of %g", bad, n, first,
                 (double)got[first], (double)ref[first]);
    else
        snprintf(note, len, "max error %.2g of the bound", worst);
    return bad == 0;
}
