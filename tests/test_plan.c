/*
 * The plans as values, without any OpenCL device (ctest runs this with no
 * OpenCL platform visible): for given device facts and parameters, what an
 * SGEMM or SGEMV call enqueues. Which shapes are C = beta C or nothing,
 * which go to a gemv kernel and with which transposition and increments,
 * when gemm_direct serves, when gemm_fast reads an operand in place
 * (tile-aligned sizes, leading dimensions in whole vectors, aligned
 * addresses; stored either way, along k where its set has local memory for
 * it, by gemm_tc unless its set pairs k rows) and when a helper pads or
 * transposes it, where k is split and into how many slices (uneven last
 * slice, the caps), when a gemv splits its reduction; in the accurate and
 * tf32 math modes, when gemm_tc takes gemm_fast's place (capable device,
 * GEMM_TC_MIN), with which products, padding, operands in place and split
 * of k, and what the compiled-in database gives an H100 and a CPU; where
 * the entry gives the cost model's facts and rates, the choice among
 * kernels, sets and splits (never worse by the model than with fewer
 * ways), and what it gives an H200; strided batches (the batch as the
 * launches' third dimension of gemm_direct, gemm_fast and gemm_tc, its
 * crossovers, copies, in-place strides and caps, problems that run alone,
 * and the model's choice between one launch and a plan per problem); and
 * the launch geometry and arguments the descriptors give, the sizes they
 * derive, and legality on partial assignments.
 */
#include "db/db.h"
#include "kernels/gemm_cpu.h"
#include "kernels/gemm_direct.h"
#include "kernels/gemm_fast.h"
#include "kernels/gemm_tc.h"
#include "kernels/gemv_t.h"
#include "kernels/helpers.h"
#include "kernels/routine.h"
#include "plan/plan.h"
#include "util/util.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/* A GPU-like device: 132 compute units, 1024 work-items, 48 KiB local memory. */
static oclblas__device_info dev;
static oclblas__devctx cx;

static void set(int kernel, const char *text)
{
    oclblas__params p = {{0}};
    unsigned given = 0;
    assert_int_equal(oclblas__params_parse(kernel, text, &p, &given), OCLBLAS_SUCCESS);
    assert_int_equal(given, (1u << oclblas__kernels[kernel]->num_params) - 1);
    const char *why = NULL;
    if (!oclblas__params_legal(kernel, &p, &dev.lim, &why))
        fail_msg("%s: %s", text, why);
    cx.params[kernel] = p;
    cx.status[kernel] = OCLBLAS_SUCCESS;
}

static int setup(void **state)
{
    (void)state;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 132;
    dev.max_alloc = 20ull << 30;
    dev.lim = (oclblas__limits){1024, {1024, 1024, 64}, 48 * 1024, 90};
    memset(&cx, 0, sizeof cx);
    cx.dev = &dev;
    set(OCLBLAS__K_GEMM_FAST, "MWG=64,NWG=64,KWG=16,MDIMC=16,NDIMC=16,MDIMA=16,NDIMB=16,KWI=2,VWM=2,VWN=4,"
                              "STRM=1,STRN=1,SA=1,SB=1");
    set(OCLBLAS__K_GEMM_DIRECT, "WGD=32,KWGD=16,MDIMCD=8,NDIMCD=8,KWID=2,PADA=1,PADB=1");
    set(OCLBLAS__K_HELPERS, "PAD_DIMX=32,PAD_DIMY=8,PAD_WPTX=2,PAD_WPTY=1,TRA_DIM=16,TRA_WPT=2,TRA_PAD=1");
    set(OCLBLAS__K_GEMV_N, "WGS=128,WPT=2,VW=4,UNR=4,STRM=1");
    set(OCLBLAS__K_GEMV_T, "WGS=128,TPC=16,VW=4,UNR=2");
    /* The default entry's tensor-core set, never chosen unless a test sets GEMM_TC_MIN. */
    set(OCLBLAS__K_GEMM_TC, "BM=128,BN=128,BK=16,WM=64,WN=32,STAGES=2,CP_ASYNC=0,SPLIT=0,PADA=8,PADB=8,PRODUCTS=1,"
                            "PROMOTE=2,LOOP=1,FRAGV=1,CHUNK=0,KPAIR=0");
    set(OCLBLAS__K_ROUTINE, "GEMM_MIN_INDIRECT=100,GEMV_GROUPS_PER_CU=4,HOST_MAX=0,GEMM_SPLIT_K=4,GEMM_TC_MIN=0,"
                            "GEMM_MAX_SLICE_K=0,GEMV_T_GROUPS_PER_CU=0,GEMM_CPU=0");
    return 0;
}

static void routine(int index, int value) { cx.params[OCLBLAS__K_ROUTINE].v[index] = value; }

/* A column-major SGEMM with leading dimensions equal to the stored rows,
 * offsets 0 and the widest alignment. */
static oclblas__gemm_problem gemm(int at, int bt, size_t m, size_t n, size_t k)
{
    return (oclblas__gemm_problem){at, bt, m, n, k, 1.5f, 0.5f,
                                   {0, at ? k : m, 0, OCLBLAS__MAX_ALIGN},
                                   {0, bt ? n : k, 0, OCLBLAS__MAX_ALIGN},
                                   {0, m, 0, 0},
                                   OCLBLAS_MATH_STRICT};
}

static oclblas__plan batch_plan_of(const oclblas__gemm_problem *p, size_t count, size_t sa, size_t sb, size_t sc);

static oclblas__plan plan_of(const oclblas__gemm_problem *p)
{
    oclblas__plan plan;
    assert_int_equal(oclblas__gemm_plan(&cx, p, &plan), OCLBLAS_SUCCESS);
    return plan;
}

static int arg_i(const oclblas__step *s, int i)
{
    assert_true(i < s->num_args);
    assert_int_equal(s->args[i].kind, OCLBLAS__ARG_INT);
    return s->args[i].u.i;
}

static float arg_f(const oclblas__step *s, int i)
{
    assert_int_equal(s->args[i].kind, OCLBLAS__ARG_FLOAT);
    return s->args[i].u.f;
}

static oclblas__buf arg_b(const oclblas__step *s, int i)
{
    assert_int_equal(s->args[i].kind, OCLBLAS__ARG_BUF);
    return s->args[i].u.buf;
}

/* ---- trivial cases ------------------------------------------------------- */

static void test_scale_and_nothing(void **state)
{
    (void)state;
    oclblas__gemm_problem p = gemm(0, 0, 70, 50, 0); /* k = 0 */
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_SCALE);
    assert_int_equal(plan.num_steps, 1);
    const oclblas__step *s = &plan.step[0];
    assert_string_equal(s->entry, "scale_matrix");
    /* Work-groups of 32 x 8 covering 64 x 8 elements each. */
    assert_int_equal(s->geo.dims, 2);
    assert_int_equal(s->geo.local[0], 32);
    assert_int_equal(s->geo.local[1], 8);
    assert_int_equal(s->geo.global[0], 2 * 32);
    assert_int_equal(s->geo.global[1], 7 * 8);
    assert_true(arg_f(s, 2) == 0.5f);
    assert_int_equal(arg_b(s, 3), OCLBLAS__BUF_C);
    assert_int_equal(plan.scratch[0] + plan.scratch[1] + plan.scratch[2], 0);

    p = gemm(1, 1, 70, 50, 30);
    p.alpha = 0.0f; /* A and B are not read */
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_SCALE);

    p.beta = 1.0f; /* C stays as it is */
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_NOTHING);
    assert_int_equal(plan.num_steps, 0);
}

/* ---- one row or one column of C: gemv ------------------------------------- */

/* gemv's arguments: rows, cols, alpha, beta, a, a_off, a_ld, x, x_off, incx, y, y_off, incy, chunk, partial, vec. */
static void test_gemm_as_gemv(void **state)
{
    (void)state;
    /* n = 1: c = op(A) b, A's own buffer and orientation. */
    oclblas__gemm_problem p = gemm(0, 0, 300, 1, 40);
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_GEMV);
    assert_string_equal(plan.step[0].entry, "gemv_n");
    assert_int_equal(arg_i(&plan.step[0], 0), 300);
    assert_int_equal(arg_i(&plan.step[0], 1), 40);
    assert_int_equal(arg_b(&plan.step[0], 4), OCLBLAS__BUF_A);
    assert_int_equal(arg_b(&plan.step[0], 7), OCLBLAS__BUF_B);
    assert_int_equal(arg_i(&plan.step[0], 9), 1); /* b's column, contiguous */

    /* n = 1 with B transposed: b's column is a row of B, ldb apart. */
    p = gemm(1, 1, 300, 1, 40);
    p.b.ld = 7;
    plan = plan_of(&p);
    assert_string_equal(plan.step[0].entry, "gemv_t");
    assert_int_equal(arg_i(&plan.step[0], 0), 40); /* A stored k x m */
    assert_int_equal(arg_i(&plan.step[0], 1), 300);
    assert_int_equal(arg_i(&plan.step[0], 9), 7);

    /* m = 1: c^T = op(B)^T a^T, B the matrix, a's row as x, C's row as y. */
    p = gemm(0, 0, 1, 300, 40);
    p.a.ld = 5;
    p.c.ld = 3;
    p.c.offset = 11;
    plan = plan_of(&p);
    assert_string_equal(plan.step[0].entry, "gemv_t"); /* B stored k x n, not transposed */
    assert_int_equal(arg_i(&plan.step[0], 0), 40);
    assert_int_equal(arg_i(&plan.step[0], 1), 300);
    assert_int_equal(arg_b(&plan.step[0], 4), OCLBLAS__BUF_B);
    assert_int_equal(arg_b(&plan.step[0], 7), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(&plan.step[0], 9), 5);  /* a's row: lda apart */
    assert_int_equal(arg_i(&plan.step[0], 11), 11);
    assert_int_equal(arg_i(&plan.step[0], 12), 3); /* C's row: ldc apart */

    p = gemm(1, 1, 1, 300, 40);
    plan = plan_of(&p);
    assert_string_equal(plan.step[0].entry, "gemv_n"); /* B stored n x k */
    assert_int_equal(arg_i(&plan.step[0], 0), 300);
    assert_int_equal(arg_i(&plan.step[0], 9), 1); /* A stored k x 1: a's row is contiguous */
}

/* ---- direct or gemm_fast -------------------------------------------------- */

static void test_crossover(void **state)
{
    (void)state;
    /* GEMM_MIN_INDIRECT = 100: below 100^3 multiply-adds gemm_direct serves. */
    oclblas__gemm_problem p = gemm(1, 0, 100, 100, 99);
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    assert_int_equal(plan.num_steps, 1);
    assert_string_equal(plan.step[0].entry, "gemm_direct_tn");
    /* WGD 32 tiles with 8 x 8 work-items. */
    assert_int_equal(plan.step[0].geo.global[0], 4 * 8);
    assert_int_equal(plan.step[0].geo.global[1], 4 * 8);
    assert_int_equal(plan.scratch[0] + plan.scratch[1] + plan.scratch[2], 0);

    p = gemm(0, 1, 100, 100, 100);
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);

    routine(RT_GEMM_MIN_INDIRECT, 0); /* every product through gemm_fast */
    p = gemm(0, 0, 2, 2, 2);
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    routine(RT_GEMM_MIN_INDIRECT, 100);
}

/* gemm_fast's arguments: M, N, K, k_slice, c_slice, alpha, beta, a, a_off, a_ld, b, b_off, b_ld, c, c_off, c_ld. */
static void test_in_place(void **state)
{
    (void)state;
    /* NT, sizes multiples of the 64 x 64 x 16 tile: both read where they are. */
    oclblas__gemm_problem p = gemm(0, 1, 256, 512, 128);
    p.a.offset = 2; /* a whole vector of VWM = 2 */
    p.a.align = 8;
    p.a.ld = 258;
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_true(plan.fast.a_in_place && plan.fast.b_in_place);
    assert_int_equal(plan.fast.slices, 1);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(plan.main, 0);
    const oclblas__step *s = &plan.step[0];
    assert_string_equal(s->entry, "gemm_fast");
    assert_int_equal(arg_b(s, 7), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(s, 8), 1);   /* offset in vectors of VWM */
    assert_int_equal(arg_i(s, 9), 129); /* lda in vectors */
    assert_int_equal(arg_i(s, 12), 512 / 4);
    assert_int_equal(s->geo.dims, 3);
    assert_int_equal(s->geo.global[0], 4 * 16);
    assert_int_equal(s->geo.global[1], 8 * 16);
    assert_int_equal(s->geo.global[2], 1);
    assert_int_equal(plan.scratch[0] + plan.scratch[1] + plan.scratch[2], 0);
    assert_false(s->after_scratch);

    /* Each condition alone sends A through pad_copy into scratch slot 0. */
    const struct {
        size_t m, lda, off;
        unsigned align;
    } not_a[] = {{251, 251, 0, 32}, /* m neither a tile multiple nor whole vectors */
                 {256, 257, 0, 32}, /* lda not in whole vectors */
                 {256, 256, 1, 4},  /* offset not a whole vector */
                 {256, 256, 0, 4}}; /* the buffer's start not aligned to a vector */
    for (size_t i = 0; i < sizeof not_a / sizeof not_a[0]; ++i) {
        p = gemm(0, 1, not_a[i].m, 512, 128);
        p.a.ld = not_a[i].lda;
        p.a.offset = not_a[i].off;
        p.a.align = not_a[i].align;
        plan = plan_of(&p);
        assert_false(plan.fast.a_in_place);
        assert_false(plan.fast.a_transposed);
        assert_true(plan.fast.b_in_place);
        assert_int_equal(plan.num_steps, 2);
        assert_string_equal(plan.step[0].entry, "pad_copy");
        assert_true(plan.step[0].after_scratch);
        assert_int_equal(plan.step[1].after, 1u << 0);
        assert_int_equal(plan.scratch[0], 256 * 128 * sizeof(float));
        assert_int_equal(arg_b(&plan.step[1], 7), OCLBLAS__BUF_S0);
        assert_int_equal(arg_i(&plan.step[1], 9), 256 / 2); /* the padded A's leading dimension */
    }
    /* k not a multiple of KWG: read in place by the set's program for such
     * a k (it stages both operands through local memory), the kernel given
     * the real k; whole tiles of k never run that program. */
    p = gemm(0, 1, 256, 512, 120);
    plan = plan_of(&p);
    assert_true(plan.fast.a_in_place && plan.fast.b_in_place && plan.fast.peeled);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(plan.fast.kp, 128);
    assert_int_equal(arg_i(&plan.step[0], 2), 120);
    assert_int_equal(plan.step[0].params.v[GF_PEELED], 1);
    p = gemm(0, 1, 256, 512, 128);
    plan = plan_of(&p);
    assert_false(plan.fast.peeled);
    assert_int_equal(plan.step[0].params.v[GF_PEELED], 0);
    /* Without local memory for A, no such program: both padded, k with them. */
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = 0;
    p = gemm(0, 1, 256, 512, 120);
    plan = plan_of(&p);
    assert_false(plan.fast.a_in_place || plan.fast.b_in_place || plan.fast.peeled);
    assert_int_equal(arg_i(&plan.step[plan.main], 2), 128);
    assert_int_equal(plan.step[plan.main].params.v[GF_PEELED], 0);
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = 1;
    /* m and n not whole tiles but at least one and whole vectors (m of A,
     * n of B: their contiguous extents): read in place by any set, the
     * edge tiles moved back; the grid covers m and n in whole tiles. */
    for (int sa = 1; sa >= 0; --sa) {
        cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = sa;
        p = gemm(0, 1, 250, 500, 128);
        plan = plan_of(&p);
        assert_true(plan.fast.a_in_place && plan.fast.b_in_place);
        assert_int_equal(plan.num_steps, 1);
        assert_int_equal(arg_i(&plan.step[0], 0), 250);
        assert_int_equal(arg_i(&plan.step[0], 1), 500);
        assert_int_equal(plan.step[0].geo.global[0], 4 * 16);
        assert_int_equal(plan.step[0].geo.global[1], 8 * 16);
    }
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = 1;
    /* Ragged rows fewer than a tile (the tile cannot move back to end at
     * the edge): padded. */
    p = gemm(0, 1, 40, 500, 128);
    plan = plan_of(&p);
    assert_false(plan.fast.a_in_place);
    assert_true(plan.fast.b_in_place);
    /* A transposed and B not, tile multiples: both read in place along k
     * (the set has local memory for both). */
    p = gemm(1, 0, 256, 512, 128);
    plan = plan_of(&p);
    assert_true(plan.fast.a_in_place && plan.fast.b_in_place);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous);
    assert_false(plan.fast.a_transposed || plan.fast.b_transposed);
    assert_int_equal(plan.num_steps, 1);
    /* Neither m nor n tile multiples, but at least a tile and whole
     * vectors: both read in place along k, the edge tiles moved back. */
    p = gemm(1, 0, 250, 500, 128);
    plan = plan_of(&p);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 1);
    /* k not whole tiles but whole vectors of both widths: the same, by the
     * set's program for such a k. */
    p = gemm(1, 0, 250, 500, 120);
    plan = plan_of(&p);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous && plan.fast.peeled);
    assert_int_equal(plan.num_steps, 1);
    /* k neither whole tiles nor whole vectors: pad_transpose, both; gemm_fast's program is taken first. */
    p = gemm(1, 0, 250, 500, 127);
    plan = plan_of(&p);
    assert_true(plan.fast.a_transposed && plan.fast.b_transposed);
    assert_false(plan.fast.a_k_contiguous || plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 3);
    assert_int_equal(plan.main, 2);
    assert_string_equal(plan.step[0].entry, "pad_transpose");
    assert_string_equal(plan.step[1].entry, "pad_transpose");
    assert_int_equal(plan.step[2].after, 3u);
    /* pad_transpose's 16 x 16 work-groups cover 32 x 32 of the padded 256 x 128. */
    assert_int_equal(plan.step[0].geo.global[0], 8 * 16);
    assert_int_equal(plan.step[0].geo.global[1], 4 * 16);
    /* A leading dimension whose indices would overflow the kernel's int. */
    p = gemm(0, 1, 256, 512, 128);
    p.a.ld = (size_t)INT_MAX / 128 + 1; /* even, but past INT_MAX / kp */
    plan = plan_of(&p);
    assert_false(plan.fast.a_in_place);
}

