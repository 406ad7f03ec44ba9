/*
 * Scratch buffers (scratch.c): one set per context, for the padded
 * operands and partial sums of a plan, locked while a call uses it.
 */
#ifndef OCLBLAS_SCRATCH_H
#define OCLBLAS_SCRATCH_H

#include "kernels/step.h"

typedef struct oclblas__scratch oclblas__scratch;
/* Locks the context's scratch set and makes each slot i at least bytes[i]
 * large (0: not needed, buf[i] may be NULL). *wait gets the event of their
 * last use (NULL if none), to be waited on by the first command that writes
 * them. */
oclblas_status oclblas__scratch_take(cl_context ctx, const size_t bytes[OCLBLAS__SCRATCH_SLOTS], oclblas__scratch **s,
                                     cl_mem buf[OCLBLAS__SCRATCH_SLOTS], cl_event *wait);
/* Unlocks; last_use (retained here) is the event of the last command that reads them. */
void oclblas__scratch_put(oclblas__scratch *s, cl_event last_use);
/* Frees the scratch set of ctx (NULL: every set), once no call uses it. */
void oclblas__scratch_drop(cl_context ctx);
/* The references ctx's scratch set holds on it: one retain, and per_buffer
 * more for each of its buffers; a last-use event that has completed is let
 * go of first. -1 while a call uses the set. *writers: how many distinct
 * queues last wrote its buffers (each may be kept alive by them, PoCL). */
int oclblas__scratch_refs(cl_context ctx, int per_buffer, int *writers);

#endif
