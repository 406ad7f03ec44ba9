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
 *   fault-every one device failing at every position, from before its
 *              first tile to never (set per call), SGEMM and SGEMV
 *   fault-every-two two devices, one or both failing at many positions
 *   build-failure OCLBLAS_BUILD_OPTIONS=abc: no kernel builds; the host
 *              computes SGEMM and SGEMV
 *   mode       another thread changing the math mode all through a call:
 *              every tile and sub-problem in the mode the call was made in
 *   auto       OCLBLAS_HOST_CALLS=auto: each call where the cost model,
 *              from measured rates, expects it to finish first
 *   host-only  OCLBLAS_HOST_CALLS=host: every call on the host
 * Every result is checked against OpenBLAS with the bound of src/verify.h,
 * memory around C included; the report (oclblas_host_report_get) must say
 * what happened.
 */
#include "host/hostdev.h"
#include "kernels/gemm_tc.h"
#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    /* The calls below once first, so that each device has built and
     * launched every kernel their tiles' plans run (gemm_cpu's programs and
     * their packing differ by layout and by a tile's sizes) and both start
     * at once when they count: a device still compiling its first kernel
     * gets no tile before the other has taken them all. */
    const size_t m = 800, n = 700, k = 300;
    for (int beta = 0; beta < 2; ++beta)
        gemm(&env, beta, beta, 0, m, n, k, beta ? 1.0f : 0.0f, 1, 0, 598u + beta);
    for (int beta = 0; beta < 2; ++beta) {
        /* Device 1 fails as it would start its second tile. Where device 0
         * has taken every other tile by then (the two race for them), no
         * device fails and the call is made again, up to 10 times (in 2 of
         * 30 runs on CI's machine the first missed). */
        oclblas_host_report r;
        int attempts = 0;
        do {
            r = gemm(&env, beta, beta, 0, m, n, k, beta ? 1.0f : 0.0f, 1, 0, 600u + beta);
            expect_tiles_once(&r, m, n);
            assert_int_equal(r.devices, 2);
            assert_int_equal(r.tiles_on_host, 0);
        } while (r.failed_devices == 0 && r.device[1].tiles == 1 && ++attempts < 10);
        assert_int_equal(r.failed_devices, 1);
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

/* OCLBLAS_FAULT at every position on one device (set for each call, as
 * OCLBLAS_FAULT would for a process): failing before its first tile,
 * after each tile, and never. C comes out right every time; the device
 * delivers exactly the tiles before its fault, the host computes the
 * rest, and the report says so. SGEMV, one device call through copies,
 * is one tile: it fails before it or not at all. */
static void test_fault_every(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    /* HOST_MAX 0: every call to the device, whatever the device's entry keeps on the host (calls of at most
     * HOST_MAX^3 multiply-adds): these calls ask what a failing device leaves. */
    tu_override(&env, "routine", "HOST_MAX=0");
    const size_t m = 400, n = 330, k = 300;
    oclblas__hostdev_fault_set(0, -1);
    oclblas_host_report r = gemm(&env, 0, 0, 0, m, n, k, 0.5f, 1, 0, 1000);
    const long tiles = (long)r.tiles;
    assert_true(tiles >= 4);
    for (long at = 0; at <= tiles; ++at)
        for (int beta = 0; beta < 2; ++beta) {
            oclblas__hostdev_fault_set(0, at);
            r = gemm(&env, 0, 0, 0, m, n, k, beta ? 0.5f : 0.0f, 1, 0, 1001u + 2u * (unsigned)at + (unsigned)beta);
            const unsigned long delivered = (unsigned long)(at < tiles ? at : tiles);
            assert_int_equal(r.tiles, tiles);
            assert_int_equal(r.device[0].tiles, delivered);
            assert_int_equal(r.tiles_on_host, (unsigned long)tiles - delivered);
            assert_int_equal(r.failed_devices, at < tiles);
            assert_int_equal(r.on_device, delivered > 0);
            assert_int_equal(strstr(r.reason, "1 device failed") != NULL, at < tiles);
        }
    for (long at = 0; at <= 1; ++at)
        for (int t = 0; t < 2; ++t) {
            oclblas__hostdev_fault_set(0, at);
            const double g = tu_gemv_case(&env, 1, t ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[t], 300, 200,
                                          1.5f, t ? 0.0f : -0.5f, 1, t ? -2 : 1, t ? 1 : -3, 0, 0, 0, 1100u + (unsigned)t);
            if (g > 1.0)
                fail_msg("sgemv failing at %ld: error %.3g x bound", at, g);
            r = report();
            assert_int_equal(r.on_device, at);
            assert_int_equal(r.failed_devices, !at);
            assert_int_equal(r.tiles_on_host, (unsigned long)!at);
            assert_true(r.bytes_to_device > 0.0 || !at);
        }
    oclblas__hostdev_fault_set(0, -1);
}

/* Two devices, the second failing at every position, then both at some:
 * the first takes what the second left, the host what both left. */
static void test_fault_every_two(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    need_two_devices();
    const size_t m = 800, n = 700, k = 200;
    oclblas__hostdev_fault_set(0, -1);
    oclblas__hostdev_fault_set(1, -1);
    oclblas_host_report r = gemm(&env, 0, 0, 0, m, n, k, 0.0f, 0, 0, 1200);
    const long tiles = (long)r.tiles;
    assert_int_equal(r.devices, 2);
    for (long at = 0; at <= tiles; ++at) {
        oclblas__hostdev_fault_set(1, at);
        r = gemm(&env, (int)at % 2, 0, 1, m, n, k, at % 3 ? 0.5f : 0.0f, 0, 0, 1201u + (unsigned)at);
        assert_int_equal(r.tiles_on_host, 0);
        assert_int_equal(r.device[0].tiles + r.device[1].tiles, r.tiles);
        assert_true(r.device[1].tiles <= (unsigned long)at);
        assert_true(r.failed_devices <= 1);
        if (r.failed_devices)
            assert_int_equal(r.device[1].tiles, at);
    }
    static const long both[][2] = {{0, 0}, {1, 0}, {0, 2}, {2, 1}, {3, 3}};
    for (size_t i = 0; i < sizeof both / sizeof both[0]; ++i) {
        oclblas__hostdev_fault_set(0, both[i][0]);
        oclblas__hostdev_fault_set(1, both[i][1]);
        r = gemm(&env, (int)i % 2, 1, 0, m, n, k, i % 2 ? 0.0f : -1.0f, 1, 0, 1300u + (unsigned)i);
        assert_int_equal(r.failed_devices, 2);
        assert_int_equal(r.device[0].tiles, both[i][0]);
        assert_int_equal(r.device[1].tiles, both[i][1]);
        assert_int_equal(r.tiles_on_host, r.tiles - (unsigned long)(both[i][0] + both[i][1]));
        assert_int_equal(r.on_device, both[i][0] + both[i][1] > 0);
    }
    oclblas__hostdev_fault_set(0, -1);
    oclblas__hostdev_fault_set(1, -1);
}

/* OCLBLAS_BUILD_OPTIONS=abc: no kernel builds. SGEMM through tiles and
 * SGEMV through copies fail on the device before they write anything,
 * and the host computes them. */
static void test_build_failure(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "routine", "HOST_MAX=0"); /* every call to the device, as in test_fault_every */
    for (int i = 0; i < 4; ++i) {
        const oclblas_host_report r = gemm(&env, i % 2, i / 2, i % 2, 300, 290, 310, i ? 0.5f : 0.0f, 1, 0, 1400u + i);
        assert_false(r.on_device);
        assert_int_equal(r.failed_devices, r.devices);
        assert_true(r.tiles > 1);
        assert_int_equal(r.tiles_on_host, r.tiles);
        assert_non_null(strstr(r.reason, "failed"));
        const double g = tu_gemv_case(&env, 1, i % 2 ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, transposes[i / 2], 250,
                                      230, 1.0f, i ? 0.0f : 2.0f, 0, 1, 1, 0, 0, 0, 1410u + i);
        assert_true(g <= 1.0);
        const oclblas_host_report v = report();
        assert_false(v.on_device);
        assert_int_equal(v.failed_devices, 1);
        assert_int_equal(v.tiles_on_host, 1);
    }
}

