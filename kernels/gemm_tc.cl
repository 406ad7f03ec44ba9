// gemm_tc: C = alpha * A * B + beta * C on NVIDIA tensor cores (mma.sync
// m16n8k16 with BF16 operands and m16n8k8 with TF32, compute capability 8.0
// and above), for the `accurate` (6xBF16) and `tf32` (1xTF32) math modes.
// Operands come in gemm_fast's padded layout: element (m, k) of A at
// ag[a_off + k * a_ld + m] and (k, n) of B at bg[b_off + k * b_ld + n],
// or, in a program built for it (A_ROWS, B_ROWS > 0), stored with k
// contiguous, at ag[a_off + m * a_ld + k] (bg[b_off + n * b_ld + k]) and
// turned on its way into local memory (not with KPAIR); read as float4
// (offsets and leading dimensions in float4s, rows 16-byte aligned). A's m
// and B's n are multiples of BM and BN, or padded to them (zeros beyond the
// real sizes), and K a multiple of BK, except in the program built with
// PEELED, which reads the caller's ragged operands in place: there m and n
// need only be at least a tile and whole float4s (a work-group whose tile
// would cross the edge of C is moved back to end at it and stores only its
// own elements), and K may be anything (whole float4s for an operand stored
// with k contiguous), k-tile 0 of each slice of k starting before the
// slice, its k there read as zeros. It is a second program because all that
// takes registers that a set at the limit does not have (it spills, and
// runs slower); the first keeps its speed. C is column-major, read and
// written in place, guarded at its edges.
// The launch's third dimension is gemm_fast's: with k_slice > 0 a split of
// k, work-group z multiplying k in [z k_slice, (z + 1) k_slice) into its
// own C, c_slice elements further on; with k_slice = 0 a batch, work-group
// z computing problem z over the whole K, its A a_batch float4s, its B
// b_batch float4s and its C c_slice elements after problem z - 1's.
//
// Each work-group computes a BM x BN tile with THREADS = 32 * WARPS_M *
// WARPS_N work-items; each warp a WM x WN block of it as MT x NT m16n8
// tiles. K-tiles of BK pass through two local slots: while tile t is
// multiplied from its slot, tile t + 1 waits in registers, and goes into
// the other slot at the next k-tile's single barrier.
//
// The parts, in the order of this file: the operands' numerics (the split
// into BF16 words, the range test); mma.sync, on the tensor cores or
// emulated; where a lane's fragment elements lie; the stage loader (global
// memory to registers to local memory); the warp's k-step (fragments from
// local memory, then one TF32 product or six BF16 products); the epilogue
// (the FFMA fallback and the store of C); and the kernel, whose main loop
// strings them together.
//
// 6xBF16 (PRODUCTS = 6, the accurate mode's): each element x is split, as a
// warp loads it, into three BF16 words, x = x0 + x1 + x2 exactly (each
// rounded to nearest from what the previous ones leave: 8 + 8 + 8 bits and
// their signs hold all 24 of x's; split_pair), and a * b is summed as a2 b0 +
// a1 b1 + a0 b2 + a1 b0 + a0 b1 + a0 b0 (small first; the terms dropped, a1
// b2 + a2 b1 + a2 b2, are together at most about 2^-24 |a b|, one FP32
// rounding of the product) with mma.sync m16n8k16 on BF16, whose instruction
// does twice the work of a TF32 m16n8k8 in the same time, every product of
// words exact. The tensor cores add with truncation, which over a long k is
// several times less accurate than FFMA, so each tile's six products of a k16
// step go to a fresh temporary added to the accumulator in FP32: the
// truncation then acts on a k16 sum, whose sign is random, not on the growing
// accumulator. A k16 step is two k8 steps' fragments: BF16 k' = 2 tq + h + 8
// r of the PTX ISA's layout is k = tq + 4 h + 8 r here (A and B agree, which
// is all the MMA needs), so the TF32 fragment loads serve unchanged.
//
// With SPLIT = 1 A is split as it goes into local memory instead, once per
// work-group where warps side by side would each split it again: each slot
// holds A's three words as BF16 pairs in mma's register order (described
// at split_offset), loaded as they are. B is split as warps load it either
// way: with one warp down the tile no other warp loads the same B.
//
// 1xTF32 (PRODUCTS = 1) multiplies the raw floats once: the tensor cores
// read their top 19 bits (TF32 by truncation). PROMOTE = P > 0 sums each
// run of P k-tiles in a second accumulator that is added to the first in
// FP32. KPAIR = 1 stores k rows in interleaved pairs so that fragments load
// straight into mma's register order (described at the fragment loads).
//
// Edges of the float range: splitting turns Inf into NaN (x - x0 = Inf -
// Inf), truncation turns some NaNs into Inf, the tensor cores may round an
// overflow to FLT_MAX, and near the bottom of the range an operand's lower
// words are subnormal. So a work-group whose operands hold a nonzero |x|
// outside [2^GUARD_EMIN, 2^GUARD_EMAX], or whose final sums hold a
// non-finite value or one of magnitude >= 2^126, recomputes its tile with
// FFMA on the raw operands, and Inf, NaN and overflow come out as FP32
// arithmetic gives them.
//
// Emulation: with OCLBLAS_TC_EMULATE = 1 the kernel uses no inline PTX and
// runs on any OpenCL device (PoCL): mma.sync becomes an exchange of the
// fragments through local memory (a warp is 32 consecutive local ids) and a
// float64 sum rounded toward zero (operands truncated to TF32, as the
// hardware reads them; BF16 operands exactly). That checks fragment layouts, indexing, the
// pipeline, edges, the split of k and the fallback with the very code the
// GPU runs.
//
// The host passes every parameter and every size derived from them as -D
// options (src/kernels/gemm_tc.c, which also holds the rules that make a
// set legal): BM BN BK block tile, WM WN warp tile, PRODUCTS 1 or 6, PROMOTE,
// KPAIR, SPLIT; WARPS_M = BM / WM, WARPS_N = BN / WN, THREADS, MT = WM / 16,
// NT = WN / 8, KSTEPS = BK / 8, LDA = BM + PADA and LDB = BN + PADB local
// rows, A_CHUNKS and B_CHUNKS float4s of a k-tile per work-item, A_ROWS and
// B_ROWS the rows of the blocks an operand stored with k contiguous is turned
// in (stage_offset; 0: stored with m, n contiguous), GUARD_EMIN and
// GUARD_EMAX the range of the tensor-core path, A_QUADS the split A's local
// rows (in 4-word quads), PEELED 1 in the peeled program.
#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(WM) || !defined(WN) || !defined(PRODUCTS) ||         \
    !defined(PROMOTE) || !defined(KPAIR) || !defined(WARPS_M) || !defined(WARPS_N) || !defined(THREADS) ||        \
    !defined(MT) || !defined(NT) || !defined(KSTEPS) || !defined(LDA) || !defined(LDB) || !defined(A_CHUNKS) ||   \
    !defined(B_CHUNKS) || !defined(A_ROWS) || !defined(B_ROWS) || !defined(GUARD_EMIN) || !defined(GUARD_EMAX) || \
    !defined(SPLIT) || !defined(A_QUADS) || !defined(PEELED)
