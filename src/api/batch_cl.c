/*
 * The batched calls on device buffers. Each entry point checks every
 * problem by the single call's rules (checks.c), the batch's operands as a
 * whole against their buffers, and that no two problems write the same
 * output element (batch_checks.c), before it enqueues anything; then a
 * runner enqueues the batch:
 *   - a strided SGEMM batch by the batched plans (plan.c), each covering
 *     as many problems as one launch takes (all of them, unless scratch or
 *     the grid's third dimension caps it; one where each problem's own
 *     plan is faster, or fills the device alone), in the caller's layout
 *     turned column-major as the single call does (C^T = B^T A^T); a
 *     batch whose operands reach past the kernels' int runs problem by
 *     problem as the single call runs them (split.c);
 *   - a grouped batch as strided batches: consecutive problems of one
 *     shape whose offsets step evenly (problems packed one after the other
 *     are that) run as one, any other problem alone;
 *   - a strided SGEMV batch by the batched gemv plans (plan.c), the batch
 *     the third dimension of the gemv kernels and of their reduction, in
 *     the caller's layout turned column-major as the single call does; a
 *     batch past the kernels' int problem by problem, as for SGEMM.
 * The caller's event completes with the last launch (a marker after the
 * last where there were several).
 */
#include "api/batch.h"
#include "api/device.h"
#include "runtime/launch.h"
#include "api/checks.h"
#include "api/host.h"
#include "api/split.h"
#include "host/hostblas.h"
#include "host/hostdev.h"
#include "host/pool.h"
#include "host/sysblas.h"
#include "kernels/routine.h"
#include "plan/context.h"
#include "plan/plan.h"
#include "runtime/devctx.h"
#include "runtime/execute.h"
#include "runtime/run.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- the runners ------------------------------------------------------- */

/* The plans of one batch, launched in turn: the caller's event goes to the
 * only plan's launch, else to a marker after the last; the verbose log
 * describes the first. */
typedef struct {
    size_t plans;
    oclblas__plan first;
} batch_plans;

/* Enqueues plan, whose problems start at problem `first` of `count`. */
static oclblas_status batch_launch(batch_plans *b, const oclblas__devctx *cx, const oclblas__plan *plan, size_t first,
                                   size_t count, cl_context ctx, cl_command_queue queue, const cl_mem ops[3],
                                   cl_event *event)
{
    const int only = first == 0 && plan->problems >= count;
    const oclblas_status st = oclblas__execute(cx, plan, ctx, queue, ops, only ? event : NULL, NULL);
    if (b->plans++ == 0)
        b->first = *plan;
    return st;
}

/* After the last launch, st the batch's status so far: the caller's event
 * and the log. */
static oclblas_status batch_done(const batch_plans *b, oclblas_status st, const oclblas__call *call, size_t count,
                                 cl_command_queue queue, cl_event *event)
{
    if (st == OCLBLAS_SUCCESS && b->plans > 1)
        st = oclblas__marker(queue, event);
    if (st == OCLBLAS_SUCCESS && oclblas__verbose()) {
        char text[400];
        oclblas__plan_describe(call, &b->first, text, sizeof text);
        oclblas__log("batch of %zu in %zu plan%s, the first: %s", count, b->plans, b->plans == 1 ? "" : "s", text);
    }
    return st;
}

/* The element past the last problem's A, B and C in their buffers. */
static void strided_ends(oclblas_layout layout, const oclblas__gemm_item *g, const size_t stride[3], size_t count,
                         size_t end[3])
{
    size_t inner[3], outer[3];
    oclblas__gemm_shapes(layout, g, inner, outer);
    const size_t off[3] = {g->a_off, g->b_off, g->c_off}, ld[3] = {g->lda, g->ldb, g->ldc};
    for (int o = 0; o < 3; ++o)
        end[o] = oclblas__batch_end(off[o], stride[o], count, oclblas__extent(inner[o], outer[o], ld[o]));
}

