/*
 * cuBLAS as a peer, loaded at run time where a CUDA driver, a CUDA GPU and
 * the toolkit's libcublas and libcudart are found: FP32 math (the default,
 * no TF32) on one handle, and on a second handle TF32 tensor-core math
 * (the peer of oclblas's tf32 mode and the speed its accurate mode
 * competes with). Timed with CUDA events around back-to-back calls, like
 * the OpenCL peers. Row-major problems use the identity C^T = B^T A^T, so
 * cuBLAS sees column-major operands. A batch is one strided-batched call.
 */
#include "peers.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

/* The CUDA runtime and cuBLAS calls the bench makes, declared here
 * (0 is success everywhere; handles, streams and events are pointers). */
enum { CUDA_TO_DEVICE = 1, CUDA_TO_HOST = 2 };
enum { CUBLAS_NO_TRANS = 0, CUBLAS_TRANS = 1, CUBLAS_FP32_MATH = 0, CUBLAS_TF32_MATH = 3 };
static struct {
    int (*cudaMalloc)(void **p, size_t bytes);
    int (*cudaFree)(void *p);
    int (*cudaMemcpy)(void *dst, const void *src, size_t bytes, int kind);
    int (*cudaDeviceSynchronize)(void);
    int (*cudaEventCreate)(void **ev);
    int (*cudaEventRecord)(void *ev, void *stream);
    int (*cudaEventSynchronize)(void *ev);
    int (*cudaEventElapsedTime)(float *ms, void *start, void *end);
    int (*cudaEventDestroy)(void *ev);
    int (*cublasCreate)(void **handle);
    int (*cublasSetMathMode)(void *handle, int mode);
    int (*cublasSgemm)(void *h, int ta, int tb, int m, int n, int k, const float *alpha, const float *a, int lda,
                       const float *b, int ldb, const float *beta, float *c, int ldc);
    int (*cublasSgemv)(void *h, int t, int m, int n, const float *alpha, const float *a, int lda, const float *x,
                       int incx, const float *beta, float *y, int incy);
    int (*cublasSgemmStridedBatched)(void *h, int ta, int tb, int m, int n, int k, const float *alpha,
                                     const float *a, int lda, long long stride_a, const float *b, int ldb,
                                     long long stride_b, const float *beta, float *c, int ldc, long long stride_c,
                                     int batch);
    /* NULL in a cuBLAS before 11.6 */
    int (*cublasSgemvStridedBatched)(void *h, int t, int m, int n, const float *alpha, const float *a, int lda,
                                     long long stride_a, const float *x, int incx, long long stride_x,
                                     const float *beta, float *y, int incy, long long stride_y, int batch);
} cu;

static int state; /* 0 not tried, 1 ready, -1 absent */
static char note[1200], device_name[256];
static void *handles[2]; /* FP32, TF32 */

/* libcublas and libcudart of one toolkit version, newest first. */
static int load_toolkit(void)
{
    static const char *const versions[] = {"13", "12", "11", ""};
    const bench_symbol runtime[] = {{"cudaMalloc", (void **)&cu.cudaMalloc},
                                    {"cudaFree", (void **)&cu.cudaFree},
                                    {"cudaMemcpy", (void **)&cu.cudaMemcpy},
                                    {"cudaDeviceSynchronize", (void **)&cu.cudaDeviceSynchronize},
                                    {"cudaEventCreate", (void **)&cu.cudaEventCreate},
                                    {"cudaEventRecord", (void **)&cu.cudaEventRecord},
                                    {"cudaEventSynchronize", (void **)&cu.cudaEventSynchronize},
                                    {"cudaEventElapsedTime", (void **)&cu.cudaEventElapsedTime},
                                    {"cudaEventDestroy", (void **)&cu.cudaEventDestroy},
                                    {NULL, NULL}};
    const bench_symbol blas[] = {{"cublasCreate_v2", (void **)&cu.cublasCreate},
                                 {"cublasSetMathMode", (void **)&cu.cublasSetMathMode},
                                 {"cublasSgemm_v2", (void **)&cu.cublasSgemm},
                                 {"cublasSgemv_v2", (void **)&cu.cublasSgemv},
                                 {"cublasSgemmStridedBatched", (void **)&cu.cublasSgemmStridedBatched},
                                 {NULL, NULL}};
    for (int v = 0; v < 4; ++v) {
        char blas_name[64], rt_name[64], blas_path[512], rt_path[512], missing[64];
        snprintf(blas_name, sizeof blas_name, "libcublas.so%s%s", *versions[v] ? "." : "", versions[v]);
        snprintf(rt_name, sizeof rt_name, "libcudart.so%s%s", *versions[v] ? "." : "", versions[v]);
        const char *const bn[] = {blas_name, NULL}, *const rn[] = {rt_name, NULL};
        void *b = bench_load(bn, bench_cuda_dirs(), blas_path, sizeof blas_path);
        void *r = b ? bench_load(rn, bench_cuda_dirs(), rt_path, sizeof rt_path) : NULL;
        if (!b || !r) {
            if (b)
                dlclose(b);
            continue;
        }
        if (bench_symbols(r, runtime, missing, sizeof missing) != 0 ||
            bench_symbols(b, blas, missing, sizeof missing) != 0) {
            snprintf(note, sizeof note, "%s or %s has no %s", blas_path, rt_path, missing);
            return -1;
        }
        *(void **)&cu.cublasSgemvStridedBatched = dlsym(b, "cublasSgemvStridedBatched");
        snprintf(note, sizeof note, "%s on %s", blas_path, device_name);
        return 0;
    }
    snprintf(note, sizeof note, "cuBLAS not found (libcublas.so.13, .12, .11 with libcudart, on the loader's path or "
                                "in $CUDA_HOME, /usr/local/cuda)");
    return -1;
}

