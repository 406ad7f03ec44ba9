/*
 * The batched calls against a float64 reference computed problem by
 * problem, with the error bound of the single calls (scaled by k and the
 * operands' magnitudes, src/util/verify.h): strided SGEMM on device buffers and
 * on host memory in both layouts, every pair of transposes, strides 0
 * (one A or B for every problem), tight and padded, padded leading
 * dimensions, offsets, odd sizes, batch 1 and batches of 1000 and of more
 * problems than one launch takes; through gemm_direct and through
 * gemm_fast (operands padded, transposed or read in place, along k too); outputs
 * interleaved in the rows of a larger C; the grouped form with mixed
 * shapes, problems packed one after the other and scattered; strided SGEMV
 * both ways with positive and negative increments. Every element of C (y)
 * outside the problems must come back bit for bit, and with beta = 0 the
 * problems' C starts as NaN. Bad arguments, each rule of the single calls
 * and the batches' own (overlapping outputs, buffers too small for the
 * last problem, NULL arrays), are refused with their status and write
 * nothing.
 */
#include "testutil.h"
#include "util/verify.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COL OCLBLAS_COL_MAJOR
#define ROW OCLBLAS_ROW_MAJOR
#define NT OCLBLAS_NO_TRANS
#define TR OCLBLAS_TRANS
#define CT OCLBLAS_CONJ_TRANS

static const oclblas_transpose transposes[] = {NT, TR, CT};

static size_t max1(size_t x) { return x > 1 ? x : 1; }

/* Element (r, c) of a stored matrix in a layout. */
static size_t at(int col, size_t r, size_t c, size_t ld) { return col ? r + c * ld : r * ld + c; }

static float *copy_of(const float *x, size_t n)
{
    float *y = malloc((n ? n : 1) * sizeof *y);
    assert_non_null(y);
    memcpy(y, x, n * sizeof *y);
    return y;
}

/* Fails unless got and want agree bit for bit outside the marked elements. */
static void assert_outside_untouched(const float *got, const float *want, const unsigned char *mark, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (!mark[i] && memcmp(&got[i], &want[i], sizeof(float)))
            fail_msg("element %zu outside every problem was written (%g, was %g)", i, (double)got[i], (double)want[i]);
}

/* ---- one SGEMM problem against float64 ----------------------------------------- */

/* The worst ratio of error to bound over C of one problem (c: the result,
 * c0: C before the call), marking C's elements. */
static double check_gemm(oclblas_layout layout, oclblas_transpose ta, oclblas_transpose tb, size_t m, size_t n,
                         size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb, float beta,
                         const float *c0, const float *c, size_t ldc, unsigned char *mark)
{
    const int col = layout == COL, tra = ta != NT, trb = tb != NT;
    double worst = 0.0;
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double sum = 0.0, mag = 0.0;
            for (size_t l = 0; l < k && alpha != 0.0f; ++l) {
                const double x = a[tra ? at(col, l, i, lda) : at(col, i, l, lda)];
                const double y = b[trb ? at(col, j, l, ldb) : at(col, l, j, ldb)];
                sum += x * y;
                mag += fabs(x * y);
            }
            const size_t e = at(col, i, j, ldc);
            double want = (double)alpha * sum;
            mag *= fabs((double)alpha);
            if (beta != 0.0f) {
                want += (double)beta * c0[e];
                mag += fabs((double)beta * c0[e]);
            }
            const double err = fabs((double)c[e] - want);
            const double r = isnan(c[e]) || isnan(err) ? INFINITY : err / oclblas__error_bound(k, mag);
            if (r > worst)
                worst = r;
            mark[e] = 1;
        }
    return worst;
}

/* ---- strided SGEMM -------------------------------------------------------------- */

/* Strides as the cases name them: relative to the operand's span. */
/* A batch's stride: 0, the operand's span, five more, or the span rounded
 * up to 16 elements (every problem aligned as the first for any vector width). */
enum { ZERO, TIGHT, PADDED, WHOLE };
static size_t stride_of(int kind, size_t span)
{
    return kind == ZERO ? 0 : kind == TIGHT ? span : kind == PADDED ? span + 5 : (span + 15) / 16 * 16;
}

typedef struct {
    oclblas_layout layout;
    oclblas_transpose ta, tb;
    size_t m, n, k;
    float alpha, beta;
    size_t pad;               /* added to every leading dimension */
    int sa, sb, sc;           /* stride kinds */
    size_t count;
    size_t a_off, b_off, c_off; /* device buffers; the host call starts at these elements of its arrays */
} gemm_case;

static cl_mem buffer_or_null(const tu_env *env, const float *x, size_t n) { return n ? tu_buffer(env, x, n) : NULL; }

/* One strided batch on device buffers (host 0) or host memory (host 1);
 * the worst error ratio over its problems. */
