// gemv_t: y = alpha * A^T * x + beta * y for a column-major A (m x n), the
// case where each output is a dot product along the contiguous direction of
// A. A team of work-items shares a column: they read it in vectors of VW,
// UNR vectors per step into UNR separate sums (so that the multiply-adds and
// the loads do not wait on each other), and then reduce their partial sums,
// through warp shuffles in inline PTX on NVIDIA (OCLBLAS_NVIDIA, set by the
// host; NVIDIA's OpenCL exposes no sub-group functions) for a team of at
// most 32, else a local-memory tree; a team of 1 (a CPU's choice: one
// work-item streams a whole column) has nothing to reduce. The team is TPC
// work-items for long columns and fewer for short ones (the host's `team`,
// the smallest power of two whose one step of UNR vectors covers the
// column): no work-item idles on a column shorter than TPC's step, and a
// work-group of WGS work-items covers WGS / team columns. When the columns
// alone cannot fill the device (tall and narrow A), the rows are split over
// the second dimension of the range and the helpers' gemv_reduce adds the
// partial sums, or (the program FINISH, on NVIDIA) the last work-group of
// each block of columns to arrive adds them in this launch, as in gemv_n.
// The third dimension is a batch of products of one shape, as in gemv_n.

// The host passes the parameters as -D options (src/kernels/gemv_t.c): WGS
// work-group size, TPC the most work-items per column (a power of two), VW
// rows per vector load, UNR vectors per work-item per step; FINISH, the
// program whose last work-group to arrive adds the splits up (1), or not (0).
#if !defined(WGS) || !defined(TPC) || !defined(VW) || !defined(UNR) || !defined(FINISH)
#error "gemv_t: a parameter or derived size is missing (the host passes them all as -D)"
#endif
#if FINISH && !defined(OCLBLAS_NVIDIA)
#error "gemv_t: FINISH needs NVIDIA's atomics"
#endif

#if VW == 1
typedef float realV;
#define HSUM(v) (v)
#define VLOAD(p) (*(p))
#elif VW == 2
typedef float2 realV;
#define HSUM(v) ((v).s0 + (v).s1)
#define VLOAD(p) vload2(0, p)
#elif VW == 4
typedef float4 realV;
#define HSUM(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
#define VLOAD(p) vload4(0, p)
#elif VW == 8
typedef float8 realV;
#define HSUM(v) ((((v).s0 + (v).s1) + ((v).s2 + (v).s3)) + (((v).s4 + (v).s5) + ((v).s6 + (v).s7)))
#define VLOAD(p) vload8(0, p)
#elif VW == 16
typedef float16 realV;
#define HSUM(v)                                                                                          \
    (((((v).s0 + (v).s1) + ((v).s2 + (v).s3)) + (((v).s4 + (v).s5) + ((v).s6 + (v).s7))) +              \
     ((((v).s8 + (v).s9) + ((v).sa + (v).sb)) + (((v).sc + (v).sd) + ((v).se + (v).sf))))
// Two halves: PoCL turns an unaligned vload16 into element loads (half the
// speed of vload8 on our CPU); a GPU loads either element by element anyway.
#define VLOAD(p) ((float16)(vload8(0, p), vload8(1, p)))
#endif
// A whole vector at p: aligned (a vector load the compiler may assume
// aligned) or anywhere (vloadn).
#define LOAD_ALIGNED(p) (*(const global realV *)(p))
#define LOAD_ANY(p) VLOAD(p)
#define LOAD(aligned, p) ((aligned) ? LOAD_ALIGNED(p) : LOAD_ANY(p))

// Shuffles reduce a team within its warp: the work-group must be whole warps.
#if defined(OCLBLAS_NVIDIA) && TPC > 1 && (WGS % 32) == 0
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