/* An operand stored with k contiguous (A transposed, B not, column-major)
 * is read in place along k by a set with local memory for it, tile-aligned
 * and in whole vectors as any in-place operand; not by a set without local
 * memory for it or whose KWG is not whole vectors. gemm_tc reads it so too,
 * unless its set stages k rows in pairs (KPAIR). */
static void test_in_place_along_k(void **state)
{
    (void)state;
    /* TN, tile multiples, lda past the minimum, A's offset a whole vector: one launch. */
    oclblas__gemm_problem p = gemm(1, 0, 256, 512, 128);
    p.a.ld = 130;
    p.a.offset = 4;
    p.a.align = 8;
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_true(plan.fast.a_in_place && plan.fast.a_k_contiguous);
    assert_true(plan.fast.b_in_place && plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(plan.scratch[0] + plan.scratch[1] + plan.scratch[2], 0);
    const oclblas__step *s = &plan.step[0];
    assert_int_equal(s->num_args, 20);
    assert_int_equal(arg_b(s, 7), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(s, 8), 2);       /* offset 4 in vectors of VWM = 2 */
    assert_int_equal(arg_i(s, 9), 65);      /* lda 130: the vectors of k of a row of A */
    assert_int_equal(arg_i(s, 12), 128 / 4); /* ldb in vectors of VWN = 4 */
    assert_int_equal(arg_i(s, 18), 1);      /* A stored with k contiguous */
    assert_int_equal(arg_i(s, 19), 1);      /* B too */
    /* NT keeps the layouts read before: flags 0. */
    p = gemm(0, 1, 256, 512, 128);
    plan = plan_of(&p);
    assert_true(plan.fast.a_in_place && plan.fast.b_in_place);
    assert_false(plan.fast.a_k_contiguous || plan.fast.b_k_contiguous);
    assert_int_equal(arg_i(&plan.step[0], 18) + arg_i(&plan.step[0], 19), 0);

    /* Each condition alone sends A through pad_transpose, B still in place along k. */
    const struct {
        size_t m, k, lda, off;
        unsigned align;
    } not_a[] = {{251, 128, 128, 0, 32},                    /* m neither a tile multiple nor whole vectors */
                 {256, 125, 126, 0, 32},                    /* k neither whole tiles nor whole vectors (nor B's) */
                 {256, 128, 129, 0, 32},                    /* lda not whole vectors of k */
                 {256, 128, 128, 1, 4},                     /* offset not a whole vector */
                 {256, 128, 128, 0, 4},                     /* the buffer's start not aligned */
                 {256, 128, (size_t)INT_MAX / 256 + 1, 0, 32}}; /* m * lda past the kernel's int */
    for (size_t i = 0; i < sizeof not_a / sizeof not_a[0]; ++i) {
        p = gemm(1, 0, not_a[i].m, 512, not_a[i].k);
        p.a.ld = not_a[i].lda + (not_a[i].lda % 2 && i == 5); /* the last one even */
        p.a.offset = not_a[i].off;
        p.a.align = not_a[i].align;
        plan = plan_of(&p);
        assert_false(plan.fast.a_in_place || plan.fast.a_k_contiguous);
        assert_true(plan.fast.a_transposed);
        assert_string_equal(plan.step[0].entry, "pad_transpose");
        assert_int_equal(plan.fast.b_in_place, not_a[i].k == 128);
        assert_int_equal(arg_i(&plan.step[plan.main], 18), 0);
    }
    /* The same lda is fine where k runs down it (NN: k * lda within the int). */
    p = gemm(0, 0, 256, 512, 128);
    p.a.ld = (size_t)INT_MAX / 256 + 1 + ((size_t)INT_MAX / 256 + 1) % 2;
    assert_true(plan_of(&p).fast.a_in_place);

    /* A set without local memory for A reads only an A with m contiguous in place. */
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = 0;
    p = gemm(1, 0, 256, 512, 128);
    plan = plan_of(&p);
    assert_true(plan.fast.a_transposed && plan.fast.b_k_contiguous);
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = 1;
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SB] = 0;
    plan = plan_of(&p);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_transposed);
    /* KWG = 4 is not whole vectors of VWM = 8: A transposed; B (VWN = 2) along k. */
    set(OCLBLAS__K_GEMM_FAST, "MWG=128,NWG=32,KWG=4,MDIMC=8,NDIMC=8,MDIMA=16,NDIMB=16,KWI=4,VWM=8,VWN=2,"
                              "STRM=0,STRN=0,SA=1,SB=1");
    plan = plan_of(&p);
    assert_true(plan.fast.a_transposed && plan.fast.b_k_contiguous);

    /* gemm_tc: both along k in one launch, by a program built for it. */
    routine(RT_GEMM_TC_MIN, 1);
    p = gemm(1, 0, 256, 384, 64);
    p.mode = OCLBLAS_MATH_ACCURATE;
    plan = plan_of(&p);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_TC);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(arg_i(&plan.step[0], 9), 64 / 4); /* lda in float4s */
    assert_int_equal(plan.step[0].params.v[TC_A_ALONG_K] + plan.step[0].params.v[TC_B_ALONG_K], 2);
    /* A tf32 set that pairs k rows (KPAIR) has no such load: the helpers transpose both. */
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_KPAIR] = 1;
    p.mode = OCLBLAS_MATH_TF32;
    plan = plan_of(&p);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(plan.step[plan.main].params.v[TC_KPAIR], 1);
    assert_true(plan.fast.a_transposed && plan.fast.b_transposed);
    assert_false(plan.fast.a_k_contiguous || plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 3);
    assert_int_equal(plan.step[plan.main].params.v[TC_A_ALONG_K] + plan.step[plan.main].params.v[TC_B_ALONG_K], 0);
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_KPAIR] = 0;
    routine(RT_GEMM_TC_MIN, 0);
}

/* ---- the split of k -------------------------------------------------------- */

static void test_split_k(void **state)
{
    (void)state;
    /* 256 x 256: 16 tiles of C for 132 x 4 = 528 wanted work-groups. k =
     * 65536 is 4096 tiles of 16: 33 slices of 125 tiles (2000 of k), the
     * last one of 96. */
    oclblas__gemm_problem p = gemm(0, 1, 256, 256, 65536);
    p.alpha = 2.0f;
    p.beta = 0.25f;
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 33);
    assert_int_equal(plan.fast.k_slice, 2000);
    assert_true(32 * plan.fast.k_slice < 65536 && 33 * plan.fast.k_slice > 65536); /* the last slice is shorter */
    assert_int_equal(plan.num_steps, 2); /* in place, then sum_slices */
    const oclblas__step *g = &plan.step[0], *sum = &plan.step[1];
    assert_int_equal(g->geo.global[2], 33);
    assert_int_equal(arg_i(g, 3), 2000);
    assert_int_equal(arg_i(g, 4), 256 * 256);
    assert_true(arg_f(g, 5) == 1.0f && arg_f(g, 6) == 0.0f); /* the slices are plain sums */
    assert_int_equal(arg_b(g, 13), OCLBLAS__BUF_S2);
    assert_int_equal(arg_i(g, 15), 256);
    assert_true(g->after_scratch); /* the first to write the partial sums */
    assert_int_equal(plan.scratch[2], 33ull * 256 * 256 * sizeof(float));
    assert_string_equal(sum->entry, "sum_slices");
    assert_int_equal(sum->after, 1u << 0);
    assert_int_equal(arg_i(sum, 2), 33);
    assert_true(arg_f(sum, 6) == 2.0f && arg_f(sum, 7) == 0.25f);
    assert_int_equal(arg_b(sum, 8), OCLBLAS__BUF_C);
    assert_int_equal(sum->geo.global[0], 256); /* rounded up to 32 x 8 work-groups */
    assert_int_equal(sum->geo.global[1], 256);

    /* At most 64 slices. */
    dev.compute_units = 10000;
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 64);
    /* A slice keeps at least 256 of k: k = 1024 gives at most 4. */
    p.k = 1024;
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 4);
    assert_int_equal(plan.fast.k_slice, 256);
    /* The partial sums take at most an eighth of the largest allocation. */
    p.k = 65536;
    dev.max_alloc = 8ull * 4 * 256 * 256 * 5; /* room for 5 copies of C */
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 5);
    dev.compute_units = 132;
    dev.max_alloc = 20ull << 30;

    /* Tiles for half of what is wanted: two slices; for more than half, none. */
    p = gemm(0, 1, 1024, 1024, 65536); /* 256 tiles, 528 wanted */
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 2);
    p = gemm(0, 1, 1024, 2048, 65536); /* 512 tiles */
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 1);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(plan.scratch[2], 0);
    /* GEMM_SPLIT_K = 0 never splits. */
    routine(RT_GEMM_SPLIT_K, 0);
    p = gemm(0, 1, 256, 256, 65536);
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 1);
    routine(RT_GEMM_SPLIT_K, 4);
    /* A longest slice: k cut whatever the tiles of C (1024 x 2048 is 512 tiles), into
     * slices of at most 512 (a CPU's caches); with the split for parallelism, the larger count. */
    routine(RT_GEMM_MAX_SLICE_K, 512);
    p = gemm(0, 1, 1024, 2048, 2048);
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 4);
    assert_int_equal(plan.fast.k_slice, 512);
    p = gemm(0, 1, 1024, 2048, 2000); /* 125 tiles of k: 4 slices of 32 tiles, the last of 29 */
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 4);
    assert_int_equal(plan.fast.k_slice, 512);
    p = gemm(0, 1, 1024, 2048, 512); /* short enough */
    assert_int_equal(plan_of(&p).fast.slices, 1);
    p = gemm(0, 1, 256, 256, 65536); /* the parallelism wants 33, the cache 128: at most 64 */
    assert_int_equal(plan_of(&p).fast.slices, 64);
    p = gemm(0, 1, 256, 256, 4096); /* the parallelism's 16 (256 of k each) beat the cache's 8 */
    assert_int_equal(plan_of(&p).fast.slices, 16);
    routine(RT_GEMM_MAX_SLICE_K, 0);
    /* With both operands padded (not whole vectors) the pads wait for the scratch set, not gemm_fast. */
    p = gemm(0, 0, 251, 251, 65536);
    plan = plan_of(&p);
    assert_int_equal(plan.num_steps, 4);
    assert_true(plan.step[0].after_scratch && plan.step[1].after_scratch);
    assert_false(plan.step[2].after_scratch);
    assert_int_equal(plan.step[2].after, 3u);
    assert_int_equal(plan.step[3].after, 1u << 2);
}

/* Where GEMM_CPU is 1 (a CPU's entry), the indirect plan runs gemm_cpu in
 * gemm_fast's place: an operand packed into panels (by gemm_cpu's own
 * pack_a and pack_b, A in panels of MR rows, B of NR columns, each as it
 * is stored), k packed to
 * KU, unless the kernel reads it as stored (B with k contiguous; A, or B
 * with n contiguous, when small; at least a panel's rows, k whole steps),
 * then one work-item for each MR x NR TN strip of C; a batch and a split
 * of k as gemm_fast's. */
