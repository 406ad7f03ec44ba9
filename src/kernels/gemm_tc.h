/*
 * gemm_tc's descriptor (gemm_tc.c), as the plans use it: the indices
 * of its parameters, the vector width of its operands, the set a math mode
 * runs, and its step. Its arguments are gemm_fast's (kernels/tiled.h), with the
 * same padded operands and the same split of k, so that one plan serves
 * both kernels and only the main step differs.
 */
#ifndef OCLBLAS_KERNEL_GEMM_TC_H
#define OCLBLAS_KERNEL_GEMM_TC_H

#include "kernels/gemm_fast.h"

enum { TC_BM, TC_BN, TC_BK, TC_WM, TC_WN, TC_STAGES, TC_CP_ASYNC, TC_SPLIT, TC_PADA, TC_PADB, TC_PRODUCTS,
       TC_PROMOTE, TC_LOOP, TC_FRAGV, TC_CHUNK, TC_KPAIR, TC_COUNT };
/* Not parameters: whether a step's program reads A, and B, stored with k
 * contiguous (1), turning them as it stages them, and whether it is the
 * peeled program (1: any k, k-tile 0 partly zeros), in the slots after
 * the parameters, set by the step alone; the database and the tuner never
 * see them, and the program cache keys on them with the rest. A program of
 * its own, not a flag at run time: the branches cost the kernel about 2%
 * on operands stored as it reads them (4096^3 on the H100). */
enum { TC_A_ALONG_K = TC_COUNT, TC_B_ALONG_K, TC_PEELED };
_Static_assert(TC_PEELED < OCLBLAS__MAX_PARAMS, "gemm_tc's program switches need slots after its parameters");

/* A and B are read as float4: offsets and leading dimensions of both must
 * be multiples of 4 elements (gemm_fast's VWM = VWN = 4). */
#define OCLBLAS__GEMM_TC_VW 4

/* The set that runs for a math mode: p with PRODUCTS = 6, CHUNK = 1 and
 * PROMOTE = 0 (accurate, 6xBF16) or PRODUCTS = 1 (tf32, which has no use
 * for CHUNK: 0). The tf32 form of a legal accurate set is legal (one
 * product needs no more than six); the accurate form of another set may
 * not be (BK must be a multiple of 16), and the plans check. */
oclblas__params oclblas__gemm_tc_for_mode(const oclblas__params *p, oclblas_math_mode mode);

/* The step, on the tiled kernels' arguments: m, n the real sizes (C is
 * guarded), k padded to BK, k_slice a multiple of BK; the operands padded
 * to BM, BN and BK with zeros, offsets and leading dimensions in elements,
 * multiples of OCLBLAS__GEMM_TC_VW. */
void oclblas__gemm_tc_step(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *out);

/* For tests only: with on = 1, every device is capable and programs are
 * built with -DOCLBLAS_TC_EMULATE=1 (the kernel's emulation of mma.sync
 * in plain OpenCL C, see kernels/gemm_tc.cl), so that the
 * kernel's logic runs on PoCL through the library's own plans and
 * executor. Call it before the first call that resolves a device's
 * parameters; the library itself never sets it. */
void oclblas__gemm_tc_emulate(int on);

#endif