// The dot product of A's column and x over this work-item's share of the
// rows [i0, i1), from i on, step = team * VW apart: whole steps of UNR
// vectors into UNR sums, then the whole vectors left (fewer than UNR), all
// loaded at once, then the elements of the last partial vector. a_aligned
// and x_aligned are constants at each call, so that each call is its own
// loop with one kind of load for each operand.
inline float dot_share(const global float *acol, const global float *xcol, int i, const int i1, const int step,
                       const int a_aligned, const int x_aligned)
{
    realV sum[UNR];
#pragma unroll
    for (int u = 0; u < UNR; ++u)
        sum[u] = (realV)0.0f;
    for (; i + (UNR - 1) * step + VW <= i1; i += UNR * step) {
        realV av[UNR], xv[UNR];
#pragma unroll
        for (int u = 0; u < UNR; ++u) {
            av[u] = LOAD(a_aligned, acol + i + u * step);
            xv[u] = LOAD(x_aligned, xcol + i + u * step);
        }
#pragma unroll
        for (int u = 0; u < UNR; ++u)
            sum[u] = fma(av[u], xv[u], sum[u]);
    }
    // A short column is all here: its loads independent, so in flight together.
    int whole = 0;
#pragma unroll
    for (int u = 0; u < UNR; ++u) {
        if (i + u * step + VW <= i1) {
            sum[u] = fma(LOAD(a_aligned, acol + i + u * step), LOAD(x_aligned, xcol + i + u * step), sum[u]);
            whole = u + 1;
        }
    }
    i += whole * step;
#pragma unroll
    for (int u = 1; u < UNR; ++u)
        sum[0] += sum[u];
    float acc = HSUM(sum[0]);
    // The last partial vector of the range, element by element.
    for (int l = 0; l < VW; ++l)
        if (i + l < i1)
            acc = fma(acol[i + l], xcol[i + l], acc);
    return acc;
}

