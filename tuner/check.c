/*
 * The check of a written entry: the library loads it as a user's program
 * would and takes its parameters for every kernel in it, and calls through
 * the public API compute correctly (against the host reference) along
 * every way of computing that uses what the run changed. The calls come
 * from the kernels' descriptors and the library's own plans, not from a
 * list of kernels, so that every kernel of the list (gemm_tc included, and
 * any added later) is covered: candidate problems (below and above the
 * routine's crossover, each GEMM kernel's problem fitted to its tile,
 * each kernel's first problem, each class's first problems, then the
 * kernels' own tuning problems) are planned with the library's context for
 * the device in each FP32-accurate math mode, and a call runs for each new
 * way of computing (the plan's kind, its kernels, the classes whose sets
 * decide it) that runs a kernel the run changed, small problems first: on
 * a CPU each plan's programs take seconds to build. SGEMV is FP32 in every
 * mode.
 */
#include "program.h"

#include <string.h>

#define MAX_PROBES (4 + 2 * OCLBLAS__K_COUNT + 3 * OCLBLAS__MAX_CLASSES + OCLBLAS__K_COUNT * TUNE_MAX_CLASS_SIZES)
#define MAX_WAYS (2 * MAX_PROBES)

/* A problem to try: C (m x n) = A op(B) for the GEMM form (trans: B
 * stored n x k), y = op(A) x with A m x n for the GEMV form. */
typedef struct {
    oclblas__form form;
    int trans;
    size_t m, n, k;
} probe;

/* A way of computing: what a call's plan is made of, and the classes whose
 * sets decide it (the main kernel's, and each table's without a program:
 * a class's routine values choose the plan). */
typedef struct {
    oclblas__plan_kind kind;
    unsigned kernels; /* bit k: a step runs kernel k */
    char cls[OCLBLAS__CLASS_NAME];
    char tables[OCLBLAS__K_COUNT * OCLBLAS__CLASS_NAME];
} way;

typedef struct {
    probe p[MAX_PROBES];
    int n;
} probes;

static void add(probes *ps, oclblas__form form, int trans, size_t m, size_t n, size_t k)
{
    if (ps->n < MAX_PROBES && m && n && (form == OCLBLAS__FORM_GEMV || k))
        ps->p[ps->n++] = (probe){form, trans, m, n, k};
}

/* A kernel's problem of its own form, fitted to its parameters as its tuning fits it. */
static void add_kernel_problem(probes *ps, const oclblas__devctx *lib, int k, const tune_size *z)
{
    const oclblas__tuning *tu = tuning_of(k);
    if (!tu || (tu->form != OCLBLAS__FORM_GEMM && tu->form != OCLBLAS__FORM_GEMV))
        return;
    oclblas__tune_problem tp = {.m = z->m, .n = z->n, .k = z->k};
    if (tu->prepare && lib->status[k] == OCLBLAS_SUCCESS)
        tu->prepare(lib, &lib->params[k], &tp);
    add(ps, tu->form, tu->form == OCLBLAS__FORM_GEMM ? tu->trans_b : tu->trans_a, tp.m, tp.n, tp.k);
}

/* The candidate problems, in the order they are tried. */
static void gather(const tune_options *o, const oclblas__devctx *lib, probes *ps)
{
    const int gmi = lib->params[OCLBLAS__K_ROUTINE].v[RT_GEMM_MIN_INDIRECT];
    /* Below the crossover (the direct plan) and above it, ragged (padding). */
    const size_t small = gmi > 40 ? 33 : 0, big = (size_t)(gmi > 64 ? gmi : 64) + 13;
    ps->n = 0;
    add(ps, OCLBLAS__FORM_GEMM, 0, small + 2, small, small - 1);
    add(ps, OCLBLAS__FORM_GEMM, 0, big, big - 5, big + 3);
    /* The ragged problem fitted to each kernel's tile (read in place), and each kernel's first problem. */
    const tune_size ragged = {big, big - 5, big + 3};
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (tuning_of(k) && tuning_of(k)->form == OCLBLAS__FORM_GEMM)
            add_kernel_problem(ps, lib, k, &ragged);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (tuning_of(k) && tuning_of(k)->form == OCLBLAS__FORM_GEMV && o->num_sizes[k])
            add_kernel_problem(ps, lib, k, &o->sizes[k][0]);
    /* Each class's first product and first gemv, both ways. */
    for (int c = 0; c < o->num_classes; ++c) {
        tune_size z[TUNE_MAX_CLASS_SIZES];
        if (tune_class_sizes(&o->classes[c], 0, z))
            add(ps, OCLBLAS__FORM_GEMM, 0, z[0].m, z[0].n, z[0].k);
        if (tune_class_sizes(&o->classes[c], 1, z))
            for (int t = 0; t < 2; ++t)
                add(ps, OCLBLAS__FORM_GEMV, t, z[0].m, z[0].n, 0);
    }
    /* Last, where nothing smaller reached a kernel: its own tuning problems. */
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        for (int i = 0; i < o->num_sizes[k]; ++i)
            add_kernel_problem(ps, lib, k, &o->sizes[k][i]);
}

