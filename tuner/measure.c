/*
 * Measuring one candidate configuration of a kernel on the device being
 * tuned. Each candidate first runs once on inputs whose exact product is
 * known from a host reference (with beta = 0.5, so that C is read as well
 * as written) and must match within the error bound; only then is it
 * timed, with beta = 0, by OpenCL profiling events: the minimum over
 * `runs` calls, all enqueued behind a user-event gate so that they run
 * back to back whatever the host does meanwhile.
 *
 * What is timed is the kernel under test and nothing else:
 *   gemm_fast    through oclblas_sgemm_cl with the candidate installed as
 *                an override and GEMM_MIN_INDIRECT = 0, on a column-major
 *                NT problem whose sizes are multiples of the tile, leading
 *                dimensions equal to those sizes and offsets 0 in buffers
 *                of our own: gemm.c's indirect() then reads A and B in
 *                place (a_in_place, b_in_place), launches no helper, and
 *                returns the gemm_fast launch's own event (ev_c), whose
 *                START..END is that one kernel;
 *   gemm_direct  the same with GEMM_MIN_INDIRECT at its maximum, so that
 *                direct() runs, and its event is the direct kernel's;
 *   gemv_n/_t    the library's whole plan for the problem (the kernel, and
 *                gemv_reduce when the candidate's geometry makes the plan
 *                split the reduction): the span between the ends of
 *                consecutive gated calls, since a candidate that needs the
 *                reduction pays for it in real use;
 *   helpers      pad_copy and pad_transpose launched directly (the plan
 *                hides their events behind gemm_fast's), with the launch
 *                geometry of gemm.c's pad(); their times are added.
 * The check run is also the warm-up: the first launch of a program pays
 * for lazy compilation on some implementations (PoCL compiles per
 * work-group size there).
 */
#include "measure.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.75f
#define BETA_CHECK 0.5f
#define MAX_SIZES 8
#define MAX_INSTANCES 16
#define MAX_RUNS 64

/* ---- the device ------------------------------------------------------------ */

static int make_queue(tune_device *d, char *err, size_t len)
{
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform, 0};
    d->ctx = clCreateContext(props, 1, &d->device, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        snprintf(err, len, "clCreateContext: %s", oclblas_status_string((oclblas_status)e));
        return 0;
    }
    d->queue = clCreateCommandQueue(d->ctx, d->device, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
        snprintf(err, len, "clCreateCommandQueue: %s", oclblas_status_string((oclblas_status)e));
        clReleaseContext(d->ctx);
        d->ctx = NULL;
        return 0;
    }
    return 1;
}

int tune_device_open(const char *spec, tune_device *d, char *err, size_t len)
{
    memset(d, 0, sizeof *d);
    if (spec && !*spec)
        spec = NULL;
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS || np == 0) {
        snprintf(err, len, "no OpenCL platform found");
        return 0;
    }
    if (np > 16)
        np = 16;
    unsigned want_p = 0, want_d = 0;
    char tail;
    const int by_index = spec && sscanf(spec, "%u:%u%c", &want_p, &want_d, &tail) == 2;
    int found = 0, best_rank = 99;
    for (cl_uint p = 0; p < np && !(found && spec); ++p) {
        cl_device_id devs[64];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
            continue;
        if (nd > 64)
            nd = 64;
        for (cl_uint i = 0; i < nd && !(found && spec); ++i) {
            cl_device_type type = 0;
            char name[256] = "";
            if (clGetDeviceInfo(devs[i], CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
                clGetDeviceInfo(devs[i], CL_DEVICE_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS)
                continue;
            int match;
            if (!spec)
                match = oclblas__type_rank(type) < best_rank;
            else if (by_index)
                match = p == want_p && i == want_d;
            else if (oclblas__strcaseeq(spec, "gpu"))
                match = (type & CL_DEVICE_TYPE_GPU) != 0;
            else if (oclblas__strcaseeq(spec, "cpu"))
                match = (type & CL_DEVICE_TYPE_CPU) != 0;
            else if (oclblas__strcaseeq(spec, "accelerator"))
                match = (type & CL_DEVICE_TYPE_ACCELERATOR) != 0;
            else
                match = oclblas__strcasestr(name, spec) != NULL;
            if (match) {
                found = 1;
                best_rank = oclblas__type_rank(type);
                d->platform = plats[p];
                d->device = devs[i];
                d->platform_index = p;
                d->device_index = i;
            }
        }
    }
    if (!found) {
        snprintf(err, len, "no OpenCL device matches \"%s\"", spec ? spec : "any");
        return 0;
    }
    oclblas_status st = oclblas__device_info_get(d->device, &d->info);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(err, len, "cannot query the device: %s", oclblas_status_string(st));
        return 0;
    }
    oclblas__params rp;
    st = oclblas__db_lookup(d->info, OCLBLAS__K_ROUTINE, &rp, NULL, 0);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(err, len, "database lookup: %s", oclblas_status_string(st));
        return 0;
    }
    memcpy(d->routine, rp.v, sizeof d->routine);
    return make_queue(d, err, len);
}

