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
#include "util/json.h"
#include "kernels/gemm_fast.h"
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
static const oclblas__tuning *tuning_of(int k) { return oclblas__tuning_of(k); }
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
    tune_class classes[OCLBLAS__MAX_CLASSES]; /* tuned beside the sets for every shape, in this order */
    int num_classes, no_classes;
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
"                           kernel's best configuration there, for every shape and for\n"
"                           each class (give the run's -k, --size, --class or --no-classes,\n"
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
"                           Or K=SEC for one kernel (repeatable; within the whole run's).\n"
"                           A kernel's time covers its classes' searches too: the set for\n"
"                           every shape takes twice a class's part, and time a search\n"
"                           leaves unused passes on to the next\n"
"  -n, --max-configs N      configurations per search of a kernel (for every shape, and for\n"
"                           each class), or K=N for one kernel (repeatable); default 200\n"
"                           for a kernel that has no time budget\n"
"                           Time is the run's wall time plus what the records it takes from\n"
"                           the journal cost, so a resumed run continues the same budget.\n"
"Classes of shapes (a set for each, tried in order before the set for every shape):\n"
"      --class NAME:RULE:SIZES\n"
"                           a class: NAME (letters, digits, - _ .), RULE the conditions its\n"
"                           problems meet, e.g. \"n <= 128, k >= 2\" (see the README's Database;\n"
"                           a gemv is k = 1 to a rule), SIZES its problems: MxNxK products\n"
"                           (column-major NN) tune gemm_fast and the split of k for it, MxN\n"
"                           gemvs tune gemv_n, gemv_t and GEMV_GROUPS_PER_CU. Repeatable, in\n"
"                           order. Default: classes for one small side, long k, small\n"
"                           products and gemvs (--list shows them), smaller on a CPU\n"
"      --no-classes         only the sets for every shape\n"
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

/* One size of a list: MxNxK (a product) or MxN (a gemv, k = 0); 0 when it is neither. */
static int parse_size(const char *text, tune_size *out, int *dims)
{
    char item[64];
    if (strlen(text) >= sizeof item)
        return 0;
    oclblas__strlcpy(item, text, sizeof item);
    long x[3] = {0, 0, 0};
    int got = 0;
    for (char *tok = item, *save = NULL, *t; (t = strtok_r(tok, "x", &save)) != NULL; tok = NULL) {
        if (got == 3 || !tune_parse_long(t, 1, 1 << 20, &x[got]))
            return 0;
        ++got;
    }
    if (got < 2)
        return 0;
    *out = (tune_size){(size_t)x[0], (size_t)x[1], (size_t)x[2]};
    *dims = got;
    return 1;
}

