// gemm_tc: C = alpha * A * B + beta * C on NVIDIA tensor cores (mma.sync
// m16n8k8 with TF32 operands, compute capability 8.0 and above), for the
// `accurate` (3xTF32) and `tf32` (1xTF32) math modes. Operands come in
// gemm_fast's padded layout: element (m, k) of A at ag[a_off + k * a_ld + m]
// and (k, n) of B at bg[b_off + k * b_ld + n], read as float4 (offsets and
// leading dimensions in float4s, rows 16-byte aligned), m and n padded to
// multiples of BM and BN, K to a multiple of BK, zeros beyond the real
// sizes; C is column-major, read and written in place, guarded at its edges.
// The split of k is gemm_fast's: work-group z multiplies k in
// [z k_slice, (z + 1) k_slice) into its own C, c_slice elements further on.
//
// Each work-group computes a BM x BN tile with THREADS = 32 * WARPS_M *
// WARPS_N work-items; each warp a WM x WN block of it as MT x NT
// m16n8k8 tiles. Tiles of A and B pass through local memory in STAGES
// slots, either by cp.async (CP_ASYNC = 1: global to local without
// registers, STAGES - 1 tiles in flight) or through registers (CP_ASYNC = 0:
// the next tile is loaded while the current one is multiplied).
//
// 3xTF32 (PRODUCTS = 3): every element x is split once into hi = tf32(x)
// (round to nearest, ties away, as cvt.rna.tf32.f32 does) and lo = x - hi
// (exact), and a * b is summed as lo_a hi_b + hi_a lo_b + hi_a hi_b. lo goes
// in unrounded: the tensor cores read its top 19 bits, which loses at most
// its last bit (2^-24 of x, as much accuracy as rounding it would keep), and
// a NaN or Inf in x leaves lo NaN, so the split can never hide it. SPLIT = 0
// keeps raw floats in local memory and splits each fragment as a warp loads
// it (works with cp.async); SPLIT = 1 splits while staging through
// registers and keeps hi and lo planes in local memory (each element split
// once per work-group, not once per warp). The tensor cores add with
// truncation (as published measurements found; a probe of the first GPU
// run checks it), which over a long k is several times less accurate than
// FFMA; PROMOTE = P > 0 therefore sums each run of P k-tiles in a separate
// accumulator that is then added to the main one in FP32 (round to
// nearest). PROMOTE = 0 accumulates in the tensor cores only.
//
// 1xTF32 (PRODUCTS = 1) multiplies tf32(a) tf32(b) once: rounded to
// nearest while staging with SPLIT = 1, truncated by the tensor cores from
// the raw floats with SPLIT = 0.
//
// Exactness at the edges of the float range (GUARD): splitting turns Inf
// into NaN (lo = Inf - Inf), truncation turns some NaNs into Inf, and the
// tensor cores may round an overflow to FLT_MAX. So a work-group whose
// final sums hold a non-finite value or one of magnitude >= 2^126
// recomputes its tile with FFMA on the raw operands, and Inf, NaN and
// overflow come out as FP32 arithmetic gives them (GUARD = 1).
// GUARD = 2 also sends every tile whose operands hold a nonzero
// |x| < 2^GUARD_EMIN or |x| > 2^GUARD_EMAX to that path (the issue's gate
// names 2^-100 and 2^100; whether the tensor cores keep subnormal
// products, which decides how tight the range must be, is a probe of the
// first GPU run).
//
// Emulation: with OCLBLAS_TC_EMULATE = 1 the kernel uses no inline PTX and
// runs on any OpenCL device (PoCL): mma.sync becomes an exchange of the
// fragments through local memory (a warp is 32 consecutive local ids) and a
// float64 sum rounded toward zero (operands truncated to TF32, as the
// hardware reads them), cp.async a plain copy. That checks fragment
// layouts, indexing, pipelining, edges, the split of k and the fallback.
// OCLBLAS_TC_EMULATE_FTZ = 1 also flushes subnormal operands, products and
// sums to zero, the pessimistic model of the tensor cores.
//
// Round 2 (LOOP >= 1): fragments of the next k-step are loaded while the
// current one is multiplied (LOOP = 2), 64- or 128-bit fragment loads
// (FRAGV), and CHUNK = 1: each m16n8 tile's three products of a k8 step
// are summed in a fresh temporary and added to the accumulator in FP32,
// which keeps promotion's accuracy without a second accumulator set.
//
// Round 3: CHUNK = 2 sums each tile's products of a whole k-tile in the
// temporary (half the FADDs), holding A's split fragments and streaming B
// one n8 column at a time; CHUNK = 3 is the same order per k-step.
// KPAIR = 1 (1xTF32) stores k rows in interleaved pairs so that fragments
// load straight into mma's register order (no moves).
//
// Parameters (-D, no defaults): BM BN BK WM WN STAGES CP_ASYNC SPLIT PADA
// PADB PRODUCTS PROMOTE GUARD LOOP FRAGV CHUNK KPAIR, and with GUARD = 2
// GUARD_EMIN GUARD_EMAX.
// Derived sizes (-D, computed by the host):
//   WARPS_M = BM / WM, WARPS_N = BN / WN, THREADS = 32 * WARPS_M * WARPS_N,
//   MT = WM / 16, NT = WN / 8, KSTEPS = BK / 8, LDA = BM + PADA,
//   LDB = BN + PADB, A_CHUNKS = BM * BK / (4 * THREADS),
//   B_CHUNKS = BN * BK / (4 * THREADS).
// Platform option (hardware with CP_ASYNC = 1 only): TC_SMEM_ADDR, how a
// local pointer becomes cp.async's shared-window address (1: its value as a
// 32-bit integer, 2: as a 64-bit integer, 3: a generic address converted by
// cvta.to.shared). proto/NOTES.md has the legality rules.

