/*
 * A host-pointer call as one device call, the routes of the host plan
 * that do not tile: on a device that shares memory with the host, buffers
 * over the caller's arrays (CL_MEM_USE_HOST_PTR) and nothing copied; else
 * copies of the operands in device buffers kept between calls in a small
 * pool of staging sets. The result is read back as a rectangle, so the
 * padding between columns (ld > rows) of the caller's C or y is never
 * written, and it reaches the caller only from a read that succeeded
 * (where the device writes the caller's array in place, only a failure
 * after its kernels ran can have written it: the caller is told).
 */
#include "host/untiled.h"
#include "runtime/run.h"
#include "util/settings.h"
#include "util/util.h"

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
#define PIN_BYTES OCLBLAS__PIN_BYTES

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

/* OCLBLAS_HOST_ZERO_COPY=0 makes host calls copy even where memory is shared. */
int oclblas__host_zero_copy(void) { return oclblas__settings_get()->host_zero_copy; }

/* OCLBLAS_HOST_PINNED=0 makes the copying path transfer every operand
 * straight from and to the caller's (pageable) memory. */
static int pinned(void) { return oclblas__settings_get()->host_pinned; }

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

/* The call of record r on buffers in[0], in[1] (A, B or x) and out (C or y). */
static oclblas_status device_call(const oclblas__record *r, const cl_mem in[2], cl_mem out, cl_command_queue q)
{
    oclblas__record d = *r;
    d.a = (oclblas__arg){NULL, in[0], 0, r->a.ld, r->a.inc};
    d.b = (oclblas__arg){NULL, in[1], 0, r->b.ld, r->b.inc};
    d.c = (oclblas__arg){NULL, out, 0, r->c.ld, r->c.inc};
    return oclblas__run(NULL, &d, q, NULL);
}

/* The call on buffers over the caller's arrays. *written: the kernels ran
 * on the caller's output when a later step failed. */
static oclblas_status in_place(const oclblas__default_device *d, const oclblas__record *r, const host_in ins[2],
                               const host_out *out, int *written)
{
    cl_mem m[3] = {NULL, NULL, NULL};
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < 2 && err == CL_SUCCESS; ++i)
        if (ins[i].count)
            m[i] = clCreateBuffer(d->context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, ins[i].count * sizeof(float),
                                  (void *)ins[i].ptr, &err);
    if (err == CL_SUCCESS)
        m[2] = clCreateBuffer(d->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, out->count * sizeof(float),
                              out->ptr, &err);
    oclblas_status st = (oclblas_status)err;
    if (st == OCLBLAS_SUCCESS)
        st = device_call(r, m, m[2], d->queue);
    if (st == OCLBLAS_SUCCESS) {
        *written = 1;
        /* Mapping is what makes the device's writes visible in the host array. */
        void *p = clEnqueueMapBuffer(d->queue, m[2], CL_TRUE, CL_MAP_READ, 0, out->count * sizeof(float), 0, NULL,
                                     NULL, &err);
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

/* The operands into the set's buffers (small ones through its pinned
 * buffers), the call, the output back. *written: a read straight into
 * the caller's memory failed. */
static oclblas_status copied(const oclblas__default_device *d, const oclblas__record *r, const host_in ins[3],
                             const host_out *out, int *written, oclblas_host_report *report)
{
    staging_set *s = take_set();
    oclblas_status st = OCLBLAS_SUCCESS;
    /* Drivers check a rectangle against its whole last slice (lines x pitch),
     * so the output buffer spans that much even though fewer elements are used. */
    const size_t out_count = out->outer * out->ld > out->count ? out->outer * out->ld : out->count;
    const size_t bytes[3] = {ins[0].count * sizeof(float), ins[1].count * sizeof(float), out_count * sizeof(float)};
    for (int i = 0; i < 3 && st == OCLBLAS_SUCCESS; ++i)
        st = ensure(d->context, s, i, bytes[i]);
    const int pin = st == OCLBLAS_SUCCESS && pinned() && pin_ready(s, d->context, d->queue);
    for (int i = 0; i < 3 && st == OCLBLAS_SUCCESS; ++i) {
        const size_t n = ins[i].count * sizeof(float);
        const void *from = ins[i].ptr;
        if (!n)
            continue;
        if (pin && n <= PIN_BYTES) {
            /* Free to refill: the set's previous call finished all its commands. */
            memcpy(s->pin_ptr[i], from, n);
            from = s->pin_ptr[i];
        }
        st = (oclblas_status)clEnqueueWriteBuffer(d->queue, s->buf[i], CL_FALSE, 0, n, from, 0, NULL, NULL);
        report->bytes_to_device += (double)n;
    }
    if (st == OCLBLAS_SUCCESS)
        st = device_call(r, s->buf, s->buf[2], d->queue);
    cl_int err = CL_SUCCESS;
    if (st == OCLBLAS_SUCCESS && pin && pin_download(s, d->queue, s->buf[2], out, &err)) {
        st = (oclblas_status)err;
    } else if (st == OCLBLAS_SUCCESS) {
        const size_t origin[3] = {0, 0, 0}, region[3] = {out->inner * sizeof(float), out->outer, 1};
        const size_t pitch = out->ld * sizeof(float);
        st = (oclblas_status)clEnqueueReadBufferRect(d->queue, s->buf[2], CL_TRUE, origin, origin, region, pitch, 0,
                                                     pitch, 0, out->ptr, 0, NULL, NULL);
        *written = st != OCLBLAS_SUCCESS;
    }
    if (st == OCLBLAS_SUCCESS)
        report->bytes_from_device += 4.0 * (double)(out->inner * out->outer);
    else
        clFinish(d->queue); /* the writes above read the caller's arrays: done before we return */
    put_set(s);
    return st;
}

oclblas_status oclblas__untiled_call(oclblas__hostdev *hd, const oclblas__record *r, int in_place_route,
                                     oclblas_host_report *report, int *written)
{
    *written = 0;
    if (oclblas__hostdev_faulted(hd, 0))
        return (oclblas_status)CL_OUT_OF_RESOURCES;
    size_t ext[3];
    oclblas__record_extents(r, ext);
    const int uses_ab = oclblas__record_uses_ab(r), reads_c = r->beta != 0.0f;
    const host_in ins[3] = {{r->a.host, uses_ab ? ext[0] : 0}, {r->b.host, uses_ab ? ext[1] : 0},
                            {r->c.host, reads_c ? ext[2] : 0}};
    /* The output as a rectangle: C's columns (row-major: rows) of m (n)
     * elements, ldc apart; y as len lines of one element, |incy| apart. */
    const oclblas__record c = oclblas__record_col_major(r);
    const int gemv = r->routine == OCLBLAS__SGEMV, t = c.trans_a != OCLBLAS_NO_TRANS;
    const size_t step_y = oclblas__abs_inc(c.c.inc);
    const host_out out = {(float *)r->c.host, ext[2], gemv ? 1 : c.m, gemv ? (t ? c.n : c.m) : c.n,
                          gemv ? step_y : c.c.ld, reads_c};
    return in_place_route ? in_place(hd->d, r, ins, &out, written) : copied(hd->d, r, ins, &out, written, report);
}
