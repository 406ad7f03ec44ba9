/*
 * The batches' own argument rule: no two problems write the same element
 * of C (or y), so that the problems may run in any order and side by side
 * without a race. Decided exactly, without touching memory: an output is
 * outer lines of inner elements, ld apart (inner <= ld), and two outputs
 * of one leading dimension whose starts lie d elements apart share an
 * element exactly when d = dc * ld + dr for a line distance dc and an
 * element distance dr that both outputs allow; with inner <= ld only the
 * two line distances nearest d / ld can. Outputs side by side in the rows
 * of a larger matrix (attention heads in one C) pass; a stride or offset
 * that makes two problems meet is refused. Outputs of different leading
 * dimensions (grouped batches) are refused where their spans intersect.
 * Also the checks of one problem by the single call's rules, and the
 * grouped form's problems as a list, which both front ends share.
 */
#include "api/batch.h"
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

/* Whether an output of in1 x out1 and one of in2 x out2 starting d >= 0
 * elements after it, both with leading dimension ld, share an element. */
static int collide(size_t d, size_t ld, size_t in1, size_t out1, size_t in2, size_t out2)
{
    const size_t q = d / ld, r = d % ld;
    if (q < out1 && r < in1)
        return 1; /* line distance q, element distance r */
    return r > 0 && q + 1 < out1 && ld - r < in2; /* line distance q + 1, element distance r - ld */
}

int oclblas__strided_overlap(size_t inner, size_t outer, size_t ld, size_t stride, size_t count)
{
    const size_t span = oclblas__extent(inner, outer, ld);
    if (count < 2 || span == 0)
        return 0;
    if (stride == 0)
        return 1;
    /* Problems t apart collide for t * stride < span at most. */
    size_t d = stride;
    for (size_t t = 1; t < count && d < span; ++t) {
        if (collide(d, ld, inner, outer, inner, outer))
            return 1;
        if (d > span - stride)
            break;
        d += stride;
    }
    return 0;
}

