/*
 * A device-buffer call on checked arguments: the queue's device and its
 * context, the row-major call turned into the column-major one that
 * computes the same memory (for SGEMM C^T = B^T A^T, for SGEMV a row-major
 * A is a column-major A^T), the plan for it (plan/plan.c), the executor
 * to enqueue it (execute.c), and the plan logged as the caller wrote the
 * call. It reads the call from its record (plan/record.h), the math mode
 * included, never from the process's state. The front doors (api/) call
 * it after their checks, the sub-problems of a call past the index limit
 * (api/split.c) and the host-pointer path's tiles (host/) once per piece.
 */
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

/* SGEMM as the column-major call over the same memory (row-major C is
 * C^T = op(B)^T op(A)^T). */
static oclblas_status sgemm(const oclblas__devctx *cx, const oclblas__record *r, cl_context ctx,
                            cl_command_queue queue, cl_event *event)
{
    const oclblas__record c = oclblas__record_col_major(r);
    const int uses_ab = oclblas__record_uses_ab(&c);
    const cl_mem ops[3] = {c.a.buf, c.b.buf, c.c.buf};
    const oclblas__gemm_problem p = {
        c.trans_a != OCLBLAS_NO_TRANS, c.trans_b != OCLBLAS_NO_TRANS, c.m, c.n, c.k, c.alpha, c.beta,
        {c.a.off, c.a.ld, 0, uses_ab ? oclblas__alignment(c.a.buf, c.a.off) : 0},
        {c.b.off, c.b.ld, 0, uses_ab ? oclblas__alignment(c.b.buf, c.b.off) : 0},
        {c.c.off, c.c.ld, 0, 0},
        r->mode};
    oclblas__plan plan;
    const oclblas__call call = {"sgemm", r->layout, r->trans_a, r->trans_b, r->m, r->n, r->k};
    return execute_logged(oclblas__gemm_plan(cx, &p, &plan), cx, &plan, ctx, queue, ops, event, &call);
}

/* A vector's element 0: as in reference BLAS, the far end for a negative increment. */
static size_t start_of(const oclblas__arg *v, size_t len)
{
    return v->inc < 0 ? v->off + (len - 1) * ((size_t)0 - (size_t)v->inc) : v->off;
}

/* SGEMV: a row-major A is a column-major A^T. */
static oclblas_status sgemv(const oclblas__devctx *cx, const oclblas__record *r, cl_context ctx,
                            cl_command_queue queue, cl_event *event)
{
    const oclblas__record c = oclblas__record_col_major(r);
    const int t = c.trans_a != OCLBLAS_NO_TRANS, uses_ax = c.alpha != 0.0f;
    const size_t x_start = start_of(&c.b, t ? c.m : c.n), y_start = start_of(&c.c, t ? c.n : c.m);
    const cl_mem ops[3] = {c.a.buf, c.b.buf, c.c.buf};
    const oclblas__gemv_problem p = {
        t, c.m, c.n, c.alpha, c.beta,
        {c.a.off, c.a.ld, 0, uses_ax ? oclblas__alignment(c.a.buf, c.a.off) : 0},
        {x_start, 0, c.b.inc, uses_ax && c.b.inc == 1 ? oclblas__alignment(c.b.buf, x_start) : 0},
        {y_start, 0, c.c.inc, 0},
        OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C, r->mode};
    oclblas__plan plan;
    const oclblas__call call = {"sgemv", r->layout, r->trans_a, OCLBLAS_NO_TRANS, r->m, r->n, 0};
    return execute_logged(oclblas__gemv_plan(cx, &p, &plan), cx, &plan, ctx, queue, ops, event, &call);
}

oclblas_status oclblas__run(const oclblas__devctx *cx, const oclblas__record *r, cl_command_queue queue,
                            cl_event *event)
{
    cl_context ctx;
    const oclblas_status st = queue_context(queue, &ctx, &cx);
    if (st != OCLBLAS_SUCCESS)
        return st;
    return r->routine == OCLBLAS__SGEMM ? sgemm(cx, r, ctx, queue, event) : sgemv(cx, r, ctx, queue, event);
}
