/*
 * SGEMV on device buffers. oclblas_sgemv_cl checks the arguments in the
 * order reference CBLAS does, then its own; oclblas__sgemv_run turns a
 * row-major call into the column-major one over the same memory (a
 * row-major A is a column-major A^T), asks the plan (plan.c: gemv_n or
 * gemv_t by the direction of memory, the reduction split where the device
 * would otherwise idle) for what to enqueue and the executor to enqueue it,
 * and logs the plan as the caller wrote the call.
 */
#include "hostpath.h"

#include <limits.h>
#include <stdlib.h>

oclblas_status oclblas__sgemv_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans,
                                  size_t m, size_t n, float alpha, cl_mem a, size_t a_off, size_t lda, cl_mem x,
                                  size_t x_start, ptrdiff_t incx, float beta, cl_mem y, size_t y_start,
                                  ptrdiff_t incy, cl_command_queue queue, cl_event *event)
{
    cl_context ctx;
    cl_device_id dev_id;
    const oclblas__device_info *dev;
    oclblas_status st = oclblas__queue_info(queue, &ctx, &dev_id);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__device_info_get(dev_id, &dev);
    if (st == OCLBLAS_SUCCESS && !cx)
        st = oclblas__devctx_get(dev, &cx);
    if (st != OCLBLAS_SUCCESS)
        return st;
    const int t = trans != OCLBLAS_NO_TRANS, col = layout == OCLBLAS_COL_MAJOR, uses_ax = alpha != 0.0f;
    const cl_mem ops[3] = {a, x, y};
    const oclblas__gemv_problem p = {
        col ? t : !t, col ? m : n, col ? n : m, alpha, beta,
        {a_off, lda, 0, uses_ax ? oclblas__alignment(a, a_off) : 0},
        {x_start, 0, incx, uses_ax && incx == 1 ? oclblas__alignment(x, x_start) : 0},
        {y_start, 0, incy, 0},
        OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C, oclblas_get_math_mode()};
    oclblas__plan plan;
    st = oclblas__gemv_plan(cx, &p, &plan);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__execute(cx, &plan, ctx, queue, ops, event, NULL);
    if (st == OCLBLAS_SUCCESS && oclblas__verbose()) {
        const oclblas__call call = {"sgemv", layout, trans, OCLBLAS_NO_TRANS, m, n, 0};
        char text[400];
        oclblas__plan_describe(&call, &plan, text, sizeof text);
        oclblas__log("%s", text);
    }
    return st;
}

oclblas_status oclblas_sgemv_cl(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                cl_mem a, size_t a_offset, size_t lda, cl_mem x, size_t x_offset, ptrdiff_t incx,
                                float beta, cl_mem y, size_t y_offset, ptrdiff_t incy, cl_command_queue queue,
                                cl_event *event)
{
    oclblas_status st = oclblas__sgemv_check(layout, trans, m, n, lda, incx, incy);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__sgemv_check_kernels(m, n, lda, incx, incy);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (!queue)
        return OCLBLAS_NULL_QUEUE;
    const int col = layout == OCLBLAS_COL_MAJOR;
    cl_context ctx;
    cl_device_id dev;
    st = oclblas__queue_info(queue, &ctx, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (m == 0 || n == 0)
        return oclblas__marker(queue, event);
    const int t = trans != OCLBLAS_NO_TRANS;
    const size_t len_x = t ? m : n, len_y = t ? n : m;
    const size_t step_x = (size_t)(incx < 0 ? -incx : incx), step_y = (size_t)(incy < 0 ? -incy : incy);
    st = oclblas__check_buffer(y, ctx, y_offset, (len_y - 1) * step_y + 1,
                               OCLBLAS__WRITES | (beta != 0.0f ? OCLBLAS__READS : 0), OCLBLAS_NULL_Y,
                               OCLBLAS_BUFFER_Y_TOO_SMALL);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (alpha != 0.0f) {
        st = oclblas__check_buffer(a, ctx, a_offset, col ? oclblas__extent(m, n, lda) : oclblas__extent(n, m, lda),
                                   OCLBLAS__READS, OCLBLAS_NULL_A, OCLBLAS_BUFFER_A_TOO_SMALL);
        if (st == OCLBLAS_SUCCESS)
            st = oclblas__check_buffer(x, ctx, x_offset, (len_x - 1) * step_x + 1, OCLBLAS__READS, OCLBLAS_NULL_X,
                                       OCLBLAS_BUFFER_X_TOO_SMALL);
        if (st != OCLBLAS_SUCCESS)
            return st;
    }
    /* As in reference BLAS, a negative increment starts at the far end. */
    const size_t x_start = incx < 0 ? x_offset + (len_x - 1) * step_x : x_offset;
    const size_t y_start = incy < 0 ? y_offset + (len_y - 1) * step_y : y_offset;
    /* Past the kernels' int: sub-problems that stay inside it. */
    if (oclblas__gemv_needs_split(layout, t, m, n, alpha != 0.0f ? a_offset : 0, alpha != 0.0f ? lda : 0,
                                  alpha != 0.0f ? x_offset : 0, alpha != 0.0f ? (len_x - 1) * step_x + 1 : 0, y_offset,
                                  (len_y - 1) * step_y + 1))
        return oclblas__sgemv_split(layout, trans, m, n, alpha, a, a_offset, lda, x, x_start, incx, beta, y, y_start,
                                    incy, queue, event);
    return oclblas__sgemv_run(NULL, layout, trans, m, n, alpha, a, a_offset, lda, x, x_start, incx, beta, y, y_start,
                              incy, queue, event);
}