static double strided_gemm(const tu_env *env, int host, const gemm_case *g, unsigned seed)
{
    const int col = g->layout == COL, tra = g->ta != NT, trb = g->tb != NT;
    const size_t ar = tra ? g->k : g->m, ac = tra ? g->m : g->k, br = trb ? g->n : g->k, bc = trb ? g->k : g->n;
    const size_t lda = max1(col ? ar : ac) + g->pad, ldb = max1(col ? br : bc) + g->pad;
    const size_t ldc = max1(col ? g->m : g->n) + g->pad;
    const size_t span_a = tu_span(g->layout, ar, ac, lda), span_b = tu_span(g->layout, br, bc, ldb);
    const size_t span_c = tu_span(g->layout, g->m, g->n, ldc);
    const size_t sa = stride_of(g->sa, span_a), sb = stride_of(g->sb, span_b), sc = stride_of(g->sc, span_c);
    const size_t na = g->a_off + (g->count - 1) * sa + span_a + 3, nb = g->b_off + (g->count - 1) * sb + span_b + 3;
    const size_t nc = g->c_off + (g->count - 1) * sc + span_c + 3;
    float *a = tu_filled(na, &seed), *b = tu_filled(nb, &seed), *c = tu_filled(nc, &seed);
    if (g->beta == 0.0f) /* beta = 0 never reads C */
        for (size_t p = 0; p < g->count; ++p)
            for (size_t i = 0; i < g->m; ++i)
                for (size_t j = 0; j < g->n; ++j)
                    c[g->c_off + p * sc + at(col, i, j, ldc)] = NAN;
    float *c0 = copy_of(c, nc);
    oclblas_status st;
    if (host) {
        st = oclblas_sgemm_strided_batched(g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, a + g->a_off, lda, sa,
                                           b + g->b_off, ldb, sb, g->beta, c + g->c_off, ldc, sc, g->count);
    } else {
        cl_mem da = tu_buffer(env, a, na), db = tu_buffer(env, b, nb), dc = tu_buffer(env, c, nc);
        cl_event ev = NULL;
        st = oclblas_sgemm_strided_batched_cl(g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, da, g->a_off, lda,
                                              sa, db, g->b_off, ldb, sb, g->beta, dc, g->c_off, ldc, sc, g->count,
                                              env->queue, &ev);
        if (st == OCLBLAS_SUCCESS) {
            if (!ev)
                fail_msg("no event came back");
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
            tu_read(env, dc, c, nc);
        }
        clReleaseMemObject(da);
        clReleaseMemObject(db);
        clReleaseMemObject(dc);
    }
    if (st != OCLBLAS_SUCCESS)
        fail_msg("%s strided batch of %zu %zux%zux%zu: %s", host ? "host" : "device", g->count, g->m, g->n, g->k,
                 oclblas_status_string(st));
    unsigned char *mark = calloc(nc, 1);
    double worst = 0.0;
    for (size_t p = 0; p < g->count; ++p) {
        const double r = check_gemm(g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, a + g->a_off + p * sa, lda,
                                    b + g->b_off + p * sb, ldb, g->beta, c0 + g->c_off + p * sc,
                                    c + g->c_off + p * sc, ldc, mark + g->c_off + p * sc);
        if (r > worst)
            worst = r;
    }
    assert_outside_untouched(c, c0, mark, nc);
    free(a);
    free(b);
    free(c);
    free(c0);
    free(mark);
    return worst;
}

/* Sizes 1 to 33 (every one as m, n and k somewhere), odd sizes a batch
 * pads for gemm_fast, tile multiples for its in-place reads. */
static const size_t triples[][3] = {{1, 7, 5}, {7, 1, 16}, {5, 16, 1}, {16, 33, 7}, {33, 5, 16},
                                    {17, 9, 33}, {31, 30, 29}, {32, 32, 32}, {64, 32, 16}};
#define NTRIPLES (sizeof triples / sizeof triples[0])
static const float alphas[] = {1.0f, -1.5f, 0.75f, 0.0f, 2.0f};
static const float betas[] = {0.0f, 0.5f, 1.0f, 2.0f, 0.0f};

/* Both layouts, every pair of transposes, every size triple; the strides,
 * padding, offsets, scalars and batch counts turn over from case to case. */
static void sweep(const char *what, int host)
{
    tu_env env;
    tu_get_env(&env);
    int cases = 0, failures = 0;
    double worst = 0.0;
    static const size_t counts[] = {1, 3, 7, 2};
    for (int l = 0; l < 2; ++l)
        for (int ia = 0; ia < 3; ++ia)
            for (int ib = 0; ib < 3; ++ib)
                for (size_t t = 0; t < NTRIPLES; ++t) {
                    const int v = cases % 5;
                    const gemm_case g = {l ? ROW : COL, transposes[ia], transposes[ib],
                                         triples[t][0], triples[t][1], triples[t][2], alphas[v], betas[v],
                                         cases % 3 == 1 ? 3 : 0,
                                         cases % 4 == 0 ? ZERO : cases % 2 ? TIGHT : PADDED,
                                         cases % 4 == 2 ? ZERO : cases % 3 ? TIGHT : PADDED,
                                         cases % 2 ? PADDED : TIGHT,
                                         counts[cases % 4],
                                         cases % 2 ? 4 : 0, cases % 2 ? 2 : 0, cases % 2 ? 6 : 0};
                    const double r = strided_gemm(&env, host, &g, 777u + (unsigned)cases);
                    if (r > 1.0) {
                        print_message("%s: FAILED %s %c%c %zux%zux%zu x %zu alpha=%g beta=%g strides %d %d %d pad %zu: "
                                      "error %.3g x bound\n",
                                      what, l ? "row" : "col", "NTC"[ia], "NTC"[ib], g.m, g.n, g.k, g.count,
                                      (double)g.alpha, (double)g.beta, g.sa, g.sb, g.sc, g.pad, r);
                        ++failures;
                    }
                    if (r > worst)
                        worst = r;
                    ++cases;
                }
    print_message("%s: %d cases, worst error %.3g of the bound\n", what, cases, worst);
    assert_int_equal(failures, 0);
}

static void with_routine(const char *routine, const char *fast, const char *what, int host)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", routine);
    tu_override(&env, "gemm_fast", fast);
    sweep(what, host);
    tu_override(&env, "routine", NULL);
    tu_override(&env, "gemm_fast", NULL);
}

/* The database's parameters: small problems go to gemm_direct, a batch of the larger ones to gemm_fast. */
static void test_strided_cl(void **state)
{
    (void)state;
    sweep("strided, device buffers", 0);
}

/* Every batch through gemm_fast: operands padded, transposed, or read in
 * place with their strides (a tile of 16 with vectors of 4 and 2). */
static void test_strided_cl_fast(void **state)
{
    (void)state;
    with_routine("GEMM_MIN_INDIRECT=0",
                 "MWG=16,NWG=16,KWG=16,MDIMC=4,NDIMC=8,MDIMA=4,NDIMB=8,KWI=2,VWM=4,VWN=2,STRM=0,STRN=1,SA=1,SB=0",
                 "strided through gemm_fast", 0);
}

/* Every batch through gemm_cpu where the rules plan (on a device whose
 * entry gives the cost model no facts, the CPUs; a GPU's model weighs
 * only sets with measured rates, and runs what it finds fastest):
 * operands packed into panels, or read as stored with their strides
 * (B with k contiguous; A, B with n contiguous, small), their last panels
 * moved back to end at the edge; and batches with a long k whose A,
 * stored with k contiguous, it reads as B of C^T = B^T A^T, storing each
 * problem's C transposed, in both layouts, strides 0, tight and padded. */
