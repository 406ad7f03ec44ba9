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
 * compute it; with "no-opencl" (no OpenCL platform) there is no device,
 * and the single and the batched calls (strided and grouped SGEMM, strided
 * SGEMV) must give OpenBLAS's results, computed on the host.
 */
#include "testutil.h"
#include "util/verify.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
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

/* ---- batches without OpenCL ------------------------------------------------ */

static float *abs_of(const float *x, size_t n)
{
    float *y = malloc((n ? n : 1) * sizeof *y);
    assert_non_null(y);
    for (size_t i = 0; i < n; ++i)
        y[i] = fabsf(x[i]);
    return y;
}

static CBLAS_TRANSPOSE cblas_trans(oclblas_transpose t) { return t == OCLBLAS_NO_TRANS ? CblasNoTrans : CblasTrans; }
static CBLAS_ORDER cblas_order(oclblas_layout l) { return l == OCLBLAS_COL_MAJOR ? CblasColMajor : CblasRowMajor; }

/* The worst ratio of got's error against OpenBLAS's want to the error bound
 * (depth terms of magnitudes mag) over the problems' elements (mark), and
 * infinity where an element outside them changed (want holds it as it was). */
static double against_openblas(const float *got, const float *want, const float *mag, const unsigned char *mark,
                               size_t n, size_t depth)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; ++i) {
        double r;
        if (!mark[i]) {
            r = memcmp(&got[i], &want[i], sizeof got[i]) == 0 ? 0.0 : INFINITY;
        } else {
            const double err = fabs((double)got[i] - (double)want[i]);
            r = isnan(err) ? INFINITY : err / oclblas__error_bound(depth, mag[i]);
        }
        if (r > 1.0 && worst <= 1.0)
            print_message("  element %zu%s: got %.9g, OpenBLAS %.9g\n", i, mark[i] ? "" : " (outside the problems)",
                          (double)got[i], (double)want[i]);
        worst = r > worst ? r : worst;
    }
    return worst;
}

/* The report of a batch computed on the host without a device: why, in the host plan's words. */
static void expect_host_batch(size_t problems, const char *why)
{
    const oclblas_host_report rep = report();
    assert_false(rep.on_device);
    assert_int_equal(rep.devices, 0);
    assert_int_equal(rep.tiles, problems);
    if (!strstr(rep.reason, why))
        fail_msg("report: \"%s\", expected it to say \"%s\"", rep.reason, why);
}

typedef struct {
    oclblas_layout layout;
    oclblas_transpose ta, tb;
    size_t m, n, k;
    float alpha, beta;
    size_t pad;          /* added to every leading dimension */
    size_t sa, sb, sc;   /* each stride: 0, else the span plus this less one */
    size_t count;
} strided_case;

/* A strided SGEMM batch against a loop of OpenBLAS's cblas_sgemm over the
 * same arrays: A or B shared at stride 0, the gaps between problems left
 * as they were, C NaN where beta = 0. */
