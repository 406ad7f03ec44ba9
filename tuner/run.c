/*
 * The searches of a tuning run. For each kernel of the kernel list in turn
 * (src/kernels.def: its descriptor says how it is timed) a strategy
 * searches the kernel's legal configurations, seeded with what the
 * database gives the device today; candidates are built in worker threads
 * or processes a batch at a time, then checked and timed one by one; every
 * outcome goes to the journal at once. The winner of each kernel goes into
 * the tuner's device context before the next kernel (the helpers pad to
 * the tuned tile, gemv's reduction uses the tuned helpers), then a set for
 * each class of shapes that tunes it; the routine values are measured last,
 * with everything tuned.
 */
#include "program.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const tune_options *o;
    tune_device *d;
    tune_workers *workers;
    tune_space *space;
    tune_bench *bench;
    tune_journal *journal;
    const char *kname;
    char problem[256];
    long measured, replayed, failed[4];
    double last_print, start;
    tune_run_budget *budget;
    double time_budget; /* the kernel's share, 0 if none */
    double clock;       /* what its candidates cost, as the search counts it */
    double meter;       /* when the last candidate's cost was counted */
    void *best_hold;    /* the best candidate's program, when built here: the entry's check runs it */
    int cls_index;      /* the class searched (options' classes), -1 for the set for every shape */
    int tty;
    int have_best;
    tune_record best;
    char best_text[512];
    oclblas__params seed;
    int seed_measured;
    tune_record seed_rec;
} kernel_run;

static void note_result(kernel_run *kr, const oclblas__params *p, const tune_record *r)
{
    kr->clock += r->charged;
    if (r->status != TUNE_OK)
        ++kr->failed[r->status];
    if (r->status == TUNE_OK && (!kr->have_best || r->cost < kr->best.cost)) {
        kr->have_best = 1;
        kr->best = *r;
        oclblas__params_format(kr->space->kernel, p, kr->best_text, sizeof kr->best_text);
        const int k = kr->space->kernel;
        tune_so_far_set(k, kr->cls_index, (1u << oclblas__kernels[k]->num_params) - 1, p, kr->problem);
    }
    if (!memcmp(p->v, kr->seed.v, sizeof p->v)) {
        kr->seed_measured = 1;
        kr->seed_rec = *r;
    }
}

static int eval(void *v, const uint64_t *codes, int n, double *cost, double *charged)
{
    kernel_run *kr = v;
    oclblas__params p[256], todo_p[256];
    char cfg[256][512];
    int todo[256], nt = 0;
    for (int i = 0; i < n; ++i) {
        tune_space_params(kr->space, codes[i], &p[i]);
        oclblas__params_format(kr->space->kernel, &p[i], cfg[i], sizeof cfg[i]);
        tune_record r;
        if (tune_journal_find(kr->journal, kr->kname, kr->problem, cfg[i], &r)) {
            cost[i] = r.status == TUNE_OK ? r.cost : INFINITY;
            charged[i] = r.charged;
            ++kr->replayed;
            tune_run_budget_carry(kr->budget, r.charged);
            if (r.status == TUNE_OK && (!kr->have_best || r.cost < kr->best.cost)) {
                tune_bench_release(kr->best_hold); /* not the best any more */
                kr->best_hold = NULL;
            }
            note_result(kr, &p[i], &r);
        } else {
            todo_p[nt] = p[i];
            todo[nt++] = i;
        }
    }
    if (tune_interrupted())
        return 1;
    /* The share is spent (the journal's records may have done it): the search stops on its clock. */
    if (nt == 0 || (kr->time_budget > 0 && kr->clock >= kr->time_budget))
        return 0;
    void *holds[256];
    tune_status bst[256];
    char notes[256][200];
    const double t0 = tune_now();
    tune_bench_build_all(kr->bench, todo_p, nt, kr->o->jobs, kr->workers, holds, bst, notes);
    const double build_wall = tune_now() - t0;
    /* A candidate costs the time since the last one was counted: the batch's
     * builds go to its first, and the search's own time is counted too, so
     * that the kernel's clock is the wall's. Once the share is spent, the
     * rest of the batch is left unmeasured. */
    for (int j = 0; j < nt && !tune_interrupted() && !(kr->time_budget > 0 && kr->clock >= kr->time_budget); ++j) {
        const int i = todo[j];
        tune_record r;
        if (bst[j] != TUNE_OK) {
            memset(&r, 0, sizeof r);
            r.status = bst[j];
            r.cost = INFINITY;
            oclblas__strlcpy(r.note, notes[j], sizeof r.note);
        } else {
            tune_bench_measure(kr->bench, &p[i], &r);
            /* Where the time goes: this build, and the batch's builds in parallel. */
            char m[1024];
            snprintf(m, sizeof m, "%.199s (batch of %d in %.2f s); %.199s", notes[j], nt, build_wall, r.note);
            oclblas__strlcpy(r.note, m, sizeof r.note);
        }
        const double now = tune_now();
        r.charged = now - kr->meter;
        kr->meter = now;
        if (!tune_journal_add(kr->journal, kr->kname, kr->problem, cfg[i], &r))
            fprintf(stderr, "oclblas-tune: warning: cannot append to the journal\n");
        cost[i] = r.status == TUNE_OK ? r.cost : INFINITY;
        charged[i] = r.charged;
        ++kr->measured;
        const int better = r.status == TUNE_OK && (!kr->have_best || r.cost < kr->best.cost);
        note_result(kr, &p[i], &r);
        if (better) {
            tune_bench_release(kr->best_hold);
            kr->best_hold = holds[j];
            holds[j] = NULL;
        }
        if (r.status != TUNE_OK && !kr->o->quiet && kr->failed[r.status] <= 3)
            fprintf(stderr, "%s: %s %s: %s%s\n", kr->kname, tune_status_name(r.status), cfg[i], r.note,
                    kr->failed[r.status] == 3 ? " (further ones of this kind not shown)" : "");
    }
    /* Each candidate leaves the library's memory cache once measured. */
    for (int j = 0; j < nt; ++j)
        tune_bench_release(holds[j]);
    return tune_interrupted();
}

