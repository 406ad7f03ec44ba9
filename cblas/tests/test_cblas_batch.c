/*
 * The drop-in's batches, cblas_sgemm_batch_strided and cblas_sgemm_batch
 * (MKL's signatures), as a program linked against liboclblas_cblas sees
 * them, checked against a loop of OpenBLAS's own cblas_sgemm over the same
 * problems (OpenBLAS loaded beside the drop-in with dlopen, so that its
 * symbol is not the drop-in's): every element within a bound that grows
 * with k and the magnitude of the terms summed (reference.h's, from a
 * float64 sum), of the float64 sum and of OpenBLAS, and no element outside
 * the problems' outputs changed. Both layouts, the transposes, strides
 * tight, padded, 0 for A or B and interleaved for C, sizes for the host
 * and for the device kernels, beta 0 over NaN, alpha 0; groups of their
 * own shapes, empty groups. And bad arguments: this program's cblas_xerbla
 * receives the position in the batch call (layout 1) and the routine's
 * name, and C is left as it was.
 */
#include "oclblas_cblas.h"
#include "cblas_err.h"
#include "reference.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- OpenBLAS, the loop of single calls ----------------------------------- */

typedef void (*sgemm_fn)(CBLAS_LAYOUT, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, int, int, int, float, const float *, int,
                         const float *, int, float, float *, int);
static sgemm_fn openblas_sgemm;

static int load_openblas(void **state)
{
    (void)state;
    void *lib = dlopen(OPENBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "cannot load %s: %s\n", OPENBLAS_LIBRARY, dlerror());
        return -1;
    }
    /* The handle's own symbol (and its dependencies'), never the drop-in's. */
    openblas_sgemm = (sgemm_fn)(uintptr_t)dlsym(lib, "cblas_sgemm");
    return openblas_sgemm ? 0 : -1;
}

/* ---- one problem ---------------------------------------------------------- */

typedef struct {
    int row, ta, tb, m, n, k, lda, ldb, ldc;
    float alpha, beta;
} problem;

static const CBLAS_TRANSPOSE transposes[3] = {CblasNoTrans, CblasTrans, CblasConjTrans};

static int max1(int x) { return x > 1 ? x : 1; }

/* Stored lines and line length (tight) of A, B, C in the problem's layout. */
static void shapes(const problem *p, int lines[3], int len[3])
{
    const int t_a = p->ta != 0, t_b = p->tb != 0;
    const int rows[3] = {t_a ? p->k : p->m, t_b ? p->n : p->k, p->m};
    const int cols[3] = {t_a ? p->m : p->k, t_b ? p->k : p->n, p->n};
    for (int o = 0; o < 3; ++o) {
        lines[o] = p->row ? rows[o] : cols[o];
        len[o] = p->row ? cols[o] : rows[o];
    }
}

/* C after the drop-in (got), after OpenBLAS (obl), before both (c0): every
 * element of the m x n block within the bound of the float64 result and
 * within twice it of OpenBLAS's; returns the worst ratio of error to bound. */
static double check_problem(const problem *p, const float *a, const float *b, const float *c0, const float *got,
                            const float *obl)
{
    const int t_a = p->ta != 0, t_b = p->tb != 0;
    double worst = 0.0;
    for (int i = 0; i < p->m; ++i)
        for (int j = 0; j < p->n; ++j) {
            double sum = 0.0, mag = 0.0;
            if (p->alpha != 0.0f)
                for (int q = 0; q < p->k; ++q) {
                    const double t = ref_elem(p->row, t_a, a, (size_t)p->lda, (size_t)i, (size_t)q) *
                                     ref_elem(p->row, t_b, b, (size_t)p->ldb, (size_t)q, (size_t)j);
                    sum += t;
                    mag += fabs(t);
                }
            const double old = p->beta == 0.0f ? 0.0 : *ref_at(p->row, (float *)c0, (size_t)p->ldc, (size_t)i, (size_t)j);
            const double want = (double)p->alpha * sum + (double)p->beta * old;
            const double bound =
                (double)(p->k + 2) * FLT_EPSILON * (fabs((double)p->alpha) * mag + fabs((double)p->beta * old)) +
                FLT_MIN;
            const double g = *ref_at(p->row, (float *)got, (size_t)p->ldc, (size_t)i, (size_t)j);
            const double o = *ref_at(p->row, (float *)obl, (size_t)p->ldc, (size_t)i, (size_t)j);
            if (isnan(g) || isnan(o))
                return 1e300;
            const double r = fmax(fabs(g - want) / bound, fabs(g - o) / (2.0 * bound));
            if (r > worst)
                worst = r;
        }
    return worst;
}

