/*
 * The devices as the host-pointer path uses them, one state per device of
 * the set (OCLBLAS_DEVICE), made at first need and kept for the process:
 *   - lanes: a call at a time each (up to four calls on a device at once),
 *     with three queues of their own (uploads, kernels, read-backs: on a
 *     GPU each drives its own engine, so that they run side by side; each
 *     with profiling, for the report's busy times), pinned staging buffers (CL_MEM_ALLOC_HOST_PTR, mapped
 *     once and kept: transfers from them run by DMA, and a call that
 *     reuses them pays neither the allocation nor the pinning), and device
 *     buffers kept from earlier calls (up to a quarter of the budget);
 *   - the memory budget: device bytes the host path may hold, three
 *     quarters of the device's global memory, or OCLBLAS_DEVICE_MEMORY
 *     (e.g. 64M, 2G), over all lanes; a buffer past it is refused before
 *     the device is asked, and kept buffers of idle lanes make room first;
 *   - the measured rates of the cost model (cost.c), each measured once, at
 *     the first call that needs it: a command's round trip, transfers each
 *     way (16 MiB from and to pinned memory, and to the device from
 *     pageable memory, the path of large operands of the untiled SGEMV),
 *     the host threads' copies from pageable memory, SGEMM on device
 *     buffers (1024^3 and 2048^3 on a GPU or accelerator, 256^3 and 512^3
 *     on a CPU, the lower rate kept, and 64^3 for the fixed cost of a
 *     launch), SGEMV (4096^2 on a GPU, else 2048^2); and the host BLAS's
 *     rates (SGEMM 256^3 and 512^3, the higher kept, and 8^3; SGEMV 4096 x
 *     2048). The products are timed on the device's clock: a few calls
 *     back to back, from the end of the first to the end of the last
 *     (profiling events), so that a host busy with other threads (a BLAS's
 *     spinning workers) does not make the device look slow; wall time only
 *     where the device gives no timestamps. A pipelined call's kernels do
 *     not change these rates: its busy time is reported, not fed back;
 *   - OCLBLAS_FAULT=D:T[,D:T...]: device D of the set fails in every
 *     host-pointer call once it has delivered T tiles (a call made as one
 *     device call is one tile), as if its driver had reported an error
 *     when the next tile starts (the tiles it has in flight are lost with
 *     it): the documented way to test that a device that fails costs only
 *     speed; oclblas__hostdev_fault_set sets it per call for tests.
 */
#include "host/hostdev.h"
#include "host/pool.h"
#include "host/sysblas.h"
#include "runtime/devctx.h"
#include "runtime/run.h"
#include "util/settings.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t devs_once = PTHREAD_ONCE_INIT;
static oclblas__hostdev devs[OCLBLAS__MAX_SET];
static int ndevs;