static void test_strided_cl_cpu_kernel(void **state)
{
    (void)state;
    with_routine("GEMM_CPU=1,GEMM_MIN_INDIRECT=0", NULL, "strided through gemm_cpu", 0);
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "GEMM_CPU=1,GEMM_MIN_INDIRECT=0");
    const gemm_case cases[] = {
        {COL, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 40, 8, 300, 1.5f, 0.5f, 0, TIGHT, TIGHT, TIGHT, 3, 0, 0, 0},
        {COL, OCLBLAS_TRANS, OCLBLAS_TRANS, 37, 7, 301, -1.0f, 0.0f, 2, PADDED, ZERO, PADDED, 4, 3, 1, 2},
        {ROW, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 9, 45, 256, 1.0f, 1.0f, 1, ZERO, PADDED, TIGHT, 3, 0, 5, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const double r = strided_gemm(&env, 0, &cases[i], 4242u + (unsigned)i);
        if (r > 1.0)
            fail_msg("gemm_cpu, C transposed, case %zu: error %.3g x bound", i, r);
    }
    tu_override(&env, "routine", NULL);
}

/* A set with local memory for A and B (tile 32 x 32 x 16, vectors of 4
 * and 2): it reads operands in place along k. */
static const char *const staging_set =
    "MWG=32,NWG=32,KWG=16,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=2,VWM=4,VWN=2,STRM=1,STRN=0,SA=1,SB=1";

/* Batches whose operands are stored with k contiguous, read in place
 * along k by a set with local memory for A and B (tile 32 x 32 x 16,
 * vectors of 4 and 2): every layout and transpose pair on tile multiples,
 * strides 0, tight, padded (odd: through the helpers) and whole, leading
 * dimensions past the minimum in whole vectors or not, offsets likewise,
 * beta 0 over NaN. */
static void test_strided_cl_along_k(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "GEMM_MIN_INDIRECT=0");
    tu_override(&env, "gemm_fast", staging_set);
    static const size_t shapes[][3] = {{32, 32, 32}, {64, 32, 16}, {32, 96, 48}};
    static const size_t counts[] = {5, 1, 3, 8};
    int cases = 0;
    double worst = 0.0;
    for (int l = 0; l < 2; ++l)
        for (int ia = 0; ia < 2; ++ia)
            for (int ib = 0; ib < 2; ++ib)
                for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; ++t)
                    for (int kind = 0; kind < 4; ++kind, ++cases) {
                        const int v = cases % 5, odd = cases % 7 == 6;
                        const gemm_case g = {l ? ROW : COL, transposes[ia], transposes[ib],
                                             shapes[t][0], shapes[t][1], shapes[t][2], alphas[v], betas[v],
                                             odd ? 3 : cases % 2 ? 8 : 0, kind, (kind + 1 + l) % 4, 1 + kind % 3,
                                             counts[cases % 4], odd ? 1 : 8, cases % 3 ? 16 : 0, 4};
                        const double r = strided_gemm(&env, 0, &g, 4242u + (unsigned)cases);
                        if (r > 1.0)
                            fail_msg("along k: %s %c%c %zux%zux%zu x %zu strides %d %d %d pad %zu: error %.3g x bound",
                                     l ? "row" : "col", "NT"[ia], "NT"[ib], g.m, g.n, g.k, g.count, g.sa, g.sb, g.sc,
                                     g.pad, r);
                        worst = r > worst ? r : worst;
                    }
    tu_override(&env, "routine", NULL);
    tu_override(&env, "gemm_fast", NULL);
    print_message("strided along k: %d cases, worst error %.3g of the bound\n", cases, worst);
}

/* One batch shape called again and again (the thread reuses its last
 * batch's plan), its operands' offsets changing between calls so that the
 * plan must read them in place, then pad them, then in place again, and
 * the parameters changed by an override between two calls: every result
 * right, nothing outside C written. */
static void test_strided_cl_repeated(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "GEMM_MIN_INDIRECT=0");
    tu_override(&env, "gemm_fast", staging_set);
    static const size_t offsets[][3] = {{0, 0, 0}, {0, 0, 0}, {1, 3, 2}, {1, 3, 2}, {0, 0, 0}, {0, 0, 0}};
    double worst = 0.0;
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; ++i) {
        if (i == 4) /* a new snapshot of the parameters: the same tile, k in steps of 32 */
            tu_override(&env, "gemm_fast", "MWG=32,NWG=32,KWG=32,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=2,VWM=4,VWN=2,"
                                           "STRM=1,STRN=0,SA=1,SB=1");
        const gemm_case g = {COL, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 64, 32, 64, 1.5f, 0.5f, 0, TIGHT, TIGHT, TIGHT, 6,
                             offsets[i][0], offsets[i][1], offsets[i][2]};
        const double r = strided_gemm(&env, 0, &g, 9100u + (unsigned)i);
        if (r > 1.0)
            fail_msg("repeated batch, call %zu (offsets %zu %zu %zu): error %.3g x bound", i, offsets[i][0],
                     offsets[i][1], offsets[i][2], r);
        worst = r > worst ? r : worst;
    }
    tu_override(&env, "routine", NULL);
    tu_override(&env, "gemm_fast", NULL);
    print_message("repeated batch: worst error %.3g of the bound\n", worst);
}

/* Every batch through gemm_direct. */
static void test_strided_cl_direct(void **state)
{
    (void)state;
    with_routine("GEMM_MIN_INDIRECT=100000", NULL, "strided through gemm_direct", 0);
}

/* The host-pointer call on the device: copies packed (HOST_MAX 0: every batch to the device). */
static void test_host_strided(void **state)
{
    (void)state;
    with_routine("HOST_MAX=0", NULL, "strided, host memory on the device", 1);
}

/* And on the host BLAS (the database's HOST_MAX keeps these small batches there). */
static void test_host_strided_blas(void **state)
{
    (void)state;
    sweep("strided, host memory", 1);
}

/* Many small problems, more than one launch takes (65535), and a batch
 * whose C reaches past a lowered index limit: problem by problem on device
 * buffers, in chunks through host memory (test_batched_chunks). */
static void large_batches(int host)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "HOST_MAX=0");
    const gemm_case cases[] = {
        {COL, NT, TR, 5, 7, 3, 1.0f, 0.5f, 0, TIGHT, PADDED, TIGHT, 1000, 0, 0, 0},
        {ROW, TR, NT, 9, 4, 6, 1.5f, 0.0f, 1, ZERO, TIGHT, PADDED, 1000, 1, 3, 5},
        {COL, NT, NT, 2, 2, 2, 1.0f, 1.0f, 0, TIGHT, TIGHT, TIGHT, 70000, 0, 0, 0},
        /* 400000 elements of C: past a lowered index limit (test_batched_chunks) */
        {COL, TR, NT, 100, 100, 100, 1.0f, 0.5f, 0, ZERO, TIGHT, TIGHT, 40, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const double r = strided_gemm(&env, host, &cases[i], 99u + (unsigned)i);
        print_message("batch of %zu %zux%zux%zu (%s): worst error %.3g of the bound\n", cases[i].count, cases[i].m,
                      cases[i].n, cases[i].k, host ? "host memory" : "device buffers", r);
        assert_true(r <= 1.0);
    }
    tu_override(&env, "routine", NULL);
}

