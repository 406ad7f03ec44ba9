/*
 * Host-pointer SGEMM through the pipelined tiles, and everything that must
 * work at any size, on small problems: ctest runs it with the index limit
 * lowered (OCLBLAS_INDEX_LIMIT) so that a few hundred rows take the paths
 * of problems of billions of elements, with copies instead of zero-copy
 * (OCLBLAS_HOST_ZERO_COPY=0, the path of discrete GPUs), and once per
 * setting that the argument names:
 *   tiles      one device: many tiles and chunks of k, every layout and
 *              transpose, beta = 0 over NaN, padded leading dimensions,
 *              offsets; each tile comes back once (bytes from the device =
 *              C's); the host BLAS in blocks past the limit; device-buffer
 *              SGEMM and SGEMV past the limit as sub-problems (sub-buffers)
 *   budget     OCLBLAS_DEVICE_MEMORY (3M) too small for all panels: evicted and
 *              uploaded again, results unchanged
 *   no-room    OCLBLAS_DEVICE_MEMORY too small for any tile: the host serves
 *   devices    two PoCL devices (POCL_DEVICES="pthread pthread",
 *              OCLBLAS_DEVICE=all): both take tiles, also from three
 *              threads at once
 *   fault-one  two devices, the second failing after it delivered one
 *              tile (OCLBLAS_FAULT=1:1): the first takes its tiles
 *   fault-all  both failing after some tiles (0:2,1:1): the host completes C
 *   fault-first one device failing before any tile: the host computes C
 *   auto       OCLBLAS_HOST_CALLS=auto: each call where the cost model,
 *              from measured rates, expects it to finish first
 *   host-only  OCLBLAS_HOST_CALLS=host: every call on the host
 * Every result is checked against OpenBLAS with the bound of src/verify.h,
 * memory around C included; the report (oclblas_host_report_get) must say
 * what happened.
 */
#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const oclblas_transpose transposes[] = {OCLBLAS_NO_TRANS, OCLBLAS_TRANS, OCLBLAS_CONJ_TRANS};

static oclblas_host_report report(void)
{
    oclblas_host_report r;
    TU_CHECK(oclblas_host_report_get(&r));
    return r;
}

/* One host-pointer SGEMM, checked; the report of its call. */
static oclblas_host_report gemm(const tu_env *env, int row, int ta, int tb, size_t m, size_t n, size_t k, float beta,
                                size_t pad, size_t off, unsigned seed)
{
    const double r = tu_gemm_case(env, 1, row ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[ta], transposes[tb],
                                  m, n, k, seed % 2 ? 1.0f : -0.5f, beta, pad, off, 2 * off, 3 * off, seed);
    if (r > 1.0)
        fail_msg("sgemm %s %d%d %zux%zux%zu beta %g: error %.3g x bound", row ? "row" : "col", ta, tb, m, n, k, beta, r);
    return report();
}

static unsigned long tiles_delivered(const oclblas_host_report *r)
{
    unsigned long t = 0;
    for (int d = 0; d < r->devices && d < OCLBLAS_REPORT_DEVICES; ++d)
        t += r->device[d].tiles;
    return t;
}

/* Each tile of C comes back once, whole, from a device or from the host. */
static void expect_tiles_once(const oclblas_host_report *r, size_t m, size_t n)
{
    assert_true(r->on_device);
    assert_true(r->tiles > 1);
    assert_int_equal(tiles_delivered(r) + r->tiles_on_host, r->tiles);
    if (r->tiles_on_host == 0)
        assert_true(fabs(r->bytes_from_device - 4.0 * (double)m * (double)n) < 0.5);
}

static void test_tiles(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    /* Limit 65536: tiles of about 128 x 128 with chunks of k; every path of the tiles. */
    static const size_t shapes[][3] = {{300, 290, 310}, {257, 513, 129}, {700, 60, 400}, {33, 900, 147}, {1, 700, 300},
                                       {700, 1, 300}};
    unsigned seed = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int row = 0; row < 2; ++row)
            for (int ta = 0; ta < 2; ++ta)
                for (int tb = 0; tb < 2; ++tb) {
                    const size_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
                    const float beta = (ta + tb + row + s) % 2 ? 0.0f : 0.75f;
                    const oclblas_host_report r = gemm(&env, row, ta + (s == 2 && ta), tb, m, n, k, beta, (s + tb) % 3,
                                                       (s % 2) * 5, seed++);
                    if (m > 1 && n > 1) {
                        expect_tiles_once(&r, m, n);
                        assert_int_equal(r.devices, 1);
                        assert_int_equal(r.tiles_on_host, 0);
                        /* A and B at least once, C too when beta reads it. */
                        assert_true(r.bytes_to_device >= 4.0 * ((double)(m + n) * k + (beta != 0.0f ? m * n : 0)));
                    }
                }
    /* The kernels were timed on the device. */
    const oclblas_host_report r = gemm(&env, 0, 0, 0, 500, 500, 500, 0.0f, 0, 0, 99);
    assert_true(r.device[0].busy_s > 0.0 && r.device[0].busy_s <= r.seconds);
    assert_true(r.seconds > 0.0);
}