static void progress(void *v, const tune_progress *p)
{
    kernel_run *kr = v;
    const double now = tune_now();
    if (kr->o->quiet || (!kr->tty && now - kr->last_print < 5.0))
        return;
    kr->last_print = now;
    double left = -1;
    if (p->clock_limit > 0)
        left = p->clock_limit - p->clock;
    if (p->total > 0 && p->done > 0) {
        const double est = (double)(p->total - p->done) * p->clock / (double)p->done;
        if (left < 0 || est < left)
            left = est;
    }
    char el[32], lt[32], total[32] = "";
    tune_format_duration(p->clock, el, sizeof el);
    tune_format_duration(left < 0 ? 0 : left, lt, sizeof lt);
    if (p->total > 0)
        snprintf(total, sizeof total, "/%ld", p->total);
    long failed = kr->failed[1] + kr->failed[2] + kr->failed[3];
    char line[400], best[64] = "-";
    if (kr->have_best)
        snprintf(best, sizeof best, "%.1f %s", kr->best.rate, tune_unit(kr->space->kernel));
    snprintf(line, sizeof line, "%s: %ld%s done, %s%s, %s%s left, best %s", kr->kname, p->done, total, el,
             kr->replayed ? " (with the journal's)" : "", left < 0 ? "" : "~", left < 0 ? "?" : lt, best);
    if (failed) {
        const size_t u = strlen(line);
        snprintf(line + u, sizeof line - u, ", %ld failed", failed);
    }
    if (kr->budget && kr->budget->total > 0) {
        /* The whole run ends within its budget plus the candidate in flight, then checks its entry. */
        const double run_left = kr->budget->total - tune_run_budget_spent(kr->budget);
        char rl[32];
        tune_format_duration(run_left < 0 ? 0 : run_left, rl, sizeof rl);
        const size_t u = strlen(line);
        snprintf(line + u, sizeof line - u, "; run ~%s left", rl);
    }
    if (kr->tty)
        fprintf(stderr, "\r\033[K%s", line);
    else
        fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

/* --from-journal: the best configuration the journal holds for the
 * search's problem (a class's names the class and its rule), which is what
 * the run that measured it chose (unless the journal holds more than that
 * run reached). */
static void best_in_journal(const tune_options *o, tune_journal *j, int kernel, const tune_class *cls,
                            const oclblas__params *seed, tune_result *res)
{
    const char *kname = oclblas__kernels[kernel]->name;
    char config[512], what[128];
    snprintf(what, sizeof what, "%s%s%s", kname, cls ? ", class " : "", cls ? cls->cls.name : "");
    tune_journal_tally t;
    res->found = tune_journal_best(j, kname, res->problem, config, sizeof config, &res->best_rec, &t) &&
                 oclblas__params_parse(kernel, config, &res->best, NULL) == OCLBLAS_SUCCESS;
    res->replayed = t.records;
    res->failed = t.failed;
    res->clock = res->own_clock = t.charged;
    res->stop = TUNE_STOP_EXHAUSTED;
    if (seed) {
        char text[512];
        oclblas__params_format(kernel, seed, text, sizeof text);
        res->seed_measured = tune_journal_find(j, kname, res->problem, text, &res->seed_rec);
    }
    if (o->quiet)
        return;
    if (res->found)
        fprintf(stderr, "%s: from the journal: %ld records of problem %s, best %.1f %s: %s\n", what, t.records,
                res->problem, res->best_rec.rate, tune_unit(kernel), config);
    else
        fprintf(stderr, "%s: the journal has %s of problem %s%s\n", what,
                t.records ? "no configuration that built, ran and checked out" : "no record", res->problem,
                t.records ? ""
                : cls     ? " (give the run's --class and --values)"
                          : " (give the run's --size and --values)");
}

/* One search: a kernel's set for every shape (cls NULL) or for a class,
 * on its problems. seeds: the configurations measured first, the first of
 * them where the database stands today for these problems (reported as
 * "the database's"); those outside the space go to their nearest legal
 * configuration in it. It stops after the candidate in flight once
 * time_budget (0: none) is spent on its own clock. With --from-journal it
 * takes the journal's best instead, measuring nothing. */
#define MAX_SEEDS (OCLBLAS__MAX_CLASSES + 2)
typedef struct {
    int kernel;
    const tune_class *cls;
    const tune_size *sizes;
    int num_sizes;
    const oclblas__params *seeds;
    int num_seeds;
    double time_budget;
    long config_budget;
} search_spec;

/* The kernel's space: the table's values or --values', and for a class
 * its tiles no wider than its problems (the rest is padding). */
static int make_space(const tune_options *o, const tune_device *d, const search_spec *s, tune_space *space)
{
    char err[512];
    if (!tune_space_init(space, s->kernel, &d->info->lim, err, sizeof err)) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        return 0;
    }
    for (int i = 0; i < o->num_values; ++i)
        if (o->values[i].kernel == s->kernel && !tune_space_restrict(space, o->values[i].text, err, sizeof err))
            goto refused;
    for (int i = 0; s->cls && i < space->num_params; ++i) {
        const char along = oclblas__kernels[s->kernel]->params[i].along;
        size_t most = 0;
        for (int z = 0; z < s->num_sizes && along; ++z) {
            const size_t v = along == 'm' ? s->sizes[z].m : along == 'n' ? s->sizes[z].n : s->sizes[z].k;
            most = v > most ? v : most;
        }
        size_t cap = 1;
        while (cap < most)
            cap *= 2;
        if (along && !tune_space_cap(space, i, cap > (size_t)1 << 30 ? 1 << 30 : (int)cap, err, sizeof err))
            goto refused;
    }
    return 1;
refused:
    fprintf(stderr, "oclblas-tune: %s\n", err);
    tune_space_free(space);
    return 0;
}

