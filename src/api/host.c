/*
 * The host-pointer API: synchronous calls on the devices of OCLBLAS_DEVICE
 * (the default device first). Each call goes where the cost model
 * (cost.c) expects it to finish first: the host BLAS (the one the process
 * already has, else the library's own routine: sysblas.c) or the
 * device(s). Below the device's HOST_MAX crossover (a routine value of its
 * database entry) the host serves without a model: a round trip alone
 * costs more. OCLBLAS_HOST_CALLS=device (every call above HOST_MAX on the
 * device) or host (every call on the host) sets the choice instead; the
 * tuner's pinned context keeps the plain crossover, which it measures.
 *
 * On the device: SGEMM through the pipelined tiles (pipeline.c) over every
 * device of the set, with transfers through pinned staging overlapped
 * with the products, any size; on a single device that shares memory with
 * the host, problems inside the index limit wrap the caller's arrays as
 * buffers (CL_MEM_USE_HOST_PTR) and copy nothing. SGEMV (whose matrix
 * crossing the bus is almost always slower than the host reading it) on
 * the default device: wrapped in place, or copied into device buffers kept
 * between calls in a small pool of staging sets. The result is read back
 * as a rectangle, so the padding between columns (ld > rows) of the
 * caller's C or y is never written, and nothing at all is written when a
 * call fails. Every call leaves a report for oclblas_host_report_get.
 */
#include "api/checks.h"
#include "api/host.h"
#include "host/hostblas.h"
#include "host/hostdev.h"
#include "host/pipeline.h"
#include "host/sysblas.h"
#include "kernels/routine.h"
#include "plan/context.h"
#include "runtime/devctx.h"
#include "util/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* ---- the choice ---------------------------------------------------------- */

static pthread_once_t calls_once = PTHREAD_ONCE_INIT;
static int calls_mode = OCLBLAS__CALLS_AUTO;

static void calls_init(void)
{
    const char *v = getenv("OCLBLAS_HOST_CALLS");
    if (!v || !*v || strcmp(v, "auto") == 0)
        return;
    if (strcmp(v, "device") == 0)
        calls_mode = OCLBLAS__CALLS_DEVICE;
    else if (strcmp(v, "host") == 0)
        calls_mode = OCLBLAS__CALLS_HOST;
    else
        oclblas__log("OCLBLAS_HOST_CALLS=%s is not auto, device or host: auto", v);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int oclblas__host_calls(const oclblas__default_device *d, int *host_max)
{
    pthread_once(&calls_once, calls_init);
    const oclblas__devctx *cx;
    oclblas_status st;
    *host_max = 0;
    if (oclblas__devctx_get(d->info, &cx) != OCLBLAS_SUCCESS)
        return calls_mode;
    const oclblas__params *rp = oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, NULL, &st);
    if (rp)
        *host_max = rp->v[RT_HOST_MAX];
    return cx->pinned && calls_mode == OCLBLAS__CALLS_AUTO ? OCLBLAS__CALLS_DEVICE : calls_mode;
}

static char trans_letter(oclblas_transpose t) { return t == OCLBLAS_NO_TRANS ? 'N' : 'T'; }

/* A call's report before anything is decided: one tile, nothing moved. */
static oclblas_host_report report_start(void)
{
    oclblas_host_report rep;
    memset(&rep, 0, sizeof rep);
    rep.tiles = 1;
    return rep;
}

/* Ends a call that the host served: what served it, the time, the report. */
static oclblas_status host_served(oclblas_host_report *rep, const char *served, double t0)
{
    oclblas__strlcpy(rep->host_blas, served, sizeof rep->host_blas);
    rep->seconds = now() - t0;
    oclblas__report_set(rep);
    return OCLBLAS_SUCCESS;
}

/* The devices of the host path (the first is the default device) and the
 * routing mode; NULL, with *st, when there is none. */
