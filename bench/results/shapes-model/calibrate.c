/*
 * The measurements behind the plan's cost model (bench/results/shapes-model.sh
 * calibrate): times device-buffer SGEMM and SGEMV calls under parameter
 * overrides, in one process, so that every gemm_fast set of the device's
 * entry (and a few untuned smaller tiles), each split of k, gemm_tc and the
 * direct kernel are timed on the same problems. Reads a list of commands
 * (stdin), prints one CSV line per timing (stdout):
 *   mode strict|accurate|tf32          the math mode of the calls after it
 *   set KERNEL PARAMS|-                 an override for every device ("-" removes it)
 *   routine PARAMS|-                    the routine values the next timings start from
 *   label TEXT                          the first column of the lines after it
 *   events each|last                    whether every call of a batch asks for an event
 *                                       (as oclblas-bench did), or the last only (each)
 *   gemm row|col NN|NT|TN|TT M N K S    S slices of k (0: the plan decides)
 *   gemv row|col N|T M N
 *   raw                                 a trivial kernel launched back to back by plain
 *                                       OpenCL: without events, with an event each,
 *                                       and each waiting for the one before (labels raw-*)
 * S > 0 forces the split through GEMM_SPLIT_K = 0 and GEMM_MAX_SLICE_K.
 * Beside the device time per call, the host's: how long enqueueing one
 * call took (a device time no longer than that is the host's pace).
 * Time per call: as oclblas-bench takes it, from a marker before a batch of
 * back-to-back calls to the end of the last call, by the queue's profiling
 * events; the median of three batches. A measuring aid, not part of the
 * library; its results are in this folder.
 */
#include <oclblas.h>

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cl_context ctx;
static cl_device_id device;
static cl_command_queue queue;
static cl_mem buf[3];
static size_t cap; /* floats in each buffer */
static char label[600] = "-", routine[600] = "";
static oclblas_math_mode mode = OCLBLAS_MATH_STRICT;
static int event_each = 1; /* every call of a batch asks for an event */

typedef struct {
    int gemm, row, ta, tb;
    size_t m, n, k;
} problem;

static oclblas_status call(const problem *p, cl_event *ev)
{
    const oclblas_layout lay = p->row ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR;
    const oclblas_transpose ta = p->ta ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, tb = p->tb ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS;
    if (!p->gemm) {
        const size_t lda = p->row ? p->n : p->m, lx = p->ta ? p->m : p->n;
        (void)lx;
        return oclblas_sgemv_cl(lay, ta, p->m, p->n, 1.0f, buf[0], 0, lda, buf[1], 0, 1, 0.0f, buf[2], 0, 1, queue, ev);
    }
    /* Leading dimensions of tight storage, as the bench has them. */
    const size_t ar = p->ta ? p->k : p->m, ac = p->ta ? p->m : p->k;
    const size_t br = p->tb ? p->n : p->k, bc = p->tb ? p->k : p->n;
    const size_t lda = p->row ? ac : ar, ldb = p->row ? bc : br, ldc = p->row ? p->n : p->m;
    return oclblas_sgemm_cl(lay, ta, tb, p->m, p->n, p->k, 1.0f, buf[0], 0, lda, buf[1], 0, ldb, 0.0f, buf[2], 0, ldc,
                            queue, ev);
}

static cl_ulong stamp(cl_event e)
{
    cl_ulong t = 0;
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL);
    return t;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double host_s; /* of the last batch: seconds per call spent enqueueing */

