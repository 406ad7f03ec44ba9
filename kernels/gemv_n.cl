// gemv_n: y = alpha * A * x + beta * y for a column-major A (m x n), the
// case where the output runs along the contiguous direction of A. Each
// work-item owns WPT vectors of VW rows and walks the columns, UNR of them
// per step so that several loads are in flight, accumulating each vector
// of rows as a vector (one multiply-add per VW rows and column). Its
// vectors either interleave with those of the other work-items of its
// group (STRM = 1: neighbouring work-items read neighbouring memory, as a
// GPU's memory wants) or lie next to each other (STRM = 0: a work-item
// reads WPT * VW consecutive floats of each column, whole cache lines, as a
// CPU's memory wants). When the rows alone cannot fill the device (short and
// wide A), the columns are split over the second dimension of the range:
// each split writes its partial sums and the helpers' gemv_reduce adds them
// up.

// The host passes the parameters and the rows a work-group covers as -D
// options (src/kernel_gemv_n.c): WGS work-group size, WPT vectors of rows
// per work-item, VW rows per vector, UNR columns per step of the loop, STRM
// interleaved (1) or consecutive (0) vectors, ROWS_PER_GROUP = WGS * VW * WPT.
#if !defined(WGS) || !defined(WPT) || !defined(VW) || !defined(UNR) || !defined(STRM) || !defined(ROWS_PER_GROUP)
#error "gemv_n: a parameter or derived size is missing (the host passes them all as -D)"
#endif

#if VW == 1
typedef float realV;
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#elif VW == 2
typedef float2 realV;
#define VLOAD(p) vload2(0, p)
#define VSTORE(v, p) vstore2(v, 0, p)
#elif VW == 4
typedef float4 realV;
#define VLOAD(p) vload4(0, p)
#define VSTORE(v, p) vstore4(v, 0, p)
#elif VW == 8
typedef float8 realV;
#define VLOAD(p) vload8(0, p)
#define VSTORE(v, p) vstore8(v, 0, p)
#elif VW == 16
typedef float16 realV;
// Two halves: PoCL turns an unaligned vload16 into element loads (half the
// speed of vload8 on our CPU); a GPU loads either element by element anyway.
#define VLOAD(p) ((float16)(vload8(0, p), vload8(1, p)))
#define VSTORE(v, p) vstore16(v, 0, p)
#endif
// A whole vector of A's column j from row r: aligned (vec = 1, a vector
// load the compiler may assume aligned) or anywhere (vec = 2, vloadn).
#define LOAD_ALIGNED(j, r) (*(const global realV *)(ag + a_off + (j) * a_ld + (r)))
#define LOAD_ANY(j, r) VLOAD(ag + a_off + (j) * a_ld + (r))

// The rows of A's column j from r on that are below M, zeros beyond: the
// last, partial vector of rows (its lanes beyond M are never stored).
inline realV tail(const global float *restrict col, const int r, const int M)
{
    float v[VW];
#pragma unroll
    for (int l = 0; l < VW; ++l)
        v[l] = r + l < M ? col[r + l] : 0.0f;
    return VLOAD(v);
}
#define TAIL(j, r) tail(ag + a_off + (j) * a_ld, r, M)

#if STRM
#define ROW(w) (row0 + (w) * (WGS * VW))
#else
#define ROW(w) (row0 + (w) * VW)
#endif

// vec: 1 when A's offset and leading dimension are multiples of VW and its
// start aligned to a vector, else 2. partial is used when the columns are
// split (get_num_groups(1) > 1): partial[split * M + row].
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
#if STRM
    const int row0 = get_group_id(0) * ROWS_PER_GROUP + lid * VW;
#else
    const int row0 = get_group_id(0) * ROWS_PER_GROUP + lid * (WPT * VW);
#endif

    realV acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; ++w)
        acc[w] = (realV)0.0f;

    // UNR columns a step, for every vector of rows; the same loop twice, by
    // how A is loaded.
    int j = j0;
    if (vec == 1) {
        for (; j + UNR <= j1; j += UNR) {
            float xv[UNR];
#pragma unroll
            for (int u = 0; u < UNR; ++u)
                xv[u] = xg[x_off + (j + u) * incx];
#pragma unroll
            for (int w = 0; w < WPT; ++w) {
                const int r = ROW(w);
                if (r + VW <= M) {
                    realV av[UNR];
#pragma unroll
                    for (int u = 0; u < UNR; ++u)
                        av[u] = LOAD_ALIGNED(j + u, r);
#pragma unroll
                    for (int u = 0; u < UNR; ++u)
                        acc[w] = fma(av[u], (realV)xv[u], acc[w]);
                } else {
#pragma unroll
                    for (int u = 0; u < UNR; ++u)
                        acc[w] = fma(TAIL(j + u, r), (realV)xv[u], acc[w]);
                }
            }
        }
    } else {
        for (; j + UNR <= j1; j += UNR) {
            float xv[UNR];
#pragma unroll
            for (int u = 0; u < UNR; ++u)
                xv[u] = xg[x_off + (j + u) * incx];
#pragma unroll
            for (int w = 0; w < WPT; ++w) {
                const int r = ROW(w);
                if (r + VW <= M) {
                    realV av[UNR];
#pragma unroll
                    for (int u = 0; u < UNR; ++u)
                        av[u] = LOAD_ANY(j + u, r);
#pragma unroll
                    for (int u = 0; u < UNR; ++u)
                        acc[w] = fma(av[u], (realV)xv[u], acc[w]);
                } else {
#pragma unroll
                    for (int u = 0; u < UNR; ++u)
                        acc[w] = fma(TAIL(j + u, r), (realV)xv[u], acc[w]);
                }
            }
        }
    }
    for (; j < j1; ++j) {
        const float xj = xg[x_off + j * incx];
#pragma unroll
        for (int w = 0; w < WPT; ++w) {
            const int r = ROW(w);
            acc[w] = fma(r + VW <= M ? LOAD_ANY(j, r) : TAIL(j, r), (realV)xj, acc[w]);
        }
    }

    const bool split_run = get_num_groups(1) > 1;
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
        const int r = ROW(w);
        float out[VW];
        VSTORE(acc[w], out);
        if (split_run && r + VW <= M) {
            VSTORE(acc[w], partial + split * M + r);
            continue;
        }
#pragma unroll
        for (int l = 0; l < VW; ++l) {
            const int i = r + l;
            if (i >= M)
                continue;
            if (split_run) {
                partial[split * M + i] = out[l];
            } else {
                global float *yp = yg + y_off + i * incy;
                // beta == 0 must not read y: NaN there may not come through.
                *yp = beta != 0.0f ? fma(beta, *yp, alpha * out[l]) : alpha * out[l];
            }
        }
    }
}
