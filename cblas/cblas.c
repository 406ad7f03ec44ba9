/*
 * The drop-in BLAS: cblas_sgemm, cblas_sgemv, MKL's batched
 * cblas_sgemm_batch_strided and cblas_sgemm_batch, and the Fortran sgemm_,
 * sgemv_ on top of the oclblas host-pointer API (the batches on its batched
 * calls, numbering a bad argument as the caller wrote it). Each call first checks its
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

#include <stdlib.h>

#define CBLAS_EXPORT __attribute__((visibility("default")))

CBLAS_EXPORT void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M,
                              const int N, const int K, const float alpha, const float *A, const int lda,
                              const float *B, const int ldb, const float beta, float *C, const int ldc);
CBLAS_EXPORT void cblas_sgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA, const int M, const int N,
                              const float alpha, const float *A, const int lda, const float *X, const int incX,
                              const float beta, float *Y, const int incY);
CBLAS_EXPORT void cblas_sgemm_batch_strided(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE transa,
                                            const CBLAS_TRANSPOSE transb, const int m, const int n, const int k,
                                            const float alpha, const float *a, const int lda, const int stridea,
                                            const float *b, const int ldb, const int strideb, const float beta,
                                            float *c, const int ldc, const int stridec, const int batch_size);
CBLAS_EXPORT void cblas_sgemm_batch(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE *transa_array,
                                    const CBLAS_TRANSPOSE *transb_array, const int *m_array, const int *n_array,
                                    const int *k_array, const float *alpha_array, const float **a_array,
                                    const int *lda_array, const float **b_array, const int *ldb_array,
                                    const float *beta_array, float **c_array, const int *ldc_array,
                                    const int group_count, const int *group_size);
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

/* ---- batches (MKL's and NVPL's CBLAS extension) ---------------------------- */

/* Reference CBLAS has no batches, so their reports number the parameters
 * as the caller wrote the call, layout 1, in either layout (MKL's way),
 * and the default handler prints that number unchanged. Where a batch
 * call's parameters sit: the layout, transposes, sizes and leading
 * dimensions of one problem. */
typedef struct {
    int layout, trans_a, trans_b, m, n, k, lda, ldb, ldc;
} gemm_positions;

/* cblas_sgemm_batch_strided(layout 1, transa 2, transb 3, m 4, n 5, k 6,
 * alpha 7, a 8, lda 9, stridea 10, b 11, ldb 12, strideb 13, beta 14, c 15,
 * ldc 16, stridec 17, batch_size 18). */
static const gemm_positions strided_pos = {1, 2, 3, 4, 5, 6, 9, 12, 16};
enum { STRIDEA_POS = 10, STRIDEB_POS = 13, STRIDEC_POS = 17, BATCH_SIZE_POS = 18 };

/* cblas_sgemm_batch(layout 1, transa_array 2, transb_array 3, m_array 4,
 * n_array 5, k_array 6, alpha_array 7, a_array 8, lda_array 9, b_array 10,
 * ldb_array 11, beta_array 12, c_array 13, ldc_array 14, group_count 15,
 * group_size 16). */
static const gemm_positions grouped_pos = {1, 2, 3, 4, 5, 6, 9, 11, 14};
enum { C_ARRAY_POS = 13, GROUP_COUNT_POS = 15, GROUP_SIZE_POS = 16 };

/* The first bad argument of one problem of a batch by the single call's
 * rules (the library's check, then the negative sizes it cannot see, in
 * the caller's order), at its position in pos; 0 if none. */
static int batch_gemm_info(const gemm_positions *pos, oclblas_layout layout, oclblas_transpose ta,
                           oclblas_transpose tb, int m, int n, int k, int lda, int ldb, int ldc, const char **why)
{
    const oclblas_status st = oclblas__sgemm_check(layout, ta, tb, size_arg(m), size_arg(n), size_arg(k),
                                                   size_arg(lda), size_arg(ldb), size_arg(ldc));
    *why = oclblas_status_string(st);
    switch (st) {
    case OCLBLAS_INVALID_LAYOUT: return pos->layout;
    case OCLBLAS_INVALID_TRANS_A: return pos->trans_a;
    case OCLBLAS_INVALID_TRANS_B: return pos->trans_b;
    default: break;
    }
    const struct {
        int value, pos;
        const char *why;
    } sizes[3] = {{m, pos->m, "M is negative"}, {n, pos->n, "N is negative"}, {k, pos->k, "K is negative"}};
    for (int s = 0; s < 3; ++s)
        if (sizes[s].value < 0) {
            *why = sizes[s].why;
            return sizes[s].pos;
        }
    switch (st) {
    case OCLBLAS_INVALID_LDA: return pos->lda;
    case OCLBLAS_INVALID_LDB: return pos->ldb;
    case OCLBLAS_INVALID_LDC: return pos->ldc;
    default: return 0;
    }
}

