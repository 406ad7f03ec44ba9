/*
 * SGEMV on device buffers, the front door: oclblas_sgemv_cl makes the
 * call's record (the math mode read once, here), checks the arguments in
 * the order reference CBLAS does, then the kernels' int limit, and hands
 * the record on (device.c; the runtime runs gemv_n or gemv_t by the
 * direction of memory).
 */
#include "api/checks.h"
#include "api/device.h"

oclblas_status oclblas_sgemv_cl(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                cl_mem a, size_t a_offset, size_t lda, cl_mem x, size_t x_offset, ptrdiff_t incx,
                                float beta, cl_mem y, size_t y_offset, ptrdiff_t incy, cl_command_queue queue,
                                cl_event *event)
{
    const oclblas__record r = {OCLBLAS__SGEMV, layout, trans, OCLBLAS_NO_TRANS, m, n, 0, alpha, beta,
                               {NULL, a, a_offset, lda, 0}, {NULL, x, x_offset, 0, incx}, {NULL, y, y_offset, 0, incy},
                               oclblas_get_math_mode()};
    oclblas_status st = oclblas__sgemv_check(layout, trans, m, n, lda, incx, incy);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__sgemv_check_kernels(m, n, lda, incx, incy);
    return st == OCLBLAS_SUCCESS ? oclblas__device_call(&r, queue, event) : st;
}
