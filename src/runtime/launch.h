/*
 * What touches the caller's queue and buffers directly (launch.c): a
 * step's arguments and enqueue, a marker as a call's event, the queue's
 * context and device, and how a buffer's element is aligned.
 */
#ifndef OCLBLAS_LAUNCH_H
#define OCLBLAS_LAUNCH_H

#include "kernels/step.h"
#include "runtime/programs.h"

/* Sets a step's arguments on k (roles resolved through bufs; a scalar k
 * already has is not set again) and enqueues it. */
oclblas_status oclblas__step_enqueue(cl_command_queue q, oclblas__kernel *k, const oclblas__step *s,
                                     const cl_mem bufs[OCLBLAS__BUF_COUNT], cl_uint num_wait,
                                     const cl_event *wait, cl_event *event);

/* Whether q runs its commands in the order they were enqueued (no
 * out-of-order execution); 0 if it cannot tell. */
int oclblas__queue_in_order(cl_command_queue q);
/* Queue facts needed by every routine. */
oclblas_status oclblas__queue_info(cl_command_queue q, cl_context *ctx, cl_device_id *dev);
/* Whether vectors of `bytes` can be read from buf starting at element off:
 * the buffer's start and the offset are both multiples of bytes. Buffers
 * the implementation allocates start aligned far beyond that; a buffer over
 * the caller's host memory (CL_MEM_USE_HOST_PTR) is aligned as that memory is. */
int oclblas__aligned(cl_mem buf, size_t off, size_t bytes);
/* The largest power of two, at most OCLBLAS__MAX_ALIGN, that element off of
 * buf is aligned to (the buffer's start counts: it may wrap host memory). */
unsigned oclblas__alignment(cl_mem buf, size_t off);
/* A marker on the queue as the call's event, for calls that enqueue nothing. */
oclblas_status oclblas__marker(cl_command_queue q, cl_event *event);

#endif
