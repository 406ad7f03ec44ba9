/*
 * The routine-level values: not kernel parameters but choices between
 * plans, measured as whole routine calls through the library's plans and
 * executor, with a copy of the tuner's device context (the kernels' tuned
 * parameters) that holds the candidate value; the host-pointer calls of
 * HOST_MAX run on that context pinned as the library's.
 *   GEMM_MIN_INDIRECT   for each candidate size s (the table's values), an
 *                       s x s x s column-major NN SGEMM through the direct
 *                       plan and through the indirect one (helpers and
 *                       gemm_fast), as calls issued back to back: the
 *                       spacing of their completions, which is what a
 *                       stream of calls gets (host overhead included when it
 *                       is the bottleneck);
 *   GEMV_GROUPS_PER_CU  each candidate on a wide gemv_n and a square one,
 *                       where splitting the reduction matters and where it
 *                       hardly does;
 *   HOST_MAX            host-pointer oclblas_sgemm and oclblas_sgemv (the
 *                       default device is the tuned one), forced onto the
 *                       host and forced onto the device, by wall clock, at
 *                       s x s x s and at an s^1.5 square gemv (host.c
 *                       compares m*n*k and m*n with HOST_MAX^3).
 *   GEMM_SPLIT_K        each candidate on four indirect SGEMMs whose tiles
 *                       of C may not fill the device: 1024^3, 2048^3,
 *                       256 x 256 x 16384 and 128 x 8192 x 1024
 *                       (column-major NN; every side halved on a CPU),
 *                       the calls back to back as for GEMM_MIN_INDIRECT;
 *   GEMM_TC_MIN         for each candidate size s (the table's values), an
 *                       s x s x s column-major NN SGEMM in the accurate math
 *                       mode through gemm_tc and through gemm_fast, as for
 *                       GEMM_MIN_INDIRECT; not measured on a device that
 *                       cannot run gemm_tc;
 *   GEMM_MAX_SLICE_K    each candidate on 2048^3, 4096^3 and 2048 x 2048 x
 *                       8192 (CPU: 512^3, 1024^3 and 2048^3), through the
 *                       indirect plan, calls back to back;
 *   GEMV_T_GROUPS_PER_CU as GEMV_GROUPS_PER_CU, on a tall gemv_t and a
 *                       square one;
 *   GEMM_CPU            512^3 and 1024^3 (GPU: 1024^3 and 2048^3)
 *                       column-major NN SGEMMs through the indirect plan
 *                       with gemm_fast and with gemm_cpu, calls back to
 *                       back.
 * The values other than GEMM_TC_MIN are measured in the strict mode (FFMA
 * only), whatever the mode of the process.
 * Each value is the candidate whose plan choice minimises the sum over the
 * measured problems of the time relative to the better plan for that
 * problem. Every plan's result is checked against the host reference.
 * Then, for each class of shapes of the run, GEMM_SPLIT_K and then
 * GEMM_MIN_INDIRECT on the class's products, GEMV_GROUPS_PER_CU and
 * GEMV_T_GROUPS_PER_CU on its gemvs (each on its own direction), chosen the
 * same way: the class's routine set names those values only.
 */
#include "interrupt.h"
#include "kernels/gemm_tc.h"
#include "measure.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.75f
#define BETA_CHECK 0.5f
#define MAX_CALLS 400

typedef struct {
    tune_problem t;
    int gemv;
    const oclblas__devctx *cx; /* the context the calls run with */
} problem;

static void free_problem(problem *p) { tune_problem_free(&p->t); }

/* Host data, reference, and (with_buffers) device buffers; 0 when out of memory. */
static int make_problem(problem *p, tune_device *d, int with_buffers, int gemv, int trans, size_t m, size_t n,
                        size_t k)
{
    memset(p, 0, sizeof *p);
    p->gemv = gemv;
    const oclblas__tune_problem tp = {m, n, k, 0, 0, ALPHA, BETA_CHECK};
    const uint32_t seed = (uint32_t)(m * 31u + n * 17u + k * 7u + (unsigned)trans);
    if (!tune_problem_make(&p->t, gemv ? OCLBLAS__FORM_GEMV : OCLBLAS__FORM_GEMM, gemv ? trans : 0, 0, &tp, seed))
        return 0;
    return !with_buffers || tune_problem_upload(&p->t, d->ctx, d->generation) == OCLBLAS_SUCCESS;
}

static oclblas_status call_cl(const problem *p, cl_command_queue q, float beta, cl_event *ev)
{
    const tune_problem *t = &p->t;
    const oclblas__record r = {p->gemv ? OCLBLAS__SGEMV : OCLBLAS__SGEMM, OCLBLAS_COL_MAJOR,
                               p->gemv && t->trans_a ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, t->p.m,
                               t->p.n, p->gemv ? 0 : t->p.k, ALPHA, beta, {NULL, t->buf[0], 0, t->p.m, 0},
                               {NULL, t->buf[1], 0, t->p.k, 1}, {NULL, t->buf[2], 0, t->p.m, 1},
                               oclblas_get_math_mode()};
    return oclblas__run(p->cx, &r, q, ev);
}

