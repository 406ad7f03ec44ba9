/*
 * How the peers find their libraries at run time (peers.h): dlopen by
 * soname, on the loader's path and then in the folders a CUDA toolkit
 * usually occupies; dlsym of the few functions each peer calls; and the
 * CUDA driver's count of GPUs, which decides whether the CUDA peers load
 * anything more; and a batch's operands in OpenCL buffers and the result
 * of one call, which oclblas's runs and CLBlast's make alike.
 */
#include "peers.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *bench_load(const char *const *names, const char *const *dirs, char *found, size_t len)
{
    size_t used = 0;
    found[0] = '\0';
    for (int d = -1; d < 0 || (dirs && dirs[d]); ++d) {
        for (int i = 0; names[i]; ++i) {
            char path[1024];
            if (d < 0)
                snprintf(path, sizeof path, "%s", names[i]);
            else
                snprintf(path, sizeof path, "%s/%s", dirs[d], names[i]);
            void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (h) {
                snprintf(found, len, "%s", path);
                return h;
            }
            /* Only the names on the loader's path are listed: the folders are many. */
            if (d < 0 && used < len)
                used += (size_t)snprintf(found + used, len - used, "%s%s", used ? ", " : "", names[i]);
        }
    }
    return NULL;
}

#ifndef OCLBLAS_BENCH_CUDA_LIBDIR
#define OCLBLAS_BENCH_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

const char *const *bench_cuda_dirs(void)
{
    static char home64[512], home[512];
    static const char *dirs[8];
    int n = 0;
    const char *cuda_home = getenv("CUDA_HOME");
    if (cuda_home && *cuda_home) {
        snprintf(home64, sizeof home64, "%s/lib64", cuda_home);
        snprintf(home, sizeof home, "%s/lib", cuda_home);
        dirs[n++] = home64;
        dirs[n++] = home;
    }
    dirs[n++] = OCLBLAS_BENCH_CUDA_LIBDIR;
    dirs[n++] = "/usr/local/cuda/lib64";
    dirs[n++] = "/usr/local/cuda/lib";
    dirs[n] = NULL;
    return dirs;
}

int bench_symbols(void *lib, const bench_symbol *table, char *missing, size_t len)
{
    for (const bench_symbol *s = table; s->name; ++s) {
        *s->fn = dlsym(lib, s->name);
        if (!*s->fn) {
            snprintf(missing, len, "%s", s->name);
            return -1;
        }
    }
    return 0;
}

int bench_cuda_gpu(char *name, size_t len, char *why, size_t why_len)
{
    static const char *const names[] = {"libcuda.so.1", NULL};
    int (*init)(unsigned flags), (*count)(int *n), (*get)(int *device, int ordinal);
    int (*get_name)(char *name, int len, int device);
    const bench_symbol symbols[] = {{"cuInit", (void **)&init},
                                    {"cuDeviceGetCount", (void **)&count},
                                    {"cuDeviceGet", (void **)&get},
                                    {"cuDeviceGetName", (void **)&get_name},
                                    {NULL, NULL}};
    char found[256], missing[64];
    void *h = bench_load(names, NULL, found, sizeof found);
    int n = 0, dev = 0;
    if (!h) {
        snprintf(why, why_len, "no CUDA driver (libcuda.so.1 not found)");
        return -1;
    }
    if (bench_symbols(h, symbols, missing, sizeof missing) != 0) {
        snprintf(why, why_len, "the CUDA driver %s has no %s", found, missing);
        return -1;
    }
    if (init(0) != 0 || count(&n) != 0 || n < 1) {
        snprintf(why, why_len, "no CUDA GPU (the CUDA driver counts none)");
        return -1;
    }
    if (get(&dev, 0) != 0 || get_name(name, (int)len, dev) != 0)
        snprintf(name, len, "CUDA device 0");
    return 0;
}

cl_int bench_cl_operands(const bench_cl *cl, const bench_problem *p, const bench_data *d, cl_mem *a, cl_mem *b,
                         cl_mem *c, size_t *nc)
{
    size_t na, nb;
    bench_sizes(p, &na, &nb, nc);
    na *= p->batch;
    nb *= p->batch;
    *nc *= p->batch;
    cl_int err;
    *a = clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * 4, (void *)d->a, &err);
    *b = err == CL_SUCCESS
             ? clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nb * 4, (void *)d->b, &err)
             : NULL;
    *c = err == CL_SUCCESS
             ? clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, *nc * 4, (void *)d->c, &err)
             : NULL;
    return err;
}

void bench_cl_release(cl_mem a, cl_mem b, cl_mem c)
{
    const cl_mem held[] = {a, b, c};
    for (int i = 0; i < 3; ++i)
        if (held[i])
            clReleaseMemObject(held[i]);
}

int bench_cl_result(const bench_cl *cl, bench_cl_call call, void *ctx, cl_mem c, size_t nc, float *out)
{
    cl_event ev = NULL;
    int rc = call(ctx, &ev);
    if (ev)
        clReleaseEvent(ev);
    if (rc == 0)
        rc = clEnqueueReadBuffer(cl->queue, c, CL_TRUE, 0, nc * 4, out, 0, NULL, NULL) == CL_SUCCESS ? 0 : -1;
    return rc;
}
