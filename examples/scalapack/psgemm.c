/*
 * ScaLAPACK's PSGEMM over MPI, with oclblas as each process's BLAS: C =
 * alpha A B + beta C on an np-process grid (np from mpirun, the grid as
 * square as np allows), A, B and C distributed 2-D block-cyclically in
 * NB x NB blocks. ScaLAPACK computes each process's share with the sgemm_
 * of whatever BLAS the process has: the drop-in liboclblas_cblas, preloaded
 * over the system BLAS (LD_PRELOAD) or linked in its place, or the system
 * BLAS alone for comparison; the program is the same. Before its first BLAS
 * call, each process names its own OpenCL device (OCLBLAS_DEVICE, from
 * --devices and its rank on the node). The global A, B and C are functions
 * of (i, j), so that every process fills its own blocks, and checks the
 * sampled elements of the result that it holds against a float64 dot
 * product, with no other process's data. Prints the time and rate of
 * PSGEMM and what oclblas did with the last local call.
 * Exit status: 0 every sampled element right, 1 a wrong one (or a failure),
 * 2 a bad option.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120 /* the API needs only OpenCL 1.2 types */
#include <oclblas.h>

#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* BLACS's C interface and the ScaLAPACK routines, as libscalapack exports
 * them (ScaLAPACK installs no C header for them). */
void Cblacs_pinfo(int *me, int *nprocs);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_barrier(int ctxt, const char *scope);
void Cdgsum2d(int ctxt, const char *scope, const char *top, int m, int n, double *a, int lda, int rdest, int cdest);
void Cdgamx2d(int ctxt, const char *scope, const char *top, int m, int n, double *a, int lda, int *ra, int *ca,
              int ldia, int rdest, int cdest);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int keep_mpi);
void Cblacs_abort(int ctxt, int code);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
               const int *icsrc, const int *ctxt, const int *lld, int *info);
void psgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
             const float *a, const int *ia, const int *ja, const int *desca, const float *b, const int *ib,
             const int *jb, const int *descb, const float *beta, float *c, const int *ic, const int *jc,
             const int *descc);

typedef struct {
    int m, n, k, nb;
    int kb;            /* PBLAS's panel width (pilaenv_), 0: ScaLAPACK's own */
    int reps, samples;
    int nprow, npcol;  /* 0: as square as np allows */
    float alpha, beta;
    const char *devices, *csv;
    int corrupt;       /* self-test: spoil one sampled element, so that the check must fail */
} options;

static options opt = {.m = 1024, .n = 1024, .k = 1024, .nb = 64, .reps = 3, .samples = 64, .alpha = 1.0f};

/* ---- PBLAS's panel width --------------------------------------------- */

/* PBLAS multiplies in steps of pilaenv_ columns of A (rows of B): each
 * step is one local sgemm_ call per process, on the whole of its block of
 * C, so this width sets how often C crosses the bus (docs/distributed.md).
 * PBLAS asks for it through the dynamic linker, as its documentation
 * invites a user to replace it; this one returns --kb, or else what the
 * library's own returns (32 in reference PBLAS). */
int pilaenv_(const int *ctxt, const char *prec)
{
    if (opt.kb > 0)
        return opt.kb;
    static int (*own)(const int *, const char *, size_t);
    if (!own)
        own = (int (*)(const int *, const char *, size_t))dlsym(RTLD_NEXT, "pilaenv_");
    return own ? own(ctxt, prec, 1) : 32;
}

/* ---- the matrices ------------------------------------------------------- */

enum { MAT_A, MAT_B, MAT_C };

/* Element (i, j) of matrix `which`: uniform in [-1, 1) on a grid of 2^-23
 * (so exact in float), from a hash of the indices (splitmix64's finalizer),
 * so that any process computes any element. */
