/*
 * oclblas-tune: tunes oclblas's kernels and routine-level values for one
 * OpenCL device and writes a database entry. For each kernel of the kernel
 * list in turn (src/kernels.def: its descriptor says how it is timed) a
 * strategy searches the kernel's legal configurations, seeded with what
 * the database gives the device today; candidates are built in worker
 * threads or processes a batch at a time, then checked and timed one by
 * one; every outcome goes to the journal at once. The winner of each kernel
 * goes into the tuner's device context before the next kernel (the helpers
 * pad to the tuned tile, gemv's reduction uses the tuned helpers), and the
 * routine crossovers are measured last, with everything tuned. The entry is
 * then written, loaded back through oclblas_database_load, and checked
 * with a few calls that exercise each plan.
 */
#define _GNU_SOURCE /* nftw */
#include "budget.h"
#include "interrupt.h"
#include "json.h"
#include "kernel_gemm_fast.h"
#include "measure.h"

#include <ctype.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_PARTIAL = 1, EXIT_USAGE = 2, EXIT_SETUP = 3, EXIT_INTERRUPTED = TUNE_EXIT_INTERRUPTED };
enum { BUILD_AUTO, BUILD_THREADS, BUILD_PROCESSES };

/* The kernels are tuned in the order of the kernel list (src/kernels.def),
 * each one that has a tuning in its descriptor, which also gives its share
 * of a whole-run time budget; the routine values come last. */
static const oclblas__tuning *tuning_of(int k) { return oclblas__kernels[k]->tuning; }
#define ROUTINE_RESERVE 0.06 /* of a whole-run budget, set aside for the routine values */
#define DEFAULT_CONFIGS 200  /* per kernel, for a search that has no other budget */
#define MAX_VALUES_OPTS 64

typedef struct {
    int kernel;
    char text[256];
} values_opt;

typedef struct {
    const char *device, *output, *journal, *cache_dir;
    int fresh, list, quiet, jobs, runs, seed_db;
    const char *from_journal; /* write the entry from this journal, measuring nothing */
    int build_mode; /* BUILD_AUTO, BUILD_THREADS, BUILD_PROCESSES */
    int selected[OCLBLAS__K_COUNT];
    tune_strategy_opts strategy;
    double time_total;
    double time_kernel[OCLBLAS__K_COUNT];
    long configs_all;
    long configs_kernel[OCLBLAS__K_COUNT];
    double screen;
    values_opt values[MAX_VALUES_OPTS];
    int num_values;
    tune_size sizes[OCLBLAS__K_COUNT][8];
    int num_sizes[OCLBLAS__K_COUNT];
    size_t gemv_long, gemv_short, gemv_square;
    char command[2048];
} options;

/* The kernels a strategy searches, and their shares of a time budget, from the list. */
static void list_kernels(char *names, size_t names_len, char *shares, size_t shares_len)
{
    size_t u = 0, v = 0;
    names[0] = shares[0] = '\0';
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (!tuning_of(k))
            continue;
        if (u < names_len)
            u += (size_t)snprintf(names + u, names_len - u, "%s, ", oclblas__kernels[k]->name);
        if (v < shares_len)
            v += (size_t)snprintf(shares + v, shares_len - v, "%s%s %.0f%%", v ? ", " : "", oclblas__kernels[k]->name,
                                  100.0 * tuning_of(k)->share);
    }
}

static void usage(FILE *f)
{
    char names[512], shares[512];
    list_kernels(names, sizeof names, shares, sizeof shares);
    fprintf(f,
"Usage: oclblas-tune [options]\n"
"Tunes oclblas's kernels and routine-level values for one OpenCL device, and writes\n"
"a database entry. The kernels, in the order they are tuned:\n"
"  %sroutine\n"
"\n"
"Device and files:\n"
"  -d, --device SPEC        gpu, cpu, accelerator, P:D (platform:device), or part of the\n"
"                           device name (default: $OCLBLAS_DEVICE, else the first GPU,\n"
"                           accelerator, CPU)\n"
"  -o, --output FILE        the entry to write (default: oclblas-VENDOR-NAME.json)\n"
"  -j, --journal FILE       the journal (default: OUTPUT.journal); an existing journal of\n"
"                           the same device is resumed: what it records is not measured again\n"
"      --fresh              start the journal over\n"
"      --from-journal FILE  write the entry from the journal FILE, measuring nothing: each\n"
"                           kernel's best configuration there (give the run's -k, --size\n"
"                           and --values), the routine values where it has all they need\n"
"  -k, --kernels LIST       comma-separated among the kernels above and routine (default: all)\n"
"Search:\n"
"  -s, --strategy NAME      full, random, annealing (default) or pso\n"
"      --seed N             random seed (default 1): the same seed repeats the search\n"
"      --fraction F         random: this fraction of the legal configurations\n"
"      --count N            random: this many configurations (default 100)\n"
"      --batch N            configurations built at once per step (default: --jobs)\n"
"      --swarm N            pso: particles (default: 8, or --jobs if more)\n"
"      --temperature T0,T1  annealing: start and end temperature, as the relative loss\n"
"                           accepted with probability 1/e (default 0.1,0.002)\n"
"      --no-database-seed   do not start from the configuration the database gives\n"
"      --values K:NAME=V,V[:NAME=V,...]\n"
"                           the candidate values of parameters of kernel K (repeatable),\n"
"                           e.g. gemm_fast:MWG=64,128:SA=1; any value in the parameter's\n"
"                           legal range; for routine, the sizes at which crossovers are\n"
"                           measured and chosen\n"
"Budgets (the search of a kernel ends at the first one spent):\n"
"  -t, --time-budget SEC    seconds for the whole run, shared out among the kernels, each\n"
"                           taking its share of what is left when its turn comes, after\n"
"                           6%% set aside for the routine values:\n"
"                           %s.\n"
"                           Nothing starts once it is spent; the run ends within SEC plus\n"
"                           the candidate in flight, then writes and checks the entry.\n"
"                           Or K=SEC for one kernel (repeatable; within the whole run's)\n"
"  -n, --max-configs N      configurations per kernel, or K=N for one kernel (repeatable);\n"
"                           default 200 for a kernel that has no time budget\n"
"                           Time is the run's wall time plus what the records it takes from\n"
"                           the journal cost, so a resumed run continues the same budget.\n"
"Measurement:\n"
"      --size K=MxNxK[,MxNxK...]\n"
"                           problem sizes of kernel K (MxNxK for products, MxN for gemv\n"
"                           kernels, ROWSxCOLS of an operand for copies; routine:\n"
"                           LONGxSHORTxSQUARE, the gemv\n"
"                           shapes for GEMV_GROUPS_PER_CU); with several sizes a candidate\n"
"                           is rated by the geometric mean of its rates\n"
"      --runs N             timed runs per candidate after the checked one (default 5)\n"
"      --screen X           a candidate whose first timed run is X times slower than the\n"
"                           best gets no more runs (default 3)\n"
"  -J, --jobs N             candidates compiled at once (default: the host's cores, at most 16)\n"
"      --build MODE         threads, processes, or auto (default): processes on NVIDIA, whose\n"
"                           driver compiles one program at a time per process, threads elsewhere\n"
"      --cache-dir DIR      keep compiled binaries in DIR. By default this process runs with\n"
"                           OCLBLAS_CACHE_DIR=off (build processes: a private temporary folder)\n"
"                           and, unless they are set, CUDA_CACHE_PATH in a private temporary\n"
"                           folder and POCL_KERNEL_CACHE=0, so that hundreds of candidates do not\n"
"                           fill the user's cache folders; the temporary folder is removed at exit\n"
"Other:\n"
"      --list               print the search spaces and the plan, then exit\n"
"  -q, --quiet              no progress lines\n"
"  -h, --help               this text\n"
"  -V, --version            the version\n"
"\n"
"Interrupts: the first Ctrl-C (or SIGTERM) stops the run after the candidate in flight\n"
"and writes the entry from what was found; a second one writes it and stops at once.\n"
"\n"
"Exit status: 0 done; 1 some kernel found no working configuration, or the entry failed\n"
"its check; 2 bad options; 3 no device or journal; 130 interrupted (the entry holds what\n"
"was found so far, and the journal lets the next run resume).\n",
            names, shares);
}