/* The seeds' codes in the space, each once; *seed: the first seed's
 * configuration (the database's), when it has one. Returns how many. */
static int seed_codes(const tune_options *o, tune_space *space, const search_spec *s, uint64_t codes[MAX_SEEDS],
                      oclblas__params *seed, int *have_seed)
{
    int n = 0;
    *have_seed = 0;
    for (int i = 0; i < s->num_seeds && o->seed_db; ++i) {
        uint64_t code;
        if (!tune_space_nearest(space, &s->seeds[i], &code))
            continue;
        int dup = 0;
        for (int c = 0; c < n; ++c)
            dup |= codes[c] == code;
        if (dup)
            continue;
        if (i == 0) {
            *have_seed = 1;
            tune_space_params(space, code, seed);
        }
        codes[n++] = code;
    }
    return n;
}

/* The line that opens a search. */
static void say_search(const kernel_run *kr, const search_spec *s, int have_seed, int num_codes)
{
    char budget[96] = "none", tb[32];
    tune_format_duration(s->time_budget, tb, sizeof tb);
    if (s->time_budget > 0 && s->config_budget > 0)
        snprintf(budget, sizeof budget, "%s or %ld configurations", tb, s->config_budget);
    else if (s->time_budget > 0)
        snprintf(budget, sizeof budget, "%s", tb);
    else if (s->config_budget > 0)
        snprintf(budget, sizeof budget, "%ld configurations", s->config_budget);
    fprintf(stderr, "%s: %s search, problem %s, budget %s, %llu combinations%s\n", kr->kname,
            tune_strategy_name(kr->o->strategy.kind), kr->problem, budget, (unsigned long long)kr->space->product,
            have_seed ? ", starting from the database's" : num_codes ? ", starting from the sets found so far" : "");
}