static float element(int which, int64_t i, int64_t j)
{
    uint64_t x = ((uint64_t)i << 32 | (uint32_t)j) ^ ((uint64_t)(which + 1) * 0x9e3779b97f4a7c15u);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    return (float)((double)(x >> 40) / 8388608.0 - 1.0);
}

/* Block-cyclic layout, first block on process 0: the global index of local
 * index l on process p of np, and the owner and local index of global g. */
static int64_t global_index(int64_t l, int nb, int p, int np) { return (l / nb * np + p) * nb + l % nb; }
static int owner(int64_t g, int nb, int np) { return (int)(g / nb % np); }
static int64_t local_index(int64_t g, int nb, int np) { return g / ((int64_t)nb * np) * nb + g % nb; }

typedef struct {
    int rows, cols, lld; /* local */
    float *data;
    int desc[9];
} local_matrix;

static int local_matrix_init(local_matrix *x, int m, int n, int ctxt, int myrow, int mycol, int nprow, int npcol)
{
    const int zero = 0;
    x->rows = numroc_(&m, &opt.nb, &myrow, &zero, &nprow);
    x->cols = numroc_(&n, &opt.nb, &mycol, &zero, &npcol);
    x->lld = x->rows > 1 ? x->rows : 1;
    int info;
    descinit_(x->desc, &m, &n, &opt.nb, &opt.nb, &zero, &zero, &ctxt, &x->lld, &info);
    x->data = malloc((size_t)x->lld * (size_t)(x->cols > 0 ? x->cols : 1) * sizeof(float));
    return info == 0 && x->data != NULL;
}

static void local_matrix_fill(local_matrix *x, int which, int myrow, int mycol, int nprow, int npcol)
{
    for (int64_t lj = 0; lj < x->cols; ++lj) {
        const int64_t j = global_index(lj, opt.nb, mycol, npcol);
        float *col = x->data + lj * x->lld;
        for (int64_t li = 0; li < x->rows; ++li)
            col[li] = element(which, global_index(li, opt.nb, myrow, nprow), j);
    }
}

/* ---- options ----------------------------------------------------------- */

static void usage(void)
{
    printf("usage: mpirun -np NP psgemm [options]\n"
           "  --size S         M = N = K = S (default 1024)\n"
           "  --m M, --n N, --k K   each on its own\n"
           "  --nb NB          block size of the block-cyclic layout (64)\n"
           "  --kb KB          PBLAS's panel width, the k of each local sgemm_ (default: ScaLAPACK's, 32)\n"
           "  --grid PxQ       process grid (default: as square as NP allows, P <= Q)\n"
           "  --devices LIST   OpenCL devices, one OCLBLAS_DEVICE spec per node-local rank, separated by\n"
           "                   spaces, e.g. \"0:0 0:1\" (a rank past the list's end starts it again)\n"
           "  --reps R         timed PSGEMM calls after the first (3); the median is reported\n"
           "  --samples S      elements of C checked against float64 (64)\n"
           "  --alpha A, --beta B   (1, 0)\n"
           "  --csv FILE       append the result as a CSV row (a header first if FILE is new)\n"
           "  --corrupt        self-test: spoil one sampled element after PSGEMM; the check must fail\n"
           "exit status: 0 every sampled element right, 1 a wrong one or a failure, 2 a bad option\n");
}

/* A message for a bad option, or NULL when all are good. */
static const char *parse_int(const char *s, int *out, int min)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < min || v > 2147483647L)
        return "not an integer in range";
    *out = (int)v;
    return NULL;
}

static const char *parse_float(const char *s, float *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return "not a finite number";
    *out = (float)v;
    return NULL;
}

