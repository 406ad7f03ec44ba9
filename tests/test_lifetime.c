/*
 * What the library keeps, and for how long: contexts that the caller
 * creates, uses and releases are let go of without any call (300 of them,
 * and the library's held contexts, programs and the process's memory do
 * not grow); oclblas_context_release lets go of one context while another
 * thread computes on another (and on the same); a sweep for released
 * contexts leaves a held one its scratch buffers; the counters' scratch
 * slot is zero when made and when grown; programs are cached under
 * the build options at their full length (a 5000-character
 * OCLBLAS_BUILD_OPTIONS is passed whole, and options that differ only at
 * their end are two programs). White-box: links the library's objects to
 * count what it holds.
 */
#include "runtime/lifetime.h"
#include "runtime/programs.h"
#include "runtime/scratch.h"
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SMALL = 8 };

/* One small column-major SGEMM on device buffers of env's context (the
 * direct kernel: one program), returning its status. */
static oclblas_status small_gemm(const tu_env *env)
{
    float host[SMALL * SMALL];
    unsigned seed = 7;
    tu_fill(host, SMALL * SMALL, &seed);
    cl_mem a = tu_buffer(env, host, SMALL * SMALL), b = tu_buffer(env, host, SMALL * SMALL);
    cl_mem c = tu_buffer(env, host, SMALL * SMALL);
    const oclblas_status st = oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, SMALL, SMALL,
                                               SMALL, 1.0f, a, 0, SMALL, b, 0, SMALL, 0.0f, c, 0, SMALL, env->queue,
                                               NULL);
    clFinish(env->queue);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    return st;
}

