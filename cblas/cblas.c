/*
 * The drop-in BLAS: cblas_sgemm, cblas_sgemv and the Fortran sgemm_, sgemv_
 * on top of the oclblas host-pointer API. Each call first checks its
 * arguments with the library's own check of the routine (the same the
 * oclblas API makes, in reference BLAS's order) and maps the first bad one
 * to the reference INFO: cblas_xerbla receives exactly what reference CBLAS
 * gives it, the position in the column-major call that CBLAS makes (for a
 * row-major call that call has m and n, A and B swapped), and xerbla_ the
 * Fortran INFO. Only negative sizes, which the library's size_t API cannot
 * see, are checked here. A call with bad arguments returns without touching
 * anything. A good call goes to oclblas_sgemm or oclblas_sgemv, whose
 * front door makes the call's record (the math mode read once, there) and
 * whose executor (src/api/host.c) chooses the device(s) or the host BLAS
 * by cost, and where a device fails (none present, a kernel that does not
 * build, a device lost) has the host BLAS compute what it left: the BLAS
 * the program would have had without the drop-in (the next sgemm_/sgemv_
 * after this library's own, src/host/sysblas.c), else the library's own
 * routine; so a drop-in call always returns the result. OCLBLAS_VERBOSE=1
 * says which served.
 */
#include "api/checks.h"
#include "util/util.h"
#include "oclblas_cblas.h"
#include "report.h"

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

/* The CBLAS enums are the library's, value for value. */
_Static_assert(CblasRowMajor == (int)OCLBLAS_ROW_MAJOR && CblasColMajor == (int)OCLBLAS_COL_MAJOR, "layout values");
_Static_assert(CblasNoTrans == (int)OCLBLAS_NO_TRANS && CblasTrans == (int)OCLBLAS_TRANS &&
                   CblasConjTrans == (int)OCLBLAS_CONJ_TRANS,
               "transpose values");

/* A Fortran TRANS character as the library's transpose; anything else is
 * no transpose at all, which the check refuses. */
static oclblas_transpose fortran_trans(const char *t)
{
    switch (t ? *t : 0) {
    case 'N': case 'n': return OCLBLAS_NO_TRANS;
    case 'T': case 't': return OCLBLAS_TRANS;
    case 'C': case 'c': return OCLBLAS_CONJ_TRANS;
    default: return (oclblas_transpose)0;
    }
}

/* A size for the library's check: a negative one is reported before the
 * check's result is looked at, and as a leading dimension 0 is refused. */
static size_t size_arg(int x) { return x < 0 ? 0 : (size_t)x; }

/* The first bad argument of an SGEMM call, 0 if none, numbered as reference
 * CBLAS numbers it to cblas_xerbla: layout 1, TransA 2, TransB 3, then the
 * arguments of the column-major Fortran call one further on (M 4, N 5, K 6,
 * LDA 9, LDB 11, LDC 14), which for a row-major call is made with m and n,
 * A and B swapped. The Fortran INFO is one less. why gets the cause. */
static int sgemm_info(oclblas_layout layout, oclblas_transpose ta, oclblas_transpose tb, int m, int n, int k,
                      int lda, int ldb, int ldc, const char **why)
{
    const oclblas_status st = oclblas__sgemm_check(layout, ta, tb, size_arg(m), size_arg(n), size_arg(k),
                                                   size_arg(lda), size_arg(ldb), size_arg(ldc));
    const int row = layout == OCLBLAS_ROW_MAJOR;
    *why = oclblas_status_string(st);
    switch (st) {
    case OCLBLAS_INVALID_LAYOUT: return 1;
    case OCLBLAS_INVALID_TRANS_A: return 2;
    case OCLBLAS_INVALID_TRANS_B: return 3;
    default: break;
    }
    /* The sizes come after the transposes and before the leading dimensions. */
    if ((row ? n : m) < 0) {
        *why = row ? "N is negative" : "M is negative";
        return 4;
    }
    if ((row ? m : n) < 0) {
        *why = row ? "M is negative" : "N is negative";
        return 5;
    }
    if (k < 0) {
        *why = "K is negative";
        return 6;
    }
    switch (st) {
    case OCLBLAS_INVALID_LDA: return row ? 11 : 9;
    case OCLBLAS_INVALID_LDB: return row ? 9 : 11;
    case OCLBLAS_INVALID_LDC: return 14;
    default: return 0; /* reference BLAS has no INFO for sizes no memory holds: the call refuses them */
    }
}

/* The same for SGEMV: layout 1, TransA 2, then the Fortran call's M 3, N 4,
 * LDA 7, INCX 9, INCY 12, where a row-major call has m and n swapped. */
static int sgemv_info(oclblas_layout layout, oclblas_transpose t, int m, int n, int lda, int incx, int incy,
                      const char **why)
{
    const oclblas_status st = oclblas__sgemv_check(layout, t, size_arg(m), size_arg(n), size_arg(lda), incx, incy);
    const int row = layout == OCLBLAS_ROW_MAJOR;
    *why = oclblas_status_string(st);
    switch (st) {
    case OCLBLAS_INVALID_LAYOUT: return 1;
    case OCLBLAS_INVALID_TRANS_A: return 2;
    default: break;
    }
    if ((row ? n : m) < 0) {
        *why = row ? "N is negative" : "M is negative";
        return 3;
    }
    if ((row ? m : n) < 0) {
        *why = row ? "M is negative" : "N is negative";
        return 4;
    }
    switch (st) {
    case OCLBLAS_INVALID_LDA: return 7;
    case OCLBLAS_INVALID_INCX: return 9;
    case OCLBLAS_INVALID_INCY: return 12;
    default: return 0;
    }
}