#ifndef BM
#error "gemm_tc needs -DBM"
#endif
#ifndef BN
#error "gemm_tc needs -DBN"
#endif
#ifndef BK
#error "gemm_tc needs -DBK"
#endif
#ifndef WM
#error "gemm_tc needs -DWM"
#endif
#ifndef WN
#error "gemm_tc needs -DWN"
#endif
#ifndef STAGES
#error "gemm_tc needs -DSTAGES"
#endif
#ifndef CP_ASYNC
#error "gemm_tc needs -DCP_ASYNC"
#endif
#ifndef SPLIT
#error "gemm_tc needs -DSPLIT"
#endif
#ifndef PADA
#error "gemm_tc needs -DPADA"
#endif
#ifndef PADB
#error "gemm_tc needs -DPADB"
#endif
#ifndef PRODUCTS
#error "gemm_tc needs -DPRODUCTS"
#endif
#ifndef PROMOTE
#error "gemm_tc needs -DPROMOTE"
#endif
#ifndef GUARD
#error "gemm_tc needs -DGUARD"
#endif
#ifndef LOOP
#error "gemm_tc needs -DLOOP"
#endif
#ifndef FRAGV
#error "gemm_tc needs -DFRAGV"
#endif
#ifndef CHUNK
#error "gemm_tc needs -DCHUNK"
#endif
#ifndef KPAIR
#error "gemm_tc needs -DKPAIR"
#endif
#ifndef WARPS_M
#error "gemm_tc needs -DWARPS_M"
#endif
#ifndef WARPS_N
#error "gemm_tc needs -DWARPS_N"
#endif
#ifndef THREADS
#error "gemm_tc needs -DTHREADS"
#endif
#ifndef MT
#error "gemm_tc needs -DMT"
#endif
#ifndef NT
#error "gemm_tc needs -DNT"
#endif
#ifndef KSTEPS
#error "gemm_tc needs -DKSTEPS"
#endif
#ifndef LDA
#error "gemm_tc needs -DLDA"
#endif
#ifndef LDB
#error "gemm_tc needs -DLDB"
#endif
#ifndef A_CHUNKS
#error "gemm_tc needs -DA_CHUNKS"
#endif
#ifndef B_CHUNKS
#error "gemm_tc needs -DB_CHUNKS"
#endif
#if GUARD == 2 && (!defined(GUARD_EMIN) || !defined(GUARD_EMAX))
#error "gemm_tc with GUARD = 2 needs -DGUARD_EMIN and -DGUARD_EMAX"
#endif
#ifndef OCLBLAS_TC_EMULATE
#define OCLBLAS_TC_EMULATE 0 // a build mode, not a parameter: the library never sets it
#endif
#ifndef OCLBLAS_TC_EMULATE_FTZ
#define OCLBLAS_TC_EMULATE_FTZ 0
#endif
#if CP_ASYNC && !OCLBLAS_TC_EMULATE && !defined(TC_SMEM_ADDR)
#error "gemm_tc with CP_ASYNC = 1 needs -DTC_SMEM_ADDR"
#endif

// A wrong descriptor stops here rather than computing garbage.
#if WARPS_M * WM != BM || WARPS_N * WN != BN || THREADS != 32 * WARPS_M * WARPS_N || MT * 16 != WM || \
    NT * 8 != WN || KSTEPS * 8 != BK || LDA != BM + PADA || LDB != BN + PADB ||                       \
    A_CHUNKS * 4 * THREADS != BM * BK || B_CHUNKS * 4 * THREADS != BN * BK
#error "gemm_tc: the derived sizes do not match the parameters"
#endif
#if PRODUCTS != 1 && PRODUCTS != 3
#error "gemm_tc: PRODUCTS is 1 or 3"
#endif
#if GUARD < 1 || GUARD > 2
#error "gemm_tc: GUARD is 1 or 2 (the fallback restores FP32's Inf and NaN)"
#endif
#if SPLIT && CP_ASYNC
#error "gemm_tc: SPLIT = 1 stages through registers, so no cp.async"
#endif
#if (CP_ASYNC && STAGES < 2) || (!CP_ASYNC && STAGES != 2)
#error "gemm_tc: STAGES >= 2 with cp.async, exactly 2 without"
#endif
#if LDA % 4 || LDB % 4
#error "gemm_tc: local rows must stay 16-byte aligned (PADA, PADB multiples of 4)"
#endif
#if LOOP < 0 || LOOP > 2
#error "gemm_tc: LOOP is 0, 1 or 2"
#endif
#if FRAGV != 1 && FRAGV != 2 && FRAGV != 4
#error "gemm_tc: FRAGV is 1, 2 or 4"
#endif
#if FRAGV > 1 && (MT % (FRAGV / 2) || NT % FRAGV)
#error "gemm_tc: FRAGV needs MT a multiple of FRAGV / 2 and NT a multiple of FRAGV"
#endif
#if CHUNK < 0 || CHUNK > 3 || (CHUNK && (PRODUCTS != 3 || PROMOTE != 0))
#error "gemm_tc: CHUNK is 0..3; CHUNK > 0 needs PRODUCTS = 3 and PROMOTE = 0"
#endif
#if CHUNK >= 2 && (LOOP != 1 || FRAGV != 1 || KPAIR)
#error "gemm_tc: CHUNK = 2 or 3 needs LOOP = 1, FRAGV = 1 and KPAIR = 0"
#endif
#if KPAIR < 0 || KPAIR > 1 || (KPAIR && (PRODUCTS != 1 || CP_ASYNC || LOOP == 0 || FRAGV != 1 || NT % 2 || \
                                         A_CHUNKS % 2 || B_CHUNKS % 2))
#error "gemm_tc: KPAIR = 1 needs PRODUCTS = 1, register staging, LOOP >= 1, FRAGV = 1, NT, A_CHUNKS, B_CHUNKS even"
#endif
#if LOOP == 0 && (FRAGV != 1 || CHUNK)
#error "gemm_tc: LOOP = 0 (round 1's loop) has FRAGV = 1 and CHUNK = 0"
#endif

#if OCLBLAS_TC_EMULATE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// Local planes per operand: hi and lo when split at staging, else one.
#if SPLIT && PRODUCTS == 3
#define PLANES 2
#else
#define PLANES 1
#endif
// k-steps per temporary with CHUNK = 2 (the k-tile) or 3 (one k-step).
#if CHUNK == 2
#define CSTEPS KSTEPS
#else
#define CSTEPS 1
#endif
#define A_PLANE (BK * LDA) // floats of one k-tile of A in local memory
#define B_PLANE (BK * LDB)

// Round to TF32 (10 fraction bits) to nearest, ties away from zero, leaving
// Inf and NaN as they are: the integer form of cvt.rna.tf32.f32, so the
// emulation runs the very code the GPU runs (1xTF32 with SPLIT = 1).
inline float4 tf32_round4(float4 x)
{
    const uint4 u = as_uint4(x);
    const uint4 finite = as_uint4((u & 0x7FFFFFFFu) < 0x7F800000u);
    return as_float4((u + (finite & 0x1000u)) & 0xFFFFE000u);
}
// The same in two integer operations, for 3xTF32's hi: it may turn a NaN
// into -0, but then lo = x - hi is NaN and carries it.
inline float tf32_round_split(float x) { return as_float((as_uint(x) + 0x1000u) & 0xFFFFE000u); }
inline float4 tf32_round_split4(float4 x) { return as_float4((as_uint4(x) + 0x1000u) & 0xFFFFE000u); }

#if GUARD == 2
// True for x outside {0} U [2^GUARD_EMIN, 2^GUARD_EMAX] (Inf and NaN included).
#define RANGE_LO ((uint)(GUARD_EMIN + 127) << 23)
#define RANGE_HI ((uint)(GUARD_EMAX + 127) << 23)
inline int out_of_range(float x)
{
    const uint u = as_uint(x) & 0x7FFFFFFFu;
    return u != 0u && u - RANGE_LO > RANGE_HI - RANGE_LO;
}
inline int out_of_range4(float4 x)
{
    return out_of_range(x.s0) | out_of_range(x.s1) | out_of_range(x.s2) | out_of_range(x.s3);
}
#endif
// GUARD >= 1: a final sum that FP32 arithmetic may have computed otherwise
// (non-finite, or large enough that a saturated overflow could hide in it).
inline int suspicious(float x) { return (as_uint(x) & 0x7FFFFFFFu) >= 0x7E800000u; }