// The sum of a team's acc, in its first member (t = 0): shuffles within a
// warp, else a tree in local memory. team is the same for the whole launch:
// every work-item takes the same branch and reaches the same barriers.
inline float team_sum(float acc, local float *red, const int lid, const int t, const int team)
{
#if TPC > 1
#if USE_SHUFFLE
    if (team <= 32) {
#pragma unroll
        for (int s = team / 2; s > 0; s >>= 1)
            acc += shfl_xor(acc, s);
    } else
#endif
    {
        red[lid] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int s = team / 2; s > 0; s >>= 1) {
            if (t < s)
                red[lid] += red[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        acc = red[lid];
    }
#endif
    return acc;
}

// y[col] = alpha * acc + beta * y[col]; beta == 0 must not read y: NaN
// there may not come through.
inline void put_y(global float *yg, const int y_off, const int col, const int incy, const float alpha,
                  const float beta, const float acc)
{
    global float *yp = yg + y_off + col * incy;
    *yp = beta != 0.0f ? fma(beta, *yp, alpha * acc) : alpha * acc;
}

// One work-group's columns, their dot products and their reduction, for
// a team of `team` work-items per column (see gemv_t). Called with the
// constant TPC where the team is TPC (long columns), so that its loops
// and its reduction unroll as they did when the team was always TPC.
inline void columns(const int M, const int N, const float alpha, const float beta, const global float *ag,
                    const int a_off, const int a_ld, const global float *xg, const int x_off, const int incx,
                    global float *yg, const int y_off, const int incy, const int rows_per_split,
                    global float *partial, const int vec, const int team, local float *red,
                    volatile global int *arrivals, local int *is_last)
{
    const int lid = get_local_id(0);
    const int t = lid % team;
    const int col = get_group_id(0) * (WGS / team) + lid / team;
    const int split = get_group_id(1);
    const int i0 = split * rows_per_split;
    const int i1 = min(M, i0 + rows_per_split);

    float acc = 0.0f;
    if (col < N) {
        const global float *acol = ag + a_off + col * a_ld;
        const global float *xcol = xg + x_off;
        // The work-item's share of the rows [i0, i1), by how A and x are loaded.
        if (vec == 1) {
            acc = dot_share(acol, xcol, i0 + t * VW, i1, team * VW, 1, 1);
        } else if (vec == 2) {
            // The column's first `head` rows come before its first aligned
            // vector: split 0 takes them one at a time, and every split's
            // rows move down by head, so that its vectors of A are whole
            // aligned loads (element loads cost a GPU a third of its
            // bandwidth on a column of odd length); x, small and cached,
            // is read wherever its rows fall.
            const ulong bytes = VW * sizeof(float);
            const int head = min(M, (int)(((bytes - ((ulong)acol & (bytes - 1))) & (bytes - 1)) / sizeof(float)));
            if (split == 0)
                for (int r = t; r < head; r += team)
                    acc = fma(acol[r], xcol[r], acc);
            acc += dot_share(acol, xcol, i0 + head + t * VW, min(M, i1 + head), team * VW, 1, 0);
        } else {
            for (int r = i0 + t; r < i1; r += team)
                acc = fma(acol[r], xg[x_off + r * incx], acc);
        }
    }

    acc = team_sum(acc, red, lid, t, team);
    const bool split_run = get_num_groups(1) > 1;
    if (t == 0 && col < N) {
        if (split_run)
            partial[split * N + col] = acc;
        else
            put_y(yg, y_off, col, incy, alpha, beta, acc);
    }

#if FINISH
    // One launch: the splits' work-groups of this block of columns count
    // themselves in at arrivals (zero before the launch and after it;
    // arrive, kernels/common.cl), and the last to arrive adds their partial
    // sums up and writes y, each member of a column's team every team-th
    // split, in the same order whoever arrives last.
    if (split_run) {
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            *is_last = arrive(arrivals + get_group_id(2) * get_num_groups(0) + get_group_id(0), get_num_groups(1));
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (*is_last) {
            // volatile: loads past the first-level cache, which another
            // work-group of this compute unit may have filled before.
            const volatile global float *part = partial;
            float sum = 0.0f;
            if (col < N)
                for (int sp = t; sp < (int)get_num_groups(1); sp += team)
                    sum += part[sp * N + col];
            sum = team_sum(sum, red, lid, t, team);
            if (t == 0 && col < N)
                put_y(yg, y_off, col, incy, alpha, beta, sum);
        }
    }
#endif
}

// vec: 1 when A's offset and leading dimension are multiples of VW, x is
// contiguous (incx = 1) and both are aligned to a vector; 2 when x is
// contiguous but something is not aligned (each column of A read from its
// first aligned vector on, x by vloadn); 0 for a strided x.
// rows_per_split is a multiple of VW * team; team, the work-items per
// column, a power of two at most TPC. arrivals: the FINISH program's counts,
// one per block of columns of each problem (unread by the other program).
__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void gemv_t(const int M, const int N, const float alpha, const float beta,
                   const global float *restrict ag, const int a_off, const int a_ld,
                   const global float *restrict xg, const int x_off, const int incx,
                   global float *yg, const int y_off, const int incy,
                   const int rows_per_split, global float *partial, const int vec, const int a_stride,
                   const int x_stride, const int y_stride, const int team, volatile global int *arrivals)
{
    // Problem z of a batch (the arguments are problem 0's; its partial
    // sums follow those of problem z - 1).
    const int z = get_group_id(2);
    ag += z * a_stride;
    xg += z * x_stride;
    yg += z * y_stride;
    partial += z * get_num_groups(1) * N;
    local float red[TPC > 1 ? WGS : 1]; // the reduction's tree, where shuffles do not serve
    local int is_last;                  // whether this work-group is the last of its split to arrive (FINISH)
    if (team == TPC)
        columns(M, N, alpha, beta, ag, a_off, a_ld, xg, x_off, incx, yg, y_off, incy, rows_per_split, partial, vec,
                TPC, red, arrivals, &is_last);
    else
        columns(M, N, alpha, beta, ag, a_off, a_ld, xg, x_off, incx, yg, y_off, incy, rows_per_split, partial, vec,
                team, red, arrivals, &is_last);
}