static void test_large_batches_cl(void **state)
{
    (void)state;
    large_batches(0);
}

static void test_host_large_batches(void **state)
{
    (void)state;
    large_batches(1);
}

/* Outputs side by side in the rows of one larger C (attention heads): C's
 * stride smaller than a problem's span, but no element shared. */
static void interleaved_outputs(int host)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "HOST_MAX=0");
    const size_t heads = 5, m = 6, n = 4, k = 3;
    for (int col = 0; col < 2; ++col) {
        /* Column-major: head h's C is rows [h m, h m + m) of a (heads m) x n matrix;
         * row-major: columns [h n, h n + n) of an m x (heads n) one. */
        const oclblas_layout layout = col ? COL : ROW;
        const size_t lda = (col ? m : k) + 1, ldb = col ? k : n;
        const size_t ldc = col ? heads * m : heads * n, stride_c = col ? m : n, nc = (col ? n : m) * ldc;
        const size_t sa = tu_span(layout, m, k, lda) + 1, sb = tu_span(layout, k, n, ldb);
        unsigned seed = 5u + (unsigned)(host * 2 + col);
        float *a = tu_filled(heads * sa, &seed), *b = tu_filled(heads * sb, &seed);
        float *c = tu_filled(nc, &seed), *c0 = copy_of(c, nc);
        oclblas_status st;
        if (host) {
            st = oclblas_sgemm_strided_batched(layout, NT, NT, m, n, k, 1.0f, a, lda, sa, b, ldb, sb, 0.5f, c, ldc,
                                               stride_c, heads);
        } else {
            cl_mem da = tu_buffer(&env, a, heads * sa), db = tu_buffer(&env, b, heads * sb);
            cl_mem dc = tu_buffer(&env, c, nc);
            st = oclblas_sgemm_strided_batched_cl(layout, NT, NT, m, n, k, 1.0f, da, 0, lda, sa, db, 0, ldb, sb,
                                                  0.5f, dc, 0, ldc, stride_c, heads, env.queue, NULL);
            if (st == OCLBLAS_SUCCESS)
                tu_read(&env, dc, c, nc);
            clReleaseMemObject(da);
            clReleaseMemObject(db);
            clReleaseMemObject(dc);
        }
        TU_CHECK(st);
        unsigned char *mark = calloc(nc, 1);
        for (size_t h = 0; h < heads; ++h)
            assert_true(check_gemm(layout, NT, NT, m, n, k, 1.0f, a + h * sa, lda, b + h * sb, ldb, 0.5f,
                                   c0 + h * stride_c, c + h * stride_c, ldc, mark + h * stride_c) <= 1.0);
        for (size_t i = 0; i < nc; ++i)
            assert_true(mark[i]); /* the heads cover C exactly */
        free(a);
        free(b);
        free(c);
        free(c0);
        free(mark);
    }
    tu_override(&env, "routine", NULL);
}

static void test_interleaved_outputs_cl(void **state)
{
    (void)state;
    interleaved_outputs(0);
}

static void test_host_interleaved_outputs(void **state)
{
    (void)state;
    interleaved_outputs(1);
}

/* ---- grouped SGEMM ---------------------------------------------------------------- */

/* Three groups of their own shapes, transposes and scalars (one whose
 * problems compute nothing: k = 0; one empty: m = 0), placed in three
 * arrays one after the other (order 0) or scattered (order 1: reversed,
 * gaps between). The worst error ratio. */
static double grouped(const tu_env *env, int host, oclblas_layout layout, int order, unsigned seed)
{
    enum { G = 5 };
    const oclblas_transpose ta[G] = {NT, TR, CT, NT, TR}, tb[G] = {TR, NT, CT, NT, NT};
    const size_t m[G] = {7, 16, 3, 4, 0}, n[G] = {5, 16, 9, 3, 4}, k[G] = {9, 16, 1, 0, 2};
    const float alpha[G] = {1.0f, -0.5f, 2.0f, 1.0f, 1.0f}, beta[G] = {0.0f, 1.5f, 0.5f, 2.0f, 1.0f};
    const size_t size[G] = {3, 40, 1, 2, 2};
    const int col = layout == COL;
    size_t lda[G], ldb[G], ldc[G], total = 0;
    for (int g = 0; g < G; ++g) {
        const size_t ar = ta[g] != NT ? k[g] : m[g], ac = ta[g] != NT ? m[g] : k[g];
        const size_t br = tb[g] != NT ? n[g] : k[g], bc = tb[g] != NT ? k[g] : n[g];
        lda[g] = max1(col ? ar : ac) + (size_t)(g % 2);
        ldb[g] = max1(col ? br : bc) + (size_t)(g % 3);
        ldc[g] = max1(col ? m[g] : n[g]) + (size_t)(g == 1);
        total += size[g];
    }
    /* Each problem's place in the three arrays. */
    size_t *off[3], end[3] = {0, 0, 0};
    for (int o = 0; o < 3; ++o)
        off[o] = malloc(total * sizeof *off[o]);
    for (size_t q = 0; q < total; ++q) {
        const size_t i = order ? total - 1 - q : q;
        size_t g = 0, first = 0;
        while (i >= first + size[g])
            first += size[g++];
        const size_t ar = ta[g] != NT ? k[g] : m[g], ac = ta[g] != NT ? m[g] : k[g];
        const size_t br = tb[g] != NT ? n[g] : k[g], bc = tb[g] != NT ? k[g] : n[g];
        const size_t span[3] = {tu_span(layout, ar, ac, lda[g]), tu_span(layout, br, bc, ldb[g]),
                                tu_span(layout, m[g], n[g], ldc[g])};
        for (int o = 0; o < 3; ++o) {
            off[o][i] = end[o] + (order ? 3 : 0);
            end[o] = off[o][i] + span[o];
        }
    }
    float *arr[3], *c0;
    for (int o = 0; o < 3; ++o)
        arr[o] = tu_filled(end[o] + 1, &seed);
    c0 = copy_of(arr[2], end[2] + 1);
    oclblas_status st;
    if (host) {
        const float **pa = malloc(total * sizeof *pa), **pb = malloc(total * sizeof *pb);
        float **pc = malloc(total * sizeof *pc);
        for (size_t i = 0; i < total; ++i) {
            pa[i] = arr[0] + off[0][i];
            pb[i] = arr[1] + off[1][i];
            pc[i] = arr[2] + off[2][i];
        }
        st = oclblas_sgemm_grouped_batched(layout, ta, tb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, G, size);
        free(pa);
        free(pb);
        free(pc);
    } else {
        cl_mem d[3];
        for (int o = 0; o < 3; ++o)
            d[o] = buffer_or_null(env, arr[o], end[o] + 1);
        cl_event ev = NULL;
        st = oclblas_sgemm_grouped_batched_cl(layout, ta, tb, m, n, k, alpha, d[0], off[0], lda, d[1], off[1], ldb,
                                              beta, d[2], off[2], ldc, G, size, env->queue, &ev);
        if (st == OCLBLAS_SUCCESS) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
            tu_read(env, d[2], arr[2], end[2] + 1);
        }
        for (int o = 0; o < 3; ++o)
            clReleaseMemObject(d[o]);
    }
    TU_CHECK(st);
    unsigned char *mark = calloc(end[2] + 1, 1);
    double worst = 0.0;
    for (size_t i = 0, g = 0, first = 0; i < total; ++i) {
        while (i >= first + size[g])
            first += size[g++];
        const double r = check_gemm(layout, ta[g], tb[g], m[g], n[g], k[g], alpha[g], arr[0] + off[0][i], lda[g],
                                    arr[1] + off[1][i], ldb[g], beta[g], c0 + off[2][i], arr[2] + off[2][i], ldc[g],
                                    mark + off[2][i]);
        if (r > worst)
            worst = r;
    }
    assert_outside_untouched(arr[2], c0, mark, end[2] + 1);
    for (int o = 0; o < 3; ++o) {
        free(arr[o]);
        free(off[o]);
    }
    free(c0);
    free(mark);
    return worst;
}

