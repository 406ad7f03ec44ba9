// gemm_direct: C = alpha * op(A) * op(B) + beta * C straight from the
// caller's buffers, for small and irregular problems where the helper passes
// of the gemm_fast plan would cost more than they save. Any size, any
// leading dimension and offset, both transposes of A and B (one entry point
// for each combination, so that one build serves all four). Column-major;
// every global access is bounds-checked, so no padding is needed. A work-group
// computes a WGD x WGD tile of C; tiles of op(A) and op(B) of depth KWGD go
// through local memory, loaded along the direction that is contiguous in
// global memory. PADA and PADB pad the local rows against bank conflicts when
// a transposed operand is written into local memory across its rows. The
// launch's third dimension is a batch of products of one shape (1 for a
// single product): work-group z computes problem z, whose A, B and C are
// a_stride, b_stride and c_stride elements after problem z - 1's.

// The host passes every parameter and every size derived from them as -D
// options (src/kernels/gemm_direct.c): WGD tile in m and n, KWGD k-step,
// MDIMCD NDIMCD the work-group's shape, KWID unroll, PADA PADB extra floats
// per local row; WGSD work-items, MWID NWID elements per work-item, LDAL
// LDBL the local rows, LOADS_PER_ITEM elements of each tile a work-item loads.
#if !defined(WGD) || !defined(KWGD) || !defined(MDIMCD) || !defined(NDIMCD) || !defined(KWID) || !defined(PADA) || \
    !defined(PADB) || !defined(WGSD) || !defined(MWID) || !defined(NWID) || !defined(LDAL) || !defined(LDBL) ||    \
    !defined(LOADS_PER_ITEM)
#error "gemm_direct: a parameter or derived size is missing (the host passes them all as -D)"
#endif

inline void gemm_direct_body(const int M, const int N, const int K, const float alpha, const float beta,
                             const global float *restrict ag, const int a_off, const int a_ld, const int a_t,
                             const global float *restrict bg, const int b_off, const int b_ld, const int b_t,
                             global float *cg, const int c_off, const int c_ld, local float *alm,
                             local float *blm)
{
    const int tid_m = get_local_id(0);
    const int tid_n = get_local_id(1);
    const int tid = tid_n * MDIMCD + tid_m;
    const int m0 = get_group_id(0) * WGD;
    const int n0 = get_group_id(1) * WGD;

    float acc[MWID][NWID];
#pragma unroll
    for (int i = 0; i < MWID; ++i)
#pragma unroll
        for (int j = 0; j < NWID; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += KWGD) {
#pragma unroll
        for (int r = 0; r < LOADS_PER_ITEM; ++r) {
            const int e = tid + r * WGSD;
            // Neighbouring work-items take neighbouring addresses in global memory.
            const int m = a_t ? e / KWGD : e % WGD;
            const int k = a_t ? e % KWGD : e / WGD;
            const int gm = m0 + m, gk = k0 + k;
            float v = 0.0f;
            if (gm < M && gk < K)
                v = a_t ? ag[a_off + gm * a_ld + gk] : ag[a_off + gk * a_ld + gm];
            alm[k * LDAL + m] = v;
        }
#pragma unroll
        for (int r = 0; r < LOADS_PER_ITEM; ++r) {
            const int e = tid + r * WGSD;
            const int n = b_t ? e % WGD : e / KWGD;
            const int k = b_t ? e / WGD : e % KWGD;
            const int gn = n0 + n, gk = k0 + k;
            float v = 0.0f;
            if (gn < N && gk < K)
                v = b_t ? bg[b_off + gk * b_ld + gn] : bg[b_off + gn * b_ld + gk];
            blm[k * LDBL + n] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kb = 0; kb < KWGD; kb += KWID) {
#pragma unroll
            for (int ki = 0; ki < KWID; ++ki) {
                const int k = kb + ki;
                float apm[MWID], bpm[NWID];
#pragma unroll
                for (int i = 0; i < MWID; ++i)
                    apm[i] = alm[k * LDAL + tid_m + i * MDIMCD];
#pragma unroll
                for (int j = 0; j < NWID; ++j)
                    bpm[j] = blm[k * LDBL + tid_n + j * NDIMCD];
#pragma unroll
                for (int i = 0; i < MWID; ++i)
#pragma unroll
                    for (int j = 0; j < NWID; ++j)
                        acc[i][j] = fma(apm[i], bpm[j], acc[i][j]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // beta == 0 must not read C: NaN there may not come through.
    const bool read_c = beta != 0.0f;
#pragma unroll
    for (int j = 0; j < NWID; ++j) {
        const int n = n0 + tid_n + j * NDIMCD;
#pragma unroll
        for (int i = 0; i < MWID; ++i) {
            const int m = m0 + tid_m + i * MDIMCD;
            if (m < M && n < N) {
                global float *cp = cg + c_off + n * c_ld + m;
                const float r = alpha * acc[i][j];
                *cp = read_c ? fma(beta, *cp, r) : r;
            }
        }
    }
}

#define GEMM_DIRECT_KERNEL(name, AT, BT)                                                                \
    __attribute__((reqd_work_group_size(MDIMCD, NDIMCD, 1))) kernel void name(                          \
        const int M, const int N, const int K, const float alpha, const float beta,                     \
        const global float *restrict ag, const int a_off, const int a_ld,                               \
        const global float *restrict bg, const int b_off, const int b_ld, global float *cg,             \
        const int c_off, const int c_ld, const int a_stride, const int b_stride, const int c_stride)    \
    {                                                                                                   \
        local float alm[KWGD * LDAL];                                                                   \
        local float blm[KWGD * LDBL];                                                                   \
        const int z = get_group_id(2);                                                                  \
        gemm_direct_body(M, N, K, alpha, beta, ag, a_off + z * a_stride, a_ld, AT, bg,                  \
                         b_off + z * b_stride, b_ld, BT, cg, c_off + z * c_stride, c_ld, alm, blm);     \
    }

GEMM_DIRECT_KERNEL(gemm_direct_nn, 0, 0)
GEMM_DIRECT_KERNEL(gemm_direct_nt, 0, 1)
GEMM_DIRECT_KERNEL(gemm_direct_tn, 1, 0)
GEMM_DIRECT_KERNEL(gemm_direct_tt, 1, 1)
