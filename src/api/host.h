/*
 * How a host-pointer call chooses where it runs (host.c), shared by the
 * single and the batched host-pointer calls.
 */
#ifndef OCLBLAS_API_HOST_H
#define OCLBLAS_API_HOST_H

#include "device/device.h"

/* By the cost model (auto), every call above HOST_MAX on the device, or
 * every call on the host, as OCLBLAS_HOST_CALLS says; a pinned device
 * context (the tuner's) keeps the plain crossover (device). *host_max gets
 * the device's HOST_MAX. */
enum { OCLBLAS__CALLS_AUTO, OCLBLAS__CALLS_DEVICE, OCLBLAS__CALLS_HOST };
int oclblas__host_calls(const oclblas__default_device *d, int *host_max);

#endif
