/*
 * The interface of liboclblas_cblas, the drop-in BLAS library: the netlib
 * CBLAS functions cblas_sgemm and cblas_sgemv, the Fortran BLAS sgemm_ and
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
