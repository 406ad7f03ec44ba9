/*
 * The routine-level values: not kernel parameters but choices between
 * plans, measured as whole routine calls with the kernels' current (tuned)
 * parameters installed.
 *   GEMM_MIN_INDIRECT   for each candidate size s (the table's values), an
 *                       s x s x s column-major NN SGEMM through the direct
 *                       plan and through the indirect one (helpers and
 *                       gemm_fast), as calls issued back to back: the
 *                       spacing of their completions, which is what a
 *                       stream of calls gets (host overhead included when it
 *                       is the bottleneck);
 *   GEMV_GROUPS_PER_CU  each candidate on a wide gemv_n, a tall gemv_t and
 *                       a square one of each, where splitting the reduction
 *                       matters and where it hardly does;
 *   HOST_MAX            host-pointer oclblas_sgemm and oclblas_sgemv (the
 *                       default device is the tuned one), forced onto the
 *                       host and forced onto the device, by wall clock, at
 *                       s x s x s and at an s^1.5 square gemv (host.c
 *                       compares m*n*k and m*n with HOST_MAX^3).
 *   GEMM_SPLIT_K        each candidate on four indirect SGEMMs whose tiles
 *                       of C may not fill the device: 1024^3, 2048^3,
 *                       256 x 256 x 16384 and 128 x 8192 x 1024
 *                       (column-major NN; every side halved on a CPU),
 *                       the calls back to back as for GEMM_MIN_INDIRECT.
 * Each value is the candidate whose plan choice minimises the sum over the
 * measured problems of the time relative to the better plan for that
 * problem. Every plan's result is checked against the host reference.
 */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.75f
#define BETA_CHECK 0.5f
#define MAX_CALLS 400

typedef struct {
    size_t m, n, k;
    int gemv, trans;
    float *a, *b, *c0, *ref, *bound, *out;
    size_t na, nb, nc;
    cl_mem da, db, dc;
} problem;

static void free_problem(problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c0);
    free(p->ref);
    free(p->bound);
    free(p->out);
    if (p->da)
        clReleaseMemObject(p->da);
    if (p->db)
        clReleaseMemObject(p->db);
    if (p->dc)
        clReleaseMemObject(p->dc);
    memset(p, 0, sizeof *p);
}

/* Host data, reference, and (ctx not NULL) device buffers; 0 when out of memory. */
static int make_problem(problem *p, cl_context ctx, int gemv, int trans, size_t m, size_t n, size_t k)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->n = n;
    p->k = k;
    p->gemv = gemv;
    p->trans = trans;
    p->na = gemv ? m * n : m * k;
    p->nb = gemv ? (trans ? m : n) : k * n;
    p->nc = gemv ? (trans ? n : m) : m * n;
    p->a = malloc(p->na * sizeof(float));
    p->b = malloc(p->nb * sizeof(float));
    p->c0 = malloc(p->nc * sizeof(float));
    p->ref = malloc(p->nc * sizeof(float));
    p->bound = malloc(p->nc * sizeof(float));
    p->out = malloc(p->nc * sizeof(float));
    if (!p->a || !p->b || !p->c0 || !p->ref || !p->bound || !p->out)
        return 0;
    uint32_t seed = (uint32_t)(m * 31u + n * 17u + k * 7u + (unsigned)trans);
    tune_fill(p->a, p->na, &seed);
    tune_fill(p->b, p->nb, &seed);
    tune_fill(p->c0, p->nc, &seed);
    const int ok = gemv ? tune_ref_gemv(trans, m, n, ALPHA, p->a, p->b, BETA_CHECK, p->c0, p->ref, p->bound)
                        : tune_ref_gemm(0, 0, m, n, k, ALPHA, p->a, m, p->b, k, BETA_CHECK, p->c0, p->ref, p->bound);
    if (!ok)
        return 0;
    if (!ctx)
        return 1;
    cl_int e;
    p->da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, p->na * sizeof(float), p->a, &e);
    if (e == CL_SUCCESS)
        p->db = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, p->nb * sizeof(float), p->b, &e);
    if (e == CL_SUCCESS)
        p->dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, p->nc * sizeof(float), NULL, &e);
    return e == CL_SUCCESS;
}

