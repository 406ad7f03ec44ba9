// Helper kernels of the gemm_fast plan: they copy an operand into a zeroed,
// tile-padded scratch buffer in the layout gemm_fast reads (pad_copy keeps
// the orientation, pad_transpose turns it through a local-memory tile so
// that both the reads and the writes are coalesced), and scale_matrix
// computes C = beta * C for the cases that need no product (k = 0,
// alpha = 0). All matrices are column-major; "rows x cols" is the logical
// source, dst is dst_rows x dst_cols with zeros outside the source. The
// launch's third dimension of pad_copy, pad_transpose and scale_matrix is a
// batch (1 for a single operand): work-group z handles matrix z, which lies
// a stride (in elements) after matrix z - 1.

// The host passes every parameter and every size derived from them as -D
// options (src/kernels/helpers.c): PAD_DIMX PAD_DIMY the work-group of
// pad_copy, scale_matrix and sum_slices (rows are the contiguous
// direction), PAD_WPTX PAD_WPTY elements per work-item, PAD_TILEX PAD_TILEY
// what a work-group covers; TRA_DIM the transpose's square work-group,
// TRA_WPT, TRA_TILE its local tile (TRA_DIM * TRA_WPT), TRA_PAD extra floats
// per local row against bank conflicts; REDUCE_WGS gemv_reduce's work-group.
#if !defined(PAD_DIMX) || !defined(PAD_DIMY) || !defined(PAD_WPTX) || !defined(PAD_WPTY) || !defined(TRA_DIM) || \
    !defined(TRA_WPT) || !defined(TRA_PAD) || !defined(PAD_TILEX) || !defined(PAD_TILEY) || !defined(TRA_TILE) ||  \
    !defined(REDUCE_WGS)
#error "helpers: a parameter or derived size is missing (the host passes them all as -D)"
#endif

// dst(r, c) = src(r, c) = src[src_off + c * src_ld + r], zero outside rows x cols.
__attribute__((reqd_work_group_size(PAD_DIMX, PAD_DIMY, 1)))
kernel void pad_copy(const int rows, const int cols, const global float *restrict src, const int src_off,
                     const int src_ld, const int dst_rows, const int dst_cols, global float *dst,
                     const int dst_ld, const int src_stride, const int dst_stride)
{
    src += get_group_id(2) * src_stride;
    dst += get_group_id(2) * dst_stride;
    const int r0 = get_group_id(0) * PAD_TILEX + get_local_id(0);
    const int c0 = get_group_id(1) * PAD_TILEY + get_local_id(1);
#pragma unroll
    for (int j = 0; j < PAD_WPTY; ++j) {
        const int c = c0 + j * PAD_DIMY;
#pragma unroll
        for (int i = 0; i < PAD_WPTX; ++i) {
            const int r = r0 + i * PAD_DIMX;
            if (r < dst_rows && c < dst_cols)
                dst[c * dst_ld + r] = (r < rows && c < cols) ? src[src_off + c * src_ld + r] : 0.0f;
        }
    }
}