#error "gemm_tc: a parameter or derived size is missing (the host passes them all as -D)"
#endif
#if PRODUCTS != 1 && PRODUCTS != 6
#error "gemm_tc: PRODUCTS must be 1 or 6"
#endif
#if PRODUCTS == 6 && (KSTEPS % 2 || PROMOTE)
#error "gemm_tc: PRODUCTS = 6 needs BK a multiple of 16 and PROMOTE = 0"
#endif
#if SPLIT && (PRODUCTS != 6 || KPAIR || A_CHUNKS % 2)
#error "gemm_tc: SPLIT = 1 needs PRODUCTS = 6, KPAIR = 0 and A_CHUNKS even"
#endif
#ifndef OCLBLAS_TC_EMULATE
#define OCLBLAS_TC_EMULATE 0 // a build mode for tests, not a parameter: the library never sets it
#endif
#if OCLBLAS_TC_EMULATE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// Words of one k-tile of an operand in local memory: raw floats in rows
// of LDA (LDB); with SPLIT, A's three BF16 words, each a plane of BK / 4
// rows of A_QUADS quads (A_WORDS), in as much room as the raw tile at
// least, which the fallback stages there.
#define A_WORDS (BK * A_QUADS)
#define A_PLANE (SPLIT && 3 * A_WORDS > BK * LDA ? 3 * A_WORDS : BK * LDA)
#define B_PLANE (BK * LDB)
// A work-item's accumulators of its warp tile, one array: m16n8 tile (i, j)
// holds its four at ACC(i, j) .. ACC(i, j) + 3, so accumulator e is element
// e % 4 of tile (ACC_I(e), ACC_J(e)).
#define NACC (MT * NT * 4)
#define ACC(i, j) (((i) * NT + (j)) * 4)
#define ACC_I(e) ((e) / (NT * 4))
#define ACC_J(e) ((e) / 4 % NT)

// ---- the operands' numerics ----------------------------------------------

// x and y rounded to BF16 (to nearest, ties to even) as one register, x in
// the low half: cvt.rn.bf16x2.f32 on the GPU, the same in integer
// operations in emulation (for finite values; Inf stays Inf, and a NaN
// may become Inf there, which the split's x - Inf turns back into NaN).
#if OCLBLAS_TC_EMULATE
inline uint bf16_rn(const float x)
{
    const uint u = as_uint(x);
    return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
}
inline uint bf16x2(const float x, const float y) { return bf16_rn(x) | (bf16_rn(y) << 16); }
#else
inline uint bf16x2(const float x, const float y)
{
    uint d;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(y), "f"(x));
    return d;
}
#endif

// Two elements split, w[q] holding word q of x (low half) and of y: x =
// x0 + x1 + x2 exactly, each word the BF16 nearest what the previous ones
// leave (8 + 8 + 8 bits and their signs hold all 24 of x's), for finite
// x in the range test's bounds. A NaN or Inf leaves some word NaN or Inf,
// which the final sums show (the fallback's test).
inline void split_pair(const float x, const float y, uint *w)
{
    float rx = x, ry = y;
#pragma unroll
    for (int q = 0; q < 3; ++q) {
        w[q] = bf16x2(rx, ry);
        rx -= as_float(w[q] << 16);
        ry -= as_float(w[q] & 0xFFFF0000u);
    }
}

// True for x outside {0} U [2^GUARD_EMIN, 2^GUARD_EMAX] (Inf and NaN
// included): there the split's products lose bits or overflow.
#define RANGE_LO ((uint)(GUARD_EMIN + 127) << 23)
#define RANGE_HI ((uint)(GUARD_EMAX + 127) << 23)
inline int out_of_range(const float x)
{
    const uint u = as_uint(x) & 0x7FFFFFFFu;
    return u != 0u && u - RANGE_LO > RANGE_HI - RANGE_LO;
}
inline int out_of_range4(const float4 x)
{
    return out_of_range(x.s0) | out_of_range(x.s1) | out_of_range(x.s2) | out_of_range(x.s3);
}
// A final sum that FP32 arithmetic may have computed otherwise (non-finite,
// or large enough that a saturated overflow could hide in it).
inline int suspicious(const float x) { return (as_uint(x) & 0x7FFFFFFFu) >= 0x7E800000u; }

// ---- mma.sync --------------------------------------------------------------

// Where a work-item sits: its warp's block of the tile (wm0, wn0), its lane
// and the PTX ISA's groupID g = lane / 4 and threadID_in_group tq =
// lane % 4, which place its fragment elements; in emulation also its
// warp's scratch for the exchange of fragments (32 x 6 words).
typedef struct {
    int wm0, wn0, lane, g, tq;
#if OCLBLAS_TC_EMULATE
    local uint *scratch;
#endif
} warp_place;