/* Each problem as the single call runs it (sub-problems past the int). */
static oclblas_status gemm_each_alone(oclblas_layout layout, const oclblas__gemm_item *g, size_t stride_a,
                                      size_t stride_b, size_t stride_c, size_t count, cl_mem a, cl_mem b, cl_mem c,
                                      oclblas_math_mode mode, cl_command_queue queue)
{
    oclblas_status st = OCLBLAS_SUCCESS;
    for (size_t i = 0; i < count && st == OCLBLAS_SUCCESS; ++i) {
        const oclblas__record r = {OCLBLAS__SGEMM, layout, g->trans_a, g->trans_b, g->m, g->n, g->k, g->alpha, g->beta,
                                   {NULL, a, g->a_off + i * stride_a, g->lda, 0},
                                   {NULL, b, g->b_off + i * stride_b, g->ldb, 0},
                                   {NULL, c, g->c_off + i * stride_c, g->ldc, 0}, mode};
        st = oclblas__device_call(&r, queue, NULL);
    }
    return st;
}

oclblas_status oclblas__sgemm_strided_run(oclblas_layout layout, const oclblas__gemm_item *g, size_t stride_a,
                                          size_t stride_b, size_t stride_c, size_t count, cl_mem a, cl_mem b,
                                          cl_mem c, oclblas_math_mode mode, cl_command_queue queue,
                                          cl_event *event)
{
    cl_context ctx;
    const oclblas__devctx *cx = NULL;
    oclblas_status st = oclblas__queue_context(queue, &ctx, &cx);
    if (st != OCLBLAS_SUCCESS || count == 0 || g->m == 0 || g->n == 0)
        return st == OCLBLAS_SUCCESS ? oclblas__marker(queue, event) : st;
    const int uses_ab = g->k > 0 && g->alpha != 0.0f;
    const size_t stride[3] = {stride_a, stride_b, stride_c}, limit = oclblas__index_limit();
    size_t end[3];
    strided_ends(layout, g, stride, count, end);
    if ((uses_ab && (end[0] > limit || end[1] > limit)) || end[2] > limit) {
        st = gemm_each_alone(layout, g, stride_a, stride_b, stride_c, count, a, b, c, mode, queue);
        return st == OCLBLAS_SUCCESS ? oclblas__marker(queue, event) : st;
    }

    const int col = layout == OCLBLAS_COL_MAJOR;
    const int at = g->trans_a != OCLBLAS_NO_TRANS, bt = g->trans_b != OCLBLAS_NO_TRANS;
    /* Row-major C is column-major C^T = op(B)^T op(A)^T over the same memory. */
    const cl_mem ops[3] = {col ? a : b, col ? b : a, c};
    const size_t off0 = col ? g->a_off : g->b_off, off1 = col ? g->b_off : g->a_off;
    const oclblas__batch whole = {count, col ? stride_a : stride_b, col ? stride_b : stride_a, stride_c};
    oclblas__gemm_problem p = {col ? at : bt, col ? bt : at, col ? g->m : g->n, col ? g->n : g->m, g->k,
                               g->alpha, g->beta,
                               {0, col ? g->lda : g->ldb, 0, 0}, {0, col ? g->ldb : g->lda, 0, 0},
                               {0, g->ldc, 0, 0}, mode};
    oclblas__plan plan;
    batch_plans launched;
    launched.plans = 0;
    for (size_t first = 0; first < count && st == OCLBLAS_SUCCESS; first += plan.problems) {
        /* The rest of the batch, from problem `first` on: every problem's
         * operand is aligned as this one's where the plan reads it in place
         * (its stride is whole vectors). */
        p.a.offset = off0 + first * whole.stride_a;
        p.b.offset = off1 + first * whole.stride_b;
        p.c.offset = g->c_off + first * stride_c;
        p.a.align = uses_ab ? oclblas__alignment(ops[0], p.a.offset) : 0;
        p.b.align = uses_ab ? oclblas__alignment(ops[1], p.b.offset) : 0;
        oclblas__batch rest = whole;
        rest.count = count - first;
        st = oclblas__gemm_batch_plan_of(cx, &p, &rest, &plan);
        if (st != OCLBLAS_SUCCESS)
            break;
        st = batch_launch(&launched, cx, &plan, first, count, ctx, queue, ops, event);
    }
    const oclblas__call call = {"sgemm", layout, g->trans_a, g->trans_b, g->m, g->n, g->k};
    return batch_done(&launched, st, &call, count, queue, event);
}

/* Whether two problems have one shape and one set of scalars. */
static int same_shape(const oclblas__gemm_item *x, const oclblas__gemm_item *y)
{
    return x->trans_a == y->trans_a && x->trans_b == y->trans_b && x->m == y->m && x->n == y->n && x->k == y->k &&
           x->alpha == y->alpha && x->beta == y->beta && x->lda == y->lda && x->ldb == y->ldb && x->ldc == y->ldc;
}

