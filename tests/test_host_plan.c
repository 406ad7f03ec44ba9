/*
 * The host plan (src/plan/host_plan.c) as the pure function it is: no
 * OpenCL platform in sight. Each choice and its reason from constructed
 * records, device facts and rates: the library's own routine for a call
 * without a product and for the host BLAS calling back, the host BLAS
 * without a device, below HOST_MAX, for OCLBLAS_HOST_CALLS=host, without
 * room for a tile, and for SGEMV past the index limit; in place on one
 * device that shares memory, else tiles over the set, or SGEMV through
 * copies; the cost model with rates asked for only as the decision needs
 * them (no device product measured for a call the host wins against an
 * ideal device); the reason in words; and the executor's loop, which
 * gathers what the plan asks until it asks for nothing more.
 */
#include "plan/host_plan.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#define GB ((size_t)1 << 30)
#define ALL_RATES                                                                                                  \
    (OCLBLAS__KNOW_HOST_GEMM | OCLBLAS__KNOW_HOST_GEMV | OCLBLAS__KNOW_TRANSFERS | OCLBLAS__KNOW_DEV_GEMM |        \
     OCLBLAS__KNOW_DEV_GEMV)

/* Hosts and devices as the library meets them (test_cost.c's figures). */
static const oclblas__host_rates openblas16 = {200e9, 60e9, 5e-6};
static const oclblas__host_rates slow_host = {1e9, 2e9, 5e-6};
static const oclblas__dev_rates h100 = {40e-6, 50e9, 50e9, 40e9, 40e12, 20e-6, 2.5e12, 0, 8e9};
static const oclblas__dev_rates slow_device = {40e-6, 50e9, 50e9, 40e9, 1e9, 20e-6, 1e9, 0, 8e9};

static float a_[1], b_[1], c_[1];

/* A column-major host SGEMM with packed operands. */
static oclblas__record sgemm(size_t m, size_t n, size_t k)
{
    const oclblas__record r = {OCLBLAS__SGEMM, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, 1.0f,
                               0.5f, {a_, NULL, 0, m, 0}, {b_, NULL, 0, k, 0}, {c_, NULL, 0, m, 0},
                               OCLBLAS_MATH_STRICT};
    return r;
}

static oclblas__record sgemv(size_t m, size_t n)
{
    const oclblas__record r = {OCLBLAS__SGEMV, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, 0, 1.0f,
                               0.0f, {a_, NULL, 0, m, 0}, {b_, NULL, 0, 0, 1}, {c_, NULL, 0, 0, 1},
                               OCLBLAS_MATH_STRICT};
    return r;
}

/* A discrete GPU (H100) with 16 GB for the host path, every rate known,
 * calls chosen by the model. */
static oclblas__host_facts gpu(void)
{
    oclblas__host_facts f;
    memset(&f, 0, sizeof f);
    f.known = OCLBLAS__KNOW_DEVICES | ALL_RATES;
    f.devices = 1;
    f.max_alloc = 20 * GB;
    f.budget = 16 * GB;
    f.host_max = 64;
    f.calls = OCLBLAS__CALLS_AUTO;
    f.zero_copy = 1;
    f.index_limit = INT_MAX;
    f.host = openblas16;
    f.dev = h100;
    return f;
}

/* One CPU device sharing memory with the host. */
static oclblas__host_facts shared(void)
{
    oclblas__host_facts f = gpu();
    f.unified_memory = 1;
    f.dev.zero_copy = 1;
    return f;
}

static oclblas__host_plan plan_of(const oclblas__record *r, const oclblas__host_facts *f)
{
    oclblas__host_plan p;
    oclblas__host_plan_make(r, f, &p);
    return p;
}

static void expect(const oclblas__host_plan *p, oclblas__route route, oclblas__host_why why)
{
    assert_int_equal(p->needs, 0);
    assert_int_equal(p->route, route);
    assert_int_equal(p->why, why);
    assert_int_equal(p->devices > 0, oclblas__route_on_device(route));
}

static void expect_words(const oclblas__host_plan *p, const char *words)
{
    char text[160];
    oclblas__host_plan_describe(p, text, sizeof text);
    if (!strstr(text, words))
        fail_msg("the plan's reason \"%s\" does not say \"%s\"", text, words);
}