#if OCLBLAS_TC_EMULATE
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32, d += a b, from this
// work-item's fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8",
// .tf32): a[r] holds A(g + 8 (r & 1), tq + 4 (r >> 1)), b[r] holds
// B(tq + 4 r, g), d[i] is D(g + 8 (i >> 1), 2 tq + (i & 1)). All
// work-items of the work-group must call it together (it holds two
// barriers).
void mma(float *d, const uint *a, const uint *b, const warp_place *wp)
{
    local uint *const w = wp->scratch;
    const int lane = wp->lane;
    barrier(CLK_LOCAL_MEM_FENCE); // the previous call's readers are done
    for (int r = 0; r < 4; ++r)
        w[lane * 6 + r] = a[r];
    w[lane * 6 + 4] = b[0];
    w[lane * 6 + 5] = b[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; ++i) {
        const int row = wp->g + 8 * (i >> 1), col = 2 * wp->tq + (i & 1);
        double s = d[i];
        for (int k = 0; k < 8; ++k) {
            // The tensor cores read the top 19 bits of each operand.
            const float x = as_float(w[((row & 7) * 4 + (k & 3)) * 6 + (row >> 3) + 2 * (k >> 2)] & 0xFFFFE000u);
            const float y = as_float(w[(col * 4 + (k & 3)) * 6 + 4 + (k >> 2)] & 0xFFFFE000u);
            s += (double)x * (double)y;
        }
        d[i] = convert_float_rtz(s); // the products exactly, one truncation
    }
}

// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32, d += a b: a[r]
// holds A(g + 8 (r & 1), 2 tq + 8 (r >> 1) + h) and b[r] B(2 tq + 8 r + h,
// g) in its half h (h = 0: the low 16 bits), d as above.
void mma_bf16(float *d, const uint *a, const uint *b, const warp_place *wp)
{
    local uint *const w = wp->scratch;
    const int lane = wp->lane;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; ++r)
        w[lane * 6 + r] = a[r];
    w[lane * 6 + 4] = b[0];
    w[lane * 6 + 5] = b[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; ++i) {
        const int row = wp->g + 8 * (i >> 1), col = 2 * wp->tq + (i & 1);
        double s = d[i];
        for (int k = 0; k < 16; ++k) {
            const uint x = w[((row & 7) * 4 + ((k & 7) >> 1)) * 6 + (row >> 3) + 2 * (k >> 3)];
            const uint y = w[(col * 4 + ((k & 7) >> 1)) * 6 + 4 + (k >> 3)];
            const float xf = as_float(k & 1 ? x & 0xFFFF0000u : x << 16);
            const float yf = as_float(k & 1 ? y & 0xFFFF0000u : y << 16);
            s += (double)xf * (double)yf;
        }
        d[i] = convert_float_rtz(s);
    }
}
#else
// Inline PTX is spelt `asm`, as NVIDIA's OpenCL compiler takes it.
inline void mma(float *d, const uint *a, const uint *b, const warp_place *wp)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]),
                   "f"(d[2]), "f"(d[3]));
}
inline void mma_bf16(float *d, const uint *a, const uint *b, const warp_place *wp)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]),
                   "f"(d[2]), "f"(d[3]));
}
#endif

// ---- where fragment elements lie -------------------------------------------

// Row h (0: g, 1: g + 8 in the PTX ISA's terms) of m16n8 tile row i, and
// column c (2 tq or 2 tq + 1) of tile column j, in the warp's WM x WN block:
// as the PTX ISA lays them out, or relabelled so that the fragments load
// in register order: with KPAIR = 1 or SPLIT = 1 row 2 g + h of the tile,
// with KPAIR = 1 also tile columns in pairs, j even and odd sharing 16
// columns, interleaved. The MMA does not care which rows and columns it
// gets; the epilogue and the fallback use the same labels.
#if KPAIR || SPLIT
#define ROW(g, i, h) ((i) * 16 + 2 * (g) + (h))
#else
#define ROW(g, i, h) ((i) * 16 + 8 * (h) + (g))
#endif
#if KPAIR
#define COL(j, c) (((j) / 2) * 16 + 2 * (c) + ((j) & 1))
#else
#define COL(j, c) ((j) * 8 + (c))
#endif
// KPAIR: the offset (0 or 4) of the quad holding columns 4c, 4c + 1 of a
// 4-column group c (the other quad is at the other offset). The two swap
// places every 4 columns, so that a quarter-warp's 128-bit stores and
// loads cover the 32 banks once.
#define KP_SWAP(c) ((((c) >> 2) & 1) * 4)

// ---- the stage loader --------------------------------------------------------

// Where this work-item's float4 number i of a k-tile of one operand comes
// from (src, in float4s from the tile's first row in global memory of
// leading dimension g_ld) and goes (dst, in floats from the slot's start,
// local rows of l_ld floats: k rows of the tile's `width` floats). With
// KPAIR a work-item takes the same 4 columns of k rows 2p and 2p + 1
// (float4s 2h and 2h + 1), which go to local memory as two interleaved
// quads: columns 4c, 4c + 1 at kp[h], 4c + 2, 4c + 3 at kp[h] ^ 4. dst is
// the plain layout either way (the fallback's). Stored with k contiguous
// (rows > 0: A_ROWS, B_ROWS; never with KPAIR), the tile in global memory
// is `width` rows of BK / 4 float4s of k, taken in blocks of `rows` rows
// (4, 2 or 1) x 4 of k: float4s i to i + rows - 1 of a work-item are one
// block's rows, which it turns into four k rows of `rows` floats, at dst
// of float4 i (a multiple of rows), dst + l_ld, ... Neighbouring
// work-items take neighbouring blocks along m: their stores to local
// memory neighbours.
inline void stage_offset(const int lid, const int i, const int width, const int g_ld, const int l_ld,
                         const int rows, int *src, int *dst, int *kp)
{
#if KPAIR
    const int c = lid + (i / 2) * THREADS, p = c / (width / 4), col = c % (width / 4), row = 2 * p + (i & 1);
    *kp = p * 2 * l_ld + col * 8 + KP_SWAP(col);
#else
    const int c = lid + i * THREADS, row = c / (width / 4), col = c % (width / 4);
    if (rows) {
        const int block = lid + (i / rows) * THREADS, mb = block % (width / rows), kq = block / (width / rows);
        *src = (rows * mb + i % rows) * g_ld + kq;
        *dst = 4 * kq * l_ld + rows * mb;
        return;
    }
#endif
    *src = row * g_ld + col;
    *dst = row * l_ld + col * 4;
}