#if OCLBLAS_TC_EMULATE
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 for the warp whose
// scratch is w (32 x 6 words), from this work-item's fragments (PTX ISA,
// "Matrix Fragments for mma.m16n8k8", .tf32): with g = lane / 4 and
// t = lane % 4, a[r] holds A(g + 8 (r & 1), t + 4 (r >> 1)), b[r] holds
// B(t + 4 r, g), d[i] is D(g + 8 (i >> 1), 2 t + (i & 1)). All work-items of
// the work-group must call it together (it holds two barriers).
void mma_emulated(float *d, const uint *a, const uint *b, local uint *w, const int lane)
{
    barrier(CLK_LOCAL_MEM_FENCE); // the previous call's readers are done
    for (int r = 0; r < 4; ++r)
        w[lane * 6 + r] = a[r];
    w[lane * 6 + 4] = b[0];
    w[lane * 6 + 5] = b[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int g = lane >> 2, t = lane & 3;
    for (int i = 0; i < 4; ++i) {
        const int row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
        double s = d[i];
        for (int k = 0; k < 8; ++k) {
            // The tensor cores read the top 19 bits of each operand.
            float x = as_float(w[((row & 7) * 4 + (k & 3)) * 6 + (row >> 3) + 2 * (k >> 2)] & 0xFFFFE000u);
            float y = as_float(w[(col * 4 + (k & 3)) * 6 + 4 + (k >> 2)] & 0xFFFFE000u);
#if OCLBLAS_TC_EMULATE_FTZ
            x = fabs(x) < FLT_MIN ? copysign(0.0f, x) : x;
            y = fabs(y) < FLT_MIN ? copysign(0.0f, y) : y;
            double p = (double)x * (double)y;
            p = fabs(p) < FLT_MIN ? 0.0 : p;
#else
            const double p = (double)x * (double)y;
#endif
            s += p;
        }
        d[i] = convert_float_rtz(s); // the products exactly, one truncation
#if OCLBLAS_TC_EMULATE_FTZ
        if (fabs(d[i]) < FLT_MIN)
            d[i] = 0.0f;
#endif
    }
}
#define MMA(d, a, b) mma_emulated(d, a, b, emu_frag + warp * 32 * 6, lane)
#define CP_ASYNC16(dst, src) (*(local float4 *)(dst) = *(src))
#define CP_COMMIT()
#define CP_WAIT_PIPELINE()
#define CP_WAIT_ALL()
#else
// Inline PTX is spelt `asm`, as NVIDIA's OpenCL compiler takes it (gemv_t.cl
// does the same); a strict C99 front end such as clang's wants `__asm__`
// (-DTC_ASM=__asm__, as proto/ptx-check.sh compiles it).
#ifndef TC_ASM
#define TC_ASM asm
#endif
#define MMA(d, a, b)                                                                                 \
    TC_ASM volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, " \
                    "{%8,%9}, {%10,%11,%12,%13};"                                                       \
                    : "=f"((d)[0]), "=f"((d)[1]), "=f"((d)[2]), "=f"((d)[3])                            \
                    : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]),     \
                      "f"((d)[0]), "f"((d)[1]), "f"((d)[2]), "f"((d)[3]))
#if CP_ASYNC
// 16 bytes from global to local memory without passing through registers.
#if TC_SMEM_ADDR == 1
#define CP_ASYNC16(dst, src)                                                  \
    TC_ASM volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::            \
                        "r"((uint)(ulong)(dst)), "l"((ulong)(src)))
#elif TC_SMEM_ADDR == 2
#define CP_ASYNC16(dst, src)                                                  \
    TC_ASM volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::            \
                        "l"((ulong)(dst)), "l"((ulong)(src)))
#elif TC_SMEM_ADDR == 3
#define CP_ASYNC16(dst, src)                                                  \
    TC_ASM volatile("{ .reg .u64 sa; cvta.to.shared.u64 sa, %0;"              \
                    " cp.async.cg.shared.global [sa], [%1], 16; }" ::         \
                        "l"((ulong)(dst)), "l"((ulong)(src)))
#else
#error "gemm_tc: TC_SMEM_ADDR is 1, 2 or 3"
#endif
#define CP_COMMIT() TC_ASM volatile("cp.async.commit_group;")
#define CP_WAIT_ALL() TC_ASM volatile("cp.async.wait_group 0;")
// Wait until at most STAGES - 2 groups are in flight: the oldest tile is in.
#if STAGES == 2
#define CP_WAIT_PIPELINE() TC_ASM volatile("cp.async.wait_group 0;")
#elif STAGES == 3
#define CP_WAIT_PIPELINE() TC_ASM volatile("cp.async.wait_group 1;")
#elif STAGES == 4
#define CP_WAIT_PIPELINE() TC_ASM volatile("cp.async.wait_group 2;")
#elif STAGES == 5
#define CP_WAIT_PIPELINE() TC_ASM volatile("cp.async.wait_group 3;")
#elif STAGES == 6
#define CP_WAIT_PIPELINE() TC_ASM volatile("cp.async.wait_group 4;")
#else
#error "gemm_tc: STAGES is at most 6"
#endif
#endif
#endif

// Each operand fragment comes from local memory as hi (and lo) words.
// SPLIT = 1 reads the planes written while staging; SPLIT = 0 reads the
// raw float and splits it here, or with PRODUCTS = 1 passes it as it is:
// the tensor cores read its top 19 bits (TF32 by truncation: the probe
// "low operand bits" confirms it on the GPU). Rounding here would cost 3
// or more instructions per MMA, about all the issue slots an MMA leaves.
#if PRODUCTS == 3 && SPLIT
#define LOAD_FRAGMENT(base, plane, o, hi, lo) \
    do {                                      \
        hi = as_uint((base)[o]);              \
        lo = as_uint((base)[(plane) + (o)]);  \
    } while (0)
#elif PRODUCTS == 3
#define LOAD_FRAGMENT(base, plane, o, hi, lo)  \
    do {                                       \
        const float x_ = (base)[o];            \
        FRAGMENT_GUARD(x_);                    \
        const float h_ = tf32_round_split(x_); \
        hi = as_uint(h_);                      \
        lo = as_uint(x_ - h_);                 \
    } while (0)
#elif SPLIT
#define LOAD_FRAGMENT(base, plane, o, hi, lo) hi = as_uint((base)[o])
#else
#define LOAD_FRAGMENT(base, plane, o, hi, lo) \
    do {                                      \
        const float x_ = (base)[o];           \
        FRAGMENT_GUARD(x_);                   \
        hi = as_uint(x_);                     \
    } while (0)
#endif
// GUARD = 2 checks each operand where it passes through registers on its
// way to local memory or, with cp.async, where a warp loads it.
#if GUARD == 2 && CP_ASYNC
#define FRAGMENT_GUARD(x) bad |= out_of_range(x)
#else
#define FRAGMENT_GUARD(x)
#endif
#if GUARD == 2 && !CP_ASYNC
#define STAGE_GUARD(v) bad |= out_of_range4(v)
#else
#define STAGE_GUARD(v)
#endif
#if SPLIT && PRODUCTS == 3
#define STORE_CHUNK(base, plane, o, v)                        \
    do {                                                      \
        const float4 h_ = tf32_round_split4(v);               \
        *(local float4 *)((base) + (o)) = h_;                 \
        *(local float4 *)((base) + (plane) + (o)) = (v) - h_; \
    } while (0)
#elif SPLIT
#define STORE_CHUNK(base, plane, o, v) (*(local float4 *)((base) + (o)) = tf32_round4(v))
#else
#define STORE_CHUNK(base, plane, o, v) (*(local float4 *)((base) + (o)) = (v))
#endif

