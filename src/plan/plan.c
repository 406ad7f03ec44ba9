/*
 * The plans: what a call enqueues, decided by pure functions of the device
 * context (device facts and the parameters in force) and the problem,
 * without any OpenCL call, so that every decision can be tested without a
 * device (tests/test_plan.c). For SGEMM (column-major, arguments checked):
 *   k = 0 or alpha = 0     C = beta * C (scale_matrix), or nothing if beta = 1
 *   m = 1 or n = 1         the SGEMV plan of the matrix-vector product it is
 *   m * n * k small        gemm_direct, straight from the caller's buffers
 *                          (below GEMM_MIN_INDIRECT cubed)
 *   otherwise              gemm_fast, on operands that the helpers pad (and
 *                          transpose) into scratch buffers, unless the
 *                          caller's own layout already fits the kernel;
 *                          with k split into slices (summed by sum_slices)
 *                          where the tiles of C alone cannot fill the device;
 *                          in the accurate and tf32 math modes gemm_tc in
 *                          gemm_fast's place (same padding, same split, its
 *                          own tile) where the device can run it and
 *                          m * n * k is at least GEMM_TC_MIN cubed.
 * For SGEMV the kernel follows the direction of memory: gemv_n when the
 * output runs along A's contiguous direction (y = A x), gemv_t when each
 * output is a dot product along it (y = A^T x); each gets enough
 * work-groups to fill the device, splitting its reduction over several
 * work-groups (whose partial sums gemv_reduce adds) when its natural
 * parallelism is too small. The steps come from the descriptors' step
 * functions, which alone know arguments and geometry. Every parameter,
 * the routine values included, is read for the problem's column-major
 * shape (oclblas__devctx_params): a class of shapes with its own sets (a
 * narrow tile, its own split of k) serves the problems its rule takes.
 *
 * A strided batch of SGEMMs is the single problem's plan with the batch as
 * the launches' third dimension: the same parameters (read for one
 * problem's shape), gemm_fast or gemm_direct by the same crossover applied
 * to the batch's whole work (the batch fills the device where one problem
 * cannot, so the padding passes pay sooner) unless the problems are mostly
 * padding in gemm_fast's tiles, scratch for each problem's padded copies
 * (one copy of an A or B that every problem shares), k never split (the
 * batch gives the parallelism). A problem whose own plan runs a
 * kernel without a batch dimension (gemm_tc; a gemv kernel for a product
 * large enough to fill the device alone) runs by that single plan, one
 * problem per plan. A plan may take fewer problems than the batch holds
 * (plan.problems): the caller plans the rest after.
 */
#include "plan/plan.h"
#include "kernels/gemm_direct.h"
#include "kernels/gemv_t.h"
#include "kernels/helpers.h"
#include "kernels/routine.h"
#include "kernels/tiled.h"
#include "util/util.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t round_up(size_t x, size_t m) { return ceil_div(x, m) * m; }

static oclblas__step *add_step(oclblas__plan *plan) { return &plan->step[plan->num_steps++]; }

/* For the log: the class of shapes whose set the plan's main kernel runs with. */
static void class_of(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape, oclblas__plan *out)
{
    const char *name = oclblas__devctx_class(cx, kernel, shape);
    oclblas__strlcpy(out->cls, name ? name : "", sizeof out->cls);
}

/* C = beta * C on a rows x cols block (also a strided vector: rows 1, ld =
 * |inc|), on the plan's problems, c_stride apart, for a batch. */
static oclblas_status scale_plan(const oclblas__devctx *cx, const oclblas__shape *shape, size_t rows, size_t cols,
                                 float beta, oclblas__buf c, size_t c_off, size_t ldc, size_t c_stride,
                                 oclblas__plan *out)
{
    if (beta == 1.0f) {
        out->kind = OCLBLAS__PLAN_NOTHING;
        return OCLBLAS_SUCCESS;
    }
    oclblas_status st;
    const oclblas__params *hp = oclblas__devctx_params(cx, OCLBLAS__K_HELPERS, shape, &st);
    if (!hp)
        return st;
    out->kind = OCLBLAS__PLAN_SCALE;
    const oclblas__scale_args a = {rows, cols, beta, c, c_off, ldc, out->problems, c_stride};
    oclblas__scale_step(hp, &a, add_step(out));
    return OCLBLAS_SUCCESS;
}

