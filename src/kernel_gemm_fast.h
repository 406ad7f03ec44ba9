/*
 * gemm_fast's descriptor (kernel_gemm_fast.c), as the plans use it: the
 * indices of its parameters, its arguments as a struct, and the step that
 * launches it with its geometry.
 */
#ifndef OCLBLAS_KERNEL_GEMM_FAST_H
#define OCLBLAS_KERNEL_GEMM_FAST_H

#include "internal.h"

enum { GF_MWG, GF_NWG, GF_KWG, GF_MDIMC, GF_NDIMC, GF_MDIMA, GF_NDIMB, GF_KWI, GF_VWM, GF_VWN,
       GF_STRM, GF_STRN, GF_SA, GF_SB, GF_COUNT };

/* C (m x n) = alpha A B + beta C over k, in slices of k_slice: slice z is
 * written into its own copy of C, c_slice elements after the previous one
 * (one slice: into C itself). A is m x k with m contiguous, B k x n with n
 * contiguous; both are padded to the tile (m to a multiple of MWG, n of
 * NWG, k of KWG, zeros beyond the real sizes). Offsets and leading
 * dimensions are in elements; those of A must be multiples of VWM, of B of
 * VWN. C is read and written in place, guarded at its edges. */
typedef struct {
    size_t m, n, k, k_slice, c_slice;
    float alpha, beta;
    oclblas__buf a, b, c;
    size_t a_off, a_ld, b_off, b_ld, c_off, c_ld;
} oclblas__gemm_fast_args;

/* With a batch (not NULL, count > 1; k not split): count such products,
 * each over the whole k, problem z's A, B and C the batch's strides (in
 * elements, multiples of VWM and VWN for A and B) after problem z - 1's. */
void oclblas__gemm_fast_step(const oclblas__params *p, const oclblas__gemm_fast_args *a,
                             const oclblas__batch *batch, oclblas__step *out);
/* The argument list that gemm_fast and gemm_tc share, appended to s: A and
 * B's offsets and leading dimensions in vectors of vwa and vwb floats. */
void oclblas__gemm_tile_args(const oclblas__gemm_fast_args *a, size_t vwa, size_t vwb, oclblas__step *s);

#endif