int cublas_available(const char **why)
{
    if (state == 0) {
        state = -1;
        if (bench_cuda_gpu(device_name, sizeof device_name, note, sizeof note) == 0 && load_toolkit() == 0) {
            /* Plain FP32 on one handle: the default mode uses no TF32 unless asked to. */
            if (cu.cublasCreate(&handles[0]) != 0 || cu.cublasCreate(&handles[1]) != 0 ||
                cu.cublasSetMathMode(handles[0], CUBLAS_FP32_MATH) != 0 ||
                cu.cublasSetMathMode(handles[1], CUBLAS_TF32_MATH) != 0)
                snprintf(note, sizeof note, "cuBLAS could not make its handles on %s", device_name);
            else
                state = 1;
        }
    }
    if (why)
        *why = note;
    return state == 1;
}

const char *cublas_device(void) { return state == 1 ? device_name : ""; }

static int one_call(void *handle, const bench_problem *p, const float *a, const float *b, float *c)
{
    size_t na, nb, nc;
    bench_sizes(p, &na, &nb, &nc);
    const long long sa = (long long)na, sb = (long long)nb, sc = (long long)nc;
    const int batch = (int)p->batch;
    if (p->gemm) {
        const int ta = p->trans_a ? CUBLAS_TRANS : CUBLAS_NO_TRANS, tb = p->trans_b ? CUBLAS_TRANS : CUBLAS_NO_TRANS;
        const int lda = (int)bench_lda(p), ldb = (int)bench_ldb(p), ldc = (int)bench_ldc(p);
        const int m = (int)p->m, n = (int)p->n, k = (int)p->k;
        if (batch > 1 && p->col_major)
            return cu.cublasSgemmStridedBatched(handle, ta, tb, m, n, k, &p->alpha, a, lda, sa, b, ldb, sb, &p->beta,
                                                c, ldc, sc, batch);
        if (batch > 1)
            return cu.cublasSgemmStridedBatched(handle, tb, ta, n, m, k, &p->alpha, b, ldb, sb, a, lda, sa, &p->beta,
                                                c, ldc, sc, batch);
        if (p->col_major)
            return cu.cublasSgemm(handle, ta, tb, m, n, k, &p->alpha, a, lda, b, ldb, &p->beta, c, ldc);
        return cu.cublasSgemm(handle, tb, ta, n, m, k, &p->alpha, b, ldb, a, lda, &p->beta, c, ldc);
    }
    /* Row-major A is column-major A^T. */
    const int t = (p->col_major ? p->trans_a : !p->trans_a) ? CUBLAS_TRANS : CUBLAS_NO_TRANS;
    const int rows = (int)(p->col_major ? p->m : p->n), cols = (int)(p->col_major ? p->n : p->m);
    if (batch > 1)
        return cu.cublasSgemvStridedBatched(handle, t, rows, cols, &p->alpha, a, rows, sa, b, 1, sb, &p->beta, c, 1,
                                            sc, batch);
    return cu.cublasSgemv(handle, t, rows, cols, &p->alpha, a, rows, b, 1, &p->beta, c, 1);
}

int cublas_run(int tf32, const bench_problem *p, const bench_data *d, int reps, bench_time *t)
{
    if (!cublas_available(NULL) || (p->batch > 1 && !p->gemm && !cu.cublasSgemvStridedBatched))
        return -1;
    void *const handle = handles[tf32 != 0];
    size_t na, nb, nc;
    bench_sizes(p, &na, &nb, &nc);
    na *= p->batch;
    nb *= p->batch;
    nc *= p->batch;
    float *a = NULL, *b = NULL, *c = NULL;
    int rc = -1;
    void *e0 = NULL, *e1 = NULL;
    if (cu.cudaMalloc((void **)&a, na * 4) != 0 || cu.cudaMalloc((void **)&b, nb * 4) != 0 ||
        cu.cudaMalloc((void **)&c, nc * 4) != 0)
        goto done;
    cu.cudaMemcpy(a, d->a, na * 4, CUDA_TO_DEVICE);
    cu.cudaMemcpy(b, d->b, nb * 4, CUDA_TO_DEVICE);
    cu.cudaMemcpy(c, d->c, nc * 4, CUDA_TO_DEVICE);
    if (one_call(handle, p, a, b, c) != 0) /* warm-up */
        goto done;
    if (d->out) {
        cu.cudaMemcpy(d->out, c, nc * 4, CUDA_TO_HOST);
        cu.cudaMemcpy(c, d->c, nc * 4, CUDA_TO_DEVICE);
    }
    if (cu.cudaEventCreate(&e0) != 0 || cu.cudaEventCreate(&e1) != 0)
        goto done;
    cu.cudaDeviceSynchronize();
    double w0 = bench_now();
    if (one_call(handle, p, a, b, c) != 0)
        goto done;
    cu.cudaDeviceSynchronize();
    reps = bench_reps(reps, bench_now() - w0);
    w0 = bench_now();
    cu.cudaEventRecord(e0, NULL);
    for (int r = 0; r < reps; ++r)
        if (one_call(handle, p, a, b, c) != 0)
            goto done;
    cu.cudaEventRecord(e1, NULL);
    cu.cudaEventSynchronize(e1);
    const double w1 = bench_now();
    float ms = 0;
    cu.cudaEventElapsedTime(&ms, e0, e1);
    t->device_s = ms * 1e-3 / reps;
    t->wall_s = (w1 - w0) / reps;
    rc = 0;
done:
    if (e0)
        cu.cudaEventDestroy(e0);
    if (e1)
        cu.cudaEventDestroy(e1);
    cu.cudaFree(a);
    cu.cudaFree(b);
    cu.cudaFree(c);
    return rc;
}