/* ---- SGEMV --------------------------------------------------------------- */

/* A single SGEMV (batch NULL) or a strided batch of them as the launches'
 * third dimension: the splits aim at the device's work-groups over the
 * whole batch, and A (and x) are read in aligned vectors only where every
 * problem's are aligned as problem 0's. */
static oclblas_status gemv_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p,
                                const oclblas__batch *batch, oclblas__plan *out)
{
    memset(out, 0, sizeof *out);
    const size_t count = batch ? (batch->count < OCLBLAS__MAX_BATCH_LAUNCH ? batch->count
                                                                            : OCLBLAS__MAX_BATCH_LAUNCH)
                               : 1;
    const oclblas__batch whole = {count, batch ? batch->stride_a : 0, batch ? batch->stride_b : 0,
                                  batch ? batch->stride_c : 0};
    out->problems = count;
    const int trans = p->trans != 0;
    const size_t rows = p->rows, cols = p->cols, len_y = trans ? cols : rows;
    out->gemv.trans = trans;
    out->gemv.rows = rows;
    out->gemv.cols = cols;
    const oclblas__shape shape = {rows, cols, 1, 0};
    if (p->alpha == 0.0f) {
        const size_t step = (size_t)(p->y.inc < 0 ? -p->y.inc : p->y.inc);
        const size_t lowest = p->y.inc < 0 ? p->y.offset - (len_y - 1) * step : p->y.offset;
        return scale_plan(cx, &shape, 1, len_y, p->beta, p->y_buf, lowest, step, whole.stride_c, out);
    }
    const int table = trans ? OCLBLAS__K_GEMV_T : OCLBLAS__K_GEMV_N;
    oclblas_status st;
    const oclblas__params *gp = oclblas__devctx_params(cx, table, &shape, &st);
    const oclblas__params *rp = gp ? oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, &shape, &st) : NULL;
    const oclblas__params *hp = rp ? oclblas__devctx_params(cx, OCLBLAS__K_HELPERS, &shape, &st) : NULL;
    if (!hp)
        return st;

    const size_t target = (size_t)cx->dev->compute_units * (size_t)rp->v[RT_GEMV_GROUPS_PER_CU];
    const size_t vw = (size_t)gp->v[trans ? GT_VW : GN_VW];
    const size_t lda = p->a.ld;
    size_t groups, splits, chunk;
    int vec;
    if (!trans) {
        /* Rows are the parallel direction; columns may be split. A panel
         * (STRM = 2) covers every row: only its split is parallel. */
        const size_t rpg = oclblas__gemv_n_rows_per_group(gp);
        groups = (rpg ? ceil_div(rows, rpg) : 1) * count;
        splits = groups < target ? ceil_div(target, groups) : 1;
        const size_t max_splits = ceil_div(cols, 32); /* keep each split's loop worth its partial sums */
        if (splits > max_splits)
            splits = max_splits ? max_splits : 1;
        chunk = ceil_div(cols, splits);
        splits = ceil_div(cols, chunk);
        vec = lda % vw == 0 && whole.stride_a % vw == 0 && p->a.align >= vw * sizeof(float) ? 1 : 2;
    } else {
        /* Columns are the parallel direction; rows may be split, in multiples of TPC * VW. */
        const size_t tpc = (size_t)gp->v[GT_TPC];
        groups = ceil_div(cols, oclblas__gemv_t_cols_per_group(gp)) * count;
        splits = groups < target ? ceil_div(target, groups) : 1;
        const size_t max_splits = ceil_div(rows, tpc * vw * 8);
        if (splits > max_splits)
            splits = max_splits ? max_splits : 1;
        chunk = ceil_div(ceil_div(rows, splits), tpc * vw) * tpc * vw;
        splits = ceil_div(rows, chunk);
        vec = p->x.inc != 1 ? 0
              : lda % vw == 0 && whole.stride_a % vw == 0 && whole.stride_b % vw == 0 &&
                        p->a.align >= vw * sizeof(float) && p->x.align >= vw * sizeof(float)
                    ? 1
                    : 2;
    }
    if (splits * len_y > INT_MAX / count || chunk > INT_MAX)
        return OCLBLAS_SIZE_TOO_LARGE;

    out->kind = OCLBLAS__PLAN_GEMV;
    class_of(cx, table, &shape, out);
    out->gemv.groups = groups;
    out->gemv.splits = splits;
    out->gemv.chunk = chunk;
    out->gemv.vec = vec;
    const oclblas__gemv_args a = {rows, cols, p->alpha, p->beta, p->a_buf, p->x_buf, p->y_buf, OCLBLAS__BUF_S2,
                                  p->a.offset, lda, p->x.offset, p->y.offset, p->x.inc, p->y.inc, chunk, vec,
                                  whole};
    oclblas__step *g = add_step(out);
    if (trans)
        oclblas__gemv_t_step(gp, &a, g);
    else
        oclblas__gemv_n_step(gp, &a, g);
    if (splits > 1) {
        /* The partial sums: the previous user of the scratch set must be done with them. */
        out->scratch[2] = count * splits * len_y * sizeof(float);
        g->after_scratch = 1;
        const oclblas__gemv_reduce_args r = {len_y, splits, OCLBLAS__BUF_S2, p->alpha, p->beta, p->y_buf,
                                             p->y.offset, p->y.inc, count, whole.stride_c};
        oclblas__step *s = add_step(out);
        oclblas__gemv_reduce_step(hp, &r, s);
        s->after = 1u << 0;
    }
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__gemv_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p, oclblas__plan *out)
{
    return gemv_plan(cx, p, NULL, out);
}

