/*
 * The host-pointer API: synchronous calls on the default device. Problems
 * below the device's crossover (the routine value HOST_MAX) and the trivial
 * ones (alpha = 0, k = 0) are computed on the host (hostblas.c), since a
 * device round trip would cost more than the whole product. On devices that
 * share memory with the host (CPUs, integrated GPUs) the caller's arrays are
 * wrapped as buffers (CL_MEM_USE_HOST_PTR) and nothing is copied; elsewhere
 * device buffers are kept between calls in a small pool of staging sets and
 * grown on demand. The result is read back as a rectangle, so the padding
 * between columns (ld > rows) of the caller's C or y is never written, and
 * nothing at all is written when a step fails.
 */
#include "kernel_routine.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SETS 8

/* Pinned staging for the copying path: one host buffer per operand that the
 * driver allocates (CL_MEM_ALLOC_HOST_PTR, mapped once and kept mapped), so
 * that a transfer runs by DMA from page-locked memory. It pays for small
 * transfers, where the driver's own path from pageable memory costs more
 * per call than a copy into the pinned buffer (H100: 256^3 host-pointer
 * SGEMM 0.28 -> 0.15 ms, 128^3 0.11 -> 0.07 ms). From about 1 MiB the copy,
 * one thread at host memory speed, is no faster than the driver's path, so
 * larger operands go straight from and to the caller's memory. */
#define PIN_BYTES ((size_t)1 << 20)

typedef struct {
    cl_mem buf[3];
    size_t bytes[3];
    cl_mem pin[3];
    char *pin_ptr[3];
    int pin_state; /* 0 not tried, 1 ready, -1 unavailable */
    int busy;
} staging_set;

static pthread_mutex_t sets_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sets_cond = PTHREAD_COND_INITIALIZER;
static staging_set sets[MAX_SETS];

static staging_set *take_set(void)
{
    oclblas__mutex_lock(&sets_lock);
    for (;;) {
        for (int i = 0; i < MAX_SETS; ++i) {
            if (!sets[i].busy) {
                sets[i].busy = 1;
                oclblas__mutex_unlock(&sets_lock);
                return &sets[i];
            }
        }
        pthread_cond_wait(&sets_cond, &sets_lock);
    }
}

static void put_set(staging_set *s)
{
    oclblas__mutex_lock(&sets_lock);
    s->busy = 0;
    pthread_cond_signal(&sets_cond);
    oclblas__mutex_unlock(&sets_lock);
}

static oclblas_status ensure(cl_context ctx, staging_set *s, int i, size_t bytes)
{
    if (bytes <= s->bytes[i])
        return OCLBLAS_SUCCESS;
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    if (s->buf[i])
        clReleaseMemObject(s->buf[i]);
    s->buf[i] = m;
    s->bytes[i] = bytes;
    return OCLBLAS_SUCCESS;
}

static pthread_once_t zero_copy_once = PTHREAD_ONCE_INIT;
static int zero_copy_allowed = 1, pinned_allowed = 1;

static void zero_copy_init(void)
{
    const char *v = getenv("OCLBLAS_HOST_ZERO_COPY");
    zero_copy_allowed = !(v && strcmp(v, "0") == 0);
    v = getenv("OCLBLAS_HOST_PINNED");
    pinned_allowed = !(v && strcmp(v, "0") == 0);
}

/* OCLBLAS_HOST_ZERO_COPY=0 makes host calls copy even where memory is shared. */
static int zero_copy(void)
{
    pthread_once(&zero_copy_once, zero_copy_init);
    return zero_copy_allowed;
}

/* OCLBLAS_HOST_PINNED=0 makes the copying path transfer every operand
 * straight from and to the caller's (pageable) memory. */
static int pinned(void)
{
    pthread_once(&zero_copy_once, zero_copy_init);
    return pinned_allowed;
}

/* The set's pinned buffers, made on first use; a device that cannot give
 * pinned memory is not asked again, and its calls transfer from the
 * caller's memory. */
