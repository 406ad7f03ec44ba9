/*
 * oclblas-tune-replay: the strategies' convergence on a recorded space.
 * A recording (tuner/recordings/, format in the tuner's README) is a
 * kernel's search space, restricted by --values text, under a device's
 * limits, with every legal configuration measured once on one problem: the
 * journal lines of an `oclblas-tune -s full` run. This program checks that
 * the recording covers the space, then runs each strategy over it offline,
 * with the recorded costs standing in for the device, from random starts
 * (no database seed) for each of N seeds, and prints how many evaluations
 * each needed to measure a configuration within 95% of the space's best
 * rate. --max-median N exits 1 when the default strategy's median exceeds
 * N: the test that a change to a strategy does not slow it down.
 */
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096
#define MAX_SEEDS 100
#define NEVER (1L << 40) /* evaluations of a search that did not get there */

typedef struct {
    tune_space space;
    tune_map cost;      /* code -> seconds (INFINITY: failed) */
    char problem[256];  /* the journal's problem text */
    double best;        /* the lowest cost */
    double target;      /* cost within 95% of the best rate */
    long within;        /* configurations that meet it */
} recording;

static int refuse(const char *path, long line, const char *what)
{
    fprintf(stderr, "oclblas-tune-replay: %s:%ld: %s\n", path, line, what);
    return 0;
}

/* "limits WG X,Y,Z LOCAL CC" */
static int parse_limits(const char *text, oclblas__limits *lim)
{
    unsigned long long wg, x, y, z, local;
    int cc;
    if (sscanf(text, "%llu %llu,%llu,%llu %llu %d", &wg, &x, &y, &z, &local, &cc) != 6)
        return 0;
    *lim = (oclblas__limits){(size_t)wg, {(size_t)x, (size_t)y, (size_t)z}, local, cc};
    return 1;
}

/* The header (kernel, limits, values, problem), then the journal's lines of that kernel and problem. */
static int load(const char *path, recording *r)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 0;
    }
    memset(r, 0, sizeof *r);
    char line[MAX_LINE], err[256], values[1024] = "";
    int kernel = -1, have_lim = 0;
    oclblas__limits lim;
    long n = 0;
    int ok = 1;
    while (ok && fgets(line, sizeof line, f)) {
        ++n;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        char *tab = strchr(line, '\t');
        if (!tab) {
            ok = refuse(path, n, "a line without a tab");
            break;
        }
        *tab = '\0';
        const char *rest = tab + 1;
        if (!strcmp(line, "kernel")) {
            kernel = oclblas__kernel_by_name(rest);
            ok = kernel >= 0 || refuse(path, n, "unknown kernel");
        } else if (!strcmp(line, "limits")) {
            ok = (have_lim = parse_limits(rest, &lim)) || refuse(path, n, "limits: WG X,Y,Z LOCAL CC");
        } else if (!strcmp(line, "values")) {
            oclblas__strlcpy(values, rest, sizeof values);
        } else if (!strcmp(line, "problem")) {
            oclblas__strlcpy(r->problem, rest, sizeof r->problem);
            if (kernel < 0 || !have_lim || !values[0]) {
                ok = refuse(path, n, "kernel, limits and values come before the problem");
                break;
            }
            ok = tune_space_init(&r->space, kernel, &lim, err, sizeof err);
            for (char *save = NULL, *t = strtok_r(values, ":", &save); ok && t; t = strtok_r(NULL, ":", &save))
                ok = tune_space_restrict(&r->space, t, err, sizeof err);
            ok = (ok && tune_space_enumerate(&r->space, TUNE_ENUM_LIMIT, err, sizeof err)) || refuse(path, n, err);
        } else if (!strcmp(line, oclblas__kernels[kernel < 0 ? 0 : kernel]->name) && r->problem[0]) {
            /* A journal line: problem, configuration, status, cost, ... */
            char *f1 = strtok(tab + 1, "\t"), *f2 = strtok(NULL, "\t"), *f3 = strtok(NULL, "\t"),
                 *f4 = strtok(NULL, "\t");
            if (!f4)
                ok = refuse(path, n, "a journal line cut short");
            if (!ok || strcmp(f1, r->problem) != 0)
                continue;
            oclblas__params p = {{0}};
            unsigned given = 0;
            uint64_t code;
            if (oclblas__params_parse(kernel, f2, &p, &given) != OCLBLAS_SUCCESS || !tune_space_encode(&r->space, &p, &code)) {
                ok = refuse(path, n, "a configuration outside the space");
                break;
            }
            const double c = !strcmp(f3, "ok") ? strtod(f4, NULL) : INFINITY;
            ok = (c > 0 && tune_map_put(&r->cost, code, c)) || refuse(path, n, "a cost that is not a positive number");
        } else {
            ok = refuse(path, n, "a line of another kernel, or before the problem");
        }
    }
    fclose(f);
    if (!ok)
        return 0;
    if (!r->space.enumerated)
        return refuse(path, n, "no problem line");
    /* Every legal configuration measured, nothing else. */
    r->best = INFINITY;
    for (size_t i = 0; i < r->space.num_legal; ++i) {
        double c;
        if (!tune_map_get(&r->cost, r->space.legal[i], &c)) {
            char text[512];
            tune_space_format(&r->space, r->space.legal[i], text, sizeof text);
            fprintf(stderr, "oclblas-tune-replay: %s does not hold %s: not a whole space (%zu legal, %zu recorded)\n",
                    path, text, r->space.num_legal, r->cost.count);
            return 0;
        }
        if (c < r->best)
            r->best = c;
    }
    if (r->cost.count != r->space.num_legal || !isfinite(r->best))
        return refuse(path, n, "configurations outside the legal space, or none that ran");
    r->target = r->best / 0.95;
    for (size_t i = 0; i < r->space.num_legal; ++i) {
        double c;
        tune_map_get(&r->cost, r->space.legal[i], &c);
        r->within += c <= r->target;
    }
    return 1;
}

