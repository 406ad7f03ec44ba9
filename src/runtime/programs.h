/*
 * The program cache (programs.c): built programs per context, device,
 * kernel and parameters, from memory, the disk cache or a build, each with
 * a pool of kernel objects.
 */
#ifndef OCLBLAS_PROGRAMS_H
#define OCLBLAS_PROGRAMS_H

#include "device/device.h"
#include "kernels/step.h"

typedef struct oclblas__program oclblas__program;
/* The built program for (context, device, kernel table, parameters), from
 * memory, the disk cache or a build; the parameters are validated for the
 * device first. The caller holds a reference until oclblas__program_release. */
oclblas_status oclblas__program_get(cl_context ctx, const oclblas__device_info *dev, int kernel,
                                    const oclblas__params *p, oclblas__program **out);
void oclblas__program_release(oclblas__program *prog);
/* Drops the memory cache's programs of one context (NULL: all; binaries
 * stay). A program in use lives on until its last user releases it. */
void oclblas__programs_drop_context(cl_context ctx);
/* The references the cached programs of ctx hold on it: one retain each,
 * and per_program more for each that has a program object; -1 while one
 * of them is being built. */
int oclblas__programs_refs(cl_context ctx, int per_program);
/* Programs in the memory cache, for tests. */
size_t oclblas__programs_held(void);
/* Drops one program and its binary from the memory cache (holders keep
 * their reference): the tuner lets go of a candidate so. */
void oclblas__program_forget(oclblas__program *prog);
/* A kernel object of a program with the scalar arguments last set on it
 * (set[i] for i < num_set), so that a launch sets only those that changed
 * (runtime/launch.c). */
typedef struct oclblas__kernel {
    cl_kernel kernel;
    int num_set;
    oclblas__arg_value set[OCLBLAS__MAX_ARGS];
    char name[48];
    struct oclblas__kernel *next; /* in its program's pool */
} oclblas__kernel;
/* A kernel object for the caller's exclusive use until it is put back. */
oclblas_status oclblas__kernel_take(oclblas__program *prog, const char *name, oclblas__kernel **out);
void oclblas__kernel_put(oclblas__program *prog, oclblas__kernel *k);

#endif
