/*
 * SGEMM against OpenBLAS: both layouts, all three transposes of A and B,
 * sizes 1 to 257 in every dimension, alpha and beta including 0 and 1,
 * padded leading dimensions and element offsets; the same sweep through the
 * database's parameters, four hand-picked gemm_fast sets that between them
 * take every code path of the kernel (local memory on and off, strided on
 * and off, vector widths 1, 2, 4 and 8), operands stored with k contiguous
 * read in place along k, operands that are not whole tiles read in place,
 * and two gemm_direct sets; long k split into slices.
 */
#include "testutil.h"
#include "util/verify.h"

#include <cblas.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {1, 2, 7, 16, 33, 64, 100, 129, 257};
#define NSIZES (sizeof sizes / sizeof sizes[0])
static const float alphas[] = {1.0f, 1.0f, -1.5f, 0.0f, 0.75f};
static const float betas[] = {0.0f, 1.0f, 0.5f, 2.0f, 0.0f};
static const oclblas_transpose transposes[] = {OCLBLAS_NO_TRANS, OCLBLAS_TRANS, OCLBLAS_CONJ_TRANS};

/* Every size appears once as m, once as n and once as k; two more triples
 * are tile multiples, so that gemm_fast also reads operands in place. */
static void triple(int i, size_t *m, size_t *n, size_t *k)
{
    if (i < (int)NSIZES) {
        *m = sizes[i];
        *n = sizes[(i + 3) % NSIZES];
        *k = sizes[(i + 6) % NSIZES];
    } else if (i == (int)NSIZES) {
        *m = *n = *k = 64;
    } else {
        *m = 128;
        *n = 64;
        *k = 32;
    }
}
#define NTRIPLES ((int)NSIZES + 2)

static void sweep(const char *what)
{
    tu_env env;
    tu_get_env(&env);
    int cases = 0, failures = 0;
    double worst = 0.0;
    for (int l = 0; l < 2; ++l) {
        const oclblas_layout layout = l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR;
        for (int ia = 0; ia < 3; ++ia) {
            for (int ib = 0; ib < 3; ++ib) {
                for (int t = 0; t < NTRIPLES; ++t) {
                    size_t m, n, k;
                    triple(t, &m, &n, &k);
                    const int v = cases % 5;
                    const size_t pad = (cases % 3 == 1) ? 3 : 0;
                    const int offs = cases % 2;
                    const double r = tu_gemm_case(&env, 0, layout, transposes[ia], transposes[ib], m, n, k, alphas[v],
                                                  betas[v], pad, offs ? 5 : 0, offs ? 3 : 0, offs ? 7 : 0,
                                                  1234u + (unsigned)cases);
                    if (r > 1.0) {
                        print_message("%s: FAILED %s %c%c m=%zu n=%zu k=%zu alpha=%g beta=%g pad=%zu offsets=%d: "
                                      "error %.3g x bound\n",
                                      what, l ? "row" : "col", "NTC"[ia], "NTC"[ib], m, n, k, (double)alphas[v],
                                      (double)betas[v], pad, offs, r);
                        ++failures;
                    }
                    if (r > worst)
                        worst = r;
                    ++cases;
                }
            }
        }
    }
    print_message("%s: %d cases, worst error %.3g of the bound\n", what, cases, worst);
    assert_int_equal(failures, 0);
}

static void with_params(const char *what, const char *routine, const char *fast, const char *direct)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", routine);
    tu_override(&env, "gemm_fast", fast);
    tu_override(&env, "gemm_direct", direct);
    sweep(what);
    tu_override(&env, "routine", NULL);
    tu_override(&env, "gemm_fast", NULL);
    tu_override(&env, "gemm_direct", NULL);
}

static void test_database_params(void **state)
{
    (void)state;
    sweep("database parameters");
}

/* GEMM_MIN_INDIRECT=0: every product with m, n > 1 goes through gemm_fast. */
static void test_fast_global_scalar(void **state)
{
    (void)state;
    with_params("gemm_fast SA=0 SB=0 STRM=0 STRN=0 VW=1/1", "GEMM_MIN_INDIRECT=0",
                "MWG=16,NWG=16,KWG=8,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=1,VWM=1,VWN=1,STRM=0,STRN=0,SA=0,SB=0", NULL);
}