int tune_device_reset(tune_device *d, char *err, size_t len)
{
    if (d->queue)
        clReleaseCommandQueue(d->queue);
    /* Programs and scratch buffers of the old context go with it. */
    oclblas_cache_clear(OCLBLAS_CACHE_MEMORY);
    if (d->ctx)
        clReleaseContext(d->ctx);
    d->queue = NULL;
    d->ctx = NULL;
    ++d->generation;
    return make_queue(d, err, len);
}

int tune_device_healthy(tune_device *d)
{
    if (clFinish(d->queue) != CL_SUCCESS)
        return 0;
    cl_int e;
    float v = 1.0f;
    cl_mem m = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, sizeof v, NULL, &e);
    if (e != CL_SUCCESS)
        return 0;
    e = clEnqueueWriteBuffer(d->queue, m, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueReadBuffer(d->queue, m, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL);
    clReleaseMemObject(m);
    return e == CL_SUCCESS;
}

void tune_device_close(tune_device *d)
{
    if (d->queue)
        clReleaseCommandQueue(d->queue);
    if (d->ctx)
        clReleaseContext(d->ctx);
    d->queue = NULL;
    d->ctx = NULL;
}

oclblas_status tune_override(tune_device *d, int kernel, const oclblas__params *p)
{
    if (!p)
        return oclblas_override_params(d->device, oclblas__kernels[kernel].name, NULL);
    char text[512];
    oclblas__params_format(kernel, p, text, sizeof text);
    return oclblas_override_params(d->device, oclblas__kernels[kernel].name, text);
}

oclblas_status tune_override_routine(tune_device *d, int index, int value)
{
    oclblas__params p;
    memset(&p, 0, sizeof p);
    memcpy(p.v, d->routine, sizeof d->routine);
    if (index >= 0)
        p.v[index] = value;
    return tune_override(d, OCLBLAS__K_ROUTINE, &p);
}

void tune_fill(float *x, size_t n, uint32_t *seed)
{
    for (size_t i = 0; i < n; ++i) {
        *seed = *seed * 1664525u + 1013904223u;
        x[i] = (float)((*seed >> 8) * (1.0 / 8388608.0) - 1.0);
    }
}

/* ---- problem instances ------------------------------------------------------ */

/* One problem on the host (inputs, expected output, error bound) and on
 * the device. Helpers have two outputs (copy, transpose): ref holds both. */
typedef struct {
    size_t m, n, k;
    size_t na, nb, nc; /* elements of A (or the source), B (or x), C (or y, or one padded output) */
    size_t dr, dc;     /* helpers: the padded shape */
    float *a, *b, *c0, *ref, *bound, *out;
    cl_mem da, db, dc_buf;
    unsigned gen;
    int ready; /* device buffers hold a and b */
} instance;

struct tune_bench {
    tune_device *d;
    int kernel;
    tune_size sizes[MAX_SIZES];
    int num_sizes;
    tune_bench_opts o;
    oclblas__params gf;
    instance *inst[MAX_INSTANCES];
    int num_inst;
    double best_rate[MAX_SIZES];
};

const char *tune_unit(int kernel)
{
    return kernel == OCLBLAS__K_GEMM_FAST || kernel == OCLBLAS__K_GEMM_DIRECT ? "GFLOPS" : "GB/s";
}

static size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

static void free_instance(instance *in)
{
    if (!in)
        return;
    free(in->a);
    free(in->b);
    free(in->c0);
    free(in->ref);
    free(in->bound);
    free(in->out);
    if (in->da)
        clReleaseMemObject(in->da);
    if (in->db)
        clReleaseMemObject(in->db);
    if (in->dc_buf)
        clReleaseMemObject(in->dc_buf);
    free(in);
}

