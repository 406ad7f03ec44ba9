/*
 * gemm_cpu's descriptor (gemm_cpu.c), as the plans use it: the indices of
 * its parameters and its step. The plans reach it through its tiled member
 * (kernels/tiled.h): its operands are always packed into panels by the
 * helpers (pack_panels), never read in place.
 */
#ifndef OCLBLAS_KERNEL_GEMM_CPU_H
#define OCLBLAS_KERNEL_GEMM_CPU_H

#include "kernels/tiled.h"

enum { GC_VW, GC_MV, GC_NR, GC_KU, GC_TN, GC_COUNT };

/* The step, on the tiled kernels' arguments: m, n the real sizes (C is
 * guarded), k packed to a multiple of KU, k_slice a multiple of KU; A and
 * B packed in panels of the tile's panel_a and panel_b rows (offsets 0,
 * leading dimensions unused), a batch's copies stride_a and stride_b
 * floats apart (0: one copy that every problem shares). */
void oclblas__gemm_cpu_step(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *out);

#endif
