/*
 * oclblas-bench: SGEMM and SGEMV rates of oclblas against OpenBLAS on the
 * host and, where they are installed, CLBlast, cuBLAS (FP32, and TF32
 * tensor cores for SGEMM) and NVBLAS (host-pointer SGEMM), in the same run
 * on the same operands, in the library's math mode of the run (--math).
 * The peers are loaded at run time (peers.h): the bench runs without them
 * and says which it found. oclblas and CLBlast run on one OpenCL context
 * and profiling queue; "device" time is the span between a marker before a
 * batch of back-to-back calls and the last call's completion, divided by
 * the calls (so launch gaps and helper kernels count), "wall" time the host
 * clock over the same batch (timing.h). Each oclblas result is checked
 * against OpenBLAS. Output: a table on stdout, and CSV, JSON and a plot on
 * request; the first call of a fresh process, with a cold and a warm disk
 * cache, on request. --batch N (and the batched preset) makes each problem
 * a strided batch: oclblas's strided-batched call against CLBlast's
 * CLBlastSgemmStridedBatched, cuBLAS's strided-batched calls and a loop of
 * OpenBLAS's single calls over the batch.
 */
#define _GNU_SOURCE
#include "oclblas.h"
#include "peers.h"
#include "util/verify.h"

#include <cblas.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CASES 512
#define MAX_OVERRIDES 16

enum { LIB_OCLBLAS, LIB_HOST, LIB_OPENBLAS, LIB_CLBLAST, LIB_CUBLAS, LIB_CUBLAS_TF32, LIB_NVBLAS, NLIBS };
static const char *const lib_names[NLIBS] = {"oclblas", "oclblas-host", "openblas", "clblast",
                                             "cublas",  "cublas-tf32",  "nvblas"};

typedef struct {
    bench_problem p;
    int have[NLIBS];
    bench_time t[NLIBS];
    double rate[NLIBS]; /* GFLOPS (gemm) or GB/s (gemv), by device time where there is one */
    double check;       /* max |oclblas - openblas| / max |openblas|; < 0 when oclblas did not run */
    oclblas_host_report host; /* what the last timed host-pointer call did (have[LIB_HOST]) */
} bench_result;

/* The run's options; use[] loses the peers that are not there. */
static struct {
    int reps;
    int use[NLIBS];
    int named[NLIBS]; /* by --peers: an absent one gets a warning */
    int host;
    float alpha, beta;
    const char *csv, *json, *png, *device;
    int quiet;
} opt = {0, {1, 0, 1, 1, 1, 1, 1}, {0}, 0, 1.0f, 0.0f, NULL, NULL, NULL, NULL, 0};

static void describe(const bench_problem *p, char *buf, size_t len);
static double ratio_of(const bench_result *r, int l);

/* A run that cannot go on: a one-line message, exit status 2. */
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oclblas-bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* ---- oclblas on device buffers ---------------------------------------- */

typedef struct {
    const bench_cl *cl;
    const bench_problem *p;
    cl_mem a, b, y;
} ocl_ctx;

static oclblas_layout layout_of(const bench_problem *p) { return p->col_major ? OCLBLAS_COL_MAJOR : OCLBLAS_ROW_MAJOR; }
static oclblas_transpose trans_of(int t) { return t ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS; }

static int ocl_call(void *v, cl_event *ev)
{
    ocl_ctx *x = v;
    const bench_problem *p = x->p;
    size_t na, nb, nc;
    bench_sizes(p, &na, &nb, &nc);
    oclblas_status st;
    if (p->batch > 1)
        st = p->gemm ? oclblas_sgemm_strided_batched_cl(layout_of(p), trans_of(p->trans_a), trans_of(p->trans_b), p->m,
                                                        p->n, p->k, p->alpha, x->a, 0, bench_lda(p), na, x->b, 0,
                                                        bench_ldb(p), nb, p->beta, x->y, 0, bench_ldc(p), nc, p->batch,
                                                        x->cl->queue, ev)
                     : oclblas_sgemv_strided_batched_cl(layout_of(p), trans_of(p->trans_a), p->m, p->n, p->alpha, x->a,
                                                        0, bench_lda(p), na, x->b, 0, 1, nb, p->beta, x->y, 0, 1, nc,
                                                        p->batch, x->cl->queue, ev);
    else
        st = p->gemm ? oclblas_sgemm_cl(layout_of(p), trans_of(p->trans_a), trans_of(p->trans_b), p->m, p->n, p->k,
                                        p->alpha, x->a, 0, bench_lda(p), x->b, 0, bench_ldb(p), p->beta, x->y, 0,
                                        bench_ldc(p), x->cl->queue, ev)
                     : oclblas_sgemv_cl(layout_of(p), trans_of(p->trans_a), p->m, p->n, p->alpha, x->a, 0, bench_lda(p),
                                        x->b, 0, 1, p->beta, x->y, 0, 1, x->cl->queue, ev);
    if (st != OCLBLAS_SUCCESS)
        fprintf(stderr, "oclblas-bench: oclblas failed: %s\n", oclblas_status_string(st));
    return st == OCLBLAS_SUCCESS ? 0 : -1;
}

static int ocl_run(const bench_cl *cl, const bench_problem *p, const bench_data *d, int reps, bench_time *t)
{
    size_t nc;
    ocl_ctx x = {cl, p, NULL, NULL, NULL};
    int rc = -1;
    if (bench_cl_operands(cl, p, d, &x.a, &x.b, &x.y, &nc) == CL_SUCCESS) {
        /* One checked call from the original C, then the timed batch. */
        rc = bench_cl_result(cl, ocl_call, &x, x.y, nc, d->out);
        if (rc == 0)
            rc = bench_time_cl(cl, ocl_call, &x, reps, t);
    }
    bench_cl_release(x.a, x.b, x.y);
    return rc;
}

/* ---- host-pointer calls ------------------------------------------------ */

enum { HOST_OPENBLAS, HOST_OCLBLAS, HOST_NVBLAS };

/* One host-pointer call (OpenBLAS, oclblas's host API, or NVBLAS, SGEMM
 * only) on a fresh copy of C in y (nc elements: the whole batch). oclblas
 * takes a batch in one call; OpenBLAS and NVBLAS loop over it. */
static int host_call(int who, const bench_problem *p, const bench_data *d, float *y, size_t nc)
{
    const size_t lda = bench_lda(p), ldb = bench_ldb(p), ldc = bench_ldc(p);
    size_t sa, sb, sc;
    bench_sizes(p, &sa, &sb, &sc);
    memcpy(y, d->c, nc * 4);
    if (who == HOST_OCLBLAS) {
        oclblas_status st;
        if (p->batch > 1)
            st = p->gemm ? oclblas_sgemm_strided_batched(layout_of(p), trans_of(p->trans_a), trans_of(p->trans_b), p->m,
                                                         p->n, p->k, p->alpha, d->a, lda, sa, d->b, ldb, sb, p->beta, y,
                                                         ldc, sc, p->batch)
                         : oclblas_sgemv_strided_batched(layout_of(p), trans_of(p->trans_a), p->m, p->n, p->alpha,
                                                         d->a, lda, sa, d->b, 1, sb, p->beta, y, 1, sc, p->batch);
        else
            st = p->gemm ? oclblas_sgemm(layout_of(p), trans_of(p->trans_a), trans_of(p->trans_b), p->m, p->n, p->k,
                                         p->alpha, d->a, lda, d->b, ldb, p->beta, y, ldc)
                         : oclblas_sgemv(layout_of(p), trans_of(p->trans_a), p->m, p->n, p->alpha, d->a, lda, d->b, 1,
                                         p->beta, y, 1);
        return st == OCLBLAS_SUCCESS ? 0 : -1;
    }
    const CBLAS_ORDER o = p->col_major ? CblasColMajor : CblasRowMajor;
    const CBLAS_TRANSPOSE ta = p->trans_a ? CblasTrans : CblasNoTrans, tb = p->trans_b ? CblasTrans : CblasNoTrans;
    for (size_t i = 0; i < p->batch; ++i) {
        const float *a = d->a + i * sa, *b = d->b + i * sb;
        float *c = y + i * sc;
        if (who == HOST_NVBLAS) {
            if (!p->gemm || nvblas_gemm(p, a, b, c) != 0)
                return -1;
        } else if (p->gemm)
            cblas_sgemm(o, ta, tb, (int)p->m, (int)p->n, (int)p->k, p->alpha, a, (int)lda, b, (int)ldb, p->beta, c,
                        (int)ldc);
        else
            cblas_sgemv(o, ta, (int)p->m, (int)p->n, p->alpha, a, (int)lda, b, 1, p->beta, c, 1);
    }
    return 0;
}

/* Times host_call: a warm-up (whose result goes to d->out), a probe call
 * that sets the number of calls, then the batch. The copies of C that each
 * call makes are timed on their own and subtracted. rep, when not NULL,
 * gets the library's report of the last host-pointer call. */
