/*
 * The host-pointer API: SGEMM and SGEMV on ordinary arrays, synchronous, on
 * the library's default device (or the host, where that is faster). Checks
 * both results against a float64 product with the error bound the library's
 * tests use, 4 (k + 2) eps |A| |B| per element, and says how it went.
 *
 *   cc host_api.c -o host_api $(pkg-config --cflags --libs oclblas)
 */
/* The OpenCL version this program is written against (it makes no OpenCL
 * call of its own); oclblas.h leaves the choice to its includer. */
#define CL_TARGET_OPENCL_VERSION 120
#include <oclblas.h>

#include "check.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const size_t m = 300, n = 200, k = 250;
    float *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b), *c = malloc(m * n * sizeof *c);
    float *x = malloc(k * sizeof *x), *y = malloc(m * sizeof *y);
    if (!a || !b || !c || !x || !y)
        return 1;
    unsigned seed = 1;
    for (size_t i = 0; i < m * k; ++i)
        a[i] = uniform(&seed);
    for (size_t i = 0; i < k * n; ++i)
        b[i] = uniform(&seed);
    for (size_t i = 0; i < k; ++i)
        x[i] = uniform(&seed);

    oclblas_status st = oclblas_sgemm(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, 1.0f, a, k, b,
                                      n, 0.0f, c, n);
    if (st != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclblas_sgemm: %s\n", oclblas_status_string(st));
        return 1;
    }
    const double gemm = worst_gemm(a, b, c, m, n, k);

    /* y = A x is the product with an n = 1 matrix B = x. */
    st = oclblas_sgemv(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, m, k, 1.0f, a, k, x, 1, 0.0f, y, 1);
    if (st != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclblas_sgemv: %s\n", oclblas_status_string(st));
        return 1;
    }
    const double gemv = worst_gemm(a, x, y, m, 1, k);

    /* A bad argument is a status with a message, and nothing is written. */
    st = oclblas_sgemm(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, 1.0f, a, k - 1, b, n, 0.0f, c,
                       n);
    printf("oclblas %s: sgemm %zux%zux%zu error/bound %.3f, sgemv error/bound %.3f; lda too small: \"%s\"\n",
           oclblas_version(), m, n, k, gemm, gemv, oclblas_status_string(st));
    free(a);
    free(b);
    free(c);
    free(x);
    free(y);
    return gemm <= 1 && gemv <= 1 && st == OCLBLAS_INVALID_LDA ? 0 : 1;
}
