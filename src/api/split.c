/*
 * Device-buffer calls whose operands reach past the index limit (the
 * kernels index in int: 2^31 - 1 elements, OCLBLAS_INDEX_LIMIT lower for
 * tests) run as sub-problems that stay inside it, instead of being
 * refused: blocks of C (or y) and chunks of k (or of x), each chunk after
 * the first adding into its block with beta = 1. A block whose elements
 * lie beyond the limit from the start of the caller's buffer is reached
 * through a sub-buffer (clCreateSubBuffer) whose origin is rounded down to
 * the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN, the rest of the offset going
 * to the kernel as usual; a caller's sub-buffer is cut from its parent.
 * Blocks shrink, largest side first, until every operand's block, its
 * offset remainder and the kernels' padded copies fit. On an out-of-order
 * queue a barrier keeps the chunks of one block in order. The sub-problems
 * are enqueued one after another on the caller's queue, asynchronously,
 * after the operands are moved to its device (on_device: a driver's bug);
 * the event given back is a marker after the last. An error in a later
 * sub-problem (the device out of resources) leaves the blocks before it
 * computed: the call returns that error.
 */
#include "api/split.h"
#include "api/checks.h"
#include "runtime/launch.h"
#include "runtime/run.h"
#include "util/util.h"

#include <string.h>

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* Room the kernels' padded copies take beyond a block (tiles of up to 256;
 * against a limit lowered for tests, whose kernels never near the real
 * one, less). */
static size_t pad_for(size_t lim) { return lim / 1024 < 256 ? lim / 1024 : 256; }

/* Elements of the device's base-address alignment, at least one. */
static size_t align_elems(cl_command_queue q)
{
    cl_device_id dev;
    cl_uint bits = 0;
    if (clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL) != CL_SUCCESS || bits < 32)
        return 1024; /* 4 KiB: past any alignment a device asks for */
    return bits / 32;
}

static size_t span(size_t rows, size_t cols, size_t ld) { return oclblas__extent(rows, cols, ld); }

/* A view of part of a buffer: the buffer to pass (the caller's, or a
 * sub-buffer made here) and the element offset in it. */
typedef struct {
    cl_mem mem;
    size_t off;
    int made;
} view;

/* Elements [lo, lo + count) of buf, reachable by the kernels' int: the
 * buffer itself when they are inside the limit, else a sub-buffer from
 * the aligned element at or below lo. */
static oclblas_status view_of(cl_mem buf, size_t lo, size_t count, size_t limit, size_t align, view *v)
{
    v->made = 0;
    if (lo + count <= limit) {
        v->mem = buf;
        v->off = lo;
        return OCLBLAS_SUCCESS;
    }
    cl_mem parent = NULL;
    size_t base = 0; /* bytes of buf within its parent */
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    if (err == CL_SUCCESS && parent)
        err = clGetMemObjectInfo(buf, CL_MEM_OFFSET, sizeof base, &base, NULL);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    if (!parent)
        parent = buf;
    const size_t abs = base + lo * sizeof(float), step = align * sizeof(float);
    const size_t origin = abs / step * step;
    const cl_buffer_region region = {origin, abs - origin + count * sizeof(float)};
    v->mem = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    v->off = (abs - origin) / sizeof(float);
    v->made = 1;
    return OCLBLAS_SUCCESS;
}

static void view_done(view *v)
{
    /* The commands that use it keep it alive until they are done. */
    if (v->made)
        clReleaseMemObject(v->mem);
    v->made = 0;
}

/* The operands on the queue's device before any view of them is made.
 * Without it NVIDIA's driver (580, on an H100) gave some wrong elements:
 * operands made with CL_MEM_COPY_HOST_PTR and not yet used on the device,
 * read in turn whole and through sub-buffers that are then released (the
 * same sub-problems with the views never released came out right). Moved
 * to the device first (a no-op where they already are), every sub-problem
 * reads what the caller wrote: test_device_buffers passes on the H100 and
 * the H200. */