static void test_fast_local_strided(void **state)
{
    (void)state;
    with_params("gemm_fast SA=1 SB=1 STRM=1 STRN=1 VW=2/4", "GEMM_MIN_INDIRECT=0",
                "MWG=32,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=2,VWM=2,VWN=4,STRM=1,STRN=1,SA=1,SB=1", NULL);
}

static void test_fast_local_a(void **state)
{
    (void)state;
    with_params("gemm_fast SA=1 SB=0 STRM=0 STRN=1 VW=8/2", "GEMM_MIN_INDIRECT=0",
                "MWG=64,NWG=32,KWG=16,MDIMC=8,NDIMC=16,MDIMA=8,NDIMB=16,KWI=4,VWM=8,VWN=2,STRM=0,STRN=1,SA=1,SB=0",
                NULL);
}

static void test_fast_local_b(void **state)
{
    (void)state;
    with_params("gemm_fast SA=0 SB=1 STRM=1 STRN=0 VW=4/8", "GEMM_MIN_INDIRECT=0",
                "MWG=32,NWG=64,KWG=32,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=8,VWM=4,VWN=8,STRM=1,STRN=0,SA=0,SB=1", NULL);
}

/* The four gemm_fast sets between them take every way of staging an
 * operand: local memory for both, for A alone, for B alone, vector widths
 * 1 to 8 (1 to 32 vectors of k a row of a tile). */
static const char *const staged_sets[] = {
    "MWG=32,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=2,VWM=2,VWN=4,STRM=1,STRN=1,SA=1,SB=1",
    "MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=4,VWM=8,VWN=1,STRM=0,STRN=0,SA=1,SB=1",
    "MWG=64,NWG=32,KWG=16,MDIMC=16,NDIMC=8,MDIMA=16,NDIMB=8,KWI=8,VWM=4,VWN=2,STRM=1,STRN=0,SA=1,SB=0",
    "MWG=16,NWG=64,KWG=8,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=8,VWM=1,VWN=8,STRM=0,STRN=1,SA=0,SB=1",
    NULL, /* the database's */
};
#define NUM_STAGED_SETS (sizeof staged_sets / sizeof staged_sets[0])

/* Every set of staged_sets, both layouts, the first num_trans transposes
 * of each operand, each shape, with the extra leading dimension and the
 * offsets of A, B and C of extras in turn, alpha and beta in turn (beta 0
 * over NaN included), every product through gemm_fast; the first set with
 * GEMM_SPLIT_K 64 (few tiles of C: a long k split). */
static void staged_sweep(const char *what, const size_t (*shapes)[3], size_t num_shapes, int num_trans,
                         const size_t (*extras)[4], size_t num_extras, unsigned seed)
{
    tu_env env;
    tu_get_env(&env);
    int cases = 0, failures = 0;
    double worst = 0.0;
    for (size_t set = 0; set < NUM_STAGED_SETS; ++set) {
        tu_override(&env, "routine", set == 0 ? "GEMM_MIN_INDIRECT=0,GEMM_SPLIT_K=64" : "GEMM_MIN_INDIRECT=0");
        tu_override(&env, "gemm_fast", staged_sets[set]);
        for (int l = 0; l < 2; ++l)
            for (int ia = 0; ia < num_trans; ++ia)
                for (int ib = 0; ib < num_trans; ++ib)
                    for (size_t sh = 0; sh < num_shapes; ++sh) {
                        const size_t *o = extras[(cases + sh) % num_extras];
                        const size_t *d = shapes[sh];
                        const int v = cases % 5;
                        const double r = tu_gemm_case(&env, 0, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR,
                                                      transposes[ia], transposes[ib], d[0], d[1], d[2], alphas[v],
                                                      betas[v], o[0], o[1], o[2], o[3], seed + (unsigned)cases);
                        if (r > 1.0) {
                            print_message("%s: FAILED set %zu %s %c%c %zux%zux%zu alpha=%g beta=%g pad=%zu offsets "
                                          "%zu %zu %zu: error %.3g x bound\n",
                                          what, set, l ? "row" : "col", "NTC"[ia], "NTC"[ib], d[0], d[1], d[2],
                                          (double)alphas[v], (double)betas[v], o[0], o[1], o[2], o[3], r);
                            ++failures;
                        }
                        worst = r > worst ? r : worst;
                        ++cases;
                    }
    }
    tu_override(&env, "routine", NULL);
    tu_override(&env, "gemm_fast", NULL);
    print_message("%s: %d cases, worst error %.3g of the bound\n", what, cases, worst);
    assert_int_equal(failures, 0);
}