static int by_start(const void *x, const void *y)
{
    const oclblas__out_rect *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Bytes an output spans, at most SIZE_MAX. */
static size_t span_bytes(const oclblas__out_rect *r)
{
    const size_t e = oclblas__extent(r->inner, r->outer, r->ld);
    return e > SIZE_MAX / sizeof(float) ? SIZE_MAX : e * sizeof(float);
}

int oclblas__rects_overlap(oclblas__out_rect *rects, size_t count)
{
    /* Empty outputs last (after sorting), out of the way. */
    size_t live = 0;
    for (size_t i = 0; i < count; ++i)
        if (rects[i].inner && rects[i].outer) {
            const oclblas__out_rect keep = rects[i];
            rects[i] = rects[live];
            rects[live++] = keep;
        }
    qsort(rects, live, sizeof *rects, by_start);
    for (size_t i = 0; i < live; ++i) {
        const oclblas__out_rect *r = &rects[i];
        const size_t bytes = span_bytes(r);
        for (size_t j = i + 1; j < live && rects[j].start - r->start < bytes; ++j) {
            const oclblas__out_rect *s = &rects[j];
            const uintptr_t gap = s->start - r->start;
            if (s->ld != r->ld || gap % sizeof(float))
                return 1; /* spans intersect */
            if (collide(gap / sizeof(float), r->ld, r->inner, r->outer, s->inner, s->outer))
                return 1;
        }
    }
    return 0;
}

size_t oclblas__batch_end(size_t off, size_t stride, size_t count, size_t span)
{
    if (count == 0)
        return off;
    if (stride && count - 1 > (SIZE_MAX - off) / stride)
        return SIZE_MAX;
    const size_t last = off + (count - 1) * stride;
    return span > SIZE_MAX - last ? SIZE_MAX : last + span;
}

void oclblas__gemm_shapes(oclblas_layout layout, const oclblas__gemm_item *g, size_t inner[3], size_t outer[3])
{
    const int col = layout == OCLBLAS_COL_MAJOR;
    const int at = g->trans_a != OCLBLAS_NO_TRANS, bt = g->trans_b != OCLBLAS_NO_TRANS;
    /* op(A) is m x k and op(B) k x n: the stored rows and columns. */
    const size_t rows[3] = {at ? g->k : g->m, bt ? g->n : g->k, g->m};
    const size_t cols[3] = {at ? g->m : g->k, bt ? g->k : g->n, g->n};
    for (int i = 0; i < 3; ++i) {
        inner[i] = col ? rows[i] : cols[i];
        outer[i] = col ? cols[i] : rows[i];
    }
}

oclblas_status oclblas__gemm_item_check(oclblas_layout layout, const oclblas__gemm_item *g, int device)
{
    oclblas_status st = oclblas__sgemm_check(layout, g->trans_a, g->trans_b, g->m, g->n, g->k, g->lda, g->ldb, g->ldc);
    if (st == OCLBLAS_SUCCESS && device)
        st = oclblas__sgemm_check_kernels(g->m, g->n, g->lda, g->ldb, g->ldc);
    return st;
}

oclblas_status oclblas__grouped_items(oclblas_layout layout, const oclblas_transpose *trans_a,
                                      const oclblas_transpose *trans_b, const size_t *m, const size_t *n,
                                      const size_t *k, const float *alpha, const size_t *lda, const size_t *ldb,
                                      const float *beta, const size_t *ldc, size_t group_count,
                                      const size_t *group_size, const void *const operands[3], int device,
                                      oclblas__gemm_item **items, size_t *count)
{
    *items = NULL;
    *count = 0;
    if (layout != OCLBLAS_ROW_MAJOR && layout != OCLBLAS_COL_MAJOR)
        return OCLBLAS_INVALID_LAYOUT;
    if (group_count == 0)
        return OCLBLAS_SUCCESS;
    if (!trans_a || !trans_b || !m || !n || !k || !alpha || !lda || !ldb || !beta || !ldc || !group_size)
        return OCLBLAS_NULL_ARRAY;
    size_t total = 0;
    for (size_t g = 0; g < group_count; ++g) {
        const oclblas__gemm_item it = {trans_a[g], trans_b[g], m[g], n[g], k[g], alpha[g], beta[g],
                                       0, lda[g], 0, ldb[g], 0, ldc[g]};
        const oclblas_status st = oclblas__gemm_item_check(layout, &it, device);
        if (st != OCLBLAS_SUCCESS)
            return st;
        if (group_size[g] > SIZE_MAX / sizeof **items - total)
            return OCLBLAS_OUT_OF_HOST_MEMORY;
        total += group_size[g];
    }
    if (total == 0)
        return OCLBLAS_SUCCESS;
    if (!operands[0] || !operands[1] || !operands[2])
        return OCLBLAS_NULL_ARRAY;
    oclblas__gemm_item *out = malloc(total * sizeof *out);
    if (!out)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    size_t i = 0;
    for (size_t g = 0; g < group_count; ++g)
        for (size_t j = 0; j < group_size[g]; ++j)
            out[i++] = (oclblas__gemm_item){trans_a[g], trans_b[g], m[g], n[g], k[g], alpha[g], beta[g],
                                            0, lda[g], 0, ldb[g], 0, ldc[g]};
    *items = out;
    *count = total;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__items_overlap(oclblas_layout layout, const oclblas__gemm_item *items, size_t count,
                                      const uintptr_t *c_start)
{
    oclblas__out_rect *rects = malloc((count ? count : 1) * sizeof *rects);
    if (!rects)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < count; ++i) {
        size_t inner[3], outer[3];
        oclblas__gemm_shapes(layout, &items[i], inner, outer);
        rects[i] = (oclblas__out_rect){c_start[i], inner[2], outer[2], items[i].ldc};
    }
    const int overlap = oclblas__rects_overlap(rects, count);
    free(rects);
    return overlap ? OCLBLAS_BATCH_OVERLAP : OCLBLAS_SUCCESS;
}
