/*
 * What a call record says beyond its fields: whether the call reads its
 * inputs, the column-major call over the same memory, the elements each
 * operand spans, and the call's name in the log. Pure functions of the
 * record; the front doors build it (record.h says why).
 */
#include "plan/record.h"

#include <stdio.h>

int oclblas__record_uses_ab(const oclblas__record *r)
{
    return r->alpha != 0.0f && (r->routine == OCLBLAS__SGEMV || r->k > 0);
}

oclblas__record oclblas__record_col_major(const oclblas__record *r)
{
    oclblas__record c = *r;
    if (r->layout == OCLBLAS_COL_MAJOR)
        return c;
    c.layout = OCLBLAS_COL_MAJOR;
    c.m = r->n;
    c.n = r->m;
    if (r->routine == OCLBLAS__SGEMV) {
        /* A row-major A is a column-major A^T. */
        c.trans_a = r->trans_a == OCLBLAS_NO_TRANS ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS;
        return c;
    }
    c.trans_a = r->trans_b;
    c.trans_b = r->trans_a;
    c.a = r->b;
    c.b = r->a;
    return c;
}

/* The most floats an operand may span: PTRDIFF_MAX bytes. */
#define MAX_EXTENT ((size_t)PTRDIFF_MAX / sizeof(float))

size_t oclblas__abs_inc(ptrdiff_t inc) { return inc < 0 ? (size_t)0 - (size_t)inc : (size_t)inc; }

size_t oclblas__extent(size_t rows, size_t cols, size_t ld)
{
    if (rows == 0 || cols == 0)
        return 0;
    size_t e;
    if (__builtin_mul_overflow(cols - 1, ld, &e) || __builtin_add_overflow(e, rows, &e) || e > MAX_EXTENT)
        return OCLBLAS__EXTENT_TOO_LARGE;
    return e;
}

size_t oclblas__vector_extent(size_t len, ptrdiff_t inc) { return oclblas__extent(1, len, oclblas__abs_inc(inc)); }

void oclblas__record_extents(const oclblas__record *r, size_t ext[3])
{
    const oclblas__record c = oclblas__record_col_major(r);
    const int ta = c.trans_a != OCLBLAS_NO_TRANS, tb = c.trans_b != OCLBLAS_NO_TRANS;
    if (r->routine == OCLBLAS__SGEMV) {
        ext[0] = oclblas__extent(c.m, c.n, c.a.ld);
        ext[1] = oclblas__vector_extent(ta ? c.m : c.n, c.b.inc);
        ext[2] = oclblas__vector_extent(ta ? c.n : c.m, c.c.inc);
        return;
    }
    /* op(A) is m x k and op(B) k x n; ext[0] and ext[1] are the caller's A and B. */
    const size_t e0 = ta ? oclblas__extent(c.k, c.m, c.a.ld) : oclblas__extent(c.m, c.k, c.a.ld);
    const size_t e1 = tb ? oclblas__extent(c.n, c.k, c.b.ld) : oclblas__extent(c.k, c.n, c.b.ld);
    const int col = r->layout == OCLBLAS_COL_MAJOR;
    ext[0] = col ? e0 : e1;
    ext[1] = col ? e1 : e0;
    ext[2] = oclblas__extent(c.m, c.n, c.c.ld);
}

void oclblas__record_name(const oclblas__record *r, char *buf, size_t len)
{
    const char ta = r->trans_a == OCLBLAS_NO_TRANS ? 'N' : 'T', tb = r->trans_b == OCLBLAS_NO_TRANS ? 'N' : 'T';
    if (r->routine == OCLBLAS__SGEMV)
        snprintf(buf, len, "sgemv %zux%zu %c", r->m, r->n, ta);
    else
        snprintf(buf, len, "sgemm %zux%zux%zu %c%c", r->m, r->n, r->k, ta, tb);
}
