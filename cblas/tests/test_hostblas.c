/*
 * The host routines of hostblas.c, called directly: sizes on both sides of
 * their register tile and cache blocks, both layouts, every transpose,
 * padded leading dimensions, negative increments and the BLAS special cases
 * (beta = 0 over NaN, alpha = 0 and k = 0 with A and B never read). Then the
 * crossover of the host API: below HOST_MAX oclblas_sgemm and oclblas_sgemv
 * take no kernel from the program cache, above it they do. With the argument
 * "transfers" it moves operands larger than the copying path's staging ring
 * through the host API. With "no-device" (ctest sets OCLBLAS_DEVICE to a
 * name that matches nothing) it checks that the host API computes on the
 * host instead, and says why in its report.
 */
#include "host/hostblas.h"
#include "cases.h"
#include "reference.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const oclblas_transpose transposes[3] = {OCLBLAS_NO_TRANS, OCLBLAS_TRANS, OCLBLAS_CONJ_TRANS};

/* One product through the host routine (api 0) or oclblas_sgemm (api 1). */
static void gemm_case(int api, int row, int ta_i, int tb_i, size_t m, size_t n, size_t k, float alpha, float beta,
                      size_t pad, unsigned seed)
{
    const int ta = ta_i != 0, tb = tb_i != 0;
    case_operands o = case_gemm(row, ta, tb, m, n, k, pad, beta, &seed);
    const size_t lda = o.lda, ldb = o.ldb, ldc = o.ldc;
    float *a = o.a, *b = o.b, *c = o.c;
    /* A and B are never read when alpha = 0 or k = 0: NULL must do. */
    const int unused = alpha == 0.0f || k == 0;
    const float *pa = unused ? NULL : a, *pb = unused ? NULL : b;
    const oclblas_layout layout = row ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR;
    if (api)
        assert_int_equal(oclblas_sgemm(layout, transposes[ta_i], transposes[tb_i], m, n, k, alpha, pa, lda, pb, ldb,
                                       beta, c, ldc),
                         OCLBLAS_SUCCESS);
    else
        oclblas__host_sgemm(layout, transposes[ta_i], transposes[tb_i], m, n, k, alpha, pa, lda, pb, ldb, beta, c,
                            ldc);
    const double r = ref_check_gemm(row, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, o.c0, c, ldc, o.c_count);
    if (r > 1.0)
        fail_msg("%s %s %d%d %zux%zux%zu alpha %g beta %g pad %zu: error %.3g x bound", api ? "oclblas_sgemm" : "host",
                 row ? "row" : "col", ta_i, tb_i, m, n, k, alpha, beta, pad, r);
    case_free(&o);
}

static void gemv_case(int api, int row, int t_i, size_t m, size_t n, float alpha, float beta, size_t pad,
                      ptrdiff_t incx, ptrdiff_t incy, unsigned seed)
{
    const int t = t_i != 0;
    case_operands o = case_gemv(row, t, m, n, pad, incx, incy, beta, &seed);
    const size_t lda = o.lda;
    float *a = o.a, *x = o.b, *y = o.c;
    const float *pa = alpha == 0.0f ? NULL : a, *px = alpha == 0.0f ? NULL : x;
    const oclblas_layout layout = row ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR;
    if (api)
        assert_int_equal(oclblas_sgemv(layout, transposes[t_i], m, n, alpha, pa, lda, px, incx, beta, y, incy),
                         OCLBLAS_SUCCESS);
    else
        oclblas__host_sgemv(layout, transposes[t_i], m, n, alpha, pa, lda, px, incx, beta, y, incy);
    const double r = ref_check_gemv(row, t, m, n, alpha, a, lda, x, incx, beta, o.c0, y, incy, o.c_count);
    if (r > 1.0)
        fail_msg("%s %s %d %zux%zu incx %td incy %td alpha %g beta %g: error %.3g x bound",
                 api ? "oclblas_sgemv" : "host", row ? "row" : "col", t_i, m, n, incx, incy, alpha, beta, r);
    case_free(&o);
}

/* ---- the host routine --------------------------------------------------- */

/* Around the register tile (8 x 4) and the cache blocks (MC 128, KC 256,
 * NC 1024) of hostblas.c, in every layout and transpose. */
static void test_host_sgemm_blocking(void **state)
{
    (void)state;
    static const size_t shapes[][3] = {
        {1, 1, 1},    {7, 3, 5},    {8, 4, 8},     {9, 5, 9},     {17, 13, 1},  {16, 12, 33},
        {127, 5, 7},  {128, 4, 3},  {129, 6, 11},  {257, 9, 2},   {13, 11, 255}, {10, 7, 256},
        {11, 9, 257}, {9, 1023, 3}, {5, 1024, 2},  {7, 1025, 3},  {3, 2049, 2},  {130, 70, 513},
    };
    unsigned seed = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int row = 0; row < 2; ++row)
            for (int ta = 0; ta < 3; ++ta)
                for (int tb = 0; tb < 3; ++tb)
                    gemm_case(0, row, ta, tb, shapes[s][0], shapes[s][1], shapes[s][2], s % 3 ? 1.0f : -0.75f,
                              (ta + tb + row) % 3 == 0 ? 0.0f : 1.5f, (s + ta + tb) % 3, seed++);
}

