/*
 * Test helpers: device set-up, random data and the OpenBLAS comparison.
 * The bound for each element of C is the one the tuner holds candidates to
 * (oclblas__error_bound, src/verify.h), its magnitudes computed with
 * OpenBLAS on the absolute values, so it scales with k and with the
 * magnitudes of the operands, element by element.
 */
#include "testutil.h"
#include "util/verify.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX1(x) ((x) > 1 ? (x) : 1)

void tu_get_env(tu_env *env)
{
    oclblas_status st = oclblas_default_device(&env->device, &env->context, &env->queue);
    if (st != OCLBLAS_SUCCESS)
        fail_msg("no default device: %s", oclblas_status_string(st));
}

int tu_routine_value(const tu_env *env, const char *name)
{
    char buf[1024], key[64];
    TU_CHECK(oclblas_get_params(env->device, "routine", buf, sizeof buf));
    snprintf(key, sizeof key, "%s=", name);
    const char *at = strstr(buf, key);
    if (!at)
        fail_msg("no %s in \"%s\"", name, buf);
    return atoi(at + strlen(key));
}

void tu_fill(float *x, size_t n, unsigned *seed)
{
    uint32_t s = *seed;
    oclblas__fill_uniform(x, n, &s);
    *seed = s;
}

float *tu_filled(size_t n, unsigned *seed)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    assert_non_null(x);
    tu_fill(x, n, seed);
    return x;
}

int tu_misaligned_host_buffers;

static void CL_CALLBACK free_host(cl_mem m, void *p)
{
    (void)m;
    free(p);
}

cl_mem tu_buffer(const tu_env *env, const float *host, size_t count)
{
    cl_int err;
    if (tu_misaligned_host_buffers) {
        /* Over host memory one float past a 64-byte boundary: no vector access may assume alignment. */
        float *base = aligned_alloc(64, (count + 32) / 16 * 64), *p = base + 1;
        if (host)
            memcpy(p, host, count * sizeof(float));
        cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                  (count ? count : 1) * sizeof(float), p, &err);
        if (err != CL_SUCCESS)
            fail_msg("clCreateBuffer(USE_HOST_PTR, %zu floats): %d", count, err);
        clSetMemObjectDestructorCallback(m, free_host, base);
        return m;
    }
    cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                              (count ? count : 1) * sizeof(float), (void *)host, &err);
    if (err != CL_SUCCESS)
        fail_msg("clCreateBuffer(%zu floats): %d", count, err);
    return m;
}

void tu_read(const tu_env *env, cl_mem buf, float *host, size_t count)
{
    cl_int err = clEnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, count * sizeof(float), host, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        fail_msg("clEnqueueReadBuffer: %d", err);
}

oclblas_status tu_settle(const char *what, oclblas_status st, cl_event ev)
{
    if (st == OCLBLAS_SUCCESS && !ev)
        fail_msg("%s: no event came back with a success", what);
    if (st != OCLBLAS_SUCCESS && ev)
        fail_msg("%s: an event came back with a failure (%s)", what, oclblas_status_string(st));
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    return st;
}

size_t tu_span(oclblas_layout layout, size_t rows, size_t cols, size_t ld)
{
    if (rows == 0 || cols == 0)
        return 0;
    return layout == OCLBLAS_COL_MAJOR ? (cols - 1) * ld + rows : (rows - 1) * ld + cols;
}

static CBLAS_TRANSPOSE cb_trans(oclblas_transpose t)
{
    return t == OCLBLAS_NO_TRANS ? CblasNoTrans : t == OCLBLAS_TRANS ? CblasTrans : CblasConjTrans;
}

static float *fabs_copy(const float *x, size_t n)
{
    float *y = malloc((n ? n : 1) * sizeof *y);
    for (size_t i = 0; i < n; ++i)
        y[i] = fabsf(x[i]);
    return y;
}