// Round 2's loop (LOOP >= 1) loads fragments through these. FRAG_WORD:
// one word (raw or hi, and lo from the second plane); FRAG_VECTOR: FRAGV
// consecutive words in one 64- or 128-bit load; SPLIT_WORD: hi and lo
// of a loaded word (split here with SPLIT = 0).
#if PRODUCTS == 3 && SPLIT
#define FRAG_LO(x) x
#define FRAG_WORD(base, plane, o, w, wl)         \
    do {                                         \
        w = as_uint((base)[o]);                  \
        wl = as_uint((base)[(plane) + (o)]);     \
    } while (0)
#else
#define FRAG_LO(x)
#define FRAG_WORD(base, plane, o, w, wl) \
    do {                                 \
        const float x_ = (base)[o];      \
        FRAGMENT_GUARD(x_);              \
        w = as_uint(x_);                 \
    } while (0)
#endif
#if FRAGV == 2
#define FRAG_VLOAD(p, w)                                  \
    do {                                                  \
        const float2 x_ = *(const local float2 *)(p);     \
        (w)[0] = as_uint(x_.s0);                          \
        (w)[1] = as_uint(x_.s1);                          \
    } while (0)
#elif FRAGV == 4
#define FRAG_VLOAD(p, w)                                  \
    do {                                                  \
        const float4 x_ = *(const local float4 *)(p);     \
        (w)[0] = as_uint(x_.s0);                          \
        (w)[1] = as_uint(x_.s1);                          \
        (w)[2] = as_uint(x_.s2);                          \
        (w)[3] = as_uint(x_.s3);                          \
    } while (0)
#endif
#define FRAG_VLOAD4(p, w)                                 \
    do {                                                  \
        const float4 x_ = *(const local float4 *)(p);     \
        (w)[0] = as_uint(x_.s0);                          \
        (w)[1] = as_uint(x_.s1);                          \
        (w)[2] = as_uint(x_.s2);                          \
        (w)[3] = as_uint(x_.s3);                          \
    } while (0)
// KPAIR: the offset (0 or 4) of the quad holding columns 4c, 4c + 1 of a
// 4-column group c (the other quad is at the other offset).
#define KP_SWAP(c) ((((c) >> 2) & 1) * 4)
// KPAIR's staging: rounded to TF32 with SPLIT = 1, raw with SPLIT = 0.
#if SPLIT
#define KP_ROUND(v) tf32_round4(v)
#else
#define KP_ROUND(v) (v)
#endif
#if PRODUCTS == 3 && SPLIT
#define FRAG_VECTOR(base, plane, o, w, wl)         \
    do {                                           \
        FRAG_VLOAD((base) + (o), w);               \
        FRAG_VLOAD((base) + (plane) + (o), wl);    \
    } while (0)
#else
#define FRAG_VECTOR(base, plane, o, w, wl)                       \
    do {                                                         \
        FRAG_VLOAD((base) + (o), w);                             \
        for (int c_ = 0; c_ < FRAGV; ++c_)                       \
            FRAGMENT_GUARD(as_float((w)[c_]));                   \
    } while (0)
#endif
#if SPLIT
#define SPLIT_WORD(w, wl, hi, lo) \
    do {                          \
        hi = (w);                 \
        lo = (wl);                \
    } while (0)
#else
#define SPLIT_WORD(w, wl, hi, lo)                     \
    do {                                              \
        const float x_ = as_float(w);                 \
        const float h_ = tf32_round_split(x_);        \
        hi = as_uint(h_);                             \
        lo = as_uint(x_ - h_);                        \
    } while (0)
#endif

// Where fragment row h (0: g, 1: g + 8) of m16n8 tile row i, and fragment
// column c of tile column j, lie in the warp's WM x WN block. FRAGV = 1:
// as the PTX ISA lays them out. FRAGV = 2 or 4: rows and columns are
// relabelled (the MMA does not care which rows and columns it gets, only
// the epilogue and the fallback must agree) so that the FRAGV words a
// lane needs for one k are adjacent in local memory: A rows
// FRAGV g + 2 (i % FRAGP) + h within a group of FRAGP tiles, B columns
// FRAGV c + j % FRAGV within a group of FRAGV tiles. A quarter-warp's
// 128-bit loads (half-warp's 64-bit) then cover 32 banks once with
// LDA, LDB = 8 or 24 (mod 32), as the 32-bit loads do.
#if KPAIR
// KPAIR = 1: fragment row h of tile i is row 2 g + h of the tile, and tile
// columns pair up (j even and odd share 16 columns, interleaved); see the
// layout where the fragments are loaded.
#define ROW(i, h) ((i) * 16 + 2 * g + (h))
#define COL(j, c) (((j) / 2) * 16 + 2 * (c) + ((j) & 1))
#elif FRAGV == 1
#define ROW(i, h) ((i) * 16 + 8 * (h) + g)
#define COL(j, c) ((j) * 8 + (c))
#else
#define FRAGP (FRAGV / 2)
#define ROW(i, h) (((i) / FRAGP) * 16 * FRAGP + FRAGV * g + 2 * ((i) % FRAGP) + (h))
#define COL(j, c) (((j) / FRAGV) * 8 * FRAGV + FRAGV * (c) + (j) % FRAGV)
#endif

