/*
 * How oclblas-tune times a kernel (tuning.c): the form of the problem it
 * is timed on, its default sizes and share of a run, and the plans it
 * times. Above the plans: a whole-plan timing runs the library's plan.
 */
#ifndef OCLBLAS_TUNING_H
#define OCLBLAS_TUNING_H

#include "plan/plan.h"

typedef struct oclblas__tuning oclblas__tuning;

/* The kind of problem a kernel is timed on: the tuner sets up its data and
 * host reference by form, so a new kernel of a known form needs nothing in
 * the tuner. Column-major, leading dimensions equal to the rows, offsets 0,
 * the tuner's own buffers in roles A, B and C:
 *   GEMM  C (m x n) = alpha op(A) op(B) + beta C, A and B stored as the
 *         tuning's transposes say;
 *   GEMV  y (role C) = alpha op(A) x (role B) + beta y, A m x n;
 *   COPY  the source A (m x n) padded to rows x cols into C as it is and
 *         into B as its transpose (A read as n x m with leading dimension n);
 *         both outputs are checked, zeros beyond the source included. */
typedef enum { OCLBLAS__FORM_GEMM, OCLBLAS__FORM_GEMV, OCLBLAS__FORM_COPY } oclblas__form;

typedef struct {
    size_t m, n, k;
    size_t rows, cols; /* COPY: the padded shape, set by prepare */
    float alpha, beta;
} oclblas__tune_problem;

struct oclblas__tuning {
    oclblas__form form;
    int trans_a, trans_b; /* GEMM: the stored orientation of A and B; GEMV: trans_a */
    double share;         /* of a whole-run time budget */
    int num_sizes;        /* default problem sizes (m, n, k) on a GPU or accelerator, and on a CPU */
    size_t gpu[2][3], cpu[2][3];
    /* GEMM: the problem a set's rate, for the plans' cost model, is
     * defined on (docs/database.md), timed as the sizes above are; all 0:
     * the kernel's sets have no rate. */
    size_t rate[3];
    /* 1: whole calls are timed end to end (the reduction a gemv candidate's
     * geometry causes is part of its cost); 0: the plan's steps of this
     * kernel only, each by its own event. */
    int whole_plan;
    /* Fits the problem to a candidate (gemm_fast: sizes to its tile; the
     * helpers: the padded shape of the tuned gemm_fast); NULL: as it is. */
    void (*prepare)(const oclblas__devctx *cx, const oclblas__params *cand, oclblas__tune_problem *p);
    /* The plan the tuner times: cand as this kernel's parameters, cx for the others. */
    oclblas_status (*plan)(const oclblas__devctx *cx, const oclblas__params *cand, const oclblas__tune_problem *p,
                           oclblas__plan *out);
    /* 1: a set is tuned for each class of shapes of the kernel's form (the
     * tuner's --class), beside the set for every shape. */
    int per_class;
    /* 1: a kernel meant for CPUs, searched on other devices only where
     * the run names it. */
    int cpu_only;
    /* The plan timed for a class: the library's whole plan for the class's
     * problem as it is (no prepare), cand in force for every shape, timed
     * end to end; for the GEMM form column-major NN (A m x k, B k x n).
     * NULL: plan (whole_plan kernels, which need nothing else). */
    oclblas_status (*class_plan)(const oclblas__devctx *cx, const oclblas__params *cand,
                                 const oclblas__tune_problem *p, oclblas__plan *out);
};

/* How the tuner times a kernel; NULL: it does not search it (the routine
 * values, measured apart: tuner/routine.c). */
const oclblas__tuning *oclblas__tuning_of(int kernel);

#endif
