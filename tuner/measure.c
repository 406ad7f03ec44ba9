/*
 * Measuring one candidate configuration of a kernel on the device being
 * tuned. Each candidate first runs once on inputs whose exact product is
 * known from a host reference (with beta = 0.5, so that C is read as well
 * as written) and must match within the error bound; only then is it
 * timed, with beta = 0, by OpenCL profiling events: the minimum over
 * `runs` calls, all enqueued behind a user-event gate so that they run
 * back to back whatever the host does meanwhile.
 *
 * What runs is the plan the kernel's descriptor gives for the candidate
 * (its tuning member), enqueued by the library's executor with the tuner's
 * device context (the other kernels' parameters, tuned or the database's):
 * gemm_fast and gemm_direct alone on operands read in place, the helpers'
 * pad_copy and pad_transpose, gemv_n and gemv_t as the library's whole plan.
 * What is timed is either the plan's steps of the kernel under test, each by
 * its own event, or (whole-plan kernels) the span between the ends of
 * consecutive calls, since a gemv candidate whose geometry makes the plan
 * split the reduction pays for gemv_reduce in real use. The check run is
 * also the warm-up: the first launch of a program pays for lazy
 * compilation on some implementations (PoCL compiles per work-group size
 * there).
 */
#include "interrupt.h"
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
    oclblas_status st = oclblas__device_find(spec, &d->device, &d->platform_index, &d->device_index);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(err, len, "no OpenCL device matches \"%s\" (%s)", spec && *spec ? spec : "any",
                 oclblas_status_string(st));
        return 0;
    }
    st = oclblas__device_info_get(d->device, &d->info);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(err, len, "cannot query the device: %s", oclblas_status_string(st));
        return 0;
    }
    d->platform = d->info->platform;
    /* Where the database stands today: every measurement starts from it. */
    const oclblas__devctx *cx;
    st = oclblas__devctx_get(d->info, &cx);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(err, len, "database: %s", oclblas_status_string(st));
        return 0;
    }
    d->cx = *cx;
    d->cx.pinned = 0;
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

void tune_device_set(tune_device *d, int kernel, const oclblas__params *p) { oclblas__devctx_set(&d->cx, kernel, p); }

int tune_class_sizes(const tune_class *c, int gemv, tune_size *out)
{
    int n = 0;
    for (int i = 0; i < c->num_sizes; ++i)
        if ((c->sizes[i].k == 0) == (gemv != 0))
            out[n++] = c->sizes[i];
    return n;
}

/* ---- the bench ------------------------------------------------------------------- */

struct tune_bench {
    tune_device *d;
    int kernel;
    const oclblas__tuning *tu;
    const tune_class *cls; /* NULL: the set for every shape */
    int trans_b;           /* how B is stored: the tuning's, NN for a class's products */
    tune_size sizes[MAX_SIZES];
    int num_sizes;
    tune_bench_opts o;
    tune_problem *inst[MAX_INSTANCES];
    int num_inst;
    double best_rate[MAX_SIZES];
};

const char *tune_unit(int kernel)
{
    const oclblas__tuning *tu = oclblas__tuning_of(kernel);
    return !tu || tu->form == OCLBLAS__FORM_GEMM ? "GFLOPS" : "GB/s";
}

/* Size i as the candidate runs it (gemm_fast rounds it to its tile, the
 * helpers pad it to gemm_fast's). */
static void shape(const tune_bench *b, int i, const oclblas__params *cand, oclblas__tune_problem *p)
{
    *p = (oclblas__tune_problem){b->sizes[i].m, b->sizes[i].n, b->sizes[i].k, 0, 0, ALPHA, BETA_CHECK};
    if (b->tu->prepare && !b->cls)
        b->tu->prepare(&b->d->cx, cand, p);
}

