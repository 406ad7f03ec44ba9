/*
 * The drop-in BLAS: cblas_sgemm, cblas_sgemv and the Fortran sgemm_, sgemv_
 * on top of the oclblas host-pointer API. Each call first checks its
 * arguments as reference BLAS does, in the same order, and reports the first
 * bad one to cblas_xerbla or xerbla_ with the reference parameter number. A
 * row-major CBLAS call is checked as the column-major Fortran call it stands
 * for (m and n, A and B swapped), then numbered by the positions the caller
 * wrote, which is what reference CBLAS reports after its own swap. A call
 * with bad arguments returns without touching anything. A good call goes to
 * oclblas_sgemm or oclblas_sgemv (device, or the host below the crossover);
 * when those fail for any reason (no device, a kernel that does not build,
 * a device out of memory) the host routine computes the result instead, so
 * that a drop-in call always returns it; OCLBLAS_VERBOSE=1 says when.
 */
#include "internal.h"
#include "oclblas_cblas.h"

#define CBLAS_EXPORT __attribute__((visibility("default")))

CBLAS_EXPORT void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M,
                              const int N, const int K, const float alpha, const float *A, const int lda,
                              const float *B, const int ldb, const float beta, float *C, const int ldc);
CBLAS_EXPORT void cblas_sgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA, const int M, const int N,
                              const float alpha, const float *A, const int lda, const float *X, const int incX,
                              const float beta, float *Y, const int incY);
CBLAS_EXPORT void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                         const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                         const float *beta, float *c, const int *ldc, size_t transa_len, size_t transb_len);
CBLAS_EXPORT void sgemv_(const char *trans, const int *m, const int *n, const float *alpha, const float *a,
                         const int *lda, const float *x, const int *incx, const float *beta, float *y,
                         const int *incy, size_t trans_len);

static int max1(int x) { return x > 1 ? x : 1; }

/* A Fortran TRANS character: 0 for N, 1 for T or C, -1 for anything else. */
static int fortran_trans(const char *t)
{
    if (!t)
        return -1;
    switch (*t) {
    case 'N': case 'n': return 0;
    case 'T': case 't': case 'C': case 'c': return 1;
    default: return -1;
    }
}

/* A CBLAS_TRANSPOSE: as above; OpenBLAS's CblasConjNoTrans (114) is illegal
 * here, as in reference CBLAS. */
static int cblas_trans(CBLAS_TRANSPOSE t)
{
    return t == CblasNoTrans ? 0 : (t == CblasTrans || t == CblasConjTrans) ? 1 : -1;
}

/* What was wrong with the first bad argument, for the handler's message. */
typedef struct {
    int value;   /* the argument */
    int least;   /* the smallest legal value, or */
    int nonzero; /* 1: any value but zero */
} bad_arg;

#define BAD(info, v, l, nz) (*why = (bad_arg){(v), (l), (nz)}, (info))

/* Reference SGEMM's checks, in its order, of the column-major problem
 * C(m x n) = op(A) op(B): the Fortran INFO of the first bad argument, 0 if
 * none. at, bt: 0 or 1, or -1 for an illegal TRANS. */
static int sgemm_info(int at, int bt, int m, int n, int k, int lda, int ldb, int ldc, bad_arg *why)
{
    if (at < 0)
        return 1;
    if (bt < 0)
        return 2;
    if (m < 0)
        return BAD(3, m, 0, 0);
    if (n < 0)
        return BAD(4, n, 0, 0);
    if (k < 0)
        return BAD(5, k, 0, 0);
    if (lda < max1(at ? k : m))
        return BAD(8, lda, max1(at ? k : m), 0);
    if (ldb < max1(bt ? n : k))
        return BAD(10, ldb, max1(bt ? n : k), 0);
    if (ldc < max1(m))
        return BAD(13, ldc, max1(m), 0);
    return 0;
}

/* Reference SGEMV's checks, in its order, for A(m x n) column-major. */
static int sgemv_info(int t, int m, int n, int lda, int incx, int incy, bad_arg *why)
{
    if (t < 0)
        return 1;
    if (m < 0)
        return BAD(2, m, 0, 0);
    if (n < 0)
        return BAD(3, n, 0, 0);
    if (lda < max1(m))
        return BAD(6, lda, max1(m), 0);
    if (incx == 0)
        return BAD(8, incx, 0, 1);
    if (incy == 0)
        return BAD(11, incy, 0, 1);
    return 0;
}

