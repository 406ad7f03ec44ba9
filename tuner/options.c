/*
 * oclblas-tune's command line: the help text, the parsing of every option
 * into a tune_options value (with a one-line message and exit status 2 for
 * anything it does not accept), and the defaults that depend on the device:
 * the problem sizes from the kernels' descriptors, the classes of shapes,
 * the kernels the device cannot run, the output's name.
 */
#include "program.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --quick's whole-run time budgets in seconds, a minute and a half below the bounds
 * it promises (10 minutes on a CPU, 5 on a GPU): see tune_options_for_device. */
#define QUICK_CPU_SECONDS 480
#define QUICK_GPU_SECONDS 210

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
"      --quick              an entry for a new device in at most 10 minutes on a CPU and 5 on\n"
"                           a GPU: -t " OCLBLAS__STR(QUICK_CPU_SECONDS) " on a CPU, -t " OCLBLAS__STR(QUICK_GPU_SECONDS) " on a GPU or accelerator (the rest is\n"
"                           for the candidate in flight and the entry's check); a -t given wins.\n"
"                           On a CPU: no classes of shapes unless --class names some, each\n"
"                           kernel's first default size only, and --runs 3, unless given\n"
"  -t, --time-budget SEC    seconds for the whole run, shared out among the kernels, each\n"
"                           taking its share of what is left when its turn comes, after\n"
"                           6%% set aside for the routine values:\n"
"                           %s.\n"
"                           Nothing starts once it is spent; the run ends within SEC plus\n"
"                           the candidate in flight, then times the rates (--rates), writes\n"
"                           and checks the entry.\n"
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
"                           gemvs tune gemv_n, gemv_t and their GEMV_(T_)GROUPS_PER_CU.\n"
"                           Repeatable, in order. Default: classes for one small side, long\n"
"                           k, small products and gemvs (--list shows them), smaller on a CPU\n"
"      --no-classes         only the sets for every shape\n"
"Measurement:\n"
"      --size K=MxNxK[,MxNxK...]\n"
"                           problem sizes of kernel K (MxNxK for products, MxN for gemv\n"
"                           kernels, ROWSxCOLS of an operand for copies; routine:\n"
"                           LONGxSHORTxSQUARE, the gemv\n"
"                           shapes for GEMV_(T_)GROUPS_PER_CU); with several sizes a candidate\n"
"                           is rated by the geometric mean of its rates\n"
"      --runs N             timed runs per candidate after the checked one (default 5)\n"
"      --rates WHEN         auto (default), on or off: after the searches, time each GEMM set\n"
"                           the run chose on the problem the plans' cost model rates sets on,\n"
"                           and write its rate into the entry (the model counts only sets with\n"
"                           one); auto: where the model has the device's facts (the database's,\n"
"                           or the earlier entry's at the output)\n"
"      --rate-size K=MxNxK  that problem for kernel K (default: gemm_fast and gemm_tc\n"
"                           4096x4096x4096, gemm_direct 1024x1024x1024, the problems the\n"
"                           database's rates are measured on)\n"
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
"its check; 2 bad options; 3 no device, or an output or journal that cannot be used (a\n"
"link, FIFO, device or folder where a file should be); 130 after SIGINT, 143 after\n"
"SIGTERM (the entry holds what was found so far, and the journal lets the next run resume).\n",
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