static tune_problem *get_instance(tune_bench *b, int i, const oclblas__params *cand, oclblas_status *st)
{
    oclblas__tune_problem p;
    shape(b, i, cand, &p);
    tune_problem *t = NULL;
    for (int j = 0; j < b->num_inst && !t; ++j) {
        const oclblas__tune_problem *q = &b->inst[j]->p;
        if (q->m == p.m && q->n == p.n && q->k == p.k && q->rows == p.rows && q->cols == p.cols)
            t = b->inst[j];
    }
    if (!t) {
        if (b->num_inst == MAX_INSTANCES) {
            tune_problem_free(b->inst[0]);
            free(b->inst[0]);
            memmove(b->inst, b->inst + 1, (MAX_INSTANCES - 1) * sizeof *b->inst);
            --b->num_inst;
        }
        t = calloc(1, sizeof *t);
        const uint32_t seed = (uint32_t)(p.m * 7919u + p.n * 104729u + p.k * 31u + (unsigned)b->kernel);
        if (!t || !tune_problem_make(t, b->tu->form, b->tu->trans_a, b->trans_b, &p, seed)) {
            if (t)
                tune_problem_free(t);
            free(t);
            *st = OCLBLAS_OUT_OF_HOST_MEMORY;
            return NULL;
        }
        b->inst[b->num_inst++] = t;
    }
    *st = tune_problem_upload(t, b->d->ctx, b->d->generation);
    return *st == OCLBLAS_SUCCESS ? t : NULL;
}

/* ---- running ----------------------------------------------------------------- */

typedef struct {
    tune_bench *b;
    const oclblas__params *cand;
} run_ctx;

static oclblas_status plan_for(const tune_bench *b, const oclblas__params *cand, const tune_problem *t, float beta,
                               oclblas__plan *plan)
{
    oclblas__tune_problem p = t->p;
    p.beta = beta;
    const oclblas_status st = b->cls && b->tu->class_plan ? b->tu->class_plan(&b->d->cx, cand, &p, plan)
                                                          : b->tu->plan(&b->d->cx, cand, &p, plan);
    if (st != OCLBLAS_SUCCESS)
        return st;
    /* Whatever else it runs, the plan must run the kernel under test. */
    for (int i = 0; i < plan->num_steps; ++i)
        if (plan->step[i].kernel == b->kernel)
            return OCLBLAS_SUCCESS;
    return OCLBLAS_INVALID_ARGUMENT;
}

static oclblas_status run_checked(void *v, tune_problem *t, cl_command_queue q)
{
    const run_ctx *c = v;
    oclblas__plan plan;
    oclblas_status st = plan_for(c->b, c->cand, t, t->p.beta, &plan);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__execute(&c->b->d->cx, &plan, c->b->d->ctx, q, t->buf, NULL, NULL);
    return st;
}

static double profile(cl_event e, cl_profiling_info what, cl_int *err)
{
    cl_ulong t = 0;
    const cl_int r = clGetEventProfilingInfo(e, what, sizeof t, &t, NULL);
    if (r != CL_SUCCESS)
        *err = r;
    return (double)t * 1e-9;
}

/* count calls of the plan (beta = 0) behind a user-event gate, so that
 * they run back to back. The time of one call: the sum over its steps of
 * the kernel under test of their events' START..END, or for whole-plan
 * kernels the span between the ends of consecutive calls (count - 1 spans).
 * *best gets the shortest. */