/* Marks the elements of a C block (from its start) in mask. */
static void mark_block(const problem *p, unsigned char *mask)
{
    int lines[3], len[3];
    shapes(p, lines, len);
    for (int l = 0; l < lines[2]; ++l)
        memset(mask + (size_t)l * (size_t)p->ldc, 1, (size_t)len[2]);
}

/* Every element not marked is as it was. */
static int untouched_outside(const float *c, const float *c0, const unsigned char *mask, size_t count)
{
    for (size_t e = 0; e < count; ++e)
        if (!mask[e] && !(c[e] == c0[e] || (isnan(c[e]) && isnan(c0[e]))))
            return 0;
    return 1;
}

/* NaN in every element of a block where beta is 0: it must not be read. */
static void poison_block(const problem *p, float *c)
{
    if (p->beta != 0.0f)
        return;
    int lines[3], len[3];
    shapes(p, lines, len);
    for (int l = 0; l < lines[2]; ++l)
        for (int e = 0; e < len[2]; ++e)
            c[(size_t)l * (size_t)p->ldc + (size_t)e] = NAN;
}

/* ---- strided batches ------------------------------------------------------ */

/* One strided batch of count problems p; a stride below 0 asks for the
 * tight stride plus -stride - 1 elements of padding. */
static void strided_case(problem p, int count, int stride_a, int stride_b, int stride_c, unsigned seed)
{
    int lines[3], len[3];
    shapes(&p, lines, len);
    const int span[3] = {(lines[0] - 1) * p.lda + len[0], (lines[1] - 1) * p.ldb + len[1],
                         (lines[2] - 1) * p.ldc + len[2]};
    int stride[3] = {stride_a, stride_b, stride_c};
    for (int o = 0; o < 3; ++o)
        if (stride[o] < 0)
            stride[o] = lines[o] * (o == 0 ? p.lda : o == 1 ? p.ldb : p.ldc) - stride[o] - 1;
    size_t total[3];
    for (int o = 0; o < 3; ++o)
        total[o] = (size_t)(count - 1) * (size_t)stride[o] + (size_t)span[o] + 5;
    float *a = malloc(total[0] * sizeof *a), *b = malloc(total[1] * sizeof *b);
    float *c = malloc(total[2] * sizeof *c), *c0 = malloc(total[2] * sizeof *c0);
    float *obl = malloc(total[2] * sizeof *obl);
    unsigned char *mask = calloc(total[2], 1);
    assert_true(a && b && c && c0 && obl && mask);
    ref_fill(a, total[0], &seed);
    ref_fill(b, total[1], &seed);
    ref_fill(c, total[2], &seed);
    for (int i = 0; i < count; ++i) {
        poison_block(&p, c + (size_t)i * (size_t)stride[2]);
        mark_block(&p, mask + (size_t)i * (size_t)stride[2]);
    }
    memcpy(c0, c, total[2] * sizeof *c);
    memcpy(obl, c, total[2] * sizeof *c);
    const CBLAS_LAYOUT layout = p.row ? CblasRowMajor : CblasColMajor;
    for (int i = 0; i < count; ++i)
        openblas_sgemm(layout, transposes[p.ta], transposes[p.tb], p.m, p.n, p.k, p.alpha,
                       a + (size_t)i * (size_t)stride[0], p.lda, b + (size_t)i * (size_t)stride[1], p.ldb, p.beta,
                       obl + (size_t)i * (size_t)stride[2], p.ldc);
    cblas_err_reset();
    cblas_sgemm_batch_strided(layout, transposes[p.ta], transposes[p.tb], p.m, p.n, p.k, p.alpha, a, p.lda,
                              stride[0], b, p.ldb, stride[1], p.beta, c, p.ldc, stride[2], count);
    assert_int_equal(cblas_err.calls, 0);
    for (int i = 0; i < count; ++i) {
        const size_t at = (size_t)i * (size_t)stride[2];
        const double r = check_problem(&p, a + (size_t)i * (size_t)stride[0], b + (size_t)i * (size_t)stride[1],
                                       c0 + at, c + at, obl + at);
        if (r > 1.0)
            fail_msg("strided %s %d%d m %d n %d k %d lds %d %d %d strides %d %d %d, problem %d of %d: error %.3g x "
                     "bound",
                     p.row ? "row" : "col", p.ta, p.tb, p.m, p.n, p.k, p.lda, p.ldb, p.ldc, stride[0], stride[1],
                     stride[2], i, count, r);
    }
    if (!untouched_outside(c, c0, mask, total[2]))
        fail_msg("strided %s %d%d m %d n %d k %d: an element outside the problems changed", p.row ? "row" : "col",
                 p.ta, p.tb, p.m, p.n, p.k);
    free(a);
    free(b);
    free(c);
    free(c0);
    free(obl);
    free(mask);
}

