/*
 * A device-buffer call on checked arguments: the queue's device and its
 * context, the row-major call turned into the column-major one that
 * computes the same memory (for SGEMM C^T = B^T A^T, for SGEMV a row-major
 * A is a column-major A^T), the plan for it (plan/plan.c), the executor
 * to enqueue it (execute.c), and the plan logged as the caller wrote the
 * call. The front doors (api/) call it after their checks, the
 * sub-problems of a call past the index limit (api/split.c) and the
 * host-pointer path's tiles (host/) once per piece.
 */
#include "runtime/run.h"
#include "runtime/run.h"
#include "plan/plan.h"
#include "runtime/devctx.h"
#include "runtime/execute.h"
#include "runtime/launch.h"
#include "util/util.h"

/* The queue's context, and the current context of its device unless *cx
 * is given. */
static oclblas_status queue_context(cl_command_queue queue, cl_context *ctx, const oclblas__devctx **cx)
{
    cl_device_id dev_id;
    const oclblas__device_info *dev;
    oclblas_status st = oclblas__queue_info(queue, ctx, &dev_id);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__device_info_get(dev_id, &dev);
    if (st == OCLBLAS_SUCCESS && !*cx)
        st = oclblas__devctx_get(dev, cx);
    return st;
}

/* Enqueues the plan when planning succeeded (st), and logs it as the
 * caller wrote the call. */
static oclblas_status execute_logged(oclblas_status st, const oclblas__devctx *cx, const oclblas__plan *plan,
                                     cl_context ctx, cl_command_queue queue, const cl_mem ops[3], cl_event *event,
                                     const oclblas__call *call)
{
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__execute(cx, plan, ctx, queue, ops, event, NULL);
    if (st == OCLBLAS_SUCCESS && oclblas__verbose()) {
        char text[400];
        oclblas__plan_describe(call, plan, text, sizeof text);
        oclblas__log("%s", text);
    }
    return st;
}

oclblas_status oclblas__sgemm_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans_a,
                                  oclblas_transpose trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                                  size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c,
                                  size_t c_off, size_t ldc, cl_command_queue queue, cl_event *event)
{
    cl_context ctx;
    const oclblas_status st = queue_context(queue, &ctx, &cx);
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
    const oclblas__call call = {"sgemm", layout, trans_a, trans_b, m, n, k};
    return execute_logged(oclblas__gemm_plan(cx, &p, &plan), cx, &plan, ctx, queue, ops, event, &call);
}

oclblas_status oclblas__sgemv_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans,
                                  size_t m, size_t n, float alpha, cl_mem a, size_t a_off, size_t lda, cl_mem x,
                                  size_t x_start, ptrdiff_t incx, float beta, cl_mem y, size_t y_start,
                                  ptrdiff_t incy, cl_command_queue queue, cl_event *event)
{
    cl_context ctx;
    const oclblas_status st = queue_context(queue, &ctx, &cx);
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
    const oclblas__call call = {"sgemv", layout, trans, OCLBLAS_NO_TRANS, m, n, 0};
    return execute_logged(oclblas__gemv_plan(cx, &p, &plan), cx, &plan, ctx, queue, ops, event, &call);
}
