/*
 * The operands of one SGEMM or SGEMV case of the drop-in's tests
 * (test_cblas, test_hostblas): stored in the caller's layout, each leading
 * dimension the tight one (at least 1) plus pad, guard elements after A, B
 * and C that the reference's checks watch, random values from the seed
 * (A, B, C in that order), the output's elements NaN where beta is 0 (it
 * is never read, so NaN must not come through), and a copy of the output
 * as it was before the call. Header-only, as reference.h.
 */
#ifndef OCLBLAS_CBLAS_TEST_CASES_H
#define OCLBLAS_CBLAS_TEST_CASES_H

#include "reference.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

typedef struct {
    size_t lda, ldb, ldc;             /* SGEMV: lda only */
    size_t a_count, b_count, c_count; /* SGEMV: b is x, c is y */
    float *a, *b, *c, *c0;            /* c0: C (SGEMV: y) before the call */
} case_operands;

static inline size_t case_max1(size_t x) { return x > 1 ? x : 1; }

/* Allocates the four arrays of o's counts and fills A, B and C. */
static inline void case_alloc(case_operands *o, unsigned *seed)
{
    o->a = malloc(o->a_count * sizeof(float));
    o->b = malloc(o->b_count * sizeof(float));
    o->c = malloc(o->c_count * sizeof(float));
    o->c0 = malloc(o->c_count * sizeof(float));
    assert_true(o->a && o->b && o->c && o->c0);
    ref_fill(o->a, o->a_count, seed);
    ref_fill(o->b, o->b_count, seed);
    ref_fill(o->c, o->c_count, seed);
}

/* C = alpha op(A) op(B) + beta C, C m x n, row-major or column-major. */
static inline case_operands case_gemm(int row, int ta, int tb, size_t m, size_t n, size_t k, size_t pad, float beta,
                                      unsigned *seed)
{
    const size_t a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
    case_operands o;
    o.lda = case_max1(row ? a_cols : a_rows) + pad;
    o.ldb = case_max1(row ? b_cols : b_rows) + pad;
    o.ldc = case_max1(row ? n : m) + pad;
    o.a_count = o.lda * (row ? a_rows : a_cols) + 1;
    o.b_count = o.ldb * (row ? b_rows : b_cols) + 1;
    o.c_count = o.ldc * (row ? m : n) + 3;
    case_alloc(&o, seed);
    if (beta == 0.0f)
        for (size_t i = 0; i < (row ? m : n); ++i)
            for (size_t j = 0; j < (row ? n : m); ++j)
                o.c[i * o.ldc + j] = NAN;
    memcpy(o.c0, o.c, o.c_count * sizeof(float));
    return o;
}

/* y = alpha op(A) x + beta y, A m x n, x and y of at least one element. */
static inline case_operands case_gemv(int row, int t, size_t m, size_t n, size_t pad, ptrdiff_t incx, ptrdiff_t incy,
                                      float beta, unsigned *seed)
{
    const size_t len_x = t ? m : n, len_y = t ? n : m;
    const size_t step_x = (size_t)(incx < 0 ? -incx : incx), step_y = (size_t)(incy < 0 ? -incy : incy);
    case_operands o;
    o.lda = case_max1(row ? n : m) + pad;
    o.ldb = o.ldc = 0;
    o.a_count = o.lda * (row ? m : n) + 1;
    o.b_count = (len_x - 1) * step_x + 1;
    o.c_count = (len_y - 1) * step_y + 1;
    case_alloc(&o, seed);
    if (beta == 0.0f)
        for (size_t i = 0; i < len_y; ++i)
            o.c[i * step_y] = NAN;
    memcpy(o.c0, o.c, o.c_count * sizeof(float));
    return o;
}

static inline void case_free(case_operands *o)
{
    free(o->a);
    free(o->b);
    free(o->c);
    free(o->c0);
}

#endif