/* --class NAME:RULE:SIZES */
static int parse_class(options *o, const char *arg)
{
    if (o->num_classes == OCLBLAS__MAX_CLASSES)
        return bad_option("at most " OCLBLAS__STR(OCLBLAS__MAX_CLASSES) " classes (--class %s)", arg);
    const char *c1 = strchr(arg, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2)
        return bad_option("--class needs NAME:RULE:SIZES, got \"%s\"", arg);
    tune_class *c = &o->classes[o->num_classes];
    memset(c, 0, sizeof *c);
    if ((size_t)(c1 - arg) >= sizeof c->cls.name)
        return bad_option("--class: the name is too long in \"%s\"", arg);
    memcpy(c->cls.name, arg, (size_t)(c1 - arg));
    c->cls.name[c1 - arg] = '\0';
    if (!oclblas__class_name_valid(c->cls.name))
        return bad_option("--class: a name is letters, digits, '-', '_' and '.', not \"%s\"", c->cls.name);
    for (int i = 0; i < o->num_classes; ++i)
        if (strcmp(o->classes[i].cls.name, c->cls.name) == 0)
            return bad_option("--class: the class %s is named twice", c->cls.name);
    char rule[512], why[200];
    if ((size_t)(c2 - c1 - 1) >= sizeof rule)
        return bad_option("--class: the rule is too long in \"%s\"", arg);
    memcpy(rule, c1 + 1, (size_t)(c2 - c1 - 1));
    rule[c2 - c1 - 1] = '\0';
    if (!oclblas__class_parse(rule, &c->cls, why, sizeof why)) {
        fprintf(stderr, "oclblas-tune: --class %s: %s\n", c->cls.name, why);
        return bad_option("(in \"%s\")", arg);
    }
    for (const char *p = c2 + 1; *p;) {
        const size_t l = strcspn(p, ",");
        char item[64];
        int dims;
        if (l == 0 || l >= sizeof item || c->num_sizes == TUNE_MAX_CLASS_SIZES)
            return bad_option("--class: bad list of sizes in \"%s\" (MxNxK or MxN, at most 8)", arg);
        memcpy(item, p, l);
        item[l] = '\0';
        if (!parse_size(item, &c->sizes[c->num_sizes], &dims))
            return bad_option("--class: bad size in \"%s\" (MxNxK for products, MxN for gemvs)", arg);
        /* Its own problems must be in it: a class tuned on problems it does not serve tunes nothing it uses. */
        const tune_size *z = &c->sizes[c->num_sizes];
        const oclblas__shape sh = {.m = z->m, .n = z->n, .k = dims == 3 ? z->k : 1};
        if (!oclblas__class_matches(&c->cls, &sh))
            return bad_option("--class: the size %s does not meet the class's rule (a gemv is k = 1 to it)", item);
        ++c->num_sizes;
        p += l;
        if (*p)
            ++p;
    }
    if (!c->num_sizes)
        return bad_option("--class: no sizes in \"%s\"", arg);
    /* First match wins: the entry would be refused with a class that an earlier one leaves no shape to. */
    for (int i = 0; i < o->num_classes; ++i)
        if (oclblas__class_covers(&o->classes[i].cls, &c->cls)) {
            fprintf(stderr, "oclblas-tune: --class %s: class %s before it takes all its shapes\n", c->cls.name,
                    o->classes[i].cls.name);
            return bad_option("(in \"%s\")", arg);
        }
    ++o->num_classes;
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
        {"no-database-seed", 0, 0, 14}, {"build", 1, 0, 15}, {"from-journal", 1, 0, 16},
        {"class", 1, 0, 17},         {"no-classes", 0, 0, 18},    {0, 0, 0, 0}};
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
        case 17:
            if (!parse_class(o, optarg))
                return 0;
            break;
        case 18: o->no_classes = 1; break;
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
    if (o->no_classes && o->num_classes)
        return bad_option("give --class or --no-classes, not both%s", "");
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

/* The classes tuned when none are given. Column-major, as the rules see
 * the problems (a row-major call's m is the rule's n): one small side
 * (where a wide tile wastes most of itself and the tiles of C are few),
 * each side for itself; k much larger than m and n (the split of k);
 * products smaller than about 1024^3 on a GPU, 512^3 on a CPU; gemvs below
 * 4096^2 on a GPU, 2048^2 on a CPU (a CPU's caches hold them). Products
 * say k >= 2 and gemvs k <= 1 (a gemv is k = 1 to a rule), so that the
 * routine values of the one never serve the other. */
static void default_classes(options *o, const tune_device *d)
{
    if (o->num_classes || o->no_classes)
        return;
    const int gpu = strcmp(d->info->type, "CPU") != 0;
    static const char *const gpu_classes[] = {
        "narrow-m:m <= 128, k >= 2:32x4096x4096,64x16384x1024,128x4096x4096",
        "narrow-n:n <= 128, k >= 2:4096x32x4096,16384x64x1024,4096x128x4096",
        "deep:k/max(m,n) >= 8, k >= 2:1024x1024x16384,256x256x65536",
        "small:m*n*k <= 1.1e9, k >= 2:512x512x512,1024x1024x1024",
        "gemv-small:k <= 1, m*n <= 2.6e7:4096x4096,2048x8192",
    };
    static const char *const cpu_classes[] = {
        "narrow-m:m <= 64, k >= 2:64x2048x1024",
        "narrow-n:n <= 64, k >= 2:2048x64x1024",
        "deep:k/max(m,n) >= 8, k >= 2:256x256x8192",
        "small:m*n*k <= 1.4e8, k >= 2:256x256x256,512x512x512",
        "gemv-small:k <= 1, m*n <= 4.2e6:1024x1024,2048x2048",
    };
    const char *const *list = gpu ? gpu_classes : cpu_classes;
    const int n = gpu ? (int)(sizeof gpu_classes / sizeof *gpu_classes) : (int)(sizeof cpu_classes / sizeof *cpu_classes);
    for (int i = 0; i < n; ++i)
        if (!parse_class(o, list[i]))
            abort(); /* the defaults are the program's own */
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
    int cls_index;      /* the class searched (options' classes), -1 for the set for every shape */
    int tty;
    int have_best;
    tune_record best;
    char best_text[512];
    oclblas__params seed;
    int seed_measured;
    tune_record seed_rec;
} kernel_run;

