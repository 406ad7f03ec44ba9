/*
 * The host-pointer API (oclblas_sgemm, oclblas_sgemv) against OpenBLAS:
 * both layouts, transposes, padded leading dimensions, negative increments,
 * beta = 0 over NaN, with the database's host crossover (HOST_MAX) and
 * with none, so that every size also runs on the device. ctest runs it
 * twice: as the device comes (zero-copy where memory is shared with the
 * host) and with OCLBLAS_HOST_ZERO_COPY=0,
 * so that the path with device copies, the one discrete GPUs take, is
 * tested on every machine.
 */
#include "testutil.h"

static const oclblas_transpose transposes[] = {OCLBLAS_NO_TRANS, OCLBLAS_TRANS, OCLBLAS_CONJ_TRANS};

static void test_host_sgemm(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    const size_t cases[][3] = {{1, 1, 1}, {7, 33, 16}, {64, 64, 64}, {129, 100, 257}, {300, 290, 310}, {1, 50, 9},
                               {50, 1, 9}, {5, 6, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int l = 0; l < 2; ++l) {
            const double r = tu_gemm_case(&env, 1, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[i % 3],
                                          transposes[(i + l) % 3], cases[i][0], cases[i][1], cases[i][2],
                                          i % 2 ? 1.0f : -2.0f, i % 3 ? 0.0f : 0.5f, i % 2 ? 2 : 0, i % 2, i % 3,
                                          i % 4, (unsigned)(7 * i + l));
            if (r > 1.0)
                fail_msg("host sgemm case %zu layout %d: error %.3g x bound", i, l, r);
        }
}

static void test_host_sgemv(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    const size_t shapes[][2] = {{1, 1}, {31, 64}, {257, 1000}, {1000, 3}, {2, 2000}};
    const ptrdiff_t incs[] = {1, 2, -1, -3};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int l = 0; l < 2; ++l)
            for (int t = 0; t < 2; ++t) {
                const double r = tu_gemv_case(&env, 1, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[t],
                                              shapes[i][0], shapes[i][1], t ? 1.5f : 1.0f, (i + t) % 2 ? 0.0f : -0.5f,
                                              i % 2, incs[(i + l) % 4], incs[(i + t + 1) % 4], 1, 2, 3,
                                              (unsigned)(11 * i + 2 * l + t));
                if (r > 1.0)
                    fail_msg("host sgemv shape %zu layout %d trans %d: error %.3g x bound", i, l, t, r);
            }
}

/* The same with HOST_MAX=0, so that no size is computed on the host and the
 * device paths (zero-copy or copying) are the ones tested. */
static void test_device_paths(void **state)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "HOST_MAX=0");
    test_host_sgemm(state);
    test_host_sgemv(state);
    tu_override(&env, "routine", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_host_sgemm), cmocka_unit_test(test_host_sgemv),
                                       cmocka_unit_test(test_device_paths)};
    return cmocka_run_group_tests_name("host API", tests, NULL, NULL);
}