static const oclblas__default_device *route_devices(int *ndev, int *mode, int *host_max, oclblas_status *st)
{
    const oclblas__default_device *set = oclblas__device_set(ndev);
    if (*ndev == 0) {
        *st = set[0].status;
        return NULL;
    }
    *mode = oclblas__host_calls(&set[0], host_max);
    return set;
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

/* The call on the default device, its buffers over (or copied from) the
 * caller's A, B and C, which span ext_a, ext_b and ext_c elements. */
static oclblas_status gemm_in_place(const gemm_args *g, const float *a, size_t ext_a, const float *b, size_t ext_b,
                                    float *c, size_t ext_c)
{
    const int col = g->layout == OCLBLAS_COL_MAJOR;
    const size_t inner = col ? g->m : g->n, outer = col ? g->n : g->m;
    host_in ha = {a, ext_a}, hb = {b, ext_b};
    host_out hc = {c, ext_c, inner, outer, g->ldc, g->beta != 0.0f};
    return run_on_device(&ha, &hb, &hc, gemm_call, (void *)g);
}

/* The host-path state of the ndev devices of set, into hd, with the least
 * of their memory budgets and of their largest allocations. */
static void hostdevs(const oclblas__default_device *set, int ndev, oclblas__hostdev **hd, size_t *budget,
                     size_t *max_alloc)
{
    *budget = (size_t)-1;
    *max_alloc = (size_t)-1;
    for (int i = 0; i < ndev; ++i) {
        hd[i] = oclblas__hostdev_get(i);
        if (hd[i]->budget < *budget)
            *budget = hd[i]->budget;
        if (set[i].info->max_alloc < *max_alloc)
            *max_alloc = (size_t)set[i].info->max_alloc;
    }
}

/* The verbose log of a pipelined call: its time and rate, what crossed the
 * bus, the tiles the host took, and each device's kernels against the call:
 * idle = 1 - busy / wall (pipeline.c says how busy is measured). */
static void log_pipelined(size_t m, size_t n, size_t k, char ta_c, char tb_c, int ndev, double secs,
                          const oclblas_host_report *rep)
{
    const double work = (double)m * (double)n * (double)k;
    char per[OCLBLAS_REPORT_DEVICES * 64] = "";
    for (int i = 0; i < ndev && i < OCLBLAS_REPORT_DEVICES; ++i) {
        const size_t used = strlen(per);
        snprintf(per + used, sizeof per - used, "%s%d: %.0f%% busy, %.1f TFLOPS in its kernels", i ? "; " : "", i,
                 100.0 * rep->device[i].busy_s / secs,
                 rep->device[i].busy_s > 0
                     ? 2e-12 * work * (double)rep->device[i].tiles / (double)rep->tiles / rep->device[i].busy_s
                     : 0.0);
    }
    oclblas__log("sgemm %zux%zux%zu %c%c: %.3f ms (%.2f TFLOPS), %.3g GB to the device%s and %.3g GB back, %lu "
                 "of %lu tiles on the host; devices %s",
                 m, n, k, ta_c, tb_c, secs * 1e3, 2e-12 * work / secs, rep->bytes_to_device * 1e-9,
                 ndev == 1 ? "" : "s", rep->bytes_from_device * 1e-9, rep->tiles_on_host, rep->tiles, per);
}

oclblas_status oclblas_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b, size_t m,
                             size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                             float beta, float *c, size_t ldc)
{
    oclblas_status st = oclblas__sgemm_check(layout, trans_a, trans_b, m, n, k, lda, ldb, ldc);
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
    const double t0 = now();
    oclblas_host_report rep = report_start();
    const char ta_c = trans_letter(trans_a), tb_c = trans_letter(trans_b);
    if (!uses_ab || oclblas__sysblas_reentered()) {
        /* C = beta C, cheaper than any round trip; or the host BLAS has
         * called back into us, and the library's own routine serves. */
        oclblas__host_sgemm(layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return host_served(&rep, "the library's own routine", t0);
    }
    int ndev, mode, host_max;
    const oclblas__default_device *set = route_devices(&ndev, &mode, &host_max, &st);
    if (!set)
        return st;
    const oclblas__default_device *d = &set[0];
    const double hm = (double)host_max, work = (double)m * (double)n * (double)k;

    /* The column-major problem the devices compute (row-major C is C^T = op(B)^T op(A)^T). */
    const int col = layout == OCLBLAS_COL_MAJOR;
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    const size_t cm = col ? m : n, cn = col ? n : m;
    const int cta = col ? at : bt, ctb = col ? bt : at;
    const float *ca = col ? a : b, *cb = col ? b : a;
    const size_t clda = col ? lda : ldb, cldb = col ? ldb : lda;
    const size_t a_rows = cta ? k : cm, a_cols = cta ? cm : k, b_rows = ctb ? cn : k, b_cols = ctb ? k : cn;
    const size_t ext_a = oclblas__extent(a_rows, a_cols, clda), ext_b = oclblas__extent(b_rows, b_cols, cldb);
    const size_t ext_c = oclblas__extent(cm, cn, ldc), limit = oclblas__index_limit();

    const char *why = NULL;
    char because[160] = "";
    int on_device = 0, zero_copy_ok = 0;
    oclblas__tiling tiling;
    oclblas__estimate est = {0};
    oclblas__hostdev *hds[OCLBLAS__MAX_SET];
    size_t budget, max_alloc;
    hostdevs(set, ndev, hds, &budget, &max_alloc);
    const oclblas__tile_problem tp = {cm, cn, k, beta != 0.0f, limit};
    if (work <= hm * hm * hm) {
        snprintf(because, sizeof because, "m*n*k <= HOST_MAX^3, HOST_MAX %d", host_max);
    } else if (mode == OCLBLAS__CALLS_HOST) {
        why = "OCLBLAS_HOST_CALLS=host";
    } else {
        /* In place where memory is shared and the operands are inside the limits. */
        const size_t most = ext_a > ext_b ? (ext_a > ext_c ? ext_a : ext_c) : (ext_b > ext_c ? ext_b : ext_c);
        zero_copy_ok = ndev == 1 && d->info->unified_memory && zero_copy() && most <= limit &&
                       most * sizeof(float) <= max_alloc && clda <= (size_t)INT_MAX && cldb <= (size_t)INT_MAX &&
                       ldc <= (size_t)INT_MAX;
        st = zero_copy_ok ? OCLBLAS_SUCCESS : oclblas__tiling_plan(&tp, budget, max_alloc, ndev, &tiling);
        if (st != OCLBLAS_SUCCESS) {
            why = "no tile fits the devices' memory (OCLBLAS_DEVICE_MEMORY)";
        } else if (mode == OCLBLAS__CALLS_DEVICE) {
            on_device = 1;
        } else {
            /* The model, with rates measured at first need: a call that
             * goes to the host even against an optimistic device needs no
             * SGEMM measured on the device. */
            const oclblas__host_rates h = oclblas__host_rates_get(0);
            oclblas__dev_rates r = oclblas__hostdev_rates(hds[0], 0, 0);
            on_device = oclblas__choose_gemm(&h, &r, ndev, zero_copy_ok ? NULL : &tiling, &tp, &est);
            if (on_device) {
                r = oclblas__hostdev_rates(hds[0], 1, 0);
                on_device = oclblas__choose_gemm(&h, &r, ndev, zero_copy_ok ? NULL : &tiling, &tp, &est);
            }
            snprintf(because, sizeof because, "cost model: host %.3g ms, device %.3g ms", est.host_s * 1e3,
                     est.device_s * 1e3);
            rep.model_host_s = est.host_s;
            rep.model_device_s = est.device_s;
        }
    }
    if (!on_device) {
        const char *served =
            oclblas__sysblas_sgemm(layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        oclblas__log("sgemm %zux%zux%zu %c%c: on the host by %s (%s)", m, n, k, ta_c, tb_c, served, why ? why : because);
        return host_served(&rep, served, t0);
    }
    oclblas__strlcpy(rep.host_blas, oclblas__sysblas_name(1), sizeof rep.host_blas);
    if (zero_copy_ok) {
        oclblas__log("sgemm %zux%zux%zu %c%c: device %s in place (%s)", m, n, k, ta_c, tb_c, d->info->name,
                     because[0] ? because : "OCLBLAS_HOST_CALLS=device");
        const gemm_args g = {layout, trans_a, trans_b, m, n, k, lda, ldb, ldc, alpha, beta};
        /* The buffers are the caller's A and B, whatever the layout. */
        st = gemm_in_place(&g, a, col ? ext_a : ext_b, b, col ? ext_b : ext_a, c, ext_c);
        rep.on_device = st == OCLBLAS_SUCCESS;
        rep.devices = 1;
        rep.device[0].tiles = st == OCLBLAS_SUCCESS;
    } else {
        oclblas__log("sgemm %zux%zux%zu %c%c: %d device%s, %zux%zu tiles of %zux%zu, k in %zu chunk%s of %zu, panels %s "
                     "(%s)",
                     m, n, k, ta_c, tb_c, ndev, ndev == 1 ? "" : "s", tiling.tiles_m, tiling.tiles_n, tiling.tm,
                     tiling.tn, tiling.chunks, tiling.chunks == 1 ? "" : "s", tiling.tk,
                     tiling.resident ? "resident" : "streamed", because[0] ? because : "OCLBLAS_HOST_CALLS=device");
        st = oclblas__pipeline_sgemm(hds, ndev, &tiling, cta, ctb, cm, cn, k, alpha, ca, clda, cb, cldb, beta, c, ldc,
                                     &rep);
        if (st == OCLBLAS_SUCCESS && oclblas__verbose())
            log_pipelined(m, n, k, ta_c, tb_c, ndev, now() - t0, &rep);
    }
    rep.model_host_s = est.host_s;
    rep.model_device_s = est.device_s;
    rep.seconds = now() - t0;
    oclblas__report_set(&rep);
    return st;
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
    oclblas_status st = oclblas__sgemv_check(layout, trans, m, n, lda, incx, incy);
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
    const double t0 = now();
    oclblas_host_report rep = report_start();
    const int col = layout == OCLBLAS_COL_MAJOR;
    const int t = trans != OCLBLAS_NO_TRANS;
    const size_t len_x = t ? m : n, len_y = t ? n : m;
    const size_t step_x = (size_t)(incx < 0 ? -incx : incx), step_y = (size_t)(incy < 0 ? -incy : incy);
    if (alpha == 0.0f || oclblas__sysblas_reentered()) {
        oclblas__host_sgemv(layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
        return host_served(&rep, "the library's own routine", t0);
    }
    int ndev, mode, host_max;
    const oclblas__default_device *set = route_devices(&ndev, &mode, &host_max, &st);
    if (!set)
        return st;
    const oclblas__default_device *d = &set[0];
    const double hm = (double)host_max;
    const size_t ext_a = col ? oclblas__extent(m, n, lda) : oclblas__extent(n, m, lda);
    const size_t ext_x = (len_x - 1) * step_x + 1, ext_y = (len_y - 1) * step_y + 1;
    const size_t limit = oclblas__index_limit();
    const char *why = NULL;
    char because[160] = "";
    int on_device = 0;
    oclblas__estimate est = {0};
    if ((double)m * (double)n <= hm * hm * hm) {
        snprintf(because, sizeof because, "m*n <= HOST_MAX^3, HOST_MAX %d", host_max);
    } else if (mode == OCLBLAS__CALLS_HOST) {
        why = "OCLBLAS_HOST_CALLS=host";
    } else if (ext_a > limit || ext_x > limit || ext_y > limit || ext_a * sizeof(float) > d->info->max_alloc ||
               lda > (size_t)INT_MAX || step_x > (size_t)INT_MAX || step_y > (size_t)INT_MAX) {
        /* One SGEMV reads its matrix once: tiles over the bus would not make it faster than the host. */
        why = "beyond the index limit of one device call";
    } else if (mode == OCLBLAS__CALLS_DEVICE) {
        on_device = 1;
    } else {
        oclblas__hostdev *hd = oclblas__hostdev_get(0);
        const oclblas__host_rates h = oclblas__host_rates_get(1);
        oclblas__dev_rates r = oclblas__hostdev_rates(hd, 0, 0);
        const size_t rows = col ? m : n, cols = col ? n : m;
        on_device = oclblas__choose_gemv(&h, &r, rows, cols, &est);
        if (on_device) {
            r = oclblas__hostdev_rates(hd, 0, 1);
            on_device = oclblas__choose_gemv(&h, &r, rows, cols, &est);
        }
        snprintf(because, sizeof because, "cost model: host %.3g ms, device %.3g ms", est.host_s * 1e3,
                 est.device_s * 1e3);
        rep.model_host_s = est.host_s;
        rep.model_device_s = est.device_s;
    }
    if (!on_device) {
        const char *served = oclblas__sysblas_sgemv(layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
        oclblas__log("sgemv %zux%zu %c: on the host by %s (%s)", m, n, t ? 'T' : 'N', served, why ? why : because);
        return host_served(&rep, served, t0);
    }
    oclblas__log("sgemv %zux%zu %c: device %s (%s)", m, n, t ? 'T' : 'N', d->info->name,
                 because[0] ? because : "OCLBLAS_HOST_CALLS=device");
    gemv_args g = {layout, trans, m, n, lda, incx, incy, alpha, beta};
    host_in ha = {a, ext_a};
    host_in hx = {x, ext_x};
    /* y as a rectangle of len_y lines of one element, step_y apart. */
    host_out hy = {y, ext_y, 1, len_y, step_y, beta != 0.0f};
    st = run_on_device(&ha, &hx, &hy, gemv_call, &g);
    oclblas__strlcpy(rep.host_blas, oclblas__sysblas_name(0), sizeof rep.host_blas);
    rep.on_device = st == OCLBLAS_SUCCESS;
    rep.devices = 1;
    rep.device[0].tiles = st == OCLBLAS_SUCCESS;
    if (!d->info->unified_memory || !zero_copy()) {
        rep.bytes_to_device = 4.0 * (double)(ext_a + ext_x + (beta != 0.0f ? ext_y : 0));
        rep.bytes_from_device = 4.0 * (double)len_y;
    }
    rep.seconds = now() - t0;
    oclblas__report_set(&rep);
    return st;
}