double tu_gemm_case(const tu_env *env, int host, oclblas_layout layout, oclblas_transpose ta, oclblas_transpose tb,
                    size_t m, size_t n, size_t k, float alpha, float beta, size_t pad_ld, size_t a_off, size_t b_off,
                    size_t c_off, unsigned seed)
{
    const int at = ta != OCLBLAS_NO_TRANS, bt = tb != OCLBLAS_NO_TRANS, col = layout == OCLBLAS_COL_MAJOR;
    const size_t ar = at ? k : m, ac = at ? m : k, br = bt ? n : k, bc = bt ? k : n;
    const size_t lda = MAX1(col ? ar : ac) + pad_ld, ldb = MAX1(col ? br : bc) + pad_ld, ldc = MAX1(col ? m : n) + pad_ld;
    const size_t na = a_off + tu_span(layout, ar, ac, lda), nb = b_off + tu_span(layout, br, bc, ldb);
    const size_t nc = c_off + tu_span(layout, m, n, ldc);
    float *a = malloc((na + 1) * sizeof *a), *b = malloc((nb + 1) * sizeof *b);
    float *c = malloc((nc + 1) * sizeof *c), *ref = malloc((nc + 1) * sizeof *ref), *got = malloc((nc + 1) * sizeof *got);
    tu_fill(a, na, &seed);
    tu_fill(b, nb, &seed);
    tu_fill(c, nc, &seed);
    memcpy(ref, c, nc * sizeof *c);
    if (beta == 0.0f) /* must be overwritten without being read */
        for (size_t i = c_off; i < nc; ++i)
            c[i] = NAN;

    if (host) {
        memcpy(got, c, nc * sizeof *c);
        oclblas_status st = oclblas_sgemm(layout, ta, tb, m, n, k, alpha, a + a_off, lda, b + b_off, ldb, beta,
                                          got + c_off, ldc);
        if (st != OCLBLAS_SUCCESS)
            fail_msg("sgemm %zux%zux%zu: %s", m, n, k, oclblas_status_string(st));
    } else {
        cl_mem da = tu_buffer(env, a, na), db = tu_buffer(env, b, nb), dc = tu_buffer(env, c, nc);
        cl_event ev = NULL;
        oclblas_status st = oclblas_sgemm_cl(layout, ta, tb, m, n, k, alpha, da, a_off, lda, db, b_off, ldb, beta,
                                             dc, c_off, ldc, env->queue, &ev);
        if (st != OCLBLAS_SUCCESS)
            fail_msg("sgemm_cl %zux%zux%zu: %s", m, n, k, oclblas_status_string(st));
        tu_settle("sgemm_cl", st, ev);
        tu_read(env, dc, got, nc);
        clReleaseMemObject(da);
        clReleaseMemObject(db);
        clReleaseMemObject(dc);
    }

    const CBLAS_ORDER order = col ? CblasColMajor : CblasRowMajor;
    float *bound = malloc((nc + 1) * sizeof *bound);
    float *aa = fabs_copy(a, na), *ab = fabs_copy(b, nb);
    for (size_t i = 0; i < nc; ++i)
        bound[i] = fabsf(ref[i]);
    if (m && n) {
        cblas_sgemm(order, cb_trans(ta), cb_trans(tb), (int)m, (int)n, (int)k, alpha, a + a_off, (int)lda,
                    b + b_off, (int)ldb, beta, ref + c_off, (int)ldc);
        cblas_sgemm(order, cb_trans(ta), cb_trans(tb), (int)m, (int)n, (int)k, fabsf(alpha), aa + a_off, (int)lda,
                    ab + b_off, (int)ldb, fabsf(beta), bound + c_off, (int)ldc);
    }
    double worst = 0.0;
    const size_t outer = col ? n : m, inner = col ? m : n;
    for (size_t i = 0; i < nc; ++i) {
        /* Is element i inside the m x n result? */
        int inside = 0;
        if (i >= c_off) {
            const size_t rel = i - c_off, line = rel / ldc, pos = rel % ldc;
            inside = line < outer && pos < inner;
        }
        double ratio;
        if (!inside) {
            ratio = got[i] == c[i] || (isnan(got[i]) && isnan(c[i])) ? 0.0 : INFINITY;
        } else {
            const double err = fabs((double)got[i] - (double)ref[i]);
            ratio = isnan(got[i]) || isnan(err) ? INFINITY : err / oclblas__error_bound(k, bound[i]);
        }
        if (ratio > worst) {
            worst = ratio;
            if (ratio > 1.0)
                print_message("  element %zu%s: got %.9g, expected %.9g\n", i, inside ? "" : " (outside C)",
                              (double)got[i], inside ? (double)ref[i] : (double)c[i]);
        }
    }
    free(a); free(b); free(c); free(ref); free(got); free(bound); free(aa); free(ab);
    return worst;
}