oclblas_status oclblas__gemv_batch_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p,
                                        const oclblas__batch *batch, oclblas__plan *out)
{
    return gemv_plan(cx, p, batch && batch->count > 1 ? batch : NULL, out);
}

/* ---- SGEMM --------------------------------------------------------------- */

/* The most bytes of scratch that a split of k (its partial sums) or a
 * batch (its problems' padded copies) may take: 256 MiB or an eighth of
 * the largest allocation. */
static size_t scratch_cap(const oclblas__device_info *dev)
{
    return dev->max_alloc / 8 < ((size_t)256 << 20) ? (size_t)(dev->max_alloc / 8) : (size_t)256 << 20;
}

/* The split of k for gemm_fast: how many slices (1: none) and the k of
 * each (a multiple of KWG). A product whose tiles of C give few work-groups
 * leaves most of the device idle however long k is (256 x 256 x 65536, or
 * 1024^3 with large tiles); its k is cut into slices that run side by side,
 * each into its own copy of C, which sum_slices then adds. The aim is
 * GEMM_SPLIT_K work-groups per compute unit, and there is no split unless
 * the tiles alone give at most half of that (the slices' extra memory
 * traffic would cost more than it gains); such a slice keeps at least 256
 * of k (or one KWG). Independently, no slice is longer than
 * GEMM_MAX_SLICE_K (when not 0): a CPU runs a work-group's items one after
 * the other, each over the whole k, so the work-group's panels of A and B
 * must stay in its caches (2048^3 ran at a third of 2048 x 2048 x 512's
 * rate on our 2-core machine). There are at most 64 slices, and their
 * partial sums take at most 256 MiB or an eighth of the largest
 * allocation. */
