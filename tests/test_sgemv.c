/*
 * SGEMV against OpenBLAS: sizes 1 to 1000 and a tall and a wide shape, both
 * layouts, all transposes, increments 1, 2, -1, -3 for x and y, offsets,
 * padded leading dimensions, alpha and beta including 0 (beta = 0 over NaN).
 * The same sweep runs with the database's parameters and with forced sets
 * of each gemv kernel that take its other paths: vector widths 1 to 16
 * (aligned vector loads, and vector loads from anywhere where a leading
 * dimension or offset is not a whole vector), several rows or vectors per
 * work-item, interleaved and consecutive (STRM) and panels of whole
 * columns (STRM 2, with y summed in place or split), one and two work-items per
 * column (no reduction; a two-step one), unrolling, and the split
 * reduction on and off. Also SGEMM with m = 1 and
 * n = 1, which the library computes with the gemv kernels.
 */
#include "testutil.h"

#include <stdio.h>

static const size_t sizes[] = {1, 2, 31, 64, 257, 1000};
#define NSIZES (sizeof sizes / sizeof sizes[0])
static const ptrdiff_t incs[] = {1, 2, -1, -3};
static const float alphas[] = {1.0f, -0.5f, 0.0f, 2.0f, 1.0f};
static const float betas[] = {0.0f, 1.0f, 0.5f, 0.0f, -1.5f};
static const oclblas_transpose transposes[] = {OCLBLAS_NO_TRANS, OCLBLAS_TRANS, OCLBLAS_CONJ_TRANS};

static void shape(int i, size_t *m, size_t *n)
{
    if (i < (int)NSIZES) {
        *m = sizes[i];
        *n = sizes[(i + 2) % NSIZES];
    } else if (i == (int)NSIZES) {
        *m = 5000; /* tall and narrow */
        *n = 7;
    } else {
        *m = 7; /* short and wide */
        *n = 5000;
    }
}
#define NSHAPES ((int)NSIZES + 2)

static void sweep(const char *what)
{
    tu_env env;
    tu_get_env(&env);
    int cases = 0, failures = 0;
    double worst = 0;
    for (int l = 0; l < 2; ++l)
        for (int t = 0; t < 3; ++t)
            for (int s = 0; s < NSHAPES; ++s)
                for (int ic = 0; ic < 4; ++ic) {
                    size_t m, n;
                    shape(s, &m, &n);
                    const int v = cases % 5;
                    const ptrdiff_t incx = incs[ic], incy = incs[(ic + s + t) % 4];
                    const size_t pad = cases % 3 == 2 ? 1 : 0;
                    const size_t off = (size_t)(cases % 4);
                    const double r = tu_gemv_case(&env, 0, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[t],
                                                  m, n, alphas[v], betas[v], pad, incx, incy, off, off + 1, off,
                                                  4321u + (unsigned)cases);
                    if (r > 1.0) {
                        print_message("%s: FAILED %s %c m=%zu n=%zu incx=%td incy=%td alpha=%g beta=%g pad=%zu "
                                      "off=%zu: error %.3g x bound\n",
                                      what, l ? "row" : "col", "NTC"[t], m, n, incx, incy, (double)alphas[v],
                                      (double)betas[v], pad, off, r);
                        ++failures;
                    }
                    worst = r > worst ? r : worst;
                    ++cases;
                }
    print_message("%s: %d cases, worst error %.3g of the bound\n", what, cases, worst);
    assert_int_equal(failures, 0);
}

static void with_params(const char *what, const char *gemv_n, const char *gemv_t, const char *routine)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "gemv_n", gemv_n);
    tu_override(&env, "gemv_t", gemv_t);
    tu_override(&env, "routine", routine);
    sweep(what);
    tu_override(&env, "gemv_n", NULL);
    tu_override(&env, "gemv_t", NULL);
    tu_override(&env, "routine", NULL);
}

static void test_database_params(void **state)
{
    (void)state;
    sweep("database parameters");
}

