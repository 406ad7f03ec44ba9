/*
 * The checks every routine makes on the caller's queue and buffers before it
 * enqueues anything, so that a bad argument is a status and never a write.
 */
#include "internal.h"

#include <limits.h>
#include <stdint.h>

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

size_t oclblas__extent(size_t rows, size_t cols, size_t ld)
{
    if (rows == 0 || cols == 0)
        return 0;
    return (cols - 1) * ld + rows;
}

oclblas_status oclblas__check_buffer(cl_mem buf, cl_context ctx, size_t off, size_t need,
                                     oclblas_status null_status, oclblas_status small_status)
{
    if (!buf)
        return null_status;
    cl_context bctx;
    size_t bytes;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_CONTEXT, sizeof bctx, &bctx, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    if (bctx != ctx)
        return OCLBLAS_BUFFER_CONTEXT_MISMATCH;
    const size_t elems = bytes / sizeof(float);
    if (off > elems || need > elems - off)
        return small_status;
    if (off + need > (size_t)INT_MAX)
        return OCLBLAS_SIZE_TOO_LARGE;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__marker(cl_command_queue q, cl_event *event)
{
    if (!event)
        return OCLBLAS_SUCCESS;
    return (oclblas_status)clEnqueueMarkerWithWaitList(q, 0, NULL, event);
}