static size_t k_slices(const oclblas__device_info *dev, int per_cu, int max_k, size_t tiles, size_t mp, size_t np,
                       size_t kp, size_t kwg, size_t *k_slice)
{
    *k_slice = kp;
    const size_t want = per_cu > 0 ? (size_t)per_cu * dev->compute_units : 0;
    const size_t kt = kp / kwg, min_kt = (256 + kwg - 1) / kwg;
    const size_t bytes_cap = scratch_cap(dev);
    size_t s = 1;
    if (want && tiles < want) {
        s = want / tiles; /* no split until the tiles fill at most half */
        if (s > kt / min_kt)
            s = kt / min_kt;
    }
    if (max_k > 0 && kp > (size_t)max_k) {
        const size_t per_max = (size_t)max_k / kwg ? (size_t)max_k / kwg : 1; /* k tiles a slice may have */
        const size_t need = (kt + per_max - 1) / per_max;
        if (need > s)
            s = need;
    }
    if (s > 64)
        s = 64;
    while (s > 1 && (s * mp * np * sizeof(float) > bytes_cap || s * mp * np > (size_t)INT_MAX))
        --s;
    if (s < 2)
        return 1;
    const size_t per = (kt + s - 1) / s; /* k tiles per slice; the last may have fewer */
    *k_slice = per * kwg;
    return (kt + per - 1) / per;
}

/* The kernel of the indirect plan: gemm_tc (1, its set for the call's
 * mode in *out) where the mode allows the tensor cores, the device has a
 * set for gemm_tc that runs in that mode, and the routine value says it is
 * faster for the shape; else gemm_fast (0). A set is tuned for the accurate
 * mode; one without promotion (a tf32 set) cannot run it. */
static int tc_set(const oclblas__devctx *cx, const oclblas__gemm_problem *p, const oclblas__shape *shape,
                  const oclblas__params *rp, oclblas__params *out)
{
    const double min = (double)rp->v[RT_GEMM_TC_MIN];
    if (p->mode == OCLBLAS_MATH_STRICT || min <= 0 || (double)p->m * (double)p->n * (double)p->k < min * min * min)
        return 0;
    oclblas_status st;
    const oclblas__params *tp = oclblas__devctx_params(cx, OCLBLAS__K_GEMM_TC, shape, &st);
    if (!tp)
        return 0;
    *out = oclblas__kernels[OCLBLAS__K_GEMM_TC]->tiled->for_mode(tp, p->mode);
    return oclblas__params_legal(OCLBLAS__K_GEMM_TC, out, &cx->dev->lim, NULL);
}

/* A batch's padded copies of A and B: one per problem of an operand not
 * read in place (*copies = the problems), one that every problem shares
 * (stride 0), none in place. The plan takes as many problems as the copies
 * fit the scratch cap for, each slot inside the kernels' int (lowering
 * out->problems); 0 where not even two fit. */
static int batch_copies(const oclblas__devctx *cx, const oclblas__batch *batch, const int in_place[2],
                        const size_t copy[2], oclblas__plan *out, size_t copies[2])
{
    const size_t stride[2] = {batch->stride_a, batch->stride_b};
    size_t each = 0, shared = 0, largest = 0;
    for (int o = 0; o < 2; ++o) {
        const int per_problem = stride[o] && !in_place[o];
        each += per_problem ? copy[o] : 0;
        shared += !per_problem && !in_place[o] ? copy[o] : 0;
        largest = per_problem && copy[o] > largest ? copy[o] : largest;
    }
    if (each) {
        const size_t cap = scratch_cap(cx->dev) / sizeof(float);
        size_t fit = cap > shared ? (cap - shared) / each : 0;
        fit = fit < (size_t)INT_MAX / largest ? fit : (size_t)INT_MAX / largest;
        if (fit < 2)
            return 0;
        out->problems = fit < out->problems ? fit : out->problems;
    }
    for (int o = 0; o < 2; ++o)
        copies[o] = stride[o] && !in_place[o] ? out->problems : 1;
    return 1;
}