static void devs_init(void)
{
    int count;
    const oclblas__default_device *set = oclblas__device_set(&count);
    const oclblas__settings *settings = oclblas__settings_get();
    const size_t limit = settings->device_memory;
    for (int i = 0; i < count; ++i) {
        oclblas__hostdev *hd = &devs[i];
        hd->d = &set[i];
        hd->index = i;
        cl_ulong global = 0;
        clGetDeviceInfo(set[i].device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
        hd->budget = limit ? limit : (size_t)(global / 4 * 3);
        atomic_init(&hd->held, 0);
        atomic_init(&hd->kept_bytes, 0);
        pthread_mutex_init(&hd->lock, NULL);
        pthread_mutex_init(&hd->cal_lock, NULL);
        pthread_cond_init(&hd->lane_free, NULL);
        for (int l = 0; l < OCLBLAS__LANES; ++l)
            hd->lanes[l].hd = hd;
        atomic_init(&hd->fail_at, settings->fault_at[i]);
        if (atomic_load(&hd->fail_at) >= 0)
            oclblas__log("OCLBLAS_FAULT: device %d (%s) fails in each call after delivering %ld tiles", i,
                         set[i].info->name, atomic_load(&hd->fail_at));
        /* Optimistic until measured: a decision that goes to the host
         * even so needs no measurement at all. */
        hd->rates = (oclblas__dev_rates){0, INFINITY, INFINITY, INFINITY, INFINITY, 0, INFINITY,
                                         set[i].info->unified_memory, INFINITY};
    }
    ndevs = count;
}

int oclblas__hostdev_count(void)
{
    pthread_once(&devs_once, devs_init);
    return ndevs;
}

oclblas__hostdev *oclblas__hostdev_get(int i)
{
    pthread_once(&devs_once, devs_init);
    return i >= 0 && i < ndevs ? &devs[i] : NULL;
}

int oclblas__hostdev_faulted(oclblas__hostdev *hd, unsigned long delivered)
{
    const long at = atomic_load(&hd->fail_at);
    if (at < 0 || (long)delivered < at)
        return 0;
    oclblas__log("OCLBLAS_FAULT: device %d fails after %lu tile%s delivered", hd->index, delivered,
                 delivered == 1 ? "" : "s");
    return 1;
}

void oclblas__hostdev_fault_set(int i, long after)
{
    oclblas__hostdev *hd = oclblas__hostdev_get(i);
    if (hd)
        atomic_store(&hd->fail_at, after < 0 ? -1 : after);
}

/* ---- lanes --------------------------------------------------------------- */

static void release_queue(cl_command_queue *q)
{
    if (*q)
        clReleaseCommandQueue(*q);
    *q = NULL;
}

oclblas__lane *oclblas__lane_take(oclblas__hostdev *hd, oclblas_status *st)
{
    oclblas__mutex_lock(&hd->lock);
    oclblas__lane *l = NULL;
    for (;;) {
        for (int i = 0; i < OCLBLAS__LANES && !l; ++i)
            if (!hd->lanes[i].in_use)
                l = &hd->lanes[i];
        if (l)
            break;
        pthread_cond_wait(&hd->lane_free, &hd->lock);
    }
    l->in_use = 1;
    oclblas__mutex_unlock(&hd->lock);
    *st = OCLBLAS_SUCCESS;
    if (!l->comp) {
        cl_int err = CL_SUCCESS;
        const cl_context ctx = hd->d->context;
        const cl_device_id dev = hd->d->device;
        /* Profiling on all three: the report's busy times (pipeline.c). */
        l->up = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
        if (err == CL_SUCCESS)
            l->down = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
        if (err == CL_SUCCESS)
            l->comp = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
        if (err != CL_SUCCESS) {
            release_queue(&l->up);
            release_queue(&l->down);
            release_queue(&l->comp);
            oclblas__lane_put(l);
            *st = (oclblas_status)err;
            return NULL;
        }
    }
    return l;
}

void oclblas__lane_put(oclblas__lane *l)
{
    oclblas__hostdev *hd = l->hd;
    oclblas__mutex_lock(&hd->lock);
    l->in_use = 0;
    pthread_cond_signal(&hd->lane_free);
    oclblas__mutex_unlock(&hd->lock);
}

/* Pinned host memory the device transfers from and to by DMA. */
static oclblas_status pinned(oclblas__lane *l, size_t bytes, cl_mem *buf, float **ptr)
{
    cl_int err;
    *buf = clCreateBuffer(l->hd->d->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        *buf = NULL;
        return (oclblas_status)err;
    }
    *ptr = clEnqueueMapBuffer(l->up, *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(*buf);
        *buf = NULL;
        *ptr = NULL;
    }
    return (oclblas_status)err;
}

static void unpinned(oclblas__lane *l, cl_mem *buf, float **ptr)
{
    if (*buf) {
        if (*ptr)
            clEnqueueUnmapMemObject(l->up, *buf, *ptr, 0, NULL, NULL);
        clFinish(l->up);
        clReleaseMemObject(*buf);
    }
    *buf = NULL;
    *ptr = NULL;
}

oclblas_status oclblas__lane_up_slots(oclblas__lane *l, size_t bytes)
{
    if (bytes <= l->up_bytes)
        return OCLBLAS_SUCCESS;
    for (int s = 0; s < OCLBLAS__UP_SLOTS; ++s) {
        if (l->up_busy[s]) {
            clWaitForEvents(1, &l->up_busy[s]);
            clReleaseEvent(l->up_busy[s]);
            l->up_busy[s] = NULL;
        }
        unpinned(l, &l->up_buf[s], &l->up_ptr[s]);
    }
    l->up_bytes = 0;
    oclblas_status st = OCLBLAS_SUCCESS;
    for (int s = 0; s < OCLBLAS__UP_SLOTS && st == OCLBLAS_SUCCESS; ++s)
        st = pinned(l, bytes, &l->up_buf[s], &l->up_ptr[s]);
    if (st != OCLBLAS_SUCCESS) {
        for (int s = 0; s < OCLBLAS__UP_SLOTS; ++s)
            unpinned(l, &l->up_buf[s], &l->up_ptr[s]);
        return st;
    }
    l->up_bytes = bytes;
    l->up_next = 0;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__lane_down_slots(oclblas__lane *l, size_t count, size_t bytes)
{
    if (count <= l->down_count && bytes <= l->down_bytes)
        return OCLBLAS_SUCCESS;
    for (size_t s = 0; s < l->down_count; ++s)
        unpinned(l, &l->down_buf[s], &l->down_ptr[s]);
    free(l->down_buf);
    free(l->down_ptr);
    l->down_count = l->down_bytes = 0;
    l->down_buf = calloc(count, sizeof *l->down_buf);
    l->down_ptr = calloc(count, sizeof *l->down_ptr);
    if (!l->down_buf || !l->down_ptr) {
        free(l->down_buf);
        free(l->down_ptr);
        l->down_buf = NULL;
        l->down_ptr = NULL;
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    oclblas_status st = OCLBLAS_SUCCESS;
    for (size_t s = 0; s < count && st == OCLBLAS_SUCCESS; ++s)
        st = pinned(l, bytes, &l->down_buf[s], &l->down_ptr[s]);
    l->down_count = count;
    if (st != OCLBLAS_SUCCESS) {
        for (size_t s = 0; s < count; ++s)
            unpinned(l, &l->down_buf[s], &l->down_ptr[s]);
        l->down_count = 0;
        return st;
    }
    l->down_bytes = bytes;
    return OCLBLAS_SUCCESS;
}

/* ---- device buffers within the budget ----------------------------------- */

static void give_back_bytes(oclblas__hostdev *hd, size_t bytes) { atomic_fetch_sub(&hd->held, bytes); }

/* Room for bytes more: kept buffers of this lane, then of idle lanes, go
 * first. Returns 0 when even that is not enough. */
static int make_room(oclblas__lane *l, size_t bytes)
{
    oclblas__hostdev *hd = l->hd;
    if (bytes > hd->budget)
        return 0;
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1)
            oclblas__mutex_lock(&hd->lock);
        for (int li = 0; li < (pass ? OCLBLAS__LANES : 1); ++li) {
            oclblas__lane *o = pass ? &hd->lanes[li] : l;
            if (pass && (o == l || o->in_use))
                continue;
            for (int i = 0; i < OCLBLAS__KEPT && atomic_load(&hd->held) + bytes > hd->budget; ++i)
                if (o->kept[i].mem) {
                    clReleaseMemObject(o->kept[i].mem);
                    give_back_bytes(hd, o->kept[i].bytes);
                    atomic_fetch_sub(&hd->kept_bytes, o->kept[i].bytes);
                    o->kept[i].mem = NULL;
                }
        }
        if (pass == 1)
            oclblas__mutex_unlock(&hd->lock);
        if (atomic_load(&hd->held) + bytes <= hd->budget)
            return 1;
    }
    return 0;
}

oclblas_status oclblas__lane_buffer(oclblas__lane *l, size_t bytes, cl_mem *out, size_t *got)
{
    /* A kept one that is large enough and not much larger. */
    int best = -1;
    for (int i = 0; i < OCLBLAS__KEPT; ++i)
        if (l->kept[i].mem && l->kept[i].bytes >= bytes && l->kept[i].bytes <= 2 * bytes + 4096 &&
            (best < 0 || l->kept[i].bytes < l->kept[best].bytes))
            best = i;
    if (best >= 0) {
        *out = l->kept[best].mem;
        *got = l->kept[best].bytes;
        l->kept[best].mem = NULL;
        atomic_fetch_sub(&l->hd->kept_bytes, *got);
        return OCLBLAS_SUCCESS;
    }
    if (!make_room(l, bytes))
        return (oclblas_status)CL_MEM_OBJECT_ALLOCATION_FAILURE;
    atomic_fetch_add(&l->hd->held, bytes);
    cl_int err;
    *out = clCreateBuffer(l->hd->d->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        give_back_bytes(l->hd, bytes);
        *out = NULL;
        return (oclblas_status)err;
    }
    *got = bytes;
    return OCLBLAS_SUCCESS;
}

void oclblas__lane_buffer_free(oclblas__lane *l, cl_mem mem, size_t bytes)
{
    if (!mem)
        return;
    clReleaseMemObject(mem);
    give_back_bytes(l->hd, bytes);
}

void oclblas__lane_buffer_put(oclblas__lane *l, cl_mem mem, size_t bytes)
{
    if (!mem)
        return;
    /* Kept for the next call, up to a quarter of the budget over all
     * lanes: the rest of the device's memory is the program's again. */
    oclblas__hostdev *hd = l->hd;
    if (atomic_load(&hd->kept_bytes) + bytes <= hd->budget / 4)
        for (int i = 0; i < OCLBLAS__KEPT; ++i)
            if (!l->kept[i].mem) {
                l->kept[i].mem = mem;
                l->kept[i].bytes = bytes;
                atomic_fetch_add(&hd->kept_bytes, bytes);
                return;
            }
    oclblas__lane_buffer_free(l, mem, bytes);
}

/* ---- the rates ------------------------------------------------------------ */

#define CAL_BYTES ((size_t)16 << 20)

/* Transfers: round trip, each direction from pinned memory, and the host
 * threads' copies from pageable memory into pinned memory. */
static oclblas_status measure_transfers(oclblas__lane *l, oclblas__dev_rates *r)
{
    cl_mem dev = NULL;
    size_t got;
    float *pageable = malloc(CAL_BYTES);
    oclblas_status st = pageable ? oclblas__lane_up_slots(l, CAL_BYTES) : OCLBLAS_OUT_OF_HOST_MEMORY;
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__lane_buffer(l, CAL_BYTES, &dev, &got);
    if (st == OCLBLAS_SUCCESS) {
        memset(pageable, 0, CAL_BYTES);
        memset(l->up_ptr[0], 0, CAL_BYTES);
    }
    double best_rt = INFINITY, best_up = INFINITY, best_down = INFINITY, best_copy = INFINITY, best_pageable = INFINITY;
    const size_t elems = CAL_BYTES / sizeof(float);
    for (int rep = 0; rep < 5 && st == OCLBLAS_SUCCESS; ++rep) {
        double t0 = oclblas__now();
        st = (oclblas_status)clEnqueueWriteBuffer(l->up, dev, CL_FALSE, 0, 4, l->up_ptr[0], 0, NULL, NULL);
        if (st == OCLBLAS_SUCCESS)
            st = (oclblas_status)clEnqueueReadBuffer(l->up, dev, CL_TRUE, 0, 4, l->up_ptr[1], 0, NULL, NULL);
        double t1 = oclblas__now();
        if (t1 - t0 < best_rt)
            best_rt = t1 - t0;
        if (rep >= 3 || st != OCLBLAS_SUCCESS)
            continue;
        t0 = oclblas__now();
        st = (oclblas_status)clEnqueueWriteBuffer(l->up, dev, CL_TRUE, 0, CAL_BYTES, l->up_ptr[0], 0, NULL, NULL);
        t1 = oclblas__now();
        if (t1 - t0 < best_up)
            best_up = t1 - t0;
        if (st == OCLBLAS_SUCCESS)
            st = (oclblas_status)clEnqueueReadBuffer(l->up, dev, CL_TRUE, 0, CAL_BYTES, l->up_ptr[1], 0, NULL, NULL);
        const double t2 = oclblas__now();
        if (t2 - t1 < best_down)
            best_down = t2 - t1;
        oclblas__pack(pageable, elems, elems, 0, elems, l->up_ptr[2]);
        const double t3 = oclblas__now();
        if (t3 - t2 < best_copy)
            best_copy = t3 - t2;
        if (st == OCLBLAS_SUCCESS)
            st = (oclblas_status)clEnqueueWriteBuffer(l->up, dev, CL_TRUE, 0, CAL_BYTES, pageable, 0, NULL, NULL);
        const double t4 = oclblas__now();
        if (t4 - t3 < best_pageable)
            best_pageable = t4 - t3;
    }
    if (st == OCLBLAS_SUCCESS) {
        r->latency_s = best_rt;
        r->h2d_bps = CAL_BYTES / best_up;
        r->d2h_bps = CAL_BYTES / best_down;
        r->copy_bps = CAL_BYTES / best_copy;
        r->pageable_h2d_bps = CAL_BYTES / best_pageable;
    }
    if (dev)
        oclblas__lane_buffer_put(l, dev, got);
    free(pageable);
    return st;
}

static double end_of(cl_event e)
{
    cl_ulong t = 0;
    if (!e || clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL) != CL_SUCCESS)
        return 0.0;
    return (double)t * 1e-9;
}

