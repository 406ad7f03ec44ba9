/*
 * The argument checks (checks.c), each written once and called by every
 * front door: a routine's BLAS arguments, the kernels' int limit on leading
 * dimensions and increments, and the caller's buffers.
 */
#ifndef OCLBLAS_CHECKS_H
#define OCLBLAS_CHECKS_H

#include "oclblas.h"
#include "plan/record.h" /* the call record, the rule for extents */

#include <stddef.h>

/* The BLAS arguments of a routine, checked in the order of reference BLAS
 * (for a row-major call, that of the column-major call reference CBLAS
 * makes: B before A): layout, transposes, leading dimensions against the
 * sizes, increments; then the rule for extents (plan/record.h):
 * OCLBLAS_SIZE_TOO_LARGE for an operand no address space can hold, unless
 * the call computes nothing (m or n 0). The status names the first bad
 * one. Sizes are size_t: a negative int size (CBLAS, Fortran) is the
 * caller's to catch. Every front end calls these: the host API, the
 * device-buffer API and the drop-in library; the host API then checks its
 * pointers (oclblas__host_extent_fits), the device-buffer API the kernels'
 * int (oclblas__sgemm_check_kernels) and its buffers with the offsets
 * (oclblas__check_buffer). */
oclblas_status oclblas__sgemm_check(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                    size_t m, size_t n, size_t k, size_t lda, size_t ldb, size_t ldc);
oclblas_status oclblas__sgemv_check(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, size_t lda,
                                    ptrdiff_t incx, ptrdiff_t incy);

/* Whether extent floats from host pointer p end inside the address space:
 * at most PTRDIFF_MAX bytes, and p plus them does not wrap. */
int oclblas__host_extent_fits(const void *p, size_t extent);

/* OCLBLAS_SIZE_TOO_LARGE for a leading dimension or increment beyond the
 * kernels' int (checks.c); sizes and extents may be anything. */
oclblas_status oclblas__sgemm_check_kernels(size_t m, size_t n, size_t lda, size_t ldb, size_t ldc);
oclblas_status oclblas__sgemv_check_kernels(size_t m, size_t n, size_t lda, ptrdiff_t incx, ptrdiff_t incy);

/* What a call's kernels do with a buffer (oclblas__check_buffer's access). */
enum { OCLBLAS__READS = 1, OCLBLAS__WRITES = 2 };
/* Checks a buffer: not NULL, a buffer (no image, no pipe), same context,
 * its flags allowing the access (kernels write it: not CL_MEM_READ_ONLY;
 * kernels read it: not CL_MEM_WRITE_ONLY), large enough for elements
 * [off, off + need). */
oclblas_status oclblas__check_buffer(cl_mem buf, cl_context ctx, size_t off, size_t need, int access,
                                     oclblas_status null_status, oclblas_status small_status);

#endif