static int bad_option(const char *fmt, const char *arg)
{
    fprintf(stderr, "oclblas-tune: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see oclblas-tune --help)\n");
    return 0;
}

/* "K=VALUE" or "VALUE": the kernel (-1 for all) and the value text. */
static int split_kernel(const char *arg, int *kernel, const char **value)
{
    const char *eq = strchr(arg, '=');
    *kernel = -1;
    *value = arg;
    if (!eq)
        return 1;
    char name[32];
    if ((size_t)(eq - arg) >= sizeof name)
        return 0;
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    *kernel = oclblas__kernel_by_name(name);
    *value = eq + 1;
    return *kernel >= 0;
}

static int parse_sizes(options *o, const char *arg)
{
    int k;
    const char *v;
    if (!split_kernel(arg, &k, &v) || k < 0)
        return bad_option("--size needs KERNEL=MxNxK[,...], got \"%s\"", arg);
    const int dims = k == OCLBLAS__K_ROUTINE || (tuning_of(k) && tuning_of(k)->form == OCLBLAS__FORM_GEMM) ? 3 : 2;
    int n = 0;
    for (const char *p = v; *p;) {
        size_t l = strcspn(p, ",");
        char item[64];
        if (l == 0 || l >= sizeof item || n == 8)
            return bad_option("bad --size list \"%s\"", arg);
        memcpy(item, p, l);
        item[l] = '\0';
        long x[3] = {0, 0, 0};
        int got = 0;
        for (char *tok = item, *save = NULL, *t; (t = strtok_r(tok, "x", &save)) != NULL; tok = NULL) {
            if (got == 3 || !tune_parse_long(t, 1, 1 << 20, &x[got]))
                return bad_option("bad size in \"%s\"", arg);
            ++got;
        }
        if (got != dims)
            return bad_option(dims == 3 ? "\"%s\": this kernel takes MxNxK sizes" : "\"%s\": this kernel takes MxN sizes",
                              arg);
        o->sizes[k][n].m = (size_t)x[0];
        o->sizes[k][n].n = (size_t)x[1];
        o->sizes[k][n].k = (size_t)x[2];
        ++n;
        p += l;
        if (*p)
            ++p;
    }
    if (k == OCLBLAS__K_ROUTINE) {
        if (n != 1)
            return bad_option("--size routine takes one LONGxSHORTxSQUARE, got \"%s\"", arg);
        o->gemv_long = o->sizes[k][0].m;
        o->gemv_short = o->sizes[k][0].n;
        o->gemv_square = o->sizes[k][0].k;
        return 1;
    }
    o->num_sizes[k] = n;
    return 1;
}

static int parse_budget(options *o, const char *arg, int time)
{
    int k;
    const char *v;
    if (!split_kernel(arg, &k, &v) || k == OCLBLAS__K_ROUTINE)
        return bad_option("bad budget \"%s\": SECONDS or KERNEL=SECONDS (not routine)", arg);
    if (time) {
        double t;
        if (!tune_parse_double(v, 0.001, 1e7, &t))
            return bad_option("bad time budget \"%s\"", arg);
        if (k < 0)
            o->time_total = t;
        else
            o->time_kernel[k] = t;
    } else {
        long n;
        if (!tune_parse_long(v, 1, 1000000000L, &n))
            return bad_option("bad configuration budget \"%s\"", arg);
        if (k < 0)
            o->configs_all = n;
        else
            o->configs_kernel[k] = n;
    }
    return 1;
}

