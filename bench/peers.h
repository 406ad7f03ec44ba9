/*
 * The libraries oclblas-bench compares with. Each peer is optional at build
 * time; one that was not built, or finds no device at run time, reports
 * itself absent and never gets a column of numbers.
 */
#ifndef OCLBLAS_BENCH_PEERS_H
#define OCLBLAS_BENCH_PEERS_H

#include "oclblas.h"

#include <stddef.h>

typedef struct {
    int col_major;
    int trans_a, trans_b; /* gemv uses trans_a */
    size_t m, n, k;       /* k unused by gemv */
    float alpha, beta;
} bench_problem;

/* Host operands, column- or row-major as the problem says, with tight
 * leading dimensions; out receives the result (for checking). */
typedef struct {
    const float *a, *b, *c; /* gemv: b is x, c is y */
    float *out;
} bench_data;

typedef struct {
    double device_s; /* seconds per call by device timestamps; < 0 when not measured */
    double wall_s;   /* seconds per call by the host clock */
} bench_time;

/* An OpenCL device shared by the OpenCL peers, with a profiling queue. */
typedef struct {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char name[256];
} bench_cl;

/* CLBlast (peer_clblast.c). */
int clblast_available(void);
const char *clblast_version(void);
int clblast_run(const bench_cl *cl, int gemm, const bench_problem *p, const bench_data *d, int reps, bench_time *t);
/* One CLBlast SGEMM s^3, row-major NN, alpha 1, beta 0, on q. */
int clblast_sgemm_once(cl_command_queue q, size_t s, cl_mem a, cl_mem b, cl_mem c);

/* cuBLAS (peer_cublas.c): FP32 math, or with tf32 TF32 tensor-core math. */
int cublas_available(char *device_name, size_t len);
int cublas_run(int gemm, int tf32, const bench_problem *p, const bench_data *d, int reps, bench_time *t);

/* NVBLAS (peer_nvblas.c), loaded at run time: host-pointer SGEMM only.
 * why gets the note to print when it is absent. */
int nvblas_available(const char **why);
int nvblas_gemm(const bench_problem *p, const float *a, const float *b, float *c);

/* Shared helpers (bench.c). */
double bench_now(void);
/* reps if positive, else as many calls as fill the timing budget, given one call's seconds. */
int bench_reps(int reps, double one_call_s);
/* Runs call reps times after one warm-up on an OpenCL queue, timing by the
 * events of a marker before and the last call's event (device) and by the
 * host clock. call returns 0 on success and gives its last event. */
typedef int (*bench_cl_call)(void *ctx, cl_event *ev);
int bench_time_cl(const bench_cl *cl, bench_cl_call call, void *ctx, int reps, bench_time *t);

#endif