static int host_run(int who, const bench_problem *p, const bench_data *d, int reps, bench_time *t,
                    oclblas_host_report *rep)
{
    size_t na, nb, nc;
    bench_sizes(p, &na, &nb, &nc);
    nc *= p->batch;
    float *y = malloc(nc * 4);
    if (!y)
        return -1;
    int rc = host_call(who, p, d, y, nc);
    if (rc == 0 && d->out)
        memcpy(d->out, y, nc * 4);
    double t0 = bench_now();
    if (rc == 0)
        rc = host_call(who, p, d, y, nc);
    reps = bench_reps(reps, bench_now() - t0);
    t0 = bench_now();
    for (int r = 0; r < reps && rc == 0; ++r)
        rc = host_call(who, p, d, y, nc);
    const double t1 = bench_now();
    if (rep)
        oclblas_host_report_get(rep);
    for (int r = 0; r < reps; ++r)
        memcpy(y, d->c, nc * 4);
    /* Each call first copies C back (beta); the copies timed alone come off,
     * unless they took longer than the calls themselves (a tiny problem
     * under a slow allocator or a sanitizer): then the calls' time stands. */
    const double copies = bench_now() - t1, calls = t1 - t0;
    t->wall_s = (calls > copies ? calls - copies : calls) / reps;
    t->device_s = -1;
    free(y);
    return rc;
}

/* ---- problems ---------------------------------------------------------- */

/* Rate in GFLOPS (gemm) or GB/s moved (gemv) for seconds per call (of
 * the whole batch); NAN when there is no time to divide by (a host call
 * faster than the clock). */
static double rate(const bench_problem *p, double s)
{
    size_t na, nb, nc;
    bench_sizes(p, &na, &nb, &nc);
    const double work = p->gemm ? 2.0 * p->m * p->n * p->k : 4.0 * (na + nb + nc + (p->beta != 0.0f ? nc : 0));
    return s > 0 ? work * (double)p->batch / s * 1e-9 : NAN;
}

static void fill(float *x, size_t n, unsigned seed)
{
    uint32_t s = seed;
    oclblas__fill_uniform(x, n, &s);
}

/* max |oclblas - reference| / max |reference| */
static double difference(const float *out, const float *ref, size_t n)
{
    double maxdiff = 0, maxref = 0;
    for (size_t i = 0; i < n; ++i) {
        const double diff = fabs((double)out[i] - ref[i]);
        maxdiff = diff > maxdiff || isnan(diff) ? diff : maxdiff;
        maxref = fabs(ref[i]) > maxref ? fabs(ref[i]) : maxref;
    }
    return maxref > 0 ? maxdiff / maxref : maxdiff;
}

/* Every library of the run on one problem; the libraries absent from the
 * run are those main took out of opt.use. */
static void run_case(const bench_cl *cl, bench_result *res)
{
    const bench_problem *p = &res->p;
    size_t na, nb, nc;
    bench_sizes(p, &na, &nb, &nc);
    /* A batch no address space holds gets the message of one that does not fit. */
    const size_t most = SIZE_MAX / 4 / p->batch;
    na = na > most ? SIZE_MAX / 4 : na * p->batch;
    nb = nb > most ? SIZE_MAX / 4 : nb * p->batch;
    nc = nc > most ? SIZE_MAX / 4 : nc * p->batch;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *y = malloc(nc * 4);
    float *out_ocl = malloc(nc * 4), *out_ref = malloc(nc * 4);
    memset(res->have, 0, sizeof res->have);
    res->check = -1;
    if (a && b && y && out_ocl && out_ref) {
        fill(a, na, 1);
        fill(b, nb, 2);
        fill(y, nc, 3);
        bench_data d = {a, b, y, out_ref};
        const int reps = opt.reps;
        if (opt.use[LIB_OPENBLAS])
            res->have[LIB_OPENBLAS] = host_run(HOST_OPENBLAS, p, &d, reps, &res->t[LIB_OPENBLAS], NULL) == 0;
        else /* only the reference: one call (at 16384^3 a host call may take a minute) */
            host_call(HOST_OPENBLAS, p, &d, out_ref, nc);
        d.out = out_ocl;
        res->have[LIB_OCLBLAS] = opt.use[LIB_OCLBLAS] && ocl_run(cl, p, &d, reps, &res->t[LIB_OCLBLAS]) == 0;
        if (res->have[LIB_OCLBLAS])
            res->check = difference(out_ocl, out_ref, nc);
        d.out = NULL;
        res->have[LIB_HOST] = opt.host && host_run(HOST_OCLBLAS, p, &d, reps, &res->t[LIB_HOST], &res->host) == 0;
        /* NVBLAS takes host pointers: a peer of the host-pointer rows; it has no SGEMV. */
        res->have[LIB_NVBLAS] = opt.host && opt.use[LIB_NVBLAS] && p->gemm &&
                                host_run(HOST_NVBLAS, p, &d, reps, &res->t[LIB_NVBLAS], NULL) == 0;
        res->have[LIB_CLBLAST] = opt.use[LIB_CLBLAST] && clblast_run(cl, p, &d, reps, &res->t[LIB_CLBLAST]) == 0;
        res->have[LIB_CUBLAS] = opt.use[LIB_CUBLAS] && cublas_run(0, p, &d, reps, &res->t[LIB_CUBLAS]) == 0;
        /* TF32 changes nothing in cuBLAS's SGEMV. */
        res->have[LIB_CUBLAS_TF32] =
            opt.use[LIB_CUBLAS_TF32] && p->gemm && cublas_run(1, p, &d, reps, &res->t[LIB_CUBLAS_TF32]) == 0;
        for (int l = 0; l < NLIBS; ++l) {
            const double s = res->t[l].device_s > 0 ? res->t[l].device_s : res->t[l].wall_s;
            res->rate[l] = res->have[l] ? rate(p, s) : NAN;
        }
    } else {
        char text[96];
        describe(p, text, sizeof text);
        fprintf(stderr, "oclblas-bench: %s: not enough host memory for the operands (%.1f GB)\n", text,
                4e-9 * ((double)na + nb + 3.0 * nc));
    }
    free(a);
    free(b);
    free(y);
    free(out_ocl);
    free(out_ref);
}

/* ---- command line ------------------------------------------------------ */

/* Every option is checked before anything runs: a bad one stops the program
 * with a message that names it and exit status 2. */
static void bad_option(const char *name, const char *value, const char *why)
{
    fprintf(stderr, "oclblas-bench: %s '%s': %s (try --help)\n", name, value, why);
    exit(2);
}

/* Options that are each fine but do not go together. */
static void bad_combination(const char *why)
{
    fprintf(stderr, "oclblas-bench: %s (try --help)\n", why);
    exit(2);
}

/* A decimal count in 1..max: digits only, no sign, no spaces. */
static size_t parse_count_in(const char *name, const char *s, size_t max, const char *shown)
{
    size_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; ++p) {
        const size_t digit = (size_t)(*p - '0');
        if (v > (max - digit) / 10)
            bad_option(name, shown, "a number is too large");
        v = v * 10 + digit;
    }
    if (p == s || *p)
        bad_option(name, shown, "not a positive integer");
    if (v == 0)
        bad_option(name, shown, "must be at least 1");
    return v;
}

static size_t parse_count(const char *name, const char *s, size_t max) { return parse_count_in(name, s, max, s); }

static float parse_scalar(const char *name, const char *s)
{
    char *end;
    errno = 0;
    const float v = strtof(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v))
        bad_option(name, s, "not a finite number");
    return v;
}

/* One of `choices` (a NULL-terminated list); its index. */
static int parse_choice(const char *name, const char *s, const char *const *choices, const char *expected)
{
    for (int i = 0; choices[i]; ++i)
        if (!strcmp(s, choices[i]))
            return i;
    bad_option(name, s, expected);
    return -1;
}

/* The items of a comma-separated list, each handed to `item` (at most 63 characters). */
static void parse_list(const char *name, const char *s, void (*item)(const char *name, const char *whole, const char *it))
{
    if (!*s)
        bad_option(name, s, "empty list");
    for (const char *p = s;;) {
        const size_t len = strcspn(p, ",");
        char it[64];
        if (len == 0)
            bad_option(name, s, "empty item in the list");
        if (len >= sizeof it)
            bad_option(name, s, "an item of the list is too long");
        memcpy(it, p, len);
        it[len] = '\0';
        item(name, s, it);
        if (!p[len])
            break;
        p += len + 1;
    }
}

/* Problem dimensions go to OpenBLAS as int, and the operands must be
 * addressable in bytes. */
#define MAX_DIM ((size_t)1 << 30)

#define MAX_SIZES 64
static size_t sizes[MAX_SIZES];
static int nsizes;
static void size_item(const char *name, const char *whole, const char *it)
{
    if (nsizes == MAX_SIZES)
        bad_option(name, whole, "more than 64 sizes");
    sizes[nsizes++] = parse_count(name, it, MAX_DIM);
}

