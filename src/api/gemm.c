/*
 * SGEMM on device buffers, the front door: oclblas_sgemm_cl makes the
 * call's record (the math mode read once, here), checks the arguments in
 * the order reference CBLAS does, then the kernels' int limit, and hands
 * the record on (device.c).
 */
#include "api/checks.h"
#include "api/device.h"

oclblas_status oclblas_sgemm_cl(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda,
                                cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                                size_t ldc, cl_command_queue queue, cl_event *event)
{
    const oclblas__record r = {OCLBLAS__SGEMM, layout, trans_a, trans_b, m, n, k, alpha, beta,
                               {NULL, a, a_offset, lda, 0}, {NULL, b, b_offset, ldb, 0}, {NULL, c, c_offset, ldc, 0},
                               oclblas_get_math_mode()};
    oclblas_status st = oclblas__sgemm_check(layout, trans_a, trans_b, m, n, k, lda, ldb, ldc);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__sgemm_check_kernels(m, n, lda, ldb, ldc);
    return st == OCLBLAS_SUCCESS ? oclblas__device_call(&r, queue, event) : st;
}
