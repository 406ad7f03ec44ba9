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
 * n = 1, which the library computes with the gemv kernels. GPU-shaped sets
 * on the shapes whose teams differ: short columns (1 to 257 rows) with many
 * columns and few long rows, where gemv_t's team shrinks to the column and
 * gemv_n's team shares the columns inside a work-group, with the split and
 * the reduction's teams on and off, single and strided batched (against a
 * float64 reference).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

/* Short columns and few long rows (the column-major shape; each layout and
 * transposition meets it as gemv_n or gemv_t), increments of both signs,
 * offsets, alpha and beta with beta 0 over NaN. */
static const size_t short_sides[] = {1, 3, 31, 32, 33, 256, 257};
#define NSHORT (sizeof short_sides / sizeof short_sides[0])

static void short_and_long(const char *what)
{
    tu_env env;
    tu_get_env(&env);
    int cases = 0, failures = 0;
    double worst = 0;
    for (size_t s = 0; s < NSHORT + 2; ++s)
        for (int l = 0; l < 2; ++l)
            for (int t = 0; t < 2; ++t) {
                /* short x 3000, then 5 and 40 rows of 20000 (in the layout's order: the kernel sees
                 * both as short columns or few rows, by the transposition). */
                const size_t side = s < NSHORT ? short_sides[s] : (s == NSHORT ? 5 : 40);
                const size_t other = s < NSHORT ? 3000 : 20000;
                const size_t m = t ? other : side, n = t ? side : other;
                const int v = cases % 5;
                const ptrdiff_t incx = incs[cases % 4], incy = incs[(cases / 4 + 1) % 4];
                const size_t off = (size_t)(cases % 3);
                const double r = tu_gemv_case(&env, 0, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[t], m, n,
                                              alphas[v], betas[v], (size_t)(cases % 2), incx, incy, off, off + 2,
                                              off + 1, 97u + (unsigned)cases);
                if (r > 1.0) {
                    print_message("%s: FAILED %s %c m=%zu n=%zu incx=%td incy=%td alpha=%g beta=%g: error %.3g x "
                                  "bound\n",
                                  what, l ? "row" : "col", "NT"[t], m, n, incx, incy, (double)alphas[v],
                                  (double)betas[v], r);
                    ++failures;
                }
                worst = r > worst ? r : worst;
                ++cases;
            }
    print_message("%s: %d cases, worst error %.3g of the bound\n", what, cases, worst);
    assert_int_equal(failures, 0);
}

/* A strided batch of column-major products y_p = alpha op(A_p) x_p + beta y_p
 * (lda = rows + 1, x and y with increments), against float64; beta = 0 over
 * NaN. Returns the worst ratio of error to its bound. */
static double batch_case(const tu_env *env, int trans, size_t rows, size_t cols, ptrdiff_t incx, ptrdiff_t incy,
                         float alpha, float beta, size_t count, unsigned seed)
{
    const size_t lda = rows + 1, len_x = trans ? rows : cols, len_y = trans ? cols : rows;
    const size_t sx_step = (size_t)(incx < 0 ? -incx : incx), sy_step = (size_t)(incy < 0 ? -incy : incy);
    const size_t sa = lda * cols + 3, sx = (len_x - 1) * sx_step + 2, sy = (len_y - 1) * sy_step + 1;
    const size_t na = count * sa, nx = count * sx, ny = count * sy;
    float *a = tu_filled(na, &seed), *x = tu_filled(nx, &seed), *y = tu_filled(ny, &seed);
    float *y0 = malloc(ny * sizeof *y0);
    if (beta == 0.0f)
        for (size_t i = 0; i < ny; ++i)
            y[i] = NAN;
    for (size_t i = 0; i < ny; ++i)
        y0[i] = y[i];
    cl_mem da = tu_buffer(env, a, na), dx = tu_buffer(env, x, nx), dy = tu_buffer(env, y, ny);
    TU_CHECK(oclblas_sgemv_strided_batched_cl(OCLBLAS_COL_MAJOR, trans ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, rows,
                                              cols, alpha, da, 0, lda, sa, dx, 0, incx, sx, beta, dy, 0, incy, sy,
                                              count, env->queue, NULL));
    tu_read(env, dy, y, ny);
    clReleaseMemObject(da);
    clReleaseMemObject(dx);
    clReleaseMemObject(dy);
    double worst = 0.0;
    for (size_t p = 0; p < count; ++p)
        for (size_t i = 0; i < len_y; ++i) {
            double sum = 0.0, mag = 0.0;
            for (size_t j = 0; j < len_x; ++j) {
                const size_t xe = p * sx + (incx < 0 ? (len_x - 1 - j) : j) * sx_step;
                const size_t ae = p * sa + (trans ? i * lda + j : j * lda + i);
                sum += (double)a[ae] * x[xe];
                mag += fabs((double)a[ae] * x[xe]);
            }
            const size_t ye = p * sy + (incy < 0 ? (len_y - 1 - i) : i) * sy_step;
            const double r = tu_gemv_output_ratio(sum, mag, len_x, alpha, beta, y0[ye], y[ye]);
            worst = r > worst ? r : worst;
        }
    free(a);
    free(x);
    free(y);
    free(y0);
    return worst;
}

