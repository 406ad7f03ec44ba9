/*
 * SGEMM and SGEMV computed on the host, in plain C: the library's own host
 * routine, for the calls that the host serves (small ones, SGEMV on a
 * discrete GPU, tiles of a device that failed) when the process has no
 * other BLAS (sysblas.c), and the drop-in library's last resort. Both
 * follow reference BLAS semantics exactly (beta = 0 never reads C or y,
 * alpha = 0 or k = 0 only scales, negative increments walk backwards,
 * ConjTrans is Trans) and normalise row-major calls to column-major as the
 * device routines do. SGEMM packs blocks of op(A) and op(B) into contiguous
 * slivers that stay in cache and multiplies them with a small fixed-size
 * register tile that the compiler vectorises; SGEMV walks A only along its
 * contiguous direction, in row chunks that keep the vector piece in cache.
 * Nothing here allocates more than the two packing buffers of a thread, and
 * when even those cannot be had an unblocked loop still gives the result.
 * Large problems are cut into independent blocks of C (or of y) that the
 * library's host threads (pool.c) compute side by side. These routines
 * serve only when the process has no other BLAS (sysblas.c).
 */
#include "host/hostblas.h"
#include "host/pool.h"
#include "plan/record.h" /* oclblas__abs_inc */

#include <stdlib.h>
#include <string.h>

/* Register tile (MR x NR accumulators) and cache blocks: an MC x KC block of
 * op(A) (128 KiB) for the L2 cache, a KC x NR sliver of op(B) (4 KiB) for L1,
 * and KC x NC of op(B) (1 MiB) for the last level. */
#define MR 8
#define NR 4
#define MC 128
#define KC 256
#define NC 1024

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }
/* Without a + b - 1, which wraps for sizes near SIZE_MAX. */
static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

/* C = beta * C on an m x n column-major block; beta = 0 writes zeros without
 * reading, so NaN or garbage in C does not survive. */
static void scale_matrix(size_t m, size_t n, float beta, float *c, size_t ldc)
{
    if (beta == 1.0f)
        return;
    for (size_t j = 0; j < n; ++j) {
        float *cj = c + j * ldc;
        if (beta == 0.0f)
            memset(cj, 0, m * sizeof(float));
        else
            for (size_t i = 0; i < m; ++i)
                cj[i] *= beta;
    }
}

/* op(A) rows [i0, i0 + mc) by columns [p0, p0 + kc) into slivers of MR rows:
 * sliver s holds element (i, p) at s * kc * MR + p * MR + i, zero-padded past
 * mc so the tile loop needs no edge case. alpha is folded in here, once per
 * element of A instead of once per product. */
static void pack_a(int at, const float *a, size_t lda, size_t i0, size_t p0, size_t mc, size_t kc, float alpha,
                   float *dst)
{
    for (size_t s = 0; s < mc; s += MR) {
        const size_t rows = min_size(MR, mc - s);
        float *d = dst + s * kc;
        if (!at) {
            for (size_t p = 0; p < kc; ++p) {
                const float *src = a + (p0 + p) * lda + i0 + s;
                size_t i = 0;
                for (; i < rows; ++i)
                    d[p * MR + i] = alpha * src[i];
                for (; i < MR; ++i)
                    d[p * MR + i] = 0.0f;
            }
        } else {
            /* op(A)(i, p) = A(p, i): each row of op(A) is a contiguous column of A. */
            for (size_t i = 0; i < MR; ++i) {
                if (i < rows) {
                    const float *src = a + (i0 + s + i) * lda + p0;
                    for (size_t p = 0; p < kc; ++p)
                        d[p * MR + i] = alpha * src[p];
                } else {
                    for (size_t p = 0; p < kc; ++p)
                        d[p * MR + i] = 0.0f;
                }
            }
        }
    }
}

/* op(B) rows [p0, p0 + kc) by columns [j0, j0 + nc) into slivers of NR
 * columns: element (p, j) of sliver s at s * kc * NR + p * NR + j. */