__attribute__((reqd_work_group_size(THREADS, 1, 1)))
kernel void gemm_tc(const int M, const int N, const int K, const int k_slice, const int c_slice,
                    const float alpha, const float beta,
                    const global float4 *restrict ag, const int a_off, const int a_ld,
                    const global float4 *restrict bg, const int b_off, const int b_ld,
                    global float *cg, const int c_off, const int c_ld)
{
    local float4 lds_a[STAGES * PLANES * A_PLANE / 4];
    local float4 lds_b[STAGES * PLANES * B_PLANE / 4];
    local float *const la = (local float *)lds_a;
    local float *const lb = (local float *)lds_b;
#if OCLBLAS_TC_EMULATE
    local uint emu_frag[THREADS * 6];
#endif
    local int fallback;

    const int lid = get_local_id(0);
    const int lane = lid & 31, warp = lid >> 5;
    const int g = lane >> 2, tq = lane & 3; // groupID and threadID_in_group of the PTX ISA
    const int wm0 = (warp % WARPS_M) * WM, wn0 = (warp / WARPS_M) * WN;
    const int m_tile = get_group_id(0) * BM, n_tile = get_group_id(1) * BN;
    const int z = get_group_id(2);
    const int k_begin = z * k_slice;
    cg += z * c_slice;
    const global float4 *const a_tile = ag + a_off + m_tile / 4 + k_begin * a_ld;
    const global float4 *const b_tile = bg + b_off + n_tile / 4 + k_begin * b_ld;
    const int num_k_tiles = min(k_slice, K - k_begin) / BK;
    if (lid == 0)
        fallback = 0;
    int bad = 0; // this work-item saw a reason for the fallback

    // This work-item's float4s of each k-tile: source offsets (float4s, from
    // the tile's first row) and local offsets (floats, from the slot).
    int a_src[A_CHUNKS], a_dst[A_CHUNKS], b_src[B_CHUNKS], b_dst[B_CHUNKS];
#if KPAIR
    // KPAIR = 1: a work-item stages float4 pairs, the same 4 columns of k
    // rows 2p and 2p + 1 (chunks 2i and 2i + 1), which go to local memory
    // as two interleaved quads (the layout is described where the
    // fragments are loaded): columns 4c, 4c + 1 at a_kp[i], 4c + 2, 4c + 3
    // at a_kp[i] ^ 4. The two swap places every 4 columns (KP_SWAP), so a
    // quarter-warp's first 128-bit stores cover the 32 banks once.
    int a_kp[A_CHUNKS / 2], b_kp[B_CHUNKS / 2];
#pragma unroll
    for (int i = 0; i < A_CHUNKS / 2; ++i) {
        const int c = lid + i * THREADS, p = c / (BM / 4), col = c % (BM / 4);
        a_src[2 * i] = 2 * p * a_ld + col;
        a_src[2 * i + 1] = (2 * p + 1) * a_ld + col;
        a_dst[2 * i] = 2 * p * LDA + col * 4;
        a_dst[2 * i + 1] = (2 * p + 1) * LDA + col * 4;
        a_kp[i] = p * 2 * LDA + col * 8 + KP_SWAP(col);
    }
#pragma unroll
    for (int i = 0; i < B_CHUNKS / 2; ++i) {
        const int c = lid + i * THREADS, p = c / (BN / 4), col = c % (BN / 4);
        b_src[2 * i] = 2 * p * b_ld + col;
        b_src[2 * i + 1] = (2 * p + 1) * b_ld + col;
        b_dst[2 * i] = 2 * p * LDB + col * 4;
        b_dst[2 * i + 1] = (2 * p + 1) * LDB + col * 4;
        b_kp[i] = p * 2 * LDB + col * 8 + KP_SWAP(col);
    }
#else
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i) {
        const int c = lid + i * THREADS, row = c / (BM / 4), col = c % (BM / 4);
        a_src[i] = row * a_ld + col;
        a_dst[i] = row * LDA + col * 4;
    }
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i) {
        const int c = lid + i * THREADS, row = c / (BN / 4), col = c % (BN / 4);
        b_src[i] = row * b_ld + col;
        b_dst[i] = row * LDB + col * 4;
    }
#endif
    // Fragment offsets (PTX ISA m16n8k8 .tf32): A(m = g, k = tq) and
    // B(k = tq, n = g) of the warp's first tile, from a slot's start. With
    // LDA and LDB = 8 (mod 32), the 32 lanes hit 32 different banks.
#if KPAIR
    // Lane g's quad of tile i lies in 4-column group c = (wm0 + 16 i) / 4 +
    // g / 2, half g & 1, swapped by KP_SWAP(c): kp_a[i & 1], kp_b[q & 1].
    int kp_a[2], kp_b[2];
#pragma unroll
    for (int p = 0; p < 2; ++p) {
        kp_a[p] = tq * 2 * LDA + 2 * wm0 + 8 * (g >> 1) + (KP_SWAP(wm0 / 4 + 4 * p) ^ (4 * (g & 1)));
        kp_b[p] = tq * 2 * LDB + 2 * wn0 + 8 * (g >> 1) + (KP_SWAP(wn0 / 4 + 4 * p) ^ (4 * (g & 1)));
    }
#else
    const int a_frag = tq * LDA + wm0 + (FRAGV == 1 ? g : FRAGV * g);
    const int b_frag = tq * LDB + wn0 + (FRAGV == 1 ? g : FRAGV * g);
#endif

    float acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r)
                acc[i][j][r] = 0.0f;
#if PROMOTE
    float part[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r)
                part[i][j][r] = 0.0f;
#define SUM part
#else
#define SUM acc
#endif

#if CP_ASYNC
    // K-tile tn's asynchronous copies into its slot, tn % STAGES, where the
    // tile exists; every caller commits one group after it, empty or not.
#define ISSUE_TILE(tn)                                                                             \
    if ((tn) < num_k_tiles) {                                                                      \
        local float *const sa_ = la + ((tn) % STAGES) * A_PLANE;                                   \
        local float *const sb_ = lb + ((tn) % STAGES) * B_PLANE;                                   \
        const global float4 *const ga_ = a_tile + (tn) * BK * a_ld;                                \
        const global float4 *const gb_ = b_tile + (tn) * BK * b_ld;                                \
        _Pragma("unroll") for (int i_ = 0; i_ < A_CHUNKS; ++i_)                                    \
            CP_ASYNC16(sa_ + a_dst[i_], ga_ + a_src[i_]);                                          \
        _Pragma("unroll") for (int i_ = 0; i_ < B_CHUNKS; ++i_)                                    \
            CP_ASYNC16(sb_ + b_dst[i_], gb_ + b_src[i_]);                                          \
    }
#endif
#if LOOP == 0
    // Round 1's loop, kept as it was for comparison (LOOP = 0).
#if CP_ASYNC
    // Slot t % STAGES holds k-tile t. Steps t < 0 only issue the first
    // STAGES - 1 tiles. Step t >= 0 waits for tile t; the barrier makes it
    // visible and releases the slot that step t - 1 multiplied, where tile
    // t + STAGES - 1 goes. One group is committed per step, empty or not,
    // so "all but the newest STAGES - 2 groups are done" means "tile t is in".
    for (int t = 1 - STAGES; t < num_k_tiles; ++t) {
        if (t >= 0) {
            CP_WAIT_PIPELINE();
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        ISSUE_TILE(t + STAGES - 1)
        CP_COMMIT();
        if (t < 0)
            continue;
        const int kt = t; // the k-tile multiplied at this step
#else
    // Two slots, as in gemm_fast: step t stores tile t - 1 (loaded into
    // registers during step t - 1, and split there with SPLIT = 1) into slot
    // (t - 1) & 1, loads tile t into registers and multiplies tile t - 1.
    // The slot written at step t was last read at step t - 2, before the
    // barrier of step t - 1, so one barrier per step suffices.
    float4 areg[A_CHUNKS], breg[B_CHUNKS];
    for (int t = 0; t <= num_k_tiles; ++t) {
        if (t > 0) {
            local float *const sa = la + ((t - 1) & 1) * PLANES * A_PLANE;
            local float *const sb = lb + ((t - 1) & 1) * PLANES * B_PLANE;
#pragma unroll
            for (int i = 0; i < A_CHUNKS; ++i) {
                STAGE_GUARD(areg[i]);
                STORE_CHUNK(sa, A_PLANE, a_dst[i], areg[i]);
            }
#pragma unroll
            for (int i = 0; i < B_CHUNKS; ++i) {
                STAGE_GUARD(breg[i]);
                STORE_CHUNK(sb, B_PLANE, b_dst[i], breg[i]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < num_k_tiles) {
            const global float4 *const ga = a_tile + t * BK * a_ld;
            const global float4 *const gb = b_tile + t * BK * b_ld;
#pragma unroll
            for (int i = 0; i < A_CHUNKS; ++i)
                areg[i] = ga[a_src[i]];
#pragma unroll
            for (int i = 0; i < B_CHUNKS; ++i)
                breg[i] = gb[b_src[i]];
        }
        if (t == 0)
            continue;
        const int kt = t - 1; // the k-tile multiplied at this step
#endif
        // The product of k-tile kt, in slot kt % STAGES.
        const local float *const ta = la + (kt % STAGES) * PLANES * A_PLANE;
        const local float *const tb = lb + (kt % STAGES) * PLANES * B_PLANE;
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) {
            uint ahi[MT][4], bhi[NT][2];
#if PRODUCTS == 3
            uint alo[MT][4], blo[NT][2];
#endif
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int r = 0; r < 4; ++r)
                    LOAD_FRAGMENT(ta, A_PLANE, a_frag + (s * 8 + 4 * (r >> 1)) * LDA + i * 16 + 8 * (r & 1),
                                  ahi[i][r], alo[i][r]);
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int r = 0; r < 2; ++r)
                    LOAD_FRAGMENT(tb, B_PLANE, b_frag + (s * 8 + 4 * r) * LDB + j * 8, bhi[j][r], blo[j][r]);
#if PRODUCTS == 3
            // The small products first, each sweep over independent tiles.
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j)
                    MMA(SUM[i][j], alo[i], bhi[j]);
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j)
                    MMA(SUM[i][j], ahi[i], blo[j]);
#endif
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j)
                    MMA(SUM[i][j], ahi[i], bhi[j]);
        }
