/*
 * liboclblas_cblas as a whole BLAS: this program calls cblas_saxpy and
 * dgemm_, which the drop-in does not implement, and cblas_sgemm, which it
 * does, and is linked with -loclblas_cblas alone. It prints which library
 * each symbol resolved to (the first two must come from the system BLAS,
 * the third from the drop-in) and checks every result against a double
 * loop with a bound that grows with k and the operands' magnitudes
 * (reference.h). Output ends with "passed", or names what FAILED.
 */
#define _GNU_SOURCE
#include "../oclblas_cblas.h"
#include "reference.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Not the drop-in's: declared here as a program with its own cblas.h would. */
void cblas_saxpy(int n, float alpha, const float *x, int incx, float *y, int incy);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, size_t ta_len, size_t tb_len);

static int failures;

static void check(const char *what, double worst)
{
    if (!(worst <= 1.0)) {
        printf("%s: FAILED (error %.3g times its bound)\n", what, worst);
        ++failures;
    }
}

/* The file the dynamic linker binds a symbol to for this program. */
static void where(const char *name)
{
    Dl_info info;
    void *sym = dlsym(RTLD_DEFAULT, name);
    printf("%s from %s\n", name, sym && dladdr(sym, &info) && info.dli_fname ? info.dli_fname : "nowhere");
}

static float value(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

int main(void)
{
    where("cblas_sgemm");
    where("cblas_saxpy");
    where("dgemm_");
    unsigned seed = 7;

    /* cblas_saxpy: y = 2.5 x + y, one rounding per element. */
    enum { N = 1000 };
    float x[N], y[N], y0[N];
    for (int i = 0; i < N; ++i) {
        x[i] = value(&seed);
        y[i] = y0[i] = value(&seed);
    }
    cblas_saxpy(N, 2.5f, x, 1, y, 1);
    double worst = 0.0;
    for (int i = 0; i < N; ++i) {
        const double want = 2.5 * x[i] + y0[i], bound = 2.0 * FLT_EPSILON * (fabs(2.5 * x[i]) + fabs(y0[i])) + FLT_MIN;
        const double r = fabs(y[i] - want) / bound;
        worst = r > worst || isnan(r) ? r : worst;
    }
    check("cblas_saxpy", worst);

    /* dgemm_: column-major C = A B, 37 x 29 x 41, in double. */
    const int m = 37, n = 29, k = 41;
    double *a = malloc(sizeof(double) * m * k), *b = malloc(sizeof(double) * k * n), *c = malloc(sizeof(double) * m * n);
    for (int i = 0; i < m * k; ++i)
        a[i] = value(&seed);
    for (int i = 0; i < k * n; ++i)
        b[i] = value(&seed);
    const double one = 1.0, zero = 0.0;
    dgemm_("N", "N", &m, &n, &k, &one, a, &m, b, &k, &zero, c, &m, 1, 1);
    worst = 0.0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double want = 0.0, mag = 0.0;
            for (int p = 0; p < k; ++p) {
                want += a[i + p * m] * b[p + j * k];
                mag += fabs(a[i + p * m] * b[p + j * k]);
            }
            const double r = fabs(c[i + j * m] - want) / (2.0 * k * DBL_EPSILON * mag + DBL_MIN);
            worst = r > worst || isnan(r) ? r : worst;
        }
    check("dgemm_", worst);
    free(a);
    free(b);
    free(c);

    /* cblas_sgemm: row-major C = A B + 0.5 C, 150 x 140 x 130 (a device kernel's size). */
    const size_t M = 150, Nn = 140, K = 130;
    float *fa = malloc(sizeof(float) * M * K), *fb = malloc(sizeof(float) * K * Nn);
    float *fc = malloc(sizeof(float) * M * Nn), *fc0 = malloc(sizeof(float) * M * Nn);
    for (size_t i = 0; i < M * K; ++i)
        fa[i] = value(&seed);
    for (size_t i = 0; i < K * Nn; ++i)
        fb[i] = value(&seed);
    for (size_t i = 0; i < M * Nn; ++i)
        fc[i] = fc0[i] = value(&seed);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)Nn, (int)K, 1.0f, fa, (int)K, fb, (int)Nn,
                0.5f, fc, (int)Nn);
    check("cblas_sgemm", ref_check_gemm(1, 0, 0, M, Nn, K, 1.0f, fa, K, fb, Nn, 0.5f, fc0, fc, Nn, M * Nn));
    free(fa);
    free(fb);
    free(fc);
    free(fc0);

    printf(failures ? "FAILED\n" : "passed\n");
    return failures != 0;
}
