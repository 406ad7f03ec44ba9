/*
 * gemv_t's descriptor (gemv_t.c), as the plans use it: the indices
 * of its parameters, the columns one work-group covers, and its step (its
 * arguments are gemv_n's).
 */
#ifndef OCLBLAS_KERNEL_GEMV_T_H
#define OCLBLAS_KERNEL_GEMV_T_H

#include "kernels/gemv_n.h"

enum { GT_WGS, GT_TPC, GT_VW, GT_UNR, GT_COUNT };

size_t oclblas__gemv_t_cols_per_group(const oclblas__params *p);
void oclblas__gemv_t_step(const oclblas__params *p, const oclblas__gemv_args *a, oclblas__step *out);

#endif
