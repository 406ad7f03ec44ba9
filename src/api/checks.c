/*
 * The argument checks, each written once: a routine's BLAS arguments (one
 * function per routine, shared by the host API, the device-buffer API and
 * the drop-in library, which maps the status to the reference INFO, the
 * last of them the rule for extents of plan/record.h), the host arrays'
 * ends inside the address space, and the checks on the caller's queue and buffers that the device-buffer calls
 * make before they enqueue anything, so that a bad argument is a status and
 * never a write.
 */
#include "api/checks.h"

#include <limits.h>
#include <stdint.h>

static int valid_trans(oclblas_transpose t)
{
    return t == OCLBLAS_NO_TRANS || t == OCLBLAS_TRANS || t == OCLBLAS_CONJ_TRANS;
}

static size_t at_least_1(size_t x) { return x > 1 ? x : 1; }

/* Every operand must be able to exist; a call that computes nothing
 * (m or n 0) touches none. A and B (x) are held to the rule even where
 * alpha = 0 leaves them unread: sizes no memory can hold are the caller's
 * mistake. */
static oclblas_status extents_rule(const oclblas__record *r)
{
    size_t ext[3];
    oclblas__record_extents(r, ext);
    if (r->m && r->n &&
        (ext[0] == OCLBLAS__EXTENT_TOO_LARGE || ext[1] == OCLBLAS__EXTENT_TOO_LARGE ||
         ext[2] == OCLBLAS__EXTENT_TOO_LARGE))
        return OCLBLAS_SIZE_TOO_LARGE;
    return OCLBLAS_SUCCESS;
}

int oclblas__host_extent_fits(const void *p, size_t extent)
{
    return extent <= (size_t)PTRDIFF_MAX / sizeof(float) && extent * sizeof(float) <= UINTPTR_MAX - (uintptr_t)p;
}

oclblas_status oclblas__sgemm_check(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                    size_t m, size_t n, size_t k, size_t lda, size_t ldb, size_t ldc)
{
    if (layout != OCLBLAS_ROW_MAJOR && layout != OCLBLAS_COL_MAJOR)
        return OCLBLAS_INVALID_LAYOUT;
    if (!valid_trans(trans_a))
        return OCLBLAS_INVALID_TRANS_A;
    if (!valid_trans(trans_b))
        return OCLBLAS_INVALID_TRANS_B;
    const int col = layout == OCLBLAS_COL_MAJOR;
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    /* op(A) is m x k and op(B) k x n; a leading dimension spans the stored
     * operand's rows (column-major) or columns (row-major). */
    const size_t a_rows = at ? k : m, a_cols = at ? m : k, b_rows = bt ? n : k, b_cols = bt ? k : n;
    const int bad_a = lda < at_least_1(col ? a_rows : a_cols), bad_b = ldb < at_least_1(col ? b_rows : b_cols);
    /* Reference CBLAS checks a row-major call as the column-major call it
     * makes, C^T = op(B)^T op(A)^T, in which B comes first. */
    if (bad_a && (col || !bad_b))
        return OCLBLAS_INVALID_LDA;
    if (bad_b)
        return OCLBLAS_INVALID_LDB;
    if (ldc < at_least_1(col ? m : n))
        return OCLBLAS_INVALID_LDC;
    const oclblas__record r = {OCLBLAS__SGEMM, layout, trans_a, trans_b, m, n, k, 0.0f, 0.0f,
                               {NULL, NULL, 0, lda, 0}, {NULL, NULL, 0, ldb, 0}, {NULL, NULL, 0, ldc, 0},
                               OCLBLAS_MATH_STRICT};
    return extents_rule(&r);
}

/* Sizes and operands of any extent run, as sub-problems where they must
 * (split.c); what a kernel takes as one int argument must fit it. A call
 * that computes nothing is never too large. */
oclblas_status oclblas__sgemm_check_kernels(size_t m, size_t n, size_t lda, size_t ldb, size_t ldc)
{
    if (m && n && (lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX))
        return OCLBLAS_SIZE_TOO_LARGE;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__sgemv_check_kernels(size_t m, size_t n, size_t lda, ptrdiff_t incx, ptrdiff_t incy)
{
    if (m && n && (lda > INT_MAX || incx > INT_MAX || incx < -INT_MAX || incy > INT_MAX || incy < -INT_MAX))
        return OCLBLAS_SIZE_TOO_LARGE;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__sgemv_check(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, size_t lda,
                                    ptrdiff_t incx, ptrdiff_t incy)
{
    if (layout != OCLBLAS_ROW_MAJOR && layout != OCLBLAS_COL_MAJOR)
        return OCLBLAS_INVALID_LAYOUT;
    if (!valid_trans(trans))
        return OCLBLAS_INVALID_TRANS_A;
    if (lda < at_least_1(layout == OCLBLAS_COL_MAJOR ? m : n))
        return OCLBLAS_INVALID_LDA;
    if (incx == 0)
        return OCLBLAS_INVALID_INCX;
    if (incy == 0)
        return OCLBLAS_INVALID_INCY;
    const oclblas__record r = {OCLBLAS__SGEMV, layout, trans, OCLBLAS_NO_TRANS, m, n, 0, 0.0f, 0.0f,
                               {NULL, NULL, 0, lda, 0}, {NULL, NULL, 0, 0, incx}, {NULL, NULL, 0, 0, incy},
                               OCLBLAS_MATH_STRICT};
    return extents_rule(&r);
}

oclblas_status oclblas__check_buffer(cl_mem buf, cl_context ctx, size_t off, size_t need, int access,
                                     oclblas_status null_status, oclblas_status small_status)
{
    if (!buf)
        return null_status;
    cl_mem_object_type type;
    cl_context bctx;
    cl_mem_flags flags;
    size_t bytes;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(buf, CL_MEM_CONTEXT, sizeof bctx, &bctx, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(buf, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    /* Kernels index the operands as global float arrays: an image or a pipe
     * passed in their place would be read as something else. */
    if (type != CL_MEM_OBJECT_BUFFER)
        return OCLBLAS_NOT_A_BUFFER;
    if (bctx != ctx)
        return OCLBLAS_BUFFER_CONTEXT_MISMATCH;
    /* What kernels may do with a buffer is its creator's promise; breaking
     * it is undefined (and PoCL writes a read-only C). The host-access
     * flags (CL_MEM_HOST_*) do not concern kernels. */
    if ((access & OCLBLAS__WRITES) && (flags & CL_MEM_READ_ONLY))
        return OCLBLAS_READ_ONLY_OUTPUT;
    if ((access & OCLBLAS__READS) && (flags & CL_MEM_WRITE_ONLY))
        return OCLBLAS_WRITE_ONLY_INPUT;
    const size_t elems = bytes / sizeof(float);
    if (off > elems || need > elems - off)
        return small_status;
    return OCLBLAS_SUCCESS;
}
