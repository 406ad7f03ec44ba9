// For proto/ptx-check.sh only: clang has no OpenCL library for NVPTX, so
// the few built-ins gemm_tc calls are given here through NVVM intrinsics.
// atomic_or is not atomic here: the output is for counting registers and
// instructions, never for running.
size_t __attribute__((overloadable)) get_local_id(uint d)
{
    return d == 0 ? __nvvm_read_ptx_sreg_tid_x() : d == 1 ? __nvvm_read_ptx_sreg_tid_y() : __nvvm_read_ptx_sreg_tid_z();
}
size_t __attribute__((overloadable)) get_group_id(uint d)
{
    return d == 0 ? __nvvm_read_ptx_sreg_ctaid_x() : d == 1 ? __nvvm_read_ptx_sreg_ctaid_y()
                                                            : __nvvm_read_ptx_sreg_ctaid_z();
}
size_t __attribute__((overloadable)) get_global_id(uint d) { return get_group_id(d) * __nvvm_read_ptx_sreg_ntid_x() + get_local_id(d); }
void __attribute__((overloadable)) barrier(cl_mem_fence_flags flags) { __nvvm_bar_sync(0); }
int __attribute__((overloadable)) min(int x, int y) { return x < y ? x : y; }
float __attribute__((overloadable)) fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
int __attribute__((overloadable)) atomic_or(volatile local int *p, int v)
{
    const int old = *p;
    *p = old | v;
    return old;
}