static void so_far_set(int kernel, int cls, unsigned given, const oclblas__params *p, const char *problem);

static void note_result(kernel_run *kr, const oclblas__params *p, const tune_record *r)
{
    kr->clock += r->charged;
    if (r->status != TUNE_OK)
        ++kr->failed[r->status];
    if (r->status == TUNE_OK && (!kr->have_best || r->cost < kr->best.cost)) {
        kr->have_best = 1;
        kr->best = *r;
        oclblas__params_format(kr->space->kernel, p, kr->best_text, sizeof kr->best_text);
        so_far_set(kr->space->kernel, kr->cls_index, (1u << oclblas__kernels[kr->space->kernel]->num_params) - 1, p,
                   kr->problem);
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
    double clock;     /* with the kernel's classes' searches (tune_kernel) */
    double own_clock; /* this search's alone */
    tune_stop stop;
    char problem[256];
    int out_of_time;  /* a class's search that did not start: the kernel's time budget was spent */
} kernel_result;

/* --from-journal: the best configuration the journal holds for the
 * search's problem (a class's names the class and its rule), which is what
 * the run that measured it chose (unless the journal holds more than that
 * run reached). */
static void best_in_journal(const options *o, tune_journal *j, int kernel, const tune_class *cls,
                            const oclblas__params *seed, kernel_result *res)
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
static int search_kernel(const options *o, tune_device *d, tune_workers *workers, tune_journal *j,
                         tune_run_budget *budget, int kernel, const tune_class *cls, const tune_size *sizes,
                         int num_sizes, const oclblas__params *seeds, int num_seeds, double time_budget,
                         long config_budget, kernel_result *res)
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
    /* A class's tiles no wider than its problems: the rest is padding. */
    for (int i = 0; cls && i < space.num_params; ++i) {
        const char along = oclblas__kernels[kernel]->params[i].along;
        size_t most = 0;
        for (int z = 0; z < num_sizes && along; ++z) {
            const size_t v = along == 'm' ? sizes[z].m : along == 'n' ? sizes[z].n : sizes[z].k;
            most = v > most ? v : most;
        }
        size_t cap = 1;
        while (cap < most)
            cap *= 2;
        if (along && !tune_space_cap(&space, i, cap > (size_t)1 << 30 ? 1 << 30 : (int)cap, err, sizeof err)) {
            fprintf(stderr, "oclblas-tune: %s\n", err);
            return 0;
        }
    }
    /* Where the database stands today, and the other starting points. */
    oclblas__params seed = {{-1}};
    uint64_t seed_codes[MAX_SEEDS];
    int num_codes = 0, have_seed = 0;
    for (int i = 0; i < num_seeds && o->seed_db; ++i) {
        uint64_t code;
        if (!tune_space_nearest(&space, &seeds[i], &code))
            continue;
        int dup = 0;
        for (int c = 0; c < num_codes; ++c)
            dup |= seed_codes[c] == code;
        if (dup)
            continue;
        if (i == 0) {
            have_seed = 1;
            tune_space_params(&space, code, &seed);
        }
        seed_codes[num_codes++] = code;
    }
    tune_bench_opts bo = {o->runs, o->screen};
    tune_bench *bench = tune_bench_new(d, kernel, sizes, num_sizes, &bo, cls, err, sizeof err);
    if (!bench) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        tune_space_free(&space);
        return 0;
    }
    if (o->from_journal) {
        tune_bench_problem(bench, res->problem, sizeof res->problem);
        best_in_journal(o, j, kernel, cls, have_seed ? &seed : NULL, res);
        tune_bench_free(bench);
        tune_space_free(&space);
        return 1;
    }
    tune_strategy *st = tune_strategy_new(&space, &o->strategy, seed_codes, num_codes, err, sizeof err);
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
    kr.seed = seed;
    kr.tty = isatty(STDERR_FILENO);
    kr.start = tune_now();
    kr.meter = meter;
    kr.budget = budget;
    kr.time_budget = time_budget;
    kr.cls_index = cls ? (int)(cls - o->classes) : -1;
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
                have_seed ? ", starting from the database's" : num_codes ? ", starting from the sets found so far" : "");
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
    res->clock = res->own_clock = out.clock;
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
static int tune_kernel(const options *o, tune_device *d, tune_workers *workers, tune_journal *j,
                       tune_run_budget *budget, int kernel, const oclblas__devctx *start, double time_budget,
                       long config_budget, kernel_result *res, kernel_result class_res[OCLBLAS__MAX_CLASSES])
{
    int searches = 2;
    for (int c = 0; c < o->num_classes; ++c)
        searches += class_tunes(&o->classes[c], kernel);
    oclblas__params seeds[MAX_SEEDS];
    int num_seeds = 0;
    if (d->cx.status[kernel] == OCLBLAS_SUCCESS)
        seeds[num_seeds++] = d->cx.params[kernel];
    num_seeds += sibling_seeds(d, kernel, NULL, seeds + num_seeds, MAX_SEEDS - num_seeds);
    for (int c = 0; c < o->num_classes; ++c)
        memset(&class_res[c], 0, sizeof class_res[c]);
    if (!search_kernel(o, d, workers, j, budget, kernel, NULL, o->sizes[kernel], o->num_sizes[kernel], seeds,
                       num_seeds, time_budget > 0 ? 2 * time_budget / searches : 0, config_budget, res))
        return 0;
    double left = time_budget - res->clock;
    int done = 2;
    for (int c = 0; c < o->num_classes && !tune_interrupted(); ++c) {
        const tune_class *cls = &o->classes[c];
        if (!class_tunes(cls, kernel))
            continue;
        /* The kernel's share is spent (or the whole run's, on the wall): the class keeps the set for every shape. */
        if (time_budget > 0 && !o->from_journal &&
            (left <= 0 || (budget->total > 0 && tune_run_budget_spent(budget) >= budget->total))) {
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
        num_seeds += sibling_seeds(d, kernel, cls->cls.name, seeds + num_seeds, MAX_SEEDS - num_seeds);
        const double share = time_budget > 0 ? left / (searches - done) : 0;
        if (!search_kernel(o, d, workers, j, budget, kernel, cls, sizes, n, seeds, num_seeds, share, config_budget,
                           &class_res[c]))
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
static void install_classes(const options *o, tune_device *d, int kernel, const kernel_result *class_res,
                            tune_entry *entry)
{
    d->cx.num_classes[kernel] = 0;
    for (int c = 0; c < o->num_classes; ++c) {
        if (!class_res[c].found)
            continue;
        oclblas__class_set *cs = &d->cx.classes[kernel][d->cx.num_classes[kernel]++];
        cs->cls = o->classes[c].cls;
        cs->params = class_res[c].best;
        entry->classes[c].given[kernel] = (1u << oclblas__kernels[kernel]->num_params) - 1;
        entry->classes[c].params[kernel] = class_res[c].best;
    }
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
 * plan that uses what this run changed (changed[k]: kernel k, for every
 * shape or for a class, or a routine value), and each class's first
 * problems where they may: the others run as they did before it, and on a
 * CPU each plan's programs take seconds to build. */
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
        char what[64];
        int ok;
    } checks[6 + 3 * OCLBLAS__MAX_CLASSES];
    const int values = changed[OCLBLAS__K_ROUTINE], helpers = changed[OCLBLAS__K_HELPERS],
              fast = changed[OCLBLAS__K_GEMM_FAST], direct = changed[OCLBLAS__K_GEMM_DIRECT];
    if (small && (values || direct)) {
        snprintf(checks[total].what, sizeof checks[total].what, "direct");
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMM, 0, small + 2, small, small - 1, note, sizeof note);
    }
    if (values || helpers || fast) {
        snprintf(checks[total].what, sizeof checks[total].what, "padded");
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMM, 0, big, big - 5, big + 3, note, sizeof note);
    }
    if (values || fast) {
        snprintf(checks[total].what, sizeof checks[total].what, "in place");
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMM, 1, (big + mwg - 1) / mwg * mwg,
                                        (big + nwg - 1) / nwg * nwg, (big + kwg - 1) / kwg * kwg, note, sizeof note);
    }
    if (values || helpers || changed[OCLBLAS__K_GEMV_N]) { /* the helpers hold gemv's reduction */
        snprintf(checks[total].what, sizeof checks[total].what, "gemv_n");
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMV, 0, gv[0].m, gv[0].n, 0, note, sizeof note);
    }
    if (values || helpers || changed[OCLBLAS__K_GEMV_T]) {
        snprintf(checks[total].what, sizeof checks[total].what, "gemv_t");
        checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMV, 1, o->sizes[OCLBLAS__K_GEMV_T][0].m,
                                        o->sizes[OCLBLAS__K_GEMV_T][0].n, 0, note, sizeof note);
    }
    /* Each class's first problems, through its sets (a class's own crossover may send its products to
     * gemm_direct). */
    for (int c = 0; c < o->num_classes; ++c) {
        const tune_class *cls = &o->classes[c];
        tune_size sz[TUNE_MAX_CLASS_SIZES];
        if (tune_class_sizes(cls, 0, sz) && (values || helpers || fast || direct)) {
            snprintf(checks[total].what, sizeof checks[total].what, "class %s, %zux%zux%zu", cls->cls.name, sz[0].m,
                     sz[0].n, sz[0].k);
            checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMM, 0, sz[0].m, sz[0].n, sz[0].k, note, sizeof note);
        }
        if (tune_class_sizes(cls, 1, sz))
            for (int t = 0; t < 2; ++t) {
                if (!values && !helpers && !changed[t ? OCLBLAS__K_GEMV_T : OCLBLAS__K_GEMV_N])
                    continue;
                snprintf(checks[total].what, sizeof checks[total].what, "class %s, %zux%zu %c", cls->cls.name,
                         sz[0].m, sz[0].n, t ? 'T' : 'N');
                checks[total++].ok = check_call(d, OCLBLAS__FORM_GEMV, t, sz[0].m, sz[0].n, 0, note, sizeof note);
            }
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
 * kernels this run did not tune (their sets for every shape and for their
 * classes), so that kernels can be tuned in separate runs into one file;
 * what its "tuned" object says about them (sizes, when this run has none
 * of its own, and note) is carried over too. */
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
            /* A kernel this run tuned, for every shape or for a class, is this run's alone. */
            int tuned = e->has[k];
            for (int c = 0; c < e->num_classes; ++c)
                tuned |= e->classes[c].given[k] != 0;
            if (tuned || (!(old->has & (1u << k)) && !old->num_classes))
                continue;
            int any = 0;
            if (old->has & (1u << k)) {
                e->has[k] = any = 1;
                memcpy(e->params[k].v, old->values[k], sizeof e->params[k].v);
            }
            /* Its classes' sets too, into the class of the same name (a new one at the end). */
            for (int oc = 0; oc < old->num_classes; ++oc) {
                const oclblas__db_class *dc = &old->classes[oc];
                if (!(dc->has & (1u << k)))
                    continue;
                int c = 0;
                while (c < e->num_classes && strcmp(e->classes[c].cls.name, dc->cls.name) != 0)
                    ++c;
                if (c == e->num_classes) {
                    if (c == OCLBLAS__MAX_CLASSES)
                        continue;
                    memset(&e->classes[c], 0, sizeof e->classes[c]);
                    e->classes[c].cls = dc->cls;
                    ++e->num_classes;
                }
                e->classes[c].given[k] = dc->given[k];
                memcpy(e->classes[c].params[k].v, dc->values[k], sizeof e->classes[c].params[k].v);
                any = 1;
            }
            if (!any)
                continue;
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

