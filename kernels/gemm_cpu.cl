// gemm_cpu: C = alpha * A * B + beta * C for CPUs, on operands read in
// panels: A's panel of MR rows gives, for each step of k, MR floats one
// after the other, and B's panel of NR columns NR values. The program's
// pack_a and pack_b (below) pack an operand into such panels, its steps
// one after the other, so that a work-item streams both through the
// caches in order;
// the plan lets the kernel read some operands as they are stored instead:
// A with m contiguous (its steps a_kstep apart) and B with n contiguous
// (b_kstep apart), where small and re-read little (they stay in the
// caches), and
// B with k contiguous (BK: a step's NR values b_nstep apart, from NR
// columns that the work-item streams in order, as fast as a panel). Each
// work-item keeps an MR x NR block of C in MV vectors of VW floats per
// column (MR = MV VW), and per step of k loads MV vectors of A and
// multiplies each by the NR values of B's step, broadcast one at a time
// between their multiply-adds: MV NR accumulators, MV vectors of A and one
// broadcast fit the vector registers (16 on AVX2 for the 16 x 6 block),
// where a loop over whole tiles through local memory (gemm_fast) spills
// them. A work-item runs TN blocks along n, one after the other. C is
// column-major, C(m, n) at cg[c_off + n * c_ld + m], or with CT stored
// transposed, at cg[c_off + m * c_ld + n] (the plan computes
// C^T = B^T A^T so where that saves much packing), read and written in
// place, guarded at its edges.
//
// Row m0 of A's panel starts at a_mstep m0 (packed: K; as stored: 1), and
// a panel that would read past the operand's last row starts at a_last
// instead (as stored: M - MR; packed panels are zero-padded, a_last beyond
// them): the block then stores only its rows from m0 on, which no other
// work-item stores. B's column n0 likewise, at b_nstep n0, and b_last. The
// launch's third dimension is either a split of k or a batch of products
// of one shape, as in gemm_fast: with k_slice > 0 work-item z multiplies k
// in [z k_slice, (z + 1) k_slice) into its own copy of C, c_slice elements
// after the previous one (for sum_slices to add); with k_slice = 0 it
// computes problem z, its operands a_batch and b_batch floats after
// problem z - 1's and its C c_slice elements after. K is a multiple of KU
// (packed: zeros beyond the real k).

// The host passes every parameter as -D options (src/kernels/gemm_cpu.c):
// VW vector width, MV vectors of m a block, NR columns a block, KU steps
// of k unrolled, TN blocks a work-item; MR = MV * VW; the program
// switches BK, B stored with k contiguous, and CT, C stored transposed;
// the packing's PACK_COLS columns a work-item, PACK_GROUP_A and
// PACK_GROUP_B panels a work-item.
#if !defined(VW) || !defined(MV) || !defined(NR) || !defined(KU) || !defined(TN) || !defined(MR) || !defined(BK) || \
    !defined(CT) || !defined(PACK_COLS) || !defined(PACK_GROUP_A) || !defined(PACK_GROUP_B)
#error "gemm_cpu: a parameter or derived size is missing (the host passes them all as -D)"
#endif

#if VW == 4
typedef float4 realV;
#define VLOAD(p) vload4(0, p)
#define VSTORE(v, p) vstore4(v, 0, p)
#elif VW == 8
typedef float8 realV;
#define VLOAD(p) vload8(0, p)
#define VSTORE(v, p) vstore8(v, 0, p)
#elif VW == 16
typedef float16 realV;
#define VLOAD(p) vload16(0, p)
#define VSTORE(v, p) vstore16(v, 0, p)
#endif