/* Host-pointer calls: the library's own host API, on its default device. */
static oclblas_status call_host(problem *p, float beta)
{
    tune_problem *t = &p->t;
    if (p->gemv)
        return oclblas_sgemv(OCLBLAS_COL_MAJOR, t->trans_a ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, t->p.m, t->p.n, ALPHA,
                             t->host[0], t->p.m, t->host[1], 1, beta, t->out, 1);
    return oclblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, t->p.m, t->p.n, t->p.k, ALPHA,
                         t->host[0], t->p.m, t->host[1], t->p.k, beta, t->out, t->p.m);
}

static oclblas_status run_checked(void *v, tune_problem *t, cl_command_queue q)
{
    return call_cl(v, q, t->p.beta, NULL);
}

/* The checked call on device buffers. */
static oclblas_status check_cl(problem *p, cl_command_queue q, int *ok, char *note, size_t len)
{
    return tune_problem_check(&p->t, q, run_checked, p, ok, note, len);
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
    tune_problem *t = &p->t;
    memcpy(t->out, t->host[2], t->count[2] * sizeof(float));
    const oclblas_status st = call_host(p, BETA_CHECK);
    if (st == OCLBLAS_SUCCESS)
        *ok = tune_problem_compare(t, 2, t->out, note, len);
    return st;
}

/* A hash of every kernel's current parameters, its classes' too: routine
 * measurements depend on them. */
static void params_tag(tune_device *d, char *buf, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (k == OCLBLAS__K_ROUTINE || d->cx.status[k] != OCLBLAS_SUCCESS)
            continue;
        for (int c = -1; c < d->cx.num_classes[k]; ++c) {
            char text[700], rule[256] = "";
            if (c >= 0)
                oclblas__class_format(&d->cx.classes[k][c].cls, rule, sizeof rule);
            oclblas__params_format(k, c < 0 ? &d->cx.params[k] : &d->cx.classes[k][c].params, text, sizeof text);
            if (c >= 0) {
                const size_t u = strlen(text);
                snprintf(text + u, sizeof text - u, " when %s", rule);
            }
            for (const char *s = text; *s; ++s)
                h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
        }
    }
    snprintf(buf, len, "%016llx", (unsigned long long)h);
}

#define WRONG ((oclblas_status)-9999) /* a measurement whose result did not check out */

/* A measurement through the journal: recorded, or measured and recorded.
 * 1: it checked out; 0: it failed; -1: it was not made (the budget is
 * spent, the run was interrupted, or only the journal may answer), which
 * the value's caller sees in o->budget->refused. */
typedef oclblas_status (*measure_fn)(void *ctx, double *seconds, char *note, size_t len);