static void grouped_both_ways(int host)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "HOST_MAX=0");
    for (int l = 0; l < 2; ++l)
        for (int order = 0; order < 2; ++order) {
            const double r = grouped(&env, host, l ? ROW : COL, order, 31u + (unsigned)(4 * host + 2 * l + order));
            print_message("grouped, %s, %s-major, %s: worst error %.3g of the bound\n",
                          host ? "host memory" : "device buffers", l ? "row" : "column", order ? "scattered" : "packed",
                          r);
            assert_true(r <= 1.0);
        }
    tu_override(&env, "routine", NULL);
}

static void test_grouped_cl(void **state)
{
    (void)state;
    grouped_both_ways(0);
}

static void test_host_grouped(void **state)
{
    (void)state;
    grouped_both_ways(1);
}

/* ---- strided SGEMV ---------------------------------------------------------------- */

/* y_p = alpha op(A_p) x_p + beta y_p for every problem; the worst error ratio. */
static double strided_gemv(const tu_env *env, int host, oclblas_layout layout, oclblas_transpose trans, size_t m,
                           size_t n, float alpha, float beta, ptrdiff_t incx, ptrdiff_t incy, int sa_kind,
                           int sx_kind, size_t count, unsigned seed)
{
    const int col = layout == COL, t = trans != NT;
    const size_t lda = max1(col ? m : n) + 2, len_x = t ? m : n, len_y = t ? n : m;
    const size_t step_x = (size_t)(incx < 0 ? -incx : incx), step_y = (size_t)(incy < 0 ? -incy : incy);
    const size_t span_a = tu_span(layout, m, n, lda), span_x = (len_x - 1) * step_x + 1;
    const size_t span_y = (len_y - 1) * step_y + 1;
    const size_t sa = stride_of(sa_kind, span_a), sx = stride_of(sx_kind, span_x), sy = span_y + 1;
    const size_t na = (count - 1) * sa + span_a + 2, nx = (count - 1) * sx + span_x + 2;
    const size_t ny = (count - 1) * sy + span_y + 2;
    float *a = tu_filled(na, &seed), *x = tu_filled(nx, &seed), *y = tu_filled(ny, &seed);
    float *y0 = copy_of(y, ny);
    oclblas_status st;
    if (host) {
        st = oclblas_sgemv_strided_batched(layout, trans, m, n, alpha, a, lda, sa, x, incx, sx, beta, y, incy, sy,
                                           count);
    } else {
        cl_mem da = tu_buffer(env, a, na), dx = tu_buffer(env, x, nx), dy = tu_buffer(env, y, ny);
        st = oclblas_sgemv_strided_batched_cl(layout, trans, m, n, alpha, da, 0, lda, sa, dx, 0, incx, sx, beta, dy,
                                              0, incy, sy, count, env->queue, NULL);
        if (st == OCLBLAS_SUCCESS)
            tu_read(env, dy, y, ny);
        clReleaseMemObject(da);
        clReleaseMemObject(dx);
        clReleaseMemObject(dy);
    }
    TU_CHECK(st);
    unsigned char *mark = calloc(ny, 1);
    double worst = 0.0;
    for (size_t p = 0; p < count; ++p) {
        const float *ap = a + p * sa, *xp = x + p * sx;
        for (size_t i = 0; i < len_y; ++i) {
            double sum = 0.0, mag = 0.0;
            for (size_t j = 0; j < len_x && alpha != 0.0f; ++j) {
                const size_t xe = incx < 0 ? (len_x - 1 - j) * step_x : j * step_x;
                const double v = (double)ap[t ? at(col, j, i, lda) : at(col, i, j, lda)] * xp[xe];
                sum += v;
                mag += fabs(v);
            }
            const size_t ye = p * sy + (incy < 0 ? (len_y - 1 - i) * step_y : i * step_y);
            const double r = tu_gemv_output_ratio(sum, mag, len_x, alpha, beta, y0[ye], y[ye]);
            if (r > worst)
                worst = r;
            mark[ye] = 1;
        }
    }
    assert_outside_untouched(y, y0, mark, ny);
    free(a);
    free(x);
    free(y);
    free(y0);
    free(mark);
    return worst;
}

