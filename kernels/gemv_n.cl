// gemv_n: y = alpha * A * x + beta * y for a column-major A (m x n), the
// case where the output runs along the contiguous direction of A. Each
// work-item owns WPT vectors of VW rows and walks columns, UNR of them per
// step so that several loads are in flight, accumulating each vector of
// rows as a vector (one multiply-add per VW rows and column). Its vectors
// either interleave with those of the other work-items of its group (STRM =
// 1: neighbouring work-items read neighbouring memory, as a GPU's memory
// wants) or lie next to each other (STRM = 0: a work-item reads WPT * VW
// consecutive floats of each column, whole cache lines, as a CPU's memory
// wants). A team of `team` work-items (the host's choice, a power of two
// dividing WGS) shares each vector of rows, each taking a share of the
// columns, and adds its sums up in local memory: a group's work-items serve
// few rows without idling, and the columns are divided inside a work-group
// before they need a split across work-groups. STRM = 2 turns the loops
// around for CPUs: a work-item owns a panel of columns and all the rows,
// and walks down whole columns, UNR side by side, keeping its sums in
// memory (see below). When the rows alone cannot fill the device (short and
// wide A), or always with STRM = 2, the columns are split over the second
// dimension of the range: each split writes its partial sums and the
// helpers' gemv_reduce adds them up, or (the program FINISH, on NVIDIA) the
// last work-group of each block of rows to arrive adds them in this launch.
// The launch's third dimension is a batch of products of one shape (1 for a
// single product): work-group z computes problem z, whose A, x and y are
// a_stride, x_stride and y_stride elements after problem z - 1's, and whose
// partial sums follow those of problem z - 1.

// The host passes the parameters and the rows a work-group covers with a
// team of 1 as -D options (src/kernels/gemv_n.c): WGS work-group size, WPT
// vectors of rows per work-item, VW rows per vector, UNR columns per step of
// the loop, STRM interleaved (1), consecutive (0) vectors or panels (2),
// ROWS_PER_GROUP = WGS * VW * WPT; FINISH, the program whose last
// work-group to arrive adds the splits up (1), or not (0).
#if !defined(WGS) || !defined(WPT) || !defined(VW) || !defined(UNR) || !defined(STRM) || !defined(ROWS_PER_GROUP) || \
    !defined(FINISH)
#error "gemv_n: a parameter or derived size is missing (the host passes them all as -D)"
#endif
#if FINISH && !(STRM == 1 && defined(OCLBLAS_NVIDIA))
#error "gemv_n: FINISH needs STRM 1 and NVIDIA's atomics"
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
#define VSTORE(v, p) (vstore8((v).lo, 0, p), vstore8((v).hi, 0, p + 8))
#endif
// A whole vector of A's column j from row r: aligned (vec = 1, a vector
// load the compiler may assume aligned) or anywhere (vec = 2, vloadn).
#define LOAD_ALIGNED(j, r) (*(const global realV *)(ag + a_off + (j) * a_ld + (r)))
#define LOAD_ANY(j, r) VLOAD(ag + a_off + (j) * a_ld + (r))
#define LOAD(aligned, j, r) ((aligned) ? LOAD_ALIGNED(j, r) : LOAD_ANY(j, r))

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

// The kernel's arguments (src/kernels/gemv_n.c sets them), the same for
// either loop order below.
#define GEMV_N_ARGS                                                                                                   \
    const int M, const int N, const float alpha, const float beta, const global float *restrict ag,               \
        const int a_off, const int a_ld, const global float *restrict xg, const int x_off, const int incx,       \
        global float *yg, const int y_off, const int incy, const int cols_per_split, global float *partial,      \
        const int vec, const int a_stride, const int x_stride, const int y_stride, const int team,                  \
        volatile global int *arrivals

// Problem z of a batch: its operands and partial sums (the arguments are
// problem 0's).
#define TO_PROBLEM(len_y)                                                                                             \
    do {                                                                                                              \
        const int z = get_group_id(2);                                                                                \
        ag += z * a_stride;                                                                                           \
        xg += z * x_stride;                                                                                           \
        yg += z * y_stride;                                                                                           \
        partial += z * get_num_groups(1) * (len_y);                                                                   \
    } while (0)

#if STRM == 1
#define ROW(w) (row0 + (w) * (row_items * VW))
#else
#define ROW(w) (row0 + (w) * VW)
#endif