static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longs[] = {
        {"device", 1, 0, 'd'},       {"output", 1, 0, 'o'},       {"journal", 1, 0, 'j'},
        {"fresh", 0, 0, 1},          {"kernels", 1, 0, 'k'},      {"strategy", 1, 0, 's'},
        {"seed", 1, 0, 2},           {"fraction", 1, 0, 3},       {"count", 1, 0, 4},
        {"batch", 1, 0, 5},          {"swarm", 1, 0, 6},          {"temperature", 1, 0, 7},
        {"values", 1, 0, 8},         {"time-budget", 1, 0, 't'},  {"max-configs", 1, 0, 'n'},
        {"size", 1, 0, 9},           {"runs", 1, 0, 10},          {"screen", 1, 0, 11},
        {"jobs", 1, 0, 'J'},         {"cache-dir", 1, 0, 12},     {"list", 0, 0, 13},
        {"quiet", 0, 0, 'q'},        {"help", 0, 0, 'h'},         {"version", 0, 0, 'V'},
        {"no-database-seed", 0, 0, 14}, {"build", 1, 0, 15}, {"from-journal", 1, 0, 16}, {0, 0, 0, 0}};
    int batch = 0, swarm = 0, any_kernel = 0;
    long n;
    double x;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":d:o:j:k:s:t:n:J:qhV", longs, NULL)) != -1) {
        switch (c) {
        case 'd': o->device = optarg; break;
        case 'o': o->output = optarg; break;
        case 'j': o->journal = optarg; break;
        case 1: o->fresh = 1; break;
        case 'k': {
            any_kernel = 1;
            char buf[256];
            oclblas__strlcpy(buf, optarg, sizeof buf);
            for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                const int k = oclblas__kernel_by_name(t);
                if (k < 0 && strcmp(t, "all") != 0)
                    return bad_option("unknown kernel \"%s\"", t);
                for (int i = 0; i < OCLBLAS__K_COUNT; ++i)
                    o->selected[i] |= k < 0 || i == k;
            }
            break;
        }
        case 's':
            if (!tune_strategy_parse(optarg, &o->strategy.kind))
                return bad_option("unknown strategy \"%s\" (full, random, annealing, pso)", optarg);
            break;
        case 2:
            if (!tune_parse_long(optarg, 0, 0x7fffffffL, &n))
                return bad_option("bad --seed \"%s\"", optarg);
            o->strategy.seed = (uint64_t)n;
            break;
        case 3:
            if (!tune_parse_double(optarg, 1e-9, 1.0, &o->strategy.fraction))
                return bad_option("--fraction needs a number in (0, 1], got \"%s\"", optarg);
            break;
        case 4:
            if (!tune_parse_long(optarg, 1, 1000000000L, &o->strategy.count))
                return bad_option("bad --count \"%s\"", optarg);
            break;
        case 5:
            if (!tune_parse_long(optarg, 1, 256, &n))
                return bad_option("--batch needs 1..256, got \"%s\"", optarg);
            batch = (int)n;
            break;
        case 6:
            if (!tune_parse_long(optarg, 1, 256, &n))
                return bad_option("--swarm needs 1..256, got \"%s\"", optarg);
            swarm = (int)n;
            break;
        case 7: {
            char *comma = strchr(optarg, ',');
            if (!comma)
                return bad_option("--temperature needs T0,T1, got \"%s\"", optarg);
            *comma = '\0';
            const int ok = tune_parse_double(optarg, 1e-9, 1e3, &o->strategy.temp_start) &&
                           tune_parse_double(comma + 1, 1e-9, 1e3, &o->strategy.temp_end);
            *comma = ',';
            if (!ok)
                return bad_option("bad --temperature \"%s\"", optarg);
            break;
        }
        case 8: {
            const char *colon = strchr(optarg, ':');
            char name[32];
            if (!colon || (size_t)(colon - optarg) >= sizeof name)
                return bad_option("--values needs KERNEL:NAME=V,..., got \"%s\"", optarg);
            memcpy(name, optarg, (size_t)(colon - optarg));
            name[colon - optarg] = '\0';
            const int k = oclblas__kernel_by_name(name);
            if (k < 0)
                return bad_option("--values: unknown kernel \"%s\"", name);
            /* One entry per NAME=... group. */
            char buf[1024];
            oclblas__strlcpy(buf, colon + 1, sizeof buf);
            for (char *save = NULL, *t = strtok_r(buf, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
                if (o->num_values == MAX_VALUES_OPTS)
                    return bad_option("too many --values%s", "");
                o->values[o->num_values].kernel = k;
                oclblas__strlcpy(o->values[o->num_values].text, t, sizeof o->values[0].text);
                ++o->num_values;
            }
            break;
        }
        case 't':
            if (!parse_budget(o, optarg, 1))
                return 0;
            break;
        case 'n':
            if (!parse_budget(o, optarg, 0))
                return 0;
            break;
        case 9:
            if (!parse_sizes(o, optarg))
                return 0;
            break;
        case 10:
            if (!tune_parse_long(optarg, 1, 50, &n))
                return bad_option("--runs needs 1..50, got \"%s\"", optarg);
            o->runs = (int)n;
            break;
        case 11:
            if (!tune_parse_double(optarg, 1.0, 1e6, &x))
                return bad_option("--screen needs a number >= 1, got \"%s\"", optarg);
            o->screen = x;
            break;
        case 'J':
            if (!tune_parse_long(optarg, 1, 64, &n))
                return bad_option("--jobs needs 1..64, got \"%s\"", optarg);
            o->jobs = (int)n;
            break;
        case 12: o->cache_dir = optarg; break;
        case 13: o->list = 1; break;
        case 14: o->seed_db = 0; break;
        case 15:
            if (strcmp(optarg, "threads") == 0)
                o->build_mode = BUILD_THREADS;
            else if (strcmp(optarg, "processes") == 0)
                o->build_mode = BUILD_PROCESSES;
            else if (strcmp(optarg, "auto") == 0)
                o->build_mode = BUILD_AUTO;
            else
                return bad_option("--build needs threads, processes or auto, got \"%s\"", optarg);
            break;
        case 16: o->from_journal = optarg; break;
        case 'q': o->quiet = 1; break;
        case 'h': usage(stdout); exit(0);
        case 'V': printf("oclblas-tune %s\n", TUNE_VERSION); exit(0);
        case ':': return bad_option("option %s needs a value", argv[optind - 1]);
        default: return bad_option("unknown option %s", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return bad_option("unexpected argument \"%s\"", argv[optind]);
    if (!any_kernel)
        for (int i = 0; i < OCLBLAS__K_COUNT; ++i)
            o->selected[i] = 1;
    o->strategy.batch = batch ? batch : o->jobs;
    o->strategy.swarm = swarm ? swarm : (o->jobs > 8 ? o->jobs : 8);
    if (o->strategy.kind == TUNE_RANDOM && o->strategy.fraction > 0 && o->strategy.count != 100)
        return bad_option("give --fraction or --count, not both%s", "");
    if (o->from_journal) {
        if (o->fresh)
            return bad_option("--from-journal reads the journal: it cannot start it over (--fresh)%s", "");
        if (o->journal && strcmp(o->journal, o->from_journal) != 0)
            return bad_option("--from-journal names the journal: give it or -j, not both%s", "");
        o->journal = o->from_journal;
    }
    return 1;
}

/* ---- defaults that depend on the device --------------------------------------- */

static void default_sizes(options *o, const tune_device *d)
{
    /* The descriptors' sizes: large enough to fill a device, small enough to measure in milliseconds. */
    const int gpu = strcmp(d->info->type, "CPU") != 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        const oclblas__tuning *tu = tuning_of(k);
        if (o->num_sizes[k] || !tu)
            continue;
        o->num_sizes[k] = tu->num_sizes;
        for (int i = 0; i < tu->num_sizes; ++i) {
            const size_t *s = gpu ? tu->gpu[i] : tu->cpu[i];
            o->sizes[k][i] = (tune_size){s[0], s[1], s[2]};
        }
    }
    if (!o->gemv_long) {
        o->gemv_long = gpu ? 32768 : 8192;
        o->gemv_short = gpu ? 512 : 256;
        o->gemv_square = gpu ? 4096 : 1024;
    }
}

static void default_output(const tune_device *d, char *buf, size_t len)
{
    char name[200];
    size_t n = 0;
    int dash = 1;
    for (const char *s = d->info->name; *s && n + 2 < sizeof name; ++s) {
        if (isalnum((unsigned char)*s)) {
            name[n++] = (char)tolower((unsigned char)*s);
            dash = 0;
        } else if (!dash) {
            name[n++] = '-';
            dash = 1;
        }
    }
    while (n && name[n - 1] == '-')
        --n;
    name[n] = '\0';
    snprintf(buf, len, "oclblas-%s-%s.json", d->info->vendor, n ? name : "device");
}

/* ---- one kernel's search ----------------------------------------------------------- */

typedef struct {
    const options *o;
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
    int tty;
    int have_best;
    tune_record best;
    char best_text[512];
    oclblas__params seed;
    int seed_measured;
    tune_record seed_rec;
} kernel_run;

static void so_far_set(int kernel, const oclblas__params *p, const char *problem);

static void note_result(kernel_run *kr, const oclblas__params *p, const tune_record *r)
{
    kr->clock += r->charged;
    if (r->status != TUNE_OK)
        ++kr->failed[r->status];
    if (r->status == TUNE_OK && (!kr->have_best || r->cost < kr->best.cost)) {
        kr->have_best = 1;
        kr->best = *r;
        oclblas__params_format(kr->space->kernel, p, kr->best_text, sizeof kr->best_text);
        so_far_set(kr->space->kernel, p, kr->problem);
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
    if (kr->tty)
        fprintf(stderr, "\r\033[K%s", line);
    else
        fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

typedef struct {
    int found;
    oclblas__params best;
    tune_record best_rec, seed_rec;
    int seed_measured;
    long measured, replayed, failed;
    double clock;
    tune_stop stop;
    char problem[256];
} kernel_result;

/* --from-journal: the best configuration the journal holds for the
 * kernel's problem, which is what the run that measured it chose (unless
 * the journal holds more than that run reached). */
static void best_in_journal(const options *o, tune_journal *j, int kernel, const oclblas__params *seed,
                            kernel_result *res)
{
    const char *kname = oclblas__kernels[kernel]->name;
    char config[512];
    tune_journal_tally t;
    res->found = tune_journal_best(j, kname, res->problem, config, sizeof config, &res->best_rec, &t) &&
                 oclblas__params_parse(kernel, config, &res->best, NULL) == OCLBLAS_SUCCESS;
    res->replayed = t.records;
    res->failed = t.failed;
    res->clock = t.charged;
    res->stop = TUNE_STOP_EXHAUSTED;
    if (seed) {
        char text[512];
        oclblas__params_format(kernel, seed, text, sizeof text);
        res->seed_measured = tune_journal_find(j, kname, res->problem, text, &res->seed_rec);
    }
    if (o->quiet)
        return;
    if (res->found)
        fprintf(stderr, "%s: from the journal: %ld records of problem %s, best %.1f %s: %s\n", kname, t.records,
                res->problem, res->best_rec.rate, tune_unit(kernel), config);
    else
        fprintf(stderr, "%s: the journal has %s of problem %s%s\n", kname,
                t.records ? "no configuration that built, ran and checked out" : "no record", res->problem,
                t.records ? "" : " (give the run's --size and --values)");
}

static int search_kernel(const options *o, tune_device *d, tune_workers *workers, tune_journal *j,
                         tune_run_budget *budget, int kernel, double time_budget, long config_budget,
                         kernel_result *res)
{
    /* The kernel's clock runs from here: what comes before its first measurement is its cost too. */
    const double meter = tune_now();
    memset(res, 0, sizeof *res);
    const char *kname = oclblas__kernels[kernel]->name;
    char err[512];
    tune_space space;
    if (!tune_space_init(&space, kernel, &d->info->lim, err, sizeof err)) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        return 0;
    }
    for (int i = 0; i < o->num_values; ++i)
        if (o->values[i].kernel == kernel && !tune_space_restrict(&space, o->values[i].text, err, sizeof err)) {
            fprintf(stderr, "oclblas-tune: %s\n", err);
            return 0;
        }
    /* Where the database stands today: the first configuration measured. */
    oclblas__params seed;
    uint64_t seed_code = 0;
    int have_seed = 0;
    seed = d->cx.params[kernel];
    if (d->cx.status[kernel] == OCLBLAS_SUCCESS && o->seed_db)
        have_seed = tune_space_nearest(&space, &seed, &seed_code);
    if (have_seed)
        tune_space_params(&space, seed_code, &seed);
    tune_bench_opts bo = {o->runs, o->screen};
    tune_bench *bench = tune_bench_new(d, kernel, o->sizes[kernel], o->num_sizes[kernel], &bo, err, sizeof err);
    if (!bench) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        tune_space_free(&space);
        return 0;
    }
    if (o->from_journal) {
        tune_bench_problem(bench, res->problem, sizeof res->problem);
        best_in_journal(o, j, kernel, have_seed ? &seed : NULL, res);
        tune_bench_free(bench);
        tune_space_free(&space);
        return 1;
    }
    tune_strategy *st = tune_strategy_new(&space, &o->strategy, &seed_code, have_seed, err, sizeof err);
    if (!st) {
        fprintf(stderr, "oclblas-tune: %s: %s\n", kname, err);
        tune_bench_free(bench);
        tune_space_free(&space);
        return 0;
    }
    kernel_run kr;
    memset(&kr, 0, sizeof kr);
    kr.o = o;
    kr.d = d;
    kr.workers = workers;
    kr.space = &space;
    kr.bench = bench;
    kr.journal = j;
    kr.kname = kname;
    kr.seed = have_seed ? seed : (oclblas__params){{-1}};
    kr.tty = isatty(STDERR_FILENO);
    kr.start = tune_now();
    kr.meter = meter;
    kr.budget = budget;
    kr.time_budget = time_budget;
    tune_bench_problem(bench, kr.problem, sizeof kr.problem);
    if (!o->quiet) {
        char budget[96] = "none", tb[32];
        tune_format_duration(time_budget, tb, sizeof tb);
        if (time_budget > 0 && config_budget > 0)
            snprintf(budget, sizeof budget, "%s or %ld configurations", tb, config_budget);
        else if (time_budget > 0)
            snprintf(budget, sizeof budget, "%s", tb);
        else if (config_budget > 0)
            snprintf(budget, sizeof budget, "%ld configurations", config_budget);
        fprintf(stderr, "%s: %s search, problem %s, budget %s, %llu combinations%s\n", kname,
                tune_strategy_name(o->strategy.kind), kr.problem, budget, (unsigned long long)space.product,
                have_seed ? ", starting from the database's" : "");
    }
    tune_budget b = {config_budget, time_budget};
    tune_outcome out;
    const int ok = tune_search(&space, st, &b, eval, &kr, progress, &kr, &out);
    if (kr.tty && !o->quiet)
        fputc('\n', stderr);
    res->found = ok && out.found;
    if (res->found)
        tune_space_params(&space, out.best, &res->best);
    res->best_rec = kr.best;
    res->seed_rec = kr.seed_rec;
    res->seed_measured = kr.seed_measured;
    res->measured = kr.measured;
    res->replayed = kr.replayed;
    res->failed = kr.failed[1] + kr.failed[2] + kr.failed[3];
    res->clock = out.clock;
    res->stop = out.stop;
    oclblas__strlcpy(res->problem, kr.problem, sizeof res->problem);
    if (!o->quiet) {
        fprintf(stderr, "%s: %s after %ld configurations (%ld measured, %ld from the journal, %ld failed)\n", kname,
                tune_stop_name(out.stop), out.evaluated, kr.measured, kr.replayed, res->failed);
        if (res->found)
            fprintf(stderr, "%s: best %.1f %s: %s\n", kname, kr.best.rate, tune_unit(kernel), kr.best_text);
    }
    tune_bench_keep(kr.best_hold);
    tune_strategy_free(st);
    tune_bench_free(bench);
    tune_space_free(&space);
    return 1;
}

/* ---- the check of the written entry ------------------------------------------------ */

/* One call through the public API, as a user of the new entry makes it. */
static oclblas_status public_call(void *v, tune_problem *t, cl_command_queue q)
{
    const oclblas__tune_problem *p = &t->p;
    if (t->form == OCLBLAS__FORM_GEMV)
        return oclblas_sgemv_cl(OCLBLAS_COL_MAJOR, t->trans_a ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m, p->n,
                                p->alpha, t->buf[0], 0, p->m, t->buf[1], 0, 1, p->beta, t->buf[2], 0, 1, q, NULL);
    return oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, t->trans_b ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m,
                            p->n, p->k, p->alpha, t->buf[0], 0, p->m, t->buf[1], 0,
                            tune_problem_ld(t, OCLBLAS__BUF_B), p->beta, t->buf[2], 0, p->m, q, NULL);
}