static void strided_against_loop(const strided_case *t, unsigned seed)
{
    const int col = t->layout == OCLBLAS_COL_MAJOR, at = t->ta != OCLBLAS_NO_TRANS, bt = t->tb != OCLBLAS_NO_TRANS;
    const size_t ar = at ? t->k : t->m, ac = at ? t->m : t->k, br = bt ? t->n : t->k, bc = bt ? t->k : t->n;
    const size_t lda = (col ? ar : ac) + t->pad, ldb = (col ? br : bc) + t->pad, ldc = (col ? t->m : t->n) + t->pad;
    const size_t span_a = tu_span(t->layout, ar, ac, lda), span_b = tu_span(t->layout, br, bc, ldb);
    const size_t span_c = tu_span(t->layout, t->m, t->n, ldc);
    const size_t sa = t->sa ? span_a + t->sa - 1 : 0, sb = t->sb ? span_b + t->sb - 1 : 0, sc = span_c + t->sc - 1;
    const size_t na = (t->count - 1) * sa + span_a, nb = (t->count - 1) * sb + span_b;
    const size_t nc = (t->count - 1) * sc + span_c + 2;
    float *a = tu_filled(na, &seed), *b = tu_filled(nb, &seed), *want = tu_filled(nc, &seed);
    float *got = malloc(nc * sizeof *got), *mag = abs_of(want, nc), *aa = abs_of(a, na), *ab = abs_of(b, nb);
    unsigned char *mark = calloc(nc, 1);
    assert_true(got && mark);
    memcpy(got, want, nc * sizeof *got);
    for (size_t p = 0; p < t->count; ++p)
        for (size_t i = 0; i < t->m; ++i)
            for (size_t j = 0; j < t->n; ++j) {
                const size_t e = p * sc + (col ? i + j * ldc : i * ldc + j);
                mark[e] = 1;
                if (t->beta == 0.0f) /* never read */
                    got[e] = NAN;
            }
    TU_CHECK(oclblas_sgemm_strided_batched(t->layout, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, lda, sa, b, ldb,
                                           sb, t->beta, got, ldc, sc, t->count));
    for (size_t p = 0; p < t->count; ++p) {
        cblas_sgemm(cblas_order(t->layout), cblas_trans(t->ta), cblas_trans(t->tb), (int)t->m, (int)t->n, (int)t->k,
                    t->alpha, a + p * sa, (int)lda, b + p * sb, (int)ldb, t->beta, want + p * sc, (int)ldc);
        cblas_sgemm(cblas_order(t->layout), cblas_trans(t->ta), cblas_trans(t->tb), (int)t->m, (int)t->n, (int)t->k,
                    fabsf(t->alpha), aa + p * sa, (int)lda, ab + p * sb, (int)ldb, fabsf(t->beta), mag + p * sc,
                    (int)ldc);
    }
    const double r = against_openblas(got, want, mag, mark, nc, t->k);
    if (r > 1.0)
        fail_msg("strided batch of %zu %zux%zux%zu %s: error %.3g x bound", t->count, t->m, t->n, t->k,
                 col ? "col" : "row", r);
    expect_host_batch(t->count, t->k && t->alpha != 0.0f ? "the host BLAS (no device" : "C = beta C");
    free(a), free(b), free(want), free(got), free(mag), free(aa), free(ab), free(mark);
}

