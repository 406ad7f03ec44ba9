/*
 * oclblas-batch-timing: strided-batched SGEMM on device buffers, oclblas
 * against cuBLAS's cublasSgemmStridedBatched (FP32 math, when the CUDA
 * toolkit was there at build time), on the batched problems of issue 24
 * (1000 x 32^3, 256 x 128^3, 64 x 512^3, 16 x 1024^3, 64 heads of
 * 128 x 128 x 64; column- and row-major, NN and TN), in the library's
 * strict and accurate modes; a stopgap until oclblas-bench takes --batch.
 * Each call is timed back to back after a warm-up (the median of five runs
 * of reps calls; wall time around the queue's finish for oclblas, CUDA
 * events for cuBLAS), and checked on sampled elements against float64.
 * Usage: oclblas-batch-timing [reps]   (default 20)
 */
#include "oclblas.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef OCLBLAS_BENCH_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

typedef struct {
    const char *name;
    size_t count, m, n, k;
} shape;

static const shape shapes[] = {
    {"1000 x 32^3", 1000, 32, 32, 32},   {"256 x 128^3", 256, 128, 128, 128}, {"64 x 512^3", 64, 512, 512, 512},
    {"16 x 1024^3", 16, 1024, 1024, 1024}, {"attention 64 x 128x128x64", 64, 128, 128, 64},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median5(double *t)
{
    qsort(t, 5, sizeof *t, by_value);
    return t[2];
}

/* Element (i, j) of C = op(A) op(B) in float64, for the sampled check. */
static double reference(int col, int ta, const float *a, const float *b, size_t m, size_t n, size_t k, size_t i,
                        size_t j)
{
    const size_t lda = col ? (ta ? k : m) : (ta ? m : k), ldb = col ? k : n;
    double sum = 0.0;
    for (size_t l = 0; l < k; ++l) {
        const size_t ai = ta ? (col ? l + i * lda : l * lda + i) : (col ? i + l * lda : i * lda + l);
        sum += (double)a[ai] * (double)b[col ? l + j * ldb : l * ldb + j];
    }
    return sum;
}

/* The worst relative error over a few elements of the first and last problems. */
static double sampled_error(int col, int ta, const shape *s, const float *a, const float *b, const float *c)
{
    const size_t sa = s->m * s->k, sb = s->k * s->n, sc = s->m * s->n, ldc = col ? s->m : s->n;
    double worst = 0.0;
    for (size_t p = 0; p < s->count; p += s->count - 1) {
        for (int e = 0; e < 8; ++e) {
            const size_t i = (size_t)e * 7919 % s->m, j = (size_t)e * 104729 % s->n;
            const double want = reference(col, ta, a + p * sa, b + p * sb, s->m, s->n, s->k, i, j);
            const double got = c[p * sc + (col ? i + j * ldc : i * ldc + j)];
            const double err = fabs(got - want) / (fabs(want) + 1e-3 * sqrt((double)s->k));
            if (!(err <= worst))
                worst = err;
        }
        if (s->count == 1)
            break;
    }
    return worst;
}

#ifdef OCLBLAS_BENCH_CUBLAS
/* Seconds per call of cuBLAS's strided batch (FP32 math); NAN if it fails. */
static double cublas_time(int col, int ta, const shape *s, const float *a, const float *b, int reps, float *c_out)
{
    static cublasHandle_t h;
    if (!h && (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS ||
               cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS))
        return NAN;
    const size_t na = s->count * s->m * s->k, nb = s->count * s->k * s->n, nc = s->count * s->m * s->n;
    float *da, *db, *dc;
    if (cudaMalloc((void **)&da, na * 4) != cudaSuccess || cudaMalloc((void **)&db, nb * 4) != cudaSuccess ||
        cudaMalloc((void **)&dc, nc * 4) != cudaSuccess)
        return NAN;
    cudaMemcpy(da, a, na * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, nb * 4, cudaMemcpyHostToDevice);
    const float alpha = 1.0f, beta = 0.0f;
    const int m = (int)s->m, n = (int)s->n, k = (int)s->k;
    const cublasOperation_t op = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    /* Row-major: C^T = B^T A^T, column-major for cuBLAS. */
    const int lda = col ? (ta ? k : m) : (ta ? m : k), ldb = col ? k : n;
#define CALL()                                                                                                    \
    (col ? cublasSgemmStridedBatched(h, op, CUBLAS_OP_N, m, n, k, &alpha, da, lda, (long long)(s->m * s->k), db, \
                                     ldb, (long long)(s->k * s->n), &beta, dc, m, (long long)(s->m * s->n),       \
                                     (int)s->count)                                                               \
         : cublasSgemmStridedBatched(h, CUBLAS_OP_N, op, n, m, k, &alpha, db, ldb, (long long)(s->k * s->n), da,  \
                                     lda, (long long)(s->m * s->k), &beta, dc, n, (long long)(s->m * s->n),       \
                                     (int)s->count))
    double t[5] = {NAN, NAN, NAN, NAN, NAN};
    if (CALL() == CUBLAS_STATUS_SUCCESS) {
        cudaEvent_t e0, e1;
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
        for (int r = 0; r < 5; ++r) {
            cudaEventRecord(e0, 0);
            for (int i = 0; i < reps; ++i)
                CALL();
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, e0, e1);
            t[r] = ms * 1e-3 / reps;
        }
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        cudaMemcpy(c_out, dc, nc * 4, cudaMemcpyDeviceToHost);
    }
#undef CALL
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return median5(t);
}
#endif

