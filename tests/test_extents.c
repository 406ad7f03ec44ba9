/*
 * The rule for extents (src/checks.c) at every entry point: the host
 * calls, the device-buffer calls and the drop-in library. Sizes, leading
 * dimensions, increments and offsets that describe an operand no address
 * space (or no buffer) can hold are refused with a named status, within a
 * second, and nothing of the caller's is touched: the host arrays carry
 * guard elements on both sides and are compared whole, the device buffers
 * are read back. Operands at the edge that are legal (an increment of
 * PTRDIFF_MIN or PTRDIFF_MAX on a one-element vector, an operand the call
 * does not reference) give the right result. Built with the sanitizers,
 * every case also runs under UBSan and ASan.
 */
#include "oclblas.h"
#ifdef TEST_DROPIN
#include "oclblas_cblas.h"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <cmocka.h>

#define COL OCLBLAS_COL_MAJOR
#define ROW OCLBLAS_ROW_MAJOR
#define NT OCLBLAS_NO_TRANS
#define TR OCLBLAS_TRANS
#define TOO_LARGE OCLBLAS_SIZE_TOO_LARGE

/* Elements of each operand, and guard elements on both sides of the host arrays. */
#define LEN 64
#define GUARD 64
#define HOST_LEN (GUARD + LEN + GUARD)

static const size_t two63 = (size_t)1 << 63;
/* The most floats PTRDIFF_MAX bytes hold: the largest extent the rule allows. */
static const size_t max_extent = (size_t)PTRDIFF_MAX / sizeof(float);

/* The highest address a float can have: an array there of even one
 * element would end past the top of the address space. Never dereferenced,
 * since every call given it must refuse it, or not reference it. */
static float *top_pointer(void) { return (float *)(uintptr_t)(UINTPTR_MAX - 3); }

typedef struct {
    float a[HOST_LEN], b[HOST_LEN], c[HOST_LEN];
    float before[3][HOST_LEN];
    cl_context ctx;
    cl_command_queue queue;
    cl_mem da, db, dc;
} fixture;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Distinct values in each array, so that a copy from one into another shows. */
static void fill_host(fixture *f)
{
    float *arrays[3] = {f->a, f->b, f->c};
    for (int k = 0; k < 3; ++k) {
        for (int i = 0; i < HOST_LEN; ++i)
            arrays[k][i] = (float)(1000 * (k + 1) + i);
        memcpy(f->before[k], arrays[k], sizeof f->before[k]);
    }
}

static void assert_host_untouched(const fixture *f, const char *what)
{
    const float *arrays[3] = {f->a, f->b, f->c};
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < HOST_LEN; ++i)
            if (memcmp(&arrays[k][i], &f->before[k][i], sizeof(float)) != 0)
                fail_msg("%s: element %d of host array %c was written (%s it)", what, i - GUARD, "abc"[k],
                         i < GUARD || i >= GUARD + LEN ? "a guard element around" : "inside");
}

static void fill_device(fixture *f)
{
    float init[LEN];
    cl_mem bufs[3] = {f->da, f->db, f->dc};
    for (int k = 0; k < 3; ++k) {
        for (int i = 0; i < LEN; ++i)
            init[i] = (float)(-1000 * (k + 1) - i);
        assert_int_equal(clEnqueueWriteBuffer(f->queue, bufs[k], CL_TRUE, 0, sizeof init, init, 0, NULL, NULL),
                         CL_SUCCESS);
    }
}

static void assert_device_untouched(const fixture *f, const char *what)
{
    float got[LEN];
    cl_mem bufs[3] = {f->da, f->db, f->dc};
    assert_int_equal(clFinish(f->queue), CL_SUCCESS);
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(clEnqueueReadBuffer(f->queue, bufs[k], CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int i = 0; i < LEN; ++i)
            if (got[i] != (float)(-1000 * (k + 1) - i))
                fail_msg("%s: element %d of device buffer %c was written", what, i, "abc"[k]);
    }
}

static void within_a_second(const char *what, const char *api, double seconds)
{
    if (seconds > 1.0)
        fail_msg("%s (%s): took %.2f s to refuse", what, api, seconds);
}

