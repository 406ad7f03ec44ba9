/*
 * Invalid arguments: every cause gets its own status, and a call that fails
 * writes nothing (C and y are read back bit for bit). Also the trivial cases
 * that must succeed without touching anything (m or n = 0), and the ones
 * that must not read A and B (k = 0, alpha = 0).
 */
#include "testutil.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#define N 16
#define SENTINEL 12345.0f

typedef struct {
    tu_env env;
    cl_mem a, b, c, x, y, small, foreign;
    cl_context other;
} fixture;

static int setup(void **state)
{
    static fixture f;
    tu_get_env(&f.env);
    float host[N * N];
    for (int i = 0; i < N * N; ++i)
        host[i] = SENTINEL;
    f.a = tu_buffer(&f.env, host, N * N);
    f.b = tu_buffer(&f.env, host, N * N);
    f.c = tu_buffer(&f.env, host, N * N);
    f.x = tu_buffer(&f.env, host, N);
    f.y = tu_buffer(&f.env, host, N);
    f.small = tu_buffer(&f.env, host, 4);
    cl_int err;
    f.other = clCreateContext(NULL, 1, &f.env.device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    f.foreign = clCreateBuffer(f.other, CL_MEM_READ_WRITE, N * N * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cl_mem all[] = {f->a, f->b, f->c, f->x, f->y, f->small, f->foreign};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        clReleaseMemObject(all[i]);
    clReleaseContext(f->other);
    return 0;
}

static void assert_untouched(fixture *f, cl_mem buf, size_t count)
{
    float got[N * N];
    tu_read(&f->env, buf, got, count);
    for (size_t i = 0; i < count; ++i)
        if (got[i] != SENTINEL)
            fail_msg("element %zu was written (%g)", i, (double)got[i]);
}

#define COL OCLBLAS_COL_MAJOR
#define ROW OCLBLAS_ROW_MAJOR
#define NT OCLBLAS_NO_TRANS
#define TR OCLBLAS_TRANS

static oclblas_status gemm(fixture *f, oclblas_layout l, oclblas_transpose ta, oclblas_transpose tb, size_t m,
                           size_t n, size_t k, cl_mem a, size_t ao, size_t lda, cl_mem b, size_t bo, size_t ldb, cl_mem c,
                           size_t co, size_t ldc, cl_command_queue q)
{
    cl_event ev = NULL;
    oclblas_status st = oclblas_sgemm_cl(l, ta, tb, m, n, k, 1.0f, a, ao, lda, b, bo, ldb, 0.0f, c, co, ldc, q, &ev);
    return tu_settle("oclblas_sgemm_cl", st, ev);
}

static void test_gemm_cl_invalid(void **state)
{
    fixture *f = *state;
    cl_command_queue q = f->env.queue;
    struct {
        oclblas_status want;
        oclblas_status got;
    } cases[] = {
        {OCLBLAS_INVALID_LAYOUT, gemm(f, (oclblas_layout)0, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_INVALID_TRANS_A, gemm(f, COL, (oclblas_transpose)0, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_INVALID_TRANS_B, gemm(f, COL, NT, (oclblas_transpose)114, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        /* column-major: lda >= rows of the stored A (m, or k when transposed) */
        {OCLBLAS_INVALID_LDA, gemm(f, COL, NT, NT, 5, 4, 3, f->a, 0, 4, f->b, 0, 4, f->c, 0, 5, q)},
        {OCLBLAS_INVALID_LDA, gemm(f, COL, TR, NT, 3, 4, 5, f->a, 0, 4, f->b, 0, 5, f->c, 0, 3, q)},
        /* row-major: lda >= columns of the stored A (k, or m when transposed) */
        {OCLBLAS_INVALID_LDA, gemm(f, ROW, NT, NT, 3, 4, 5, f->a, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_INVALID_LDA, gemm(f, COL, NT, NT, 0, 4, 4, f->a, 0, 0, f->b, 0, 4, f->c, 0, 1, q)},
        {OCLBLAS_INVALID_LDB, gemm(f, COL, NT, NT, 4, 4, 5, f->a, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_INVALID_LDB, gemm(f, ROW, NT, TR, 4, 4, 5, f->a, 0, 5, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_INVALID_LDC, gemm(f, COL, NT, NT, 5, 4, 4, f->a, 0, 5, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_INVALID_LDC, gemm(f, ROW, NT, NT, 4, 5, 4, f->a, 0, 4, f->b, 0, 5, f->c, 0, 4, q)},
        {OCLBLAS_NULL_QUEUE, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, f->c, 0, 4, NULL)},
        {OCLBLAS_NULL_A, gemm(f, COL, NT, NT, 4, 4, 4, NULL, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_NULL_B, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, NULL, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_NULL_C, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, NULL, 0, 4, q)},
        {OCLBLAS_BUFFER_A_TOO_SMALL, gemm(f, COL, NT, NT, 4, 4, 4, f->small, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_BUFFER_A_TOO_SMALL, gemm(f, COL, NT, NT, 4, 4, 4, f->a, N * N - 15, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_BUFFER_A_TOO_SMALL, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 100, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_BUFFER_B_TOO_SMALL, gemm(f, ROW, NT, NT, 4, 4, 4, f->a, 0, 4, f->small, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_BUFFER_B_TOO_SMALL, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, SIZE_MAX - 2, 4, f->c, 0, 4, q)},
        {OCLBLAS_BUFFER_C_TOO_SMALL, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, f->small, 0, 4, q)},
        {OCLBLAS_BUFFER_C_TOO_SMALL, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, f->c, 0, 100, q)},
        {OCLBLAS_BUFFER_CONTEXT_MISMATCH, gemm(f, COL, NT, NT, 4, 4, 4, f->foreign, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_BUFFER_CONTEXT_MISMATCH, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, f->foreign, 0, 4, q)},
        {OCLBLAS_SIZE_TOO_LARGE, gemm(f, COL, NT, NT, (size_t)INT_MAX + 1, 1, 1, f->a, 0, (size_t)INT_MAX + 1, f->b, 0,
                                      1, f->c, 0, (size_t)INT_MAX + 1, q)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        if (cases[i].got != cases[i].want)
            fail_msg("case %zu: got %d (%s), want %d (%s)", i, cases[i].got, oclblas_status_string(cases[i].got),
                     cases[i].want, oclblas_status_string(cases[i].want));
    assert_untouched(f, f->c, N * N);
}

static void test_gemm_cl_trivial(void **state)
{
    fixture *f = *state;
    cl_command_queue q = f->env.queue;
    /* m or n = 0: nothing happens, even with NULL buffers, and an event still comes back. */
    assert_int_equal(gemm(f, COL, NT, NT, 0, 4, 4, NULL, 0, 1, NULL, 0, 4, NULL, 0, 1, q), OCLBLAS_SUCCESS);
    assert_int_equal(gemm(f, ROW, NT, NT, 4, 0, 4, NULL, 0, 4, NULL, 0, 1, NULL, 0, 1, q), OCLBLAS_SUCCESS);
    assert_untouched(f, f->c, N * N);
    /* k = 0: C = beta * C and A, B are not referenced (NULL is fine). */
    cl_event ev = NULL;
    assert_int_equal(oclblas_sgemm_cl(COL, NT, NT, 4, 4, 0, 1.0f, NULL, 0, 4, NULL, 0, 1, 0.5f, f->c, 0, N, q, &ev),
                     OCLBLAS_SUCCESS);
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    float got[N * N];
    tu_read(&f->env, f->c, got, N * N);
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i)
            assert_true(got[j * N + i] == ((i < 4 && j < 4) ? SENTINEL * 0.5f : SENTINEL));
    /* alpha = 0, beta = 1: nothing changes. */
    assert_int_equal(oclblas_sgemm_cl(COL, NT, NT, 4, 4, 4, 0.0f, NULL, 0, 4, NULL, 0, 4, 1.0f, f->c, 0, N, q, NULL),
                     OCLBLAS_SUCCESS);
    clFinish(q);
    float again[N * N];
    tu_read(&f->env, f->c, again, N * N);
    assert_memory_equal(got, again, sizeof got);
    /* Restore the sentinel for the other tests. */
    float host[N * N];
    for (int i = 0; i < N * N; ++i)
        host[i] = SENTINEL;
    clEnqueueWriteBuffer(q, f->c, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
}

static void test_gemm_host_invalid(void **state)
{
    (void)state;
    float a[N * N], b[N * N], c[N * N], c0[N * N];
    for (int i = 0; i < N * N; ++i)
        a[i] = b[i] = c[i] = c0[i] = SENTINEL;
    assert_int_equal(oclblas_sgemm((oclblas_layout)7, NT, NT, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4), OCLBLAS_INVALID_LAYOUT);
    assert_int_equal(oclblas_sgemm(COL, (oclblas_transpose)1, NT, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4),
                     OCLBLAS_INVALID_TRANS_A);
    assert_int_equal(oclblas_sgemm(COL, NT, (oclblas_transpose)1, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4),
                     OCLBLAS_INVALID_TRANS_B);
    assert_int_equal(oclblas_sgemm(COL, NT, NT, 4, 4, 4, 1, a, 3, b, 4, 0, c, 4), OCLBLAS_INVALID_LDA);
    assert_int_equal(oclblas_sgemm(COL, NT, NT, 4, 4, 4, 1, a, 4, b, 3, 0, c, 4), OCLBLAS_INVALID_LDB);
    assert_int_equal(oclblas_sgemm(COL, NT, NT, 4, 4, 4, 1, a, 4, b, 4, 0, c, 3), OCLBLAS_INVALID_LDC);
    assert_int_equal(oclblas_sgemm(COL, NT, NT, 4, 4, 4, 1, NULL, 4, b, 4, 0, c, 4), OCLBLAS_NULL_A);
    assert_int_equal(oclblas_sgemm(COL, NT, NT, 4, 4, 4, 1, a, 4, NULL, 4, 0, c, 4), OCLBLAS_NULL_B);
    assert_int_equal(oclblas_sgemm(COL, NT, NT, 4, 4, 4, 1, a, 4, b, 4, 0, NULL, 4), OCLBLAS_NULL_C);
    assert_int_equal(oclblas_sgemm(COL, NT, NT, 0, 4, 4, 1, NULL, 1, NULL, 4, 0, NULL, 1), OCLBLAS_SUCCESS);
    assert_memory_equal(c, c0, sizeof c);
}

static oclblas_status gemv(fixture *f, oclblas_layout l, oclblas_transpose t, size_t m, size_t n, cl_mem a,
                           size_t ao, size_t lda, cl_mem x, size_t xo, ptrdiff_t incx, cl_mem y, size_t yo,
                           ptrdiff_t incy, cl_command_queue q)
{
    cl_event ev = NULL;
    oclblas_status st = oclblas_sgemv_cl(l, t, m, n, 1.0f, a, ao, lda, x, xo, incx, 0.0f, y, yo, incy, q, &ev);
    return tu_settle("oclblas_sgemv_cl", st, ev);
}

static void test_gemv_cl_invalid(void **state)
{
    fixture *f = *state;
    cl_command_queue q = f->env.queue;
    struct {
        oclblas_status want, got;
    } cases[] = {
        {OCLBLAS_INVALID_LAYOUT, gemv(f, (oclblas_layout)0, NT, 4, 4, f->a, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_INVALID_TRANS_A, gemv(f, COL, (oclblas_transpose)0, 4, 4, f->a, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_INVALID_LDA, gemv(f, COL, NT, 5, 4, f->a, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_INVALID_LDA, gemv(f, ROW, NT, 4, 5, f->a, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_INVALID_INCX, gemv(f, COL, NT, 4, 4, f->a, 0, 4, f->x, 0, 0, f->y, 0, 1, q)},
        {OCLBLAS_INVALID_INCY, gemv(f, COL, NT, 4, 4, f->a, 0, 4, f->x, 0, 1, f->y, 0, 0, q)},
        {OCLBLAS_NULL_QUEUE, gemv(f, COL, NT, 4, 4, f->a, 0, 4, f->x, 0, 1, f->y, 0, 1, NULL)},
        {OCLBLAS_NULL_A, gemv(f, COL, NT, 4, 4, NULL, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_NULL_X, gemv(f, COL, NT, 4, 4, f->a, 0, 4, NULL, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_NULL_Y, gemv(f, COL, NT, 4, 4, f->a, 0, 4, f->x, 0, 1, NULL, 0, 1, q)},
        {OCLBLAS_BUFFER_A_TOO_SMALL, gemv(f, COL, NT, 4, 4, f->small, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_BUFFER_X_TOO_SMALL, gemv(f, COL, NT, 4, 8, f->a, 0, 4, f->x, 0, 3, f->y, 0, 1, q)},
        {OCLBLAS_BUFFER_X_TOO_SMALL, gemv(f, COL, TR, 8, 4, f->a, 0, 8, f->x, 0, -3, f->y, 0, 1, q)},
        {OCLBLAS_BUFFER_Y_TOO_SMALL, gemv(f, COL, NT, 8, 4, f->a, 0, 8, f->x, 0, 1, f->y, 10, 1, q)},
        {OCLBLAS_BUFFER_Y_TOO_SMALL, gemv(f, ROW, NT, 8, 4, f->a, 0, 4, f->x, 0, 1, f->y, 0, -3, q)},
        {OCLBLAS_BUFFER_CONTEXT_MISMATCH, gemv(f, COL, NT, 4, 4, f->a, 0, 4, f->foreign, 0, 1, f->y, 0, 1, q)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        if (cases[i].got != cases[i].want)
            fail_msg("case %zu: got %d (%s), want %d (%s)", i, cases[i].got, oclblas_status_string(cases[i].got),
                     cases[i].want, oclblas_status_string(cases[i].want));
    assert_untouched(f, f->y, N);
    /* m or n = 0: a no-op even with NULL buffers. */
    assert_int_equal(gemv(f, COL, NT, 0, 4, NULL, 0, 1, NULL, 0, 1, NULL, 0, 1, q), OCLBLAS_SUCCESS);
    assert_int_equal(gemv(f, COL, TR, 4, 0, NULL, 0, 4, NULL, 0, 1, NULL, 0, 1, q), OCLBLAS_SUCCESS);
    assert_untouched(f, f->y, N);
}

static void test_gemv_host_invalid(void **state)
{
    (void)state;
    float a[N * N], x[N], y[N], y0[N];
    for (int i = 0; i < N; ++i)
        x[i] = y[i] = y0[i] = SENTINEL;
    memset(a, 0, sizeof a);
    assert_int_equal(oclblas_sgemv((oclblas_layout)0, NT, 4, 4, 1, a, 4, x, 1, 0, y, 1), OCLBLAS_INVALID_LAYOUT);
    assert_int_equal(oclblas_sgemv(COL, (oclblas_transpose)0, 4, 4, 1, a, 4, x, 1, 0, y, 1), OCLBLAS_INVALID_TRANS_A);
    assert_int_equal(oclblas_sgemv(COL, NT, 4, 4, 1, a, 3, x, 1, 0, y, 1), OCLBLAS_INVALID_LDA);
    assert_int_equal(oclblas_sgemv(COL, NT, 4, 4, 1, a, 4, x, 0, 0, y, 1), OCLBLAS_INVALID_INCX);
    assert_int_equal(oclblas_sgemv(COL, NT, 4, 4, 1, a, 4, x, 1, 0, y, 0), OCLBLAS_INVALID_INCY);
    assert_int_equal(oclblas_sgemv(COL, NT, 4, 4, 1, NULL, 4, x, 1, 0, y, 1), OCLBLAS_NULL_A);
    assert_int_equal(oclblas_sgemv(COL, NT, 4, 4, 1, a, 4, NULL, 1, 0, y, 1), OCLBLAS_NULL_X);
    assert_int_equal(oclblas_sgemv(COL, NT, 4, 4, 1, a, 4, x, 1, 0, NULL, 1), OCLBLAS_NULL_Y);
    assert_memory_equal(y, y0, sizeof y);
}

static cl_mem flagged_buffer(fixture *f, cl_mem_flags flags)
{
    float host[N * N];
    for (int i = 0; i < N * N; ++i)
        host[i] = SENTINEL;
    cl_int err;
    cl_mem m = clCreateBuffer(f->env.context, flags | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* What kernels may do with a memory object: C and y are written (and read
 * unless beta = 0), A, B and x read; every operand is a buffer. A call that
 * would break the object's flags is refused before anything is enqueued. */
static void test_memory_objects(void **state)
{
    fixture *f = *state;
    cl_command_queue q = f->env.queue;
    cl_mem ro = flagged_buffer(f, CL_MEM_READ_ONLY), wo = flagged_buffer(f, CL_MEM_WRITE_ONLY);
    cl_mem ro_host = flagged_buffer(f, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY);
    struct {
        oclblas_status want, got;
    } cases[] = {
        {OCLBLAS_READ_ONLY_OUTPUT, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, ro, 0, 4, q)},
        {OCLBLAS_READ_ONLY_OUTPUT, gemm(f, ROW, TR, NT, 4, 4, 0, NULL, 0, 4, NULL, 0, 4, ro, 0, 4, q)},
        {OCLBLAS_WRITE_ONLY_INPUT, gemm(f, COL, NT, NT, 4, 4, 4, wo, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_WRITE_ONLY_INPUT, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, wo, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_READ_ONLY_OUTPUT, gemv(f, COL, NT, 4, 4, f->a, 0, 4, f->x, 0, 1, ro, 0, 1, q)},
        {OCLBLAS_WRITE_ONLY_INPUT, gemv(f, COL, TR, 4, 4, wo, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_WRITE_ONLY_INPUT, gemv(f, ROW, NT, 4, 4, f->a, 0, 4, wo, 0, 1, f->y, 0, 1, q)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        if (cases[i].got != cases[i].want)
            fail_msg("case %zu: got %s, want %s", i, oclblas_status_name(cases[i].got),
                     oclblas_status_name(cases[i].want));
    assert_untouched(f, ro, N * N);
    /* C that beta = 1 makes the kernels read must be readable too. */
    assert_int_equal(oclblas_sgemm_cl(COL, NT, NT, 4, 4, 4, 1.0f, f->a, 0, 4, f->b, 0, 4, 1.0f, wo, 0, 4, q, NULL),
                     OCLBLAS_WRITE_ONLY_INPUT);
    assert_int_equal(oclblas_sgemv_cl(COL, NT, 4, 4, 1.0f, f->a, 0, 4, f->x, 0, 1, 2.0f, wo, 0, 1, q, NULL),
                     OCLBLAS_WRITE_ONLY_INPUT);
    /* With beta = 0 a write-only C is never read: accepted, and right. The
     * host-access flags do not concern kernels. */
    cl_mem outs[2] = {wo, ro_host};
    for (int o = 0; o < 2; ++o) {
        TU_CHECK(oclblas_sgemm_cl(COL, NT, NT, 4, 4, 4, 0.5f, f->a, 0, 4, f->b, 0, 4, 0.0f, outs[o], 0, 4, q, NULL));
        clFinish(q);
        float got[16];
        tu_read(&f->env, outs[o], got, 16);
        const float want = 0.5f * 4.0f * SENTINEL * SENTINEL;
        for (int i = 0; i < 16; ++i)
            assert_float_equal(got[i], want, want * 1e-6f);
    }
    clReleaseMemObject(ro);
    clReleaseMemObject(wo);
    clReleaseMemObject(ro_host);

    /* An image in a buffer's place, as any operand. */
    cl_bool images = CL_FALSE;
    assert_int_equal(clGetDeviceInfo(f->env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL),
                     CL_SUCCESS);
    if (!images) {
        print_message("the device has no image support: image operands not tried\n");
        return;
    }
    const cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = desc.image_height = N;
    cl_int err;
    cl_mem img = clCreateImage(f->env.context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    struct {
        oclblas_status want, got;
    } image_cases[] = {
        {OCLBLAS_NOT_A_BUFFER, gemm(f, COL, NT, NT, 4, 4, 4, img, 0, 4, f->b, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_NOT_A_BUFFER, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, img, 0, 4, f->c, 0, 4, q)},
        {OCLBLAS_NOT_A_BUFFER, gemm(f, COL, NT, NT, 4, 4, 4, f->a, 0, 4, f->b, 0, 4, img, 0, 4, q)},
        {OCLBLAS_NOT_A_BUFFER, gemv(f, COL, NT, 4, 4, img, 0, 4, f->x, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_NOT_A_BUFFER, gemv(f, COL, NT, 4, 4, f->a, 0, 4, img, 0, 1, f->y, 0, 1, q)},
        {OCLBLAS_NOT_A_BUFFER, gemv(f, COL, NT, 4, 4, f->a, 0, 4, f->x, 0, 1, img, 0, 1, q)},
    };
    for (size_t i = 0; i < sizeof image_cases / sizeof image_cases[0]; ++i)
        if (image_cases[i].got != image_cases[i].want)
            fail_msg("image case %zu: got %s, want %s", i, oclblas_status_name(image_cases[i].got),
                     oclblas_status_name(image_cases[i].want));
    clReleaseMemObject(img);
    assert_untouched(f, f->c, N * N);
    assert_untouched(f, f->y, N);
}

/* The host API and the device-buffer API run one check of the BLAS
 * arguments: the same status for the same arguments, in reference BLAS's
 * order (for a row-major call, ldb before lda, as reference CBLAS checks
 * the column-major call it makes), and a call that computes nothing is
 * never too large. */
static void test_one_check(void **state)
{
    fixture *f = *state;
    cl_command_queue q = f->env.queue;
    const size_t big = (size_t)INT_MAX + 1;
    static float a[N * N], b[N * N], c[N * N];
    const struct {
        oclblas_layout l;
        oclblas_transpose ta, tb;
        size_t m, n, k, lda, ldb, ldc;
        oclblas_status want;
    } gemms[] = {
        {COL, NT, NT, 4, 4, 4, 3, 3, 4, OCLBLAS_INVALID_LDA},
        {ROW, NT, NT, 4, 4, 4, 3, 3, 4, OCLBLAS_INVALID_LDB},
        {ROW, TR, TR, 4, 5, 6, 3, 6, 5, OCLBLAS_INVALID_LDA},
        {ROW, NT, NT, 4, 5, 6, 6, 5, 4, OCLBLAS_INVALID_LDC},
        {COL, (oclblas_transpose)0, (oclblas_transpose)0, 4, 4, 4, 0, 0, 0, OCLBLAS_INVALID_TRANS_A},
        {(oclblas_layout)0, (oclblas_transpose)0, NT, 4, 4, 4, 0, 0, 0, OCLBLAS_INVALID_LAYOUT},
        {COL, NT, NT, 0, big, 4, 1, 4, 1, OCLBLAS_SUCCESS},
        {COL, NT, NT, big, 0, 4, big, 4, big, OCLBLAS_SUCCESS},
        {COL, NT, NT, 4, 4, big, 4, big, 4, OCLBLAS_SIZE_TOO_LARGE},
    };
    for (size_t i = 0; i < sizeof gemms / sizeof gemms[0]; ++i) {
        /* The host API takes any size (tiles, the host BLAS in blocks): a
         * leading dimension past int is the device API's limit alone. */
        const oclblas_status host =
            gemms[i].want == OCLBLAS_SIZE_TOO_LARGE
                ? gemms[i].want
                : oclblas_sgemm(gemms[i].l, gemms[i].ta, gemms[i].tb, gemms[i].m, gemms[i].n, gemms[i].k, 1, a,
                                gemms[i].lda, b, gemms[i].ldb, 0, c, gemms[i].ldc);
        const oclblas_status dev = gemm(f, gemms[i].l, gemms[i].ta, gemms[i].tb, gemms[i].m, gemms[i].n, gemms[i].k,
                                        f->a, 0, gemms[i].lda, f->b, 0, gemms[i].ldb, f->c, 0, gemms[i].ldc, q);
        if (host != gemms[i].want || dev != gemms[i].want)
            fail_msg("sgemm case %zu: host %s, device %s, want %s", i, oclblas_status_name(host),
                     oclblas_status_name(dev), oclblas_status_name(gemms[i].want));
    }
    const struct {
        oclblas_layout l;
        oclblas_transpose t;
        size_t m, n, lda;
        ptrdiff_t incx, incy;
        oclblas_status want;
    } gemvs[] = {
        {ROW, NT, 4, 5, 4, 0, 0, OCLBLAS_INVALID_LDA},
        {COL, TR, 4, 5, 4, 0, 0, OCLBLAS_INVALID_INCX},
        {COL, TR, 4, 5, 4, -1, 0, OCLBLAS_INVALID_INCY},
        {COL, (oclblas_transpose)114, 4, 5, 0, 0, 0, OCLBLAS_INVALID_TRANS_A},
        {COL, NT, 0, big, 1, 1, 1, OCLBLAS_SUCCESS},
        {COL, NT, 4, 4, 4, 1, (ptrdiff_t)big, OCLBLAS_SIZE_TOO_LARGE},
    };
    for (size_t i = 0; i < sizeof gemvs / sizeof gemvs[0]; ++i) {
        const oclblas_status host =
            gemvs[i].want == OCLBLAS_SIZE_TOO_LARGE
                ? gemvs[i].want
                : oclblas_sgemv(gemvs[i].l, gemvs[i].t, gemvs[i].m, gemvs[i].n, 1, a, gemvs[i].lda, b, gemvs[i].incx,
                                0, c, gemvs[i].incy);
        const oclblas_status dev = gemv(f, gemvs[i].l, gemvs[i].t, gemvs[i].m, gemvs[i].n, f->a, 0, gemvs[i].lda,
                                        f->x, 0, gemvs[i].incx, f->y, 0, gemvs[i].incy, q);
        if (host != gemvs[i].want || dev != gemvs[i].want)
            fail_msg("sgemv case %zu: host %s, device %s, want %s", i, oclblas_status_name(host),
                     oclblas_status_name(dev), oclblas_status_name(gemvs[i].want));
    }
    assert_untouched(f, f->c, N * N);
    assert_untouched(f, f->y, N);
}

/* Names and messages seen so far, to find a repeat. */
typedef struct {
    const char *names[160], *messages[160];
    int count;
} seen_statuses;

static void see_status(seen_statuses *seen, int code)
{
    const char *name = oclblas_status_name((oclblas_status)code), *message = oclblas_status_string((oclblas_status)code);
    if (!name || !*name || strcmp(name, "unknown") == 0 || !message || !*message ||
        strcmp(message, "unknown status") == 0)
        fail_msg("status %d has no name or no message", code);
    for (int i = 0; i < seen->count; ++i)
        if (strcmp(seen->names[i], name) == 0 || strcmp(seen->messages[i], message) == 0)
            fail_msg("status %d (%s: %s) repeats the name or message of another", code, name, message);
    assert_true(seen->count < 160);
    seen->names[seen->count] = name;
    seen->messages[seen->count++] = message;
}

static void test_status_strings(void **state)
{
    (void)state;
    /* Every status of the list: its own name, spelled as the enumerator, and its own message. */
    seen_statuses seen = {{0}, {0}, 0};
    int library = 0;
#define SEE_LIBRARY_STATUS(name, value, message)                                                                  \
    see_status(&seen, name);                                                                                     \
    assert_string_equal(oclblas_status_name(name), #name);                                                       \
    assert_string_equal(oclblas_status_string(name), message);                                                   \
    ++library;
    OCLBLAS_STATUS_LIST(SEE_LIBRARY_STATUS)
#undef SEE_LIBRARY_STATUS
    /* Every library code from -1001 on is in the list: none was left out of it. */
    for (int s = -1001; s > -1001 - (library - 1); --s)
        assert_string_not_equal(oclblas_status_name((oclblas_status)s), "unknown");
    /* OpenCL's codes -1 .. -19 and -30 .. -72 pass through: named as in CL/cl.h. */
    for (int s = -1; s >= -72; --s) {
        if (s <= -20 && s >= -29)
            continue;
        see_status(&seen, s);
        assert_memory_equal(oclblas_status_name((oclblas_status)s), "CL_", 3);
        assert_memory_equal(oclblas_status_string((oclblas_status)s), "OpenCL: ", 8);
    }
    assert_string_equal(oclblas_status_name((oclblas_status)CL_INVALID_MEM_OBJECT), "CL_INVALID_MEM_OBJECT");
    assert_string_equal(oclblas_status_name((oclblas_status)-72), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
    /* Codes that are none: a constant answer, never NULL. */
    const int unknown[] = {1, -20, -29, -73, -999, -1000, -1001 - library, -100000};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
        assert_string_equal(oclblas_status_string((oclblas_status)unknown[i]), "unknown status");
        assert_string_equal(oclblas_status_name((oclblas_status)unknown[i]), "unknown");
    }
}

static void test_override_refused(void **state)
{
    fixture *f = *state;
    cl_device_id d = f->env.device;
    assert_int_equal(oclblas_override_params(d, "no_such_kernel", "X=1"), OCLBLAS_UNKNOWN_KERNEL);
    assert_int_equal(oclblas_override_params(d, "gemm_fast", "NOPE=4"), OCLBLAS_UNKNOWN_PARAM);
    assert_int_equal(oclblas_override_params(d, "gemm_fast", "MWG=abc"), OCLBLAS_INVALID_ARGUMENT);
    /* MWG not a multiple of MDIMC * VWM */
    assert_int_equal(oclblas_override_params(d, "gemm_fast", "MWG=24,MDIMC=16,VWM=1"), OCLBLAS_INVALID_PARAMS);
    /* more work-items than any device allows */
    assert_int_equal(oclblas_override_params(d, "gemm_direct", "MDIMCD=1024,NDIMCD=1024,WGD=1024"),
                     OCLBLAS_INVALID_PARAMS);
    char before[512], after[512];
    assert_int_equal(oclblas_get_params(d, "gemm_fast", before, sizeof before), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas_override_params(d, "gemm_fast", "VWM=3"), OCLBLAS_INVALID_PARAMS);
    assert_int_equal(oclblas_get_params(d, "gemm_fast", after, sizeof after), OCLBLAS_SUCCESS);
    assert_string_equal(before, after);
    /* A buffer too small gets nothing. */
    char tiny[8] = "unset";
    assert_int_equal(oclblas_get_params(d, "gemm_fast", tiny, sizeof tiny), OCLBLAS_INVALID_ARGUMENT);
    assert_string_equal(tiny, "unset");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_cl_invalid), cmocka_unit_test(test_gemm_cl_trivial),
        cmocka_unit_test(test_gemm_host_invalid), cmocka_unit_test(test_gemv_cl_invalid),
        cmocka_unit_test(test_gemv_host_invalid), cmocka_unit_test(test_memory_objects),
        cmocka_unit_test(test_one_check),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_override_refused),
    };
    return cmocka_run_group_tests_name("arguments", tests, setup, teardown);
}
