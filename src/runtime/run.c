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
 *
 * A call that repeats the thread's last call of its routine on the same
 * snapshot of the device's context (a loop over one shape) reuses that
 * call's plan: plans are pure functions of the two, and choosing SGEMM's
 * plan by the cost model costs about as much host time as a launch. So
 * does a strided SGEMM batch (oclblas__gemm_batch_plan_of, for
 * api/batch_cl.c), whose short products' launches the host's planning
 * would otherwise pace.
 */
#include "runtime/run.h"
#include "plan/plan.h"
#include "runtime/devctx.h"
#include "runtime/execute.h"
#include "runtime/launch.h"
#include "util/util.h"

#include <string.h>

oclblas_status oclblas__queue_context(cl_command_queue queue, cl_context *ctx, const oclblas__devctx **cx)
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

/* ---- the thread's last plans ---------------------------------------------- */

/* Only the library's own snapshots are keys: they are never changed or
 * freed (runtime/devctx.c), so a pointer names one for the process. A
 * context a caller passes in (the tuner's, changed between candidates) is
 * planned every time. */
typedef struct {
    const oclblas__devctx *cx; /* NULL: none yet */
    oclblas__gemm_problem problem;
    oclblas__plan plan;
} gemm_memo;
typedef struct {
    const oclblas__devctx *cx;
    oclblas__gemv_problem problem;
    oclblas__plan plan;
} gemv_memo;
typedef struct {
    const oclblas__devctx *cx;
    oclblas__gemm_problem problem;
    oclblas__batch batch;
    oclblas__plan plan;
} batch_memo;
static _Thread_local gemm_memo last_gemm;
static _Thread_local batch_memo last_batch;
static _Thread_local gemv_memo last_gemv;

static int same_float(float x, float y) { return memcmp(&x, &y, sizeof x) == 0; }

static int same_operand(const oclblas__operand *x, const oclblas__operand *y)
{
    return x->offset == y->offset && x->ld == y->ld && x->inc == y->inc && x->align == y->align;
}

static int same_gemm(const oclblas__gemm_problem *x, const oclblas__gemm_problem *y)
{
    return x->trans_a == y->trans_a && x->trans_b == y->trans_b && x->m == y->m && x->n == y->n && x->k == y->k &&
           same_float(x->alpha, y->alpha) && same_float(x->beta, y->beta) && same_operand(&x->a, &y->a) &&
           same_operand(&x->b, &y->b) && same_operand(&x->c, &y->c) && x->mode == y->mode;
}

static int same_gemv(const oclblas__gemv_problem *x, const oclblas__gemv_problem *y)
{
    return x->trans == y->trans && x->rows == y->rows && x->cols == y->cols && same_float(x->alpha, y->alpha) &&
           same_float(x->beta, y->beta) && same_operand(&x->a, &y->a) && same_operand(&x->x, &y->x) &&
           same_operand(&x->y, &y->y) && x->a_buf == y->a_buf && x->x_buf == y->x_buf && x->y_buf == y->y_buf &&
           x->mode == y->mode;
}

/* The plan of p on cx: the thread's last one where it was made from the
 * same (own: cx is one of the library's snapshots). */
static oclblas_status gemm_plan(const oclblas__devctx *cx, int own, const oclblas__gemm_problem *p, oclblas__plan *out)
{
    gemm_memo *m = &last_gemm;
    if (own && m->cx == cx && same_gemm(&m->problem, p)) {
        *out = m->plan;
        return OCLBLAS_SUCCESS;
    }
    const oclblas_status st = oclblas__gemm_plan(cx, p, out);
    if (own && st == OCLBLAS_SUCCESS) {
        m->cx = cx;
        m->problem = *p;
        m->plan = *out;
    }
    return st;
}

oclblas_status oclblas__gemm_batch_plan_of(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                          const oclblas__batch *batch, oclblas__plan *out)
{
    batch_memo *m = &last_batch;
    if (m->cx == cx && same_gemm(&m->problem, p) && m->batch.count == batch->count &&
        m->batch.stride_a == batch->stride_a && m->batch.stride_b == batch->stride_b &&
        m->batch.stride_c == batch->stride_c) {
        *out = m->plan;
        return OCLBLAS_SUCCESS;
    }
    const oclblas_status st = oclblas__gemm_batch_plan(cx, p, batch, out);
    if (st == OCLBLAS_SUCCESS) {
        m->cx = cx;
        m->problem = *p;
        m->batch = *batch;
        m->plan = *out;
    }
    return st;
}

static oclblas_status gemv_plan(const oclblas__devctx *cx, int own, const oclblas__gemv_problem *p, oclblas__plan *out)
{
    gemv_memo *m = &last_gemv;
    if (own && m->cx == cx && same_gemv(&m->problem, p)) {
        *out = m->plan;
        return OCLBLAS_SUCCESS;
    }
    const oclblas_status st = oclblas__gemv_plan(cx, p, out);
    if (own && st == OCLBLAS_SUCCESS) {
        m->cx = cx;
        m->problem = *p;
        m->plan = *out;
    }
    return st;
}

/* ---- the routines --------------------------------------------------------------- */

/* SGEMM as the column-major call over the same memory (row-major C is
 * C^T = op(B)^T op(A)^T). */
static oclblas_status sgemm(const oclblas__devctx *cx, int own, const oclblas__record *r, cl_context ctx,
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
    return execute_logged(gemm_plan(cx, own, &p, &plan), cx, &plan, ctx, queue, ops, event, &call);
}

/* A vector's element 0: as in reference BLAS, the far end for a negative increment. */
static size_t start_of(const oclblas__arg *v, size_t len)
{
    return v->inc < 0 ? v->off + (len - 1) * ((size_t)0 - (size_t)v->inc) : v->off;
}

/* SGEMV: a row-major A is a column-major A^T. */
static oclblas_status sgemv(const oclblas__devctx *cx, int own, const oclblas__record *r, cl_context ctx,
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
    return execute_logged(gemv_plan(cx, own, &p, &plan), cx, &plan, ctx, queue, ops, event, &call);
}

oclblas_status oclblas__run(const oclblas__devctx *cx, const oclblas__record *r, cl_command_queue queue,
                            cl_event *event)
{
    cl_context ctx;
    const int own = cx == NULL;
    const oclblas_status st = oclblas__queue_context(queue, &ctx, &cx);
    if (st != OCLBLAS_SUCCESS)
        return st;
    return r->routine == OCLBLAS__SGEMM ? sgemm(cx, own, r, ctx, queue, event) : sgemv(cx, own, r, ctx, queue, event);
}
