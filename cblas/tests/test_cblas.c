/*
 * liboclblas_cblas as a program linked against it alone sees it (the
 * system BLAS comes as the drop-in's dependency): cblas_sgemm, cblas_sgemv, sgemm_ and sgemv_ against the
 * double-precision reference of reference.h, over both layouts, every
 * transpose, sizes that take the host path, the direct kernel, gemm_fast
 * and the gemv kernels, padded leading dimensions, negative increments and
 * the alpha/beta special cases; and every illegal argument, caught by this
 * program's own cblas_xerbla and xerbla_, with the reference parameter
 * number and routine name, the arrays left untouched. ctest also runs it
 * with no usable device and with kernels that fail to build: the results
 * must not change (the drop-in falls back to the host BLAS).
 */
#include "oclblas_cblas.h"
#include "cases.h"
#include "cblas_err.h"
#include "reference.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- this program's error handlers (cblas_xerbla's in cblas_err.c) ------- */

static struct {
    int calls, info;
    char name[64];
    size_t len;
} fortran_err;

void xerbla_(const char *srname, const int *info, size_t len)
{
    ++fortran_err.calls;
    fortran_err.info = *info;
    fortran_err.len = len;
    memset(fortran_err.name, 0, sizeof fortran_err.name);
    memcpy(fortran_err.name, srname, len < sizeof fortran_err.name - 1 ? len : sizeof fortran_err.name - 1);
}

static void reset_errors(void)
{
    cblas_err_reset();
    memset(&fortran_err, 0, sizeof fortran_err);
}

static const CBLAS_TRANSPOSE transposes[3] = {CblasNoTrans, CblasTrans, CblasConjTrans};

/* ---- results ----------------------------------------------------------- */

/* One cblas_sgemm (or sgemm_, fortran 1: column-major only) case on fresh
 * random operands, checked against the reference. */
