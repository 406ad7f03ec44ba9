/*
 * A device-buffer call on checked arguments (run.c): its record, in the
 * caller's layout, planned with the device's context and executed.
 */
#ifndef OCLBLAS_RUN_H
#define OCLBLAS_RUN_H

#include "plan/context.h"
#include "plan/record.h"

/* The call of record r (operands in device buffers, arguments checked),
 * planned with a device context (NULL: the current one of the queue's
 * device) in the record's math mode, and enqueued on queue. */
oclblas_status oclblas__run(const oclblas__devctx *cx, const oclblas__record *r, cl_command_queue queue,
                            cl_event *event);

#endif
