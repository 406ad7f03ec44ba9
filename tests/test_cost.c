/*
 * The cost model and the tiling of host-pointer calls (src/cost.c), as the
 * pure functions they are: no OpenCL platform in sight. The rates are
 * those of the machines the library is for: an H100 behind PCIe 5 (about
 * 50 GB/s each way, 40 TFLOPS at 1024^3, 16 host cores whose OpenBLAS
 * reaches 0.2 TFLOPS and 60 GB/s), and a CPU device that shares memory
 * with the host. What a user relies on: SGEMV from host memory never goes
 * over a bus that is slower than the host reading the matrix; tiny SGEMMs
 * stay on the host, large ones go to the device, and the switch happens
 * once as the size grows; tiles fit the device's memory and the kernels'
 * int, and leave enough of them per device to overlap; a device's busy
 * time is never more than the time its queue spanned, whatever its
 * profiling timestamps say.
 */
#include "plan/cost.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static const oclblas__host_rates openblas16 = {200e9, 60e9, 5e-6};
static const oclblas__host_rates own_routine = {20e9, 10e9, 2e-6};
static const oclblas__dev_rates h100 = {40e-6, 50e9, 50e9, 40e9, 40e12, 20e-6, 2.5e12, 0, 8e9};
static const oclblas__dev_rates cpu_device = {30e-6, 20e9, 20e9, 20e9, 60e9, 50e-6, 15e9, 1, 20e9};

#define INT_LIMIT ((size_t)0x7fffffff)
#define GB ((size_t)1 << 30)

static oclblas__tiling tiles_for(size_t m, size_t n, size_t k, int beta, size_t budget, int ndev)
{
    const oclblas__tile_problem p = {m, n, k, beta, INT_LIMIT};
    oclblas__tiling t;
    assert_int_equal(oclblas__tiling_plan(&p, budget, 20 * GB, ndev, &t), OCLBLAS_SUCCESS);
    return t;
}

static int gemm_on_device(const oclblas__host_rates *h, const oclblas__dev_rates *d, int ndev, size_t s,
                          oclblas__estimate *e)
{
    const oclblas__tile_problem p = {s, s, s, 0, INT_LIMIT};
    const oclblas__tiling t = tiles_for(s, s, s, 0, 60 * GB, ndev);
    return oclblas__choose_gemm(h, d, ndev, d->zero_copy ? NULL : &t, &p, e);
}

/* SGEMV on a discrete device: the matrix crossing the bus alone takes
 * longer than the host reading it, at every size. */
static void test_gemv_discrete_stays_on_host(void **state)
{
    (void)state;
    for (size_t s = 64; s <= 65536; s *= 2) {
        oclblas__estimate e;
        assert_int_equal(oclblas__choose_gemv(&openblas16, &h100, s, s, &e), 0);
        assert_true(e.device_s > e.host_s);
        /* A tall and a wide one too. */
        assert_int_equal(oclblas__choose_gemv(&openblas16, &h100, 64 * s, 256, &e), 0);
        assert_int_equal(oclblas__choose_gemv(&openblas16, &h100, 256, 64 * s, &e), 0);
    }
}

/* The first H100 run's rates, where the device took SGEMV at 6-7 GB/s
 * against OpenBLAS's 15 to 65: 51 GB/s from pinned memory but 8 from the
 * caller's pageable memory, the path of an A past 1 MiB; OpenBLAS at its
 * slowest (4096^2, 15 GB/s). The host at every size; the pinned rate
 * counts only for an A small enough for the staging buffer. */
static void test_gemv_path_rates(void **state)
{
    (void)state;
    const oclblas__host_rates openblas_h100 = {150e9, 15e9, 1e-6};
    const oclblas__dev_rates measured = {14e-6, 51.4e9, 52.8e9, 28.5e9, 25e12, 15e-6, 2.0e12, 0, 8e9};
    oclblas__estimate e;
    for (size_t s = 1024; s <= 32768; s *= 2) {
        assert_int_equal(oclblas__choose_gemv(&openblas_h100, &measured, s, s, &e), 0);
        assert_true(e.in_s >= 4.0 * s * s / measured.pageable_h2d_bps);
    }
    /* The same device with a fast pageable path and a slow host: a large
     * one goes over, and its estimate is the pageable transfer's. */
    const oclblas__host_rates slow = {20e9, 2e9, 2e-6};
    oclblas__dev_rates fast = measured;
    fast.pageable_h2d_bps = 40e9;
    assert_int_equal(oclblas__choose_gemv(&slow, &fast, 16384, 16384, &e), 1);
    assert_true(fabs(e.in_s - 4.0 * 16384 * 16384 / 40e9) < 1e-9 && e.copy_s == 0.0);
    /* A small one crosses through the pinned buffer: copy and pinned rate. */
    oclblas__choose_gemv(&slow, &fast, 256, 256, &e);
    assert_true(fabs(e.in_s - 4.0 * 256 * 256 / fast.h2d_bps) < 1e-12 && e.copy_s > 0.0);
}

