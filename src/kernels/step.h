/*
 * One kernel launch as a value (step.c): which program and entry point,
 * its geometry and its arguments by role, and what it waits for. The
 * descriptors' step functions make steps; the executor enqueues them
 * (runtime/launch.c).
 */
#ifndef OCLBLAS_STEP_H
#define OCLBLAS_STEP_H

#include "kernels/kernel.h"

#define OCLBLAS__MAX_ARGS 24
/* The scratch slots a plan may use: roles S0, S1, S2 and S3. S3 holds
 * counters that are zero between uses: created zero, and every kernel that
 * counts in it sets its counts back to zero before it ends. */
#define OCLBLAS__SCRATCH_SLOTS 4
/* The largest alignment of an operand, in bytes, that vector loads and
 * in-place reads ask about (oclblas__alignment). */
#define OCLBLAS__MAX_ALIGN 32

/* The buffers a step reads and writes, by role: the call's operands
 * (A, B or x, C or y) and the four scratch slots. */
typedef enum {
    OCLBLAS__BUF_A,
    OCLBLAS__BUF_B,
    OCLBLAS__BUF_C,
    OCLBLAS__BUF_S0,
    OCLBLAS__BUF_S1,
    OCLBLAS__BUF_S2,
    OCLBLAS__BUF_S3,
    OCLBLAS__BUF_COUNT
} oclblas__buf;

typedef struct {
    cl_uint dims;
    size_t global[3], local[3];
} oclblas__geometry;

typedef struct {
    enum { OCLBLAS__ARG_INT, OCLBLAS__ARG_FLOAT, OCLBLAS__ARG_BUF } kind;
    union {
        int i;
        float f;
        oclblas__buf buf;
    } u;
} oclblas__arg_value;

/* A launch: which program and entry point, its geometry and arguments, and
 * what it waits for. The descriptors' step functions make it from their
 * typed argument structs, so that nobody else restates a geometry. */
typedef struct {
    int kernel;              /* the table whose program it runs */
    oclblas__params params;  /* the parameters of that program (and of the geometry) */
    const char *entry;       /* the kernel function in that program */
    oclblas__geometry geo;
    int num_args;
    oclblas__arg_value args[OCLBLAS__MAX_ARGS];
    unsigned after;    /* bit i: waits for step i of its plan */
    int after_scratch; /* waits for the scratch buffers' previous use */
} oclblas__step;

/* Argument builders for the descriptors' step functions. */
void oclblas__step_int(oclblas__step *s, int v);
void oclblas__step_float(oclblas__step *s, float v);
void oclblas__step_buf(oclblas__step *s, oclblas__buf b);

/* A strided batch: count problems of one shape, problem z's operands
 * stride_a, stride_b and stride_c elements after problem z - 1's (0 for A
 * or B: the same operand for every problem). count 0 or 1: one problem. */
typedef struct {
    size_t count;
    size_t stride_a, stride_b, stride_c;
} oclblas__batch;

/* A batch of `count` problems as the third dimension of a step's geometry
 * (one work-group deep each); 0 or 1 leaves a single problem's geometry as
 * it is. The most problems one launch takes: NVIDIA's grids stop at 65535
 * work-groups in their third dimension, and OpenCL cannot ask. */
#define OCLBLAS__MAX_BATCH_LAUNCH 65535
void oclblas__step_batch(oclblas__step *s, size_t count);

#endif
