/*
 * Pipelined tiles of a host-pointer SGEMM over one or several devices
 * (pipeline.c), and the report of the last host-pointer call.
 */
#ifndef OCLBLAS_PIPELINE_H
#define OCLBLAS_PIPELINE_H

#include "host/hostdev.h"

/* What the last host-pointer call of this thread did (oclblas_host_report). */
void oclblas__report_set(const oclblas_host_report *r);

/* Column-major C = alpha op(A) op(B) + beta C through tiles on the devices
 * hd[0..ndev). Tiles of a device that fails go to the others, else to the
 * host; C receives each tile once, whole, from a successful read-back or
 * from the host. Fails (C untouched) only when no tile could be started:
 * the devices' memory or pinned staging could not be had at all. */
oclblas_status oclblas__pipeline_sgemm(oclblas__hostdev *const *hd, int ndev, const oclblas__tiling *tiling, int ta,
                                       int tb, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                       const float *b, size_t ldb, float beta, float *c, size_t ldc,
                                       oclblas_host_report *report);

#endif