/* The search itself, on the space and bench made for it; its outcome into res. */
static int run_search(tune_run *r, const search_spec *s, kernel_run *kr, const uint64_t *codes, int num_codes,
                      int have_seed, tune_result *res)
{
    const tune_options *o = &r->o;
    char err[512];
    tune_strategy *st = tune_strategy_new(kr->space, &o->strategy, codes, num_codes, err, sizeof err);
    if (!st) {
        fprintf(stderr, "oclblas-tune: %s: %s\n", kr->kname, err);
        return 0;
    }
    kr->o = o;
    kr->d = &r->d;
    kr->workers = r->workers;
    kr->journal = r->journal;
    kr->tty = isatty(STDERR_FILENO);
    kr->start = tune_now();
    kr->budget = &r->budget;
    kr->time_budget = s->time_budget;
    kr->cls_index = s->cls ? (int)(s->cls - o->classes) : -1;
    if (!o->quiet)
        say_search(kr, s, have_seed, num_codes);
    tune_budget b = {s->config_budget, s->time_budget};
    tune_outcome out;
    const int ok = tune_search(kr->space, st, &b, eval, kr, progress, kr, &out);
    if (kr->tty && !o->quiet)
        fputc('\n', stderr);
    res->found = ok && out.found;
    if (res->found)
        tune_space_params(kr->space, out.best, &res->best);
    res->best_rec = kr->best;
    res->seed_rec = kr->seed_rec;
    res->seed_measured = kr->seed_measured;
    res->measured = kr->measured;
    res->replayed = kr->replayed;
    res->failed = kr->failed[1] + kr->failed[2] + kr->failed[3];
    res->clock = res->own_clock = out.clock;
    res->stop = out.stop;
    oclblas__strlcpy(res->problem, kr->problem, sizeof res->problem);
    if (!o->quiet) {
        fprintf(stderr, "%s: %s after %ld configurations (%ld measured, %ld from the journal, %ld failed)\n",
                kr->kname, tune_stop_name(out.stop), out.evaluated, kr->measured, kr->replayed, res->failed);
        if (res->found)
            fprintf(stderr, "%s: best %.1f %s: %s\n", kr->kname, kr->best.rate, tune_unit(s->kernel), kr->best_text);
    }
    tune_bench_keep(kr->best_hold);
    tune_strategy_free(st);
    return 1;
}

static int search_kernel(tune_run *r, const search_spec *s, tune_result *res)
{
    /* The kernel's clock runs from here: what comes before its first measurement is its cost too. */
    const double meter = tune_now();
    memset(res, 0, sizeof *res);
    tune_space space;
    if (!make_space(&r->o, &r->d, s, &space))
        return 0;
    /* Where the database stands today, and the other starting points. */
    oclblas__params seed = {{-1}};
    uint64_t codes[MAX_SEEDS];
    int have_seed;
    const int num_codes = seed_codes(&r->o, &space, s, codes, &seed, &have_seed);
    char err[512];
    tune_bench_opts bo = {r->o.runs, r->o.screen};
    tune_bench *bench = tune_bench_new(&r->d, s->kernel, s->sizes, s->num_sizes, &bo, s->cls, err, sizeof err);
    if (!bench) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        tune_space_free(&space);
        return 0;
    }
    int ok = 1;
    if (r->o.from_journal) {
        tune_bench_problem(bench, res->problem, sizeof res->problem);
        best_in_journal(&r->o, r->journal, s->kernel, s->cls, have_seed ? &seed : NULL, res);
    } else {
        kernel_run kr;
        memset(&kr, 0, sizeof kr);
        kr.space = &space;
        kr.bench = bench;
        kr.kname = oclblas__kernels[s->kernel]->name;
        kr.seed = seed;
        kr.meter = meter;
        tune_bench_problem(bench, kr.problem, sizeof kr.problem);
        ok = run_search(r, s, &kr, codes, num_codes, have_seed, res);
    }
    tune_bench_free(bench);
    tune_space_free(&space);
    return ok;
}

