// What every kernel's program starts with (the build embeds it ahead of
// each kernels/<name>.cl): what more than one kernel uses.

#ifdef OCLBLAS_NVIDIA
// Counts a work-group in at *count, the last of `groups` to arrive setting
// it back to zero (atom.inc wraps at groups - 1), and says whether it was
// the last: how gemv_n and gemv_t finish a split in their own launch. Called
// by one work-item between two barriers of its group: the release orders
// the group's writes before it (a barrier, then release at device scope,
// as CUTLASS's semaphores do), the acquire the last group's reads after it.
// OpenCL 1.2 has no such ordering across work-groups, so the host finishes
// a split in its launch on NVIDIA alone.
inline int arrive(volatile global int *count, const int groups)
{
    uint old;
    asm volatile("atom.acq_rel.gpu.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(count), "r"(groups - 1) : "memory");
    return old == (uint)(groups - 1);
}
#endif