static void test_cpu_kernel(void **state)
{
    (void)state;
    set(OCLBLAS__K_GEMM_CPU, "VW=8,MV=2,NR=6,KU=2,TN=2");
    routine(RT_GEMM_MIN_INDIRECT, 0);
    oclblas__gemm_problem p = gemm(1, 0, 100, 50, 37); /* A stored k x m, B k x n; k not whole steps */
    p.c.offset = 3;
    p.c.ld = 101;
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST); /* GEMM_CPU 0 */
    routine(RT_GEMM_CPU, 1);
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_int_equal(plan.num_steps, 3);
    assert_true(plan.fast.a_packed && plan.fast.b_packed && !plan.fast.a_in_place && !plan.fast.b_in_place);
    assert_int_equal(plan.fast.mp, 112); /* MR = 16 */
    assert_int_equal(plan.fast.np, 60);  /* NR TN = 12 */
    assert_int_equal(plan.fast.kp, 38);  /* KU = 2 */
    const oclblas__step *a = &plan.step[0], *b = &plan.step[1], *g = &plan.step[2];
    /* Packed by gemm_cpu's own program (the main step's), A in panels of
     * MR rows and B of NR columns, a work-item for 128 columns of panels
     * whose rows together are whole cache lines and at least 96 floats
     * (8 panels of 16, 16 of 6). */
    assert_int_equal(a->kernel, OCLBLAS__K_GEMM_CPU);
    assert_string_equal(a->entry, "pack_a");
    assert_memory_equal(a->params.v, g->params.v, sizeof a->params.v);
    assert_int_equal(arg_i(a, 0), 100); /* rows: m */
    assert_int_equal(arg_i(a, 1), 37);  /* cols: k */
    assert_int_equal(arg_b(a, 2), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(a, 4), 37);  /* lda */
    assert_int_equal(arg_i(a, 5), 1);   /* stored transposed (k contiguous) */
    assert_int_equal(arg_i(a, 6), 112);
    assert_int_equal(arg_i(a, 7), 38);
    assert_int_equal(arg_b(a, 8), OCLBLAS__BUF_S0);
    assert_int_equal(a->geo.global[0], 1); /* 38 columns */
    assert_int_equal(a->geo.global[1], 1); /* 7 panels, 8 a work-item */
    assert_int_equal(b->kernel, OCLBLAS__K_GEMM_CPU);
    assert_string_equal(b->entry, "pack_b");
    assert_memory_equal(b->params.v, g->params.v, sizeof b->params.v);
    assert_int_equal(arg_i(b, 0), 50);  /* rows: n */
    assert_int_equal(arg_i(b, 5), 1);   /* B not transposed: (n, k) at n * ldb + k */
    assert_int_equal(arg_i(b, 6), 60);
    assert_int_equal(arg_b(b, 8), OCLBLAS__BUF_S1);
    assert_int_equal(b->geo.global[1], 1); /* 10 panels, 16 a work-item */
    assert_int_equal(plan.scratch[0], 112 * 38 * sizeof(float));
    assert_int_equal(plan.scratch[1], 60 * 38 * sizeof(float));
    assert_string_equal(g->entry, "gemm_cpu");
    assert_int_equal(g->params.v[GC_BK], 0);
    assert_int_equal(g->after, 3u);
    assert_int_equal(g->geo.global[0], 7);
    assert_int_equal(g->geo.global[1], 5); /* 10 blocks of NR columns, 2 a work-item */
    assert_int_equal(g->geo.global[2], 1);
    assert_int_equal(g->geo.local[0] * g->geo.local[1] * g->geo.local[2], 1);
    assert_int_equal(arg_i(g, 0), 100);
    assert_int_equal(arg_i(g, 1), 50);
    assert_int_equal(arg_i(g, 2), 38);
    assert_true(arg_f(g, 5) == 1.5f && arg_f(g, 6) == 0.5f);
    /* Packed panels: MR floats a step of k, a panel's rows K steps apart, never moved back. */
    assert_int_equal(arg_b(g, 7), OCLBLAS__BUF_S0);
    assert_int_equal(arg_i(g, 8), 0);
    assert_int_equal(arg_i(g, 9), 16);
    assert_int_equal(arg_i(g, 10), 38);
    assert_int_equal(arg_i(g, 11), INT_MAX);
    assert_int_equal(arg_b(g, 12), OCLBLAS__BUF_S1);
    assert_int_equal(arg_i(g, 14), 6);
    assert_int_equal(arg_i(g, 15), 38);
    assert_int_equal(arg_i(g, 16), INT_MAX);
    assert_int_equal(arg_b(g, 17), OCLBLAS__BUF_C);
    assert_int_equal(arg_i(g, 18), 3);
    assert_int_equal(arg_i(g, 19), 101);
    assert_int_equal(g->params.v[GC_CT], 0);
    assert_false(plan.fast.swapped); /* both orientations pack as much */
    const oclblas__call call = {"sgemm", OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 100, 50, 37};
    char text[512];
    oclblas__plan_describe(&call, &plan, text, sizeof text);
    assert_non_null(strstr(text, "gemm_cpu on 112x60x38, A packed, B packed, 1 slice of k"));

    /* k whole steps: B stored with k contiguous read in place (the BK
     * program: a step's values ldb apart), and the small A as stored; the
     * last panels moved back to end at m and n. */
    p = gemm(0, 0, 100, 50, 38);
    p.a.offset = 5;
    p.b.offset = 7;
    plan = plan_of(&p);
    assert_int_equal(plan.num_steps, 1);
    assert_true(plan.fast.a_in_place && plan.fast.b_in_place && plan.fast.b_k_contiguous);
    assert_true(!plan.fast.a_packed && !plan.fast.b_packed);
    assert_int_equal(plan.scratch[0] + plan.scratch[1], 0);
    g = &plan.step[0];
    assert_int_equal(g->params.v[GC_BK], 1);
    assert_int_equal(arg_b(g, 7), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(g, 8), 5);
    assert_int_equal(arg_i(g, 9), 100); /* lda a step of k */
    assert_int_equal(arg_i(g, 10), 1);
    assert_int_equal(arg_i(g, 11), 100 - 16);
    assert_int_equal(arg_b(g, 12), OCLBLAS__BUF_B);
    assert_int_equal(arg_i(g, 13), 7);
    assert_int_equal(arg_i(g, 14), 1);
    assert_int_equal(arg_i(g, 15), 38); /* ldb from one column to the next */
    assert_int_equal(arg_i(g, 16), 50 - 6);
    const oclblas__call nn = {"sgemm", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 100, 50, 38};
    oclblas__plan_describe(&nn, &plan, text, sizeof text);
    assert_non_null(strstr(text, "A in place, B in place along k"));

    /* A large A with m contiguous is packed; B with n contiguous, small and
     * re-read for 48 panels of A, read as stored. */
    p = gemm(0, 1, 768, 64, 128);
    plan = plan_of(&p);
    assert_true(plan.fast.a_packed && plan.fast.b_in_place && !plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 2);
    g = &plan.step[plan.main];
    assert_int_equal(g->params.v[GC_BK], 0);
    assert_int_equal(arg_i(g, 14), 64); /* ldb a step of k */
    assert_int_equal(arg_i(g, 15), 1);
    assert_int_equal(arg_i(g, 16), 64 - 6);
    /* A small A re-read for 171 panels of B is packed. */
    p = gemm(0, 1, 64, 1024, 64);
    plan = plan_of(&p);
    assert_true(plan.fast.a_packed && plan.fast.b_in_place);
    /* ... and rows fewer than a panel are packed. */
    p = gemm(0, 0, 10, 5, 38);
    plan = plan_of(&p);
    assert_true(plan.fast.a_packed && plan.fast.b_packed);

    /* A strided batch: small operands read as stored, the caller's strides
     * between problems, the batch the third dimension. */
    p = gemm(0, 1, 64, 48, 40);
    plan = batch_plan_of(&p, 5, 64 * 40, 48 * 40, 64 * 48);
    assert_int_equal(plan.num_steps, 1);
    g = &plan.step[plan.main];
    assert_int_equal(g->kernel, OCLBLAS__K_GEMM_CPU);
    assert_int_equal(g->geo.global[2], 5);
    assert_int_equal(arg_i(g, 3), 0);           /* k_slice 0: a batch */
    assert_int_equal(arg_i(g, 4), 64 * 48);     /* C's stride */
    assert_int_equal(g->params.v[GC_CT], 0); /* C as stored */
    assert_int_equal(arg_i(g, 20), 64 * 40);
    assert_int_equal(arg_i(g, 21), 48 * 40);
    /* ... and packed ones side by side. */
    p = gemm(1, 0, 48, 64, 40);
    plan = batch_plan_of(&p, 5, 48 * 40, 64 * 40, 48 * 64);
    assert_false(plan.fast.swapped);
    assert_int_equal(plan.num_steps, 2);
    assert_int_equal(plan.step[0].geo.global[2], 5);
    assert_int_equal(arg_b(&plan.step[0], 2), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(&plan.step[0], 5), 1); /* A transposed */
    g = &plan.step[plan.main];
    assert_int_equal(arg_i(g, 20), 48 * 40);    /* each problem's panels of A */
    assert_int_equal(arg_i(g, 21), 64 * 40);

    /* A stored with k contiguous packs less as B: C^T = B^T A^T, B^T packed
     * (from B's buffer), A read along k, C stored transposed. */
    p = gemm(1, 0, 2048, 64, 1024);
    p.a.offset = 3;
    plan = plan_of(&p);
    assert_true(plan.fast.swapped && plan.fast.a_packed && plan.fast.b_in_place && plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 2);
    assert_int_equal(arg_b(&plan.step[0], 2), OCLBLAS__BUF_B);
    assert_int_equal(arg_i(&plan.step[0], 0), 64);   /* rows: the call's n */
    assert_int_equal(arg_i(&plan.step[0], 5), 1);    /* B not transposed: as A^T, k contiguous */
    g = &plan.step[1];
    assert_int_equal(arg_i(g, 0), 64);
    assert_int_equal(arg_i(g, 1), 2048);
    assert_int_equal(arg_b(g, 12), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(g, 13), 3);
    assert_int_equal(arg_i(g, 14), 1);
    assert_int_equal(arg_i(g, 15), 1024);            /* lda from one column of A^T to the next */
    assert_int_equal(arg_i(g, 16), 2048 - 6);
    assert_int_equal(arg_b(g, 17), OCLBLAS__BUF_C);
    assert_int_equal(g->params.v[GC_CT], 1);
    const oclblas__call tn = {"sgemm", OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 2048, 64, 1024};
    oclblas__plan_describe(&tn, &plan, text, sizeof text);
    assert_non_null(strstr(text, "on 2052x64x1024, A in place along k, B packed"));
    assert_non_null(strstr(text, "C stored transposed"));
    /* ... and a batch: the strides change places with the operands. */
    p = gemm(1, 0, 64, 16, 1024);
    plan = batch_plan_of(&p, 5, 64 * 1024, 16 * 1024, 64 * 16);
    assert_true(plan.fast.swapped);
    assert_int_equal(arg_b(&plan.step[0], 2), OCLBLAS__BUF_B);
    assert_int_equal(arg_i(&plan.step[0], 10), 16 * 1024); /* B's problems */
    g = &plan.step[plan.main];
    assert_int_equal(arg_b(g, 12), OCLBLAS__BUF_A);
    assert_int_equal(arg_i(g, 4), 64 * 16);
    assert_int_equal(g->params.v[GC_CT], 1);
    assert_int_equal(arg_i(g, 20), 16 * 1024);  /* the panels of B^T */
    assert_int_equal(arg_i(g, 21), 64 * 1024);  /* A's problems */
    /* Not where the packing saved is not several times C (its transposed stores cost more). */
    p = gemm(1, 1, 1024, 1024, 64);
    assert_false(plan_of(&p).fast.swapped);
    p = gemm(1, 0, 64, 48, 40);
    assert_false(batch_plan_of(&p, 5, 64 * 40, 48 * 40, 64 * 48).fast.swapped);
    /* Not where the transposed problem would split k: sum_slices adds into C as stored. */
    p = gemm(1, 0, 256, 32, 65536);
    plan = plan_of(&p);
    assert_true(plan.fast.slices > 1 && !plan.fast.swapped);

    /* Few blocks of C and a long k: slices into the partial sums, then sum_slices. */
    p = gemm(0, 0, 32, 24, 65536);
    plan = plan_of(&p);
    assert_true(plan.fast.slices > 1);
    g = &plan.step[plan.main];
    assert_int_equal(g->kernel, OCLBLAS__K_GEMM_CPU);
    assert_int_equal(g->geo.global[2], plan.fast.slices);
    assert_int_equal(arg_i(g, 3), (int)plan.fast.k_slice);
    assert_true(arg_f(g, 5) == 1.0f && arg_f(g, 6) == 0.0f);
    assert_int_equal(arg_b(g, 17), OCLBLAS__BUF_S2);
    assert_string_equal(plan.step[plan.num_steps - 1].entry, "sum_slices");

    /* A device that resolves no gemm_cpu set keeps gemm_fast. */
    cx.status[OCLBLAS__K_GEMM_CPU] = OCLBLAS_INVALID_PARAMS;
    p = gemm(1, 0, 100, 50, 37);
    plan = plan_of(&p);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
}

static void test_too_large(void **state)
{
    (void)state;
    oclblas__gemm_problem p = gemm(0, 0, 50000, 50000, 50000); /* padded m * k beyond int */
    oclblas__plan plan;
    assert_int_equal(oclblas__gemm_plan(&cx, &p, &plan), OCLBLAS_SIZE_TOO_LARGE);
}

/* A table the device cannot run fails the plans that need it, and only those. */
static void test_no_legal_set(void **state)
{
    (void)state;
    cx.status[OCLBLAS__K_GEMM_FAST] = OCLBLAS_INVALID_PARAMS;
    oclblas__gemm_problem p = gemm(0, 0, 500, 500, 500);
    oclblas__plan plan;
    assert_int_equal(oclblas__gemm_plan(&cx, &p, &plan), OCLBLAS_INVALID_PARAMS);
    p = gemm(0, 0, 50, 50, 50);
    assert_int_equal(oclblas__gemm_plan(&cx, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    cx.status[OCLBLAS__K_GEMM_FAST] = OCLBLAS_SUCCESS;
}

/* A device too small for the global default's usual sets (64 work-items,
 * 1 KiB of local memory) still gets a legal set of every table from the
 * compiled-in database: global.json's last resort. */
static void test_small_device_resolves(void **state)
{
    (void)state;
    oclblas__device_info small;
    memset(&small, 0, sizeof small);
    oclblas__strlcpy(small.type, "OTHER", sizeof small.type);
    small.compute_units = 1;
    small.max_alloc = 1u << 28;
    small.lim = (oclblas__limits){64, {64, 64, 64}, 1024, 90};
    oclblas__devctx out;
    assert_int_equal(oclblas__devctx_resolve(&small, &out), OCLBLAS_SUCCESS);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (k == OCLBLAS__K_GEMM_TC) { /* no tensor-core tile fits 64 work-items: gemm_fast serves every mode */
            assert_int_equal(out.status[k], OCLBLAS_INVALID_PARAMS);
            continue;
        }
        assert_int_equal(out.status[k], OCLBLAS_SUCCESS);
        const char *why = NULL;
        if (!oclblas__params_legal(k, &out.params[k], &small.lim, &why))
            fail_msg("%s: %s", oclblas__kernels[k]->name, why);
    }
}

/* ---- strided batches --------------------------------------------------------- */

static oclblas__plan batch_plan_of(const oclblas__gemm_problem *p, size_t count, size_t sa, size_t sb, size_t sc)
{
    const oclblas__batch b = {count, sa, sb, sc};
    oclblas__plan plan;
    assert_int_equal(oclblas__gemm_batch_plan(&cx, p, &b, &plan), OCLBLAS_SUCCESS);
    return plan;
}

/* A batch of one is the single problem's plan, step for step; small
 * problems run as one gemm_direct launch with the batch as its third
 * dimension, the strides its last arguments. */
static void test_batch_direct(void **state)
{
    (void)state;
    oclblas__gemm_problem p = gemm(0, 1, 256, 512, 128);
    oclblas__plan one = plan_of(&p), batch = batch_plan_of(&p, 1, 7, 7, 7);
    assert_memory_equal(&one, &batch, sizeof one);

    p = gemm(1, 0, 20, 30, 10);
    oclblas__plan plan = batch_plan_of(&p, 1000, 200, 0, 600);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    assert_int_equal(plan.problems, 1000);
    assert_int_equal(plan.num_steps, 1);
    const oclblas__step *s = &plan.step[0];
    assert_string_equal(s->entry, "gemm_direct_tn");
    assert_int_equal(s->geo.dims, 3);
    assert_int_equal(s->geo.global[0], 1 * 8);
    assert_int_equal(s->geo.global[1], 1 * 8);
    assert_int_equal(s->geo.global[2], 1000);
    assert_int_equal(s->geo.local[2], 1);
    assert_int_equal(arg_i(s, 14), 200);
    assert_int_equal(arg_i(s, 15), 0); /* one B for every problem */
    assert_int_equal(arg_i(s, 16), 600);
    /* The single launch's geometry and arguments are those of before, strides 0. */
    one = plan_of(&p);
    assert_int_equal(one.step[0].geo.dims, 2);
    assert_int_equal(one.step[0].num_args, 17);
    assert_int_equal(arg_i(&one.step[0], 14) + arg_i(&one.step[0], 15) + arg_i(&one.step[0], 16), 0);

    /* At most 65535 problems a launch (NVIDIA's grids): the caller plans the rest. */
    plan = batch_plan_of(&p, 100000, 200, 0, 600);
    assert_int_equal(plan.problems, 65535);
    assert_int_equal(plan.step[0].geo.global[2], 65535);

    /* k = 0: C = beta C on every problem in one launch. */
    p = gemm(0, 0, 70, 50, 0);
    plan = batch_plan_of(&p, 9, 0, 0, 4000);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_SCALE);
    assert_int_equal(plan.step[0].geo.dims, 3);
    assert_int_equal(plan.step[0].geo.global[2], 9);
    assert_int_equal(arg_i(&plan.step[0], 6), 4000);
    p.beta = 1.0f;
    plan = batch_plan_of(&p, 9, 0, 0, 4000);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_NOTHING);
}

/* gemm_fast with the batch as its third dimension: the crossover weighs the
 * batch's whole work, pads copy every problem's operand (one copy of a
 * shared one), an operand is read in place only if its stride keeps whole
 * vectors, k is never split. */
static void test_batch_fast(void **state)
{
    (void)state;
    /* 64^3 is below the crossover (100^3) alone, beyond it 8 times over. */
    oclblas__gemm_problem p = gemm(0, 0, 64, 64, 64);
    assert_int_equal(plan_of(&p).kind, OCLBLAS__PLAN_DIRECT);
    oclblas__plan plan = batch_plan_of(&p, 8, 64 * 64 + 2, 64 * 64 + 1, 5000);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_int_equal(plan.problems, 8);
    assert_true(plan.fast.a_in_place); /* stride 4098: whole vectors of VWM = 2 */
    assert_false(plan.fast.b_in_place);
    assert_true(plan.fast.b_transposed);
    assert_int_equal(plan.fast.slices, 1);
    assert_int_equal(plan.scratch[0], 0);
    assert_int_equal(plan.scratch[1], 8 * 64 * 64 * sizeof(float));
    assert_int_equal(plan.scratch[2], 0);
    assert_int_equal(plan.num_steps, 2);
    const oclblas__step *pad = &plan.step[0], *g = &plan.step[1];
    assert_string_equal(pad->entry, "pad_transpose");
    assert_int_equal(pad->geo.dims, 3);
    assert_int_equal(pad->geo.global[2], 8);
    assert_int_equal(arg_i(pad, 9), 64 * 64 + 1); /* the source's stride */
    assert_int_equal(arg_i(pad, 10), 64 * 64);    /* each copy's */
    assert_string_equal(g->entry, "gemm_fast");
    assert_int_equal(g->geo.global[2], 8);
    assert_int_equal(arg_i(g, 3), 0);    /* k_slice 0: a batch */
    assert_int_equal(arg_i(g, 4), 5000); /* C's stride */
    assert_int_equal(arg_i(g, 16), (64 * 64 + 2) / 2);
    assert_int_equal(arg_i(g, 17), 64 * 64 / 4);
    /* The single launch passes zero strides. */
    p = gemm(0, 0, 128, 128, 128);
    oclblas__plan one = plan_of(&p);
    assert_int_equal(one.step[one.main].num_args, 20);
    assert_int_equal(arg_i(&one.step[one.main], 16) + arg_i(&one.step[one.main], 17), 0);

    /* An odd stride reads A through pad_copy; stride 0: one copy for every problem. */
    p = gemm(0, 1, 64, 64, 64);
    plan = batch_plan_of(&p, 8, 64 * 64 + 1, 0, 5000);
    assert_false(plan.fast.a_in_place);
    assert_true(plan.fast.b_in_place);
    assert_int_equal(plan.scratch[0], 8 * 64 * 64 * sizeof(float));
    plan = batch_plan_of(&p, 8, 0, 64 * 64 + 1, 5000);
    assert_true(plan.fast.a_in_place);
    assert_false(plan.fast.b_in_place);
    assert_int_equal(plan.scratch[1], 8 * 64 * 64 * sizeof(float));
    p = gemm(1, 1, 64, 64, 64);
    p.a.ld = 65; /* not whole vectors: A transposed into scratch */
    plan = batch_plan_of(&p, 8, 0, 64 * 64, 5000);
    assert_int_equal(plan.scratch[0], 64 * 64 * sizeof(float));
    assert_int_equal(plan.step[0].geo.dims, 2); /* A padded once */
    assert_int_equal(arg_i(&plan.step[plan.main], 16), 0);

    /* Problems that would be mostly padding stay with gemm_direct; up to
     * four times their work in tiles go to gemm_fast. */
    p = gemm(0, 0, 5, 70, 64);
    plan = batch_plan_of(&p, 10000, 400, 5000, 400);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    p = gemm(0, 0, 32, 32, 16);
    plan = batch_plan_of(&p, 1000, 32 * 16, 16 * 32, 32 * 32);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    p = gemm(0, 0, 32, 31, 16);
    plan = batch_plan_of(&p, 1000, 32 * 16, 16 * 31, 32 * 31);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);

    /* The scratch cap: an eighth of a 64 MiB allocation holds 64 problems' copies of A and B (128 x 128 each). */
    dev.max_alloc = 64u << 20;
    p = gemm(1, 0, 128, 128, 128);
    p.a.ld = p.b.ld = 129; /* not whole vectors: both into scratch */
    plan = batch_plan_of(&p, 1000, 129 * 128, 129 * 128, 128 * 128);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_int_equal(plan.problems, 64);
    assert_int_equal(plan.scratch[0] + plan.scratch[1], 8u << 20);
    assert_int_equal(plan.step[plan.main].geo.global[2], 64);
    /* Read in place (along k, both): no copies, the whole batch in one launch. */
    p.a.ld = p.b.ld = 128;
    plan = batch_plan_of(&p, 1000, 128 * 128, 128 * 128, 128 * 128);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous);
    assert_int_equal(plan.problems, 1000);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(plan.scratch[0] + plan.scratch[1], 0);
    /* Not even two: every problem by its own plan (k split where it helps). */
    p.a.ld = p.b.ld = 129;
    dev.max_alloc = 1u << 20;
    plan = batch_plan_of(&p, 1000, 129 * 128, 129 * 128, 128 * 128);
    assert_int_equal(plan.problems, 1);
    assert_int_equal(plan.step[plan.main].geo.dims, 3);
}

/* The batch's strides in whole vectors keep an operand along k in place,
 * stride 0 included; an odd one sends it through pad_transpose. */
static void test_batch_along_k(void **state)
{
    (void)state;
    oclblas__gemm_problem p = gemm(1, 0, 64, 64, 64);
    p.a.ld = p.b.ld = 68;
    const size_t sb = 64 * 68 + 4;
    oclblas__plan plan = batch_plan_of(&p, 8, 0, sb, 5000);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_int_equal(plan.problems, 8);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous);
    assert_int_equal(plan.num_steps, 1);
    const oclblas__step *g = &plan.step[0];
    assert_int_equal(arg_i(g, 16), 0);      /* one A for every problem */
    assert_int_equal(arg_i(g, 17), sb / 4); /* B's stride in vectors of VWN = 4 */
    assert_int_equal(arg_i(g, 18) + arg_i(g, 19), 2);
    plan = batch_plan_of(&p, 8, 64 * 68 + 1, sb, 5000);
    assert_true(plan.fast.a_transposed && plan.fast.b_k_contiguous);
    assert_int_equal(plan.scratch[0], 8 * 64 * 64 * sizeof(float));
    assert_int_equal(plan.num_steps, 2);
}