#if STRM != 2
// Columns j .. j + UNR - 1 into the sums of this work-item's vectors of
// rows (ROW(w), from row0; row_items work-items side by side along the
// rows). aligned is a constant at each call, so that each call is its own
// code with one kind of load.
inline void column_step(realV *acc, const int j, const int row0, const int row_items, const int M,
                        const global float *restrict ag,
                        const int a_off, const int a_ld, const global float *restrict xg, const int x_off,
                        const int incx, const int aligned)
{
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
                av[u] = LOAD(aligned, j + u, r);
#pragma unroll
            for (int u = 0; u < UNR; ++u)
                acc[w] = fma(av[u], (realV)xv[u], acc[w]);
        } else if (r < M) {
#pragma unroll
            for (int u = 0; u < UNR; ++u)
                acc[w] = fma(TAIL(j + u, r), (realV)xv[u], acc[w]);
        }
    }
}

#if STRM == 1
// The team's sums into its first member's, a vector of rows at a time
// (team is the same for the whole launch: every work-item reaches the
// same barriers). No early return: PoCL 3.1 ran a work-group forever
// with one before these barriers.
inline void team_sum(realV *acc, local float *red, const int lid, const int member, const int row_items,
                     const int team)
{
    if (team > 1) {
#pragma unroll
        for (int w = 0; w < WPT; ++w) {
            VSTORE(acc[w], red + lid * VW);
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int s = team / 2; s > 0; s >>= 1) {
                if (member < s)
                    VSTORE(VLOAD(red + lid * VW) + VLOAD(red + (lid + s * row_items) * VW), red + lid * VW);
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            acc[w] = VLOAD(red + lid * VW);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}

#endif

// This work-item's sums: into the split's partial sums part (part[row]),
// or, with part NULL, into y = alpha * sums + beta * y.
inline void store(const realV *acc, global float *part, const int row0, const int row_items, const int M,
                  global float *yg, const int y_off, const int incy, const float alpha, const float beta)
{
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
        const int r = ROW(w);
        if (part && r + VW <= M) {
            VSTORE(acc[w], part + r);
            continue;
        }
        float out[VW];
        VSTORE(acc[w], out);
#pragma unroll
        for (int l = 0; l < VW; ++l) {
            const int i = r + l;
            if (i >= M)
                continue;
            if (part) {
                part[i] = out[l];
            } else {
                global float *yp = yg + y_off + i * incy;
                // beta == 0 must not read y: NaN there may not come through.
                *yp = beta != 0.0f ? fma(beta, *yp, alpha * out[l]) : alpha * out[l];
            }
        }
    }
}

// vec: 1 when A's offset and leading dimension are multiples of VW and its
// start aligned to a vector, else 2. partial is used when the columns are
// split (get_num_groups(1) > 1): partial[split * M + row]. team: the
// work-items that share each vector of rows, each taking a consecutive share
// of the split's columns; work-item lid is member lid / row_items of its team.
__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void gemv_n(GEMV_N_ARGS)
{
#if STRM == 1
    local float red[WGS * VW]; // the teams' sums, one vector of rows at a time
#if FINISH
    local int is_last; // whether this work-group is the last of its split to arrive
#endif
    const int row_items = WGS / team;
#else
    // Consecutive vectors, a CPU's layout, come with a team of 1 (the
    // host's oclblas__gemv_n_team): no local memory and no barrier, which
    // a CPU's compiler may make every work-item pay for even where no
    // work-item reaches them.
    const int row_items = WGS;
#endif
    TO_PROBLEM(M);
    const int lid = get_local_id(0);
    const int member = lid / row_items, rl = lid % row_items;
    const int split = get_group_id(1);
    const int s0 = split * cols_per_split;
    const int s1 = min(N, s0 + cols_per_split);
    const int share = (s1 - s0 + team - 1) / team;
    const int j0 = min(s1, s0 + member * share);
    const int j1 = min(s1, j0 + share);
#if STRM == 1
    const int row0 = get_group_id(0) * (ROWS_PER_GROUP / team) + rl * VW;
#else
    const int row0 = get_group_id(0) * (ROWS_PER_GROUP / team) + rl * (WPT * VW);
#endif

    realV acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; ++w)
        acc[w] = (realV)0.0f;

    // UNR columns a step, for every vector of rows, by how A is loaded;
    // then the columns left one at a time.
    int j = j0;
    if (row0 < M) {
        if (vec == 1) {
            for (; j + UNR <= j1; j += UNR)
                column_step(acc, j, row0, row_items, M, ag, a_off, a_ld, xg, x_off, incx, 1);
        } else {
            for (; j + UNR <= j1; j += UNR)
                column_step(acc, j, row0, row_items, M, ag, a_off, a_ld, xg, x_off, incx, 0);
        }
        for (; j < j1; ++j) {
            const float xj = xg[x_off + j * incx];
#pragma unroll
            for (int w = 0; w < WPT; ++w) {
                const int r = ROW(w);
                if (r < M)
                    acc[w] = fma(r + VW <= M ? LOAD_ANY(j, r) : TAIL(j, r), (realV)xj, acc[w]);
            }
        }
    }

#if STRM == 1
    team_sum(acc, red, lid, member, row_items, team);
#endif
    // The team's first member writes: y, or its split's partial sums.
    // (No return after the barriers: PoCL 3.1 let the other members on
    // past one.)
    const bool split_run = get_num_groups(1) > 1;
    if (member == 0)
        store(acc, split_run ? partial + split * M : NULL, row0, row_items, M, yg, y_off, incy, alpha, beta);

#if FINISH
    // One launch: the split's work-groups of this block of rows count
    // themselves in at arrivals (zero before the launch and after it;
    // arrive, kernels/common.cl), and the last to arrive adds their partial
    // sums up and writes y. Each member of a team adds every team-th split,
    // in the same order whoever arrives last.
    if (split_run) {
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            is_last = arrive(arrivals + get_group_id(2) * get_num_groups(0) + get_group_id(0), get_num_groups(1));
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (is_last) {
            // volatile: loads past the first-level cache, which another
            // work-group of this compute unit may have filled before.
            const volatile global float *part = partial;
#pragma unroll
            for (int w = 0; w < WPT; ++w) {
                const int r = ROW(w);
                acc[w] = (realV)0.0f;
                for (int sp = member; sp < (int)get_num_groups(1); sp += team) {
                    float v[VW];
#pragma unroll
                    for (int l = 0; l < VW; ++l)
                        v[l] = r + l < M ? part[sp * M + r + l] : 0.0f;
                    acc[w] += VLOAD(v);
                }
            }
            team_sum(acc, red, lid, member, row_items, team);
            if (member == 0)
                store(acc, NULL, row0, row_items, M, yg, y_off, incy, alpha, beta);
        }
    }
#endif
}