/* Operands stored with k contiguous (a transposed A, an untransposed B in
 * the plan's column-major terms) read in place along k by the sets with
 * local memory for them, every layout and transpose pair, sizes that are
 * tile multiples of every set (in place: leading dimensions and offsets
 * in whole vectors, or more than the minimum) and sizes or offsets that
 * are not (through the helpers), and a long k split into slices.
 * OCLBLAS_VERBOSE=1 names the operands read "in place along k". */
static void test_fast_k_contiguous(void **state)
{
    (void)state;
    static const size_t shapes[][3] = {{128, 64, 64}, {64, 128, 96}, {100, 70, 40}, {128, 64, 2048}};
    /* The extra leading dimension and the offsets (A, B, C): whole vectors of 8 or not. */
    static const size_t extras[][4] = {{0, 0, 0, 0}, {8, 16, 8, 3}, {3, 0, 0, 0}, {0, 5, 3, 1}};
    staged_sweep("operands stored with k contiguous", shapes, sizeof shapes / sizeof shapes[0], 3, extras,
                 sizeof extras / sizeof extras[0], 4321u);
}

/* Operands whose m and n are not whole tiles (but at least one and whole
 * vectors) read in place, the edge tiles moved back, and whose k is not
 * whole tiles read in place by a set's program for such a k (sets with
 * local memory for both operands; else padded), split or not; n not whole
 * vectors (padded). OCLBLAS_VERBOSE=1 says "peeled (k read ragged)". */
static void test_fast_ragged(void **state)
{
    (void)state;
    static const size_t shapes[][3] = {{72, 136, 64}, {136, 72, 100}, {200, 104, 1000}, {72, 73, 44}, {72, 136, 44}};
    static const size_t extras[][4] = {{0, 0, 0, 0}, {8, 16, 8, 3}, {3, 0, 0, 0}};
    staged_sweep("operands not whole tiles", shapes, sizeof shapes / sizeof shapes[0], 2, extras,
                 sizeof extras / sizeof extras[0], 5150u);
}

/* GEMM_MIN_INDIRECT huge: everything goes through gemm_direct. */
static void test_direct_padded(void **state)
{
    (void)state;
    with_params("gemm_direct WGD=16 KWGD=8 PAD=1", "GEMM_MIN_INDIRECT=1000000", NULL,
                "WGD=16,KWGD=8,MDIMCD=8,NDIMCD=8,KWID=2,PADA=1,PADB=1");
}

static void test_direct_unpadded(void **state)
{
    (void)state;
    with_params("gemm_direct WGD=32 KWGD=16 PAD=0", "GEMM_MIN_INDIRECT=1000000", NULL,
                "WGD=32,KWGD=16,MDIMCD=16,NDIMCD=8,KWID=4,PADA=0,PADB=0");
}

/* A product above the database's crossover, so that the default plan picks gemm_fast. */
static void test_above_crossover(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char buf[512];
    TU_CHECK(oclblas_get_params(env.device, "routine", buf, sizeof buf));
    int crossover = 0;
    const char *p = strstr(buf, "GEMM_MIN_INDIRECT=");
    assert_non_null(p);
    crossover = atoi(p + strlen("GEMM_MIN_INDIRECT="));
    const size_t s = (size_t)crossover + 37;
    double r = tu_gemm_case(&env, 0, OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, s, s + 5, s - 3, 1.0f, 0.0f,
                            1, 0, 0, 0, 99);
    print_message("above crossover (%zu): error %.3g of the bound\n", s, r);
    assert_true(r <= 1.0);
    r = tu_gemm_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, s, s - 1, s + 2, -0.5f, 1.5f, 0, 3, 1,
                     2, 100);
    assert_true(r <= 1.0);
}