/* ---- the mode a call was made in ------------------------------------------ */

/* gemm_tc for one TF32 product, in the kernel's emulation of the tensor
 * cores (test_gemm_tc.c's set for it, which PoCL compiles in seconds):
 * the tf32 mode then gives visibly other products than the strict mode's
 * gemm_fast, on any device. */
static const char tf32_set[] = "BM=32,BN=32,BK=32,WM=16,WN=16,STAGES=2,CP_ASYNC=0,SPLIT=0,PADA=4,PADB=4,PRODUCTS=1,"
                               "PROMOTE=0,LOOP=1,FRAGV=1,CHUNK=0,KPAIR=1";

typedef struct {
    atomic_int stop;
    atomic_long flips;
} flipper;

/* Sets strict and tf32 in turn until told to stop. */
static void *flip_modes(void *p)
{
    flipper *f = p;
    const struct timespec pause = {0, 50000};
    for (long i = 0; !atomic_load(&f->stop); ++i) {
        oclblas_set_math_mode(i % 2 ? OCLBLAS_MATH_TF32 : OCLBLAS_MATH_STRICT);
        atomic_fetch_add(&f->flips, 1);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

#define MODE_M 640
#define MODE_N 576
#define MODE_K 512
#define MODE_OFF 70000 /* device buffers: operands past the index limit, so sub-problems */

/* C = A B + 0.5 C of the fixed operands, column-major, through the host
 * API (tiles) or on device buffers (sub-problems), into c. */
static void product(const tu_env *env, int host, const float *a, const float *b, const float *c0, float *c)
{
    const size_t m = MODE_M, n = MODE_N, k = MODE_K;
    memcpy(c, c0, m * n * sizeof *c);
    if (host) {
        TU_CHECK(oclblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, 1.0f, a, m, b, k, 0.5f,
                               c, m));
        return;
    }
    float *pad = calloc(MODE_OFF + m * (k > n ? k : n), sizeof *pad);
    memcpy(pad + MODE_OFF, a, m * k * sizeof *a);
    cl_mem da = tu_buffer(env, pad, MODE_OFF + m * k);
    memcpy(pad + MODE_OFF, b, k * n * sizeof *b);
    cl_mem db = tu_buffer(env, pad, MODE_OFF + k * n);
    memcpy(pad + MODE_OFF, c0, m * n * sizeof *c0);
    cl_mem dc = tu_buffer(env, pad, MODE_OFF + m * n);
    cl_event ev = NULL;
    TU_CHECK(oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, 1.0f, da, MODE_OFF, m,
                              db, MODE_OFF, k, 0.5f, dc, MODE_OFF, m, env->queue, &ev));
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    tu_read(env, dc, pad, MODE_OFF + m * n);
    memcpy(c, pad + MODE_OFF, m * n * sizeof *c);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    free(pad);
}