static void batches(const char *what)
{
    tu_env env;
    tu_get_env(&env);
    /* rows x cols: short columns, few long rows, a square; both kernels each. */
    const size_t shapes[][2] = {{3, 500}, {33, 300}, {256, 200}, {7, 4000}, {200, 200}};
    double worst = 0;
    int c = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int t = 0; t < 2; ++t, ++c) {
            const double r = batch_case(&env, t, shapes[s][0], shapes[s][1], incs[c % 4], incs[(c + 1) % 4],
                                        alphas[c % 5], betas[c % 5], 5, 555u + (unsigned)c);
            if (r > 1.0)
                fail_msg("%s: batch of 5, %zu x %zu %c: error %.3g x bound", what, shapes[s][0], shapes[s][1],
                         "NT"[t], r);
            worst = r > worst ? r : worst;
        }
    print_message("%s: %d batches, worst error %.3g of the bound\n", what, c, worst);
}

/* GPU-shaped sets (interleaved gemv_n, gemv_t teams up to 32 and 64) on the
 * shapes whose teams differ, with many groups wanted per compute unit (the
 * splits and the reduction's teams) and one (neither); the last row, the
 * H200 entry's classes gemv-n-mid and gemv-short. */
static void test_teams(void **state)
{
    (void)state;
    const char *sets[][3] = {
        {"WGS=64,WPT=1,VW=2,UNR=4,STRM=1", "WGS=64,TPC=32,VW=4,UNR=2", "GEMV_GROUPS_PER_CU=64"},
        {"WGS=128,WPT=2,VW=4,UNR=2,STRM=1", "WGS=128,TPC=64,VW=2,UNR=4", "GEMV_GROUPS_PER_CU=1"},
        {"WGS=256,WPT=1,VW=1,UNR=8,STRM=1", "WGS=256,TPC=128,VW=8,UNR=1", "GEMV_GROUPS_PER_CU=16"},
        {"WGS=256,WPT=1,VW=1,UNR=16,STRM=1", "WGS=256,TPC=32,VW=4,UNR=2", "GEMV_GROUPS_PER_CU=4"},
    };
    tu_env env;
    tu_get_env(&env);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; ++i) {
        tu_override(&env, "gemv_n", sets[i][0]);
        tu_override(&env, "gemv_t", sets[i][1]);
        tu_override(&env, "routine", sets[i][2]);
        char what[160];
        snprintf(what, sizeof what, "teams, %s / %s / %s", sets[i][0], sets[i][1], sets[i][2]);
        short_and_long(what);
        batches(what);
    }
    tu_override(&env, "gemv_n", NULL);
    tu_override(&env, "gemv_t", NULL);
    tu_override(&env, "routine", NULL);
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
        cmocka_unit_test(test_cpu_shapes),      cmocka_unit_test(test_teams),
        cmocka_unit_test(test_gemm_vector_shapes), cmocka_unit_test(test_misaligned_host_memory),
    };
    return cmocka_run_group_tests_name("sgemv", tests, NULL, NULL);
}