// dst(r, c) = src[src_off + r * src_ld + c] (the source is stored transposed),
// zero outside rows x cols.
__attribute__((reqd_work_group_size(TRA_DIM, TRA_DIM, 1)))
kernel void pad_transpose(const int rows, const int cols, const global float *restrict src,
                          const int src_off, const int src_ld, const int dst_rows, const int dst_cols,
                          global float *dst, const int dst_ld, const int src_stride, const int dst_stride)
{
    src += get_group_id(2) * src_stride;
    dst += get_group_id(2) * dst_stride;
    local float tile[TRA_TILE][TRA_TILE + TRA_PAD];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int r0 = get_group_id(0) * TRA_TILE;
    const int c0 = get_group_id(1) * TRA_TILE;
    // Read along c, which is contiguous in the source.
#pragma unroll
    for (int j = 0; j < TRA_WPT; ++j) {
#pragma unroll
        for (int i = 0; i < TRA_WPT; ++i) {
            const int lr = ly + j * TRA_DIM, lc = lx + i * TRA_DIM;
            const int r = r0 + lr, c = c0 + lc;
            tile[lr][lc] = (r < rows && c < cols) ? src[src_off + r * src_ld + c] : 0.0f;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Write along r, which is contiguous in the destination.
#pragma unroll
    for (int j = 0; j < TRA_WPT; ++j) {
#pragma unroll
        for (int i = 0; i < TRA_WPT; ++i) {
            const int lr = lx + i * TRA_DIM, lc = ly + j * TRA_DIM;
            const int r = r0 + lr, c = c0 + lc;
            if (r < dst_rows && c < dst_cols)
                dst[c * dst_ld + r] = tile[lr][lc];
        }
    }
}

// C = beta * C on rows x cols; beta == 0 writes zeros without reading C.
__attribute__((reqd_work_group_size(PAD_DIMX, PAD_DIMY, 1)))
kernel void scale_matrix(const int rows, const int cols, const float beta, global float *c, const int c_off,
                         const int c_ld, const int c_stride)
{
    c += get_group_id(2) * c_stride;
    const int r0 = get_group_id(0) * PAD_TILEX + get_local_id(0);
    const int c0 = get_group_id(1) * PAD_TILEY + get_local_id(1);
#pragma unroll
    for (int j = 0; j < PAD_WPTY; ++j) {
        const int col = c0 + j * PAD_DIMY;
#pragma unroll
        for (int i = 0; i < PAD_WPTX; ++i) {
            const int r = r0 + i * PAD_DIMX;
            if (r < rows && col < cols) {
                global float *p = c + c_off + col * c_ld + r;
                *p = beta == 0.0f ? 0.0f : beta * *p;
            }
        }
    }
}

// The last step of gemm_fast's split of k: C = alpha * (sum of the slices)
// + beta * C, without reading C when beta == 0. Slice z of the partial sums
// is a column-major block at part + z * part_stride, leading dimension part_ld.
__attribute__((reqd_work_group_size(PAD_DIMX, PAD_DIMY, 1)))
kernel void sum_slices(const int rows, const int cols, const int slices, const global float *restrict part,
                       const int part_ld, const int part_stride, const float alpha, const float beta,
                       global float *c, const int c_off, const int c_ld)
{
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= rows || j >= cols)
        return;
    const global float *p = part + j * part_ld + i;
    float sum = 0.0f;
    for (int z = 0; z < slices; ++z)
        sum += p[z * part_stride];
    global float *cp = c + c_off + j * c_ld + i;
    *cp = beta != 0.0f ? fma(beta, *cp, alpha * sum) : alpha * sum;
}

// The last step of a split gemv: y = alpha * (sum of the splits' partial
// sums) + beta * y, without reading y when beta == 0. A team of `team`
// work-items (a power of two dividing REDUCE_WGS) shares each output, each
// adding every team-th split, then their sums through local memory: many
// splits of few outputs are added in parallel. Work-item lid serves output
// lid % (REDUCE_WGS / team) of its group's. The third dimension is a batch:
// problem z's y is y_stride elements after problem z - 1's, its partial
// sums splits * n after.
__attribute__((reqd_work_group_size(REDUCE_WGS, 1, 1)))
kernel void gemv_reduce(const int n, const int splits, const global float *restrict partial, const float alpha,
                        const float beta, global float *y, const int y_off, const int incy, const int y_stride,
                        const int team)
{
    local float red[REDUCE_WGS];
    const int lid = get_local_id(0), outs = REDUCE_WGS / team, member = lid / outs;
    const int i = get_group_id(0) * outs + lid % outs, z = get_group_id(2);
    partial += z * splits * n;
    y += z * y_stride;
    float sum = 0.0f;
    if (i < n)
        for (int s = member; s < splits; s += team)
            sum += partial[s * n + i];
    red[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = team / 2; h > 0; h >>= 1) {
        if (member < h)
            red[lid] += red[lid + h * outs];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (member != 0 || i >= n)
        return;
    sum = red[lid];
    global float *yp = y + y_off + i * incy;
    *yp = beta != 0.0f ? fma(beta, *yp, alpha * sum) : alpha * sum;
}
