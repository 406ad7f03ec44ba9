/*
 * gemm_tc's descriptor (kernels/gemm_tc.cl, SGEMM on NVIDIA tensor cores
 * through mma.sync with BF16 or TF32 operands): its parameters (block tile
 * BM BN BK, warp tile WM WN, local padding PADA PADB, products PRODUCTS,
 * promotion of one product's partial sums to FP32 PROMOTE, k-paired local
 * layout KPAIR, A split as it is staged SPLIT, CHUNK, which follows
 * PRODUCTS, and four that have one value: STAGES CP_ASYNC LOOP FRAGV)
 * with their ranges and the tuner's candidates, the rules that make a set
 * legal, the sizes derived from a set, the devices that can run it
 * (NVIDIA, compute capability 8.0 and above), its launch geometry and
 * its tile, as the plan asks of a tiled kernel (kernels/tiled.h).
 *
 * PRODUCTS is part of a set so that a set names its program completely
 * (build options and cache keys come from sets), but the math mode decides
 * it (oclblas__gemm_tc_for_mode): an entry's value is what the set was
 * tuned with. Six products need at least the resources of one, so the
 * tf32 form of a legal accurate set is legal too; another set (BK not a
 * multiple of 16, KPAIR, or too many registers for the split fragments)
 * may have no accurate form, and the plan then keeps gemm_fast for that
 * mode.
 */
#include "kernels/gemm_tc.h"

#include <stdatomic.h>

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

static const oclblas__param_def params[TC_COUNT] = {
    [TC_BM] = {"BM", 16, 256, 1, {128}},
    [TC_BN] = {"BN", 8, 256, 3, {64, 128, 256}},
    [TC_BK] = {"BK", 8, 64, 2, {8, 16}},
    /* 128: one warp down the tile, the fastest six-product set of full
     * searches on the H100 and H200 (the shipped entries' set). */
    [TC_WM] = {"WM", 16, 128, 2, {64, 128}},
    [TC_WN] = {"WN", 8, 128, 2, {32, 64}},
    /* STAGES, CP_ASYNC, LOOP and FRAGV have one value each: the kernel has
     * one pipeline (two slots, staged through registers), one main loop and
     * loads fragments a word at a time. Entries name them, so they stay,
     * fixed. */
    [TC_STAGES] = {"STAGES", 2, 2, 1, {2}},
    [TC_CP_ASYNC] = {"CP_ASYNC", 0, 0, 1, {0}},
    /* Six products: 1 splits A into its BF16 words once per work-group, as
     * it goes into local memory; 0 as each warp loads its fragments. */
    [TC_SPLIT] = {"SPLIT", 0, 1, 2, {0, 1}},
    /* 8 (mod 32) makes the fragment loads conflict-free; 0 is 4-way conflicted. */
    [TC_PADA] = {"PADA", 0, 64, 1, {8}},
    [TC_PADB] = {"PADB", 0, 64, 1, {8}},
    /* 6: products of three BF16 words (the accurate mode's); 1: one TF32 product */
    [TC_PRODUCTS] = {"PRODUCTS", 1, 6, 1, {6}},
    /* One product: k-tiles per promotion of a separate sum to FP32 (0:
     * none). Six products reach FP32 every k16 step: 0. */
    [TC_PROMOTE] = {"PROMOTE", 0, 8, 2, {0, 2}},
    [TC_LOOP] = {"LOOP", 1, 1, 1, {1}},
    [TC_FRAGV] = {"FRAGV", 1, 1, 1, {1}},
    /* Not a choice: 1 with six products (each tile's six products of a
     * k16 step summed apart and added in FP32), 0 with one. It keeps both
     * values so that entries still parse; the kernel does not read it. */
    [TC_CHUNK] = {"CHUNK", 0, 1, 2, {0, 1}},
    /* 1: k rows stored in pairs, fragments loaded in mma's register order
     * (one product only: tf32 sets) */
    [TC_KPAIR] = {"KPAIR", 0, 1, 1, {0}},
};

