/*
 * NVBLAS as a peer of the host-pointer calls: NVIDIA's drop-in BLAS of the
 * CUDA toolkit (libnvblas.so), which intercepts level-3 calls on host
 * memory and computes them on the GPUs in tiles, and leaves the rest to a
 * CPU BLAS. It is loaded at run time (dlopen, its own symbols only), after
 * a configuration file has been written into a temporary folder
 * (NVBLAS_CONFIG_FILE): the CPU BLAS is the OpenBLAS this program links
 * (found with dladdr), every GPU is used (NVBLAS_GPU_LIST ALL, or
 * $OCLBLAS_BENCH_NVBLAS_GPUS), tiles and the rest as NVBLAS sets them by
 * default, and the caller's memory is not pinned for it (pageable, as
 * oclblas gets it). The library is $OCLBLAS_BENCH_NVBLAS, else
 * libnvblas.so(.12, .11) on the loader's path or in the CUDA toolkit the
 * build found (OCLBLAS_BENCH_CUDA_LIBDIR) or /usr/local/cuda/lib64. NVBLAS
 * has no SGEMV: that row is the CPU BLAS's (the openblas column). Without a
 * CUDA GPU (the CUDA driver counts none) it is not measured: NVBLAS would
 * only hand every call to the CPU BLAS.
 */
#define _GNU_SOURCE
#include "peers.h"

#include <cblas.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*sgemm_fn)(const char *ta, const char *tb, const int *m, const int *n, const int *k, const float *alpha,
                         const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
                         const int *ldc);

static int state; /* 0 not tried, 1 loaded, -1 absent */
static sgemm_fn nv_sgemm;
static char note[512];
static char conf_dir[64];

#ifndef OCLBLAS_BENCH_CUDA_LIBDIR
#define OCLBLAS_BENCH_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

static void remove_config(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/nvblas.conf", conf_dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/nvblas.log", conf_dir);
    unlink(path);
    rmdir(conf_dir);
}

static int write_config(void)
{
    Dl_info info;
    if (!dladdr((void *)&cblas_sgemm, &info) || !info.dli_fname) {
        snprintf(note, sizeof note, "cannot name the CPU BLAS for NVBLAS's configuration");
        return -1;
    }
    strcpy(conf_dir, "/tmp/oclblas-nvblas-XXXXXX");
    if (!mkdtemp(conf_dir)) {
        snprintf(note, sizeof note, "cannot make a folder for NVBLAS's configuration");
        return -1;
    }
    atexit(remove_config);
    char path[128];
    snprintf(path, sizeof path, "%s/nvblas.conf", conf_dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(note, sizeof note, "cannot write %s", path);
        return -1;
    }
    const char *gpus = getenv("OCLBLAS_BENCH_NVBLAS_GPUS");
    fprintf(f, "NVBLAS_LOGFILE %s/nvblas.log\nNVBLAS_CPU_BLAS_LIB %s\nNVBLAS_GPU_LIST %s\n", conf_dir, info.dli_fname,
            gpus && *gpus ? gpus : "ALL");
    fclose(f);
    setenv("NVBLAS_CONFIG_FILE", path, 1);
    return 0;
}

/* NVBLAS without a GPU hands everything to the CPU BLAS: no peer then.
 * The CUDA driver (libcuda.so.1) counts the GPUs. */
static int cuda_gpus(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 0;
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
    int (*count)(int *) = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
    int n = 0;
    if (!init || !count || init(0) != 0 || count(&n) != 0)
        n = 0;
    return n;
}

int nvblas_available(const char **why)
{
    if (state == 0) {
        state = -1;
        if (cuda_gpus() < 1) {
            snprintf(note, sizeof note, "NVBLAS not measured: no CUDA GPU (libcuda.so.1 counts none)");
            if (why)
                *why = note;
            return 0;
        }
        const char *env = getenv("OCLBLAS_BENCH_NVBLAS");
        const char *names[] = {"libnvblas.so", "libnvblas.so.12", "libnvblas.so.11",
                               OCLBLAS_BENCH_CUDA_LIBDIR "/libnvblas.so", "/usr/local/cuda/lib64/libnvblas.so"};
        void *h = NULL;
        if (write_config() == 0) {
            if (env && *env)
                h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
            for (size_t i = 0; !h && !(env && *env) && i < sizeof names / sizeof names[0]; ++i)
                h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
            if (!h)
                snprintf(note, sizeof note, "NVBLAS not found (%s; set OCLBLAS_BENCH_NVBLAS to libnvblas.so)",
                         env && *env ? env : "libnvblas.so on the loader's path or in the CUDA toolkit");
        }
        if (h) {
            nv_sgemm = (sgemm_fn)dlsym(h, "sgemm_");
            Dl_info di;
            /* Its own sgemm_, not one of a library it depends on. */
            if (nv_sgemm && dladdr((void *)nv_sgemm, &di) && di.dli_fname && strstr(di.dli_fname, "nvblas"))
                state = 1;
            else
                snprintf(note, sizeof note, "the NVBLAS library found has no sgemm_ of its own");
        }
    }
    if (why)
        *why = note;
    return state == 1;
}

int nvblas_gemm(const bench_problem *p, const float *a, const float *b, float *c)
{
    if (!nvblas_available(NULL))
        return -1;
    /* Fortran, column-major: a row-major C = op(A) op(B) is C^T = op(B)^T op(A)^T. */
    const int col = p->col_major;
    const int m = (int)(col ? p->m : p->n), n = (int)(col ? p->n : p->m), k = (int)p->k;
    const int ta = col ? p->trans_a : p->trans_b, tb = col ? p->trans_b : p->trans_a;
    const float *x = col ? a : b, *y = col ? b : a;
    const int ldx = ta ? k : m, ldy = tb ? n : k, ldc = m;
    nv_sgemm(ta ? "T" : "N", tb ? "T" : "N", &m, &n, &k, &p->alpha, x, &ldx, y, &ldy, &p->beta, c, &ldc);
    return 0;
}
