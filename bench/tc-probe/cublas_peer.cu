/*
 * cublas_peer: cuBLAS SGEMM, FP32 and TF32 (CUBLAS_TF32_TENSOR_OP_MATH), on
 * the very operands tc_probe uses (tc_data.h: same generator, seeds, layout
 * and sample), so the issue's accuracy gate ("no larger than cuBLAS FP32's
 * on the same inputs in the same run") and its speed targets can be read
 * off one GPU run. Prints ACCURACY and TIME lines in tc_probe's format.
 *   cublas_peer [acc sizes, e.g. 1024,4096] [timing sizes, e.g. 4096,8192,2048]
 * A is m x k column-major (lda = m); B is stored with n contiguous, which is
 * an n x k column-major matrix: C = A * B is cublasSgemm(N, T).
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_data.h"

#define CUDA(call)                                                                   \
    do {                                                                             \
        cudaError_t e_ = (call);                                                     \
        if (e_ != cudaSuccess) {                                                     \
            printf("FATAL %s: %s\n", #call, cudaGetErrorString(e_));                 \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)
#define CUBLAS(call)                                                                 \
    do {                                                                             \
        cublasStatus_t s_ = (call);                                                  \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                           \
            printf("FATAL %s: cublas status %d\n", #call, (int)s_);                  \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static const char *mode_name(int tf32) { return tf32 ? "cublas-tf32" : "cublas-fp32"; }

/* A is m x k column-major, B is tc_probe's k x n with n contiguous (so
 * transposed for cuBLAS), C is m x n column-major. */
static void gemm(cublasHandle_t h, int tf32, int m, int n, int k, const float *a, const float *b, float *c)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS(cublasSetMathMode(h, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
    CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &one, a, m, b, n, &zero, c, m));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    int acc[8], nacc = 0, tim[8][3], ntim = 0;
    const char *as = argc > 1 ? argv[1] : "1024,4096", *ts = argc > 2 ? argv[2] : "4096,8192,2048";
    for (const char *s = as; s && *s && nacc < 8; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
        acc[nacc++] = atoi(s);
    /* timing sizes: N (a cube) or MxNxK */
    for (const char *s = ts; s && *s && ntim < 8; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
        int q[3];
        const int got = sscanf(s, "%dx%dx%d", &q[0], &q[1], &q[2]);
        if (got != 1 && got != 3)
            continue;
        for (int j = 0; j < 3; ++j)
            tim[ntim][j] = got == 3 ? q[j] : q[0];
        ++ntim;
    }
    if (getenv("NVIDIA_TF32_OVERRIDE"))
        printf("NOTE NVIDIA_TF32_OVERRIDE=%s is set: it changes cuBLAS FP32\n", getenv("NVIDIA_TF32_OVERRIDE"));
    cudaDeviceProp prop;
    CUDA(cudaGetDeviceProperties(&prop, 0));
    int ver = 0;
    cublasHandle_t h;
    CUBLAS(cublasCreate(&h));
    CUBLAS(cublasGetVersion(h, &ver));
    printf("PEER %s, compute capability %d.%d, cuBLAS %d\n", prop.name, prop.major, prop.minor, ver);

    /* Accuracy: tc_probe's operands (seeds 1000 + dist, 2000 + dist) and sample (3000 + dist, 64 x 64). */
    for (int i = 0; i < nacc; ++i) {
        const int n = acc[i];
        const size_t bytes = sizeof(float) * (size_t)n * n;
        float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
        float *da, *db, *dc;
        CUDA(cudaMalloc(&da, bytes));
        CUDA(cudaMalloc(&db, bytes));
        CUDA(cudaMalloc(&dc, bytes));
        for (int dist = 0; dist < 2; ++dist) {
            tcd_fill(a, (size_t)n * n, dist, 1000 + (uint64_t)dist);
            tcd_fill(b, (size_t)n * n, dist, 2000 + (uint64_t)dist);
            tcd_sample sm;
            if (tcd_sample_make(&sm, a, b, n, n, n, n < 64 ? n : 64, n < 64 ? n : 64, 3000 + (uint64_t)dist))
                return 1;
            CUDA(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
            CUDA(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
            for (int tf32 = 0; tf32 < 2; ++tf32) {
                gemm(h, tf32, n, n, n, da, db, dc);
                CUDA(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
                const tcd_metrics g = tcd_measure(&sm, c, (size_t)n), f = tcd_measure(&sm, NULL, 0);
                printf("ACCURACY %s %dx%dx%d %-7s: max|C-C64|/(|A||B|) %.2e  ||C-C64||/||C64|| %.2e  |  host FP32 "
                       "FFMA: %.2e %.2e\n",
                       mode_name(tf32), n, n, n, dist ? "spread" : "uniform", g.max_elem, g.normwise, f.max_elem,
                       f.normwise);
            }
            tcd_sample_free(&sm);
        }
        CUDA(cudaFree(da));
        CUDA(cudaFree(db));
        CUDA(cudaFree(dc));
        free(a);
        free(b);
        free(c);
    }

    /* Timing: kernel time by events, best of 10 after two warm-ups. */
    for (int i = 0; i < ntim; ++i) {
        const int m = tim[i][0], n = tim[i][1], k = tim[i][2];
        const size_t ea = (size_t)m * k, eb = (size_t)k * n, ec = (size_t)m * n;
        float *a = (float *)malloc(sizeof(float) * (ea > eb ? ea : eb)), *da, *db, *dc;
        CUDA(cudaMalloc(&da, sizeof(float) * ea));
        CUDA(cudaMalloc(&db, sizeof(float) * eb));
        CUDA(cudaMalloc(&dc, sizeof(float) * ec));
        tcd_fill(a, ea, 0, 11);
        CUDA(cudaMemcpy(da, a, sizeof(float) * ea, cudaMemcpyHostToDevice));
        tcd_fill(a, eb, 0, 12);
        CUDA(cudaMemcpy(db, a, sizeof(float) * eb, cudaMemcpyHostToDevice));
        char label[48];
        if (m == n && n == k)
            snprintf(label, sizeof label, "%5d^3", m);
        else
            snprintf(label, sizeof label, "%dx%dx%d", m, n, k);
        cudaEvent_t e0, e1;
        CUDA(cudaEventCreate(&e0));
        CUDA(cudaEventCreate(&e1));
        for (int tf32 = 0; tf32 < 2; ++tf32) {
            float best = 1e30f, sum = 0.0f;
            for (int r = -2; r < 10; ++r) {
                CUDA(cudaEventRecord(e0));
                gemm(h, tf32, m, n, k, da, db, dc);
                CUDA(cudaEventRecord(e1));
                CUDA(cudaEventSynchronize(e1));
                float ms = 0.0f;
                CUDA(cudaEventElapsedTime(&ms, e0, e1));
                if (r >= 0) {
                    best = ms < best ? ms : best;
                    sum += ms;
                }
            }
            printf("TIME %s %s: best %.3f ms, mean %.3f ms, %.1f TFLOPS\n", mode_name(tf32), label, best, sum / 10,
                   2.0 * m * (double)n * k / (best * 1e-3) * 1e-12);
        }
        CUDA(cudaFree(da));
        CUDA(cudaFree(db));
        CUDA(cudaFree(dc));
        free(a);
    }
    cublasDestroy(h);
    return 0;
}