// The k in a k-tile of stage_offset's float4 i (of its first element).
inline int stage_k(const int lid, const int i, const int width, const int rows)
{
#if KPAIR
    return 2 * ((lid + (i / 2) * THREADS) / (width / 4)) + (i & 1);
#else
    return rows ? 4 * ((lid + (i / rows) * THREADS) / (width / rows)) : (lid + i * THREADS) / (width / 4);
#endif
}

// With SPLIT, a k-tile of A in local memory is, for each of its three
// words, a plane of BK / 4 rows of A_QUADS quads of 4 words, each word a
// BF16 pair of one m at k (low half) and k + 4 (high half). Quad
// (4 s + u, M2), for k16 step s and u = 0..3, holds rows 2 M2 and
// 2 M2 + 1 at k = 16 s + u + 8 v, word 2 v + (m & 1): a lane's four A
// registers of a tile row in mma's order (rows relabelled as ROW does, k
// as the k-step relabels it), one 128-bit load. A_QUADS = 2 (mod 8) puts
// the quads of a quarter-warp's loads (4 rows u x 2 M2) on 8 different
// groups of banks. A work-item stages A in units of two float4s (its
// float4s 2 j and 2 j + 1, from src[0] and src[1] in global memory): 4
// columns m at rows k and k + 4 (stored with m contiguous), or, stored
// with k contiguous (A_ROWS > 0), one m at k0..k0 + 3 and k0 + 4..k0 + 7
// (k0 = 16 s + 8 v); dst is the unit's first word in a plane (word 2 v
// of quads 2 mc and 2 mc + 1; with k contiguous, word 2 v + (m & 1) of
// quad (4 s, m / 2), its u = 1..3 in the next rows of quads).
inline void split_offset(const int lid, const int j, const int g_ld, int *src, int *dst)
{
    const int c = lid + j * THREADS;
    if (A_ROWS) {
        const int m = c % BM, k8 = c / BM, s = k8 / 2, v = k8 & 1; // k8 = 2 s + v
        src[0] = m * g_ld + 2 * k8;
        src[1] = src[0] + 1;
        *dst = (4 * s * A_QUADS + m / 2) * 4 + 2 * v + (m & 1);
        return;
    }
    const int mc = c % (BM / 4), row = c / (BM / 4); // row = 8 s + 4 v + u
    const int s = row / 8, v = (row / 4) & 1, u = row & 3, k = 16 * s + 8 * v + u;
    src[0] = k * g_ld + mc;
    src[1] = (k + 4) * g_ld + mc;
    *dst = ((4 * s + u) * A_QUADS + 2 * mc) * 4 + 2 * v;
}

// The k in a k-tile of split_offset's float4 i (2 j or 2 j + 1; of its
// first element).
inline int split_k(const int lid, const int i)
{
    const int c = lid + (i / 2) * THREADS;
    if (A_ROWS)
        return 8 * (c / BM) + 4 * (i & 1);
    const int row = c / (BM / 4);
    return 16 * (row / 8) + 8 * ((row / 4) & 1) + (row & 3) + 4 * (i & 1);
}

// A unit of A (x, y as split_offset's) split into the three planes at dst.
// Returns whether a value calls for the fallback.
inline int store_split(local uint *sa, const int dst, const float4 x, const float4 y)
{
    const float xs[4] = {x.s0, x.s1, x.s2, x.s3}, ys[4] = {y.s0, y.s1, y.s2, y.s3};
    uint w[3][4]; // word q of element e's pair
#pragma unroll
    for (int e = 0; e < 4; ++e) {
        uint we[3];
        split_pair(xs[e], ys[e], we);
#pragma unroll
        for (int q = 0; q < 3; ++q)
            w[q][e] = we[q];
    }
#pragma unroll
    for (int q = 0; q < 3; ++q) {
        local uint *const plane = sa + q * A_WORDS + dst;
        if (A_ROWS) { // element e is u = e
#pragma unroll
            for (int e = 0; e < 4; ++e)
                plane[e * A_QUADS * 4] = w[q][e];
        } else { // element e is m = 4 mc + e
            *(local uint2 *)plane = (uint2)(w[q][0], w[q][1]);
            *(local uint2 *)(plane + 4) = (uint2)(w[q][2], w[q][3]);
        }
    }
    return out_of_range4(x) | out_of_range4(y);
}