#define MAX_SHAPES 64
static struct {
    int gemm;
    size_t m, n, k;
} shapes[MAX_SHAPES];
static int nshapes;
static void shape_item(const char *name, const char *whole, const char *it)
{
    if (nshapes == MAX_SHAPES)
        bad_option(name, whole, "more than 64 shapes");
    char dims[3][24];
    int ndims = 0;
    for (const char *p = it;; ++ndims) {
        const size_t len = strcspn(p, "x");
        if (ndims == 3 || len >= sizeof dims[0])
            bad_option(name, it, "a shape is MxNxK (sgemm) or MxN (sgemv)");
        memcpy(dims[ndims], p, len);
        dims[ndims][len] = '\0';
        if (!p[len]) {
            ++ndims;
            break;
        }
        p += len + 1;
    }
    if (ndims < 2)
        bad_option(name, it, "a shape is MxNxK (sgemm) or MxN (sgemv)");
    shapes[nshapes].gemm = ndims == 3;
    shapes[nshapes].m = parse_count_in(name, dims[0], MAX_DIM, it);
    shapes[nshapes].n = parse_count_in(name, dims[1], MAX_DIM, it);
    shapes[nshapes].k = ndims == 3 ? parse_count_in(name, dims[2], MAX_DIM, it) : 0;
    ++nshapes;
}

#define MAX_TRANS 9
static int trans_pairs[MAX_TRANS][2], ntrans;
static void trans_item(const char *name, const char *whole, const char *it)
{
    int t[2];
    if (strlen(it) != 2)
        bad_option(name, it, "each item is two of N, T, C (NN, NT, TN, TT)");
    for (int i = 0; i < 2; ++i) {
        const char ch = it[i];
        if (ch == 'N' || ch == 'n')
            t[i] = 0;
        else if (ch == 'T' || ch == 't' || ch == 'C' || ch == 'c')
            t[i] = 1;
        else
            bad_option(name, it, "each item is two of N, T, C (NN, NT, TN, TT)");
    }
    for (int i = 0; i < ntrans; ++i)
        if (trans_pairs[i][0] == t[0] && trans_pairs[i][1] == t[1])
            return;
    trans_pairs[ntrans][0] = t[0];
    trans_pairs[ntrans][1] = t[1];
    ++ntrans;
}

static int peers_none, peers_named;
static void peer_item(const char *name, const char *whole, const char *it)
{
    static const char *const peers[] = {"openblas", "clblast", "cublas", "cublas-tf32", "nvblas", "none", NULL};
    static const int lib[] = {LIB_OPENBLAS, LIB_CLBLAST, LIB_CUBLAS, LIB_CUBLAS_TF32, LIB_NVBLAS};
    const int i = parse_choice(name, it, peers, "must be openblas, clblast, cublas, cublas-tf32, nvblas, or none");
    if (i == 5)
        peers_none = 1;
    else {
        opt.use[lib[i]] = opt.named[lib[i]] = 1;
        peers_named = 1;
    }
    if (peers_none && peers_named)
        bad_option(name, whole, "none excludes the other peers");
}

/* An output file: refused now, not after the whole run, when it cannot be
 * written. */
static const char *output_path(const char *name, const char *path)
{
    if (!*path)
        bad_option(name, path, "empty file name");
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            bad_option(name, path, "is a folder");
        if (access(path, W_OK) != 0)
            bad_option(name, path, strerror(errno));
        return path;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else if ((size_t)(slash - path) < sizeof dir) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    } else
        bad_option(name, path, "path too long");
    if (access(dir, W_OK | X_OK) != 0)
        bad_option(name, path, "its folder cannot be written");
    return path;
}

static int ncases;
static bench_problem cases[MAX_CASES];

static void add_case(int gemm, int col_major, int ta, int tb, size_t m, size_t n, size_t k, size_t batch)
{
    const bench_problem p = {gemm, col_major, ta, gemm ? tb : 0, m, n, gemm ? k : 0, opt.alpha, opt.beta, batch};
    for (int i = 0; i < ncases; ++i) /* gemv takes only the first letter of each --trans item */
        if (!memcmp(&cases[i], &p, sizeof p))
            return;
    if (ncases >= MAX_CASES)
        bad_combination("too many problems (at most 512): fewer sizes, shapes, layouts or transposes");
    cases[ncases++] = p;
}

static void usage(void)
{
    printf(
        "usage: oclblas-bench [options]   (--opt value or --opt=value)\n"
        "  --routine gemm|gemv|all      what to measure (all)\n"
        "  --preset NAME                quick: 256..1024 squares; default: 256..2048 squares;\n"
        "                               users: tall-skinny, short-wide, large k, odd sizes, m or n = 1;\n"
        "                               gpu: 1024..8192 squares and users' shapes at GPU scale;\n"
        "                               shapes: a problem or two of each class of shapes (squares small\n"
        "                               to large, one small side, long k, short k, odd sizes, gemv small,\n"
        "                               large and odd), both layouts and all transposes unless --layout\n"
        "                               and --trans say otherwise; GPU sizes on a GPU, smaller on a CPU;\n"
        "                               batched: strided batches of SGEMM (1000 x 32^3, 256 x 128^3,\n"
        "                               64 x 512^3, 16 x 1024^3, 64 attention heads of 128x128x64; fewer\n"
        "                               of the largest on a CPU), both layouts and all transposes unless\n"
        "                               --layout and --trans say otherwise\n"
        "  --sizes S,S,...              square sizes (gemm m=n=k, gemv m=n), instead of a preset\n"
        "  --shapes MxNxK,MxN,...       gemm shapes (MxN for gemv), instead of a preset\n"
        "  --batch N                    each problem a strided batch of N (tight, one after the other):\n"
        "                               oclblas's strided-batched calls, CLBlast's and cuBLAS's strided\n"
        "                               batches, OpenBLAS in a loop; rates are the whole batch's (1)\n"
        "  --layout row|col|both        (row)\n"
        "  --trans NN,NT,TN,TT          gemm transposes (N, T or C each); gemv takes the first letter (NN)\n"
        "  --device SPEC                the OpenCL device, as OCLBLAS_DEVICE names it: gpu, cpu, P:D, or part\n"
        "                               of its name (default: OCLBLAS_DEVICE, else the library's default)\n"
        "  --peers LIST                 openblas,clblast,cublas,cublas-tf32,nvblas or none (all that are found\n"
        "                               at run time; cublas-tf32: cuBLAS SGEMM on the TF32 tensor cores;\n"
        "                               nvblas: with --host); a peer named here and not found is a warning\n"
        "  --math MODE                  the library's math mode for the run: strict, accurate or tf32\n"
        "                               (default: the process's, OCLBLAS_MATH_MODE or accurate)\n"
        "  --host                       also time oclblas_sgemm/sgemv on host memory, transfers included, with\n"
        "                               what moved and how busy the devices were, and NVBLAS's SGEMM beside it\n"
        "  --alpha A --beta B           (1, 0)\n"
        "  --reps N                     calls per timing (automatic)\n"
        "  --min-time S                 seconds each timing lasts at least, when automatic (0.25)\n"
        "  --override KERNEL:PARAMS     e.g. gemm_fast:MWG=128,NWG=128 (repeatable)\n"
        "  --csv FILE --json FILE       write the results; a cell that was not measured is empty (JSON: null)\n"
        "  --png FILE                   plot rate against size (square problems) with plot.py and matplotlib,\n"
        "                               run by python3 or by $OCLBLAS_BENCH_PYTHON\n"
        "  --first-call SIZE            time the first SGEMM of a fresh process, cold and warm disk cache\n"
        "  --quiet                      no progress line\n"
        "  --version, --help\n"
        "exit status: 0 done; 1 a result differs from OpenBLAS (by 1e-3 relative; 1e-2 in the tf32 mode), or\n"
        "a problem or the plot could not be done;\n"
        "2 a bad option, or no device (nothing was measured)\n");
}

/* ---- first call of a process ------------------------------------------ */

/* In a fresh process: seconds of the first SGEMM and of the one after it. */
static int child_first_call(size_t s, int clblast, double *first, double *second)
{
    cl_device_id dev;
    if (oclblas_default_device(&dev, NULL, NULL) != OCLBLAS_SUCCESS)
        return -1;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_mem m[3];
    const float zero = 0;
    for (int i = 0; i < 3; ++i) {
        m[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, s * s * 4, NULL, &err);
        clEnqueueFillBuffer(q, m[i], &zero, 4, 0, s * s * 4, 0, NULL, NULL);
    }
    clFinish(q);
    for (int call = 0; call < 2; ++call) {
        const double t0 = bench_now();
        int rc;
        if (clblast)
            rc = clblast_sgemm_once(q, s, m[0], m[1], m[2]);
        else
            rc = oclblas_sgemm_cl(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, s, s, s, 1.0f, m[0], 0, s,
                                  m[1], 0, s, 0.0f, m[2], 0, s, q, NULL) == OCLBLAS_SUCCESS
                     ? 0
                     : -1;
        clFinish(q);
        if (rc != 0)
            return -1;
        *(call ? second : first) = bench_now() - t0;
    }
    return 0;
}

/* Runs child_first_call in a new process with our disk cache in `cache`
 * and the drivers' own caches (NVIDIA's JIT cache, PoCL's kernel cache) in
 * `driver_cache`, so that "cold" means nothing compiled anywhere. */
