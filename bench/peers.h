/*
 * The libraries oclblas-bench compares with, as one interface. Each peer
 * (peer_clblast.c, peer_cublas.c, peer_nvblas.c) loads its library at run
 * time, by soname from a few candidate names and folders, with its own
 * declarations of the few functions it calls: the bench neither links the
 * peers nor needs their headers to build. A peer that is not installed, or
 * finds no device, says why and never gets a column of numbers.
 */
#ifndef OCLBLAS_BENCH_PEERS_H
#define OCLBLAS_BENCH_PEERS_H

#include "timing.h"

#include <stddef.h>

/* One problem: SGEMM C = alpha op(A) op(B) + beta C, or SGEMV
 * y = alpha op(A) x + beta y (gemv uses trans_a, no k); batch of them
 * (a strided batch: each operand's problems tight, one after the other,
 * so the strides are the sizes bench_sizes gives), 1 for a single call. */
typedef struct {
    int gemm;
    int col_major;
    int trans_a, trans_b;
    size_t m, n, k;
    float alpha, beta;
    size_t batch;
} bench_problem;

/* Host operands of the whole batch, column- or row-major as the problem
 * says, with tight leading dimensions; out receives the result (for
 * checking). */
typedef struct {
    const float *a, *b, *c; /* gemv: b is x, c is y */
    float *out;
} bench_data;

/* Elements of A, B (gemv: x) and C (gemv: y) of one problem, stored
 * tightly: also the strides between the problems of a batch. */
static inline void bench_sizes(const bench_problem *p, size_t *na, size_t *nb, size_t *nc)
{
    *na = p->gemm ? p->m * p->k : p->m * p->n;
    *nb = p->gemm ? p->k * p->n : p->trans_a ? p->m : p->n;
    *nc = p->gemm ? p->m * p->n : p->trans_a ? p->n : p->m;
}

/* Tight leading dimensions of A, B and C in the problem's layout. */
static inline size_t bench_lda(const bench_problem *p)
{
    const int t = p->gemm && p->trans_a;
    const size_t rows = t ? p->k : p->m, cols = !p->gemm ? p->n : t ? p->m : p->k;
    return p->col_major ? rows : cols;
}
static inline size_t bench_ldb(const bench_problem *p)
{
    const size_t rows = p->trans_b ? p->n : p->k, cols = p->trans_b ? p->k : p->n;
    return p->col_major ? rows : cols;
}
static inline size_t bench_ldc(const bench_problem *p) { return p->col_major ? p->m : p->n; }

/* Each peer's *_available loads its library and looks for a device at its
 * first call: 1 when the peer can run, else 0. *note (when note is not
 * NULL) says where the library was found, or what is missing. */

/* CLBlast on the bench's own OpenCL device, context and profiling queue. */
int clblast_available(const char **note);
/* A batch runs as CLBlastSgemmStridedBatched (CLBlast has no batched SGEMV: -1). */
int clblast_run(const bench_cl *cl, const bench_problem *p, const bench_data *d, int reps, bench_time *t);
/* One CLBlast SGEMM s^3, row-major NN, alpha 1, beta 0, on q; 0 on success. */
int clblast_sgemm_once(cl_command_queue q, size_t s, cl_mem a, cl_mem b, cl_mem c);

/* cuBLAS on the first CUDA device: FP32 math, or with tf32 the TF32 tensor
 * cores. cublas_device names the device once available. */
int cublas_available(const char **note);
const char *cublas_device(void);
/* A batch runs as cublasSgemmStridedBatched or cublasSgemvStridedBatched
 * (-1 where this cuBLAS has no strided-batched SGEMV). */
int cublas_run(int tf32, const bench_problem *p, const bench_data *d, int reps, bench_time *t);

/* NVBLAS, host-pointer SGEMM only, on the CUDA GPUs. */
int nvblas_available(const char **note);
int nvblas_gemm(const bench_problem *p, const float *a, const float *b, float *c);

/* ---- for the peer files (peer_load.c) ---------------------------------- */

/* The whole batch's operands from d in buffers of cl's context: A and B
 * (gemv: x) read-only, C (gemv: y) read-write, *nc the elements of C. The
 * OpenCL error of the first that fails, the buffers not made NULL; the
 * caller releases them all by bench_cl_release. */
cl_int bench_cl_operands(const bench_cl *cl, const bench_problem *p, const bench_data *d, cl_mem *a, cl_mem *b,
                         cl_mem *c, size_t *nc);
void bench_cl_release(cl_mem a, cl_mem b, cl_mem c);
/* One call (its event released), then C's nc elements (buffer c) read into
 * out: the result a run checks. 0 on success. */
int bench_cl_result(const bench_cl *cl, bench_cl_call call, void *ctx, cl_mem c, size_t nc, float *out);

/* The first of names (NULL-terminated) that loads: each on the loader's
 * path, then in each of dirs (NULL-terminated; NULL for none). The path
 * loaded goes to found; when nothing loads, found lists what was tried. */
void *bench_load(const char *const *names, const char *const *dirs, char *found, size_t len);

/* Folders where a CUDA toolkit's libraries may be, outside the loader's
 * path: $CUDA_HOME's, the toolkit found at build time, /usr/local/cuda's. */
const char *const *bench_cuda_dirs(void);

/* The first CUDA GPU, as the CUDA driver (libcuda.so.1) counts them: 0
 * with its name, else -1 with why (no driver, no GPU). */
int bench_cuda_gpu(char *name, size_t len, char *why, size_t why_len);

/* Looks up every symbol of a NULL-terminated table in lib; 0 when all were
 * found, else -1 with the first missing name in missing. */
typedef struct {
    const char *name;
    void **fn;
} bench_symbol;
int bench_symbols(void *lib, const bench_symbol *table, char *missing, size_t len);

#endif