/* Host data and the reference for an instance; 0 when out of memory. */
static int host_side(tune_bench *b, instance *in)
{
    const int k = b->kernel;
    const size_t m = in->m, n = in->n, kk = in->k;
    uint32_t seed = (uint32_t)(m * 7919u + n * 104729u + kk * 31u + (unsigned)k);
    switch (k) {
    case OCLBLAS__K_GEMM_FAST: /* A m x k, B stored n x k (op(B) = B^T), C m x n */
    case OCLBLAS__K_GEMM_DIRECT: /* A m x k, B k x n */
        in->na = m * kk;
        in->nb = kk * n;
        in->nc = m * n;
        break;
    case OCLBLAS__K_GEMV_N:
        in->na = m * n;
        in->nb = n;
        in->nc = m;
        break;
    case OCLBLAS__K_GEMV_T:
        in->na = m * n;
        in->nb = m;
        in->nc = n;
        break;
    case OCLBLAS__K_HELPERS:
        in->na = m * n;
        in->dr = round_up(m, (size_t)b->gf.v[GF_MWG]);
        in->dc = round_up(n, (size_t)b->gf.v[GF_KWG]);
        in->nb = 0;
        in->nc = in->dr * in->dc;
        break;
    }
    const size_t two = k == OCLBLAS__K_HELPERS ? 2 : 1;
    in->a = malloc(in->na * sizeof(float));
    in->b = malloc((in->nb ? in->nb : 1) * sizeof(float));
    in->c0 = malloc(in->nc * sizeof(float));
    in->ref = malloc(two * in->nc * sizeof(float));
    in->bound = calloc(two * in->nc, sizeof(float));
    in->out = malloc(in->nc * sizeof(float));
    if (!in->a || !in->b || !in->c0 || !in->ref || !in->bound || !in->out)
        return 0;
    tune_fill(in->a, in->na, &seed);
    tune_fill(in->b, in->nb, &seed);
    tune_fill(in->c0, in->nc, &seed);
    switch (k) {
    case OCLBLAS__K_GEMM_FAST:
        return tune_ref_gemm(0, 1, m, n, kk, ALPHA, in->a, m, in->b, n, BETA_CHECK, in->c0, in->ref, in->bound);
    case OCLBLAS__K_GEMM_DIRECT:
        return tune_ref_gemm(0, 0, m, n, kk, ALPHA, in->a, m, in->b, kk, BETA_CHECK, in->c0, in->ref, in->bound);
    case OCLBLAS__K_GEMV_N:
    case OCLBLAS__K_GEMV_T:
        return tune_ref_gemv(k == OCLBLAS__K_GEMV_T, m, n, ALPHA, in->a, in->b, BETA_CHECK, in->c0, in->ref,
                             in->bound);
    case OCLBLAS__K_HELPERS:
        /* Copies are exact: a bound of zero. The source is rows x cols with
         * ld rows for pad_copy, and its transpose (cols x rows, ld cols) for
         * pad_transpose: the same array read both ways. */
        for (size_t c = 0; c < in->dc; ++c)
            for (size_t r = 0; r < in->dr; ++r) {
                const int inside = r < m && c < n;
                in->ref[c * in->dr + r] = inside ? in->a[c * m + r] : 0.0f;
                in->ref[in->nc + c * in->dr + r] = inside ? in->a[r * n + c] : 0.0f;
            }
        return 1;
    }
    return 0;
}

static oclblas_status device_side(tune_bench *b, instance *in)
{
    if (in->ready && in->gen == b->d->generation)
        return OCLBLAS_SUCCESS;
    for (cl_mem *m = &in->da; m <= &in->dc_buf; ++m)
        if (*m) {
            clReleaseMemObject(*m);
            *m = NULL;
        }
    cl_int e;
    cl_context ctx = b->d->ctx;
    in->da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in->na * sizeof(float), in->a, &e);
    if (e == CL_SUCCESS && in->nb)
        in->db = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in->nb * sizeof(float), in->b, &e);
    if (e == CL_SUCCESS)
        in->dc_buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, in->nc * sizeof(float), NULL, &e);
    if (e != CL_SUCCESS)
        return (oclblas_status)e;
    in->gen = b->d->generation;
    in->ready = 1;
    return OCLBLAS_SUCCESS;
}