/* The kernel's edge guard, not a choice: it recomputes with FFMA every
 * tile whose sums hold Inf, NaN or a magnitude near overflow and every
 * tile with a nonzero operand outside [2^GUARD_EMIN, 2^GUARD_EMAX].
 * The range test is needed: near the bottom of the float range an
 * operand's lower words of the split are subnormal, and the tensor cores
 * do not read them exactly (a subnormal A times a B near 2^120 came out
 * 10% wrong without it: tests/test_gemm_tc.c, case "A subnormal", in the
 * emulation, which reads operands as the tensor cores do). Inside the
 * range every word the tensor cores read (three BF16 words of the split in
 * the accurate mode, the operand itself in the tf32 mode) is a normal
 * number and no single product overflows, whatever the tensor cores do
 * with subnormals. */
#define GUARD_EMIN (-51)
#define GUARD_EMAX 63
/* The split A's local rows are BM / 2 + 2 quads, 2 (mod 8) as its
 * fragment loads need to be conflict-free (kernels/gemm_tc.cl). */
#define A_QUADS_PAD 2
/* Bytes of local memory the emulation adds: 6 words per work-item. */
#define EMULATION_LOCAL_PER_ITEM 24

static atomic_int emulate;

void oclblas__gemm_tc_emulate(int on) { atomic_store(&emulate, on != 0); }

/* Rules that count work-items run after block_tile; on a partial
 * assignment they may not, so they refuse a tile without a warp themselves. */
static int warps(const int *v) { return (v[TC_BM] / v[TC_WM]) * (v[TC_BN] / v[TC_WN]); }
static const char *const no_warp = "BM must be a multiple of WM and BN of WN";
static int threads(const int *v) { return 32 * warps(v); }
/* Accumulators (twice when promotion keeps a second set), one k-step's
 * fragments, the six products' temporaries, about 40 for addresses and
 * loop state: the kernel author's estimate, borne out by ptxas in the
 * development runs (the tensor-core notes). Rough, since ptxas reuses
 * fragment registers. */
static int registers_per_item(const int *v)
{
    const int mt = v[TC_WM] / 16, nt = v[TC_WN] / 8, six = v[TC_PRODUCTS] == 6;
    /* six: B's three words of a k16 step, A's raw words of two k8 steps
     * (none when split as staged) and three words of a tile row */
    const int frag = six ? nt * 6 + (v[TC_SPLIT] ? 0 : mt * 8) + 12 : mt * 4 + nt * 2;
    return mt * nt * 4 * (v[TC_PROMOTE] ? 2 : 1) + frag + (six ? 8 : 0) + 40;
}

static const char *warp_m(const int *v, const oclblas__limits *l)
{
    return v[TC_WM] % 16 ? "WM must be a multiple of 16 (m16n8k8 tiles)" : NULL;
}
static const char *warp_n(const int *v, const oclblas__limits *l)
{
    return v[TC_WN] % 8 ? "WN must be a multiple of 8 (m16n8k8 tiles)" : NULL;
}
static const char *k_tile(const int *v, const oclblas__limits *l)
{
    return v[TC_BK] % 8 ? "BK must be a multiple of 8 (m16n8k8 tiles)" : NULL;
}
static const char *block_tile(const int *v, const oclblas__limits *l)
{
    return v[TC_BM] % v[TC_WM] || v[TC_BN] % v[TC_WN] ? no_warp : NULL;
}
/* Local rows stay 16-byte aligned for float4 stores and loads. */
static const char *padding(const int *v, const oclblas__limits *l)
{
    return v[TC_PADA] % 4 || v[TC_PADB] % 4 ? "PADA and PADB must be multiples of 4" : NULL;
}
static const char *products(const int *v, const oclblas__limits *l)
{
    return v[TC_PRODUCTS] != 1 && v[TC_PRODUCTS] != 6 ? "PRODUCTS must be 1 or 6" : NULL;
}
/* One BF16 mma.sync spans k16: two k8 steps of a k-tile. */
static const char *bf16_k_tile(const int *v, const oclblas__limits *l)
{
    return v[TC_PRODUCTS] == 6 && v[TC_BK] % 16 ? "PRODUCTS = 6 needs BK a multiple of 16" : NULL;
}
/* Every work-item stages whole float4s of each tile. */
static const char *chunks(const int *v, const oclblas__limits *l)
{
    const int per = 4 * threads(v);
    if (!per)
        return no_warp;
    return (v[TC_BM] * v[TC_BK]) % per || (v[TC_BN] * v[TC_BK]) % per
               ? "BM * BK and BN * BK must be multiples of 4 * 32 * (BM / WM) * (BN / WN)"
               : NULL;
}
/* Six products sum each k16 step apart (the tensor cores truncate their
 * sums), which CHUNK = 1 names; promotion is one product's. */
