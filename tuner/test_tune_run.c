/*
 * A real tuning run on this machine's default device (PoCL here) with a
 * tiny budget: oclblas-tune must write an entry that the library accepts
 * (oclblas_database_load), that lookup then reports as the origin of every
 * kernel's parameters, and with which SGEMM (each plan) and SGEMV are
 * correct. Running the same command again must measure nothing (the
 * journal answers), an interrupted run must resume where it stopped,
 * candidates built in build processes must reach the tuner, and bad
 * command lines must end with a message and exit status 2 or 3.
 */
#include "kernel_gemm_fast.h"
#include "measure.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

static char dir[] = "/tmp/oclblas-tune-test-XXXXXX";
static char entry_path[256], log_path[256];

/* Runs oclblas-tune with the arguments (NULL-terminated); its stderr and
 * stdout go to log_path. interrupt_when: a file whose growth past that many
 * lines triggers a SIGINT (NULL: none), watched for as long as the run
 * goes on, however slowly its device builds. Returns the exit status. */
static int tune(const char *interrupt_file, int interrupt_lines, const char *arg, ...)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = OCLBLAS_TUNE_PATH;
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a && n < 63; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *f = freopen(log_path, "w", stderr);
        if (!f || dup2(fileno(stderr), STDOUT_FILENO) < 0)
            _exit(120);
        execv(argv[0], (char *const *)argv);
        _exit(121);
    }
    int status;
    pid_t ended = 0;
    while (interrupt_file && (ended = waitpid(pid, &status, WNOHANG)) == 0) {
        FILE *f = fopen(interrupt_file, "r");
        int lines = 0, c;
        if (f) {
            while ((c = fgetc(f)) != EOF)
                lines += c == '\n';
            fclose(f);
        }
        if (lines >= interrupt_lines) {
            kill(pid, SIGINT);
            break;
        }
        usleep(100000);
    }
    if (ended != pid)
        assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    const size_t n = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static int log_has(const char *what)
{
    char *log = slurp(log_path);
    const int has = strstr(log, what) != NULL;
    if (!has)
        print_message("--- oclblas-tune output ---\n%s---\n", log);
    free(log);
    return has;
}

static int count_in_log(const char *what)
{
    char *log = slurp(log_path);
    int n = 0;
    for (const char *p = log; (p = strstr(p, what)) != NULL; p += strlen(what))
        ++n;
    free(log);
    return n;
}

#define SMALL "--size", "gemm_fast=128x128x128", "--size", "gemm_direct=64x64x64", "--size", "helpers=200x200", \
              "--size", "gemv_n=512x512", "--size", "gemv_t=512x512", "--size", "routine=4096x64x512",           \
              "--values", "routine:GEMM_MIN_INDIRECT=64,128:HOST_MAX=0,16,32",                                 \
              "--values", "gemv_n:WPT=1,2:UNR=1,2,4", "--values", "gemv_t:UNR=1,2,4"
/* Two classes of shapes: narrow products, small gemvs. */
#define CLASSES "--class", "thin:n <= 64, k >= 2:160x32x128", "--class", "little:k <= 1, m*n <= 70000:256x256"

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(entry_path, sizeof entry_path, "%s/entry.json", dir);
    snprintf(log_path, sizeof log_path, "%s/log.txt", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

static oclblas_status gemm_call(void *v, tune_problem *t, cl_command_queue q)
{
    const oclblas__tune_problem *p = &t->p;
    return oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, t->trans_b ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m,
                            p->n, p->k, p->alpha, t->buf[0], 0, p->m, t->buf[1], 0, tune_problem_ld(t, OCLBLAS__BUF_B),
                            p->beta, t->buf[2], 0, p->m, q, NULL);
}

static void check_gemm(cl_context ctx, cl_command_queue q, oclblas_transpose tb, size_t m, size_t n, size_t k)
{
    const oclblas__tune_problem p = {m, n, k, 0, 0, 1.25f, -0.5f};
    tune_problem t;
    assert_true(tune_problem_make(&t, OCLBLAS__FORM_GEMM, 0, tb == OCLBLAS_TRANS, &p, 5));
    assert_int_equal(tune_problem_upload(&t, ctx, 0), OCLBLAS_SUCCESS);
    int ok = 0;
    char note[200];
    assert_int_equal(tune_problem_check(&t, q, gemm_call, NULL, &ok, note, sizeof note), OCLBLAS_SUCCESS);
    if (!ok)
        fail_msg("sgemm %zux%zux%zu: %s", m, n, k, note);
    tune_problem_free(&t);
}

