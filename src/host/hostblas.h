/*
 * The library's own SGEMM and SGEMV on host memory (hostblas.c).
 */
#ifndef OCLBLAS_HOSTBLAS_H
#define OCLBLAS_HOSTBLAS_H

#include "oclblas.h"

#include <stddef.h>

/* SGEMM and SGEMV on host memory, in C, with reference BLAS semantics; the
 * arguments are already checked (valid enums, leading dimensions, non-zero
 * increments). They serve the host API below the HOST_MAX crossover and the
 * drop-in library whenever no device can do the work. Never fail. */
void oclblas__host_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b, size_t m,
                         size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                         float beta, float *c, size_t ldc);
void oclblas__host_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                         const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                         ptrdiff_t incy);

#endif