/* The instance for size i under parameters p (gemm_fast pads the sizes to its tile). */
static instance *get_instance(tune_bench *b, int i, const oclblas__params *p, oclblas_status *st)
{
    size_t m = b->sizes[i].m, n = b->sizes[i].n, k = b->sizes[i].k;
    if (b->kernel == OCLBLAS__K_GEMM_FAST) {
        m = round_up(m, (size_t)p->v[GF_MWG]);
        n = round_up(n, (size_t)p->v[GF_NWG]);
        k = round_up(k, (size_t)p->v[GF_KWG]);
    }
    instance *in = NULL;
    for (int j = 0; j < b->num_inst && !in; ++j)
        if (b->inst[j]->m == m && b->inst[j]->n == n && b->inst[j]->k == k)
            in = b->inst[j];
    if (!in) {
        if (b->num_inst == MAX_INSTANCES) {
            free_instance(b->inst[0]);
            memmove(b->inst, b->inst + 1, (MAX_INSTANCES - 1) * sizeof *b->inst);
            --b->num_inst;
        }
        in = calloc(1, sizeof *in);
        if (!in) {
            *st = OCLBLAS_OUT_OF_HOST_MEMORY;
            return NULL;
        }
        in->m = m;
        in->n = n;
        in->k = k;
        if (!host_side(b, in)) {
            free_instance(in);
            *st = OCLBLAS_OUT_OF_HOST_MEMORY;
            return NULL;
        }
        b->inst[b->num_inst++] = in;
    }
    *st = device_side(b, in);
    return *st == OCLBLAS_SUCCESS ? in : NULL;
}

/* ---- running ----------------------------------------------------------------- */

/* One call of the library for the instance, C (or y) overwritten with beta = 0. */
static oclblas_status call(tune_bench *b, instance *in, float beta, cl_event *ev)
{
    cl_command_queue q = b->d->queue;
    const size_t m = in->m, n = in->n, k = in->k;
    switch (b->kernel) {
    case OCLBLAS__K_GEMM_FAST:
        return oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, m, n, k, ALPHA, in->da, 0, m,
                                in->db, 0, n, beta, in->dc_buf, 0, m, q, ev);
    case OCLBLAS__K_GEMM_DIRECT:
        return oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, ALPHA, in->da, 0, m,
                                in->db, 0, k, beta, in->dc_buf, 0, m, q, ev);
    case OCLBLAS__K_GEMV_N:
    case OCLBLAS__K_GEMV_T:
        return oclblas_sgemv_cl(OCLBLAS_COL_MAJOR, b->kernel == OCLBLAS__K_GEMV_T ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS,
                                m, n, ALPHA, in->da, 0, m, in->db, 0, 1, beta, in->dc_buf, 0, 1, q, ev);
    }
    return OCLBLAS_INVALID_ARGUMENT;
}

/* The helpers' launch, as gemm.c's pad() does it. */
static oclblas_status launch_helper(tune_bench *b, instance *in, const oclblas__params *hp, const oclblas__kref *k,
                                    int transpose, cl_event *ev)
{
    const int r = (int)in->m, c = (int)in->n, so = 0, sl = transpose ? (int)in->n : (int)in->m, dr = (int)in->dr,
              dc = (int)in->dc, dl = (int)in->dr;
    const oclblas__arg args[] = {OCLBLAS__ARG(r),  OCLBLAS__ARG(c),  OCLBLAS__ARG(in->da), OCLBLAS__ARG(so),
                                 OCLBLAS__ARG(sl), OCLBLAS__ARG(dr), OCLBLAS__ARG(dc),    OCLBLAS__ARG(in->dc_buf),
                                 OCLBLAS__ARG(dl)};
    size_t local[2], global[2];
    if (transpose) {
        const size_t tile = (size_t)hp->v[HP_TRA_DIM] * (size_t)hp->v[HP_TRA_WPT];
        local[0] = local[1] = (size_t)hp->v[HP_TRA_DIM];
        global[0] = round_up(in->dr, tile) / tile * local[0];
        global[1] = round_up(in->dc, tile) / tile * local[1];
    } else {
        const size_t tx = (size_t)hp->v[HP_PAD_DIMX] * (size_t)hp->v[HP_PAD_WPTX];
        const size_t ty = (size_t)hp->v[HP_PAD_DIMY] * (size_t)hp->v[HP_PAD_WPTY];
        local[0] = (size_t)hp->v[HP_PAD_DIMX];
        local[1] = (size_t)hp->v[HP_PAD_DIMY];
        global[0] = round_up(in->dr, tx) / tx * local[0];
        global[1] = round_up(in->dc, ty) / ty * local[1];
    }
    return oclblas__launch(b->d->queue, k, args, 9, 2, global, local, 0, NULL, ev);
}

static double profile(cl_event e, cl_profiling_info what, cl_int *err)
{
    cl_ulong t = 0;
    const cl_int r = clGetEventProfilingInfo(e, what, sizeof t, &t, NULL);
    if (r != CL_SUCCESS)
        *err = r;
    return (double)t * 1e-9;
}

