/*
 * The plans (plan.c): what a device-buffer call enqueues, as a value, from
 * the device context and the problem, without any OpenCL call; and the
 * line that describes a plan for the verbose log.
 */
#ifndef OCLBLAS_PLAN_H
#define OCLBLAS_PLAN_H

#include "kernels/step.h"
#include "plan/context.h"

#include <stddef.h>

/* An operand in a device buffer, column-major. align: the bytes the
 * element at offset is aligned to (a power of two, at most
 * OCLBLAS__MAX_ALIGN), which decides vector loads and in-place reads. */
typedef struct {
    size_t offset; /* elements; for a vector, of its element 0 (the last in memory when inc < 0) */
    size_t ld;     /* leading dimension of a matrix */
    ptrdiff_t inc; /* increment of a vector */
    unsigned align;
} oclblas__operand;

/* C = alpha op(A) op(B) + beta C, column-major, arguments checked. */
typedef struct {
    int trans_a, trans_b;
    size_t m, n, k;
    float alpha, beta;
    oclblas__operand a, b, c;
    oclblas_math_mode mode; /* the call's (oclblas_get_math_mode when it was made) */
} oclblas__gemm_problem;

/* y = alpha op(A) x + beta y with A rows x cols, column-major; the roles say
 * which of the call's buffers hold A, x and y (an SGEMM with m = 1 or
 * n = 1 runs as one with its own buffers). */
typedef struct {
    int trans;
    size_t rows, cols;
    float alpha, beta;
    oclblas__operand a, x, y;
    oclblas__buf a_buf, x_buf, y_buf;
    oclblas_math_mode mode;
} oclblas__gemv_problem;

typedef enum {
    OCLBLAS__PLAN_NOTHING, /* C unchanged: a marker as the call's event */
    OCLBLAS__PLAN_SCALE,   /* C = beta C */
    OCLBLAS__PLAN_GEMV,    /* a gemv kernel, with its split reduction */
    OCLBLAS__PLAN_DIRECT,  /* gemm_direct on the caller's buffers */
    OCLBLAS__PLAN_FAST     /* gemm_fast, operands padded or in place, k split or not */
} oclblas__plan_kind;

/* What an indirect plan (gemm_fast or gemm_tc) decides before its steps. */
typedef struct {
    size_t mp, np, kp;              /* the padded problem */
    int a_in_place, b_in_place;     /* read from the caller's buffer */
    int a_k_contiguous, b_k_contiguous; /* ... and stored with k contiguous (kernels/tiled.h) */
    int a_transposed, b_transposed; /* padded through pad_transpose */
    int a_packed, b_packed;         /* packed in panels (gemm_cpu's pack_a, pack_b) */
    int swapped;                    /* C^T = B^T A^T: A read from B's buffer, B from A's, C stored transposed */
    size_t slices, k_slice;         /* the split of k (1 slice: none) */
    int peeled;                     /* the set's second program (tiled.h): k may be not whole tiles, read in place */
    /* Of a batch's launch: its problems (0: not even two problems' copies
     * fit the scratch), and the padded copies of A and B it makes (one per
     * problem, or 1: one that every problem shares). */
    size_t problems, a_copies, b_copies;
} oclblas__fast_layout;

#define OCLBLAS__MAX_STEPS 4
typedef struct {
    oclblas__plan_kind kind;
    int num_steps;
    oclblas__step step[OCLBLAS__MAX_STEPS];
    int main; /* the step of the kernel the plan is for: its program is taken first */
    /* Of a batch, the problems the plan computes, from the first: fewer than
     * the batch's count where one launch cannot take them all (its scratch,
     * the grid's third dimension); the caller plans the rest after. */
    size_t problems;
    char cls[OCLBLAS__CLASS_NAME]; /* the class of shapes whose set the main kernel runs with ("": the set for every shape) */
    size_t scratch[OCLBLAS__SCRATCH_SLOTS]; /* bytes of each scratch slot; 0: not used */
    /* What was decided, for the log and the tests. */
    oclblas__fast_layout fast;
    struct {
        double time_s; /* the model's time for the plan (of a batch's launch: for all its problems) */
        int ways;      /* the plans it chose among; 0: the routine values and the classes' rules chose */
    } model;
    struct {
        int trans;
        size_t rows, cols;
        size_t groups, splits, chunk; /* work-groups along the output, splits of the reduction, and each one's length */
        int vec;                      /* 1 aligned vector loads, 2 unaligned ones (vloadn), 0 none */
        int finish;                   /* the splits added up in the kernel's own launch, not by gemv_reduce */
    } gemv;
} oclblas__plan;

/* A strided batch of the problem p (its operands those of problem 0; C's
 * problems do not overlap, and the batch's operands lie inside the
 * kernels' int): the plan of its first plan.problems problems. */
oclblas_status oclblas__gemm_batch_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                        const oclblas__batch *batch, oclblas__plan *out);
/* The plan of one problem: the batch plan of no batch. */
static inline oclblas_status oclblas__gemm_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                                oclblas__plan *out)
{
    return oclblas__gemm_batch_plan(cx, p, NULL, out);
}
/* A strided batch of the SGEMV p (its operands those of problem 0; the
 * strides of A, x and y in stride_a, stride_b and stride_c; y's problems
 * do not overlap, and the batch lies inside the index limit): as many
 * problems as one launch takes (plan.problems), in one launch of each
 * step. */
oclblas_status oclblas__gemv_batch_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p,
                                        const oclblas__batch *batch, oclblas__plan *out);
/* The plan of one problem: the batch plan of no batch. */
static inline oclblas_status oclblas__gemv_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p,
                                                oclblas__plan *out)
{
    return oclblas__gemv_batch_plan(cx, p, NULL, out);
}

/* A routine call as its caller wrote it, for the verbose log. */
typedef struct {
    const char *routine; /* "sgemm", "sgemv" */
    oclblas_layout layout;
    oclblas_transpose trans_a, trans_b;
    size_t m, n, k;
} oclblas__call;
/* One line: the caller's problem and the plan (operands named as the
 * caller names them, so row-major A is the caller's A). */
void oclblas__plan_describe(const oclblas__call *call, const oclblas__plan *plan, char *buf, size_t len);

#endif