#if PROMOTE
        // Fold the run of PROMOTE k-tiles into acc, rounding to nearest.
        if ((kt + 1) % PROMOTE == 0 || kt + 1 == num_k_tiles) {
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j)
#pragma unroll
                    for (int r = 0; r < 4; ++r) {
                        acc[i][j][r] += part[i][j][r];
                        part[i][j][r] = 0.0f;
                    }
        }
#endif
    }
#else // LOOP >= 1
    // Round 2's loop. One k-step's fragments: raw words (SPLIT = 0; split
    // here with PRODUCTS = 3) or rounded hi words (SPLIT = 1), plus the lo
    // words with SPLIT = 1 and PRODUCTS = 3. LOOP = 2 keeps two sets: the
    // next k-step's fragments (the next k-tile's first, across a k-tile
    // boundary) are loaded from local memory while the current ones are
    // multiplied, so local-memory latency and the barrier overlap the
    // MMAs. One barrier per k-tile, before its last k-step (LOOP = 2) or
    // its first (LOOP = 1).
    // Two sets with LOOP = 2: k-step s multiplies set CB and loads set NB.
    // With KSTEPS even the sets alternate by the parity of s (no copies);
    // with KSTEPS odd the loaded set is copied at the end of each k-step.
    uint fa[2][MT][4], fb[2][NT][2];
#if PRODUCTS == 3 && SPLIT
    uint fal[2][MT][4], fbl[2][NT][2];
#endif
#if LOOP == 2 && KSTEPS % 2 == 0
#define CB (s & 1)
#define NB ((s + 1) & 1)
#define COPY_NEXT 0
#elif LOOP == 2
#define CB 0
#define NB 1
#define COPY_NEXT 1
#else
#define CB 0
#define NB 0
#define COPY_NEXT 0
#endif
#define LA_ fa[NB]
#define LB_ fb[NB]
#define LAL_ fal[NB]
#define LBL_ fbl[NB]
#if CP_ASYNC
    // Tiles 0 .. STAGES - 2 in flight before the loop; k-tile t lives in
    // slot t % STAGES. One group is committed per tile issued (empty or
    // not), so waiting until STAGES - 2 are pending means the tile after
    // the last one waited for has landed.
    for (int tn = 0; tn < STAGES - 1; ++tn) {
        ISSUE_TILE(tn)
        CP_COMMIT();
    }
#define SLOT_A(t) (la + ((t) % STAGES) * A_PLANE)
#define SLOT_B(t) (lb + ((t) % STAGES) * B_PLANE)
#else
    // Register staging, two slots: k-tile t lives in slot t & 1; the tile
    // after the next one is in registers while a tile is multiplied.
    float4 areg[A_CHUNKS], breg[B_CHUNKS];
    if (num_k_tiles > 0) {
#pragma unroll
        for (int i = 0; i < A_CHUNKS; ++i)
            areg[i] = a_tile[a_src[i]];
#pragma unroll
        for (int i = 0; i < B_CHUNKS; ++i)
            breg[i] = b_tile[b_src[i]];
    }