/* A context and queue of the caller's own on the default device. */
static tu_env own_context(void)
{
    tu_env env;
    tu_get_env(&env);
    cl_int err;
    env.context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    env.queue = clCreateCommandQueue(env.context, env.device, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    return env;
}

static void release_context(tu_env *env)
{
    clReleaseCommandQueue(env->queue);
    clReleaseContext(env->context);
}

/* A direct-kernel product, and now and then one that takes gemm_fast with
 * padded operands (scratch buffers and their last-use event), checked. */
static void compute(const tu_env *env, int i, int with_scratch)
{
    const oclblas_layout l = i % 2 ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR;
    double r = tu_gemm_case(env, 0, l, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 9, 8, 7, 1.0f, 0.5f, 1, 0, 0, 0, (unsigned)i);
    if (with_scratch) {
        /* Transposed A and odd sizes past GEMM_MIN_INDIRECT (m*n*k above its cube): the
         * indirect plan, with padded copies. */
        const size_t s = (size_t)tu_routine_value(env, "GEMM_MIN_INDIRECT") + 150;
        r += tu_gemm_case(env, 0, l, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, s, s - 10, s + 20, 1.0f, 0.0f, 0, 0, 0, 0,
                          (unsigned)i + 1000);
    }
    if (r > 1.0)
        fail_msg("context %d: error %.3g x bound", i, r);
}

static long rss_kib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void test_released_contexts(void **state)
{
    (void)state;
    enum { CONTEXTS = 300, SETTLE = 20 };
    /* PoCL frees a released queue (and its hold on the context) in the
     * background, so a context may be let go of only when the one after
     * next is seen: what the first contexts leave is the bound. */
    size_t most_contexts = 0, most_programs = 0;
    long rss_start = 0;
    for (int i = 0; i < CONTEXTS; ++i) {
        tu_env env = own_context();
        compute(&env, i, i % 10 == 0);
        release_context(&env);
        const size_t contexts = oclblas__contexts_held(NULL), programs = oclblas__programs_held();
        if (i < SETTLE) {
            most_contexts = contexts > most_contexts ? contexts : most_contexts;
            most_programs = programs > most_programs ? programs : most_programs;
        } else if (contexts > most_contexts || programs > most_programs) {
            fail_msg("after %d contexts the library holds %zu contexts and %zu programs (at most %zu and %zu before)",
                     i + 1, contexts, programs, most_contexts, most_programs);
        }
        if (i == SETTLE)
            rss_start = rss_kib();
    }
    assert_true(most_contexts <= 4);
    /* The library kept 1.9 MB per context before it let go of them. (Under
     * AddressSanitizer freed memory waits in a quarantine of up to 256 MB.) */
    const long grown = rss_kib() - rss_start;
    print_message("%d contexts: at most %zu held, %zu programs; the process grew by %ld KiB over the last %d\n",
                  CONTEXTS, most_contexts, most_programs, grown, CONTEXTS - SETTLE - 1);
#ifndef __SANITIZE_ADDRESS__
    assert_true(grown < 48 * 1024);
#endif
}

/* A context whose caller still holds it and its queue keeps its scratch
 * set when another context is first seen (a sweep), whether the
 * implementation counts a queue among the context's references (PoCL) or
 * only explicit retains (Intel's CPU runtime). */
static void test_sweep_keeps_held_scratch(void **state)
{
    (void)state;
    tu_env held = own_context();
    compute(&held, 0, 1);
    int writers;
    assert_true(oclblas__scratch_refs(held.context, 0, &writers) > 0);
    assert_int_equal(writers, 1); /* every scratch buffer last written by held.queue */
    tu_env other = own_context();
    compute(&other, 1, 0); /* other is first seen: the sweep looks at held */
    assert_int_equal(oclblas__contexts_held(held.context), 1);
    assert_true(oclblas__scratch_refs(held.context, 0, &writers) > 0);
    TU_CHECK(oclblas_context_release(other.context));
    TU_CHECK(oclblas_context_release(held.context));
    release_context(&other);
    release_context(&held);
}

/* Every int of scratch slot S3 of env's context, taken at `bytes`, is zero:
 * kernels that count in it (gemv_n finishing a split in its launch) start
 * from zero and leave it so, and no command zeroes it. */
static void assert_counters_zero(const tu_env *env, size_t bytes)
{
    size_t want[OCLBLAS__SCRATCH_SLOTS] = {0};
    want[OCLBLAS__BUF_S3 - OCLBLAS__BUF_S0] = bytes;
    oclblas__scratch *s;
    cl_mem bufs[OCLBLAS__SCRATCH_SLOTS];
    cl_event wait;
    TU_CHECK(oclblas__scratch_take(env->context, env->queue, 1, want, &s, bufs, &wait));
    int *got = malloc(bytes);
    assert_non_null(got);
    assert_int_equal(clEnqueueReadBuffer(env->queue, bufs[OCLBLAS__BUF_S3 - OCLBLAS__BUF_S0], CL_TRUE, 0, bytes, got,
                                         wait ? 1 : 0, wait ? &wait : NULL, NULL),
                     CL_SUCCESS);
    oclblas__scratch_put(s, env->queue, NULL);
    for (size_t i = 0; i < bytes / sizeof(int); ++i)
        if (got[i] != 0)
            fail_msg("counter %zu of %zu bytes is %d", i, bytes, got[i]);
    free(got);
}

static void test_counters_start_zero(void **state)
{
    (void)state;
    tu_env env = own_context();
    assert_counters_zero(&env, 4096);
    assert_counters_zero(&env, 1 << 20); /* grown: a new buffer */
    TU_CHECK(oclblas_context_release(env.context));
    release_context(&env);
}

typedef struct {
    tu_env env;
    volatile int stop;
    int rounds;
} worker_arg;

static void *worker(void *p)
{
    worker_arg *w = p;
    for (int r = 0; !w->stop || r < 4; ++r) {
        compute(&w->env, r, r % 3 == 0);
        ++w->rounds;
    }
    return NULL;
}

static void test_release_while_working(void **state)
{
    (void)state;
    assert_int_equal(oclblas_context_release(NULL), OCLBLAS_INVALID_ARGUMENT);
    /* A context the library never saw: nothing to do. */
    tu_env unseen = own_context();
    const size_t before = oclblas__contexts_held(NULL);
    TU_CHECK(oclblas_context_release(unseen.context));
    assert_int_equal(oclblas__contexts_held(NULL), before);
    release_context(&unseen);

    worker_arg w = {own_context(), 0, 0};
    compute(&w.env, 0, 1);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, worker, &w), 0);
    for (int i = 0; i < 12; ++i) {
        tu_env env = own_context();
        compute(&env, i, i % 4 == 0);
        assert_int_equal(oclblas__contexts_held(env.context), 1);
        assert_true(oclblas__programs_refs(env.context, 0) > 0);
        int writers;
        if (i % 4 == 0)
            assert_true(oclblas__scratch_refs(env.context, 0, &writers) > 0);
        TU_CHECK(oclblas_context_release(env.context));
        /* Gone at once, with its programs and scratch, while the worker goes on. */
        assert_int_equal(oclblas__contexts_held(env.context), 0);
        assert_int_equal(oclblas__programs_refs(env.context, 0), 0);
        assert_int_equal(oclblas__scratch_refs(env.context, 0, &writers), 0);
        release_context(&env);
        /* The worker's own context, under its feet: its calls still come out right. */
        if (i % 3 == 1)
            TU_CHECK(oclblas_context_release(w.env.context));
    }
    w.stop = 1;
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_true(w.rounds >= 4);
    TU_CHECK(oclblas_context_release(w.env.context));
    release_context(&w.env);
}