static int journaled(const tune_routine_opts *o, tune_journal *j, const char *problem_text, const char *config,
                     measure_fn fn, void *ctx, double work, double *seconds, char *note, size_t len)
{
    tune_record r;
    if (j && tune_journal_find(j, "routine", problem_text, config, &r)) {
        tune_run_budget_carry(o->budget, r.charged);
        snprintf(note, len, "%s", r.note);
        *seconds = r.status == TUNE_OK ? r.cost : INFINITY;
        return r.status == TUNE_OK;
    }
    if (!tune_run_may_measure(o->budget)) {
        snprintf(note, len, "not measured");
        *seconds = INFINITY;
        return -1;
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

/* A measurement of the value was refused: the rest is not worth preparing. */
static int given_up(const tune_routine_opts *o) { return o->budget && o->budget->refused > 0; }

/* The budget is spent before a value starts (counted as refused): not even
 * its problems are made (a GPU's take seconds of host references). */
static int spent(const tune_routine_opts *o)
{
    return o->budget && !o->budget->measure_nothing && !tune_run_may_measure(o->budget);
}

/* Why a value measured on part of its candidates is not taken (given_up). */
static const char *given_up_why(const tune_routine_opts *o)
{
    return o->budget->measure_nothing ? "the journal lacks some of its measurements"
           : tune_interrupted()       ? "not measured: interrupted"
                                      : "not measured: the time budget is spent";
}

static int max_value(int index) { return oclblas__kernels[OCLBLAS__K_ROUTINE]->params[index].max; }

/* The routine values of d->cx with values[index] = value (index >= 0) and,
 * where force >= 0, values[force_index] = force. */
static oclblas__devctx with_value(const tune_device *d, int index, int value, int force_index, int force)
{
    oclblas__devctx cx = d->cx;
    if (index >= 0)
        cx.params[OCLBLAS__K_ROUTINE].v[index] = value;
    if (force_index >= 0)
        cx.params[OCLBLAS__K_ROUTINE].v[force_index] = force;
    return cx;
}

typedef struct {
    tune_device *d;
    problem *p;
    int runs;
    int host; /* HOST_MAX: host-pointer calls, with cx pinned as the library's context */
    const oclblas__devctx *cx;
    int expect;      /* the plan kind cx must give an SGEMM, or -1 */
    int expect_main; /* and the kernel of its main step, or -1 */
} plan_ctx;

/* Whether cx gives the problem's SGEMM (in the mode the calls run in) the
 * plan to measure, so that a measurement is never filed under the wrong plan. */
static int gives_plan(const plan_ctx *c)
{
    const tune_problem *t = &c->p->t;
    const oclblas__gemm_problem g = {0, 0, t->p.m, t->p.n, t->p.k, ALPHA, 0.0f,
                                     {0, t->p.m, 0, OCLBLAS__MAX_ALIGN}, {0, t->p.k, 0, OCLBLAS__MAX_ALIGN},
                                     {0, t->p.m, 0, 0}, oclblas_get_math_mode()};
    oclblas__plan plan;
    if (oclblas__gemm_plan(c->cx, &g, &plan) != OCLBLAS_SUCCESS)
        return 0;
    return (c->expect < 0 || plan.kind == (oclblas__plan_kind)c->expect) &&
           (c->expect_main < 0 || plan.step[plan.main].kernel == c->expect_main);
}

static oclblas_status measure_plan(void *v, double *seconds, char *note, size_t len)
{
    plan_ctx *c = v;
    int ok = 0;
    if ((c->expect >= 0 || c->expect_main >= 0) && !gives_plan(c)) {
        snprintf(note, len, "the value does not give the plan to measure");
        return OCLBLAS_INVALID_ARGUMENT;
    }
    c->p->cx = c->cx;
    oclblas_status st = OCLBLAS_SUCCESS;
    if (c->host)
        st = oclblas__devctx_pin(c->d->info, c->cx);
    if (st == OCLBLAS_SUCCESS)
        st = c->host ? check_host(c->p, &ok, note, len) : check_cl(c->p, c->d->queue, &ok, note, len);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(note, len, "%s", oclblas_status_string(st));
    } else if (!ok) {
        st = WRONG;
    } else {
        st = c->host ? time_host(c->p, c->runs, seconds) : time_cl(c->p, c->d->queue, c->runs, seconds);
        if (st != OCLBLAS_SUCCESS)
            snprintf(note, len, "%s", oclblas_status_string(st));
    }
    if (c->host)
        oclblas__devctx_pin(c->d->info, NULL);
    return st;
}

/* The candidate with the lowest score (a sum over problems of relative
 * times); with prefer (>= 0, a class's choice: the value for every shape)
 * that value unless the best scores 3 % better (repeated measurements vary
 * by about that), and of the candidates that score alike (equal to a part
 * in a million) the one nearest to it: a class's measurements change a
 * value of the set for every shape no more than they show a gain, so that
 * the problems of the class it did not measure (the smallest of a class of
 * small products, say) keep what serves them. */
#define CLASS_GAIN 0.03
static int tie_break(const int *values, const double *score, int nv, int prefer)
{
    int best = -1;
    for (int c = 0; c < nv; ++c)
        if (isfinite(score[c]) && (best < 0 || score[c] < score[best] * (1 - 1e-6)))
            best = c;
    if (best < 0 || prefer < 0)
        return best;
    for (int c = 0; c < nv; ++c)
        if (values[c] == prefer && isfinite(score[c]) && score[c] <= score[best] * (1 + CLASS_GAIN))
            return c;
    for (int c = 0; c < nv; ++c)
        if (isfinite(score[c]) && score[c] <= score[best] * (1 + 1e-6) &&
            abs(values[c] - prefer) < abs(values[best] - prefer))
            best = c;
    return best;
}

/* The candidate minimising the sum over problems of time / best time, where
 * time[i][plan(c, i)]; plan(c, i) = 0 (the first plan) when size[i] < c, or
 * <= c where le; ties go to the one nearest to prefer (tie_break). Returns
 * -1 when no candidate has every needed time. */
static int choose(const int *values, int nv, const double *size, int np, const double (*time)[2], int le,
                  int prefer, double *score)
{
    double sc[2 * TUNE_MAX_VALUES + 2];
    for (int c = 0; c < nv; ++c) {
        double s = 0;
        for (int i = 0; i < np; ++i) {
            const int first = le ? size[i] <= values[c] : size[i] < values[c];
            const double t = time[i][first ? 0 : 1], m = fmin(time[i][0], time[i][1]);
            if (isfinite(m)) /* where both plans failed, no choice is better */
                s += t / m;
        }
        sc[c] = s;
    }
    const int best = tie_break(values, sc, nv, prefer);
    *score = best >= 0 ? sc[best] : INFINITY;
    return best;
}

static void append(char *buf, size_t len, const char *fmt, const char *name, int value, const char *why)
{
    const size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, fmt, name, value, why);
}

/* The two ways a routine value chooses between on a problem: the value
 * `index` at at[w] (and, unless force_index is -1, the value force_index
 * at 0) gives way w, named names[w], whose plan must be of kind kind[w]
 * with main kernel main[w] (-1: any); host: through the host-pointer API. */
