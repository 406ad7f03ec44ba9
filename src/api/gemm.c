/*
 * SGEMM on device buffers, the front door: oclblas_sgemm_cl checks the
 * arguments in the order reference CBLAS does, then its own (queue,
 * buffers), returns early on trivial input, and hands the call to the
 * runtime (runtime/run.c), or as sub-problems (split.c) where operands
 * reach past the kernels' int.
 */
#include "api/checks.h"
#include "api/split.h"
#include "runtime/launch.h"
#include "runtime/run.h"

/* Elements a rows x cols operand spans in the caller's layout. */
static size_t span(oclblas_layout layout, size_t rows, size_t cols, size_t ld)
{
    return layout == OCLBLAS_COL_MAJOR ? oclblas__extent(rows, cols, ld) : oclblas__extent(cols, rows, ld);
}

oclblas_status oclblas_sgemm_cl(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda,
                                cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                                size_t ldc, cl_command_queue queue, cl_event *event)
{
    oclblas_status st = oclblas__sgemm_check(layout, trans_a, trans_b, m, n, k, lda, ldb, ldc);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__sgemm_check_kernels(m, n, lda, ldb, ldc);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (!queue)
        return OCLBLAS_NULL_QUEUE;
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    /* op(A) is m x k, op(B) k x n: the stored shapes. */
    const size_t a_rows = at ? k : m, a_cols = at ? m : k;
    const size_t b_rows = bt ? n : k, b_cols = bt ? k : n;

    cl_context ctx;
    cl_device_id dev;
    st = oclblas__queue_info(queue, &ctx, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (m == 0 || n == 0)
        return oclblas__marker(queue, event);
    /* C is read unless beta = 0, and A and B are not referenced when k = 0
     * or alpha = 0, as in reference BLAS. */
    st = oclblas__check_buffer(c, ctx, c_offset, span(layout, m, n, ldc),
                               OCLBLAS__WRITES | (beta != 0.0f ? OCLBLAS__READS : 0), OCLBLAS_NULL_C,
                               OCLBLAS_BUFFER_C_TOO_SMALL);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (k > 0 && alpha != 0.0f) {
        st = oclblas__check_buffer(a, ctx, a_offset, span(layout, a_rows, a_cols, lda), OCLBLAS__READS,
                                   OCLBLAS_NULL_A, OCLBLAS_BUFFER_A_TOO_SMALL);
        if (st == OCLBLAS_SUCCESS)
            st = oclblas__check_buffer(b, ctx, b_offset, span(layout, b_rows, b_cols, ldb), OCLBLAS__READS,
                                       OCLBLAS_NULL_B, OCLBLAS_BUFFER_B_TOO_SMALL);
        if (st != OCLBLAS_SUCCESS)
            return st;
    }
    /* Past the kernels' int: sub-problems that stay inside it. */
    if (oclblas__gemm_needs_split(layout, at, bt, m, n, k > 0 && alpha != 0.0f ? k : 0, a_offset, lda, b_offset, ldb,
                                  c_offset, ldc))
        return oclblas__sgemm_split(layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta,
                                    c, c_offset, ldc, queue, event);
    return oclblas__sgemm_run(NULL, layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta,
                              c, c_offset, ldc, queue, event);
}