/* Where the host is slow enough (one core's own routine against a device
 * with a fast bus), a large SGEMV may go over; a small one never does. */
static void test_gemv_depends_on_rates(void **state)
{
    (void)state;
    const oclblas__host_rates slow = {20e9, 2e9, 2e-6};
    oclblas__estimate e;
    assert_int_equal(oclblas__choose_gemv(&slow, &h100, 16384, 16384, &e), 1);
    assert_int_equal(oclblas__choose_gemv(&slow, &h100, 16, 16, &e), 0);
    /* The margin: a device that the model finds only a little faster is not taken. */
    oclblas__dev_rates close = h100;
    close.pageable_h2d_bps = 2.1e9; /* about 1.05 x the host's time */
    close.gemv_bps = 1e15;
    assert_int_equal(oclblas__choose_gemv(&slow, &close, 16384, 16384, &e), 0);
    assert_true(e.device_s < e.host_s);
    /* On shared memory there is no bus: the faster reader wins, by the margin. */
    assert_int_equal(oclblas__choose_gemv(&own_routine, &cpu_device, 4096, 4096, &e), 1);
    assert_true(e.in_s == 0.0 && e.copy_s == 0.0);
    assert_int_equal(oclblas__choose_gemv(&openblas16, &cpu_device, 4096, 4096, &e), 0);
}

/* SGEMM: tiny ones on the host, large ones on the device, one switch. */
static void test_gemm_crossover(void **state)
{
    (void)state;
    oclblas__estimate e;
    assert_int_equal(gemm_on_device(&openblas16, &h100, 1, 16, &e), 0);
    assert_int_equal(gemm_on_device(&openblas16, &h100, 1, 4096, &e), 1);
    int switched = 0, last = 0;
    for (size_t s = 8; s <= 16384; s += s / 4) {
        const int dev = gemm_on_device(&openblas16, &h100, 1, s, &e);
        if (dev != last)
            ++switched;
        last = dev;
    }
    assert_int_equal(switched, 1);
    /* A slower host moves the switch down. */
    size_t fast_host = 0, slow_host = 0;
    for (size_t s = 8; s <= 4096 && (!fast_host || !slow_host); s += 8) {
        if (!fast_host && gemm_on_device(&openblas16, &h100, 1, s, &e))
            fast_host = s;
        if (!slow_host && gemm_on_device(&own_routine, &h100, 1, s, &e))
            slow_host = s;
    }
    assert_true(slow_host > 0 && slow_host < fast_host);
}

/* The device's estimate of a large SGEMM: the streams overlap, so it is
 * the longest of them plus the first chunk's way in and the last tile's
 * way out, not their sum. */
static void test_gemm_overlap(void **state)
{
    (void)state;
    oclblas__estimate e;
    const size_t s = 16384;
    assert_int_equal(gemm_on_device(&openblas16, &h100, 1, s, &e), 1);
    const double flops = 2.0 * s * s * s;
    assert_true(e.compute_s >= flops / h100.gemm_flops);
    assert_true(e.compute_s > e.in_s && e.compute_s > e.copy_s); /* compute-bound at 16384 */
    assert_true(fabs(e.device_s - (e.fill_s + e.compute_s + e.drain_s)) < 1e-9);
    assert_true(e.fill_s + e.drain_s < 0.05 * e.device_s);
    /* Bytes: A, B in once each (resident), C out; no C in with beta = 0. */
    assert_true(fabs(e.in_s - 4.0 * 2 * s * s / h100.h2d_bps) < 1e-9);
    assert_true(fabs(e.out_s - 4.0 * s * s / h100.d2h_bps) < 1e-9);
    /* Two devices: about half the time. */
    oclblas__estimate e2;
    assert_int_equal(gemm_on_device(&openblas16, &h100, 2, s, &e2), 1);
    assert_true(e2.device_s < 0.6 * e.device_s);
    /* In place on shared memory: no transfers at all. */
    assert_int_equal(gemm_on_device(&own_routine, &cpu_device, 1, 2048, &e), 1);
    assert_true(e.in_s == 0.0 && e.out_s == 0.0 && e.copy_s == 0.0);
}

