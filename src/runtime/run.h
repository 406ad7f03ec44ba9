/*
 * A device-buffer call on checked arguments (run.c): its record, in the
 * caller's layout, planned with the device's context and executed; the
 * queue's context and device context, which the batched calls find alike.
 */
#ifndef OCLBLAS_RUN_H
#define OCLBLAS_RUN_H

#include "plan/context.h"
#include "plan/plan.h"
#include "plan/record.h"

/* The call of record r (operands in device buffers, arguments checked),
 * planned with a device context (NULL: the current one of the queue's
 * device) in the record's math mode, and enqueued on queue. */
oclblas_status oclblas__run(const oclblas__devctx *cx, const oclblas__record *r, cl_command_queue queue,
                            cl_event *event);

/* The plan of a strided SGEMM batch (plan/plan.h's oclblas__gemm_batch_plan)
 * on cx, one of the library's snapshots: the thread's last one where it
 * was made from the same problem and batch. */
oclblas_status oclblas__gemm_batch_plan_of(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                          const oclblas__batch *batch, oclblas__plan *out);

/* The queue's context, and the current context of its device unless *cx
 * is given (not NULL). */
oclblas_status oclblas__queue_context(cl_command_queue queue, cl_context *ctx, const oclblas__devctx **cx);

#endif
