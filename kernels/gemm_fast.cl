// gemm_fast: C = alpha * A * B + beta * C, the kernel that large SGEMMs
// run on. Column-major throughout: element (m, k) of A sits at
// ag[a_off + k * a_ld + m], element (k, n) of B at bg[b_off + k * b_ld + n]
// (B is stored with n contiguous), C(m, n) at cg[c_off + n * c_ld + m].
// With SA, A may instead be stored with k contiguous, (m, k) at
// ag[a_off + m * a_ld + k] (a_k_contiguous; the caller's transposed A read
// in place), and with SB so may B, (k, n) at bg[b_off + n * b_ld + k]
// (b_k_contiguous): the loader reads such a tile along k and transposes it
// on its way into local memory. K must be a multiple of KWG (zeros beyond
// the real K in a padded copy), except in the program built with PEELED
// (SA and SB only): there tile 0 of each slice of k is fetched before the
// loop, which starts at tile 1, and it may start before the slice, its k
// there read as zeros, so that every other tile is whole and K may be
// anything. It is a second program of the set because the fetch before the
// loop takes registers that a set at the limit spills, while on sets with
// room it runs faster than the loop with tile 0 inside it, whatever K (the
// plan picks per set, by its measured rate). A's m and B's n extents are
// multiples of MWG and NWG, or padded to them, or else at least a tile and
// whole vectors: a work-group whose tile would cross the edge of C is
// moved back to end at it, so that it reads no row past M (no column past
// N) and stores only the elements no other group does. Offsets and leading
// dimensions of A and B are in vectors of VWM and VWN, which an operand
// stored with k contiguous is read in along k (KWG whole vectors). C is
// read and written in place, guarded at its edges, so it needs no helper
// pass. Each work-group computes an MWG x NWG tile; each work-item an MWI x
// NWI block of it held in registers. Tiles of A and B go through local
// memory (SA, SB) in two buffers: the next tile is fetched from global
// memory into registers while the current one is multiplied, so there is
// one barrier per KWG step and the global loads' latency hides behind the
// math. The launch's third dimension is either a split of k or a batch of
// products of one shape (see the kernel's first lines).

// The host passes every parameter and every size derived from them as -D
// options (src/kernels/gemm_fast.c): MWG NWG KWG tile of a work-group;
// MDIMC NDIMC its shape; MDIMA NDIMB the loaders' shapes; KWI unroll; VWM
// VWN vector widths; STRM STRN strided access; SA SB local memory for A, B;
// PEELED tile 0 fetched before the loop (any K); WGS work-items;
// MWI NWI elements per work-item, MVI NVI in vectors; MVG NVG the tile in
// vectors; with SA the loader of A is MDIMA x KDIMA
// work-items of MVA x KWA vectors each, and an A stored with k contiguous
// has AKV vectors of k a row of its tile; with SB the loader of B is NDIMB
// x KDIMB of NVB x KWB, and BKV the same as AKV.
#if !defined(MWG) || !defined(NWG) || !defined(KWG) || !defined(MDIMC) || !defined(NDIMC) || !defined(MDIMA) || \
    !defined(NDIMB) || !defined(KWI) || !defined(VWM) || !defined(VWN) || !defined(STRM) || !defined(STRN) ||     \
    !defined(SA) || !defined(SB) || !defined(WGS) || !defined(MWI) || !defined(NWI) || !defined(MVI) ||          \
    !defined(NVI) || !defined(MVG) || !defined(NVG) || !defined(PEELED)
#error "gemm_fast: a parameter or derived size is missing (the host passes them all as -D)"
#endif
#if SA && (!defined(KDIMA) || !defined(MVA) || !defined(KWA) || !defined(AKV))
#error "gemm_fast: SA needs KDIMA, MVA, KWA and AKV"
#endif
#if SB && (!defined(KDIMB) || !defined(NVB) || !defined(KWB) || !defined(BKV))
#error "gemm_fast: SB needs KDIMB, NVB, KWB and BKV"
#endif
#if PEELED && !(SA && SB)
#error "gemm_fast: PEELED needs SA and SB"
#endif

#if VWM == 1
typedef float realM;
#define UNPACK_M(d, i, v) d[(i)] = (v)
#define PACK_M(v, s, i) v = s[(i)]
#elif VWM == 2
typedef float2 realM;
#define UNPACK_M(d, i, v) d[(i)] = (v).s0; d[(i) + 1] = (v).s1
#define PACK_M(v, s, i) v = (float2)(s[(i)], s[(i) + 1])
#elif VWM == 4
typedef float4 realM;
#define UNPACK_M(d, i, v) d[(i)] = (v).s0; d[(i) + 1] = (v).s1; d[(i) + 2] = (v).s2; d[(i) + 3] = (v).s3
#define PACK_M(v, s, i) v = (float4)(s[(i)], s[(i) + 1], s[(i) + 2], s[(i) + 3])
#elif VWM == 8
typedef float8 realM;
#define UNPACK_M(d, i, v) \
    d[(i)] = (v).s0; d[(i) + 1] = (v).s1; d[(i) + 2] = (v).s2; d[(i) + 3] = (v).s3; \
    d[(i) + 4] = (v).s4; d[(i) + 5] = (v).s5; d[(i) + 6] = (v).s6; d[(i) + 7] = (v).s7