static oclblas_status call_cl(const problem *p, cl_command_queue q, float beta, cl_event *ev)
{
    if (p->gemv)
        return oclblas_sgemv_cl(OCLBLAS_COL_MAJOR, p->trans ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m, p->n, ALPHA,
                                p->da, 0, p->m, p->db, 0, 1, beta, p->dc, 0, 1, q, ev);
    return oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, p->m, p->n, p->k, ALPHA, p->da, 0,
                            p->m, p->db, 0, p->k, beta, p->dc, 0, p->m, q, ev);
}

static oclblas_status call_host(problem *p, float beta)
{
    if (p->gemv)
        return oclblas_sgemv(OCLBLAS_COL_MAJOR, p->trans ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m, p->n, ALPHA, p->a,
                             p->m, p->b, 1, beta, p->out, 1);
    return oclblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, p->m, p->n, p->k, ALPHA, p->a, p->m,
                         p->b, p->k, beta, p->out, p->m);
}

/* The checked call on device buffers. */
static oclblas_status check_cl(problem *p, cl_command_queue q, int *ok, char *note, size_t len)
{
    oclblas_status st = (oclblas_status)clEnqueueWriteBuffer(q, p->dc, CL_FALSE, 0, p->nc * sizeof(float), p->c0, 0,
                                                             NULL, NULL);
    if (st == OCLBLAS_SUCCESS)
        st = call_cl(p, q, BETA_CHECK, NULL);
    if (st == OCLBLAS_SUCCESS)
        st = (oclblas_status)clEnqueueReadBuffer(q, p->dc, CL_TRUE, 0, p->nc * sizeof(float), p->out, 0, NULL, NULL);
    if (st == OCLBLAS_SUCCESS)
        *ok = tune_compare(p->out, p->ref, p->bound, p->nc, note, len);
    else
        clFinish(q);
    return st;
}

static double end_of(cl_event e, cl_int *err)
{
    cl_ulong t = 0;
    const cl_int r = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL);
    if (r != CL_SUCCESS)
        *err = r;
    return (double)t * 1e-9;
}

/* Seconds per call of calls issued back to back: (end of the last - end of the first) / (count - 1). */
static oclblas_status stream(problem *p, cl_command_queue q, int count, double *per_call)
{
    cl_event first = NULL, last = NULL;
    oclblas_status st = OCLBLAS_SUCCESS;
    for (int i = 0; i < count && st == OCLBLAS_SUCCESS; ++i) {
        cl_event ev = NULL;
        st = call_cl(p, q, 0.0f, &ev);
        if (st != OCLBLAS_SUCCESS)
            break;
        if (i == 0)
            first = ev;
        else {
            if (last)
                clReleaseEvent(last);
            last = ev;
        }
    }
    const cl_int fe = clFinish(q);
    if (st == OCLBLAS_SUCCESS && fe != CL_SUCCESS)
        st = (oclblas_status)fe;
    if (st == OCLBLAS_SUCCESS && first && last) {
        cl_int e = CL_SUCCESS;
        const double t = end_of(last, &e) - end_of(first, &e);
        if (e != CL_SUCCESS)
            st = (oclblas_status)e;
        *per_call = t / (count - 1);
        if (st == OCLBLAS_SUCCESS && !(*per_call > 0))
            st = OCLBLAS_INVALID_ARGUMENT;
    }
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    return st;
}

/* The best of `runs` streams, each long enough to be measured (about 5 ms). */
static oclblas_status time_cl(problem *p, cl_command_queue q, int runs, double *best)
{
    double t;
    oclblas_status st = stream(p, q, 3, &t);
    if (st != OCLBLAS_SUCCESS)
        return st;
    int count = (int)(0.005 / t) + 2;
    if (count > MAX_CALLS)
        count = MAX_CALLS;
    *best = t;
    for (int r = 0; r < runs && st == OCLBLAS_SUCCESS; ++r) {
        st = stream(p, q, count, &t);
        if (st == OCLBLAS_SUCCESS && t < *best)
            *best = t;
    }
    return st;
}