double tu_gemv_case(const tu_env *env, int host, oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n,
                    float alpha, float beta, size_t pad_ld, ptrdiff_t incx, ptrdiff_t incy, size_t a_off,
                    size_t x_off, size_t y_off, unsigned seed)
{
    const int t = trans != OCLBLAS_NO_TRANS, col = layout == OCLBLAS_COL_MAJOR;
    const size_t lda = MAX1(col ? m : n) + pad_ld;
    const size_t lx = t ? m : n, ly = t ? n : m;
    const size_t sx = (size_t)(incx < 0 ? -incx : incx), sy = (size_t)(incy < 0 ? -incy : incy);
    const size_t na = a_off + tu_span(layout, m, n, lda), nx = x_off + (lx ? (lx - 1) * sx + 1 : 0);
    const size_t ny = y_off + (ly ? (ly - 1) * sy + 1 : 0);
    float *a = malloc((na + 1) * sizeof *a), *x = malloc((nx + 1) * sizeof *x), *y = malloc((ny + 1) * sizeof *y);
    float *ref = malloc((ny + 1) * sizeof *ref), *got = malloc((ny + 1) * sizeof *got);
    tu_fill(a, na, &seed);
    tu_fill(x, nx, &seed);
    tu_fill(y, ny, &seed);
    memcpy(ref, y, ny * sizeof *y);
    if (beta == 0.0f)
        for (size_t i = 0; i < ly; ++i)
            y[y_off + i * sy] = NAN;

    if (host) {
        memcpy(got, y, ny * sizeof *y);
        oclblas_status st = oclblas_sgemv(layout, trans, m, n, alpha, a + a_off, lda, x + x_off, incx, beta,
                                          got + y_off, incy);
        if (st != OCLBLAS_SUCCESS)
            fail_msg("sgemv %zux%zu: %s", m, n, oclblas_status_string(st));
    } else {
        cl_mem da = tu_buffer(env, a, na), dx = tu_buffer(env, x, nx), dy = tu_buffer(env, y, ny);
        cl_event ev = NULL;
        oclblas_status st = oclblas_sgemv_cl(layout, trans, m, n, alpha, da, a_off, lda, dx, x_off, incx, beta, dy,
                                             y_off, incy, env->queue, &ev);
        if (st != OCLBLAS_SUCCESS)
            fail_msg("sgemv_cl %zux%zu: %s", m, n, oclblas_status_string(st));
        tu_settle("sgemv_cl", st, ev);
        tu_read(env, dy, got, ny);
        clReleaseMemObject(da);
        clReleaseMemObject(dx);
        clReleaseMemObject(dy);
    }

    const CBLAS_ORDER order = col ? CblasColMajor : CblasRowMajor;
    float *bound = malloc((ny + 1) * sizeof *bound), *aa = fabs_copy(a, na), *ax = fabs_copy(x, nx);
    for (size_t i = 0; i < ny; ++i)
        bound[i] = fabsf(ref[i]);
    if (m && n) {
        cblas_sgemv(order, cb_trans(trans), (int)m, (int)n, alpha, a + a_off, (int)lda, x + x_off, (int)incx, beta,
                    ref + y_off, (int)incy);
        cblas_sgemv(order, cb_trans(trans), (int)m, (int)n, fabsf(alpha), aa + a_off, (int)lda, ax + x_off,
                    (int)incx, fabsf(beta), bound + y_off, (int)incy);
    }
    double worst = 0.0;
    for (size_t i = 0; i < ny; ++i) {
        const int inside = i >= y_off && (i - y_off) % sy == 0 && (i - y_off) / sy < ly && m && n;
        double ratio;
        if (!inside) {
            ratio = got[i] == y[i] ? 0.0 : INFINITY;
        } else {
            const double err = fabs((double)got[i] - (double)ref[i]);
            ratio = isnan(got[i]) || isnan(err) ? INFINITY : err / oclblas__error_bound(lx, bound[i]);
        }
        if (ratio > worst) {
            worst = ratio;
            if (ratio > 1.0)
                print_message("  y element %zu%s: got %.9g, expected %.9g\n", i, inside ? "" : " (outside y)",
                              (double)got[i], inside ? (double)ref[i] : (double)y[i]);
        }
    }
    free(a); free(x); free(y); free(ref); free(got); free(bound); free(aa); free(ax);
    return worst;
}

static void override_one(const tu_env *env, const char *kernel, const char *params)
{
    oclblas_status st = oclblas_override_params(env->device, kernel, params);
    if (st != OCLBLAS_SUCCESS)
        fail_msg("override %s '%s': %s", kernel, params ? params : "(remove)", oclblas_status_string(st));
}

/* The routine's override as the test gave it, and whether a gemm_fast set is in force. */
static char test_routine[512];
static int test_routine_given, fast_given;

/* The routine's override with GEMM_CPU 0 while a gemm_fast set is in force. */
static void override_routine(const tu_env *env)
{
    char text[sizeof test_routine + 16];
    if (fast_given)
        snprintf(text, sizeof text, "%s%sGEMM_CPU=0", test_routine_given ? test_routine : "",
                 test_routine_given && test_routine[0] ? "," : "");
    else
        snprintf(text, sizeof text, "%s", test_routine);
    override_one(env, "routine", fast_given || test_routine_given ? text : NULL);
}

void tu_override(const tu_env *env, const char *kernel, const char *params)
{
    if (strcmp(kernel, "routine") == 0) {
        test_routine_given = params != NULL;
        snprintf(test_routine, sizeof test_routine, "%s", params ? params : "");
        override_routine(env);
        return;
    }
    override_one(env, kernel, params);
    if (strcmp(kernel, "gemm_fast") == 0 && fast_given != (params != NULL)) {
        fast_given = params != NULL;
        override_routine(env);
    }
}

double tu_gemv_output_ratio(double sum, double mag, size_t len, float alpha, float beta, float y0, float got)
{
    double want = (double)alpha * sum;
    mag *= fabs((double)alpha);
    if (beta != 0.0f) {
        want += (double)beta * y0;
        mag += fabs((double)beta * y0);
    }
    const double err = fabs((double)got - want);
    return isnan(err) ? INFINITY : err / oclblas__error_bound(len, mag);
}
