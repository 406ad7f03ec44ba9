/*
 * SGEMM on device buffers. oclblas_sgemm_cl checks the arguments in the
 * order reference CBLAS does, then its own (queue, buffers), and returns
 * early on trivial input; oclblas__sgemm_run turns a row-major call into
 * the column-major one that computes the same memory (C^T = B^T A^T), asks
 * the plan (plan.c) for what to enqueue with the device's context and the
 * executor (execute.c) to enqueue it, and logs the plan as the caller wrote
 * the call. Operands that reach past the kernels' int run as sub-problems
 * (split.c).
 */
#include "hostpath.h"

oclblas_status oclblas__sgemm_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans_a,
                                  oclblas_transpose trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                                  size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c,
                                  size_t c_off, size_t ldc, cl_command_queue queue, cl_event *event)
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
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    const int col = layout == OCLBLAS_COL_MAJOR, uses_ab = k > 0 && alpha != 0.0f;
    /* Row-major C is column-major C^T = op(B)^T op(A)^T over the same memory. */
    const cl_mem ops[3] = {col ? a : b, col ? b : a, c};
    const size_t off0 = col ? a_off : b_off, off1 = col ? b_off : a_off;
    const oclblas__gemm_problem p = {
        col ? at : bt, col ? bt : at, col ? m : n, col ? n : m, k, alpha, beta,
        {off0, col ? lda : ldb, 0, uses_ab ? oclblas__alignment(ops[0], off0) : 0},
        {off1, col ? ldb : lda, 0, uses_ab ? oclblas__alignment(ops[1], off1) : 0},
        {c_off, ldc, 0, 0},
        oclblas_get_math_mode()};
    oclblas__plan plan;
    st = oclblas__gemm_plan(cx, &p, &plan);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__execute(cx, &plan, ctx, queue, ops, event, NULL);
    if (st == OCLBLAS_SUCCESS && oclblas__verbose()) {
        const oclblas__call call = {"sgemm", layout, trans_a, trans_b, m, n, k};
        char text[400];
        oclblas__plan_describe(&call, &plan, text, sizeof text);
        oclblas__log("%s", text);
    }
    return st;
}

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
