/*
 * The routine-level values: not parameters of a kernel but the crossovers
 * and targets by which the plans choose between kernels, per device, in the
 * database beside the kernels' parameters. Their ranges keep every value
 * the plans divide by or multiply with sane; oclblas-tune measures them
 * (tuner/routine.c) after the kernels.
 */
#include "kernels/routine.h"

static const oclblas__param_def params[RT_COUNT] = {
    /* gemm_fast when m * n * k >= this cubed, else the direct kernel */
    [RT_GEMM_MIN_INDIRECT] = {"GEMM_MIN_INDIRECT", 0, 1 << 20, 8, {64, 128, 192, 256, 384, 512, 768, 1024}},
    /* gemv_n's work-groups to aim for per compute unit before the reduction
     * is split (and gemv_t's where GEMV_T_GROUPS_PER_CU is 0) */
    [RT_GEMV_GROUPS_PER_CU] = {"GEMV_GROUPS_PER_CU", 1, 1024, 6, {1, 2, 4, 8, 16, 32}},
    /* host-pointer calls with m * n * k <= this cubed are computed on the host */
    [RT_HOST_MAX] = {"HOST_MAX", 0, 1 << 20, 8, {0, 8, 16, 32, 48, 64, 96, 128}},
    /* gemm_fast splits k when the tiles of C give fewer work-groups than this
     * per compute unit; 0 never splits */
    [RT_GEMM_SPLIT_K] = {"GEMM_SPLIT_K", 0, 64, 6, {0, 1, 2, 4, 8, 16}},
    /* in the accurate and tf32 math modes, gemm_tc instead of gemm_fast
     * when m * n * k >= this cubed (and the device can run it); 0 never */
    [RT_GEMM_TC_MIN] = {"GEMM_TC_MIN", 0, 1 << 20, 8, {0, 512, 768, 1024, 1536, 2048, 3072, 4096}},
    /* the longest k of a slice of gemm_fast (longer k is split whatever the
     * tiles of C: on a CPU, a work-group's panels of A and B then stay in
     * its caches); 0 no limit */
    [RT_GEMM_MAX_SLICE_K] = {"GEMM_MAX_SLICE_K", 0, 1 << 20, 5, {0, 256, 512, 1024, 2048}},
    /* gemv_t's, its own: its work-groups are the columns' teams, often a
     * fraction of gemv_n's, and few columns need many more of them; 0 (or
     * left out of an entry): as GEMV_GROUPS_PER_CU */
    [RT_GEMV_T_GROUPS_PER_CU] = {"GEMV_T_GROUPS_PER_CU", 0, 1024, 6, {1, 2, 4, 8, 16, 32}, .optional = 1},
    /* 1: SGEMM's indirect plans run gemm_cpu, on operands packed into
     * panels, instead of gemm_fast (a CPU's choice); 0 (or left out of an
     * entry): gemm_fast */
    [RT_GEMM_CPU] = {"GEMM_CPU", 0, 1, 2, {0, 1}, .optional = 1},
};

const oclblas__kernel_desc oclblas__desc_routine = {
    .name = "routine",
    .num_params = RT_COUNT,
    .params = params,
};
