// Probe kernels for the first GPU run of gemm_tc (NVIDIA only: inline PTX).
// tc_probe builds each with one -DPROBE_* so that a failure names its
// probe: the m16n8k8 fragment layout and the tensor cores' arithmetic
// (low operand bits, rounding of the sum, subnormals, overflow, Inf/NaN),
// cvt.rna.tf32.f32 against the integer rounding gemm_tc uses, what a local
// pointer cast to an integer holds, and cp.async with each candidate way of
// giving it a shared-window address (TC_SMEM_ADDR 1..3, the same text as in
// kernels/gemm_tc.cl). Every probe writes results; tc_probe judges them.

#ifdef PROBE_MMA
// D = A B + C for one m16n8k8 tile; A 16 x 8 row-major, B 8 x 8 (B[k * 8 + n]),
// C and D 16 x 8 row-major. Fragments as in the PTX ISA (m16n8k8, .tf32):
// g = lane / 4, t = lane % 4; a[r] = A(g + 8 (r & 1), t + 4 (r >> 1)),
// b[r] = B(t + 4 r, g), d[i] = D(g + 8 (i >> 1), 2 t + (i & 1)). The
// operands go in unrounded, to see what the hardware does with low bits.
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void probe_mma(global const float *A, global const float *B, global const float *C, global float *D)
{
    const int lane = get_local_id(0), g = lane >> 2, t = lane & 3;
    uint a[4], b[2];
    float d[4];
    for (int r = 0; r < 4; ++r)
        a[r] = as_uint(A[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)]);
    for (int r = 0; r < 2; ++r)
        b[r] = as_uint(B[(t + 4 * r) * 8 + g]);
    for (int i = 0; i < 4; ++i)
        d[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]),
                   "f"(d[2]), "f"(d[3]));
    for (int i = 0; i < 4; ++i)
        D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}
#endif

#ifdef PROBE_CVT
// out[2 i] = cvt.rna.tf32.f32(x[i]), out[2 i + 1] = gemm_tc's tf32_round(x[i]).
kernel void probe_cvt(global const uint *x, global uint *out)
{
    const int i = get_global_id(0);
    const uint u = x[i];
    uint r;
    asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(as_float(u)));
    out[2 * i] = r;
    out[2 * i + 1] = (u + ((u & 0x7FFFFFFFu) < 0x7F800000u ? 0x1000u : 0u)) & 0xFFFFE000u;
}
#endif

#ifdef PROBE_ADDR
// What (ulong) of a local pointer holds: a shared-window offset (small) or a
// generic address (large). out: x, y, y + 1 float4, and x as 32 bits.
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void probe_addr(global ulong *out, global float4 *sink)
{
    local float4 x[16];
    local float4 y[16];
    const int lid = get_local_id(0);
    x[lid] = (float4)(lid);
    y[lid] = (float4)(2 * lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    sink[lid] = x[15 - lid] + y[lid];
    if (lid == 0) {
        out[0] = (ulong)(local float *)x;
        out[1] = (ulong)(local float *)y;
        out[2] = (ulong)(local float *)(y + 1);
        out[3] = (uint)(ulong)(local float *)x;
    }
}
#endif

#ifdef PROBE_CPASYNC
#if TC_SMEM_ADDR == 1
#define CP_ASYNC16(dst, src) \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(ulong)(dst)), "l"((ulong)(src)))
#elif TC_SMEM_ADDR == 2
#define CP_ASYNC16(dst, src) \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"l"((ulong)(dst)), "l"((ulong)(src)))
#elif TC_SMEM_ADDR == 3
#define CP_ASYNC16(dst, src)                                                                                 \
    asm volatile("{ .reg .u64 sa; cvta.to.shared.u64 sa, %0; cp.async.cg.shared.global [sa], [%1], 16; }" :: \
                     "l"((ulong)(dst)),                                                                      \
                 "l"((ulong)(src)))
#endif
// Two groups in flight, waited for one at a time (wait_group 1, then 0);
// each work-item reads what its neighbour copied, so the barrier's
// visibility is tested too. dst[i] = src[(i + 1) % 64], dst[64 + i] =
// src[64 + (i + 1) % 64]. A first local array puts the copied ones at a
// nonzero offset.
__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void probe_cpasync(global const float4 *src, global float4 *dst)
{
    local float4 first[8];
    local float4 buf0[64];
    local float4 buf1[64];
    const int lid = get_local_id(0);
    first[lid & 7] = (float4)(lid);
    CP_ASYNC16((local float *)(buf0 + lid), src + lid);
    asm volatile("cp.async.commit_group;");
    CP_ASYNC16((local float *)(buf1 + lid), src + 64 + lid);
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 1;");
    barrier(CLK_LOCAL_MEM_FENCE);
    dst[lid] = buf0[(lid + 1) & 63] + first[lid & 7] * 0.0f;
    asm volatile("cp.async.wait_group 0;");
    barrier(CLK_LOCAL_MEM_FENCE);
    dst[64 + lid] = buf1[(lid + 1) & 63];
}
#endif