static void expect(const char *what, const char *api, oclblas_status got, oclblas_status want, double seconds)
{
    if (got != want)
        fail_msg("%s (%s): %s, want %s", what, api, oclblas_status_name(got), oclblas_status_name(want));
    within_a_second(what, api, seconds);
}

static int setup(void **state)
{
    static fixture f;
    cl_device_id dev;
    if (oclblas_default_device(&dev, &f.ctx, &f.queue) != OCLBLAS_SUCCESS)
        fail_msg("no OpenCL device");
    cl_int err;
    cl_mem *bufs[3] = {&f.da, &f.db, &f.dc};
    for (int k = 0; k < 3; ++k) {
        *bufs[k] = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, LEN * sizeof(float), NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    clReleaseMemObject(f->da);
    clReleaseMemObject(f->db);
    clReleaseMemObject(f->dc);
    return 0;
}

/* ---- SGEMM --------------------------------------------------------------- */

typedef struct {
    const char *what;
    oclblas_layout l;
    oclblas_transpose ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    float alpha;
    oclblas_status host, device; /* what each API must answer */
} gemm_case;

static void run_gemm_cases(fixture *f, const gemm_case *cases, size_t count, const size_t offsets[3], float *ha, float *hc)
{
    for (size_t i = 0; i < count; ++i) {
        const gemm_case *g = &cases[i];
        fill_host(f);
        if (g->host != OCLBLAS_SUCCESS) {
            const double t0 = now();
            const oclblas_status st = oclblas_sgemm(g->l, g->ta, g->tb, g->m, g->n, g->k, g->alpha,
                                                    ha ? ha : f->a + GUARD, g->lda, f->b + GUARD, g->ldb, 0.5f,
                                                    hc ? hc : f->c + GUARD, g->ldc);
            expect(g->what, "oclblas_sgemm", st, g->host, now() - t0);
            assert_host_untouched(f, g->what);
        }
        if (g->device != OCLBLAS_SUCCESS) {
            fill_device(f);
            cl_event ev = NULL;
            const double t0 = now();
            const oclblas_status st = oclblas_sgemm_cl(g->l, g->ta, g->tb, g->m, g->n, g->k, g->alpha, f->da,
                                                       offsets[0], g->lda, f->db, offsets[1], g->ldb, 0.5f, f->dc,
                                                       offsets[2], g->ldc, f->queue, &ev);
            expect(g->what, "oclblas_sgemm_cl", st, g->device, now() - t0);
            if (ev)
                fail_msg("%s: a refused call gave an event", g->what);
            assert_device_untouched(f, g->what);
        }
    }
}

/* Sizes whose operands no address space holds: SIZE_MAX (a caller's -1),
 * leading dimensions of SIZE_MAX and 2^63, products just past SIZE_MAX and
 * just past PTRDIFF_MAX bytes. */
static void test_sgemm_sizes(void **state)
{
    fixture *f = *state;
    const size_t big = SIZE_MAX;
    const gemm_case cases[] = {
        {"m = SIZE_MAX, row-major (lda = k)", ROW, NT, NT, big, 2, 2, 2, 2, 2, 1, TOO_LARGE, TOO_LARGE},
        {"m = SIZE_MAX, column-major (lda = ldc = m)", COL, NT, NT, big, 2, 2, big, 2, big, 1, TOO_LARGE, TOO_LARGE},
        {"n = SIZE_MAX", COL, NT, NT, 2, big, 2, 2, 2, 2, 1, TOO_LARGE, TOO_LARGE},
        {"n = SIZE_MAX, row-major", ROW, NT, NT, 2, big, 2, big, big, big, 1, TOO_LARGE, TOO_LARGE},
        {"k = SIZE_MAX", COL, NT, NT, 2, 2, big, 2, big, 2, 1, TOO_LARGE, TOO_LARGE},
        {"k = SIZE_MAX, alpha = 0", COL, NT, NT, 2, 2, big, 2, big, 2, 0, TOO_LARGE, TOO_LARGE},
        {"k = SIZE_MAX, both transposed", COL, TR, TR, 2, 2, big, big, 2, 2, 1, TOO_LARGE, TOO_LARGE},
        {"ldc = SIZE_MAX", COL, NT, NT, 2, 2, 2, 2, 2, big, 1, TOO_LARGE, TOO_LARGE},
        {"ldc = SIZE_MAX, row-major", ROW, NT, NT, 2, 2, 2, 2, 2, big, 1, TOO_LARGE, TOO_LARGE},
        {"lda = 2^63", COL, NT, NT, 2, 2, 2, two63, 2, 2, 1, TOO_LARGE, TOO_LARGE},
        {"lda = 2^63, row-major A^T", ROW, TR, NT, 2, 2, 2, two63, 2, 2, 1, TOO_LARGE, TOO_LARGE},
        {"ldb = 2^63, B^T", COL, NT, TR, 2, 2, 2, 2, two63, 2, 1, TOO_LARGE, TOO_LARGE},
        {"(n - 1) * ldc just past SIZE_MAX", COL, NT, NT, 2, SIZE_MAX / 2 + 2, 1, 2, 1, 2, 1, TOO_LARGE, TOO_LARGE},
        {"(n - 1) * ldc = 2^64 exactly", COL, NT, NT, 1, ((size_t)1 << 32) + 1, 1, 1, 1, (size_t)1 << 32, 1, TOO_LARGE,
         TOO_LARGE},
        {"C one element past PTRDIFF_MAX bytes", COL, NT, NT, 2, max_extent / 2 + 1, 1, 2, 1, 2, 1, TOO_LARGE,
         TOO_LARGE},
        {"A one element past PTRDIFF_MAX bytes", COL, NT, NT, 3, 1, max_extent / 3 + 1, 3, max_extent / 3 + 1, 3, 1,
         TOO_LARGE, TOO_LARGE},
        /* Inside the rule: the host would compute (the caller's claim of
         * such arrays is its own), the device finds the buffer too small. */
        {"C at PTRDIFF_MAX bytes", COL, NT, NT, 2, max_extent / 2, 1, 2, 1, 2, 1, OCLBLAS_SUCCESS,
         OCLBLAS_BUFFER_C_TOO_SMALL},
        /* The rule is met, the kernels' int is not: the device's own limit. */
        {"ldc = 2^31 on one column", COL, NT, NT, 2, 1, 1, 2, 1, (size_t)1 << 31, 1, OCLBLAS_SUCCESS, TOO_LARGE},
    };
    size_t none[3] = {0, 0, 0};
    run_gemm_cases(f, cases, sizeof cases / sizeof cases[0], none, NULL, NULL);
}

/* Offsets on the device: an operand that ends past its buffer, however
 * far (its extent past SIZE_MAX), is too small for it. */
static void test_sgemm_offsets(void **state)
{
    fixture *f = *state;
    const gemm_case tiny = {"", COL, NT, NT, 2, 2, 2, 2, 2, 2, 1, OCLBLAS_SUCCESS, OCLBLAS_SUCCESS};
    const struct {
        const char *what;
        size_t off[3];
        oclblas_status want;
    } cases[] = {
        {"c_offset = SIZE_MAX", {0, 0, SIZE_MAX}, OCLBLAS_BUFFER_C_TOO_SMALL},
        {"a_offset = SIZE_MAX - 1", {SIZE_MAX - 1, 0, 0}, OCLBLAS_BUFFER_A_TOO_SMALL},
        {"b_offset at PTRDIFF_MAX bytes", {0, max_extent, 0}, OCLBLAS_BUFFER_B_TOO_SMALL},
        {"c_offset one element past the buffer", {0, 0, LEN - 3}, OCLBLAS_BUFFER_C_TOO_SMALL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gemm_case g = tiny;
        g.what = cases[i].what;
        g.device = cases[i].want;
        run_gemm_cases(f, &g, 1, cases[i].off, NULL, NULL);
    }
}

/* The host API: an array whose end would wrap past the top of the address
 * space is refused; an operand the call does not reference (A and B with
 * alpha = 0) is not looked at, and the call scales C. */
static void test_sgemm_host_pointers(void **state)
{
    fixture *f = *state;
    const gemm_case wraps[] = {
        {"C of 16 bytes wraps past the top", COL, NT, NT, 2, 2, 2, 2, 2, 2, 1, TOO_LARGE, OCLBLAS_SUCCESS},
        {"C of PTRDIFF_MAX bytes wraps past the top", COL, NT, NT, 2, max_extent / 2, 1, 2, 1, 2, 1, TOO_LARGE,
         OCLBLAS_SUCCESS},
    };
    size_t none[3] = {0, 0, 0};
    run_gemm_cases(f, wraps, sizeof wraps / sizeof wraps[0], none, NULL, top_pointer());
    const gemm_case a_wraps = {"A wraps past the top", COL, NT, NT, 2, 2, 2, 2, 2, 2, 1, TOO_LARGE, OCLBLAS_SUCCESS};
    run_gemm_cases(f, &a_wraps, 1, none, top_pointer(), NULL);

    fill_host(f);
    const oclblas_status st = oclblas_sgemm(COL, NT, NT, 2, 2, 2, 0.0f, top_pointer(), 2, top_pointer(), 2,
                                            0.5f, f->c + GUARD, 2);
    assert_int_equal(st, OCLBLAS_SUCCESS);
    for (int i = 0; i < HOST_LEN; ++i) {
        const int inside = i >= GUARD && i < GUARD + 4;
        const float want = inside ? 0.5f * f->before[2][i] : f->before[2][i];
        if (f->c[i] != want)
            fail_msg("alpha = 0: C element %d is %g, want %g", i - GUARD, (double)f->c[i], (double)want);
    }
}

/* ---- SGEMV --------------------------------------------------------------- */

typedef struct {
    const char *what;
    oclblas_layout l;
    oclblas_transpose t;
    size_t m, n, lda;
    ptrdiff_t incx, incy;
    oclblas_status host, device;
} gemv_case;

/* A is f->a, x f->b and y f->c (with their device buffers). */
static void run_gemv_cases(fixture *f, const gemv_case *cases, size_t count, const size_t offsets[3], float *hy)
{
    for (size_t i = 0; i < count; ++i) {
        const gemv_case *g = &cases[i];
        fill_host(f);
        if (g->host != OCLBLAS_SUCCESS) {
            const double t0 = now();
            const oclblas_status st = oclblas_sgemv(g->l, g->t, g->m, g->n, 1.0f, f->a + GUARD, g->lda, f->b + GUARD,
                                                    g->incx, 0.5f, hy ? hy : f->c + GUARD, g->incy);
            expect(g->what, "oclblas_sgemv", st, g->host, now() - t0);
            assert_host_untouched(f, g->what);
        }
        if (g->device != OCLBLAS_SUCCESS) {
            fill_device(f);
            cl_event ev = NULL;
            const double t0 = now();
            const oclblas_status st =
                oclblas_sgemv_cl(g->l, g->t, g->m, g->n, 1.0f, f->da, offsets[0], g->lda, f->db, offsets[1], g->incx,
                                 0.5f, f->dc, offsets[2], g->incy, f->queue, &ev);
            expect(g->what, "oclblas_sgemv_cl", st, g->device, now() - t0);
            if (ev)
                fail_msg("%s: a refused call gave an event", g->what);
            assert_device_untouched(f, g->what);
        }
    }
}

static void test_sgemv_sizes(void **state)
{
    fixture *f = *state;
    const size_t big = SIZE_MAX;
    const gemv_case cases[] = {
        {"m = SIZE_MAX, row-major (lda = n)", ROW, NT, big, 2, 2, 1, 1, TOO_LARGE, TOO_LARGE},
        {"m = SIZE_MAX, column-major (lda = m)", COL, NT, big, 2, big, 1, 1, TOO_LARGE, TOO_LARGE},
        {"n = SIZE_MAX", COL, NT, 2, big, 2, 1, 1, TOO_LARGE, TOO_LARGE},
        {"n = SIZE_MAX, A^T", COL, TR, 2, big, 2, 1, 1, TOO_LARGE, TOO_LARGE},
        {"incy = PTRDIFF_MAX", COL, NT, 2, 2, 2, 1, PTRDIFF_MAX, TOO_LARGE, TOO_LARGE},
        {"incy = PTRDIFF_MIN", COL, NT, 2, 2, 2, 1, PTRDIFF_MIN, TOO_LARGE, TOO_LARGE},
        {"incx = PTRDIFF_MIN", COL, NT, 2, 2, 2, PTRDIFF_MIN, 1, TOO_LARGE, TOO_LARGE},
        {"incx = PTRDIFF_MAX, A^T", COL, TR, 2, 2, 2, PTRDIFF_MAX, 1, TOO_LARGE, TOO_LARGE},
        {"incx = -(PTRDIFF_MAX / 4) - 1", ROW, NT, 2, 2, 2, -(PTRDIFF_MAX / 4) - 1, 1, TOO_LARGE, TOO_LARGE},
        {"lda = 2^63", COL, NT, 2, 2, two63, 1, 1, TOO_LARGE, TOO_LARGE},
        {"lda = SIZE_MAX, row-major", ROW, TR, 2, 2, big, 1, 1, TOO_LARGE, TOO_LARGE},
        /* (m - 1) * incy: 2^61 + 1 elements, one past PTRDIFF_MAX bytes ... */
        {"y just past PTRDIFF_MAX bytes", ROW, NT, ((size_t)1 << 31) + 1, 1, 1, 1, (ptrdiff_t)1 << 30, TOO_LARGE,
         TOO_LARGE},
        /* ... and 2^30 fewer, inside: a buffer too small on the device. */
        {"y inside PTRDIFF_MAX bytes", ROW, NT, (size_t)1 << 31, 1, 1, 1, (ptrdiff_t)1 << 30, OCLBLAS_SUCCESS,
         OCLBLAS_BUFFER_Y_TOO_SMALL},
    };
    size_t none[3] = {0, 0, 0};
    run_gemv_cases(f, cases, sizeof cases / sizeof cases[0], none, NULL);

    const gemv_case wrap = {"y wraps past the top", COL, NT, 2, 2, 2, 1, 1, TOO_LARGE, OCLBLAS_SUCCESS};
    run_gemv_cases(f, &wrap, 1, none, top_pointer());

    const gemv_case tiny = {"", COL, NT, 2, 2, 2, -1, 3, OCLBLAS_SUCCESS, OCLBLAS_SUCCESS};
    const struct {
        const char *what;
        size_t off[3];
        oclblas_status want;
    } offsets[] = {
        {"y_offset = SIZE_MAX", {0, 0, SIZE_MAX}, OCLBLAS_BUFFER_Y_TOO_SMALL},
        {"x_offset = SIZE_MAX - 1", {0, SIZE_MAX - 1, 0}, OCLBLAS_BUFFER_X_TOO_SMALL},
        {"a_offset at PTRDIFF_MAX bytes", {max_extent, 0, 0}, OCLBLAS_BUFFER_A_TOO_SMALL},
    };
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; ++i) {
        gemv_case g = tiny;
        g.what = offsets[i].what;
        g.device = offsets[i].want;
        run_gemv_cases(f, &g, 1, offsets[i].off, NULL);
    }
}

/* An increment of PTRDIFF_MIN or PTRDIFF_MAX on a vector of one element
 * is legal: the host computes the right result (and under UBSan, without
 * negating PTRDIFF_MIN); the device's kernels take an int increment. */
static void test_sgemv_extreme_increments_of_one_element(void **state)
{
    fixture *f = *state;
    const ptrdiff_t incs[] = {PTRDIFF_MIN, PTRDIFF_MAX, PTRDIFF_MIN + 1};
    for (size_t i = 0; i < sizeof incs / sizeof incs[0]; ++i) {
        /* y = A x, A 3 x 1: x has one element. */
        fill_host(f);
        float *a = f->a + GUARD, *x = f->b + GUARD, *y = f->c + GUARD;
        assert_int_equal(oclblas_sgemv(COL, NT, 3, 1, 2.0f, a, 3, x, incs[i], 0.5f, y, 1), OCLBLAS_SUCCESS);
        for (int r = 0; r < 3; ++r) {
            const float want = 2.0f * a[r] * x[0] + 0.5f * f->before[2][GUARD + r];
            if (y[r] != want)
                fail_msg("incx %td: y[%d] = %g, want %g", incs[i], r, (double)y[r], (double)want);
        }
        /* y = A^T x, A 3 x 1: y has one element. */
        fill_host(f);
        assert_int_equal(oclblas_sgemv(COL, TR, 3, 1, 2.0f, a, 3, x, 1, 0.5f, y, incs[i]), OCLBLAS_SUCCESS);
        const float want = 2.0f * (a[0] * x[0] + a[1] * x[1] + a[2] * x[2]) + 0.5f * f->before[2][GUARD];
        if (y[0] != want)
            fail_msg("incy %td: y[0] = %g, want %g", incs[i], (double)y[0], (double)want);
        for (int r = 1; r < LEN + GUARD; ++r)
            if (f->c[GUARD + r] != f->before[2][GUARD + r])
                fail_msg("incy %td: element %d of y's array was written", incs[i], r);
        const gemv_case dev = {"one-element vector, increment past int", COL, TR, 3, 1, 3, 1, incs[i],
                               OCLBLAS_SUCCESS, TOO_LARGE};
        size_t none[3] = {0, 0, 0};
        run_gemv_cases(f, &dev, 1, none, NULL);
    }
}

/* ---- the drop-in library ------------------------------------------------- */

#ifdef TEST_DROPIN
/* int sizes cannot overflow size_t, but their products can pass
 * PTRDIFF_MAX bytes: (INT_MAX - 1) * INT_MAX elements is about 2^64 bytes.
 * Reference BLAS has no INFO for that: the call computes nothing. */
static void test_dropin(void **state)
{
    fixture *f = *state;
    const int big = 0x7fffffff, one = 1, two = 2;
    const float alpha = 1.0f, beta = 0.5f;
    float *a = f->a + GUARD, *b = f->b + GUARD, *c = f->c + GUARD;

    fill_host(f);
    double t0 = now();
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, big, 1, alpha, a, 2, b, 1, beta, c, big);
    within_a_second("cblas_sgemm, ldc = n = INT_MAX", "drop-in", now() - t0);
    assert_host_untouched(f, "cblas_sgemm, ldc = n = INT_MAX");

    fill_host(f);
    t0 = now();
    sgemm_("N", "N", &two, &big, &one, &alpha, a, &two, b, &one, &beta, c, &big, 1, 1);
    within_a_second("sgemm_, ldc = n = INT_MAX", "drop-in", now() - t0);
    assert_host_untouched(f, "sgemm_, ldc = n = INT_MAX");

    fill_host(f);
    t0 = now();
    cblas_sgemv(CblasColMajor, CblasNoTrans, 2, big, alpha, a, big, b, 1, beta, c, 1);
    within_a_second("cblas_sgemv, lda = n = INT_MAX", "drop-in", now() - t0);
    assert_host_untouched(f, "cblas_sgemv, lda = n = INT_MAX");

    fill_host(f);
    t0 = now();
    sgemv_("N", &big, &one, &alpha, a, &big, b, &one, &beta, c, &big, 1);
    within_a_second("sgemv_, incy = m = INT_MAX", "drop-in", now() - t0);
    assert_host_untouched(f, "sgemv_, incy = m = INT_MAX");
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgemm_sizes),
        cmocka_unit_test(test_sgemm_offsets),
        cmocka_unit_test(test_sgemm_host_pointers),
        cmocka_unit_test(test_sgemv_sizes),
        cmocka_unit_test(test_sgemv_extreme_increments_of_one_element),
#ifdef TEST_DROPIN
        cmocka_unit_test(test_dropin),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