/* Seconds of one call of SGEMM (gemv 0) or SGEMV on zeroed device
 * buffers, in a stream of reps + 1 calls after one that builds the
 * kernels: from the end of the stream's first call to the end of its
 * last, on the device's clock, over reps (by wall time where the device
 * has no timestamps). *on_device says which. */
static oclblas_status time_call(oclblas__lane *l, int gemv, size_t s, size_t k, int reps, oclblas_math_mode mode,
                                double *per_call, int *on_device)
{
    const oclblas__devctx *cx;
    oclblas_status st = oclblas__devctx_get(l->hd->d->info, &cx);
    const size_t counts[3] = {s * k, gemv ? s : k * s, gemv ? s : s * s};
    cl_mem buf[3] = {NULL, NULL, NULL};
    size_t got[3] = {0, 0, 0};
    const float zero = 0.0f;
    for (int i = 0; i < 3 && st == OCLBLAS_SUCCESS; ++i) {
        st = oclblas__lane_buffer(l, counts[i] * sizeof(float), &buf[i], &got[i]);
        if (st == OCLBLAS_SUCCESS)
            st = (oclblas_status)clEnqueueFillBuffer(l->comp, buf[i], &zero, sizeof zero, 0, counts[i] * sizeof(float),
                                                     0, NULL, NULL);
    }
    cl_event first = NULL, last = NULL;
    double t0 = 0.0;
    *per_call = INFINITY;
    *on_device = 0;
    /* A column-major s x k (SGEMV: times a vector) by k x s product. */
    const oclblas__record call = {gemv ? OCLBLAS__SGEMV : OCLBLAS__SGEMM, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS,
                                  OCLBLAS_NO_TRANS, s, gemv ? k : s, gemv ? 0 : k, 1.0f, 0.0f,
                                  {NULL, buf[0], 0, s, 0}, {NULL, buf[1], 0, k, 1}, {NULL, buf[2], 0, s, 1}, mode};
    for (int rep = -1; rep <= reps && st == OCLBLAS_SUCCESS; ++rep) {
        cl_event ev = NULL;
        st = oclblas__run(cx, &call, l->comp, rep >= 0 ? &ev : NULL);
        if (st == OCLBLAS_SUCCESS && rep == -1) {
            /* The kernels are built and the buffers in place: the stream starts now. */
            st = (oclblas_status)clFinish(l->comp);
            t0 = oclblas__now();
        }
        if (rep == 0)
            first = ev;
        else if (ev) {
            if (last)
                clReleaseEvent(last);
            last = ev;
        }
    }
    if (st == OCLBLAS_SUCCESS)
        st = (oclblas_status)clFinish(l->comp);
    if (st == OCLBLAS_SUCCESS) {
        const double e0 = end_of(first), e1 = end_of(last);
        if (e0 > 0 && e1 > e0) {
            *per_call = (e1 - e0) / reps;
            *on_device = 1;
        } else {
            *per_call = (oclblas__now() - t0) / (reps + 1);
        }
    }
    clFinish(l->comp);
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    for (int i = 0; i < 3; ++i)
        if (buf[i])
            oclblas__lane_buffer_put(l, buf[i], got[i]);
    return st;
}