/* Whether a class tunes a kernel: the kernel is tuned per class and the
 * class has problems of its form. */
static int class_tunes(const tune_class *c, int kernel)
{
    const oclblas__tuning *tu = tuning_of(kernel);
    tune_size sizes[TUNE_MAX_CLASS_SIZES];
    return tu && tu->per_class && (tu->form == OCLBLAS__FORM_GEMM || tu->form == OCLBLAS__FORM_GEMV) &&
           tune_class_sizes(c, tu->form == OCLBLAS__FORM_GEMV, sizes) > 0;
}

/* Sets that entries for other devices of the same architecture (the H100
 * for the H200 and back) hold for the kernel, for every shape (cls NULL)
 * or for the class of that name: good starting points found elsewhere. */
static int sibling_seeds(const tune_device *d, int kernel, const char *cls, oclblas__params *out, int max)
{
    int n = 0;
    if (oclblas__db_hidden_levels() >= 2) /* OCLBLAS_DATABASE_HIDE: as a device of an architecture nobody tuned */
        return 0;
    for (size_t i = 0; i < oclblas__db_builtin_count && n < max && d->info->arch[0]; ++i) {
        const oclblas__db_entry *e = &oclblas__db_builtin[i];
        if (!e->name[0] || !oclblas__strcaseeq(e->arch, d->info->arch) || oclblas__strcaseeq(e->name, d->info->name))
            continue;
        const int *v = NULL;
        if (!cls && (e->has & (1u << kernel)))
            v = e->values[kernel];
        for (int c = 0; cls && c < e->num_classes; ++c)
            if (!strcmp(e->classes[c].cls.name, cls) &&
                e->classes[c].given[kernel] == (1u << oclblas__kernels[kernel]->num_params) - 1)
                v = e->classes[c].values[kernel];
        if (v)
            memcpy(out[n++].v, v, sizeof out[0].v);
    }
    return n;
}

/* A kernel's searches: its set for every shape, then a set for each class
 * that tunes it, each class seeded with the set the database gives its
 * first problem today (start), the set for every shape just found and the
 * classes' sets found before it; each search also with the sets of the
 * same architecture's other devices. The time budget (the kernel's share
 * of the run's, 0: none) is shared out, the set for every shape (what
 * every problem of no class runs with) counting twice, time a search
 * leaves unused passing on to the next; res->clock is the sum. Once it is
 * spent no class search starts, so the kernel ends within its budget plus
 * the candidate in flight, as one search does. */
