// A C++ program, built by CMake against the installed package
// (find_package(oclblas), targets oclblas::oclblas and oclblas::oclblas_cblas).
// It targets OpenCL 3.0 and makes its queue with
// clCreateCommandQueueWithProperties, which a header that pinned OpenCL 1.2
// would hide; on that queue it runs oclblas_sgemm_cl, then the same product
// through the drop-in's cblas_sgemm, and checks both against float64.
#include <oclblas.h>
#include <oclblas_cblas.h>

#include <CL/cl.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

const int m = 200, n = 150, k = 170;

double worst(const std::vector<float> &a, const std::vector<float> &b, const std::vector<float> &c)
{
    double w = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double sum = 0, mag = 0;
            for (int p = 0; p < k; ++p) {
                sum += double(a[i * k + p]) * b[p * n + j];
                mag += std::fabs(double(a[i * k + p]) * b[p * n + j]);
            }
            const double r = std::fabs(c[i * n + j] - sum) / (4.0 * (k + 2) * FLT_EPSILON * mag + FLT_MIN);
            w = r > w || std::isnan(r) ? r : w;
        }
    return w;
}

bool ok(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        std::fprintf(stderr, "%s: %s\n", what, oclblas_status_string(oclblas_status(err)));
    return err == CL_SUCCESS;
}

} // namespace

int main()
{
    std::vector<float> a(m * k), b(k * n), c(m * n), c2(m * n);
    for (int i = 0; i < m * k; ++i)
        a[i] = float((i * 31) % 113) / 56.0f - 1.0f;
    for (int i = 0; i < k * n; ++i)
        b[i] = float((i * 17) % 89) / 44.0f - 1.0f;

    cl_device_id device;
    if (!ok(oclblas_default_device(&device, nullptr, nullptr), "oclblas_default_device"))
        return 1;
    cl_int err;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (!ok(err, "clCreateContext"))
        return 1;
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, props, &err);
    if (!ok(err, "clCreateCommandQueueWithProperties"))
        return 1;
    cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * 4, a.data(), &err);
    cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * 4, b.data(), &err);
    cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, c.size() * 4, nullptr, &err);
    if (!ok(err, "clCreateBuffer"))
        return 1;
    cl_event done;
    if (!ok(oclblas_sgemm_cl(OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, m, n, k, 1.0f, da, 0, k, db, 0, n,
                             0.0f, dc, 0, n, queue, &done),
            "oclblas_sgemm_cl") ||
        !ok(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, c.size() * 4, c.data(), 1, &done, nullptr), "read"))
        return 1;
    clReleaseEvent(done);

    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f, c2.data(),
                n);

    const double w1 = worst(a, b, c), w2 = worst(a, b, c2);
    std::printf("C++ / OpenCL %d: oclblas_sgemm_cl error/bound %.3f, cblas_sgemm error/bound %.3f\n",
                CL_TARGET_OPENCL_VERSION, w1, w2);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return w1 <= 1 && w2 <= 1 ? 0 : 1;
}