oclblas__dev_rates oclblas__hostdev_rates(oclblas__hostdev *hd, int need_gemm, int need_gemv, oclblas_math_mode mode)
{
    /* One measurement at a time; a thread that needs the rates meanwhile waits for them. */
    oclblas__mutex_lock(&hd->cal_lock);
    const int todo_t = !hd->transfer_measured, todo_g = need_gemm && !hd->gemm_measured,
              todo_v = need_gemv && !hd->gemv_measured;
    hd->transfer_measured = 1;
    hd->gemm_measured |= need_gemm;
    hd->gemv_measured |= need_gemv;
    if (!todo_t && !todo_g && !todo_v) {
        const oclblas__dev_rates r = hd->rates;
        oclblas__mutex_unlock(&hd->cal_lock);
        return r;
    }
    oclblas_status st;
    oclblas__lane *l = oclblas__lane_take(hd, &st);
    oclblas__dev_rates r = hd->rates;
    const char *name = hd->d->info->name;
    const int gpu = strcmp(hd->d->info->type, "CPU") != 0;
    if (l && todo_t) {
        st = measure_transfers(l, &r);
        if (st == OCLBLAS_SUCCESS)
            oclblas__log("rates of %s: round trip %.1f us, to the device %.2f GB/s, from it %.2f GB/s (pinned memory), "
                         "to the device from pageable memory %.2f GB/s, host copies %.2f GB/s (measured)",
                         name, r.latency_s * 1e6, r.h2d_bps * 1e-9, r.d2h_bps * 1e-9, r.pageable_h2d_bps * 1e-9,
                         r.copy_bps * 1e-9);
        else
            oclblas__log("rates of %s: transfers not measured (%s)", name, oclblas_status_string(st));
    }
    if (l && todo_g) {
        /* Two sizes, the lower rate kept: a GPU is slower at the smaller
         * (too few tiles to fill it), a CPU device at the larger (past its
         * caches); the model should not promise what large tiles miss. */
        const size_t s = gpu ? 1024 : 256;
        double t1, t2, t_small;
        int dev1 = 0, dev2 = 0, dev3 = 0;
        st = time_call(l, 0, s, s, 4, mode, &t1, &dev1);
        if (st == OCLBLAS_SUCCESS)
            st = time_call(l, 0, 2 * s, 2 * s, 2, mode, &t2, &dev2);
        if (st == OCLBLAS_SUCCESS)
            st = time_call(l, 0, 64, 64, 8, mode, &t_small, &dev3);
        if (st == OCLBLAS_SUCCESS) {
            r.gemm_call_s = t_small;
            const double f1 = 2.0 * (double)s * s * s / (t1 > t_small ? t1 - t_small : t1);
            const double f2 = 16.0 * (double)s * s * s / (t2 > t_small ? t2 - t_small : t2);
            r.gemm_flops = f1 < f2 ? f1 : f2;
            oclblas__log("rates of %s: SGEMM %zu^3 %.1f GFLOPS, %zu^3 %.1f GFLOPS, a launch %.1f us (measured by the %s "
                         "clock)",
                         name, s, f1 * 1e-9, 2 * s, f2 * 1e-9, r.gemm_call_s * 1e6,
                         dev1 && dev2 && dev3 ? "device's" : "host's");
        } else {
            oclblas__log("rates of %s: SGEMM not measured (%s)", name, oclblas_status_string(st));
        }
    }
    if (l && todo_v) {
        const size_t s = gpu ? 4096 : 2048;
        double t;
        int on_dev = 0;
        st = time_call(l, 1, s, s, 3, mode, &t, &on_dev);
        if (st == OCLBLAS_SUCCESS) {
            r.gemv_bps = 4.0 * (double)s * (double)s / t;
            oclblas__log("rates of %s: SGEMV %zu^2 %.2f GB/s (measured by the %s clock)", name, s, r.gemv_bps * 1e-9,
                         on_dev ? "device's" : "host's");
        } else {
            oclblas__log("rates of %s: SGEMV not measured (%s)", name, oclblas_status_string(st));
        }
    }
    if (l)
        oclblas__lane_put(l);
    hd->rates = r;
    oclblas__mutex_unlock(&hd->cal_lock);
    return r;
}

