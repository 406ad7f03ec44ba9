/*
 * SGEMV on device buffers. oclblas_sgemv_cl checks the arguments in the
 * order reference CBLAS does, then its own, and turns a row-major call into
 * the column-major one over the same memory (a row-major A is a column-major
 * A^T). The column-major core picks the kernel by the direction of memory:
 * gemv_n when the output runs along A's contiguous direction (y = A x),
 * gemv_t when each output is a dot product along it (y = A^T x). Each kernel
 * gets enough work-groups to fill the device: when its natural parallelism
 * (rows for gemv_n, columns for gemv_t) is too small, the reduction is split
 * over several work-groups whose partial sums gemv_reduce adds up.
 */
#include "internal.h"

#include <limits.h>
#include <stdlib.h>

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

oclblas_status oclblas__sgemv_colmajor(int trans, size_t rows, size_t cols, float alpha, cl_mem a, size_t a_off,
                                       size_t lda, cl_mem x, size_t x_start, ptrdiff_t incx, float beta, cl_mem y,
                                       size_t y_start, ptrdiff_t incy, cl_command_queue queue, cl_event *event)
{
    cl_context ctx;
    cl_device_id dev_id;
    const oclblas__device_info *dev;
    oclblas_status st = oclblas__queue_info(queue, &ctx, &dev_id);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__device_info_get(dev_id, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    const size_t len_y = trans ? cols : rows;
    if (alpha == 0.0f) {
        const size_t step = (size_t)(incy < 0 ? -incy : incy);
        const size_t lowest = incy < 0 ? y_start - (len_y - 1) * step : y_start;
        return oclblas__scale(ctx, dev, 1, len_y, beta, y, lowest, step, queue, event);
    }

    const int table = trans ? OCLBLAS__K_GEMV_T : OCLBLAS__K_GEMV_N;
    oclblas__params p, rp, hp;
    st = oclblas__db_lookup(dev, table, &p, NULL, 0);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__db_lookup(dev, OCLBLAS__K_ROUTINE, &rp, NULL, 0);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__db_lookup(dev, OCLBLAS__K_HELPERS, &hp, NULL, 0);
    if (st != OCLBLAS_SUCCESS)
        return st;

    const size_t target = (size_t)dev->compute_units * (size_t)rp.v[RT_GEMV_GROUPS_PER_CU];
    const size_t wgs = (size_t)p.v[trans ? GT_WGS : GN_WGS];
    const size_t vw = (size_t)p.v[trans ? GT_VW : GN_VW];
    size_t groups, splits, chunk;
    int vec;
    if (!trans) {
        /* Rows are the parallel direction; columns may be split. */
        groups = ceil_div(rows, wgs * vw * (size_t)p.v[GN_WPT]);
        splits = groups < target ? ceil_div(target, groups) : 1;
        const size_t max_splits = ceil_div(cols, 32); /* keep each split's loop worth its partial sums */
        if (splits > max_splits)
            splits = max_splits ? max_splits : 1;
        chunk = ceil_div(cols, splits);
        splits = ceil_div(cols, chunk);
        vec = lda % vw == 0 && oclblas__aligned(a, a_off, vw * 4);
    } else {
        /* Columns are the parallel direction; rows may be split. */
        const size_t tpc = (size_t)p.v[GT_TPC];
        groups = ceil_div(cols, wgs / tpc);
        splits = groups < target ? ceil_div(target, groups) : 1;
        const size_t max_splits = ceil_div(rows, tpc * vw * 8);
        if (splits > max_splits)
            splits = max_splits ? max_splits : 1;
        chunk = ceil_div(ceil_div(rows, splits), tpc * vw) * tpc * vw;
        splits = ceil_div(rows, chunk);
        vec = incx == 1 && lda % vw == 0 && oclblas__aligned(a, a_off, vw * 4) && oclblas__aligned(x, x_start, vw * 4);
    }
    if (splits * len_y > INT_MAX || chunk > INT_MAX)
        return OCLBLAS_SIZE_TOO_LARGE;

    oclblas__kref kg, kr = {0};
    st = oclblas__kref_get(ctx, dev, table, &p, trans ? "gemv_t" : "gemv_n", &kg);
    if (st == OCLBLAS_SUCCESS && splits > 1)
        st = oclblas__kref_get(ctx, dev, OCLBLAS__K_HELPERS, &hp, "gemv_reduce", &kr);
    if (st != OCLBLAS_SUCCESS) {
        oclblas__kref_put(&kg);
        return st;
    }
    oclblas__scratch *scratch = NULL;
    cl_mem partial = NULL, bufs[OCLBLAS__SCRATCH_SLOTS] = {NULL, NULL, NULL};
    cl_event wait = NULL, ev_g = NULL, ev_r = NULL;
    if (splits > 1) {
        const size_t bytes[OCLBLAS__SCRATCH_SLOTS] = {0, 0, splits * len_y * sizeof(float)};
        st = oclblas__scratch_take(ctx, bytes, &scratch, bufs, &wait);
        partial = bufs[2];
    }
    if (st == OCLBLAS_SUCCESS) {
        const int M = (int)rows, N = (int)cols, ao = (int)a_off, al = (int)lda, xo = (int)x_start, xi = (int)incx,
                  yo = (int)y_start, yi = (int)incy, ch = (int)chunk, v = vec;
        const oclblas__arg args[] = {OCLBLAS__ARG(M),  OCLBLAS__ARG(N),  OCLBLAS__ARG(alpha), OCLBLAS__ARG(beta),
                                     OCLBLAS__ARG(a),  OCLBLAS__ARG(ao), OCLBLAS__ARG(al),    OCLBLAS__ARG(x),
                                     OCLBLAS__ARG(xo), OCLBLAS__ARG(xi), OCLBLAS__ARG(y),     OCLBLAS__ARG(yo),
                                     OCLBLAS__ARG(yi), OCLBLAS__ARG(ch), OCLBLAS__ARG(partial), OCLBLAS__ARG(v)};
        const size_t local[2] = {wgs, 1};
        const size_t global[2] = {groups * wgs, splits};
        st = oclblas__launch(queue, &kg, args, 16, 2, global, local, wait ? 1 : 0, &wait,
                             (splits > 1 || event) ? &ev_g : NULL);
    }
    if (st == OCLBLAS_SUCCESS && splits > 1) {
        const int n_out = (int)len_y, s = (int)splits, yo = (int)y_start, yi = (int)incy;
        const oclblas__arg args[] = {OCLBLAS__ARG(n_out), OCLBLAS__ARG(s),    OCLBLAS__ARG(partial),
                                     OCLBLAS__ARG(alpha), OCLBLAS__ARG(beta), OCLBLAS__ARG(y),
                                     OCLBLAS__ARG(yo),    OCLBLAS__ARG(yi)};
        const size_t local = (size_t)hp.v[HP_PAD_DIMX] * (size_t)hp.v[HP_PAD_DIMY];
        const size_t global = ceil_div(len_y, local) * local;
        st = oclblas__launch(queue, &kr, args, 8, 1, &global, &local, 1, &ev_g, &ev_r);
    }
    if (scratch)
        oclblas__scratch_put(scratch, ev_r ? ev_r : ev_g);
    cl_event last = splits > 1 ? ev_r : ev_g;
    if (st == OCLBLAS_SUCCESS && event)
        *event = last; /* the caller's to release */
    else if (last)
        clReleaseEvent(last);
    if (splits > 1 && ev_g)
        clReleaseEvent(ev_g);
    oclblas__kref_put(&kr);
    oclblas__kref_put(&kg);
    if (st == OCLBLAS_SUCCESS)
        oclblas__log("sgemv %zux%zu %c: %s, %zu work-groups x %zu splits%s", rows, cols, trans ? 'T' : 'N',
                     trans ? "gemv_t" : "gemv_n", groups, splits, vec ? ", vector loads" : "");
    return st;
}

oclblas_status oclblas_sgemv_cl(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                cl_mem a, size_t a_offset, size_t lda, cl_mem x, size_t x_offset, ptrdiff_t incx,
                                float beta, cl_mem y, size_t y_offset, ptrdiff_t incy, cl_command_queue queue,
                                cl_event *event)
{
    oclblas_status st = oclblas__sgemv_check(layout, trans, m, n, lda, incx, incy);
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
    if (col)
        return oclblas__sgemv_colmajor(t, m, n, alpha, a, a_offset, lda, x, x_start, incx, beta, y, y_start, incy,
                                       queue, event);
    return oclblas__sgemv_colmajor(!t, n, m, alpha, a, a_offset, lda, x, x_start, incx, beta, y, y_start, incy,
                                   queue, event);
}