__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void gemm_cpu(const int M, const int N, const int K, const int k_slice, const int c_slice,
                     const float alpha, const float beta,
                     const global float *restrict ap, const int a_off, const int a_kstep, const int a_mstep,
                     const int a_last,
                     const global float *restrict bp, const int b_off, const int b_kstep, const int b_nstep,
                     const int b_last,
                     global float *cg, const int c_off, const int c_ld, const int a_batch, const int b_batch)
{
    const int ir = get_global_id(0);
    const int z = get_global_id(2);
    const int k_begin = z * k_slice;
    const int k_len = k_slice ? min(k_slice, K - k_begin) : K;
    const int m0 = ir * MR;
    const int ms = min(m0, a_last);
    const global float *a = ap + a_off + z * a_batch + ms * a_mstep + k_begin * a_kstep;
    bp += b_off + z * b_batch + k_begin * b_kstep;
    cg += c_off + z * c_slice;
#if CT
    const int c_mstep = c_ld, c_nstep = 1;
#else
    const int c_mstep = 1, c_nstep = c_ld;
#endif
#if BK
    const int b_jstep = b_nstep;
#else
    const int b_jstep = 1;
#endif
    // beta == 0 must not read C: NaN there may not come through.
    const bool read_c = beta != 0.0f;
    for (int t = 0; t < TN; ++t) {
        const int jr = get_global_id(1) * TN + t;
        const int n0 = jr * NR;
        if (n0 >= N)
            break;
        const int ns = min(n0, b_last);
        const global float *b = bp + ns * b_nstep;
        realV acc[MV][NR];
#pragma unroll
        for (int i = 0; i < MV; ++i)
#pragma unroll
            for (int j = 0; j < NR; ++j)
                acc[i][j] = (realV)(0.0f);
        // Per step of k: A's MV vectors, then each of B's NR values
        // broadcast and multiplied in before the next is loaded.
        for (int k = 0; k < k_len; k += KU) {
#pragma unroll
            for (int u = 0; u < KU; ++u) {
                realV av[MV];
#pragma unroll
                for (int i = 0; i < MV; ++i)
                    av[i] = VLOAD(a + (k + u) * a_kstep + i * VW);
#pragma unroll
                for (int j = 0; j < NR; ++j) {
                    const realV bv = (realV)(b[(k + u) * b_kstep + j * b_jstep]);
#pragma unroll
                    for (int i = 0; i < MV; ++i)
                        acc[i][j] = fma(av[i], bv, acc[i][j]);
                }
            }
        }
        // The block's columns from n0 on, whole vectors where they fit in
        // C, start at m0 or after and C is not transposed, else element by
        // element.
#pragma unroll
        for (int j = 0; j < NR; ++j) {
            const int n = ns + j;
            if (n >= N)
                break;
            if (n < n0)
                continue;
            global float *ccol = cg + n * c_nstep;
#pragma unroll
            for (int i = 0; i < MV; ++i) {
                const int m = ms + i * VW;
                const realV r = (realV)(alpha) * acc[i][j];
                if (!CT && m >= m0 && m + VW <= M) {
                    realV out = r;
                    if (read_c)
                        out = fma((realV)(beta), VLOAD(ccol + m), r);
                    VSTORE(out, ccol + m);
                } else {
                    float e[VW];
                    VSTORE(r, e);
                    for (int v = 0; v < VW && m + v < M; ++v)
                        if (m + v >= m0) {
                            global float *cv = ccol + (m + v) * c_mstep;
                            *cv = read_c ? fma(beta, *cv, e[v]) : e[v];
                        }
                }
            }
        }
    }
}

// Packing, the plan's steps before gemm_cpu where an operand is not read
// as stored: the rows x cols source (src(r, c) at src[src_off + c * src_ld
// + r], or transposed, at src[src_off + r * src_ld + c]) into panels of
// `panel` rows, A's MR or B's NR: dst(r, c) at (r / panel) * panel *
// dst_cols + c * panel + r % panel, for the whole panels below dst_rows
// and c < dst_cols, zeros outside rows x cols. Work-item (j, g) copies the
// columns [j PACK_COLS, (j + 1) PACK_COLS) of the panels [g group, (g + 1)
// group), reading the source along its contiguous direction: a column's
// rows of all its panels together (whole cache lines, where one panel's
// rows are less than a line), or a transposed source's rows (four at a
// time where the panel is whole fours). The launch's third dimension is
// a batch, source and panels src_stride and dst_stride floats after
// problem z - 1's. panel and group are constants at each call: the copies
// become vector moves.
#define PACK_ARGS                                                                                                     \
    const int rows, const int cols, const global float *restrict src, const int src_off, const int src_ld,           \
        const int transposed, const int dst_rows, const int dst_cols, global float *restrict dst,                     \
        const int src_stride, const int dst_stride

