/*
 * The BLAS already in the process (sysblas.c), else the library's own.
 */
#ifndef OCLBLAS_SYSBLAS_H
#define OCLBLAS_SYSBLAS_H

#include "oclblas.h"

#include <stddef.h>

/* SGEMM and SGEMV on host memory (arguments checked) by the BLAS already
 * in the process, else the library's own routine; they return the name of
 * what served, for the log. */
const char *oclblas__sysblas_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                   size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                   const float *b, size_t ldb, float beta, float *c, size_t ldc);
const char *oclblas__sysblas_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                   const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                                   ptrdiff_t incy);
/* What serves SGEMM (gemm 1) or SGEMV on the host: a file name, or the library's own routine. */
const char *oclblas__sysblas_name(int gemm);
/* 1 when this thread is inside a call of the other BLAS, which has called
 * back into the library: from then on the library's own routine serves. */
int oclblas__sysblas_reentered(void);

#endif