/* Many groups wanted per compute unit: the reductions split. */
static void test_split_wide_vectors(void **state)
{
    (void)state;
    with_params("split, VW=4/8", "WGS=32,WPT=2,VW=4,UNR=4,STRM=1", "WGS=64,TPC=8,VW=8,UNR=2", "GEMV_GROUPS_PER_CU=64");
}

/* One group per compute unit: no split. */
static void test_unsplit_narrow_vectors(void **state)
{
    (void)state;
    with_params("no split, VW=1/2", "WGS=64,WPT=1,VW=1,UNR=2,STRM=1", "WGS=32,TPC=32,VW=2,UNR=1", "GEMV_GROUPS_PER_CU=1");
}

static void test_mixed(void **state)
{
    (void)state;
    with_params("VW=8/1, WPT=4, TPC=4", "WGS=16,WPT=4,VW=8,UNR=1,STRM=1", "WGS=128,TPC=4,VW=1,UNR=8", "GEMV_GROUPS_PER_CU=8");
}

/* What a CPU picks: consecutive vectors of rows, wide vectors, a work-item per column. */
static void test_cpu_shapes(void **state)
{
    (void)state;
    with_params("STRM=0 VW=16 / TPC=1 VW=16", "WGS=4,WPT=2,VW=16,UNR=4,STRM=0", "WGS=16,TPC=1,VW=16,UNR=4",
                "GEMV_GROUPS_PER_CU=8");
    with_params("STRM=0 WPT=8 / TPC=2", "WGS=8,WPT=8,VW=4,UNR=2,STRM=0", "WGS=32,TPC=2,VW=4,UNR=4",
                "GEMV_GROUPS_PER_CU=1");
    with_params("STRM=0 WPT=32 VW=16 (512 rows a work-item)", "WGS=1,WPT=32,VW=16,UNR=2,STRM=0", NULL, NULL);
    /* Panels of whole columns: split (partial sums), and not (y accumulated in place, any increment). */
    with_params("STRM=2 panels, split", "WGS=1,WPT=1,VW=8,UNR=4,STRM=2", NULL, "GEMV_GROUPS_PER_CU=16");
    with_params("STRM=2 panels, one split", "WGS=1,WPT=1,VW=16,UNR=3,STRM=2", NULL, "GEMV_GROUPS_PER_CU=1");
}

/* SGEMM with one row or one column of C goes through the gemv kernels. */
static void test_gemm_vector_shapes(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    const size_t shapes[][3] = {{1, 300, 77}, {300, 1, 77}, {1, 1, 500}, {1, 7, 1}, {1000, 1, 3}, {1, 1000, 2}};
    int cases = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int l = 0; l < 2; ++l)
            for (int ta = 0; ta < 2; ++ta)
                for (int tb = 0; tb < 2; ++tb) {
                    const double r = tu_gemm_case(&env, 0, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[ta],
                                                  transposes[tb], shapes[s][0], shapes[s][1], shapes[s][2],
                                                  cases % 2 ? 1.0f : -1.25f, cases % 3 ? 0.0f : 0.5f, cases % 2,
                                                  (size_t)(cases % 3), (size_t)(cases % 2), (size_t)(cases % 5),
                                                  77u + (unsigned)cases);
                    if (r > 1.0)
                        fail_msg("sgemm %zux%zux%zu layout %d %c%c: error %.3g x bound", shapes[s][0], shapes[s][1],
                                 shapes[s][2], l, "NT"[ta], "NT"[tb], r);
                    ++cases;
                }
}

static void test_misaligned_host_memory(void **state)
{
    (void)state;
    tu_misaligned_host_buffers = 1;
    with_params("misaligned host memory", "WGS=32,WPT=2,VW=4,UNR=4,STRM=1", "WGS=64,TPC=8,VW=8,UNR=2", NULL);
    tu_misaligned_host_buffers = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_database_params), cmocka_unit_test(test_split_wide_vectors),
        cmocka_unit_test(test_unsplit_narrow_vectors), cmocka_unit_test(test_mixed),
        cmocka_unit_test(test_cpu_shapes),
        cmocka_unit_test(test_gemm_vector_shapes), cmocka_unit_test(test_misaligned_host_memory),
    };
    return cmocka_run_group_tests_name("sgemv", tests, NULL, NULL);
}