#define PACK_M(v, s, i) \
    v = (float8)(s[(i)], s[(i) + 1], s[(i) + 2], s[(i) + 3], s[(i) + 4], s[(i) + 5], s[(i) + 6], s[(i) + 7])
#endif

#if VWN == 1
typedef float realN;
#define UNPACK_N(d, i, v) d[(i)] = (v)
#elif VWN == 2
typedef float2 realN;
#define UNPACK_N(d, i, v) d[(i)] = (v).s0; d[(i) + 1] = (v).s1
#elif VWN == 4
typedef float4 realN;
#define UNPACK_N(d, i, v) d[(i)] = (v).s0; d[(i) + 1] = (v).s1; d[(i) + 2] = (v).s2; d[(i) + 3] = (v).s3
#elif VWN == 8
typedef float8 realN;
#define UNPACK_N(d, i, v) \
    d[(i)] = (v).s0; d[(i) + 1] = (v).s1; d[(i) + 2] = (v).s2; d[(i) + 3] = (v).s3; \
    d[(i) + 4] = (v).s4; d[(i) + 5] = (v).s5; d[(i) + 6] = (v).s6; d[(i) + 7] = (v).s7
#endif

// Vector index within the tile of a work-item's i-th vector: contiguous
// blocks (registers map to neighbouring memory) or strided (neighbouring
// work-items touch neighbouring vectors, which coalesces and avoids bank
// conflicts).
#if STRM == 0
#define M_VEC(tid, i) ((tid) * MVI + (i))
#else
#define M_VEC(tid, i) ((i) * MDIMC + (tid))
#endif
#if STRN == 0
#define N_VEC(tid, i) ((tid) * NVI + (i))
#else
#define N_VEC(tid, i) ((i) * NDIMC + (tid))
#endif