/* gemm_fast's (or gemm_tc's) plan for p, of a batch when batch is not NULL. */
static oclblas_status fast_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                const oclblas__batch *batch, const oclblas__shape *shape, oclblas__plan *out)
{
    oclblas_status st;
    const oclblas__params *hp = oclblas__devctx_params(cx, OCLBLAS__K_HELPERS, shape, &st);
    const oclblas__params *rp = hp ? oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, shape, &st) : NULL;
    if (!rp)
        return st;
    /* The entry may hold a set of gemm_tc for each mode: a class on the
     * products the mode asks for. */
    oclblas__shape tc_shape = *shape;
    tc_shape.products = p->mode == OCLBLAS_MATH_TF32 ? 1 : 3;
    oclblas__params tc_mode_set;
    const int batched = batch != NULL; /* gemm_tc has no batch dimension */
    const oclblas__params *tp = !batched && tc_set(cx, p, &tc_shape, rp, &tc_mode_set) ? &tc_mode_set : NULL;
    const oclblas__params *fp = tp ? NULL : oclblas__devctx_params(cx, OCLBLAS__K_GEMM_FAST, shape, &st);
    if (!tp && !fp)
        return st;
    /* The main kernel, its tile and the vector widths it reads A and B with. */
    const int main_kernel = tp ? OCLBLAS__K_GEMM_TC : OCLBLAS__K_GEMM_FAST;
    const oclblas__params *main_set = tp ? tp : fp;
    const oclblas__tiled *tiled = oclblas__kernels[main_kernel]->tiled;
    oclblas__tile tile;
    tiled->tile(main_set, &tile);
    const size_t vwm = tile.vwa, vwn = tile.vwb, mwg = tile.m, nwg = tile.n, kwg = tile.k;
    const int at = p->trans_a != 0, bt = p->trans_b != 0;
    const size_t m = p->m, n = p->n, k = p->k, lda = p->a.ld, ldb = p->b.ld;
    const size_t mp = round_up(m, mwg), np = round_up(n, nwg), kp = round_up(k, kwg);
    if (mp > INT_MAX / kp || np > INT_MAX / kp)
        return OCLBLAS_SIZE_TOO_LARGE;
    /* Both kernels read A as (m, k) with m contiguous and B as (k, n) with
     * n contiguous; where the caller's operand already is that,
     * tile-aligned, it is read in place (if its indices fit the kernel's
     * int; in a batch, if every problem's operand starts on a whole vector). */
    const size_t stride_a = batched ? batch->stride_a : 0, stride_b = batched ? batch->stride_b : 0;
    const int a_in_place = !at && m == mp && k == kp && lda % vwm == 0 && lda <= INT_MAX / kp &&
                           p->a.align >= vwm * sizeof(float) && stride_a % vwm == 0;
    const int b_in_place = bt && n == np && k == kp && ldb % vwn == 0 && ldb <= INT_MAX / kp &&
                           p->b.align >= vwn * sizeof(float) && stride_b % vwn == 0;
    /* Where not even two problems' copies fit, each problem runs by its own plan. */
    const int in_place[2] = {a_in_place, b_in_place};
    const size_t copy[2] = {mp * kp, np * kp};
    size_t copies[2] = {1, 1};
    if (batched && !batch_copies(cx, batch, in_place, copy, out, copies))
        return oclblas__gemm_plan(cx, p, out);
    const size_t count = batched ? out->problems : 1, a_copies = copies[0], b_copies = copies[1];
    size_t k_slice = kp;
    const size_t slices = batched ? 1
                                  : k_slices(cx->dev, rp->v[RT_GEMM_SPLIT_K], rp->v[RT_GEMM_MAX_SLICE_K],
                                             (mp / mwg) * (np / nwg), mp, np, kp, kwg, &k_slice);

    out->kind = OCLBLAS__PLAN_FAST;
    class_of(cx, main_kernel, tp ? &tc_shape : shape, out);
    out->fast.mp = mp;
    out->fast.np = np;
    out->fast.kp = kp;
    out->fast.a_in_place = a_in_place;
    out->fast.b_in_place = b_in_place;
    out->fast.a_transposed = !a_in_place && at;
    out->fast.b_transposed = !b_in_place && !bt;
    out->fast.slices = slices;
    out->fast.k_slice = k_slice;
    out->scratch[0] = a_in_place ? 0 : a_copies * mp * kp * sizeof(float);
    out->scratch[1] = b_in_place ? 0 : b_copies * np * kp * sizeof(float);
    out->scratch[2] = slices > 1 ? slices * mp * np * sizeof(float) : 0;

    unsigned pads = 0;
    if (!a_in_place) {
        const oclblas__pad_args a = {at, m, k, OCLBLAS__BUF_A, p->a.offset, lda, mp, kp, OCLBLAS__BUF_S0,
                                     a_copies, stride_a, mp * kp};
        pads |= 1u << out->num_steps;
        oclblas__step *s = add_step(out);
        oclblas__pad_step(hp, &a, s);
        s->after_scratch = 1;
    }
    if (!b_in_place) {
        /* B's n must be the contiguous direction: stored k x n (not transposed) it is turned. */
        const oclblas__pad_args b = {!bt, n, k, OCLBLAS__BUF_B, p->b.offset, ldb, np, kp, OCLBLAS__BUF_S1,
                                     b_copies, stride_b, np * kp};
        pads |= 1u << out->num_steps;
        oclblas__step *s = add_step(out);
        oclblas__pad_step(hp, &b, s);
        s->after_scratch = 1;
    }
    /* With a split, each slice goes to the partial sums (alpha 1, beta 0,
     * leading dimension mp) and sum_slices applies alpha and beta. */
    const int split = slices > 1;
    oclblas__tile_args g = {m, n, kp, k_slice, mp * np,
                                  split ? 1.0f : p->alpha, split ? 0.0f : p->beta,
                                  a_in_place ? OCLBLAS__BUF_A : OCLBLAS__BUF_S0,
                                  b_in_place ? OCLBLAS__BUF_B : OCLBLAS__BUF_S1,
                                  split ? OCLBLAS__BUF_S2 : OCLBLAS__BUF_C,
                                  a_in_place ? p->a.offset : 0, a_in_place ? lda : mp,
                                  b_in_place ? p->b.offset : 0, b_in_place ? ldb : np,
                                  split ? 0 : p->c.offset, split ? mp : p->c.ld, {0, 0, 0, 0}};
    const int fast = out->num_steps;
    out->main = fast;
    oclblas__step *s = add_step(out);
    if (batched) { /* the strides of the operands it reads: the caller's, or its copies' */
        g.batch = (oclblas__batch){count, a_in_place ? stride_a : a_copies > 1 ? mp * kp : 0,
                                   b_in_place ? stride_b : b_copies > 1 ? np * kp : 0, batch->stride_c};
    }
    tiled->step(main_set, &g, s);
    s->after = pads;
    /* Without pads before it, it is the first to write the scratch set (the partial sums). */
    s->after_scratch = !pads && split;
    if (split) {
        const oclblas__sum_slices_args sum = {m, n, slices, OCLBLAS__BUF_S2, mp, mp * np,
                                              p->alpha, p->beta, OCLBLAS__BUF_C, p->c.offset, p->c.ld};
        oclblas__step *t = add_step(out);
        oclblas__sum_slices_step(hp, &sum, t);
        t->after = 1u << fast;
    }
    return OCLBLAS_SUCCESS;
}