/* alpha = 0 or k = 0 is C = beta C, and the host BLAS calling back must
 * not go back to it: the library's own routine, with nothing gathered. */
static void test_own_routine(void **state)
{
    (void)state;
    oclblas__host_facts none;
    memset(&none, 0, sizeof none);
    oclblas__record r = sgemm(4000, 4000, 0);
    oclblas__host_plan p = plan_of(&r, &none);
    expect(&p, OCLBLAS__ROUTE_OWN, OCLBLAS__WHY_TRIVIAL);
    expect_words(&p, "C = beta C");
    r = sgemm(4000, 4000, 4000);
    r.alpha = 0.0f;
    p = plan_of(&r, &none);
    expect(&p, OCLBLAS__ROUTE_OWN, OCLBLAS__WHY_TRIVIAL);
    r = sgemv(5000, 5000);
    r.alpha = 0.0f;
    p = plan_of(&r, &none);
    expect(&p, OCLBLAS__ROUTE_OWN, OCLBLAS__WHY_TRIVIAL);
    none.reentered = 1;
    r = sgemm(4000, 4000, 4000);
    p = plan_of(&r, &none);
    expect(&p, OCLBLAS__ROUTE_OWN, OCLBLAS__WHY_REENTERED);
    expect_words(&p, "called back");
}

/* The devices are asked for before anything that needs them; none that
 * can serve leaves the call to the host BLAS, with the device's status. */
static void test_no_device(void **state)
{
    (void)state;
    oclblas__host_facts f;
    memset(&f, 0, sizeof f);
    const oclblas__record r = sgemm(37, 29, 41), v = sgemv(3000, 2000);
    oclblas__host_plan p = plan_of(&r, &f);
    assert_int_equal(p.needs, OCLBLAS__KNOW_DEVICES);
    f.known = OCLBLAS__KNOW_DEVICES;
    f.no_device = OCLBLAS_NO_DEVICE;
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_NO_DEVICE);
    assert_int_equal(p.no_device, OCLBLAS_NO_DEVICE);
    char words[160];
    snprintf(words, sizeof words, "no device: %s", oclblas_status_string(OCLBLAS_NO_DEVICE));
    expect_words(&p, words);
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_NO_DEVICE);
}

/* Up to HOST_MAX^3 multiply-adds the host serves, whatever the model or
 * OCLBLAS_HOST_CALLS=device says; one more goes on. */
static void test_host_max(void **state)
{
    (void)state;
    oclblas__host_facts f = gpu();
    f.calls = OCLBLAS__CALLS_DEVICE;
    oclblas__record r = sgemm(64, 64, 64);
    oclblas__host_plan p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_HOST_MAX);
    assert_int_equal(p.host_max, 64);
    expect_words(&p, "HOST_MAX 64");
    r = sgemm(64, 64, 65);
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
    r = sgemv(512, 512); /* 2^18 = 64^3 */
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_HOST_MAX);
    r = sgemv(512, 513);
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_COPY, OCLBLAS__WHY_CALLS_DEVICE);
    f.host_max = 0; /* no crossover: every size goes on */
    r = sgemm(1, 1, 1);
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
}

/* OCLBLAS_HOST_CALLS: host keeps everything on the host; device skips
 * the model; the tuner's pinned context skips it unless calls say host. */
static void test_calls(void **state)
{
    (void)state;
    oclblas__host_facts f = gpu();
    const oclblas__record r = sgemm(8192, 8192, 8192), v = sgemv(20000, 20000);
    f.calls = OCLBLAS__CALLS_HOST;
    f.pinned_context = 1;
    oclblas__host_plan p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_CALLS_HOST);
    expect_words(&p, "OCLBLAS_HOST_CALLS=host");
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_CALLS_HOST);
    f.calls = OCLBLAS__CALLS_AUTO;
    f.known = OCLBLAS__KNOW_DEVICES; /* no rate: none is needed */
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_PINNED);
    expect_words(&p, "pinned");
    f.pinned_context = 0;
    f.calls = OCLBLAS__CALLS_DEVICE;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_COPY, OCLBLAS__WHY_CALLS_DEVICE);
    expect_words(&p, "OCLBLAS_HOST_CALLS=device");
}

