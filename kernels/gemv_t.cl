// gemv_t: y = alpha * A^T * x + beta * y for a column-major A (m x n), the
// case where each output is a dot product along the contiguous direction of
// A. TPC work-items share a column: they read it in vectors of VW, UNR
// vectors per step, and then reduce their partial sums, through a
// local-memory tree or, on NVIDIA (OCLBLAS_NVIDIA, set by the host), warp
// shuffles in inline PTX since NVIDIA's OpenCL exposes no sub-group
// functions. A work-group covers WGS / TPC columns. When the columns alone
// cannot fill the device (tall and narrow A), the rows are split over the
// second dimension of the range and the helpers' gemv_reduce adds the
// partial sums.

// The host passes the parameters and the columns a work-group covers as
// -D options (src/kernel_gemv_t.c): WGS work-group size, TPC work-items per
// column (a power of two), VW rows per vector load, UNR vectors per
// work-item per step, CPG = WGS / TPC.
#if !defined(WGS) || !defined(TPC) || !defined(VW) || !defined(UNR) || !defined(CPG)
#error "gemv_t: a parameter or derived size is missing (the host passes them all as -D)"
#endif

#if VW == 1
typedef float realV;
#define HSUM(v) (v)
#define VMUL(a, b) ((a) * (b))
#elif VW == 2
typedef float2 realV;
#define HSUM(v) ((v).s0 + (v).s1)
#elif VW == 4
typedef float4 realV;
#define HSUM(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
#elif VW == 8
typedef float8 realV;
#define HSUM(v) ((((v).s0 + (v).s1) + ((v).s2 + (v).s3)) + (((v).s4 + (v).s5) + ((v).s6 + (v).s7)))
#endif

#if defined(OCLBLAS_NVIDIA) && TPC <= 32 && (WGS % 32) == 0
#define USE_SHUFFLE 1
inline float shfl_xor(float v, int lanes)
{
    float r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v), "r"(lanes));
    return r;
}
#else
#define USE_SHUFFLE 0
#endif

// vec: A's offset and leading dimension are multiples of VW and x is
// contiguous and aligned (incx = 1, x_off a multiple of VW). rows_per_split
// is a multiple of VW * TPC.
__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void gemv_t(const int M, const int N, const float alpha, const float beta,
                   const global float *restrict ag, const int a_off, const int a_ld,
                   const global float *restrict xg, const int x_off, const int incx,
                   global float *yg, const int y_off, const int incy,
                   const int rows_per_split, global float *partial, const int vec)
{
    const int lid = get_local_id(0);
    const int t = lid % TPC;
    const int col = get_group_id(0) * CPG + lid / TPC;
    const int split = get_group_id(1);
    const int i0 = split * rows_per_split;
    const int i1 = min(M, i0 + rows_per_split);

    float acc = 0.0f;
    if (col < N) {
        const global float *acol = ag + a_off + col * a_ld;
        int i = i0 + t * VW;
        if (vec) {
            realV sum = (realV)0.0f;
            for (; i + (UNR - 1) * TPC * VW + VW <= i1; i += UNR * TPC * VW) {
                realV av[UNR], xv[UNR];
#pragma unroll
                for (int u = 0; u < UNR; ++u) {
                    av[u] = *(const global realV *)(acol + i + u * TPC * VW);
                    xv[u] = *(const global realV *)(xg + x_off + i + u * TPC * VW);
                }
#pragma unroll
                for (int u = 0; u < UNR; ++u)
                    sum = fma(av[u], xv[u], sum);
            }
            for (; i + VW <= i1; i += TPC * VW)
                sum = fma(*(const global realV *)(acol + i), *(const global realV *)(xg + x_off + i), sum);
            acc = HSUM(sum);
            // The last partial vector of the range, element by element.
            for (int l = 0; l < VW; ++l)
                if (i + l < i1)
                    acc = fma(acol[i + l], xg[x_off + i + l], acc);
        } else {
            for (int r = i0 + t; r < i1; r += TPC)
                acc = fma(acol[r], xg[x_off + r * incx], acc);
        }
    }

#if USE_SHUFFLE
#pragma unroll
    for (int s = TPC / 2; s > 0; s >>= 1)
        acc += shfl_xor(acc, s);
#else
    local float red[WGS];
    red[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int s = TPC / 2; s > 0; s >>= 1) {
        if (t < s)
            red[lid] += red[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc = red[lid];
#endif

    if (t == 0 && col < N) {
        if (get_num_groups(1) > 1) {
            partial[split * N + col] = acc;
        } else {
            global float *yp = yg + y_off + col * incy;
            // beta == 0 must not read y: NaN there may not come through.
            *yp = beta != 0.0f ? fma(beta, *yp, alpha * acc) : alpha * acc;
        }
    }
}