/* A batch by the rules: one launch of gemm_tc in the accurate mode (of
 * gemm_fast in the strict), GEMM_TC_MIN weighed on the whole batch's work
 * as GEMM_MIN_INDIRECT is; problems mostly padding in gemm_tc's tiles stay
 * with gemm_fast. A batch of matrix-vector products large enough to fill
 * the device alone runs one gemv per problem. */
static void test_batch_rules(void **state)
{
    (void)state;
    routine(RT_GEMM_TC_MIN, 500);
    oclblas__gemm_problem p = gemm(0, 0, 1000, 1000, 1000);
    p.mode = OCLBLAS_MATH_ACCURATE;
    p.a.ld = p.b.ld = 1001; /* not whole float4s: padded */
    oclblas__plan plan = batch_plan_of(&p, 16, 1000 * 1024, 1024 * 1000, 1000 * 1000 + 8);
    assert_int_equal(plan.problems, 16);
    const oclblas__step *g = &plan.step[plan.main];
    assert_int_equal(g->kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(g->params.v[TC_PRODUCTS], 6);
    assert_int_equal(g->geo.global[2], 16);
    assert_int_equal(plan.fast.slices, 1);
    assert_int_equal(arg_i(g, 3), 0);                /* k_slice 0: a batch */
    assert_int_equal(arg_i(g, 4), 1000 * 1000 + 8); /* C's stride */
    /* Both operands padded, each problem its own copy: the copies' strides, in float4s. */
    assert_int_equal(arg_i(g, 16), 1024 * 1008 / 4);
    assert_int_equal(arg_i(g, 17), 1024 * 1008 / 4);
    assert_int_equal(plan.scratch[0], 16 * 1024 * 1008 * sizeof(float));
    /* The single launch passes zero strides. */
    const oclblas__plan one = plan_of(&p);
    assert_int_equal(one.step[one.main].kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(one.step[one.main].num_args, 18);
    assert_int_equal(arg_i(&one.step[one.main], 16) + arg_i(&one.step[one.main], 17), 0);
    p.mode = OCLBLAS_MATH_STRICT; /* gemm_fast takes the batch */
    plan = batch_plan_of(&p, 16, 1000 * 1000, 1000 * 1000, 1000 * 1000);
    assert_int_equal(plan.problems, 16);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    /* 300^3 alone is below GEMM_TC_MIN cubed, 16 of them beyond it; 64 of
     * 60 x 60 x 3000 too, but mostly padding in gemm_tc's 128 x 128 tiles
     * (not in gemm_fast's 64 x 64). */
    p = gemm(0, 0, 300, 300, 300);
    p.mode = OCLBLAS_MATH_ACCURATE;
    plan = plan_of(&p);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    plan = batch_plan_of(&p, 16, 300 * 300, 300 * 300, 300 * 300);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(plan.problems, 16);
    p = gemm(0, 0, 60, 60, 3000);
    p.mode = OCLBLAS_MATH_ACCURATE;
    plan = batch_plan_of(&p, 64, 60 * 3000, 3000 * 60, 60 * 60);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_int_equal(plan.problems, 64);
    routine(RT_GEMM_TC_MIN, 0);

    /* One column of C: a gemv beyond the crossover, else gemm_direct batched. */
    p = gemm(0, 0, 4000, 1, 4000);
    plan = batch_plan_of(&p, 16, 4000 * 4000, 4000, 4000);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_GEMV);
    assert_int_equal(plan.problems, 1);
    p = gemm(0, 0, 40, 1, 40);
    plan = batch_plan_of(&p, 16, 1600, 40, 40);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    assert_int_equal(plan.problems, 16);
}

/* ---- the tensor-core kernel ------------------------------------------------- */

static const oclblas__step *main_step(const oclblas__plan *plan)
{
    assert_int_equal(plan->kind, OCLBLAS__PLAN_FAST);
    return &plan->step[plan->main];
}

static int kernel_of(const oclblas__gemm_problem *p)
{
    const oclblas__plan plan = plan_of(p);
    return main_step(&plan)->kernel;
}

/* The math mode and GEMM_TC_MIN decide between gemm_fast and gemm_tc, and
 * the mode decides gemm_tc's products. */
static void test_tc_choice(void **state)
{
    (void)state;
    oclblas__gemm_problem p = gemm(0, 0, 1000, 1000, 1000);
    /* GEMM_TC_MIN = 0: never, whatever the mode. */
    for (int mode = OCLBLAS_MATH_STRICT; mode <= OCLBLAS_MATH_TF32; ++mode) {
        p.mode = (oclblas_math_mode)mode;
        assert_int_equal(kernel_of(&p), OCLBLAS__K_GEMM_FAST);
    }
    routine(RT_GEMM_TC_MIN, 1000);
    p.mode = OCLBLAS_MATH_STRICT;
    assert_int_equal(kernel_of(&p), OCLBLAS__K_GEMM_FAST);
    p.mode = OCLBLAS_MATH_ACCURATE;
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
    assert_string_equal(main_step(&plan)->entry, "gemm_tc");
    assert_int_equal(main_step(&plan)->params.v[TC_PRODUCTS], 6);
    p.mode = OCLBLAS_MATH_TF32;
    plan = plan_of(&p);
    assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(main_step(&plan)->params.v[TC_PRODUCTS], 1);
    /* The tf32 form of this set (one product) is the database's set (which
     * operand the program reads along k aside). */
    assert_memory_equal(main_step(&plan)->params.v, cx.params[OCLBLAS__K_GEMM_TC].v, TC_COUNT * sizeof(int));
    /* Below GEMM_TC_MIN cubed: gemm_fast. */
    p.k = 999;
    assert_int_equal(kernel_of(&p), OCLBLAS__K_GEMM_FAST);
    /* Below GEMM_MIN_INDIRECT cubed the direct kernel serves every mode; one row or column is a gemv. */
    routine(RT_GEMM_TC_MIN, 1);
    p = gemm(0, 0, 50, 50, 50);
    p.mode = OCLBLAS_MATH_ACCURATE;
    assert_int_equal(plan_of(&p).kind, OCLBLAS__PLAN_DIRECT);
    p = gemm(0, 0, 5000, 1, 5000);
    p.mode = OCLBLAS_MATH_TF32;
    assert_int_equal(plan_of(&p).kind, OCLBLAS__PLAN_GEMV);
    /* A set with CHUNK (six products) runs tf32 without it. */
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_PRODUCTS] = 6;
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_WN] = 64;
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_PROMOTE] = 0;
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_CHUNK] = 1;
    p = gemm(0, 0, 1000, 1000, 1000);
    p.mode = OCLBLAS_MATH_ACCURATE;
    plan = plan_of(&p);
    assert_int_equal(main_step(&plan)->params.v[TC_CHUNK], 1);
    p.mode = OCLBLAS_MATH_TF32;
    plan = plan_of(&p);
    assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(main_step(&plan)->params.v[TC_CHUNK], 0);
    assert_int_equal(main_step(&plan)->params.v[TC_PRODUCTS], 1);
    /* A set with BK = 8 (a tf32 set, as an entry could hold) has no form
     * with six BF16 products (k16 per mma): the accurate mode keeps gemm_fast. */
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_CHUNK] = 0;
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_PRODUCTS] = 1;
    cx.params[OCLBLAS__K_GEMM_TC].v[TC_BK] = 8;
    assert_true(oclblas__params_legal(OCLBLAS__K_GEMM_TC, &cx.params[OCLBLAS__K_GEMM_TC], &dev.lim, NULL));
    assert_int_equal(kernel_of(&p), OCLBLAS__K_GEMM_TC);
    p.mode = OCLBLAS_MATH_ACCURATE;
    assert_int_equal(kernel_of(&p), OCLBLAS__K_GEMM_FAST);
    /* A device that cannot run gemm_tc (no legal set: not NVIDIA, or compute
     * capability below 8.0) gets gemm_fast in every mode. */
    cx.status[OCLBLAS__K_GEMM_TC] = OCLBLAS_INVALID_PARAMS;
    p = gemm(0, 0, 1000, 1000, 1000);
    for (int mode = OCLBLAS_MATH_STRICT; mode <= OCLBLAS_MATH_TF32; ++mode) {
        p.mode = (oclblas_math_mode)mode;
        assert_int_equal(kernel_of(&p), OCLBLAS__K_GEMM_FAST);
    }
}

/* gemm_fast's padding, operands in place and split of k, to gemm_tc's tile
 * (128 x 128 x 16) and its float4 operands. */
static void test_tc_geometry(void **state)
{
    (void)state;
    routine(RT_GEMM_TC_MIN, 1);
    oclblas__gemm_problem p = gemm(0, 0, 300, 200, 100);
    p.mode = OCLBLAS_MATH_ACCURATE;
    p.a.ld = 301; /* not whole float4s: both padded */
    p.b.ld = 101;
    p.c.offset = 5;
    p.c.ld = 301;
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.fast.mp, 384);
    assert_int_equal(plan.fast.np, 256);
    assert_int_equal(plan.fast.kp, 112);
    assert_int_equal(plan.num_steps, 3); /* pad_copy of A, pad_transpose of B, gemm_tc */
    assert_int_equal(plan.main, 2);
    assert_int_equal(plan.scratch[0], 384 * 112 * sizeof(float));
    assert_int_equal(plan.scratch[1], 256 * 112 * sizeof(float));
    assert_int_equal(arg_i(&plan.step[0], 5), 384); /* the helpers pad to the tile of gemm_tc */
    const oclblas__step *s = main_step(&plan);
    assert_int_equal(s->after, 3u);
    /* 256 work-items (8 warps of 64 x 32) in one dimension per 128 x 128 tile. */
    assert_int_equal(s->geo.dims, 3);
    assert_int_equal(s->geo.local[0], 256);
    assert_int_equal(s->geo.local[1], 1);
    assert_int_equal(s->geo.global[0], 3 * 256);
    assert_int_equal(s->geo.global[1], 2);
    assert_int_equal(s->geo.global[2], 1);
    /* M, N real, K padded; A and B's offsets and leading dimensions in float4s; C as it is. */
    assert_int_equal(arg_i(s, 0), 300);
    assert_int_equal(arg_i(s, 1), 200);
    assert_int_equal(arg_i(s, 2), 112);
    assert_int_equal(s->params.v[TC_PEELED], 0);
    assert_true(arg_f(s, 5) == 1.5f && arg_f(s, 6) == 0.5f);
    assert_int_equal(arg_b(s, 7), OCLBLAS__BUF_S0);
    assert_int_equal(arg_i(s, 9), 384 / 4);
    assert_int_equal(arg_b(s, 10), OCLBLAS__BUF_S1);
    assert_int_equal(arg_i(s, 12), 256 / 4);
    assert_int_equal(arg_b(s, 13), OCLBLAS__BUF_C);
    assert_int_equal(arg_i(s, 14), 5);
    assert_int_equal(arg_i(s, 15), 301);

    /* Ragged: m and n at least a tile and whole float4s, k whole float4s
     * where read along k (B here), are read in place, k not whole k-tiles
     * by the peeled program, K real. */
    p.a.ld = 300;
    p.b.ld = 100;
    plan = plan_of(&p);
    assert_true(plan.fast.a_in_place && plan.fast.b_in_place && plan.fast.b_k_contiguous && plan.fast.peeled);
    assert_int_equal(plan.num_steps, 1);
    s = main_step(&plan);
    assert_int_equal(s->params.v[TC_PEELED], 1);
    assert_int_equal(s->geo.global[0], 3 * 256);
    assert_int_equal(arg_i(s, 2), 100);
    assert_int_equal(arg_i(s, 9), 300 / 4);
    p.k = 98; /* along k not whole float4s: B padded (and turned), A still in place */
    p.b.ld = 98;
    plan = plan_of(&p);
    assert_true(plan.fast.a_in_place && !plan.fast.b_in_place);
    p.k = 100;
    p.m = 100; /* less than a tile: padded */
    p.a.ld = 100;
    assert_false(plan_of(&p).fast.a_in_place);

    /* In place: tile multiples, leading dimensions and offsets in whole float4s. */
    p = gemm(0, 1, 256, 384, 64);
    p.mode = OCLBLAS_MATH_TF32;
    p.a.ld = 260;
    p.a.offset = 8;
    p.a.align = 16;
    plan = plan_of(&p);
    assert_true(plan.fast.a_in_place && plan.fast.b_in_place);
    assert_int_equal(plan.num_steps, 1);
    s = main_step(&plan);
    assert_int_equal(arg_i(s, 8), 2);  /* offset 8 = 2 float4s */
    assert_int_equal(arg_i(s, 9), 65); /* lda 260 = 65 float4s */
    /* lda = 258 is whole vectors for gemm_fast (VWM = 2), not for gemm_tc. */
    p.a.ld = 258;
    assert_false(plan_of(&p).fast.a_in_place);
    p.mode = OCLBLAS_MATH_STRICT;
    assert_true(plan_of(&p).fast.a_in_place);
    /* An offset aligned to 8 bytes only: padded for gemm_tc. */
    p.mode = OCLBLAS_MATH_ACCURATE;
    p.a.ld = 260;
    p.a.offset = 2;
    p.a.align = 8;
    assert_false(plan_of(&p).fast.a_in_place);

    /* The split of k, as for gemm_fast but with gemm_tc's tiles: 256 x 256 is
     * 4 tiles for 528 wanted; k = 65536 is 4096 tiles of 16, at most 64
     * slices of at least 256: 64 slices of 1024. */
    p = gemm(0, 1, 256, 256, 65536);
    p.mode = OCLBLAS_MATH_ACCURATE;
    p.alpha = 2.0f;
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 64);
    assert_int_equal(plan.fast.k_slice, 1024);
    assert_int_equal(plan.num_steps, 2);
    s = main_step(&plan);
    assert_int_equal(s->kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(s->geo.global[2], 64);
    assert_int_equal(arg_i(s, 3), 1024);
    assert_int_equal(arg_i(s, 4), 256 * 256);
    assert_true(arg_f(s, 5) == 1.0f && arg_f(s, 6) == 0.0f);
    assert_int_equal(arg_b(s, 13), OCLBLAS__BUF_S2);
    assert_int_equal(plan.scratch[2], 64ull * 256 * 256 * sizeof(float));
    assert_string_equal(plan.step[1].entry, "sum_slices");
    assert_true(arg_f(&plan.step[1], 6) == 2.0f);

    /* The log names the kernel and its products. */
    p = gemm(0, 0, 300, 200, 100);
    p.mode = OCLBLAS_MATH_TF32;
    plan = plan_of(&p);
    const oclblas__call call = {"sgemm", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 300, 200, 100};
    char text[300];
    oclblas__plan_describe(&call, &plan, text, sizeof text);
    assert_string_equal(text, "sgemm 300x200x100 NN: gemm_tc (1xTF32) on 384x256x112, A in place, B in place along k, "
                              "1 slice of k, peeled (k read ragged); column-major");
}