// n floats from s to d: vectors of 4, then one at a time.
inline void copy_run(global float *restrict d, const global float *restrict s, const int n)
{
    int q = 0;
#pragma unroll
    for (; q + 4 <= n; q += 4)
        vstore4(vload4(0, s + q), 0, d + q);
#pragma unroll
    for (; q < n; ++q)
        d[q] = s[q];
}

inline void pack(const int panel, const int group, PACK_ARGS)
{
    const int z = get_global_id(2);
    src += z * src_stride + src_off;
    dst += z * dst_stride;
    const int c0 = get_global_id(0) * PACK_COLS, c1 = min(c0 + PACK_COLS, dst_cols);
    const int i0 = get_global_id(1) * group, i1 = min(i0 + group, dst_rows / panel);
    const int c_in = max(c0, min(c1, cols)); // columns [c0, c_in) lie in the source
    if (!transposed) {
        const int r_in = min(i1 * panel, rows); // rows of the source below r_in
        for (int c = c0; c < c1; ++c) {
            const global float *s = src + c * src_ld;
            global float *d = dst + (i0 * dst_cols + c) * panel;
            for (int r = i0 * panel; r < i1 * panel; r += panel, d += dst_cols * panel) {
                if (c < c_in && r + panel <= r_in) {
                    copy_run(d, s + r, panel);
                } else {
                    for (int q = 0; q < panel; ++q)
                        d[q] = c < c_in && r + q < r_in ? s[r + q] : 0.0f;
                }
            }
        }
    } else {
        // Four rows at a time where the panel is whole fours and they lie
        // in the source: a 4 x 4 block of the source read as four vectors
        // of its rows, written as four vectors of the panel's columns.
        int r = i0 * panel;
        if (panel % 4 == 0)
            for (; r + 4 <= min(i1 * panel, rows); r += 4) {
                const global float *s = src + r * src_ld;
                global float *d = dst + (r / panel) * panel * dst_cols + r % panel;
                int c = c0;
                for (; c + 4 <= c_in; c += 4) {
                    const float4 x0 = vload4(0, s + c), x1 = vload4(0, s + src_ld + c);
                    const float4 x2 = vload4(0, s + 2 * src_ld + c), x3 = vload4(0, s + 3 * src_ld + c);
                    vstore4((float4)(x0.s0, x1.s0, x2.s0, x3.s0), 0, d + c * panel);
                    vstore4((float4)(x0.s1, x1.s1, x2.s1, x3.s1), 0, d + (c + 1) * panel);
                    vstore4((float4)(x0.s2, x1.s2, x2.s2, x3.s2), 0, d + (c + 2) * panel);
                    vstore4((float4)(x0.s3, x1.s3, x2.s3, x3.s3), 0, d + (c + 3) * panel);
                }
                for (; c < c1; ++c)
                    for (int q = 0; q < 4; ++q)
                        d[c * panel + q] = c < c_in ? s[q * src_ld + c] : 0.0f;
            }
        for (; r < i1 * panel; ++r) {
            const global float *s = src + r * src_ld;
            global float *d = dst + (r / panel) * panel * dst_cols + r % panel;
            const int c_row = r < rows ? c_in : c0; // a row below the source: zeros
            int c = c0;
            for (; c < c_row; ++c)
                d[c * panel] = s[c];
            for (; c < c1; ++c)
                d[c * panel] = 0.0f;
        }
    }
}

__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void pack_a(PACK_ARGS)
{
    pack(MR, PACK_GROUP_A, rows, cols, src, src_off, src_ld, transposed, dst_rows, dst_cols, dst, src_stride,
         dst_stride);
}

__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void pack_b(PACK_ARGS)
{
    pack(NR, PACK_GROUP_B, rows, cols, src, src_off, src_ld, transposed, dst_rows, dst_cols, dst, src_stride,
         dst_stride);
}