/* The next item of a comma-separated list at *p into item; 0 when it is empty or too long. */
static int next_item(const char **p, char *item, size_t len)
{
    const size_t l = strcspn(*p, ",");
    if (l == 0 || l >= len)
        return 0;
    memcpy(item, *p, l);
    item[l] = '\0';
    *p += l;
    if (**p)
        ++*p;
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

/* --size K=MxNxK[,...] */
static int parse_sizes(tune_options *o, const char *arg)
{
    int k;
    const char *v;
    if (!split_kernel(arg, &k, &v) || k < 0)
        return bad_option("--size needs KERNEL=MxNxK[,...], got \"%s\"", arg);
    const int dims = k == OCLBLAS__K_ROUTINE || (tuning_of(k) && tuning_of(k)->form == OCLBLAS__FORM_GEMM) ? 3 : 2;
    int n = 0;
    for (const char *p = v; *p; ++n) {
        char item[64];
        int got;
        if (n == 8 || !next_item(&p, item, sizeof item))
            return bad_option("bad --size list \"%s\"", arg);
        if (!parse_size(item, &o->sizes[k][n], &got))
            return bad_option("bad size in \"%s\"", arg);
        if (got != dims)
            return bad_option(dims == 3 ? "\"%s\": this kernel takes MxNxK sizes"
                                        : "\"%s\": this kernel takes MxN sizes",
                              arg);
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

/* --rate-size K=MxNxK: the problem the rates of kernel K's sets are measured on. */
static int parse_rate_size(tune_options *o, const char *arg)
{
    int k, dims;
    const char *v;
    if (!split_kernel(arg, &k, &v) || k < 0 || !tuning_of(k) || !tuning_of(k)->rate[0])
        return bad_option("--rate-size needs KERNEL=MxNxK for a kernel whose sets have rates "
                          "(gemm_fast, gemm_tc, gemm_direct), got \"%s\"", arg);
    if (!parse_size(v, &o->rate_size[k], &dims) || dims != 3)
        return bad_option("--rate-size takes one MxNxK, got \"%s\"", arg);
    return 1;
}

/* --class NAME:RULE:SIZES */
static int parse_class(tune_options *o, const char *arg)
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
    for (const char *p = c2 + 1; *p; ++c->num_sizes) {
        char item[64];
        int dims;
        if (c->num_sizes == TUNE_MAX_CLASS_SIZES || !next_item(&p, item, sizeof item))
            return bad_option("--class: bad list of sizes in \"%s\" (MxNxK or MxN, at most 8)", arg);
        if (!parse_size(item, &c->sizes[c->num_sizes], &dims))
            return bad_option("--class: bad size in \"%s\" (MxNxK for products, MxN for gemvs)", arg);
        /* Its own problems must be in it: a class tuned on problems it does not serve tunes nothing it uses. */
        const tune_size *z = &c->sizes[c->num_sizes];
        const oclblas__shape sh = {.m = z->m, .n = z->n, .k = dims == 3 ? z->k : 1};
        if (!oclblas__class_matches(&c->cls, &sh))
            return bad_option("--class: the size %s does not meet the class's rule (a gemv is k = 1 to it)", item);
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

static int parse_budget(tune_options *o, const char *arg, int time)
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

/* Option codes of the long options without a letter. */
enum { O_FRESH = 1, O_SEED, O_FRACTION, O_COUNT, O_BATCH, O_SWARM, O_TEMPERATURE, O_VALUES, O_SIZE, O_RUNS, O_SCREEN,
       O_CACHE_DIR, O_LIST, O_NO_DB_SEED, O_BUILD, O_FROM_JOURNAL, O_CLASS, O_NO_CLASSES, O_QUICK, O_RATES,
       O_RATE_SIZE };

/* -k LIST */
static int parse_kernels(tune_options *o, const char *arg)
{
    char buf[256];
    oclblas__strlcpy(buf, arg, sizeof buf);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const int k = oclblas__kernel_by_name(t);
        if (k < 0 && strcmp(t, "all") != 0)
            return bad_option("unknown kernel \"%s\"", t);
        for (int i = 0; i < OCLBLAS__K_COUNT; ++i)
            o->selected[i] |= k < 0 || i == k;
    }
    return 1;
}

/* --values K:NAME=V,...[:NAME=V,...]: one entry per NAME=... group. */
static int parse_values(tune_options *o, const char *arg)
{
    const char *colon = strchr(arg, ':');
    char name[32];
    if (!colon || (size_t)(colon - arg) >= sizeof name)
        return bad_option("--values needs KERNEL:NAME=V,..., got \"%s\"", arg);
    memcpy(name, arg, (size_t)(colon - arg));
    name[colon - arg] = '\0';
    const int k = oclblas__kernel_by_name(name);
    if (k < 0)
        return bad_option("--values: unknown kernel \"%s\"", name);
    char buf[1024];
    oclblas__strlcpy(buf, colon + 1, sizeof buf);
    for (char *save = NULL, *t = strtok_r(buf, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
        if (o->num_values == MAX_VALUES_OPTS)
            return bad_option("too many --values%s", "");
        o->values[o->num_values].kernel = k;
        oclblas__strlcpy(o->values[o->num_values].text, t, sizeof o->values[0].text);
        ++o->num_values;
    }
    return 1;
}

/* --temperature T0,T1 */
static int parse_temperature(tune_options *o, const char *arg)
{
    const char *comma = strchr(arg, ',');
    char t0[64];
    if (!comma || (size_t)(comma - arg) >= sizeof t0)
        return bad_option("--temperature needs T0,T1, got \"%s\"", arg);
    memcpy(t0, arg, (size_t)(comma - arg));
    t0[comma - arg] = '\0';
    if (!tune_parse_double(t0, 1e-9, 1e3, &o->strategy.temp_start) ||
        !tune_parse_double(comma + 1, 1e-9, 1e3, &o->strategy.temp_end))
        return bad_option("bad --temperature \"%s\"", arg);
    return 1;
}

/* A whole number option in [min, max] into *out. */
static int int_option(const char *arg, long min, long max, const char *message, int *out)
{
    long n;
    if (!tune_parse_long(arg, min, max, &n))
        return bad_option(message, arg);
    *out = (int)n;
    return 1;
}

/* The options of the search. 1 taken, 0 refused (said), -1 none of these. */
static int search_option(tune_options *o, int c, const char *arg, int *batch, int *swarm)
{
    long n;
    switch (c) {
    case 's':
        return tune_strategy_parse(arg, &o->strategy.kind) ||
               bad_option("unknown strategy \"%s\" (full, random, annealing, pso)", arg);
    case O_SEED:
        if (!tune_parse_long(arg, 0, 0x7fffffffL, &n))
            return bad_option("bad --seed \"%s\"", arg);
        o->strategy.seed = (uint64_t)n;
        return 1;
    case O_FRACTION:
        return tune_parse_double(arg, 1e-9, 1.0, &o->strategy.fraction) ||
               bad_option("--fraction needs a number in (0, 1], got \"%s\"", arg);
    case O_COUNT:
        return tune_parse_long(arg, 1, 1000000000L, &o->strategy.count) || bad_option("bad --count \"%s\"", arg);
    case O_BATCH: return int_option(arg, 1, 256, "--batch needs 1..256, got \"%s\"", batch);
    case O_SWARM: return int_option(arg, 1, 256, "--swarm needs 1..256, got \"%s\"", swarm);
    case O_TEMPERATURE: return parse_temperature(o, arg);
    case O_VALUES: return parse_values(o, arg);
    case O_NO_DB_SEED: o->seed_db = 0; return 1;
    case 't': return parse_budget(o, arg, 1);
    case 'n': return parse_budget(o, arg, 0);
    case O_CLASS: return parse_class(o, arg);
    case O_NO_CLASSES: o->no_classes = 1; return 1;
    case O_QUICK: o->quick = 1; return 1;
    default: return -1;
    }
}

/* The options of the device, the files and the measurements. 1 taken, 0 refused (said), -1 none of these. */
static int run_option(tune_options *o, int c, const char *arg, int *any_kernel)
{
    double x;
    switch (c) {
    case 'd': o->device = arg; return 1;
    case 'o': o->output = arg; return 1;
    case 'j': o->journal = arg; return 1;
    case O_FRESH: o->fresh = 1; return 1;
    case O_FROM_JOURNAL: o->from_journal = arg; return 1;
    case 'k': *any_kernel = 1; return parse_kernels(o, arg);
    case O_SIZE: return parse_sizes(o, arg);
    case O_RATES:
        if (strcmp(arg, "auto") == 0)
            o->rates = RATES_AUTO;
        else if (strcmp(arg, "on") == 0)
            o->rates = RATES_ON;
        else if (strcmp(arg, "off") == 0)
            o->rates = RATES_OFF;
        else
            return bad_option("--rates needs auto, on or off, got \"%s\"", arg);
        return 1;
    case O_RATE_SIZE: return parse_rate_size(o, arg);
    case O_RUNS: o->runs_given = 1; return int_option(arg, 1, 50, "--runs needs 1..50, got \"%s\"", &o->runs);
    case O_SCREEN:
        if (!tune_parse_double(arg, 1.0, 1e6, &x))
            return bad_option("--screen needs a number >= 1, got \"%s\"", arg);
        o->screen = x;
        return 1;
    case 'J': return int_option(arg, 1, 64, "--jobs needs 1..64, got \"%s\"", &o->jobs);
    case O_CACHE_DIR: o->cache_dir = arg; return 1;
    case O_BUILD:
        if (strcmp(arg, "threads") == 0)
            o->build_mode = BUILD_THREADS;
        else if (strcmp(arg, "processes") == 0)
            o->build_mode = BUILD_PROCESSES;
        else if (strcmp(arg, "auto") == 0)
            o->build_mode = BUILD_AUTO;
        else
            return bad_option("--build needs threads, processes or auto, got \"%s\"", arg);
        return 1;
    case O_LIST: o->list = 1; return 1;
    case 'q': o->quiet = 1; return 1;
    default: return -1;
    }
}

/* The rules between options, once all are read. */
static int options_agree(tune_options *o, int batch, int swarm, int any_kernel)
{
    if (!any_kernel) /* every kernel, as by default (tune_options_for_device may leave some out) */
        for (int i = 0; i < OCLBLAS__K_COUNT; ++i)
            o->selected[i] = SELECTED_BY_DEFAULT;
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

/* The defaults before the command line, and the command line itself for the entry's note. */
static void option_defaults(int argc, char **argv, tune_options *o)
{
    memset(o, 0, sizeof *o);
    tune_strategy_defaults(&o->strategy);
    o->runs = 5;
    o->screen = 3.0;
    o->seed_db = 1;
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;
    size_t used = 0;
    for (int i = 0; i < argc && used + 2 < sizeof o->command; ++i) {
        const int w = snprintf(o->command + used, sizeof o->command - used, "%s%s", i ? " " : "", argv[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int tune_options_parse(int argc, char **argv, tune_options *o)
{
    static const struct option longs[] = {
        {"device", 1, 0, 'd'},        {"output", 1, 0, 'o'},           {"journal", 1, 0, 'j'},
        {"fresh", 0, 0, O_FRESH},     {"kernels", 1, 0, 'k'},          {"strategy", 1, 0, 's'},
        {"seed", 1, 0, O_SEED},       {"fraction", 1, 0, O_FRACTION},  {"count", 1, 0, O_COUNT},
        {"batch", 1, 0, O_BATCH},     {"swarm", 1, 0, O_SWARM},        {"temperature", 1, 0, O_TEMPERATURE},
        {"values", 1, 0, O_VALUES},   {"time-budget", 1, 0, 't'},      {"max-configs", 1, 0, 'n'},
        {"size", 1, 0, O_SIZE},       {"runs", 1, 0, O_RUNS},          {"screen", 1, 0, O_SCREEN},
        {"jobs", 1, 0, 'J'},          {"cache-dir", 1, 0, O_CACHE_DIR}, {"list", 0, 0, O_LIST},
        {"quiet", 0, 0, 'q'},         {"help", 0, 0, 'h'},             {"version", 0, 0, 'V'},
        {"no-database-seed", 0, 0, O_NO_DB_SEED}, {"build", 1, 0, O_BUILD}, {"from-journal", 1, 0, O_FROM_JOURNAL},
        {"class", 1, 0, O_CLASS},     {"no-classes", 0, 0, O_NO_CLASSES}, {"quick", 0, 0, O_QUICK},
        {"rates", 1, 0, O_RATES},     {"rate-size", 1, 0, O_RATE_SIZE},
        {0, 0, 0, 0}};
    option_defaults(argc, argv, o);
    int batch = 0, swarm = 0, any_kernel = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:o:j:k:s:t:n:J:qhV", longs, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        if (c == 'V') {
            printf("oclblas-tune %s\n", TUNE_VERSION);
            return 0;
        }
        if (c == ':') {
            bad_option("option %s needs a value", argv[optind - 1]);
            return EXIT_USAGE;
        }
        int taken = search_option(o, c, optarg, &batch, &swarm);
        if (taken < 0)
            taken = run_option(o, c, optarg, &any_kernel);
        if (taken < 0)
            bad_option("unknown option %s", argv[optind - 1]);
        if (taken <= 0)
            return EXIT_USAGE;
    }
    if (optind < argc) {
        bad_option("unexpected argument \"%s\"", argv[optind]);
        return EXIT_USAGE;
    }
    return options_agree(o, batch, swarm, any_kernel) ? -1 : EXIT_USAGE;
}

/* ---- defaults that depend on the device --------------------------------------- */

static void default_sizes(tune_options *o, const tune_device *d)
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
static void default_classes(tune_options *o, const tune_device *d)
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
    const int n = gpu ? (int)(sizeof gpu_classes / sizeof *gpu_classes)
                      : (int)(sizeof cpu_classes / sizeof *cpu_classes);
    for (int i = 0; i < n; ++i)
        if (!parse_class(o, list[i]))
            abort(); /* the defaults are the program's own */
}

void tune_default_output(const tune_device *d, char *buf, size_t len)
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


void tune_options_for_device(tune_options *o, const tune_device *d)
{
    int sizes_given[OCLBLAS__K_COUNT];
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        sizes_given[k] = o->num_sizes[k] > 0;
    default_sizes(o, d);
    if (o->quick) {
        const int cpu = strcmp(d->info->type, "CPU") == 0;
        o->quick_time_given = o->time_total > 0;
        if (!o->quick_time_given)
            o->time_total = cpu ? QUICK_CPU_SECONDS : QUICK_GPU_SECONDS;
        /* Measured bounds: a run ends within -t plus its candidate in flight (on PoCL a build of up to
         * about 20 s, on Intel's runtime 50 s), then checks its entry, which builds what the run did not. */
        /* A CPU builds a candidate in 5 to 50 s and times a slow one at 2048^3 for as long: a
         * class's share of the quick budget (about 30 s) would measure only the set the
         * database gives it. So the time goes to the sets for every shape, each rated on its
         * first default size, with 3 timed runs. A GPU builds and times dozens in that time. */
        if (cpu) {
            if (!o->num_classes)
                o->no_classes = 1;
            for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
                if (!sizes_given[k] && o->num_sizes[k] > 1)
                    o->num_sizes[k] = 1;
            if (!o->runs_given)
                o->runs = 3;
        }
    }
    default_classes(o, d);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (!o->rate_size[k].m && tuning_of(k))
            o->rate_size[k] = (tune_size){tuning_of(k)->rate[0], tuning_of(k)->rate[1], tuning_of(k)->rate[2]};
    /* A kernel the device cannot run at all (gemm_tc off NVIDIA) is not
     * searched, and the entry leaves it out. */
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        const char *why = o->selected[k] && oclblas__kernels[k]->capable ? oclblas__kernels[k]->capable(&d->info->lim)
                                                                        : NULL;
        if (why) {
            o->selected[k] = 0;
            if (!o->quiet)
                fprintf(stderr, "oclblas-tune: %s is not tuned on this device: %s\n", oclblas__kernels[k]->name, why);
        }
    }
    /* A kernel meant for CPUs (gemm_cpu) is searched on another device only where -k names it. */
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (o->selected[k] == SELECTED_BY_DEFAULT && tuning_of(k) && tuning_of(k)->cpu_only &&
            strcmp(d->info->type, "CPU") != 0)
            o->selected[k] = 0;
}
