/*
 * A program with no error handlers of its own: illegal arguments reach the
 * library's default cblas_xerbla and xerbla_, which must print what the
 * reference handlers print and return, so that the calls return untouched
 * and the program goes on to print "done" and exit 0. For a row-major call
 * the reference cblas_xerbla receives the position in the column-major call
 * CBLAS makes and prints the caller's own; check.cmake reads stderr, where
 * each case is announced before its call.
 */
#include "oclblas_cblas.h"

#include <stdio.h>
#include <string.h>

static void announce(const char *what) { fprintf(stderr, "case %s\n", what); }

int main(void)
{
    float a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8}, c[8] = {0}, c0[8] = {0};
    const int two = 2, one = 1, three = 3, zero = 0;
    const float alpha = 1.0f, beta = 0.0f;
    announce("row lda");
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    announce("row ldb");
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 3, 2, 1.0f, a, 2, b, 2, 0.0f, c, 3);
    announce("row M");
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    announce("row N");
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, -1, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    announce("col lda");
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 3);
    announce("row TransA");
    cblas_sgemm(CblasRowMajor, (CBLAS_TRANSPOSE)7, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    announce("layout");
    cblas_sgemm((CBLAS_LAYOUT)5, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    announce("gemv row N");
    cblas_sgemv(CblasRowMajor, CblasNoTrans, 2, -1, 1.0f, a, 2, b, 1, 0.0f, c, 1);
    announce("gemv row M");
    cblas_sgemv(CblasRowMajor, CblasNoTrans, -1, 2, 1.0f, a, 2, b, 1, 0.0f, c, 1);
    announce("gemv TransA");
    cblas_sgemv(CblasColMajor, (CBLAS_TRANSPOSE)7, 2, 2, 1.0f, a, 2, b, 1, 0.0f, c, 1);
    announce("fortran");
    sgemm_("N", "N", &two, &two, &two, &alpha, a, &one, b, &two, &beta, c, &two, 1, 1); /* LDA: 8 */
    sgemv_("T", &three, &two, &alpha, a, &three, b, &one, &beta, c, &zero, 1);           /* INCY: 11 */
    if (memcmp(c, c0, sizeof c) != 0) {
        printf("C changed\n");
        return 1;
    }
    printf("done\n");
    return 0;
}
