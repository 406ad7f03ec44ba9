/*
 * A device-buffer call on checked arguments (run.c): in the caller's
 * layout, planned with the device's context and executed.
 */
#ifndef OCLBLAS_RUN_H
#define OCLBLAS_RUN_H

#include "plan/context.h"

/* SGEMM on checked arguments, in the caller's layout, with a device context
 * (NULL: the current one of the queue's device). */
oclblas_status oclblas__sgemm_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans_a,
                                  oclblas_transpose trans_b,
                                  size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_off, size_t lda,
                                  cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c, size_t c_off,
                                  size_t ldc, cl_command_queue queue, cl_event *event);
/* SGEMV likewise; x_start and y_start are the elements of x[0] and y[0]
 * (for a negative increment, the last element in memory). */
oclblas_status oclblas__sgemv_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans,
                                  size_t m, size_t n,
                                  float alpha, cl_mem a, size_t a_off, size_t lda, cl_mem x, size_t x_start,
                                  ptrdiff_t incx, float beta, cl_mem y, size_t y_start, ptrdiff_t incy,
                                  cl_command_queue queue, cl_event *event);

#endif
