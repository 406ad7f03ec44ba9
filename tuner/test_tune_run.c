/*
 * A real tuning run on this machine's default device (PoCL here) with a
 * tiny budget: oclblas-tune must write an entry that the library accepts
 * (oclblas_database_load), that lookup then reports as the origin of every
 * kernel's parameters, and with which SGEMM (each plan) and SGEMV are
 * correct. Running the same command again must measure nothing (the
 * journal answers), a run of one kernel into it must keep what it does not
 * tune, an interrupted run must resume where it stopped,
 * and candidates built in build processes must reach the tuner. (Bad
 * command lines and planted files: test_tune_refusals.c.) The problems are
 * small, the candidates few and each timed once, the routine values'
 * candidates two each, and PoCL's kernel cache is on in a folder of the
 * test's own, so that what a later run builds again is not compiled again:
 * what is asserted is what the tuner does, not how long the device takes.
 */
#include "kernels/gemm_fast.h"
#include "measure.h"
#include "test_spawn.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static char dir[] = "/tmp/oclblas-tune-test-XXXXXX";
static char entry_path[256];

#define SMALL "--size", "gemm_fast=128x128x128", "--size", "gemm_direct=64x64x64", "--size", "helpers=200x200", \
              "--size", "gemv_n=512x512", "--size", "gemv_t=512x512", "--size", "routine=4096x64x512",           \
              "--values", "routine:GEMM_MIN_INDIRECT=64,128:HOST_MAX=0,16,32:GEMM_SPLIT_K=0,4",               \
              "--values", "routine:GEMM_MAX_SLICE_K=0,512:GEMV_GROUPS_PER_CU=1,8:GEMV_T_GROUPS_PER_CU=1,8",    \
              "--values", "gemv_n:WPT=1,2:UNR=1,2,4", "--values", "gemv_t:UNR=1,2,4", "--runs", "1",           \
              "--rate-size", "gemm_fast=128x128x128", "--rate-size", "gemm_direct=64x64x64",                  \
              "--rate-size", "gemm_tc=256x256x256"
/* Two classes of shapes: narrow products, small gemvs. */
#define CLASSES "--class", "thin:n <= 64, k >= 2:160x32x128", "--class", "little:k <= 1, m*n <= 70000:256x256"

static int setup(void **state)
{
    (void)state;
    if (spawn_folder_make(dir, 1) != 0)
        return -1;
    snprintf(entry_path, sizeof entry_path, "%s/entry.json", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return spawn_folder_remove(dir);
}

/* what inserted into *text before the first at (which must be there). */
static void add_before(char **text, const char *at, const char *what)
{
    char *p = strstr(*text, at);
    assert_non_null(p);
    const size_t head = (size_t)(p - *text), n = strlen(*text) + strlen(what) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)head, *text, what, *text + head);
    free(*text);
    *text = out;
}

/* Every "rates" member out of an entry's text, with the separator before it
 * (the rates a run measured where the database gives the device the cost
 * model's facts), so that the test can write its own. */
static void drop_rates(char *text)
{
    for (char *p; (p = strstr(text, "\"rates\": {")) != NULL;) {
        char *from = p, *end = strchr(p, '}');
        assert_non_null(end);
        while (from > text && (from[-1] == ' ' || from[-1] == '\n'))
            --from;
        assert_true(from > text && from[-1] == ',');
        memmove(from - 1, end + 1, strlen(end + 1) + 1);
    }
}

