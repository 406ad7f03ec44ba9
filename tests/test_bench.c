/*
 * oclblas-bench in the test suite: a tiny sweep whose CSV must have the
 * documented columns, a row per library that took part and none for a peer
 * that is absent (cuBLAS without a CUDA device, any peer left out with
 * --peers), oclblas results that agree with OpenBLAS, and empty cells (JSON
 * null) wherever nothing was measured; the JSON file must be well-formed;
 * --math sets the library's mode and the output says it. Options take
 * --opt=value as well as --opt value; --version and --device work; a peer
 * that --peers names and that is not there costs a one-line warning, and
 * the run goes on. Every bad option must stop the program before it
 * measures anything, with a message that names the option and exit status
 * 2; so must --png when the interpreter that would draw the plot is missing
 * or has no matplotlib. --batch N makes each problem a strided batch:
 * its rows say the batch, and oclblas's batched results agree with a loop
 * of OpenBLAS.
 */
#include "testutil.h"
#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define COLUMNS "routine,layout,trans_a,trans_b,m,n,k,alpha,beta,library,device_ms,wall_ms,rate,unit," \
                "ratio_oclblas_to_lib,max_rel_diff,device,moved_gb,bus_gbs,device_busy,ran_on,batch"
enum { F_ROUTINE, F_LAYOUT, F_TRANS_A, F_TRANS_B, F_M, F_N, F_K, F_ALPHA, F_BETA, F_LIBRARY, F_DEVICE_MS, F_WALL_MS,
       F_RATE, F_UNIT, F_RATIO, F_DIFF, F_DEVICE, F_MOVED, F_BUS, F_BUSY, F_RAN_ON, F_BATCH, NFIELDS };

typedef struct {
    int rows, libs[8];
    double batch; /* every row's batch (0 when they differ) */
} csv_summary;

static const char *const libs[] = {"oclblas", "oclblas-host", "openblas", "clblast", "cublas", "cublas-tf32", "nvblas"};
#define NLIBS (int)(sizeof libs / sizeof libs[0])

/* Runs the bench with its stdout and stderr in files; the exit status, or -1. */
static int run_bench_to(const char *args, const char *env, const char *out, const char *err)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s '%s' %s > %s 2> %s", env ? env : "", OCLBLAS_BENCH_PATH, args, out, err);
    const int rc = system(cmd);
    return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs the bench; *cuda tells whether its header line named a CUDA device. */
static int run_bench(const char *args, const char *csv, const char *json, int *cuda)
{
    char out[80], all[1200];
    snprintf(out, sizeof out, "%s.out", csv);
    snprintf(all, sizeof all, "--quiet --reps 2 %s --csv %s%s%s", args, csv, json ? " --json " : "", json ? json : "");
    const int rc = run_bench_to(all, NULL, out, "/dev/null");
    char text[4096];
    slurp(out, text, sizeof text);
    unlink(out);
    text[strcspn(text, "\n")] = '\0'; /* the header line */
    *cuda = strstr(text, "CUDA device") != NULL;
    return rc;
}

/* Splits one CSV line into fields, keeping empty ones; a quoted field may
 * hold commas. Returns the number of fields. */
static int split_csv(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    line[strcspn(line, "\n")] = '\0';
    for (;;) {
        if (n == max)
            return max + 1;
        if (*p == '"') {
            field[n++] = ++p;
            p = strchr(p, '"');
            if (!p)
                return -1;
            *p++ = '\0';
        } else {
            field[n++] = p;
            p += strcspn(p, ",");
        }
        if (*p != ',') {
            *p = '\0';
            return n;
        }
        *p++ = '\0';
    }
}

static double positive(const char *cell, const char *what)
{
    char *end;
    const double v = strtod(cell, &end);
    if (!*cell || *end || !(v > 0))
        fail_msg("%s: '%s' is not a positive number", what, cell);
    return v;
}