/* A problem with leading dimensions tight plus pad. */
static problem make(int row, int ta, int tb, int m, int n, int k, float alpha, float beta, int pad)
{
    problem p = {row, ta, tb, m, n, k, 1, 1, 1, alpha, beta};
    int lines[3], len[3];
    shapes(&p, lines, len);
    p.lda = max1(len[0]) + pad;
    p.ldb = max1(len[1]) + pad;
    p.ldc = max1(len[2]) + pad;
    return p;
}

static void test_strided(void **state)
{
    (void)state;
    unsigned seed = 1;
    /* the host BLAS (batch work <= HOST_MAX^3), gemm_direct, gemm_fast */
    static const int sizes[][4] = {{3, 5, 4, 7}, {17, 9, 13, 40}, {40, 33, 50, 5}, {140, 130, 120, 3}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (int row = 0; row < 2; ++row)
            for (int ta = 0; ta < 3; ++ta)
                for (int tb = 0; tb < 2; ++tb) {
                    const int v = (int)s + ta + tb;
                    const problem p = make(row, ta, tb, sizes[s][0], sizes[s][1], sizes[s][2],
                                           v % 2 ? 1.0f : -1.5f, v % 3 == 0 ? 0.0f : 0.5f, v % 2);
                    /* strides tight, padded (-3: two more), A or B shared (0) */
                    strided_case(p, sizes[s][3], v % 3 == 1 ? 0 : -1, v % 3 == 2 ? 0 : -3, v % 2 ? -1 : -4, seed++);
                }
    /* batch 1, and a large batch of tiny problems */
    strided_case(make(1, 0, 1, 64, 48, 80, 1.0f, 1.0f, 0), 1, -1, -1, -1, seed++);
    strided_case(make(0, 1, 0, 4, 4, 4, 2.0f, 0.0f, 0), 1000, -1, -1, -1, seed++);
    /* alpha 0 and k 0: C = beta C, A and B unread */
    strided_case(make(0, 0, 0, 30, 20, 10, 0.0f, 2.0f, 1), 4, -1, -1, -1, seed++);
    strided_case(make(1, 0, 0, 30, 20, 0, 1.0f, -1.0f, 0), 4, -1, -1, -1, seed++);
}

/* Attention heads side by side in the rows of one row-major C: each
 * head's output is m x d inside a row of heads x d elements, the next
 * head d elements on (an interleaved stride that shares no element). */
static void test_strided_interleaved(void **state)
{
    (void)state;
    const int heads = 6, m = 37, d = 24, k = 45;
    problem p = make(1, 0, 1, m, d, k, 1.0f, 0.0f, 0);
    p.ldc = heads * d;
    strided_case(p, heads, -1, -1, d, 900);
    p.beta = 1.0f;
    p.row = 0; /* the same in column-major: heads stacked in the columns' rows */
    p.lda = m;
    p.ldb = d;
    p.ldc = heads * m;
    strided_case(p, heads, -1, -1, m, 901);
}

/* ---- grouped batches ------------------------------------------------------ */

static void test_grouped(void **state)
{
    (void)state;
    unsigned seed = 500;
    for (int row = 0; row < 2; ++row) {
        /* groups of their own shapes; one empty, one with m 0 */
        const problem groups[] = {
            make(row, 0, 0, 9, 7, 5, 1.0f, 0.0f, 0),     make(row, 1, 0, 50, 40, 30, -1.0f, 0.5f, 2),
            make(row, 0, 2, 130, 120, 110, 0.5f, 1.0f, 1), make(row, 1, 1, 3, 3, 3, 1.0f, 0.0f, 0),
            make(row, 0, 0, 0, 8, 8, 1.0f, 1.0f, 0),     make(row, 2, 1, 33, 65, 17, 2.0f, -1.0f, 3),
        };
        const int group_size[] = {4, 3, 2, 0, 2, 5};
        enum { G = sizeof groups / sizeof groups[0] };
        CBLAS_TRANSPOSE ta[G], tb[G];
        int m[G], n[G], k[G], lda[G], ldb[G], ldc[G];
        float alpha[G], beta[G];
        int count = 0;
        for (int g = 0; g < G; ++g) {
            ta[g] = transposes[groups[g].ta];
            tb[g] = transposes[groups[g].tb];
            m[g] = groups[g].m;
            n[g] = groups[g].n;
            k[g] = groups[g].k;
            lda[g] = groups[g].lda;
            ldb[g] = groups[g].ldb;
            ldc[g] = groups[g].ldc;
            alpha[g] = groups[g].alpha;
            beta[g] = groups[g].beta;
            count += group_size[g];
        }
        /* Each problem's operands in allocations of their own, C with a
         * margin after it that must stay as it was. */
        const float **a = calloc((size_t)count, sizeof *a), **b = calloc((size_t)count, sizeof *b);
        float **c = calloc((size_t)count, sizeof *c), **c0 = calloc((size_t)count, sizeof *c0);
        float **obl = calloc((size_t)count, sizeof *obl);
        size_t *c_count = calloc((size_t)count, sizeof *c_count);
        const problem **of = calloc((size_t)count, sizeof *of);
        assert_true(a && b && c && c0 && obl && c_count && of);
        int i = 0;
        for (int g = 0; g < G; ++g)
            for (int q = 0; q < group_size[g]; ++q, ++i) {
                const problem *p = &groups[g];
                int lines[3], len[3];
                shapes(p, lines, len);
                const size_t na = (size_t)max1(lines[0]) * (size_t)p->lda, nb = (size_t)max1(lines[1]) * (size_t)p->ldb;
                c_count[i] = (size_t)max1(lines[2]) * (size_t)p->ldc + 3;
                float *ai = malloc(na * sizeof(float)), *bi = malloc(nb * sizeof(float));
                c[i] = malloc(c_count[i] * sizeof(float));
                c0[i] = malloc(c_count[i] * sizeof(float));
                obl[i] = malloc(c_count[i] * sizeof(float));
                assert_true(ai && bi && c[i] && c0[i] && obl[i]);
                ref_fill(ai, na, &seed);
                ref_fill(bi, nb, &seed);
                ref_fill(c[i], c_count[i], &seed);
                poison_block(p, c[i]);
                memcpy(c0[i], c[i], c_count[i] * sizeof(float));
                memcpy(obl[i], c[i], c_count[i] * sizeof(float));
                a[i] = ai;
                b[i] = bi;
                of[i] = p;
                if (p->m > 0 && p->n > 0)
                    openblas_sgemm(row ? CblasRowMajor : CblasColMajor, ta[g], tb[g], p->m, p->n, p->k, p->alpha,
                                   ai, p->lda, bi, p->ldb, p->beta, obl[i], p->ldc);
            }
        cblas_err_reset();
        cblas_sgemm_batch(row ? CblasRowMajor : CblasColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                          G, group_size);
        assert_int_equal(cblas_err.calls, 0);
        for (i = 0; i < count; ++i) {
            const double r = check_problem(of[i], a[i], b[i], c0[i], c[i], obl[i]);
            if (r > 1.0)
                fail_msg("grouped %s problem %d (m %d n %d k %d): error %.3g x bound", row ? "row" : "col", i,
                         of[i]->m, of[i]->n, of[i]->k, r);
            unsigned char *mask = calloc(c_count[i], 1);
            assert_non_null(mask);
            if (of[i]->m > 0 && of[i]->n > 0)
                mark_block(of[i], mask);
            if (!untouched_outside(c[i], c0[i], mask, c_count[i]))
                fail_msg("grouped %s problem %d: an element outside its C changed", row ? "row" : "col", i);
            free(mask);
            free((void *)a[i]);
            free((void *)b[i]);
            free(c[i]);
            free(c0[i]);
            free(obl[i]);
        }
        free(a);
        free(b);
        free(c);
        free(c0);
        free(obl);
        free(c_count);
        free(of);
    }
}

/* ---- bad arguments -------------------------------------------------------- */

#define BAD 99 /* an enum value that is none */

static void test_strided_errors(void **state)
{
    (void)state;
    typedef struct {
        int layout, ta, tb, m, n, k, lda, sa, ldb, sb, ldc, sc, count, info;
    } strided_err;
    static const strided_err cases[] = {
        {BAD, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 4, 2, 4, 2, 4, 2, 1},
        {CblasColMajor, BAD, CblasNoTrans, 2, 2, 2, 2, 4, 2, 4, 2, 4, 2, 2},
        {CblasRowMajor, CblasNoTrans, BAD, 2, 2, 2, 2, 4, 2, 4, 2, 4, 2, 3},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, -1, 2, 2, 2, 4, 2, 4, 2, 4, 2, 4},
        {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, -1, 2, 2, 4, 2, 4, 2, 4, 2, 5},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, -1, 2, 4, 2, 4, 2, 4, 2, 6},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 2, 2, 2, 6, 2, 4, 3, 6, 2, 9},  /* lda < m */
        {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 2, 6, 2, 6, 2, 4, 2, 9},  /* lda < k */
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, -1, 2, 4, 2, 4, 2, 10},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 2, 6, 2, 6, 2, 4, 2, 12}, /* ldb < k */
        {CblasRowMajor, CblasNoTrans, CblasTrans, 2, 3, 2, 2, 4, 1, 6, 3, 6, 2, 12},  /* ldb < k (B^T: n x k) */
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 4, 2, -4, 2, 4, 2, 13},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 2, 2, 3, 6, 2, 4, 2, 6, 2, 16}, /* ldc < m */
        {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 3, 2, 2, 4, 3, 6, 2, 6, 2, 16}, /* ldc < n */
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 4, 2, 4, 2, -1, 2, 17},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 4, 2, 4, 2, 4, -1, 18},
        /* outputs that overlap: reported as stridec */
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 4, 2, 4, 2, 3, 2, 17},
        {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 4, 2, 4, 2, 0, 2, 17},
        /* the first bad one in the caller's order wins */
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 2, 2, 2, -1, 2, 4, 2, 4, 2, 9},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, -1, 1, 4, 1, -1, 2, 10},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, -1, 2, -1, 0, -1, 0, -1, 0, -1, -1, 4},
        /* legal: shared A and B, interleaved C, an empty batch */
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 0, 2, 0, 4, 2, 2, 0},
        {CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 4, 2, 4, 2, 0, 0, 0},
    };
    float a[32], b[32], c[32], c0[32];
    for (int i = 0; i < 32; ++i)
        a[i] = b[i] = c[i] = c0[i] = (float)i;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const strided_err *e = &cases[i];
        memcpy(c, c0, sizeof c);
        cblas_err_reset();
        cblas_sgemm_batch_strided((CBLAS_LAYOUT)e->layout, (CBLAS_TRANSPOSE)e->ta, (CBLAS_TRANSPOSE)e->tb, e->m, e->n,
                                  e->k, 1.0f, a, e->lda, e->sa, b, e->ldb, e->sb, 0.0f, c, e->ldc, e->sc, e->count);
        if (cblas_err.calls != (e->info ? 1 : 0) || (e->info && cblas_err.info != e->info))
            fail_msg("strided case %zu: %d reports, info %d, want %d", i, cblas_err.calls, cblas_err.info, e->info);
        if (e->info) {
            assert_string_equal(cblas_err.rout, "cblas_sgemm_batch_strided");
            assert_memory_equal(c, c0, sizeof c);
        }
    }
    cblas_err_reset();
    cblas_sgemm_batch_strided(CblasRowMajor, (CBLAS_TRANSPOSE)BAD, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, 4, b, 2, 4,
                              0.0f, c, 2, 4, 2);
    assert_string_equal(cblas_err.message, "Illegal TransA setting, 99\n");
    cblas_err_reset();
    cblas_sgemm_batch_strided((CBLAS_LAYOUT)7, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, 4, b, 2, 4, 0.0f, c,
                              2, 4, 2);
    assert_string_equal(cblas_err.message, "Illegal layout setting, 7\n");
}