typedef struct {
    int index, at[2], force_index;
    const char *names[2];
    int kind[2], main[2];
    int host;
} two_ways;

/* Both ways on problem p, through the journal under ptext (gflop: its
 * work): their times into time[0] and time[1] (INFINITY where one failed). */
static void measure_two_ways(tune_device *d, const tune_routine_opts *o, tune_journal *j, problem *p,
                             const two_ways *w, const char *ptext, double gflop, double time[2])
{
    char tag[32];
    params_tag(d, tag, sizeof tag);
    for (int way = 0; way < 2; ++way) {
        const oclblas__devctx cx = with_value(d, w->index, w->at[way], w->force_index, 0);
        char config[64], note[200];
        snprintf(config, sizeof config, "%s %s", w->names[way], tag);
        plan_ctx c = {d, p, o->runs, w->host, &cx, w->kind[way], w->main[way]};
        if (!journaled(o, j, ptext, config, measure_plan, &c, gflop, &time[way], note, sizeof note))
            fprintf(stderr, "  %s, %s failed: %s\n", ptext, config, note);
    }
    if (!o->quiet) {
        fprintf(stderr, "  %s: %s %.1f us, %s %.1f us\n", ptext, w->names[0], time[0] * 1e6, w->names[1],
                time[1] * 1e6);
        fflush(stderr);
    }
}

/* The candidate of vals whose key (keys[c]; vals itself when NULL) choose()
 * picks, with why; 0 when none has every time it needs. */
static int pick(const int *keys, const int *vals, int nv, const double *size, int np, const double (*time)[2], int le,
                int prefer, const char *over, int *value, char *why, size_t why_len)
{
    double score;
    const int c = choose(keys ? keys : vals, nv, size, np, time, le, prefer, &score);
    if (c < 0) {
        snprintf(why, why_len, "a plan failed at every candidate");
        return 0;
    }
    *value = vals[c];
    snprintf(why, why_len, "sum of relative times %.3f over %d %s", score, np, over);
    return 1;
}

/* One problem of a routine value measured as a whole plan. */
typedef struct {
    int gemv, trans;
    size_t m, n, k;
} shape;

/* GEMM_MIN_INDIRECT from column-major NN products: each through the direct
 * plan and through the indirect one, as calls back to back (the spacing of
 * their completions, host overhead included where it is the bottleneck);
 * the choice among vals, the direct plan below the value cubed, minimises
 * the sum of times relative to the better plan per product. */
static int crossover_over(tune_device *d, const tune_routine_opts *o, tune_journal *j, const shape *probs, int np,
                          const int *vals, int nv, int prefer, int *value, char *why, size_t why_len)
{
    double size[2 * TUNE_MAX_VALUES], time[2 * TUNE_MAX_VALUES][2];
    /* The maximum crossover gives the direct plan, 0 the indirect one. */
    const two_ways ways = {RT_GEMM_MIN_INDIRECT, {max_value(RT_GEMM_MIN_INDIRECT), 0}, -1, {"direct", "indirect"},
                           {OCLBLAS__PLAN_DIRECT, OCLBLAS__PLAN_FAST}, {-1, -1}, 0};
    for (int i = 0; i < np && !given_up(o); ++i) {
        const size_t m = probs[i].m, n = probs[i].n, k = probs[i].k;
        problem p;
        if (!make_problem(&p, d, 1, 0, 0, m, n, k)) {
            free_problem(&p);
            snprintf(why, why_len, "out of memory at %zux%zux%zu", m, n, k);
            return 0;
        }
        size[i] = cbrt((double)m * (double)n * (double)k);
        char ptext[96];
        snprintf(ptext, sizeof ptext, "GEMM_MIN_INDIRECT %zux%zux%zu NN", m, n, k);
        measure_two_ways(d, o, j, &p, &ways, ptext, 2.0 * (double)m * n * k * 1e-9, time[i]);
        free_problem(&p);
    }
    return pick(NULL, vals, nv, size, np, (const double(*)[2])time, 0, prefer, "sizes", value, why, why_len);
}

/* GEMM_MIN_INDIRECT for every shape: an s x s x s product at each candidate s. */
static int tune_crossover(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                          size_t why_len)
{
    shape probs[TUNE_MAX_VALUES];
    int np = 0;
    for (int i = 0; i < o->num_values[RT_GEMM_MIN_INDIRECT]; ++i) {
        const size_t s = (size_t)o->values[RT_GEMM_MIN_INDIRECT][i];
        if (s >= 2) /* 0 or 1: no problem to measure, the choice is still open */
            probs[np++] = (shape){0, 0, s, s, s};
    }
    return crossover_over(d, o, j, probs, np, o->values[RT_GEMM_MIN_INDIRECT], o->num_values[RT_GEMM_MIN_INDIRECT],
                          -1, value, why, why_len);
}