static int spawn_first_call(size_t s, const char *cache, const char *driver_cache, int clblast,
                            double *first, double *second)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        setenv("OCLBLAS_CACHE_DIR", cache, 1);
        setenv("CUDA_CACHE_PATH", driver_cache, 1);
        setenv("POCL_CACHE_DIR", driver_cache, 1);
        char size[32];
        snprintf(size, sizeof size, "%zu", s);
        /* This very program, wherever it was started from (PATH, a relative path). */
        execl("/proc/self/exe", "oclblas-bench", clblast ? "--first-call-child-clblast" : "--first-call-child", size,
              (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char buf[128] = "";
    ssize_t n = read(fd[0], buf, sizeof buf - 1);
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    buf[n] = '\0';
    return sscanf(buf, "%lf %lf", first, second) == 2 ? 0 : -1;
}

static void first_call_report(size_t s)
{
    char dir[] = "/tmp/oclblas-bench-cache-XXXXXX";
    if (!mkdtemp(dir))
        die("cannot make a temporary folder");
    char ours[64], driver[64], driver2[64], driver3[64];
    snprintf(ours, sizeof ours, "%s/oclblas", dir);
    snprintf(driver, sizeof driver, "%s/driver", dir);   /* shared by the runs of one "user" */
    snprintf(driver2, sizeof driver2, "%s/driver2", dir); /* always empty before its run */
    snprintf(driver3, sizeof driver3, "%s/driver3", dir); /* CLBlast's own */
    struct {
        const char *what, *driver_cache;
        int clblast, ok;
        double first, second;
    } runs[] = {
        {"oclblas, cold: no disk cache, empty driver cache", driver, 0, 0, 0, 0},
        {"oclblas, warm: a second process", driver, 0, 0, 0, 0},
        {"oclblas, warm disk cache, empty driver cache", driver2, 0, 0, 0, 0},
        {"CLBlast, empty driver cache", driver3, 1, 0, 0, 0},
        {"CLBlast, a second process (warm driver cache)", driver3, 1, 0, 0, 0},
    };
    const char *note = "";
    const int with_clblast = opt.use[LIB_CLBLAST] && clblast_available(&note);
    if (opt.named[LIB_CLBLAST] && !with_clblast)
        fprintf(stderr, "oclblas-bench: warning: --peers clblast: %s; no CLBlast runs\n", note);
    const int nruns = with_clblast ? 5 : 3;
    for (int i = 0; i < nruns; ++i)
        runs[i].ok = spawn_first_call(s, ours, runs[i].driver_cache, runs[i].clblast, &runs[i].first,
                                      &runs[i].second) == 0;
    printf("first SGEMM %zu^3 (row-major NN) of a new process, context made before the clock starts:\n", s);
    printf("  %-50s %12s %12s\n", "", "first call", "second call");
    for (int i = 0; i < nruns; ++i) {
        if (runs[i].ok)
            printf("  %-50s %9.1f ms %9.1f ms\n", runs[i].what, runs[i].first * 1e3, runs[i].second * 1e3);
        else
            printf("  %-50s %12s\n", runs[i].what, "failed");
    }
    if (opt.csv) {
        FILE *f = fopen(opt.csv, "w");
        if (f) {
            fprintf(f, "what,size,first_ms,second_ms\n");
            for (int i = 0; i < nruns; ++i)
                if (runs[i].ok)
                    fprintf(f, "\"%s\",%zu,%.3f,%.3f\n", runs[i].what, s, runs[i].first * 1e3, runs[i].second * 1e3);
            fclose(f);
        }
    }
    /* Leave no cache files behind. */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "oclblas-bench: could not remove %s\n", dir);
}

/* ---- output ------------------------------------------------------------ */

static void describe(const bench_problem *p, char *buf, size_t len)
{
    char batch[32] = "";
    if (p->batch > 1)
        snprintf(batch, sizeof batch, "%zu x ", p->batch);
    if (p->gemm)
        snprintf(buf, len, "sgemm %s %c%c %s%zux%zux%zu", p->col_major ? "col" : "row", p->trans_a ? 'T' : 'N',
                 p->trans_b ? 'T' : 'N', batch, p->m, p->n, p->k);
    else
        snprintf(buf, len, "sgemv %s %c %s%zux%zu", p->col_major ? "col" : "row", p->trans_a ? 'T' : 'N', batch, p->m,
                 p->n);
}

static void print_table(const bench_result *r, int n, const int *present)
{
    printf("%-36s", "problem");
    for (int l = 0; l < NLIBS; ++l)
        if (present[l])
            printf(" %13s", lib_names[l]);
    char ratio_names[NLIBS][16];
    int ratio_width[NLIBS];
    for (int l = LIB_OPENBLAS; l < NLIBS; ++l) {
        snprintf(ratio_names[l], sizeof ratio_names[l], "/%s", lib_names[l]);
        ratio_width[l] = strlen(ratio_names[l]) > 11 ? (int)strlen(ratio_names[l]) : 11;
    }
    for (int l = LIB_OPENBLAS; l < NLIBS; ++l)
        if (present[l] && present[LIB_OCLBLAS])
            printf(" %*s", ratio_width[l], ratio_names[l]);
    printf(" %10s\n", "max diff");
    for (int i = 0; i < n; ++i) {
        char d[96];
        describe(&r[i].p, d, sizeof d);
        printf("%-36s", d);
        for (int l = 0; l < NLIBS; ++l)
            if (present[l]) {
                if (r[i].have[l] && isfinite(r[i].rate[l]))
                    printf(" %8.1f %s", r[i].rate[l], r[i].p.gemm ? "GF/s" : "GB/s");
                else
                    printf(" %13s", "-");
            }
        for (int l = LIB_OPENBLAS; l < NLIBS; ++l)
            if (present[l] && present[LIB_OCLBLAS]) {
                const double q = ratio_of(&r[i], l);
                if (isfinite(q))
                    printf(" %*.2fx", ratio_width[l] - 1, q);
                else
                    printf(" %*s", ratio_width[l], "-");
            }
        if (r[i].check >= 0)
            printf(" %10.2e\n", r[i].check);
        else
            printf(" %10s\n", "-");
    }
}

/* A measured number, or nothing (an empty CSV cell, JSON null). */
static void cell(FILE *f, const char *fmt, double v, int measured, const char *none)
{
    if (measured && isfinite(v))
        fprintf(f, fmt, v);
    else
        fputs(none, f);
}

/* oclblas's rate over the library's; for NVBLAS, a peer of the host-pointer
 * calls, the host-pointer call's (oclblas-host) over NVBLAS's. */
static double ratio_of(const bench_result *r, int l)
{
    const int ours = l == LIB_NVBLAS ? LIB_HOST : LIB_OCLBLAS;
    return r->have[ours] && r->have[l] && r->rate[l] > 0 ? r->rate[ours] / r->rate[l] : NAN;
}

static const char *device_of(int l, const bench_cl *cl)
{
    return l == LIB_OPENBLAS ? "host CPU" : l == LIB_NVBLAS ? "NVBLAS (CUDA GPUs)" : cl->name;
}

/* What a host-pointer call moved and how busy the devices were (the
 * library's report of the last timed call). */
typedef struct {
    double moved_gb;  /* to and from the devices, per call */
    double bus_gbs;   /* moved_gb over the call's wall time */
    double busy;      /* the devices' kernel time over (devices x wall time) */
    const char *where;
} host_figures;

static host_figures figures_of(const bench_result *r)
{
    const oclblas_host_report *h = &r->host;
    host_figures f = {(h->bytes_to_device + h->bytes_from_device) * 1e-9, NAN, NAN,
                      !h->on_device ? "host" : h->tiles_on_host ? "devices+host" : h->devices > 1 ? "devices" : "device"};
    if (h->seconds > 0) {
        f.bus_gbs = f.moved_gb / h->seconds;
        double busy = 0;
        for (int d = 0; d < h->devices && d < OCLBLAS_REPORT_DEVICES; ++d)
            busy += h->device[d].busy_s;
        if (h->on_device && h->devices > 0 && busy > 0)
            f.busy = busy / (h->devices * h->seconds);
    }
    return f;
}

/* The host-pointer calls (--host): beside OpenBLAS and NVBLAS, where each
 * ran (the cost model's choice), what crossed the bus and how busy the
 * devices' kernels kept them. */