static oclblas_cache_stats stats_now(void)
{
    oclblas_cache_stats s;
    TU_CHECK(oclblas_cache_get_stats(&s));
    return s;
}

static void test_long_build_options(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    /* Compile every program here: no binaries from the disk or another test. */
    setenv("OCLBLAS_CACHE_DIR", "off", 1);
    TU_CHECK(oclblas_cache_clear(OCLBLAS_CACHE_MEMORY));
    char head[5200] = "";
    for (int i = 0; strlen(head) < 5000; ++i)
        snprintf(head + strlen(head), sizeof head - strlen(head), "-DOCLBLAS_TEST_FILLER_%d=1 ", i);
    char options[5400];

    /* Honored whole: an option past 5000 characters that the compiler refuses. */
    snprintf(options, sizeof options, "%s-cl-no-such-option", head);
    setenv("OCLBLAS_BUILD_OPTIONS", options, 1);
    assert_int_equal(small_gemm(&env), OCLBLAS_BUILD_FAILED);

    /* Keyed whole: two option strings that differ only at their end are two programs. */
    snprintf(options, sizeof options, "%s-DOCLBLAS_TEST_TAIL=1", head);
    setenv("OCLBLAS_BUILD_OPTIONS", options, 1);
    oclblas_cache_stats s0 = stats_now();
    TU_CHECK(small_gemm(&env));
    oclblas_cache_stats s1 = stats_now();
    assert_int_equal(s1.builds, s0.builds + 1);
    snprintf(options, sizeof options, "%s-DOCLBLAS_TEST_TAIL=2", head);
    setenv("OCLBLAS_BUILD_OPTIONS", options, 1);
    TU_CHECK(small_gemm(&env));
    oclblas_cache_stats s2 = stats_now();
    assert_int_equal(s2.builds, s1.builds + 1);
    assert_int_equal(s2.memory_hits, s1.memory_hits);
    /* and the first one is still found */
    snprintf(options, sizeof options, "%s-DOCLBLAS_TEST_TAIL=1", head);
    setenv("OCLBLAS_BUILD_OPTIONS", options, 1);
    TU_CHECK(small_gemm(&env));
    oclblas_cache_stats s3 = stats_now();
    assert_int_equal(s3.builds, s2.builds);
    assert_int_equal(s3.memory_hits, s2.memory_hits + 1);
    unsetenv("OCLBLAS_BUILD_OPTIONS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_released_contexts),
        cmocka_unit_test(test_sweep_keeps_held_scratch),
        cmocka_unit_test(test_counters_start_zero),
        cmocka_unit_test(test_release_while_working),
        cmocka_unit_test(test_long_build_options),
    };
    return cmocka_run_group_tests_name("lifetime", tests, NULL, NULL);
}