/* Wall seconds per host-pointer call, the best of `runs` groups of about 5 ms. */
static oclblas_status time_host(problem *p, int runs, double *best)
{
    double t0 = tune_now();
    oclblas_status st = call_host(p, 0.0f);
    if (st != OCLBLAS_SUCCESS)
        return st;
    double one = tune_now() - t0;
    int count = (int)(0.005 / (one > 1e-7 ? one : 1e-7)) + 1;
    if (count > 2000)
        count = 2000;
    *best = INFINITY;
    for (int r = 0; r < runs + 1 && st == OCLBLAS_SUCCESS; ++r) {
        t0 = tune_now();
        for (int i = 0; i < count && st == OCLBLAS_SUCCESS; ++i)
            st = call_host(p, 0.0f);
        const double t = (tune_now() - t0) / count;
        if (t < *best)
            *best = t;
    }
    return st;
}

static oclblas_status check_host(problem *p, int *ok, char *note, size_t len)
{
    memcpy(p->out, p->c0, p->nc * sizeof(float));
    const oclblas_status st = call_host(p, BETA_CHECK);
    if (st == OCLBLAS_SUCCESS)
        *ok = tune_compare(p->out, p->ref, p->bound, p->nc, note, len);
    return st;
}

/* A hash of every kernel's current parameters: routine measurements depend on them. */
static void params_tag(tune_device *d, char *buf, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < OCLBLAS__K_ROUTINE; ++k) {
        oclblas__params p;
        char text[512];
        if (oclblas__db_lookup(d->info, k, &p, NULL, 0) != OCLBLAS_SUCCESS)
            continue;
        oclblas__params_format(k, &p, text, sizeof text);
        for (const char *s = text; *s; ++s)
            h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    }
    snprintf(buf, len, "%016llx", (unsigned long long)h);
}

#define WRONG ((oclblas_status)-9999) /* a measurement whose result did not check out */

/* A measurement through the journal: recorded, or measured and recorded. */
typedef oclblas_status (*measure_fn)(void *ctx, double *seconds, char *note, size_t len);

static int journaled(tune_journal *j, const char *problem_text, const char *config, measure_fn fn, void *ctx,
                     double work, double *seconds, char *note, size_t len)
{
    tune_record r;
    if (j && tune_journal_find(j, "routine", problem_text, config, &r)) {
        snprintf(note, len, "%s", r.note);
        *seconds = r.status == TUNE_OK ? r.cost : INFINITY;
        return r.status == TUNE_OK;
    }
    const double t0 = tune_now();
    memset(&r, 0, sizeof r);
    const oclblas_status st = fn(ctx, seconds, note, len);
    r.status = st == OCLBLAS_SUCCESS ? TUNE_OK : st == WRONG ? TUNE_WRONG : TUNE_RUN_FAILED;
    r.cost = r.status == TUNE_OK ? *seconds : INFINITY;
    r.rate = r.status == TUNE_OK ? work / *seconds : 0;
    r.charged = tune_now() - t0;
    oclblas__strlcpy(r.note, note, sizeof r.note);
    if (j)
        tune_journal_add(j, "routine", problem_text, config, &r);
    if (r.status != TUNE_OK)
        *seconds = INFINITY;
    return r.status == TUNE_OK;
}

typedef struct {
    tune_device *d;
    problem *p;
    int runs;
    int host; /* HOST_MAX: host-pointer calls */
    oclblas_status override_status;
} plan_ctx;

static oclblas_status measure_plan(void *v, double *seconds, char *note, size_t len)
{
    plan_ctx *c = v;
    int ok = 0;
    if (c->override_status != OCLBLAS_SUCCESS) {
        /* The plan was not forced: whatever ran would be timed under the wrong name. */
        snprintf(note, len, "override: %s", oclblas_status_string(c->override_status));
        return c->override_status;
    }
    oclblas_status st = c->host ? check_host(c->p, &ok, note, len) : check_cl(c->p, c->d->queue, &ok, note, len);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(note, len, "%s", oclblas_status_string(st));
        return st;
    }
    if (!ok)
        return WRONG;
    st = c->host ? time_host(c->p, c->runs, seconds) : time_cl(c->p, c->d->queue, c->runs, seconds);
    if (st != OCLBLAS_SUCCESS)
        snprintf(note, len, "%s", oclblas_status_string(st));
    return st;
}

