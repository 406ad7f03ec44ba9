/*
 * The OpenCL contexts the library holds (lifetime.c), and letting go of
 * them with everything the caches keep in them.
 */
#ifndef OCLBLAS_LIFETIME_H
#define OCLBLAS_LIFETIME_H

#include "oclblas.h"

#include <stddef.h>

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