/* The host BLAS (OpenBLAS here) in blocks of at most the limit: below
 * HOST_MAX the host serves, whatever the size of one side (the others
 * small enough for any GPU's HOST_MAX, 52 and up). */
static void test_host_blocks(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    const double host_max = tu_routine_value(&env, "HOST_MAX");
    if (host_max * host_max * host_max < 70003.0 * 2) {
        print_message("skipped: HOST_MAX %g on this device sends even 70003 x 2 to it\n", host_max);
        skip();
    }
    const double r1 = tu_gemm_case(&env, 1, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 70001, 2, 1, 1.0f, 0.5f,
                                   0, 1, 0, 2, 5);
    assert_true(r1 <= 1.0);
    oclblas_host_report r = report();
    assert_false(r.on_device);
    assert_non_null(strstr(r.host_blas, "blas"));
    const double r2 = tu_gemm_case(&env, 1, OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 2, 1, 70000, -1.0f,
                                   0.0f, 1, 0, 3, 0, 6);
    assert_true(r2 <= 1.0);
    assert_false(report().on_device);
    const ptrdiff_t incs[][2] = {{1, 1}, {-1, 2}, {2, -3}};
    for (int i = 0; i < 3; ++i)
        for (int t = 0; t < 2; ++t) {
            const double g = tu_gemv_case(&env, 1, i % 2 ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[t],
                                          t ? 2 : 70003, t ? 70003 : 2, 1.5f, i == 1 ? 0.0f : 0.5f, i, incs[i][0],
                                          incs[i][1], 1, 2, 3, (unsigned)(10 + i));
            if (g > 1.0)
                fail_msg("host sgemv case %d trans %d: error %.3g x bound", i, t, g);
            assert_false(report().on_device);
        }
}

/* Device buffers whose operands reach past the limit: sub-problems, the
 * far ones through sub-buffers. */
static void test_device_buffers(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    unsigned seed = 200;
    static const size_t shapes[][3] = {{300, 290, 310}, {1, 400, 300}, {400, 1, 300}, {90, 80, 2000}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int row = 0; row < 2; ++row)
            for (int t = 0; t < 4; ++t) {
                const size_t off = 70000 + 37 * s; /* past the limit: a sub-buffer */
                const double r = tu_gemm_case(&env, 0, row ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[t / 2],
                                              transposes[t % 2], shapes[s][0], shapes[s][1], shapes[s][2],
                                              t ? 1.0f : 2.0f, t % 2 ? 0.0f : -1.0f, t, off * (t % 2), off,
                                              off * (t / 2), seed++);
                if (r > 1.0)
                    fail_msg("sgemm_cl %zu %s t%d: error %.3g x bound", s, row ? "row" : "col", t, r);
            }
    const ptrdiff_t incs[][2] = {{1, 1}, {-1, 2}, {3, -1}, {-2, -2}};
    for (int i = 0; i < 4; ++i)
        for (int t = 0; t < 2; ++t) {
            const double r = tu_gemv_case(&env, 0, i % 2 ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[t],
                                          500 + 7 * i, 400 - 3 * i, 1.0f, i == 2 ? 0.0f : 1.5f, i, incs[i][0],
                                          incs[i][1], 66000 * (i % 2), 70001, 3 + 80000 * (i / 2), seed++);
            if (r > 1.0)
                fail_msg("sgemv_cl case %d trans %d: error %.3g x bound", i, t, r);
        }
}