static void print_host_table(const bench_result *r, int n, const int *present)
{
    printf("\nhost-pointer calls (oclblas_sgemm/oclblas_sgemv on pageable host memory, wall clock):\n");
    printf("%-36s %13s %13s %13s %10s %10s %-12s %9s %8s %6s %s\n", "problem", "oclblas-host", "openblas",
           present[LIB_NVBLAS] ? "nvblas" : "", "/openblas", present[LIB_NVBLAS] ? "/nvblas" : "", "ran on",
           "GB moved", "GB/s", "busy", "model host/device ms");
    for (int i = 0; i < n; ++i) {
        if (!r[i].have[LIB_HOST])
            continue;
        char d[96];
        describe(&r[i].p, d, sizeof d);
        const char *unit = r[i].p.gemm ? "GF/s" : "GB/s";
        printf("%-36s %8.1f %s", d, r[i].rate[LIB_HOST], unit);
        for (int l = LIB_OPENBLAS; l <= LIB_NVBLAS; l += LIB_NVBLAS - LIB_OPENBLAS) {
            if (r[i].have[l] && isfinite(r[i].rate[l]))
                printf(" %8.1f %s", r[i].rate[l], unit);
            else
                printf(" %13s", l == LIB_NVBLAS && !present[LIB_NVBLAS] ? "" : "-");
        }
        for (int l = LIB_OPENBLAS; l <= LIB_NVBLAS; l += LIB_NVBLAS - LIB_OPENBLAS) {
            if (r[i].have[l] && r[i].rate[l] > 0)
                printf(" %9.2fx", r[i].rate[LIB_HOST] / r[i].rate[l]);
            else
                printf(" %10s", l == LIB_NVBLAS && !present[LIB_NVBLAS] ? "" : "-");
        }
        const host_figures f = figures_of(&r[i]);
        printf(" %-12s %9.3f %8.2f", f.where, f.moved_gb, f.bus_gbs);
        if (isfinite(f.busy))
            printf(" %5.0f%%", 100.0 * f.busy);
        else
            printf(" %6s", "-");
        if (r[i].host.model_host_s > 0)
            printf(" %.3g/%.3g", r[i].host.model_host_s * 1e3, r[i].host.model_device_s * 1e3);
        printf("\n");
    }
}

/* One row of the CSV or the JSON: a library's result on a problem. */
typedef void (*row_writer)(FILE *f, const bench_result *r, int lib, const bench_cl *cl, int first);

/* Writes a row for each library and problem that was measured, between a
 * head and a tail. */
static void write_rows(const char *path, const char *head, const char *tail, row_writer row, const bench_result *r,
                       int n, const bench_cl *cl)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    fputs(head, f);
    int first = 1;
    for (int i = 0; i < n; ++i)
        for (int l = 0; l < NLIBS; ++l)
            if (r[i].have[l]) {
                row(f, &r[i], l, cl, first);
                first = 0;
            }
    fputs(tail, f);
    if (fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
}

/* CSV: k and trans_b are empty for sgemv, device_ms where the library has
 * no device clock (OpenBLAS, the host API), max_rel_diff on all but
 * oclblas's rows; the host-pointer figures (moved_gb per call, bus_gbs,
 * device_busy as a fraction, ran_on) on the oclblas-host rows only; batch
 * last (the problems of a call; times and rates are the whole batch's). */
static void csv_row(FILE *f, const bench_result *r, int l, const bench_cl *cl, int first)
{
    const bench_problem *p = &r->p;
    const bench_time *t = &r->t[l];
    fprintf(f, "%s,%s,%c,", p->gemm ? "sgemm" : "sgemv", p->col_major ? "col" : "row", p->trans_a ? 'T' : 'N');
    if (p->gemm)
        fprintf(f, "%c,%zu,%zu,%zu,", p->trans_b ? 'T' : 'N', p->m, p->n, p->k);
    else
        fprintf(f, ",%zu,%zu,,", p->m, p->n);
    fprintf(f, "%g,%g,%s,", (double)p->alpha, (double)p->beta, lib_names[l]);
    cell(f, "%.6f,", t->device_s * 1e3, t->device_s > 0, ",");
    cell(f, "%.6f,", t->wall_s * 1e3, t->wall_s > 0, ",");
    cell(f, "%.3f,", r->rate[l], 1, ",");
    fprintf(f, "%s,", p->gemm ? "GFLOPS" : "GB/s");
    cell(f, "%.4f,", ratio_of(r, l), 1, ",");
    cell(f, "%.3e,", r->check, l == LIB_OCLBLAS && r->check >= 0, ",");
    fprintf(f, "\"%s\",", device_of(l, cl));
    const host_figures h = figures_of(r);
    const int host = l == LIB_HOST;
    cell(f, "%.6f,", h.moved_gb, host, ",");
    cell(f, "%.3f,", h.bus_gbs, host, ",");
    cell(f, "%.4f,", h.busy, host, ",");
    fprintf(f, "%s,%zu\n", host ? h.where : "", p->batch);
}

static void write_csv(const char *path, const bench_result *r, int n, const bench_cl *cl)
{
    write_rows(path,
               "routine,layout,trans_a,trans_b,m,n,k,alpha,beta,library,device_ms,wall_ms,rate,unit,"
               "ratio_oclblas_to_lib,max_rel_diff,device,moved_gb,bus_gbs,device_busy,ran_on,batch\n",
               "", csv_row, r, n, cl);
}

/* JSON: the CSV's columns, null where nothing was measured, and on the
 * oclblas-host rows more of the library's report. */
static void json_row(FILE *f, const bench_result *r, int l, const bench_cl *cl, int first)
{
    const bench_problem *p = &r->p;
    const bench_time *t = &r->t[l];
    fprintf(f, "%s    {\"routine\": \"%s\", \"layout\": \"%s\", \"trans_a\": \"%c\", ", first ? "" : ",\n",
            p->gemm ? "sgemm" : "sgemv", p->col_major ? "col" : "row", p->trans_a ? 'T' : 'N');
    if (p->gemm)
        fprintf(f, "\"trans_b\": \"%c\", \"m\": %zu, \"n\": %zu, \"k\": %zu, ", p->trans_b ? 'T' : 'N', p->m, p->n,
                p->k);
    else
        fprintf(f, "\"trans_b\": null, \"m\": %zu, \"n\": %zu, \"k\": null, ", p->m, p->n);
    fprintf(f, "\"batch\": %zu, ", p->batch);
    fprintf(f, "\"library\": \"%s\", \"device\": \"%s\", \"device_ms\": ", lib_names[l], device_of(l, cl));
    cell(f, "%.6f", t->device_s * 1e3, t->device_s > 0, "null");
    fputs(", \"wall_ms\": ", f);
    cell(f, "%.6f", t->wall_s * 1e3, t->wall_s > 0, "null");
    fputs(", \"rate\": ", f);
    cell(f, "%.3f", r->rate[l], 1, "null");
    fprintf(f, ", \"unit\": \"%s\", \"ratio_oclblas_to_lib\": ", p->gemm ? "GFLOPS" : "GB/s");
    cell(f, "%.4f", ratio_of(r, l), 1, "null");
    if (l == LIB_OCLBLAS) {
        fputs(", \"max_rel_diff\": ", f);
        cell(f, "%.3e", r->check, r->check >= 0, "null");
    }
    if (l == LIB_HOST) {
        const host_figures h = figures_of(r);
        const oclblas_host_report *hr = &r->host;
        fprintf(f, ", \"ran_on\": \"%s\", \"host_blas\": \"%s\", \"devices\": %d, \"moved_gb\": ", h.where,
                hr->host_blas, hr->devices);
        cell(f, "%.6f", h.moved_gb, 1, "null");
        fputs(", \"bus_gbs\": ", f);
        cell(f, "%.3f", h.bus_gbs, 1, "null");
        fputs(", \"device_busy\": ", f);
        cell(f, "%.4f", h.busy, 1, "null");
        fprintf(f, ", \"tiles\": %lu, \"tiles_on_host\": %lu, \"model_host_ms\": ", hr->tiles, hr->tiles_on_host);
        cell(f, "%.4f", hr->model_host_s * 1e3, hr->model_host_s > 0, "null");
        fputs(", \"model_device_ms\": ", f);
        cell(f, "%.4f", hr->model_device_s * 1e3, hr->model_host_s > 0, "null");
    }
    fputc('}', f);
}

static void write_json(const char *path, const bench_result *r, int n, const bench_cl *cl)
{
    char head[1024];
    snprintf(head, sizeof head,
             "{\n  \"tool\": \"oclblas-bench %s\",\n  \"opencl_device\": \"%s\",\n  \"cuda_device\": \"%s\",\n"
             "  \"math_mode\": \"%s\",\n  \"results\": [\n",
             oclblas_version(), cl->name, cublas_device(), oclblas_math_mode_name(oclblas_get_math_mode()));
    write_rows(path, head, "\n  ]\n}\n", json_row, r, n, cl);
}

/* ---- the plot ------------------------------------------------------------ */

/* plot.py is found relative to this program, wherever it was installed:
 * beside it in the build tree (CMake copies it there), or at the installed
 * share/oclblas/plot.py, whose path relative to bin/ CMake passes as
 * OCLBLAS_BENCH_PLOT_FROM_BIN. $OCLBLAS_BENCH_PLOT names another. */
static int plot_script(char *path, size_t len)
{
    const char *env = getenv("OCLBLAS_BENCH_PLOT");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return access(path, R_OK) == 0 ? 0 : -1;
    }
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    static const char *const beside[] = {"plot.py", OCLBLAS_BENCH_PLOT_FROM_BIN};
    for (int i = 0; i < 2; ++i) {
        snprintf(path, len, "%s/%s", self, beside[i]);
        if (access(path, R_OK) == 0)
            return 0;
    }
    snprintf(path, len, "%s/%s", self, OCLBLAS_BENCH_PLOT_FROM_BIN);
    return -1;
}