/* Whether y's offsets are x's plus the steps (none negative). */
static int steps_on(const oclblas__gemm_item *x, const oclblas__gemm_item *y, const size_t step[3])
{
    return y->a_off >= x->a_off && y->b_off >= x->b_off && y->c_off >= x->c_off && y->a_off - x->a_off == step[0] &&
           y->b_off - x->b_off == step[1] && y->c_off - x->c_off == step[2];
}

oclblas_status oclblas__sgemm_items_run(oclblas_layout layout, const oclblas__gemm_item *items, size_t count,
                                        cl_mem a, cl_mem b, cl_mem c, oclblas_math_mode mode,
                                        cl_command_queue queue, cl_event *event)
{
    oclblas_status st = OCLBLAS_SUCCESS;
    for (size_t i = 0, j; i < count && st == OCLBLAS_SUCCESS; i = j) {
        size_t step[3] = {0, 0, 0};
        j = i + 1;
        if (j < count && same_shape(&items[i], &items[j])) {
            step[0] = items[j].a_off - items[i].a_off;
            step[1] = items[j].b_off - items[i].b_off;
            step[2] = items[j].c_off - items[i].c_off;
            while (j < count && same_shape(&items[i], &items[j]) && steps_on(&items[j - 1], &items[j], step))
                ++j;
        }
        st = oclblas__sgemm_strided_run(layout, &items[i], step[0], step[1], step[2], j - i, a, b, c, mode, queue,
                                        NULL);
    }
    return st == OCLBLAS_SUCCESS ? oclblas__marker(queue, event) : st;
}

/* Each SGEMV of a strided batch as the single call runs it. */
static oclblas_status gemv_each_alone(const oclblas__record *r0, size_t stride_a, size_t stride_x, size_t stride_y,
                                      size_t count, cl_command_queue queue)
{
    oclblas_status st = OCLBLAS_SUCCESS;
    for (size_t i = 0; i < count && st == OCLBLAS_SUCCESS; ++i) {
        oclblas__record r = *r0;
        r.a.off += i * stride_a;
        r.b.off += i * stride_x;
        r.c.off += i * stride_y;
        st = oclblas__device_call(&r, queue, NULL);
    }
    return st;
}

/* A vector's element 0: as in reference BLAS, the far end for a negative increment. */
static size_t vector_start(const oclblas__arg *v, size_t len)
{
    return v->inc < 0 ? v->off + (len - 1) * ((size_t)0 - (size_t)v->inc) : v->off;
}

