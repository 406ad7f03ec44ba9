/*
 * A program with no error handlers of its own: illegal arguments reach the
 * library's default cblas_xerbla and xerbla_, which must print the reference
 * messages on stderr and return, so that the calls return untouched and the
 * program goes on to print "done" and exit 0. check.cmake reads stderr.
 */
#include "oclblas_cblas.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    float a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8}, c[8] = {0}, c0[8] = {0};
    const int two = 2, one = 1, three = 3, zero = 0;
    const float alpha = 1.0f, beta = 0.0f;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 1.0f, a, 2, b, 2, 0.0f, c, 2); /* lda: 9 */
    cblas_sgemv(CblasColMajor, (CBLAS_TRANSPOSE)7, 2, 2, 1.0f, a, 2, b, 1, 0.0f, c, 1);              /* TransA: 2 */
    sgemm_("N", "N", &two, &two, &two, &alpha, a, &one, b, &two, &beta, c, &two, 1, 1);             /* LDA: 8 */
    sgemv_("T", &three, &two, &alpha, a, &three, b, &one, &beta, c, &zero, 1);                       /* INCY: 11 */
    if (memcmp(c, c0, sizeof c) != 0) {
        printf("C changed\n");
        return 1;
    }
    printf("done\n");
    return 0;
}