static int pin_ready(staging_set *s, cl_context ctx, cl_command_queue q)
{
    if (s->pin_state == 0) {
        cl_int err = CL_SUCCESS;
        for (int i = 0; i < 3 && err == CL_SUCCESS; ++i) {
            s->pin[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, PIN_BYTES, NULL, &err);
            if (err == CL_SUCCESS)
                s->pin_ptr[i] = clEnqueueMapBuffer(q, s->pin[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, PIN_BYTES, 0,
                                                   NULL, NULL, &err);
        }
        if (err != CL_SUCCESS) {
            for (int i = 0; i < 3; ++i) {
                if (s->pin_ptr[i])
                    clEnqueueUnmapMemObject(q, s->pin[i], s->pin_ptr[i], 0, NULL, NULL);
                if (s->pin[i])
                    clReleaseMemObject(s->pin[i]);
                s->pin[i] = NULL;
                s->pin_ptr[i] = NULL;
            }
            clFinish(q);
            oclblas__log("pinned staging unavailable (%s): transfers from pageable memory",
                         oclblas_status_string((oclblas_status)err));
        }
        s->pin_state = err == CL_SUCCESS ? 1 : -1;
    }
    return s->pin_state == 1;
}

/* One operand of a host call: elements [0, count) from ptr; the output also
 * gives its rectangle (inner contiguous elements, outer lines, pitch ld). */
typedef struct {
    const float *ptr;
    size_t count;
} host_in;

typedef struct {
    float *ptr;
    size_t count;
    size_t inner, outer, ld;
    int read; /* the routine reads the old values (beta != 0) */
} host_out;

/* Reads the output rectangle back through a pinned buffer when it fits one
 * (packed, without the padding between lines), and copies it into the
 * caller's memory only once the read has succeeded. Returns 0 when it does
 * not fit, so that the caller reads straight into its memory instead. */
static int pin_download(staging_set *s, cl_command_queue q, cl_mem src, const host_out *out, cl_int *err)
{
    const size_t line_bytes = out->inner * sizeof(float);
    if (line_bytes * out->outer > PIN_BYTES)
        return 0;
    const size_t origin[3] = {0, 0, 0}, region[3] = {line_bytes, out->outer, 1};
    /* Buffer 2 may have carried the old C in: the in-order queue has
     * finished that write before the kernel, and the kernel before this read. */
    *err = clEnqueueReadBufferRect(q, src, CL_TRUE, origin, origin, region, out->ld * sizeof(float), 0, line_bytes, 0,
                                   s->pin_ptr[2], 0, NULL, NULL);
    if (*err == CL_SUCCESS)
        for (size_t l = 0; l < out->outer; ++l)
            memcpy(out->ptr + l * out->ld, s->pin_ptr[2] + l * line_bytes, line_bytes);
    return 1;
}

typedef oclblas_status (*device_call)(void *ctx, cl_mem in0, cl_mem in1, cl_mem out, cl_command_queue q);

/* Runs call on device buffers that hold the host operands, and brings out back. */
static oclblas_status run_on_device(const host_in *in0, const host_in *in1, host_out *out, device_call call,
                                    void *call_ctx)
{
    const oclblas__default_device *d = oclblas__default();
    if (d->status != OCLBLAS_SUCCESS)
        return d->status;
    cl_int err = CL_SUCCESS;
    oclblas_status st;
    const size_t rect_origin[3] = {0, 0, 0};
    const size_t region[3] = {out->inner * sizeof(float), out->outer, 1};

    if (d->info->unified_memory && zero_copy()) {
        cl_mem m[3] = {NULL, NULL, NULL};
        const host_in *ins[2] = {in0, in1};
        for (int i = 0; i < 2 && err == CL_SUCCESS; ++i)
            if (ins[i] && ins[i]->count)
                m[i] = clCreateBuffer(d->context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                                      ins[i]->count * sizeof(float), (void *)ins[i]->ptr, &err);
        if (err == CL_SUCCESS)
            m[2] = clCreateBuffer(d->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, out->count * sizeof(float),
                                  out->ptr, &err);
        st = (oclblas_status)err;
        if (st == OCLBLAS_SUCCESS)
            st = call(call_ctx, m[0], m[1], m[2], d->queue);
        if (st == OCLBLAS_SUCCESS) {
            /* Mapping is what makes the device's writes visible in the host array. */
            void *p = clEnqueueMapBuffer(d->queue, m[2], CL_TRUE, CL_MAP_READ, 0, out->count * sizeof(float), 0,
                                         NULL, NULL, &err);
            if (err == CL_SUCCESS)
                err = clEnqueueUnmapMemObject(d->queue, m[2], p, 0, NULL, NULL);
            if (err == CL_SUCCESS)
                err = clFinish(d->queue);
            st = (oclblas_status)err;
        } else {
            clFinish(d->queue);
        }
        for (int i = 0; i < 3; ++i)
            if (m[i])
                clReleaseMemObject(m[i]);
        return st;
    }

    staging_set *s = take_set();
    st = ensure(d->context, s, 0, in0 && in0->count ? in0->count * sizeof(float) : 0);
    if (st == OCLBLAS_SUCCESS)
        st = ensure(d->context, s, 1, in1 && in1->count ? in1->count * sizeof(float) : 0);
    /* Drivers check a rectangle against its whole last slice (lines x pitch),
     * so the output buffer spans that much even though fewer elements are used. */
    const size_t out_bytes = (out->outer * out->ld > out->count ? out->outer * out->ld : out->count) * sizeof(float);
    if (st == OCLBLAS_SUCCESS)
        st = ensure(d->context, s, 2, out_bytes);
    const int pin = st == OCLBLAS_SUCCESS && pinned() && pin_ready(s, d->context, d->queue);
    const host_in *ins[3] = {in0, in1, NULL};
    const host_in out_in = {out->ptr, out->count};
    if (out->read)
        ins[2] = &out_in;
    for (int i = 0; i < 3 && st == OCLBLAS_SUCCESS; ++i) {
        if (!ins[i] || !ins[i]->count)
            continue;
        const size_t bytes = ins[i]->count * sizeof(float);
        const void *from = ins[i]->ptr;
        if (pin && bytes <= PIN_BYTES) {
            /* Free to refill: the set's previous call finished all its commands. */
            memcpy(s->pin_ptr[i], from, bytes);
            from = s->pin_ptr[i];
        }
        st = (oclblas_status)clEnqueueWriteBuffer(d->queue, s->buf[i], CL_FALSE, 0, bytes, from, 0, NULL, NULL);
    }
    if (st == OCLBLAS_SUCCESS)
        st = call(call_ctx, s->buf[0], s->buf[1], s->buf[2], d->queue);
    err = CL_SUCCESS;
    if (st == OCLBLAS_SUCCESS && pin && pin_download(s, d->queue, s->buf[2], out, &err)) {
        st = (oclblas_status)err;
    } else if (st == OCLBLAS_SUCCESS) {
        const size_t pitch = out->ld * sizeof(float);
        st = (oclblas_status)clEnqueueReadBufferRect(d->queue, s->buf[2], CL_TRUE, rect_origin, rect_origin, region,
                                                     pitch, 0, pitch, 0, out->ptr, 0, NULL, NULL);
    }
    if (st != OCLBLAS_SUCCESS) {
        /* The writes above read the caller's arrays: they must be done before we return. */
        clFinish(d->queue);
    }
    put_set(s);
    return st;
}

/* Whether a call of `work` multiply-adds is computed on the host: at most
 * HOST_MAX^3, the routine value of the device's database entry. Below it a
 * device round trip (buffers, launch, map or copy back, finish) costs more
 * than the host needs for the whole product. SGEMM counts m*n*k, SGEMV m*n:
 * the same work, and one value serves both, a compromise the tuner picks.
 * On a discrete GPU SGEMV's own crossover lies higher than SGEMM's, since
 * its matrix must cross the bus (H100: the host is faster for SGEMM up to
 * about 48^3 and for SGEMV up to past 1448^2; the tuner chose 64). */
static int below_crossover(const oclblas__default_device *d, double work, int *host_max)
{
    const oclblas__devctx *cx;
    oclblas_status st;
    *host_max = 0;
    if (oclblas__devctx_get(d->info, &cx) != OCLBLAS_SUCCESS)
        return 0;
    const oclblas__params *rp = oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, NULL, &st);
    if (!rp)
        return 0;
    *host_max = rp->v[RT_HOST_MAX];
    const double h = (double)rp->v[RT_HOST_MAX];
    return work <= h * h * h;
}