__attribute__((reqd_work_group_size(MDIMC, NDIMC, 1)))
kernel void gemm_fast(const int M, const int N, const int K, const int k_slice, const int c_slice,
                      const float alpha, const float beta,
                      const global realM *restrict ag, const int a_off, const int a_ld,
                      const global realN *restrict bg, const int b_off, const int b_ld,
                      global float *cg, const int c_off, const int c_ld,
                      const int a_batch, const int b_batch, const int a_k_contiguous, const int b_k_contiguous)
{
    const int tid_m = get_local_id(0);
    const int tid_n = get_local_id(1);
    // The group's own elements of C start at m_first and n_first; its tile
    // at m_tile and n_tile, moved back where it would cross the edge (as
    // far as whole vectors allow: else the operand was padded).
    const int m_first = get_group_id(0) * MWG;
    const int n_first = get_group_id(1) * NWG;
    const int m_tile = M >= MWG && M % VWM == 0 ? min(m_first, M - MWG) : m_first;
    const int n_tile = N >= NWG && N % VWN == 0 ? min(n_first, N - NWG) : n_first;
    // The third dimension of the launch (1 for a single product, unsplit):
    // with k_slice > 0 the split of k, work-group z multiplying k in
    // [z k_slice, (z + 1) k_slice) into its own copy of C, c_slice elements
    // after the previous one, for sum_slices to add (a_batch = b_batch = 0);
    // with k_slice = 0 a batch, work-group z computing problem z over the
    // whole K, its A a_batch vectors, its B b_batch vectors and its C
    // c_slice elements after problem z - 1's.
    const int z = get_group_id(2);
    const int k_begin = z * k_slice;
    cg += z * c_slice;
    // The tile's first element; the host sets a_k_contiguous only with SA,
    // b_k_contiguous only with SB.
    const global realM *a_tile = ag + a_off + z * a_batch +
                                 (a_k_contiguous ? m_tile * a_ld + k_begin / VWM : m_tile / VWM + k_begin * a_ld);
    const global realN *b_tile = bg + b_off + z * b_batch +
                                 (b_k_contiguous ? n_tile * b_ld + k_begin / VWN : n_tile / VWN + k_begin * b_ld);
    // The slice's k in tiles; with PEELED the first one's first k_skip
    // (before the slice) read as zeros.
    const int k_len = k_slice ? min(k_slice, K - k_begin) : K;
    const int num_k_tiles = (k_len + (PEELED ? KWG - 1 : 0)) / KWG;
    const int k_skip = PEELED ? num_k_tiles * KWG - k_len : 0;

    float acc[MWI][NWI];
#pragma unroll
    for (int i = 0; i < MWI; ++i)
#pragma unroll
        for (int j = 0; j < NWI; ++j)
            acc[i][j] = 0.0f;

#if SA || SB
    const int tid = tid_n * MDIMC + tid_m;
#endif
    // Each loader fetches the same number of vectors in either layout: its
    // vectors' places in the tile (the first tile's) and the step from one
    // tile to the next are set here once. Stored with k contiguous, the
    // tile is MWG (NWG) rows of AKV (BKV) vectors of k, which the work-group
    // reads as one sequence, row after row down a column of vectors, then
    // the next column: work-item tid its vectors q = tid, tid + WGS, ...
    // Neighbouring work-items read neighbouring rows (VWM floats of each:
    // the rest of the memory sector in the next column, moments later) and
    // store into neighbouring local banks.
#if SA
    local realM alm[2][KWG * MVG];
    realM areg[KWA][MVA];
    int a_src[KWA][MVA];
    const int la_m = tid % MDIMA;
    const int la_k = tid / MDIMA;
#pragma unroll
    for (int j = 0; j < KWA; ++j)
#pragma unroll
        for (int i = 0; i < MVA; ++i) {
            const int q = (j * MVA + i) * WGS + tid;
            a_src[j][i] = a_k_contiguous ? q % MWG * a_ld + q / MWG - k_skip / VWM
                                         : (la_k + j * KDIMA - k_skip) * a_ld + la_m + i * MDIMA;
        }
    const int a_step = a_k_contiguous ? AKV : KWG * a_ld;
#endif
#if SB
    local realN blm[2][KWG * NVG];
    realN breg[KWB][NVB];
    int b_src[KWB][NVB];
    const int lb_n = tid % NDIMB;
    const int lb_k = tid / NDIMB;
#pragma unroll
    for (int j = 0; j < KWB; ++j)
#pragma unroll
        for (int i = 0; i < NVB; ++i) {
            const int q = (j * NVB + i) * WGS + tid;
            b_src[j][i] = b_k_contiguous ? q % NWG * b_ld + q / NWG - k_skip / VWN
                                         : (lb_k + j * KDIMB - k_skip) * b_ld + lb_n + i * NDIMB;
        }
    const int b_step = b_k_contiguous ? BKV : KWG * b_ld;
#endif

#if PEELED
    // Tile 0 into registers before the loop, its k before the slice (none
    // where K is whole tiles) as zeros, never loaded: before the slice may
    // lie before the operand. A vector of k stored contiguous lies wholly
    // before it or in it (the host's rule: K whole vectors).
#pragma unroll
    for (int j = 0; j < KWA; ++j)
#pragma unroll
        for (int i = 0; i < MVA; ++i) {
            const int q = (j * MVA + i) * WGS + tid;
            const int k = a_k_contiguous ? q / MWG * VWM : la_k + j * KDIMA;
            areg[j][i] = k >= k_skip ? a_tile[a_src[j][i]] : (realM)0.0f;
        }
#pragma unroll
    for (int j = 0; j < KWB; ++j)
#pragma unroll
        for (int i = 0; i < NVB; ++i) {
            const int q = (j * NVB + i) * WGS + tid;
            const int k = b_k_contiguous ? q / NWG * VWN : lb_k + j * KDIMB;
            breg[j][i] = k >= k_skip ? b_tile[b_src[j][i]] : (realN)0.0f;
        }
#endif

    // Step t stores tile t-1 (fetched during step t-1) into local buffer
    // (t-1)&1, fetches tile t into registers and multiplies tile t-1. The
    // buffer written at step t was last read at step t-2, before the
    // barrier of step t-1, so one barrier per step suffices. With PEELED
    // tile 0 was fetched above.
    for (int t = PEELED; t <= num_k_tiles; ++t) {
        const int tc = t - 1;
#if SA || SB
        const int buf = tc & 1;
        if (PEELED || t > 0) {
            // A vector of k of one row goes down a column of the local tile, one value at a time.
#if SA
            if (a_k_contiguous) {
                local float *al = (local float *)alm[buf];
#pragma unroll
                for (int j = 0; j < KWA; ++j)
#pragma unroll
                    for (int i = 0; i < MVA; ++i) {
                        const int q = (j * MVA + i) * WGS + tid;
                        local float *dst = al + q / MWG * VWM * MWG + q % MWG;
                        float v[VWM];
                        UNPACK_M(v, 0, areg[j][i]);
#pragma unroll
                        for (int e = 0; e < VWM; ++e)
                            dst[e * MWG] = v[e];
                    }
            } else {
#pragma unroll
                for (int j = 0; j < KWA; ++j)
#pragma unroll
                    for (int i = 0; i < MVA; ++i)
                        alm[buf][(la_k + j * KDIMA) * MVG + la_m + i * MDIMA] = areg[j][i];
            }
#endif
#if SB
            if (b_k_contiguous) {
                local float *bl = (local float *)blm[buf];
#pragma unroll
                for (int j = 0; j < KWB; ++j)
#pragma unroll
                    for (int i = 0; i < NVB; ++i) {
                        const int q = (j * NVB + i) * WGS + tid;
                        local float *dst = bl + q / NWG * VWN * NWG + q % NWG;
                        float v[VWN];
                        UNPACK_N(v, 0, breg[j][i]);
#pragma unroll
                        for (int e = 0; e < VWN; ++e)
                            dst[e * NWG] = v[e];
                    }
            } else {
#pragma unroll
                for (int j = 0; j < KWB; ++j)
#pragma unroll
                    for (int i = 0; i < NVB; ++i)
                        blm[buf][(lb_k + j * KDIMB) * NVG + lb_n + i * NDIMB] = breg[j][i];
            }
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < num_k_tiles) {
#if SA
#pragma unroll
            for (int j = 0; j < KWA; ++j)
#pragma unroll
                for (int i = 0; i < MVA; ++i)
                    areg[j][i] = a_tile[t * a_step + a_src[j][i]];
#endif
#if SB
#pragma unroll
            for (int j = 0; j < KWB; ++j)
#pragma unroll
                for (int i = 0; i < NVB; ++i)
                    breg[j][i] = b_tile[t * b_step + b_src[j][i]];
#endif
        }
#endif
        if (!PEELED && t == 0)
            continue;
        for (int kb = 0; kb < KWG; kb += KWI) {
#pragma unroll
            for (int ki = 0; ki < KWI; ++ki) {
                const int k = kb + ki;
                float apm[MWI];
                float bpm[NWI];
#pragma unroll
                for (int i = 0; i < MVI; ++i) {
#if SA
                    const realM v = alm[buf][k * MVG + M_VEC(tid_m, i)];
#else
                    const realM v = a_tile[(tc * KWG + k) * a_ld + M_VEC(tid_m, i)];
#endif
                    UNPACK_M(apm, i * VWM, v);
                }
#pragma unroll
                for (int j = 0; j < NVI; ++j) {
#if SB
                    const realN v = blm[buf][k * NVG + N_VEC(tid_n, j)];
#else
                    const realN v = b_tile[(tc * KWG + k) * b_ld + N_VEC(tid_n, j)];
#endif
                    UNPACK_N(bpm, j * VWN, v);
                }
#pragma unroll
                for (int i = 0; i < MWI; ++i)
#pragma unroll
                    for (int j = 0; j < NWI; ++j)
                        acc[i][j] = fma(apm[i], bpm[j], acc[i][j]);
            }
        }
    }

    // Epilogue. beta == 0 must not read C: NaN there may not come through.
    const bool read_c = beta != 0.0f;
    // Vector stores need aligned addresses: C may wrap unaligned host memory.
    // A tile moved back stores only its group's own elements.
    const bool whole = m_tile == m_first && n_tile == n_first && m_tile + MWG <= M && n_tile + NWG <= N &&
                       c_ld % VWM == 0 && ((ulong)(cg + c_off)) % (VWM * sizeof(float)) == 0;
#pragma unroll
    for (int j = 0; j < NVI; ++j) {
#pragma unroll
        for (int jv = 0; jv < VWN; ++jv) {
            const int n = n_tile + N_VEC(tid_n, j) * VWN + jv;
            global float *ccol = cg + c_off + n * c_ld;
#pragma unroll
            for (int i = 0; i < MVI; ++i) {
                const int m = m_tile + M_VEC(tid_m, i) * VWM;
                float r[VWM];
#pragma unroll
                for (int iv = 0; iv < VWM; ++iv)
                    r[iv] = alpha * acc[i * VWM + iv][j * VWN + jv];
                if (whole) {
                    global realM *cv = (global realM *)(ccol + m);
                    realM out;
                    PACK_M(out, r, 0);
                    if (read_c)
                        out = fma((realM)beta, *cv, out);
                    *cv = out;
                } else if (n >= n_first && n < N) {
#pragma unroll
                    for (int iv = 0; iv < VWM; ++iv) {
                        if (m + iv >= m_first && m + iv < M)
                            ccol[m + iv] = read_c ? fma(beta, ccol[m + iv], r[iv]) : r[iv];
                    }
                }
            }
        }
    }
}