static void test_tuning_run(void **state)
{
    (void)state;
    const double t0 = tune_now();
    assert_int_equal(spawn_tune("-n", "2", "-o", entry_path, SMALL, CLASSES, NULL), 0);
    print_message("tuning run: %.1f s\n", tune_now() - t0);
    assert_log("entry checked");

    /* The database accepts the entry ... */
    assert_int_equal(oclblas_database_load(entry_path), OCLBLAS_SUCCESS);
    char *text = spawn_slurp(entry_path);
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
    assert_int_equal(e->classes[1].given[OCLBLAS__K_ROUTINE] &
                         ~((1u << RT_GEMV_GROUPS_PER_CU) | (1u << RT_GEMV_T_GROUPS_PER_CU)),
                     0);
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
    /* (a kernel meant for CPUs, gemm_cpu, only on a CPU: a run that does not name it leaves it out elsewhere) */
    const int cpu = strcmp(info->type, "CPU") == 0;
    unsigned runs = 0, tuned = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (!oclblas__kernels[k]->capable || !oclblas__kernels[k]->capable(&info->lim)) {
            runs |= 1u << k;
            if (cpu || !oclblas__tuning_of(k) || !oclblas__tuning_of(k)->cpu_only)
                tuned |= 1u << k;
        }
    assert_int_equal(e->has, tuned);
    /* ... and is what the library now uses. */
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        char buf[1600], want[512];
        if (!(runs & (1u << k))) { /* gemm_tc off NVIDIA: no set at all */
            assert_int_equal(oclblas_get_params(dev, oclblas__kernels[k]->name, buf, sizeof buf),
                             OCLBLAS_INVALID_PARAMS);
            continue;
        }
        if (!(tuned & (1u << k))) /* gemm_cpu off CPUs: the database's set */
            continue;
        assert_int_equal(oclblas_get_params(dev, oclblas__kernels[k]->name, buf, sizeof buf), OCLBLAS_SUCCESS);
        oclblas__params p;
        memcpy(p.v, e->values[k], sizeof p.v);
        oclblas__params_format(k, &p, want, sizeof want);
        assert_memory_equal(buf, want, strlen(want));
        assert_non_null(strstr(buf, entry_path));
    }
    /* The sets' rates where the cost model has this device's facts (the database's), else none. */
    const oclblas__devctx *cx;
    assert_int_equal(oclblas__devctx_get(info, &cx), OCLBLAS_SUCCESS);
    const int modelled = cx->model.compute_units > 0;
    assert_int_equal(e->rates[OCLBLAS__K_GEMM_FAST] > 0, modelled);
    assert_int_equal(e->classes[0].rates[OCLBLAS__K_GEMM_FAST] > 0, modelled);
    assert_int_equal(e->rates[OCLBLAS__K_GEMM_DIRECT] > 0, modelled);
    assert_int_equal(spawn_count_in_log(modelled ? "rates: gemm_fast at 128x128x128: every shape"
                                                 : "rates: not measured: the cost model has no facts"),
                     1);
    /* SGEMM through each plan and SGEMV, with the new parameters. */
    const int gmi = e->values[OCLBLAS__K_ROUTINE][RT_GEMM_MIN_INDIRECT];
    const size_t mwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_MWG], nwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_NWG],
                 kwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_KWG];
    spawn_check_gemm(ctx, q, OCLBLAS_NO_TRANS, 20, 17, 9);                          /* direct, or host-sized */
    spawn_check_gemm(ctx, q, OCLBLAS_NO_TRANS, (size_t)gmi + 21, (size_t)gmi + 3, (size_t)gmi + 30); /* padded */
    spawn_check_gemm(ctx, q, OCLBLAS_TRANS, 2 * mwg * ((size_t)gmi / mwg + 1), 2 * nwg * ((size_t)gmi / nwg + 1),
               kwg * ((size_t)gmi / kwg + 1)); /* in place */
    /* The library takes the classes' sets for their problems. */
    const oclblas__shape thin = {160, 32, 128, 0}, little = {256, 256, 1, 0};
    assert_string_equal(oclblas__devctx_class(cx, OCLBLAS__K_GEMM_FAST, &thin), "thin");

    assert_string_equal(oclblas__devctx_class(cx, OCLBLAS__K_GEMV_T, &little), "little");
    assert_null(oclblas__devctx_class(cx, OCLBLAS__K_GEMV_T, &thin));
    oclblas_status st;
    assert_memory_equal(oclblas__devctx_params(cx, OCLBLAS__K_GEMM_FAST, &thin, &st)->v,
                        e->classes[0].values[OCLBLAS__K_GEMM_FAST], sizeof(int) * GF_COUNT);
    spawn_check_gemm(ctx, q, OCLBLAS_NO_TRANS, 160, 32, 128);
    spawn_check_gemm(ctx, q, OCLBLAS_TRANS, 1000, 31, 77);
    free(e);

    /* The same command again: everything comes from the journal, the classes' searches too. */
    assert_int_equal(spawn_tune("-n", "2", "-o", entry_path, SMALL, CLASSES, NULL), 0);
    /* A search for each kernel with a program that the run tuned (gemm_tc on NVIDIA only, gemm_cpu on
     * CPUs only), and the classes' three: thin's gemm_fast, little's gemv_n and gemv_t. */
    int searches = 3;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        searches += (tuned & (1u << k)) && oclblas__kernels[k]->source;
    assert_int_equal(spawn_count_in_log("(0 measured, 2 from the journal"), searches);
    /* Another rule for a class of the same name measures again: the journal keys hold the rule. */
    assert_int_equal(spawn_tune("-k", "gemm_fast", "-n", "2", "-o", entry_path, SMALL, "--class",
                          "thin:n <= 48, k >= 2:160x32x128", NULL),
                     0);
    assert_int_equal(spawn_count_in_log("(0 measured, 2 from the journal"), 1);
    assert_int_equal(spawn_count_in_log("(2 measured, 0 from the journal"), 1);

    /* Tuning one kernel into the entry keeps what the tuner does not measure: the model's facts, the
     * measurements of the sets it keeps (never of one it tuned), and the classes' order. */
    text = spawn_slurp(entry_path);
    drop_rates(text);
    add_before(&text, "\"parameters\": {",
              "\"model\": {\"call_us\": 12, \"launch_us\": 4, \"bandwidth_gbs\": 2500, \"item_gflops\": 2.5, "
              "\"busy_item_gflops\": 1, \"bounds_norm\": 6},\n  \"rates\": {\"gemm_fast\": 1000, \"gemv_n\": 2000},\n  "
              "\"along_k_shares\": {\"gemm_fast\": [0.87, 0.95]},\n  \"resident\": {\"gemm_fast\": 4},\n  ");
    add_before(&text, "\"name\": \"thin\"", "\"rates\": {\"gemm_fast\": 500}, \"resident\": {\"gemm_fast\": 6}, ");
    add_before(&text, "\"name\": \"little\"", "\"rates\": {\"gemv_n\": 700, \"gemv_t\": 600}, ");
    assert_int_equal(oclblas__db_parse(text, strlen(text), entry_path, &e, &count, err, sizeof err), OCLBLAS_SUCCESS);
    assert_int_equal(e->num_classes, 2);
    assert_string_equal(e->classes[1].cls.name, "little");
    free(e);
    FILE *f = fopen(entry_path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    free(text);
    assert_int_equal(spawn_tune("-k", "gemv_n", "-n", "2", "-o", entry_path, SMALL, "--class",
                                "little:k <= 1, m*n <= 70000:256x256", NULL),
                     0);
    text = spawn_slurp(entry_path);
    assert_int_equal(oclblas__db_parse(text, strlen(text), entry_path, &e, &count, err, sizeof err), OCLBLAS_SUCCESS);
    free(text);
    assert_true(e->has_model);
    assert_true(e->model.call_s == 12e-6 && e->model.launch_s == 4e-6 && e->model.bandwidth == 2500e9 &&
                e->model.item_rate == 2.5e9 && e->model.busy_item_rate == 1e9 && e->model.bounds_norm == 6);
    assert_true(e->rates[OCLBLAS__K_GEMM_FAST] == 1000e9);
    assert_true(e->along_k[OCLBLAS__K_GEMM_FAST][0] == 0.87 && e->along_k[OCLBLAS__K_GEMM_FAST][1] == 0.95);
    assert_int_equal(e->resident[OCLBLAS__K_GEMM_FAST], 4);
    assert_true(e->rates[OCLBLAS__K_GEMV_N] == 0);
    assert_int_equal(e->num_classes, 2);
    assert_string_equal(e->classes[0].cls.name, "thin");
    assert_true(e->classes[0].rates[OCLBLAS__K_GEMM_FAST] == 500e9);
    assert_int_equal(e->classes[0].resident[OCLBLAS__K_GEMM_FAST], 6);
    assert_string_equal(e->classes[1].cls.name, "little");
    assert_true(e->classes[1].has & (1u << OCLBLAS__K_GEMV_T));
    assert_true(e->classes[1].rates[OCLBLAS__K_GEMV_T] == 600e9);
    assert_true(e->classes[1].rates[OCLBLAS__K_GEMV_N] == 0);
    free(e);

    /* Tuning gemm_fast and gemm_direct into it: with the earlier entry's model, each set chosen gets its rate
     * measured (its earlier shares and groups held go), whatever the database says of the device; unless
     * --rates off. */
    assert_int_equal(spawn_tune("-k", "gemm_fast,gemm_direct", "-n", "2", "-o", entry_path, SMALL, "--class",
                                "thin:n <= 64, k >= 2:160x32x128", NULL),
                     0);
    text = spawn_slurp(entry_path);
    assert_int_equal(oclblas__db_parse(text, strlen(text), entry_path, &e, &count, err, sizeof err), OCLBLAS_SUCCESS);
    assert_non_null(strstr(text, "rates: gemm_fast at 128x128x128: every shape "));
    free(text);
    assert_true(e->has_model);
    assert_true(e->rates[OCLBLAS__K_GEMM_FAST] > 0 && e->rates[OCLBLAS__K_GEMM_FAST] != 1000e9);
    assert_true(e->along_k[OCLBLAS__K_GEMM_FAST][0] == 0);
    assert_true(e->resident[OCLBLAS__K_GEMM_FAST] == 0 && e->classes[0].resident[OCLBLAS__K_GEMM_FAST] == 0);
    assert_true(e->rates[OCLBLAS__K_GEMM_DIRECT] > 0);
    assert_string_equal(e->classes[0].cls.name, "thin");
    assert_true(e->classes[0].rates[OCLBLAS__K_GEMM_FAST] > 0 && e->classes[0].rates[OCLBLAS__K_GEMM_FAST] != 500e9);
    assert_true(e->classes[1].rates[OCLBLAS__K_GEMV_T] == 600e9);
    free(e);
    assert_int_equal(spawn_tune("-k", "gemm_fast", "-n", "2", "-o", entry_path, SMALL, "--class",
                                "thin:n <= 64, k >= 2:160x32x128", "--rates", "off", NULL),
                     0);
    text = spawn_slurp(entry_path);
    assert_int_equal(oclblas__db_parse(text, strlen(text), entry_path, &e, &count, err, sizeof err), OCLBLAS_SUCCESS);
    free(text);
    assert_true(e->has_model);
    assert_true(e->rates[OCLBLAS__K_GEMM_FAST] == 0 && e->classes[0].rates[OCLBLAS__K_GEMM_FAST] == 0);
    assert_true(e->rates[OCLBLAS__K_GEMM_DIRECT] > 0); /* kept: not tuned by this run */
    free(e);
}

