// gemv_n: y = alpha * A * x + beta * y for a column-major A (m x n), the
// case where the output runs along the contiguous direction of A. Each
// work-item owns WPT vectors of VW consecutive rows (the vectors of one
// work-group interleave, so neighbouring work-items read neighbouring
// memory) and walks the columns, UNR of them per step so that several loads
// are in flight. When the rows alone cannot fill the device (short and wide
// A), the columns are split over the second dimension of the range: each
// split writes its partial sums and the helpers' gemv_reduce adds them up.

// The host passes the parameters and the rows a work-group covers as -D
// options (src/kernel_gemv_n.c): WGS work-group size, WPT vectors of rows
// per work-item, VW rows per vector load, UNR columns per step of the loop,
// ROWS_PER_GROUP = WGS * VW * WPT.
#if !defined(WGS) || !defined(WPT) || !defined(VW) || !defined(UNR) || !defined(ROWS_PER_GROUP)
#error "gemv_n: a parameter or derived size is missing (the host passes them all as -D)"
#endif

#if VW == 1
typedef float realV;
#define LANE(v, l) (v)
#elif VW == 2
typedef float2 realV;
#define LANE(v, l) ((l) == 0 ? (v).s0 : (v).s1)
#elif VW == 4
typedef float4 realV;
#define LANE(v, l) ((l) == 0 ? (v).s0 : (l) == 1 ? (v).s1 : (l) == 2 ? (v).s2 : (v).s3)
#elif VW == 8
typedef float8 realV;
#define LANE(v, l) \
    ((l) == 0 ? (v).s0 : (l) == 1 ? (v).s1 : (l) == 2 ? (v).s2 : (l) == 3 ? (v).s3 \
   : (l) == 4 ? (v).s4 : (l) == 5 ? (v).s5 : (l) == 6 ? (v).s6 : (v).s7)
#endif

// vec: A's offset and leading dimension are multiples of VW, so whole
// vectors can be loaded. partial is used when the columns are split
// (get_num_groups(1) > 1): partial[split * M + row].
__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void gemv_n(const int M, const int N, const float alpha, const float beta,
                   const global float *restrict ag, const int a_off, const int a_ld,
                   const global float *restrict xg, const int x_off, const int incx,
                   global float *yg, const int y_off, const int incy,
                   const int cols_per_split, global float *partial, const int vec)
{
    const int lid = get_local_id(0);
    const int split = get_group_id(1);
    const int j0 = split * cols_per_split;
    const int j1 = min(N, j0 + cols_per_split);
    const int row0 = get_group_id(0) * ROWS_PER_GROUP + lid * VW;

    float acc[WPT][VW];
    bool whole[WPT];
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
        whole[w] = vec && row0 + w * WGS * VW + VW <= M;
#pragma unroll
        for (int l = 0; l < VW; ++l)
            acc[w][l] = 0.0f;
    }

    int j = j0;
    for (; j + UNR <= j1; j += UNR) {
        float xv[UNR];
#pragma unroll
        for (int u = 0; u < UNR; ++u)
            xv[u] = xg[x_off + (j + u) * incx];
#pragma unroll
        for (int w = 0; w < WPT; ++w) {
            const int r = row0 + w * WGS * VW;
            if (whole[w]) {
                realV av[UNR];
#pragma unroll
                for (int u = 0; u < UNR; ++u)
                    av[u] = *(const global realV *)(ag + a_off + (j + u) * a_ld + r);
#pragma unroll
                for (int u = 0; u < UNR; ++u)
#pragma unroll
                    for (int l = 0; l < VW; ++l)
                        acc[w][l] = fma(LANE(av[u], l), xv[u], acc[w][l]);
            } else {
#pragma unroll
                for (int u = 0; u < UNR; ++u)
#pragma unroll
                    for (int l = 0; l < VW; ++l)
                        if (r + l < M)
                            acc[w][l] = fma(ag[a_off + (j + u) * a_ld + r + l], xv[u], acc[w][l]);
            }
        }
    }
    for (; j < j1; ++j) {
        const float xj = xg[x_off + j * incx];
#pragma unroll
        for (int w = 0; w < WPT; ++w) {
            const int r = row0 + w * WGS * VW;
#pragma unroll
            for (int l = 0; l < VW; ++l)
                if (r + l < M)
                    acc[w][l] = fma(ag[a_off + j * a_ld + r + l], xj, acc[w][l]);
        }
    }

    const bool split_run = get_num_groups(1) > 1;
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
        const int r = row0 + w * WGS * VW;
#pragma unroll
        for (int l = 0; l < VW; ++l) {
            const int i = r + l;
            if (i >= M)
                continue;
            if (split_run) {
                partial[split * M + i] = acc[w][l];
            } else {
                global float *yp = yg + y_off + i * incy;
                // beta == 0 must not read y: NaN there may not come through.
                *yp = beta != 0.0f ? fma(beta, *yp, alpha * acc[w][l]) : alpha * acc[w][l];
            }
        }
    }
}