/* Chooses routine value `index` among its candidates: each one installed
 * (with the value `force` at `force_index`, unless force_index < 0) and
 * measured on every shape; the pick minimises the sum over the shapes of
 * the time relative to that shape's best candidate. `label` names the
 * candidates in the journal ("groups 4 ..."). */
static int choose_over_shapes(tune_device *d, const tune_routine_opts *o, tune_journal *j, int index, const char *label,
                              const shape *shapes, int nshapes, int force_index, int force, int prefer, int *value,
                              char *why,
                              size_t why_len)
{
    const char *name = oclblas__kernels[OCLBLAS__K_ROUTINE]->params[index].name;
    const int nv = o->num_values[index];
    const int *vals = o->values[index];
    double score[TUNE_MAX_VALUES] = {0};
    char tag[32];
    params_tag(d, tag, sizeof tag);
    int measured = 0;
    for (int s = 0; s < nshapes && !given_up(o); ++s) {
        const shape *sh = &shapes[s];
        problem p;
        if (!make_problem(&p, d, 1, sh->gemv, sh->trans, sh->m, sh->n, sh->k)) {
            free_problem(&p);
            snprintf(why, why_len, "out of memory");
            return 0;
        }
        double t[TUNE_MAX_VALUES], best = INFINITY;
        char ptext[96], note[200];
        if (sh->gemv)
            snprintf(ptext, sizeof ptext, "%s %zux%zu %c", name, sh->m, sh->n, sh->trans ? 'T' : 'N');
        else
            snprintf(ptext, sizeof ptext, "%s %zux%zux%zu NN", name, sh->m, sh->n, sh->k);
        const double work =
            sh->gemv ? 4.0 * (double)(sh->m * sh->n) * 1e-9 : 2.0 * (double)sh->m * sh->n * sh->k * 1e-9;
        for (int c = 0; c < nv; ++c) {
            const oclblas__devctx cx = with_value(d, index, vals[c], force_index, force);
            char config[64];
            snprintf(config, sizeof config, "%s %d %s", label, vals[c], tag);
            plan_ctx ctx = {d, &p, o->runs, 0, &cx, force_index >= 0 && !sh->gemv ? OCLBLAS__PLAN_FAST : -1, -1};
            if (!journaled(o, j, ptext, config, measure_plan, &ctx, work, &t[c], note, sizeof note))
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
    const int pick = tie_break(vals, score, nv, prefer);
    if (pick < 0 || !measured) {
        snprintf(why, why_len, "every candidate failed");
        return 0;
    }
    *value = vals[pick];
    snprintf(why, why_len, "sum of relative times %.3f over %d shapes", score[pick], measured);
    return 1;
}

/* GEMV_GROUPS_PER_CU (trans 0: gemv_n, wide) or GEMV_T_GROUPS_PER_CU
 * (trans 1: gemv_t, tall), each on its own kernel's gemvs. */
static int groups_of_direction(tune_device *d, const tune_routine_opts *o, tune_journal *j, int trans, int *value,
                               char *why, size_t why_len)
{
    const size_t L = o->gemv_long, S = o->gemv_short, Q = o->gemv_square;
    const shape shapes[2] = {{1, trans, trans ? L : S, trans ? S : L, 0}, {1, trans, Q, Q, 0}};
    return choose_over_shapes(d, o, j, trans ? RT_GEMV_T_GROUPS_PER_CU : RT_GEMV_GROUPS_PER_CU,
                              trans ? "groups-t" : "groups", shapes, 2, -1, 0, -1, value, why, why_len);
}

static int tune_groups(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                       size_t why_len)
{
    return groups_of_direction(d, o, j, 0, value, why, why_len);
}

static int tune_t_groups(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                         size_t why_len)
{
    return groups_of_direction(d, o, j, 1, value, why, why_len);
}

static int tune_host_max(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                         size_t why_len)
{
    cl_device_id def;
    oclblas_status st = oclblas_default_device(&def, NULL, NULL);
    if (st != OCLBLAS_SUCCESS || def != d->device) {
        snprintf(why, why_len, "not measured: the host API's default device is not the tuned one");
        return 0;
    }
    const int nv = o->num_values[RT_HOST_MAX];
    const int *vals = o->values[RT_HOST_MAX];
    double size[2 * TUNE_MAX_VALUES], time[2 * TUNE_MAX_VALUES][2];
    /* The largest crossover keeps the call on the host, 0 sends it to the device. */
    const two_ways ways = {RT_HOST_MAX, {max_value(RT_HOST_MAX), 0}, -1, {"host", "device"}, {-1, -1}, {-1, -1}, 1};
    int np = 0;
    for (int i = 0; i < nv && !given_up(o); ++i) {
        const size_t s = (size_t)vals[i];
        if (s < 2)
            continue;
        for (int gemv = 0; gemv < 2 && !given_up(o); ++gemv) {
            /* The same work either way: m*n*k = s^3, or a square gemv with m*n = s^3. */
            const size_t g = (size_t)llround(pow((double)s, 1.5));
            problem p;
            if (!make_problem(&p, d, 0, gemv, 0, gemv ? g : s, gemv ? g : s, gemv ? 0 : s)) {
                free_problem(&p);
                snprintf(why, why_len, "out of memory");
                return 0;
            }
            size[np] = (double)s;
            char ptext[96];
            if (gemv)
                snprintf(ptext, sizeof ptext, "HOST_MAX sgemv %zux%zu", g, g);
            else
                snprintf(ptext, sizeof ptext, "HOST_MAX sgemm %zux%zux%zu", s, s, s);
            measure_two_ways(d, o, j, &p, &ways, ptext, (double)s * s * s * 2e-9, time[np]);
            ++np;
            free_problem(&p);
        }
    }
    return pick(NULL, vals, nv, size, np, (const double(*)[2])time, 1, -1, "problems", value, why, why_len);
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
    return choose_over_shapes(d, o, j, RT_GEMM_SPLIT_K, "split", shapes, 4, RT_GEMM_MIN_INDIRECT, 0, -1, value, why,
                              why_len);
}

/* Both ways on the s x s x s column-major NN SGEMM, journaled under
 * "LABEL SxSxS NN": their times into time; 0 (why says so) where the
 * problem does not fit in memory. */
static int square_two_ways(tune_device *d, const tune_routine_opts *o, tune_journal *j, const two_ways *ways,
                           const char *label, size_t s, double time[2], char *why, size_t why_len)
{
    problem p;
    if (!make_problem(&p, d, 1, 0, 0, s, s, s)) {
        free_problem(&p);
        snprintf(why, why_len, "out of memory at %zu", s);
        return 0;
    }
    char ptext[96];
    snprintf(ptext, sizeof ptext, "%s %zux%zux%zu NN", label, s, s, s);
    measure_two_ways(d, o, j, &p, ways, ptext, 2.0 * s * s * s * 1e-9, time);
    free_problem(&p);
    return 1;
}

/* GEMM_TC_MIN as GEMM_MIN_INDIRECT, between gemm_fast (the first plan) and
 * gemm_tc in the accurate mode; its 0 (never) counts as a size above all. */
static int tune_tc_min(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                       size_t why_len)
{
    if (d->cx.status[OCLBLAS__K_GEMM_TC] != OCLBLAS_SUCCESS) {
        snprintf(why, why_len, "not measured: the device cannot run gemm_tc");
        return 0;
    }
    const int nv = o->num_values[RT_GEMM_TC_MIN];
    int vals[TUNE_MAX_VALUES];
    double size[TUNE_MAX_VALUES], time[TUNE_MAX_VALUES][2];
    /* Always the indirect plan; GEMM_TC_MIN 0 gives gemm_fast, 1 gemm_tc. */
    const two_ways ways = {RT_GEMM_TC_MIN, {0, 1}, RT_GEMM_MIN_INDIRECT, {"gemm_fast", "gemm_tc"},
                           {OCLBLAS__PLAN_FAST, OCLBLAS__PLAN_FAST}, {OCLBLAS__K_GEMM_FAST, OCLBLAS__K_GEMM_TC}, 0};
    const oclblas_math_mode mode = oclblas_get_math_mode();
    oclblas_set_math_mode(OCLBLAS_MATH_ACCURATE);
    int np = 0;
    for (int i = 0; i < nv && !given_up(o); ++i) {
        vals[i] = o->values[RT_GEMM_TC_MIN][i] ? o->values[RT_GEMM_TC_MIN][i] : INT_MAX;
        const size_t s = (size_t)o->values[RT_GEMM_TC_MIN][i];
        if (s < 2)
            continue;
        if (!square_two_ways(d, o, j, &ways, "GEMM_TC_MIN", s, time[np], why, why_len)) {
            oclblas_set_math_mode(mode);
            return 0;
        }
        size[np++] = (double)s;
    }
    oclblas_set_math_mode(mode);
    return pick(vals, o->values[RT_GEMM_TC_MIN], nv, size, np, (const double(*)[2])time, 0, -1, "sizes", value, why,
                why_len);
}

/* GEMM_CPU: gemm_fast (0) or gemm_cpu (1) in the indirect plans, the one
 * whose plans are faster over two squares. */
static int tune_cpu_kernel(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                           size_t why_len)
{
    const int cpu = strcmp(d->info->type, "CPU") == 0;
    const size_t sizes[2] = {cpu ? 512 : 1024, cpu ? 1024 : 2048};
    /* As GEMM_TC_MIN: a size at or above the key takes gemm_cpu (0: always, INT_MAX: never). */
    static const int keys[2] = {INT_MAX, 0}, vals[2] = {0, 1};
    const two_ways ways = {RT_GEMM_CPU, {0, 1}, RT_GEMM_MIN_INDIRECT, {"gemm_fast", "gemm_cpu"},
                           {OCLBLAS__PLAN_FAST, OCLBLAS__PLAN_FAST}, {OCLBLAS__K_GEMM_FAST, OCLBLAS__K_GEMM_CPU}, 0};
    double size[2], time[2][2];
    int np = 0;
    for (int i = 0; i < 2 && !given_up(o); ++i) {
        if (!square_two_ways(d, o, j, &ways, "GEMM_CPU", sizes[i], time[np], why, why_len))
            return 0;
        size[np++] = (double)sizes[i];
    }
    return pick(keys, vals, 2, size, np, (const double(*)[2])time, 0, -1, "sizes", value, why, why_len);
}

/* The routine values of one class: the split of k on its products, then
 * with it whether they go to gemm_direct (GEMM_MIN_INDIRECT), and
 * GEMV_GROUPS_PER_CU and GEMV_T_GROUPS_PER_CU on its gemvs (each on its
 * kernel's direction), each chosen as the others are, with the kernels'
 * sets (their classes' included) in force; a value is the class's own
 * (given) only where it measured better than the one for every shape. */
static void tune_class_values(tune_device *d, const tune_routine_opts *o, tune_journal *j, const tune_class *cls,
                              unsigned *given, oclblas__params *values, char *summary, size_t summary_len)
{
    *given = 0;
    *values = d->cx.params[OCLBLAS__K_ROUTINE];
    /* The products' split, then gemv_n's groups, then gemv_t's. */
    static const int indices[3] = {RT_GEMM_SPLIT_K, RT_GEMV_GROUPS_PER_CU, RT_GEMV_T_GROUPS_PER_CU};
    static const char *const labels[3] = {"split", "groups", "groups-t"};
    for (int pass = 0; pass < 3; ++pass) {
        const int gemv = pass > 0, trans = pass == 2, index = indices[pass];
        tune_size sizes[TUNE_MAX_CLASS_SIZES];
        const int n = tune_class_sizes(cls, gemv, sizes);
        if (!n || !o->tune[index])
            continue;
        shape shapes[TUNE_MAX_CLASS_SIZES];
        for (int i = 0; i < n; ++i)
            shapes[i] = (shape){gemv, trans, sizes[i].m, sizes[i].n, gemv ? 0 : sizes[i].k};
        const char *name = oclblas__kernels[OCLBLAS__K_ROUTINE]->params[index].name;
        if (!o->quiet)
            fprintf(stderr, "routine: %s for class %s\n", name, cls->cls.name);
        char why[200];
        int v;
        /* The split is measured on the indirect plan whatever the crossover, as for every shape. */
        /* Ties go to the value for every shape, which the class then does not name. */
        const int every = d->cx.params[OCLBLAS__K_ROUTINE].v[index];
        if (o->budget)
            o->budget->refused = 0;
        const int ok = !spent(o) && choose_over_shapes(d, o, j, index, labels[pass], shapes, n,
                                                       gemv ? -1 : RT_GEMM_MIN_INDIRECT, 0, every, &v, why, sizeof why);
        const size_t used = strlen(summary);
        if (given_up(o)) {
            /* Chosen among part of its candidates, a value could be worse than the one for every shape. */
            snprintf(summary + used, summary_len - used, "  %s for class %s kept as for every shape: %s\n", name,
                     cls->cls.name, given_up_why(o));
        } else if (ok) {
            values->v[index] = v;
            *given |= v != every ? 1u << index : 0;
            snprintf(summary + used, summary_len - used, "  %s = %d for class %s%s (%s)\n", name, v, cls->cls.name,
                     v != every ? "" : ", as for every shape", why);
        } else {
            snprintf(summary + used, summary_len - used, "  %s for class %s not measured: %s\n", name, cls->cls.name,
                     why);
        }
        if (gemv || !o->tune[RT_GEMM_MIN_INDIRECT])
            continue;
        /* Then whether its products go to gemm_direct (with the class's split of k):
         * never (0), always (the largest value), or below a crossover of the table. */
        if (!o->quiet)
            fprintf(stderr, "routine: GEMM_MIN_INDIRECT for class %s\n", cls->cls.name);
        int vals[TUNE_MAX_VALUES + 3], nv = 0;
        vals[nv++] = 0;
        vals[nv++] = d->cx.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_MIN_INDIRECT];
        for (int i = 0; i < o->num_values[RT_GEMM_MIN_INDIRECT]; ++i)
            if (o->values[RT_GEMM_MIN_INDIRECT][i] > 0 && o->values[RT_GEMM_MIN_INDIRECT][i] < max_value(RT_GEMM_MIN_INDIRECT))
                vals[nv++] = o->values[RT_GEMM_MIN_INDIRECT][i];
        vals[nv++] = max_value(RT_GEMM_MIN_INDIRECT);
        const oclblas__params saved = d->cx.params[OCLBLAS__K_ROUTINE];
        const int crossover = saved.v[RT_GEMM_MIN_INDIRECT];
        d->cx.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_SPLIT_K] = values->v[RT_GEMM_SPLIT_K];
        if (o->budget)
            o->budget->refused = 0;
        const int crossed = !spent(o) && crossover_over(d, o, j, shapes, n, vals, nv, crossover, &v, why, sizeof why);
        d->cx.params[OCLBLAS__K_ROUTINE] = saved;
        const size_t u = strlen(summary);
        if (given_up(o)) {
            snprintf(summary + u, summary_len - u, "  GEMM_MIN_INDIRECT for class %s kept as for every shape: %s\n",
                     cls->cls.name, given_up_why(o));
        } else if (crossed) {
            values->v[RT_GEMM_MIN_INDIRECT] = v;
            *given |= v != crossover ? 1u << RT_GEMM_MIN_INDIRECT : 0;
            snprintf(summary + u, summary_len - u, "  GEMM_MIN_INDIRECT = %d for class %s%s (%s)\n", v, cls->cls.name,
                     v != crossover ? "" : ", as for every shape", why);
        } else {
            snprintf(summary + u, summary_len - u, "  GEMM_MIN_INDIRECT for class %s not measured: %s\n",
                     cls->cls.name, why);
        }
    }
}