/* gemm_tc's rules, its derived sizes and the devices that can run it. */
static void test_tc_descriptor(void **state)
{
    (void)state;
    const int tc = OCLBLAS__K_GEMM_TC;
    const char *why = NULL;
    char text[1024];
    oclblas__params_defines(tc, &cx.params[tc], text, sizeof text);
    assert_non_null(strstr(text, "-DPRODUCTS=1 "));
    assert_non_null(strstr(text, "-DWARPS_M=2 -DWARPS_N=4 -DTHREADS=256 -DMT=4 -DNT=4 -DKSTEPS=2 -DLDA=136 "
                                 "-DLDB=136 -DA_CHUNKS=2 -DB_CHUNKS=2 -DA_ROWS=0 -DB_ROWS=0 -DGUARD_EMIN=-51 "
                                 "-DGUARD_EMAX=63"));
    /* The program that reads A along k turns its two float4s of A in blocks of two rows. */
    oclblas__params along = cx.params[tc];
    along.v[TC_A_ALONG_K] = 1;
    oclblas__params_defines(tc, &along, text, sizeof text);
    assert_non_null(strstr(text, "-DA_ROWS=2 -DB_ROWS=0 "));
    assert_null(strstr(text, "EMULATE"));
    oclblas__params p;

    /* Rules on partial assignments. */
    /* Each case: the parameters it assigns ("NAME=VALUE,..."), which break one rule. */
    static const struct {
        const char *set, *why;
    } bad[] = {
        {"WM=24", "WM must be a multiple of 16"},
        {"BM=96,BN=64,WM=64,WN=32", "BM must be a multiple of WM"},
        /* The parameters with one value (entries name them) refuse others. */
        {"STAGES=3", "outside its legal range"},
        {"CP_ASYNC=1", "outside its legal range"},
        {"SPLIT=2", "outside its legal range"},
        {"SPLIT=1,PRODUCTS=1,KPAIR=0,BM=128,BN=128,BK=16,WM=128,WN=32", "SPLIT = 1 needs PRODUCTS = 6"},
        /* 32 x 32 x 16 with 4 warps: one float4 of A per work-item, half a unit of the split's */
        {"SPLIT=1,PRODUCTS=6,KPAIR=0,BM=32,BN=32,BK=16,WM=16,WN=16", "even number of float4s of A"},
        {"LOOP=0", "outside its legal range"},
        {"FRAGV=4", "outside its legal range"},
        {"CHUNK=2", "outside its legal range"},
        {"PRODUCTS=2", "PRODUCTS must be 1 or 6"},
        {"PRODUCTS=3", "PRODUCTS must be 1 or 6"},
        {"PRODUCTS=6,BK=8", "PRODUCTS = 6 needs BK a multiple of 16"},
        {"PRODUCTS=6,CHUNK=0,PROMOTE=0,BK=16", "PRODUCTS = 6 needs CHUNK = 1"},
        {"PRODUCTS=6,CHUNK=1,PROMOTE=2", "PRODUCTS = 6 needs CHUNK = 1 and PROMOTE = 0"},
        {"CHUNK=1,PRODUCTS=1,PROMOTE=0", "CHUNK > 0 needs"},
        {"KPAIR=1,PRODUCTS=6", "KPAIR = 1 needs"},
        {"KPAIR=1,BM=128,BN=96,BK=32,WM=64,WN=24", "KPAIR = 1 needs WN / 8 even"},
        {"PADA=6,PADB=8", "multiples of 4"},
        /* 64 x 64 warp tiles with promotion: about 330 registers. */
        {"BM=128,BN=128,WM=64,WN=64,PRODUCTS=1,PROMOTE=2,CHUNK=0", "registers"},
        /* 128 x 64 x 8 with 8 warps of 32 x 32: 128 float4s of A for 256 work-items. */
        {"BM=128,BN=64,BK=8,WM=32,WN=32", "multiples of 4 * 32"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        oclblas__params q = {{0}};
        unsigned assigned = 0;
        assert_int_equal(oclblas__params_parse(tc, bad[i].set, &q, &assigned), OCLBLAS_SUCCESS);
        if (oclblas__params_legal_partial(tc, &q, assigned, ~0u, NULL, &why))
            fail_msg("%s passes", bad[i].set);
        if (!strstr(why, bad[i].why))
            fail_msg("%s: %s", bad[i].set, why);
    }
    /* The same 64 x 64 warp tiles with six products and CHUNK instead of promotion fit. */
    p = cx.params[tc];
    p.v[TC_WN] = 64;
    p.v[TC_PRODUCTS] = 6;
    p.v[TC_PROMOTE] = 0;
    p.v[TC_CHUNK] = 1;
    assert_true(oclblas__params_legal(tc, &p, &dev.lim, &why));
    /* Local memory: two slots of 128 x 128 x 32 (2 x 32 x 272 x 4 B = 68 KiB)
     * do not fit 48 KiB. */
    p = cx.params[tc];
    p.v[TC_BK] = 32;
    p.v[TC_PROMOTE] = 1;
    assert_true(oclblas__params_legal(tc, &p, NULL, &why));
    assert_false(oclblas__params_legal(tc, &p, &dev.lim, &why));
    assert_string_equal(why, "more local memory than the device has");
    /* A split as staged takes three planes of BF16 pairs in rows of
     * BM / 2 + 2 quads: 256 x 64 x 16 fits as raw floats (2 x 16 x (264 +
     * 72) x 4 B = 42 KiB), not split (2 x 16 x (390 + 72) x 4 B = 58 KiB);
     * the split program names its rows, and its tf32 form does not split. */
    p = cx.params[tc];
    p.v[TC_BM] = 256;
    p.v[TC_BN] = 64;
    p.v[TC_BK] = 16;
    p.v[TC_WM] = 128;
    p.v[TC_WN] = 32;
    p.v[TC_PRODUCTS] = 6;
    p.v[TC_PROMOTE] = 0;
    p.v[TC_CHUNK] = 1;
    p.v[TC_SPLIT] = 0;
    assert_true(oclblas__params_legal(tc, &p, &dev.lim, &why));
    p.v[TC_SPLIT] = 1;
    assert_false(oclblas__params_legal(tc, &p, &dev.lim, &why));
    assert_string_equal(why, "more local memory than the device has");
    p.v[TC_BM] = 128;
    assert_true(oclblas__params_legal(tc, &p, &dev.lim, &why));
    oclblas__params_defines(tc, &p, text, sizeof text);
    assert_non_null(strstr(text, "-DSPLIT=1 "));
    assert_non_null(strstr(text, "-DA_QUADS=66"));
    assert_int_equal(oclblas__gemm_tc_for_mode(&p, OCLBLAS_MATH_TF32).v[TC_SPLIT], 0);
    assert_int_equal(oclblas__gemm_tc_for_mode(&p, OCLBLAS_MATH_ACCURATE).v[TC_SPLIT], 1);
    /* A set for one product with k rows in pairs has no accurate form. */
    p = cx.params[tc];
    p.v[TC_PRODUCTS] = 1;
    p.v[TC_KPAIR] = 1;
    assert_true(oclblas__params_legal(tc, &p, &dev.lim, &why));
    const oclblas__params acc = oclblas__gemm_tc_for_mode(&p, OCLBLAS_MATH_ACCURATE);
    assert_false(oclblas__params_legal(tc, &acc, &dev.lim, &why));

    /* The devices: NVIDIA of compute capability 8.0 and up. */
    oclblas__limits lim = dev.lim;
    assert_true(oclblas__params_legal(tc, &cx.params[tc], &lim, &why));
    lim.nv_compute_capability = 80;
    assert_true(oclblas__params_legal(tc, &cx.params[tc], &lim, &why));
    lim.nv_compute_capability = 75;
    assert_false(oclblas__params_legal(tc, &cx.params[tc], &lim, &why));
    assert_non_null(strstr(why, "compute capability 8.0"));
    lim.nv_compute_capability = 0;
    assert_false(oclblas__params_legal(tc, &cx.params[tc], &lim, &why));
    assert_non_null(strstr(why, "NVIDIA"));
    /* Without a device, the rules alone. */
    assert_true(oclblas__params_legal(tc, &cx.params[tc], NULL, &why));

    /* Every set of the tuner's space that is legal here is legal in both modes. */
    const oclblas__param_def *d = oclblas__kernels[tc]->params;
    size_t legal = 0, total = 1;
    for (int i = 0; i < TC_COUNT; ++i)
        total *= (size_t)d[i].num_candidates;
    for (size_t code = 0; code < total; ++code) {
        oclblas__params q = {{0}};
        size_t rest = code;
        for (int i = 0; i < TC_COUNT; ++i) {
            q.v[i] = d[i].candidates[rest % (size_t)d[i].num_candidates];
            rest /= (size_t)d[i].num_candidates;
        }
        if (!oclblas__params_legal(tc, &q, &dev.lim, NULL))
            continue;
        ++legal;
        for (int mode = OCLBLAS_MATH_STRICT; mode <= OCLBLAS_MATH_TF32; ++mode) {
            const oclblas__params m = oclblas__gemm_tc_for_mode(&q, (oclblas_math_mode)mode);
            assert_true(oclblas__params_legal(tc, &m, &dev.lim, &why));
        }
    }
    assert_true(legal > 0);
}

/* The test device under the identity the database matches entries by:
 * name, vendor, type and arch (NULL keeps the test device's arch). */
static oclblas__device_info known_as(const char *name, const char *vendor, const char *type, const char *arch)
{
    oclblas__device_info d = dev;
    oclblas__strlcpy(d.name, name, sizeof d.name);
    oclblas__strlcpy(d.vendor, vendor, sizeof d.vendor);
    oclblas__strlcpy(d.type, type, sizeof d.type);
    if (arch)
        oclblas__strlcpy(d.arch, arch, sizeof d.arch);
    return d;
}

/* What the compiled-in database gives: an H100 runs gemm_tc from 2048^3 in
 * the accurate mode and gemm_fast in the strict one; a CPU has no gemm_tc
 * at all and runs gemm_cpu (its entry's GEMM_CPU) in every mode. */
static void test_tc_database(void **state)
{
    (void)state;
    oclblas__device_info h100 = known_as("NVIDIA H100 80GB HBM3", "nvidia", "GPU", "SM9.0");
    oclblas__devctx out;
    assert_int_equal(oclblas__devctx_resolve(&h100, &out), OCLBLAS_SUCCESS);
    assert_int_equal(out.status[OCLBLAS__K_GEMM_TC], OCLBLAS_SUCCESS);
    assert_true(out.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_TC_MIN] > 0);
    oclblas__gemm_problem p = gemm(0, 0, 4096, 4096, 4096);
    p.mode = OCLBLAS_MATH_ACCURATE;
    oclblas__plan plan;
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
    p.mode = OCLBLAS_MATH_STRICT;
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_FAST);

    oclblas__device_info cpu = known_as("pthread-skylake-avx512", "pocl", "CPU", NULL);
    cpu.lim.nv_compute_capability = 0;
    assert_int_equal(oclblas__devctx_resolve(&cpu, &out), OCLBLAS_SUCCESS);
    assert_int_equal(out.status[OCLBLAS__K_GEMM_TC], OCLBLAS_INVALID_PARAMS);
    for (int mode = OCLBLAS_MATH_STRICT; mode <= OCLBLAS_MATH_TF32; ++mode) {
        p.mode = (oclblas_math_mode)mode;
        assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
        assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_CPU);
    }
}

/* The H100's entry in the accurate mode: 1000^3 (C = A B) runs gemm_tc's
 * peeled program on both operands in place (m, n and k ragged) where it
 * padded both, at any transpose; k up to 256 runs the class whose set
 * splits A as warps load it (SPLIT 0), a longer k the set for every shape
 * (SPLIT 1). */
static void test_tc_ragged_database(void **state)
{
    (void)state;
    oclblas__device_info h100 = known_as("NVIDIA H100 80GB HBM3", "nvidia", "GPU", "SM9.0");
    oclblas__devctx out;
    assert_int_equal(oclblas__devctx_resolve(&h100, &out), OCLBLAS_SUCCESS);
    oclblas__plan plan;
    for (int t = 0; t < 4; ++t) {
        oclblas__gemm_problem p = gemm(t & 1, t >> 1, 1000, 1000, 1000);
        p.mode = OCLBLAS_MATH_ACCURATE;
        p.alpha = 1.0f; /* as the bench's shapes preset calls it */
        p.beta = 0.0f;
        assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
        assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
        assert_true(plan.fast.a_in_place && plan.fast.b_in_place && plan.fast.peeled);
        assert_int_equal(main_step(&plan)->params.v[TC_PEELED], 1);
        assert_int_equal(arg_i(main_step(&plan), 2), 1000); /* the real k */
    }
    static const size_t ks[] = {128, 256, 512};
    for (int i = 0; i < 3; ++i) {
        oclblas__gemm_problem p = gemm(0, 1, 4096, 4096, ks[i]);
        p.mode = OCLBLAS_MATH_ACCURATE;
        assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
        assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
        assert_int_equal(main_step(&plan)->params.v[TC_SPLIT], ks[i] <= 256 ? 0 : 1);
    }
}

/* ---- SGEMV --------------------------------------------------------------- */

static oclblas__gemv_problem gemv(int trans, size_t rows, size_t cols)
{
    return (oclblas__gemv_problem){trans, rows, cols, 1.0f, 0.0f,
                                   {0, rows, 0, OCLBLAS__MAX_ALIGN}, {0, 0, 1, OCLBLAS__MAX_ALIGN}, {0, 0, 1, 0},
                                   OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C, OCLBLAS_MATH_STRICT};
}

static oclblas__plan gemv_plan_of(const oclblas__gemv_problem *p)
{
    oclblas__plan plan;
    assert_int_equal(oclblas__gemv_plan(&cx, p, &plan), OCLBLAS_SUCCESS);
    return plan;
}

static void test_gemv_split(void **state)
{
    (void)state;
    /* gemv_n covers 128 * 4 * 2 = 1024 rows a work-group with a team of 1; 528 groups wanted. The
     * columns are shared inside a work-group first: teams of 4 (32 work-items along the rows, a warp)
     * make 391 groups of 256 rows; 2 splits of the columns, in multiples of the team's steps (4 * 4),
     * make up the rest. */
    oclblas__gemv_problem p = gemv(0, 100000, 100000);
    oclblas__plan plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.groups, 391);
    assert_int_equal(plan.gemv.splits, 2);
    assert_int_equal(plan.gemv.chunk, 50000);
    assert_int_equal(plan.gemv.vec, 1);
    assert_int_equal(plan.num_steps, 2);
    assert_int_equal(plan.step[0].geo.local[0], 128);
    assert_int_equal(plan.step[0].geo.global[0], 391 * 128);
    assert_int_equal(plan.step[0].geo.global[1], 2);
    assert_int_equal(arg_i(&plan.step[0], 19), 4); /* the team */
    assert_true(plan.step[0].after_scratch);
    assert_int_equal(plan.scratch[2], 2 * 100000 * sizeof(float));
    const oclblas__step *r = &plan.step[1];
    assert_string_equal(r->entry, "gemv_reduce");
    assert_int_equal(r->after, 1u);
    assert_int_equal(r->geo.dims, 1);
    assert_int_equal(r->geo.local[0], 32 * 8); /* PAD_DIMX * PAD_DIMY */
    assert_int_equal(r->geo.global[0], 100096);
    assert_int_equal(arg_i(r, 9), 1); /* 2 splits: a work-item adds each output's */

    /* Few long rows (row-major T 65536 x 256): teams of 4, one work-group along the rows, and the
     * columns split 512 ways, 128 each (32 a member); the reduction's teams of 32 add 16 splits
     * each, 8 outputs a work-group. */
    p = gemv(0, 256, 65536);
    plan = gemv_plan_of(&p);
    assert_int_equal(arg_i(&plan.step[0], 19), 4);
    assert_int_equal(plan.gemv.groups, 1);
    assert_int_equal(plan.gemv.splits, 512);
    assert_int_equal(plan.gemv.chunk, 128);
    r = &plan.step[1];
    assert_int_equal(arg_i(r, 9), 32);
    assert_int_equal(r->geo.global[0], 256 / 8 * 256);
    /* Rows fewer than a work-group's: the team grows until no work-item idles (7 rows: one
     * work-item's 8), while each member keeps a step of UNR columns. */
    p = gemv(0, 7, 5000);
    plan = gemv_plan_of(&p);
    assert_int_equal(arg_i(&plan.step[0], 19), 128);
    p = gemv(0, 7, 100);
    assert_int_equal(arg_i(&gemv_plan_of(&p).step[0], 19), 16); /* 32 members would take 128 > 100 */

    /* Few columns: a team of 4 shares them and no split is worth its partial sums (at most one per 32
     * columns of a member). */
    p = gemv(0, 1000, 70);
    plan = gemv_plan_of(&p);
    assert_int_equal(arg_i(&plan.step[0], 19), 4);
    assert_int_equal(plan.gemv.groups, 4);
    assert_int_equal(plan.gemv.splits, 1);
    assert_int_equal(plan.num_steps, 1);
    /* Enough rows: team of 1, no split, no scratch, no reduction. */
    p = gemv(0, 600000, 100);
    plan = gemv_plan_of(&p);
    assert_int_equal(arg_i(&plan.step[0], 19), 1);
    assert_int_equal(plan.gemv.splits, 1);
    assert_int_equal(plan.num_steps, 1);
    assert_false(plan.step[0].after_scratch);
    assert_int_equal(plan.scratch[2], 0);
    assert_int_equal(plan.gemv.vec, 1);
    /* A panel of whole columns (gemv_n's STRM = 2): one work-item covers every row; only the columns
     * are split, at most one split per 32 of them. */
    set(OCLBLAS__K_GEMV_N, "WGS=1,WPT=1,VW=8,UNR=4,STRM=2");
    oclblas__gemv_problem q = gemv(0, 5000, 100000);
    plan = gemv_plan_of(&q);
    assert_int_equal(plan.gemv.groups, 1);
    assert_int_equal(plan.gemv.splits, 521); /* 528 wanted: chunks of 190 columns, rounded up to UNR */
    assert_int_equal(plan.gemv.chunk, 192);
    assert_int_equal(plan.step[0].geo.global[0], 1);
    assert_int_equal(plan.step[0].geo.global[1], 521);
    assert_int_equal(arg_i(&plan.step[0], 19), 1); /* a panel has no team */
    q = gemv(0, 5000, 40);
    plan = gemv_plan_of(&q);
    assert_int_equal(plan.gemv.splits, 2);
    assert_int_equal(plan.num_steps, 2);
    q = gemv(0, 5000, 30); /* no split: y summed in place */
    plan = gemv_plan_of(&q);
    assert_int_equal(plan.gemv.splits, 1);
    assert_int_equal(plan.num_steps, 1);
    set(OCLBLAS__K_GEMV_N, "WGS=128,WPT=2,VW=4,UNR=4,STRM=1");
    /* lda not a multiple of VW: vectors loaded from anywhere (vloadn). */
    p.a.ld = 600001;
    plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.vec, 2);
    assert_int_equal(arg_i(&plan.step[0], 15), 2);

    /* gemv_t: 128 / 16 = 8 columns a work-group; the rows split in multiples of 16 * 4. */
    p = gemv(1, 100000, 100); /* 13 groups: 41 splits wanted, at most 100000 / 512 */
    plan = gemv_plan_of(&p);
    assert_string_equal(plan.step[0].entry, "gemv_t");
    assert_int_equal(plan.gemv.groups, 13);
    assert_int_equal(plan.gemv.chunk % 64, 0);
    assert_int_equal(plan.gemv.chunk, 2496);
    assert_int_equal(plan.gemv.splits, 41);
    assert_int_equal(plan.gemv.vec, 1);
    assert_int_equal(arg_i(&plan.step[0], 19), 16); /* long columns: TPC */
    assert_int_equal(plan.step[0].geo.global[0], 13 * 128);
    /* gemv_t's own target where the entry gives one (16 a unit: 163 splits wanted, at most
     * 100000 / 512; chunks of 614 rows rounded up to 640 make 157), gemv_n's where it is 0;
     * gemv_n keeps its own either way. */
    routine(RT_GEMV_T_GROUPS_PER_CU, 16);
    plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.chunk, 640);
    assert_int_equal(plan.gemv.splits, 157);
    oclblas__gemv_problem n = gemv(0, 100000, 100000);
    assert_int_equal(gemv_plan_of(&n).gemv.splits, 2);
    routine(RT_GEMV_T_GROUPS_PER_CU, 1);
    assert_int_equal(gemv_plan_of(&p).gemv.splits, 11);
    routine(RT_GEMV_T_GROUPS_PER_CU, 0);
    assert_int_equal(gemv_plan_of(&p).gemv.splits, 41);
    /* Short columns: the smallest team whose one step (team * VW * UNR rows) covers the column, and
     * more columns a work-group (31 rows: 4 work-items, 32 columns a work-group); never split. */
    oclblas__gemv_problem t = gemv(1, 31, 100000);
    plan = gemv_plan_of(&t);
    assert_int_equal(arg_i(&plan.step[0], 19), 4);
    assert_int_equal(plan.gemv.groups, 3125);
    assert_int_equal(plan.step[0].geo.global[0], 3125 * 128);
    assert_int_equal(plan.gemv.splits, 1);
    t = gemv(1, 3, 1000); /* 8 groups, a split wanted, but 3 rows are one work-item's */
    plan = gemv_plan_of(&t);
    assert_int_equal(arg_i(&plan.step[0], 19), 1);
    assert_int_equal(plan.gemv.groups, 8);
    assert_int_equal(plan.gemv.splits, 1);
    /* Vector loads need a contiguous x; aligned ones an aligned x too. */
    p.x.inc = 2;
    assert_int_equal(gemv_plan_of(&p).gemv.vec, 0);
    p.x.inc = 1;
    p.x.align = 8;
    assert_int_equal(gemv_plan_of(&p).gemv.vec, 2);
}

