/*
 * gemm_cpu's packing alone on a CPU's OpenCL: the rows x cols source
 * (src(r, c) at c * ld + r, or transposed at r * ld + c) into panels of
 * `panel` rows, by the landed kernels (kernels/gemm_cpu.cl's pack_a for
 * panels of MR = 16 rows, pack_b for NR = 6) or by the helpers' former
 * pack_panels (a work-item per column of a panel; helpers.cl of main at
 * 1810fcf, the file named by OLD). Checked element by element; the median
 * and best of R launches (default 50) by OpenCL events. A measuring aid,
 * not part of the library:
 *   gcc -O2 -o /tmp/pack-alone bench/results/pocl-cpu/gemm-cpu-pack/pack-alone.c -lOpenCL
 *   /tmp/pack-alone ROWS COLS LD TRANSPOSED PANEL           (new: kernels/gemm_cpu.cl)
 *   OLD=/tmp/pp-base-src/kernels/helpers.cl /tmp/pack-alone ROWS COLS LD TRANSPOSED PANEL
 * from the project root (POCL_AFFINITY=1 steadies PoCL's times on this 2-core machine).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    s[fread(s, 1, (size_t)n, f)] = 0;
    fclose(f);
    return s;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s ROWS COLS LD TRANSPOSED PANEL (6 or 16)\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1]), cols = atoi(argv[2]), ld = atoi(argv[3]), tr = atoi(argv[4]), panel = atoi(argv[5]);
    const char *old = getenv("OLD") && *getenv("OLD") ? getenv("OLD") : NULL;
    const int reps = getenv("R") ? atoi(getenv("R")) : 50;
    int dst_rows = (rows + panel - 1) / panel * panel, dst_cols = cols, zero = 0;
    cl_platform_id pl[4];
    cl_uint np;
    cl_device_id dev;
    cl_int e = -1;
    clGetPlatformIDs(4, pl, &np);
    for (cl_uint i = 0; i < np && e; i++)
        e = clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_CPU, 1, &dev, NULL);
    cl_context cx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueue(cx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    char *src = read_file(old ? old : "kernels/gemm_cpu.cl");
    if (!src)
        return 2;
    /* The new kernels' program: the 16 x 6 set (VW 8, MV 2, NR 6) and the
     * packing's sizes as src/kernels/gemm_cpu.c derives them; the old
     * helpers' with the PoCL entry's work-group (64 x 8). */
    const char *opts = old ? "-DPAD_DIMX=64 -DPAD_DIMY=8 -DPAD_WPTX=2 -DPAD_WPTY=4 -DTRA_DIM=16 -DTRA_WPT=1 "
                             "-DTRA_PAD=0 -DPAD_TILEX=128 -DPAD_TILEY=32 -DTRA_TILE=16 -DREDUCE_WGS=64"
                           : "-DVW=8 -DMV=2 -DNR=6 -DKU=1 -DTN=1 -DMR=16 -DBK=0 -DCT=0 -DPACK_COLS=128 "
                             "-DPACK_GROUP_A=8 -DPACK_GROUP_B=16";
    cl_program pr = clCreateProgramWithSource(cx, 1, (const char **)&src, NULL, &e);
    if (clBuildProgram(pr, 1, &dev, opts, NULL, NULL)) {
        static char log[20000];
        clGetProgramBuildInfo(pr, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        puts(log);
        return 1;
    }
    cl_kernel k = clCreateKernel(pr, old ? "pack_panels" : panel == 16 ? "pack_a" : "pack_b", &e);
    if (e || (!old && panel != 16 && panel != 6)) {
        fprintf(stderr, "no kernel for panels of %d\n", panel);
        return 2;
    }
    const size_t n_src = (size_t)ld * (size_t)(tr ? rows : cols), n_dst = (size_t)dst_rows * (size_t)dst_cols;
    float *s = malloc(n_src * sizeof(float)), *d = malloc(n_dst * sizeof(float));
    for (size_t i = 0; i < n_src; i++)
        s[i] = (float)(i % 1000003);
    cl_mem sb = clCreateBuffer(cx, CL_MEM_COPY_HOST_PTR, n_src * sizeof(float), s, &e);
    cl_mem db = clCreateBuffer(cx, 0, n_dst * sizeof(float), NULL, &e);
    int a = 0;
    clSetKernelArg(k, a++, sizeof(int), &rows);
    clSetKernelArg(k, a++, sizeof(int), &cols);
    clSetKernelArg(k, a++, sizeof sb, &sb);
    clSetKernelArg(k, a++, sizeof(int), &zero);
    clSetKernelArg(k, a++, sizeof(int), &ld);
    clSetKernelArg(k, a++, sizeof(int), &tr);
    if (old)
        clSetKernelArg(k, a++, sizeof(int), &panel);
    clSetKernelArg(k, a++, sizeof(int), &dst_rows);
    clSetKernelArg(k, a++, sizeof(int), &dst_cols);
    clSetKernelArg(k, a++, sizeof db, &db);
    clSetKernelArg(k, a++, sizeof(int), &zero);
    clSetKernelArg(k, a++, sizeof(int), &zero);
    /* The launches as the library's steps make them. */
    const int group = panel == 16 ? 8 : 16;
    size_t g[3], l[3] = {1, 1, 1};
    if (old) {
        l[0] = 64, l[1] = 8;
        g[0] = (size_t)(cols + 63) / 64 * 64, g[1] = (size_t)(dst_rows / panel + 7) / 8 * 8;
    } else {
        g[0] = (size_t)(cols + 127) / 128, g[1] = (size_t)(dst_rows / panel + group - 1) / group;
    }
    g[2] = 1;
    double *t = malloc((size_t)reps * sizeof(double));
    for (int w = 0; w < 3; w++)
        clEnqueueNDRangeKernel(q, k, 3, NULL, g, l, 0, NULL, NULL);
    clFinish(q);
    for (int r = 0; r < reps; r++) {
        cl_event ev;
        cl_ulong t0, t1;
        clEnqueueNDRangeKernel(q, k, 3, NULL, g, l, 0, NULL, &ev);
        clFinish(q);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        t[r] = (double)(t1 - t0) * 1e-3;
        clReleaseEvent(ev);
    }
    clEnqueueReadBuffer(q, db, CL_TRUE, 0, n_dst * sizeof(float), d, 0, NULL, NULL);
    long bad = 0;
    for (int r = 0; r < dst_rows; r++)
        for (int c = 0; c < dst_cols; c++) {
            const float want = r < rows && c < cols ? s[tr ? (size_t)r * ld + c : (size_t)c * ld + r] : 0.0f;
            bad += d[(size_t)(r / panel) * panel * dst_cols + (size_t)c * panel + r % panel] != want;
        }
    qsort(t, (size_t)reps, sizeof(double), by_value);
    printf("%s %dx%d ld %d%s panels of %d: median %.1f us, best %.1f us, %ld wrong\n", old ? "old" : "new", rows,
           cols, ld, tr ? " transposed" : "", panel, t[reps / 2], t[0], bad);
    return bad != 0;
}
