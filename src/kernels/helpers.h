/*
 * The helpers' descriptor (helpers.c), as the plans use it: the
 * indices of their parameters, and for each entry point its arguments as a
 * struct and the step that launches it with its geometry.
 */
#ifndef OCLBLAS_KERNEL_HELPERS_H
#define OCLBLAS_KERNEL_HELPERS_H

#include "kernels/step.h"

enum { HP_PAD_DIMX, HP_PAD_DIMY, HP_PAD_WPTX, HP_PAD_WPTY, HP_TRA_DIM, HP_TRA_WPT, HP_TRA_PAD, HP_COUNT };

/* dst (dst_rows x dst_cols, leading dimension dst_rows) = the rows x cols
 * source at src_off, stored as it is (pad_copy: src(r, c) at
 * src[c * src_ld + r]) or transposed (pad_transpose: at src[r * src_ld + c]),
 * zeros around it (a kernel that reads panels packs its operands from
 * the same arguments: kernels/tiled.h). A batch (batch > 1) pads batch
 * sources, source z src_stride elements after source z - 1 and its copy
 * dst_stride after copy z - 1. */
typedef struct {
    int transpose;
    size_t rows, cols;
    oclblas__buf src;
    size_t src_off, src_ld;
    size_t dst_rows, dst_cols;
    oclblas__buf dst;
    size_t batch, src_stride, dst_stride;
} oclblas__pad_args;
void oclblas__pad_step(const oclblas__params *p, const oclblas__pad_args *a, oclblas__step *out);

/* C = beta C on a rows x cols block (scale_matrix); a batch (batch > 1)
 * on batch blocks, block z c_stride elements after block z - 1. */
typedef struct {
    size_t rows, cols;
    float beta;
    oclblas__buf c;
    size_t c_off, c_ld;
    size_t batch, c_stride;
} oclblas__scale_args;
void oclblas__scale_step(const oclblas__params *p, const oclblas__scale_args *a, oclblas__step *out);

/* C (rows x cols) = alpha (sum of the slices) + beta C, slice z of the
 * partial sums at part + z * part_stride with leading dimension part_ld
 * (sum_slices, the last step of gemm_fast's split of k). */
typedef struct {
    size_t rows, cols, slices;
    oclblas__buf part;
    size_t part_ld, part_stride;
    float alpha, beta;
    oclblas__buf c;
    size_t c_off, c_ld;
} oclblas__sum_slices_args;
void oclblas__sum_slices_step(const oclblas__params *p, const oclblas__sum_slices_args *a, oclblas__step *out);

/* y (n elements from y_off, increment incy) = alpha (sum of the splits'
 * partial sums, split s at partial + s * n) + beta y (gemv_reduce); of a
 * batch of count problems (0 or 1: one), problem z's y y_stride elements
 * after problem z - 1's and its partial sums splits * n after. team: the
 * work-items that share each output (a power of two dividing PAD_DIMX *
 * PAD_DIMY), each adding every team-th split. */
typedef struct {
    size_t n, splits;
    oclblas__buf partial;
    float alpha, beta;
    oclblas__buf y;
    size_t y_off;
    ptrdiff_t incy;
    size_t count, y_stride;
    size_t team;
} oclblas__gemv_reduce_args;
void oclblas__gemv_reduce_step(const oclblas__params *p, const oclblas__gemv_reduce_args *a, oclblas__step *out);
/* The work-items that add each output's partial sums for a reduction of
 * splits of them (a power of two dividing the work-group; 1 for few). */
size_t oclblas__gemv_reduce_team(const oclblas__params *p, size_t splits);

#endif