/* OCLBLAS_DEVICE_MEMORY=3M: panels cannot all stay (A alone takes 2.5 MB); evicted ones come again. */
static void test_budget(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    unsigned seed = 300;
    for (int row = 0; row < 2; ++row)
        for (int t = 0; t < 3; ++t) {
            const size_t m = 700, n = 650, k = 900;
            const oclblas_host_report r = gemm(&env, row, t % 2, t / 2, m, n, k, t == 1 ? 0.0f : 1.0f, t, 0, seed++);
            expect_tiles_once(&r, m, n);
            /* Some panel crossed more than once. */
            assert_true(r.bytes_to_device > 4.0 * ((double)(m + n) * k + (t == 1 ? 0 : m * n)));
        }
}

/* OCLBLAS_DEVICE_MEMORY=1M: not even the smallest tile fits; the host serves. */
static void test_no_room(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    const oclblas_host_report r = gemm(&env, 1, 1, 0, 400, 300, 350, 0.5f, 1, 0, 400);
    assert_false(r.on_device);
    assert_int_equal(r.tiles_on_host, 0);
}

typedef struct {
    int id;
    double worst;
} worker_arg;

static void *worker(void *p)
{
    worker_arg *w = p;
    tu_env env;
    tu_get_env(&env);
    for (int i = 0; i < 3; ++i) {
        const double r = tu_gemm_case(&env, 1, i % 2 ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS,
                                      transposes[w->id % 2], 300 + 50 * w->id, 280, 260, 1.0f, w->id ? 0.5f : 0.0f, 1,
                                      0, 0, 0, (unsigned)(w->id * 10 + i));
        w->worst = r > w->worst ? r : w->worst;
    }
    return NULL;
}

/* The groups of two devices (OCLBLAS_DEVICE=all) take them from
 * POCL_DEVICES; a machine whose platforms have one device (one GPU) cannot
 * run them. */
static void need_two_devices(void)
{
    cl_platform_id platforms[8];
    cl_uint np = 0, devices = 0;
    if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint p = 0; p < np && p < 8; ++p) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS)
            devices += nd;
    }
    if (devices < 2) {
        print_message("skipped: %u OpenCL device(s) here; the test takes two (POCL_DEVICES=\"pthread pthread\")\n",
                      devices);
        skip();
    }
}

/* Two devices: both take tiles; three threads' calls at once. */
static void test_devices(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    need_two_devices();
    /* A first call builds each device's kernels. */
    gemm(&env, 0, 0, 0, 300, 300, 300, 0.0f, 0, 0, 500);
    const size_t m = 900, n = 800, k = 300;
    const oclblas_host_report r = gemm(&env, 1, 0, 1, m, n, k, 0.5f, 2, 3, 501);
    expect_tiles_once(&r, m, n);
    assert_int_equal(r.devices, 2);
    assert_int_equal(r.failed_devices, 0);
    assert_true(r.device[0].tiles > 0);
    assert_true(r.device[1].tiles > 0);
    pthread_t t[3];
    worker_arg w[3];
    for (int i = 0; i < 3; ++i) {
        w[i] = (worker_arg){i, 0.0};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &w[i]), 0);
    }
    for (int i = 0; i < 3; ++i) {
        pthread_join(t[i], NULL);
        if (w[i].worst > 1.0)
            fail_msg("thread %d: error %.3g x bound", i, w[i].worst);
    }
}

/* OCLBLAS_FAULT=1:1: device 1 fails after one tile; device 0 takes the rest. */
static void test_fault_one(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    need_two_devices();
    /* A first call builds each device's kernels, so that both start at once in the next. */
    gemm(&env, 0, 0, 0, 300, 300, 300, 0.0f, 0, 0, 599);
    for (int beta = 0; beta < 2; ++beta) {
        const size_t m = 800, n = 700, k = 300;
        const oclblas_host_report r = gemm(&env, beta, beta, 0, m, n, k, beta ? 1.0f : 0.0f, 1, 0, 600u + beta);
        expect_tiles_once(&r, m, n);
        assert_int_equal(r.devices, 2);
        assert_int_equal(r.failed_devices, 1);
        assert_int_equal(r.tiles_on_host, 0);
        assert_int_equal(r.device[1].tiles, 1);
        assert_int_equal(r.device[0].tiles + r.device[1].tiles, r.tiles);
    }
}

/* OCLBLAS_FAULT=0:2,1:1: both fail after delivering tiles; the host computes the rest. */
static void test_fault_all(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    need_two_devices();
    gemm(&env, 0, 0, 0, 300, 300, 300, 0.0f, 0, 0, 699);
    for (int beta = 0; beta < 2; ++beta) {
        const size_t m = 800, n = 700, k = 300;
        const oclblas_host_report r = gemm(&env, !beta, 0, beta, m, n, k, beta ? -1.0f : 0.0f, 0, 2, 700u + beta);
        expect_tiles_once(&r, m, n);
        assert_int_equal(r.failed_devices, 2);
        assert_int_equal(r.device[0].tiles, 2);
        assert_int_equal(r.device[1].tiles, 1);
        assert_int_equal(r.tiles_on_host, r.tiles - 3);
    }
}