/* Tiles on an H100-sized budget: enough of them, k cut where long,
 * everything resident, indices far inside int. */
static void test_tiling_gpu(void **state)
{
    (void)state;
    /* 4096: four tiles of 2048 (products at the full rate), k whole. */
    oclblas__tiling t = tiles_for(4096, 4096, 4096, 0, 60 * GB, 1);
    assert_true(t.tiles_m * t.tiles_n >= 4 && t.tiles_m * t.tiles_n <= 9);
    assert_true(t.tm >= 1024 && t.tm % 128 == 0);
    assert_int_equal(t.chunks, 1);
    assert_true(t.resident);
    assert_true(t.depth >= 3);
    /* 16384: tiles of 4096, k in chunks of 2048 (the first product starts
     * after 64 MB have crossed, not the 512 MB of whole panels). */
    t = tiles_for(16384, 16384, 16384, 1, 60 * GB, 1);
    assert_true(t.tm <= 4096 && t.tn <= 4096 && t.tiles_m * t.tiles_n >= 8);
    assert_true(t.chunks >= 4 && t.tk <= 4096);
    assert_true(t.resident);
    /* Four devices: at least four tiles each. */
    t = tiles_for(16384, 16384, 16384, 0, 60 * GB, 4);
    assert_true(t.tiles_m * t.tiles_n >= 16);
    /* 50000^3: 10 GB per operand; every tile and panel inside int. */
    t = tiles_for(50000, 50000, 50000, 0, 60 * GB, 1);
    assert_true(t.tm * t.tk <= INT_LIMIT && t.tn * t.tk <= INT_LIMIT && t.tm * t.tn <= INT_LIMIT);
    assert_true(t.tiles_m * t.tm >= 50000 && t.tiles_n * t.tn >= 50000 && t.chunks * t.tk >= 50000);
    assert_true(t.resident);
    /* A problem smaller than a tile is one tile. */
    t = tiles_for(300, 200, 100, 1, 60 * GB, 1);
    assert_int_equal(t.tiles_m * t.tiles_n, 1);
    assert_int_equal(t.chunks, 1);
    assert_int_equal(t.depth, 1);
}

/* A small budget: tiles shrink until what one needs fits; panels stream. */
static void test_tiling_budget(void **state)
{
    (void)state;
    const size_t budgets[] = {GB, 256u << 20, 32u << 20, 4u << 20};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; ++i) {
        const oclblas__tiling t = tiles_for(20000, 20000, 20000, 1, budgets[i], 2);
        assert_true(t.least_bytes <= budgets[i]);
        assert_false(t.resident);
        assert_true(t.tm * t.tn * 4 * t.depth <= budgets[i]);
    }
    /* Nothing fits: refused. */
    const oclblas__tile_problem p = {20000, 20000, 20000, 1, INT_LIMIT};
    oclblas__tiling t;
    assert_int_equal(oclblas__tiling_plan(&p, 100000, 20 * GB, 1, &t), CL_MEM_OBJECT_ALLOCATION_FAILURE);
}

/* A lowered index limit (OCLBLAS_INDEX_LIMIT) and a small allocation limit. */
static void test_tiling_limits(void **state)
{
    (void)state;
    const oclblas__tile_problem p = {700, 650, 900, 0, 65536};
    oclblas__tiling t;
    assert_int_equal(oclblas__tiling_plan(&p, 60 * GB, 20 * GB, 1, &t), OCLBLAS_SUCCESS);
    assert_true(t.tm * t.tk <= 65536 && t.tn * t.tk <= 65536 && t.tm * t.tn <= 65536);
    assert_true(t.tiles_m * t.tiles_n > 1 && t.chunks > 1);
    const oclblas__tile_problem q = {8192, 8192, 8192, 0, INT_LIMIT};
    assert_int_equal(oclblas__tiling_plan(&q, 60 * GB, 1u << 20, 1, &t), OCLBLAS_SUCCESS);
    assert_true(t.tm * t.tk * 4 <= (1u << 20) && t.tn * t.tk * 4 <= (1u << 20) && t.tm * t.tn * 4 <= (1u << 20));
}