/* The candidate minimising the sum over problems of time / best time, where
 * time[i][plan(c, i)]; plan(c, i) = 0 (the first plan) when size[i] < c, or
 * <= c where le. Returns -1 when no candidate has every needed time. */
static int choose(const int *values, int nv, const double *size, int np, const double (*time)[2], int le,
                  double *score)
{
    int best = -1;
    double best_score = INFINITY;
    for (int c = 0; c < nv; ++c) {
        double s = 0;
        for (int i = 0; i < np; ++i) {
            const int first = le ? size[i] <= values[c] : size[i] < values[c];
            const double t = time[i][first ? 0 : 1], m = fmin(time[i][0], time[i][1]);
            if (isfinite(m)) /* where both plans failed, no choice is better */
                s += t / m;
        }
        if (s < best_score) {
            best_score = s;
            best = c;
        }
    }
    *score = best_score;
    return isfinite(best_score) ? best : -1;
}

static void say(const tune_routine_opts *o, const char *fmt, const char *a, double x, double y)
{
    if (!o->quiet) {
        fprintf(stderr, fmt, a, x, y);
        fflush(stderr);
    }
}

static void append(char *buf, size_t len, const char *fmt, const char *name, int value, const char *why)
{
    const size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, fmt, name, value, why);
}

static int tune_crossover(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                          size_t why_len)
{
    const int nv = o->num_values[RT_GEMM_MIN_INDIRECT];
    const int *vals = o->values[RT_GEMM_MIN_INDIRECT];
    double size[TUNE_MAX_VALUES], time[TUNE_MAX_VALUES][2];
    char tag[32];
    params_tag(d, tag, sizeof tag);
    int np = 0;
    for (int i = 0; i < nv; ++i) {
        const size_t s = (size_t)vals[i];
        if (s < 2)
            continue; /* 0 or 1: no problem to measure, the choice is still open */
        problem p;
        if (!make_problem(&p, d->ctx, 0, 0, s, s, s)) {
            free_problem(&p);
            snprintf(why, why_len, "out of memory at %zu", s);
            return 0;
        }
        size[np] = (double)s;
        char ptext[96], note[200];
        snprintf(ptext, sizeof ptext, "GEMM_MIN_INDIRECT %zux%zux%zu NN", s, s, s);
        for (int plan = 0; plan < 2; ++plan) {
            /* The maximum crossover forces the direct plan, 0 the indirect one. */
            const oclblas_status os = tune_override_routine(
                d, RT_GEMM_MIN_INDIRECT, plan ? 0 : oclblas__kernels[OCLBLAS__K_ROUTINE].params[RT_GEMM_MIN_INDIRECT].max);
            char config[64];
            snprintf(config, sizeof config, "%s %s", plan ? "indirect" : "direct", tag);
            plan_ctx c = {d, &p, o->runs, 0, os};
            if (!journaled(j, ptext, config, measure_plan, &c, 2.0 * s * s * s * 1e-9, &time[np][plan], note,
                           sizeof note))
                fprintf(stderr, "  GEMM_MIN_INDIRECT: %s, %s plan failed: %s\n", ptext + 18, config, note);
        }
        say(o, "  GEMM_MIN_INDIRECT: %s direct %.1f us, indirect %.1f us\n", ptext + 18, time[np][0] * 1e6,
            time[np][1] * 1e6);
        ++np;
        free_problem(&p);
    }
    tune_override_routine(d, -1, 0);
    double score;
    const int c = choose(vals, nv, size, np, time, 0, &score);
    if (c < 0) {
        snprintf(why, why_len, "a plan failed at every candidate");
        return 0;
    }
    *value = vals[c];
    snprintf(why, why_len, "sum of relative times %.3f over %d sizes", score, np);
    return 1;
}

/* One problem of a routine value measured as a whole plan. */
typedef struct {
    int gemv, trans;
    size_t m, n, k;
} shape;

/* Chooses routine value `index` among its candidates: each one installed
 * (with the value `force` at `force_index`, unless force_index < 0) and
 * measured on every shape; the pick minimises the sum over the shapes of
 * the time relative to that shape's best candidate. `label` names the
 * candidates in the journal ("groups 4 ..."). */