/* SGEMM in place only on one device that shares memory, with zero copy
 * allowed and every operand inside the index limit and one buffer;
 * otherwise tiles over every device, with a tiling that fits. */
static void test_in_place_or_tiles(void **state)
{
    (void)state;
    oclblas__host_facts f = shared();
    f.calls = OCLBLAS__CALLS_DEVICE;
    oclblas__record r = sgemm(2000, 1000, 500);
    oclblas__host_plan p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_IN_PLACE, OCLBLAS__WHY_CALLS_DEVICE);
    assert_int_equal(p.devices, 1);
    f.zero_copy = 0;
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
    assert_true(p.tiling.tiles_m >= 1 && p.tiling.tm * p.tiling.tiles_m >= 2000);
    f.zero_copy = 1;
    f.devices = 2;
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
    assert_int_equal(p.devices, 2);
    f.devices = 1;
    f.index_limit = 2000 * 1000 - 1; /* C spans one element more */
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
    f.index_limit = INT_MAX;
    f.max_alloc = 4 * (size_t)2000 * 1000 - 4;
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
    f.max_alloc = 20 * GB;
    r.c.ld = (size_t)INT_MAX + 1; /* past the kernels' int */
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
    /* Row-major: the caller's extents (C is m rows of ldc). */
    r = sgemm(1000, 2000, 500);
    r.layout = OCLBLAS_ROW_MAJOR;
    r.a.ld = 500;
    r.b.ld = 2000;
    r.c.ld = 2000;
    f.index_limit = 1000 * 2000;
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_IN_PLACE, OCLBLAS__WHY_CALLS_DEVICE);
    r.c.ld = 2001;
    p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_CALLS_DEVICE);
}

/* No tile fits the budget (OCLBLAS_DEVICE_MEMORY): the host. */
static void test_no_room(void **state)
{
    (void)state;
    oclblas__host_facts f = gpu();
    f.calls = OCLBLAS__CALLS_DEVICE;
    f.budget = 4096;
    const oclblas__record r = sgemm(3000, 3000, 3000);
    const oclblas__host_plan p = plan_of(&r, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_NO_ROOM);
    expect_words(&p, "OCLBLAS_DEVICE_MEMORY");
}

/* SGEMV is one device call: in place where memory is shared, copies
 * elsewhere, the host past the index limit, a buffer or the kernels' int. */
static void test_gemv_routes(void **state)
{
    (void)state;
    oclblas__host_facts f = shared();
    f.calls = OCLBLAS__CALLS_DEVICE;
    oclblas__record v = sgemv(3000, 2000);
    oclblas__host_plan p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_IN_PLACE, OCLBLAS__WHY_CALLS_DEVICE);
    f.zero_copy = 0;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_COPY, OCLBLAS__WHY_CALLS_DEVICE);
    f.zero_copy = 1;
    f.index_limit = 3000 * 2000 - 1;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_PAST_LIMIT);
    expect_words(&p, "index limit");
    f.index_limit = INT_MAX;
    v.b.inc = -(ptrdiff_t)INT_MAX - 1;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_PAST_LIMIT);
    v.b.inc = -3;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_IN_PLACE, OCLBLAS__WHY_CALLS_DEVICE);
    f.max_alloc = 4 * (size_t)3000 * 2000 - 4;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_PAST_LIMIT);
}

/* The model asks for the host's and the bus's rates first; it measures
 * the device's products only when the device wins against an ideal one,
 * then decides with them. */