/* A call runs whole in the mode it was made in, while another thread sets
 * strict and tf32 in turn all through it: its C is bit for bit the strict
 * call's or the tf32 call's (made without interference), never a mixture
 * of tiles (host pointers) or sub-problems (device buffers) from both.
 * The two differ in most elements, so a mixture cannot pass. */
static void test_mode(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    tu_override(&env, "gemm_tc", tf32_set);
    tu_override(&env, "routine", "GEMM_MIN_INDIRECT=0,GEMM_TC_MIN=1");
    const size_t m = MODE_M, n = MODE_N, k = MODE_K;
    float *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b), *c0 = malloc(m * n * sizeof *c0);
    float *strict = malloc(m * n * sizeof *strict), *tf32 = malloc(m * n * sizeof *tf32);
    float *got = malloc(m * n * sizeof *got);
    unsigned seed = 1500;
    tu_fill(a, m * k, &seed);
    tu_fill(b, k * n, &seed);
    tu_fill(c0, m * n, &seed);
    for (int host = 1; host >= 0; --host) {
        TU_CHECK(oclblas_set_math_mode(OCLBLAS_MATH_STRICT));
        product(&env, host, a, b, c0, strict);
        if (host)
            assert_true(report().tiles >= 9);
        TU_CHECK(oclblas_set_math_mode(OCLBLAS_MATH_TF32));
        product(&env, host, a, b, c0, tf32);
        size_t differ = 0;
        for (size_t i = 0; i < m * n; ++i)
            differ += strict[i] != tf32[i];
        if (differ < m * n / 2)
            fail_msg("%s: strict and tf32 differ in only %zu of %zu elements", host ? "host" : "device", differ, m * n);
        for (int round = 0; round < 4; ++round) {
            TU_CHECK(oclblas_set_math_mode(round % 2 ? OCLBLAS_MATH_TF32 : OCLBLAS_MATH_STRICT));
            flipper f;
            atomic_init(&f.stop, 0);
            atomic_init(&f.flips, 0);
            pthread_t t;
            assert_int_equal(pthread_create(&t, NULL, flip_modes, &f), 0);
            while (atomic_load(&f.flips) < 2)
                sched_yield();
            const long before = atomic_load(&f.flips);
            product(&env, host, a, b, c0, got);
            const long during = atomic_load(&f.flips) - before;
            atomic_store(&f.stop, 1);
            pthread_join(t, NULL);
            const int is_strict = memcmp(got, strict, m * n * sizeof *got) == 0;
            const int is_tf32 = memcmp(got, tf32, m * n * sizeof *got) == 0;
            print_message("%s round %d: %ld mode changes during the call, its C the %s call's\n",
                          host ? "host pointers" : "device buffers", round, during,
                          is_strict ? "strict" : is_tf32 ? "tf32" : "neither");
            if (!is_strict && !is_tf32)
                fail_msg("%s: C mixes the modes (%ld changes during the call)", host ? "host" : "device", during);
            if (host && during < 2)
                fail_msg("the mode did not change during the call (%ld changes): nothing was tested", during);
        }
    }
    TU_CHECK(oclblas_set_math_mode(OCLBLAS_MATH_ACCURATE));
    tu_override(&env, "routine", NULL);
    TU_CHECK(oclblas_override_params(env.device, "gemm_tc", NULL));
    free(a), free(b), free(c0), free(strict), free(tf32), free(got);
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
        {"fault-every", cmocka_unit_test(test_fault_every)},
        {"fault-every-two", cmocka_unit_test(test_fault_every_two)},
        {"build-failure", cmocka_unit_test(test_build_failure)},
        {"mode", cmocka_unit_test(test_mode)},
        {"auto", cmocka_unit_test(test_auto)},
        {"host-only", cmocka_unit_test(test_host_only)},
    };
    if (strcmp(what, "mode") == 0)
        oclblas__gemm_tc_emulate(1); /* before anything resolves the device's context */
    struct CMUnitTest tests[8];
    size_t n = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; ++i)
        if (strcmp(groups[i].name, what) == 0)
            tests[n++] = groups[i].test;
    if (n == 0) {
        fprintf(stderr,
                "usage: %s tiles|budget|no-room|devices|fault-one|fault-all|fault-first|fault-every|fault-every-two|"
                "build-failure|mode|auto|host-only\n",
                argv[0]);
        return 2;
    }
    return _cmocka_run_group_tests(what, tests, n, NULL, NULL);
}
