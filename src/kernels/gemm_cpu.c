/*
 * gemm_cpu's descriptor (kernels/gemm_cpu.cl): its five parameters (the
 * vector width VW, vectors of m a block MV, columns a block NR, steps of k
 * unrolled KU, blocks a work-item TN) with their ranges and the tuner's
 * candidates, the rule that keeps a block's accumulators within reach of
 * the registers, the size derived from a set, its launch geometry (one
 * work-item a work-group, one MR x NR TN strip of C each) and its tile,
 * as the plan asks of a tiled kernel (kernels/tiled.h): panels of MR rows
 * of A and NR columns of B, packed by its own program's pack_a and pack_b
 * or read as stored (A with m contiguous, B with n or with k contiguous;
 * its last panel moved back to end at the edge), and k a multiple of KU.
 */
#include "kernels/gemm_cpu.h"

#include <limits.h>

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

static const oclblas__param_def params[GC_COUNT] = {
    [GC_VW] = {"VW", 4, 16, 2, {8, 16}},
    [GC_MV] = {"MV", 1, 8, 3, {1, 2, 3}, 'm'},
    [GC_NR] = {"NR", 1, 32, 6, {2, 4, 6, 8, 12, 14}, 'n'},
    [GC_KU] = {"KU", 1, 16, 3, {1, 2, 4}, 'k'},
    [GC_TN] = {"TN", 1, 16, 3, {1, 2, 4}},
};

static const char *vw(const int *v, const oclblas__limits *l)
{
    return v[GC_VW] == 4 || v[GC_VW] == 8 || v[GC_VW] == 16 ? NULL : "VW must be 4, 8 or 16";
}
/* A block's accumulators live in registers; beyond 64 vectors they spill on every CPU. */
static const char *block(const int *v, const oclblas__limits *l)
{
    return v[GC_MV] * v[GC_NR] > 64 ? "MV * NR must be at most 64" : NULL;
}

#define P OCLBLAS__P
static const oclblas__rule rules[] = {
    {P(GC_VW), 0, vw},
    {P(GC_MV) | P(GC_NR), 0, block},
};
#undef P

/* The packing's share of work per work-item: PACK_COLS columns of a
 * group of panels whose rows, together, are whole cache lines of 16 floats
 * (where the source's columns start on one) and at least PACK_RUN floats.
 * A work-item per column of a panel, reading its few rows of a column and
 * leaving the rest of the line to others, packs at a third of this speed
 * or less on PoCL (2048 x 1024 into panels of 16 rows: 1.2 ms against
 * 0.3 to 0.5, bench/results/pocl-cpu/gemm-cpu-pack). */
#define PACK_COLS 128
#define PACK_LINE 16
#define PACK_RUN 96
static size_t pack_group(size_t panel)
{
    size_t g = 1;
    while ((g * panel) % PACK_LINE)
        ++g;
    while (g * panel < PACK_RUN)
        g *= 2;
    return g;
}

static int derive(const int *v, oclblas__derived *out)
{
    out[0] = (oclblas__derived){"MR", v[GC_MV] * v[GC_VW]}; /* rows of A a panel, of C a block */
    out[1] = (oclblas__derived){"BK", v[GC_BK]};
    out[2] = (oclblas__derived){"CT", v[GC_CT]};
    out[3] = (oclblas__derived){"PACK_COLS", PACK_COLS};
    out[4] = (oclblas__derived){"PACK_GROUP_A", (int)pack_group((size_t)(v[GC_MV] * v[GC_VW]))};
    out[5] = (oclblas__derived){"PACK_GROUP_B", (int)pack_group((size_t)v[GC_NR])};
    return 6;
}