static void test_tuning_run(void **state)
{
    (void)state;
    const double t0 = tune_now();
    assert_int_equal(tune(NULL, 0, "-n", "3", "-o", entry_path, SMALL, CLASSES, NULL), 0);
    print_message("tuning run: %.1f s\n", tune_now() - t0);
    assert_true(log_has("entry checked"));

    /* The database accepts the entry ... */
    assert_int_equal(oclblas_database_load(entry_path), OCLBLAS_SUCCESS);
    char *text = slurp(entry_path);
    oclblas__db_entry *e;
    size_t count;
    char err[256];
    assert_int_equal(oclblas__db_parse(text, strlen(text), entry_path, &e, &count, err, sizeof err), OCLBLAS_SUCCESS);
    assert_int_equal(count, 1);
    assert_non_null(strstr(text, "\"tool\": \"oclblas-tune"));
    assert_non_null(strstr(text, "\"sizes\": \"gemm_fast 128x128x128 NT"));
    /* The classes, in order, with a set for each kernel tuned per class and the routine's values for them. */
    assert_int_equal(e->num_classes, 2);
    assert_string_equal(e->classes[0].cls.name, "thin");
    /* (the routine's values only where they measured better than those for every shape) */
    assert_int_equal(e->classes[0].has & ~(1u << OCLBLAS__K_ROUTINE), 1u << OCLBLAS__K_GEMM_FAST);
    assert_int_equal(e->classes[0].given[OCLBLAS__K_ROUTINE] & ~((1u << RT_GEMM_SPLIT_K) | (1u << RT_GEMM_MIN_INDIRECT)), 0);
    assert_int_equal(e->classes[0].given[OCLBLAS__K_GEMM_FAST], (1u << GF_COUNT) - 1);
    assert_true(e->classes[0].values[OCLBLAS__K_GEMM_FAST][GF_NWG] <= 32); /* no tile wider than its problems */
    assert_string_equal(e->classes[1].cls.name, "little");
    assert_int_equal(e->classes[1].has & ~(1u << OCLBLAS__K_ROUTINE), (1u << OCLBLAS__K_GEMV_N) | (1u << OCLBLAS__K_GEMV_T));
    assert_int_equal(e->classes[1].given[OCLBLAS__K_ROUTINE] & ~(1u << RT_GEMV_GROUPS_PER_CU), 0);
    free(text);
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    assert_int_equal(oclblas_default_device(&dev, &ctx, &q), OCLBLAS_SUCCESS);
    char desc[1024];
    assert_int_equal(oclblas_device_description(dev, desc, sizeof desc), OCLBLAS_SUCCESS);
    /* ... names this device, covers every kernel it can run ... */
    assert_true(strstr(desc, e->name) != NULL && e->name[0]);
    const oclblas__device_info *info;
    assert_int_equal(oclblas__device_info_get(dev, &info), OCLBLAS_SUCCESS);
    unsigned runs = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (!oclblas__kernels[k]->capable || !oclblas__kernels[k]->capable(&info->lim))
            runs |= 1u << k;
    assert_int_equal(e->has, runs);
    /* ... and is what the library now uses. */
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        char buf[1600], want[512];
        if (!(runs & (1u << k))) { /* gemm_tc off NVIDIA: no set at all */
            assert_int_equal(oclblas_get_params(dev, oclblas__kernels[k]->name, buf, sizeof buf),
                             OCLBLAS_INVALID_PARAMS);
            continue;
        }
        assert_int_equal(oclblas_get_params(dev, oclblas__kernels[k]->name, buf, sizeof buf), OCLBLAS_SUCCESS);
        oclblas__params p;
        memcpy(p.v, e->values[k], sizeof p.v);
        oclblas__params_format(k, &p, want, sizeof want);
        assert_memory_equal(buf, want, strlen(want));
        assert_non_null(strstr(buf, entry_path));
    }
    /* SGEMM through each plan and SGEMV, with the new parameters. */
    const int gmi = e->values[OCLBLAS__K_ROUTINE][RT_GEMM_MIN_INDIRECT];
    const size_t mwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_MWG], nwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_NWG],
                 kwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_KWG];
    check_gemm(ctx, q, OCLBLAS_NO_TRANS, 20, 17, 9);                          /* direct, or host-sized */
    check_gemm(ctx, q, OCLBLAS_NO_TRANS, (size_t)gmi + 21, (size_t)gmi + 3, (size_t)gmi + 30); /* padded */
    check_gemm(ctx, q, OCLBLAS_TRANS, 2 * mwg * ((size_t)gmi / mwg + 1), 2 * nwg * ((size_t)gmi / nwg + 1),
               kwg * ((size_t)gmi / kwg + 1)); /* in place */
    /* The library takes the classes' sets for their problems. */
    const oclblas__devctx *cx;
    assert_int_equal(oclblas__devctx_get(info, &cx), OCLBLAS_SUCCESS);
    const oclblas__shape thin = {160, 32, 128, 0}, little = {256, 256, 1, 0};
    assert_string_equal(oclblas__devctx_class(cx, OCLBLAS__K_GEMM_FAST, &thin), "thin");

    assert_string_equal(oclblas__devctx_class(cx, OCLBLAS__K_GEMV_T, &little), "little");
    assert_null(oclblas__devctx_class(cx, OCLBLAS__K_GEMV_T, &thin));
    oclblas_status st;
    assert_memory_equal(oclblas__devctx_params(cx, OCLBLAS__K_GEMM_FAST, &thin, &st)->v,
                        e->classes[0].values[OCLBLAS__K_GEMM_FAST], sizeof(int) * GF_COUNT);
    check_gemm(ctx, q, OCLBLAS_NO_TRANS, 160, 32, 128);
    check_gemm(ctx, q, OCLBLAS_TRANS, 1000, 31, 77);
    free(e);

    /* The same command again: everything comes from the journal, the classes' searches too. */
    assert_int_equal(tune(NULL, 0, "-n", "3", "-o", entry_path, SMALL, CLASSES, NULL), 0);
    /* A search for each kernel with a program that the device runs (gemm_tc on NVIDIA only), and the
     * classes' three: thin's gemm_fast, little's gemv_n and gemv_t. */
    int searches = 3;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        searches += (runs & (1u << k)) && oclblas__kernels[k]->source;
    assert_int_equal(count_in_log("(0 measured, 3 from the journal"), searches);
    /* Another rule for a class of the same name measures again: the journal keys hold the rule. */
    assert_int_equal(tune(NULL, 0, "-k", "gemm_fast", "-n", "3", "-o", entry_path, SMALL, "--class",
                          "thin:n <= 48, k >= 2:160x32x128", NULL),
                     0);
    assert_int_equal(count_in_log("(0 measured, 3 from the journal"), 1);
    assert_int_equal(count_in_log("(3 measured, 0 from the journal"), 1);
}