static void gemm_case(int fortran, CBLAS_LAYOUT layout, int ta_i, int tb_i, int m, int n, int k, float alpha,
                      float beta, int pad, unsigned seed)
{
    const int row = layout == CblasRowMajor, ta = ta_i != 0, tb = tb_i != 0;
    case_operands o = case_gemm(row, ta, tb, (size_t)m, (size_t)n, (size_t)k, (size_t)pad, beta, &seed);
    const int lda = (int)o.lda, ldb = (int)o.ldb, ldc = (int)o.ldc;
    float *a = o.a, *b = o.b, *c = o.c;
    reset_errors();
    if (fortran) {
        static const char *const chars[3] = {"Nn", "Tt", "Cc"};
        const char ca = chars[ta_i][seed & 1], cb = chars[tb_i][(seed >> 1) & 1];
        sgemm_(&ca, &cb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
    } else {
        cblas_sgemm(layout, transposes[ta_i], transposes[tb_i], m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    assert_int_equal(cblas_err.calls + fortran_err.calls, 0);
    const double r = ref_check_gemm(row, ta, tb, (size_t)m, (size_t)n, (size_t)k, alpha, a, o.lda, b, o.ldb, beta,
                                    o.c0, c, o.ldc, o.c_count);
    if (r > 1.0)
        fail_msg("%s %s %d%d m %d n %d k %d alpha %g beta %g pad %d: error %.3g x bound",
                 fortran ? "sgemm_" : "cblas_sgemm", row ? "row" : "col", ta_i, tb_i, m, n, k, alpha, beta, pad, r);
    case_free(&o);
}

static void gemv_case(int fortran, CBLAS_LAYOUT layout, int t_i, int m, int n, float alpha, float beta, int pad,
                      int incx, int incy, unsigned seed)
{
    const int row = layout == CblasRowMajor, t = t_i != 0;
    case_operands o = case_gemv(row, t, (size_t)m, (size_t)n, (size_t)pad, incx, incy, beta, &seed);
    const int lda = (int)o.lda;
    float *a = o.a, *x = o.b, *y = o.c;
    reset_errors();
    if (fortran) {
        static const char *const chars[3] = {"nN", "tT", "cC"};
        const char ct = chars[t_i][seed & 1];
        sgemv_(&ct, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);
    } else {
        cblas_sgemv(layout, transposes[t_i], m, n, alpha, a, lda, x, incx, beta, y, incy);
    }
    assert_int_equal(cblas_err.calls + fortran_err.calls, 0);
    const double r = ref_check_gemv(row, t, (size_t)m, (size_t)n, alpha, a, o.lda, x, incx, beta, o.c0, y, incy,
                                    o.c_count);
    if (r > 1.0)
        fail_msg("%s %s %d m %d n %d incx %d incy %d alpha %g beta %g: error %.3g x bound",
                 fortran ? "sgemv_" : "cblas_sgemv", row ? "row" : "col", t_i, m, n, incx, incy, alpha, beta, r);
    case_free(&o);
}

/* Shapes that take each path on a CPU device with the default database
 * (HOST_MAX 32, GEMM_MIN_INDIRECT 128): host, gemm_direct, gemm_fast, the
 * gemv kernels for one row or column of C. */
static const int gemm_shapes[][3] = {{3, 5, 4}, {1, 1, 1}, {40, 33, 50}, {140, 130, 120}, {1, 70, 600}, {90, 1, 500}};

static void test_cblas_sgemm(void **state)
{
    (void)state;
    unsigned seed = 1;
    for (size_t s = 0; s < sizeof gemm_shapes / sizeof gemm_shapes[0]; ++s)
        for (int l = 0; l < 2; ++l)
            for (int ta = 0; ta < 3; ++ta)
                for (int tb = 0; tb < 3; ++tb)
                    gemm_case(0, l ? CblasRowMajor : CblasColMajor, ta, tb, gemm_shapes[s][0], gemm_shapes[s][1],
                              gemm_shapes[s][2], s % 2 ? 1.0f : -1.5f, (ta + tb) % 3 == 0 ? 0.0f : 0.75f,
                              (int)((s + ta) % 3), seed++);
}

/* alpha = 0, k = 0, beta = 0 and 1: the special cases of reference BLAS. */
static void test_cblas_sgemm_special(void **state)
{
    (void)state;
    unsigned seed = 100;
    const int shapes[][3] = {{5, 6, 0}, {5, 6, 3}, {60, 50, 40}};
    const float alphas[] = {0.0f, 2.0f}, betas[] = {0.0f, 1.0f, -1.0f};
    for (size_t s = 0; s < 3; ++s)
        for (int l = 0; l < 2; ++l)
            for (int ai = 0; ai < 2; ++ai)
                for (int bi = 0; bi < 3; ++bi)
                    gemm_case(0, l ? CblasRowMajor : CblasColMajor, (int)s % 2, ai, shapes[s][0], shapes[s][1],
                              shapes[s][2], alphas[ai], betas[bi], 1, seed++);
    /* m or n = 0: nothing at all, whatever the pointers. */
    reset_errors();
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 4, 4, 1.0f, NULL, 1, NULL, 4, 0.0f, NULL, 1);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 0, 4, 1.0f, NULL, 4, NULL, 1, 0.0f, NULL, 1);
    assert_int_equal(cblas_err.calls, 0);
    /* alpha = 0: A and B are not referenced. */
    float c[6] = {1, 2, 3, 4, 5, 6};
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 3, 5, 0.0f, NULL, 2, NULL, 5, 2.0f, c, 2);
    for (int i = 0; i < 6; ++i)
        assert_float_equal(c[i], 2.0f * (float)(i + 1), 0.0f);
}

static void test_cblas_sgemv(void **state)
{
    (void)state;
    unsigned seed = 200;
    /* the host (m*n <= HOST_MAX^3), and the device's gemv kernels (above
     * the largest HOST_MAX, 128^3) */
    const int shapes[][2] = {{5, 7}, {1, 1}, {300, 200}, {1100, 2000}};
    const int incs[][2] = {{1, 1}, {-2, 3}, {2, -1}, {-1, -3}};
    for (size_t s = 0; s < 4; ++s)
        for (int l = 0; l < 2; ++l)
            for (int t = 0; t < 3; ++t)
                for (int i = 0; i < 4; ++i)
                    gemv_case(0, l ? CblasRowMajor : CblasColMajor, t, shapes[s][0], shapes[s][1],
                              i % 2 ? 1.0f : -0.5f, (t + i) % 3 == 0 ? 0.0f : (i == 3 ? 1.0f : 2.0f),
                              (int)(s + t) % 2, incs[i][0], incs[i][1], seed++);
    gemv_case(0, CblasColMajor, 0, 40, 30, 0.0f, 0.5f, 0, 1, -2, seed++);
    gemv_case(0, CblasRowMajor, 1, 40, 30, 0.0f, 0.0f, 0, 1, 1, seed++);
}

