/*
 * Device-buffer calls whose operands reach past the index limit, run as
 * sub-problems (split.c).
 */
#ifndef OCLBLAS_SPLIT_H
#define OCLBLAS_SPLIT_H

#include "plan/record.h"

/* Whether a device-buffer call must run as sub-problems: an operand spans
 * elements past the index limit from its buffer's start. */
int oclblas__needs_split(const oclblas__record *r);
/* The call as sub-problems, each a record cut from r (its mode included). */
oclblas_status oclblas__split(const oclblas__record *r, cl_command_queue queue, cl_event *event);

#endif
