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

/* A sub-problem: the call's record cut to a block (sub, its mode
 * included) on views of the operands (A, B or x, C or y), enqueued when
 * the views could be had (st); the views are let go after. */
static oclblas_status run_block(oclblas__record *sub, view v[3], oclblas_status st, cl_command_queue queue)
{
    oclblas__arg *args[3] = {&sub->a, &sub->b, &sub->c};
    for (int i = 0; i < 3; ++i) {
        args[i]->buf = v[i].mem;
        args[i]->off = v[i].off;
    }
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__run(NULL, sub, queue, NULL);
    if (st == OCLBLAS_SUCCESS && !oclblas__queue_in_order(queue))
        st = (oclblas_status)clEnqueueBarrierWithWaitList(queue, 0, NULL, NULL);
    for (int i = 0; i < 3; ++i)
        view_done(&v[i]);
    return st;
}

/* ---- SGEMM --------------------------------------------------------------- */

/* Whether blocks mb x nb (k chunk kb) of the column-major call c keep every
 * index inside the limit; if not, *cut gets the side to halve: an operand
 * past the limit loses columns first (each costs a whole leading
 * dimension), a padded copy its longer side. */
static int gemm_fits(const oclblas__record *c, size_t *mb, size_t *nb, size_t *kb, size_t lim, size_t **cut)
{
    const size_t pad = pad_for(lim);
    const int ta = c->trans_a != OCLBLAS_NO_TRANS, tb = c->trans_b != OCLBLAS_NO_TRANS;
    /* Each operand: its stored rows and columns. */
    size_t *rows[3] = {ta ? kb : mb, tb ? nb : kb, mb}, *cols[3] = {ta ? mb : kb, tb ? kb : nb, nb};
    const size_t ld[3] = {c->a.ld, c->b.ld, c->c.ld};
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

static int gemm_needs_split(const oclblas__record *r)
{
    const oclblas__record c = oclblas__record_col_major(r);
    const size_t lim = oclblas__index_limit(), pad = pad_for(lim);
    const size_t k = oclblas__record_uses_ab(&c) ? c.k : 0;
    size_t ext[3];
    oclblas__record_extents(&c, ext);
    if (c.c.off + ext[2] > lim || (c.m + pad) * (c.n + pad) > lim)
        return 1;
    return k > 0 && (c.a.off + ext[0] > lim || c.b.off + ext[1] > lim || (c.m + pad) * (k + pad) > lim ||
                     (c.n + pad) * (k + pad) > lim);
}

/* The sub-problem of the column-major call c whose block of C starts at
 * (i0, j0), k from p0, on views of the operands. */
static oclblas_status gemm_block(const oclblas__record *c, size_t i0, size_t j0, size_t p0, size_t mi, size_t nj,
                                 size_t kk, size_t lim, size_t align, cl_command_queue queue)
{
    const int ta = c->trans_a != OCLBLAS_NO_TRANS, tb = c->trans_b != OCLBLAS_NO_TRANS;
    const int uses_ab = oclblas__record_uses_ab(c);
    view v[3] = {{0}, {0}, {0}};
    oclblas_status st = view_of(c->c.buf, c->c.off + j0 * c->c.ld + i0, span(mi, nj, c->c.ld), lim, align, &v[2]);
    if (st == OCLBLAS_SUCCESS && uses_ab) {
        const size_t ao = ta ? c->a.off + i0 * c->a.ld + p0 : c->a.off + p0 * c->a.ld + i0;
        const size_t bo = tb ? c->b.off + p0 * c->b.ld + j0 : c->b.off + j0 * c->b.ld + p0;
        st = view_of(c->a.buf, ao, ta ? span(kk, mi, c->a.ld) : span(mi, kk, c->a.ld), lim, align, &v[0]);
        if (st == OCLBLAS_SUCCESS)
            st = view_of(c->b.buf, bo, tb ? span(nj, kk, c->b.ld) : span(kk, nj, c->b.ld), lim, align, &v[1]);
    }
    oclblas__record sub = *c;
    sub.m = mi;
    sub.n = nj;
    sub.k = kk;
    sub.alpha = uses_ab ? c->alpha : 0.0f;
    sub.beta = p0 == 0 ? c->beta : 1.0f;
    return run_block(&sub, v, st, queue);
}

static oclblas_status gemm_split(const oclblas__record *r, cl_command_queue queue, cl_event *event)
{
    const oclblas__record c = oclblas__record_col_major(r);
    const size_t lim = oclblas__index_limit(), align = align_elems(queue), k = c.k;
    if (lim <= 2 * align)
        return OCLBLAS_SIZE_TOO_LARGE;
    /* A block's offset remainder in its sub-buffer is below align. */
    const size_t room = lim - align;
    size_t mb = c.m, nb = c.n, kb = k ? k : 1, *cut;
    while (!gemm_fits(&c, &mb, &nb, &kb, room, &cut)) {
        if (*cut <= 1)
            return OCLBLAS_SIZE_TOO_LARGE;
        *cut = (*cut + 1) / 2;
    }
    const int uses_ab = oclblas__record_uses_ab(&c);
    size_t count = 0;
    oclblas_status st = on_device(queue, uses_ab ? c.a.buf : NULL, uses_ab ? c.b.buf : NULL, c.c.buf);
    for (size_t j0 = 0; j0 < c.n && st == OCLBLAS_SUCCESS; j0 += nb)
        for (size_t i0 = 0; i0 < c.m && st == OCLBLAS_SUCCESS; i0 += mb)
            for (size_t p0 = 0; st == OCLBLAS_SUCCESS && (p0 < k || (p0 == 0 && !uses_ab)); p0 += kb) {
                st = gemm_block(&c, i0, j0, p0, min_size(mb, c.m - i0), min_size(nb, c.n - j0),
                                uses_ab ? min_size(kb, k - p0) : 0, lim, align, queue);
                ++count;
                if (!uses_ab)
                    break;
            }
    const int col = r->layout == OCLBLAS_COL_MAJOR;
    oclblas__log("sgemm %zux%zux%zu: past the index limit (%zu elements): %zu sub-problems of at most %zux%zux%zu%s",
                 r->m, r->n, k, lim, count, col ? mb : nb, col ? nb : mb, kb,
                 st == OCLBLAS_SUCCESS ? "" : ", one failed");
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__marker(queue, event);
    return st;
}

/* ---- SGEMV --------------------------------------------------------------- */

/* Elements a vector block spans: count elements step apart. */
static size_t vspan(size_t count, size_t step) { return count ? (count - 1) * step + 1 : 0; }

static size_t step_of(ptrdiff_t inc) { return inc < 0 ? (size_t)0 - (size_t)inc : (size_t)inc; }

static int gemv_needs_split(const oclblas__record *r)
{
    const size_t lim = oclblas__index_limit();
    size_t ext[3];
    oclblas__record_extents(r, ext);
    if (r->c.off + ext[2] > lim)
        return 1;
    return oclblas__record_uses_ab(r) && (r->a.off + ext[0] > lim || r->b.off + ext[1] > lim);
}

/* The sub-problem of the column-major call c on x[r0, r0 + nr) and y[o0,
 * o0 + no) (logical elements), on views of the operands. */
static oclblas_status gemv_block(const oclblas__record *c, size_t r0, size_t o0, size_t nr, size_t no, size_t lim,
                                 size_t align, cl_command_queue queue)
{
    const int t = c->trans_a != OCLBLAS_NO_TRANS, uses_ax = c->alpha != 0.0f;
    const size_t sx = step_of(c->b.inc), sy = step_of(c->c.inc);
    const size_t len_x = t ? c->m : c->n, len_y = t ? c->n : c->m;
    /* Logical element i of a vector lies at off + i * step, or for a
     * negative increment at off + (len - 1 - i) * step; a block's lowest
     * element is its first or, for a negative increment, its last. */
    const size_t x_lo = c->b.inc < 0 ? c->b.off + (len_x - r0 - nr) * sx : c->b.off + r0 * sx;
    const size_t y_lo = c->c.inc < 0 ? c->c.off + (len_y - o0 - no) * sy : c->c.off + o0 * sy;
    const size_t i0 = t ? r0 : o0, j0 = t ? o0 : r0;
    view v[3] = {{0}, {0}, {0}};
    oclblas_status st = view_of(c->c.buf, y_lo, vspan(no, sy), lim, align, &v[2]);
    if (st == OCLBLAS_SUCCESS && uses_ax) {
        st = view_of(c->a.buf, c->a.off + j0 * c->a.ld + i0, t ? span(nr, no, c->a.ld) : span(no, nr, c->a.ld), lim,
                     align, &v[0]);
        if (st == OCLBLAS_SUCCESS)
            st = view_of(c->b.buf, x_lo, vspan(nr, sx), lim, align, &v[1]);
    }
    oclblas__record sub = *c;
    sub.m = t ? nr : no;
    sub.n = t ? no : nr;
    sub.beta = r0 == 0 ? c->beta : 1.0f;
    return run_block(&sub, v, st, queue);
}

static oclblas_status gemv_split(const oclblas__record *r, cl_command_queue queue, cl_event *event)
{
    const oclblas__record c = oclblas__record_col_major(r);
    const int t = c.trans_a != OCLBLAS_NO_TRANS;
    const size_t len_x = t ? c.m : c.n, len_y = t ? c.n : c.m, lda = c.a.ld;
    const size_t sx = step_of(c.b.inc), sy = step_of(c.c.inc);
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
    const int uses_ax = c.alpha != 0.0f;
    size_t count = 0;
    oclblas_status st = on_device(queue, uses_ax ? c.a.buf : NULL, uses_ax ? c.b.buf : NULL, c.c.buf);
    for (size_t o0 = 0; o0 < len_y && st == OCLBLAS_SUCCESS; o0 += ob)
        for (size_t r0 = 0; st == OCLBLAS_SUCCESS && r0 < len_x; r0 += rb) {
            st = gemv_block(&c, r0, o0, min_size(rb, len_x - r0), min_size(ob, len_y - o0), lim, align, queue);
            ++count;
            if (!uses_ax)
                break;
        }
    oclblas__log("sgemv %zux%zu: past the index limit (%zu elements): %zu sub-problems of at most %zux%zu%s", r->m,
                 r->n, lim, count, t ? rb : ob, t ? ob : rb, st == OCLBLAS_SUCCESS ? "" : ", one failed");
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__marker(queue, event);
    return st;
}

int oclblas__needs_split(const oclblas__record *r)
{
    return r->routine == OCLBLAS__SGEMM ? gemm_needs_split(r) : gemv_needs_split(r);
}

oclblas_status oclblas__split(const oclblas__record *r, cl_command_queue queue, cl_event *event)
{
    return r->routine == OCLBLAS__SGEMM ? gemm_split(r, queue, event) : gemv_split(r, queue, event);
}