static void test_fortran(void **state)
{
    (void)state;
    unsigned seed = 300;
    for (size_t s = 0; s < sizeof gemm_shapes / sizeof gemm_shapes[0]; ++s)
        for (int ta = 0; ta < 3; ++ta)
            for (int tb = 0; tb < 3; ++tb)
                gemm_case(1, CblasColMajor, ta, tb, gemm_shapes[s][0], gemm_shapes[s][1], gemm_shapes[s][2],
                          ta ? 0.5f : 1.0f, tb == 1 ? 0.0f : -1.0f, (int)(s % 2), seed++);
    gemm_case(1, CblasColMajor, 0, 1, 7, 8, 0, 1.0f, 3.0f, 0, seed++);
    gemm_case(1, CblasColMajor, 2, 0, 7, 8, 9, 0.0f, 0.0f, 2, seed++);
    const int incs[][2] = {{1, 1}, {-3, 2}, {1, -1}};
    for (int t = 0; t < 3; ++t)
        for (int i = 0; i < 3; ++i) {
            gemv_case(1, CblasColMajor, t, 9, 11, 1.0f, i ? 0.5f : 0.0f, t, incs[i][0], incs[i][1], seed++);
            gemv_case(1, CblasColMajor, t, 250, 190, -1.0f, i ? 1.0f : 0.0f, 1, incs[i][0], incs[i][1], seed++);
        }
}

/* ---- illegal arguments ------------------------------------------------- */

#define BAD 99 /* an enum value that is none */

typedef struct {
    int layout, ta, tb, m, n, k, lda, ldb, ldc;
    int info;
} gemm_err;

/* Every number worked out from reference sgemm.f, cblas_sgemm.c and
 * xerbla.c of CBLAS: layout 1, TransA 2, TransB 3 are checked by CBLAS in
 * the caller's order; the rest by the Fortran SGEMM that CBLAS calls, and
 * cblas_xerbla receives its INFO plus one (M 4, N 5, K 6, LDA 9, LDB 11,
 * LDC 14). For a row-major call that Fortran call has m and n, A and B
 * swapped: N is checked before M and reported as 4, ldb before lda and
 * reported as 9; a bad M is 5, a bad lda 11. (The default handler swaps
 * them back when it prints: see default_handlers.c.) */