static void test_host_sgemm_special(void **state)
{
    (void)state;
    unsigned seed = 500;
    for (int row = 0; row < 2; ++row) {
        gemm_case(0, row, 0, 1, 9, 7, 0, 1.0f, 0.0f, 1, seed++);  /* k = 0, beta = 0: zeros over NaN */
        gemm_case(0, row, 1, 0, 9, 7, 0, 1.0f, 2.0f, 0, seed++);  /* k = 0: C = beta C */
        gemm_case(0, row, 2, 2, 9, 7, 5, 0.0f, 1.0f, 2, seed++);  /* alpha = 0, beta = 1: nothing changes */
        gemm_case(0, row, 0, 0, 9, 7, 5, 0.0f, -3.0f, 0, seed++); /* alpha = 0: C = beta C */
        gemm_case(0, row, 1, 1, 40, 33, 20, 2.0f, 1.0f, 1, seed++);
    }
    /* m or n = 0: nothing read or written. */
    oclblas__host_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 0, 5, 5, 1.0f, NULL, 1, NULL, 5, 0.0f,
                        NULL, 1);
    oclblas__host_sgemm(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 5, 0, 5, 1.0f, NULL, 5, NULL, 1, 0.0f,
                        NULL, 1);
}

static void test_host_sgemv(void **state)
{
    (void)state;
    /* Around the row chunk (1024) and the 4-column and 8-row unrolling. */
    static const size_t shapes[][2] = {{1, 1}, {3, 5}, {8, 4}, {9, 7}, {1023, 3}, {1024, 5}, {1025, 6}, {2049, 2},
                                       {6, 1030}, {300, 257}};
    static const ptrdiff_t incs[][2] = {{1, 1}, {-1, 2}, {3, -2}, {-2, -1}};
    unsigned seed = 1000;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int row = 0; row < 2; ++row)
            for (int t = 0; t < 3; ++t)
                for (int i = 0; i < 4; ++i)
                    gemv_case(0, row, t, shapes[s][0], shapes[s][1], i % 2 ? -1.0f : 0.5f,
                              (t + i) % 3 == 0 ? 0.0f : (i == 2 ? 1.0f : -2.0f), (s + i) % 2, incs[i][0], incs[i][1],
                              seed++);
    for (int row = 0; row < 2; ++row)
        for (int t = 0; t < 2; ++t) {
            gemv_case(0, row, t, 7, 9, 0.0f, 0.0f, 0, -2, -3, seed++); /* alpha = 0: y = beta y, A and x unread */
            gemv_case(0, row, t, 7, 9, 0.0f, 1.0f, 1, 1, 2, seed++);
            gemv_case(0, row, t, 7, 9, 0.0f, 0.25f, 0, 2, -1, seed++);
        }
    /* m or n = 0: y is not touched even though its length is not zero. */
    float y[4] = {1, 2, 3, 4};
    oclblas__host_sgemv(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, 4, 0, 1.0f, NULL, 4, NULL, 1, 0.0f, y, 1);
    oclblas__host_sgemv(OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, 0, 4, 1.0f, NULL, 4, NULL, 1, 0.0f, y, 1);
    for (int i = 0; i < 4; ++i)
        assert_float_equal(y[i], (float)(i + 1), 0.0f);
}

/* ---- the crossover of the host API -------------------------------------- */

static unsigned long kernels_taken(void)
{
    oclblas_cache_stats s;
    assert_int_equal(oclblas_cache_get_stats(&s), OCLBLAS_SUCCESS);
    return s.memory_hits + s.disk_hits + s.builds;
}