static void gemv_batches(int host)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "HOST_MAX=0");
    static const ptrdiff_t incs[][2] = {{1, 1}, {2, -1}, {-3, 2}, {1, -2}};
    int cases = 0;
    for (int l = 0; l < 2; ++l)
        for (int tr = 0; tr < 2; ++tr)
            for (size_t i = 0; i < sizeof incs / sizeof incs[0]; ++i, ++cases) {
                const size_t m = cases % 2 ? 37 : 9, n = cases % 3 ? 20 : 65;
                const size_t count = cases % 4 == 3 ? 1 : cases % 2 ? 6 : 3;
                const double r = strided_gemv(&env, host, l ? ROW : COL, tr ? TR : NT, m, n, cases % 5 ? 1.25f : 0.0f,
                                              cases % 3 ? 0.5f : 0.0f, incs[i][0], incs[i][1],
                                              cases % 3 == 0 ? ZERO : TIGHT, cases % 4 == 1 ? ZERO : PADDED, count,
                                              300u + (unsigned)(cases + 16 * host));
                if (r > 1.0)
                    fail_msg("sgemv batch %d (%s, %s, %c, incx %td, incy %td): error %.3g x bound", cases,
                             host ? "host" : "device", l ? "row" : "col", tr ? 'T' : 'N', incs[i][0], incs[i][1], r);
            }
    print_message("sgemv, %s: %d strided batches within the bound\n", host ? "host memory" : "device buffers", cases);
    tu_override(&env, "routine", NULL);
}

/* The batch as the third dimension of the gemv kernels and of gemv_reduce:
 * under the device's own sets and under those of the other kinds of
 * device (a GPU's interleaved vectors, a CPU's panel, columns shared by
 * work-items that reduce in local memory), with many splits (so that the
 * reduction runs over the batch too), aligned vector loads (strides of
 * whole vectors) and unaligned ones, on device buffers. */
static void test_gemv_kernel_batches(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    static const struct {
        const char *kernel, *params;
    } sets[] = {
        {NULL, NULL},
        {"gemv_n", "WGS=64,WPT=1,VW=4,UNR=4,STRM=1"},
        {"gemv_n", "WGS=8,WPT=4,VW=8,UNR=2,STRM=0"},
        {"gemv_n", "WGS=1,WPT=1,VW=8,UNR=4,STRM=2"},
        {"gemv_t", "WGS=64,TPC=8,VW=4,UNR=2"},
        {"gemv_t", "WGS=16,TPC=1,VW=8,UNR=2"},
    };
    int cases = 0;
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; ++s) {
        if (sets[s].kernel)
            tu_override(&env, sets[s].kernel, sets[s].params);
        for (int splits = 0; splits < 2; ++splits) {
            /* GEMV_GROUPS_PER_CU 64: far more work-groups wanted than the batch has, so the long side splits. */
            tu_override(&env, "routine", splits ? "HOST_MAX=0,GEMV_GROUPS_PER_CU=64" : "HOST_MAX=0");
            for (int l = 0; l < 2; ++l)
                for (int tr = 0; tr < 2; ++tr)
                    for (int aligned = 0; aligned < 2; ++aligned, ++cases) {
                        /* gemv_t where its reduction (the rows of the column-major
                         * A) is long enough to split; lda = 40, 304 or 1200: whole
                         * vectors up to 8 */
                        const int gemv_t = l ? !tr : tr;
                        const size_t m = gemv_t ? (l ? 38 : 1198) : (l ? 302 : 38);
                        const size_t n = gemv_t ? (l ? 1198 : 38) : (l ? 38 : 302);
                        const double r = strided_gemv(&env, 0, l ? ROW : COL, tr ? TR : NT, m, n, 1.0f,
                                                      aligned ? 0.0f : -0.5f, 1, aligned ? 1 : -2,
                                                      aligned ? WHOLE : PADDED, aligned ? WHOLE : TIGHT, 5,
                                                      900u + (unsigned)cases);
                        if (r > 1.0)
                            fail_msg("sgemv batch under %s %s, %s, %c, %ssplit, %saligned: error %.3g x bound",
                                     sets[s].kernel ? sets[s].kernel : "the device's sets",
                                     sets[s].params ? sets[s].params : "", l ? "row" : "col", tr ? 'T' : 'N',
                                     splits ? "" : "not ", aligned ? "" : "not ", r);
                    }
        }
        if (sets[s].kernel)
            tu_override(&env, sets[s].kernel, NULL);
    }
    tu_override(&env, "routine", NULL);
    print_message("sgemv: %d batches through the gemv kernels' batch dimension within the bound\n", cases);
}

static void test_gemv_cl(void **state)
{
    (void)state;
    gemv_batches(0);
}

static void test_host_gemv(void **state)
{
    (void)state;
    gemv_batches(1);
}

/* ---- bad arguments -------------------------------------------------------------- */

#define N 64
#define SENTINEL 4321.0f

typedef struct {
    tu_env env;
    cl_mem a, b, c, small;
    float host_a[N], host_b[N], host_c[N];
} fixture;

static int setup(void **state)
{
    static fixture f;
    tu_get_env(&f.env);
    for (int i = 0; i < N; ++i)
        f.host_a[i] = f.host_b[i] = f.host_c[i] = SENTINEL;
    f.a = tu_buffer(&f.env, f.host_a, N);
    f.b = tu_buffer(&f.env, f.host_b, N);
    f.c = tu_buffer(&f.env, f.host_c, N);
    f.small = tu_buffer(&f.env, f.host_c, 8);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    clReleaseMemObject(f->a);
    clReleaseMemObject(f->b);
    clReleaseMemObject(f->c);
    clReleaseMemObject(f->small);
    return 0;
}

static void assert_untouched(fixture *f)
{
    float got[N];
    tu_read(&f->env, f->c, got, N);
    for (int i = 0; i < N; ++i)
        if (got[i] != SENTINEL || f->host_c[i] != SENTINEL)
            fail_msg("element %d of C was written", i);
}

/* A strided batch of 2 x 2 x 2 problems, column-major unless said. */
typedef struct {
    oclblas_layout layout;
    oclblas_transpose ta, tb;
    size_t m, n, k, lda, sa, ldb, sb, ldc, sc, count;
    int a_null, b_null, c_null, small_c, no_queue;
    size_t c_off;
} bad_gemm;