typedef struct {
    tune_bench *b;
    instance *in;
    const oclblas__params *p;
    const oclblas__kref *helper; /* helpers: the kernel to launch */
    int transpose;
} job;

static oclblas_status one(const job *j, cl_event *ev)
{
    if (j->helper)
        return launch_helper(j->b, j->in, j->p, j->helper, j->transpose, ev);
    return call(j->b, j->in, 0.0f, ev);
}

/* count calls behind a user-event gate, so that they run back to back. own:
 * each call's time is its event's START..END (a call that is one kernel);
 * else the span between the ends of consecutive calls (count - 1 spans).
 * *best gets the shortest. */
static oclblas_status timed(const job *j, int count, int own, double *best)
{
    tune_device *d = j->b->d;
    cl_int e;
    cl_event gate = clCreateUserEvent(d->ctx, &e);
    if (e != CL_SUCCESS)
        return (oclblas_status)e;
    cl_event ev[MAX_RUNS + 1];
    int n = 0;
    oclblas_status st = (oclblas_status)clEnqueueMarkerWithWaitList(d->queue, 1, &gate, NULL);
    while (st == OCLBLAS_SUCCESS && n < count) {
        ev[n] = NULL;
        st = one(j, &ev[n]);
        if (st == OCLBLAS_SUCCESS)
            ++n;
    }
    /* Opened whatever happened: what was enqueued must run before anything is released. */
    const cl_int se = clSetUserEventStatus(gate, CL_COMPLETE);
    const cl_int fe = clFinish(d->queue);
    clReleaseEvent(gate);
    if (st == OCLBLAS_SUCCESS && se != CL_SUCCESS)
        st = (oclblas_status)se;
    if (st == OCLBLAS_SUCCESS && fe != CL_SUCCESS)
        st = (oclblas_status)fe;
    if (st == OCLBLAS_SUCCESS && own) {
        /* The plan must have handed back a kernel launch, not a marker. */
        cl_command_type type = 0;
        e = clGetEventInfo(ev[0], CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
        if (e != CL_SUCCESS)
            st = (oclblas_status)e;
        else if (type != CL_COMMAND_NDRANGE_KERNEL)
            st = OCLBLAS_INVALID_ARGUMENT;
    }
    double t = INFINITY;
    for (int i = 0; i < n && st == OCLBLAS_SUCCESS; ++i) {
        e = CL_SUCCESS;
        double v;
        if (own) {
            v = profile(ev[i], CL_PROFILING_COMMAND_END, &e) - profile(ev[i], CL_PROFILING_COMMAND_START, &e);
        } else {
            if (i == 0)
                continue;
            v = profile(ev[i], CL_PROFILING_COMMAND_END, &e) - profile(ev[i - 1], CL_PROFILING_COMMAND_END, &e);
        }
        if (e != CL_SUCCESS)
            st = (oclblas_status)e;
        else if (v > 0 && v < t)
            t = v;
    }
    for (int i = 0; i < n; ++i)
        if (ev[i])
            clReleaseEvent(ev[i]);
    if (st == OCLBLAS_SUCCESS && !isfinite(t))
        st = OCLBLAS_INVALID_ARGUMENT; /* no usable timestamp */
    *best = t;
    return st;
}

/* The checked run: inputs of the reference, beta = BETA_CHECK. *ok: the result matches. */
static oclblas_status check_run(tune_bench *b, instance *in, const oclblas__params *p, const oclblas__kref *copy,
                                const oclblas__kref *tra, int *ok, char *note, size_t len)
{
    cl_command_queue q = b->d->queue;
    oclblas_status st = OCLBLAS_SUCCESS;
    const int outputs = b->kernel == OCLBLAS__K_HELPERS ? 2 : 1;
    *ok = 1;
    for (int o = 0; o < outputs && *ok && st == OCLBLAS_SUCCESS; ++o) {
        /* NaN where nothing should be left unwritten by the helpers. */
        if (b->kernel == OCLBLAS__K_HELPERS) {
            const float nan = NAN;
            st = (oclblas_status)clEnqueueFillBuffer(q, in->dc_buf, &nan, sizeof nan, 0, in->nc * sizeof(float), 0,
                                                     NULL, NULL);
        } else {
            st = (oclblas_status)clEnqueueWriteBuffer(q, in->dc_buf, CL_FALSE, 0, in->nc * sizeof(float), in->c0, 0,
                                                      NULL, NULL);
        }
        if (st == OCLBLAS_SUCCESS) {
            if (b->kernel == OCLBLAS__K_HELPERS)
                st = launch_helper(b, in, p, o ? tra : copy, o, NULL);
            else
                st = call(b, in, BETA_CHECK, NULL);
        }
        if (st == OCLBLAS_SUCCESS)
            st = (oclblas_status)clEnqueueReadBuffer(q, in->dc_buf, CL_TRUE, 0, in->nc * sizeof(float), in->out, 0,
                                                     NULL, NULL);
        if (st == OCLBLAS_SUCCESS)
            *ok = tune_compare(in->out, in->ref + (size_t)o * in->nc, in->bound + (size_t)o * in->nc, in->nc, note,
                               len);
    }
    if (st != OCLBLAS_SUCCESS)
        clFinish(q);
    return st;
}

static double work_of(const tune_bench *b, const instance *in)
{
    const double m = (double)in->m, n = (double)in->n, k = (double)in->k;
    switch (b->kernel) {
    case OCLBLAS__K_GEMM_FAST:
    case OCLBLAS__K_GEMM_DIRECT:
        return 2.0 * m * n * k * 1e-9; /* GFLOP */
    case OCLBLAS__K_GEMV_N:
    case OCLBLAS__K_GEMV_T:
        return 4.0 * (m * n + m + n) * 1e-9; /* GB: A, x and y once */
    case OCLBLAS__K_HELPERS:
        return 2.0 * 4.0 * (m * n + (double)in->nc) * 1e-9; /* two kernels, each reads and writes */
    }
    return 0;
}

/* ---- the bench ------------------------------------------------------------------- */

tune_bench *tune_bench_new(tune_device *d, int kernel, const tune_size *sizes, int num_sizes,
                           const tune_bench_opts *o, const oclblas__params *gemm_fast, char *err, size_t len)
{
    const int known = kernel == OCLBLAS__K_GEMM_FAST || kernel == OCLBLAS__K_GEMM_DIRECT ||
                      kernel == OCLBLAS__K_HELPERS || kernel == OCLBLAS__K_GEMV_N || kernel == OCLBLAS__K_GEMV_T;
    if (!known || num_sizes < 1 || num_sizes > MAX_SIZES) {
        snprintf(err, len, "no bench for this kernel or number of sizes");
        return NULL;
    }
    for (int i = 0; i < num_sizes; ++i) {
        const tune_size *s = &sizes[i];
        const int gemm = kernel == OCLBLAS__K_GEMM_FAST || kernel == OCLBLAS__K_GEMM_DIRECT;
        /* m or n of 1 would make the plan a gemv; sizes must fit 32-bit indexing. */
        if (s->m < 2 || s->n < 2 || (gemm && s->k < 1) || s->m > 65536 || s->n > 65536 || s->k > 65536 ||
            (double)s->m * (double)s->n > 1.0e9 || (double)s->m * (double)s->k > 1.0e9 ||
            (double)s->n * (double)s->k > 1.0e9) {
            snprintf(err, len, "%s: problem size %zux%zux%zu out of range (2..65536 each, at most 1e9 elements)",
                     oclblas__kernels[kernel].name, s->m, s->n, s->k);
            return NULL;
        }
    }
    tune_bench *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    b->d = d;
    b->kernel = kernel;
    memcpy(b->sizes, sizes, (size_t)num_sizes * sizeof *sizes);
    b->num_sizes = num_sizes;
    b->o = *o;
    if (b->o.runs < 1)
        b->o.runs = 1;
    if (b->o.runs > MAX_RUNS - 1)
        b->o.runs = MAX_RUNS - 1;
    if (gemm_fast)
        b->gf = *gemm_fast;
    else
        b->gf = oclblas__kernels[OCLBLAS__K_GEMM_FAST].defaults;
    return b;
}

void tune_bench_free(tune_bench *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->num_inst; ++i)
        free_instance(b->inst[i]);
    free(b);
}