// A work-item's chunks float4s of an operand (x) into local memory, at
// their dst (stage_offset's): each as it is (rows 0), or, stored with k
// contiguous, each `rows` of them the block they make turned. Returns
// whether a value calls for the fallback (out_of_range4): tested as each
// float4 is stored, or, before turned blocks, all first (tested between
// the stores of turned blocks, the kernel ran 15% slower on the H100).
inline int stage_store(local float *s, const int *dst, const float4 *x, const int chunks, const int rows,
                       const int l_ld)
{
    int bad = 0;
    if (rows == 0) {
#pragma unroll
        for (int i = 0; i < chunks; ++i) {
            bad |= out_of_range4(x[i]);
            *(local float4 *)(s + dst[i]) = x[i];
        }
        return bad;
    }
#pragma unroll
    for (int i = 0; i < chunks; ++i)
        bad |= out_of_range4(x[i]);
    if (rows == 4) {
#pragma unroll
        for (int i = 0; i < chunks; i += 4) {
            *(local float4 *)(s + dst[i]) = (float4)(x[i].s0, x[i + 1].s0, x[i + 2].s0, x[i + 3].s0);
            *(local float4 *)(s + dst[i] + l_ld) = (float4)(x[i].s1, x[i + 1].s1, x[i + 2].s1, x[i + 3].s1);
            *(local float4 *)(s + dst[i] + 2 * l_ld) = (float4)(x[i].s2, x[i + 1].s2, x[i + 2].s2, x[i + 3].s2);
            *(local float4 *)(s + dst[i] + 3 * l_ld) = (float4)(x[i].s3, x[i + 1].s3, x[i + 2].s3, x[i + 3].s3);
        }
    } else if (rows == 2) {
#pragma unroll
        for (int i = 0; i < chunks; i += 2) {
            *(local float2 *)(s + dst[i]) = (float2)(x[i].s0, x[i + 1].s0);
            *(local float2 *)(s + dst[i] + l_ld) = (float2)(x[i].s1, x[i + 1].s1);
            *(local float2 *)(s + dst[i] + 2 * l_ld) = (float2)(x[i].s2, x[i + 1].s2);
            *(local float2 *)(s + dst[i] + 3 * l_ld) = (float2)(x[i].s3, x[i + 1].s3);
        }
    } else {
#pragma unroll
        for (int i = 0; i < chunks; ++i) {
            s[dst[i]] = x[i].s0;
            s[dst[i] + l_ld] = x[i].s1;
            s[dst[i] + 2 * l_ld] = x[i].s2;
            s[dst[i] + 3 * l_ld] = x[i].s3;
        }
    }
    return bad;
}

// A k-tile's float4s of A and B from global memory into registers.
inline void fetch_tile(const global float4 *a, const global float4 *b, const int *a_src, const int *b_src,
                       float4 *areg, float4 *breg)
{
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i)
        areg[i] = a[a_src[i]];
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i)
        breg[i] = b[b_src[i]];
}

// k-tile 0 of a slice, as fetch_tile, its float4s whose k lie before
// k_skip as zeros, never loaded: there the tile starts before the slice,
// and may start before the operand. A float4 of an operand stored with k
// contiguous lies wholly before k_skip or in the slice (K and k_skip are
// multiples of 4: the host's rule). split: A staged as split_offset lays it
// out (else as stage_offset does, as the fallback always stages it).
inline void fetch_first(const global float4 *a, const global float4 *b, const int *a_src, const int *b_src,
                        const int lid, const int k_skip, const int split, float4 *areg, float4 *breg)
{
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i)
        areg[i] = (split ? split_k(lid, i) : stage_k(lid, i, BM, A_ROWS)) >= k_skip ? a[a_src[i]] : (float4)(0.0f);
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i)
        breg[i] = stage_k(lid, i, BN, B_ROWS) >= k_skip ? b[b_src[i]] : (float4)(0.0f);
}

// How far back (in float4s) k_skip moves an operand's reads: k_skip rows of
// g_ld float4s, or, stored with k contiguous (rows > 0), k_skip floats.
inline int k_back(const int rows, const int k_skip, const int g_ld) { return rows ? k_skip / 4 : k_skip * g_ld; }

// The k-tile in registers into a slot of local memory (sa, sb), raw (the
// split happens as warps load fragments) or, with SPLIT, A split. Returns
// whether an operand is out of range. With KPAIR, rows k = 2p (x) and 2p + 1
// (y): A's quads are (x0, x1, y0, y1), (x2, x3, y2, y3); B's (x0, y0, x1,
// y1), (x2, y2, x3, y3).
inline int store_tile(local float *sa, local float *sb, const float4 *areg, const float4 *breg, const int *a_dst,
                      const int *b_dst, const int *a_kp, const int *b_kp)
{
    int bad = 0;
#if KPAIR
#pragma unroll
    for (int i = 0; i < A_CHUNKS / 2; ++i) {
        const float4 x = areg[2 * i], y = areg[2 * i + 1];
        bad |= out_of_range4(x) | out_of_range4(y);
        *(local float4 *)(sa + a_kp[i]) = (float4)(x.s01, y.s01);
        *(local float4 *)(sa + (a_kp[i] ^ 4)) = (float4)(x.s23, y.s23);
    }
#pragma unroll
    for (int i = 0; i < B_CHUNKS / 2; ++i) {
        const float4 x = breg[2 * i], y = breg[2 * i + 1];
        bad |= out_of_range4(x) | out_of_range4(y);
        *(local float4 *)(sb + b_kp[i]) = (float4)(x.s0, y.s0, x.s1, y.s1);
        *(local float4 *)(sb + (b_kp[i] ^ 4)) = (float4)(x.s2, y.s2, x.s3, y.s3);
    }
#else
#if SPLIT
#pragma unroll
    for (int j = 0; j < A_CHUNKS / 2; ++j)
        bad |= store_split((local uint *)sa, a_dst[j], areg[2 * j], areg[2 * j + 1]);
#else
    bad |= stage_store(sa, a_dst, areg, A_CHUNKS, A_ROWS, LDA);
#endif
    bad |= stage_store(sb, b_dst, breg, B_CHUNKS, B_ROWS, LDB);
#endif
    return bad;
}

// ---- the warp's k-step -------------------------------------------------------

