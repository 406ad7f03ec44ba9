/*
 * A BLAS that is a wrapper over oclblas under the usual names: its sgemm_
 * and sgemv_ call oclblas_sgemm and oclblas_sgemv. A library like this in
 * the process is what the host-BLAS search of liboclblas (src/sysblas.c)
 * may take for another BLAS; the guard against a BLAS that calls back
 * into the library must turn that into one call of the library's own
 * routine, not an endless recursion. Built as a shared library for
 * cblas_forwarding_blas (forwarding_caller.c).
 */
#include "oclblas.h"

#include <stddef.h>

__attribute__((visibility("default"))) int forwarding_calls;

static oclblas_transpose trans_of(const char *t) { return *t == 'N' || *t == 'n' ? OCLBLAS_NO_TRANS : OCLBLAS_TRANS; }

__attribute__((visibility("default"))) void sgemm_(const char *ta, const char *tb, const int *m, const int *n,
                                                   const int *k, const float *alpha, const float *a, const int *lda,
                                                   const float *b, const int *ldb, const float *beta, float *c,
                                                   const int *ldc, size_t ta_len, size_t tb_len)
{
    (void)ta_len;
    (void)tb_len;
    ++forwarding_calls;
    oclblas_sgemm(OCLBLAS_COL_MAJOR, trans_of(ta), trans_of(tb), (size_t)*m, (size_t)*n, (size_t)*k, *alpha, a,
                  (size_t)*lda, b, (size_t)*ldb, *beta, c, (size_t)*ldc);
}

__attribute__((visibility("default"))) void sgemv_(const char *t, const int *m, const int *n, const float *alpha,
                                                   const float *a, const int *lda, const float *x, const int *incx,
                                                   const float *beta, float *y, const int *incy, size_t t_len)
{
    (void)t_len;
    ++forwarding_calls;
    oclblas_sgemv(OCLBLAS_COL_MAJOR, trans_of(t), (size_t)*m, (size_t)*n, *alpha, a, (size_t)*lda, x, *incx, *beta, y,
                  *incy);
}