/* Whether a batch of count problems of the shape pays gemm_fast's plan:
 * the launch's whole work at the crossover or beyond (where the padding
 * passes pay for a single problem), and the problems not mostly padding
 * (their tiles at most four times their work, well below gemm_fast's
 * speed over gemm_direct's on the devices measured; a batch of tiny
 * products stays with gemm_direct, whose every access is guarded). */
static int batch_pays_fast(const oclblas__devctx *cx, const oclblas__shape *s, size_t count, double cube)
{
    oclblas_status st;
    const oclblas__params *fp = oclblas__devctx_params(cx, OCLBLAS__K_GEMM_FAST, s, &st);
    const double work = (double)s->m * (double)s->n * (double)s->k;
    if (!fp || (double)count * work < cube)
        return 0;
    oclblas__tile tile;
    oclblas__kernels[OCLBLAS__K_GEMM_FAST]->tiled->tile(fp, &tile);
    const double padded = (double)round_up(s->m, tile.m) * (double)round_up(s->n, tile.n) * (double)round_up(s->k, tile.k);
    return padded <= 4.0 * work;
}

/* The plan of p alone (batch NULL) or of a strided batch of it. */
static oclblas_status gemm_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p, const oclblas__batch *batch,
                                oclblas__plan *out)
{
    memset(out, 0, sizeof *out);
    const int at = p->trans_a != 0, bt = p->trans_b != 0;
    const size_t m = p->m, n = p->n, k = p->k;
    const oclblas__shape shape = {m, n, k, 0};
    out->problems = !batch ? 1 : batch->count < OCLBLAS__MAX_BATCH_LAUNCH ? batch->count : OCLBLAS__MAX_BATCH_LAUNCH;
    if (k == 0 || p->alpha == 0.0f)
        return scale_plan(cx, &shape, m, n, p->beta, OCLBLAS__BUF_C, p->c.offset, p->c.ld, batch ? batch->stride_c : 0,
                          out);
    /* A product with one row or one column of C is a matrix-vector product. */
    if (!batch && (n == 1 || m == 1)) {
        oclblas__gemv_problem g = {.alpha = p->alpha, .beta = p->beta, .y_buf = OCLBLAS__BUF_C, .mode = p->mode};
        g.y = (oclblas__operand){p->c.offset, 0, 1, p->c.align};
        if (n == 1) { /* c = op(A) * (column of op(B)) */
            g.trans = at;
            g.rows = at ? k : m;
            g.cols = at ? m : k;
            g.a = p->a;
            g.a_buf = OCLBLAS__BUF_A;
            g.x = (oclblas__operand){p->b.offset, 0, bt ? (ptrdiff_t)p->b.ld : 1, p->b.align};
            g.x_buf = OCLBLAS__BUF_B;
        } else { /* c^T = op(B)^T * (row of op(A))^T */
            g.trans = !bt;
            g.rows = bt ? n : k;
            g.cols = bt ? k : n;
            g.a = p->b;
            g.a_buf = OCLBLAS__BUF_B;
            g.x = (oclblas__operand){p->a.offset, 0, at ? 1 : (ptrdiff_t)p->a.ld, p->a.align};
            g.x_buf = OCLBLAS__BUF_A;
            g.y.inc = (ptrdiff_t)p->c.ld;
        }
        return oclblas__gemv_plan(cx, &g, out);
    }
    oclblas_status st;
    const oclblas__params *rp = oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, &shape, &st);
    if (!rp)
        return st;
    const double crossover = (double)rp->v[RT_GEMM_MIN_INDIRECT];
    const double cube = crossover * crossover * crossover, work = (double)m * (double)n * (double)k;
    if (batch) {
        /* One problem's own plan, where its kernel has no batch dimension
         * (gemm_tc; a gemv kernel, given a product that fills the device
         * alone): one problem per plan. */
        const size_t problems = out->problems;
        st = gemm_plan(cx, p, NULL, out);
        if (st != OCLBLAS_SUCCESS)
            return st;
        if ((out->kind == OCLBLAS__PLAN_FAST && out->step[out->main].kernel == OCLBLAS__K_GEMM_TC) ||
            (out->kind == OCLBLAS__PLAN_GEMV && work >= cube))
            return OCLBLAS_SUCCESS;
        memset(out, 0, sizeof *out);
        out->problems = problems;
        if (batch_pays_fast(cx, &shape, batch->count, cube))
            return fast_plan(cx, p, batch, &shape, out);
    } else if (work >= cube) {
        return fast_plan(cx, p, NULL, &shape, out);
    }
    const oclblas__params *dp = oclblas__devctx_params(cx, OCLBLAS__K_GEMM_DIRECT, &shape, &st);
    if (!dp)
        return st;
    out->kind = OCLBLAS__PLAN_DIRECT;
    class_of(cx, OCLBLAS__K_GEMM_DIRECT, &shape, out);
    const oclblas__gemm_direct_args d = {at, bt, m, n, k, p->alpha, p->beta,
                                         OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C,
                                         p->a.offset, p->a.ld, p->b.offset, p->b.ld, p->c.offset, p->c.ld};
    const oclblas__batch db = {out->problems, batch ? batch->stride_a : 0, batch ? batch->stride_b : 0,
                               batch ? batch->stride_c : 0};
    oclblas__gemm_direct_step(dp, &d, batch ? &db : NULL, add_step(out));
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__gemm_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p, oclblas__plan *out)
{
    return gemm_plan(cx, p, NULL, out);
}

