/*
 * SGEMV on device buffers, the front door: oclblas_sgemv_cl checks the
 * arguments in the order reference CBLAS does, then its own, and hands the
 * call to the runtime (runtime/run.c: gemv_n or gemv_t by the direction of
 * memory), or as sub-problems (split.c) past the kernels' int.
 */
#include "api/checks.h"
#include "api/split.h"
#include "runtime/launch.h"
#include "runtime/run.h"

#include <limits.h>
#include <stdlib.h>

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
