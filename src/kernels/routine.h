/*
 * The routine-level values (routine.c): choices between plans, a
 * parameter table without a program of its own.
 */
#ifndef OCLBLAS_KERNEL_ROUTINE_H
#define OCLBLAS_KERNEL_ROUTINE_H

#include "kernels/step.h"

enum { RT_GEMM_MIN_INDIRECT, RT_GEMV_GROUPS_PER_CU, RT_HOST_MAX, RT_GEMM_SPLIT_K, RT_GEMM_TC_MIN, RT_GEMM_MAX_SLICE_K,
       RT_GEMV_T_GROUPS_PER_CU, RT_GEMM_CPU, RT_COUNT };

#endif