oclblas_status oclblas__sgemv_strided_run(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n,
                                          float alpha, cl_mem a, size_t a_offset, size_t lda, size_t stride_a,
                                          cl_mem x, size_t x_offset, ptrdiff_t incx, size_t stride_x, float beta,
                                          cl_mem y, size_t y_offset, ptrdiff_t incy, size_t stride_y,
                                          size_t count, oclblas_math_mode mode, cl_command_queue queue,
                                          cl_event *event)
{
    cl_context ctx;
    const oclblas__devctx *cx = NULL;
    oclblas_status st = oclblas__queue_context(queue, &ctx, &cx);
    if (st != OCLBLAS_SUCCESS || count == 0 || m == 0 || n == 0)
        return st == OCLBLAS_SUCCESS ? oclblas__marker(queue, event) : st;
    const oclblas__record r0 = {OCLBLAS__SGEMV, layout, trans, OCLBLAS_NO_TRANS, m, n, 0, alpha, beta,
                                {NULL, a, a_offset, lda, 0}, {NULL, x, x_offset, 0, incx},
                                {NULL, y, y_offset, 0, incy}, mode};
    /* The column-major call over the same memory: a row-major A is A^T. */
    const oclblas__record c = oclblas__record_col_major(&r0);
    const int t = c.trans_a != OCLBLAS_NO_TRANS, uses_ax = alpha != 0.0f;
    const size_t len_x = t ? c.m : c.n, len_y = t ? c.n : c.m;
    const size_t step_x = oclblas__abs_inc(incx), step_y = oclblas__abs_inc(incy), limit = oclblas__index_limit();
    /* A batch past the kernels' int runs problem by problem, each as the
     * single call runs it (sub-problems past the int). */
    if ((uses_ax && (oclblas__batch_end(c.a.off, stride_a, count, oclblas__extent(c.m, c.n, c.a.ld)) > limit ||
                     oclblas__batch_end(x_offset, stride_x, count, (len_x - 1) * step_x + 1) > limit)) ||
        oclblas__batch_end(y_offset, stride_y, count, (len_y - 1) * step_y + 1) > limit) {
        st = gemv_each_alone(&r0, stride_a, stride_x, stride_y, count, queue);
        return st == OCLBLAS_SUCCESS ? oclblas__marker(queue, event) : st;
    }
    const size_t x0 = vector_start(&c.b, len_x), y0 = vector_start(&c.c, len_y);
    const cl_mem ops[3] = {c.a.buf, c.b.buf, c.c.buf};
    const oclblas__batch whole = {count, stride_a, stride_x, stride_y};
    oclblas__gemv_problem p = {t, c.m, c.n, alpha, beta, {0, c.a.ld, 0, 0}, {0, 0, c.b.inc, 0}, {0, 0, c.c.inc, 0},
                               OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C, c.mode};
    oclblas__plan plan;
    batch_plans launched;
    launched.plans = 0;
    for (size_t first = 0; first < count && st == OCLBLAS_SUCCESS; first += plan.problems) {
        /* The rest of the batch from problem `first`, whose alignment
         * stands for every problem's (the plan reads aligned vectors only
         * where the strides keep them so). */
        p.a.offset = c.a.off + first * stride_a;
        p.x.offset = x0 + first * stride_x;
        p.y.offset = y0 + first * stride_y;
        p.a.align = uses_ax ? oclblas__alignment(c.a.buf, p.a.offset) : 0;
        p.x.align = uses_ax && c.b.inc == 1 ? oclblas__alignment(c.b.buf, p.x.offset) : 0;
        oclblas__batch rest = whole;
        rest.count = count - first;
        st = oclblas__gemv_batch_plan(cx, &p, &rest, &plan);
        if (st != OCLBLAS_SUCCESS)
            break;
        st = batch_launch(&launched, cx, &plan, first, count, ctx, queue, ops, event);
    }
    const oclblas__call call = {"sgemv", layout, trans, OCLBLAS_NO_TRANS, m, n, 0};
    return batch_done(&launched, st, &call, count, queue, event);
}

/* ---- the entry points: checks, then a runner ------------------------------ */

/* The caller's queue and its context; *done where the batch computes
 * nothing (nothing: a marker is its event), or on failure. */
static oclblas_status open_queue(cl_command_queue queue, int nothing, cl_event *event, cl_context *ctx, int *done)
{
    *done = 1;
    if (!queue)
        return OCLBLAS_NULL_QUEUE;
    cl_device_id dev;
    const oclblas_status st = oclblas__queue_info(queue, ctx, &dev);
    if (st != OCLBLAS_SUCCESS || nothing)
        return st == OCLBLAS_SUCCESS ? oclblas__marker(queue, event) : st;
    *done = 0;
    return OCLBLAS_SUCCESS;
}

/* Checks a buffer that holds elements [0, end) of a batch's operand. */
static oclblas_status batch_buffer(cl_mem buf, cl_context ctx, size_t end, int access, oclblas_status null_status,
                                   oclblas_status small_status)
{
    return oclblas__check_buffer(buf, ctx, 0, end, access, null_status, small_status);
}