/* Reports to cblas_xerbla what reference CBLAS reports: the layout and
 * transposes with its sentences (form takes one int, value), anything its
 * Fortran layer finds with an empty form. The default handler learns that
 * the call was row-major, as reference CBLAS's learns it from a global, to
 * print the caller's own position. */
static void report_cblas(const char *rout, oclblas_layout layout, int info, const char *form, int value,
                         const char *why)
{
    const int row = layout == OCLBLAS_ROW_MAJOR;
    oclblas__log("%s: parameter %d is illegal: %s", rout, row ? oclblas__cblas_caller_position(rout, info) : info,
                 why);
    oclblas__cblas_row_major_report = row;
    cblas_xerbla(info, rout, form, value);
    oclblas__cblas_row_major_report = 0;
}

/* The call, through the host API (whose front door makes its record):
 * on the device(s) or the host as its host plan says, the host computing
 * what a failed device left. A status comes back only where nothing could
 * compute: a NULL array the call uses or one no address space holds
 * (reference BLAS would crash on either: OCLBLAS_SIZE_TOO_LARGE), or a
 * device that failed after writing C in place. */
static void report_failure(const char *rout, oclblas_status st)
{
    if (st != OCLBLAS_SUCCESS)
        oclblas__log("%s: %s, nothing computed", rout, oclblas_status_string(st));
}

static void gemm(const char *rout, oclblas_layout layout, oclblas_transpose ta, oclblas_transpose tb, int m, int n,
                 int k, float alpha, const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
    report_failure(rout, oclblas_sgemm(layout, ta, tb, (size_t)m, (size_t)n, (size_t)k, alpha, a, (size_t)lda, b,
                                       (size_t)ldb, beta, c, (size_t)ldc));
}

static void gemv(const char *rout, oclblas_layout layout, oclblas_transpose t, int m, int n, float alpha,
                 const float *a, int lda, const float *x, int incx, float beta, float *y, int incy)
{
    report_failure(rout, oclblas_sgemv(layout, t, (size_t)m, (size_t)n, alpha, a, (size_t)lda, x, incx, beta, y, incy));
}

/* ---- CBLAS ------------------------------------------------------------- */

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const float alpha, const float *A, const int lda, const float *B, const int ldb,
                 const float beta, float *C, const int ldc)
{
    static const char rout[] = "cblas_sgemm";
    const oclblas_layout l = (oclblas_layout)layout;
    const oclblas_transpose ta = (oclblas_transpose)TransA, tb = (oclblas_transpose)TransB;
    const char *why;
    const int info = sgemm_info(l, ta, tb, M, N, K, lda, ldb, ldc, &why);
    switch (info) {
    case 0: break;
    case 1: report_cblas(rout, l, 1, "Illegal layout setting, %d\n", (int)layout, why); return;
    case 2: report_cblas(rout, l, 2, "Illegal TransA setting, %d\n", (int)TransA, why); return;
    case 3: report_cblas(rout, l, 3, "Illegal TransB setting, %d\n", (int)TransB, why); return;
    default: report_cblas(rout, l, info, "", 0, why); return;
    }
    if (M == 0 || N == 0)
        return;
    gemm(rout, l, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_sgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA, const int M, const int N, const float alpha,
                 const float *A, const int lda, const float *X, const int incX, const float beta, float *Y,
                 const int incY)
{
    static const char rout[] = "cblas_sgemv";
    const oclblas_layout l = (oclblas_layout)layout;
    const oclblas_transpose t = (oclblas_transpose)TransA;
    const char *why;
    const int info = sgemv_info(l, t, M, N, lda, incX, incY, &why);
    switch (info) {
    case 0: break;
    case 1: report_cblas(rout, l, 1, "Illegal layout setting, %d\n", (int)layout, why); return;
    case 2: report_cblas(rout, l, 2, "Illegal TransA setting, %d\n", (int)TransA, why); return;
    default: report_cblas(rout, l, info, "", 0, why); return;
    }
    if (M == 0 || N == 0)
        return;
    gemv(rout, l, t, M, N, alpha, A, lda, X, incX, beta, Y, incY);
}

/* ---- Fortran BLAS ------------------------------------------------------ */

/* Reference BLAS names the routine in six blank-padded characters. */
static void report_fortran(const char *srname, int info, const char *why)
{
    oclblas__log("%.5s: parameter %d is illegal: %s", srname, info, why);
    xerbla_(srname, &info, 6);
}

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc, size_t transa_len, size_t transb_len)
{
    (void)transa_len;
    (void)transb_len;
    const oclblas_transpose ta = fortran_trans(transa), tb = fortran_trans(transb);
    const char *why;
    const int info = sgemm_info(OCLBLAS_COL_MAJOR, ta, tb, *m, *n, *k, *lda, *ldb, *ldc, &why);
    if (info) {
        report_fortran("SGEMM ", info - 1, why);
        return;
    }
    if (*m == 0 || *n == 0)
        return;
    gemm("sgemm_", OCLBLAS_COL_MAJOR, ta, tb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

void sgemv_(const char *trans, const int *m, const int *n, const float *alpha, const float *a, const int *lda,
            const float *x, const int *incx, const float *beta, float *y, const int *incy, size_t trans_len)
{
    (void)trans_len;
    const oclblas_transpose t = fortran_trans(trans);
    const char *why;
    const int info = sgemv_info(OCLBLAS_COL_MAJOR, t, *m, *n, *lda, *incx, *incy, &why);
    if (info) {
        report_fortran("SGEMV ", info - 1, why);
        return;
    }
    if (*m == 0 || *n == 0)
        return;
    gemv("sgemv_", OCLBLAS_COL_MAJOR, t, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}