static oclblas_status on_device(cl_command_queue q, cl_mem m0, cl_mem m1, cl_mem m2)
{
    cl_mem mems[3];
    cl_uint n = 0;
    const cl_mem given[3] = {m0, m1, m2};
    for (int i = 0; i < 3; ++i)
        if (given[i])
            mems[n++] = given[i];
    return n ? (oclblas_status)clEnqueueMigrateMemObjects(q, n, mems, 0, 0, NULL, NULL) : OCLBLAS_SUCCESS;
}

static int out_of_order(cl_command_queue q)
{
    cl_command_queue_properties p = 0;
    clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL);
    return (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

/* ---- SGEMM --------------------------------------------------------------- */

typedef struct {
    int ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    size_t a_off, b_off, c_off;
} gemm_view; /* column-major */

static void col_major(oclblas_layout layout, int ta, int tb, size_t m, size_t n, size_t k, size_t a_off, size_t lda,
                      size_t b_off, size_t ldb, size_t c_off, size_t ldc, gemm_view *g)
{
    const int col = layout == OCLBLAS_COL_MAJOR;
    *g = (gemm_view){col ? ta : tb, col ? tb : ta, col ? m : n, col ? n : m, k, col ? lda : ldb, col ? ldb : lda, ldc,
                     col ? a_off : b_off, col ? b_off : a_off, c_off};
}

/* Whether blocks mb x nb (k chunk kb) keep every index inside the limit;
 * if not, *cut gets the side to halve: an operand past the limit loses
 * columns first (each costs a whole leading dimension), a padded copy its
 * longer side. */
static int gemm_fits(const gemm_view *g, size_t *mb, size_t *nb, size_t *kb, size_t lim, size_t **cut)
{
    const size_t pad = pad_for(lim);
    /* Each operand: its stored rows and columns. */
    size_t *rows[3] = {g->ta ? kb : mb, g->tb ? nb : kb, mb}, *cols[3] = {g->ta ? mb : kb, g->tb ? kb : nb, nb};
    const size_t ld[3] = {g->lda, g->ldb, g->ldc};
    for (int i = 0; i < 3; ++i)
        if (span(*rows[i], *cols[i], ld[i]) > lim) {
            *cut = *cols[i] > 1 ? cols[i] : rows[i];
            return 0;
        }
    size_t *pairs[3][2] = {{mb, kb}, {nb, kb}, {mb, nb}};
    for (int i = 0; i < 3; ++i)
        if ((*pairs[i][0] + pad) * (*pairs[i][1] + pad) > lim) {
            *cut = *pairs[i][0] >= *pairs[i][1] ? pairs[i][0] : pairs[i][1];
            return 0;
        }
    return 1;
}

int oclblas__gemm_needs_split(oclblas_layout layout, int ta, int tb, size_t m, size_t n, size_t k, size_t a_off,
                              size_t lda, size_t b_off, size_t ldb, size_t c_off, size_t ldc)
{
    gemm_view g;
    col_major(layout, ta, tb, m, n, k, a_off, lda, b_off, ldb, c_off, ldc, &g);
    const size_t lim = oclblas__index_limit(), pad = pad_for(lim);
    const int uses_ab = k > 0;
    const size_t ea = g.ta ? span(k, g.m, g.lda) : span(g.m, k, g.lda);
    const size_t eb = g.tb ? span(g.n, k, g.ldb) : span(k, g.n, g.ldb);
    if (g.c_off + span(g.m, g.n, g.ldc) > lim || (g.m + pad) * (g.n + pad) > lim)
        return 1;
    return uses_ab && (g.a_off + ea > lim || g.b_off + eb > lim || (g.m + pad) * (k + pad) > lim ||
                       (g.n + pad) * (k + pad) > lim);
}

oclblas_status oclblas__sgemm_split(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                    size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_off, size_t lda,
                                    cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c, size_t c_off,
                                    size_t ldc, cl_command_queue queue, cl_event *event)
{
    const int col = layout == OCLBLAS_COL_MAJOR;
    gemm_view g;
    col_major(layout, trans_a != OCLBLAS_NO_TRANS, trans_b != OCLBLAS_NO_TRANS, m, n, k, a_off, lda, b_off, ldb,
              c_off, ldc, &g);
    const cl_mem ga = col ? a : b, gb = col ? b : a;
    const size_t lim = oclblas__index_limit(), align = align_elems(queue);
    if (lim <= 2 * align)
        return OCLBLAS_SIZE_TOO_LARGE;
    /* A block's offset remainder in its sub-buffer is below align. */
    const size_t room = lim - align;
    size_t mb = g.m, nb = g.n, kb = k ? k : 1, *cut;
    while (!gemm_fits(&g, &mb, &nb, &kb, room, &cut)) {
        if (*cut <= 1)
            return OCLBLAS_SIZE_TOO_LARGE;
        *cut = (*cut + 1) / 2;
    }
    const int ooo = out_of_order(queue), uses_ab = k > 0 && alpha != 0.0f;
    size_t count = 0;
    oclblas_status st = on_device(queue, uses_ab ? ga : NULL, uses_ab ? gb : NULL, c);
    for (size_t j0 = 0; j0 < g.n && st == OCLBLAS_SUCCESS; j0 += nb)
        for (size_t i0 = 0; i0 < g.m && st == OCLBLAS_SUCCESS; i0 += mb)
            for (size_t p0 = 0; st == OCLBLAS_SUCCESS && (p0 < k || (p0 == 0 && !uses_ab)); p0 += kb) {
                const size_t mi = min_size(mb, g.m - i0), nj = min_size(nb, g.n - j0);
                const size_t kk = uses_ab ? min_size(kb, k - p0) : 0;
                view va = {0}, vb = {0}, vc;
                st = view_of(c, g.c_off + j0 * g.ldc + i0, span(mi, nj, g.ldc), lim, align, &vc);
                if (st == OCLBLAS_SUCCESS && uses_ab) {
                    const size_t ao = g.ta ? g.a_off + i0 * g.lda + p0 : g.a_off + p0 * g.lda + i0;
                    const size_t bo = g.tb ? g.b_off + p0 * g.ldb + j0 : g.b_off + j0 * g.ldb + p0;
                    st = view_of(ga, ao, g.ta ? span(kk, mi, g.lda) : span(mi, kk, g.lda), lim, align, &va);
                    if (st == OCLBLAS_SUCCESS)
                        st = view_of(gb, bo, g.tb ? span(nj, kk, g.ldb) : span(kk, nj, g.ldb), lim, align, &vb);
                }
                if (st == OCLBLAS_SUCCESS)
                    st = oclblas__sgemm_run(NULL, OCLBLAS_COL_MAJOR, g.ta ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS,
                                            g.tb ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, mi, nj, kk, uses_ab ? alpha : 0.0f,
                                            va.mem, va.off, g.lda, vb.mem, vb.off, g.ldb, p0 == 0 ? beta : 1.0f,
                                            vc.mem, vc.off, g.ldc, queue, NULL);
                if (st == OCLBLAS_SUCCESS && ooo)
                    st = (oclblas_status)clEnqueueBarrierWithWaitList(queue, 0, NULL, NULL);
                view_done(&va);
                view_done(&vb);
                view_done(&vc);
                ++count;
                if (!uses_ab)
                    break;
            }
    oclblas__log("sgemm %zux%zux%zu: past the index limit (%zu elements): %zu sub-problems of at most %zux%zux%zu%s", m,
                 n, k, lim, count, col ? mb : nb, col ? nb : mb, kb, st == OCLBLAS_SUCCESS ? "" : ", one failed");
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__marker(queue, event);
    return st;
}

/* ---- SGEMV --------------------------------------------------------------- */

/* Elements a vector block spans: count elements step apart. */
static size_t vspan(size_t count, size_t step) { return count ? (count - 1) * step + 1 : 0; }

int oclblas__gemv_needs_split(oclblas_layout layout, int t, size_t m, size_t n, size_t a_off, size_t lda,
                              size_t x_lo, size_t x_span, size_t y_lo, size_t y_span)
{
    const size_t lim = oclblas__index_limit();
    const size_t ea = layout == OCLBLAS_COL_MAJOR ? span(m, n, lda) : span(n, m, lda);
    (void)t;
    return a_off + ea > lim || x_lo + x_span > lim || y_lo + y_span > lim;
}

oclblas_status oclblas__sgemv_split(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                    cl_mem a, size_t a_off, size_t lda, cl_mem x, size_t x_start, ptrdiff_t incx,
                                    float beta, cl_mem y, size_t y_start, ptrdiff_t incy, cl_command_queue queue,
                                    cl_event *event)
{
    /* Column-major: a row-major A is A^T. */
    const int col = layout == OCLBLAS_COL_MAJOR;
    const int t = col ? trans != OCLBLAS_NO_TRANS : trans == OCLBLAS_NO_TRANS;
    const size_t rows = col ? m : n, cols = col ? n : m;
    const size_t len_x = t ? rows : cols, len_y = t ? cols : rows;
    const size_t sx = (size_t)(incx < 0 ? -incx : incx), sy = (size_t)(incy < 0 ? -incy : incy);
    const size_t lim = oclblas__index_limit(), align = align_elems(queue);
    if (lim <= 2 * align)
        return OCLBLAS_SIZE_TOO_LARGE;
    const size_t room = lim - align;
    /* ob elements of y, rb of x per block; A's block loses columns first. */
    size_t ob = len_y, rb = len_x;
    for (;;) {
        size_t *cut;
        if ((t ? span(rb, ob, lda) : span(ob, rb, lda)) > room)
            cut = t ? (ob > 1 ? &ob : &rb) : (rb > 1 ? &rb : &ob);
        else if (vspan(rb, sx) > room)
            cut = &rb;
        else if (vspan(ob, sy) > room)
            cut = &ob;
        else
            break;
        if (*cut <= 1)
            return OCLBLAS_SIZE_TOO_LARGE;
        *cut = (*cut + 1) / 2;
    }
    const int ooo = out_of_order(queue), uses_ax = alpha != 0.0f;
    size_t count = 0;
    oclblas_status st = on_device(queue, uses_ax ? a : NULL, uses_ax ? x : NULL, y);
    for (size_t o0 = 0; o0 < len_y && st == OCLBLAS_SUCCESS; o0 += ob)
        for (size_t r0 = 0; st == OCLBLAS_SUCCESS && (r0 < len_x); r0 += rb) {
            const size_t no = min_size(ob, len_y - o0), nr = min_size(rb, len_x - r0);
            /* x[r0] and y[o0] (logical) lie at start + index * inc; a block's
             * lowest element is its first or, for a negative increment, its last. */
            const size_t xs = (size_t)((ptrdiff_t)x_start + (ptrdiff_t)r0 * incx);
            const size_t ys = (size_t)((ptrdiff_t)y_start + (ptrdiff_t)o0 * incy);
            const size_t x_lo = incx < 0 ? xs - (nr - 1) * sx : xs, y_lo = incy < 0 ? ys - (no - 1) * sy : ys;
            const size_t i0 = t ? r0 : o0, j0 = t ? o0 : r0;
            view va = {0}, vx = {0}, vy;
            st = view_of(y, y_lo, vspan(no, sy), lim, align, &vy);
            if (st == OCLBLAS_SUCCESS && uses_ax) {
                st = view_of(a, a_off + j0 * lda + i0, t ? span(nr, no, lda) : span(no, nr, lda), lim, align, &va);
                if (st == OCLBLAS_SUCCESS)
                    st = view_of(x, x_lo, vspan(nr, sx), lim, align, &vx);
            }
            if (st == OCLBLAS_SUCCESS)
                st = oclblas__sgemv_run(NULL, OCLBLAS_COL_MAJOR, t ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, t ? nr : no,
                                        t ? no : nr, alpha, va.mem, va.off, lda, vx.mem,
                                        vx.off + (xs - x_lo), incx, r0 == 0 ? beta : 1.0f, vy.mem,
                                        vy.off + (ys - y_lo), incy, queue, NULL);
            if (st == OCLBLAS_SUCCESS && ooo)
                st = (oclblas_status)clEnqueueBarrierWithWaitList(queue, 0, NULL, NULL);
            view_done(&va);
            view_done(&vx);
            view_done(&vy);
            ++count;
            if (!uses_ax)
                break;
        }
    oclblas__log("sgemv %zux%zu: past the index limit (%zu elements): %zu sub-problems of at most %zux%zu%s", m, n, lim,
                 count, t ? rb : ob, t ? ob : rb, st == OCLBLAS_SUCCESS ? "" : ", one failed");
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__marker(queue, event);
    return st;
}