/* The parameters of the CBLAS calls by position, as netlib's cblas.h names them. */
static const char *const gemm_params[15] = {"", "layout", "TransA", "TransB", "M", "N", "K", "alpha", "A",
                                            "lda", "B", "ldb", "beta", "C", "ldc"};
static const char *const gemv_params[13] = {"", "layout", "TransA", "M", "N", "alpha", "A", "lda", "X", "incX",
                                            "beta", "Y", "incY"};

static void report_cblas(int position, const char *rout, const char *const *params, const bad_arg *why)
{
    if (why->nonzero)
        cblas_xerbla(position, rout, "%s must not be zero\n", params[position]);
    else
        cblas_xerbla(position, rout, "%s is %d, must be at least %d\n", params[position], why->value, why->least);
}

static int is_null_status(oclblas_status st)
{
    return st == OCLBLAS_NULL_A || st == OCLBLAS_NULL_B || st == OCLBLAS_NULL_C || st == OCLBLAS_NULL_X ||
           st == OCLBLAS_NULL_Y;
}

/* The product, on the device or the host; arguments checked, m, n > 0. */
static void gemm(const char *rout, oclblas_layout layout, int at, int bt, int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
    const oclblas_transpose ta = at ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, tb = bt ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS;
    const oclblas_status st = oclblas_sgemm(layout, ta, tb, (size_t)m, (size_t)n, (size_t)k, alpha, a, (size_t)lda,
                                            b, (size_t)ldb, beta, c, (size_t)ldc);
    if (st == OCLBLAS_SUCCESS)
        return;
    /* Reference BLAS would crash on a NULL array it must use: the one failure
     * the host cannot make up for. */
    if (is_null_status(st)) {
        oclblas__log("%s: %s, nothing computed", rout, oclblas_status_string(st));
        return;
    }
    oclblas__log("%s %dx%dx%d: the device failed (%s), computed on the host", rout, m, n, k,
                 oclblas_status_string(st));
    oclblas__host_sgemm(layout, ta, tb, (size_t)m, (size_t)n, (size_t)k, alpha, a, (size_t)lda, b, (size_t)ldb, beta,
                        c, (size_t)ldc);
}

static void gemv(const char *rout, oclblas_layout layout, int t, int m, int n, float alpha, const float *a, int lda,
                 const float *x, int incx, float beta, float *y, int incy)
{
    const oclblas_transpose tr = t ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS;
    const oclblas_status st = oclblas_sgemv(layout, tr, (size_t)m, (size_t)n, alpha, a, (size_t)lda, x, incx, beta,
                                            y, incy);
    if (st == OCLBLAS_SUCCESS)
        return;
    if (is_null_status(st)) {
        oclblas__log("%s: %s, nothing computed", rout, oclblas_status_string(st));
        return;
    }
    oclblas__log("%s %dx%d: the device failed (%s), computed on the host", rout, m, n, oclblas_status_string(st));
    oclblas__host_sgemv(layout, tr, (size_t)m, (size_t)n, alpha, a, (size_t)lda, x, incx, beta, y, incy);
}

