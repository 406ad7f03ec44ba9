/*
 * SGEMM on device buffers. oclblas_sgemm_cl checks the arguments in the
 * order reference CBLAS does, then its own (queue, buffers), returns early
 * on trivial input and turns a row-major call into the column-major one
 * that computes the same memory (C^T = B^T A^T). The column-major core picks
 * a plan:
 *   k = 0 or alpha = 0     C = beta * C (scale_matrix), or nothing if beta = 1
 *   m = 1 or n = 1         a gemv kernel
 *   m * n * k small        gemm_direct, straight from the caller's buffers
 *   otherwise              gemm_fast, on operands that helpers pad (and
 *                          transpose) into scratch buffers, unless the
 *                          caller's own layout already fits the kernel;
 *                          with k split into slices (summed by sum_slices)
 *                          where the tiles of C alone cannot fill the device.
 */
#include "internal.h"

#include <limits.h>
#include <string.h>

static size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

/* C = beta * C, or nothing when beta = 1. */
oclblas_status oclblas__scale(cl_context ctx, const oclblas__device_info *dev, size_t m, size_t n, float beta,
                              cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_event *event)
{
    if (beta == 1.0f)
        return oclblas__marker(queue, event);
    oclblas__params hp;
    oclblas_status st = oclblas__db_lookup(dev, OCLBLAS__K_HELPERS, &hp, NULL, 0);
    oclblas__kref k;
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__kref_get(ctx, dev, OCLBLAS__K_HELPERS, &hp, "scale_matrix", &k);
    if (st != OCLBLAS_SUCCESS)
        return st;
    const int rows = (int)m, cols = (int)n, off = (int)c_off, ld = (int)ldc;
    const oclblas__arg args[] = {OCLBLAS__ARG(rows), OCLBLAS__ARG(cols), OCLBLAS__ARG(beta),
                                 OCLBLAS__ARG(c),    OCLBLAS__ARG(off),  OCLBLAS__ARG(ld)};
    const size_t tx = (size_t)hp.v[HP_PAD_DIMX] * hp.v[HP_PAD_WPTX], ty = (size_t)hp.v[HP_PAD_DIMY] * hp.v[HP_PAD_WPTY];
    const size_t local[2] = {(size_t)hp.v[HP_PAD_DIMX], (size_t)hp.v[HP_PAD_DIMY]};
    const size_t global[2] = {round_up(m, tx) / tx * local[0], round_up(n, ty) / ty * local[1]};
    st = oclblas__launch(queue, &k, args, 6, 2, global, local, 0, NULL, event);
    oclblas__kref_put(&k);
    if (st == OCLBLAS_SUCCESS)
        oclblas__log("%zux%zu: C = beta * C (scale_matrix)", m, n);
    return st;
}

static oclblas_status direct(cl_context ctx, const oclblas__device_info *dev, int at, int bt, size_t m, size_t n,
                             size_t k, float alpha, cl_mem a, size_t a_off, size_t lda, cl_mem b, size_t b_off,
                             size_t ldb, float beta, cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue,
                             cl_event *event)
{
    static const char *const names[2][2] = {{"gemm_direct_nn", "gemm_direct_nt"},
                                            {"gemm_direct_tn", "gemm_direct_tt"}};
    oclblas__params p;
    oclblas_status st = oclblas__db_lookup(dev, OCLBLAS__K_GEMM_DIRECT, &p, NULL, 0);
    oclblas__kref kr;
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__kref_get(ctx, dev, OCLBLAS__K_GEMM_DIRECT, &p, names[at][bt], &kr);
    if (st != OCLBLAS_SUCCESS)
        return st;
    const int M = (int)m, N = (int)n, K = (int)k, ao = (int)a_off, al = (int)lda, bo = (int)b_off, bl = (int)ldb,
              co = (int)c_off, cl = (int)ldc;
    const oclblas__arg args[] = {OCLBLAS__ARG(M),     OCLBLAS__ARG(N),  OCLBLAS__ARG(K),  OCLBLAS__ARG(alpha),
                                 OCLBLAS__ARG(beta),  OCLBLAS__ARG(a),  OCLBLAS__ARG(ao), OCLBLAS__ARG(al),
                                 OCLBLAS__ARG(b),     OCLBLAS__ARG(bo), OCLBLAS__ARG(bl), OCLBLAS__ARG(c),
                                 OCLBLAS__ARG(co),    OCLBLAS__ARG(cl)};
    const size_t wgd = (size_t)p.v[GD_WGD];
    const size_t local[2] = {(size_t)p.v[GD_MDIMCD], (size_t)p.v[GD_NDIMCD]};
    const size_t global[2] = {round_up(m, wgd) / wgd * local[0], round_up(n, wgd) / wgd * local[1]};
    st = oclblas__launch(queue, &kr, args, 14, 2, global, local, 0, NULL, event);
    oclblas__kref_put(&kr);
    if (st == OCLBLAS_SUCCESS)
        oclblas__log("sgemm %zux%zux%zu %c%c: gemm_direct", m, n, k, at ? 'T' : 'N', bt ? 'T' : 'N');
    return st;
}