/* GEMM_SPLIT_K at its maximum: products whose tiles of C are few and whose
 * k is long have k cut into slices (of at least 256) that sum_slices adds,
 * uneven last slices, beta over NaN and tiles moved back from C's edge (m
 * and n not whole tiles, read in place) included (OCLBLAS_VERBOSE=1 shows
 * "N slices of k" for each). */
static void split_sweep(const char *what, const char *fast)
{
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "GEMM_MIN_INDIRECT=0,GEMM_SPLIT_K=64");
    tu_override(&env, "gemm_fast", fast);
    static const size_t shapes[][3] = {{7, 33, 1000}, {64, 64, 4096}, {129, 100, 2049}, {257, 16, 777},
                                       {33, 2, 600},  {100, 68, 1500}, {200, 136, 1500}};
    int cases = 0, failures = 0;
    double worst = 0.0;
    for (int l = 0; l < 2; ++l)
        for (int ia = 0; ia < 2; ++ia)
            for (int ib = 0; ib < 2; ++ib)
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh) {
                    const int v = cases % 5, offs = cases % 2;
                    const double r = tu_gemm_case(&env, 0, l ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[ia],
                                                  transposes[ib], shapes[sh][0], shapes[sh][1], shapes[sh][2],
                                                  alphas[v], betas[v], cases % 3 == 1 ? 3 : 0, offs ? 5 : 0,
                                                  offs ? 3 : 0, offs ? 7 : 0, 777u + (unsigned)cases);
                    if (r > 1.0) {
                        print_message("%s: FAILED %s %c%c %zux%zux%zu alpha=%g beta=%g: error %.3g x bound\n", what,
                                      l ? "row" : "col", "NT"[ia], "NT"[ib], shapes[sh][0], shapes[sh][1],
                                      shapes[sh][2], (double)alphas[v], (double)betas[v], r);
                        ++failures;
                    }
                    worst = r > worst ? r : worst;
                    ++cases;
                }
    tu_override(&env, "routine", NULL);
    tu_override(&env, "gemm_fast", NULL);
    print_message("%s: %d cases, worst error %.3g of the bound\n", what, cases, worst);
    assert_int_equal(failures, 0);
}

static void test_split_k(void **state)
{
    (void)state;
    split_sweep("split k, database's gemm_fast", NULL);
    split_sweep("split k, gemm_fast SA=1 SB=1 VW=2/4",
                "MWG=32,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=2,VWM=2,VWN=4,STRM=1,STRN=1,SA=1,SB=1");
}

/* Buffers over misaligned host memory, with sizes and offsets that would
 * otherwise let gemm_fast read A and B in place and store whole vectors of C. */
static void test_misaligned_host_memory(void **state)
{
    (void)state;
    tu_misaligned_host_buffers = 1;
    with_params("misaligned host memory", "GEMM_MIN_INDIRECT=0",
                "MWG=32,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=2,VWM=4,VWN=8,STRM=1,STRN=1,SA=1,SB=1", NULL);
    tu_misaligned_host_buffers = 0;
}

/* Calls enqueued back to back without waiting, each reusing the scratch
 * set that the one before may still be reading (padded operands, slices of
 * k), on the queues given in turn: on one in-order queue nothing but the
 * queue's order keeps them apart; on an out-of-order one, the events the
 * library chains; on two in-order queues whose calls ask for no event, the
 * markers the library enqueues where the set's last use was. Each result
 * against OpenBLAS, row-major, alpha 1, beta 0 (C starts as NaN). */
