/*
 * The call record (record.c): one value per call, built by the front door
 * (the host API, the device-buffer API, the drop-in library) from the
 * caller's arguments, with the math mode read once, there. What follows
 * the front door (the host plan, the device plans, the pipeline's tiles,
 * the sub-problems past the index limit) reads the call from its record,
 * so that every piece of one call runs in the mode the call was made in.
 */
#ifndef OCLBLAS_RECORD_H
#define OCLBLAS_RECORD_H

#include "oclblas.h"

#include <stddef.h>
#include <stdint.h>

typedef enum { OCLBLAS__SGEMM, OCLBLAS__SGEMV } oclblas__routine;

/* An operand as the caller gave it: host memory (host), or a device buffer
 * (buf) with the element offset of the operand's lowest element (off). */
typedef struct {
    const float *host; /* an output (C, y) is the caller's writable array */
    cl_mem buf;
    size_t off;
    size_t ld;     /* a matrix's leading dimension */
    ptrdiff_t inc; /* a vector's increment */
} oclblas__arg;

/* SGEMM: C = alpha op(A) op(B) + beta C, op(A) m x k, operands a, b, c.
 * SGEMV: y = alpha op(A) x + beta y, A m x n, operands a, b (x), c (y),
 * trans_a the transpose, k unused. Arguments in the caller's layout. */
typedef struct {
    oclblas__routine routine;
    oclblas_layout layout;
    oclblas_transpose trans_a, trans_b;
    size_t m, n, k;
    float alpha, beta;
    oclblas__arg a, b, c;
    oclblas_math_mode mode; /* the call's: oclblas_get_math_mode() at the front door */
} oclblas__record;

/* Whether the call reads A and B (x): k > 0 (SGEMM) and alpha != 0. */
int oclblas__record_uses_ab(const oclblas__record *r);

/* The same call as a column-major one over the same memory: for SGEMM
 * C^T = op(B)^T op(A)^T (m and n, A and B and their transposes swapped),
 * for SGEMV A^T with the opposite transpose (m and n swapped). A
 * column-major record comes back as it is. */
oclblas__record oclblas__record_col_major(const oclblas__record *r);

/* The rule for extents: an operand's extent (the elements from its lowest
 * through its last) must be computable without overflow and at most
 * PTRDIFF_MAX bytes, so that every index into the operand and every
 * difference of two pointers into it is representable. The extent
 * functions give OCLBLAS__EXTENT_TOO_LARGE for an operand that breaks it;
 * that value exceeds every buffer and every limit, so a comparison that
 * forgets the rule still fails safe. The front doors refuse such a call
 * (api/checks.c), and everything after them computes indices in size_t and
 * ptrdiff_t without a further thought about overflow. */
#define OCLBLAS__EXTENT_TOO_LARGE SIZE_MAX
/* |inc| for any increment, PTRDIFF_MIN included. */
size_t oclblas__abs_inc(ptrdiff_t inc);
/* Elements spanned by a column-major rows x cols matrix with leading
 * dimension ld: (cols - 1) * ld + rows, 0 for an empty one, or
 * OCLBLAS__EXTENT_TOO_LARGE (a row-major matrix is the column-major
 * cols x rows). */
size_t oclblas__extent(size_t rows, size_t cols, size_t ld);
/* Elements spanned by a vector of len elements |inc| apart: a 1 x len
 * matrix whose columns lie |inc| apart. */
size_t oclblas__vector_extent(size_t len, ptrdiff_t inc);
/* Elements each operand (A, B or x, C or y) spans from its lowest element,
 * each OCLBLAS__EXTENT_TOO_LARGE where it breaks the rule. */
void oclblas__record_extents(const oclblas__record *r, size_t ext[3]);

/* The line of the verbose log that names the call: "sgemm 300x200x100 NT". */
void oclblas__record_name(const oclblas__record *r, char *buf, size_t len);

#endif