#define SLOT_A(t) (la + ((t) & 1) * PLANES * A_PLANE)
#define SLOT_B(t) (lb + ((t) & 1) * PLANES * B_PLANE)
#endif
    // LOOP = 2 starts one k-tile early: iteration -1 only loads tile 0's
    // first fragments.
    for (int kt = LOOP == 2 ? -1 : 0; kt < num_k_tiles; ++kt) {
#if CP_ASYNC && LOOP == 2
        if (kt >= 0) {
            // Slot (kt - 1) % STAGES was last read before the barrier of
            // the previous iteration's last k-step.
            ISSUE_TILE(kt + STAGES - 1)
            CP_COMMIT();
        }
#endif
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) {
            // This k-step loads fragments of k-tile lt, k-step ls.
#if LOOP == 2
            const int sync = s == KSTEPS - 1;
            if (kt < 0 && !sync)
                continue;
            const int lt = sync ? kt + 1 : kt, ls = sync ? 0 : s + 1;
#else
            const int sync = s == 0;
            const int lt = kt, ls = s;
#endif
            if (sync) {
#if CP_ASYNC
                CP_WAIT_PIPELINE(); // tile lt has landed
                barrier(CLK_LOCAL_MEM_FENCE);
#if LOOP == 1
                ISSUE_TILE(kt + STAGES - 1) // into the slot iteration kt - 1 read
                CP_COMMIT();
#endif
#else
                // Tile lt goes from registers into slot lt & 1, last read
                // (tile lt - 2) before the previous barrier.
                if (lt < num_k_tiles) {
                    local float *const sa = SLOT_A(lt);
                    local float *const sb = SLOT_B(lt);
#if KPAIR
                    // Rows k = 2p (x) and 2p + 1 (y): A's quads are
                    // (x0, x1, y0, y1), (x2, x3, y2, y3); B's (x0, y0, x1, y1),
                    // (x2, y2, x3, y3) (see the fragment loads).
#pragma unroll
                    for (int i = 0; i < A_CHUNKS / 2; ++i) {
                        STAGE_GUARD(areg[2 * i]);
                        STAGE_GUARD(areg[2 * i + 1]);
                        const float4 x = KP_ROUND(areg[2 * i]), y = KP_ROUND(areg[2 * i + 1]);
                        *(local float4 *)(sa + a_kp[i]) = (float4)(x.s01, y.s01);
                        *(local float4 *)(sa + (a_kp[i] ^ 4)) = (float4)(x.s23, y.s23);
                    }
#pragma unroll
                    for (int i = 0; i < B_CHUNKS / 2; ++i) {
                        STAGE_GUARD(breg[2 * i]);
                        STAGE_GUARD(breg[2 * i + 1]);
                        const float4 x = KP_ROUND(breg[2 * i]), y = KP_ROUND(breg[2 * i + 1]);
                        *(local float4 *)(sb + b_kp[i]) = (float4)(x.s0, y.s0, x.s1, y.s1);
                        *(local float4 *)(sb + (b_kp[i] ^ 4)) = (float4)(x.s2, y.s2, x.s3, y.s3);
                    }
#else
#pragma unroll
                    for (int i = 0; i < A_CHUNKS; ++i) {
                        STAGE_GUARD(areg[i]);
                        STORE_CHUNK(sa, A_PLANE, a_dst[i], areg[i]);
                    }
#pragma unroll
                    for (int i = 0; i < B_CHUNKS; ++i) {
                        STAGE_GUARD(breg[i]);
                        STORE_CHUNK(sb, B_PLANE, b_dst[i], breg[i]);
                    }
#endif
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                if (lt + 1 < num_k_tiles) {
                    const global float4 *const ga = a_tile + (lt + 1) * BK * a_ld;
                    const global float4 *const gb = b_tile + (lt + 1) * BK * b_ld;
#pragma unroll
                    for (int i = 0; i < A_CHUNKS; ++i)
                        areg[i] = ga[a_src[i]];
#pragma unroll
                    for (int i = 0; i < B_CHUNKS; ++i)
                        breg[i] = gb[b_src[i]];
                }
#endif
            }
#if CHUNK >= 2
            // CHUNK = 2 or 3 (LOOP = 1, once per k-tile, at s = 0): A's
            // fragments of CSTEPS k-steps are split and held; B streams one
            // n8 column at a time (its words split as they arrive), and each
            // column's MT tiles sum their 3 CSTEPS products in fresh
            // temporaries that are added to acc in FP32. CHUNK = 2: one
            // temporary per k-tile (CSTEPS = KSTEPS: half the FADDs of
            // CHUNK = 1 with BK = 16); CHUNK = 3: per k-step, as CHUNK = 1.
            // Live: acc, A's hi and lo (8 MT CSTEPS words), one column's
            // B (4 CSTEPS) and 4 MT temporaries: 128 + 64 + 8 + 16 for a
            // 64x64 warp tile with BK = 16, against CHUNK = 1's all-B split.
            if (s == 0) {
                const local float *const ta = SLOT_A(lt);
                const local float *const tb = SLOT_B(lt);
#pragma unroll
                for (int s0 = 0; s0 < KSTEPS; s0 += CSTEPS) {
                    uint ahi[CSTEPS][MT][4], alo[CSTEPS][MT][4];
#pragma unroll
                    for (int c = 0; c < CSTEPS; ++c)
#pragma unroll
                        for (int i = 0; i < MT; ++i)
#pragma unroll
                            for (int r = 0; r < 4; ++r) {
                                const int o = a_frag + ((s0 + c) * 8 + 4 * (r >> 1)) * LDA + i * 16 + 8 * (r & 1);
                                uint w, wl = 0;
                                FRAG_WORD(ta, A_PLANE, o, w, wl);
                                SPLIT_WORD(w, wl, ahi[c][i][r], alo[c][i][r]);
                            }
#pragma unroll
                    for (int j = 0; j < NT; ++j) {
                        uint bhi[CSTEPS][2], blo[CSTEPS][2];
#pragma unroll
                        for (int c = 0; c < CSTEPS; ++c)
#pragma unroll
                            for (int r = 0; r < 2; ++r) {
                                const int o = b_frag + ((s0 + c) * 8 + 4 * r) * LDB + j * 8;
                                uint w, wl = 0;
                                FRAG_WORD(tb, B_PLANE, o, w, wl);
                                SPLIT_WORD(w, wl, bhi[c][r], blo[c][r]);
                            }
                        float t4[MT][4];
#pragma unroll
                        for (int i = 0; i < MT; ++i)
#pragma unroll
                            for (int r = 0; r < 4; ++r)
                                t4[i][r] = 0.0f;
#pragma unroll
                        for (int c = 0; c < CSTEPS; ++c) {
#pragma unroll
                            for (int i = 0; i < MT; ++i)
                                MMA(t4[i], alo[c][i], bhi[c]);
#pragma unroll
                            for (int i = 0; i < MT; ++i)
                                MMA(t4[i], ahi[c][i], blo[c]);
#pragma unroll
                            for (int i = 0; i < MT; ++i)
                                MMA(t4[i], ahi[c][i], bhi[c]);
                        }
#pragma unroll
                        for (int i = 0; i < MT; ++i)
#pragma unroll
                            for (int r = 0; r < 4; ++r)
                                acc[i][j][r] += t4[i][r];
                    }
                }
            }
#else
            if (lt < num_k_tiles) {
                const local float *const ta = SLOT_A(lt);
                const local float *const tb = SLOT_B(lt);
#if KPAIR
                // KPAIR = 1 (1xTF32): the k8 step's k are relabelled (fragment
                // k t and t + 4 are k 2t and 2t + 1; A and B agree, which is all
                // the MMA needs) and so are A's rows (g, g + 8 -> 2g, 2g + 1) and
                // B's columns (lane g's columns of tiles 2q and 2q + 1 are 2g and
                // 2g + 1 of a 16-column group). k rows are stored in pairs
                // (rows 2p, 2p + 1 in one local row of 2 LDA floats):
                // A(m, k) at (k / 2) 2 LDA + 4 (m / 2) + 2 (k & 1) + (m & 1),
                // B(k, n) at (k / 2) 2 LDB + 2 n + (k & 1). A lane's a0..a3 and
                // its b0, b1 of two tiles are then 4 adjacent words in mma's
                // register order: one 128-bit load each, no moves; a
                // quarter-warp's loads (t * 2 LD + 4 g) hit 32 banks once with
                // 2 LD = 8 (mod 32).
#pragma unroll
                for (int i = 0; i < MT; ++i)
                    FRAG_VLOAD4(ta + kp_a[i & 1] + ls * 8 * LDA + i * 32, LA_[i]);
#pragma unroll
                for (int q = 0; q < NT / 2; ++q) {
                    uint w[4];
                    FRAG_VLOAD4(tb + kp_b[q & 1] + ls * 8 * LDB + q * 32, w);
                    LB_[2 * q][0] = w[0];
                    LB_[2 * q][1] = w[1];
                    LB_[2 * q + 1][0] = w[2];
                    LB_[2 * q + 1][1] = w[3];
                }
#elif FRAGV == 1
#pragma unroll
                for (int i = 0; i < MT; ++i)
#pragma unroll
                    for (int r = 0; r < 4; ++r) {
                        const int o = a_frag + (ls * 8 + 4 * (r >> 1)) * LDA + i * 16 + 8 * (r & 1);
                        FRAG_WORD(ta, A_PLANE, o, LA_[i][r], LAL_[i][r]);
                    }
#pragma unroll
                for (int j = 0; j < NT; ++j)
#pragma unroll
                    for (int r = 0; r < 2; ++r) {
                        const int o = b_frag + (ls * 8 + 4 * r) * LDB + j * 8;
                        FRAG_WORD(tb, B_PLANE, o, LB_[j][r], LBL_[j][r]);
                    }
#else
                // FRAGV consecutive words per load: the fragment rows and
                // columns are permuted (ROW, COL) so that they are adjacent.
#pragma unroll
                for (int gi = 0; gi < MT / FRAGP; ++gi)
#pragma unroll
                    for (int kh = 0; kh < 2; ++kh) {
                        const int o = a_frag + (ls * 8 + 4 * kh) * LDA + gi * 16 * FRAGP;
                        uint w[FRAGV], wl[FRAGV];
                        FRAG_VECTOR(ta, A_PLANE, o, w, wl);
#pragma unroll
                        for (int c = 0; c < FRAGV; ++c) {
                            LA_[gi * FRAGP + c / 2][2 * kh + (c & 1)] = w[c];
                            FRAG_LO(LAL_[gi * FRAGP + c / 2][2 * kh + (c & 1)] = wl[c]);
                        }
                    }
#pragma unroll
                for (int gj = 0; gj < NT / FRAGV; ++gj)
#pragma unroll
                    for (int r = 0; r < 2; ++r) {
                        const int o = b_frag + (ls * 8 + 4 * r) * LDB + gj * 8 * FRAGV;
                        uint w[FRAGV], wl[FRAGV];
                        FRAG_VECTOR(tb, B_PLANE, o, w, wl);
#pragma unroll
                        for (int c = 0; c < FRAGV; ++c) {
                            LB_[gj * FRAGV + c][r] = w[c];
                            FRAG_LO(LBL_[gj * FRAGV + c][r] = wl[c]);
                        }
                    }
#endif
            }
#if LOOP == 2
            if (kt >= 0) {
#endif
                // Multiply this k-step: fa, fb (and fal, fbl).
#if PRODUCTS == 3
                uint bhi[NT][2], blo[NT][2];
#pragma unroll
                for (int j = 0; j < NT; ++j)
#pragma unroll
                    for (int r = 0; r < 2; ++r)
                        SPLIT_WORD(fb[CB][j][r], fbl[CB][j][r], bhi[j][r], blo[j][r]);
#if CHUNK
                // The three products of each m16n8 tile in a fresh
                // temporary (small ones first), added to acc in FP32: the
                // tensor cores' truncation then acts on a k8 sum, whose
                // sign is random, not on the growing accumulator. A is
                // split one tile row at a time (fewer live registers).
#pragma unroll
                for (int i = 0; i < MT; ++i) {
                    uint ahi[4], alo[4];
#pragma unroll
                    for (int r = 0; r < 4; ++r)
                        SPLIT_WORD(fa[CB][i][r], fal[CB][i][r], ahi[r], alo[r]);
#pragma unroll
                    for (int j = 0; j < NT; ++j) {
                        float t4[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                        MMA(t4, alo, bhi[j]);
                        MMA(t4, ahi, blo[j]);
                        MMA(t4, ahi, bhi[j]);
#pragma unroll
                        for (int r = 0; r < 4; ++r)
                            acc[i][j][r] += t4[r];
                    }
                }
#else
                uint ahi[MT][4], alo[MT][4];
#pragma unroll
                for (int i = 0; i < MT; ++i)
#pragma unroll
                    for (int r = 0; r < 4; ++r)
                        SPLIT_WORD(fa[CB][i][r], fal[CB][i][r], ahi[i][r], alo[i][r]);
#pragma unroll
                for (int i = 0; i < MT; ++i)
#pragma unroll
                    for (int j = 0; j < NT; ++j)
                        MMA(SUM[i][j], alo[i], bhi[j]);
#pragma unroll
                for (int i = 0; i < MT; ++i)
#pragma unroll
                    for (int j = 0; j < NT; ++j)
                        MMA(SUM[i][j], ahi[i], blo[j]);
#pragma unroll
                for (int i = 0; i < MT; ++i)
#pragma unroll
                    for (int j = 0; j < NT; ++j)
                        MMA(SUM[i][j], ahi[i], bhi[j]);
#endif
#else
#pragma unroll
                for (int i = 0; i < MT; ++i)
#pragma unroll
                    for (int j = 0; j < NT; ++j)
                        MMA(SUM[i][j], fa[CB][i], fb[CB][j]);
#endif
#if LOOP == 2
            }
#endif
#if COPY_NEXT
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    fa[0][i][r] = fa[1][i][r];
                    FRAG_LO(fal[0][i][r] = fal[1][i][r]);
                }
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int r = 0; r < 2; ++r) {
                    fb[0][j][r] = fb[1][j][r];
                    FRAG_LO(fbl[0][j][r] = fbl[1][j][r]);
                }
#endif
#endif // CHUNK >= 2
        }
