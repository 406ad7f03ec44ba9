/*
 * Device-buffer calls whose operands reach past the index limit, run as
 * sub-problems (split.c).
 */
#ifndef OCLBLAS_SPLIT_H
#define OCLBLAS_SPLIT_H

#include "oclblas.h"

#include <stddef.h>

/* Whether a device-buffer SGEMM or SGEMV must run as sub-problems: an
 * operand spans elements past the index limit from its buffer's start. */
int oclblas__gemm_needs_split(oclblas_layout layout, int ta, int tb, size_t m, size_t n, size_t k, size_t a_off,
                              size_t lda, size_t b_off, size_t ldb, size_t c_off, size_t ldc);
oclblas_status oclblas__sgemm_split(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                    size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_off, size_t lda,
                                    cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c, size_t c_off,
                                    size_t ldc, cl_command_queue queue, cl_event *event);
int oclblas__gemv_needs_split(oclblas_layout layout, int t, size_t m, size_t n, size_t a_off, size_t lda,
                              size_t x_lo, size_t x_span, size_t y_lo, size_t y_span);
oclblas_status oclblas__sgemv_split(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                    cl_mem a, size_t a_off, size_t lda, cl_mem x, size_t x_start, ptrdiff_t incx,
                                    float beta, cl_mem y, size_t y_start, ptrdiff_t incy, cl_command_queue queue,
                                    cl_event *event);

#endif