static int choose_over_shapes(tune_device *d, const tune_routine_opts *o, tune_journal *j, int index, const char *label,
                              const shape *shapes, int nshapes, int force_index, int force, int *value, char *why,
                              size_t why_len)
{
    const char *name = oclblas__kernels[OCLBLAS__K_ROUTINE].params[index].name;
    const int nv = o->num_values[index];
    const int *vals = o->values[index];
    double score[TUNE_MAX_VALUES] = {0};
    char tag[32];
    params_tag(d, tag, sizeof tag);
    int measured = 0;
    for (int s = 0; s < nshapes; ++s) {
        const shape *sh = &shapes[s];
        problem p;
        if (!make_problem(&p, d->ctx, sh->gemv, sh->trans, sh->m, sh->n, sh->k)) {
            free_problem(&p);
            snprintf(why, why_len, "out of memory");
            return 0;
        }
        double t[TUNE_MAX_VALUES], best = INFINITY;
        char ptext[96], note[200];
        if (sh->gemv)
            snprintf(ptext, sizeof ptext, "%s %zux%zu %c", name, p.m, p.n, p.trans ? 'T' : 'N');
        else
            snprintf(ptext, sizeof ptext, "%s %zux%zux%zu NN", name, p.m, p.n, p.k);
        const double work = sh->gemv ? 4.0 * (double)(p.m * p.n) * 1e-9 : 2.0 * (double)p.m * p.n * p.k * 1e-9;
        for (int c = 0; c < nv; ++c) {
            const int saved = force_index >= 0 ? d->routine[force_index] : 0;
            if (force_index >= 0)
                d->routine[force_index] = force;
            const oclblas_status os = tune_override_routine(d, index, vals[c]);
            if (force_index >= 0)
                d->routine[force_index] = saved;
            char config[64];
            snprintf(config, sizeof config, "%s %d %s", label, vals[c], tag);
            plan_ctx ctx = {d, &p, o->runs, 0, os};
            if (!journaled(j, ptext, config, measure_plan, &ctx, work, &t[c], note, sizeof note))
                fprintf(stderr, "  %s: %s: %s\n", name, config, note);
            best = fmin(best, t[c]);
        }
        if (!o->quiet) {
            fprintf(stderr, "  %s: %s:", name, ptext + strlen(name) + 1);
            for (int c = 0; c < nv; ++c)
                fprintf(stderr, " %d:%.1fus", vals[c], t[c] * 1e6);
            fputc('\n', stderr);
        }
        if (isfinite(best)) {
            ++measured;
            for (int c = 0; c < nv; ++c)
                score[c] += t[c] / best;
        }
        free_problem(&p);
    }
    tune_override_routine(d, -1, 0);
    int pick = -1;
    for (int c = 0; c < nv; ++c)
        if (isfinite(score[c]) && (pick < 0 || score[c] < score[pick]))
            pick = c;
    if (pick < 0 || !measured) {
        snprintf(why, why_len, "every candidate failed");
        return 0;
    }
    *value = vals[pick];
    snprintf(why, why_len, "sum of relative times %.3f over %d shapes", score[pick], measured);
    return 1;
}

static int tune_groups(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                       size_t why_len)
{
    const size_t L = o->gemv_long, S = o->gemv_short, Q = o->gemv_square;
    const shape shapes[4] = {{1, 0, S, L, 0}, {1, 1, L, S, 0}, {1, 0, Q, Q, 0}, {1, 1, Q, Q, 0}};
    return choose_over_shapes(d, o, j, RT_GEMV_GROUPS_PER_CU, "groups", shapes, 4, -1, 0, value, why, why_len);
}

