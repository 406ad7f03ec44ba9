/*
 * A program linked against the system BLAS only (pkg-config blas): it knows
 * nothing of oclblas. It calls cblas_sgemm, cblas_sgemv, sgemm_ and sgemv_,
 * checks the results against the double-precision reference, and reports
 * which loaded library each symbol came from. With the argument "oclblas"
 * every symbol must come from liboclblas_cblas (ctest runs it with
 * LD_PRELOAD, and OCLBLAS_VERBOSE=1 so that check.cmake also sees the plans
 * on stderr); with "system" none may, and no oclblas library may be loaded.
 */
#define _GNU_SOURCE
#include "reference.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The netlib declarations, written out: the program includes no BLAS header. */
enum { RowMajor = 101, ColMajor = 102, NoTrans = 111, Trans = 112, ConjTrans = 113 };
void cblas_sgemm(int layout, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                 const float *b, int ldb, float beta, float *c, int ldc);
void cblas_sgemv(int layout, int t, int m, int n, float alpha, const float *a, int lda, const float *x, int incx,
                 float beta, float *y, int incy);
void sgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc, size_t, size_t);
void sgemv_(const char *t, const int *m, const int *n, const float *alpha, const float *a, const int *lda,
            const float *x, const int *incx, const float *beta, float *y, const int *incy, size_t);

static int failures;

/* Where the dynamic linker resolves a name for this program: the first
 * definition in its global scope, a preloaded library before the rest. */
static void expect_source(const char *name, int want_oclblas)
{
    void *addr = dlsym(RTLD_DEFAULT, name);
    Dl_info info;
    const char *lib = dladdr(addr, &info) && info.dli_fname ? info.dli_fname : "?";
    const int is_oclblas = strstr(lib, "liboclblas_cblas") != NULL;
    printf("%-12s from %s\n", name, lib);
    if (is_oclblas != want_oclblas) {
        printf("  expected it %s liboclblas_cblas\n", want_oclblas ? "from" : "not from");
        ++failures;
    }
}

static int find_oclblas(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    if (info->dlpi_name && strstr(info->dlpi_name, "oclblas"))
        *(const char **)data = info->dlpi_name;
    return 0;
}

static void check(const char *what, double r)
{
    printf("%-40s error %.3g x bound\n", what, r);
    if (!(r <= 1.0))
        ++failures;
}

static void gemm(int fortran, int row, int ta, int tb, int m, int n, int k, unsigned seed)
{
    const int lda = row ? (ta ? m : k) : (ta ? k : m), ldb = row ? (tb ? k : n) : (tb ? n : k), ldc = row ? n : m;
    const size_t ac = (size_t)m * k, bc = (size_t)k * n, cc = (size_t)m * n;
    float *a = malloc(ac * 4), *b = malloc(bc * 4), *c = malloc(cc * 4), *c0 = malloc(cc * 4);
    ref_fill(a, ac, &seed);
    ref_fill(b, bc, &seed);
    ref_fill(c, cc, &seed);
    memcpy(c0, c, cc * 4);
    const float alpha = 1.25f, beta = -0.5f;
    if (fortran)
        sgemm_(ta ? "T" : "N", tb ? "C" : "n", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
    else
        cblas_sgemm(row ? RowMajor : ColMajor, ta ? Trans : NoTrans, tb ? ConjTrans : NoTrans, m, n, k, alpha, a, lda,
                    b, ldb, beta, c, ldc);
    char what[64];
    snprintf(what, sizeof what, "%s %dx%dx%d", fortran ? "sgemm_" : "cblas_sgemm", m, n, k);
    check(what, ref_check_gemm(row, ta, tb, (size_t)m, (size_t)n, (size_t)k, alpha, a, (size_t)lda, b, (size_t)ldb,
                               beta, c0, c, (size_t)ldc, cc));
    free(a);
    free(b);
    free(c);
    free(c0);
}

static void gemv(int fortran, int row, int t, int m, int n, int incx, int incy, unsigned seed)
{
    const int lda = row ? n : m, lx = t ? m : n, ly = t ? n : m;
    const size_t ac = (size_t)m * n, xc = (size_t)(lx - 1) * abs(incx) + 1, yc = (size_t)(ly - 1) * abs(incy) + 1;
    float *a = malloc(ac * 4), *x = malloc(xc * 4), *y = malloc(yc * 4), *y0 = malloc(yc * 4);
    ref_fill(a, ac, &seed);
    ref_fill(x, xc, &seed);
    ref_fill(y, yc, &seed);
    memcpy(y0, y, yc * 4);
    const float alpha = -1.5f, beta = 2.0f;
    if (fortran)
        sgemv_(t ? "t" : "N", &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);
    else
        cblas_sgemv(row ? RowMajor : ColMajor, t ? Trans : NoTrans, m, n, alpha, a, lda, x, incx, beta, y, incy);
    char what[64];
    snprintf(what, sizeof what, "%s %dx%d", fortran ? "sgemv_" : "cblas_sgemv", m, n);
    check(what, ref_check_gemv(row, t, (size_t)m, (size_t)n, alpha, a, (size_t)lda, x, incx, beta, y0, y, incy, yc));
    free(a);
    free(x);
    free(y);
    free(y0);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "oclblas") && strcmp(argv[1], "system"))) {
        fprintf(stderr, "usage: %s oclblas|system\n", argv[0]);
        return 2;
    }
    const int want = strcmp(argv[1], "oclblas") == 0;
    expect_source("cblas_sgemm", want);
    expect_source("cblas_sgemv", want);
    expect_source("sgemm_", want);
    expect_source("sgemv_", want);
    const char *loaded = NULL;
    dl_iterate_phdr(find_oclblas, &loaded);
    if (!want && loaded) {
        printf("oclblas is loaded (%s) although nothing asked for it\n", loaded);
        ++failures;
    }
    /* Tiny (the host path), then sizes that reach the device's kernels. */
    gemm(0, 1, 0, 0, 4, 3, 5, 1);
    gemm(0, 1, 1, 1, 70, 60, 50, 2);
    gemm(0, 0, 0, 1, 150, 140, 130, 3);
    gemm(1, 0, 1, 0, 65, 33, 40, 4);
    gemv(0, 1, 0, 400, 300, 1, -2, 5);
    gemv(0, 0, 1, 6, 5, 2, 1, 6);
    gemv(1, 0, 1, 1500, 1450, -1, 1, 7); /* above any HOST_MAX (128^3) */
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