/* On NVIDIA, gemv_n and gemv_t add a split up in their own launch: their work-groups count their
 * arrival in the scratch set's counters (slot S3, one per block of rows, or columns, of each
 * problem) and the last adds the partial sums, with no gemv_reduce. Elsewhere, with gemv_n's
 * consecutive vectors (STRM = 0), or where each member of the last work-group's team would add more
 * than 8 splits, gemv_reduce adds them. */
static void test_gemv_finish(void **state)
{
    (void)state;
    oclblas__gemv_problem p = gemv(0, 100000, 100000);
    oclblas__plan plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.finish, 0);
    assert_int_equal(plan.num_steps, 2);
    assert_int_equal(plan.scratch[3], 0);
    assert_int_equal(plan.step[0].params.v[GN_FINISH], 0);

    oclblas__strlcpy(dev.vendor, "nvidia", sizeof dev.vendor);
    plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.groups, 391); /* as in test_gemv_split */
    assert_int_equal(plan.gemv.splits, 2);
    assert_int_equal(plan.gemv.finish, 1);
    assert_int_equal(plan.num_steps, 1);
    assert_true(plan.step[0].after_scratch);
    assert_int_equal(plan.scratch[2], 2 * 100000 * sizeof(float));
    assert_int_equal(plan.scratch[3], 391 * sizeof(int));
    assert_int_equal(arg_b(&plan.step[0], 20), OCLBLAS__BUF_S3);
    assert_int_equal(plan.step[0].params.v[GN_FINISH], 1); /* the set's second program */
    const oclblas__call call = {"sgemv", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 100000, 100000, 0};
    char text[512];
    oclblas__plan_describe(&call, &plan, text, sizeof text);
    assert_non_null(strstr(text, "2 splits (added up by the last to arrive)"));

    /* A batch of 3: a count for each block of rows of each problem. */
    const oclblas__batch batch = {3, 100000 * 100000ull, 100000, 100000};
    p = gemv(0, 20000, 1000);
    assert_int_equal(oclblas__gemv_batch_plan(&cx, &p, &batch, &plan), OCLBLAS_SUCCESS);
    assert_true(plan.gemv.splits > 1);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(plan.scratch[3], plan.gemv.groups * sizeof(int));
    assert_int_equal(plan.step[0].geo.global[2], 3);

    /* 256 rows of 65536 columns: teams of 4 and 512 splits, 128 for each member to add. */
    p = gemv(0, 256, 65536);
    plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.splits, 512);
    assert_int_equal(plan.gemv.finish, 0);
    assert_int_equal(plan.num_steps, 2);
    assert_string_equal(plan.step[1].entry, "gemv_reduce");

    /* gemv_t too: 256 columns, 8 a work-group (teams of 16), 17 splits of the rows, a count for
     * each block of columns; 196 splits of a single block (13 for each member) keep gemv_reduce. */
    p = gemv(1, 100000, 256);
    plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.groups, 32);
    assert_int_equal(plan.gemv.splits, 17);
    assert_int_equal(plan.gemv.finish, 1);
    assert_int_equal(plan.num_steps, 1);
    assert_int_equal(plan.scratch[3], 32 * sizeof(int));
    assert_int_equal(arg_b(&plan.step[0], 20), OCLBLAS__BUF_S3);
    assert_int_equal(plan.step[0].params.v[GT_FINISH], 1);
    p = gemv(1, 100000, 8);
    plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.splits, 196);
    assert_int_equal(plan.gemv.finish, 0);
    assert_int_equal(plan.num_steps, 2);

    /* Consecutive vectors keep gemv_reduce. */
    set(OCLBLAS__K_GEMV_N, "WGS=64,WPT=2,VW=4,UNR=4,STRM=0");
    p = gemv(0, 1000, 100000);
    plan = gemv_plan_of(&p);
    assert_true(plan.gemv.splits > 1);
    assert_int_equal(plan.gemv.finish, 0);
    assert_int_equal(plan.num_steps, 2);
}

static void test_gemv_scale(void **state)
{
    (void)state;
    /* alpha = 0: y = beta y on the strided vector, from its lowest element. */
    oclblas__gemv_problem p = gemv(0, 10, 20);
    p.alpha = 0.0f;
    p.beta = 3.0f;
    p.y.inc = -3;
    p.y.offset = 100; /* y[0], the last in memory */
    oclblas__plan plan = gemv_plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_SCALE);
    assert_string_equal(plan.step[0].entry, "scale_matrix");
    assert_int_equal(arg_i(&plan.step[0], 0), 1);
    assert_int_equal(arg_i(&plan.step[0], 1), 10);
    assert_int_equal(arg_i(&plan.step[0], 4), 100 - 9 * 3);
    assert_int_equal(arg_i(&plan.step[0], 5), 3);
}

/* ---- the log, as the caller wrote the call --------------------------------- */

static void test_describe(void **state)
{
    (void)state;
    /* Row-major C = A^T B (m 250, n 256) is column-major C^T = B^T A: the
     * plan's A is the caller's B, its B the caller's A. */
    oclblas__gemm_problem p = gemm(0, 1, 256, 250, 128); /* B^T: in place; A^T padded */
    oclblas__plan plan = plan_of(&p);
    assert_true(plan.fast.a_in_place && !plan.fast.b_in_place);
    const oclblas__call call = {"sgemm", OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 250, 256, 128};
    char text[300];
    oclblas__plan_describe(&call, &plan, text, sizeof text);
    assert_string_equal(text, "sgemm 250x256x128 TN: gemm_fast on 256x256x128, A padded, B in place, "
                              "1 slice of k; row-major");
}

/* ---- classes of shapes ------------------------------------------------------ */

/* Adds a class set to the test context: the kernel's set for every shape
 * with the named values changed. */
static void add_class(int kernel, const char *name, const char *rule, const char *text)
{
    oclblas__class_set *c = &cx.classes[kernel][cx.num_classes[kernel]++];
    memset(c, 0, sizeof *c);
    oclblas__strlcpy(c->cls.name, name, sizeof c->cls.name);
    char why[200] = "";
    if (!oclblas__class_parse(rule, &c->cls, why, sizeof why))
        fail_msg("%s: %s", rule, why);
    c->params = cx.params[kernel];
    assert_int_equal(oclblas__params_parse(kernel, text, &c->params, NULL), OCLBLAS_SUCCESS);
    assert_true(oclblas__params_legal(kernel, &c->params, &dev.lim, NULL));
}

/* An entry may hold a set of gemm_tc for each math mode: a class on the
 * products the mode asks for ("products <= 1": tf32) serves the tf32 mode
 * only, the set for every shape the accurate one. */
static void test_classes_by_mode(void **state)
{
    (void)state;
    routine(RT_GEMM_TC_MIN, 1000);
    add_class(OCLBLAS__K_GEMM_TC, "tf32", "products <= 1",
              "WN=64,PROMOTE=0,LOOP=1,PRODUCTS=1,KPAIR=1,PADA=4,PADB=4");
    oclblas__gemm_problem p = gemm(0, 0, 2048, 2048, 2048);
    p.mode = OCLBLAS_MATH_TF32;
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(main_step(&plan)->params.v[TC_KPAIR], 1);
    assert_int_equal(main_step(&plan)->params.v[TC_PRODUCTS], 1);
    assert_string_equal(plan.cls, "tf32");
    p.mode = OCLBLAS_MATH_ACCURATE;
    plan = plan_of(&p);
    assert_int_equal(main_step(&plan)->kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(main_step(&plan)->params.v[TC_KPAIR], 0);
    assert_int_equal(main_step(&plan)->params.v[TC_PRODUCTS], 6);
    /* The rule reads the quantity as it is written, and prints it back. */
    oclblas__shape_class c;
    char why[200], text[100];
    assert_true(oclblas__class_parse("products <= 1, m*n*k >= 1e9", &c, why, sizeof why));
    oclblas__class_format(&c, text, sizeof text);
    assert_string_equal(text, "products <= 1, m*n*k >= 1000000000");
    const oclblas__shape tf32 = {1000, 1000, 1000, 1}, accurate = {1000, 1000, 1000, 3};
    assert_true(oclblas__class_matches(&c, &tf32));
    assert_false(oclblas__class_matches(&c, &accurate));
}

/* The first class whose rule the column-major shape meets gives the set;
 * a shape of no class gets the set for every shape. */
static void test_classes_pick_sets(void **state)
{
    (void)state;
    /* Tiles of 64 x 16 where n is small, 16 x 64 where m is, and a split of k
     * aimed higher where k is much larger than m and n. */
    add_class(OCLBLAS__K_GEMM_FAST, "narrow-n", "n <= 64", "NWG=16,NDIMC=4,NDIMB=4,VWN=4");
    add_class(OCLBLAS__K_GEMM_FAST, "narrow-m", "m <= 64", "MWG=16,MDIMC=4,MDIMA=4,VWM=4");
    add_class(OCLBLAS__K_ROUTINE, "deep", "k/max(m,n) >= 8", "GEMM_SPLIT_K=8");

    oclblas__gemm_problem p = gemm(0, 1, 4096, 32, 4096); /* n 32: the narrow-n tile, 64 x 16 */
    oclblas__plan plan = plan_of(&p);
    assert_string_equal(plan.cls, "narrow-n");
    assert_int_equal(plan.fast.np, 32);
    assert_int_equal(plan.step[plan.main].params.v[GF_NWG], 16);
    assert_int_equal(plan.step[plan.main].geo.global[1], 2 * 4); /* 32 / 16 tiles of 4 work-items */
    p = gemm(0, 1, 32, 4096, 4096); /* m 32: the narrow-m tile */
    plan = plan_of(&p);
    assert_string_equal(plan.cls, "narrow-m");
    assert_int_equal(plan.fast.mp, 32);
    assert_int_equal(plan.fast.np, 4096);
    p = gemm(0, 1, 32, 48, 4096); /* both: the first class in the list wins */
    plan = plan_of(&p);
    assert_string_equal(plan.cls, "narrow-n");
    p = gemm(0, 1, 1024, 1024, 1024); /* no class: the set for every shape */
    plan = plan_of(&p);
    assert_string_equal(plan.cls, "");
    assert_int_equal(plan.fast.np, 1024);
    assert_int_equal(plan.step[plan.main].params.v[GF_NWG], 64);

    /* The routine values of a class decide the split: 256 x 256 x 65536 is
     * 16 tiles of C; 4 work-groups per compute unit want 33 slices, the
     * deep class's 8 want 66, of which 64 are allowed. */
    p = gemm(0, 1, 256, 256, 65536);
    assert_int_equal(plan_of(&p).fast.slices, 64);
    p = gemm(0, 1, 256, 256, 2047); /* k/max(m,n) < 8: the set for every shape */
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 8); /* 33 wanted, 2048 / 256 allowed */
    cx.num_classes[OCLBLAS__K_ROUTINE] = 0;
    p = gemm(0, 1, 256, 256, 65536);
    assert_int_equal(plan_of(&p).fast.slices, 33);
    add_class(OCLBLAS__K_ROUTINE, "deep", "k/max(m,n) >= 8", "GEMM_SPLIT_K=8");

    /* The parameters a plan reads are those of the class, through the one accessor. */
    const oclblas__shape narrow = {4096, 32, 4096, 0}, square = {512, 512, 512, 0};
    oclblas_status st;
    assert_ptr_equal(oclblas__devctx_params(&cx, OCLBLAS__K_GEMM_FAST, &narrow, &st),
                     &cx.classes[OCLBLAS__K_GEMM_FAST][0].params);
    assert_ptr_equal(oclblas__devctx_params(&cx, OCLBLAS__K_GEMM_FAST, &square, &st), &cx.params[OCLBLAS__K_GEMM_FAST]);
    assert_ptr_equal(oclblas__devctx_params(&cx, OCLBLAS__K_GEMM_FAST, NULL, &st), &cx.params[OCLBLAS__K_GEMM_FAST]);
    assert_null(oclblas__devctx_class(&cx, OCLBLAS__K_HELPERS, &narrow)); /* no classes of its own */
    /* A kernel the device cannot run has no set, classes or not. */
    cx.status[OCLBLAS__K_GEMM_FAST] = OCLBLAS_INVALID_PARAMS;
    assert_null(oclblas__devctx_params(&cx, OCLBLAS__K_GEMM_FAST, &narrow, &st));
    assert_int_equal(st, OCLBLAS_INVALID_PARAMS);
    assert_null(oclblas__devctx_class(&cx, OCLBLAS__K_GEMM_FAST, &narrow));
    cx.status[OCLBLAS__K_GEMM_FAST] = OCLBLAS_SUCCESS;

    /* A candidate of the tuner is in force for every shape: its classes go. */
    oclblas__devctx copy = cx;
    oclblas__devctx_set(&copy, OCLBLAS__K_GEMM_FAST, &cx.params[OCLBLAS__K_GEMM_FAST]);
    assert_int_equal(copy.num_classes[OCLBLAS__K_GEMM_FAST], 0);
    assert_int_equal(copy.num_classes[OCLBLAS__K_ROUTINE], 1);
}

/* A gemv is rows x cols x 1 to the rules; the log names the class. */
static void test_classes_gemv_and_log(void **state)
{
    (void)state;
    add_class(OCLBLAS__K_GEMV_N, "short", "m <= 256", "WGS=32,WPT=1,VW=8");
    oclblas__gemv_problem g = gemv(0, 200, 100000);
    oclblas__plan plan = gemv_plan_of(&g);
    assert_string_equal(plan.cls, "short");
    assert_int_equal(plan.step[0].geo.local[0], 32);
    g = gemv(1, 200, 100000); /* gemv_t has no class: its own set */
    assert_string_equal(gemv_plan_of(&g).cls, "");
    g = gemv(0, 300, 100000);
    assert_string_equal(gemv_plan_of(&g).cls, "");

    /* A row-major call's m is the column-major n: the caller's 32 x 4096 is the rule's n = 32. */
    add_class(OCLBLAS__K_GEMM_FAST, "narrow-n", "n <= 64", "NWG=16,NDIMC=4,NDIMB=4,VWN=4");
    oclblas__gemm_problem p = gemm(0, 0, 4096, 32, 4096);
    plan = plan_of(&p);
    const oclblas__call call = {"sgemm", OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 32, 4096, 4096};
    char text[300];
    oclblas__plan_describe(&call, &plan, text, sizeof text);
    assert_non_null(strstr(text, "sgemm 32x4096x4096 NN: gemm_fast [class narrow-n] on 32x4096x4096"));
    oclblas__call gcall = {"sgemv", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 200, 1000, 0};
    g = gemv(0, 200, 1000);
    plan = gemv_plan_of(&g);
    oclblas__plan_describe(&gcall, &plan, text, sizeof text);
    assert_non_null(strstr(text, "gemv_n [class short], "));
}

/* ---- descriptors ---------------------------------------------------------- */

static void test_derived_sizes(void **state)
{
    (void)state;
    char text[1024];
    const size_t need = oclblas__params_defines(OCLBLAS__K_GEMM_FAST, &cx.params[OCLBLAS__K_GEMM_FAST], text,
                                                sizeof text);
    assert_int_equal(need, strlen(text));
    assert_non_null(strstr(text, "-DMWG=64 "));
    assert_non_null(strstr(text, "-DMWI=4 "));  /* 64 / 16 */
    assert_non_null(strstr(text, "-DNVI=1 "));  /* 64 / 16 / 4 */
    assert_non_null(strstr(text, "-DKDIMA=16 ")); /* 256 / 16 */
    assert_non_null(strstr(text, "-DKWB=1"));
    /* Cut short, it says how much it needed. */
    char small[16];
    assert_int_equal(oclblas__params_defines(OCLBLAS__K_GEMM_FAST, &cx.params[OCLBLAS__K_GEMM_FAST], small,
                                             sizeof small),
                     need);
    assert_int_equal(strlen(small), sizeof small - 1);
    /* Without local memory for A, no sizes of its loader. */
    oclblas__params p = cx.params[OCLBLAS__K_GEMM_FAST];
    p.v[GF_SA] = 0;
    oclblas__params_defines(OCLBLAS__K_GEMM_FAST, &p, text, sizeof text);
    assert_null(strstr(text, "KDIMA"));
    oclblas__params_defines(OCLBLAS__K_GEMV_N, &cx.params[OCLBLAS__K_GEMV_N], text, sizeof text);
    assert_string_equal(text, "-DWGS=128 -DWPT=2 -DVW=4 -DUNR=4 -DSTRM=1 -DROWS_PER_GROUP=1024 -DFINISH=0");
    /* gemv_t derives no size (its team, and so its columns per work-group, are the call's), only which
     * of its two programs runs. */
    oclblas__params_defines(OCLBLAS__K_GEMV_T, &cx.params[OCLBLAS__K_GEMV_T], text, sizeof text);
    assert_string_equal(text, "-DWGS=128 -DTPC=16 -DVW=4 -DUNR=2 -DFINISH=0");
    p = cx.params[OCLBLAS__K_GEMV_T];
    p.v[GT_FINISH] = 1;
    oclblas__params_defines(OCLBLAS__K_GEMV_T, &p, text, sizeof text);
    assert_non_null(strstr(text, "-DFINISH=1"));
}