static void pack_b(int bt, const float *b, size_t ldb, size_t p0, size_t j0, size_t kc, size_t nc, float *dst)
{
    for (size_t s = 0; s < nc; s += NR) {
        const size_t cols = min_size(NR, nc - s);
        float *d = dst + s * kc;
        if (!bt) {
            for (size_t j = 0; j < NR; ++j) {
                if (j < cols) {
                    const float *src = b + (j0 + s + j) * ldb + p0;
                    for (size_t p = 0; p < kc; ++p)
                        d[p * NR + j] = src[p];
                } else {
                    for (size_t p = 0; p < kc; ++p)
                        d[p * NR + j] = 0.0f;
                }
            }
        } else {
            /* op(B)(p, j) = B(j, p): a row of the sliver is a piece of a column of B. */
            for (size_t p = 0; p < kc; ++p) {
                const float *src = b + (p0 + p) * ldb + j0 + s;
                size_t j = 0;
                for (; j < cols; ++j)
                    d[p * NR + j] = src[j];
                for (; j < NR; ++j)
                    d[p * NR + j] = 0.0f;
            }
        }
    }
}

/* The MR x NR tile of products of one A sliver and one B sliver, added into
 * C where the tile lies inside it (rows x cols). Fixed trip counts let the
 * compiler keep the tile in vector registers. */
static void tile(size_t kc, const float *restrict ap, const float *restrict bp, float *c, size_t ldc, size_t rows,
                 size_t cols)
{
    float t[NR][MR];
    memset(t, 0, sizeof t);
    for (size_t p = 0; p < kc; ++p) {
        const float *av = ap + p * MR, *bv = bp + p * NR;
        for (int j = 0; j < NR; ++j)
            for (int i = 0; i < MR; ++i)
                t[j][i] += av[i] * bv[j];
    }
    for (size_t j = 0; j < cols; ++j)
        for (size_t i = 0; i < rows; ++i)
            c[j * ldc + i] += t[j][i];
}

/* Without packing memory: the same result from a loop over the caller's
 * arrays as they are, one dot product per element of C. */
static void gemm_unblocked(int at, int bt, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                           const float *b, size_t ldb, float *c, size_t ldc)
{
    for (size_t j = 0; j < n; ++j)
        for (size_t i = 0; i < m; ++i) {
            float s = 0.0f;
            for (size_t p = 0; p < k; ++p)
                s += (at ? a[i * lda + p] : a[p * lda + i]) * (bt ? b[p * ldb + j] : b[j * ldb + p]);
            c[j * ldc + i] += alpha * s;
        }
}

/* Column-major C = alpha op(A) op(B) + beta C. */
static void gemm_colmajor(int at, int bt, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                          const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    if (m == 0 || n == 0)
        return;
    scale_matrix(m, n, beta, c, ldc);
    if (k == 0 || alpha == 0.0f)
        return;
    /* Packing buffers sized for this problem, so tiny calls stay cheap. */
    const size_t mcap = (min_size(m, MC) + MR - 1) / MR * MR, ncap = (min_size(n, NC) + NR - 1) / NR * NR;
    const size_t kcap = min_size(k, KC);
    float *ap = malloc(mcap * kcap * sizeof(float)), *bp = malloc(ncap * kcap * sizeof(float));
    if (!ap || !bp) {
        free(ap);
        free(bp);
        gemm_unblocked(at, bt, m, n, k, alpha, a, lda, b, ldb, c, ldc);
        return;
    }
    for (size_t j0 = 0; j0 < n; j0 += NC) {
        const size_t nc = min_size(NC, n - j0);
        for (size_t p0 = 0; p0 < k; p0 += KC) {
            const size_t kc = min_size(KC, k - p0);
            pack_b(bt, b, ldb, p0, j0, kc, nc, bp);
            for (size_t i0 = 0; i0 < m; i0 += MC) {
                const size_t mc = min_size(MC, m - i0);
                pack_a(at, a, lda, i0, p0, mc, kc, alpha, ap);
                for (size_t js = 0; js < nc; js += NR)
                    for (size_t is = 0; is < mc; is += MR)
                        tile(kc, ap + is * kc, bp + js * kc, c + (j0 + js) * ldc + i0 + is, ldc,
                             min_size(MR, mc - is), min_size(NR, nc - js));
            }
        }
    }
    free(ap);
    free(bp);
}

/* Multiply-adds below which one thread does the whole product. */
#define PARALLEL_GEMM_WORK ((double)(1 << 22))