static csv_summary check_csv(const char *path)
{
    csv_summary s = {0, {0}, -1};
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[2048];
    assert_non_null(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = '\0';
    assert_string_equal(line, COLUMNS);
    while (fgets(line, sizeof line, f)) {
        char *field[NFIELDS];
        assert_int_equal(split_csv(line, field, NFIELDS), NFIELDS);
        int lib = -1;
        for (int i = 0; i < NLIBS; ++i)
            if (strcmp(field[F_LIBRARY], libs[i]) == 0)
                lib = i;
        if (lib < 0)
            fail_msg("unknown library %s", field[F_LIBRARY]);
        ++s.libs[lib];
        ++s.rows;
        /* Nothing stands in for a number that was not measured. */
        for (int i = 0; i < NFIELDS; ++i)
            if (!strcmp(field[i], "-") || !strncmp(field[i], "-1", 2) || !strcmp(field[i], "nan"))
                fail_msg("column %d holds '%s' instead of a value or nothing", i, field[i]);
        const int gemm = !strcmp(field[F_ROUTINE], "sgemm");
        assert_true(gemm || !strcmp(field[F_ROUTINE], "sgemv"));
        positive(field[F_M], "m");
        positive(field[F_N], "n");
        if (gemm) {
            assert_true(!strcmp(field[F_TRANS_B], "N") || !strcmp(field[F_TRANS_B], "T"));
            positive(field[F_K], "k");
        } else {
            assert_string_equal(field[F_TRANS_B], ""); /* sgemv has neither */
            assert_string_equal(field[F_K], "");
        }
        positive(field[F_WALL_MS], "wall_ms");
        const double batch = positive(field[F_BATCH], "batch");
        s.batch = s.batch < 0 || s.batch == batch ? batch : 0;
        if (lib == 0 || *field[F_RATE]) /* a host call may be too fast for the clock; oclblas has device time */
            positive(field[F_RATE], "rate");
        assert_string_equal(field[F_UNIT], gemm ? "GFLOPS" : "GB/s");
        if (lib == 1 || lib == 2) /* host routines have no device clock */
            assert_string_equal(field[F_DEVICE_MS], "");
        if (lib == 0) {
            positive(field[F_DEVICE_MS], "oclblas device_ms");
            assert_true(positive(field[F_RATIO], "oclblas/oclblas") == 1.0);
            if (!*field[F_DIFF])
                fail_msg("no max_rel_diff for oclblas");
            assert_true(atof(field[F_DIFF]) < 1e-4); /* against OpenBLAS */
        } else {
            assert_string_equal(field[F_DIFF], ""); /* checked only for oclblas */
        }
        /* The host-pointer figures: where the call ran and what it moved,
         * on the host API's rows only. */
        if (lib == 1) {
            assert_true(!strcmp(field[F_RAN_ON], "host") || !strcmp(field[F_RAN_ON], "device") ||
                        !strcmp(field[F_RAN_ON], "devices") || !strcmp(field[F_RAN_ON], "devices+host"));
            assert_true(*field[F_MOVED] && atof(field[F_MOVED]) >= 0.0);
            if (!strcmp(field[F_RAN_ON], "host"))
                assert_true(atof(field[F_MOVED]) == 0.0 && !*field[F_BUSY]);
        } else {
            assert_string_equal(field[F_MOVED], "");
            assert_string_equal(field[F_RAN_ON], "");
        }
    }
    fclose(f);
    return s;
}

static char *read_text(const char *path)
{
    static char text[1 << 16];
    slurp(path, text, sizeof text);
    return text;
}

static void test_tiny_sweep(void **state)
{
    (void)state;
    char csv[] = "/tmp/oclblas-test-bench-XXXXXX";
    int fd = mkstemp(csv);
    close(fd);
    char json[64];
    snprintf(json, sizeof json, "%s.json", csv);
    int cuda;
    assert_int_equal(
        run_bench("--sizes 64,96 --routine all --layout both --peers openblas,clblast,cublas --host", csv, json, &cuda),
        0);
    csv_summary s = check_csv(csv);
    /* 2 sizes x 2 routines x 2 layouts, each with oclblas, the host API and OpenBLAS */
    assert_int_equal(s.libs[0], 8);
    assert_int_equal(s.libs[1], 8);
    assert_int_equal(s.libs[2], 8);
    assert_true(s.libs[3] == 0 || s.libs[3] == 8);
    /* cuBLAS rows exactly when the run found a CUDA device. */
    assert_int_equal(s.libs[4], cuda ? 8 : 0);
    char err[200];
    const char *text = read_text(json);
    oclblas__json *doc = oclblas__json_parse(text, strlen(text), err, sizeof err);
    if (!doc)
        fail_msg("bench JSON: %s", err);
    const oclblas__json *results = oclblas__json_get(doc, "results");
    assert_non_null(results);
    int count = 0, nulls = 0;
    for (const oclblas__json *r = results->child; r; r = r->next) {
        ++count;
        const oclblas__json *lib = oclblas__json_get(r, "library"), *routine = oclblas__json_get(r, "routine");
        const oclblas__json *device_ms = oclblas__json_get(r, "device_ms"), *k = oclblas__json_get(r, "k");
        assert_non_null(lib);
        assert_non_null(routine);
        assert_non_null(device_ms);
        assert_non_null(k);
        const int host = !strcmp(lib->string, "openblas") || !strcmp(lib->string, "oclblas-host");
        assert_int_equal(device_ms->type, host ? OCLBLAS__JSON_NULL : OCLBLAS__JSON_NUMBER);
        if (device_ms->type == OCLBLAS__JSON_NUMBER)
            assert_true(device_ms->number > 0);
        assert_int_equal(k->type, strcmp(routine->string, "sgemv") ? OCLBLAS__JSON_NUMBER : OCLBLAS__JSON_NULL);
        nulls += host;
    }
    assert_int_equal(count, s.rows);
    assert_int_equal(nulls, 16);
    oclblas__json_free(doc);
    unlink(csv);
    unlink(json);
}

/* --batch: each problem a strided batch, on every library that has one
 * (CLBlast none for SGEMV), oclblas's results checked against OpenBLAS's
 * loop (check_csv); the table names the batch. */
static void test_batch(void **state)
{
    (void)state;
    char csv[] = "/tmp/oclblas-test-bench-XXXXXX";
    close(mkstemp(csv));
    char json[64];
    snprintf(json, sizeof json, "%s.json", csv);
    int cuda;
    assert_int_equal(run_bench("--shapes 64x48x40,300x200 --batch 5 --layout both --trans NN,TT "
                               "--peers openblas,clblast,cublas --host",
                               csv, json, &cuda),
                     0);
    csv_summary s = check_csv(csv);
    assert_true(s.batch == 5.0);
    /* 2 shapes x 2 layouts x 2 transposes (gemv: its first letter) */
    assert_int_equal(s.libs[0], 8);
    assert_int_equal(s.libs[1], 8);
    assert_int_equal(s.libs[2], 8);
    assert_true(s.libs[3] == 0 || s.libs[3] == 4); /* CLBlast: SGEMM only */
    const char *text = read_text(json);
    assert_non_null(strstr(text, "\"batch\": 5,"));
    unlink(csv);
    unlink(json);
}

/* --math sets the library's mode for the run, and the header line and the
 * JSON say which; without it, the process's (OCLBLAS_MATH_MODE). */
static void test_math_mode(void **state)
{
    (void)state;
    char out[] = "/tmp/oclblas-test-bench-XXXXXX";
    close(mkstemp(out));
    char json[64], err[64], text[4096];
    snprintf(json, sizeof json, "%s.json", out);
    snprintf(err, sizeof err, "%s.err", out);
    static const struct {
        const char *args, *env, *mode;
    } runs[] = {{"--math tf32", NULL, "tf32"}, {"--math strict", "OCLBLAS_MATH_MODE=tf32", "strict"},
                {"", "OCLBLAS_MATH_MODE=strict", "strict"}, {"", NULL, "accurate"}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; ++i) {
        char args[256], want[64];
        snprintf(args, sizeof args, "--quiet --reps 2 --sizes 40 --routine gemm --peers none %s --json %s",
                 runs[i].args, json);
        assert_int_equal(run_bench_to(args, runs[i].env ? runs[i].env : "env -u OCLBLAS_MATH_MODE", out, err), 0);
        slurp(out, text, sizeof text);
        snprintf(want, sizeof want, "oclblas math mode %s;", runs[i].mode);
        if (!strstr(text, want))
            fail_msg("%s: the header does not say '%s': %s", args, want, text);
        slurp(json, text, sizeof text);
        snprintf(want, sizeof want, "\"math_mode\": \"%s\"", runs[i].mode);
        if (!strstr(text, want))
            fail_msg("%s: the JSON does not say '%s'", args, want);
    }
    unlink(out);
    unlink(json);
    unlink(err);
}

static void test_absent_peers(void **state)
{
    (void)state;
    char csv[] = "/tmp/oclblas-test-bench-XXXXXX";
    int fd = mkstemp(csv);
    close(fd);
    int cuda;
    assert_int_equal(run_bench("--sizes 48 --routine gemm --peers none --host", csv, NULL, &cuda), 0);
    csv_summary s = check_csv(csv);
    assert_int_equal(s.rows, 2);
    assert_int_equal(s.libs[0], 1);
    assert_int_equal(s.libs[1], 1); /* the host-pointer API, asked for with --host */
    unlink(csv);
}

/* A run's files: the CSV, and the program's stdout and stderr. */
typedef struct {
    char csv[32], out[48], err[48];
} run_files;

static void make_files(run_files *f)
{
    snprintf(f->csv, sizeof f->csv, "/tmp/oclblas-test-bench-XXXXXX");
    close(mkstemp(f->csv));
    snprintf(f->out, sizeof f->out, "%s.out", f->csv);
    snprintf(f->err, sizeof f->err, "%s.err", f->csv);
}

static void remove_files(const run_files *f)
{
    unlink(f->csv);
    unlink(f->out);
    unlink(f->err);
}

/* --opt=value reads as --opt value; --version says the library's version;
 * --device picks the device by OCLBLAS_DEVICE's syntax; an option the run
 * does not use (--min-time beside --reps) is a warning. */
static void test_option_forms(void **state)
{
    (void)state;
    run_files f;
    make_files(&f);
    char args[256], text[4096], want[64];
    snprintf(args, sizeof args, "--sizes=40 --routine=gemm --peers=none --reps=2 --min-time=1 --quiet --device=0:0 --csv=%s",
             f.csv);
    assert_int_equal(run_bench_to(args, "env -u OCLBLAS_DEVICE", f.out, f.err), 0);
    slurp(f.err, text, sizeof text);
    assert_string_equal(text, "oclblas-bench: warning: --min-time is not used: --reps sets the calls per timing\n");
    const csv_summary s = check_csv(f.csv);
    assert_int_equal(s.rows, 1);
    assert_int_equal(s.libs[0], 1);
    slurp(f.out, text, sizeof text);
    if (!strstr(text, "sgemm row NN 40x40x40"))
        fail_msg("--sizes=40 did not run 40^3: %s", text);
    assert_int_equal(run_bench_to("--version", NULL, f.out, f.err), 0);
    slurp(f.out, text, sizeof text);
    snprintf(want, sizeof want, "oclblas-bench %s\n", oclblas_version());
    assert_string_equal(text, want);
    remove_files(&f);
}

/* A peer named by --peers that cannot run (here NVBLAS from a path that
 * does not exist, or no CUDA GPU at all) is one warning line on stderr;
 * the run goes on without its column. */
static void test_absent_named_peer(void **state)
{
    (void)state;
    run_files f;
    make_files(&f);
    char args[256], text[4096];
    snprintf(args, sizeof args, "--sizes 40 --routine gemm --host --peers nvblas --reps 2 --quiet --csv %s", f.csv);
    assert_int_equal(run_bench_to(args, "OCLBLAS_BENCH_NVBLAS=/nonexistent/libnvblas.so", f.out, f.err), 0);
    slurp(f.err, text, sizeof text);
    if (strncmp(text, "oclblas-bench: warning: --peers nvblas: ", 40) != 0 || strchr(text, '\n') != strrchr(text, '\n'))
        fail_msg("not one warning line for the absent NVBLAS: '%s'", text);
    const csv_summary s = check_csv(f.csv);
    assert_int_equal(s.libs[6], 0);
    assert_int_equal(s.libs[0], 1);
    remove_files(&f);
}

/* Runs the bench with `args` (and an environment prefix); it must exit with
 * status 2 before measuring, its message naming each of the `expect`
 * strings. */
static void expect_refusal(const char *args, const char *env, const char *const *expect)
{
    char out[] = "/tmp/oclblas-test-bench-XXXXXX";
    close(mkstemp(out));
    char err[64];
    snprintf(err, sizeof err, "%s.err", out);
    const int rc = run_bench_to(args, env, out, err);
    char msg[4096], printed[4096];
    slurp(err, msg, sizeof msg);
    slurp(out, printed, sizeof printed);
    unlink(out);
    unlink(err);
    if (rc != 2)
        fail_msg("oclblas-bench %s: exit status %d, not 2 (stderr: %s)", args, rc, msg);
    if (strstr(printed, "problem"))
        fail_msg("oclblas-bench %s measured something before refusing", args);
    for (; *expect; ++expect)
        if (!strstr(msg, *expect))
            fail_msg("oclblas-bench %s: the message does not name '%s': %s", args, *expect, msg);
}

static void test_bad_options(void **state)
{
    (void)state;
    static const struct {
        const char *args;
        const char *expect[3];
    } cases[] = {
        {"--sizes -5", {"--sizes", "'-5'"}},
        {"--sizes 0", {"--sizes", "'0'"}},
        {"--sizes 64,", {"--sizes", "empty item"}},
        {"--sizes 64,,96", {"--sizes", "empty item"}},
        {"--sizes 12x", {"--sizes", "'12x'"}},
        {"--sizes 99999999999999999999999", {"--sizes", "too large"}},
        {"--shapes 64x32x", {"--shapes", "'64x32x'"}},
        {"--shapes 64", {"--shapes", "MxNxK"}},
        {"--shapes 1x2x3x4", {"--shapes", "MxNxK"}},
        {"--shapes 0x4", {"--shapes", "'0x4'"}},
        {"--layout xx", {"--layout", "'xx'"}},
        {"--trans XY", {"--trans", "'XY'"}},
        {"--trans NN,T", {"--trans", "'T'"}},
        {"--trans NNN", {"--trans", "'NNN'"}},
        {"--routine xyz", {"--routine", "'xyz'"}},
        {"--preset fast", {"--preset", "'fast'"}},
        {"--alpha abc", {"--alpha", "'abc'"}},
        {"--alpha 1.5x", {"--alpha", "'1.5x'"}},
        {"--beta inf", {"--beta", "'inf'"}},
        {"--beta 1e60", {"--beta", "'1e60'"}},
        {"--peers openbals", {"--peers", "'openbals'"}},
        {"--math fast", {"--math", "'fast'"}},
        {"--math", {"--math", "needs a value"}},
        {"--peers none,clblast", {"--peers", "none"}},
        {"--peers ''", {"--peers", "empty"}},
        {"--reps 0", {"--reps", "'0'"}},
        {"--reps -3", {"--reps", "'-3'"}},
        {"--reps many", {"--reps", "'many'"}},
        {"--first-call 0", {"--first-call", "'0'"}},
        {"--first-call big", {"--first-call", "'big'"}},
        {"--override gemm_fast", {"--override", "KERNEL:PARAMS"}},
        {"--override :MWG=64", {"--override", "KERNEL:PARAMS"}},
        {"--override gemm_fast:MWG=7", {"--override", "'gemm_fast:MWG=7'"}},
        {"--override no_such_kernel:X=1", {"--override", "no_such_kernel"}},
        {"--csv /nonexistent-folder/out.csv", {"--csv", "/nonexistent-folder/out.csv"}},
        {"--json /", {"--json", "folder"}},
        {"--png ''", {"--png", "empty"}},
        {"--csv", {"--csv", "needs a value"}},
        {"--csv --quiet", {"--csv", "needs a value"}},
        {"--sizes 64 --shapes 64x64", {"--sizes", "--shapes"}},
        {"--preset quick --sizes 64", {"--preset", "--sizes"}},
        {"--routine gemv --shapes 64x64x64", {"--routine gemv", "MxN"}},
        {"--no-such-option", {"--no-such-option", "unknown"}},
        {"--quiet=1", {"--quiet=1", "no value"}},
        {"64", {"'64'", "unknown"}},
        {"--sizes=0", {"--sizes", "'0'"}},
        {"--routine=", {"--routine", "''"}},
        {"--device", {"--device", "needs a value"}},
        {"--device ''", {"--device", "empty"}},
        {"--device no-such-device-anywhere --sizes 16", {"--device", "'no-such-device-anywhere'"}},
        {"--batch 0", {"--batch", "'0'"}},
        {"--batch many", {"--batch", "'many'"}},
        {"--batch 99999999999", {"--batch", "too large"}},
        {"--batch 4 --preset batched", {"--batch", "--preset batched"}},
        {"--preset batched --routine gemv", {"batched preset", "SGEMM only"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        expect_refusal(cases[i].args, NULL, cases[i].expect);
}

/* --png needs an interpreter with matplotlib; without one the bench says
 * which interpreter it tried and what it lacks, before measuring. */
static void test_png_without_matplotlib(void **state)
{
    (void)state;
    unlink("/tmp/oclblas-test-bench.png");
    const char *const missing[] = {"/nonexistent/python3", "OCLBLAS_BENCH_PYTHON", NULL};
    expect_refusal("--sizes 32 --png /tmp/oclblas-test-bench.png", "OCLBLAS_BENCH_PYTHON=/nonexistent/python3",
                   missing);
    /* python3 -S has no site-packages, so no matplotlib wherever it is installed. */
    char wrapper[] = "/tmp/oclblas-test-python-XXXXXX";
    const int fd = mkstemp(wrapper);
    assert_true(fd >= 0);
    const char script[] = "#!/bin/sh\nexec python3 -S \"$@\"\n";
    assert_int_equal(write(fd, script, sizeof script - 1), (ssize_t)(sizeof script - 1));
    fchmod(fd, 0700);
    close(fd);
    char env[128];
    snprintf(env, sizeof env, "OCLBLAS_BENCH_PYTHON=%s", wrapper);
    const char *const no_matplotlib[] = {"matplotlib", wrapper, NULL};
    expect_refusal("--sizes 32 --png /tmp/oclblas-test-bench.png", env, no_matplotlib);
    unlink(wrapper);
    struct stat st;
    assert_int_not_equal(stat("/tmp/oclblas-test-bench.png", &st), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_bad_options), cmocka_unit_test(test_png_without_matplotlib),
                                       cmocka_unit_test(test_option_forms), cmocka_unit_test(test_absent_named_peer),
                                       cmocka_unit_test(test_tiny_sweep), cmocka_unit_test(test_absent_peers),
                                       cmocka_unit_test(test_math_mode), cmocka_unit_test(test_batch)};
    return cmocka_run_group_tests_name("bench", tests, NULL, NULL);
}