/* ---- sgemm ------------------------------------------------------------- */

typedef struct {
    oclblas_layout layout;
    oclblas_transpose ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    float alpha, beta;
} gemm_args;

static oclblas_status gemm_call(void *p, cl_mem a, cl_mem b, cl_mem c, cl_command_queue q)
{
    const gemm_args *g = p;
    return oclblas_sgemm_cl(g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, a, 0, g->lda, b, 0, g->ldb,
                            g->beta, c, 0, g->ldc, q, NULL);
}

oclblas_status oclblas_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b, size_t m,
                             size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                             float beta, float *c, size_t ldc)
{
    const oclblas_status st = oclblas__sgemm_check(layout, trans_a, trans_b, m, n, k, lda, ldb, ldc);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (m == 0 || n == 0)
        return OCLBLAS_SUCCESS;
    if (!c)
        return OCLBLAS_NULL_C;
    const int uses_ab = k > 0 && alpha != 0.0f;
    if (uses_ab && !a)
        return OCLBLAS_NULL_A;
    if (uses_ab && !b)
        return OCLBLAS_NULL_B;
    const int col = layout == OCLBLAS_COL_MAJOR;
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    const size_t a_rows = at ? k : m, a_cols = at ? m : k, b_rows = bt ? n : k, b_cols = bt ? k : n;

    if (!uses_ab) {
        /* Cheaper than a round trip: C = beta * C right here. */
        oclblas__host_sgemm(layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return OCLBLAS_SUCCESS;
    }
    const oclblas__default_device *d = oclblas__default();
    if (d->status != OCLBLAS_SUCCESS)
        return d->status;
    int host_max;
    if (below_crossover(d, (double)m * (double)n * (double)k, &host_max)) {
        oclblas__host_sgemm(layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        oclblas__log("sgemm %zux%zux%zu %c%c: host (m*n*k <= HOST_MAX^3, HOST_MAX %d)", m, n, k,
                     trans_a == OCLBLAS_NO_TRANS ? 'N' : 'T', trans_b == OCLBLAS_NO_TRANS ? 'N' : 'T', host_max);
        return OCLBLAS_SUCCESS;
    }

    gemm_args g = {layout, trans_a, trans_b, m, n, k, lda, ldb, ldc, alpha, beta};
    const size_t inner = col ? m : n, outer = col ? n : m;
    host_in ha = {a, col ? oclblas__extent(a_rows, a_cols, lda) : oclblas__extent(a_cols, a_rows, lda)};
    host_in hb = {b, col ? oclblas__extent(b_rows, b_cols, ldb) : oclblas__extent(b_cols, b_rows, ldb)};
    host_out hc = {c, oclblas__extent(inner, outer, ldc), inner, outer, ldc, beta != 0.0f};
    return run_on_device(&ha, &hb, &hc, gemm_call, &g);
}

/* ---- sgemv ------------------------------------------------------------- */

typedef struct {
    oclblas_layout layout;
    oclblas_transpose trans;
    size_t m, n, lda;
    ptrdiff_t incx, incy;
    float alpha, beta;
} gemv_args;

static oclblas_status gemv_call(void *p, cl_mem a, cl_mem x, cl_mem y, cl_command_queue q)
{
    const gemv_args *g = p;
    return oclblas_sgemv_cl(g->layout, g->trans, g->m, g->n, g->alpha, a, 0, g->lda, x, 0, g->incx, g->beta, y, 0,
                            g->incy, q, NULL);
}

oclblas_status oclblas_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                             const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                             ptrdiff_t incy)
{
    const oclblas_status st = oclblas__sgemv_check(layout, trans, m, n, lda, incx, incy);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (m == 0 || n == 0)
        return OCLBLAS_SUCCESS;
    if (!y)
        return OCLBLAS_NULL_Y;
    if (alpha != 0.0f && !a)
        return OCLBLAS_NULL_A;
    if (alpha != 0.0f && !x)
        return OCLBLAS_NULL_X;
    const int col = layout == OCLBLAS_COL_MAJOR;
    const int t = trans != OCLBLAS_NO_TRANS;
    const size_t len_x = t ? m : n, len_y = t ? n : m;
    const size_t step_x = (size_t)(incx < 0 ? -incx : incx), step_y = (size_t)(incy < 0 ? -incy : incy);
    if (alpha == 0.0f) {
        oclblas__host_sgemv(layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
        return OCLBLAS_SUCCESS;
    }
    const oclblas__default_device *d = oclblas__default();
    if (d->status != OCLBLAS_SUCCESS)
        return d->status;
    int host_max;
    if (below_crossover(d, (double)m * (double)n, &host_max)) {
        oclblas__host_sgemv(layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
        oclblas__log("sgemv %zux%zu %c: host (m*n <= HOST_MAX^3, HOST_MAX %d)", m, n, t ? 'T' : 'N', host_max);
        return OCLBLAS_SUCCESS;
    }
    gemv_args g = {layout, trans, m, n, lda, incx, incy, alpha, beta};
    host_in ha = {a, col ? oclblas__extent(m, n, lda) : oclblas__extent(n, m, lda)};
    host_in hx = {x, (len_x - 1) * step_x + 1};
    /* y as a rectangle of len_y lines of one element, step_y apart. */
    host_out hy = {y, (len_y - 1) * step_y + 1, 1, len_y, step_y, beta != 0.0f};
    return run_on_device(&ha, &hx, &hy, gemv_call, &g);
}