static int tune_host_max(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                         size_t why_len)
{
    cl_device_id def;
    oclblas_status st = oclblas_default_device(&def, NULL, NULL);
    if (st != OCLBLAS_SUCCESS || def != d->device) {
        snprintf(why, why_len, "not measured: the host API's default device is not the tuned one (OCLBLAS_DEVICE)");
        return 0;
    }
    const int nv = o->num_values[RT_HOST_MAX];
    const int *vals = o->values[RT_HOST_MAX];
    const int host_plan = oclblas__kernels[OCLBLAS__K_ROUTINE].params[RT_HOST_MAX].max;
    double size[2 * TUNE_MAX_VALUES], time[2 * TUNE_MAX_VALUES][2];
    char tag[32];
    params_tag(d, tag, sizeof tag);
    int np = 0;
    for (int i = 0; i < nv; ++i) {
        const size_t s = (size_t)vals[i];
        if (s < 2)
            continue;
        for (int gemv = 0; gemv < 2; ++gemv) {
            /* The same work either way: m*n*k = s^3, or a square gemv with m*n = s^3. */
            const size_t g = (size_t)llround(pow((double)s, 1.5));
            problem p;
            if (!make_problem(&p, NULL, gemv, 0, gemv ? g : s, gemv ? g : s, gemv ? 0 : s)) {
                free_problem(&p);
                snprintf(why, why_len, "out of memory");
                return 0;
            }
            size[np] = (double)s;
            char ptext[96], note[200];
            if (gemv)
                snprintf(ptext, sizeof ptext, "HOST_MAX sgemv %zux%zu", g, g);
            else
                snprintf(ptext, sizeof ptext, "HOST_MAX sgemm %zux%zux%zu", s, s, s);
            for (int plan = 0; plan < 2; ++plan) {
                const oclblas_status os = tune_override_routine(d, RT_HOST_MAX, plan ? 0 : host_plan);
                char config[64];
                snprintf(config, sizeof config, "%s %s", plan ? "device" : "host", tag);
                plan_ctx c = {d, &p, o->runs, 1, os};
                if (!journaled(j, ptext, config, measure_plan, &c, (double)s * s * s * 2e-9, &time[np][plan], note,
                               sizeof note))
                    fprintf(stderr, "  HOST_MAX: %s %s: %s\n", ptext, config, note);
            }
            say(o, "  %s: host %.1f us, device %.1f us\n", ptext, time[np][0] * 1e6, time[np][1] * 1e6);
            ++np;
            free_problem(&p);
        }
    }
    tune_override_routine(d, -1, 0);
    double score;
    const int c = choose(vals, nv, size, np, time, 1, &score);
    if (c < 0) {
        snprintf(why, why_len, "a path failed at every candidate");
        return 0;
    }
    *value = vals[c];
    snprintf(why, why_len, "sum of relative times %.3f over %d problems", score, np);
    return 1;
}

static int tune_split(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                      size_t why_len)
{
    /* Half of each side on a CPU, an eighth of the work: its compute units are few. */
    const size_t h = strcmp(d->info->type, "CPU") == 0 ? 2 : 1;
    const shape shapes[4] = {{0, 0, 1024 / h, 1024 / h, 1024 / h},
                             {0, 0, 2048 / h, 2048 / h, 2048 / h},
                             {0, 0, 256 / h, 256 / h, 16384 / h},
                             {0, 0, 128 / h, 8192 / h, 1024 / h}};
    /* The indirect plan whatever the crossover, with each candidate's split. */
    return choose_over_shapes(d, o, j, RT_GEMM_SPLIT_K, "split", shapes, 4, RT_GEMM_MIN_INDIRECT, 0, value, why,
                              why_len);
}

int tune_routine(tune_device *d, const tune_routine_opts *o, tune_journal *j, int tuned[RT_COUNT], char *summary,
                 size_t summary_len, char *err, size_t len)
{
    (void)err;
    (void)len;
    typedef int (*fn)(tune_device *, const tune_routine_opts *, tune_journal *, int *, char *, size_t);
    static const fn fns[RT_COUNT] = {tune_crossover, tune_groups, tune_host_max, tune_split};
    summary[0] = '\0';
    for (int i = 0; i < RT_COUNT; ++i) {
        tuned[i] = 0;
        if (!o->tune[i])
            continue;
        const char *name = oclblas__kernels[OCLBLAS__K_ROUTINE].params[i].name;
        if (!o->quiet)
            fprintf(stderr, "routine: %s\n", name);
        int v;
        char why[200];
        if (fns[i](d, o, j, &v, why, sizeof why)) {
            d->routine[i] = v;
            tuned[i] = 1;
            append(summary, summary_len, "  %s = %d (%s)\n", name, v, why);
        } else {
            append(summary, summary_len, "  %s = %d kept: %s\n", name, d->routine[i], why);
        }
        tune_override_routine(d, -1, 0);
    }
    return 1;
}