/* A batch's report to cblas_xerbla: the layout and transposes with
 * cblas_sgemm's sentences, the rest with an empty form, or for a grouped
 * batch with the group that holds the bad argument. */
static void report_batch(const char *rout, const gemm_positions *pos, int info, int group, int value,
                         const char *why)
{
    if (group >= 0)
        oclblas__log("%s: parameter %d is illegal in group %d: %s", rout, info, group, why);
    else
        oclblas__log("%s: parameter %d is illegal: %s", rout, info, why);
    if (info == pos->layout)
        cblas_xerbla(info, rout, "Illegal layout setting, %d\n", value);
    else if (group >= 0)
        cblas_xerbla(info, rout, "in group %d\n", group);
    else if (info == pos->trans_a)
        cblas_xerbla(info, rout, "Illegal TransA setting, %d\n", value);
    else if (info == pos->trans_b)
        cblas_xerbla(info, rout, "Illegal TransB setting, %d\n", value);
    else
        cblas_xerbla(info, rout, "", 0);
}

void cblas_sgemm_batch_strided(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE transa, const CBLAS_TRANSPOSE transb,
                               const int m, const int n, const int k, const float alpha, const float *a,
                               const int lda, const int stridea, const float *b, const int ldb, const int strideb,
                               const float beta, float *c, const int ldc, const int stridec, const int batch_size)
{
    static const char rout[] = "cblas_sgemm_batch_strided";
    const oclblas_layout l = (oclblas_layout)layout;
    const oclblas_transpose ta = (oclblas_transpose)transa, tb = (oclblas_transpose)transb;
    const char *why;
    int info = batch_gemm_info(&strided_pos, l, ta, tb, m, n, k, lda, ldb, ldc, &why);
    /* The first bad parameter in the caller's order: a negative stride
     * before a bad leading dimension that comes after it (a stride of 0
     * for A or B is one operand for every problem). */
    const int strides[3][2] = {{stridea, STRIDEA_POS}, {strideb, STRIDEB_POS}, {stridec, STRIDEC_POS}};
    for (int s = 0; s < 3; ++s)
        if (strides[s][0] < 0 && (info == 0 || strides[s][1] < info)) {
            info = strides[s][1];
            why = "a stride is negative";
            break;
        }
    if (info == 0 && batch_size < 0) {
        info = BATCH_SIZE_POS;
        why = "batch_size is negative";
    }
    if (info) {
        const int value = info == strided_pos.layout ? (int)layout : info == strided_pos.trans_a ? (int)transa
                                                                                                 : (int)transb;
        report_batch(rout, &strided_pos, info, -1, value, why);
        return;
    }
    if (m == 0 || n == 0 || batch_size == 0)
        return;
    const oclblas_status st = oclblas_sgemm_strided_batched(
        l, ta, tb, (size_t)m, (size_t)n, (size_t)k, alpha, a, (size_t)lda, (size_t)stridea, b, (size_t)ldb,
        (size_t)strideb, beta, c, (size_t)ldc, (size_t)stridec, (size_t)batch_size);
    if (st == OCLBLAS_BATCH_OVERLAP) /* nothing was written */
        report_batch(rout, &strided_pos, STRIDEC_POS, -1, 0, oclblas_status_string(st));
    else
        report_failure(rout, st);
}

/* The grouped batch on the library's types, where its arrays fit in
 * memory; else problem by problem as single calls (each its own record). */