static int tune_kernel(tune_run *r, int kernel, const oclblas__devctx *start, double time_budget, long config_budget)
{
    const tune_options *o = &r->o;
    tune_result *res = &r->results[kernel], *class_res = r->class_results[kernel];
    int searches = 2;
    for (int c = 0; c < o->num_classes; ++c)
        searches += class_tunes(&o->classes[c], kernel);
    oclblas__params seeds[MAX_SEEDS];
    int num_seeds = 0;
    if (r->d.cx.status[kernel] == OCLBLAS_SUCCESS)
        seeds[num_seeds++] = r->d.cx.params[kernel];
    num_seeds += sibling_seeds(&r->d, kernel, NULL, seeds + num_seeds, MAX_SEEDS - num_seeds);
    for (int c = 0; c < o->num_classes; ++c)
        memset(&class_res[c], 0, sizeof class_res[c]);
    const search_spec every = {kernel, NULL, o->sizes[kernel], o->num_sizes[kernel], seeds, num_seeds,
                               time_budget > 0 ? 2 * time_budget / searches : 0, config_budget};
    if (!search_kernel(r, &every, res))
        return 0;
    double left = time_budget - res->clock;
    int done = 2;
    for (int c = 0; c < o->num_classes && !tune_interrupted(); ++c) {
        const tune_class *cls = &o->classes[c];
        if (!class_tunes(cls, kernel))
            continue;
        /* The kernel's share is spent (or the whole run's, on the wall): the class keeps the set for every shape. */
        if (time_budget > 0 && !o->from_journal &&
            (left <= 0 || (r->budget.total > 0 && tune_run_budget_spent(&r->budget) >= r->budget.total))) {
            fprintf(stderr, "%s, class %s: not tuned: the time budget is spent; the class keeps the set for every "
                    "shape\n", oclblas__kernels[kernel]->name, cls->cls.name);
            class_res[c].out_of_time = 1;
            continue;
        }
        tune_size sizes[TUNE_MAX_CLASS_SIZES];
        const int n = tune_class_sizes(cls, tuning_of(kernel)->form == OCLBLAS__FORM_GEMV, sizes);
        num_seeds = 0;
        oclblas_status st;
        const oclblas__shape first = {.m = sizes[0].m, .n = sizes[0].n, .k = sizes[0].k ? sizes[0].k : 1};
        const oclblas__params *today = oclblas__devctx_params(start, kernel, &first, &st);
        if (today)
            seeds[num_seeds++] = *today;
        if (res->found)
            seeds[num_seeds++] = res->best;
        for (int e = 0; e < c; ++e)
            if (class_res[e].found && num_seeds < MAX_SEEDS)
                seeds[num_seeds++] = class_res[e].best;
        num_seeds += sibling_seeds(&r->d, kernel, cls->cls.name, seeds + num_seeds, MAX_SEEDS - num_seeds);
        const search_spec one = {kernel, cls, sizes, n, seeds, num_seeds,
                                 time_budget > 0 ? left / (searches - done) : 0, config_budget};
        if (!search_kernel(r, &one, &class_res[c]))
            return 0;
        left -= class_res[c].clock;
        res->clock += class_res[c].clock;
        ++done;
        /* (From a journal, best_in_journal said why.) */
        if (!class_res[c].found && !o->from_journal && class_res[c].measured + class_res[c].replayed > 0)
            fprintf(stderr, "oclblas-tune: %s, class %s: no configuration built, ran and checked out; the class "
                    "keeps the set for every shape\n", oclblas__kernels[kernel]->name, cls->cls.name);
    }
    return 1;
}

/* The classes' sets of a kernel found by this run go into the tuner's
 * context (after its set for every shape) and the entry. */
static void install_classes(tune_run *r, int kernel)
{
    const tune_result *class_res = r->class_results[kernel];
    tune_device *d = &r->d;
    d->cx.num_classes[kernel] = 0;
    for (int c = 0; c < r->o.num_classes; ++c) {
        if (!class_res[c].found)
            continue;
        oclblas__class_set *cs = &d->cx.classes[kernel][d->cx.num_classes[kernel]++];
        cs->cls = r->o.classes[c].cls;
        cs->params = class_res[c].best;
        r->entry.classes[c].given[kernel] = (1u << oclblas__kernels[kernel]->num_params) - 1;
        r->entry.classes[c].params[kernel] = class_res[c].best;
        r->changed[kernel] = 1;
    }
}

/* A kernel's winner for every shape into the context and the entry. */
static void install_kernel(tune_run *r, int k)
{
    const tune_result *res = &r->results[k];
    if (res->found) {
        r->entry.has[k] = 1;
        r->entry.params[k] = res->best;
        r->changed[k] = 1;
        tune_device_set(&r->d, k, &res->best);
    } else if (r->o.from_journal && res->replayed == 0) {
        /* Not in the journal (said above): left out, as a kernel the run did not reach. */
    } else {
        fprintf(stderr, "oclblas-tune: %s: no configuration built, ran and checked out; the entry leaves it out\n",
                oclblas__kernels[k]->name);
        r->status = EXIT_PARTIAL;
    }
    install_classes(r, k);
}

