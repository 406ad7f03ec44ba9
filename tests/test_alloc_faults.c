/*
 * Host memory that runs out inside a call. The library's objects are
 * linked into this program with their malloc, calloc and realloc wrapped
 * (the linker's --wrap; the OpenCL driver's and OpenBLAS's own allocations
 * are left alone), and each call of the host-pointer API is made again and
 * again with its first allocation failing, then its second, and so on,
 * until a call makes fewer allocations than the one that would fail. Each
 * call must either succeed with the right result (a failure that costs
 * only speed: the host computes what a device could not) or return a
 * named status with the caller's output as it was; never crash. After
 * each, the library must still work: the last call, where nothing failed,
 * is checked like the others.
 *
 *   test_alloc_faults            on the default device: every call above
 *                                HOST_MAX goes there (HOST_MAX=0), warm
 *   test_alloc_faults no-opencl  no OpenCL platform: the host serves, and
 *                                the failures reach the first call's start
 */
#include "oclblas.h"
#include "util/verify.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

/* ---- the failing allocator --------------------------------------------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t n);
void *__real_realloc(void *p, size_t n);

static atomic_int armed, injected;
static atomic_long seen, fail_at;

/* Whether this allocation is the one to fail (counted only while armed). */
static int fail_now(void)
{
    if (!atomic_load(&armed) || atomic_fetch_add(&seen, 1) != atomic_load(&fail_at))
        return 0;
    atomic_store(&injected, 1);
    return 1;
}

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t count, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t count, size_t n) { return fail_now() ? NULL : __real_calloc(count, n); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }

/* ---- the calls ----------------------------------------------------------- */

typedef enum { GEMM, GEMV, GEMM_BATCH } kind;

typedef struct {
    const char *name;
    kind k;
    size_t m, n, depth, batch; /* depth: SGEMM's k; batch: problems of a strided batch */
} call_case;

/* Column-major operands, packed: A m x depth (SGEMV: m x n), B depth x n
 * (SGEMV: x of n), C m x n (SGEMV: y of m), each problem of a batch after
 * the previous one. */
static size_t a_len(const call_case *c) { return c->batch * c->m * (c->k == GEMV ? c->n : c->depth); }
static size_t b_len(const call_case *c) { return c->batch * (c->k == GEMV ? c->n : c->depth * c->n); }
static size_t c_len(const call_case *c) { return c->batch * (c->k == GEMV ? c->m : c->m * c->n); }

static const float alpha = 1.5f, beta = 0.5f;

static oclblas_status make_call(const call_case *c, const float *a, const float *b, float *out)
{
    switch (c->k) {
    case GEMM:
        return oclblas_sgemm(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, c->m, c->n, c->depth, alpha, a, c->m,
                             b, c->depth, beta, out, c->m);
    case GEMV:
        return oclblas_sgemv(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, c->m, c->n, alpha, a, c->m, b, 1, beta, out, 1);
    case GEMM_BATCH:
        return oclblas_sgemm_strided_batched(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, c->m, c->n,
                                             c->depth, alpha, a, c->m, c->m * c->depth, b, c->depth, c->depth * c->n,
                                             beta, out, c->m, c->m * c->n, c->batch);
    }
    return OCLBLAS_INVALID_ARGUMENT;
}

/* Elements of out past the float64 reference's bound; old is C before the call. */
static size_t wrong_elements(const call_case *c, const float *a, const float *b, const float *old, const float *out)
{
    const size_t depth = c->k == GEMV ? c->n : c->depth, cols = c->k == GEMV ? 1 : c->n;
    size_t bad = 0;
    for (size_t z = 0; z < c->batch; ++z)
        for (size_t j = 0; j < cols; ++j)
            for (size_t i = 0; i < c->m; ++i) {
                double s = 0, mag = 0;
                for (size_t p = 0; p < depth; ++p) {
                    const double v = (double)a[z * c->m * depth + p * c->m + i] * b[z * depth * cols + j * depth + p];
                    s += v;
                    mag += fabs(v);
                }
                const size_t e = z * c->m * cols + j * c->m + i;
                const double want = alpha * s + beta * (double)old[e];
                bad += !(fabs(out[e] - want) <=
                         oclblas__error_bound(depth, fabs(alpha) * mag + fabs(beta) * fabs(old[e])));
            }
    return bad;
}

