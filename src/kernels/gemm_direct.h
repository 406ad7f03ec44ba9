/*
 * gemm_direct's descriptor (gemm_direct.c), as the plans use it: the
 * indices of its parameters, its arguments as a struct, and its step.
 */
#ifndef OCLBLAS_KERNEL_GEMM_DIRECT_H
#define OCLBLAS_KERNEL_GEMM_DIRECT_H

#include "kernels/step.h"

enum { GD_WGD, GD_KWGD, GD_MDIMCD, GD_NDIMCD, GD_KWID, GD_PADA, GD_PADB, GD_COUNT };

/* C (m x n) = alpha op(A) op(B) + beta C straight from the caller's
 * column-major buffers, any sizes, offsets and leading dimensions; with a
 * batch (not NULL, count > 1), count such products, problem z's operands
 * the batch's strides after problem z - 1's. */
typedef struct {
    int trans_a, trans_b;
    size_t m, n, k;
    float alpha, beta;
    oclblas__buf a, b, c;
    size_t a_off, a_ld, b_off, b_ld, c_off, c_ld;
} oclblas__gemm_direct_args;

void oclblas__gemm_direct_step(const oclblas__params *p, const oclblas__gemm_direct_args *a,
                               const oclblas__batch *batch, oclblas__step *out);

#endif