void oclblas__gemm_cpu_step(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *s)
{
    const int *v = p->v;
    const size_t mr = (size_t)(v[GC_MV] * v[GC_VW]), nr = (size_t)v[GC_NR];
    *s = (oclblas__step){.kernel = OCLBLAS__K_GEMM_CPU, .entry = "gemm_cpu", .params = *p};
    const int b_along_k = a->b_k_contiguous; /* as stored, read along k */
    s->params.v[GC_BK] = b_along_k;
    s->params.v[GC_CT] = a->c_transposed;
    s->geo.dims = 3;
    s->geo.local[0] = s->geo.local[1] = s->geo.local[2] = 1;
    s->geo.global[0] = ceil_div(a->m, mr);
    s->geo.global[1] = ceil_div(ceil_div(a->n, nr), (size_t)v[GC_TN]);
    oclblas__tile_args_head(a, s);
    const int batched = a->batch.count > 1;
    /* Where a panel starts (per row of A, per column of B), a step of k
     * after the last, and the last panel's start: packed, panels of k
     * steps one after the other (never moved back: zeros pad them); as
     * stored, the leading dimension apart (B along k: its columns are). */
    oclblas__step_buf(s, a->a);
    oclblas__step_int(s, (int)a->a_off);
    oclblas__step_int(s, a->a_packed ? (int)mr : (int)a->a_ld);
    oclblas__step_int(s, a->a_packed ? (int)a->k : 1);
    oclblas__step_int(s, a->a_packed ? INT_MAX : (int)(a->m - mr));
    oclblas__step_buf(s, a->b);
    oclblas__step_int(s, (int)a->b_off);
    oclblas__step_int(s, a->b_packed ? (int)nr : b_along_k ? 1 : (int)a->b_ld);
    oclblas__step_int(s, a->b_packed ? (int)a->k : b_along_k ? (int)a->b_ld : 1);
    oclblas__step_int(s, a->b_packed ? INT_MAX : (int)(a->n - nr));
    oclblas__step_buf(s, a->c);
    oclblas__step_int(s, (int)a->c_off);
    oclblas__step_int(s, (int)a->c_ld);
    oclblas__step_int(s, batched ? (int)a->batch.stride_a : 0);
    oclblas__step_int(s, batched ? (int)a->batch.stride_b : 0);
}

/* pack_a (operand 0) or pack_b (1), in the program whose parameters are
 * program (the gemm_cpu step's own, its switches set: one program serves
 * both steps); a work-item per PACK_COLS columns of a group of panels. */
static void pack_step(const oclblas__params *program, int operand, const oclblas__pad_args *a, oclblas__step *s)
{
    const int *v = program->v;
    const size_t panel = operand ? (size_t)v[GC_NR] : (size_t)(v[GC_MV] * v[GC_VW]);
    *s = (oclblas__step){.kernel = OCLBLAS__K_GEMM_CPU, .entry = operand ? "pack_b" : "pack_a", .params = *program};
    s->geo.dims = 2;
    s->geo.local[0] = s->geo.local[1] = s->geo.local[2] = 1;
    s->geo.global[0] = ceil_div(a->dst_cols, PACK_COLS);
    s->geo.global[1] = ceil_div(a->dst_rows / panel, pack_group(panel));
    oclblas__step_int(s, (int)a->rows);
    oclblas__step_int(s, (int)a->cols);
    oclblas__step_buf(s, a->src);
    oclblas__step_int(s, (int)a->src_off);
    oclblas__step_int(s, (int)a->src_ld);
    oclblas__step_int(s, a->transpose);
    oclblas__step_int(s, (int)a->dst_rows);
    oclblas__step_int(s, (int)a->dst_cols);
    oclblas__step_buf(s, a->dst);
    oclblas__step_int(s, (int)a->src_stride);
    oclblas__step_int(s, (int)a->dst_stride);
    oclblas__step_batch(s, a->batch);
}

/* A work-item computes MR x NR TN of C per KU of k; its operands are
 * packed in panels of MR rows of A and NR columns of B, or read as stored
 * in panels of the same rows (in whole floats: vectors of 1). */
static void tile(const oclblas__params *p, oclblas__tile *out)
{
    const int *v = p->v;
    const size_t mr = (size_t)(v[GC_MV] * v[GC_VW]), nr = (size_t)v[GC_NR];
    *out = (oclblas__tile){mr, nr * (size_t)v[GC_TN], (size_t)v[GC_KU], 1, 1, mr, nr};
}

/* B stored with k contiguous: its NR columns of a panel, streamed in step (the BK program). */
static int reads_k_contiguous(const oclblas__params *p, int operand) { return operand == 1; }

/* The four programs: B along k or not, C transposed or not. */
static int programs(const oclblas__params *p, const oclblas__limits *lim, oclblas__params *out)
{
    (void)lim;
    for (int i = 0; i < 4; ++i) {
        out[i] = *p;
        out[i].v[GC_BK] = i & 1;
        out[i].v[GC_CT] = i >> 1;
    }
    return 4;
}

static const oclblas__tiled tiled = {.tile = tile,
                                     .step = oclblas__gemm_cpu_step,
                                     .pack = pack_step,
                                     .reads_k_contiguous = reads_k_contiguous,
                                     .reads_ragged = 1};

const oclblas__kernel_desc oclblas__desc_gemm_cpu = {
    .name = "gemm_cpu",
    .source = oclblas__source_gemm_cpu,
    .num_params = GC_COUNT,
    .params = params,
    .num_rules = (int)(sizeof rules / sizeof rules[0]),
    .rules = rules,
    .derive = derive,
    .tiled = &tiled,
    .programs = programs,
};
