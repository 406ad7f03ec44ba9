/*
 * The interface of liboclblas_cblas, the drop-in BLAS library: the netlib
 * CBLAS functions cblas_sgemm and cblas_sgemv, MKL's batched
 * cblas_sgemm_batch_strided and cblas_sgemm_batch, the Fortran BLAS sgemm_ and
 * sgemv_ (as gfortran calls them, with the hidden lengths of the character
 * arguments), and the two error handlers a program may replace with its own
 * definitions. A program that already includes a cblas.h (netlib, OpenBLAS)
 * gets the CBLAS part from there: include this header after it or instead of
 * it, never before it. Integers are 32-bit, as in the LP64 BLAS interface.
 */
#ifndef OCLBLAS_CBLAS_H
#define OCLBLAS_CBLAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CBLAS_H
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
#define CBLAS_ORDER CBLAS_LAYOUT

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const float alpha, const float *A, const int lda, const float *B, const int ldb,
                 const float beta, float *C, const int ldc);
void cblas_sgemv(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE TransA, const int M, const int N,
                 const float alpha, const float *A, const int lda, const float *X, const int incX, const float beta,
                 float *Y, const int incY);

/* Receives every illegal argument of a cblas_ call, as reference CBLAS
 * reports it: info is the position of the bad parameter (layout is 1) in
 * the column-major call that CBLAS makes (a row-major call has M and N,
 * and for gemm lda and ldb, swapped), rout the routine's name
 * ("cblas_sgemm"), form and what follows a printf description (empty but
 * for the layout and the transposes). The library's own handler prints the
 * message with the caller's own position, on stderr, and returns. */
void cblas_xerbla(int info, const char *rout, const char *form, ...);
#endif

/* Batches, with the signatures of MKL's and NVPL's CBLAS extension (int
 * for their LP64 MKL_INT and nvpl_int_t), so that code written for them
 * links and runs unchanged. cblas_sgemm_batch_strided computes batch_size
 * products C_i = alpha op(A_i) op(B_i) + beta C_i, the operands of problem
 * i stridea, strideb and stridec elements after those of problem 0 (a
 * stride of 0 for A or B: one operand for every problem). cblas_sgemm_batch
 * computes group_count groups, group g of group_size[g] problems that
 * share transa_array[g] ... ldc_array[g]; a_array, b_array and c_array list
 * the operands problem by problem, group after group. Each problem is
 * checked by cblas_sgemm's rules; no two problems may write one element of
 * C (reported as a bad stridec or c_array). A bad argument is reported to
 * cblas_xerbla with its position in the batch call as the caller wrote
 * it, layout 1, in either layout (there is no reference CBLAS to follow;
 * a grouped batch's form names the group), and nothing is computed.
 * Outside the block above: netlib's and OpenBLAS's cblas.h (0.3.21) have no batches. */
void cblas_sgemm_batch_strided(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE transa, const CBLAS_TRANSPOSE transb,
                               const int m, const int n, const int k, const float alpha, const float *a,
                               const int lda, const int stridea, const float *b, const int ldb, const int strideb,
                               const float beta, float *c, const int ldc, const int stridec, const int batch_size);
void cblas_sgemm_batch(const CBLAS_LAYOUT layout, const CBLAS_TRANSPOSE *transa_array,
                       const CBLAS_TRANSPOSE *transb_array, const int *m_array, const int *n_array, const int *k_array,
                       const float *alpha_array, const float **a_array, const int *lda_array, const float **b_array,
                       const int *ldb_array, const float *beta_array, float **c_array, const int *ldc_array,
                       const int group_count, const int *group_size);

/* Fortran BLAS. The trailing size_t arguments are the lengths that gfortran
 * (8 and later) passes for character arguments. A C caller passes them too,
 * 1 for each one-letter argument: sgemm_("N", "T", ..., 1, 1), as LAPACK's
 * C interface does. These prototypes are the definitions' own, and a call
 * through any other declaration is undefined in C. The library never reads
 * the lengths, so a program built against an older declaration without
 * them still gets the right result, but it should not be written that way. */
void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc, size_t transa_len, size_t transb_len);
void sgemv_(const char *trans, const int *m, const int *n, const float *alpha, const float *a, const int *lda,
            const float *x, const int *incx, const float *beta, float *y, const int *incy, size_t trans_len);

/* Receives every illegal argument of a Fortran call: srname is the routine's
 * name padded with blanks to srname_len characters ("SGEMM ", 6), *info the
 * position of the bad argument. The library's own handler prints a message
 * on stderr and returns; unlike reference BLAS it never stops the program. */
void xerbla_(const char *srname, const int *info, size_t srname_len);

#ifdef __cplusplus
}
#endif
#endif