/* Busy time from profiling timestamps as NVIDIA's OpenCL gives them:
 * commands stamped as started while they still waited (behind the queue,
 * or for an upload on another queue). Three chunks of 1 ms that ran back
 * to back from t = 10 s once their input arrived, all stamped START = 5:
 * the plain sum of END - START would be 21 ms; the busy time is 3. */
static void test_busy_clamped(void **state)
{
    (void)state;
    oclblas__busy b = {0};
    oclblas__busy_add(&b, 5.0, 10.001, 10.0);
    oclblas__busy_add(&b, 5.0, 10.002, 0.0);
    oclblas__busy_add(&b, 5.0, 10.003, 0.0);
    assert_true(fabs(b.busy_s - 0.003) < 1e-9);
    assert_int_equal(b.commands, 3);
    assert_int_equal(b.clamped, 3);
    assert_true(b.busy_s <= b.last - b.first + 1e-12);
    /* A chunk whose input came late: the wait is idle, not busy. */
    oclblas__busy_add(&b, 10.003, 10.021, 10.020);
    assert_true(fabs(b.busy_s - 0.004) < 1e-9);
    assert_true(fabs(b.last - 10.021) < 1e-12 && fabs(b.first - 10.0) < 1e-12);
    /* An honest START after the queue was free counts from itself. */
    oclblas__busy_add(&b, 10.030, 10.031, 0.0);
    assert_true(fabs(b.busy_s - 0.005) < 1e-9);
    assert_int_equal(b.clamped, 4);
    /* No END: nothing counted; no START: from the end of the one before. */
    oclblas__busy_add(&b, 10.040, 0.0, 0.0);
    assert_int_equal(b.commands, 5);
    oclblas__busy_add(&b, 0.0, 10.032, 0.0);
    assert_true(fabs(b.busy_s - 0.006) < 1e-9);
    assert_int_equal(b.commands, 6);
    /* Nothing known of the first command's start: not counted, but the next starts after it. */
    oclblas__busy c = {0};
    oclblas__busy_add(&c, 0.0, 3.0, 0.0);
    assert_true(c.busy_s == 0.0);
    oclblas__busy_add(&c, 1.0, 4.0, 0.0);
    assert_true(fabs(c.busy_s - 1.0) < 1e-12);
}

/* Whatever the stamps, the busy time of an in-order queue never exceeds
 * the span from its first counted start to its last end: commands are
 * serial. Random stamps, early, late, overlapping, out of order. */
static void test_busy_bounded(void **state)
{
    (void)state;
    uint32_t seed = 7;
    for (int trial = 0; trial < 200; ++trial) {
        oclblas__busy b = {0};
        double t = 100.0;
        for (int i = 0; i < 50; ++i) {
            seed = seed * 1664525u + 1013904223u;
            const double run = 1e-3 * (seed >> 24) / 256.0;
            seed = seed * 1664525u + 1013904223u;
            const double early = 5e-3 * (seed >> 24) / 256.0;
            seed = seed * 1664525u + 1013904223u;
            const double ready = (seed >> 31) ? t + 1e-3 : 0.0;
            t += run + ((seed >> 30) & 1 ? 2e-3 : 0.0);
            oclblas__busy_add(&b, t - run - early, t, ready);
        }
        assert_true(b.busy_s >= 0.0);
        assert_true(b.busy_s <= b.last - b.first + 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemv_discrete_stays_on_host),
        cmocka_unit_test(test_gemv_depends_on_rates),
        cmocka_unit_test(test_gemv_path_rates),
        cmocka_unit_test(test_busy_clamped),
        cmocka_unit_test(test_busy_bounded),
        cmocka_unit_test(test_gemm_crossover),
        cmocka_unit_test(test_gemm_overlap),
        cmocka_unit_test(test_tiling_gpu),
        cmocka_unit_test(test_tiling_budget),
        cmocka_unit_test(test_tiling_limits),
    };
    return cmocka_run_group_tests_name("cost model and tiling", tests, NULL, NULL);
}