/* The call with its 1st, 2nd, ... allocation failing, until one fails none. */
static void fail_each_allocation(const call_case *c)
{
    const size_t na = a_len(c), nb = b_len(c), nc = c_len(c);
    float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *old = malloc(nc * sizeof *old),
          *out = malloc(nc * sizeof *out);
    assert_true(a && b && old && out);
    uint32_t seed = (uint32_t)(c->m * 31 + c->n);
    oclblas__fill_uniform(a, na, &seed);
    oclblas__fill_uniform(b, nb, &seed);
    oclblas__fill_uniform(old, nc, &seed);
    long refused = 0, absorbed = 0;
    for (long f = 0;; ++f) {
        if (f > 100000)
            fail_msg("%s: more than 100000 allocations in one call", c->name);
        memcpy(out, old, nc * sizeof *out);
        atomic_store(&seen, 0);
        atomic_store(&fail_at, f);
        atomic_store(&injected, 0);
        atomic_store(&armed, 1);
        const oclblas_status st = make_call(c, a, b, out);
        atomic_store(&armed, 0);
        const int failed_one = atomic_load(&injected);
        if (st == OCLBLAS_SUCCESS) {
            const size_t bad = wrong_elements(c, a, b, old, out);
            if (bad)
                fail_msg("%s, allocation %ld failing: success, but %zu elements wrong", c->name, f, bad);
            absorbed += failed_one;
        } else {
            if (!failed_one)
                fail_msg("%s: %s with no allocation failing", c->name, oclblas_status_name(st));
            if (strcmp(oclblas_status_name(st), "unknown") == 0)
                fail_msg("%s, allocation %ld failing: status %d, which has no name", c->name, f, (int)st);
            if (memcmp(out, old, nc * sizeof *out) != 0)
                fail_msg("%s, allocation %ld failing: %s, but the output was written", c->name, f,
                         oclblas_status_name(st));
            ++refused;
        }
        if (!failed_one) {
            printf("%s: %ld allocations failed in turn: %ld absorbed (right result), %ld refused with a "
                   "status and the output untouched; then the call with none failing was right\n",
                   c->name, f, absorbed, refused);
            break;
        }
    }
    free(a);
    free(b);
    free(old);
    free(out);
}

static const call_case cases[] = {
    {"sgemm 400x300x100", GEMM, 400, 300, 100, 1},
    {"sgemv 300x200", GEMV, 300, 200, 0, 1},
    {"sgemm batch of 3, 120x90x60", GEMM_BATCH, 120, 90, 60, 3},
};

static void test_calls(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        fail_each_allocation(&cases[i]);
}

/* On the device: every size there (HOST_MAX=0), the kernels built and the
 * device opened by a first call, so that the failures reach the calls. */
static int on_device(void **state)
{
    (void)state;
    cl_device_id device;
    if (oclblas_default_device(&device, NULL, NULL) != OCLBLAS_SUCCESS ||
        oclblas_override_params(device, "routine", "HOST_MAX=0") != OCLBLAS_SUCCESS)
        return -1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const call_case *c = &cases[i];
        float *a = calloc(a_len(c), sizeof(float)), *b = calloc(b_len(c), sizeof(float)),
              *out = calloc(c_len(c), sizeof(float));
        const oclblas_status st = a && b && out ? make_call(c, a, b, out) : OCLBLAS_OUT_OF_HOST_MEMORY;
        free(a);
        free(b);
        free(out);
        if (st != OCLBLAS_SUCCESS)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const int no_opencl = argc > 1 && strcmp(argv[1], "no-opencl") == 0;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_calls)};
    return cmocka_run_group_tests(tests, no_opencl ? NULL : on_device, NULL);
}
