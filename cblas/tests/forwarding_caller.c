/*
 * A program with liboclblas and a BLAS that forwards to it
 * (forwarding_blas.c): its host-pointer calls small enough for the host go
 * to that BLAS first, which calls back into oclblas; the library must
 * notice, compute with its own routine, and never take that BLAS again.
 * Checked: the results (double-precision reference), that the forwarding
 * BLAS was entered at most once per routine, and the report's host BLAS.
 */
#include "oclblas.h"
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int forwarding_calls;

int main(void)
{
    int failures = 0;
    unsigned seed = 3;
    enum { M = 9, N = 7, K = 5 };
    float a[M * N], b[K * N], c[M * N], c0[M * N], x[N], y[M], y0[M];
    ref_fill(a, M * N, &seed); /* M x K for sgemm, M x N for sgemv */
    ref_fill(b, K * N, &seed);
    ref_fill(c, M * N, &seed);
    ref_fill(x, N, &seed);
    ref_fill(y, M, &seed);
    memcpy(c0, c, sizeof c);
    memcpy(y0, y, sizeof y);
    for (int round = 0; round < 3; ++round) {
        memcpy(c, c0, sizeof c);
        oclblas_status st = oclblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, M, N, K, 1.5f, a, M, b,
                                          K, 0.5f, c, M);
        const double r = ref_check_gemm(0, 0, 0, M, N, K, 1.5f, a, M, b, K, 0.5f, c0, c, M, M * N);
        printf("sgemm round %d: %s, error %.3g x bound\n", round, oclblas_status_string(st), r);
        failures += st != OCLBLAS_SUCCESS || !(r <= 1.0);
        memcpy(y, y0, sizeof y);
        st = oclblas_sgemv(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, M, N, -1.0f, a, M, x, 1, 2.0f, y, 1);
        const double rv = ref_check_gemv(0, 0, M, N, -1.0f, a, M, x, 1, 2.0f, y0, y, 1, M);
        printf("sgemv round %d: %s, error %.3g x bound\n", round, oclblas_status_string(st), rv);
        failures += st != OCLBLAS_SUCCESS || !(rv <= 1.0);
    }
    oclblas_host_report rep;
    oclblas_host_report_get(&rep);
    printf("forwarding BLAS entered %d times; last call on the host by %s\n", forwarding_calls, rep.host_blas);
    failures += forwarding_calls > 2 || strcmp(rep.host_blas, "the library's own routine") != 0;
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