static void test_no_opencl_strided(void **state)
{
    (void)state;
    const strided_case cases[] = {
        {OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 37, 29, 41, 1.0f, 0.5f, 0, 0, 1, 8, 3},
        {OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 20, 15, 9, -1.5f, 0.0f, 2, 6, 0, 1, 4},
        {OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_TRANS, 300, 200, 100, 0.75f, 1.0f, 1, 1, 3, 1, 2},
        {OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 1, 1, 1, 2.0f, -1.0f, 0, 1, 1, 1, 5},
        {OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 6, 5, 4, 0.0f, 2.0f, 1, 1, 1, 3, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        strided_against_loop(&cases[i], 500u + (unsigned)i);
}

/* A grouped batch, row-major: a group of two NN problems and a group of
 * three TN ones (beta 0, C NaN), scattered through one array per operand
 * with gaps between them, against OpenBLAS problem by problem. */
static void test_no_opencl_grouped(void **state)
{
    (void)state;
    const oclblas_transpose ta[2] = {OCLBLAS_NO_TRANS, OCLBLAS_TRANS}, tb[2] = {OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS};
    const size_t m[2] = {7, 4}, n[2] = {5, 9}, k[2] = {3, 6}, size[2] = {2, 3};
    const size_t lda[2] = {3 + 1, 4}, ldb[2] = {5, 9 + 2}, ldc[2] = {5 + 3, 9};
    const float alpha[2] = {1.0f, -1.5f}, beta[2] = {0.5f, 0.0f};
    enum { PROBLEMS = 5, GAP = 3 };
    const float *ap[PROBLEMS], *bp[PROBLEMS];
    float *cp[PROBLEMS];
    size_t off[3][PROBLEMS], len[3] = {0, 0, 0}, group_of[PROBLEMS];
    for (size_t p = 0; p < PROBLEMS; ++p) {
        const size_t g = p < size[0] ? 0 : 1;
        group_of[p] = g;
        const size_t span[3] = {tu_span(OCLBLAS_ROW_MAJOR, ta[g] ? k[g] : m[g], ta[g] ? m[g] : k[g], lda[g]),
                                tu_span(OCLBLAS_ROW_MAJOR, k[g], n[g], ldb[g]),
                                tu_span(OCLBLAS_ROW_MAJOR, m[g], n[g], ldc[g])};
        for (int o = 0; o < 3; ++o) {
            off[o][p] = len[o] + GAP;
            len[o] = off[o][p] + span[o];
        }
    }
    unsigned seed = 600;
    float *a = tu_filled(len[0], &seed), *b = tu_filled(len[1], &seed), *want = tu_filled(len[2] + GAP, &seed);
    const size_t nc = len[2] + GAP;
    float *got = malloc(nc * sizeof *got), *mag = abs_of(want, nc), *aa = abs_of(a, len[0]), *ab = abs_of(b, len[1]);
    unsigned char *mark = calloc(nc, 1);
    assert_true(got && mark);
    memcpy(got, want, nc * sizeof *got);
    for (size_t p = 0; p < PROBLEMS; ++p) {
        const size_t g = group_of[p];
        ap[p] = a + off[0][p];
        bp[p] = b + off[1][p];
        cp[p] = got + off[2][p];
        for (size_t i = 0; i < m[g]; ++i)
            for (size_t j = 0; j < n[g]; ++j) {
                mark[off[2][p] + i * ldc[g] + j] = 1;
                if (beta[g] == 0.0f)
                    got[off[2][p] + i * ldc[g] + j] = NAN;
            }
    }
    TU_CHECK(oclblas_sgemm_grouped_batched(OCLBLAS_ROW_MAJOR, ta, tb, m, n, k, alpha, ap, lda, bp, ldb, beta, cp, ldc,
                                           2, size));
    for (size_t p = 0; p < PROBLEMS; ++p) {
        const size_t g = group_of[p];
        cblas_sgemm(CblasRowMajor, cblas_trans(ta[g]), cblas_trans(tb[g]), (int)m[g], (int)n[g], (int)k[g], alpha[g],
                    a + off[0][p], (int)lda[g], b + off[1][p], (int)ldb[g], beta[g], want + off[2][p], (int)ldc[g]);
        cblas_sgemm(CblasRowMajor, cblas_trans(ta[g]), cblas_trans(tb[g]), (int)m[g], (int)n[g], (int)k[g],
                    fabsf(alpha[g]), aa + off[0][p], (int)lda[g], ab + off[1][p], (int)ldb[g], fabsf(beta[g]),
                    mag + off[2][p], (int)ldc[g]);
    }
    const double r = against_openblas(got, want, mag, mark, nc, 6);
    if (r > 1.0)
        fail_msg("grouped batch: error %.3g x bound", r);
    expect_host_batch(PROBLEMS, "the host BLAS (no device");
    free(a), free(b), free(want), free(got), free(mag), free(aa), free(ab), free(mark);
}

/* Strided SGEMV batches: A shared (stride 0) or padded, negative and
 * positive increments, x shared, y's problems apart with gaps. */
static void test_no_opencl_gemv(void **state)
{
    (void)state;
    static const struct {
        oclblas_layout layout;
        oclblas_transpose trans;
        size_t m, n, pad;
        ptrdiff_t incx, incy;
        int shared_a, shared_x;
        float alpha, beta;
        size_t count;
    } cases[] = {
        {OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, 30, 20, 3, -2, 3, 1, 0, 1.0f, 0.5f, 3},
        {OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, 17, 40, 0, 1, -1, 0, 1, -2.0f, 0.0f, 4},
        {OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, 1, 1, 1, 1, 1, 0, 0, 1.5f, 1.0f, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const int col = cases[c].layout == OCLBLAS_COL_MAJOR, t = cases[c].trans != OCLBLAS_NO_TRANS;
        const size_t m = cases[c].m, n = cases[c].n, count = cases[c].count;
        const size_t lda = (col ? m : n) + cases[c].pad, len_x = t ? m : n, len_y = t ? n : m;
        const size_t span_a = tu_span(cases[c].layout, m, n, lda);
        const size_t step_x = (size_t)(cases[c].incx < 0 ? -cases[c].incx : cases[c].incx);
        const size_t step_y = (size_t)(cases[c].incy < 0 ? -cases[c].incy : cases[c].incy);
        const size_t span_x = (len_x - 1) * step_x + 1, span_y = (len_y - 1) * step_y + 1;
        const size_t sa = cases[c].shared_a ? 0 : span_a + 2, sx = cases[c].shared_x ? 0 : span_x + 1, sy = span_y + 4;
        const size_t na = (count - 1) * sa + span_a, nx = (count - 1) * sx + span_x, ny = (count - 1) * sy + span_y + 1;
        unsigned seed = 700u + (unsigned)c;
        float *a = tu_filled(na, &seed), *x = tu_filled(nx, &seed), *want = tu_filled(ny, &seed);
        float *got = malloc(ny * sizeof *got), *mag = abs_of(want, ny), *aa = abs_of(a, na), *ax = abs_of(x, nx);
        unsigned char *mark = calloc(ny, 1);
        assert_true(got && mark);
        memcpy(got, want, ny * sizeof *got);
        for (size_t p = 0; p < count; ++p)
            for (size_t e = 0; e < len_y; ++e)
                mark[p * sy + e * step_y] = 1;
        TU_CHECK(oclblas_sgemv_strided_batched(cases[c].layout, cases[c].trans, m, n, cases[c].alpha, a, lda, sa, x,
                                               cases[c].incx, sx, cases[c].beta, got, cases[c].incy, sy, count));
        for (size_t p = 0; p < count; ++p) {
            cblas_sgemv(cblas_order(cases[c].layout), cblas_trans(cases[c].trans), (int)m, (int)n, cases[c].alpha,
                        a + p * sa, (int)lda, x + p * sx, (int)cases[c].incx, cases[c].beta, want + p * sy,
                        (int)cases[c].incy);
            cblas_sgemv(cblas_order(cases[c].layout), cblas_trans(cases[c].trans), (int)m, (int)n,
                        fabsf(cases[c].alpha), aa + p * sa, (int)lda, ax + p * sx, (int)cases[c].incx,
                        fabsf(cases[c].beta), mag + p * sy, (int)cases[c].incy);
        }
        const double r = against_openblas(got, want, mag, mark, ny, len_x);
        if (r > 1.0)
            fail_msg("sgemv batch case %zu: error %.3g x bound", c, r);
        expect_host_batch(count, "the host BLAS (no device");
        free(a), free(x), free(want), free(got), free(mag), free(aa), free(ax), free(mark);
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "fallback") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_fallback)};
        return cmocka_run_group_tests_name("host API, the device failing", tests, NULL, NULL);
    }
    if (strcmp(what, "no-opencl") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_opencl), cmocka_unit_test(test_no_opencl_strided),
                                           cmocka_unit_test(test_no_opencl_grouped),
                                           cmocka_unit_test(test_no_opencl_gemv)};
        return cmocka_run_group_tests_name("host API without OpenCL", tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_host_sgemm), cmocka_unit_test(test_host_sgemv),
                                       cmocka_unit_test(test_device_paths)};
    return cmocka_run_group_tests_name("host API", tests, NULL, NULL);
}