/* An SGEMM (A not transposed; B as trans_b says) or an SGEMV checked against the host. */
static int check_call(tune_device *d, oclblas__form form, int trans, size_t m, size_t n, size_t k, char *note,
                      size_t len)
{
    const oclblas__tune_problem p = {m, n, k, 0, 0, 1.5f, 0.25f};
    tune_problem t;
    int ok = 0;
    const int gemv = form == OCLBLAS__FORM_GEMV;
    if (!tune_problem_make(&t, form, gemv ? trans : 0, gemv ? 0 : trans, &p, gemv ? 7 : 99)) {
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

/* Loads the entry as a user would (no overrides left) and runs once each
 * plan that uses what this run changed (changed[k]: kernel k, or a routine
 * value): the others run as they did before it, and on a CPU each plan's
 * programs take seconds to build. */
static int check_entry(const options *o, tune_device *d, const tune_entry *e, const int changed[OCLBLAS__K_COUNT],
                       const char *path)
{
    const double t0 = tune_now();
    oclblas_status st = oclblas_database_load(path);
    if (st != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclblas-tune: the library refused %s: %s\n", path, oclblas_status_string(st));
        return 0;
    }
    int ok = 1;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (!e->has[k])
            continue;
        char buf[1600];
        st = oclblas_get_params(d->device, oclblas__kernels[k]->name, buf, sizeof buf);
        char want[512];
        oclblas__params_format(k, &e->params[k], want, sizeof want);
        const char *semi = strchr(buf, ';');
        if (st != OCLBLAS_SUCCESS || !semi || strncmp(buf, want, (size_t)(semi - buf)) != 0 ||
            !strstr(semi, path)) {
            fprintf(stderr, "oclblas-tune: %s: the library does not take the new entry's parameters: %s\n",
                    oclblas__kernels[k]->name, st == OCLBLAS_SUCCESS ? buf : oclblas_status_string(st));
            ok = 0;
        }
    }
    /* What the library now uses, as a user gets it. */
    const oclblas__devctx *lib;
    if (oclblas__devctx_get(d->info, &lib) != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclblas-tune: the library has no context for the device\n");
        return 0;
    }
    const oclblas__params gf = lib->params[OCLBLAS__K_GEMM_FAST], rt = lib->params[OCLBLAS__K_ROUTINE];
    /* Below the crossover (direct), above it with padding (helpers, gemm_fast), in place, and both gemvs. */
    const size_t small = rt.v[RT_GEMM_MIN_INDIRECT] > 40 ? 33 : 0;
    const size_t big = (size_t)(rt.v[RT_GEMM_MIN_INDIRECT] > 64 ? rt.v[RT_GEMM_MIN_INDIRECT] : 64) + 13;
    const size_t mwg = (size_t)gf.v[GF_MWG], nwg = (size_t)gf.v[GF_NWG], kwg = (size_t)gf.v[GF_KWG];
    const tune_size *gv = o->sizes[OCLBLAS__K_GEMV_N];
    char note[200];
    int passed = 0, total = 0;
    struct {
        const char *what;
        int ok;
    } checks[6];
    const int values = changed[OCLBLAS__K_ROUTINE], helpers = changed[OCLBLAS__K_HELPERS],
              fast = changed[OCLBLAS__K_GEMM_FAST];
    if (small && (values || changed[OCLBLAS__K_GEMM_DIRECT])) {
        checks[total].what = "direct";
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMM, 0, small + 2, small, small - 1, note, sizeof note);
    }
    if (values || helpers || fast) {
        checks[total].what = "padded";
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMM, 0, big, big - 5, big + 3, note, sizeof note);
    }
    if (values || fast) {
        checks[total].what = "in place";
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMM, 1, (big + mwg - 1) / mwg * mwg,
                                        (big + nwg - 1) / nwg * nwg, (big + kwg - 1) / kwg * kwg, note, sizeof note);
    }
    if (values || helpers || changed[OCLBLAS__K_GEMV_N]) { /* the helpers hold gemv's reduction */
        checks[total].what = "gemv_n";
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMV, 0, gv[0].m, gv[0].n, 0, note, sizeof note);
    }
    if (values || helpers || changed[OCLBLAS__K_GEMV_T]) {
        checks[total].what = "gemv_t";
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMV, 1, o->sizes[OCLBLAS__K_GEMV_T][0].m,
                                        o->sizes[OCLBLAS__K_GEMV_T][0].n, 0, note, sizeof note);
    }
    for (int i = 0; i < total; ++i) {
        passed += checks[i].ok;
        if (!checks[i].ok)
            fprintf(stderr, "oclblas-tune: check of the entry failed (%s): %s\n", checks[i].what, note);
    }
    if (!o->quiet)
        fprintf(stderr, "entry checked in %.1f s: the library loads it and takes its parameters; %d of %d calls "
                "correct\n", tune_now() - t0, passed, total);
    return ok && passed == total;
}

