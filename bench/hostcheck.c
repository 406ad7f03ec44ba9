/*
 * oclblas-hostcheck: host-pointer SGEMM (oclblas_sgemm on malloc'ed,
 * pageable memory, as a drop-in caller has it) at sizes too large for
 * oclblas-bench's full OpenBLAS reference, on the devices OCLBLAS_DEVICE
 * names (one, several, gpus, all). For each problem: one call, then --reps
 * timed calls (the median reported); the result of the first and of the
 * last call is checked on --samples elements against a float64 dot product,
 * with the bound of src/verify.h; and from the library's report of the
 * last call (oclblas_host_report_get): bytes moved each way, each device's
 * tiles and its kernels' busy time (profiling events), its idle fraction
 * (1 - busy / wall time of the call), devices that failed and tiles the
 * host computed. A device's busy time is the union, on its kernel queue,
 * of each chunk's interval from the moment it could run (the chunk before
 * it ended and its panels' uploads ended, or its first command's START if
 * later) to its last kernel's END, all on the device's clock: a time the
 * device computed or was stamped as computing, never a wait for its
 * inputs, and never more than the call. Operands are filled by all host
 * threads from a seed per block, so a run reproduces. Like a drop-in
 * user's program, it is linked against OpenBLAS (as oclblas-bench, it is
 * built only where OpenBLAS is found), which computes what goes to the host: small
 * calls, the tiles of a device that failed. Output: a table, and JSON
 * (--json).
 * Exit status: 0 all checked right, 1 a wrong element or a failed call,
 * 2 a bad option.
 */
#define _GNU_SOURCE
#include "oclblas.h"
#include "timing.h"
#include "util/verify.h"

#include <cblas.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    size_t m, n, k;
} shape;

static void usage(void)
{
    printf("usage: oclblas-hostcheck [options]   (--opt value or --opt=value)\n"
           "  --sizes N,N,...        square problems (default 4096)\n"
           "  --shapes MxNxK,...     or any shapes\n"
           "  --reps R               timed calls after the first (3); the median is reported\n"
           "  --samples S            elements checked against float64 (256)\n"
           "  --beta B               (0; alpha is 1)\n"
           "  --layout row|col       (col)\n"
           "  --json FILE            results as JSON\n"
           "  --device SPEC          the devices, as OCLBLAS_DEVICE names them (e.g. 0:0,0:1 or gpus;\n"
           "                         default: OCLBLAS_DEVICE); OCLBLAS_FAULT makes one fail\n"
           "  --version, --help\n"
           "exit status: 0 every checked element right, 1 a wrong one or a failed call, 2 a bad option\n");
}

static void bad(const char *opt, const char *val, const char *why)
{
    fprintf(stderr, "oclblas-hostcheck: %s '%s': %s (try --help)\n", opt, val, why);
    exit(2);
}

/* A decimal count in 1..max. */
static size_t parse_count(const char *opt, const char *s, size_t max)
{
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || errno || v == 0 || s[0] == '-')
        bad(opt, s, "not a positive integer");
    if (v > max)
        bad(opt, s, "too large");
    return (size_t)v;
}

#define MAX_SIZE ((size_t)1 << 40)

#define MAX_SHAPES 32

/* ---- filling by all threads ------------------------------------------- */

typedef struct {
    float *x;
    size_t count, block;
    uint32_t seed;
    size_t next;
    pthread_mutex_t lock;
} fill_job;

#define FILL_BLOCK ((size_t)1 << 22)

static void *fill_worker(void *p)
{
    fill_job *f = p;
    for (;;) {
        pthread_mutex_lock(&f->lock);
        const size_t b = f->next++;
        pthread_mutex_unlock(&f->lock);
        const size_t lo = b * FILL_BLOCK;
        if (lo >= f->count)
            return NULL;
        const size_t hi = lo + FILL_BLOCK < f->count ? lo + FILL_BLOCK : f->count;
        uint32_t s = f->seed * 2654435761u + (uint32_t)b * 40503u + 1u;
        oclblas__fill_uniform(f->x + lo, hi - lo, &s);
    }
}

static void fill(float *x, size_t count, uint32_t seed)
{
    fill_job f = {x, count, FILL_BLOCK, seed, 0, PTHREAD_MUTEX_INITIALIZER};
    long nt = sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1)
        nt = 1;
    if (nt > 64)
        nt = 64;
    pthread_t t[64];
    for (long i = 0; i < nt; ++i)
        pthread_create(&t[i], NULL, fill_worker, &f);
    for (long i = 0; i < nt; ++i)
        pthread_join(t[i], NULL);
}

