/*
 * A device-buffer call past its routine's BLAS checks (device.c): what
 * every device-buffer front door does with its record.
 */
#ifndef OCLBLAS_API_DEVICE_H
#define OCLBLAS_API_DEVICE_H

#include "plan/record.h"

/* The queue, the caller's buffers against the record's extents, nothing
 * to compute (a marker as the event), then the runtime (runtime/run.c), or
 * sub-problems (split.c) where operands reach past the kernels' int. */
oclblas_status oclblas__device_call(const oclblas__record *r, cl_command_queue queue, cl_event *event);

#endif