static void test_grouped_errors(void **state)
{
    (void)state;
    float a0[16], b0[16], c0[16], c1[16], saved[32];
    for (int i = 0; i < 16; ++i)
        a0[i] = b0[i] = c0[i] = c1[i] = (float)i;
    memcpy(saved, c0, sizeof c0);
    memcpy(saved + 16, c1, sizeof c1);
    const float *a[2] = {a0, a0}, *b[2] = {b0, b0};
    float *c[2] = {c0, c1};
    /* two groups of one problem each; each case spoils one value */
    for (int cs = 0; cs < 13; ++cs) {
        CBLAS_TRANSPOSE ta[2] = {CblasNoTrans, CblasNoTrans}, tb[2] = {CblasNoTrans, CblasNoTrans};
        int m[2] = {2, 2}, n[2] = {2, 2}, k[2] = {2, 2}, lda[2] = {2, 2}, ldb[2] = {2, 2}, ldc[2] = {2, 2};
        int size[2] = {1, 1}, groups = 2, layout = CblasColMajor, want, group = 1;
        float alpha[2] = {1, 1}, beta[2] = {0, 0};
        float **cs_c = c;
        float *c_same[2] = {c0, c0};
        switch (cs) {
        case 0: layout = BAD; want = 1; group = -1; break;
        case 1: ta[1] = (CBLAS_TRANSPOSE)BAD; want = 2; break;
        case 2: tb[1] = (CBLAS_TRANSPOSE)BAD; want = 3; break;
        case 3: m[1] = -1; want = 4; break;
        case 4: n[1] = -1; want = 5; break;
        case 5: k[1] = -1; want = 6; break;
        case 6: m[1] = 3; want = 9; break;           /* lda < m */
        case 7: k[1] = 3; lda[1] = 3; want = 11; break; /* ldb < k */
        case 8: m[1] = 3; lda[1] = 3; want = 14; break; /* ldc < m */
        case 9: groups = -1; want = 15; group = -1; break;
        case 10: size[1] = -1; want = 16; break;
        case 11: cs_c = c_same; want = 13; group = -1; break; /* two problems, one C */
        default: want = 0; group = -1; break;
        }
        cblas_err_reset();
        cblas_sgemm_batch((CBLAS_LAYOUT)layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, cs_c, ldc, groups, size);
        if (cblas_err.calls != (want ? 1 : 0) || (want && cblas_err.info != want))
            fail_msg("grouped case %d: %d reports, info %d, want %d", cs, cblas_err.calls, cblas_err.info, want);
        if (want) {
            assert_string_equal(cblas_err.rout, "cblas_sgemm_batch");
            assert_memory_equal(c0, saved, sizeof c0);
            assert_memory_equal(c1, saved + 16, sizeof c1);
            if (group >= 0) {
                char msg[32];
                snprintf(msg, sizeof msg, "in group %d\n", group);
                assert_string_equal(cblas_err.message, msg);
            }
        } else {
            /* the legal case computed: restore for the next */
            memcpy(c0, saved, sizeof c0);
            memcpy(c1, saved + 16, sizeof c1);
        }
    }
    /* A NULL array that the groups read, with its position; none read
     * where there is no group. */
    CBLAS_TRANSPOSE t[1] = {CblasNoTrans};
    int two[1] = {2}, one[1] = {1};
    float alpha[1] = {1}, beta[1] = {0};
    cblas_err_reset();
    cblas_sgemm_batch(CblasColMajor, t, t, two, two, NULL, alpha, a, two, b, two, beta, c, two, 1, one);
    assert_int_equal(cblas_err.info, 6);
    cblas_err_reset();
    cblas_sgemm_batch(CblasColMajor, t, t, two, two, two, alpha, a, two, b, two, beta, NULL, two, 1, one);
    assert_int_equal(cblas_err.info, 13);
    cblas_err_reset();
    cblas_sgemm_batch(CblasColMajor, t, t, two, two, two, alpha, a, two, b, two, beta, c, two, 1, NULL);
    assert_int_equal(cblas_err.info, 16);
    cblas_err_reset();
    cblas_sgemm_batch(CblasColMajor, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0,
                      NULL);
    assert_int_equal(cblas_err.calls, 0);
    assert_memory_equal(c0, saved, sizeof c0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strided_errors), cmocka_unit_test(test_grouped_errors),
        cmocka_unit_test(test_strided),        cmocka_unit_test(test_strided_interleaved),
        cmocka_unit_test(test_grouped),
    };
    return cmocka_run_group_tests_name("liboclblas_cblas batches", tests, load_openblas, NULL);
}
