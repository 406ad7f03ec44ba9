/*
 * The device-buffer API: SGEMM on OpenCL buffers of the program's own
 * context and queue, asynchronous, with an event to wait on. The program
 * makes OpenCL calls of its own, so it links OpenCL too: pkg-config's
 * oclblas package brings it (OpenCL is a public requirement of oclblas).
 *
 *   cc device_buffers.c -o device_buffers $(pkg-config --cflags --libs oclblas)
 */
/* The OpenCL version this program is written against; oclblas.h leaves it to us. */
#define CL_TARGET_OPENCL_VERSION 120
#include <oclblas.h>

#include "check.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                                  \
    do {                                                                                                           \
        const cl_int err_ = (call);                                                                                \
        if (err_ != CL_SUCCESS) {                                                                                  \
            fprintf(stderr, "%s: %s\n", #call, oclblas_status_string((oclblas_status)err_));                      \
            return 1;                                                                                              \
        }                                                                                                          \
    } while (0)

int main(void)
{
    enum { M = 256, N = 192, K = 320 };
    static float a[M * K], b[K * N], c[M * N];
    unsigned seed = 7;
    for (int i = 0; i < M * K; ++i)
        a[i] = uniform(&seed);
    for (int i = 0; i < K * N; ++i)
        b[i] = uniform(&seed);

    /* Any OpenCL device will do; this one is the library's default. */
    cl_device_id device;
    CHECK(oclblas_default_device(&device, NULL, NULL));
    char name[256];
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL));
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
    CHECK(err);

    /* Row-major C = A B, asked for as what it is in column-major terms:
     * C^T = B^T A^T, the same memory (a row-major call would do as well). */
    cl_event done;
    CHECK(oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, N, M, K, 1.0f, db, 0, N, da, 0, K,
                           0.0f, dc, 0, N, queue, &done));
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, sizeof c, c, 1, &done, NULL));
    CHECK(clReleaseEvent(done));

    const double worst = worst_gemm(a, b, c, M, N, K);
    printf("sgemm %dx%dx%d on %s, device buffers: error/bound %.3f\n", M, N, K, name, worst);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return worst <= 1 ? 0 : 1;
}