oclblas_status oclblas_sgemm_strided_batched_cl(oclblas_layout layout, oclblas_transpose trans_a,
                                                oclblas_transpose trans_b, size_t m, size_t n, size_t k, float alpha,
                                                cl_mem a, size_t a_offset, size_t lda, size_t stride_a, cl_mem b,
                                                size_t b_offset, size_t ldb, size_t stride_b, float beta, cl_mem c,
                                                size_t c_offset, size_t ldc, size_t stride_c, size_t batch_count,
                                                cl_command_queue queue, cl_event *event)
{
    const oclblas_math_mode mode = oclblas_get_math_mode(); /* the call's, read once, here */
    const oclblas__gemm_item g = {trans_a, trans_b, m, n, k, alpha, beta, a_offset, lda, b_offset, ldb, c_offset, ldc};
    cl_context ctx;
    int done;
    oclblas_status st = oclblas__gemm_item_check(layout, &g, 1);
    if (st == OCLBLAS_SUCCESS)
        st = open_queue(queue, batch_count == 0 || m == 0 || n == 0, event, &ctx, &done);
    if (st != OCLBLAS_SUCCESS || done)
        return st;
    const size_t stride[3] = {stride_a, stride_b, stride_c};
    size_t end[3], inner[3], outer[3];
    strided_ends(layout, &g, stride, batch_count, end);
    /* C is read unless beta = 0, and A and B are not referenced when k = 0
     * or alpha = 0, as in reference BLAS. */
    st = batch_buffer(c, ctx, end[2], OCLBLAS__WRITES | (beta != 0.0f ? OCLBLAS__READS : 0), OCLBLAS_NULL_C,
                      OCLBLAS_BUFFER_C_TOO_SMALL);
    if (st == OCLBLAS_SUCCESS && k > 0 && alpha != 0.0f)
        st = batch_buffer(a, ctx, end[0], OCLBLAS__READS, OCLBLAS_NULL_A, OCLBLAS_BUFFER_A_TOO_SMALL);
    if (st == OCLBLAS_SUCCESS && k > 0 && alpha != 0.0f)
        st = batch_buffer(b, ctx, end[1], OCLBLAS__READS, OCLBLAS_NULL_B, OCLBLAS_BUFFER_B_TOO_SMALL);
    oclblas__gemm_shapes(layout, &g, inner, outer);
    if (st == OCLBLAS_SUCCESS && oclblas__strided_overlap(inner[2], outer[2], ldc, stride_c, batch_count))
        st = OCLBLAS_BATCH_OVERLAP;
    if (st != OCLBLAS_SUCCESS)
        return st;
    return oclblas__sgemm_strided_run(layout, &g, stride_a, stride_b, stride_c, batch_count, a, b, c, mode, queue,
                                      event);
}

/* The buffer checks of a grouped batch: each buffer against the furthest
 * element its problems use, with the access of the problem that needs most. */
static oclblas_status grouped_buffers(oclblas_layout layout, const oclblas__gemm_item *items, size_t count,
                                      cl_context ctx, cl_mem a, cl_mem b, cl_mem c)
{
    size_t end[3] = {0, 0, 0};
    int writes = 0, reads_c = 0, reads_ab = 0;
    for (size_t i = 0; i < count; ++i) {
        const oclblas__gemm_item *g = &items[i];
        if (g->m == 0 || g->n == 0)
            continue;
        const size_t none[3] = {0, 0, 0};
        size_t e[3];
        strided_ends(layout, g, none, 1, e);
        const int uses_ab = g->k > 0 && g->alpha != 0.0f;
        for (int o = uses_ab ? 0 : 2; o < 3; ++o)
            if (e[o] > end[o])
                end[o] = e[o];
        writes = 1;
        reads_c |= g->beta != 0.0f;
        reads_ab |= uses_ab;
    }
    oclblas_status st = OCLBLAS_SUCCESS;
    if (writes)
        st = batch_buffer(c, ctx, end[2], OCLBLAS__WRITES | (reads_c ? OCLBLAS__READS : 0), OCLBLAS_NULL_C,
                          OCLBLAS_BUFFER_C_TOO_SMALL);
    if (st == OCLBLAS_SUCCESS && reads_ab)
        st = batch_buffer(a, ctx, end[0], OCLBLAS__READS, OCLBLAS_NULL_A, OCLBLAS_BUFFER_A_TOO_SMALL);
    if (st == OCLBLAS_SUCCESS && reads_ab)
        st = batch_buffer(b, ctx, end[1], OCLBLAS__READS, OCLBLAS_NULL_B, OCLBLAS_BUFFER_B_TOO_SMALL);
    return st;
}