static void test_crossover(void **state)
{
    (void)state;
    cl_device_id dev;
    assert_int_equal(oclblas_default_device(&dev, NULL, NULL), OCLBLAS_SUCCESS);
    unsigned seed = 2000;
    /* Below HOST_MAX^3 multiply-adds: computed on the host, no kernel taken. */
    assert_int_equal(oclblas_override_params(dev, "routine", "HOST_MAX=24"), OCLBLAS_SUCCESS);
    unsigned long before = kernels_taken();
    for (int row = 0; row < 2; ++row) {
        gemm_case(1, row, 0, 1, 24, 24, 24, 1.0f, 0.0f, 1, seed++); /* exactly 24^3 */
        gemm_case(1, row, 2, 0, 5, 300, 9, -1.0f, 0.5f, 0, seed++);
        gemv_case(1, row, 0, 100, 130, 1.0f, 0.0f, 1, -1, 2, seed++); /* m*n <= 24^3 */
        gemv_case(1, row, 1, 3, 4000, 2.0f, 1.0f, 0, 2, -1, seed++);
    }
    assert_int_equal(kernels_taken(), before);
    /* Above it, or with HOST_MAX 0: the device. */
    gemm_case(1, 0, 0, 0, 25, 24, 24, 1.0f, 0.0f, 0, seed++);
    assert_true(kernels_taken() > before);
    before = kernels_taken();
    gemv_case(1, 1, 1, 100, 139, 1.0f, 0.0f, 0, 1, 1, seed++);
    assert_true(kernels_taken() > before);
    assert_int_equal(oclblas_override_params(dev, "routine", "HOST_MAX=0"), OCLBLAS_SUCCESS);
    before = kernels_taken();
    gemm_case(1, 1, 1, 1, 2, 3, 4, 1.0f, 1.0f, 0, seed++);
    gemv_case(1, 0, 0, 2, 3, 1.0f, 1.0f, 0, 1, 1, seed++);
    assert_true(kernels_taken() >= before + 2);
    assert_int_equal(oclblas_override_params(dev, "routine", NULL), OCLBLAS_SUCCESS);
}

/* The copying path's transfers: operands and results of up to 1 MiB go
 * through pinned buffers, larger ones straight from and to the caller's
 * memory, and one call may mix both; padded pitches and a strided y.
 * ctest runs this with OCLBLAS_HOST_ZERO_COPY=0, so that it takes the path
 * of discrete GPUs. */
static void test_transfers(void **state)
{
    (void)state;
    unsigned seed = 3000;
    gemm_case(1, 0, 0, 0, 300, 310, 3, 1.0f, 0.5f, 7, seed++);     /* all pinned, C read back packed */
    gemm_case(1, 1, 1, 0, 500, 500, 2, -1.0f, 0.0f, 24, seed++);   /* C of 1 MiB packed, 1.05 MB with its padding */
    gemm_case(1, 0, 0, 1, 600, 620, 3, 1.0f, 0.5f, 5, seed++);     /* C 1.5 MB straight, A and B pinned */
    gemv_case(1, 0, 1, 3, 200000, 1.0f, 0.5f, 0, 1, -2, seed++);   /* y: 1.6 MB in straight, 0.8 MB back pinned */
    gemm_case(1, 0, 0, 0, 2000, 1800, 1, 1.0f, 0.5f, 3, seed++);   /* C 14 MB straight */
    gemv_case(1, 1, 0, 1400, 2500, 2.0f, 0.0f, 1, -1, 1, seed++);  /* A 14 MB straight, x and y pinned */
}

/* OCLBLAS_DEVICE names nothing: the host API computes on the host, tiny
 * sizes and large, and its report says why. */
static void test_no_device(void **state)
{
    (void)state;
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, c[4] = {5, 6, 7, 8};
    assert_int_equal(oclblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 2, 2, 2, 1.0f, a, 2, b, 2,
                                   0.0f, c, 2),
                     OCLBLAS_SUCCESS);
    const float ab[4] = {7, 10, 15, 22}; /* [1 3; 2 4] squared, column-major */
    for (int i = 0; i < 4; ++i)
        assert_float_equal(c[i], ab[i], 0.0f);
    oclblas_host_report rep;
    assert_int_equal(oclblas_host_report_get(&rep), OCLBLAS_SUCCESS);
    assert_false(rep.on_device);
    assert_int_equal(rep.devices, 0);
    assert_non_null(strstr(rep.reason, "no device: OCLBLAS_DEVICE names no available device"));
    float y[2] = {-1, -1};
    assert_int_equal(oclblas_sgemv(OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, 2, 2, 1.0f, a, 2, b, 1, 0.0f, y, 1),
                     OCLBLAS_SUCCESS);
    assert_float_equal(y[0], 7.0f, 0.0f); /* A^T x with A = [1 2; 3 4] row-major, x = (1, 2) */
    assert_float_equal(y[1], 10.0f, 0.0f);
    unsigned seed = 4000;
    gemm_case(1, 0, 0, 1, 300, 200, 100, 1.0f, 0.5f, 1, seed++);
    gemv_case(1, 1, 1, 700, 600, 1.0f, 0.5f, 0, -1, 2, seed++);
    assert_int_equal(oclblas_host_report_get(&rep), OCLBLAS_SUCCESS);
    assert_false(rep.on_device);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "transfers") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_transfers)};
        return cmocka_run_group_tests_name("host API transfers", tests, NULL, NULL);
    }
    if (argc > 1 && strcmp(argv[1], "no-device") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_device)};
        return cmocka_run_group_tests_name("host API without a device", tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_sgemm_blocking),
        cmocka_unit_test(test_host_sgemm_special),
        cmocka_unit_test(test_host_sgemv),
        cmocka_unit_test(test_crossover),
    };
    return cmocka_run_group_tests_name("host routines", tests, NULL, NULL);
}
