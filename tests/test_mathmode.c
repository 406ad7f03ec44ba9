/*
 * The math mode as a caller sets and reads it (oclblas_set_math_mode,
 * oclblas_get_math_mode, oclblas_math_mode_name, OCLBLAS_MATH_MODE): the
 * default, every mode set and read back, values that are no mode refused
 * and the mode left as it was, calls from several threads at once, and the
 * environment variable read once, the call winning over it. ctest runs this
 * program with OCLBLAS_MATH_MODE unset, set (in any case), set to a value
 * that is no mode, and set with the call made first; the arguments say
 * what the first read must give ("accurate" by default) and, with
 * "set-first", that the program sets strict before anything reads it.
 * What a mode does to a call is test_gemm_tc's and test_plan's; that a
 * call runs whole in the mode it was made in, whatever another thread sets
 * meanwhile, is test_pipeline's (its "mode" group).
 */
#include "testutil.h"

#include <pthread.h>
#include <string.h>

static const char *expected = "accurate";
static int set_first;

static const oclblas_math_mode modes[] = {OCLBLAS_MATH_STRICT, OCLBLAS_MATH_ACCURATE, OCLBLAS_MATH_TF32};

/* The first read: the environment's mode, or the default, or the call's. */
static void test_first_read(void **state)
{
    (void)state;
    if (set_first)
        TU_CHECK(oclblas_set_math_mode(OCLBLAS_MATH_STRICT));
    assert_string_equal(oclblas_math_mode_name(oclblas_get_math_mode()), expected);
}

static void test_set_and_get(void **state)
{
    (void)state;
    static const char *const names[] = {"strict", "accurate", "tf32"};
    for (int i = 0; i < 3; ++i) {
        TU_CHECK(oclblas_set_math_mode(modes[i]));
        assert_int_equal(oclblas_get_math_mode(), modes[i]);
        assert_string_equal(oclblas_math_mode_name(modes[i]), names[i]);
    }
    /* No mode: refused, and the mode in force stays. */
    static const int bad[] = {0, 4, -1, 101};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(oclblas_set_math_mode((oclblas_math_mode)bad[i]), OCLBLAS_INVALID_ARGUMENT);
        assert_int_equal(oclblas_get_math_mode(), OCLBLAS_MATH_TF32);
        assert_string_equal(oclblas_math_mode_name((oclblas_math_mode)bad[i]), "unknown");
    }
}

static void *flip(void *arg)
{
    const int id = *(const int *)arg;
    for (int i = 0; i < 20000; ++i) {
        if (oclblas_set_math_mode(modes[(id + i) % 3]) != OCLBLAS_SUCCESS)
            return arg;
        const oclblas_math_mode m = oclblas_get_math_mode();
        if (m != OCLBLAS_MATH_STRICT && m != OCLBLAS_MATH_ACCURATE && m != OCLBLAS_MATH_TF32)
            return arg;
    }
    return NULL;
}

/* Several threads setting and reading at once only ever see modes. */
static void test_threads(void **state)
{
    (void)state;
    pthread_t t[4];
    int ids[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; ++i)
        assert_int_equal(pthread_create(&t[i], NULL, flip, &ids[i]), 0);
    for (int i = 0; i < 4; ++i) {
        void *bad;
        pthread_join(t[i], &bad);
        assert_null(bad);
    }
    TU_CHECK(oclblas_set_math_mode(OCLBLAS_MATH_ACCURATE));
    assert_int_equal(oclblas_get_math_mode(), OCLBLAS_MATH_ACCURATE);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        expected = argv[1];
    set_first = argc > 2 && strcmp(argv[2], "set-first") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_read), /* first: nothing may read the mode before it */
        cmocka_unit_test(test_set_and_get),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