static const char *sums(const int *v, const oclblas__limits *l)
{
    if (v[TC_PRODUCTS] == 6)
        return !v[TC_CHUNK] || v[TC_PROMOTE] ? "PRODUCTS = 6 needs CHUNK = 1 and PROMOTE = 0" : NULL;
    return v[TC_CHUNK] ? "CHUNK > 0 needs PRODUCTS = 6" : NULL;
}
/* The paired layout holds raw words: one product only. */
static const char *kpair(const int *v, const oclblas__limits *l)
{
    return v[TC_KPAIR] && v[TC_PRODUCTS] != 1 ? "KPAIR = 1 needs PRODUCTS = 1" : NULL;
}
/* A split as staged goes into local memory as BF16 words of six products,
 * in units of two float4s of a work-item (kernels/gemm_tc.cl,
 * split_offset). */
static const char *split(const int *v, const oclblas__limits *l)
{
    const int per = 4 * threads(v);
    if (!v[TC_SPLIT])
        return NULL;
    if (!per)
        return no_warp;
    if (v[TC_PRODUCTS] != 6 || v[TC_KPAIR])
        return "SPLIT = 1 needs PRODUCTS = 6 and KPAIR = 0";
    return (v[TC_BM] * v[TC_BK] / per) % 2 ? "SPLIT = 1 needs an even number of float4s of A per work-item" : NULL;
}
/* KPAIR stages k rows in pairs: whole pairs of float4s and of n8 tiles. */
static const char *kpair_tiles(const int *v, const oclblas__limits *l)
{
    const int per = 4 * threads(v);
    if (!v[TC_KPAIR])
        return NULL;
    if (!per)
        return no_warp;
    return (v[TC_WN] / 8) % 2 || (v[TC_BM] * v[TC_BK] / per) % 2 || (v[TC_BN] * v[TC_BK] / per) % 2
               ? "KPAIR = 1 needs WN / 8 even and an even number of float4s of A and of B per work-item"
               : NULL;
}
/* NVIDIA: at most 255 registers per work-item and 64 Ki per work-group;
 * beyond them the accumulators spill. The estimate is rough: it refuses
 * only what cannot fit by a margin (the kernel author's bounds). */
static const char *registers(const int *v, const oclblas__limits *l)
{
    const int r = registers_per_item(v);
    if (!warps(v))
        return no_warp;
    return r > 290 || r * threads(v) > 65536 + 65536 / 8 ? "the warp tile needs more registers than a work-group has"
                                                          : NULL;
}
static const char *dev_wgs(const int *v, const oclblas__limits *l)
{
    const size_t t = (size_t)threads(v);
    if (!t)
        return no_warp;
    return t > l->max_wg_size || t > l->max_item[0] ? "work-group larger than the device allows" : NULL;
}
/* Two slots of each tile (A split as staged: three planes of BM / 2 + 2
 * words per k, each word two BF16s, where that is more than a raw row),
 * the fallback's flag. */
static const char *dev_local(const int *v, const oclblas__limits *l)
{
    unsigned long long a_row = (unsigned long long)(v[TC_BM] + v[TC_PADA]);
    if (v[TC_SPLIT] && 3ull * (v[TC_BM] / 2 + A_QUADS_PAD) > a_row)
        a_row = 3ull * (v[TC_BM] / 2 + A_QUADS_PAD);
    unsigned long long bytes =
        4ull * 2 * (unsigned long long)v[TC_BK] * (a_row + (unsigned long long)(v[TC_BN] + v[TC_PADB])) + 4;
    if (atomic_load(&emulate))
        bytes += EMULATION_LOCAL_PER_ITEM * (unsigned long long)threads(v);
    return bytes > l->local_mem ? "more local memory than the device has" : NULL;
}