oclblas_status oclblas__gemm_batch_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                        const oclblas__batch *batch, oclblas__plan *out)
{
    return gemm_plan(cx, p, batch && batch->count > 1 ? batch : NULL, out);
}

/* ---- the verbose log ------------------------------------------------------- */

static char trans_letter(oclblas_transpose t)
{
    return t == OCLBLAS_NO_TRANS ? 'N' : t == OCLBLAS_TRANS ? 'T' : 'C';
}

static void put(char *buf, size_t len, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    const int w = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used += (size_t)w;
}

static const char *operand_way(int in_place, int transposed)
{
    return in_place ? "in place" : transposed ? "transposed" : "padded";
}

void oclblas__plan_describe(const oclblas__call *call, const oclblas__plan *plan, char *buf, size_t len)
{
    const int row = call->layout == OCLBLAS_ROW_MAJOR, gemm = strcmp(call->routine, "sgemm") == 0;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    /* The class of shapes whose parameters the kernel runs with, if not the set for every shape. */
    char cls[OCLBLAS__CLASS_NAME + 16] = "";
    if (plan->cls[0])
        snprintf(cls, sizeof cls, " [class %s]", plan->cls);
    if (gemm)
        put(buf, len, &used, "sgemm %zux%zux%zu %c%c: ", call->m, call->n, call->k, trans_letter(call->trans_a),
            trans_letter(call->trans_b));
    else
        put(buf, len, &used, "sgemv %zux%zu %c: ", call->m, call->n, trans_letter(call->trans_a));
    switch (plan->kind) {
    case OCLBLAS__PLAN_NOTHING:
        put(buf, len, &used, "nothing to compute (beta = 1)");
        break;
    case OCLBLAS__PLAN_SCALE:
        put(buf, len, &used, "%s = beta * %s (scale_matrix)", gemm ? "C" : "y", gemm ? "C" : "y");
        break;
    case OCLBLAS__PLAN_DIRECT:
        put(buf, len, &used, "%s%s", oclblas__kernels[plan->step[0].kernel]->name, cls);
        break;
    case OCLBLAS__PLAN_GEMV:
        put(buf, len, &used, "%s%s, %zu work-groups x %zu split%s%s", oclblas__kernels[plan->step[0].kernel]->name,
            cls, plan->gemv.groups, plan->gemv.splits, plan->gemv.splits > 1 ? "s (gemv_reduce)" : "",
            plan->gemv.vec == 1 ? ", vector loads" : plan->gemv.vec == 2 ? ", unaligned vector loads" : "");
        break;
    case OCLBLAS__PLAN_FAST: {
        /* The plan is column-major: a row-major call's A is its B, its m the plan's n. */
        const int a_ip = row ? plan->fast.b_in_place : plan->fast.a_in_place;
        const int b_ip = row ? plan->fast.a_in_place : plan->fast.b_in_place;
        const int a_tr = row ? plan->fast.b_transposed : plan->fast.a_transposed;
        const int b_tr = row ? plan->fast.a_transposed : plan->fast.b_transposed;
        const oclblas__step *main = &plan->step[plan->main];
        const oclblas__tiled *tiled = oclblas__kernels[main->kernel]->tiled;
        const char *label = tiled && tiled->label ? tiled->label(&main->params) : NULL;
        put(buf, len, &used, "%s%s%s%s%s on %zux%zux%zu, A %s, B %s, %zu slice%s of k",
            oclblas__kernels[main->kernel]->name, label ? " (" : "", label ? label : "", label ? ")" : "", cls,
            row ? plan->fast.np : plan->fast.mp, row ? plan->fast.mp : plan->fast.np, plan->fast.kp,
            operand_way(a_ip, a_tr), operand_way(b_ip, b_tr), plan->fast.slices, plan->fast.slices > 1 ? "s" : "");
        break;
    }
    }
    if (plan->problems > 1)
        put(buf, len, &used, ", %zu problems in one launch", plan->problems);
    put(buf, len, &used, "; %s-major", row ? "row" : "column");
}