/* The interpreter that runs plot.py: $OCLBLAS_BENCH_PYTHON, else python3
 * from PATH (plot.py needs Python 3 and matplotlib). */
static const char *plot_python(void)
{
    const char *env = getenv("OCLBLAS_BENCH_PYTHON");
    return env && *env ? env : "python3";
}

/* Runs `python plot.py args...`; 0 when it succeeded. */
static int run_plot(const char *script, const char *arg1, const char *arg2)
{
    const char *python = plot_python();
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        execlp(python, python, script, arg1, arg2, (char *)NULL);
        fprintf(stderr, "oclblas-bench: --png: cannot run the Python interpreter '%s' (%s); set OCLBLAS_BENCH_PYTHON "
                        "to a Python 3 that has matplotlib\n", python, strerror(errno));
        _exit(127);
    }
    int status = 1;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Before anything is measured: can the plot be drawn at all? */
static void plot_check(const char *png)
{
    char script[4200];
    const char *env = getenv("OCLBLAS_BENCH_PLOT");
    if (plot_script(script, sizeof script) != 0)
        bad_option("--png", png, env && *env ? "the plot script that OCLBLAS_BENCH_PLOT names cannot be read"
                                             : "plot.py not found (looked beside oclblas-bench and in "
                                               "../share/oclblas; OCLBLAS_BENCH_PLOT names another)");
    if (run_plot(script, "--check", NULL) != 0) {
        fprintf(stderr, "oclblas-bench: --png '%s': %s %s cannot draw (see above); nothing was measured\n", png,
                plot_python(), script);
        exit(2);
    }
}

/* The plot is drawn by plot.py (matplotlib) from a CSV; 0 when it was. */
static int plot(const bench_result *r, int n, const bench_cl *cl)
{
    char csv[64] = "/tmp/oclblas-bench-XXXXXX";
    const char *src = opt.csv;
    if (!src) {
        const int fd = mkstemp(csv);
        if (fd < 0)
            return -1;
        close(fd);
        write_csv(csv, r, n, cl);
        src = csv;
    }
    char script[4200];
    int rc = plot_script(script, sizeof script);
    if (rc == 0)
        rc = run_plot(script, src, opt.png);
    if (rc != 0)
        fprintf(stderr, "oclblas-bench: --png: %s %s did not draw %s (see above)\n", plot_python(), script, opt.png);
    if (src == csv)
        unlink(csv);
    return rc;
}

/* ---- options ----------------------------------------------------------- */

static const char *const routines[] = {"all", "gemm", "gemv", NULL}, *const layouts[] = {"row", "col", "both", NULL},
                         *const presets[] = {"default", "quick", "users", "gpu", "shapes", "batched", NULL};

/* What the command line asks for beyond opt and the lists (sizes, shapes,
 * transposes) that the item parsers fill. */
static struct {
    int routine, layout, preset, preset_given, layout_given, trans_given;
    const char *overrides[MAX_OVERRIDES];
    int noverrides;
    size_t first_call;
    size_t batch;       /* --batch: the problems of each call (1) */
    int math;           /* 0: the process's mode */
    size_t child;       /* --first-call-child: this process is one of --first-call's */
    int child_clblast;
    unsigned char given[32]; /* by option code - O_ROUTINE: the options on the command line */
} cmd;

enum {
    O_ROUTINE = 256, O_PRESET, O_SIZES, O_SHAPES, O_LAYOUT, O_TRANS, O_DEVICE, O_PEERS, O_MATH, O_HOST, O_ALPHA,
    O_BETA, O_REPS, O_MIN_TIME, O_OVERRIDE, O_CSV, O_JSON, O_PNG, O_FIRST_CALL, O_QUIET, O_BATCH, O_CHILD,
    O_CHILD_CLBLAST
};
_Static_assert(O_CHILD_CLBLAST - O_ROUTINE < (int)sizeof cmd.given, "cmd.given holds every option");
static const struct option long_options[] = {
    {"routine", required_argument, NULL, O_ROUTINE},   {"preset", required_argument, NULL, O_PRESET},
    {"sizes", required_argument, NULL, O_SIZES},       {"shapes", required_argument, NULL, O_SHAPES},
    {"layout", required_argument, NULL, O_LAYOUT},     {"trans", required_argument, NULL, O_TRANS},
    {"device", required_argument, NULL, O_DEVICE},     {"peers", required_argument, NULL, O_PEERS},
    {"math", required_argument, NULL, O_MATH},         {"host", no_argument, NULL, O_HOST},
    {"alpha", required_argument, NULL, O_ALPHA},       {"beta", required_argument, NULL, O_BETA},
    {"reps", required_argument, NULL, O_REPS},         {"min-time", required_argument, NULL, O_MIN_TIME},
    {"override", required_argument, NULL, O_OVERRIDE}, {"csv", required_argument, NULL, O_CSV},
    {"json", required_argument, NULL, O_JSON},         {"png", required_argument, NULL, O_PNG},
    {"first-call", required_argument, NULL, O_FIRST_CALL}, {"quiet", no_argument, NULL, O_QUIET},
    {"batch", required_argument, NULL, O_BATCH},
    {"help", no_argument, NULL, 'h'},                  {"version", no_argument, NULL, 'V'},
    /* Internal: --first-call runs the measured call in a fresh process of this program. */
    {"first-call-child", required_argument, NULL, O_CHILD},
    {"first-call-child-clblast", required_argument, NULL, O_CHILD_CLBLAST},
    {NULL, 0, NULL, 0}};

/* The value of the option just read. A value given apart that looks like
 * an option (--csv --quiet) means the value was left out. */
static const char *value_of(const char *name, char **argv)
{
    if (optarg == argv[optind - 1] && !strncmp(optarg, "--", 2))
        bad_option(name, "", "needs a value");
    return optarg;
}

static int math_mode_named(const char *name, const char *m)
{
    /* The library's own names of its modes. */
    for (int i = OCLBLAS_MATH_STRICT; i <= OCLBLAS_MATH_TF32; ++i)
        if (!strcmp(m, oclblas_math_mode_name((oclblas_math_mode)i)))
            return i;
    bad_option(name, m, "must be strict, accurate or tf32");
    return 0;
}

static void take_option(int code, const char *name, const char *v)
{
    cmd.given[code - O_ROUTINE] = 1;
    switch (code) {
    case O_ROUTINE: cmd.routine = parse_choice(name, v, routines, "must be gemm, gemv or all"); break;
    case O_PRESET:
        cmd.preset = parse_choice(name, v, presets, "must be quick, default, users, gpu, shapes or batched");
        cmd.preset_given = 1;
        break;
    case O_SIZES: nsizes = 0; parse_list(name, v, size_item); break;
    case O_SHAPES: nshapes = 0; parse_list(name, v, shape_item); break;
    case O_LAYOUT:
        cmd.layout = parse_choice(name, v, layouts, "must be row, col or both");
        cmd.layout_given = 1;
        break;
    case O_TRANS: cmd.trans_given = 1; ntrans = 0; parse_list(name, v, trans_item); break;
    case O_DEVICE:
        if (!*v)
            bad_option(name, v, "empty (gpu, cpu, P:D or part of a device's name)");
        opt.device = v;
        break;
    case O_PEERS:
        for (int l = LIB_OPENBLAS; l < NLIBS; ++l) /* every peer: the list names those wanted */
            opt.use[l] = opt.named[l] = 0;
        peers_none = peers_named = 0;
        parse_list(name, v, peer_item);
        break;
    case O_MATH: cmd.math = math_mode_named(name, v); break;
    case O_HOST: opt.host = 1; break;
    case O_ALPHA: opt.alpha = parse_scalar(name, v); break;
    case O_BETA: opt.beta = parse_scalar(name, v); break;
    case O_REPS: opt.reps = (int)parse_count(name, v, 1000000); break;
    case O_MIN_TIME: {
        const float t = parse_scalar(name, v);
        if (!(t >= 0.001f && t <= 100.0f))
            bad_option(name, v, "must be 0.001 to 100 seconds");
        bench_set_min_time(t);
        break;
    }
    case O_OVERRIDE: {
        const char *colon = strchr(v, ':');
        if (!colon || colon == v || colon - v >= 64)
            bad_option(name, v, "KERNEL:PARAMS, e.g. gemm_fast:MWG=64,NWG=64");
        if (cmd.noverrides == MAX_OVERRIDES)
            bad_option(name, v, "more than 16 overrides");
        cmd.overrides[cmd.noverrides++] = v;
        break;
    }
    case O_CSV: opt.csv = output_path(name, v); break;
    case O_JSON: opt.json = output_path(name, v); break;
    case O_PNG: opt.png = output_path(name, v); break;
    case O_FIRST_CALL: cmd.first_call = parse_count(name, v, MAX_DIM); break;
    case O_QUIET: opt.quiet = 1; break;
    case O_BATCH: cmd.batch = parse_count(name, v, INT32_MAX); break; /* cuBLAS takes the count as int */
    case O_CHILD:
    case O_CHILD_CLBLAST:
        cmd.child = parse_count(name, v, MAX_DIM);
        cmd.child_clblast = code == O_CHILD_CLBLAST;
        break;
    }
}