/* ---- the check ---------------------------------------------------------- */

typedef struct {
    size_t i, j;
    float c0;
} sample;

/* Element (i, j) of a matrix stored in the layout with leading dimension ld. */
static size_t at(int row, size_t i, size_t j, size_t ld) { return row ? i * ld + j : j * ld + i; }

/* The worst ratio of error to bound over the samples. */
static double check(int row, const shape *s, float beta, const float *a, size_t lda, const float *b, size_t ldb,
                    const float *c, size_t ldc, const sample *smp, size_t count)
{
    double worst = 0.0;
    for (size_t q = 0; q < count; ++q) {
        const size_t i = smp[q].i, j = smp[q].j;
        double sum = 0.0, mag = 0.0;
        for (size_t p = 0; p < s->k; ++p) {
            const double t = (double)a[at(row, i, p, lda)] * (double)b[at(row, p, j, ldb)];
            sum += t;
            mag += fabs(t);
        }
        sum += (double)beta * smp[q].c0;
        mag += fabs((double)beta * smp[q].c0);
        const double got = c[at(row, i, j, ldc)];
        const double r = fabs(got - sum) / oclblas__error_bound(s->k, mag);
        if (!(r <= worst))
            worst = isnan(r) ? INFINITY : r;
    }
    return worst;
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

int main(int argc, char **argv)
{
    shape shapes[MAX_SHAPES];
    int nshapes = 0, reps = 3, row = 0;
    size_t samples = 256;
    float beta = 0.0f;
    const char *json = NULL;
    static const struct option options[] = {
        {"sizes", required_argument, NULL, 's'}, {"shapes", required_argument, NULL, 'S'},
        {"reps", required_argument, NULL, 'r'},  {"samples", required_argument, NULL, 'n'},
        {"beta", required_argument, NULL, 'b'},  {"layout", required_argument, NULL, 'l'},
        {"json", required_argument, NULL, 'j'},  {"device", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    opterr = 0; /* our own messages */
    for (int code, index = -1; (code = getopt_long(argc, argv, "+:hV", options, &index)) != -1; index = -1) {
        const char *arg = argv[optind - 1], *v = optarg;
        char o[32];
        snprintf(o, sizeof o, index >= 0 ? "--%s" : "%s", index >= 0 ? options[index].name : arg);
        if (code == 'h') {
            usage();
            return 0;
        }
        if (code == 'V') {
            printf("oclblas-hostcheck %s\n", oclblas_version());
            return 0;
        }
        if (code == '?')
            bad("option", arg, strchr(arg, '=') ? "unknown, or it takes no value" : "unknown or ambiguous");
        /* A value given apart that looks like an option means it was left out. */
        if (code == ':' || (v == arg && !strncmp(v, "--", 2)))
            bad(o, "", "needs a value");
        if (code == 's' || code == 'S') {
            nshapes = 0;
            char *list = strdup(v), *save = NULL;
            for (char *it = strtok_r(list, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
                if (nshapes == MAX_SHAPES)
                    bad(o, v, "too many");
                shape *s = &shapes[nshapes++];
                if (code == 's') {
                    s->m = s->n = s->k = parse_count(o, it, MAX_SIZE);
                } else {
                    char *x1 = strchr(it, 'x'), *x2 = x1 ? strchr(x1 + 1, 'x') : NULL;
                    if (!x1 || !x2)
                        bad(o, it, "a shape is MxNxK");
                    *x1 = *x2 = '\0';
                    s->m = parse_count(o, it, MAX_SIZE);
                    s->n = parse_count(o, x1 + 1, MAX_SIZE);
                    s->k = parse_count(o, x2 + 1, MAX_SIZE);
                }
            }
            free(list);
            if (!nshapes)
                bad(o, v, "empty list");
        } else if (code == 'r') {
            reps = (int)parse_count(o, v, 100000);
        } else if (code == 'n') {
            samples = parse_count(o, v, (size_t)1 << 24);
        } else if (code == 'b') {
            char *end;
            beta = strtof(v, &end);
            if (*end || end == v || !isfinite(beta))
                bad(o, v, "not a number");
        } else if (code == 'l') {
            if (strcmp(v, "row") && strcmp(v, "col"))
                bad(o, v, "row or col");
            row = !strcmp(v, "row");
        } else if (code == 'j') {
            json = v;
        } else if (code == 'd') {
            /* The library reads OCLBLAS_DEVICE at its first call, after this. */
            if (!*v)
                bad(o, v, "empty");
            setenv("OCLBLAS_DEVICE", v, 1);
        }
    }
    if (optind < argc)
        bad("argument", argv[optind], "unknown: options start with --");
    if (!nshapes) {
        shapes[0] = (shape){4096, 4096, 4096};
        nshapes = 1;
    }
    cl_device_id dev;
    oclblas_status st = oclblas_default_device(&dev, NULL, NULL);
    if (st != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclblas-hostcheck: no device: %s\n", oclblas_status_string(st));
        return 2;
    }
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    const char *spec = getenv("OCLBLAS_DEVICE"), *fault = getenv("OCLBLAS_FAULT");
    printf("oclblas-hostcheck %s: OCLBLAS_DEVICE=%s (first: %s)%s%s; %s-major, alpha 1, beta %g, %zu samples\n",
           oclblas_version(), spec ? spec : "(default)", name, fault ? ", OCLBLAS_FAULT=" : "", fault ? fault : "",
           row ? "row" : "column", (double)beta, samples);
    printf("host BLAS in this process: %s, %d threads\n", openblas_get_config(), openblas_get_num_threads());
    printf("%-20s %5s %10s %8s %9s %10s %10s %6s %6s  %s\n", "problem", "calls", "median ms", "TFLOPS", "check",
           "GB to dev", "GB back", "failed", "host", "per device: tiles, busy ms, idle %");
    FILE *jf = json ? fopen(json, "w") : NULL;
    if (json && !jf)
        bad("--json", json, strerror(errno));
    if (jf)
        fprintf(jf, "{\n  \"tool\": \"oclblas-hostcheck %s\",\n  \"devices\": \"%s\",\n  \"fault\": \"%s\",\n  "
                    "\"layout\": \"%s\",\n  \"beta\": %g,\n  \"results\": [",
                oclblas_version(), spec ? spec : "", fault ? fault : "", row ? "row" : "col", (double)beta);
    int failures = 0;
    for (int si = 0; si < nshapes; ++si) {
        const shape *s = &shapes[si];
        const size_t lda = row ? s->k : s->m, ldb = row ? s->n : s->k, ldc = row ? s->n : s->m;
        float *a = malloc(s->m * s->k * sizeof *a), *b = malloc(s->k * s->n * sizeof *b);
        float *c = malloc(s->m * s->n * sizeof *c);
        sample *smp = calloc(samples, sizeof *smp);
        if (!a || !b || !c || !smp) {
            fprintf(stderr, "oclblas-hostcheck: %zux%zux%zu: not enough host memory (%.1f GB)\n", s->m, s->n, s->k,
                    4e-9 * ((double)s->m * s->k + (double)s->k * s->n + (double)s->m * s->n));
            free(a);
            free(b);
            free(c);
            free(smp);
            failures = 1;
            continue;
        }
        fill(a, s->m * s->k, 1);
        fill(b, s->k * s->n, 2);
        fill(c, s->m * s->n, 3);
        uint32_t seed = 12345u + (uint32_t)si;
        for (size_t q = 0; q < samples; ++q) {
            seed = seed * 1664525u + 1013904223u;
            smp[q].i = (size_t)(seed >> 8) % s->m;
            seed = seed * 1664525u + 1013904223u;
            smp[q].j = (size_t)(seed >> 8) % s->n;
            smp[q].c0 = c[at(row, smp[q].i, smp[q].j, ldc)];
        }
        const oclblas_layout layout = row ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR;
        double *times = calloc((size_t)reps, sizeof *times);
        double worst = 0.0;
        oclblas_host_report rep;
        memset(&rep, 0, sizeof rep);
        int calls = 0;
        for (int r = 0; r <= reps && st == OCLBLAS_SUCCESS; ++r) {
            /* With beta != 0 a call changes what the next one starts from:
             * only the first is checked then. */
            const double t0 = bench_now();
            st = oclblas_sgemm(layout, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, s->m, s->n, s->k, 1.0f, a, lda, b, ldb,
                               beta, c, ldc);
            const double t = bench_now() - t0;
            if (st != OCLBLAS_SUCCESS)
                break;
            ++calls;
            if (r > 0)
                times[r - 1] = t;
            oclblas_host_report_get(&rep);
            if (r == 0 || (r == reps && beta == 0.0f)) {
                const double w = check(row, s, beta, a, lda, b, ldb, c, ldc, smp, samples);
                worst = w > worst ? w : worst;
            }
        }
        const int ok = st == OCLBLAS_SUCCESS && worst <= 1.0;
        failures |= !ok;
        double median = NAN;
        if (calls > 1) {
            qsort(times, (size_t)(calls - 1), sizeof *times, cmp_double);
            median = times[(calls - 2) / 2];
        } else if (calls == 1) {
            median = rep.seconds;
        }
        const double tflops = 2.0 * (double)s->m * s->n * s->k / median * 1e-12;
        char prob[32];
        snprintf(prob, sizeof prob, "%zux%zux%zu", s->m, s->n, s->k);
        printf("%-20s %5d %10.2f %8.2f %9s %10.2f %10.2f %6d %6lu ", prob, calls, median * 1e3, tflops,
               st != OCLBLAS_SUCCESS ? "FAILED" : ok ? "ok" : "WRONG", rep.bytes_to_device * 1e-9,
               rep.bytes_from_device * 1e-9, rep.failed_devices, rep.tiles_on_host);
        for (int d = 0; d < rep.devices && d < OCLBLAS_REPORT_DEVICES; ++d) {
            /* A call in place on shared memory has no kernel times. */
            if (rep.device[d].busy_s > 0 || rep.tiles > 1)
                printf(" [%d: %lu, %.1f, %.1f%%]", d, rep.device[d].tiles, rep.device[d].busy_s * 1e3,
                       rep.seconds > 0 ? 100.0 * (1.0 - rep.device[d].busy_s / rep.seconds) : 0.0);
            else
                printf(" [%d: %lu, in place, not timed]", d, rep.device[d].tiles);
        }
        if (!rep.on_device)
            printf(" on the host (%s)", rep.host_blas);
        printf("\n");
        if (st != OCLBLAS_SUCCESS)
            fprintf(stderr, "oclblas-hostcheck: %s: %s\n", prob, oclblas_status_string(st));
        if (jf) {
            fprintf(jf, "%s\n    {\"m\": %zu, \"n\": %zu, \"k\": %zu, \"calls\": %d, \"median_ms\": %.4f, "
                        "\"tflops\": %.4f, \"status\": \"%s\", \"max_error_over_bound\": %.4g, "
                        "\"last_call_ms\": %.4f, \"on_device\": %d, \"bytes_to_device\": %.0f, "
                        "\"bytes_from_device\": %.0f, \"tiles\": %lu, \"tiles_on_host\": %lu, "
                        "\"failed_devices\": %d, \"devices\": [",
                    si ? "," : "", s->m, s->n, s->k, calls, median * 1e3, isfinite(tflops) ? tflops : 0.0,
                    oclblas_status_name(st), isfinite(worst) ? worst : 1e300, rep.seconds * 1e3, rep.on_device,
                    rep.bytes_to_device, rep.bytes_from_device, rep.tiles, rep.tiles_on_host, rep.failed_devices);
            for (int d = 0; d < rep.devices && d < OCLBLAS_REPORT_DEVICES; ++d) {
                const int timed = rep.device[d].busy_s > 0 || rep.tiles > 1;
                fprintf(jf, "%s{\"tiles\": %lu, \"busy_ms\": ", d ? ", " : "", rep.device[d].tiles);
                if (timed)
                    fprintf(jf, "%.4f, \"idle_fraction\": %.4f}", rep.device[d].busy_s * 1e3,
                            rep.seconds > 0 ? 1.0 - rep.device[d].busy_s / rep.seconds : 0.0);
                else
                    fprintf(jf, "null, \"idle_fraction\": null}");
            }
            fprintf(jf, "]}");
        }
        st = OCLBLAS_SUCCESS;
        free(times);
        free(a);
        free(b);
        free(c);
        free(smp);
    }
    if (jf) {
        fprintf(jf, "\n  ]\n}\n");
        fclose(jf);
    }
    printf("idle %% = 1 - busy / (the call's wall time), last call; busy = the union on the device's kernel queue of "
           "each chunk's interval from max(its first command's START, the previous chunk's END, its uploads' END) to "
           "its last kernel's END (OpenCL profiling, the device's clock)\n");
    return failures;
}