// Where this lane's fragments of the warp's first tile start in a slot:
// A(m = g, k = tq) and B(k = tq, n = g) of the PTX ISA (with LDA and
// LDB = 8 (mod 32) the 32 lanes hit 32 different banks). With KPAIR the k8
// step's k are relabelled too (fragment k tq and tq + 4 are k 2 tq and
// 2 tq + 1; A and B agree, which is all the MMA needs), and k rows are
// stored in pairs (rows 2p, 2p + 1 in one local row of 2 LDA floats):
// A(m, k) at (k / 2) 2 LDA + 4 (m / 2) + 2 (k & 1) + (m & 1),
// B(k, n) at (k / 2) 2 LDB + 2 n + (k & 1). A lane's a0..a3 and its b0, b1
// of two tiles are then 4 adjacent words in mma's register order: one
// 128-bit load each, no moves; a quarter-warp's loads (tq * 2 LD + 4 g)
// hit 32 banks once with 2 LD = 8 (mod 32). Lane g's quad of tile i lies
// in 4-column group c = (wm0 + 16 i) / 4 + g / 2, half g & 1, swapped by
// KP_SWAP(c): the offsets alternate with the parity of i (of q for B's
// tile pairs), frag_a[i & 1].
inline void fragment_offsets(const warp_place *wp, int *frag_a, int *frag_b)
{
    const int g = wp->g, tq = wp->tq;
#if KPAIR
#pragma unroll
    for (int p = 0; p < 2; ++p) {
        frag_a[p] = tq * 2 * LDA + 2 * wp->wm0 + 8 * (g >> 1) + (KP_SWAP(wp->wm0 / 4 + 4 * p) ^ (4 * (g & 1)));
        frag_b[p] = tq * 2 * LDB + 2 * wp->wn0 + 8 * (g >> 1) + (KP_SWAP(wp->wn0 / 4 + 4 * p) ^ (4 * (g & 1)));
    }
#else
    frag_a[0] = tq * LDA + wp->wm0 + g;
    frag_b[0] = tq * LDB + wp->wn0 + g;
#endif
}

// The four words of x at w[0..3].
inline void words4(const float4 x, uint *w)
{
    w[0] = as_uint(x.s0);
    w[1] = as_uint(x.s1);
    w[2] = as_uint(x.s2);
    w[3] = as_uint(x.s3);
}

// k-step s's fragments of the slot (ta, tb), raw words: fa + 4 i holds A's
// a0..a3 of tile row i (not with SPLIT), fb + 2 j B's b0, b1 of tile
// column j.
inline void load_fragments(const local float *ta, const local float *tb, const int s, const int *frag_a,
                           const int *frag_b, uint *fa, uint *fb)
{
#if KPAIR
#pragma unroll
    for (int i = 0; i < MT; ++i)
        words4(*(const local float4 *)(ta + frag_a[i & 1] + s * 8 * LDA + i * 32), fa + 4 * i);
#pragma unroll
    for (int q = 0; q < NT / 2; ++q) // tile columns 2q and 2q + 1
        words4(*(const local float4 *)(tb + frag_b[q & 1] + s * 8 * LDB + q * 32), fb + 4 * q);
#else
#if !SPLIT // else A's words load in multiply_bf16
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int r = 0; r < 4; ++r)
            fa[4 * i + r] = as_uint(ta[frag_a[0] + (s * 8 + 4 * (r >> 1)) * LDA + i * 16 + 8 * (r & 1)]);
#endif
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int r = 0; r < 2; ++r)
            fb[2 * j + r] = as_uint(tb[frag_b[0] + (s * 8 + 4 * r) * LDB + j * 8]);
#endif
}

#if PRODUCTS == 1
// The warp's product of one k-step's fragments, into sum: the accumulators,
// or with PROMOTE the run of k-tiles not yet added to them.
inline void multiply(const uint *fa, const uint *fb, float *sum, const warp_place *wp)
{
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
            mma(sum + ACC(i, j), fa + 4 * i, fb + 2 * j, wp);
}
#else
// The warp's product of one k16 step, the fragments of its two k8 steps
// (fa[h], fb[h] as load_fragments gives them), into the accumulators.
// B is split once for all tile columns; A one tile row at a time, or with
// SPLIT loaded split, from aq: this lane's quad of the k16 step's first
// tile row in the first word's plane. Its 6 MT NT mma calls make it too
// large for a compiler's inlining threshold, and a call would put the
// accumulators in memory: always inlined.
__attribute__((always_inline)) inline void multiply_bf16(const uint (*fa)[4 * MT], const uint (*fb)[2 * NT],
                                                         const local uint *aq, float *sum, const warp_place *wp)
{
    uint bw[3][2 * NT]; // word q of B, tile column j: registers 2 j (k 0..7) and 2 j + 1 (k 8..15)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            uint w[3];
            split_pair(as_float(fb[r][2 * j]), as_float(fb[r][2 * j + 1]), w);
#pragma unroll
            for (int q = 0; q < 3; ++q)
                bw[q][2 * j + r] = w[q];
        }
#pragma unroll
    for (int i = 0; i < MT; ++i) {
        uint aw[3][4]; // register r: rows g + 8 (r & 1), k 8 (r >> 1) + tq and + tq + 4
#if SPLIT
#pragma unroll
        for (int q = 0; q < 3; ++q) {
            const uint4 t = *(const local uint4 *)(aq + q * A_WORDS + i * 32);
            aw[q][0] = t.s0;
            aw[q][1] = t.s1;
            aw[q][2] = t.s2;
            aw[q][3] = t.s3;
        }
#else
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            uint w[3];
            split_pair(as_float(fa[r >> 1][4 * i + (r & 1)]), as_float(fa[r >> 1][4 * i + (r & 1) + 2]), w);
#pragma unroll
            for (int q = 0; q < 3; ++q)
                aw[q][r] = w[q];
        }
#endif
#pragma unroll
        for (int j = 0; j < NT; ++j) {
            float t4[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            mma_bf16(t4, aw[2], bw[0] + 2 * j, wp);
            mma_bf16(t4, aw[1], bw[1] + 2 * j, wp);
            mma_bf16(t4, aw[0], bw[2] + 2 * j, wp);
            mma_bf16(t4, aw[1], bw[0] + 2 * j, wp);
            mma_bf16(t4, aw[0], bw[1] + 2 * j, wp);
            mma_bf16(t4, aw[0], bw[0] + 2 * j, wp);
#pragma unroll
            for (int r = 0; r < 4; ++r)
                sum[ACC(i, j) + r] += t4[r];
        }
    }
}
#endif