/* An earlier entry for the same device at the output path keeps the
 * kernels this run did not tune, so that kernels can be tuned in separate
 * runs into one file; what its "tuned" object says about them (sizes, when
 * this run has none of its own, and note) is carried over too. */
static void merge_existing(const tune_device *d, tune_entry *e, const char *path, char *kept, size_t len,
                           char *old_note, size_t old_note_len)
{
    kept[0] = '\0';
    old_note[0] = '\0';
    char *text;
    size_t n;
    if (oclblas__read_file(AT_FDCWD, path, 0, OCLBLAS__DB_MAX_FILE, &text, &n, NULL, NULL, 0))
        return;
    oclblas__db_entry *old = NULL;
    size_t count = 0;
    char perr[256];
    if (oclblas__db_parse(text, n, path, &old, &count, perr, sizeof perr) == OCLBLAS_SUCCESS && count == 1 &&
        strcmp(old->name, d->info->name) == 0 && strcmp(old->vendor, d->info->vendor) == 0 &&
        strcmp(old->type, d->info->type) == 0) {
        for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
            if (e->has[k] || !(old->has & (1u << k)))
                continue;
            e->has[k] = 1;
            memcpy(e->params[k].v, old->values[k], sizeof e->params[k].v);
            const size_t u = strlen(kept);
            snprintf(kept + u, len - u, "%s%s", u ? ", " : "", oclblas__kernels[k]->name);
        }
        if (kept[0]) {
            if (!e->sizes[0])
                oclblas__strlcpy(e->sizes, old->sizes, sizeof e->sizes);
            oclblas__json *j = oclblas__json_parse(text, n, NULL, 0);
            const oclblas__json *note = oclblas__json_get(oclblas__json_get(j, "tuned"), "note");
            if (note && note->type == OCLBLAS__JSON_STRING)
                oclblas__strlcpy(old_note, note->string, old_note_len);
            oclblas__json_free(j);
        }
    }
    free(old);
    free(text);
}

/* ---- the run's private folder ------------------------------------------------------------ */