void tune_bench_problem(const tune_bench *b, char *buf, size_t len)
{
    const char *what = b->kernel == OCLBLAS__K_GEMM_FAST     ? "NT"
                       : b->kernel == OCLBLAS__K_GEMM_DIRECT ? "NN"
                       : b->kernel == OCLBLAS__K_GEMV_N      ? "N"
                                                              : "T";
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < b->num_sizes && used < len; ++i) {
        const tune_size *s = &b->sizes[i];
        int w;
        if (b->kernel == OCLBLAS__K_GEMM_FAST || b->kernel == OCLBLAS__K_GEMM_DIRECT)
            w = snprintf(buf + used, len - used, "%s%zux%zux%zu", i ? "," : "", s->m, s->n, s->k);
        else
            w = snprintf(buf + used, len - used, "%s%zux%zu", i ? "," : "", s->m, s->n);
        if (w < 0)
            return;
        used += (size_t)w;
    }
    if (used >= len)
        return;
    if (b->kernel == OCLBLAS__K_HELPERS)
        snprintf(buf + used, len - used, " to MWG %d KWG %d", b->gf.v[GF_MWG], b->gf.v[GF_KWG]);
    else
        snprintf(buf + used, len - used, " %s", what);
}

tune_status tune_bench_build(tune_bench *b, const oclblas__params *p, void **hold, char *note, size_t len)
{
    oclblas__program *prog = NULL;
    *hold = NULL;
    const double t0 = tune_now();
    const oclblas_status st = oclblas__program_get(b->d->ctx, b->d->info, b->kernel, p, &prog);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(note, len, "build: %s", oclblas_status_string(st));
        return TUNE_BUILD_FAILED;
    }
    *hold = prog;
    snprintf(note, len, "built in %.2f s", tune_now() - t0);
    return TUNE_OK;
}

