/*
 * Test data and accuracy metrics shared by tc_probe.c (the OpenCL harness of
 * kernels/gemm_tc.cl) and cublas_peer.cu (cuBLAS on the same inputs), so
 * that both see bit-identical operands and report the same measures.
 *
 * Layout (the kernel's, and what cuBLAS reads as A * B^T): A is m x k
 * column-major with leading dimension m (a[kk * m + i]); B is stored with n
 * contiguous (b[kk * n + j]); C is m x n column-major, leading dimension m.
 * Distributions: 0 "uniform" in [-1, 1); 1 "spread": a standard normal value
 * times 2^e, e uniform in -8..8 (the accuracy gate).
 * Metrics over a sample of rows x columns of C, against a float64
 * reference: the largest |C - C64| / (|A||B|) (elementwise, |A||B| =
 * sum_k |a_ik b_kj|) and sqrt(sum (C - C64)^2 / sum C64^2) (norm-wise).
 */
#ifndef TC_DATA_H
#define TC_DATA_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline uint64_t tcd_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [-1, 1), 24 bits. */
static inline float tcd_uniform(uint64_t *s) { return (float)((double)(tcd_next(s) >> 40) * 0x1p-23 - 1.0); }
/* (0, 1] */
static inline double tcd_unit(uint64_t *s) { return ((double)(tcd_next(s) >> 11) + 1.0) * 0x1p-53; }
static inline float tcd_spread(uint64_t *s)
{
    const double u1 = tcd_unit(s), u2 = tcd_unit(s);
    const double normal = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    const int e = (int)(tcd_next(s) % 17) - 8;
    return (float)ldexp(normal, e);
}

/* Fills n floats with distribution dist (0 uniform, 1 spread) from seed. */
static inline void tcd_fill(float *x, size_t n, int dist, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; ++i)
        x[i] = dist ? tcd_spread(&s) : tcd_uniform(&s);
}

typedef struct {
    int rows, cols;  /* the sample is rows x cols elements of C */
    int *ri, *cj;    /* their indices */
    double *ref;     /* float64 reference, rows x cols (row-major) */
    double *absref;  /* |A||B| */
    float *ffma;     /* FP32 sequential fmaf in k order: a cuBLAS-FP32-like baseline */
} tcd_sample;

typedef struct {
    double max_elem; /* max |C - C64| / (|A||B|) */
    double normwise; /* ||C - C64|| / ||C64|| over the sample */
    int nonfinite;   /* elements of the sample that are Inf or NaN */
} tcd_metrics;

/* Picks rows x cols distinct-ish positions and computes their references. */
static inline int tcd_sample_make(tcd_sample *sm, const float *a, const float *b, int m, int n, int k, int rows,
                                  int cols, uint64_t seed)
{
    sm->rows = rows;
    sm->cols = cols;
    sm->ri = (int *)malloc(sizeof(int) * (size_t)rows);
    sm->cj = (int *)malloc(sizeof(int) * (size_t)cols);
    sm->ref = (double *)malloc(sizeof(double) * (size_t)rows * cols);
    sm->absref = (double *)malloc(sizeof(double) * (size_t)rows * cols);
    sm->ffma = (float *)malloc(sizeof(float) * (size_t)rows * cols);
    float *arow = (float *)malloc(sizeof(float) * (size_t)k), *bcol = (float *)malloc(sizeof(float) * (size_t)k * cols);
    if (!sm->ri || !sm->cj || !sm->ref || !sm->absref || !sm->ffma || !arow || !bcol) {
        free(arow);
        free(bcol);
        return -1;
    }
    uint64_t s = seed;
    for (int i = 0; i < rows; ++i)
        sm->ri[i] = rows >= m ? i : (int)(tcd_next(&s) % (uint64_t)m);
    for (int j = 0; j < cols; ++j)
        sm->cj[j] = cols >= n ? j : (int)(tcd_next(&s) % (uint64_t)n);
    /* Gather the sampled columns of B once (contiguous in k), then each row of A. */
    for (int j = 0; j < cols; ++j)
        for (int kk = 0; kk < k; ++kk)
            bcol[(size_t)j * k + kk] = b[(size_t)kk * n + sm->cj[j]];
    for (int i = 0; i < rows; ++i) {
        for (int kk = 0; kk < k; ++kk)
            arow[kk] = a[(size_t)kk * m + sm->ri[i]];
        for (int j = 0; j < cols; ++j) {
            const float *bc = bcol + (size_t)j * k;
            double r = 0.0, ab = 0.0;
            float f = 0.0f;
            for (int kk = 0; kk < k; ++kk) {
                const double p = (double)arow[kk] * (double)bc[kk];
                r += p;
                ab += fabs(p);
                f = fmaf(arow[kk], bc[kk], f);
            }
            sm->ref[(size_t)i * cols + j] = r;
            sm->absref[(size_t)i * cols + j] = ab;
            sm->ffma[(size_t)i * cols + j] = f;
        }
    }
    free(arow);
    free(bcol);
    return 0;
}

static inline void tcd_sample_free(tcd_sample *sm)
{
    free(sm->ri);
    free(sm->cj);
    free(sm->ref);
    free(sm->absref);
    free(sm->ffma);
}

/* Metrics of C (column-major, leading dimension ldc) on the sample; with
 * c == NULL, of the FP32 FFMA baseline. */
static inline tcd_metrics tcd_measure(const tcd_sample *sm, const float *c, size_t ldc)
{
    tcd_metrics r = {0.0, 0.0, 0};
    double num = 0.0, den = 0.0;
    for (int i = 0; i < sm->rows; ++i)
        for (int j = 0; j < sm->cols; ++j) {
            const size_t s = (size_t)i * sm->cols + j;
            const float got = c ? c[(size_t)sm->cj[j] * ldc + sm->ri[i]] : sm->ffma[s];
            if (!isfinite(got)) {
                r.nonfinite++;
                continue;
            }
            const double e = fabs((double)got - sm->ref[s]);
            if (sm->absref[s] > 0.0 && e / sm->absref[s] > r.max_elem)
                r.max_elem = e / sm->absref[s];
            num += e * e;
            den += sm->ref[s] * sm->ref[s];
        }
    r.normwise = den > 0.0 ? sqrt(num / den) : 0.0;
    return r;
}

#endif
