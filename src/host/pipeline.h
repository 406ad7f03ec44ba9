/*
 * Pipelined tiles of a host-pointer SGEMM over one or several devices
 * (pipeline.c), and the report of the last host-pointer call.
 */
#ifndef OCLBLAS_PIPELINE_H
#define OCLBLAS_PIPELINE_H

#include "host/hostdev.h"
#include "plan/record.h"

/* What the last host-pointer call of this thread did (oclblas_host_report). */
void oclblas__report_set(const oclblas_host_report *r);

/* The column-major SGEMM of record call (host operands, arguments checked)
 * through tiles on the devices hd[0..ndev). Tiles of a device that fails
 * go to the others, else to the host; C receives each tile once, whole,
 * from a successful read-back or from the host. Fails (C untouched) only
 * when the host has no memory for the call's bookkeeping. */
oclblas_status oclblas__pipeline_sgemm(oclblas__hostdev *const *hd, int ndev, const oclblas__tiling *tiling,
                                       const oclblas__record *call, oclblas_host_report *report);

#endif