void tune_bench_release(void *hold)
{
    if (hold)
        oclblas__program_release((oclblas__program *)hold);
}

typedef struct {
    tune_bench *b;
    const oclblas__params *p;
    void **holds;
    tune_status *status;
    char (*notes)[200];
    int n, next;
    pthread_mutex_t lock;
} build_pool;

static void *builder(void *arg)
{
    build_pool *pool = arg;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        const int i = pool->next < pool->n ? pool->next++ : -1;
        pthread_mutex_unlock(&pool->lock);
        if (i < 0)
            return NULL;
        pool->status[i] = tune_bench_build(pool->b, &pool->p[i], &pool->holds[i], pool->notes[i], 200);
    }
}

void tune_bench_build_all(tune_bench *b, const oclblas__params *p, int n, int jobs, tune_workers *w, void **holds,
                          tune_status *status, char (*notes)[200])
{
    if (w) {
        tune_workers_build(w, b->kernel, p, n, status, notes);
        for (int i = 0; i < n; ++i) {
            holds[i] = NULL;
            if (status[i] != TUNE_OK)
                continue;
            /* From the disk cache the workers filled; from source if it is not there. */
            char note[200];
            const double t0 = tune_now();
            status[i] = tune_bench_build(b, &p[i], &holds[i], note, sizeof note);
            const size_t u = strlen(notes[i]);
            if (status[i] != TUNE_OK)
                snprintf(notes[i], 200, "%s", note);
            else
                snprintf(notes[i] + u, 200 - u, "%sloaded in %.2f s", u ? ", " : "", tune_now() - t0);
        }
        return;
    }
    build_pool pool = {b, p, holds, status, notes, n, 0, PTHREAD_MUTEX_INITIALIZER};
    pthread_t threads[64];
    int started = 0;
    if (jobs > n)
        jobs = n;
    if (jobs > 64)
        jobs = 64;
    /* oclblas__program_get builds in the calling thread and is thread-safe;
     * the caller's thread works too, so one job needs no thread at all. */
    for (int t = 1; t < jobs; ++t)
        if (pthread_create(&threads[started], NULL, builder, &pool) == 0)
            ++started;
    builder(&pool);
    for (int t = 0; t < started; ++t)
        pthread_join(threads[t], NULL);
}

static void fail(tune_record *r, tune_status s, const char *fmt, const char *what)
{
    r->status = s;
    r->cost = INFINITY;
    r->rate = 0;
    snprintf(r->note, sizeof r->note, fmt, what);
}