// ---- the epilogue --------------------------------------------------------------

// The fallback: the work-group's tile again with FFMA on the raw operands,
// in k order, as FP32 arithmetic does it, through slot 0 in the plain
// layout (stage_offset's dst, whatever layout the main loop used), k-tile 0
// from k_skip on as the main loop reads it. All work-items of the
// work-group call it together.
inline void ffma_tile(float *acc, local float *la, local float *lb, const global float4 *a_tile,
                      const global float4 *b_tile, const int a_step, const int b_step, const int a_ld,
                      const int b_ld, const int num_k_tiles, const int k_skip, const int lid, const warp_place *wp)
{
    int a_src[A_CHUNKS], a_dst[A_CHUNKS], b_src[B_CHUNKS], b_dst[B_CHUNKS], kp;
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i) {
        stage_offset(lid, i, BM, a_ld, LDA, A_ROWS, &a_src[i], &a_dst[i], &kp);
        a_src[i] -= k_back(A_ROWS, k_skip, a_ld);
    }
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i) {
        stage_offset(lid, i, BN, b_ld, LDB, B_ROWS, &b_src[i], &b_dst[i], &kp);
        b_src[i] -= k_back(B_ROWS, k_skip, b_ld);
    }
#pragma unroll
    for (int e = 0; e < NACC; ++e)
        acc[e] = 0.0f;
    for (int t = 0; t < num_k_tiles; ++t) {
        float4 areg[A_CHUNKS], breg[B_CHUNKS];
        if (PEELED && t == 0)
            fetch_first(a_tile, b_tile, a_src, b_src, lid, k_skip, 0, areg, breg);
        else
            fetch_tile(a_tile + t * a_step, b_tile + t * b_step, a_src, b_src, areg, breg);
        stage_store(la, a_dst, areg, A_CHUNKS, A_ROWS, LDA);
        stage_store(lb, b_dst, breg, B_CHUNKS, B_ROWS, LDB);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < BK; ++k) {
            float av[MT][2], bv[NT][2];
#pragma unroll
            for (int i = 0; i < MT; ++i) {
                av[i][0] = la[k * LDA + wp->wm0 + ROW(wp->g, i, 0)];
                av[i][1] = la[k * LDA + wp->wm0 + ROW(wp->g, i, 1)];
            }
#pragma unroll
            for (int j = 0; j < NT; ++j) {
                bv[j][0] = lb[k * LDB + wp->wn0 + COL(j, 2 * wp->tq)];
                bv[j][1] = lb[k * LDB + wp->wn0 + COL(j, 2 * wp->tq + 1)];
            }
#pragma unroll
            for (int e = 0; e < NACC; ++e)
                acc[e] = fma(av[ACC_I(e)][(e >> 1) & 1], bv[ACC_J(e)][e & 1], acc[e]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// How far a tile of `tile` rows whose own rows start at `first` is moved
// back to end at the edge of `size` rows (the kernel's first lines): in the
// peeled program only.
inline int moved_back(const int first, const int size, const int tile)
{
    return PEELED && size >= tile && size % 4 == 0 ? max(first + tile - size, 0) : 0;
}

// C = alpha acc + beta C for this lane's elements inside M x N that are
// the work-group's own, from (m_first, n_first) on (cg: its slice of k's
// C); its tile starts moved_back before them. Element r of each m16n8 tile
// is D(g + 8 (r >> 1), 2 tq + (r & 1)), relabelled with KPAIR; a column's
// 8 rows g = 0..7 are one 32-byte sector. beta == 0 must not read C: NaN
// there may not come through.
inline void store_c(const float *acc, global float *cg, const int c_off, const int c_ld, const int M,
                    const int N, const int m_first, const int n_first, const float alpha, const float beta,
                    const warp_place *wp)
{
    const int read_c = beta != 0.0f;
    const int m_back = moved_back(m_first, M, BM), n_back = moved_back(n_first, N, BN);
#pragma unroll
    for (int e = 0; e < NACC; ++e) {
        const int i = wp->wm0 + ROW(wp->g, ACC_I(e), (e >> 1) & 1); // in the tile
        const int j = wp->wn0 + COL(ACC_J(e), 2 * wp->tq + (e & 1));
        const int m = m_first - m_back + i, n = n_first - n_back + j;
        if ((!PEELED || (i >= m_back && j >= n_back)) && m < M && n < N) {
            global float *const c = cg + c_off + n * c_ld + m;
            const float v = alpha * acc[e];
            *c = read_c ? fma(beta, *c, v) : v;
        }
    }
}

// ---- the kernel ------------------------------------------------------------------

__attribute__((reqd_work_group_size(THREADS, 1, 1)))
kernel void gemm_tc(const int M, const int N, const int K, const int k_slice, const int c_slice,
                    const float alpha, const float beta,
                    const global float4 *restrict ag, const int a_off, const int a_ld,
                    const global float4 *restrict bg, const int b_off, const int b_ld,
                    global float *cg, const int c_off, const int c_ld, const int a_batch, const int b_batch)
{
    local float4 lds_a[2 * A_PLANE / 4];
    local float4 lds_b[2 * B_PLANE / 4];
    local float *const la = (local float *)lds_a;
    local float *const lb = (local float *)lds_b;
    local int fallback;
#if OCLBLAS_TC_EMULATE
    local uint emu_scratch[THREADS * 6];
#endif

    const int lid = get_local_id(0);
    const int warp = lid >> 5;
    warp_place wp;
    wp.lane = lid & 31;
    wp.g = wp.lane >> 2;
    wp.tq = wp.lane & 3;
    wp.wm0 = (warp % WARPS_M) * WM;
    wp.wn0 = (warp / WARPS_M) * WN;
#if OCLBLAS_TC_EMULATE
    wp.scratch = emu_scratch + warp * 32 * 6;
#endif
    // The group's own elements of C start at m_first and n_first; its tile
    // at m_tile and n_tile, with PEELED moved back to end at the edge where
    // it would cross it (A's m, B's n at least a tile and whole float4s:
    // else the operand was padded), so that it reads no row past M (column
    // past N). store_c works the move out again: kept through the main
    // loop, it took a register more, which spilled.
    const int m_first = get_group_id(0) * BM, n_first = get_group_id(1) * BN;
    const int m_tile = m_first - moved_back(m_first, M, BM), n_tile = n_first - moved_back(n_first, N, BN);
    const int z = get_group_id(2);
    const int k_begin = z * k_slice;
    // The tile's first float4, and the float4s from one k-tile to the next.
    const global float4 *const a_tile =
        ag + a_off + z * a_batch + (A_ROWS ? m_tile * a_ld + k_begin / 4 : m_tile / 4 + k_begin * a_ld);
    const global float4 *const b_tile =
        bg + b_off + z * b_batch + (B_ROWS ? n_tile * b_ld + k_begin / 4 : n_tile / 4 + k_begin * b_ld);
    const int a_step = A_ROWS ? BK / 4 : BK * a_ld, b_step = B_ROWS ? BK / 4 : BK * b_ld;
    // The slice's k in k-tiles; with PEELED the first starts k_skip before
    // the slice where its k is not whole tiles (read as zeros there:
    // fetch_first), so that every tile after the first is whole.
    const int k_len = k_slice ? min(k_slice, K - k_begin) : K;
    const int num_k_tiles = (k_len + (PEELED ? BK - 1 : 0)) / BK;
    const int k_skip = PEELED ? num_k_tiles * BK - k_len : 0;
    if (lid == 0)
        fallback = 0;
    int bad = 0; // this work-item saw a reason for the fallback

    int a_src[A_CHUNKS], a_dst[A_CHUNKS], b_src[B_CHUNKS], b_dst[B_CHUNKS];
    int a_kp[A_CHUNKS], b_kp[B_CHUNKS]; // KPAIR's quads (the first half)
#if SPLIT
#pragma unroll
    for (int j = 0; j < A_CHUNKS / 2; ++j)
        split_offset(lid, j, a_ld, &a_src[2 * j], &a_dst[j]);
#else
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i)
        stage_offset(lid, i, BM, a_ld, LDA, A_ROWS, &a_src[i], &a_dst[i], &a_kp[i / 2]);
#endif
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i)
        stage_offset(lid, i, BN, b_ld, LDB, B_ROWS, &b_src[i], &b_dst[i], &b_kp[i / 2]);
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i)
        a_src[i] -= k_back(A_ROWS, k_skip, a_ld);
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i)
        b_src[i] -= k_back(B_ROWS, k_skip, b_ld);
    int frag_a[2], frag_b[2];
    fragment_offsets(&wp, frag_a, frag_b);

    float acc[NACC], part[NACC]; // part: with PROMOTE, the run of k-tiles not yet in acc