static void test_interrupt_and_resume(void **state)
{
    (void)state;
    char out[300], journal[320];
    snprintf(out, sizeof out, "%s/gemv.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    /* Interrupted once two results are in the journal (after its two header lines). */
    const pid_t pid = spawn_start("-k", "gemv_n", "-n", "6", "--jobs", "1", "--size", "gemv_n=256x256", "-o", out,
                                  "--no-classes", NULL);
    for (int waited = 0; waited < 6000 && spawn_count_lines(journal) < 4; ++waited)
        usleep(50000);
    kill(pid, SIGINT);
    assert_int_equal(spawn_finish(pid), 130);
    assert_true(spawn_log_has("interrupted"));
    const int recorded = spawn_count_lines(journal) - 2;
    assert_true(recorded >= 2 && recorded < 6);
    assert_int_equal(spawn_tune("-k", "gemv_n", "-n", "6", "--jobs", "1", "--size", "gemv_n=256x256", "-o", out,
                                "--no-classes", NULL),
                     0);
    char want[64];
    snprintf(want, sizeof want, "(%d measured, %d from the journal", 6 - recorded, recorded);
    assert_true(spawn_log_has(want));
}

/* Build processes (the default on NVIDIA) work anywhere: the candidates
 * come back through the library's disk cache. */
static void test_build_processes(void **state)
{
    (void)state;
    char out[300], journal[320];
    snprintf(out, sizeof out, "%s/procs.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    assert_int_equal(spawn_tune("-k", "gemv_t", "-n", "3", "--build", "processes", "--jobs", "2", "--size",
                          "gemv_t=256x256", "-o", out, "--no-classes", NULL),
                     0);
    assert_true(spawn_log_has("2 build processes"));
    assert_log("entry checked");
    char *j = spawn_slurp(journal);
    assert_non_null(j);
    int built = 0;
    for (const char *p = j; (p = strstr(p, "in a build process, loaded in")) != NULL; ++p)
        ++built;
    free(j);
    assert_int_equal(built, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tuning_run),
        cmocka_unit_test(test_interrupt_and_resume),
        cmocka_unit_test(test_build_processes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