typedef struct {
    const recording *r;
    long evaluations, reached_at;
} replay;

static int replay_eval(void *ctx, const uint64_t *codes, int n, double *cost, double *charged)
{
    replay *rp = ctx;
    for (int i = 0; i < n; ++i) {
        if (!tune_map_get(&rp->r->cost, codes[i], &cost[i]))
            cost[i] = INFINITY; /* cannot happen: the space is whole */
        charged[i] = 1.0;
        ++rp->evaluations;
        if (cost[i] <= rp->r->target && !rp->reached_at)
            rp->reached_at = rp->evaluations;
    }
    return 0;
}

/* Evaluations one search needed to get within 95%, NEVER if it did not within the budget. */
static long search_once(recording *r, tune_strategy_kind kind, uint64_t seed, long budget, int batch)
{
    tune_strategy_opts o;
    tune_strategy_defaults(&o);
    o.kind = kind;
    o.seed = seed;
    o.count = budget;
    o.batch = batch;
    o.swarm = batch > 8 ? batch : 8;
    char err[256];
    tune_strategy *st = tune_strategy_new(&r->space, &o, NULL, 0, err, sizeof err);
    if (!st) {
        fprintf(stderr, "oclblas-tune-replay: %s\n", err);
        exit(2);
    }
    replay rp = {r, 0, 0};
    tune_budget b = {budget, 0};
    tune_outcome out;
    if (!tune_search(&r->space, st, &b, replay_eval, &rp, NULL, NULL, &out)) {
        fprintf(stderr, "oclblas-tune-replay: out of memory\n");
        exit(2);
    }
    tune_strategy_free(st);
    return rp.reached_at ? rp.reached_at : NEVER;
}

static int cmp_long(const void *a, const void *b)
{
    const long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void format_count(long v, long budget, char *buf, size_t len)
{
    if (v == NEVER)
        snprintf(buf, len, "> %ld", budget);
    else
        snprintf(buf, len, "%ld", v);
}

int main(int argc, char **argv)
{
    int seeds = 20, batch = 2;
    long budget = 200, max_median = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        if (!strcmp(a, "--seeds") && v && tune_parse_long(v, 1, MAX_SEEDS, &x))
            seeds = (int)x, ++i;
        else if (!strcmp(a, "--budget") && v && tune_parse_long(v, 1, 1000000, &x))
            budget = x, ++i;
        else if (!strcmp(a, "--batch") && v && tune_parse_long(v, 1, 64, &x))
            batch = (int)x, ++i;
        else if (!strcmp(a, "--max-median") && v && tune_parse_long(v, 1, 1000000, &x))
            max_median = x, ++i;
        else if (a[0] != '-' && !path)
            path = a;
        else {
            fprintf(stderr, "usage: oclblas-tune-replay [--seeds N (20)] [--budget N (200)] [--batch N (2)] "
                            "[--max-median N] RECORDING\n");
            return 2;
        }
    }
    recording r;
    if (!path || !load(path, &r))
        return 2;
    if (budget > (long)r.space.num_legal)
        budget = (long)r.space.num_legal;
    printf("%s: %s %s, %zu legal configurations, best %.4g ms, %ld within 95%% of its rate; "
           "budget %ld, batch %d, %d seeds, random starts\n",
           path, oclblas__kernels[r.space.kernel]->name, r.problem, r.space.num_legal, r.best * 1e3, r.within, budget,
           batch, seeds);
    printf("| strategy | evaluations to 95%% of the optimum: median | min | max | never (of %d) |\n", seeds);
    printf("| --- | --- | --- | --- | --- |\n");
    int status = 0;
    static const tune_strategy_kind kinds[] = {TUNE_FULL, TUNE_RANDOM, TUNE_ANNEALING, TUNE_PSO};
    tune_strategy_opts defaults;
    tune_strategy_defaults(&defaults);
    for (int s = 0; s < 4; ++s) {
        long got[MAX_SEEDS];
        const int runs = kinds[s] == TUNE_FULL ? 1 : seeds; /* full search is the same from every seed */
        int never = 0;
        for (int i = 0; i < runs; ++i) {
            got[i] = search_once(&r, kinds[s], (uint64_t)i + 1, budget, batch);
            never += got[i] == NEVER;
        }
        qsort(got, (size_t)runs, sizeof *got, cmp_long);
        /* The median of an even count: the mean of the middle two, rounded up (NEVER if either is). */
        const long lo = got[(runs - 1) / 2], hi = got[runs / 2];
        const long median = lo == NEVER || hi == NEVER ? NEVER : (lo + hi + 1) / 2;
        char med[32], mn[32], mx[32];
        format_count(median, budget, med, sizeof med);
        format_count(got[0], budget, mn, sizeof mn);
        format_count(got[runs - 1], budget, mx, sizeof mx);
        printf("| %s%s | %s | %s | %s | %d |\n", tune_strategy_name(kinds[s]),
               kinds[s] == defaults.kind ? " (default)" : "", med, mn, mx, never);
        if (kinds[s] == defaults.kind && max_median && median > max_median) {
            fprintf(stderr, "oclblas-tune-replay: the default strategy's median, %s evaluations, exceeds %ld\n", med,
                    max_median);
            status = 1;
        }
    }
    tune_map_free(&r.cost);
    tune_space_free(&r.space);
    return status;
}