/* Enqueues a helper that writes an operand into scratch: a dst_rows x
 * dst_cols column-major block (leading dimension dst_rows) whose top-left
 * rows x cols are src (stored as is, or transposed) and the rest zeros. */
static oclblas_status pad(cl_command_queue q, const oclblas__kref *copy, const oclblas__kref *transpose,
                          const oclblas__params *hp, int trans, size_t rows, size_t cols, cl_mem src, size_t src_off,
                          size_t src_ld, size_t dst_rows, size_t dst_cols, cl_mem dst, cl_uint num_wait,
                          const cl_event *wait, cl_event *event)
{
    const int r = (int)rows, c = (int)cols, so = (int)src_off, sl = (int)src_ld, dr = (int)dst_rows,
              dc = (int)dst_cols, dl = (int)dst_rows;
    const oclblas__arg args[] = {OCLBLAS__ARG(r),  OCLBLAS__ARG(c),  OCLBLAS__ARG(src), OCLBLAS__ARG(so),
                                 OCLBLAS__ARG(sl), OCLBLAS__ARG(dr), OCLBLAS__ARG(dc),  OCLBLAS__ARG(dst),
                                 OCLBLAS__ARG(dl)};
    size_t local[2], global[2];
    if (trans) {
        const size_t tile = (size_t)hp->v[HP_TRA_DIM] * hp->v[HP_TRA_WPT];
        local[0] = local[1] = (size_t)hp->v[HP_TRA_DIM];
        global[0] = round_up(dst_rows, tile) / tile * local[0];
        global[1] = round_up(dst_cols, tile) / tile * local[1];
    } else {
        const size_t tx = (size_t)hp->v[HP_PAD_DIMX] * hp->v[HP_PAD_WPTX];
        const size_t ty = (size_t)hp->v[HP_PAD_DIMY] * hp->v[HP_PAD_WPTY];
        local[0] = (size_t)hp->v[HP_PAD_DIMX];
        local[1] = (size_t)hp->v[HP_PAD_DIMY];
        global[0] = round_up(dst_rows, tx) / tx * local[0];
        global[1] = round_up(dst_cols, ty) / ty * local[1];
    }
    return oclblas__launch(q, trans ? transpose : copy, args, 9, 2, global, local, num_wait, wait, event);
}

/* The split of k for gemm_fast: how many slices (1: none) and the k of
 * each (a multiple of KWG). A product whose tiles of C give few work-groups
 * leaves most of the device idle however long k is (256 x 256 x 65536, or
 * 1024^3 with large tiles); its k is cut into slices that run side by side,
 * each into its own copy of C, which sum_slices then adds. The aim is
 * GEMM_SPLIT_K work-groups per compute unit, and there is no split unless
 * the tiles alone give at most half of that (the slices' extra memory
 * traffic would cost more than it gains). A slice keeps at least 256 of k
 * (or one KWG), there are at most 64, and their partial sums take at most
 * 256 MiB or an eighth of the largest allocation. */