#else // STRM == 2

// A panel: the work-item (WGS = WPT = 1) owns the columns [j0, j1) of its
// split and every row. It walks them UNR columns at a time, each time down
// all the rows in vectors (UNR streams of consecutive memory: what a CPU's
// prefetchers and pages want), and adds into its sums kept in memory: the
// split's partial sums, or y itself (the first step sets y = beta y +
// alpha s, the next ones add alpha s).
inline void panel_add(realV s, const int first, const int r, const int split_run, global float *part,
                      global float *yg, const int y_off, const int incy, const float alpha, const float beta)
{
    if (split_run) {
        global float *p = part + r;
        const realV v = first ? s : VLOAD(p) + s;
        VSTORE(v, p);
    } else if (incy == 1) {
        global float *p = yg + y_off + r;
        // beta == 0 must not read y: NaN there may not come through.
        const realV v = first ? (beta != 0.0f ? fma((realV)beta, VLOAD(p), (realV)alpha * s) : (realV)alpha * s)
                              : fma((realV)alpha, s, VLOAD(p));
        VSTORE(v, p);
    } else {
        float o[VW];
        VSTORE(s, o);
        for (int l = 0; l < VW; ++l) {
            global float *q = yg + y_off + (r + l) * incy;
            *q = first ? (beta != 0.0f ? fma(beta, *q, alpha * o[l]) : alpha * o[l]) : fma(alpha, o[l], *q);
        }
    }
}

__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void gemv_n(GEMV_N_ARGS)
{
    TO_PROBLEM(M);
    const int split = get_group_id(1);
    const int j0 = split * cols_per_split;
    const int j1 = min(N, j0 + cols_per_split);
    const int split_run = get_num_groups(1) > 1;
    global float *part = partial + split * M;
    for (int j = j0; j < j1; j += UNR) {
        const int nu = min(UNR, j1 - j), first = j == j0;
        float xv[UNR];
        for (int u = 0; u < UNR; ++u)
            xv[u] = u < nu ? xg[x_off + (j + u) * incx] : 0.0f;
        int r = 0;
        for (; r + VW <= M; r += VW) {
            realV s = (realV)0.0f;
            if (nu == UNR) {
                for (int u = 0; u < UNR; ++u)
                    s = fma(vec == 1 ? LOAD_ALIGNED(j + u, r) : LOAD_ANY(j + u, r), (realV)xv[u], s);
            } else {
                for (int u = 0; u < nu; ++u)
                    s = fma(LOAD_ANY(j + u, r), (realV)xv[u], s);
            }
            panel_add(s, first, r, split_run, part, yg, y_off, incy, alpha, beta);
        }
        // The last rows, one at a time.
        for (; r < M; ++r) {
            float s = 0.0f;
            for (int u = 0; u < nu; ++u)
                s = fma(ag[a_off + (j + u) * a_ld + r], xv[u], s);
            if (split_run) {
                part[r] = first ? s : part[r] + s;
            } else {
                global float *q = yg + y_off + r * incy;
                *q = first ? (beta != 0.0f ? fma(beta, *q, alpha * s) : alpha * s) : fma(alpha, s, *q);
            }
        }
    }
}
#endif
