/*
 * Shared pieces of the test programs: the device the tests run on, seeded
 * random data, and the comparison against OpenBLAS with an error bound that
 * scales with k and the operands' magnitudes.
 */
#ifndef OCLBLAS_TESTUTIL_H
#define OCLBLAS_TESTUTIL_H

#include "oclblas.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

typedef struct {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} tu_env;

/* The library's default device, context and queue; fails the test if there is none. */
void tu_get_env(tu_env *env);

/* The device's routine value NAME (GEMM_MIN_INDIRECT, HOST_MAX...) for
 * every shape, as oclblas_get_params reports it; fails the test if absent. */
int tu_routine_value(const tu_env *env, const char *name);

/* Uniform in [-1, 1) from a small LCG, so a failure reproduces from its seed. */
void tu_fill(float *x, size_t n, unsigned *seed);
/* A new array of n such numbers (at least one element, so n = 0 is fine); the caller frees it. */
float *tu_filled(size_t n, unsigned *seed);

cl_mem tu_buffer(const tu_env *env, const float *host, size_t count);
/* When set, tu_buffer wraps misaligned host memory (CL_MEM_USE_HOST_PTR). */
extern int tu_misaligned_host_buffers;
void tu_read(const tu_env *env, cl_mem buf, float *host, size_t count);
/* The event contract of a _cl call given somewhere to put its event: an event
 * with a success, none with a failure. Fails the test otherwise, waits for
 * the event and releases it; returns st. */
oclblas_status tu_settle(const char *what, oclblas_status st, cl_event ev);

/* Elements a rows x cols operand spans in a layout with leading dimension ld. */
size_t tu_span(oclblas_layout layout, size_t rows, size_t cols, size_t ld);

/* One SGEMM case, checked against OpenBLAS on the same inputs: on device
 * buffers with element offsets (host 0), or through the host-pointer API
 * (host 1, offsets into the arrays). With beta = 0, C starts as NaN. Memory
 * around the result (ldc > rows, elements before the offset) must come back
 * unchanged. Returns the worst ratio of error to its bound (<= 1 passes). */
double tu_gemm_case(const tu_env *env, int host, oclblas_layout layout, oclblas_transpose ta, oclblas_transpose tb,
                    size_t m, size_t n, size_t k, float alpha, float beta, size_t pad_ld, size_t a_off, size_t b_off,
                    size_t c_off, unsigned seed);

/* The same for SGEMV with increments. */
double tu_gemv_case(const tu_env *env, int host, oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n,
                    float alpha, float beta, size_t pad_ld, ptrdiff_t incx, ptrdiff_t incy, size_t a_off,
                    size_t x_off, size_t y_off, unsigned seed);

/* One output of an SGEMV against its float64 reference: the error of got
 * against alpha * sum + beta * y0 (y0 not read where beta is 0) over the
 * bound for a dot product of len terms whose magnitudes add to mag. */
double tu_gemv_output_ratio(double sum, double mag, size_t len, float alpha, float beta, float y0, float got);

/* Overrides of one device's parameters for a test; NULL text removes them.
 * While a test has a gemm_fast set in force, the routine value GEMM_CPU is
 * 0 as well (added to the routine's override, or made one), so that the
 * set runs on a CPU too, whose entry otherwise has gemm_cpu in its place. */
void tu_override(const tu_env *env, const char *kernel, const char *params);

#define TU_CHECK(call)                                                                                         \
    do {                                                                                                       \
        oclblas_status st_ = (call);                                                                           \
        if (st_ != OCLBLAS_SUCCESS)                                                                            \
            fail_msg("%s -> %d (%s)", #call, (int)st_, oclblas_status_string(st_));                           \
    } while (0)

#endif