static const char *parse_options(int argc, char **argv, char *msg, size_t len)
{
    for (int i = 1; i < argc; ++i) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL, *why = NULL;
        int size;
        if (!strcmp(o, "--help") || !strcmp(o, "-h"))
            return "help";
        if (!strcmp(o, "--corrupt")) {
            opt.corrupt = 1;
            continue;
        }
        static const char *const valued[] = {"--size", "--m", "--n", "--k", "--nb", "--kb", "--reps",
                                             "--samples", "--alpha", "--beta", "--devices", "--csv", "--grid"};
        int known = 0;
        for (size_t n = 0; n < sizeof valued / sizeof *valued; ++n)
            known |= !strcmp(o, valued[n]);
        if (!known || !v) {
            snprintf(msg, len, known ? "%s needs a value" : "unknown option %s", o);
            return msg;
        }
        ++i;
        if (!strcmp(o, "--size")) {
            why = parse_int(v, &size, 1);
            opt.m = opt.n = opt.k = size;
        } else if (!strcmp(o, "--m"))
            why = parse_int(v, &opt.m, 1);
        else if (!strcmp(o, "--n"))
            why = parse_int(v, &opt.n, 1);
        else if (!strcmp(o, "--k"))
            why = parse_int(v, &opt.k, 1);
        else if (!strcmp(o, "--nb"))
            why = parse_int(v, &opt.nb, 1);
        else if (!strcmp(o, "--kb"))
            why = parse_int(v, &opt.kb, 1);
        else if (!strcmp(o, "--reps"))
            why = parse_int(v, &opt.reps, 1);
        else if (!strcmp(o, "--samples"))
            why = parse_int(v, &opt.samples, 1);
        else if (!strcmp(o, "--alpha"))
            why = parse_float(v, &opt.alpha);
        else if (!strcmp(o, "--beta"))
            why = parse_float(v, &opt.beta);
        else if (!strcmp(o, "--devices"))
            opt.devices = v;
        else if (!strcmp(o, "--csv"))
            opt.csv = v;
        else if (!strcmp(o, "--grid")) {
            char tail;
            if (sscanf(v, "%dx%d%c", &opt.nprow, &opt.npcol, &tail) != 2 || opt.nprow < 1 || opt.npcol < 1)
                why = "not PxQ with P, Q >= 1";
        }
        if (why) {
            snprintf(msg, len, "%s '%s': %s", o, v, why);
            return msg;
        }
    }
    return NULL;
}

/* ---- one device per process -------------------------------------------- */

/* The process's rank on its node, as the launcher tells it (Open MPI,
 * MPICH's Hydra, Slurm), else its global rank (all on one node). */
static int node_rank(int rank)
{
    const char *v = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    if (!v)
        v = getenv("MPI_LOCALRANKID");
    if (!v)
        v = getenv("SLURM_LOCALID");
    return v ? atoi(v) : rank;
}

/* Sets OCLBLAS_DEVICE to the item of `list` for this node-local rank; the
 * library reads it at its first call, which has not happened yet. */
static void bind_device(const char *list, int local)
{
    char items[64][128];
    int count = 0;
    for (const char *p = list; *p && count < 64;) {
        p += strspn(p, " \t");
        const size_t len = strcspn(p, " \t");
        if (len > 0 && len < sizeof items[0]) {
            memcpy(items[count], p, len);
            items[count++][len] = '\0';
        }
        p += len;
    }
    if (count > 0)
        setenv("OCLBLAS_DEVICE", items[local % count], 1);
}

/* ---- what served the local calls -------------------------------------- */

/* What serves the local calls, all looked up at run time: the file whose
 * sgemm_ ScaLAPACK's calls reach, OpenBLAS's build and the kernels it chose
 * (it computes what oclblas gives the host), oclblas's default device. */
typedef struct {
    char sgemm_from[256];
    char openblas[256], openblas_core[64];
    char device[320];
} blas_facts;

