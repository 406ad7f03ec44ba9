/*
 * A host-pointer call as one device call (untiled.c): on buffers over the
 * caller's arrays, or on copies kept between calls.
 */
#ifndef OCLBLAS_UNTILED_H
#define OCLBLAS_UNTILED_H

#include "host/hostdev.h"
#include "plan/record.h"

/* Whether host calls may work in place where memory is shared
 * (OCLBLAS_HOST_ZERO_COPY, read once). */
int oclblas__host_zero_copy(void);

/* The call of record r (host operands, arguments checked, m, n > 0) on the
 * device of hd as one device call, in place (buffers over the caller's
 * arrays) or through copies, its output read back as a rectangle; adds
 * the bytes it moved to the report. When it fails, *written says whether
 * the caller's output may have been written (else it is untouched). */
oclblas_status oclblas__untiled_call(oclblas__hostdev *hd, const oclblas__record *r, int in_place,
                                     oclblas_host_report *report, int *written);

#endif