static const gemm_err gemm_errors[] = {
    {BAD, CblasNoTrans, CblasNoTrans, 0, 0, 0, 1, 1, 1, 1},
    {BAD, BAD, BAD, -1, -1, -1, 0, 0, 0, 1},
    {CblasColMajor, BAD, CblasNoTrans, 0, 0, 0, 1, 1, 1, 2},
    {CblasRowMajor, BAD, CblasNoTrans, 0, 0, 0, 1, 1, 1, 2},
    {CblasColMajor, 114, CblasNoTrans, 0, 0, 0, 1, 1, 1, 2}, /* OpenBLAS's CblasConjNoTrans is no CBLAS value */
    {CblasRowMajor, BAD, BAD, -1, 0, 0, 1, 1, 1, 2},
    {CblasColMajor, CblasNoTrans, BAD, 0, 0, 0, 1, 1, 1, 3},
    {CblasRowMajor, CblasTrans, BAD, 0, 0, 0, 1, 1, 1, 3}, /* netlib up to 3.11 said 2 here, a bug fixed since */
    {CblasColMajor, CblasNoTrans, CblasNoTrans, -1, 0, 0, 1, 1, 1, 4},
    {CblasRowMajor, CblasNoTrans, CblasTrans, -1, 0, 0, 1, 1, 1, 5},
    {CblasColMajor, CblasTrans, CblasNoTrans, 0, -1, 0, 1, 1, 1, 5},
    {CblasRowMajor, CblasTrans, CblasTrans, 0, -1, 0, 1, 1, 1, 4},
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 0, -1, 1, 1, 1, 6},
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 0, 0, -1, 1, 1, 1, 6},
    /* column-major leading dimensions */
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 0, 0, 1, 1, 2, 9},   /* lda < m */
    {CblasColMajor, CblasTrans, CblasNoTrans, 0, 0, 2, 1, 2, 1, 9},     /* lda < k */
    {CblasColMajor, CblasConjTrans, CblasTrans, 0, 0, 2, 1, 1, 1, 9},
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 0, 2, 1, 1, 1, 11},  /* ldb < k */
    {CblasColMajor, CblasNoTrans, CblasTrans, 0, 2, 0, 1, 1, 1, 11},    /* ldb < n */
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 0, 0, 2, 1, 1, 14},  /* ldc < m */
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 0, 0, 0, 1, 1, 9},   /* lda < 1 */
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 0, 0, 1, 0, 1, 11},  /* ldb < 1 */
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 0, 0, 1, 1, 0, 14},  /* ldc < 1 */
    /* row-major leading dimensions */
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 0, 0, 2, 1, 1, 2, 11},  /* lda < k */
    {CblasRowMajor, CblasTrans, CblasNoTrans, 2, 0, 0, 1, 2, 1, 11},    /* lda < m */
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 0, 2, 0, 1, 1, 2, 9},   /* ldb < n */
    {CblasRowMajor, CblasTrans, CblasTrans, 0, 0, 2, 1, 1, 1, 9},       /* ldb < k */
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 0, 2, 0, 1, 2, 1, 14},  /* ldc < n */
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 0, 0, 1, 1, 1, 0},   /* ldc >= max(1, n): legal */
    /* several bad arguments: the first in the Fortran call's order wins */
    {CblasColMajor, CblasNoTrans, CblasNoTrans, -1, -1, -1, 0, 0, 0, 4},
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, -1, -1, 0, 0, 0, 4},
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, 2, -1, 0, 0, 0, 5},
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, -1, 0, 0, 0, 6},
    {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, 1, 1, 9},
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, 1, 1, 9},
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, 2, 1, 11},
    {CblasRowMajor, CblasTrans, CblasNoTrans, 2, 3, 2, 1, 3, 1, 11},    /* lda < m: only lda */
    {CblasColMajor, CblasNoTrans, CblasTrans, 2, 3, 2, 2, 2, 2, 11},    /* ldb < n */
    {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 2, 1, 14},
};