static void test_legality(void **state)
{
    (void)state;
    const char *why = NULL;
    oclblas__params p = {{0}};
    /* A partial assignment is judged by the rules it can decide. */
    p.v[GF_MWG] = 48;
    p.v[GF_MDIMC] = 16;
    assert_true(oclblas__params_legal_partial(OCLBLAS__K_GEMM_FAST, &p, OCLBLAS__P(GF_MWG) | OCLBLAS__P(GF_MDIMC),
                                              ~0u, NULL, &why));
    p.v[GF_VWM] = 2; /* 48 is no multiple of 16 * 2 */
    const unsigned three = OCLBLAS__P(GF_MWG) | OCLBLAS__P(GF_MDIMC) | OCLBLAS__P(GF_VWM);
    assert_false(oclblas__params_legal_partial(OCLBLAS__K_GEMM_FAST, &p, three, ~0u, NULL, &why));
    assert_string_equal(why, "MWG must be a multiple of MDIMC * VWM");
    /* Only the rules that read a fresh parameter: VWM alone is fine. */
    assert_true(oclblas__params_legal_partial(OCLBLAS__K_GEMM_FAST, &p, three, OCLBLAS__P(GF_VWN), NULL, &why));
    /* Out of range values are refused before any rule divides by them. */
    p.v[GF_MDIMC] = 0;
    assert_false(oclblas__params_legal_partial(OCLBLAS__K_GEMM_FAST, &p, three, ~0u, NULL, &why));
    assert_string_equal(why, "a parameter is outside its legal range");

    /* gemv_reduce runs PAD_DIMX * PAD_DIMY work-items in one dimension. */
    oclblas__params h = cx.params[OCLBLAS__K_HELPERS];
    const oclblas__limits narrow = {1024, {128, 1024, 64}, 48 * 1024, 0};
    assert_false(oclblas__params_legal(OCLBLAS__K_HELPERS, &h, &narrow, &why)); /* 32 * 8 > 128 */
    assert_non_null(strstr(why, "gemv_reduce"));
    h.v[HP_PAD_DIMY] = 4;
    assert_true(oclblas__params_legal(OCLBLAS__K_HELPERS, &h, &narrow, &why));
}

/* ---- the choice by the cost model ------------------------------------------------ */

/* The test context with the model's facts (those of the H200 entry) and
 * rates for its sets: gemm_fast 64 x 64 at 40 TFLOPS, gemm_direct at 8,
 * gemm_tc at 60. */
static void with_model(void)
{
    cx.model = (oclblas__model_device){16e-6, 8e-6, 3e12, 2.5e9, 1e9, dev.compute_units, 0, 0, 0};
    cx.rate[OCLBLAS__K_GEMM_FAST] = 40e12;
    cx.rate[OCLBLAS__K_GEMM_DIRECT] = 8e12;
    cx.rate[OCLBLAS__K_GEMM_TC] = 60e12;
}

/* gemv_t's two splits of work-groups more than half the target, worth
 * adding up only where reading A takes longer than three launches by the
 * model's facts (8 us each at 3 TB/s: 72 MB); always without them. */
static void test_gemv_split_worth(void **state)
{
    (void)state;
    oclblas__gemv_problem p = gemv(1, 4096, 2400); /* 300 groups of the target's 528, 39 MB */
    assert_int_equal(gemv_plan_of(&p).gemv.splits, 2);
    with_model();
    oclblas__plan plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.groups, 300);
    assert_int_equal(plan.gemv.splits, 1);
    assert_int_equal(plan.num_steps, 1);
    p = gemv(1, 8192, 2400); /* 79 MB */
    plan = gemv_plan_of(&p);
    assert_int_equal(plan.gemv.splits, 2);
    assert_int_equal(plan.num_steps, 2);
    p = gemv(1, 4096, 2112); /* 264 groups, half the target: split whatever the size */
    assert_int_equal(gemv_plan_of(&p).gemv.splits, 2);
}

/* The model's time of a plan, as the log line gives it (us). */
static double model_us(const oclblas__plan *plan)
{
    char text[400];
    const oclblas__call call = {"sgemm", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 1, 1, 1};
    oclblas__plan_describe(&call, plan, text, sizeof text);
    const char *at = strstr(text, "; model ");
    assert_non_null(at);
    double us = 0;
    assert_int_equal(sscanf(at, "; model %lf us", &us), 1);
    assert_true(fabs(us - plan->model.time_s * 1e6) < 0.06);
    return us;
}

/* Which kernel, set and split the model takes on plain shapes. */
static void test_model_choice(void **state)
{
    (void)state;
    with_model();
    /* A small product: one launch of gemm_direct on the caller's buffers
     * beats padding (launches of 8 us) for gemm_fast. */
    oclblas__gemm_problem p = gemm(0, 0, 121, 121, 121);
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    assert_true(plan.model.ways > 1);
    assert_true(model_us(&plan) > 16);
    /* Tile-aligned, in either layout, gemm_fast needs no pass: one launch at its higher rate. */
    for (int t = 0; t < 4; ++t) {
        p = gemm(t & 1, t >> 1, 128, 128, 128);
        plan = plan_of(&p);
        assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
        assert_int_equal(plan.num_steps, 1);
    }
    /* A large square in the strict mode: gemm_fast, k whole. */
    p = gemm(0, 0, 4096, 4096, 4096);
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_int_equal(plan.fast.slices, 1);
    /* In the accurate mode gemm_tc's higher rate wins, unless GEMM_TC_MIN is 0. */
    p.mode = OCLBLAS_MATH_ACCURATE;
    routine(RT_GEMM_TC_MIN, 1024);
    plan = plan_of(&p);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_TC);
    routine(RT_GEMM_TC_MIN, 0);
    plan = plan_of(&p);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    /* Few tiles of C and a long k: split, as far as 64 slices; not where GEMM_SPLIT_K is 0. */
    p = gemm(0, 1, 256, 256, 65536);
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_true(plan.fast.slices >= 8 && plan.fast.slices <= 64); /* 16 tiles: 8 slices fill 128 of 132 units */
    const double split_us = model_us(&plan);
    routine(RT_GEMM_SPLIT_K, 0);
    plan = plan_of(&p);
    assert_int_equal(plan.fast.slices, 1);
    assert_true(model_us(&plan) > 4 * split_us);
    routine(RT_GEMM_SPLIT_K, 4);
    /* GEMM_MAX_SLICE_K still bounds every slice. */
    routine(RT_GEMM_MAX_SLICE_K, 512);
    p = gemm(0, 1, 1024, 1024, 4096);
    plan = plan_of(&p);
    assert_true(plan.fast.slices >= 8 && plan.fast.k_slice <= 512);
    routine(RT_GEMM_MAX_SLICE_K, 0);
}

/* The model prices the passes it no longer needs: a tile-aligned operand
 * stored with k contiguous costs one launch where a misaligned one costs
 * three (two transpositions). */
static void test_model_along_k(void **state)
{
    (void)state;
    with_model();
    oclblas__gemm_problem p = gemm(1, 0, 4096, 4096, 1024);
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.num_steps, 1);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous);
    const double along_k = plan.model.time_s;
    p.a.ld = p.b.ld = 1025;
    plan = plan_of(&p);
    assert_int_equal(plan.num_steps, 3);
    /* Two launches (8 us each) and two passes, each reading and writing 16 MiB, at 3 TB/s. */
    assert_true(plan.model.time_s > along_k + 0.99 * (2 * 8e-6 + 4.0 * 4096 * 1024 * sizeof(float) / 3e12));
}

/* Every set of the entry is a candidate, whatever its class's rule; the
 * plan names the class; a set without a rate is not a candidate, and with
 * no rate for the set for every shape the rules decide as before. */
static void test_model_sets(void **state)
{
    (void)state;
    with_model();
    /* A tall tile that no rule of its class lets near a narrow product. */
    add_class(OCLBLAS__K_GEMM_FAST, "tall", "m >= 1000000",
              "MWG=128,NWG=16,MDIMC=16,NDIMC=4,MDIMA=16,NDIMB=4,VWM=4,VWN=4");
    cx.classes[OCLBLAS__K_GEMM_FAST][0].rate = 30e12;
    oclblas__gemm_problem p = gemm(0, 1, 8192, 16, 4096); /* n = 16: the 64 x 64 tile wastes 3/4 */
    oclblas__plan plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_string_equal(plan.cls, "tall");
    assert_int_equal(plan.fast.np, 16);
    /* Square products keep the set for every shape. */
    p = gemm(0, 1, 2048, 2048, 2048);
    plan = plan_of(&p);
    assert_string_equal(plan.cls, "");
    /* The tall set without a rate: not a candidate. */
    cx.classes[OCLBLAS__K_GEMM_FAST][0].rate = 0;
    p = gemm(0, 1, 8192, 16, 4096);
    plan = plan_of(&p);
    assert_string_equal(plan.cls, "");
    assert_true(plan.model.ways > 0);
    /* No rate for gemm_fast's set for every shape (an override, the
     * tuner's candidate): the routine values and the rules choose, as
     * without a model. */
    cx.rate[OCLBLAS__K_GEMM_FAST] = 0;
    p = gemm(0, 0, 100, 100, 99);
    plan = plan_of(&p);
    assert_int_equal(plan.model.ways, 0);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT); /* below GEMM_MIN_INDIRECT cubed */
    p = gemm(0, 0, 8192, 16, 4096);
    plan = plan_of(&p);
    assert_int_equal(plan.model.ways, 0);
    assert_int_equal(plan.fast.np, 64); /* the rule of "tall" does not take it */
}

/* More ways to choose from never make the chosen plan slower by the model:
 * the free choice is at most the choice without splits, without gemm_tc,
 * and without the direct kernel, on a spread of shapes, transposes and modes. */
static void test_model_never_worse(void **state)
{
    (void)state;
    with_model();
    routine(RT_GEMM_TC_MIN, 1024);
    static const size_t shapes[][3] = {{16, 16, 16},     {100, 100, 99},   {256, 256, 256},  {512, 512, 512},
                                       {1000, 1000, 1000}, {4096, 32, 4096}, {32, 4096, 4096}, {64, 16384, 1024},
                                       {256, 256, 65536}, {3001, 2999, 1000}, {4096, 4096, 128}, {7, 9000, 33}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int t = 0; t < 4; ++t)
            for (int mode = OCLBLAS_MATH_STRICT; mode <= OCLBLAS_MATH_ACCURATE; ++mode) {
                oclblas__gemm_problem p = gemm(t / 2, t % 2, shapes[i][0], shapes[i][1], shapes[i][2]);
                p.mode = (oclblas_math_mode)mode;
                const oclblas__plan free_plan = plan_of(&p);
                assert_true(free_plan.model.ways > 0);
                routine(RT_GEMM_SPLIT_K, 0);
                const oclblas__plan no_split = plan_of(&p);
                routine(RT_GEMM_SPLIT_K, 4);
                routine(RT_GEMM_TC_MIN, 0);
                const oclblas__plan no_tc = plan_of(&p);
                routine(RT_GEMM_TC_MIN, 1024);
                const double direct = cx.rate[OCLBLAS__K_GEMM_DIRECT];
                cx.rate[OCLBLAS__K_GEMM_DIRECT] = 1e-3; /* a direct kernel no plan would take */
                const oclblas__plan no_direct = plan_of(&p);
                cx.rate[OCLBLAS__K_GEMM_DIRECT] = direct;
                assert_true(free_plan.model.time_s <= no_split.model.time_s);
                assert_true(free_plan.model.time_s <= no_tc.model.time_s);
                assert_true(free_plan.model.time_s <= no_direct.model.time_s);
                assert_true(no_split.kind != OCLBLAS__PLAN_FAST || no_split.fast.slices == 1);
                assert_true(no_direct.kind == OCLBLAS__PLAN_FAST);
            }
}

/* A strided batch by the model: one launch for many small problems, one
 * launch of gemm_tc for large ones in the accurate mode (of gemm_fast in
 * the strict), and never slower per problem by the model than the single
 * problem's plan. */
static void test_model_batch(void **state)
{
    (void)state;
    with_model();
    routine(RT_GEMM_TC_MIN, 1024);
    /* 1000 x 32^3: one launch; each problem costs far less than a call of its own. */
    oclblas__gemm_problem p = gemm(0, 0, 32, 32, 32);
    oclblas__plan plan = batch_plan_of(&p, 1000, 32 * 32, 32 * 32, 32 * 32);
    const oclblas__plan one = plan_of(&p);
    assert_int_equal(plan.problems, 1000);
    assert_true(plan.model.ways > 2);
    assert_true(plan.model.time_s / 1000 < one.model.time_s / 10);
    assert_int_equal(plan.step[plan.main].geo.global[2], 1000);
    /* 64 x 512^3 in the accurate mode: gemm_tc's rate, its launch taking
     * the batch; in the strict mode one gemm_fast launch. */
    p = gemm(0, 1, 512, 512, 512);
    p.mode = OCLBLAS_MATH_ACCURATE;
    const size_t big = (size_t)512 * 512;
    plan = batch_plan_of(&p, 64, big, big, big);
    assert_int_equal(plan.problems, 64);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_TC);
    assert_int_equal(plan.step[plan.main].geo.global[2], 64);
    assert_true(plan.model.ways > 2);
    p.mode = OCLBLAS_MATH_STRICT;
    plan = batch_plan_of(&p, 64, big, big, big);
    assert_int_equal(plan.problems, 64);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_int_equal(plan.fast.slices, 1);
    /* Per problem, never slower by the model than a plan per problem. */
    static const size_t shapes[][4] = {{32, 32, 32, 1000}, {128, 128, 128, 256}, {512, 512, 512, 64},
                                       {1024, 1024, 1024, 16}, {128, 128, 64, 64}, {7, 300, 33, 500}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int t = 0; t < 4; ++t)
            for (int mode = OCLBLAS_MATH_STRICT; mode <= OCLBLAS_MATH_ACCURATE; ++mode) {
                const size_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2], count = shapes[i][3];
                p = gemm(t / 2, t % 2, m, n, k);
                p.mode = (oclblas_math_mode)mode;
                const oclblas__plan single = plan_of(&p);
                plan = batch_plan_of(&p, count, m * k, n * k, m * n);
                assert_true(plan.model.ways > 1);
                assert_true(plan.model.time_s / (double)plan.problems <= single.model.time_s * (1 + 1e-12));
                assert_true(plan.problems == 1 || plan.problems == count);
            }
}

/* gemm_direct by the model: a work-group costs its whole tile over k in
 * whole steps, however little of it lies inside C, and waits for its loads
 * at every step. A set with a larger tile and a higher rate runs a batch of
 * products of its tile's size, not of products much smaller than its tile,
 * nor a lone group's long chain of steps along k. */
static void test_model_direct_tiles(void **state)
{
    (void)state;
    with_model();
    cx.rate[OCLBLAS__K_GEMM_DIRECT] = 14e12; /* 32 x 32, steps of 16 */
    add_class(OCLBLAS__K_GEMM_DIRECT, "sixteen", "m >= 1000000", "WGD=16,KWGD=32,MDIMCD=8,NDIMCD=16");
    cx.classes[OCLBLAS__K_GEMM_DIRECT][0].rate = 8e12;
    oclblas__gemm_problem p = gemm(0, 0, 32, 32, 32);
    oclblas__plan plan = batch_plan_of(&p, 1000, 32 * 32, 32 * 32, 32 * 32);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    assert_string_equal(plan.cls, "");
    assert_int_equal(plan.step[0].geo.global[0] * plan.step[0].geo.global[1], 8 * 8); /* one group a problem */
    /* 8 x 8 products: a quarter of the smaller tile, a sixteenth of the
     * larger; by their useful multiply-adds alone the larger tile's rate
     * would take them. */
    p = gemm(0, 0, 8, 8, 32);
    plan = batch_plan_of(&p, 1000, 8 * 32, 32 * 8, 8 * 8);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    assert_string_equal(plan.cls, "sixteen");
    /* Priced as whole tiles: 16 x 16 products cost the same. */
    const double eight = plan.model.time_s;
    p = gemm(0, 0, 16, 16, 32);
    plan = batch_plan_of(&p, 1000, 16 * 32, 32 * 16, 16 * 16);
    assert_string_equal(plan.cls, "sixteen");
    assert_true(fabs(plan.model.time_s - eight) < 1e-12);
    /* And in whole steps of k: k = 17 costs two of the larger tile's steps, as k = 32. */
    p = gemm(0, 0, 32, 32, 17);
    const double k17 = batch_plan_of(&p, 1000, 32 * 17, 17 * 32, 32 * 32).model.time_s;
    p = gemm(0, 0, 32, 32, 32);
    assert_true(fabs(batch_plan_of(&p, 1000, 32 * 32, 32 * 32, 32 * 32).model.time_s - k17) < 1e-12);
    /* A lone work-group along a long k: without waits the direct kernel's
     * one launch; waiting 0.7 us at each of its 128 steps, gemm_fast with k
     * split across the device. */
    p = gemm(0, 0, 32, 32, 2048);
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    const double no_wait = plan.model.time_s;
    cx.model.step_wait_s = 0.7e-6;
    plan = plan_of(&p);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_true(plan.fast.slices > 1);
    assert_true(plan.model.time_s > no_wait && plan.model.time_s < 16e-6 + 128 * 0.7e-6);
}