/* Seconds per call of oclblas's strided batch on device buffers; NAN if it fails. */
static double oclblas_time(int col, int ta, const shape *s, const float *a, const float *b, int reps, float *c_out)
{
    cl_context ctx;
    cl_command_queue q;
    if (oclblas_default_device(NULL, &ctx, &q) != OCLBLAS_SUCCESS)
        return NAN;
    const size_t na = s->count * s->m * s->k, nb = s->count * s->k * s->n, nc = s->count * s->m * s->n;
    cl_int e1, e2, e3;
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, na * 4, (void *)a, &e1);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nb * 4, (void *)b, &e2);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nc * 4, NULL, &e3);
    double t[5] = {NAN, NAN, NAN, NAN, NAN};
    const size_t lda = col ? (ta ? s->k : s->m) : (ta ? s->m : s->k), ldb = col ? s->k : s->n, ldc = col ? s->m : s->n;
#define CALL()                                                                                                       \
    oclblas_sgemm_strided_batched_cl(col ? OCLBLAS_COL_MAJOR : OCLBLAS_ROW_MAJOR, ta ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, \
                                     OCLBLAS_NO_TRANS, s->m, s->n, s->k, 1.0f, da, 0, lda, s->m * s->k, db, 0, ldb,   \
                                     s->k * s->n, 0.0f, dc, 0, ldc, s->m * s->n, s->count, q, NULL)
    oclblas_status st = e1 || e2 || e3 ? OCLBLAS_OUT_OF_HOST_MEMORY : CALL();
    if (st == OCLBLAS_SUCCESS && clFinish(q) == CL_SUCCESS) {
        for (int r = 0; r < 5 && st == OCLBLAS_SUCCESS; ++r) {
            const double t0 = now();
            for (int i = 0; i < reps && st == OCLBLAS_SUCCESS; ++i)
                st = CALL();
            clFinish(q);
            t[r] = (now() - t0) / reps;
        }
        clEnqueueReadBuffer(q, dc, CL_TRUE, 0, nc * 4, c_out, 0, NULL, NULL);
    }
#undef CALL
    if (st != OCLBLAS_SUCCESS)
        fprintf(stderr, "oclblas: %s\n", oclblas_status_string(st));
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    return st == OCLBLAS_SUCCESS ? median5(t) : NAN;
}

int main(int argc, char **argv)
{
    const int reps = argc > 1 ? atoi(argv[1]) : 20;
    if (reps < 1) {
        fprintf(stderr, "usage: %s [reps]\n", argv[0]);
        return 2;
    }
    printf("%-27s %-6s %-8s %10s %8s %10s %8s %7s %9s\n", "problem", "layout", "mode", "oclblas ms", "TFLOPS",
           "cuBLAS ms", "TFLOPS", "ratio", "max err");
    unsigned seed = 1;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        const shape *s = &shapes[i];
        const size_t na = s->count * s->m * s->k, nb = s->count * s->k * s->n, nc = s->count * s->m * s->n;
        float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4), *cc = malloc(nc * 4);
        if (!a || !b || !c || !cc)
            return 1;
        for (size_t e = 0; e < na; ++e)
            a[e] = (float)((seed = seed * 1664525u + 1013904223u) >> 8) / 8388608.0f - 1.0f;
        for (size_t e = 0; e < nb; ++e)
            b[e] = (float)((seed = seed * 1664525u + 1013904223u) >> 8) / 8388608.0f - 1.0f;
        const double flops = 2.0 * (double)s->count * (double)s->m * (double)s->n * (double)s->k;
        for (int variant = 0; variant < 3; ++variant) {
            const int col = variant != 1, ta = variant == 2;
            const char *layout = variant == 0 ? "col NN" : variant == 1 ? "row NN" : "col TN";
            double tc = NAN;
#ifdef OCLBLAS_BENCH_CUBLAS
            tc = cublas_time(col, ta, s, a, b, reps, cc);
#endif
            for (int mode = OCLBLAS_MATH_STRICT; mode <= OCLBLAS_MATH_ACCURATE; ++mode) {
                oclblas_set_math_mode((oclblas_math_mode)mode);
                memset(c, 0, nc * 4);
                const double to = oclblas_time(col, ta, s, a, b, reps, c);
                printf("%-27s %-6s %-8s %10.4f %8.2f %10.4f %8.2f %7.2f %9.2e\n", s->name, layout,
                       oclblas_math_mode_name((oclblas_math_mode)mode), to * 1e3, flops / to * 1e-12, tc * 1e3,
                       flops / tc * 1e-12, tc / to, sampled_error(col, ta, s, a, b, c));
                fflush(stdout);
            }
        }
        free(a);
        free(b);
        free(c);
        free(cc);
    }
    return 0;
}