int tune_run_kernels(tune_run *r)
{
    const tune_options *o = &r->o;
    const oclblas__devctx start = r->d.cx; /* where the database stands: the classes' first seeds */
    for (int k = 0; k < OCLBLAS__K_COUNT && !tune_interrupted(); ++k) {
        if (!o->selected[k] || !tuning_of(k))
            continue;
        double weights = 0, share;
        for (int m = k; m < OCLBLAS__K_COUNT; ++m)
            if (o->selected[m] && tuning_of(m) && o->time_kernel[m] <= 0)
                weights += tuning_of(m)->share;
        if (!tune_run_budget_kernel(&r->budget, o->time_kernel[k], tuning_of(k)->share, weights, &share)) {
            fprintf(stderr, "%s: not tuned: the time budget is spent\n", oclblas__kernels[k]->name);
            r->out_of_time[k] = 1;
            continue;
        }
        long configs = o->configs_kernel[k] > 0 ? o->configs_kernel[k] : o->configs_all;
        /* Annealing and PSO never run out of configurations by themselves. */
        if (configs <= 0 && share <= 0 && o->strategy.kind != TUNE_FULL && o->strategy.kind != TUNE_RANDOM)
            configs = DEFAULT_CONFIGS;
        if (!tune_kernel(r, k, &start, share, configs)) {
            r->status = EXIT_USAGE;
            return 0;
        }
        r->searched[k] = 1;
        install_kernel(r, k);
    }
    return 1;
}

/* The routine values' options: their candidates from the table or --values. */
static int routine_opts(tune_run *r, tune_routine_opts *ro)
{
    const tune_options *o = &r->o;
    memset(ro, 0, sizeof *ro);
    ro->budget = &r->budget;
    ro->runs = o->runs;
    ro->quiet = o->quiet;
    ro->gemv_long = o->gemv_long;
    ro->gemv_short = o->gemv_short;
    ro->gemv_square = o->gemv_square;
    ro->classes = o->classes;
    ro->num_classes = o->num_classes;
    char err[512];
    tune_space rs;
    tune_space_init(&rs, OCLBLAS__K_ROUTINE, NULL, err, sizeof err);
    for (int v = 0; v < o->num_values; ++v)
        if (o->values[v].kernel == OCLBLAS__K_ROUTINE &&
            !tune_space_restrict(&rs, o->values[v].text, err, sizeof err)) {
            fprintf(stderr, "oclblas-tune: %s\n", err);
            tune_space_free(&rs);
            return 0;
        }
    for (int v = 0; v < RT_COUNT; ++v) {
        ro->tune[v] = 1;
        ro->num_values[v] = rs.num_values[v];
        memcpy(ro->values[v], rs.values[v], sizeof ro->values[v]);
    }
    tune_space_free(&rs);
    return 1;
}

int tune_run_routine(tune_run *r)
{
    const tune_options *o = &r->o;
    tune_routine_opts ro;
    if (!routine_opts(r, &ro)) {
        r->status = EXIT_USAGE;
        return 0;
    }
    char err[512];
    int tuned[RT_COUNT] = {0}, any_tuned = 0;
    unsigned class_given[OCLBLAS__MAX_CLASSES] = {0};
    oclblas__params class_values[OCLBLAS__MAX_CLASSES];
    const int done = tune_routine(&r->d, &ro, r->journal, tuned, class_given, class_values, r->routine_summary,
                                  sizeof r->routine_summary, err, sizeof err);
    for (int v = 0; v < RT_COUNT; ++v)
        any_tuned |= tuned[v];
    for (int c = 0; c < o->num_classes; ++c)
        any_tuned |= class_given[c] != 0;
    /* From a journal without routine values, as from a run stopped before them: none in the entry. */
    r->changed[OCLBLAS__K_ROUTINE] = any_tuned;
    tune_entry *e = &r->entry;
    if (done && (any_tuned || !o->from_journal)) {
        e->has[OCLBLAS__K_ROUTINE] = 1;
        memset(&e->params[OCLBLAS__K_ROUTINE], 0, sizeof e->params[0]);
        e->params[OCLBLAS__K_ROUTINE] = r->d.cx.params[OCLBLAS__K_ROUTINE];
        for (int c = 0; c < o->num_classes; ++c) {
            e->classes[c].given[OCLBLAS__K_ROUTINE] = class_given[c];
            e->classes[c].params[OCLBLAS__K_ROUTINE] = class_values[c];
        }
        r->searched[OCLBLAS__K_ROUTINE] = 1;
        tune_so_far_set(OCLBLAS__K_ROUTINE, -1, 0, &e->params[OCLBLAS__K_ROUTINE], "");
        for (int c = 0; c < o->num_classes; ++c)
            tune_so_far_set(OCLBLAS__K_ROUTINE, c, class_given[c], &class_values[c], "");
    }
    if (!o->quiet)
        fprintf(stderr, "routine values:\n%s", r->routine_summary);
    return 1;
}