/* OCLBLAS_FAULT=0:0 on one device: it fails before its first tile, and
 * the host computes the whole call. */
static void test_fault_first(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    for (int beta = 0; beta < 2; ++beta) {
        const size_t m = 500, n = 400, k = 300;
        const oclblas_host_report r = gemm(&env, beta, 0, !beta, m, n, k, beta ? 0.5f : 0.0f, beta, 0, 800u + beta);
        assert_false(r.on_device);
        assert_int_equal(r.devices, 1);
        assert_int_equal(r.failed_devices, 1);
        assert_int_equal(r.device[0].tiles, 0);
        assert_true(r.tiles > 1);
        assert_int_equal(r.tiles_on_host, r.tiles);
        assert_non_null(strstr(r.reason, "1 device failed"));
    }
}

/* OCLBLAS_HOST_CALLS=auto: each call goes where the cost model expects it
 * to finish first, from rates it measured (the report carries both
 * estimates); below HOST_MAX the host serves without a model. */
static void test_auto(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    oclblas_host_report r = gemm(&env, 0, 0, 1, 20, 20, 20, 0.0f, 0, 0, 900);
    assert_false(r.on_device);
    assert_true(r.model_host_s == 0.0 && r.model_device_s == 0.0);
    assert_non_null(strstr(r.host_blas, "openblas")); /* the BLAS this test links */
    static const size_t sizes[] = {200, 400, 800};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        r = gemm(&env, (int)i % 2, 1, 0, sizes[i], sizes[i], sizes[i], 0.5f, 1, 0, 901u + (unsigned)i);
        assert_true(r.model_host_s > 0.0 && r.model_device_s > 0.0 && isfinite(r.model_device_s));
        assert_int_equal(r.on_device, r.model_device_s < r.model_host_s);
        /* Past HOST_MAX^3 elements (128^3 on PoCL). */
        const double g = tu_gemv_case(&env, 1, OCLBLAS_ROW_MAJOR, transposes[i % 2], 10 * sizes[i], 6 * sizes[i], 1.0f,
                                      0.0f, 0, 1, 1, 0, 0, 0, 950u + (unsigned)i);
        assert_true(g <= 1.0);
        r = report();
        assert_true(r.model_host_s > 0.0 && r.model_device_s > 0.0);
        /* SGEMV goes to the device only when clearly faster. */
        assert_int_equal(r.on_device, r.model_device_s < 0.8 * r.model_host_s);
    }
}

/* OCLBLAS_HOST_CALLS=host: every call on the host, however large. */
static void test_host_only(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    const oclblas_host_report r = gemm(&env, 1, 0, 0, 600, 500, 400, 1.0f, 0, 1, 990);
    assert_false(r.on_device);
    assert_true(r.bytes_to_device == 0.0 && r.bytes_from_device == 0.0);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "tiles";
    const struct {
        const char *name;
        struct CMUnitTest test;
    } groups[] = {
        {"tiles", cmocka_unit_test(test_tiles)},
        {"tiles", cmocka_unit_test(test_host_blocks)},
        {"tiles", cmocka_unit_test(test_device_buffers)},
        {"budget", cmocka_unit_test(test_budget)},
        {"no-room", cmocka_unit_test(test_no_room)},
        {"devices", cmocka_unit_test(test_devices)},
        {"fault-one", cmocka_unit_test(test_fault_one)},
        {"fault-all", cmocka_unit_test(test_fault_all)},
        {"fault-first", cmocka_unit_test(test_fault_first)},
        {"auto", cmocka_unit_test(test_auto)},
        {"host-only", cmocka_unit_test(test_host_only)},
    };
    struct CMUnitTest tests[8];
    size_t n = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; ++i)
        if (strcmp(groups[i].name, what) == 0)
            tests[n++] = groups[i].test;
    if (n == 0) {
        fprintf(stderr, "usage: %s tiles|budget|no-room|devices|fault-one|fault-all|fault-first|auto|host-only\n",
                argv[0]);
        return 2;
    }
    return _cmocka_run_group_tests(what, tests, n, NULL, NULL);
}