#define P OCLBLAS__P
static const oclblas__rule rules[] = {
    {P(TC_WM), 0, warp_m},
    {P(TC_WN), 0, warp_n},
    {P(TC_BK), 0, k_tile},
    {P(TC_BM) | P(TC_BN) | P(TC_WM) | P(TC_WN), 0, block_tile},
    {P(TC_PADA) | P(TC_PADB), 0, padding},
    {P(TC_PRODUCTS), 0, products},
    {P(TC_PRODUCTS) | P(TC_BK), 0, bf16_k_tile},
    {P(TC_BM) | P(TC_BN) | P(TC_BK) | P(TC_WM) | P(TC_WN), 0, chunks},
    {P(TC_PRODUCTS) | P(TC_CHUNK) | P(TC_PROMOTE), 0, sums},
    {P(TC_KPAIR) | P(TC_PRODUCTS), 0, kpair},
    {P(TC_SPLIT) | P(TC_PRODUCTS) | P(TC_KPAIR) | P(TC_BM) | P(TC_BN) | P(TC_BK) | P(TC_WM) | P(TC_WN), 0, split},
    {P(TC_KPAIR) | P(TC_BM) | P(TC_BN) | P(TC_BK) | P(TC_WM) | P(TC_WN), 0, kpair_tiles},
    {P(TC_BM) | P(TC_BN) | P(TC_WM) | P(TC_WN) | P(TC_PRODUCTS) | P(TC_PROMOTE), 0, registers},
    {P(TC_BM) | P(TC_BN) | P(TC_WM) | P(TC_WN), 1, dev_wgs},
    {P(TC_BK) | P(TC_BM) | P(TC_PADA) | P(TC_BN) | P(TC_PADB) | P(TC_SPLIT), 1, dev_local},
};
#undef P

/* mma.sync with TF32 operands came with compute capability 8.0. */
static const char *capable(const oclblas__limits *lim)
{
    if (atomic_load(&emulate) || lim->nv_compute_capability >= 80)
        return NULL;
    return lim->nv_compute_capability ? "tensor cores with TF32 need compute capability 8.0 or above"
                                      : "tensor cores through mma.sync need an NVIDIA device";
}

/* The rows of the blocks a work-item turns its chunks float4s of an
 * operand stored with k contiguous in: 4, or 2, or 1, whichever divides. */
static int rows_of(int chunks) { return chunks % 4 == 0 ? 4 : chunks % 2 == 0 ? 2 : 1; }

static int derive(const int *v, oclblas__derived *out)
{
    const int t = threads(v);
    int n = 0;
    out[n++] = (oclblas__derived){"WARPS_M", v[TC_BM] / v[TC_WM]};
    out[n++] = (oclblas__derived){"WARPS_N", v[TC_BN] / v[TC_WN]};
    out[n++] = (oclblas__derived){"THREADS", t};
    out[n++] = (oclblas__derived){"MT", v[TC_WM] / 16}; /* m16n8k8 tiles per warp */
    out[n++] = (oclblas__derived){"NT", v[TC_WN] / 8};
    out[n++] = (oclblas__derived){"KSTEPS", v[TC_BK] / 8};
    out[n++] = (oclblas__derived){"LDA", v[TC_BM] + v[TC_PADA]}; /* local rows */
    out[n++] = (oclblas__derived){"LDB", v[TC_BN] + v[TC_PADB]};
    const int a_chunks = v[TC_BM] * v[TC_BK] / (4 * t), b_chunks = v[TC_BN] * v[TC_BK] / (4 * t);
    out[n++] = (oclblas__derived){"A_CHUNKS", a_chunks}; /* float4s per work-item */
    out[n++] = (oclblas__derived){"B_CHUNKS", b_chunks};
    /* Read with k contiguous, a work-item turns its float4s in blocks of as many rows (4 x 4 where it can); 0: not. */
    out[n++] = (oclblas__derived){"A_ROWS", v[TC_A_ALONG_K] ? rows_of(a_chunks) : 0};
    out[n++] = (oclblas__derived){"B_ROWS", v[TC_B_ALONG_K] ? rows_of(b_chunks) : 0};
    out[n++] = (oclblas__derived){"GUARD_EMIN", GUARD_EMIN};
    out[n++] = (oclblas__derived){"GUARD_EMAX", GUARD_EMAX};
    out[n++] = (oclblas__derived){"A_QUADS", v[TC_BM] / 2 + A_QUADS_PAD}; /* the split A's local rows */
    out[n++] = (oclblas__derived){"PEELED", v[TC_PEELED]};
    if (atomic_load(&emulate))
        out[n++] = (oclblas__derived){"OCLBLAS_TC_EMULATE", 1};
    return n;
}