static void describe_blas(blas_facts *f)
{
    Dl_info info;
    void *sgemm = dlsym(RTLD_DEFAULT, "sgemm_");
    snprintf(f->sgemm_from, sizeof f->sgemm_from, "%s",
             sgemm && dladdr(sgemm, &info) && info.dli_fname ? info.dli_fname : "?");

    char *(*config)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_config");
    char *(*core)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_corename");
    int (*threads)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    snprintf(f->openblas_core, sizeof f->openblas_core, "%s", core ? core() : "none");
    if (config && core)
        snprintf(f->openblas, sizeof f->openblas, "%s, kernels for %s, %d threads", config(), core(),
                 threads ? threads() : 0);
    else
        snprintf(f->openblas, sizeof f->openblas, "no OpenBLAS");

    typedef oclblas_status default_fn(cl_device_id *, cl_context *, cl_command_queue *);
    typedef oclblas_status describe_fn(cl_device_id, char *, size_t);
    default_fn *default_device = (default_fn *)dlsym(RTLD_DEFAULT, "oclblas_default_device");
    describe_fn *description = (describe_fn *)dlsym(RTLD_DEFAULT, "oclblas_device_description");
    snprintf(f->device, sizeof f->device, "oclblas not in the process");
    if (default_device && description) {
        cl_device_id dev;
        char desc[256] = "";
        oclblas_status st = default_device(&dev, NULL, NULL);
        if (st == OCLBLAS_SUCCESS)
            st = description(dev, desc, sizeof desc);
        const char *spec = getenv("OCLBLAS_DEVICE");
        if (st == OCLBLAS_SUCCESS)
            snprintf(f->device, sizeof f->device, "oclblas device (OCLBLAS_DEVICE=%s): %s", spec ? spec : "unset",
                     desc);
        else
            snprintf(f->device, sizeof f->device, "oclblas device (OCLBLAS_DEVICE=%s): none (status %d)",
                     spec ? spec : "unset", (int)st);
    }
}

/* ---- timing and the check --------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The i-th sampled element of C: two corners, then pseudo-random ones,
 * the same on every process. */
static void sample(int s, int64_t *i, int64_t *j)
{
    if (s < 2) {
        *i = s ? opt.m - 1 : 0;
        *j = s ? opt.n - 1 : 0;
        return;
    }
    uint64_t x = 0x2545f4914f6cdd1dULL * (uint64_t)(s + 1);
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 32;
    *i = (int64_t)(x % (uint64_t)opt.m);
    *j = (int64_t)((x >> 32) % (uint64_t)opt.n);
}

/* The sampled elements this process holds, against alpha A B + beta C0 in
 * float64, each within 4 (k + 2) eps (|alpha| |A| |B| + |beta| |C0|) (the
 * bound of a float32 dot product of length k, with room for the reference's
 * rounding). Adds to counts: [0] checked, [1] wrong; returns the largest
 * ratio of error to bound. */
static double check_samples(const local_matrix *c, int myrow, int mycol, int nprow, int npcol, double counts[2])
{
    double worst = 0;
    for (int s = 0; s < opt.samples; ++s) {
        int64_t i, j;
        sample(s, &i, &j);
        if (owner(i, opt.nb, nprow) != myrow || owner(j, opt.nb, npcol) != mycol)
            continue;
        double sum = 0, mag = 0;
        for (int64_t l = 0; l < opt.k; ++l) {
            const double p = (double)element(MAT_A, i, l) * (double)element(MAT_B, l, j);
            sum += p;
            mag += fabs(p);
        }
        const double c0 = element(MAT_C, i, j);
        const double ref = opt.alpha * sum + opt.beta * c0;
        const double bound = 4.0 * (opt.k + 2.0) * FLT_EPSILON * (fabs(opt.alpha) * mag + fabs(opt.beta * c0)) + FLT_MIN;
        const double got = c->data[local_index(i, opt.nb, nprow) + local_index(j, opt.nb, npcol) * c->lld];
        const double err = fabs(got - ref);
        counts[0] += 1;
        if (!(err <= bound)) {
            counts[1] += 1;
            if (counts[1] <= 3)
                fprintf(stderr, "psgemm: C(%lld, %lld) = %.9g, expected %.9g (bound %.3g)\n", (long long)i,
                        (long long)j, got, ref, bound);
        }
        const double ratio = err / bound;
        worst = !(ratio <= worst) ? ratio : worst;
    }
    return worst;
}

