/*
 * gemv_t's descriptor (gemv_t.c), as the plans use it: the indices
 * of its parameters, the team of work-items a column of a given length
 * gets, and its step (its arguments are gemv_n's).
 */
#ifndef OCLBLAS_KERNEL_GEMV_T_H
#define OCLBLAS_KERNEL_GEMV_T_H

#include "kernels/gemv_n.h"

enum { GT_WGS, GT_TPC, GT_VW, GT_UNR, GT_COUNT };
/* gemv_t's program switch, as gemv_n's GN_FINISH. */
enum { GT_FINISH = GT_COUNT };
_Static_assert(GT_FINISH < OCLBLAS__MAX_PARAMS, "gemv_t's program switch needs a slot after its parameters");

/* The work-items per column for columns of `rows` (a power of two, at most
 * TPC); a work-group covers WGS / team columns. */
size_t oclblas__gemv_t_team(const oclblas__params *p, size_t rows);
void oclblas__gemv_t_step(const oclblas__params *p, const oclblas__gemv_args *a, oclblas__step *out);

#endif