typedef struct {
    int at, bt;
    size_t m, n, k;
    float alpha, beta;
    const float *a, *b;
    size_t lda, ldb, ldc;
    float *c;
    int by_rows; /* blocks of rows of C (m is the long side), else of columns */
    size_t per_part;
} gemm_split;

static void gemm_part(void *arg, size_t part)
{
    const gemm_split *s = arg;
    const size_t len = s->by_rows ? s->m : s->n, x0 = part * s->per_part;
    if (x0 >= len)
        return;
    const size_t nx = min_size(s->per_part, len - x0);
    if (s->by_rows) /* rows of op(A) and of C */
        gemm_colmajor(s->at, s->bt, nx, s->n, s->k, s->alpha, s->at ? s->a + x0 * s->lda : s->a + x0, s->lda, s->b,
                      s->ldb, s->beta, s->c + x0, s->ldc);
    else /* columns of op(B) and of C */
        gemm_colmajor(s->at, s->bt, s->m, nx, s->k, s->alpha, s->a, s->lda, s->bt ? s->b + x0 : s->b + x0 * s->ldb,
                      s->ldb, s->beta, s->c + x0 * s->ldc, s->ldc);
}

static void gemm_parallel(int at, int bt, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                          const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    size_t parts = oclblas__pool_threads();
    if (parts < 2 || (double)m * (double)n * (double)k < PARALLEL_GEMM_WORK) {
        gemm_colmajor(at, bt, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    gemm_split s = {at, bt, m, n, k, alpha, beta, a, b, lda, ldb, ldc, c, m > n, 0};
    const size_t len = s.by_rows ? m : n, unit = s.by_rows ? MR : NR;
    /* Whole register tiles per part, and no part thinner than one. */
    if (parts > len / unit)
        parts = len / unit ? len / unit : 1;
    s.per_part = ceil_div(ceil_div(len, parts), unit) * unit;
    oclblas__pool_run(ceil_div(len, s.per_part), gemm_part, &s);
}

void oclblas__host_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b, size_t m,
                         size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                         float beta, float *c, size_t ldc)
{
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    if (layout == OCLBLAS_COL_MAJOR)
        gemm_parallel(at, bt, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else /* row-major C is column-major C^T = op(B)^T op(A)^T over the same memory */
        gemm_parallel(bt, at, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
}

/* Rows of A that one pass of SGEMV handles: the piece of the vector that is
 * reused for every column stays in L1 (and on the stack). */
#define GEMV_ROWS 1024

/* Column-major y = alpha op(A) x + beta y, A rows x cols. */
static void gemv_colmajor(int trans, size_t rows, size_t cols, float alpha, const float *a, size_t lda,
                          const float *x, ptrdiff_t incx, float beta, float *y, ptrdiff_t incy)
{
    if (rows == 0 || cols == 0)
        return;
    const size_t len_x = trans ? rows : cols, len_y = trans ? cols : rows;
    /* As in reference BLAS, a negative increment starts at the far end. */
    const ptrdiff_t kx = incx < 0 ? -(ptrdiff_t)(len_x - 1) * incx : 0;
    const ptrdiff_t ky = incy < 0 ? -(ptrdiff_t)(len_y - 1) * incy : 0;
    if (beta != 1.0f)
        for (size_t i = 0; i < len_y; ++i) {
            float *yi = y + ky + (ptrdiff_t)i * incy;
            *yi = beta == 0.0f ? 0.0f : beta * *yi;
        }
    if (alpha == 0.0f)
        return;
    float piece[GEMV_ROWS];
    if (!trans) {
        /* y = A x: every column of A adds into the same piece of y, which is
         * summed in contiguous memory whatever y's increment. */
        for (size_t r0 = 0; r0 < rows; r0 += GEMV_ROWS) {
            const size_t nr = min_size(GEMV_ROWS, rows - r0);
            memset(piece, 0, nr * sizeof(float));
            size_t j = 0;
            for (; j + 4 <= cols; j += 4) {
                const float x0 = x[kx + (ptrdiff_t)j * incx], x1 = x[kx + (ptrdiff_t)(j + 1) * incx];
                const float x2 = x[kx + (ptrdiff_t)(j + 2) * incx], x3 = x[kx + (ptrdiff_t)(j + 3) * incx];
                const float *a0 = a + j * lda + r0, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
                for (size_t i = 0; i < nr; ++i)
                    piece[i] += a0[i] * x0 + a1[i] * x1 + a2[i] * x2 + a3[i] * x3;
            }
            for (; j < cols; ++j) {
                const float xj = x[kx + (ptrdiff_t)j * incx];
                const float *aj = a + j * lda + r0;
                for (size_t i = 0; i < nr; ++i)
                    piece[i] += aj[i] * xj;
            }
            for (size_t i = 0; i < nr; ++i)
                y[ky + (ptrdiff_t)(r0 + i) * incy] += alpha * piece[i];
        }
    } else {
        /* y = A^T x: a dot product down each column, over a contiguous copy
         * of the piece of x. Eight partial sums make the loop vectorisable
         * without reassociating a single sum. */
        for (size_t r0 = 0; r0 < rows; r0 += GEMV_ROWS) {
            const size_t nr = min_size(GEMV_ROWS, rows - r0);
            for (size_t i = 0; i < nr; ++i)
                piece[i] = x[kx + (ptrdiff_t)(r0 + i) * incx];
            for (size_t j = 0; j < cols; ++j) {
                const float *aj = a + j * lda + r0;
                float part[8] = {0};
                size_t i = 0;
                for (; i + 8 <= nr; i += 8)
                    for (int u = 0; u < 8; ++u)
                        part[u] += aj[i + u] * piece[i + u];
                float s = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
                for (; i < nr; ++i)
                    s += aj[i] * piece[i];
                y[ky + (ptrdiff_t)j * incy] += alpha * s;
            }
        }
    }
}

/* Elements of A below which one thread reads the whole matrix. */
#define PARALLEL_GEMV_WORK ((size_t)1 << 18)

typedef struct {
    int trans;
    size_t rows, cols;
    float alpha, beta;
    const float *a, *x;
    size_t lda;
    ptrdiff_t incx, incy;
    float *y;
    size_t per_part; /* elements of y per part */
} gemv_split;

/* A block of y and the rows (y = A x) or columns (y = A^T x) of A behind it;
 * with a negative increment a block starts, in memory, at its last element. */
static void gemv_part(void *arg, size_t part)
{
    const gemv_split *s = arg;
    const size_t len_y = s->trans ? s->cols : s->rows, o0 = part * s->per_part;
    if (o0 >= len_y)
        return;
    const size_t no = min_size(s->per_part, len_y - o0), sy = oclblas__abs_inc(s->incy);
    float *yp = s->incy > 0 ? s->y + o0 * sy : s->y + (len_y - o0 - no) * sy;
    if (s->trans)
        gemv_colmajor(1, s->rows, no, s->alpha, s->a + o0 * s->lda, s->lda, s->x, s->incx, s->beta, yp, s->incy);
    else
        gemv_colmajor(0, no, s->cols, s->alpha, s->a + o0, s->lda, s->x, s->incx, s->beta, yp, s->incy);
}

static void gemv_parallel(int trans, size_t rows, size_t cols, float alpha, const float *a, size_t lda,
                          const float *x, ptrdiff_t incx, float beta, float *y, ptrdiff_t incy)
{
    const size_t len_y = trans ? cols : rows;
    size_t parts = oclblas__pool_threads();
    if (parts < 2 || alpha == 0.0f || rows * cols < PARALLEL_GEMV_WORK || len_y < 2 * 64) {
        gemv_colmajor(trans, rows, cols, alpha, a, lda, x, incx, beta, y, incy);
        return;
    }
    /* Blocks of y of at least 64 elements (a y = A x block is a piece of
     * every column: shorter pieces would waste the memory bus). */
    if (parts > len_y / 64)
        parts = len_y / 64;
    gemv_split s = {trans, rows, cols, alpha, beta, a, x, lda, incx, incy, y, 0};
    s.per_part = ceil_div(ceil_div(len_y, parts), 16) * 16;
    oclblas__pool_run(ceil_div(len_y, s.per_part), gemv_part, &s);
}

void oclblas__host_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                         const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                         ptrdiff_t incy)
{
    const int t = trans != OCLBLAS_NO_TRANS;
    if (layout == OCLBLAS_COL_MAJOR)
        gemv_parallel(t, m, n, alpha, a, lda, x, incx, beta, y, incy);
    else /* a row-major A is the column-major A^T */
        gemv_parallel(!t, n, m, alpha, a, lda, x, incx, beta, y, incy);
}