static void test_cblas_sgemm_errors(void **state)
{
    (void)state;
    float a[16], b[16], c[16], c0[16];
    for (int i = 0; i < 16; ++i)
        a[i] = b[i] = c0[i] = c[i] = (float)i;
    for (size_t i = 0; i < sizeof gemm_errors / sizeof gemm_errors[0]; ++i) {
        const gemm_err *e = &gemm_errors[i];
        reset_errors();
        cblas_sgemm((CBLAS_LAYOUT)e->layout, (CBLAS_TRANSPOSE)e->ta, (CBLAS_TRANSPOSE)e->tb, e->m, e->n, e->k, 1.0f,
                    a, e->lda, b, e->ldb, 0.0f, c, e->ldc);
        if (cblas_err.calls != (e->info ? 1 : 0) || (e->info && cblas_err.info != e->info))
            fail_msg("cblas_sgemm case %zu: %d reports, info %d, want %d", i, cblas_err.calls, cblas_err.info, e->info);
        assert_int_equal(fortran_err.calls, 0);
        if (e->info) {
            assert_string_equal(cblas_err.rout, "cblas_sgemm");
            /* a sentence for layout and the transposes only, as reference CBLAS */
            assert_true((strlen(cblas_err.message) > 0) == (e->info <= 3));
            assert_memory_equal(c, c0, sizeof c);
        }
    }
    /* The forms reference CBLAS passes: its own sentences for layout and
     * the transposes, nothing for what its Fortran layer finds. */
    reset_errors();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    assert_int_equal(cblas_err.info, 11);
    assert_string_equal(cblas_err.rout, "cblas_sgemm");
    assert_string_equal(cblas_err.message, "");
    reset_errors();
    cblas_sgemm((CBLAS_LAYOUT)7, CblasNoTrans, CblasNoTrans, 2, 2, 3, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    assert_string_equal(cblas_err.message, "Illegal layout setting, 7\n");
    reset_errors();
    cblas_sgemm(CblasRowMajor, (CBLAS_TRANSPOSE)BAD, CblasNoTrans, 2, 2, 3, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    assert_string_equal(cblas_err.message, "Illegal TransA setting, 99\n");
    reset_errors();
    cblas_sgemm(CblasColMajor, CblasNoTrans, (CBLAS_TRANSPOSE)BAD, 2, 2, 3, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    assert_string_equal(cblas_err.message, "Illegal TransB setting, 99\n");
}

typedef struct {
    int layout, t, m, n, lda, incx, incy;
    int info;
} gemv_err;

/* From reference sgemv.f and cblas_sgemv.c: layout 1, TransA 2, then the
 * Fortran SGEMV's INFO plus one: M 3, N 4, LDA 7, INCX 9, INCY 12. A
 * row-major call is the Fortran call on A^T (N x M): N is checked first and
 * reported as 3, a bad M is 4, and lda is checked against N. */
static const gemv_err gemv_errors[] = {
    {BAD, CblasNoTrans, 0, 0, 1, 1, 1, 1},
    {CblasColMajor, BAD, 0, 0, 1, 1, 1, 2},
    {CblasRowMajor, BAD, 0, 0, 1, 1, 1, 2},
    {CblasColMajor, CblasNoTrans, -1, 0, 1, 1, 1, 3},
    {CblasRowMajor, CblasTrans, -1, 0, 1, 1, 1, 4},
    {CblasColMajor, CblasTrans, 0, -1, 1, 1, 1, 4},
    {CblasRowMajor, CblasNoTrans, 0, -1, 1, 1, 1, 3},
    {CblasColMajor, CblasNoTrans, -1, -1, 1, 1, 1, 3},
    {CblasRowMajor, CblasNoTrans, -1, -1, 1, 1, 1, 3},
    {CblasColMajor, CblasNoTrans, 2, 0, 1, 1, 1, 7},  /* lda < m */
    {CblasRowMajor, CblasNoTrans, 0, 2, 1, 1, 1, 7},  /* lda < n */
    {CblasRowMajor, CblasConjTrans, 2, 0, 1, 1, 1, 0}, /* lda >= max(1, n): legal */
    {CblasColMajor, CblasNoTrans, 0, 0, 0, 1, 1, 7},
    {CblasColMajor, CblasNoTrans, 0, 0, 1, 0, 1, 9},
    {CblasRowMajor, CblasTrans, 0, 0, 1, 0, 1, 9},
    {CblasColMajor, CblasNoTrans, 0, 0, 1, 1, 0, 12},
    {CblasRowMajor, CblasNoTrans, 0, 0, 1, 1, 0, 12},
    {CblasColMajor, CblasNoTrans, 2, 2, 1, 0, 0, 7},
    {CblasColMajor, CblasNoTrans, 2, 2, 2, 0, 0, 9},
};

static void test_cblas_sgemv_errors(void **state)
{
    (void)state;
    float a[16], x[16], y[16], y0[16];
    for (int i = 0; i < 16; ++i)
        a[i] = x[i] = y[i] = y0[i] = (float)i;
    for (size_t i = 0; i < sizeof gemv_errors / sizeof gemv_errors[0]; ++i) {
        const gemv_err *e = &gemv_errors[i];
        reset_errors();
        cblas_sgemv((CBLAS_LAYOUT)e->layout, (CBLAS_TRANSPOSE)e->t, e->m, e->n, 1.0f, a, e->lda, x, e->incx, 0.0f, y,
                    e->incy);
        if (cblas_err.calls != (e->info ? 1 : 0) || (e->info && cblas_err.info != e->info))
            fail_msg("cblas_sgemv case %zu: %d reports, info %d, want %d", i, cblas_err.calls, cblas_err.info, e->info);
        assert_int_equal(fortran_err.calls, 0);
        if (e->info) {
            assert_string_equal(cblas_err.rout, "cblas_sgemv");
            assert_memory_equal(y, y0, sizeof y);
        }
    }
}

static void test_fortran_errors(void **state)
{
    (void)state;
    /* From reference sgemm.f: TRANSA 1, TRANSB 2, M 3, N 4, K 5, LDA 8, LDB 10, LDC 13. */
    static const struct {
        char ta, tb;
        int m, n, k, lda, ldb, ldc, info;
    } ge[] = {
        {'X', 'N', 0, 0, 0, 1, 1, 1, 1},  {'N', 'x', 0, 0, 0, 1, 1, 1, 2},  {'?', '?', -1, 0, 0, 1, 1, 1, 1},
        {'n', 'c', -1, 0, 0, 1, 1, 1, 3}, {'T', 'T', 0, -1, 0, 1, 1, 1, 4}, {'C', 'N', 0, 0, -1, 1, 1, 1, 5},
        {'N', 'N', 2, 0, 0, 1, 1, 2, 8},  {'t', 'N', 0, 0, 2, 1, 2, 1, 8},  {'N', 'N', 0, 0, 2, 1, 1, 1, 10},
        {'N', 't', 0, 2, 0, 1, 1, 1, 10}, {'N', 'N', 2, 0, 0, 2, 1, 1, 13}, {'N', 'N', -1, -1, -1, 0, 0, 0, 3},
        {'N', 'N', 2, 2, 2, 1, 1, 1, 8},  {'c', 'C', 0, 0, 0, 1, 1, 1, 0},
    };
    float a[16], b[16], c[16], c0[16], one = 1.0f, zero = 0.0f;
    for (int i = 0; i < 16; ++i)
        a[i] = b[i] = c[i] = c0[i] = (float)i;
    for (size_t i = 0; i < sizeof ge / sizeof ge[0]; ++i) {
        reset_errors();
        sgemm_(&ge[i].ta, &ge[i].tb, &ge[i].m, &ge[i].n, &ge[i].k, &one, a, &ge[i].lda, b, &ge[i].ldb, &zero, c,
               &ge[i].ldc, 1, 1);
        if (fortran_err.calls != (ge[i].info ? 1 : 0) || (ge[i].info && fortran_err.info != ge[i].info))
            fail_msg("sgemm_ case %zu: %d reports, info %d, want %d", i, fortran_err.calls, fortran_err.info,
                     ge[i].info);
        assert_int_equal(cblas_err.calls, 0);
        if (ge[i].info) {
            /* The name as reference BLAS passes it: six characters, blank-padded. */
            assert_int_equal(fortran_err.len, 6);
            assert_memory_equal(fortran_err.name, "SGEMM ", 6);
            assert_memory_equal(c, c0, sizeof c);
        }
    }
    /* From reference sgemv.f: TRANS 1, M 2, N 3, LDA 6, INCX 8, INCY 11. */
    static const struct {
        char t;
        int m, n, lda, incx, incy, info;
    } gv[] = {
        {'Z', 0, 0, 1, 1, 1, 1}, {'n', -1, 0, 1, 1, 1, 2}, {'T', 0, -1, 1, 1, 1, 3}, {'c', 2, 0, 1, 1, 1, 6},
        {'N', 0, 0, 1, 0, 1, 8}, {'t', 0, 0, 1, 1, 0, 11}, {'N', 0, 2, 1, 1, 1, 0},  {'N', -1, -1, 0, 0, 0, 2},
    };
    float x[16], y[16], y0[16];
    for (int i = 0; i < 16; ++i)
        x[i] = y[i] = y0[i] = (float)i;
    for (size_t i = 0; i < sizeof gv / sizeof gv[0]; ++i) {
        reset_errors();
        sgemv_(&gv[i].t, &gv[i].m, &gv[i].n, &one, a, &gv[i].lda, x, &gv[i].incx, &zero, y, &gv[i].incy, 1);
        if (fortran_err.calls != (gv[i].info ? 1 : 0) || (gv[i].info && fortran_err.info != gv[i].info))
            fail_msg("sgemv_ case %zu: %d reports, info %d, want %d", i, fortran_err.calls, fortran_err.info,
                     gv[i].info);
        assert_int_equal(cblas_err.calls, 0);
        if (gv[i].info) {
            assert_int_equal(fortran_err.len, 6);
            assert_memory_equal(fortran_err.name, "SGEMV ", 6);
            assert_memory_equal(y, y0, sizeof y);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cblas_sgemm_errors), cmocka_unit_test(test_cblas_sgemv_errors),
        cmocka_unit_test(test_fortran_errors),     cmocka_unit_test(test_cblas_sgemm),
        cmocka_unit_test(test_cblas_sgemm_special), cmocka_unit_test(test_cblas_sgemv),
        cmocka_unit_test(test_fortran),
    };
    return cmocka_run_group_tests_name("liboclblas_cblas", tests, NULL, NULL);
}
