/*
 * The drop-in library from C: cblas_sgemm and the Fortran-style sgemm_ of
 * liboclblas_cblas, declared by oclblas_cblas.h. sgemm_ takes the hidden
 * lengths of its character arguments last, as the header declares them (1
 * for a one-letter argument). The same program links unchanged against any
 * other CBLAS.
 *
 *   cc dropin.c -o dropin $(pkg-config --cflags --libs oclblas_cblas)
 */
#include <oclblas_cblas.h>

#include <float.h>
#include <math.h>
#include <stdio.h>

enum { M = 64, N = 48, K = 80 };

/* Worst ratio of error to bound over column-major C = A B. */
static double worst(const float *a, const float *b, const float *c)
{
    double w = 0;
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < M; ++i) {
            double sum = 0, mag = 0;
            for (int p = 0; p < K; ++p) {
                sum += (double)a[i + p * M] * b[p + j * K];
                mag += fabs((double)a[i + p * M] * b[p + j * K]);
            }
            const double r = fabs(c[i + j * M] - sum) / (4.0 * (K + 2) * FLT_EPSILON * mag + FLT_MIN);
            w = r > w || isnan(r) ? r : w;
        }
    return w;
}

int main(void)
{
    static float a[M * K], b[K * N], c1[M * N], c2[M * N];
    for (int i = 0; i < M * K; ++i)
        a[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    for (int i = 0; i < K * N; ++i)
        b[i] = (float)((i * 53) % 97) / 48.0f - 1.0f;

    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, M, b, K, 0.0f, c1, M);
    const int m = M, n = N, k = K;
    const float one = 1.0f, zero = 0.0f;
    sgemm_("N", "N", &m, &n, &k, &one, a, &m, b, &k, &zero, c2, &m, 1, 1);

    const double w1 = worst(a, b, c1), w2 = worst(a, b, c2);
    printf("drop-in: cblas_sgemm error/bound %.3f, sgemm_ error/bound %.3f\n", w1, w2);
    return w1 <= 1 && w2 <= 1 ? 0 : 1;
}