static void test_interrupt_and_resume(void **state)
{
    (void)state;
    char out[300], journal[320];
    snprintf(out, sizeof out, "%s/gemv.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    /* Interrupted once two results are in the journal (after its two header lines). */
    assert_int_equal(tune(journal, 4, "-k", "gemv_n", "-n", "8", "--jobs", "1", "--size", "gemv_n=256x256", "-o", out,
                          "--no-classes", NULL),
                     130);
    assert_true(log_has("interrupted"));
    char *j = slurp(journal);
    int lines = 0;
    for (const char *p = j; *p; ++p)
        lines += *p == '\n';
    free(j);
    const int recorded = lines - 2;
    assert_true(recorded >= 2 && recorded < 8);
    assert_int_equal(tune(NULL, 0, "-k", "gemv_n", "-n", "8", "--jobs", "1", "--size", "gemv_n=256x256", "-o", out,
                          "--no-classes", NULL),
                     0);
    char want[64];
    snprintf(want, sizeof want, "(%d measured, %d from the journal", 8 - recorded, recorded);
    assert_true(log_has(want));
}

/* Build processes (the default on NVIDIA) work anywhere: the candidates
 * come back through the library's disk cache. */
static void test_build_processes(void **state)
{
    (void)state;
    char out[300], journal[320];
    snprintf(out, sizeof out, "%s/procs.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    assert_int_equal(tune(NULL, 0, "-k", "gemv_t", "-n", "4", "--build", "processes", "--jobs", "2", "--size",
                          "gemv_t=256x256", "-o", out, "--no-classes", NULL),
                     0);
    assert_true(log_has("2 build processes"));
    assert_true(log_has("entry checked"));
    char *j = slurp(journal);
    int built = 0;
    for (const char *p = j; (p = strstr(p, "in a build process, loaded in")) != NULL; ++p)
        ++built;
    free(j);
    assert_int_equal(built, 4);
}

