// gemm_cpu: C = alpha * A * B + beta * C for CPUs, on operands that the
// helpers packed into panels (pack_panels): A's panel i holds rows
// [i MR, (i + 1) MR) for every k, MR floats of each step of k one after
// the other, and B's panel j columns [j NR, (j + 1) NR) in the same way, so
// that a work-item streams both through the caches in order. Each
// work-item keeps an MR x NR block of C in MV vectors of VW floats per
// column (MR = MV VW), and per step of k loads MV vectors of A and
// multiplies each by the NR values of B's step, broadcast one at a time
// between their multiply-adds: MV NR accumulators, MV vectors of A and one
// broadcast fit the vector registers (16 on AVX2 for the 16 x 6 block),
// where a loop over whole tiles through local memory (gemm_fast) spills
// them. A work-item runs TN blocks along n, one after the other. C is
// column-major, C(m, n) at cg[c_off + n * c_ld + m], read and written in
// place, guarded at its edges. The launch's third dimension is either a
// split of k or a batch of products of one shape, as in gemm_fast: with
// k_slice > 0 work-item z multiplies k in [z k_slice, (z + 1) k_slice)
// into its own copy of C, c_slice elements after the previous one (for
// sum_slices to add); with k_slice = 0 it computes problem z, its panels
// a_batch and b_batch floats after problem z - 1's and its C c_slice
// elements after. K is the packed k, a multiple of KU (zeros beyond the
// real k).

// The host passes every parameter as -D options (src/kernels/gemm_cpu.c):
// VW vector width, MV vectors of m a block, NR columns a block, KU steps
// of k unrolled, TN blocks a work-item; MR = MV * VW.
#if !defined(VW) || !defined(MV) || !defined(NR) || !defined(KU) || !defined(TN) || !defined(MR)
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
                     const float alpha, const float beta, const global float *restrict ap,
                     const global float *restrict bp, global float *cg, const int c_off, const int c_ld,
                     const int a_batch, const int b_batch)
{
    const int ir = get_global_id(0);
    const int z = get_global_id(2);
    const int k_begin = z * k_slice;
    const int k_len = k_slice ? min(k_slice, K - k_begin) : K;
    const global float *a = ap + z * a_batch + ir * MR * K + k_begin * MR;
    bp += z * b_batch + k_begin * NR;
    cg += c_off + z * c_slice;
    const int m0 = ir * MR;
    // beta == 0 must not read C: NaN there may not come through.
    const bool read_c = beta != 0.0f;
    for (int t = 0; t < TN; ++t) {
        const int jr = get_global_id(1) * TN + t;
        const int n0 = jr * NR;
        if (n0 >= N)
            break;
        const global float *b = bp + jr * NR * K;
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
                    av[i] = VLOAD(a + (k + u) * MR + i * VW);
#pragma unroll
                for (int j = 0; j < NR; ++j) {
                    const realV bv = (realV)(b[(k + u) * NR + j]);
#pragma unroll
                    for (int i = 0; i < MV; ++i)
                        acc[i][j] = fma(av[i], bv, acc[i][j]);
                }
            }
        }
        // The block's columns, whole vectors where they fit in C, else element by element.
#pragma unroll
        for (int j = 0; j < NR; ++j) {
            if (n0 + j >= N)
                break;
            global float *ccol = cg + (n0 + j) * c_ld;
#pragma unroll
            for (int i = 0; i < MV; ++i) {
                const int m = m0 + i * VW;
                const realV r = (realV)(alpha) * acc[i][j];
                if (m + VW <= M) {
                    realV out = r;
                    if (read_c)
                        out = fma((realV)(beta), VLOAD(ccol + m), r);
                    VSTORE(out, ccol + m);
                } else {
                    float e[VW];
                    VSTORE(r, e);
                    for (int v = 0; v < VW && m + v < M; ++v)
                        ccol[m + v] = read_c ? fma(beta, ccol[m + v], e[v]) : e[v];
                }
            }
        }
    }
}
