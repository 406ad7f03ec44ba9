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
 * libnvblas.so (.13, .12, .11) on the loader's path or in a CUDA toolkit's
 * folders (peers.h). NVBLAS has no SGEMV: that row is the CPU BLAS's (the
 * openblas column). Without a CUDA GPU it is not measured: NVBLAS would
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
static char note[1024];
static char conf_dir[64];

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

/* The NVBLAS library, once a GPU is there and the configuration written;
 * NULL with the note saying why not. */
static void *open_nvblas(char *found, size_t len)
{
    static const char *const names[] = {"libnvblas.so.13", "libnvblas.so.12", "libnvblas.so.11", "libnvblas.so",
                                        NULL};
    const char *env = getenv("OCLBLAS_BENCH_NVBLAS");
    char gpu[256];
    if (bench_cuda_gpu(gpu, sizeof gpu, note, sizeof note) != 0 || write_config() != 0)
        return NULL;
    if (env && *env) {
        const char *const chosen[] = {env, NULL};
        void *h = bench_load(chosen, NULL, found, len);
        if (!h)
            snprintf(note, sizeof note, "OCLBLAS_BENCH_NVBLAS=%s does not load: %s", env, dlerror());
        return h;
    }
    void *h = bench_load(names, bench_cuda_dirs(), found, len);
    if (!h)
        snprintf(note, sizeof note, "NVBLAS not found (%s, or in $CUDA_HOME, /usr/local/cuda; OCLBLAS_BENCH_NVBLAS "
                                    "names one)", found);
    return h;
}

int nvblas_available(const char **why)
{
    if (state == 0) {
        char found[512];
        void *h = open_nvblas(found, sizeof found);
        state = -1;
        if (h) {
            nv_sgemm = (sgemm_fn)dlsym(h, "sgemm_");
            Dl_info di;
            /* Its own sgemm_, not one of a library it depends on. */
            if (nv_sgemm && dladdr((void *)nv_sgemm, &di) && di.dli_fname && strstr(di.dli_fname, "nvblas")) {
                snprintf(note, sizeof note, "%s", found);
                state = 1;
            } else
                snprintf(note, sizeof note, "%s has no sgemm_ of its own", found);
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
