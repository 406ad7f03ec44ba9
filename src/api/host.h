/*
 * The host-pointer call on its record (host.c): what oclblas_sgemm,
 * oclblas_sgemv and the drop-in library's entry points hand on; and how a
 * host-pointer call chooses where it runs, which the batched calls ask too.
 */
#ifndef OCLBLAS_API_HOST_H
#define OCLBLAS_API_HOST_H

#include "device/device.h"
#include "plan/host_plan.h"
#include "plan/record.h"

/* Checks the call (its routine's BLAS arguments, then NULL arrays it
 * uses), makes its host plan and runs it; a device that fails costs only
 * speed (the host computes what it left). A status other than success
 * means the arguments were refused, or a device failed after writing the
 * caller's output in place where its old values were still needed: C
 * (y) is then as the failure left it. Every call that passed the checks
 * leaves a report (oclblas_host_report_get). */
oclblas_status oclblas__host_call(const oclblas__record *r);

/* How calls on device d choose where they run: by the cost model (auto),
 * every call above HOST_MAX on the device, or every call on the host, as
 * OCLBLAS_HOST_CALLS says; a pinned device context (the tuner's) keeps the
 * plain crossover (device). *host_max gets the device's HOST_MAX. */
oclblas__host_calls oclblas__host_calls_for(const oclblas__default_device *d, int *host_max);

#endif