static long nonfinite(const local_matrix *c)
{
    long count = 0;
    for (int64_t j = 0; j < c->cols; ++j)
        for (int64_t i = 0; i < c->rows; ++i)
            count += !isfinite(c->data[i + j * c->lld]);
    return count;
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
    int me, np;
    Cblacs_pinfo(&me, &np);
    char msg[256];
    const char *bad = parse_options(argc, argv, msg, sizeof msg);
    if (!bad && opt.nprow > 0 && opt.nprow * opt.npcol != np) {
        snprintf(msg, sizeof msg, "--grid %dx%d is not %d processes", opt.nprow, opt.npcol, np);
        bad = msg;
    }
    if (bad) {
        const int help = !strcmp(bad, "help");
        if (me == 0) {
            if (help)
                usage();
            else
                fprintf(stderr, "psgemm: %s (try --help)\n", bad);
        }
        Cblacs_exit(0);
        return help ? 0 : 2;
    }
    if (opt.nprow == 0) {
        for (opt.nprow = 1; (opt.nprow + 1) * (opt.nprow + 1) <= np; ++opt.nprow) {
        }
        while (np % opt.nprow)
            --opt.nprow;
        opt.npcol = np / opt.nprow;
    }
    const int local = node_rank(me);
    if (opt.devices)
        bind_device(opt.devices, local);

    int ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row-major", opt.nprow, opt.npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

    local_matrix a, b, c;
    if (!local_matrix_init(&a, opt.m, opt.k, ctxt, myrow, mycol, nprow, npcol) ||
        !local_matrix_init(&b, opt.k, opt.n, ctxt, myrow, mycol, nprow, npcol) ||
        !local_matrix_init(&c, opt.m, opt.n, ctxt, myrow, mycol, nprow, npcol)) {
        fprintf(stderr, "psgemm: rank %d: out of memory or a bad descriptor for its %dx%d blocks\n", me, c.rows,
                c.cols);
        Cblacs_abort(ctxt, 1);
        return 1;
    }
    local_matrix_fill(&a, MAT_A, myrow, mycol, nprow, npcol);
    local_matrix_fill(&b, MAT_B, myrow, mycol, nprow, npcol);

    const int kb = pilaenv_(&ctxt, "S");
    blas_facts blas;
    describe_blas(&blas);
    if (me == 0)
        printf("psgemm: %dx%dx%d, alpha %g, beta %g, NB %d, %d processes as a %dx%d grid, PBLAS panel width %d%s\n",
               opt.m, opt.n, opt.k, opt.alpha, opt.beta, opt.nb, np, nprow, npcol, kb,
               opt.kb ? " (--kb)" : " (ScaLAPACK's)");
    for (int r = 0; r < np; ++r) {
        if (r == me)
            printf("rank %d (node rank %d, grid %d,%d, local C %dx%d): sgemm_ from %s; %s; %s\n", me, local, myrow,
                   mycol, c.rows, c.cols, blas.sgemm_from, blas.openblas, blas.device);
        fflush(stdout);
        Cblacs_barrier(ctxt, "All");
    }

    /* One untimed call (the first one pays for device setup and kernel
     * builds), then the timed ones; C is set to C0 before each. */
    const int one = 1;
    double first = 0, *times = calloc((size_t)opt.reps, sizeof *times);
    for (int rep = 0; rep <= opt.reps; ++rep) {
        local_matrix_fill(&c, MAT_C, myrow, mycol, nprow, npcol);
        Cblacs_barrier(ctxt, "All");
        const double t0 = now();
        psgemm_("N", "N", &opt.m, &opt.n, &opt.k, &opt.alpha, a.data, &one, &one, a.desc, b.data, &one, &one,
                b.desc, &opt.beta, c.data, &one, &one, c.desc);
        Cblacs_barrier(ctxt, "All");
        double t = now() - t0;
        Cdgamx2d(ctxt, "All", " ", 1, 1, &t, 1, NULL, NULL, -1, -1, -1);
        if (rep == 0)
            first = t;
        else
            times[rep - 1] = t;
    }
    qsort(times, (size_t)opt.reps, sizeof *times, compare_doubles);
    const double median = times[opt.reps / 2], best = times[0];
    const double flops = 2.0 * opt.m * (double)opt.n * opt.k;

    /* What oclblas did with this process's last local call. */
    oclblas_host_report r;
    oclblas_status (*report_get)(oclblas_host_report *) =
        (oclblas_status(*)(oclblas_host_report *))dlsym(RTLD_DEFAULT, "oclblas_host_report_get");
    if (report_get && report_get(&r) == OCLBLAS_SUCCESS) {
        double busy = 0;
        for (int d = 0; d < r.devices && d < OCLBLAS_REPORT_DEVICES; ++d)
            busy += r.device[d].busy_s;
        printf("rank %d: its last local sgemm_ in oclblas: %s, %.3f ms, %.3g GB to the device, %.3g GB back, "
               "kernels busy %.3f ms (cost model: host %.3f ms, device %.3f ms)\n",
               me, r.on_device ? "on the device" : "on the host", r.seconds * 1e3, r.bytes_to_device * 1e-9,
               r.bytes_from_device * 1e-9, busy * 1e3, r.model_host_s * 1e3, r.model_device_s * 1e3);
    }

    if (opt.corrupt && myrow == 0 && mycol == 0)
        c.data[0] += 1.0f + (float)opt.k; /* sample 0 is C(0, 0) */
    double counts[3] = {0, 0, (double)nonfinite(&c)};
    double worst = check_samples(&c, myrow, mycol, nprow, npcol, counts);
    Cdgsum2d(ctxt, "All", " ", 3, 1, counts, 3, -1, -1);
    Cdgamx2d(ctxt, "All", " ", 1, 1, &worst, 1, NULL, NULL, -1, -1, -1);
    const int ok = counts[0] == opt.samples && counts[1] == 0 && counts[2] == 0;

    if (me == 0) {
        printf("psgemm: first call %.3f s; median of %d %.4f s (best %.4f s): %.1f GFLOPS; check %s (%.0f of %d "
               "samples, worst error %.3g of its bound, %.0f non-finite elements)\n",
               first, opt.reps, median, best, flops / median * 1e-9, ok ? "ok" : "FAILED", counts[0], opt.samples,
               worst, counts[2]);
        if (opt.csv) {
            FILE *f = fopen(opt.csv, "a");
            if (f) {
                fseek(f, 0, SEEK_END);
                if (ftell(f) == 0)
                    fprintf(f, "sgemm_from,openblas_core,rank0_device,np,grid,m,n,k,nb,kb,alpha,beta,first_s,median_s,"
                               "best_s,gflops,check\n");
                const char *spec = getenv("OCLBLAS_DEVICE");
                fprintf(f, "%s,%s,\"%s\",%d,%dx%d,%d,%d,%d,%d,%d,%g,%g,%.4f,%.4f,%.4f,%.1f,%s\n", blas.sgemm_from,
                        blas.openblas_core, spec ? spec : "", np, nprow, npcol, opt.m, opt.n, opt.k, opt.nb, kb,
                        opt.alpha, opt.beta, first, median, best, flops / median * 1e-9, ok ? "ok" : "FAILED");
                fclose(f);
            } else
                fprintf(stderr, "psgemm: cannot write %s: %s\n", opt.csv, strerror(errno));
        }
    }
    free(times);
    free(a.data);
    free(b.data);
    free(c.data);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return ok ? 0 : 1;
}