/* The best configuration found so far of each kernel, for every shape
 * and for each class (and the routine values once measured), kept as they
 * are found, so that a second interrupt can write them from the signal
 * thread while the run is in the middle of a build or a measurement. */
static struct {
    pthread_mutex_t lock;
    const options *o;
    const tune_device *d;
    const char *output, *journal;
    int has[OCLBLAS__K_COUNT];
    oclblas__params params[OCLBLAS__K_COUNT];
    char problem[OCLBLAS__K_COUNT][256];
    tune_entry_class classes[OCLBLAS__MAX_CLASSES]; /* the options' classes, in their order */
    int done; /* the run wrote its entry (or found nothing to write): nothing is left to do */
} so_far = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void so_far_start(const options *o, const tune_device *d, const char *output, const char *journal)
{
    pthread_mutex_lock(&so_far.lock);
    so_far.o = o;
    so_far.d = d;
    so_far.output = output;
    so_far.journal = journal;
    for (int c = 0; c < o->num_classes; ++c)
        so_far.classes[c].cls = o->classes[c].cls;
    pthread_mutex_unlock(&so_far.lock);
}

/* cls: the class (index in the options' classes), -1 for the set for
 * every shape; given: the parameters it names, for a class. */
static void so_far_set(int kernel, int cls, unsigned given, const oclblas__params *p, const char *problem)
{
    pthread_mutex_lock(&so_far.lock);
    if (cls < 0) {
        so_far.has[kernel] = 1;
        so_far.params[kernel] = *p;
        oclblas__strlcpy(so_far.problem[kernel], problem, sizeof so_far.problem[0]);
    } else {
        so_far.classes[cls].given[kernel] = given;
        so_far.classes[cls].params[kernel] = *p;
    }
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
        e.num_classes = so_far.o->num_classes;
        memcpy(e.classes, so_far.classes, sizeof so_far.classes);
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
    for (int c = 0; c < o->num_classes; ++c) {
        char rule[256];
        oclblas__class_format(&o->classes[c].cls, rule, sizeof rule);
        printf("class %-11s %s:", o->classes[c].cls.name, rule);
        for (int z = 0; z < o->classes[c].num_sizes; ++z) {
            const tune_size *t = &o->classes[c].sizes[z];
            if (t->k)
                printf(" %zux%zux%zu", t->m, t->n, t->k);
            else
                printf(" %zux%zu", t->m, t->n);
        }
        putchar('\n');
    }
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
    default_classes(&o, &d);
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
    entry.num_classes = o.num_classes;
    for (int c = 0; c < o.num_classes; ++c)
        entry.classes[c].cls = o.classes[c].cls;
    kernel_result results[OCLBLAS__K_COUNT];
    memset(results, 0, sizeof results);
    static kernel_result class_results[OCLBLAS__K_COUNT][OCLBLAS__MAX_CLASSES];
    const oclblas__devctx start = d.cx; /* where the database stands: the classes' first seeds */
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
        if (!tune_kernel(&o, &d, workers, j, &rb, k, &start, share, configs, &results[k], class_results[k])) {
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
        install_classes(&o, &d, k, class_results[k], &entry);
        for (int c = 0; c < o.num_classes; ++c)
            changed[k] |= class_results[k][c].found;
    }
    tune_workers_stop(workers); /* the rest builds a few programs only */
    if (status == EXIT_USAGE) {
        tune_journal_close(j);
        tune_device_close(&d);
        return EXIT_USAGE;
    }

    char routine_summary[2048] = "";
    if (o.selected[OCLBLAS__K_ROUTINE] && !tune_interrupted()) {
        tune_routine_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.budget = &rb;
        ro.runs = o.runs;
        ro.quiet = o.quiet;
        ro.gemv_long = o.gemv_long;
        ro.gemv_short = o.gemv_short;
        ro.gemv_square = o.gemv_square;
        ro.classes = o.classes;
        ro.num_classes = o.num_classes;
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
        unsigned class_given[OCLBLAS__MAX_CLASSES] = {0};
        oclblas__params class_values[OCLBLAS__MAX_CLASSES];
        const int done = tune_routine(&d, &ro, j, tuned, class_given, class_values, routine_summary,
                                      sizeof routine_summary, err, sizeof err);
        for (int r = 0; r < RT_COUNT; ++r)
            any_tuned |= tuned[r];
        for (int c = 0; c < o.num_classes; ++c)
            any_tuned |= class_given[c] != 0;
        /* From a journal without routine values, as from a run stopped before them: none in the entry. */
        changed[OCLBLAS__K_ROUTINE] = any_tuned;
        if (done && (any_tuned || !o.from_journal)) {
            entry.has[OCLBLAS__K_ROUTINE] = 1;
            memset(&entry.params[OCLBLAS__K_ROUTINE], 0, sizeof entry.params[0]);
            entry.params[OCLBLAS__K_ROUTINE] = d.cx.params[OCLBLAS__K_ROUTINE];
            for (int c = 0; c < o.num_classes; ++c) {
                entry.classes[c].given[OCLBLAS__K_ROUTINE] = class_given[c];
                entry.classes[c].params[OCLBLAS__K_ROUTINE] = class_values[c];
            }
            searched[OCLBLAS__K_ROUTINE] = 1;
            so_far_set(OCLBLAS__K_ROUTINE, -1, 0, &entry.params[OCLBLAS__K_ROUTINE], "");
            for (int c = 0; c < o.num_classes; ++c)
                so_far_set(OCLBLAS__K_ROUTINE, c, class_given[c], &class_values[c], "");
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
    for (int i = 0; i < OCLBLAS__K_COUNT * (1 + OCLBLAS__MAX_CLASSES) && used < sizeof entry.note; ++i) {
        /* Each kernel's search for every shape, then its classes'. */
        const int k = i / (1 + OCLBLAS__MAX_CLASSES), c = i % (1 + OCLBLAS__MAX_CLASSES) - 1;
        const kernel_result *r = c < 0 ? &results[k] : &class_results[k][c];
        if (!searched[k] || !tuning_of(k) ||
            (c >= 0 && (c >= o.num_classes || (r->measured + r->replayed == 0 && !r->out_of_time))))
            continue;
        char tb[32], what[64];
        tune_format_duration(r->own_clock, tb, sizeof tb);
        snprintf(what, sizeof what, "%s%s%s", oclblas__kernels[k]->name, c < 0 ? "" : " class ",
                 c < 0 ? "" : o.classes[c].cls.name);
        if (r->out_of_time) {
            used += (size_t)snprintf(entry.note + used, sizeof entry.note - used,
                                     " %s: not tuned, the time budget was spent;", what);
            continue;
        }
        int w = snprintf(entry.note + used, sizeof entry.note - used,
                         " %s: %s, %ld configurations (%ld measured, %ld failed) in %s, best %.1f %s", 
                         what, r->problem, r->measured + r->replayed, r->measured, r->failed, tb,
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
    printf("%-24s %-10s %12s %12s %8s  %s\n", "kernel", "stop", "best", "database's", "configs", "parameters");
    for (int i = 0; i < OCLBLAS__K_COUNT * (1 + OCLBLAS__MAX_CLASSES); ++i) {
        /* Each kernel's set for every shape, then its classes'. */
        const int k = i / (1 + OCLBLAS__MAX_CLASSES), c = i % (1 + OCLBLAS__MAX_CLASSES) - 1;
        const kernel_result *r = c < 0 ? &results[k] : &class_results[k][c];
        if (!searched[k] || !tuning_of(k) ||
            (c >= 0 && (c >= o.num_classes || (r->measured + r->replayed == 0 && !r->out_of_time))))
            continue;
        char what[64];
        snprintf(what, sizeof what, "%s%s%s", oclblas__kernels[k]->name, c < 0 ? "" : " ", c < 0 ? "" : o.classes[c].cls.name);
        if (r->out_of_time) {
            printf("%-24s %-10s %12s %12s %8d  (not tuned: the time budget was spent)\n", what, "time", "-", "-", 0);
            continue;
        }
        char best[32] = "-", base[32] = "-", text[512] = "(none)";
        if (r->found) {
            snprintf(best, sizeof best, "%.1f", r->best_rec.rate);
            oclblas__params_format(k, &r->best, text, sizeof text);
        }
        if (r->seed_measured && r->seed_rec.status == TUNE_OK)
            snprintf(base, sizeof base, "%.1f", r->seed_rec.rate);
        static const char *const stops[] = {"exhausted", "configs", "time", "interrupt", "stalled", "error"};
        printf("%-24s %-10s %12s %12s %8ld  %s %s\n", what, o.from_journal ? "journal" : stops[r->stop], best, base,
               r->measured + r->replayed, tune_unit(k), text);
    }
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (out_of_time[k])
            printf("%-24s %-10s %12s %12s %8d  (not tuned: the time budget was spent)\n", oclblas__kernels[k]->name,
                   "time", "-", "-", 0);
    if (searched[OCLBLAS__K_ROUTINE]) {
        char text[256];
        oclblas__params_format(OCLBLAS__K_ROUTINE, &entry.params[OCLBLAS__K_ROUTINE], text, sizeof text);
        printf("%-24s %s\n", "routine", text);
        for (int c = 0; c < o.num_classes; ++c) {
            const tune_entry_class *ec = &entry.classes[c];
            if (!ec->given[OCLBLAS__K_ROUTINE])
                continue;
            size_t u = 0;
            text[0] = '\0';
            for (int v = 0; v < RT_COUNT && u < sizeof text; ++v)
                if (ec->given[OCLBLAS__K_ROUTINE] & (1u << v))
                    u += (size_t)snprintf(text + u, sizeof text - u, "%s%s=%d", u ? "," : "",
                                          oclblas__kernels[OCLBLAS__K_ROUTINE]->params[v].name,
                                          ec->params[OCLBLAS__K_ROUTINE].v[v]);
            printf("routine %-16s %s\n", ec->cls.name, text);
        }
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
