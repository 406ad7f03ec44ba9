/*
 * gemm_cpu's descriptor (gemm_cpu.c), as the plans use it: the indices of
 * its parameters, its program switches and its step. The plans reach it
 * through its tiled member (kernels/tiled.h): its operands packed into
 * panels by its program's pack_a and pack_b, or read as stored where the
 * plan says (kernels/gemm_cpu.cl: which layouts it can).
 */
#ifndef OCLBLAS_KERNEL_GEMM_CPU_H
#define OCLBLAS_KERNEL_GEMM_CPU_H

#include "kernels/tiled.h"

enum { GC_VW, GC_MV, GC_NR, GC_KU, GC_TN, GC_COUNT };
/* Not parameters: the program switches, in the slots after the
 * parameters, set by the step alone (as gemm_fast's PEELED, gemm_fast.h):
 * B stored with k contiguous (BK), C stored transposed (CT). */
enum { GC_BK = GC_COUNT, GC_CT };
_Static_assert(GC_CT < OCLBLAS__MAX_PARAMS, "gemm_cpu's program switches need slots after its parameters");

/* The step, on the tiled kernels' arguments: m, n the real sizes (C is
 * guarded), k a multiple of KU (packed to one: zeros beyond the real k),
 * k_slice a multiple of KU; an operand packed (a_packed, b_packed) in
 * panels of the tile's panel_a and panel_b rows (offset 0, leading
 * dimension unused), else read as stored: A with m contiguous, B with n
 * contiguous or with k contiguous (b_k_contiguous), at least a panel's
 * rows (the last panel is moved back to end at the edge); a batch's
 * operands stride_a and stride_b floats apart (0: one that every problem
 * shares); C stored transposed where c_transposed says so. */
void oclblas__gemm_cpu_step(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *out);

#endif