/* How the library computes the probe in a mode: its way; 0 when it does not plan it. */
static int way_of(const oclblas__devctx *lib, const probe *p, oclblas_math_mode mode, way *w)
{
    oclblas__plan plan;
    oclblas_status st;
    if (p->form == OCLBLAS__FORM_GEMV) {
        const oclblas__gemv_problem g = {.trans = p->trans, .rows = p->m, .cols = p->n, .alpha = 1.5f, .beta = 0.25f,
                                         .a = {0, p->m, 0, OCLBLAS__MAX_ALIGN}, .x = {0, 0, 1, OCLBLAS__MAX_ALIGN},
                                         .y = {0, 0, 1, 0}, .a_buf = OCLBLAS__BUF_A, .x_buf = OCLBLAS__BUF_B,
                                         .y_buf = OCLBLAS__BUF_C, .mode = mode};
        st = oclblas__gemv_plan(lib, &g, &plan);
    } else {
        const oclblas__gemm_problem g = {.trans_a = 0, .trans_b = p->trans, .m = p->m, .n = p->n, .k = p->k,
                                         .alpha = 1.5f, .beta = 0.25f, .a = {0, p->m, 0, OCLBLAS__MAX_ALIGN},
                                         .b = {0, p->trans ? p->n : p->k, 0, OCLBLAS__MAX_ALIGN},
                                         .c = {0, p->m, 0, 0}, .mode = mode};
        st = oclblas__gemm_plan(lib, &g, &plan);
    }
    if (st != OCLBLAS_SUCCESS)
        return 0;
    memset(w, 0, sizeof *w);
    w->kind = plan.kind;
    for (int s = 0; s < plan.num_steps; ++s)
        w->kernels |= 1u << plan.step[s].kernel;
    oclblas__strlcpy(w->cls, plan.cls, sizeof w->cls);
    const oclblas__shape shape = {p->m, p->n, p->form == OCLBLAS__FORM_GEMV ? 1 : p->k, 0};
    size_t u = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT && u < sizeof w->tables; ++k) {
        const char *c = oclblas__kernels[k]->source ? NULL : oclblas__devctx_class(lib, k, &shape);
        if (c)
            u += (size_t)snprintf(w->tables + u, sizeof w->tables - u, "%s%s of class %s", u ? ", " : "",
                                  oclblas__kernels[k]->name, c);
    }
    return 1;
}

/* One call through the public API, as a user of the new entry makes it. */
static oclblas_status public_call(void *v, tune_problem *t, cl_command_queue q)
{
    (void)v;
    const oclblas__tune_problem *p = &t->p;
    if (t->form == OCLBLAS__FORM_GEMV)
        return oclblas_sgemv_cl(OCLBLAS_COL_MAJOR, t->trans_a ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m, p->n,
                                p->alpha, t->buf[0], 0, p->m, t->buf[1], 0, 1, p->beta, t->buf[2], 0, 1, q, NULL);
    return oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, t->trans_b ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m,
                            p->n, p->k, p->alpha, t->buf[0], 0, p->m, t->buf[1], 0,
                            tune_problem_ld(t, OCLBLAS__BUF_B), p->beta, t->buf[2], 0, p->m, q, NULL);
}

/* The probe's call checked against the host; note says why not. */
static int check_call(const tune_device *d, const probe *pr, char *note, size_t len)
{
    const oclblas__tune_problem p = {pr->m, pr->n, pr->k, 0, 0, 1.5f, 0.25f};
    const int gemv = pr->form == OCLBLAS__FORM_GEMV;
    tune_problem t;
    int ok = 0;
    if (!tune_problem_make(&t, pr->form, gemv ? pr->trans : 0, gemv ? 0 : pr->trans, &p, gemv ? 7 : 99)) {
        snprintf(note, len, "out of memory");
    } else {
        oclblas_status st = tune_problem_upload(&t, d->ctx, d->generation);
        if (st == OCLBLAS_SUCCESS)
            st = tune_problem_check(&t, d->queue, public_call, NULL, &ok, note, len);
        if (st != OCLBLAS_SUCCESS)
            snprintf(note, len, "%s", oclblas_status_string(st));
    }
    tune_problem_free(&t);
    return ok;
}

/* The library takes the entry's parameters for each of its kernels, from the entry. */
static int takes_parameters(const tune_run *r)
{
    int ok = 1;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (!r->entry.has[k])
            continue;
        char buf[1600], want[512];
        const oclblas_status st = oclblas_get_params(r->d.device, oclblas__kernels[k]->name, buf, sizeof buf);
        oclblas__params_format(k, &r->entry.params[k], want, sizeof want);
        const char *semi = strchr(buf, ';');
        if (st != OCLBLAS_SUCCESS || !semi || strncmp(buf, want, (size_t)(semi - buf)) != 0 ||
            !strstr(semi, r->output)) {
            fprintf(stderr, "oclblas-tune: %s: the library does not take the new entry's parameters: %s\n",
                    oclblas__kernels[k]->name, st == OCLBLAS_SUCCESS ? buf : oclblas_status_string(st));
            ok = 0;
        }
    }
    return ok;
}