void tune_bench_measure(tune_bench *b, const oclblas__params *p, tune_record *r)
{
    tune_device *d = b->d;
    memset(r, 0, sizeof *r);
    r->status = TUNE_OK;
    oclblas_status st = OCLBLAS_SUCCESS;
    oclblas__kref copy = {0}, tra = {0};
    if (b->kernel == OCLBLAS__K_HELPERS) {
        st = oclblas__kref_get(d->ctx, d->info, OCLBLAS__K_HELPERS, p, "pad_copy", &copy);
        if (st == OCLBLAS_SUCCESS)
            st = oclblas__kref_get(d->ctx, d->info, OCLBLAS__K_HELPERS, p, "pad_transpose", &tra);
    } else {
        st = tune_override(d, b->kernel, p);
        if (st == OCLBLAS_SUCCESS && b->kernel == OCLBLAS__K_GEMM_FAST) {
            /* The indirect plan without a split of k: the call's event is gemm_fast's own. */
            const int saved = d->routine[RT_GEMM_SPLIT_K];
            d->routine[RT_GEMM_SPLIT_K] = 0;
            st = tune_override_routine(d, RT_GEMM_MIN_INDIRECT, 0);
            d->routine[RT_GEMM_SPLIT_K] = saved;
        }
        else if (st == OCLBLAS_SUCCESS && b->kernel == OCLBLAS__K_GEMM_DIRECT)
            st = tune_override_routine(d, RT_GEMM_MIN_INDIRECT, oclblas__kernels[OCLBLAS__K_ROUTINE].params[RT_GEMM_MIN_INDIRECT].max);
        else if (st == OCLBLAS_SUCCESS)
            st = tune_override_routine(d, -1, 0);
    }
    if (st != OCLBLAS_SUCCESS) {
        fail(r, st == OCLBLAS_BUILD_FAILED ? TUNE_BUILD_FAILED : TUNE_RUN_FAILED, "setup: %s",
             oclblas_status_string(st));
        oclblas__kref_put(&copy);
        oclblas__kref_put(&tra);
        return;
    }
    const int own = b->kernel == OCLBLAS__K_GEMM_FAST || b->kernel == OCLBLAS__K_GEMM_DIRECT ||
                    b->kernel == OCLBLAS__K_HELPERS;
    double log_sum = 0, rates[MAX_SIZES];
    int measured = 0, slow = 0;
    char check_note[200] = "";
    for (int i = 0; i < b->num_sizes && !slow; ++i) {
        instance *in = get_instance(b, i, p, &st);
        if (!in) {
            fail(r, TUNE_RUN_FAILED, "buffers: %s", oclblas_status_string(st));
            break;
        }
        int ok;
        st = check_run(b, in, p, &copy, &tra, &ok, check_note, sizeof check_note);
        if (st != OCLBLAS_SUCCESS) {
            fail(r, st == OCLBLAS_BUILD_FAILED ? TUNE_BUILD_FAILED : TUNE_RUN_FAILED, "run: %s",
                 oclblas_status_string(st));
            break;
        }
        if (!ok) {
            fail(r, TUNE_WRONG, "%s", check_note);
            break;
        }
        double t = 0;
        const int kernels = b->kernel == OCLBLAS__K_HELPERS ? 2 : 1;
        double first = 0;
        for (int kk = 0; kk < kernels && st == OCLBLAS_SUCCESS; ++kk) {
            const job j = {b, in, p, b->kernel == OCLBLAS__K_HELPERS ? (kk ? &tra : &copy) : NULL, kk};
            double t1;
            st = timed(&j, own ? 1 : 2, own, &t1);
            first += t1;
            if (st == OCLBLAS_SUCCESS)
                t += t1;
        }
        if (st == OCLBLAS_SUCCESS) {
            const double rate1 = work_of(b, in) / first;
            if (b->best_rate[i] > 0 && rate1 * b->o.screen < b->best_rate[i]) {
                slow = 1; /* cannot win: one run is enough to know */
            } else if (b->o.runs > 1) {
                t = 0;
                for (int kk = 0; kk < kernels && st == OCLBLAS_SUCCESS; ++kk) {
                    const job j = {b, in, p, b->kernel == OCLBLAS__K_HELPERS ? (kk ? &tra : &copy) : NULL, kk};
                    double tk;
                    st = timed(&j, own ? b->o.runs : b->o.runs + 1, own, &tk);
                    t += tk;
                }
                if (st == OCLBLAS_SUCCESS && first < t)
                    t = first;
            }
        }
        if (st != OCLBLAS_SUCCESS) {
            fail(r, TUNE_RUN_FAILED, "timing: %s", oclblas_status_string(st));
            break;
        }
        rates[i] = work_of(b, in) / t;
        log_sum += log(rates[i]);
        ++measured;
    }
    oclblas__kref_put(&copy);
    oclblas__kref_put(&tra);
    if (r->status != TUNE_OK) {
        if (r->status == TUNE_RUN_FAILED && !tune_device_healthy(d)) {
            /* A kernel that faulted can take the context with it. */
            char err[200];
            if (!tune_device_reset(d, err, sizeof err))
                snprintf(r->note + strlen(r->note), sizeof r->note - strlen(r->note), "; reset failed: %s", err);
        }
        return;
    }
    r->rate = exp(log_sum / measured);
    r->cost = 1.0 / r->rate;
    if (!slow)
        for (int i = 0; i < measured; ++i)
            if (rates[i] > b->best_rate[i])
                b->best_rate[i] = rates[i];
    snprintf(r->note, sizeof r->note, "%s%s", check_note, slow ? "; screened after one run" : "");
}