#if PROMOTE
        // Fold the run of PROMOTE k-tiles into acc, rounding to nearest.
        if (kt >= 0 && ((kt + 1) % PROMOTE == 0 || kt + 1 == num_k_tiles)) {
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j)
#pragma unroll
                    for (int r = 0; r < 4; ++r) {
                        acc[i][j][r] += part[i][j][r];
                        part[i][j][r] = 0.0f;
                    }
        }
#endif
    }
#undef LA_
#undef LB_
#undef LAL_
#undef LBL_
#undef CB
#undef NB
#undef COPY_NEXT
#endif // LOOP
#if CP_ASYNC
    CP_WAIT_ALL(); // only empty groups can remain, but leave none behind
#endif

    // The fallback: one decision for the whole work-group (no host sync).
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r)
                bad |= suspicious(acc[i][j][r]);
    barrier(CLK_LOCAL_MEM_FENCE); // fallback = 0 is seen, local memory is free
    if (bad)
        atomic_or(&fallback, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (fallback) {
        // FFMA on the raw operands, in k order, as FP32 arithmetic does it.
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int r = 0; r < 4; ++r)
                    acc[i][j][r] = 0.0f;
        for (int t = 0; t < num_k_tiles; ++t) {
#pragma unroll
            for (int i = 0; i < A_CHUNKS; ++i)
                *(local float4 *)(la + a_dst[i]) = a_tile[t * BK * a_ld + a_src[i]];
#pragma unroll
            for (int i = 0; i < B_CHUNKS; ++i)
                *(local float4 *)(lb + b_dst[i]) = b_tile[t * BK * b_ld + b_src[i]];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < BK; ++k) {
                float av[MT][2], bv[NT][2];
#pragma unroll
                for (int i = 0; i < MT; ++i) {
                    av[i][0] = la[k * LDA + wm0 + ROW(i, 0)];
                    av[i][1] = la[k * LDA + wm0 + ROW(i, 1)];
                }
#pragma unroll
                for (int j = 0; j < NT; ++j) {
                    bv[j][0] = lb[k * LDB + wn0 + COL(j, 2 * tq)];
                    bv[j][1] = lb[k * LDB + wn0 + COL(j, 2 * tq + 1)];
                }
#pragma unroll
                for (int i = 0; i < MT; ++i)
#pragma unroll
                    for (int j = 0; j < NT; ++j)
#pragma unroll
                        for (int r = 0; r < 4; ++r)
                            acc[i][j][r] = fma(av[i][r >> 1], bv[j][r & 1], acc[i][j][r]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    // Epilogue: D(g + 8 (r >> 1), 2 tq + (r & 1)) of each m16n8 tile. A
    // column's 8 rows g = 0..7 are one 32-byte sector (FRAGV = 1; with
    // FRAGV = 4 they spread over four, merged in L2). beta == 0 must not
    // read C: NaN there may not come through.
    const int read_c = beta != 0.0f;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const int m = m_tile + wm0 + ROW(i, r >> 1);
                const int n = n_tile + wn0 + COL(j, 2 * tq + (r & 1));
                if (m < M && n < N) {
                    global float *const c = cg + c_off + n * c_ld + m;
                    const float v = alpha * acc[i][j][r];
                    *c = read_c ? fma(beta, *c, v) : v;
                }
            }
}
