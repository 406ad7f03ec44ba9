/*
 * oclblas.h must leave its includer's view of OpenCL alone (issue 13): a C++
 * program that includes it first, and defines no CL_TARGET_OPENCL_VERSION,
 * gets the OpenCL headers' own default (3.0) and can use what OpenCL 2.0
 * added, such as clCreateCommandQueueWithProperties. ctest compiles this
 * file with nothing on the command line but the include path; a header that
 * pinned OpenCL 1.2 fails the static_assert and hides the function.
 */
#include <oclblas.h>

#include <CL/cl.h>

static_assert(CL_TARGET_OPENCL_VERSION == 300, "oclblas.h changed the includer's CL_TARGET_OPENCL_VERSION");

cl_command_queue profiling_queue(cl_context context, cl_device_id device, cl_int *err)
{
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    return clCreateCommandQueueWithProperties(context, device, props, err);
}

oclblas_status product(cl_command_queue queue, cl_mem a, cl_mem b, cl_mem c, size_t n)
{
    return oclblas_sgemm_cl(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, n, n, n, 1.0f, a, 0, n, b, 0, n,
                            0.0f, c, 0, n, queue, nullptr);
}