static void grouped_batch(const char *rout, oclblas_layout layout, const CBLAS_TRANSPOSE *transa_array,
                          const CBLAS_TRANSPOSE *transb_array, const int *m_array, const int *n_array,
                          const int *k_array, const float *alpha_array, const float **a_array, const int *lda_array,
                          const float **b_array, const int *ldb_array, const float *beta_array, float **c_array,
                          const int *ldc_array, int group_count, const int *group_size)
{
    const size_t groups = (size_t)group_count;
    size_t *sizes = malloc(groups * 7 * sizeof *sizes);
    oclblas_transpose *trans = malloc(groups * 2 * sizeof *trans);
    if (sizes && trans) {
        const int *const from[7] = {m_array, n_array, k_array, lda_array, ldb_array, ldc_array, group_size};
        for (size_t v = 0; v < 7; ++v)
            for (size_t g = 0; g < groups; ++g)
                sizes[v * groups + g] = (size_t)from[v][g];
        for (size_t g = 0; g < groups; ++g) {
            trans[g] = (oclblas_transpose)transa_array[g];
            trans[groups + g] = (oclblas_transpose)transb_array[g];
        }
        const oclblas_status st = oclblas_sgemm_grouped_batched(
            layout, trans, trans + groups, sizes, sizes + groups, sizes + 2 * groups, alpha_array, a_array,
            sizes + 3 * groups, b_array, sizes + 4 * groups, beta_array, c_array, sizes + 5 * groups, groups,
            sizes + 6 * groups);
        free(sizes);
        free(trans);
        if (st == OCLBLAS_BATCH_OVERLAP) /* nothing was written */
            report_batch(rout, &grouped_pos, C_ARRAY_POS, -1, 0, oclblas_status_string(st));
        else
            report_failure(rout, st);
        return;
    }
    free(sizes);
    free(trans);
    /* Without memory for the arrays the overlap rule cannot be checked as
     * a whole; single calls in the caller's order give what a loop of
     * cblas_sgemm would. */
    size_t i = 0;
    for (int g = 0; g < group_count; ++g)
        for (int p = 0; p < group_size[g]; ++p, ++i)
            if (m_array[g] > 0 && n_array[g] > 0)
                gemm(rout, layout, (oclblas_transpose)transa_array[g], (oclblas_transpose)transb_array[g],
                     m_array[g], n_array[g], k_array[g], alpha_array[g], a_array[i], lda_array[g], b_array[i],
                     ldb_array[g], beta_array[g], c_array[i], ldc_array[g]);
}

void cblas_sgemm_batch(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE *transa_array,
                       const CBLAS_TRANSPOSE *transb_array, const int *m_array, const int *n_array, const int *k_array,
                       const float *alpha_array, const float **a_array, const int *lda_array, const float **b_array,
                       const int *ldb_array, const float *beta_array, float **c_array, const int *ldc_array,
                       const int group_count, const int *group_size)
{
    static const char rout[] = "cblas_sgemm_batch";
    const oclblas_layout l = (oclblas_layout)layout;
    if (l != OCLBLAS_ROW_MAJOR && l != OCLBLAS_COL_MAJOR) {
        report_batch(rout, &grouped_pos, grouped_pos.layout, -1, (int)layout,
                     oclblas_status_string(OCLBLAS_INVALID_LAYOUT));
        return;
    }
    if (group_count < 0) {
        report_batch(rout, &grouped_pos, GROUP_COUNT_POS, -1, 0, "group_count is negative");
        return;
    }
    if (group_count == 0)
        return;
    /* The arrays every group reads (the operands' arrays, a problem's
     * pointers, are the library's to check: a and b are not read where
     * alpha or k is 0). */
    const struct {
        const void *array;
        int pos;
    } arrays[] = {{transa_array, 2}, {transb_array, 3}, {m_array, 4},  {n_array, 5},
                  {k_array, 6},      {alpha_array, 7},  {lda_array, 9}, {ldb_array, 11},
                  {beta_array, 12},  {ldc_array, 14},   {group_size, GROUP_SIZE_POS}};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
        if (!arrays[i].array) {
            report_batch(rout, &grouped_pos, arrays[i].pos, -1, 0, oclblas_status_string(OCLBLAS_NULL_ARRAY));
            return;
        }
    size_t problems = 0;
    for (int g = 0; g < group_count; ++g) {
        const char *why;
        int info = batch_gemm_info(&grouped_pos, l, (oclblas_transpose)transa_array[g],
                                   (oclblas_transpose)transb_array[g], m_array[g], n_array[g], k_array[g],
                                   lda_array[g], ldb_array[g], ldc_array[g], &why);
        if (info == 0 && group_size[g] < 0) {
            info = GROUP_SIZE_POS;
            why = "a group's size is negative";
        }
        if (info) {
            report_batch(rout, &grouped_pos, info, g, 0, why);
            return;
        }
        problems += (size_t)group_size[g];
    }
    if (problems == 0)
        return;
    if (!a_array || !b_array || !c_array) {
        const int pos = !a_array ? 8 : !b_array ? 10 : C_ARRAY_POS;
        report_batch(rout, &grouped_pos, pos, -1, 0, oclblas_status_string(OCLBLAS_NULL_ARRAY));
        return;
    }
    grouped_batch(rout, l, transa_array, transb_array, m_array, n_array, k_array, alpha_array, a_array, lda_array,
                  b_array, ldb_array, beta_array, c_array, ldc_array, group_count, group_size);
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