oclblas__params oclblas__gemm_tc_for_mode(const oclblas__params *p, oclblas_math_mode mode)
{
    oclblas__params q = *p;
    if (mode == OCLBLAS_MATH_TF32) {
        q.v[TC_PRODUCTS] = 1;
        q.v[TC_CHUNK] = 0;
        q.v[TC_SPLIT] = 0;
    } else {
        /* Three BF16 words per operand: never less accurate than FFMA on
         * the accuracy gate (bench/results/tc-accuracy). */
        q.v[TC_PRODUCTS] = 6;
        q.v[TC_CHUNK] = 1;
        q.v[TC_PROMOTE] = 0;
    }
    return q;
}

void oclblas__gemm_tc_step(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *s)
{
    const int *v = p->v;
    *s = (oclblas__step){.kernel = OCLBLAS__K_GEMM_TC, .entry = "gemm_tc", .params = *p};
    s->params.v[TC_A_ALONG_K] = a->a_k_contiguous;
    s->params.v[TC_B_ALONG_K] = a->b_k_contiguous;
    s->params.v[TC_PEELED] = a->peeled;
    /* One dimension of work-items: a warp is 32 consecutive local ids. */
    s->geo.dims = 3;
    s->geo.local[0] = (size_t)threads(v);
    s->geo.local[1] = 1;
    s->geo.local[2] = 1;
    s->geo.global[0] = ceil_div(a->m, (size_t)v[TC_BM]) * s->geo.local[0];
    s->geo.global[1] = ceil_div(a->n, (size_t)v[TC_BN]);
    oclblas__gemm_tile_args(a, OCLBLAS__GEMM_TC_VW, OCLBLAS__GEMM_TC_VW, s);
}

/* A work-group computes BM x BN of C per BK of k, reading A and B as float4. */
static void tile(const oclblas__params *p, oclblas__tile *out)
{
    const int *v = p->v;
    *out = (oclblas__tile){(size_t)v[TC_BM], (size_t)v[TC_BN], (size_t)v[TC_BK], OCLBLAS__GEMM_TC_VW,
                           OCLBLAS__GEMM_TC_VW, 0, 0};
}

/* An operand stored with k contiguous is turned on its way into local
 * memory, except by a set that stages k rows in pairs (KPAIR). */
static int reads_k_contiguous(const oclblas__params *p, int operand)
{
    (void)operand;
    return !p->v[TC_KPAIR];
}

/* Every set has a second program, peeled, which reads ragged operands
 * in place (kernels/gemm_tc.cl: PEELED). */
static int peels(const oclblas__params *p)
{
    (void)p;
    return 1;
}

/* The set as the entry gives it, then its form for each math mode that
 * is legal on the device, with each operand read along k or not, each
 * peeled or not. */
static int programs(const oclblas__params *p, const oclblas__limits *lim, oclblas__params *out)
{
    static const oclblas_math_mode modes[] = {OCLBLAS_MATH_ACCURATE, OCLBLAS_MATH_TF32};
    int n = 0;
    out[n++] = *p;
    for (int m = 0; m < 2; ++m) {
        const oclblas__params q = oclblas__gemm_tc_for_mode(p, modes[m]);
        if (!oclblas__params_legal(OCLBLAS__K_GEMM_TC, &q, lim, NULL))
            continue;
        for (int form = 0; form < (reads_k_contiguous(&q, 0) ? 8 : 2); ++form) {
            out[n] = q;
            out[n].v[TC_PEELED] = form & 1;
            out[n].v[TC_A_ALONG_K] = (form >> 1) & 1;
            out[n].v[TC_B_ALONG_K] = form >> 2;
            ++n;
        }
    }
    return n;
}

static const char *label(const oclblas__params *p)
{
    return p->v[TC_PRODUCTS] == 6 ? "6xBF16" : "1xTF32";
}

static const oclblas__tiled tiled = {.tile = tile,
                                     .step = oclblas__gemm_tc_step,
                                     .reads_k_contiguous = reads_k_contiguous,
                                     .peeled_reads_ragged = 1,
                                     .peels = peels,
                                     .for_mode = oclblas__gemm_tc_for_mode,
                                     .label = label};

const oclblas__kernel_desc oclblas__desc_gemm_tc = {
    .name = "gemm_tc",
    .source = oclblas__source_gemm_tc,
    .num_params = TC_COUNT,
    .params = params,
    .num_rules = (int)(sizeof rules / sizeof rules[0]),
    .rules = rules,
    .capable = capable,
    .derive = derive,
    .tiled = &tiled,
    .programs = programs,
};
