/*
 * The executor (execute.c): enqueues a plan with its programs, scratch
 * buffers and events.
 */
#ifndef OCLBLAS_EXECUTE_H
#define OCLBLAS_EXECUTE_H

#include "plan/plan.h"

/* Enqueues a plan on q: its programs from the cache (one lookup per
 * table), scratch buffers, events between its steps where q runs out of
 * order (none on an in-order queue). bufs holds the call's
 * A, B and C (scratch slots are filled here). *event gets the last step's
 * event (or a marker); step_events, when not NULL, gets each step's (the
 * caller releases them), for the tuner to time one kernel. */
oclblas_status oclblas__execute(const oclblas__devctx *cx, const oclblas__plan *plan, cl_context ctx,
                                cl_command_queue q, const cl_mem operands[3], cl_event *event,
                                cl_event step_events[OCLBLAS__MAX_STEPS]);

#endif
