/*
 * cuBLAS as a peer, when the CUDA toolkit was there at build time and a CUDA
 * device is there at run time: FP32 math (the default mode, no TF32) on one
 * handle, and on a second handle TF32 tensor-core math
 * (CUBLAS_TF32_TENSOR_OP_MATH: SGEMM with operands rounded to TF32, the
 * peer of oclblas's tf32 mode and the speed its accurate mode competes
 * with). Timed with CUDA events around back-to-back calls, like the OpenCL
 * peers. Row-major problems use the usual identity C^T = B^T A^T, so cuBLAS
 * sees column-major operands.
 */
#include "peers.h"

#ifdef OCLBLAS_BENCH_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdio.h>

static cublasHandle_t handles[2]; /* FP32, TF32 */

int cublas_available(char *device_name, size_t len)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return 0;
    for (int tf32 = 0; tf32 < 2; ++tf32)
        if (!handles[tf32] && cublasCreate(&handles[tf32]) != CUBLAS_STATUS_SUCCESS)
            return 0;
    /* Plain FP32: the default mode uses no TF32 unless asked to. */
    if (cublasSetMathMode(handles[0], CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(handles[1], CUBLAS_TF32_TENSOR_OP_MATH) != CUBLAS_STATUS_SUCCESS)
        return 0;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
        snprintf(device_name, len, "%s", prop.name);
    return 1;
}

static int one_call(cublasHandle_t handle, int gemm, const bench_problem *p, const float *a, const float *b, float *c)
{
    cublasStatus_t st;
    if (gemm) {
        const size_t ar = p->trans_a ? p->k : p->m, ac = p->trans_a ? p->m : p->k;
        const size_t br = p->trans_b ? p->n : p->k, bc = p->trans_b ? p->k : p->n;
        const cublasOperation_t ta = p->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, tb = p->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
        if (p->col_major)
            st = cublasSgemm(handle, ta, tb, (int)p->m, (int)p->n, (int)p->k, &p->alpha, a, (int)ar, b, (int)br,
                             &p->beta, c, (int)p->m);
        else
            st = cublasSgemm(handle, tb, ta, (int)p->n, (int)p->m, (int)p->k, &p->alpha, b, (int)bc, a, (int)ac,
                             &p->beta, c, (int)p->n);
    } else {
        /* Row-major A is column-major A^T. */
        const int t = p->col_major ? p->trans_a : !p->trans_a;
        const int rows = (int)(p->col_major ? p->m : p->n), cols = (int)(p->col_major ? p->n : p->m);
        st = cublasSgemv(handle, t ? CUBLAS_OP_T : CUBLAS_OP_N, rows, cols, &p->alpha, a, rows, b, 1, &p->beta, c, 1);
    }
    return st == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

int cublas_run(int gemm, int tf32, const bench_problem *p, const bench_data *d, int reps, bench_time *t)
{
    const cublasHandle_t handle = handles[tf32 != 0];
    size_t na, nb, nc;
    if (gemm) {
        na = p->m * p->k;
        nb = p->k * p->n;
        nc = p->m * p->n;
    } else {
        na = p->m * p->n;
        nb = p->trans_a ? p->m : p->n;
        nc = p->trans_a ? p->n : p->m;
    }
    float *a = NULL, *b = NULL, *c = NULL;
    int rc = -1;
    cudaEvent_t e0 = NULL, e1 = NULL;
    if (cudaMalloc((void **)&a, na * 4) != cudaSuccess || cudaMalloc((void **)&b, nb * 4) != cudaSuccess ||
        cudaMalloc((void **)&c, nc * 4) != cudaSuccess)
        goto done;
    cudaMemcpy(a, d->a, na * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, d->b, nb * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(c, d->c, nc * 4, cudaMemcpyHostToDevice);
    if (one_call(handle, gemm, p, a, b, c) != 0) /* warm-up */
        goto done;
    if (d->out) {
        cudaMemcpy(d->out, c, nc * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(c, d->c, nc * 4, cudaMemcpyHostToDevice);
    }
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaDeviceSynchronize();
    double w0 = bench_now();
    if (one_call(handle, gemm, p, a, b, c) != 0)
        goto done;
    cudaDeviceSynchronize();
    reps = bench_reps(reps, bench_now() - w0);
    w0 = bench_now();
    cudaEventRecord(e0, 0);
    for (int r = 0; r < reps; ++r)
        if (one_call(handle, gemm, p, a, b, c) != 0)
            goto done;
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    const double w1 = bench_now();
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    t->device_s = ms * 1e-3 / reps;
    t->wall_s = (w1 - w0) / reps;
    rc = 0;
done:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return rc;
}

#else

int cublas_available(char *device_name, size_t len)
{
    (void)device_name, (void)len;
    return 0;
}
int cublas_run(int gemm, int tf32, const bench_problem *p, const bench_data *d, int reps, bench_time *t)
{
    (void)gemm, (void)tf32, (void)p, (void)d, (void)reps, (void)t;
    return -1;
}

#endif