/* An option that the run will not use is said, not dropped in silence. */
static void warn_unused(void)
{
    static const int unused_by_first_call[] = {O_ROUTINE, O_PRESET, O_SIZES, O_SHAPES, O_LAYOUT, O_TRANS,
                                               O_HOST,    O_ALPHA,  O_BETA,  O_REPS,   O_MIN_TIME, O_OVERRIDE,
                                               O_JSON,    O_PNG,    O_QUIET,  O_BATCH};
    if (cmd.given[O_MIN_TIME - O_ROUTINE] && opt.reps)
        fprintf(stderr, "oclblas-bench: warning: --min-time is not used: --reps sets the calls per timing\n");
    for (size_t i = 0; cmd.first_call && i < sizeof unused_by_first_call / sizeof *unused_by_first_call; ++i)
        if (cmd.given[unused_by_first_call[i] - O_ROUTINE])
            for (const struct option *o = long_options; o->name; ++o)
                if (o->val == unused_by_first_call[i])
                    fprintf(stderr, "oclblas-bench: warning: --%s is not used by --first-call\n", o->name);
}

/* Every option is read and checked before anything runs. */
static void parse_options(int argc, char **argv)
{
    opterr = 0; /* our own messages */
    for (;;) {
        int index = -1;
        const int code = getopt_long(argc, argv, "+:hV", long_options, &index);
        if (code == -1)
            break;
        const char *arg = argv[optind - 1];
        char name[64];
        if (index >= 0)
            snprintf(name, sizeof name, "--%s", long_options[index].name);
        else
            snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
        if (code == 'h') {
            usage();
            exit(0);
        } else if (code == 'V') {
            printf("oclblas-bench %s\n", oclblas_version());
            exit(0);
        } else if (code == ':') {
            bad_option(name, "", "needs a value");
        } else if (code == '?') {
            bad_option("option", arg, strchr(arg, '=') ? "unknown, or it takes no value" : "unknown or ambiguous");
        } else {
            take_option(code, name, long_options[index].has_arg ? value_of(name, argv) : NULL);
        }
    }
    if (optind < argc)
        bad_option("argument", argv[optind], "unknown: options start with --");
    if (nsizes && nshapes)
        bad_combination("--sizes and --shapes exclude each other");
    if (cmd.preset_given && (nsizes || nshapes))
        bad_combination("--preset excludes --sizes and --shapes");
    if (cmd.batch && cmd.preset_given && !strcmp(presets[cmd.preset], "batched"))
        bad_combination("--batch and --preset batched exclude each other: the preset has its own batches");
    if (!cmd.batch)
        cmd.batch = 1;
    warn_unused();
}

/* ---- the problems of the run ------------------------------------------ */

/* The shapes preset: each class of shapes (caller's m x n x k; both
 * layouts cover a small m and a small n of the problem the kernels
 * compute), at GPU sizes or, on a CPU device, smaller ones. */
static void add_shapes_preset(int col, int ta, int tb, int do_gemm, int do_gemv, int on_cpu)
{
    static const size_t gpu_gemm[][3] = {{512, 512, 512},   {1000, 1000, 1000}, {2048, 2048, 2048}, {4096, 4096, 4096},
                                         {32, 4096, 4096},  {64, 16384, 1024},  {4096, 128, 4096},  {1024, 1024, 16384},
                                         {256, 256, 65536}, {4096, 4096, 128},  {3001, 2999, 1000}};
    static const size_t cpu_gemm[][3] = {{256, 256, 256}, {512, 512, 512},  {1000, 1000, 1000},
                                         {1024, 1024, 1024}, {64, 2048, 1024}, {2048, 64, 1024},
                                         {256, 256, 8192}, {1024, 1024, 64}, {1001, 999, 1003}};
    static const size_t gpu_gemv[][2] = {{4096, 4096}, {8192, 8192}, {16384, 16384}, {3001, 2999}, {65536, 256}};
    static const size_t cpu_gemv[][2] = {{512, 512},   {1024, 1024}, {2048, 2048},
                                         {4096, 4096}, {3001, 2999}, {16384, 256}};
    const size_t(*g)[3] = on_cpu ? cpu_gemm : gpu_gemm;
    const size_t(*v)[2] = on_cpu ? cpu_gemv : gpu_gemv;
    const int ng = on_cpu ? (int)(sizeof cpu_gemm / sizeof *cpu_gemm) : (int)(sizeof gpu_gemm / sizeof *gpu_gemm);
    const int nv = on_cpu ? (int)(sizeof cpu_gemv / sizeof *cpu_gemv) : (int)(sizeof gpu_gemv / sizeof *gpu_gemv);
    for (int i = 0; i < ng && do_gemm; ++i)
        add_case(1, col, ta, tb, g[i][0], g[i][1], g[i][2], cmd.batch);
    for (int i = 0; i < nv && do_gemv; ++i)
        add_case(0, col, ta, 0, v[i][0], v[i][1], 0, cmd.batch);
}

/* The square presets, and the users' shapes (at GPU scale for gpu). */
static void add_preset(const char *name, int col, int ta, int tb, int do_gemm, int do_gemv)
{
    static const size_t quick[] = {256, 512, 1024, 0}, deflt[] = {256, 512, 1024, 2048, 0},
                        gpu[] = {1024, 2048, 4096, 8192, 0};
    const int is_gpu = !strcmp(name, "gpu"), users = !strcmp(name, "users");
    const size_t *sq = !strcmp(name, "default") ? deflt : is_gpu ? gpu : quick;
    for (int i = 0; sq[i] && !users; ++i) {
        if (do_gemm && (sq[i] <= 4096 || !is_gpu))
            add_case(1, col, ta, tb, sq[i], sq[i], sq[i], cmd.batch);
        if (do_gemv)
            add_case(0, col, ta, 0, sq[i], sq[i], 0, cmd.batch);
    }
    if (!users && !is_gpu)
        return;
    const size_t f = is_gpu ? 4 : 1;
    if (do_gemm) {
        add_case(1, col, ta, tb, 4096 * f, 64, 1024, cmd.batch);  /* tall-skinny */
        add_case(1, col, ta, tb, 64, 4096 * f, 1024, cmd.batch);  /* short-wide */
        add_case(1, col, ta, tb, 256, 256, 16384 * f, cmd.batch); /* k much larger */
        add_case(1, col, ta, tb, 1000 * f, 999 * f, 1001, cmd.batch);
        add_case(1, col, ta, tb, 1, 2048 * f, 2048, cmd.batch);
        add_case(1, col, ta, tb, 2048 * f, 1, 2048, cmd.batch);
    }
    if (do_gemv) {
        add_case(0, col, ta, 0, 65536 * f, 256, 0, cmd.batch);
        add_case(0, col, ta, 0, 256, 65536 * f, 0, cmd.batch);
        add_case(0, col, ta, 0, 3001 * f, 2999 * f, 0, cmd.batch);
    }
}

/* The batched preset (issue 24's problems): strided batches of SGEMM,
 * small problems by the thousand to large ones by the dozen, and the
 * products of attention heads; on a CPU, fewer of the largest. */
static void add_batched_preset(int col, int ta, int tb, int on_cpu)
{
    static const size_t gpu[][4] = {{1000, 32, 32, 32},    {256, 128, 128, 128}, {64, 512, 512, 512},
                                    {16, 1024, 1024, 1024}, {64, 128, 128, 64}};
    static const size_t cpu[][4] = {{1000, 32, 32, 32}, {256, 128, 128, 128}, {16, 512, 512, 512},
                                    {4, 1024, 1024, 1024}, {64, 128, 128, 64}};
    const size_t(*b)[4] = on_cpu ? cpu : gpu;
    for (int i = 0; i < 5; ++i)
        add_case(1, col, ta, tb, b[i][1], b[i][2], b[i][3], b[i][0]);
}

static void build_cases(int on_cpu)
{
    const int batched_preset = cmd.preset_given && !strcmp(presets[cmd.preset], "batched");
    const int shapes_preset = cmd.preset_given && (!strcmp(presets[cmd.preset], "shapes") || batched_preset);
    if (shapes_preset && !cmd.layout_given)
        cmd.layout = 2;
    if (shapes_preset && !cmd.trans_given)
        for (ntrans = 0; ntrans < 4; ++ntrans) {
            trans_pairs[ntrans][0] = ntrans / 2;
            trans_pairs[ntrans][1] = ntrans % 2;
        }
    if (ntrans == 0) {
        ntrans = 1;
        trans_pairs[0][0] = trans_pairs[0][1] = 0;
    }
    const int do_gemm = cmd.routine != 2, do_gemv = cmd.routine != 1;
    for (int col = 0; col < 2; ++col) {
        if ((col && cmd.layout == 0) || (!col && cmd.layout == 1))
            continue;
        for (int t = 0; t < ntrans; ++t) {
            const int ta = trans_pairs[t][0], tb = trans_pairs[t][1];
            for (int i = 0; i < nshapes; ++i) {
                if (shapes[i].gemm && do_gemm)
                    add_case(1, col, ta, tb, shapes[i].m, shapes[i].n, shapes[i].k, cmd.batch);
                else if (!shapes[i].gemm && do_gemv)
                    add_case(0, col, ta, 0, shapes[i].m, shapes[i].n, 0, cmd.batch);
            }
            for (int i = 0; i < nsizes; ++i) {
                if (do_gemm)
                    add_case(1, col, ta, tb, sizes[i], sizes[i], sizes[i], cmd.batch);
                if (do_gemv)
                    add_case(0, col, ta, 0, sizes[i], sizes[i], 0, cmd.batch);
            }
            if (batched_preset) {
                if (do_gemm)
                    add_batched_preset(col, ta, tb, on_cpu);
            } else if (shapes_preset)
                add_shapes_preset(col, ta, tb, do_gemm, do_gemv, on_cpu);
            else if (!nshapes && !nsizes)
                add_preset(presets[cmd.preset], col, ta, tb, do_gemm, do_gemv);
        }
    }
    if (ncases == 0 && batched_preset)
        bad_combination("nothing to run: the batched preset is SGEMM only (--routine gemv)");
    if (ncases == 0)
        bad_combination(cmd.routine == 1 ? "nothing to run: --routine gemm and --shapes has no MxNxK shape"
                                         : "nothing to run: --routine gemv and --shapes has no MxN shape");
}