static void back_to_back(const tu_env *env, const cl_command_queue *queues, int nq, int with_events, const char *what)
{
    static const size_t shapes[][3] = {{100, 90, 700}, {64, 64, 4096}, {33, 129, 257}, {7, 300, 1000}, {128, 64, 32},
                                       {257, 16, 777}};
    enum { N = sizeof shapes / sizeof shapes[0] };
    cl_mem da[N], db[N], dc[N];
    cl_event ev[N];
    float *a[N], *b[N];
    unsigned seed = 4242u;
    for (int i = 0; i < N; ++i) {
        const size_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        a[i] = malloc(m * k * sizeof(float));
        b[i] = malloc(k * n * sizeof(float));
        float *c = malloc(m * n * sizeof(float));
        tu_fill(a[i], m * k, &seed);
        tu_fill(b[i], k * n, &seed);
        for (size_t j = 0; j < m * n; ++j)
            c[j] = NAN;
        da[i] = tu_buffer(env, a[i], m * k);
        db[i] = tu_buffer(env, b[i], k * n);
        dc[i] = tu_buffer(env, c, m * n);
        free(c);
    }
    for (int i = 0; i < N; ++i) {
        const size_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        ev[i] = NULL;
        TU_CHECK(oclblas_sgemm_cl(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, 1.0f, da[i], 0, k,
                                  db[i], 0, n, 0.0f, dc[i], 0, n, queues[i % nq], with_events ? &ev[i] : NULL));
    }
    /* The last queue first: its calls wait on markers in the others, which
     * the library must have flushed, or a driver that does not flush by
     * itself waits for ever. */
    if (!with_events)
        for (int j = nq; j-- > 0;)
            clFinish(queues[j]);
    double worst = 0.0;
    for (int i = 0; i < N; ++i) {
        const size_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        float *got = malloc(m * n * sizeof(float)), *ref = calloc(m * n, sizeof(float));
        float *bound = calloc(m * n, sizeof(float)), *aa = malloc(m * k * sizeof(float)), *ab = malloc(k * n * sizeof(float));
        assert_int_equal(clEnqueueReadBuffer(queues[0], dc[i], CL_TRUE, 0, m * n * sizeof(float), got, ev[i] ? 1 : 0,
                                             ev[i] ? &ev[i] : NULL, NULL),
                         CL_SUCCESS);
        for (size_t j = 0; j < m * k; ++j)
            aa[j] = fabsf(a[i][j]);
        for (size_t j = 0; j < k * n; ++j)
            ab[j] = fabsf(b[i][j]);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a[i], (int)k, b[i], (int)n,
                    0.0f, ref, (int)n);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, aa, (int)k, ab, (int)n,
                    0.0f, bound, (int)n);
        for (size_t j = 0; j < m * n; ++j) {
            const double err = fabs((double)got[j] - (double)ref[j]);
            const double r = isnan(got[j]) ? INFINITY : err / oclblas__error_bound(k, bound[j]);
            worst = r > worst ? r : worst;
        }
        free(got); free(ref); free(bound); free(aa); free(ab);
        if (ev[i])
            clReleaseEvent(ev[i]);
        clReleaseMemObject(da[i]);
        clReleaseMemObject(db[i]);
        clReleaseMemObject(dc[i]);
        free(a[i]);
        free(b[i]);
    }
    print_message("%s: %d calls back to back, worst error %.3g of the bound\n", what, N, worst);
    assert_true(worst <= 1.0);
}

static void test_queue_order(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    /* Every product padded into scratch, long k split into slices. */
    tu_override(&env, "routine", "GEMM_MIN_INDIRECT=0,GEMM_SPLIT_K=64");
    back_to_back(&env, &env.queue, 1, 1, "in-order queue, an event each");
    back_to_back(&env, &env.queue, 1, 0, "in-order queue, no events");
    cl_int err;
    const cl_command_queue two[2] = {env.queue, clCreateCommandQueue(env.context, env.device, 0, &err)};
    assert_int_equal(err, CL_SUCCESS);
    back_to_back(&env, two, 2, 0, "two in-order queues in turn, no events");
    cl_command_queue_properties props = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        cl_command_queue ooo =
            clCreateCommandQueue(env.context, env.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
        assert_int_equal(err, CL_SUCCESS);
        back_to_back(&env, &ooo, 1, 1, "out-of-order queue");
        const cl_command_queue mixed[2] = {two[1], ooo};
        back_to_back(&env, mixed, 2, 1, "an in-order and an out-of-order queue in turn");
        clFinish(ooo);
        clReleaseCommandQueue(ooo);
    } else {
        print_message("the device has no out-of-order queues: those cases are not run\n");
    }
    clReleaseCommandQueue(two[1]);
    tu_override(&env, "routine", NULL);
}

