/*
 * The current context of each device (devctx.c): resolved from the
 * database once, and again after a load or an override; pinned by the
 * tuner.
 */
#ifndef OCLBLAS_DEVCTX_H
#define OCLBLAS_DEVCTX_H

#include "plan/context.h"

/* The current context of a device: two atomic reads when nothing changed. */
oclblas_status oclblas__devctx_get(const oclblas__device_info *dev, const oclblas__devctx **out);
/* Makes cx (copied) the context of its device for every call until
 * unpinned (cx NULL), whatever the database and overrides say: how the
 * tuner runs the whole library with its candidates. Every set must be
 * legal on the device. */
oclblas_status oclblas__devctx_pin(const oclblas__device_info *dev, const oclblas__devctx *cx);

#endif