/* ---- the peers of the run ------------------------------------------------ */

/* Loads the peers the run wants and takes out those that are not there.
 * The header line names the peers found; a line lists the absent ones with
 * why, and a peer that --peers named gets a warning on stderr instead. */
static void find_peers(const bench_cl *cl)
{
    static const struct {
        int lib;
        const char *name;
        int (*available)(const char **note);
    } peers[] = {{LIB_CLBLAST, "CLBlast", clblast_available},
                 {LIB_CUBLAS, "cuBLAS", cublas_available},
                 {LIB_CUBLAS_TF32, "cuBLAS-TF32", cublas_available},
                 {LIB_NVBLAS, "NVBLAS", nvblas_available}};
    if (opt.use[LIB_NVBLAS] && !opt.host) {
        if (opt.named[LIB_NVBLAS])
            fprintf(stderr, "oclblas-bench: warning: --peers nvblas: NVBLAS is a peer of the host-pointer calls, "
                            "which only --host measures; no nvblas column\n");
        opt.use[LIB_NVBLAS] = 0;
    }
    char found[1024] = "", absent[2048] = "";
    size_t nf = 0, na = 0;
    if (opt.use[LIB_OPENBLAS])
        nf += (size_t)snprintf(found, sizeof found, " OpenBLAS");
    for (size_t i = 0; i < sizeof peers / sizeof peers[0]; ++i) {
        const int l = peers[i].lib;
        const char *note = "";
        if (!opt.use[l])
            continue;
        if (peers[i].available(&note)) {
            if (nf < sizeof found)
                nf += (size_t)snprintf(found + nf, sizeof found - nf, "%s %s", nf ? "," : "", peers[i].name);
            continue;
        }
        opt.use[l] = 0;
        if (opt.named[l])
            fprintf(stderr, "oclblas-bench: warning: --peers %s: %s; no %s column\n", lib_names[l], note, lib_names[l]);
        else if (na < sizeof absent && l != LIB_CUBLAS_TF32) /* cuBLAS's reason once */
            na += (size_t)snprintf(absent + na, sizeof absent - na, "%s%s: %s", na ? "; " : "", peers[i].name, note);
    }
    printf("oclblas-bench %s: OpenCL device %s", oclblas_version(), cl->name);
    if (opt.use[LIB_CUBLAS] || opt.use[LIB_CUBLAS_TF32])
        printf("; CUDA device %s", cublas_device());
    printf("; peers:%s\n", nf ? found : " none");
    if (na)
        printf("peers not found: %s\n", absent);
}

/* ---- main ---------------------------------------------------------------- */

/* --first-call's child: the first and second SGEMM of this fresh process. */
static int first_call_child(void)
{
    double first, second;
    if (child_first_call(cmd.child, cmd.child_clblast, &first, &second) != 0)
        return 1;
    printf("%.9f %.9f\n", first, second);
    return 0;
}

/* The device of the run (--device, else the library's default) with a
 * context and a profiling queue; overrides applied. */
static void open_device(bench_cl *cl)
{
    oclblas_status st = oclblas_default_device(&cl->device, NULL, NULL);
    if (st != OCLBLAS_SUCCESS && opt.device)
        bad_option("--device", opt.device, oclblas_status_string(st));
    if (st != OCLBLAS_SUCCESS)
        die("no OpenCL device: %s", oclblas_status_string(st));
    clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof cl->name, cl->name, NULL);
    for (int i = 0; i < cmd.noverrides; ++i) {
        char kernel[64];
        const char *colon = strchr(cmd.overrides[i], ':');
        memcpy(kernel, cmd.overrides[i], (size_t)(colon - cmd.overrides[i]));
        kernel[colon - cmd.overrides[i]] = '\0';
        st = oclblas_override_params(cl->device, kernel, colon + 1);
        if (st != OCLBLAS_SUCCESS)
            bad_option("--override", cmd.overrides[i], oclblas_status_string(st));
    }
    cl_int err;
    cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        die("cannot create a context on %s (OpenCL error %d)", cl->name, err);
    cl->queue = clCreateCommandQueue(cl->context, cl->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS)
        die("cannot create a queue on %s (OpenCL error %d)", cl->name, err);
}

/* The exit status: 1 when an oclblas result differs from OpenBLAS's or a
 * problem did not run, with a line saying which. */
static int judge(const bench_result *results, int n)
{
    /* One TF32 product is about 1e-3 from FP32 (relative to the largest element, less). */
    const double tolerance = oclblas_get_math_mode() == OCLBLAS_MATH_TF32 ? 1e-2 : 1e-3;
    int differ = 0, missing = 0;
    for (int i = 0; i < n; ++i) {
        differ |= results[i].have[LIB_OCLBLAS] && !(results[i].check < tolerance);
        missing |= !results[i].have[LIB_OCLBLAS];
    }
    if (differ)
        fprintf(stderr, "oclblas-bench: some results differ from OpenBLAS by more than %g (relative)\n", tolerance);
    if (missing)
        fprintf(stderr, "oclblas-bench: oclblas did not run some problems (\"-\" in its column; see above)\n");
    return differ || missing;
}

int main(int argc, char **argv)
{
    parse_options(argc, argv);
    /* The library reads OCLBLAS_DEVICE at its first call, which comes after this. */
    if (opt.device && setenv("OCLBLAS_DEVICE", opt.device, 1) != 0)
        die("cannot set OCLBLAS_DEVICE: %s", strerror(errno));
    if (cmd.child)
        return first_call_child();
    if (opt.png && !cmd.first_call)
        plot_check(opt.png);
    if (cmd.math && oclblas_set_math_mode((oclblas_math_mode)cmd.math) != OCLBLAS_SUCCESS)
        die("cannot set the math mode %s", oclblas_math_mode_name((oclblas_math_mode)cmd.math));
    /* --first-call's processes take the mode from the environment. */
    if (cmd.math && setenv("OCLBLAS_MATH_MODE", oclblas_math_mode_name((oclblas_math_mode)cmd.math), 1) != 0)
        die("cannot set OCLBLAS_MATH_MODE: %s", strerror(errno));

    bench_cl cl;
    open_device(&cl);
    if (cmd.first_call) {
        first_call_report(cmd.first_call);
        return 0;
    }
    cl_device_type type = CL_DEVICE_TYPE_GPU;
    clGetDeviceInfo(cl.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    build_cases((type & CL_DEVICE_TYPE_CPU) != 0);
    find_peers(&cl);
    printf("oclblas math mode %s; rates by device time where there is one (OpenCL events, CUDA events), else by host "
           "clock; alpha=%g beta=%g\n",
           oclblas_math_mode_name(oclblas_get_math_mode()), (double)opt.alpha, (double)opt.beta);

    bench_result *results = calloc((size_t)ncases, sizeof *results);
    if (!results)
        die("out of host memory");
    int present[NLIBS] = {0};
    const double t_start = bench_now();
    for (int i = 0; i < ncases; ++i) {
        results[i].p = cases[i];
        if (!opt.quiet) {
            char d[96];
            describe(&cases[i], d, sizeof d);
            fprintf(stderr, "[%d/%d] %s (%.0f s elapsed%s)\n", i + 1, ncases, d, bench_now() - t_start,
                    i ? "" : ", first calls compile kernels");
        }
        run_case(&cl, &results[i]);
        for (int l = 0; l < NLIBS; ++l)
            present[l] |= results[i].have[l];
    }
    print_table(results, ncases, present);
    if (opt.host)
        print_host_table(results, ncases, present);
    if (opt.csv)
        write_csv(opt.csv, results, ncases, &cl);
    if (opt.json)
        write_json(opt.json, results, ncases, &cl);
    const int bad = (opt.png && plot(results, ncases, &cl) != 0) | judge(results, ncases);
    free(results);
    clReleaseCommandQueue(cl.queue);
    clReleaseContext(cl.context);
    return bad;
}
