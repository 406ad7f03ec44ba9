/*
 * Scratch buffers (scratch.c): one set per context, for the padded
 * operands and partial sums of a plan, locked while a call uses it.
 */
#ifndef OCLBLAS_SCRATCH_H
#define OCLBLAS_SCRATCH_H

#include "kernels/step.h"

typedef struct oclblas__scratch oclblas__scratch;
/* Locks the context's scratch set and makes each slot i at least bytes[i]
 * large (0: not needed, buf[i] may be NULL), for a call on q (in_order: q
 * runs its commands one after the other). *wait gets an event that ends
 * after their last use, to be waited on by the first command that writes
 * them; NULL if none, or if that use was on q and q is in order. */
oclblas_status oclblas__scratch_take(cl_context ctx, cl_command_queue q, int in_order,
                                     const size_t bytes[OCLBLAS__SCRATCH_SLOTS], oclblas__scratch **s,
                                     cl_mem buf[OCLBLAS__SCRATCH_SLOTS], cl_event *wait);
/* Unlocks. q: the queue the call enqueued on (NULL: it enqueued nothing);
 * last_use (retained here): the event of its last command, or NULL where q
 * is in order and the call made none. */
void oclblas__scratch_put(oclblas__scratch *s, cl_command_queue q, cl_event last_use);
/* Frees the scratch set of ctx (NULL: every set), once no call uses it. */
void oclblas__scratch_drop(cl_context ctx);
/* The references ctx's scratch set holds on it: one retain, and per_buffer
 * more for each of its buffers; a last-use event that has completed is let
 * go of first. -1 while a call uses the set. *writers: how many distinct
 * queues last wrote its buffers (each may be kept alive by them, PoCL). */
int oclblas__scratch_refs(cl_context ctx, int per_buffer, int *writers);

#endif