static void describe(const probe *p, oclblas_math_mode mode, const way *w, char *buf, size_t len)
{
    size_t u = (size_t)snprintf(buf, len, "%s %zux%zu", p->form == OCLBLAS__FORM_GEMV ? "sgemv" : "sgemm", p->m, p->n);
    if (p->form == OCLBLAS__FORM_GEMM && u < len)
        u += (size_t)snprintf(buf + u, len - u, "x%zu N%c, %s mode", p->k, p->trans ? 'T' : 'N',
                              oclblas_math_mode_name(mode));
    else if (u < len)
        u += (size_t)snprintf(buf + u, len - u, " %c", p->trans ? 'T' : 'N');
    for (int k = 0; k < OCLBLAS__K_COUNT && u < len; ++k)
        if (w->kernels & (1u << k))
            u += (size_t)snprintf(buf + u, len - u, ", %s", oclblas__kernels[k]->name);
    if (w->cls[0] && u < len)
        u += (size_t)snprintf(buf + u, len - u, ", class %s", w->cls);
    if (w->tables[0] && u < len)
        snprintf(buf + u, len - u, ", %s", w->tables);
}

/* The calls: one for each new way that runs a changed kernel (any way, when
 * a table without a program changed: the routine values choose the plans). */
static void run_calls(const tune_run *r, const oclblas__devctx *lib, unsigned changed, int *passed, int *total,
                      unsigned *covered)
{
    static const oclblas_math_mode modes[] = {OCLBLAS_MATH_STRICT, OCLBLAS_MATH_ACCURATE};
    const oclblas_math_mode before = oclblas_get_math_mode();
    static probes ps;
    static way seen[MAX_WAYS];
    int num_seen = 0;
    unsigned tables = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        tables |= oclblas__kernels[k]->source ? 0 : 1u << k;
    gather(&r->o, lib, &ps);
    for (int i = 0; i < ps.n && !tune_interrupted(); ++i) {
        const probe *p = &ps.p[i];
        for (int m = 0; m < (p->form == OCLBLAS__FORM_GEMV ? 1 : 2); ++m) {
            way w;
            int known = 0;
            if (!way_of(lib, p, modes[m], &w))
                continue;
            for (int s = 0; s < num_seen; ++s)
                known |= !memcmp(&seen[s], &w, sizeof w);
            if (known || num_seen == MAX_WAYS || !((changed & tables) || (w.kernels & changed)))
                continue;
            seen[num_seen++] = w;
            char what[256], note[200];
            describe(p, modes[m], &w, what, sizeof what);
            oclblas_set_math_mode(modes[m]);
            const int ok = check_call(&r->d, p, note, sizeof note);
            oclblas_set_math_mode(before);
            *covered |= w.kernels;
            ++*total;
            *passed += ok;
            if (!ok)
                fprintf(stderr, "oclblas-tune: check of the entry failed (%s): %s\n", what, note);
            else if (!r->o.quiet)
                fprintf(stderr, "entry check: %s: correct\n", what);
        }
    }
}

int tune_check_entry(const tune_run *r)
{
    const double t0 = tune_now();
    oclblas_status st = oclblas_database_load(r->output);
    if (st != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclblas-tune: the library refused %s: %s\n", r->output, oclblas_status_string(st));
        return 0;
    }
    const int ok = takes_parameters(r);
    /* What the library now uses, as a user gets it. */
    const oclblas__devctx *lib;
    if (oclblas__devctx_get(r->d.info, &lib) != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclblas-tune: the library has no context for the device\n");
        return 0;
    }
    unsigned changed = 0, covered = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        changed |= r->changed[k] ? 1u << k : 0;
    int passed = 0, total = 0;
    run_calls(r, lib, changed, &passed, &total, &covered);
    if (tune_interrupted()) {
        fprintf(stderr, "oclblas-tune: the check of the entry was interrupted after %d calls\n", total);
        return 0;
    }
    /* A changed kernel that no plan of these problems runs (gemm_direct with a crossover below any problem). */
    for (int k = 0; k < OCLBLAS__K_COUNT && !r->o.quiet; ++k)
        if ((changed & ~covered & (1u << k)) && oclblas__kernels[k]->source)
            fprintf(stderr, "entry check: no call runs %s: the library's plans do not use it for these problems\n",
                    oclblas__kernels[k]->name);
    if (!r->o.quiet)
        fprintf(stderr, "entry checked in %.1f s: the library loads it and takes its parameters; %d of %d calls "
                "correct\n", tune_now() - t0, passed, total);
    return ok && passed == total;
}