/* ---- CBLAS ------------------------------------------------------------- */

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const float alpha, const float *A, const int lda, const float *B, const int ldb,
                 const float beta, float *C, const int ldc)
{
    static const char rout[] = "cblas_sgemm";
    if (layout != CblasColMajor && layout != CblasRowMajor) {
        cblas_xerbla(1, rout, "layout is %d, not CblasRowMajor or CblasColMajor\n", (int)layout);
        return;
    }
    const int at = cblas_trans(TransA), bt = cblas_trans(TransB);
    if (at < 0) {
        cblas_xerbla(2, rout, "TransA is %d, not CblasNoTrans, CblasTrans or CblasConjTrans\n", (int)TransA);
        return;
    }
    if (bt < 0) {
        cblas_xerbla(3, rout, "TransB is %d, not CblasNoTrans, CblasTrans or CblasConjTrans\n", (int)TransB);
        return;
    }
    bad_arg why = {0, 0, 0};
    if (layout == CblasColMajor) {
        /* The Fortran call itself: every CBLAS position is one more. */
        const int info = sgemm_info(at, bt, M, N, K, lda, ldb, ldc, &why);
        if (info) {
            report_cblas(info + 1, rout, gemm_params, &why);
            return;
        }
    } else {
        /* Row-major C is the column-major C^T = op(B)^T op(A)^T: checked as
         * that Fortran call, numbered where the caller wrote each argument
         * (M 4, N 5, K 6, lda 9, ldb 11, ldc 14). */
        const int info = sgemm_info(bt, at, N, M, K, ldb, lda, ldc, &why);
        if (info) {
            static const int position[14] = {[3] = 5, [4] = 4, [5] = 6, [8] = 11, [10] = 9, [13] = 14};
            report_cblas(position[info], rout, gemm_params, &why);
            return;
        }
    }
    if (M == 0 || N == 0)
        return;
    gemm(rout, layout == CblasColMajor ? OCLBLAS_COL_MAJOR : OCLBLAS_ROW_MAJOR, at, bt, M, N, K, alpha, A, lda, B,
         ldb, beta, C, ldc);
}

void cblas_sgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA, const int M, const int N, const float alpha,
                 const float *A, const int lda, const float *X, const int incX, const float beta, float *Y,
                 const int incY)
{
    static const char rout[] = "cblas_sgemv";
    if (layout != CblasColMajor && layout != CblasRowMajor) {
        cblas_xerbla(1, rout, "layout is %d, not CblasRowMajor or CblasColMajor\n", (int)layout);
        return;
    }
    const int t = cblas_trans(TransA);
    if (t < 0) {
        cblas_xerbla(2, rout, "TransA is %d, not CblasNoTrans, CblasTrans or CblasConjTrans\n", (int)TransA);
        return;
    }
    bad_arg why = {0, 0, 0};
    if (layout == CblasColMajor) {
        const int info = sgemv_info(t, M, N, lda, incX, incY, &why);
        if (info) {
            report_cblas(info + 1, rout, gemv_params, &why);
            return;
        }
    } else {
        /* A row-major A is the column-major A^T (N x M): checked as that
         * Fortran call, numbered where the caller wrote each argument
         * (M 3, N 4, lda 7, incX 9, incY 12). */
        const int info = sgemv_info(t, N, M, lda, incX, incY, &why);
        if (info) {
            static const int position[12] = {[2] = 4, [3] = 3, [6] = 7, [8] = 9, [11] = 12};
            report_cblas(position[info], rout, gemv_params, &why);
            return;
        }
    }
    if (M == 0 || N == 0)
        return;
    gemv(rout, layout == CblasColMajor ? OCLBLAS_COL_MAJOR : OCLBLAS_ROW_MAJOR, t, M, N, alpha, A, lda, X, incX, beta,
         Y, incY);
}

/* ---- Fortran BLAS ------------------------------------------------------ */

/* Reference BLAS names the routine in six blank-padded characters. */
static void report_fortran(const char *srname, int info)
{
    xerbla_(srname, &info, 6);
}

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc, size_t transa_len, size_t transb_len)
{
    (void)transa_len;
    (void)transb_len;
    const int at = fortran_trans(transa), bt = fortran_trans(transb);
    bad_arg why = {0, 0, 0};
    const int info = sgemm_info(at, bt, *m, *n, *k, *lda, *ldb, *ldc, &why);
    if (info) {
        report_fortran("SGEMM ", info);
        return;
    }
    if (*m == 0 || *n == 0)
        return;
    gemm("sgemm_", OCLBLAS_COL_MAJOR, at, bt, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

void sgemv_(const char *trans, const int *m, const int *n, const float *alpha, const float *a, const int *lda,
            const float *x, const int *incx, const float *beta, float *y, const int *incy, size_t trans_len)
{
    (void)trans_len;
    const int t = fortran_trans(trans);
    bad_arg why = {0, 0, 0};
    const int info = sgemv_info(t, *m, *n, *lda, *incx, *incy, &why);
    if (info) {
        report_fortran("SGEMV ", info);
        return;
    }
    if (*m == 0 || *n == 0)
        return;
    gemv("sgemv_", OCLBLAS_COL_MAJOR, t, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}
