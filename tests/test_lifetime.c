/*
 * What the library keeps, and for how long: programs are cached under the
 * build options at their full length (a 5000-character OCLBLAS_BUILD_OPTIONS
 * is passed whole, and options that differ only at their end are two
 * programs).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        cmocka_unit_test(test_long_build_options),
    };
    return cmocka_run_group_tests_name("lifetime", tests, NULL, NULL);
}
