/*
 * What touches the caller's queue and buffers directly: a step's launch
 * (its arguments set on the kernel object, the scalars only where they
 * differ from those the object last had, buffer roles resolved to the
 * call's buffers, and the NDRange enqueued with the geometry the
 * descriptor gave it), a marker as the event of a call that enqueues
 * nothing, the queue's context, device and order, and how a buffer's
 * element is aligned, which decides vector loads and in-place reads.
 */
#include "runtime/launch.h"

#include <stdint.h>
#include <string.h>

/* Whether a scalar argument holds the value already set. */
static int already_set(const oclblas__kernel *k, int i, const oclblas__arg_value *a)
{
    if (i >= k->num_set || a->kind == OCLBLAS__ARG_BUF || k->set[i].kind != a->kind)
        return 0;
    return a->kind == OCLBLAS__ARG_INT ? k->set[i].u.i == a->u.i : memcmp(&k->set[i].u.f, &a->u.f, sizeof a->u.f) == 0;
}

oclblas_status oclblas__step_enqueue(cl_command_queue q, oclblas__kernel *k, const oclblas__step *s,
                                     const cl_mem bufs[OCLBLAS__BUF_COUNT], cl_uint num_wait, const cl_event *wait,
                                     cl_event *event)
{
    for (int i = 0; i < s->num_args; ++i) {
        const oclblas__arg_value *a = &s->args[i];
        if (already_set(k, i, a))
            continue;
        cl_int err;
        if (a->kind == OCLBLAS__ARG_INT) {
            const cl_int v = a->u.i;
            err = clSetKernelArg(k->kernel, (cl_uint)i, sizeof v, &v);
        } else if (a->kind == OCLBLAS__ARG_FLOAT) {
            const cl_float v = a->u.f;
            err = clSetKernelArg(k->kernel, (cl_uint)i, sizeof v, &v);
        } else {
            /* Always: a handle may name a new buffer where an old one was. */
            err = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_mem), &bufs[a->u.buf]);
        }
        if (err != CL_SUCCESS) {
            k->num_set = 0;
            return (oclblas_status)err;
        }
        k->set[i] = *a;
    }
    k->num_set = s->num_args;
    return (oclblas_status)clEnqueueNDRangeKernel(q, k->kernel, s->geo.dims, NULL, s->geo.global, s->geo.local,
                                                  num_wait, num_wait ? wait : NULL, event);
}

int oclblas__queue_in_order(cl_command_queue q)
{
    cl_command_queue_properties props = 0;
    return clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) == CL_SUCCESS &&
           !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

oclblas_status oclblas__queue_info(cl_command_queue q, cl_context *ctx, cl_device_id *dev)
{
    if (!q)
        return OCLBLAS_NULL_QUEUE;
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof *ctx, ctx, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof *dev, dev, NULL);
    return (oclblas_status)err;
}

int oclblas__aligned(cl_mem buf, size_t off, size_t bytes)
{
    void *host = NULL;
    if (clGetMemObjectInfo(buf, CL_MEM_HOST_PTR, sizeof host, &host, NULL) != CL_SUCCESS)
        return 0;
    /* Kernels index vectors from the start of the buffer, so the start must
     * be aligned as well as the offset. The implementation's own allocations
     * (host NULL) start far more aligned than any vector. */
    return (uintptr_t)host % bytes == 0 && off * sizeof(float) % bytes == 0;
}

unsigned oclblas__alignment(cl_mem buf, size_t off)
{
    /* The offset's own alignment first: it costs no call. */
    unsigned p = OCLBLAS__MAX_ALIGN;
    while (p > 1 && (off * sizeof(float)) % p)
        p /= 2;
    while (p > 1 && !oclblas__aligned(buf, off, p))
        p /= 2;
    return p;
}

oclblas_status oclblas__marker(cl_command_queue q, cl_event *event)
{
    if (!event)
        return OCLBLAS_SUCCESS;
    return (oclblas_status)clEnqueueMarkerWithWaitList(q, 0, NULL, event);
}