static char private_dir[1024];

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_private_dir(void)
{
    /* Only the folder mkdtemp made for this run, and only what is in it. */
    if (private_dir[0])
        nftw(private_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    private_dir[0] = '\0';
}

/* ---- what the entry says about how it was made ------------------------------------------ */

/* The tool, and the problem of each kernel in the entry (problem[k] for kernel k). */
static void describe_entry(const options *o, const char *const problem[OCLBLAS__K_COUNT], tune_entry *e)
{
    snprintf(e->tool, sizeof e->tool, "oclblas-tune %s, %s, seed %llu", TUNE_VERSION,
             tune_strategy_name(o->strategy.kind), (unsigned long long)o->strategy.seed);
    size_t used = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT && used < sizeof e->sizes; ++k) {
        if (!e->has[k] || !tuning_of(k))
            continue;
        const int w = snprintf(e->sizes + used, sizeof e->sizes - used, "%s%s %s", used ? "; " : "",
                               oclblas__kernels[k]->name, problem[k]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used >= sizeof e->sizes) /* the library keeps 127 characters: the note has all of it */
        strcpy(e->sizes + sizeof e->sizes - 4, "...");
}

/* ---- what a second interrupt writes ------------------------------------------------------ */

/* The best configuration found so far of each kernel (and the routine
 * values once measured), kept as they are found, so that a second
 * interrupt can write them from the signal thread while the run is in the
 * middle of a build or a measurement. */
static struct {
    pthread_mutex_t lock;
    const options *o;
    const tune_device *d;
    const char *output, *journal;
    int has[OCLBLAS__K_COUNT];
    oclblas__params params[OCLBLAS__K_COUNT];
    char problem[OCLBLAS__K_COUNT][256];
    int done; /* the run wrote its entry (or found nothing to write): nothing is left to do */
} so_far = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void so_far_start(const options *o, const tune_device *d, const char *output, const char *journal)
{
    pthread_mutex_lock(&so_far.lock);
    so_far.o = o;
    so_far.d = d;
    so_far.output = output;
    so_far.journal = journal;
    pthread_mutex_unlock(&so_far.lock);
}

static void so_far_set(int kernel, const oclblas__params *p, const char *problem)
{
    pthread_mutex_lock(&so_far.lock);
    so_far.has[kernel] = 1;
    so_far.params[kernel] = *p;
    oclblas__strlcpy(so_far.problem[kernel], problem, sizeof so_far.problem[0]);
    pthread_mutex_unlock(&so_far.lock);
}

/* Runs in the signal thread (interrupt.c), which ends the process next. */
static void stop_at_once(void)
{
    pthread_mutex_lock(&so_far.lock);
    if (so_far.d && !so_far.done) {
        static tune_entry e; /* too large for the signal thread's stack */
        memset(&e, 0, sizeof e);
        int any = 0;
        for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
            e.has[k] = so_far.has[k];
            e.params[k] = so_far.params[k];
            any |= e.has[k];
        }
        const char *problems[OCLBLAS__K_COUNT];
        for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
            problems[k] = so_far.problem[k];
        describe_entry(so_far.o, problems, &e);
        snprintf(e.note, sizeof e.note, "%s; stopped at once by a second interrupt: the best configurations found "
                 "so far, unchecked; the journal %s holds every finished measurement;", so_far.o->command,
                 so_far.journal);
        char kept[256], err[512];
        static char old_note[sizeof e.note];
        if (any)
            merge_existing(so_far.d, &e, so_far.output, kept, sizeof kept, old_note, sizeof old_note);
        if (!any)
            fprintf(stderr, "oclblas-tune: nothing to write\n");
        else if (tune_entry_write(so_far.d, &e, so_far.output, err, sizeof err))
            fprintf(stderr, "oclblas-tune: wrote %s (the best so far, unchecked)\n", so_far.output);
        else
            fprintf(stderr, "oclblas-tune: %s\n", err);
        fprintf(stderr, "oclblas-tune: the journal %s keeps every finished measurement: run the same command "
                "again to resume, or add --from-journal %s to write the entry from it\n", so_far.journal,
                so_far.journal);
    }
    so_far.done = 1;
    pthread_mutex_unlock(&so_far.lock);
    remove_private_dir();
}

/* ---- main ------------------------------------------------------------------------------ */