/* What the compiled-in database gives the H100 and H200 for SGEMV on short
 * rows and at 4096 (column-major, as the kernels see them). */
static void test_gemv_database(void **state)
{
    (void)state;
    const char *names[] = {"NVIDIA H100 80GB HBM3", "NVIDIA H200"};
    for (int d = 0; d < 2; ++d) {
        oclblas__device_info gpu = known_as(names[d], "nvidia", "GPU", "SM9.0");
        oclblas__devctx out;
        assert_int_equal(oclblas__devctx_resolve(&gpu, &out), OCLBLAS_SUCCESS);
        oclblas__plan plan;
        /* Row-major N 65536 x 256: 256-long columns, the smallest team whose one step covers one
         * (the H100: 16 work-items of 4 vectors of 4, 16 columns a work-group of 256; the H200: 32
         * of 2 vectors of 4, 8 columns), no split. */
        oclblas__gemv_problem g = gemv(1, 256, 65536);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_string_equal(plan.cls, "gemv-short");
        const int short_team = d == 0 ? 16 : 32;
        assert_int_equal(arg_i(&plan.step[0], 19), short_team);
        assert_int_equal(plan.gemv.groups, 65536 / (256 / short_team));
        assert_int_equal(plan.gemv.splits, 1);
        /* Row-major T 65536 x 256: 256 outputs; teams of 8 (32 work-items of 2 rows along them), 4
         * work-groups along the rows, the columns split in multiples of 8 * 8 (64 splits), added up
         * in the same launch (8 for each member of the last work-group's team). */
        g = gemv(0, 256, 65536);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_int_equal(arg_i(&plan.step[0], 19), 8);
        assert_int_equal(plan.gemv.groups, 4);
        assert_int_equal(plan.gemv.splits, 64);
        assert_int_equal(plan.gemv.chunk % 64, 0);
        assert_int_equal(plan.gemv.finish, 1);
        assert_int_equal(plan.num_steps, 1);
        /* Row-major T 4096^2: teams of 8 make 64 work-groups before any split. */
        g = gemv(0, 4096, 4096);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_int_equal(arg_i(&plan.step[0], 19), 8);
        assert_int_equal(plan.gemv.groups, 64);
        /* Column-major N 3001 x 2999: gemv-n-mid's gemv_n set, rows one at a time, and its
         * GEMV_GROUPS_PER_CU 4. */
        g = gemv(0, 3001, 2999);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_string_equal(plan.cls, "gemv-n-mid");
        assert_int_equal(plan.step[0].params.v[GN_VW], 1);
        const oclblas__shape shape = {3001, 2999, 1, 0};
        oclblas_status st;
        assert_int_equal(oclblas__devctx_params(&out, OCLBLAS__K_ROUTINE, &shape, &st)->v[RT_GEMV_GROUPS_PER_CU], 4);
        /* Column-major T 2000^2: 2000 work-groups of a column, fewer than the H200's target of
         * 16 a unit but more than half of it, and 16 MB, read in less than three launches: no
         * split. */
        g = gemv(1, 2000, 2000);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_int_equal(plan.gemv.groups, 2000);
        assert_int_equal(plan.gemv.splits, 1);
        assert_int_equal(plan.num_steps, 1);
        /* Column-major T 3001 x 2999 on the H100: gemv-t-mid's set, 32 work-items a column; 4096^2
         * keeps gemv-small's. */
        g = gemv(1, 3001, 2999);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_string_equal(plan.cls, d == 0 ? "gemv-t-mid" : "gemv-small");
        if (d == 0)
            assert_int_equal(plan.step[0].params.v[GT_TPC], 32);
        g = gemv(1, 4096, 4096);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_string_equal(plan.cls, "gemv-small");
        /* Row-major N 8192^2: long columns keep the entry's TPC. */
        g = gemv(1, 8192, 8192);
        assert_int_equal(oclblas__gemv_plan(&out, &g, &plan), OCLBLAS_SUCCESS);
        assert_string_equal(plan.cls, "");
        assert_int_equal(arg_i(&plan.step[0], 19), out.params[OCLBLAS__K_GEMV_T].v[GT_TPC]);
    }
}

/* What the compiled-in database gives an H200: the model's choices on a
 * few of the shapes preset's problems (column-major, as the kernels see them). */
static void test_model_database(void **state)
{
    (void)state;
    oclblas__device_info h200 = known_as("NVIDIA H200", "nvidia", "GPU", "SM9.0");
    h200.lim.local_mem = 99 * 1024;
    oclblas__devctx out;
    assert_int_equal(oclblas__devctx_resolve(&h200, &out), OCLBLAS_SUCCESS);
    assert_true(oclblas__model_valid(&out.model));
    oclblas__plan plan;
    /* A tiny product: the direct kernel. */
    oclblas__gemm_problem p = gemm(0, 0, 128, 128, 128);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_DIRECT);
    /* 4096^3, whole: gemm_fast in the strict mode; in the accurate mode
     * gemm_tc's six BF16 products run near gemm_fast's rate, so the model
     * takes either, never slower by its own prices than the strict choice. */
    p = gemm(0, 1, 4096, 4096, 4096);
    p.mode = OCLBLAS_MATH_STRICT;
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_int_equal(plan.fast.slices, 1);
    const double strict_s = plan.model.time_s;
    p.mode = OCLBLAS_MATH_ACCURATE;
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_true(plan.step[plan.main].kernel == OCLBLAS__K_GEMM_TC || plan.step[plan.main].kernel == OCLBLAS__K_GEMM_FAST);
    assert_int_equal(plan.fast.slices, 1);
    assert_true(plan.model.time_s <= strict_s * (1 + 1e-12));
    /* 256 x 256 x 65536: k in many slices. */
    p = gemm(0, 1, 256, 256, 65536);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_true(plan.fast.slices >= 16);
    /* A row-major 32 x 4096 x 4096 (n = 32 here): a narrow tile, k split. */
    p = gemm(0, 0, 4096, 32, 4096);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.fast.np, 32);
    assert_true(plan.fast.slices > 1);
}

/* Sets the factors of the set for every shape's peeled program. */
static void set_peeled(double f, double a, double b)
{
    double *p = cx.peeled[OCLBLAS__K_GEMM_FAST];
    p[0] = f;
    p[1] = a;
    p[2] = b;
}

/* A set's peeled program runs by the model only where the entry gives its
 * factors, and there where the model prices it lower: without them a k
 * that is not whole tiles is padded; with a factor below 1 such a k is
 * read in place by it (no pass) while whole tiles of k run the first
 * program; above 1, every k runs it, priced faster by the factor; the
 * factors for operands along k count only where one is read so. The step
 * carries the program the plan chose. */
static void test_model_peeled(void **state)
{
    (void)state;
    with_model();
    oclblas__gemm_problem ragged = gemm(0, 1, 1024, 1024, 1000), whole = gemm(0, 1, 1024, 1024, 1024);
    oclblas__plan plan = plan_of(&ragged);
    assert_int_equal(plan.kind, OCLBLAS__PLAN_FAST);
    assert_false(plan.fast.peeled || plan.fast.a_in_place || plan.fast.b_in_place);
    assert_int_equal(plan.step[plan.main].params.v[GF_PEELED], 0);
    const double padded_s = plan.model.time_s;
    plan = plan_of(&whole);
    assert_false(plan.fast.peeled);
    const double first_s = plan.model.time_s;

    set_peeled(0.9, 1.5, 1.5); /* neither operand along k here: 0.9 */
    plan = plan_of(&ragged);
    assert_true(plan.fast.peeled && plan.fast.a_in_place && plan.fast.b_in_place);
    assert_false(plan.fast.a_k_contiguous || plan.fast.b_k_contiguous);
    assert_int_equal(plan.step[plan.main].params.v[GF_PEELED], 1);
    assert_int_equal(arg_i(&plan.step[plan.main], 2), 1000); /* the kernel's K: the real k */
    assert_true(plan.model.time_s < padded_s);
    plan = plan_of(&whole);
    assert_false(plan.fast.peeled);
    assert_true(fabs(plan.model.time_s - first_s) <= 1e-12);
    /* So low that the passes cost less: padded again. */
    set_peeled(0.2, 1, 1);
    plan = plan_of(&ragged);
    assert_false(plan.fast.peeled);

    set_peeled(1.1, 1, 1);
    plan = plan_of(&whole);
    assert_true(plan.fast.peeled && plan.fast.a_in_place && plan.fast.b_in_place);
    assert_int_equal(plan.step[plan.main].params.v[GF_PEELED], 1);
    assert_true(plan.model.time_s < first_s);

    /* A stored with k contiguous, read along k: 0.95 * 1.2 with it, peeled. */
    set_peeled(0.95, 1.2, 1);
    oclblas__gemm_problem along = gemm(1, 1, 1024, 1024, 1024);
    plan = plan_of(&along);
    assert_true(plan.fast.a_k_contiguous && !plan.fast.b_k_contiguous);
    assert_true(plan.fast.peeled);
    set_peeled(0.95, 1, 1.2); /* the factor for B, which is not read along k */
    plan = plan_of(&along);
    assert_false(plan.fast.peeled);

    /* A set without local memory for A has no peeled program, whatever its factors. */
    /* A batch's one launch runs the first program, whatever the factors
     * (here too small a gain to pay a call per problem). */
    set_peeled(1.02, 1, 1);
    plan = batch_plan_of(&whole, 16, 1024 * 1024, 1024 * 1024, 1024 * 1024);
    assert_int_equal(plan.problems, 16);
    assert_false(plan.fast.peeled);
    set_peeled(1.1, 1, 1);
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = 0;
    plan = plan_of(&whole);
    assert_false(plan.fast.peeled);
    assert_int_equal(plan.step[plan.main].params.v[GF_PEELED], 0);
    cx.params[OCLBLAS__K_GEMM_FAST].v[GF_SA] = 1;
    set_peeled(0, 0, 0);
}

/* The H100's entry: the set for every shape, which spills in its peeled
 * program, has no factors (it never runs peeled by the model), others
 * have some above 1; a narrow product that such a set takes, reading its
 * operands along k, runs peeled on whole tiles of k. */
static void test_peeled_database(void **state)
{
    (void)state;
    oclblas__device_info h100 = known_as("NVIDIA H100 80GB HBM3", "nvidia", "GPU", "SM9.0");
    oclblas__devctx out;
    assert_int_equal(oclblas__devctx_resolve(&h100, &out), OCLBLAS_SUCCESS);
    assert_true(out.peeled[OCLBLAS__K_GEMM_FAST][0] == 0);
    int above = 0;
    for (int i = 0; i < out.num_classes[OCLBLAS__K_GEMM_FAST]; ++i)
        above += out.classes[OCLBLAS__K_GEMM_FAST][i].peeled[0] > 1;
    assert_true(above > 0);
    /* 1500^3 in place: never the set for every shape peeled. */
    oclblas__gemm_problem square = gemm(0, 1, 1500, 1500, 1500);
    oclblas__plan square_plan;
    assert_int_equal(oclblas__gemm_plan(&out, &square, &square_plan), OCLBLAS_SUCCESS);
    assert_false(square_plan.fast.peeled && square_plan.cls[0] == '\0');
    /* Row-major TN 32 x 4096 x 4096: column-major 4096 x 32, both operands stored with k contiguous. */
    oclblas__gemm_problem p = gemm(1, 0, 4096, 32, 4096);
    oclblas__plan plan;
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_string_equal(plan.cls, "narrow-n");
    assert_true(plan.fast.peeled && plan.fast.a_k_contiguous);
}

/* Sets every gemm_fast set's share of its rate reading an operand (0: A,
 * 1: B) along k (0: the device's along_k_share stands for it). */
static void set_shares(oclblas__devctx *out, int operand, double share)
{
    out->along_k[OCLBLAS__K_GEMM_FAST][operand] = share;
    for (int i = 0; i < out->num_classes[OCLBLAS__K_GEMM_FAST]; ++i)
        out->classes[OCLBLAS__K_GEMM_FAST][i].along_k[operand] = share;
}

/* Reading an operand along k costs the entry's along_k_share of a set's
 * rate; a pass of the helpers turning it costs its bytes and a launch.
 * With the H100's entry the model reads the large operand of a narrow
 * problem along k (the pass would take longer than the product) and turns
 * both operands of a large square first (the pass is a few percent of
 * the product); with the share at 1 it reads the square along k too. */
static void test_along_k_weighed(void **state)
{
    (void)state;
    oclblas__device_info h100 = known_as("NVIDIA H100 80GB HBM3", "nvidia", "GPU", "SM9.0");
    oclblas__devctx out;
    assert_int_equal(oclblas__devctx_resolve(&h100, &out), OCLBLAS_SUCCESS);
    assert_true(out.model.along_k_share > 0 && out.model.along_k_share < 1);
    oclblas__plan plan;
    /* Row-major NT 64 x 16384 x 1024: column-major 16384 x 64, A (16384 x 1024) stored with k contiguous. */
    oclblas__gemm_problem p = gemm(1, 0, 16384, 64, 1024);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_true(plan.fast.a_k_contiguous);
    /* Both operands stored with k contiguous at 4096^3: both turned first. */
    p = gemm(1, 0, 4096, 4096, 4096);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_false(plan.fast.a_k_contiguous || plan.fast.b_k_contiguous);
    assert_true(plan.fast.a_transposed && plan.fast.b_transposed);
    const double turned_s = plan.model.time_s;
    out.model.along_k_share = 1;
    set_shares(&out, 0, 0); /* the sets' own shares too: the device's stands for them */
    set_shares(&out, 1, 0);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_true(plan.fast.a_k_contiguous && plan.fast.b_k_contiguous);
    assert_true(plan.model.time_s < turned_s);
}

/* A set's own shares along k (the entry's "along_k_shares", one for A and
 * one for B) price it in place of the device's along_k_share: on the
 * H100, 256 x 256 x 65536 with B stored with k contiguous reads B along k
 * (the set for every shape keeps 0.95 of its rate so), more slowly by the
 * device's share, and turns B first where every set's share for B is
 * small. */
static void test_along_k_per_set(void **state)
{
    (void)state;
    oclblas__device_info h100 = known_as("NVIDIA H100 80GB HBM3", "nvidia", "GPU", "SM9.0");
    oclblas__devctx out;
    assert_int_equal(oclblas__devctx_resolve(&h100, &out), OCLBLAS_SUCCESS);
    const double *along_k = out.along_k[OCLBLAS__K_GEMM_FAST];
    assert_true(along_k[0] > 0 && along_k[0] < along_k[1] && along_k[1] > out.model.along_k_share);
    oclblas__gemm_problem p = gemm(0, 0, 256, 256, 65536);
    oclblas__plan plan;
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_int_equal(plan.step[plan.main].kernel, OCLBLAS__K_GEMM_FAST);
    assert_true(plan.fast.b_k_contiguous);
    const double own_s = plan.model.time_s;
    set_shares(&out, 1, 0);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_true(plan.model.time_s > own_s);
    set_shares(&out, 1, 0.1);
    assert_int_equal(oclblas__gemm_plan(&out, &p, &plan), OCLBLAS_SUCCESS);
    assert_false(plan.fast.b_k_contiguous);
    assert_true(plan.fast.b_transposed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_scale_and_nothing, setup), cmocka_unit_test_setup(test_gemm_as_gemv, setup),
        cmocka_unit_test_setup(test_crossover, setup),         cmocka_unit_test_setup(test_in_place, setup),
        cmocka_unit_test_setup(test_in_place_along_k, setup),  cmocka_unit_test_setup(test_along_k_per_set, setup),
        cmocka_unit_test_setup(test_model_peeled, setup),      cmocka_unit_test_setup(test_peeled_database, setup),
        cmocka_unit_test_setup(test_batch_along_k, setup),     cmocka_unit_test_setup(test_model_along_k, setup),
        cmocka_unit_test_setup(test_split_k, setup),           cmocka_unit_test_setup(test_cpu_kernel, setup),
        cmocka_unit_test_setup(test_too_large, setup),
        cmocka_unit_test_setup(test_no_legal_set, setup),
        cmocka_unit_test_setup(test_batch_direct, setup),      cmocka_unit_test_setup(test_batch_fast, setup),
        cmocka_unit_test_setup(test_batch_rules, setup),       cmocka_unit_test_setup(test_model_batch, setup),
        cmocka_unit_test_setup(test_model_direct_tiles, setup),
        cmocka_unit_test_setup(test_small_device_resolves, setup),      cmocka_unit_test_setup(test_gemv_split, setup),
        cmocka_unit_test_setup(test_gemv_split_worth, setup),           cmocka_unit_test_setup(test_gemv_finish, setup),
        cmocka_unit_test_setup(test_gemv_scale, setup),        cmocka_unit_test_setup(test_describe, setup),
        cmocka_unit_test_setup(test_derived_sizes, setup),     cmocka_unit_test_setup(test_legality, setup),
        cmocka_unit_test_setup(test_tc_choice, setup),         cmocka_unit_test_setup(test_tc_geometry, setup),
        cmocka_unit_test_setup(test_tc_descriptor, setup),     cmocka_unit_test_setup(test_tc_database, setup),
        cmocka_unit_test_setup(test_tc_ragged_database, setup),
        cmocka_unit_test_setup(test_classes_pick_sets, setup), cmocka_unit_test_setup(test_classes_by_mode, setup),
        cmocka_unit_test_setup(test_classes_gemv_and_log, setup), cmocka_unit_test_setup(test_model_choice, setup),
        cmocka_unit_test_setup(test_model_sets, setup),        cmocka_unit_test_setup(test_model_never_worse, setup),
        cmocka_unit_test_setup(test_model_database, setup),    cmocka_unit_test_setup(test_along_k_weighed, setup),    cmocka_unit_test_setup(test_gemv_database, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
