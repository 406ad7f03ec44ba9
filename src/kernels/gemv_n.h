/*
 * gemv_n's descriptor (gemv_n.c), as the plans use it: the indices
 * of its parameters, the arguments of both gemv kernels as a struct, the
 * rows one work-group covers, and its step.
 */
#ifndef OCLBLAS_KERNEL_GEMV_N_H
#define OCLBLAS_KERNEL_GEMV_N_H

#include "kernels/step.h"

enum { GN_WGS, GN_WPT, GN_VW, GN_UNR, GN_STRM, GN_COUNT };
/* Not a parameter: which of a set's two programs a step runs (1: the one
 * whose work-groups count their arrival and whose last adds the splits up,
 * FINISH; NVIDIA only), in the slot after the parameters, set by the step
 * alone, as gemv_t's GT_FINISH; the database and the tuner never see it,
 * and the program cache keys on it with the rest. A program apart, so that
 * a launch without splits runs code without the finish's atomic. */
enum { GN_FINISH = GN_COUNT };
_Static_assert(GN_FINISH < OCLBLAS__MAX_PARAMS, "gemv_n's program switch needs a slot after its parameters");

/* y = alpha op(A) x + beta y for a column-major A (rows x cols); gemv_n
 * and gemv_t take the same arguments. The reduction (columns for gemv_n,
 * rows for gemv_t) is cut into pieces of `chunk`, one per split; with more
 * than one split each writes its partial sums into `partial` (split s at
 * s * len(y)) for gemv_reduce. vec: how A (and for gemv_t x) is read: 1 in
 * aligned vectors of VW, 2 in vectors anywhere (vloadn), 0 element by
 * element (gemv_t with a strided x). batch: a strided batch of count
 * problems (stride_a, stride_b and stride_c the strides of A, x and y; the
 * partial sums of each problem after the previous one's), the launch's
 * third dimension; count 0 or 1 is a single product. team: the work-items
 * of a work-group that share each output's sum, a power of two (gemv_t: a
 * column's, at most TPC; gemv_n: a vector of rows', dividing WGS, each
 * taking a share of the columns; 1 for a panel). */
typedef struct {
    size_t rows, cols;
    float alpha, beta;
    oclblas__buf a, x, y, partial;
    size_t a_off, a_ld, x_off, y_off;
    ptrdiff_t incx, incy;
    size_t chunk;
    int vec;
    oclblas__batch batch;
    size_t team;
    /* finish 1 adds a split's partial sums up in the kernel's own launch
     * (its program FINISH), the work-groups of each block of rows (gemv_n)
     * or columns (gemv_t) of each problem counting their arrival in
     * arrivals (zero before and after). */
    oclblas__buf arrivals;
    int finish;
} oclblas__gemv_args;

/* The rows a work-group covers with a team of 1 (team t: 1 / t of them); 0
 * for a panel (STRM = 2): one work-group covers every row. */
size_t oclblas__gemv_n_rows_per_group(const oclblas__params *p);
/* The team that shares each vector of rows (a power of two dividing WGS;
 * 1 but for STRM = 1, a GPU's interleaved layout): doubled while a
 * work-group's rows would leave half its work-items idle, or while the
 * work-groups of one product fall short of `wanted` and a team still spans
 * a warp along the rows, as long as each member keeps a step of UNR of the
 * cols columns. Columns shared inside a work-group need no split across
 * work-groups, nor its partial sums and reduction. */
size_t oclblas__gemv_n_team(const oclblas__params *p, size_t rows, size_t cols, size_t wanted);
void oclblas__gemv_n_step(const oclblas__params *p, const oclblas__gemv_args *a, oclblas__step *out);
/* The arguments in the kernels' order (shared with gemv_t). */
void oclblas__gemv_args_put(const oclblas__gemv_args *a, oclblas__step *s);

#endif
