/*
 * The OpenCL contexts the library holds (lifetime.c), and letting go of
 * them with everything the caches keep in them.
 */
#ifndef OCLBLAS_LIFETIME_H
#define OCLBLAS_LIFETIME_H

#include "oclblas.h"

#include <stddef.h>

/* A cache that keeps objects in contexts (the programs, the scratch sets),
 * as the lifetime sees it: the cache names itself before it lists its
 * first object (oclblas__context_user_add), so that the lifetime lets go
 * of what the caches hold without calling any of them by name. */
typedef struct {
    /* The references its objects hold on ctx: one retain each, and
     * per_program more for each program object, per_buffer for each buffer;
     * into *writers, the distinct queues that last wrote its buffers (each
     * may hold ctx: PoCL); -1 while a call uses them. */
    int (*refs)(cl_context ctx, int per_program, int per_buffer, int *writers);
    /* Lets go of its objects in ctx (NULL: in every context), once no call uses them. */
    void (*drop)(cl_context ctx);
} oclblas__context_user;
/* Adds a cache to those the lifetime asks; once is enough, more is harmless. */
void oclblas__context_user_add(const oclblas__context_user *u);

/* Called by a cache after it lists its first object in ctx: the first time,
 * measures how much the library's objects raise ctx's reference count,
 * holds ctx, and lets go of the other held contexts that their callers have
 * released. Takes locks of the caches: call it holding none. */
void oclblas__context_hold(cl_context ctx);
/* Lets go of everything the library holds for ctx (NULL: every context). */
void oclblas__context_drop(cl_context ctx);
/* Contexts held (only: that one, NULL: all), for tests. */
size_t oclblas__contexts_held(cl_context only);

#endif