static void test_model_asks_as_needed(void **state)
{
    (void)state;
    oclblas__host_facts f = gpu();
    f.known = OCLBLAS__KNOW_DEVICES;
    const oclblas__record big = sgemm(8192, 8192, 8192), small = sgemm(100, 100, 100);
    oclblas__host_plan p = plan_of(&big, &f);
    assert_int_equal(p.needs, OCLBLAS__KNOW_HOST_GEMM | OCLBLAS__KNOW_TRANSFERS);
    f.known |= OCLBLAS__KNOW_HOST_GEMM | OCLBLAS__KNOW_TRANSFERS;
    /* Against an ideal device, the host still wins a small product (the
     * bus's round trip alone costs more): decided, nothing more measured. */
    p = plan_of(&small, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_MODEL);
    assert_true(p.est.host_s < p.est.device_s);
    p = plan_of(&big, &f);
    assert_int_equal(p.needs, OCLBLAS__KNOW_DEV_GEMM);
    assert_int_equal(p.route, OCLBLAS__ROUTE_TILES);
    f.known |= OCLBLAS__KNOW_DEV_GEMM;
    p = plan_of(&big, &f);
    expect(&p, OCLBLAS__ROUTE_TILES, OCLBLAS__WHY_MODEL);
    assert_true(p.est.device_s < p.est.host_s && p.est.device_s > 0);
    expect_words(&p, "cost model: host ");
    /* A device slower than the host once measured: the host. */
    f.dev = slow_device;
    p = plan_of(&big, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_MODEL);
    assert_true(p.est.host_s <= p.est.device_s);
}

/* SGEMV: the host's SGEMV rate too; the device's only when it could win.
 * From a discrete GPU's pageable memory it never does; on a slow host
 * with a device that shares memory it does. */
static void test_model_gemv(void **state)
{
    (void)state;
    oclblas__host_facts f = gpu();
    f.known = OCLBLAS__KNOW_DEVICES;
    const oclblas__record v = sgemv(16384, 16384);
    oclblas__host_plan p = plan_of(&v, &f);
    assert_int_equal(p.needs, OCLBLAS__KNOW_HOST_GEMM | OCLBLAS__KNOW_HOST_GEMV | OCLBLAS__KNOW_TRANSFERS);
    f.known |= p.needs;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_MODEL); /* 8 GB/s over the bus against 60 */
    f = shared();
    f.known = OCLBLAS__KNOW_DEVICES | OCLBLAS__KNOW_HOST_GEMM | OCLBLAS__KNOW_HOST_GEMV | OCLBLAS__KNOW_TRANSFERS;
    f.host = slow_host;
    p = plan_of(&v, &f);
    assert_int_equal(p.needs, OCLBLAS__KNOW_DEV_GEMV);
    assert_int_equal(p.route, OCLBLAS__ROUTE_IN_PLACE);
    f.known |= OCLBLAS__KNOW_DEV_GEMV;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_IN_PLACE, OCLBLAS__WHY_MODEL);
    /* With copies where memory is shared, the model counts the bus. */
    f.zero_copy = 0;
    f.dev.pageable_h2d_bps = 1e9;
    p = plan_of(&v, &f);
    expect(&p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_MODEL);
}

/* The executor's loop: gather what the plan asks for, plan again; it ends
 * in a few rounds whatever the call, and never asks twice for one thing. */
static void test_loop_ends(void **state)
{
    (void)state;
    const oclblas__record calls[] = {sgemm(8192, 8192, 8192), sgemm(100, 100, 100), sgemv(16384, 16384),
                                     sgemv(10, 10), sgemm(5, 5, 0)};
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; ++i) {
        oclblas__host_facts f = shared();
        f.host = slow_host;
        f.known = 0;
        unsigned asked = 0;
        int rounds = 0;
        oclblas__host_plan p;
        for (oclblas__host_plan_make(&calls[i], &f, &p); p.needs; oclblas__host_plan_make(&calls[i], &f, &p)) {
            assert_int_equal(p.needs & asked, 0);
            asked |= p.needs;
            f.known |= p.needs;
            assert_true(++rounds <= 3);
        }
        assert_int_equal(p.needs, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_routine),       cmocka_unit_test(test_no_device),
        cmocka_unit_test(test_host_max),          cmocka_unit_test(test_calls),
        cmocka_unit_test(test_in_place_or_tiles), cmocka_unit_test(test_no_room),
        cmocka_unit_test(test_gemv_routes),       cmocka_unit_test(test_model_asks_as_needed),
        cmocka_unit_test(test_model_gemv),        cmocka_unit_test(test_loop_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