static void list_spaces(const options *o, tune_device *d)
{
    printf("device: %s (%s, %s %s), driver %s\n", d->info->name, d->info->type, d->info->vendor, d->info->arch,
           d->info->driver);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (!o->selected[k] || !tuning_of(k))
            continue;
        char err[512];
        tune_space s;
        if (!tune_space_init(&s, k, &d->info->lim, err, sizeof err))
            continue;
        int ok = 1;
        for (int v = 0; v < o->num_values; ++v)
            if (o->values[v].kernel == k && !tune_space_restrict(&s, o->values[v].text, err, sizeof err)) {
                printf("%s: %s\n", oclblas__kernels[k]->name, err);
                ok = 0;
            }
        if (!ok)
            continue;
        const double t0 = tune_now();
        if (tune_space_enumerate(&s, TUNE_ENUM_LIMIT, err, sizeof err))
            printf("%-11s %12llu combinations, %9zu legal on this device (listed in %.2f s)\n",
                   oclblas__kernels[k]->name, (unsigned long long)s.product, s.num_legal, tune_now() - t0);
        else
            printf("%-11s %s\n", oclblas__kernels[k]->name, err);
        for (int p = 0; p < s.num_params; ++p) {
            printf("    %-8s", oclblas__kernels[k]->params[p].name);
            for (int v = 0; v < s.num_values[p]; ++v)
                printf(" %d", s.values[p][v]);
            putchar('\n');
        }
        const oclblas__params seed = d->cx.params[k];
        uint64_t code;
        if (d->cx.status[k] == OCLBLAS_SUCCESS) {
            char text[512];
            oclblas__params_format(k, &seed, text, sizeof text);
            printf("    database: %s%s\n", text, tune_space_nearest(&s, &seed, &code) ? "" : " (no legal configuration near it in this space)");
        }
        tune_space_free(&s);
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--build-worker") == 0)
        return tune_worker_main(argv[2], argv[3]);
    options o;
    memset(&o, 0, sizeof o);
    tune_strategy_defaults(&o.strategy);
    o.runs = 5;
    o.screen = 3.0;
    o.seed_db = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;
    {
        size_t used = 0;
        for (int i = 0; i < argc && used + 2 < sizeof o.command; ++i) {
            const int w = snprintf(o.command + used, sizeof o.command - used, "%s%s", i ? " " : "", argv[i]);
            if (w < 0)
                break;
            used += (size_t)w;
        }
    }
    if (!parse_options(argc, argv, &o))
        return EXIT_USAGE;
    /* Before any thread starts (the drivers start theirs at the first OpenCL call). */
    if (!tune_interrupt_start(stop_at_once))
        fprintf(stderr, "oclblas-tune: warning: cannot take interrupts: Ctrl-C will end the run without an entry\n");
    tune_run_budget rb;
    tune_run_budget_init(&rb, o.from_journal ? 0 : o.time_total, o.selected[OCLBLAS__K_ROUTINE] ? ROUTINE_RESERVE : 0);
    rb.measure_nothing = o.from_journal != NULL;

    /* Before the first OpenCL call: the drivers read these when they start.
     * NVIDIA's JIT cache stays on, in a folder of this run's own, because
     * build processes hand their work to this one through it. */
    const char *tmp = getenv("TMPDIR");
    snprintf(private_dir, sizeof private_dir, "%s/oclblas-tune-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(private_dir)) {
        fprintf(stderr, "oclblas-tune: cannot create a temporary folder in %s\n", tmp && *tmp ? tmp : "/tmp");
        return EXIT_SETUP;
    }
    atexit(remove_private_dir);
    char path[1100], binaries[1100];
    snprintf(binaries, sizeof binaries, "%s", o.cache_dir ? o.cache_dir : "off");
    setenv("POCL_KERNEL_CACHE", "0", 0);
    snprintf(path, sizeof path, "%s/nv", private_dir);
    if (!getenv("CUDA_CACHE_PATH")) {
        setenv("CUDA_CACHE_PATH", path, 1);
        setenv("CUDA_CACHE_MAXSIZE", "2147483648", 0);
    }

    tune_device d;
    char err[1024];
    const char *spec = o.device ? o.device : getenv("OCLBLAS_DEVICE");
    if (!tune_device_open(spec, &d, err, sizeof err)) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        return EXIT_SETUP;
    }
    /* The host-pointer API (HOST_MAX) runs on the library's default device: make it this one. */
    char index[32];
    snprintf(index, sizeof index, "%u:%u", d.platform_index, d.device_index);
    if (oclblas__default_choose(index) != OCLBLAS_SUCCESS)
        fprintf(stderr, "oclblas-tune: the library's default device is already in use; HOST_MAX may not be measured\n");
    default_sizes(&o, &d);
    /* A kernel the device cannot run at all (gemm_tc off NVIDIA) is not
     * searched, and the entry leaves it out. */
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        const char *why = o.selected[k] && oclblas__kernels[k]->capable ? oclblas__kernels[k]->capable(&d.info->lim)
                                                                      : NULL;
        if (why) {
            o.selected[k] = 0;
            if (!o.quiet)
                fprintf(stderr, "oclblas-tune: %s is not tuned on this device: %s\n", oclblas__kernels[k]->name, why);
        }
    }
    tune_workers *workers = NULL;
    const int processes = o.build_mode == BUILD_PROCESSES ||
                          (o.build_mode == BUILD_AUTO && strcmp(d.info->vendor, "nvidia") == 0);
    if (processes && !o.list && !o.from_journal) {
        if (!o.cache_dir)
            snprintf(binaries, sizeof binaries, "%s/binaries", private_dir);
        workers = tune_workers_start(&d, binaries, o.jobs, err, sizeof err);
        if (!workers)
            fprintf(stderr, "oclblas-tune: %s; compiling in threads\n", err);
    }
    /* Hundreds of candidates must not fill the user's cache folder. */
    oclblas__cache_dir_set(binaries);
    if (o.list) {
        list_spaces(&o, &d);
        tune_device_close(&d);
        return 0;
    }

    char output[1024], journal_path[1100];
    if (o.output)
        oclblas__strlcpy(output, o.output, sizeof output);
    else
        default_output(&d, output, sizeof output);
    snprintf(journal_path, sizeof journal_path, "%s", o.journal ? o.journal : output);
    if (!o.journal)
        strncat(journal_path, ".journal", sizeof journal_path - strlen(journal_path) - 1);
    char devline[800];
    snprintf(devline, sizeof devline, "%s | %s | %s", d.info->name, d.info->driver, d.info->platform_name);
    tune_journal *j;
    if (o.from_journal && access(journal_path, R_OK) != 0) {
        fprintf(stderr, "oclblas-tune: cannot read the journal %s\n", journal_path);
        tune_device_close(&d);
        return EXIT_SETUP;
    }
    if (!tune_journal_open(journal_path, devline, o.fresh, &j, err, sizeof err)) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        tune_workers_stop(workers);
        tune_device_close(&d);
        return EXIT_SETUP;
    }
    const double wall0 = rb.start; /* the run's wall time is the one its budget counts */
    if (!o.quiet && o.from_journal)
        fprintf(stderr, "oclblas-tune %s: %s (%s, %s %s), driver %s; the entry from the journal %s (%ld records), "
                "measuring nothing\n", TUNE_VERSION, d.info->name, d.info->type, d.info->vendor, d.info->arch,
                d.info->driver, journal_path, tune_journal_loaded(j));
    else if (!o.quiet)
        fprintf(stderr, "oclblas-tune %s: %s (%s, %s %s), driver %s; %d build %s; journal %s (%ld records)\n",
                TUNE_VERSION, d.info->name, d.info->type, d.info->vendor, d.info->arch, d.info->driver, o.jobs,
                workers ? "processes" : "threads", journal_path, tune_journal_loaded(j));

    tune_entry entry;
    memset(&entry, 0, sizeof entry);
    kernel_result results[OCLBLAS__K_COUNT];
    memset(results, 0, sizeof results);
    int searched[OCLBLAS__K_COUNT] = {0}, out_of_time[OCLBLAS__K_COUNT] = {0};
    int changed[OCLBLAS__K_COUNT] = {0}; /* what the entry's check must exercise */
    int status = 0;
    so_far_start(&o, &d, output, journal_path);
    for (int k = 0; k < OCLBLAS__K_COUNT && !tune_interrupted(); ++k) {
        if (!o.selected[k] || !tuning_of(k))
            continue;
        double weights = 0, share;
        for (int m = k; m < OCLBLAS__K_COUNT; ++m)
            if (o.selected[m] && tuning_of(m) && o.time_kernel[m] <= 0)
                weights += tuning_of(m)->share;
        if (!tune_run_budget_kernel(&rb, o.time_kernel[k], tuning_of(k)->share, weights, &share)) {
            fprintf(stderr, "%s: not tuned: the time budget is spent\n", oclblas__kernels[k]->name);
            out_of_time[k] = 1;
            continue;
        }
        long configs = o.configs_kernel[k] > 0 ? o.configs_kernel[k] : o.configs_all;
        /* Annealing and PSO never run out of configurations by themselves. */
        if (configs <= 0 && share <= 0 && o.strategy.kind != TUNE_FULL && o.strategy.kind != TUNE_RANDOM)
            configs = DEFAULT_CONFIGS;
        if (!search_kernel(&o, &d, workers, j, &rb, k, share, configs, &results[k])) {
            status = EXIT_USAGE;
            break;
        }
        searched[k] = 1;
        if (results[k].found) {
            entry.has[k] = 1;
            entry.params[k] = results[k].best;
            changed[k] = 1;
            tune_device_set(&d, k, &results[k].best);
        } else if (o.from_journal && results[k].replayed == 0) {
            /* Not in the journal (said above): left out, as a kernel the run did not reach. */
        } else {
            fprintf(stderr, "oclblas-tune: %s: no configuration built, ran and checked out; the entry leaves it out\n",
                    oclblas__kernels[k]->name);
            status = EXIT_PARTIAL;
        }
    }
    tune_workers_stop(workers); /* the rest builds a few programs only */
    if (status == EXIT_USAGE) {
        tune_journal_close(j);
        tune_device_close(&d);
        return EXIT_USAGE;
    }

    char routine_summary[1024] = "";
    if (o.selected[OCLBLAS__K_ROUTINE] && !tune_interrupted()) {
        tune_routine_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.budget = &rb;
        ro.runs = o.runs;
        ro.quiet = o.quiet;
        ro.gemv_long = o.gemv_long;
        ro.gemv_short = o.gemv_short;
        ro.gemv_square = o.gemv_square;
        tune_space rs;
        tune_space_init(&rs, OCLBLAS__K_ROUTINE, NULL, err, sizeof err);
        for (int v = 0; v < o.num_values; ++v)
            if (o.values[v].kernel == OCLBLAS__K_ROUTINE && !tune_space_restrict(&rs, o.values[v].text, err, sizeof err)) {
                fprintf(stderr, "oclblas-tune: %s\n", err);
                tune_journal_close(j);
                tune_device_close(&d);
                return EXIT_USAGE;
            }
        for (int r = 0; r < RT_COUNT; ++r) {
            ro.tune[r] = 1;
            ro.num_values[r] = rs.num_values[r];
            memcpy(ro.values[r], rs.values[r], sizeof ro.values[r]);
        }
        tune_space_free(&rs);
        int tuned[RT_COUNT] = {0}, any_tuned = 0;
        const int done = tune_routine(&d, &ro, j, tuned, routine_summary, sizeof routine_summary, err, sizeof err);
        for (int r = 0; r < RT_COUNT; ++r)
            any_tuned |= tuned[r];
        /* From a journal without routine values, as from a run stopped before them: none in the entry. */
        changed[OCLBLAS__K_ROUTINE] = any_tuned;
        if (done && (any_tuned || !o.from_journal)) {
            entry.has[OCLBLAS__K_ROUTINE] = 1;
            memset(&entry.params[OCLBLAS__K_ROUTINE], 0, sizeof entry.params[0]);
            entry.params[OCLBLAS__K_ROUTINE] = d.cx.params[OCLBLAS__K_ROUTINE];
            searched[OCLBLAS__K_ROUTINE] = 1;
            so_far_set(OCLBLAS__K_ROUTINE, &entry.params[OCLBLAS__K_ROUTINE], "");
        }
        if (!o.quiet)
            fprintf(stderr, "routine values:\n%s", routine_summary);
    }

    /* What the entry says about how it was made. */
    const double wall = tune_now() - wall0;
    const char *problems[OCLBLAS__K_COUNT];
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        problems[k] = results[k].problem;
    describe_entry(&o, problems, &entry);
    char wall_text[32];
    tune_format_duration(wall, wall_text, sizeof wall_text);
    size_t used = (size_t)snprintf(entry.note, sizeof entry.note, "%s; wall time %s;", o.command, wall_text);
    for (int k = 0; k < OCLBLAS__K_COUNT && used < sizeof entry.note; ++k) {
        const kernel_result *r = &results[k];
        if (!searched[k] || !tuning_of(k))
            continue;
        char tb[32];
        tune_format_duration(r->clock, tb, sizeof tb);
        int w = snprintf(entry.note + used, sizeof entry.note - used,
                         " %s: %s, %ld configurations (%ld measured, %ld failed) in %s, best %.1f %s", 
                         oclblas__kernels[k]->name, r->problem, r->measured + r->replayed, r->measured, r->failed, tb,
                         r->found ? r->best_rec.rate : 0.0, tune_unit(k));
        if (w > 0 && r->seed_measured && r->seed_rec.status == TUNE_OK && (size_t)w < sizeof entry.note - used)
            w += snprintf(entry.note + used + w, sizeof entry.note - used - (size_t)w, " (database's %.1f)",
                          r->seed_rec.rate);
        if (w > 0 && (size_t)w < sizeof entry.note - used)
            w += snprintf(entry.note + used + w, sizeof entry.note - used - (size_t)w, ";");
        if (w < 0)
            break;
        used += (size_t)w;
    }
    for (int k = 0; k < OCLBLAS__K_COUNT && used < sizeof entry.note; ++k)
        if (out_of_time[k])
            used += (size_t)snprintf(entry.note + used, sizeof entry.note - used,
                                     " %s: not tuned, the time budget was spent;", oclblas__kernels[k]->name);
    if (routine_summary[0] && used < sizeof entry.note) {
        snprintf(entry.note + used, sizeof entry.note - used, " routine:%s", routine_summary);
        for (char *p = entry.note; *p; ++p)
            if (*p == '\n')
                *p = ';';
    }

    char kept[256], old_note[sizeof entry.note];
    merge_existing(&d, &entry, output, kept, sizeof kept, old_note, sizeof old_note);
    if (kept[0]) {
        const size_t u = strlen(entry.note);
        const int room = (int)(sizeof entry.note - u); /* the old note is cut where the new one ends */
        snprintf(entry.note + u, (size_t)room, " kept from the earlier entry: %s;%s%.*s", kept,
                 old_note[0] ? " its note: " : "", room, old_note);
        if (!o.quiet)
            fprintf(stderr, "kept from the earlier entry in %s: %s\n", output, kept);
    }
    int wrote = 0;
    int any = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        any |= entry.has[k];
    /* A second interrupt now finds the entry written, or waits until it is. */
    pthread_mutex_lock(&so_far.lock);
    if (any) {
        if (tune_entry_write(&d, &entry, output, err, sizeof err)) {
            wrote = 1;
            if (!o.quiet)
                fprintf(stderr, "wrote %s (%s)\n", output, wall_text);
        } else {
            fprintf(stderr, "oclblas-tune: %s\n", err);
            status = EXIT_PARTIAL;
        }
    } else {
        fprintf(stderr, "oclblas-tune: nothing to write\n");
        if (!tune_interrupted())
            status = EXIT_PARTIAL;
    }
    so_far.done = 1;
    pthread_mutex_unlock(&so_far.lock);

    /* The summary, on stdout. */
    printf("%-12s %-10s %12s %12s %8s  %s\n", "kernel", "stop", "best", "database's", "configs", "parameters");
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        const kernel_result *r = &results[k];
        if (!searched[k] || !tuning_of(k))
            continue;
        char best[32] = "-", base[32] = "-", text[512] = "(none)";
        if (r->found) {
            snprintf(best, sizeof best, "%.1f", r->best_rec.rate);
            oclblas__params_format(k, &r->best, text, sizeof text);
        }
        if (r->seed_measured && r->seed_rec.status == TUNE_OK)
            snprintf(base, sizeof base, "%.1f", r->seed_rec.rate);
        static const char *const stops[] = {"exhausted", "configs", "time", "interrupt", "stalled", "error"};
        printf("%-12s %-10s %12s %12s %8ld  %s %s\n", oclblas__kernels[k]->name,
               o.from_journal ? "journal" : stops[r->stop], best, base, r->measured + r->replayed, tune_unit(k), text);
    }
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (out_of_time[k])
            printf("%-12s %-10s %12s %12s %8d  (not tuned: the time budget was spent)\n", oclblas__kernels[k]->name,
                   "time", "-", "-", 0);
    if (searched[OCLBLAS__K_ROUTINE]) {
        char text[256];
        oclblas__params_format(OCLBLAS__K_ROUTINE, &entry.params[OCLBLAS__K_ROUTINE], text, sizeof text);
        printf("%-12s %s\n", "routine", text);
    }
    fflush(stdout);

    if (wrote && !tune_interrupted() && !check_entry(&o, &d, &entry, changed, output))
        status = EXIT_PARTIAL;
    tune_journal_close(j);
    tune_device_close(&d);
    if (tune_interrupted()) {
        fprintf(stderr, "oclblas-tune: interrupted; run the same command again to resume from %s\n", journal_path);
        return EXIT_INTERRUPTED;
    }
    return status;
}
