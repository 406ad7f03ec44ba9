/*
 * The host-pointer API (oclblas_sgemm, oclblas_sgemv) against OpenBLAS:
 * both layouts, transposes, padded leading dimensions, negative increments,
 * beta = 0 over NaN, with the database's host crossover (HOST_MAX) and
 * with none, so that every size also runs on the device. ctest runs it
 * twice: as the device comes (zero-copy where memory is shared with the
 * host) and with OCLBLAS_HOST_ZERO_COPY=0,
 * so that the path with device copies, the one discrete GPUs take, is
 * tested on every machine. With "fallback" (ctest: OCLBLAS_FAULT=0:0, and
 * OCLBLAS_BUILD_OPTIONS=abc) every device call fails and the host must
 * compute it; with "no-opencl" (no OpenCL platform) there is no device.
 */
#include "testutil.h"

#include <string.h>

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

static oclblas_host_report report(void)
{
    oclblas_host_report r;
    TU_CHECK(oclblas_host_report_get(&r));
    return r;
}

/* The last call went to one device, which failed; the host computed it all. */
static void expect_host_took_over(void)
{
    const oclblas_host_report rep = report();
    assert_false(rep.on_device);
    assert_int_equal(rep.devices, 1);
    assert_int_equal(rep.failed_devices, 1);
    assert_int_equal(rep.device[0].tiles, 0);
    assert_int_equal(rep.tiles_on_host, rep.tiles);
    assert_non_null(strstr(rep.reason, "1 device failed"));
}

/* Run where the device fails every call before it computes anything
 * (OCLBLAS_FAULT=0:0, OCLBLAS_BUILD_OPTIONS=abc): with HOST_MAX=0 every
 * size goes to the device (in place where memory is shared, else tiles
 * for SGEMM and copies for SGEMV), fails there, and the host computes it;
 * each result right, each report saying so. */
static void test_fallback(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "HOST_MAX=0");
    const size_t shapes[][3] = {{37, 29, 41}, {1, 50, 9}, {300, 290, 310}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int l = 0; l < 2; ++l) {
            const double r = tu_gemm_case(&env, 1, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[i % 3],
                                          transposes[(i + l) % 3], shapes[i][0], shapes[i][1], shapes[i][2], 1.5f,
                                          l ? 0.0f : 0.5f, l, 0, 0, 0, (unsigned)(100 + 2 * i + l));
            if (r > 1.0)
                fail_msg("sgemm case %zu layout %d: error %.3g x bound", i, l, r);
            expect_host_took_over();
            const double g = tu_gemv_case(&env, 1, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[l],
                                          shapes[i][0], shapes[i][2], 1.0f, l ? 0.0f : -1.0f, 1, l ? -1 : 2, 1, 0,
                                          0, 0, (unsigned)(200 + 2 * i + l));
            if (g > 1.0)
                fail_msg("sgemv case %zu layout %d: error %.3g x bound", i, l, g);
            expect_host_took_over();
        }
    tu_override(&env, "routine", NULL);
}

/* No OpenCL platform at all (OCL_ICD_VENDORS names an empty folder): the
 * host API computes on the host, as the drop-in does, and its report says
 * why; only the arguments can make it fail. */
static void test_no_opencl(void **state)
{
    (void)state;
    const tu_env none = {NULL, NULL, NULL}; /* host-pointer cases use no device */
    static const size_t shapes[][3] = {{37, 29, 41}, {300, 200, 100}, {1, 1, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int l = 0; l < 2; ++l) {
            const double r = tu_gemm_case(&none, 1, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[l],
                                          transposes[i % 2], shapes[i][0], shapes[i][1], shapes[i][2], 1.0f,
                                          l ? 0.5f : 0.0f, i, 0, 0, 0, (unsigned)(300 + 2 * i + l));
            if (r > 1.0)
                fail_msg("sgemm %zux%zux%zu layout %d: error %.3g x bound", shapes[i][0], shapes[i][1], shapes[i][2], l,
                         r);
            const oclblas_host_report rep = report();
            assert_false(rep.on_device);
            assert_int_equal(rep.devices, 0);
            assert_non_null(strstr(rep.reason, "no device"));
            const double g = tu_gemv_case(&none, 1, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[l],
                                          shapes[i][0], shapes[i][1], 2.0f, 0.5f, 0, 1, l ? -1 : 1, 0, 0, 0,
                                          (unsigned)(400 + 2 * i + l));
            if (g > 1.0)
                fail_msg("sgemv case %zu layout %d: error %.3g x bound", i, l, g);
            assert_non_null(strstr(report().reason, "no device"));
        }
    float a[1] = {1}, c[1] = {0};
    assert_int_equal(oclblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 1, 1, 1, 1.0f, a, 1, NULL, 1,
                                   0.0f, c, 1),
                     OCLBLAS_NULL_B);
    cl_device_id dev;
    assert_int_not_equal(oclblas_default_device(&dev, NULL, NULL), OCLBLAS_SUCCESS);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "fallback") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_fallback)};
        return cmocka_run_group_tests_name("host API, the device failing", tests, NULL, NULL);
    }
    if (strcmp(what, "no-opencl") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_opencl)};
        return cmocka_run_group_tests_name("host API without OpenCL", tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_host_sgemm), cmocka_unit_test(test_host_sgemv),
                                       cmocka_unit_test(test_device_paths)};
    return cmocka_run_group_tests_name("host API", tests, NULL, NULL);
}