static size_t k_slices(const oclblas__device_info *dev, int per_cu, size_t tiles, size_t mp, size_t np, size_t kp,
                       size_t kwg, size_t *k_slice)
{
    *k_slice = kp;
    const size_t want = (size_t)per_cu * dev->compute_units;
    if (per_cu <= 0 || tiles >= want)
        return 1;
    const size_t kt = kp / kwg, min_kt = (256 + kwg - 1) / kwg;
    const size_t bytes_cap = dev->max_alloc / 8 < ((size_t)256 << 20) ? (size_t)(dev->max_alloc / 8) : (size_t)256 << 20;
    size_t s = want / tiles; /* no split until the tiles fill at most half */
    if (s > kt / min_kt)
        s = kt / min_kt;
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

static oclblas_status indirect(cl_context ctx, const oclblas__device_info *dev, int at, int bt, size_t m, size_t n,
                               size_t k, float alpha, cl_mem a, size_t a_off, size_t lda, cl_mem b, size_t b_off,
                               size_t ldb, float beta, cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue,
                               cl_event *event)
{
    oclblas__params p, hp, rp;
    oclblas_status st = oclblas__db_lookup(dev, OCLBLAS__K_GEMM_FAST, &p, NULL, 0);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__db_lookup(dev, OCLBLAS__K_HELPERS, &hp, NULL, 0);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__db_lookup(dev, OCLBLAS__K_ROUTINE, &rp, NULL, 0);
    if (st != OCLBLAS_SUCCESS)
        return st;
    const size_t vwm = (size_t)p.v[GF_VWM], vwn = (size_t)p.v[GF_VWN];
    const size_t mwg = (size_t)p.v[GF_MWG], nwg = (size_t)p.v[GF_NWG], kwg = (size_t)p.v[GF_KWG];
    const size_t mp = round_up(m, mwg), np = round_up(n, nwg), kp = round_up(k, kwg);
    if (mp > INT_MAX / kp || np > INT_MAX / kp)
        return OCLBLAS_SIZE_TOO_LARGE;
    /* gemm_fast reads A as (m, k) with m contiguous and B as (k, n) with n
     * contiguous; where the caller's operand already is that, tile-aligned,
     * it is read in place (if its indices fit the kernel's int). */
    const int a_in_place = !at && m == mp && k == kp && lda % vwm == 0 && lda <= INT_MAX / kp &&
                           oclblas__aligned(a, a_off, vwm * 4);
    const int b_in_place = bt && n == np && k == kp && ldb % vwn == 0 && ldb <= INT_MAX / kp &&
                           oclblas__aligned(b, b_off, vwn * 4);
    size_t k_slice;
    const size_t slices = k_slices(dev, rp.v[RT_GEMM_SPLIT_K], (mp / mwg) * (np / nwg), mp, np, kp, kwg, &k_slice);

    oclblas__kref kf = {0}, kcopy = {0}, ktra = {0}, ksum = {0};
    st = oclblas__kref_get(ctx, dev, OCLBLAS__K_GEMM_FAST, &p, "gemm_fast", &kf);
    if (st == OCLBLAS_SUCCESS && (!a_in_place || !b_in_place)) {
        st = oclblas__kref_get(ctx, dev, OCLBLAS__K_HELPERS, &hp, "pad_copy", &kcopy);
        if (st == OCLBLAS_SUCCESS)
            st = oclblas__kref_get(ctx, dev, OCLBLAS__K_HELPERS, &hp, "pad_transpose", &ktra);
    }
    if (st == OCLBLAS_SUCCESS && slices > 1)
        st = oclblas__kref_get(ctx, dev, OCLBLAS__K_HELPERS, &hp, "sum_slices", &ksum);
    if (st != OCLBLAS_SUCCESS) {
        oclblas__kref_put(&kcopy);
        oclblas__kref_put(&ktra);
        oclblas__kref_put(&kf);
        return st;
    }

    oclblas__scratch *scratch = NULL;
    cl_mem bufs[OCLBLAS__SCRATCH_SLOTS] = {NULL, NULL, NULL};
    cl_event wait = NULL, ev_a = NULL, ev_b = NULL, ev_c = NULL, ev_s = NULL;
    if (!a_in_place || !b_in_place || slices > 1) {
        const size_t bytes[OCLBLAS__SCRATCH_SLOTS] = {a_in_place ? 0 : mp * kp * sizeof(float),
                                                      b_in_place ? 0 : np * kp * sizeof(float),
                                                      slices > 1 ? slices * mp * np * sizeof(float) : 0};
        st = oclblas__scratch_take(ctx, bytes, &scratch, bufs, &wait);
    }
    if (st == OCLBLAS_SUCCESS && !a_in_place)
        st = pad(queue, &kcopy, &ktra, &hp, at, m, k, a, a_off, lda, mp, kp, bufs[0], wait ? 1 : 0, &wait, &ev_a);
    if (st == OCLBLAS_SUCCESS && !b_in_place)
        st = pad(queue, &kcopy, &ktra, &hp, !bt, n, k, b, b_off, ldb, np, kp, bufs[1], wait ? 1 : 0, &wait, &ev_b);
    if (st == OCLBLAS_SUCCESS) {
        cl_mem ga = a_in_place ? a : bufs[0], gb = b_in_place ? b : bufs[1];
        /* With a split, each slice goes to the partial sums (alpha 1, beta 0,
         * leading dimension mp) and sum_slices applies alpha and beta. */
        cl_mem gc = slices > 1 ? bufs[2] : c;
        const float ga_alpha = slices > 1 ? 1.0f : alpha, ga_beta = slices > 1 ? 0.0f : beta;
        const int M = (int)m, N = (int)n, K = (int)kp, KS = (int)k_slice, CS = (int)(mp * np);
        const int ao = a_in_place ? (int)(a_off / vwm) : 0, al = (int)((a_in_place ? lda : mp) / vwm);
        const int bo = b_in_place ? (int)(b_off / vwn) : 0, bl = (int)((b_in_place ? ldb : np) / vwn);
        const int co = slices > 1 ? 0 : (int)c_off, cl = slices > 1 ? (int)mp : (int)ldc;
        const oclblas__arg args[] = {OCLBLAS__ARG(M),        OCLBLAS__ARG(N),       OCLBLAS__ARG(K),
                                     OCLBLAS__ARG(KS),       OCLBLAS__ARG(CS),      OCLBLAS__ARG(ga_alpha),
                                     OCLBLAS__ARG(ga_beta),  OCLBLAS__ARG(ga),      OCLBLAS__ARG(ao),
                                     OCLBLAS__ARG(al),       OCLBLAS__ARG(gb),      OCLBLAS__ARG(bo),
                                     OCLBLAS__ARG(bl),       OCLBLAS__ARG(gc),      OCLBLAS__ARG(co),
                                     OCLBLAS__ARG(cl)};
        const size_t local[3] = {(size_t)p.v[GF_MDIMC], (size_t)p.v[GF_NDIMC], 1};
        const size_t global[3] = {mp / mwg * local[0], np / nwg * local[1], slices};
        cl_event deps[3];
        cl_uint nd = 0;
        if (ev_a)
            deps[nd++] = ev_a;
        if (ev_b)
            deps[nd++] = ev_b;
        if (!ev_a && !ev_b && wait) /* the partial sums' last reader */
            deps[nd++] = wait;
        st = oclblas__launch(queue, &kf, args, 16, 3, global, local, nd, deps,
                             (scratch || event || slices > 1) ? &ev_c : NULL);
    }
    if (st == OCLBLAS_SUCCESS && slices > 1) {
        const int rows = (int)m, cols = (int)n, ns = (int)slices, pl = (int)mp, ps = (int)(mp * np), co = (int)c_off,
                  cl = (int)ldc;
        const oclblas__arg args[] = {OCLBLAS__ARG(rows),  OCLBLAS__ARG(cols), OCLBLAS__ARG(ns),
                                     OCLBLAS__ARG(bufs[2]), OCLBLAS__ARG(pl), OCLBLAS__ARG(ps),
                                     OCLBLAS__ARG(alpha), OCLBLAS__ARG(beta), OCLBLAS__ARG(c),
                                     OCLBLAS__ARG(co),    OCLBLAS__ARG(cl)};
        const size_t local[2] = {(size_t)hp.v[HP_PAD_DIMX], (size_t)hp.v[HP_PAD_DIMY]};
        const size_t global[2] = {round_up(m, local[0]), round_up(n, local[1])};
        st = oclblas__launch(queue, &ksum, args, 11, 2, global, local, 1, &ev_c, &ev_s);
    }
    cl_event last = slices > 1 ? ev_s : ev_c;
    if (scratch && st != OCLBLAS_SUCCESS && !ev_c && ev_a && ev_b) {
        /* Both pads ran and nothing after them did: neither event covers the
         * other (on an out-of-order queue), so let them finish before the
         * scratch set is reused. */
        const cl_event pads[2] = {ev_a, ev_b};
        clWaitForEvents(2, pads);
    }
    if (scratch)
        oclblas__scratch_put(scratch, st == OCLBLAS_SUCCESS ? last : (ev_c ? ev_c : ev_b ? ev_b : ev_a));
    if (ev_a)
        clReleaseEvent(ev_a);
    if (ev_b)
        clReleaseEvent(ev_b);
    if (slices > 1 && ev_c)
        clReleaseEvent(ev_c);
    if (st == OCLBLAS_SUCCESS && event)
        *event = last;
    else if (last)
        clReleaseEvent(last);
    oclblas__kref_put(&kcopy);
    oclblas__kref_put(&ktra);
    oclblas__kref_put(&ksum);
    oclblas__kref_put(&kf);
    if (st == OCLBLAS_SUCCESS)
        oclblas__log("sgemm %zux%zux%zu %c%c: gemm_fast on %zux%zux%zu, A %s, B %s, %zu slice%s of k", m, n, k,
                     at ? 'T' : 'N', bt ? 'T' : 'N', mp, np, kp,
                     a_in_place ? "in place" : at ? "transposed" : "padded",
                     b_in_place ? "in place" : bt ? "padded" : "transposed", slices, slices > 1 ? "s" : "");
    return st;
}

oclblas_status oclblas__sgemm_colmajor(int at, int bt, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                                       size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta,
                                       cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_event *event)
{
    cl_context ctx;
    cl_device_id dev_id;
    const oclblas__device_info *dev;
    oclblas_status st = oclblas__queue_info(queue, &ctx, &dev_id);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__device_info_get(dev_id, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (k == 0 || alpha == 0.0f)
        return oclblas__scale(ctx, dev, m, n, beta, c, c_off, ldc, queue, event);
    /* A product with one row or one column of C is a matrix-vector product. */
    if (n == 1) /* c = op(A) * (column of op(B)) */
        return oclblas__sgemv_colmajor(at, at ? k : m, at ? m : k, alpha, a, a_off, lda, b, b_off,
                                       bt ? (ptrdiff_t)ldb : 1, beta, c, c_off, 1, queue, event);
    if (m == 1) /* c^T = op(B)^T * (row of op(A))^T */
        return oclblas__sgemv_colmajor(!bt, bt ? n : k, bt ? k : n, alpha, b, b_off, ldb, a, a_off,
                                       at ? 1 : (ptrdiff_t)lda, beta, c, c_off, (ptrdiff_t)ldc, queue, event);
    oclblas__params rp;
    st = oclblas__db_lookup(dev, OCLBLAS__K_ROUTINE, &rp, NULL, 0);
    if (st != OCLBLAS_SUCCESS)
        return st;
    const double crossover = (double)rp.v[RT_GEMM_MIN_INDIRECT];
    if ((double)m * (double)n * (double)k < crossover * crossover * crossover)
        return direct(ctx, dev, at, bt, m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta, c, c_off, ldc, queue,
                      event);
    return indirect(ctx, dev, at, bt, m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta, c, c_off, ldc, queue,
                    event);
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
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (!queue)
        return OCLBLAS_NULL_QUEUE;
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    /* op(A) is m x k, op(B) k x n: the stored shapes. */
    const size_t a_rows = at ? k : m, a_cols = at ? m : k;
    const size_t b_rows = bt ? n : k, b_cols = bt ? k : n;
    const int col = layout == OCLBLAS_COL_MAJOR;

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
    if (col)
        return oclblas__sgemm_colmajor(at, bt, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta, c,
                                       c_offset, ldc, queue, event);
    /* Row-major C is column-major C^T = op(B)^T op(A)^T over the same memory. */
    return oclblas__sgemm_colmajor(bt, at, n, m, k, alpha, b, b_offset, ldb, a, a_offset, lda, beta, c, c_offset,
                                   ldc, queue, event);
}