static oclblas_status timed(tune_bench *b, tune_problem *t, const oclblas__params *cand, int count, double *best)
{
    tune_device *d = b->d;
    oclblas__plan plan;
    oclblas_status st = plan_for(b, cand, t, 0.0f, &plan);
    if (st != OCLBLAS_SUCCESS)
        return st;
    const int whole = b->tu->whole_plan || b->cls;
    cl_int e;
    cl_event gate = clCreateUserEvent(d->ctx, &e);
    if (e != CL_SUCCESS)
        return (oclblas_status)e;
    cl_event ev[MAX_RUNS + 1][OCLBLAS__MAX_STEPS];
    cl_event last[MAX_RUNS + 1];
    memset(ev, 0, sizeof ev);
    memset(last, 0, sizeof last);
    int n = 0;
    st = (oclblas_status)clEnqueueMarkerWithWaitList(d->queue, 1, &gate, NULL);
    while (st == OCLBLAS_SUCCESS && n < count) {
        st = oclblas__execute(&d->cx, &plan, d->ctx, d->queue, t->buf, whole ? &last[n] : NULL,
                              whole ? NULL : ev[n]);
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
    double best_t = INFINITY;
    for (int i = 0; i < n && st == OCLBLAS_SUCCESS; ++i) {
        e = CL_SUCCESS;
        double v = 0;
        if (whole) {
            if (i == 0)
                continue;
            v = profile(last[i], CL_PROFILING_COMMAND_END, &e) - profile(last[i - 1], CL_PROFILING_COMMAND_END, &e);
        } else {
            for (int s = 0; s < plan.num_steps; ++s)
                if (plan.step[s].kernel == b->kernel)
                    v += profile(ev[i][s], CL_PROFILING_COMMAND_END, &e) -
                         profile(ev[i][s], CL_PROFILING_COMMAND_START, &e);
        }
        if (e != CL_SUCCESS)
            st = (oclblas_status)e;
        else if (v > 0 && v < best_t)
            best_t = v;
    }
    for (int i = 0; i <= MAX_RUNS; ++i) {
        if (last[i])
            clReleaseEvent(last[i]);
        for (int s = 0; s < OCLBLAS__MAX_STEPS; ++s)
            if (ev[i][s])
                clReleaseEvent(ev[i][s]);
    }
    if (st == OCLBLAS_SUCCESS && !isfinite(best_t))
        st = OCLBLAS_INVALID_ARGUMENT; /* no usable timestamp */
    *best = best_t;
    return st;
}

static double work_of(const tune_bench *b, const tune_problem *t)
{
    const double m = (double)t->p.m, n = (double)t->p.n, k = (double)t->p.k;
    switch (b->tu->form) {
    case OCLBLAS__FORM_GEMM:
        return 2.0 * m * n * k * 1e-9; /* GFLOP */
    case OCLBLAS__FORM_GEMV:
        return 4.0 * (m * n + m + n) * 1e-9; /* GB: A, x and y once */
    case OCLBLAS__FORM_COPY:
        return 2.0 * 4.0 * (m * n + (double)t->count[2]) * 1e-9; /* two kernels, each reads and writes */
    }
    return 0;
}

/* ---- the bench ------------------------------------------------------------------- */

tune_bench *tune_bench_new(tune_device *d, int kernel, const tune_size *sizes, int num_sizes,
                           const tune_bench_opts *o, const tune_class *cls, char *err, size_t len)
{
    const oclblas__tuning *tu = oclblas__tuning_of(kernel);
    if (!tu || num_sizes < 1 || num_sizes > MAX_SIZES) {
        snprintf(err, len, "no bench for this kernel or number of sizes");
        return NULL;
    }
    for (int i = 0; i < num_sizes; ++i) {
        const tune_size *s = &sizes[i];
        const int gemm = tu->form == OCLBLAS__FORM_GEMM;
        /* m or n of 1 would make the plan a gemv; sizes must fit 32-bit indexing. */
        if (s->m < 2 || s->n < 2 || (gemm && s->k < 1) || s->m > 65536 || s->n > 65536 || s->k > 65536 ||
            (double)s->m * (double)s->n > 1.0e9 || (double)s->m * (double)s->k > 1.0e9 ||
            (double)s->n * (double)s->k > 1.0e9) {
            snprintf(err, len, "%s: problem size %zux%zux%zu out of range (2..65536 each, at most 1e9 elements)",
                     oclblas__kernels[kernel]->name, s->m, s->n, s->k);
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
    b->tu = tu;
    b->cls = cls;
    b->trans_b = cls && tu->form == OCLBLAS__FORM_GEMM ? 0 : tu->trans_b;
    memcpy(b->sizes, sizes, (size_t)num_sizes * sizeof *sizes);
    b->num_sizes = num_sizes;
    b->o = *o;
    if (b->o.runs < 1)
        b->o.runs = 1;
    if (b->o.runs > MAX_RUNS - 1)
        b->o.runs = MAX_RUNS - 1;
    return b;
}

void tune_bench_free(tune_bench *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->num_inst; ++i) {
        tune_problem_free(b->inst[i]);
        free(b->inst[i]);
    }
    free(b);
}

/* The problem as the journal keys it: the class (its name and rule, and
 * that whole plans are timed), each size, the padded shape of a copy, and
 * the transposes. */
void tune_bench_problem(const tune_bench *b, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (b->cls) {
        char rule[256];
        oclblas__class_format(&b->cls->cls, rule, sizeof rule);
        const int w = snprintf(buf, len, "class %s (%s), whole plans: ", b->cls->cls.name, rule[0] ? rule : "every shape");
        if (w < 0 || (size_t)w >= len)
            return;
        used = (size_t)w;
    }
    for (int i = 0; i < b->num_sizes && used < len; ++i) {
        const tune_size *s = &b->sizes[i];
        int w;
        if (b->tu->form == OCLBLAS__FORM_GEMM) {
            w = snprintf(buf + used, len - used, "%s%zux%zux%zu", i ? "," : "", s->m, s->n, s->k);
        } else if (b->tu->form == OCLBLAS__FORM_COPY) {
            oclblas__tune_problem p;
            shape(b, i, &b->d->cx.params[b->kernel], &p);
            w = snprintf(buf + used, len - used, "%s%zux%zu to %zux%zu", i ? "," : "", s->m, s->n, p.rows, p.cols);
        } else {
            w = snprintf(buf + used, len - used, "%s%zux%zu", i ? "," : "", s->m, s->n);
        }
        if (w < 0)
            return;
        used += (size_t)w;
    }
    if (used >= len)
        return;
    if (b->tu->form == OCLBLAS__FORM_GEMM)
        snprintf(buf + used, len - used, " %c%c", b->tu->trans_a ? 'T' : 'N', b->trans_b ? 'T' : 'N');
    else if (b->tu->form == OCLBLAS__FORM_GEMV)
        snprintf(buf + used, len - used, " %c", b->tu->trans_a ? 'T' : 'N');
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
    if (!hold)
        return;
    /* A candidate is measured once: its program and binary leave the cache. */
    oclblas__program_forget((oclblas__program *)hold);
    oclblas__program_release((oclblas__program *)hold);
}

void tune_bench_keep(void *hold) { oclblas__program_release((oclblas__program *)hold); }

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
        /* After an interrupt nothing new starts: the run stops after what is in flight. */
        if (tune_interrupted()) {
            pool->holds[i] = NULL;
            pool->status[i] = TUNE_BUILD_FAILED;
            snprintf(pool->notes[i], 200, "build: not started: interrupted");
            continue;
        }
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
            if (status[i] != TUNE_OK || tune_interrupted())
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
    const int whole = b->tu->whole_plan || b->cls;
    double log_sum = 0, rates[MAX_SIZES];
    int measured = 0, slow = 0;
    char check_note[200] = "";
    for (int i = 0; i < b->num_sizes && !slow; ++i) {
        tune_problem *t = get_instance(b, i, p, &st);
        if (!t) {
            fail(r, TUNE_RUN_FAILED, "buffers: %s", oclblas_status_string(st));
            break;
        }
        int ok;
        run_ctx rc = {b, p};
        st = tune_problem_check(t, d->queue, run_checked, &rc, &ok, check_note, sizeof check_note);
        if (st != OCLBLAS_SUCCESS) {
            fail(r, st == OCLBLAS_BUILD_FAILED ? TUNE_BUILD_FAILED : TUNE_RUN_FAILED, "run: %s",
                 oclblas_status_string(st));
            break;
        }
        if (!ok) {
            fail(r, TUNE_WRONG, "%s", check_note);
            break;
        }
        double first = 0, t_best = 0;
        st = timed(b, t, p, whole ? 2 : 1, &first);
        t_best = first;
        if (st == OCLBLAS_SUCCESS) {
            const double rate1 = work_of(b, t) / first;
            if (b->best_rate[i] > 0 && rate1 * b->o.screen < b->best_rate[i]) {
                slow = 1; /* cannot win: one run is enough to know */
            } else if (b->o.runs > 1) {
                st = timed(b, t, p, whole ? b->o.runs + 1 : b->o.runs, &t_best);
                if (st == OCLBLAS_SUCCESS && first < t_best)
                    t_best = first;
            }
        }
        if (st != OCLBLAS_SUCCESS) {
            fail(r, TUNE_RUN_FAILED, "timing: %s", oclblas_status_string(st));
            break;
        }
        rates[i] = work_of(b, t) / t_best;
        log_sum += log(rates[i]);
        ++measured;
    }
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