/* Seconds per call of one batch of reps calls; < 0 on failure. */
static double batch(const problem *p, int reps)
{
    cl_event mark = NULL, ev = NULL;
    if (clEnqueueMarkerWithWaitList(queue, 0, NULL, &mark) != CL_SUCCESS)
        return -1;
    const double t0 = now();
    for (int r = 0; r < reps; ++r) {
        if (ev)
            clReleaseEvent(ev);
        ev = NULL;
        if (call(p, event_each || r == reps - 1 ? &ev : NULL) != OCLBLAS_SUCCESS) {
            clReleaseEvent(mark);
            return -1;
        }
    }
    host_s = (now() - t0) / reps;
    clFinish(queue);
    const double s = ev ? (double)(stamp(ev) - stamp(mark)) * 1e-9 / reps : -1;
    if (ev)
        clReleaseEvent(ev);
    clReleaseEvent(mark);
    return s;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure(const problem *p, int slices)
{
    char r[700];
    if (p->gemm && slices > 0) {
        /* GEMM_MAX_SLICE_K: the k tiles of a slice for s slices, in units of 16 (every set's KWG divides it or is 8). */
        const size_t kt = (p->k + 15) / 16, per = (kt + slices - 1) / slices;
        snprintf(r, sizeof r, "%s%sGEMM_SPLIT_K=0,GEMM_MAX_SLICE_K=%zu", routine, routine[0] ? "," : "",
                 slices > 1 ? per * 16 : 0);
    } else {
        snprintf(r, sizeof r, "%s", routine);
    }
    oclblas_status st = oclblas_override_params(NULL, "routine", r[0] ? r : NULL);
    double t[3] = {-1, -1, -1}, h[3] = {-1, -1, -1};
    int reps = 0;
    if (st == OCLBLAS_SUCCESS) {
        /* Warm-up (the build), then enough calls for about 5 ms a batch. */
        const double one = batch(p, 2);
        if (one > 0) {
            reps = (int)(5e-3 / one);
            reps = reps < 5 ? 5 : reps > 400 ? 400 : reps;
            for (int i = 0; i < 3; ++i) {
                t[i] = batch(p, reps);
                h[i] = host_s;
            }
            qsort(t, 3, sizeof t[0], cmp);
            qsort(h, 3, sizeof h[0], cmp);
        }
    }
    if (p->gemm)
        printf("%s,%s,%s,%c%c,%zu,%zu,%zu,%d,%.3f,%d,%.3f\n", label, oclblas_math_mode_name(mode),
               p->row ? "row" : "col", p->ta ? 'T' : 'N', p->tb ? 'T' : 'N', p->m, p->n, p->k, slices, t[1] * 1e6, reps,
               h[1] * 1e6);
    else
        printf("%s,%s,%s,%c,%zu,%zu,,,%.3f,%d,%.3f\n", label, oclblas_math_mode_name(mode), p->row ? "row" : "col",
               p->ta ? 'T' : 'N', p->m, p->n, t[1] * 1e6, reps, h[1] * 1e6);
    fflush(stdout);
}

/* A trivial kernel launched n times back to back: way 0 without events,
 * 1 with an event each (released at once), 2 with each waiting for the
 * event of the one before. Device time from a marker before to a marker
 * after, per kernel, and the host's time per enqueue. */
static void raw(void)
{
    static const char *src = "__kernel void bump(__global float *x) { x[get_global_id(0)] += 1.0f; }";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS || clBuildProgram(prog, 1, &device, "", NULL, NULL) != CL_SUCCESS)
        return;
    cl_kernel k = clCreateKernel(prog, "bump", &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &buf[2]);
    const size_t global = 64, local = 64;
    static const char *const names[] = {"raw-no-events", "raw-events", "raw-waits"};
    for (int way = 0; way < 3; ++way)
        for (int rep = 0; rep < 2; ++rep) { /* the first a warm-up */
            const int n = 2000;
            cl_event mark0 = NULL, mark1 = NULL, prev = NULL;
            clFinish(queue);
            clEnqueueMarkerWithWaitList(queue, 0, NULL, &mark0);
            const double t0 = now();
            for (int i = 0; i < n; ++i) {
                cl_event ev = NULL;
                clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, way == 2 && prev ? 1 : 0,
                                       way == 2 && prev ? &prev : NULL, way ? &ev : NULL);
                if (prev)
                    clReleaseEvent(prev);
                prev = way == 2 ? ev : NULL;
                if (way == 1)
                    clReleaseEvent(ev);
            }
            const double host = (now() - t0) / n;
            clEnqueueMarkerWithWaitList(queue, 0, NULL, &mark1);
            clFinish(queue);
            if (prev)
                clReleaseEvent(prev);
            if (rep)
                printf("%s,strict,-,-,64,1,1,0,%.3f,%d,%.3f\n", names[way],
                       (double)(stamp(mark1) - stamp(mark0)) * 1e-3 / n, n, host * 1e6);
            clReleaseEvent(mark0);
            clReleaseEvent(mark1);
        }
    fflush(stdout);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

int main(void)
{
    cl_platform_id plat[8];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    clGetPlatformIDs(8, plat, &np);
    for (cl_uint i = 0; i < np && !dev; ++i)
        if (clGetDeviceIDs(plat[i], getenv("CALIBRATE_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "calibrate: no GPU\n");
        return 2;
    }
    device = dev;
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    queue = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    cap = (size_t)1 << 26; /* 256 MiB each: 4096 x 65536 and 16384^2 fit */
    float *init = malloc(cap * sizeof(float));
    for (size_t i = 0; i < cap; ++i)
        init[i] = (float)((i * 2654435761u) % 2001) / 1000.0f - 1.0f;
    for (int i = 0; i < 3; ++i)
        buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cap * sizeof(float), init, &err);
    free(init);
    printf("label,mode,layout,trans,m,n,k,slices,us,reps,host_us\n");
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        char w[5][600] = {{0}};
        const int nw = sscanf(line, "%599s %599s %599s %599s %599s", w[0], w[1], w[2], w[3], w[4]);
        if (nw < 1 || w[0][0] == '#')
            continue;
        if (!strcmp(w[0], "mode")) {
            mode = !strcmp(w[1], "strict") ? OCLBLAS_MATH_STRICT : !strcmp(w[1], "tf32") ? OCLBLAS_MATH_TF32
                                                                                         : OCLBLAS_MATH_ACCURATE;
            oclblas_set_math_mode(mode);
        } else if (!strcmp(w[0], "set")) {
            const oclblas_status st = oclblas_override_params(NULL, w[1], strcmp(w[2], "-") ? w[2] : NULL);
            if (st != OCLBLAS_SUCCESS)
                fprintf(stderr, "calibrate: override %s %s refused: %s\n", w[1], w[2], oclblas_status_name(st));
        } else if (!strcmp(w[0], "routine")) {
            snprintf(routine, sizeof routine, "%s", strcmp(w[1], "-") ? w[1] : "");
        } else if (!strcmp(w[0], "raw")) {
            raw();
        } else if (!strcmp(w[0], "events")) {
            event_each = strcmp(w[1], "last") != 0;
        } else if (!strcmp(w[0], "label")) {
            snprintf(label, sizeof label, "%s", w[1]);
        } else if (!strcmp(w[0], "gemm") || !strcmp(w[0], "gemv")) {
            problem p = {.gemm = w[0][3] == 'm', .row = !strcmp(w[1], "row"), .ta = w[2][0] == 'T'};
            p.tb = p.gemm && w[2][1] == 'T';
            int slices = 0;
            if (p.gemm && sscanf(line, "%*s %*s %*s %zu %zu %zu %d", &p.m, &p.n, &p.k, &slices) < 3)
                continue;
            if (!p.gemm && sscanf(line, "%*s %*s %*s %zu %zu", &p.m, &p.n) < 2)
                continue;
            if (p.m * p.k > cap || p.k * p.n > cap || p.m * p.n > cap)
                continue;
            measure(&p, slices);
        }
    }
    return 0;
}