static oclblas_status run_bad(fixture *f, int host, bad_gemm g)
{
    if (host)
        return oclblas_sgemm_strided_batched(g.layout, g.ta, g.tb, g.m, g.n, g.k, 1.0f, g.a_null ? NULL : f->host_a,
                                             g.lda, g.sa, g.b_null ? NULL : f->host_b, g.ldb, g.sb, 0.0f,
                                             g.c_null ? NULL : f->host_c, g.ldc, g.sc, g.count);
    cl_event ev = NULL;
    oclblas_status st = oclblas_sgemm_strided_batched_cl(
        g.layout, g.ta, g.tb, g.m, g.n, g.k, 1.0f, g.a_null ? NULL : f->a, 0, g.lda, g.sa, g.b_null ? NULL : f->b, 0,
        g.ldb, g.sb, 0.0f, g.c_null ? NULL : g.small_c ? f->small : f->c, g.c_off, g.ldc, g.sc, g.count,
        g.no_queue ? NULL : f->env.queue, &ev);
    if (st != OCLBLAS_SUCCESS && ev)
        fail_msg("an event came back with a failure");
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    return st;
}

/* 3 problems of 2 x 2 x 2: A and B 4 elements apart, C 16. */
static bad_gemm good(void) { return (bad_gemm){COL, NT, NT, 2, 2, 2, 2, 4, 2, 4, 2, 16, 3, 0, 0, 0, 0, 0, 0}; }

static void test_strided_invalid(void **state)
{
    fixture *f = *state;
    for (int host = 0; host < 2; ++host) {
        struct {
            oclblas_status want;
            bad_gemm g;
            int device_only;
        } cases[16];
        int n = 0;
#define CASE(status, field, value, dev)      \
    do {                                     \
        bad_gemm g_ = good();                \
        g_.field = value;                    \
        cases[n].want = status;              \
        cases[n].g = g_;                     \
        cases[n++].device_only = dev;        \
    } while (0)
        CASE(OCLBLAS_INVALID_LAYOUT, layout, (oclblas_layout)0, 0);
        CASE(OCLBLAS_INVALID_TRANS_A, ta, (oclblas_transpose)0, 0);
        CASE(OCLBLAS_INVALID_TRANS_B, tb, (oclblas_transpose)99, 0);
        CASE(OCLBLAS_INVALID_LDA, lda, 1, 0);
        CASE(OCLBLAS_INVALID_LDB, ldb, 1, 0);
        CASE(OCLBLAS_INVALID_LDC, ldc, 1, 0);
        CASE(OCLBLAS_NULL_A, a_null, 1, 0);
        CASE(OCLBLAS_NULL_B, b_null, 1, 0);
        CASE(OCLBLAS_NULL_C, c_null, 1, 0);
        CASE(OCLBLAS_NULL_QUEUE, no_queue, 1, 1);
        /* The last problem past the buffer's end: 8 problems of 4 elements, 16 apart. */
        CASE(OCLBLAS_BUFFER_C_TOO_SMALL, count, 8, 1);
        CASE(OCLBLAS_BUFFER_C_TOO_SMALL, small_c, 1, 1);
        CASE(OCLBLAS_BUFFER_C_TOO_SMALL, c_off, 61, 1);
        CASE(OCLBLAS_BATCH_OVERLAP, sc, 0, 0); /* every problem onto one C */
        CASE(OCLBLAS_BATCH_OVERLAP, sc, 1, 0); /* a stride shorter than a problem's column */
        CASE(OCLBLAS_BATCH_OVERLAP, sc, 2, 0); /* C_1's first column is C_0's second */
#undef CASE
        for (int i = 0; i < n; ++i) {
            if (host && cases[i].device_only)
                continue;
            const oclblas_status got = run_bad(f, host, cases[i].g);
            if (got != cases[i].want)
                fail_msg("%s case %d: %s, expected %s", host ? "host" : "device", i, oclblas_status_name(got),
                         oclblas_status_name(cases[i].want));
            assert_untouched(f);
        }
        /* The same, with a stride that interleaves the outputs without sharing an element: accepted. */
        bad_gemm ok = good();
        ok.ldc = 6;
        ok.sc = 2; /* C_p's columns at [2p, 2p + 2) and [6 + 2p, 6 + 2p + 2) */
        ok.count = 3;
        TU_CHECK(run_bad(f, host, ok));
        /* batch_count 0 does nothing, yet a bad argument is still refused. */
        bad_gemm none = good();
        none.count = 0;
        none.c_null = host;
        TU_CHECK(run_bad(f, host, none));
        none.lda = 1;
        assert_int_equal(run_bad(f, host, none), OCLBLAS_INVALID_LDA);
        /* Put C back for the next round. */
        for (int i = 0; i < N; ++i)
            f->host_c[i] = SENTINEL;
        clEnqueueWriteBuffer(f->env.queue, f->c, CL_TRUE, 0, sizeof f->host_c, f->host_c, 0, NULL, NULL);
        assert_untouched(f);
    }
}