#pragma unroll
    for (int e = 0; e < NACC; ++e)
        acc[e] = part[e] = 0.0f;

    // The main loop. k-tile t lives in slot t & 1; at its start it goes
    // from registers into its slot, which tile t - 2 last used before the
    // previous barrier, and tile t + 1 is fetched into registers while
    // tile t is multiplied.
    float4 areg[A_CHUNKS], breg[B_CHUNKS];
    if (num_k_tiles > 0) {
#if PEELED
        fetch_first(a_tile, b_tile, a_src, b_src, lid, k_skip, SPLIT, areg, breg);
#else
        fetch_tile(a_tile, b_tile, a_src, b_src, areg, breg);
#endif
    }
    for (int kt = 0; kt < num_k_tiles; ++kt) {
        local float *const sa = la + (kt & 1) * A_PLANE;
        local float *const sb = lb + (kt & 1) * B_PLANE;
        bad |= store_tile(sa, sb, areg, breg, a_dst, b_dst, a_kp, b_kp);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (kt + 1 < num_k_tiles)
            fetch_tile(a_tile + (kt + 1) * a_step, b_tile + (kt + 1) * b_step, a_src, b_src, areg, breg);
#if PRODUCTS == 6
#pragma unroll
        for (int s = 0; s < KSTEPS; s += 2) {
            uint fa[2][4 * MT], fb[2][2 * NT];
            load_fragments(sa, sb, s, frag_a, frag_b, fa[0], fb[0]);
            load_fragments(sa, sb, s + 1, frag_a, frag_b, fa[1], fb[1]);
            multiply_bf16(fa, fb, (const local uint *)sa + ((2 * s + wp.tq) * A_QUADS + wp.wm0 / 2 + wp.g) * 4,
                          acc, &wp);
        }
#else
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) {
            uint fa[4 * MT], fb[2 * NT];
            load_fragments(sa, sb, s, frag_a, frag_b, fa, fb);
            multiply(fa, fb, PROMOTE ? part : acc, &wp);
        }
#endif
#if PROMOTE
        // Fold the run of PROMOTE k-tiles into acc, rounding to nearest.
        if ((kt + 1) % PROMOTE == 0 || kt + 1 == num_k_tiles) {
#pragma unroll
            for (int e = 0; e < NACC; ++e) {
                acc[e] += part[e];
                part[e] = 0.0f;
            }
        }
#endif
    }

    // The fallback: one decision for the whole work-group (no host sync).
#pragma unroll
    for (int e = 0; e < NACC; ++e)
        bad |= suspicious(acc[e]);
    barrier(CLK_LOCAL_MEM_FENCE); // fallback = 0 is seen, local memory is free
    if (bad)
        atomic_or(&fallback, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (fallback)
        ffma_tile(acc, la, lb, a_tile, b_tile, a_step, b_step, a_ld, b_ld, num_k_tiles, k_skip, lid, &wp);
    store_c(acc, cg + z * c_slice, c_off, c_ld, M, N, m_first, n_first, alpha, beta, &wp);
}