oclblas_status oclblas_sgemm_grouped_batched_cl(oclblas_layout layout, const oclblas_transpose *trans_a,
                                                const oclblas_transpose *trans_b, const size_t *m, const size_t *n,
                                                const size_t *k, const float *alpha, cl_mem a,
                                                const size_t *a_offsets, const size_t *lda, cl_mem b,
                                                const size_t *b_offsets, const size_t *ldb, const float *beta,
                                                cl_mem c, const size_t *c_offsets, const size_t *ldc,
                                                size_t group_count, const size_t *group_size,
                                                cl_command_queue queue, cl_event *event)
{
    const oclblas_math_mode mode = oclblas_get_math_mode(); /* the call's, read once, here */
    oclblas__gemm_item *items;
    size_t count;
    const void *const operands[3] = {a_offsets, b_offsets, c_offsets};
    oclblas_status st = oclblas__grouped_items(layout, trans_a, trans_b, m, n, k, alpha, lda, ldb, beta, ldc,
                                               group_count, group_size, operands, 1, &items, &count);
    cl_context ctx;
    int done;
    if (st == OCLBLAS_SUCCESS)
        st = open_queue(queue, count == 0, event, &ctx, &done);
    if (st != OCLBLAS_SUCCESS || done) {
        free(items);
        return st;
    }
    uintptr_t *c_start = malloc(count * sizeof *c_start);
    if (!c_start)
        st = OCLBLAS_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < count && c_start; ++i) {
        items[i].a_off = a_offsets[i];
        items[i].b_off = b_offsets[i];
        items[i].c_off = c_offsets[i];
    }
    if (st == OCLBLAS_SUCCESS)
        st = grouped_buffers(layout, items, count, ctx, a, b, c);
    /* Inside the buffer (checked just now), an offset's bytes fit a size_t. */
    for (size_t i = 0; i < count && st == OCLBLAS_SUCCESS; ++i)
        c_start[i] = (uintptr_t)c_offsets[i] * sizeof(float);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__items_overlap(layout, items, count, c_start);
    free(c_start);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__sgemm_items_run(layout, items, count, a, b, c, mode, queue, event);
    free(items);
    return st;
}

oclblas_status oclblas_sgemv_strided_batched_cl(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n,
                                                float alpha, cl_mem a, size_t a_offset, size_t lda, size_t stride_a,
                                                cl_mem x, size_t x_offset, ptrdiff_t incx, size_t stride_x,
                                                float beta, cl_mem y, size_t y_offset, ptrdiff_t incy,
                                                size_t stride_y, size_t batch_count, cl_command_queue queue,
                                                cl_event *event)
{
    const oclblas_math_mode mode = oclblas_get_math_mode(); /* the call's, read once, here */
    cl_context ctx;
    int done;
    oclblas_status st = oclblas__sgemv_check(layout, trans, m, n, lda, incx, incy);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__sgemv_check_kernels(m, n, lda, incx, incy);
    if (st == OCLBLAS_SUCCESS)
        st = open_queue(queue, batch_count == 0 || m == 0 || n == 0, event, &ctx, &done);
    if (st != OCLBLAS_SUCCESS || done)
        return st;
    const int col = layout == OCLBLAS_COL_MAJOR, t = trans != OCLBLAS_NO_TRANS;
    const size_t len_x = t ? m : n, len_y = t ? n : m;
    const size_t step_x = oclblas__abs_inc(incx), step_y = oclblas__abs_inc(incy);
    st = batch_buffer(y, ctx, oclblas__batch_end(y_offset, stride_y, batch_count, (len_y - 1) * step_y + 1),
                      OCLBLAS__WRITES | (beta != 0.0f ? OCLBLAS__READS : 0), OCLBLAS_NULL_Y,
                      OCLBLAS_BUFFER_Y_TOO_SMALL);
    if (st == OCLBLAS_SUCCESS && alpha != 0.0f)
        st = batch_buffer(a, ctx,
                          oclblas__batch_end(a_offset, stride_a, batch_count,
                                             col ? oclblas__extent(m, n, lda) : oclblas__extent(n, m, lda)),
                          OCLBLAS__READS, OCLBLAS_NULL_A, OCLBLAS_BUFFER_A_TOO_SMALL);
    if (st == OCLBLAS_SUCCESS && alpha != 0.0f)
        st = batch_buffer(x, ctx, oclblas__batch_end(x_offset, stride_x, batch_count, (len_x - 1) * step_x + 1),
                          OCLBLAS__READS, OCLBLAS_NULL_X, OCLBLAS_BUFFER_X_TOO_SMALL);
    /* y as a row of len_y elements, |incy| apart. */
    if (st == OCLBLAS_SUCCESS && oclblas__strided_overlap(1, len_y, step_y, stride_y, batch_count))
        st = OCLBLAS_BATCH_OVERLAP;
    if (st != OCLBLAS_SUCCESS)
        return st;
    return oclblas__sgemv_strided_run(layout, trans, m, n, alpha, a, a_offset, lda, stride_a, x, x_offset, incx,
                                      stride_x, beta, y, y_offset, incy, stride_y, batch_count, mode, queue, event);
}
