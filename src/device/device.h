/*
 * The OpenCL devices as the library knows them (device.c): the facts read
 * once per device, finding the device a spec names, the default device and
 * the set of devices of the host-pointer API, each with its context and
 * queue.
 */
#ifndef OCLBLAS_DEVICE_H
#define OCLBLAS_DEVICE_H

#include "kernels/kernel.h"

typedef struct {
    cl_device_id id;
    cl_platform_id platform;
    char name[256];
    char platform_name[128];
    char driver[128];
    char vendor[32];       /* implementation family: nvidia, amd, intel, pocl, or the raw vendor */
    char type[16];         /* GPU, CPU, ACCELERATOR */
    char arch[64];         /* NVIDIA "SM9.0", PoCL the LLVM CPU name, else "" */
    oclblas__limits lim;
    cl_uint compute_units;
    int unified_memory;
    unsigned long long max_alloc;
} oclblas__device_info;

/* The default device's order of preference: GPU 0, accelerator 1, CPU 2, other 3. */
int oclblas__type_rank(cl_device_type t);
/* The device a spec names, as OCLBLAS_DEVICE does ("gpu", "cpu",
 * "accelerator", "P:D" indices, a case-insensitive part of the name; NULL
 * or "" for the first GPU, accelerator, CPU), with its indices (may be NULL). */
oclblas_status oclblas__device_find(const char *spec, cl_device_id *dev, unsigned *platform_index,
                                    unsigned *device_index);
/* Makes dev the default device (alone) instead of OCLBLAS_DEVICE's;
 * refused once the default device is in use. */
oclblas_status oclblas__default_choose(cl_device_id dev);

/* Facts about a device, read once and kept for the life of the process;
 * OCLBLAS_INVALID_ARGUMENT for a NULL device. */
oclblas_status oclblas__device_info_get(cl_device_id dev, const oclblas__device_info **out);

typedef struct {
    oclblas_status status;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    const oclblas__device_info *info;
} oclblas__default_device;
const oclblas__default_device *oclblas__default(void);

#define OCLBLAS__MAX_SET OCLBLAS_REPORT_DEVICES
/* The devices of the host-pointer API as OCLBLAS_DEVICE names them (a
 * list, `gpus`, `all`), each with its context and queue; the first is the
 * default device. *count is 0 when there is none (then [0].status says why). */
const oclblas__default_device *oclblas__device_set(int *count);

#endif