/* One shape called again and again, each call differing from the one
 * before in one thing only (alpha, beta, an offset, the alignment, a
 * transpose, the math mode, the parameters in force): the thread's last
 * plan is reused only for the same call, so each result is right. */
static void test_repeated_calls(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    static const struct {
        float alpha, beta;
        size_t a_off, c_off;
        oclblas_transpose tb;
        oclblas_math_mode mode;
        const char *routine;
    } calls[] = {
        {1.0f, 0.0f, 0, 0, OCLBLAS_NO_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {1.0f, 0.0f, 0, 0, OCLBLAS_NO_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {-2.0f, 0.0f, 0, 0, OCLBLAS_NO_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {-2.0f, 0.5f, 0, 0, OCLBLAS_NO_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {-2.0f, 0.5f, 3, 0, OCLBLAS_NO_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {-2.0f, 0.5f, 4, 0, OCLBLAS_NO_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {-2.0f, 0.5f, 4, 5, OCLBLAS_NO_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {-2.0f, 0.5f, 4, 5, OCLBLAS_TRANS, OCLBLAS_MATH_STRICT, NULL},
        {-2.0f, 0.5f, 4, 5, OCLBLAS_TRANS, OCLBLAS_MATH_ACCURATE, NULL},
        {-2.0f, 0.5f, 4, 5, OCLBLAS_TRANS, OCLBLAS_MATH_ACCURATE, "GEMM_MIN_INDIRECT=0,GEMM_SPLIT_K=64"},
        {-2.0f, 0.5f, 4, 5, OCLBLAS_TRANS, OCLBLAS_MATH_ACCURATE, "GEMM_MIN_INDIRECT=100000"},
        {-2.0f, 0.5f, 4, 5, OCLBLAS_TRANS, OCLBLAS_MATH_ACCURATE, NULL},
    };
    const oclblas_math_mode before = oclblas_get_math_mode();
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; ++i) {
        oclblas_set_math_mode(calls[i].mode);
        if (i > 0 && calls[i].routine != calls[i - 1].routine) /* an override makes a new snapshot */
            tu_override(&env, "routine", calls[i].routine);
        const double r = tu_gemm_case(&env, 0, OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, calls[i].tb, 100, 90, 700,
                                      calls[i].alpha, calls[i].beta, 0, calls[i].a_off, 0, calls[i].c_off, 31u + (unsigned)i);
        if (r > 1.0)
            print_message("call %zu: error %.3g of the bound\n", i, r);
        assert_true(r <= 1.0);
    }
    tu_override(&env, "routine", NULL);
    oclblas_set_math_mode(before);
}

/* An argument picks the tests to run (a cmocka pattern: "test_fast_*"). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_database_params), cmocka_unit_test(test_fast_global_scalar),
        cmocka_unit_test(test_fast_local_strided), cmocka_unit_test(test_fast_local_a),
        cmocka_unit_test(test_fast_local_b), cmocka_unit_test(test_fast_k_contiguous),
        cmocka_unit_test(test_fast_ragged),
        cmocka_unit_test(test_direct_padded),
        cmocka_unit_test(test_direct_unpadded), cmocka_unit_test(test_above_crossover),
        cmocka_unit_test(test_misaligned_host_memory), cmocka_unit_test(test_split_k),
        cmocka_unit_test(test_queue_order), cmocka_unit_test(test_repeated_calls),
    };
    return cmocka_run_group_tests_name("sgemm", tests, NULL, NULL);
}