/* A grouped batch whose second group breaks a rule: nothing written for the first either. */
static void test_grouped_invalid(void **state)
{
    fixture *f = *state;
    const oclblas_transpose t[2] = {NT, NT};
    const size_t m[2] = {2, 2}, n[2] = {2, 2}, k[2] = {2, 2}, lda[2] = {2, 2}, ldb[2] = {2, 2};
    const size_t bad_ldc[2] = {2, 1}, ldc[2] = {2, 2}, size[2] = {1, 1}, offs[2] = {0, 8}, overlap[2] = {0, 1};
    const float one[2] = {1.0f, 1.0f}, zero[2] = {0.0f, 0.0f};
    const float *pa[2] = {f->host_a, f->host_a + 8}, *pb[2] = {f->host_b, f->host_b + 8};
    float *pc[2] = {f->host_c, f->host_c + 8}, *pc_overlap[2] = {f->host_c, f->host_c + 1};
    float *pc_null[2] = {f->host_c, NULL};
    assert_int_equal(oclblas_sgemm_grouped_batched(COL, t, t, m, n, k, one, pa, lda, pb, ldb, zero, pc, bad_ldc, 2, size),
                     OCLBLAS_INVALID_LDC);
    assert_int_equal(oclblas_sgemm_grouped_batched(COL, t, t, m, n, k, one, pa, lda, pb, ldb, zero, pc_overlap, ldc, 2,
                                                   size),
                     OCLBLAS_BATCH_OVERLAP);
    assert_int_equal(oclblas_sgemm_grouped_batched(COL, t, t, m, n, k, one, pa, lda, pb, ldb, zero, pc_null, ldc, 2,
                                                   size),
                     OCLBLAS_NULL_C);
    assert_int_equal(oclblas_sgemm_grouped_batched(COL, t, t, m, n, k, one, pa, lda, pb, ldb, zero, pc, ldc, 2, NULL),
                     OCLBLAS_NULL_ARRAY);
    assert_int_equal(oclblas_sgemm_grouped_batched(COL, t, NULL, m, n, k, one, pa, lda, pb, ldb, zero, pc, ldc, 2, size),
                     OCLBLAS_NULL_ARRAY);
    cl_command_queue q = f->env.queue;
    assert_int_equal(oclblas_sgemm_grouped_batched_cl(COL, t, t, m, n, k, one, f->a, offs, lda, f->b, offs, ldb, zero,
                                                      f->c, offs, bad_ldc, 2, size, q, NULL),
                     OCLBLAS_INVALID_LDC);
    assert_int_equal(oclblas_sgemm_grouped_batched_cl(COL, t, t, m, n, k, one, f->a, offs, lda, f->b, offs, ldb, zero,
                                                      f->c, overlap, ldc, 2, size, q, NULL),
                     OCLBLAS_BATCH_OVERLAP);
    assert_int_equal(oclblas_sgemm_grouped_batched_cl(COL, t, t, m, n, k, one, f->a, offs, lda, f->b, offs, ldb, zero,
                                                      f->small, offs, ldc, 2, size, q, NULL),
                     OCLBLAS_BUFFER_C_TOO_SMALL);
    assert_int_equal(oclblas_sgemm_grouped_batched_cl(COL, t, t, m, n, k, one, f->a, NULL, lda, f->b, offs, ldb, zero,
                                                      f->c, offs, ldc, 2, size, q, NULL),
                     OCLBLAS_NULL_ARRAY);
    assert_untouched(f);
    /* No groups: nothing to do. */
    TU_CHECK(oclblas_sgemm_grouped_batched_cl(COL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                              NULL, NULL, NULL, NULL, NULL, 0, NULL, q, NULL));
    TU_CHECK(oclblas_sgemm_grouped_batched(COL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                           NULL, 0, NULL));
}

static void test_gemv_invalid(void **state)
{
    fixture *f = *state;
    cl_command_queue q = f->env.queue;
    /* 3 problems of a 4 x 2 A, x of 2, y of 4 (column-major, no transpose). */
    assert_int_equal(oclblas_sgemv_strided_batched_cl(COL, NT, 4, 2, 1.0f, f->a, 0, 3, 8, f->b, 0, 1, 2, 0.0f, f->c, 0,
                                                      1, 4, 3, q, NULL),
                     OCLBLAS_INVALID_LDA);
    assert_int_equal(oclblas_sgemv_strided_batched_cl(COL, NT, 4, 2, 1.0f, f->a, 0, 4, 8, f->b, 0, 0, 2, 0.0f, f->c, 0,
                                                      1, 4, 3, q, NULL),
                     OCLBLAS_INVALID_INCX);
    assert_int_equal(oclblas_sgemv_strided_batched_cl(COL, NT, 4, 2, 1.0f, f->a, 0, 4, 8, f->b, 0, 1, 2, 0.0f, f->c, 0,
                                                      1, 3, 3, q, NULL),
                     OCLBLAS_BATCH_OVERLAP);
    /* y with increment 2 and stride 1: problems interleave without sharing an element. */
    TU_CHECK(oclblas_sgemv_strided_batched_cl(COL, NT, 4, 2, 0.0f, f->a, 0, 4, 8, f->b, 0, 1, 2, 1.0f, f->c, 0, 2, 1,
                                              2, q, NULL));
    assert_int_equal(oclblas_sgemv_strided_batched_cl(COL, NT, 4, 2, 1.0f, f->a, 0, 4, 8, f->b, 0, 2, 2, 1.0f, f->c, 0,
                                                      2, 1, 3, q, NULL),
                     OCLBLAS_BATCH_OVERLAP); /* the third problem's y starts where the first's second element is */
    assert_int_equal(oclblas_sgemv_strided_batched_cl(COL, NT, 4, 2, 1.0f, f->a, 0, 4, 8, f->b, 0, 1, 2, 0.0f, f->small,
                                                      0, 1, 4, 3, q, NULL),
                     OCLBLAS_BUFFER_Y_TOO_SMALL);
    assert_int_equal(oclblas_sgemv_strided_batched_cl(COL, NT, 4, 2, 1.0f, f->a, 0, 4, 30, f->b, 0, 1, 2, 0.0f, f->c, 0,
                                                      1, 4, 3, q, NULL),
                     OCLBLAS_BUFFER_A_TOO_SMALL);
    assert_int_equal(oclblas_sgemv_strided_batched(COL, NT, 4, 2, 1.0f, f->host_a, 4, 8, f->host_b, 1, 2, 0.0f,
                                                   f->host_c, 1, 0, 3),
                     OCLBLAS_BATCH_OVERLAP);
    assert_int_equal(oclblas_sgemv_strided_batched(COL, NT, 4, 2, 1.0f, f->host_a, 4, 8, NULL, 1, 2, 0.0f, f->host_c, 1,
                                                   4, 3),
                     OCLBLAS_NULL_X);
    assert_untouched(f);
}

/* An argument picks the tests to run (a cmocka pattern: "test_host_*"). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strided_cl),
        cmocka_unit_test(test_strided_cl_fast),
        cmocka_unit_test(test_strided_cl_cpu_kernel),
        cmocka_unit_test(test_strided_cl_along_k),
        cmocka_unit_test(test_strided_cl_repeated),
        cmocka_unit_test(test_strided_cl_direct),
        cmocka_unit_test(test_host_strided),
        cmocka_unit_test(test_host_strided_blas),
        cmocka_unit_test(test_large_batches_cl),
        cmocka_unit_test(test_host_large_batches),
        cmocka_unit_test(test_interleaved_outputs_cl),
        cmocka_unit_test(test_host_interleaved_outputs),
        cmocka_unit_test(test_grouped_cl),
        cmocka_unit_test(test_host_grouped),
        cmocka_unit_test(test_gemv_cl),
        cmocka_unit_test(test_gemv_kernel_batches),
        cmocka_unit_test(test_host_gemv),
        cmocka_unit_test_setup_teardown(test_strided_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_grouped_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemv_invalid, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
