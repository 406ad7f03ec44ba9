/*
 * The part of a device-buffer call that every routine shares, after its
 * own BLAS checks: the queue, the buffers (C or y is read unless beta = 0;
 * A and B or x are not referenced when alpha = 0 or k = 0, as in reference
 * BLAS), trivial sizes, then the record goes to the runtime, or as
 * sub-problems where operands reach past the kernels' int.
 */
#include "api/device.h"
#include "api/checks.h"
#include "api/split.h"
#include "runtime/launch.h"
#include "runtime/run.h"

/* The statuses of each routine's operands: NULL, then too small. */
static const oclblas_status null_of[2][3] = {{OCLBLAS_NULL_A, OCLBLAS_NULL_B, OCLBLAS_NULL_C},
                                             {OCLBLAS_NULL_A, OCLBLAS_NULL_X, OCLBLAS_NULL_Y}};
static const oclblas_status small_of[2][3] = {
    {OCLBLAS_BUFFER_A_TOO_SMALL, OCLBLAS_BUFFER_B_TOO_SMALL, OCLBLAS_BUFFER_C_TOO_SMALL},
    {OCLBLAS_BUFFER_A_TOO_SMALL, OCLBLAS_BUFFER_X_TOO_SMALL, OCLBLAS_BUFFER_Y_TOO_SMALL}};

oclblas_status oclblas__device_call(const oclblas__record *r, cl_command_queue queue, cl_event *event)
{
    if (!queue)
        return OCLBLAS_NULL_QUEUE;
    cl_context ctx;
    cl_device_id dev;
    oclblas_status st = oclblas__queue_info(queue, &ctx, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (r->m == 0 || r->n == 0)
        return oclblas__marker(queue, event);
    const int v = r->routine == OCLBLAS__SGEMV;
    const oclblas__arg *ops[3] = {&r->a, &r->b, &r->c};
    size_t ext[3];
    oclblas__record_extents(r, ext);
    st = oclblas__check_buffer(r->c.buf, ctx, r->c.off, ext[2],
                               OCLBLAS__WRITES | (r->beta != 0.0f ? OCLBLAS__READS : 0), null_of[v][2], small_of[v][2]);
    for (int i = 0; i < 2 && st == OCLBLAS_SUCCESS && oclblas__record_uses_ab(r); ++i)
        st = oclblas__check_buffer(ops[i]->buf, ctx, ops[i]->off, ext[i], OCLBLAS__READS, null_of[v][i],
                                   small_of[v][i]);
    if (st != OCLBLAS_SUCCESS)
        return st;
    return oclblas__needs_split(r) ? oclblas__split(r, queue, event) : oclblas__run(NULL, r, queue, event);
}