static int tune_max_slice(tune_device *d, const tune_routine_opts *o, tune_journal *j, int *value, char *why,
                          size_t why_len)
{
    /* C large enough to fill the device, k from what a work-group's panels keep in cache to what they do
     * not: a limit pays on the long ones and costs its slices' sums on the short ones. */
    const int cpu = strcmp(d->info->type, "CPU") == 0;
    const shape gpu_shapes[3] = {{0, 0, 2048, 2048, 2048}, {0, 0, 4096, 4096, 4096}, {0, 0, 2048, 2048, 8192}};
    const shape cpu_shapes[3] = {{0, 0, 512, 512, 512}, {0, 0, 1024, 1024, 1024}, {0, 0, 2048, 2048, 2048}};
    return choose_over_shapes(d, o, j, RT_GEMM_MAX_SLICE_K, "slice", cpu ? cpu_shapes : gpu_shapes, 3,
                              RT_GEMM_MIN_INDIRECT, 0, -1, value, why, why_len);
}

int tune_routine(tune_device *d, const tune_routine_opts *o, tune_journal *j, int tuned[RT_COUNT],
                 unsigned class_given[OCLBLAS__MAX_CLASSES], oclblas__params class_values[OCLBLAS__MAX_CLASSES],
                 char *summary, size_t summary_len, char *err, size_t len)
{
    (void)err;
    (void)len;
    typedef int (*fn)(tune_device *, const tune_routine_opts *, tune_journal *, int *, char *, size_t);
    static const fn fns[RT_COUNT] = {tune_crossover, tune_groups,    tune_host_max, tune_split,
                                     tune_tc_min,    tune_max_slice, tune_t_groups, tune_cpu_kernel};
    /* The FP32 kernels' values are measured on them alone. */
    const oclblas_math_mode mode = oclblas_get_math_mode();
    oclblas_set_math_mode(OCLBLAS_MATH_STRICT);
    summary[0] = '\0';
    /* The values for every shape are measured as such: no class of the
     * routine's decides a measured problem meanwhile. */
    d->cx.num_classes[OCLBLAS__K_ROUTINE] = 0;
    for (int i = 0; i < RT_COUNT; ++i) {
        tuned[i] = 0;
        if (!o->tune[i])
            continue;
        const char *name = oclblas__kernels[OCLBLAS__K_ROUTINE]->params[i].name;
        if (!o->quiet)
            fprintf(stderr, "routine: %s\n", name);
        int v;
        char why[200];
        oclblas__params *rp = &d->cx.params[OCLBLAS__K_ROUTINE];
        if (o->budget)
            o->budget->refused = 0;
        const int ok = spent(o) ? 0 : fns[i](d, o, j, &v, why, sizeof why);
        if (given_up(o)) {
            /* Chosen among part of its candidates, a value could be worse than the one it has. */
            append(summary, summary_len, "  %s = %d kept: %s\n", name, rp->v[i], given_up_why(o));
        } else if (ok) {
            rp->v[i] = v;
            tuned[i] = 1;
            append(summary, summary_len, "  %s = %d (%s)\n", name, v, why);
        } else {
            append(summary, summary_len, "  %s = %d kept: %s\n", name, rp->v[i], why);
        }
    }
    /* Then each class's, on top of the values for every shape; each goes
     * into the context once measured (a class of the routine decides only
     * its own problems). */
    for (int c = 0; c < o->num_classes && c < OCLBLAS__MAX_CLASSES; ++c)
        tune_class_values(d, o, j, &o->classes[c], &class_given[c], &class_values[c], summary, summary_len);
    for (int c = 0; c < o->num_classes && c < OCLBLAS__MAX_CLASSES; ++c) {
        if (!class_given[c])
            continue;
        oclblas__class_set *cs = &d->cx.classes[OCLBLAS__K_ROUTINE][d->cx.num_classes[OCLBLAS__K_ROUTINE]++];
        cs->cls = o->classes[c].cls;
        cs->params = class_values[c];
    }
    oclblas_set_math_mode(mode);
    return 1;
}