/* ---- the host BLAS's rates ------------------------------------------------ */

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static oclblas__host_rates host_rates;
static int host_gemm_measured, host_gemv_measured;

static double time_host_gemm(size_t s, int reps, float *a, float *b, float *c)
{
    double best = INFINITY;
    for (int rep = 0; rep <= reps; ++rep) {
        const double t0 = oclblas__now();
        oclblas__sysblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, s, s, s, 1.0f, a, s, b, s, 0.0f,
                               c, s);
        const double t = oclblas__now() - t0;
        if (rep > 0 && t < best)
            best = t;
    }
    return best;
}

oclblas__host_rates oclblas__host_rates_get(int need_gemv)
{
    oclblas__mutex_lock(&host_lock);
    if (!host_gemm_measured) {
        /* Two sizes, the higher rate kept: a threaded BLAS may spend more
         * waking its threads than computing 256^3 (OpenBLAS on the H100
         * machine's 16 cores: 4 GFLOPS there, 150 at 1024^3), and the
         * model should not send the device what the host does faster. */
        const size_t s = 512;
        float *a = calloc(3 * s * s, sizeof(float));
        if (a) {
            const double t_small = time_host_gemm(8, 4, a, a + s * s, a + 2 * s * s);
            const double t1 = time_host_gemm(s / 2, 2, a, a + s * s, a + 2 * s * s);
            const double t2 = time_host_gemm(s, 2, a, a + s * s, a + 2 * s * s);
            const double f1 = 2.0 * (double)s * s * s / 8 / t1, f2 = 2.0 * (double)s * s * s / t2;
            host_rates.call_s = t_small;
            host_rates.gemm_flops = f1 > f2 ? f1 : f2;
            free(a);
            oclblas__log("host BLAS rates (%s): SGEMM %zu^3 %.1f GFLOPS, %zu^3 %.1f GFLOPS, a tiny call %.1f us "
                         "(measured)",
                         oclblas__sysblas_name(1), s / 2, f1 * 1e-9, s, f2 * 1e-9, host_rates.call_s * 1e6);
        } else {
            host_rates.gemm_flops = 1e9; /* a modest core, for want of memory to measure it */
        }
        host_gemm_measured = 1;
    }
    if (need_gemv && !host_gemv_measured) {
        const size_t rows = 4096, cols = 2048;
        float *a = calloc(rows * cols + rows + cols, sizeof(float));
        if (a) {
            double best = INFINITY;
            for (int rep = 0; rep <= 2; ++rep) {
                const double t0 = oclblas__now();
                oclblas__sysblas_sgemv(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, rows, cols, 1.0f, a, rows,
                                       a + rows * cols, 1, 0.0f, a + rows * cols + cols, 1);
                const double t = oclblas__now() - t0;
                if (rep > 0 && t < best)
                    best = t;
            }
            host_rates.gemv_bps = 4.0 * (double)rows * cols / best;
            free(a);
            oclblas__log("host BLAS rates (%s): SGEMV %zux%zu %.2f GB/s (measured)", oclblas__sysblas_name(0), rows,
                         cols, host_rates.gemv_bps * 1e-9);
        } else {
            host_rates.gemv_bps = 1e9;
        }
        host_gemv_measured = 1;
    }
    const oclblas__host_rates r = host_rates;
    oclblas__mutex_unlock(&host_lock);
    return r;
}