static void test_bad_command_lines(void **state)
{
    (void)state;
    char out[300];
    snprintf(out, sizeof out, "%s/bad.json", dir);
    assert_int_equal(tune(NULL, 0, "--values", "gemm_fast:NOPE=1", "-k", "gemm_fast", "-o", out, NULL), 2);
    assert_true(log_has("gemm_fast has no parameter NOPE"));
    assert_int_equal(tune(NULL, 0, "--values", "gemm_fast:MWG=0", "-o", out, NULL), 2);
    assert_int_equal(tune(NULL, 0, "--strategy", "bogus", NULL), 2);
    assert_true(log_has("unknown strategy"));
    assert_int_equal(tune(NULL, 0, "--size", "gemm_fast=12x12", NULL), 2);
    assert_int_equal(tune(NULL, 0, "--time-budget", "-5", NULL), 2);
    assert_int_equal(tune(NULL, 0, "--kernels", "gemm_slow", NULL), 2);
    assert_int_equal(tune(NULL, 0, "--build", "fork", NULL), 2);
    assert_int_equal(tune(NULL, 0, "--runs", NULL), 2);
    assert_int_equal(tune(NULL, 0, "extra", NULL), 2);
    /* Classes: a bad rule, a size outside the class, a name twice, a missing part. */
    assert_int_equal(tune(NULL, 0, "--class", "a:mn <= 4:8x8x8", NULL), 2);
    assert_true(log_has("unknown quantity"));
    assert_int_equal(tune(NULL, 0, "--class", "a:n <= 4:8x8x8", NULL), 2);
    assert_true(log_has("does not meet the class's rule"));
    assert_int_equal(tune(NULL, 0, "--class", "a:n <= 4:8x4x8", "--class", "a:m <= 4:4x8x8", NULL), 2);
    assert_true(log_has("named twice"));
    assert_int_equal(tune(NULL, 0, "--class", "a:n <= 4", NULL), 2);
    assert_int_equal(tune(NULL, 0, "--class", "a:n <= 4:8x4x8", "--class", "b:n <= 2, k >= 2:8x2x8", NULL), 2);
    assert_true(log_has("class a before it takes all its shapes"));
    assert_int_equal(tune(NULL, 0, "--class", "a:n <= 4:8x4x8", "--no-classes", NULL), 2);
    assert_int_equal(tune(NULL, 0, "--device", "no-such-device-anywhere", NULL), 3);
    assert_true(log_has("no OpenCL device matches"));
    /* A journal of another device is refused, not mixed in. */
    char journal[320];
    snprintf(journal, sizeof journal, "%s/other.journal", dir);
    FILE *f = fopen(journal, "w");
    assert_non_null(f);
    fputs("# oclblas-tune journal 1\n# device\tsome other device | 1.0 | X\n", f);
    fclose(f);
    assert_int_equal(tune(NULL, 0, "-k", "gemv_n", "-j", journal, "-o", out, NULL), 3);
    assert_true(log_has("another device"));
    assert_int_equal(tune(NULL, 0, "--help", NULL), 0);
    assert_true(log_has("--time-budget"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_command_lines),
        cmocka_unit_test(test_tuning_run),
        cmocka_unit_test(test_interrupt_and_resume),
        cmocka_unit_test(test_build_processes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
