/*
 * tc_probe: standalone harness for kernels/gemm_tc.cl (plain C, OpenCL 1.2
 * API, no library code). It picks the first GPU (else the first CPU, where
 * the kernel runs in its emulation mode), and does one of:
 *   info    the device it uses, with NVIDIA's compute capability
 *   legal   no device: derived sizes and legality of each line of a
 *           configuration file for an H100 as OpenCL sees it (48 KiB local
 *           memory, 1024 work-items, compute capability 9.0)
 *   probes  builds and runs tc_probes.cl: the mma.sync fragment layout and
 *           the tensor cores' arithmetic, cvt.rna.tf32.f32, local pointers,
 *           cp.async with each shared-address variant (TC_SMEM_ADDR 1..3);
 *           prints "RECOMMEND TC_SMEM_ADDR=n" for the first that works
 *   run     one configuration of gemm_tc (given as "name KEY=VALUE ..."):
 *           derives the sizes the library's descriptor will pass, checks
 *           legality, builds (registers and spills from the build log on
 *           NVIDIA), then the phases asked for: correct (small and edge
 *           cases against float64), accuracy (uniform and spread operands,
 *           sampled float64 reference and an FP32 FFMA baseline), timing
 *           (best of N by profiling events, TFLOPS), ptx (the program
 *           binary, PTX on NVIDIA, written to the output folder).
 * Output lines start with a tag (DEVICE, PROBE, BUILD, CORRECT, ACCURACY,
 * TIME, ...) and "run" appends one tab-separated line per configuration to
 * --summary, which run-gpu.sh turns into the final table.
 */
#define CL_TARGET_OPENCL_VERSION 120
#define _POSIX_C_SOURCE 200809L
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tc_data.h"

#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002

/* ---------------------------------------------------------------- utilities */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FATAL ", stdout);
    vprintf(fmt, ap);
    fputs("\n", stdout);
    va_end(ap);
    fflush(stdout);
    exit(1);
}

#define CHECK(call)                                                              \
    do {                                                                         \
        cl_int err_ = (call);                                                    \
        if (err_ != CL_SUCCESS)                                                  \
            die("%s failed: OpenCL error %d (line %d)", #call, err_, __LINE__); \
    } while (0)

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(s);
        return NULL;
    }
    s[n] = 0;
    fclose(f);
    if (len)
        *len = (size_t)n;
    return s;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of host memory (%zu bytes)", n);
    return p;
}

static size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

/* ------------------------------------------------------------------- device */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    char name[256], vendor[256], version[256], driver[256];
    int nvidia, cc_major, cc_minor, compute_units;
    cl_ulong local_mem, global_mem, max_alloc;
    size_t max_wg;
} tc_device;

static int open_device(tc_device *d, const char *want)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0)
        return -1;
    const cl_device_type order[2] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU};
    int found = 0;
    for (int o = 0; o < 2 && !found; ++o) {
        if (want && strcmp(want, "cpu") == 0 && o == 0)
            continue;
        if (want && strcmp(want, "gpu") == 0 && o == 1)
            break;
        for (cl_uint p = 0; p < np && !found; ++p) {
            cl_device_id dv;
            cl_uint nd = 0;
            if (clGetDeviceIDs(plats[p], order[o], 1, &dv, &nd) == CL_SUCCESS && nd > 0) {
                d->platform = plats[p];
                d->device = dv;
                found = 1;
            }
        }
    }
    if (!found)
        return -1;
    clGetDeviceInfo(d->device, CL_DEVICE_NAME, sizeof d->name, d->name, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_VENDOR, sizeof d->vendor, d->vendor, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_VERSION, sizeof d->version, d->version, NULL);
    clGetDeviceInfo(d->device, CL_DRIVER_VERSION, sizeof d->driver, d->driver, NULL);
    cl_uint cu = 0;
    clGetDeviceInfo(d->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    d->compute_units = (int)cu;
    clGetDeviceInfo(d->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof d->local_mem, &d->local_mem, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_wg, &d->max_wg, NULL);
    d->nvidia = strstr(d->vendor, "NVIDIA") != NULL;
    if (d->nvidia) {
        cl_uint v = 0;
        if (clGetDeviceInfo(d->device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof v, &v, NULL) == CL_SUCCESS)
            d->cc_major = (int)v;
        if (clGetDeviceInfo(d->device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof v, &v, NULL) == CL_SUCCESS)
            d->cc_minor = (int)v;
    }
    cl_int err;
    d->ctx = clCreateContext(NULL, 1, &d->device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    d->queue = clCreateCommandQueue(d->ctx, d->device, CL_QUEUE_PROFILING_ENABLE, &err);
    return err == CL_SUCCESS ? 0 : -1;
}

static void print_device(const tc_device *d)
{
    char cver[256] = "", ext[8192] = "";
    clGetDeviceInfo(d->device, CL_DEVICE_OPENCL_C_VERSION, sizeof cver, cver, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    cl_uint clock = 0;
    clGetDeviceInfo(d->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, NULL);
    printf("DEVICE %s | vendor %s | %s | %s | driver %s\n", d->name, d->vendor, d->version, cver, d->driver);
    printf("DEVICE compute units %d, clock %u MHz, local memory %llu B, max work-group %zu, global %llu MiB, "
           "max alloc %llu MiB\n",
           d->compute_units, clock, (unsigned long long)d->local_mem, d->max_wg,
           (unsigned long long)(d->global_mem >> 20), (unsigned long long)(d->max_alloc >> 20));
    if (d->nvidia) {
        cl_uint regs = 0;
        clGetDeviceInfo(d->device, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof regs, &regs, NULL);
        printf("DEVICE NVIDIA compute capability %d.%d, registers per block %u, cl_nv_device_attribute_query %s\n",
               d->cc_major, d->cc_minor, regs, strstr(ext, "cl_nv_device_attribute_query") ? "yes" : "no");
    }
}

/* Builds src with options; prints the log on failure (and, with -cl-nv-verbose,
 * the ptxas lines on success). Returns NULL on failure. */
static cl_program build(const tc_device *d, const char *src, const char *options, const char *label, double *seconds)
{
    cl_int err;
    const size_t len = strlen(src);
    cl_program p = clCreateProgramWithSource(d->ctx, 1, &src, &len, &err);
    if (err != CL_SUCCESS)
        die("clCreateProgramWithSource: %d", err);
    const double t0 = now();
    err = clBuildProgram(p, 1, &d->device, options, NULL, NULL);
    if (seconds)
        *seconds = now() - t0;
    size_t n = 0;
    clGetProgramBuildInfo(p, d->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = xmalloc(n + 1);
    clGetProgramBuildInfo(p, d->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    log[n] = 0;
    if (err != CL_SUCCESS) {
        printf("BUILD %s: FAILED (error %d) with options: %s\n", label, err, options);
        /* The first 60 lines say what went wrong. */
        int lines = 0;
        for (char *s = log; *s && lines < 60; ++lines) {
            char *e = strchr(s, '\n');
            if (e)
                *e = 0;
            printf("  log| %s\n", s);
            if (!e)
                break;
            s = e + 1;
        }
        free(log);
        clReleaseProgram(p);
        return NULL;
    }
    for (char *s = log; *s;) {
        char *e = strchr(s, '\n');
        if (e)
            *e = 0;
        if (strstr(s, "registers") || strstr(s, "spill") || strstr(s, "smem") || strstr(s, "error") ||
            strstr(s, "warning"))
            printf("  ptxas| %s\n", s);
        if (!e)
            break;
        s = e + 1;
    }
    free(log);
    return p;
}

static int write_binary(cl_program p, const char *path)
{
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0)
        return -1;
    unsigned char *bin = xmalloc(size);
    unsigned char *bins[1] = {bin};
    int rc = -1;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
        /* NVIDIA's binary is PTX text with trailing NULs, which ptxas
         * refuses ("Unexpected EOF"): leave them out. */
        while (size > 0 && bin[size - 1] == 0)
            --size;
        FILE *f = fopen(path, "wb");
        if (f) {
            rc = fwrite(bin, 1, size, f) == size ? 0 : -1;
            fclose(f);
        }
    }
    free(bin);
    return rc;
}

static cl_mem buffer(const tc_device *d, size_t bytes, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &err);
    if (err != CL_SUCCESS)
        die("clCreateBuffer(%zu): %d", bytes, err);
    if (host && bytes)
        CHECK(clEnqueueWriteBuffer(d->queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    return m;
}

/* ------------------------------------------------------------------- probes */

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* One m16n8k8 on the device: D = A B + C (A 16x8 row-major, B 8x8 [k][n], C/D 16x8). */
static int mma_once(const tc_device *d, cl_kernel k, const float *A, const float *B, const float *C, float *D)
{
    cl_mem ma = buffer(d, 128 * 4, A), mb = buffer(d, 64 * 4, B), mc = buffer(d, 128 * 4, C), md = buffer(d, 128 * 4, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
    CHECK(clSetKernelArg(k, 3, sizeof md, &md));
    const size_t g = 32, l = 32;
    cl_int err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, md, CL_TRUE, 0, 128 * 4, D, 0, NULL, NULL);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseMemObject(md);
    return err == CL_SUCCESS ? 0 : err;
}

static void probe_mma(const tc_device *d, const char *src)
{
    cl_program p = build(d, src, "-cl-std=CL1.2 -DPROBE_MMA", "probe_mma", NULL);
    if (!p) {
        printf("PROBE mma: FAILED to build (inline mma.sync rejected?)\n");
        return;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p, "probe_mma", &err);
    if (err != CL_SUCCESS) {
        printf("PROBE mma: FAILED clCreateKernel %d\n", err);
        clReleaseProgram(p);
        return;
    }
    float A[128], B[64], C[128], D[128];
    /* Layout: small integers, exact in TF32 and in the sum. */
    uint64_t s = 12345;
    for (int i = 0; i < 128; ++i) {
        A[i] = (float)((int)(tcd_next(&s) % 15) - 7);
        C[i] = (float)((int)(tcd_next(&s) % 101) - 50);
    }
    for (int i = 0; i < 64; ++i)
        B[i] = (float)((int)(tcd_next(&s) % 15) - 7);
    int bad = 0;
    if ((err = mma_once(d, k, A, B, C, D)) != 0) {
        printf("PROBE mma layout: FAILED to run (%d)\n", err);
        bad = -1;
    } else {
        for (int r = 0; r < 16; ++r)
            for (int n = 0; n < 8; ++n) {
                double e = C[r * 8 + n];
                for (int kk = 0; kk < 8; ++kk)
                    e += (double)A[r * 8 + kk] * B[kk * 8 + n];
                if (D[r * 8 + n] != (float)e) {
                    if (bad < 8)
                        printf("PROBE mma layout: D(%d,%d) = %g, expected %g\n", r, n, D[r * 8 + n], e);
                    ++bad;
                }
            }
        printf("PROBE mma layout: %s (%d of 128 wrong)\n", bad ? "FAILED" : "OK", bad);
    }
    if (bad == 0) {
        /* The arithmetic: one case per launch, answers in D(0,0) (and D(1,0)). */
        struct {
            const char *what;
            float a00, b00, c00, a10, c10;
            int eight; /* A(0,0..7) = a00, B(0..7,0) = b00 */
        } cases[] = {
            {"low operand bits (A = 1 + 2^-12, B = 1)", 1.0f + 0x1p-12f, 1.0f, 0.0f, 0.0f, 0.0f, 0},
            {"low operand bits (A = 1 + 2^-11 + 2^-12, B = 1)", 1.0f + 0x1p-11f + 0x1p-12f, 1.0f, 0.0f, 0, 0, 0},
            {"sum rounding (C = 1, AB = 0.75 ulp; C = -1, AB = -0.75 ulp)", 0.75f * 0x1p-23f, 1.0f, 1.0f,
             -0.75f * 0x1p-23f, -1.0f, 0},
            {"alignment (C = 1, 8 products of 2^-26)", 0x1p-26f, 1.0f, 1.0f, 0, 0, 1},
            {"subnormal operand (A = 2^-130, B = 1)", 0x1p-130f, 1.0f, 0.0f, 0, 0, 0},
            {"subnormal product (A = B = 2^-70)", 0x1p-70f, 0x1p-70f, 0.0f, 0, 0, 0},
            {"overflow (A = B = 2^100)", 0x1p100f, 0x1p100f, 0.0f, 0, 0, 0},
            {"Inf operand (A = Inf, B = 1)", INFINITY, 1.0f, 0.0f, 0, 0, 0},
            {"Inf times zero (A = Inf, B = 0)", INFINITY, 0.0f, 0.0f, 0, 0, 0},
            {"NaN operand (A = NaN, B = 1)", NAN, 1.0f, 0.0f, 0, 0, 0},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            memset(A, 0, sizeof A);
            memset(B, 0, sizeof B);
            memset(C, 0, sizeof C);
            A[0] = cases[c].a00;
            B[0] = cases[c].b00;
            C[0] = cases[c].c00;
            A[8] = cases[c].a10;
            C[8] = cases[c].c10;
            if (cases[c].eight)
                for (int kk = 0; kk < 8; ++kk) {
                    A[kk] = cases[c].a00;
                    B[kk * 8] = cases[c].b00;
                }
            if (mma_once(d, k, A, B, C, D) != 0) {
                printf("PROBE mma arithmetic, %s: FAILED to run\n", cases[c].what);
                continue;
            }
            printf("PROBE mma arithmetic, %s: D(0,0) = %a (%.9g)", cases[c].what, D[0], D[0]);
            if (cases[c].a10 != 0.0f || cases[c].c10 != 0.0f)
                printf(", D(1,0) = %a (%.9g)", D[8], D[8]);
            printf("\n");
        }
        printf("PROBE mma reading: low bits: D = 1 -> truncated, 1+2^-12 -> full FP32, 1+2^-10 -> rounded; "
               "sum: D = 1 -> truncation (round toward zero), 1+2^-23 -> round to nearest; alignment: 1 -> "
               "products truncated at C's exponent; subnormal: 0 -> flushed; overflow: FLT_MAX -> saturates, "
               "inf -> IEEE\n");
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void probe_cvt(const tc_device *d, const char *src)
{
    cl_program p = build(d, src, "-cl-std=CL1.2 -DPROBE_CVT", "probe_cvt", NULL);
    if (!p) {
        printf("PROBE cvt.rna.tf32.f32: FAILED to build\n");
        return;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p, "probe_cvt", &err);
    enum { NV = 4096 };
    uint32_t x[NV], out[2 * NV];
    const uint32_t special[] = {0x00000000u, 0x80000000u, 0x3F800000u, 0x3F801000u, 0x3F800FFFu, 0x3F803000u,
                                0xBF801000u, 0x7F7FFFFFu, 0x7F7FF000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                0x7FFFFFFFu, 0x7F800001u, 0xFFFFFFFFu, 0x00000001u, 0x00001000u, 0x007FFFFFu};
    const int ns = (int)(sizeof special / sizeof special[0]);
    uint64_t s = 777;
    for (int i = 0; i < NV; ++i)
        x[i] = i < ns ? special[i] : (uint32_t)tcd_next(&s);
    cl_mem mx = buffer(d, sizeof x, x), mo = buffer(d, sizeof out, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof mx, &mx));
    CHECK(clSetKernelArg(k, 1, sizeof mo, &mo));
    const size_t g = NV;
    err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &g, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        printf("PROBE cvt.rna.tf32.f32: FAILED to run (%d)\n", err);
    } else {
        int diff = 0, diff_finite = 0;
        for (int i = 0; i < NV; ++i)
            if (out[2 * i] != out[2 * i + 1]) {
                const int finite = (x[i] & 0x7F800000u) != 0x7F800000u;
                diff_finite += finite;
                if (diff++ < 6)
                    printf("PROBE cvt: x = 0x%08x: cvt 0x%08x, integer rounding 0x%08x%s\n", x[i], out[2 * i],
                           out[2 * i + 1], finite ? "" : " (Inf/NaN)");
            }
        printf("PROBE cvt.rna.tf32.f32 vs gemm_tc's integer rounding: %s (%d of %d differ, %d of them finite)\n",
               diff_finite ? "DIFFERENT on finite values" : "OK on finite values", diff, NV, diff_finite);
    }
    clReleaseMemObject(mx);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void probe_addr(const tc_device *d, const char *src)
{
    cl_program p = build(d, src, "-cl-std=CL1.2 -DPROBE_ADDR", "probe_addr", NULL);
    if (!p) {
        printf("PROBE local pointer as integer: FAILED to build\n");
        return;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p, "probe_addr", &err);
    cl_ulong out[4] = {0, 0, 0, 0};
    cl_mem mo = buffer(d, sizeof out, NULL), ms = buffer(d, 16 * 16, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof mo, &mo));
    CHECK(clSetKernelArg(k, 1, sizeof ms, &ms));
    const size_t g = 16, l = 16;
    err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        printf("PROBE local pointer as integer: FAILED to run (%d)\n", err);
    else
        printf("PROBE local pointer as integer: x = 0x%llx, y = 0x%llx, y + 16 B = 0x%llx, (uint)x = 0x%llx "
               "(small values: shared-window offsets; large: generic addresses)\n",
               (unsigned long long)out[0], (unsigned long long)out[1], (unsigned long long)out[2],
               (unsigned long long)out[3]);
    clReleaseMemObject(mo);
    clReleaseMemObject(ms);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Returns 1 when variant v compiles and copies correctly. */
static int probe_cpasync(const tc_device *d, const char *src, int v)
{
    char opts[128], label[64];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DPROBE_CPASYNC -DTC_SMEM_ADDR=%d", v);
    snprintf(label, sizeof label, "probe_cpasync TC_SMEM_ADDR=%d", v);
    cl_program p = build(d, src, opts, label, NULL);
    if (!p) {
        printf("PROBE cp.async TC_SMEM_ADDR=%d: does not compile\n", v);
        return 0;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p, "probe_cpasync", &err);
    float in[128 * 4], out[128 * 4];
    for (int i = 0; i < 128 * 4; ++i)
        in[i] = (float)(i + 1);
    cl_mem mi = buffer(d, sizeof in, in), mo = buffer(d, sizeof out, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof mi, &mi));
    CHECK(clSetKernelArg(k, 1, sizeof mo, &mo));
    const size_t g = 64, l = 64;
    err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    int ok = err == CL_SUCCESS;
    int wrong = 0;
    if (ok)
        for (int h = 0; h < 2; ++h)
            for (int i = 0; i < 64; ++i)
                for (int c = 0; c < 4; ++c)
                    if (out[(h * 64 + i) * 4 + c] != in[(h * 64 + (i + 1) % 64) * 4 + c])
                        ++wrong;
    printf("PROBE cp.async TC_SMEM_ADDR=%d: %s\n", v,
           !ok ? "FAILED to run" : wrong ? "compiles, WRONG data" : "OK (compiles, copies, two groups)");
    if (ok && wrong)
        printf("PROBE cp.async TC_SMEM_ADDR=%d: %d of 512 floats wrong\n", v, wrong);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return ok && !wrong;
}

/* --------------------------------------------------------- configurations */

enum {
    P_BM, P_BN, P_BK, P_WM, P_WN, P_STAGES, P_CP_ASYNC, P_SPLIT, P_PADA, P_PADB, P_PRODUCTS, P_PROMOTE, P_GUARD,
    P_LOOP, P_FRAGV, P_CHUNK, P_KPAIR, P_GUARD_EMIN, P_GUARD_EMAX, /* only with GUARD = 2 */
    NP
};
static const char *const pname[NP] = {"BM",      "BN",       "BK",      "WM",    "WN",         "STAGES",
                                      "CP_ASYNC", "SPLIT",   "PADA",    "PADB",  "PRODUCTS",   "PROMOTE",
                                      "GUARD",   "LOOP",       "FRAGV",      "CHUNK",      "KPAIR",
                                      "GUARD_EMIN", "GUARD_EMAX"};
#define UNSET (-100000)
enum { D_WARPS_M, D_WARPS_N, D_THREADS, D_MT, D_NT, D_KSTEPS, D_LDA, D_LDB, D_A_CHUNKS, D_B_CHUNKS, ND };
static const char *const dname[ND] = {"WARPS_M", "WARPS_N", "THREADS", "MT",       "NT",
                                      "KSTEPS",  "LDA",     "LDB",     "A_CHUNKS", "B_CHUNKS"};

typedef struct {
    char name[96];
    int v[NP];
    int der[ND];
    size_t local_bytes;
    int regs_estimate;
} config;

static int parse_config(const char *line, config *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < NP; ++i)
        c->v[i] = UNSET;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", line);
    char *save = NULL;
    char *tok = strtok_r(buf, " \t\n", &save);
    if (!tok)
        return -1;
    snprintf(c->name, sizeof c->name, "%s", tok);
    while ((tok = strtok_r(NULL, " \t\n", &save))) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return -1;
        *eq = 0;
        int i;
        for (i = 0; i < NP; ++i)
            if (strcmp(tok, pname[i]) == 0)
                break;
        if (i == NP) {
            printf("CONFIG %s: unknown parameter %s\n", c->name, tok);
            return -1;
        }
        c->v[i] = atoi(eq + 1);
    }
    for (int i = 0; i < NP; ++i)
        if (c->v[i] == UNSET && (i < P_GUARD_EMIN || c->v[P_GUARD] == 2)) {
            printf("CONFIG %s: missing %s\n", c->name, pname[i]);
            return -1;
        }
    return 0;
}

/* The descriptor's job, prototyped: derived sizes and legality. Returns NULL
 * when legal, else the first rule broken. */
static const char *derive(config *c, const tc_device *d, int emulate)
{
    const int *v = c->v;
    static char why[256];
    if (v[P_WM] <= 0 || v[P_WN] <= 0 || v[P_BK] <= 0 || v[P_WM] % 16 || v[P_WN] % 8 || v[P_BK] % 8)
        return "WM must be a multiple of 16, WN of 8, BK of 8";
    if (v[P_BM] % v[P_WM] || v[P_BN] % v[P_WN])
        return "BM must be a multiple of WM and BN of WN";
    if (v[P_PADA] % 4 || v[P_PADB] % 4)
        return "PADA and PADB must be multiples of 4 (16-byte local rows)";
    if (v[P_PRODUCTS] != 1 && v[P_PRODUCTS] != 3)
        return "PRODUCTS is 1 or 3";
    if (v[P_GUARD] < 1 || v[P_GUARD] > 2)
        return "GUARD is 1 or 2";
    if (v[P_GUARD] == 2 && (v[P_GUARD_EMIN] < -126 || v[P_GUARD_EMAX] > 127 || v[P_GUARD_EMIN] >= v[P_GUARD_EMAX]))
        return "GUARD_EMIN < GUARD_EMAX, within -126..127";
    if (v[P_SPLIT] > 1 || v[P_CP_ASYNC] > 1 || (v[P_SPLIT] && v[P_CP_ASYNC]))
        return "SPLIT and CP_ASYNC are 0 or 1, not both 1";
    if ((v[P_CP_ASYNC] && (v[P_STAGES] < 2 || v[P_STAGES] > 6)) || (!v[P_CP_ASYNC] && v[P_STAGES] != 2))
        return "STAGES is 2..6 with cp.async, 2 without";
    if (v[P_LOOP] < 0 || v[P_LOOP] > 2)
        return "LOOP is 0, 1 or 2";
    if (v[P_FRAGV] != 1 && v[P_FRAGV] != 2 && v[P_FRAGV] != 4)
        return "FRAGV is 1, 2 or 4";
    if (v[P_CHUNK] < 0 || v[P_CHUNK] > 3 || (v[P_CHUNK] && (v[P_PRODUCTS] != 3 || v[P_PROMOTE] != 0)))
        return "CHUNK is 0..3; CHUNK > 0 needs PRODUCTS = 3 and PROMOTE = 0";
    if (v[P_CHUNK] >= 2 && (v[P_LOOP] != 1 || v[P_FRAGV] != 1 || v[P_KPAIR]))
        return "CHUNK = 2 or 3 needs LOOP = 1, FRAGV = 1 and KPAIR = 0";
    if (v[P_KPAIR] < 0 || v[P_KPAIR] > 1 ||
        (v[P_KPAIR] && (v[P_PRODUCTS] != 1 || v[P_CP_ASYNC] || v[P_LOOP] == 0 || v[P_FRAGV] != 1 || (v[P_WN] / 8) % 2)))
        return "KPAIR = 1 needs PRODUCTS = 1, register staging, LOOP >= 1, FRAGV = 1 and WN / 8 even";
    if (v[P_LOOP] == 0 && (v[P_FRAGV] != 1 || v[P_CHUNK]))
        return "LOOP = 0 (round 1's loop) has FRAGV = 1 and CHUNK = 0";
    if (v[P_FRAGV] > 1 && ((v[P_WM] / 16) % (v[P_FRAGV] / 2) || (v[P_WN] / 8) % v[P_FRAGV]))
        return "FRAGV needs WM / 16 a multiple of FRAGV / 2 and WN / 8 a multiple of FRAGV";
    int *r = c->der;
    r[D_WARPS_M] = v[P_BM] / v[P_WM];
    r[D_WARPS_N] = v[P_BN] / v[P_WN];
    r[D_THREADS] = 32 * r[D_WARPS_M] * r[D_WARPS_N];
    r[D_MT] = v[P_WM] / 16;
    r[D_NT] = v[P_WN] / 8;
    r[D_KSTEPS] = v[P_BK] / 8;
    r[D_LDA] = v[P_BM] + v[P_PADA];
    r[D_LDB] = v[P_BN] + v[P_PADB];
    if ((v[P_BM] * v[P_BK]) % (4 * r[D_THREADS]) || (v[P_BN] * v[P_BK]) % (4 * r[D_THREADS]))
        return "BM * BK and BN * BK must be multiples of 4 * THREADS (whole float4s per work-item)";
    r[D_A_CHUNKS] = v[P_BM] * v[P_BK] / (4 * r[D_THREADS]);
    r[D_B_CHUNKS] = v[P_BN] * v[P_BK] / (4 * r[D_THREADS]);
    if (v[P_KPAIR] && (r[D_A_CHUNKS] % 2 || r[D_B_CHUNKS] % 2))
        return "KPAIR = 1 needs an even number of float4s of A and of B per work-item";
    const int planes = v[P_SPLIT] && v[P_PRODUCTS] == 3 ? 2 : 1;
    c->local_bytes = 4u * (size_t)v[P_STAGES] * planes * v[P_BK] * (r[D_LDA] + r[D_LDB]) + 4 +
                     (emulate ? 24u * (size_t)r[D_THREADS] : 0);
    /* Registers per work-item, roughly: accumulators (twice with PROMOTE),
     * one k-step's fragments (hi and lo with PRODUCTS = 3), ~40 for the rest. */
    const int acc = r[D_MT] * r[D_NT] * 4 * (v[P_PROMOTE] ? 2 : 1);
    const int frag = (r[D_MT] * 4 + r[D_NT] * 2) * (v[P_PRODUCTS] == 3 ? 2 : 1);
    /* LOOP = 2 holds the next k-step's words too (raw: half of frag with SPLIT = 0). */
    const int next = v[P_LOOP] == 2 ? (v[P_SPLIT] || v[P_PRODUCTS] == 1 ? frag : frag / 2) : 0;
    c->regs_estimate = acc + frag + next + (v[P_CHUNK] ? 8 : 0) + 40;
    if (r[D_THREADS] > (int)d->max_wg) {
        snprintf(why, sizeof why, "THREADS = %d exceeds the device's work-group limit %zu", r[D_THREADS], d->max_wg);
        return why;
    }
    if (c->local_bytes > d->local_mem) {
        snprintf(why, sizeof why, "local memory %zu B exceeds the device's %llu B", c->local_bytes,
                 (unsigned long long)d->local_mem);
        return why;
    }
    /* The estimate is rough (ptxas reuses fragment registers): refuse only
     * what cannot fit by a wide margin; the build log has the real count. */
    if (!emulate && (c->regs_estimate > 290 || c->regs_estimate * r[D_THREADS] > 65536 + 65536 / 8)) {
        snprintf(why, sizeof why, "about %d registers per work-item x %d work-items would spill", c->regs_estimate,
                 r[D_THREADS]);
        return why;
    }
    if (!emulate && (!d->nvidia || d->cc_major < 8))
        return "the tensor-core kernel needs an NVIDIA device of compute capability 8.0 or above";
    return NULL;
}

static void options(const config *c, int emulate, int ftz, int smem_addr, const tc_device *d, char *buf, size_t n)
{
    size_t o = (size_t)snprintf(buf, n, "-cl-std=CL1.2");
    for (int i = 0; i < NP; ++i)
        if (c->v[i] != UNSET)
            o += (size_t)snprintf(buf + o, n - o, " -D%s=%d", pname[i], c->v[i]);
    for (int i = 0; i < ND; ++i)
        o += (size_t)snprintf(buf + o, n - o, " -D%s=%d", dname[i], c->der[i]);
    if (emulate)
        o += (size_t)snprintf(buf + o, n - o, " -DOCLBLAS_TC_EMULATE=1%s", ftz ? " -DOCLBLAS_TC_EMULATE_FTZ=1" : "");
    else if (c->v[P_CP_ASYNC])
        o += (size_t)snprintf(buf + o, n - o, " -DTC_SMEM_ADDR=%d", smem_addr);
    if (d->nvidia)
        snprintf(buf + o, n - o, " -cl-nv-verbose");
}

/* --------------------------------------------------------------- problems */

/* One product on the device, in the kernel's layout: A (mp x kp, leading
 * dimension lda floats, offset aoff floats) and B (kp x np, n contiguous),
 * padded with zeros; C column-major with ldc and coff. */
typedef struct {
    int m, n, k, mp, np, kp;
    size_t lda, ldb, aoff, boff; /* in floats, multiples of 4 */
    float *a, *b;
    cl_mem ma, mb;
} operands;

static void operands_alloc(operands *o, int m, int n, int k, const config *c, int extra_ld, int extra_off)
{
    memset(o, 0, sizeof *o);
    o->m = m;
    o->n = n;
    o->k = k;
    o->mp = (int)round_up((size_t)m, (size_t)c->v[P_BM]);
    o->np = (int)round_up((size_t)n, (size_t)c->v[P_BN]);
    o->kp = (int)round_up((size_t)k, (size_t)c->v[P_BK]);
    o->lda = (size_t)o->mp + 4 * (size_t)extra_ld;
    o->ldb = (size_t)o->np + 4 * (size_t)extra_ld;
    o->aoff = 4 * (size_t)extra_off;
    o->boff = 8 * (size_t)extra_off;
    o->a = calloc(o->aoff + o->lda * o->kp, sizeof(float));
    o->b = calloc(o->boff + o->ldb * o->kp, sizeof(float));
    if (!o->a || !o->b)
        die("out of host memory");
}

static float *A_at(operands *o, int i, int kk) { return &o->a[o->aoff + (size_t)kk * o->lda + i]; }
static float *B_at(operands *o, int kk, int j) { return &o->b[o->boff + (size_t)kk * o->ldb + j]; }

static void operands_upload(const tc_device *d, operands *o)
{
    o->ma = buffer(d, sizeof(float) * (o->aoff + o->lda * o->kp), o->a);
    o->mb = buffer(d, sizeof(float) * (o->boff + o->ldb * o->kp), o->b);
}

static void operands_free(operands *o)
{
    free(o->a);
    free(o->b);
    if (o->ma)
        clReleaseMemObject(o->ma);
    if (o->mb)
        clReleaseMemObject(o->mb);
}

/* Enqueues gemm_tc: slices > 1 writes slice z's partial C at c + z * c_slice. */
static cl_int launch(const tc_device *d, cl_kernel k, const config *c, const operands *o, int k_slice, int slices,
                     int c_slice, float alpha, float beta, cl_mem mc, int coff, int ldc, cl_event *ev)
{
    const int M = o->m, N = o->n, K = o->kp, ao = (int)(o->aoff / 4), al = (int)(o->lda / 4),
              bo = (int)(o->boff / 4), bl = (int)(o->ldb / 4);
    int a = 0;
    cl_int err = CL_SUCCESS;
    err |= clSetKernelArg(k, a++, sizeof M, &M);
    err |= clSetKernelArg(k, a++, sizeof N, &N);
    err |= clSetKernelArg(k, a++, sizeof K, &K);
    err |= clSetKernelArg(k, a++, sizeof k_slice, &k_slice);
    err |= clSetKernelArg(k, a++, sizeof c_slice, &c_slice);
    err |= clSetKernelArg(k, a++, sizeof alpha, &alpha);
    err |= clSetKernelArg(k, a++, sizeof beta, &beta);
    err |= clSetKernelArg(k, a++, sizeof o->ma, &o->ma);
    err |= clSetKernelArg(k, a++, sizeof ao, &ao);
    err |= clSetKernelArg(k, a++, sizeof al, &al);
    err |= clSetKernelArg(k, a++, sizeof o->mb, &o->mb);
    err |= clSetKernelArg(k, a++, sizeof bo, &bo);
    err |= clSetKernelArg(k, a++, sizeof bl, &bl);
    err |= clSetKernelArg(k, a++, sizeof mc, &mc);
    err |= clSetKernelArg(k, a++, sizeof coff, &coff);
    err |= clSetKernelArg(k, a++, sizeof ldc, &ldc);
    if (err != CL_SUCCESS)
        return err;
    const size_t threads = (size_t)c->der[D_THREADS];
    const size_t global[3] = {(size_t)o->mp / c->v[P_BM] * threads, (size_t)o->np / c->v[P_BN], (size_t)slices};
    const size_t local[3] = {threads, 1, 1};
    return clEnqueueNDRangeKernel(d->queue, k, 3, NULL, global, local, 0, NULL, ev);
}

/* ------------------------------------------------------------ correctness */

enum { F_NORMAL, F_INFNAN, F_TINY, F_HUGE, F_OVERFLOW, F_SUBLO, F_SLICE_INF, F_NAN_PAYLOAD };
typedef struct {
    const char *name;
    int m, n, k, slices, extra_ld, extra_off;
    float alpha, beta;
    int nan_in_c, fill;
} tcase;

static const char *fill_name(int f)
{
    static const char *const n[] = {"normal",       "Inf/NaN",   "tiny",       "huge",
                                    "overflow",     "subnormal-lo", "slice-Inf", "NaN-payload"};
    return n[f];
}

/* Runs one case; returns the largest error / bound (> 1 fails) or INFINITY
 * on a wrong class (NaN/Inf/finite) or a write outside C. */
static double run_case(const tc_device *d, cl_kernel kern, const config *c, const tcase *t, char *detail, size_t dn)
{
    operands o;
    operands_alloc(&o, t->m, t->n, t->k, c, t->extra_ld, t->extra_off);
    uint64_t s = 0xC0FFEEull + (uint64_t)t->m * 131 + (uint64_t)t->k;
    for (int kk = 0; kk < t->k; ++kk)
        for (int i = 0; i < t->m; ++i)
            *A_at(&o, i, kk) = tcd_uniform(&s);
    for (int kk = 0; kk < t->k; ++kk)
        for (int j = 0; j < t->n; ++j)
            *B_at(&o, kk, j) = tcd_uniform(&s);
    const int i0 = t->m / 2, j0 = t->n / 3, k0 = t->k / 2;
    switch (t->fill) {
    case F_INFNAN:
        *A_at(&o, i0, k0) = INFINITY;       /* row i0: +-Inf, NaN where B(k0, j) = 0 */
        *B_at(&o, k0, j0 + 1) = 0.0f;
        *A_at(&o, i0 + 1, 1) = -INFINITY;   /* row i0 + 1 */
        *B_at(&o, t->k - 1, j0) = NAN;      /* column j0: NaN */
        break;
    case F_NAN_PAYLOAD: { /* alone: NaNs whose bits make the integer rounding wrap around */
        const uint32_t pos = 0x7FFFFFFFu, neg = 0xFFFFF000u;
        memcpy(A_at(&o, i0, 2), &pos, 4);
        memcpy(B_at(&o, 3, j0), &neg, 4);
        break;
    }
    case F_SLICE_INF: /* in the last slice only */
        *A_at(&o, i0, t->k - 1) = INFINITY;
        break;
    case F_TINY: /* row i0 scaled to ~2^-115 (below the gate's 2^-100): results stay normal */
        for (int kk = 0; kk < t->k; ++kk)
            *A_at(&o, i0, kk) *= 0x1p-115f;
        break;
    case F_HUGE:
        for (int kk = 0; kk < t->k; ++kk)
            *A_at(&o, i0, kk) *= 0x1p110f;
        break;
    case F_OVERFLOW: /* A(i0, :) B(:, j0) = 2^200 each: FP32 gives +Inf */
        for (int kk = 0; kk < t->k; ++kk) {
            *A_at(&o, i0, kk) = 0x1p100f;
            *B_at(&o, kk, j0) = 0x1p100f;
        }
        break;
    case F_SUBLO:
        /* |A(i0, :)| in [2^-99, 2^-98), |B(:, j0)| in [2^-20, 2^-19): inside
         * the gate's range and the products are normal, but the lo parts'
         * products (~2^-130) are subnormal: right only where the tensor
         * cores keep subnormals (or the range is tighter). */
        for (int kk = 0; kk < t->k; ++kk) {
            const float u = *A_at(&o, i0, kk), v = *B_at(&o, kk, j0);
            *A_at(&o, i0, kk) = copysignf(ldexpf(1.0f + fabsf(u), -99), u);
            *B_at(&o, kk, j0) = copysignf(ldexpf(1.0f + fabsf(v), -20), v);
        }
        break;
    default:
        break;
    }
    operands_upload(d, &o);

    /* C: m x n at offset coff with leading dimension ldc > m; everything
     * else in the buffer is a sentinel that must survive. */
    const int coff = 3 + t->extra_off, ldc = t->m + 5;
    const size_t csize = (size_t)coff + (size_t)ldc * t->n + 7;
    float *c0 = xmalloc(csize * sizeof(float)), *got = xmalloc(csize * sizeof(float));
    const float sentinel = -12345.678f;
    for (size_t i = 0; i < csize; ++i)
        c0[i] = sentinel;
    for (int j = 0; j < t->n; ++j)
        for (int i = 0; i < t->m; ++i)
            c0[coff + (size_t)j * ldc + i] = t->nan_in_c ? NAN : tcd_uniform(&s);
    cl_mem mc = buffer(d, csize * sizeof(float), c0);

    cl_int err;
    int k_slice = o.kp;
    if (t->slices > 1) {
        /* As the library's plan: whole BK tiles per slice, the last may be short. */
        const int kt = o.kp / c->v[P_BK], per = (kt + t->slices - 1) / t->slices;
        k_slice = per * c->v[P_BK];
        const int slices = (kt + per - 1) / per, cs = o.mp * o.np;
        cl_mem mp = buffer(d, sizeof(float) * (size_t)cs * slices, NULL);
        err = launch(d, kern, c, &o, k_slice, slices, cs, 1.0f, 0.0f, mp, 0, o.mp, NULL);
        float *part = xmalloc(sizeof(float) * (size_t)cs * slices);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(d->queue, mp, CL_TRUE, 0, sizeof(float) * (size_t)cs * slices, part, 0, NULL,
                                      NULL);
        memcpy(got, c0, csize * sizeof(float));
        /* sum_slices, on the host. */
        for (int j = 0; j < t->n; ++j)
            for (int i = 0; i < t->m; ++i) {
                float sum = 0.0f;
                for (int z = 0; z < slices; ++z)
                    sum += part[(size_t)z * cs + (size_t)j * o.mp + i];
                float *cp = &got[coff + (size_t)j * ldc + i];
                *cp = t->beta != 0.0f ? fmaf(t->beta, *cp, t->alpha * sum) : t->alpha * sum;
            }
        free(part);
        clReleaseMemObject(mp);
    } else {
        err = launch(d, kern, c, &o, k_slice, 1, 0, t->alpha, t->beta, mc, coff, ldc, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(d->queue, mc, CL_TRUE, 0, csize * sizeof(float), got, 0, NULL, NULL);
    }
    double worst = 0.0;
    if (err != CL_SUCCESS) {
        snprintf(detail, dn, "OpenCL error %d", err);
        worst = INFINITY;
    } else {
        const double eps = 0x1p-24;
        const double gamma = c->v[P_PRODUCTS] == 3 ? 4.0 * (t->k + 2) * eps : 0x1p-9 + 4.0 * (t->k + 2) * eps;
        int reported = 0;
        for (size_t x = 0; x < csize; ++x) {
            const size_t rel = x >= (size_t)coff ? x - (size_t)coff : (size_t)-1;
            const int inside = x >= (size_t)coff && (int)(rel % (size_t)ldc) < t->m && (int)(rel / (size_t)ldc) < t->n;
            if (!inside) {
                if (float_bits(got[x]) != float_bits(sentinel)) {
                    if (!reported++)
                        snprintf(detail, dn, "wrote outside C at %zu", x);
                    worst = INFINITY;
                }
                continue;
            }
            const int i = (int)(rel % (size_t)ldc), j = (int)(rel / (size_t)ldc);
            double ref = 0.0, bound = 0.0;
            for (int kk = 0; kk < t->k; ++kk) {
                const double p = (double)*A_at(&o, i, kk) * (double)*B_at(&o, kk, j);
                ref += p;
                bound += fabs(p);
            }
            ref *= t->alpha;
            bound *= fabs(t->alpha);
            if (t->beta != 0.0f) {
                ref += (double)t->beta * c0[x];
                bound += fabs((double)t->beta * c0[x]);
            }
            const float reff = (float)ref; /* the class FP32 arithmetic gives */
            double ratio;
            if (isnan(reff) || isinf(reff))
                ratio = (isnan(reff) ? isnan(got[x]) : got[x] == reff) ? 0.0 : INFINITY;
            else if (!isfinite(got[x]))
                ratio = INFINITY;
            else
                ratio = fabs((double)got[x] - ref) / (gamma * bound + 4.0 * (t->k + 2) * 0x1p-149);
            if (ratio > worst) {
                worst = ratio;
                if (ratio > 1.0)
                    snprintf(detail, dn, "C(%d,%d) = %.9g, expected %.9g (bound %.3g)", i, j, got[x], ref,
                             gamma * bound);
            }
        }
    }
    clReleaseMemObject(mc);
    free(c0);
    free(got);
    operands_free(&o);
    return worst;
}

static int phase_correct(const tc_device *d, cl_kernel kern, const config *c, int *cases_run)
{
    const int BM = c->v[P_BM], BN = c->v[P_BN], BK = c->v[P_BK], S = c->v[P_STAGES];
    const tcase cases[] = {
        {"edges", 2 * BM + 5, BN + 7, 3 * BK + BK / 2, 1, 1, 1, 1.5f, -0.75f, 0, F_NORMAL},
        {"one-tile-beta0-NaN-in-C", BM - 3, 2 * BN - 1, BK, 1, 0, 0, -1.0f, 0.0f, 1, F_NORMAL},
        {"long-k", BM, BN, (2 * S + 5) * BK - 1, 1, 0, 2, 1.0f, 1.0f, 0, F_NORMAL},
        {"slices", BM + 1, BN, 7 * BK, 3, 0, 0, 0.5f, 2.0f, 0, F_NORMAL},
        {"inf-nan", BM + 9, BN + 3, 2 * BK + 3, 1, 1, 0, 1.0f, 0.5f, 0, F_INFNAN},
        {"inf-in-last-slice", BM, BN + 2, 5 * BK, 2, 0, 0, 1.0f, 0.0f, 0, F_SLICE_INF},
        {"nan-payloads", BM + 4, BN, 2 * BK, 1, 0, 0, 1.0f, 0.0f, 0, F_NAN_PAYLOAD},
        {"tiny-2^-115", BM + 2, BN, 3 * BK, 1, 0, 0, 1.0f, 0.0f, 0, F_TINY},
        {"huge-2^110", BM, BN + 5, 3 * BK, 1, 0, 0, 1.0f, 0.0f, 0, F_HUGE},
        {"overflow-to-Inf", BM, BN, 2 * BK, 1, 0, 0, 1.0f, 0.0f, 0, F_OVERFLOW},
        {"subnormal-lo-terms", BM, BN, 3 * BK, 1, 0, 0, 1.0f, 0.0f, 0, F_SUBLO},
    };
    int failed = 0;
    *cases_run = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char detail[256] = "";
        const double t0 = now();
        const double r = run_case(d, kern, c, &cases[i], detail, sizeof detail);
        ++*cases_run;
        const int ok = r <= 1.0;
        failed += !ok;
        printf("CORRECT %s %-24s %4dx%4dx%4d slices %d alpha %g beta %g %-12s: %s (error/bound %.3g) %.1f s%s%s\n",
               c->name, cases[i].name, cases[i].m, cases[i].n, cases[i].k, cases[i].slices, cases[i].alpha,
               cases[i].beta, fill_name(cases[i].fill), ok ? "PASS" : "FAIL", r, now() - t0, ok ? "" : " -- ",
               ok ? "" : detail);
        fflush(stdout);
    }
    return failed;
}

/* --------------------------------------------------------------- accuracy */

typedef struct {
    double max_elem[2], normwise[2]; /* [uniform, spread] at the largest size run */
} acc_result;

static int phase_accuracy(const tc_device *d, cl_kernel kern, const config *c, const int (*sizes)[3], int nsizes,
                          acc_result *res)
{
    int failed = 0;
    for (int si = 0; si < nsizes; ++si) {
        const int m = sizes[si][0], n = sizes[si][1], k = sizes[si][2];
        if (m % c->v[P_BM] || n % c->v[P_BN] || k % c->v[P_BK]) {
            printf("ACCURACY %s %dx%dx%d: skipped (not a multiple of the tiles)\n", c->name, m, n, k);
            continue;
        }
        for (int dist = 0; dist < 2; ++dist) {
            operands o;
            operands_alloc(&o, m, n, k, c, 0, 0);
            tcd_fill(o.a, (size_t)m * k, dist, 1000 + (uint64_t)dist);
            tcd_fill(o.b, (size_t)n * k, dist, 2000 + (uint64_t)dist);
            tcd_sample sm;
            const int rows = m < 64 ? m : 64, cols = n < 64 ? n : 64;
            if (tcd_sample_make(&sm, o.a, o.b, m, n, k, rows, cols, 3000 + (uint64_t)dist))
                die("out of host memory");
            operands_upload(d, &o);
            cl_mem mc = buffer(d, sizeof(float) * (size_t)m * n, NULL);
            float *cc = xmalloc(sizeof(float) * (size_t)m * n);
            cl_int err = launch(d, kern, c, &o, o.kp, 1, 0, 1.0f, 0.0f, mc, 0, m, NULL);
            if (err == CL_SUCCESS)
                err = clEnqueueReadBuffer(d->queue, mc, CL_TRUE, 0, sizeof(float) * (size_t)m * n, cc, 0, NULL, NULL);
            if (err != CL_SUCCESS) {
                printf("ACCURACY %s %dx%dx%d %s: FAILED to run (%d)\n", c->name, m, n, k, dist ? "spread" : "uniform",
                       err);
                ++failed;
            } else {
                const tcd_metrics g = tcd_measure(&sm, cc, (size_t)m), f = tcd_measure(&sm, NULL, 0);
                printf("ACCURACY %s %dx%dx%d %-7s: max|C-C64|/(|A||B|) %.2e  ||C-C64||/||C64|| %.2e%s  |  host "
                       "FP32 FFMA: %.2e %.2e\n",
                       c->name, m, n, k, dist ? "spread" : "uniform", g.max_elem, g.normwise,
                       g.nonfinite ? "  NONFINITE!" : "", f.max_elem, f.normwise);
                failed += g.nonfinite > 0;
                res->max_elem[dist] = g.max_elem;
                res->normwise[dist] = g.normwise;
            }
            fflush(stdout);
            free(cc);
            clReleaseMemObject(mc);
            tcd_sample_free(&sm);
            operands_free(&o);
        }
    }
    return failed;
}

/* ----------------------------------------------------------------- timing */

static double phase_timing(const tc_device *d, cl_kernel kern, const config *c, int m, int n, int k, int reps,
                           int *wrong)
{
    *wrong = 0;
    char label[48];
    if (m == n && n == k)
        snprintf(label, sizeof label, "%5d^3", m);
    else
        snprintf(label, sizeof label, "%dx%dx%d", m, n, k);
    if (m % c->v[P_BM] || n % c->v[P_BN] || k % c->v[P_BK]) {
        printf("TIME %s %s: skipped (not a multiple of the tiles)\n", c->name, label);
        return 0.0;
    }
    const size_t bytes = sizeof(float) * (size_t)m * n;
    if (bytes > d->max_alloc || sizeof(float) * (size_t)m * k > d->max_alloc ||
        sizeof(float) * (size_t)k * n > d->max_alloc) {
        printf("TIME %s %s: skipped (buffer larger than the device's max allocation)\n", c->name, label);
        return 0.0;
    }
    operands o;
    operands_alloc(&o, m, n, k, c, 0, 0);
    tcd_fill(o.a, (size_t)m * k, 0, 11);
    tcd_fill(o.b, (size_t)k * n, 0, 12);
    operands_upload(d, &o);
    cl_mem mc = buffer(d, bytes, NULL);
    double best = INFINITY, sum = 0.0;
    int runs = 0;
    for (int r = -2; r < reps; ++r) {
        cl_event ev;
        cl_int err = launch(d, kern, c, &o, o.kp, 1, 0, 1.0f, 0.0f, mc, 0, m, &ev);
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &ev);
        if (err != CL_SUCCESS) {
            printf("TIME %s %s: FAILED to run (%d)\n", c->name, label, err);
            best = INFINITY;
            break;
        }
        cl_ulong t0 = 0, t1 = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        clReleaseEvent(ev);
        if (r >= 0) {
            const double s = (double)(t1 - t0) * 1e-9;
            best = s < best ? s : best;
            sum += s;
            ++runs;
        }
    }
    double tflops = 0.0;
    if (isfinite(best) && runs > 0) {
        /* A fast wrong result is no result: check 16 x 16 elements. */
        float *cc = xmalloc(bytes);
        CHECK(clEnqueueReadBuffer(d->queue, mc, CL_TRUE, 0, bytes, cc, 0, NULL, NULL));
        tcd_sample sm;
        if (tcd_sample_make(&sm, o.a, o.b, m, n, k, 16, 16, 99))
            die("out of host memory");
        const tcd_metrics g = tcd_measure(&sm, cc, (size_t)m);
        const double limit = c->v[P_PRODUCTS] == 3 ? 1e-5 : 1e-2;
        *wrong = g.nonfinite > 0 || g.max_elem > limit;
        tcd_sample_free(&sm);
        free(cc);
        tflops = 2.0 * m * (double)n * k / best * 1e-12;
        printf("TIME %s %s: best %.3f ms, mean %.3f ms, %.1f TFLOPS%s\n", c->name, label, best * 1e3,
               sum / runs * 1e3, tflops, *wrong ? "  -- RESULT WRONG" : "");
    }
    fflush(stdout);
    clReleaseMemObject(mc);
    operands_free(&o);
    return tflops;
}

/* -------------------------------------------------------------------- main */

static void usage(void)
{
    puts("usage: tc_probe info [--device gpu|cpu]\n"
         "       tc_probe legal --config configs.txt\n"
         "       tc_probe probes --probes tc_probes.cl [--only mma|cvt|addr|cp1|cp2|cp3]\n"
         "       tc_probe run --kernel gemm_tc.cl --config \"name KEY=VALUE ...\" [--phases correct,accuracy,timing,ptx]\n"
         "                    [--acc MxNxK,...] [--sizes 4096,8192,2048] [--reps 10] [--smem-addr N] [--emulate] [--ftz]\n"
         "                    [--out DIR] [--summary FILE] [--device gpu|cpu]");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        usage();
        return 2;
    }
    const char *cmd = argv[1], *kernel_path = NULL, *probes_path = NULL, *config_line = NULL, *out_dir = NULL,
               *summary = NULL, *want = NULL, *phases = NULL, *acc = NULL,
               *sizes_s = "4096,8192,2048", *only = NULL;
    int emulate = 0, ftz = 0, smem_addr = 1, reps = 10;
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--emulate"))
            emulate = 1;
        else if (!strcmp(a, "--ftz"))
            ftz = emulate = 1;
        else if (v && !strcmp(a, "--kernel"))
            kernel_path = argv[++i];
        else if (v && !strcmp(a, "--probes"))
            probes_path = argv[++i];
        else if (v && !strcmp(a, "--config"))
            config_line = argv[++i];
        else if (v && !strcmp(a, "--phases"))
            phases = argv[++i];
        else if (v && !strcmp(a, "--acc"))
            acc = argv[++i];
        else if (v && !strcmp(a, "--sizes"))
            sizes_s = argv[++i];
        else if (v && !strcmp(a, "--reps"))
            reps = atoi(argv[++i]);
        else if (v && !strcmp(a, "--smem-addr"))
            smem_addr = atoi(argv[++i]);
        else if (v && !strcmp(a, "--out"))
            out_dir = argv[++i];
        else if (v && !strcmp(a, "--summary"))
            summary = argv[++i];
        else if (v && !strcmp(a, "--device"))
            want = argv[++i];
        else if (v && !strcmp(a, "--only"))
            only = argv[++i];
        else {
            usage();
            return 2;
        }
    }
    tc_device d;
    memset(&d, 0, sizeof d);
    if (!strcmp(cmd, "legal")) {
        /* The H100 as NVIDIA's OpenCL reports it. */
        d.nvidia = 1;
        d.cc_major = 9;
        d.local_mem = 49152;
        d.max_wg = 1024;
        char *text = config_line ? read_file(config_line, NULL) : NULL;
        if (!text)
            die("legal needs --config FILE");
        int bad = 0;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            while (*line == ' ')
                ++line;
            if (!*line || *line == '#')
                continue;
            config c;
            if (parse_config(line, &c)) {
                ++bad;
                continue;
            }
            const char *why = derive(&c, &d, 0);
            printf("%-40s %s", c.name, why ? "ILLEGAL: " : "legal:");
            if (why)
                printf("%s", why);
            else
                for (int i = 0; i < ND; ++i)
                    printf(" %s=%d", dname[i], c.der[i]);
            printf(" | local %zu B, ~%d registers\n", c.local_bytes, c.regs_estimate);
            bad += why != NULL;
        }
        free(text);
        return bad ? 1 : 0;
    }
    if (open_device(&d, want))
        die("no OpenCL device");

    if (!strcmp(cmd, "info")) {
        print_device(&d);
        return 0;
    }
    if (!strcmp(cmd, "probes")) {
        print_device(&d);
        if (!d.nvidia) {
            printf("PROBE skipped: not an NVIDIA device (the probes are inline PTX)\n");
            return 0;
        }
        char *src = probes_path ? read_file(probes_path, NULL) : NULL;
        if (!src)
            die("cannot read the probes (--probes)");
        /* --only NAME runs one probe (run-gpu.sh gives each its own process,
         * so that one that faults cannot spoil the context of the others). */
        const char *o = only ? only : "all";
        const int all = !strcmp(o, "all");
        if (all || !strcmp(o, "mma"))
            probe_mma(&d, src);
        if (all || !strcmp(o, "cvt"))
            probe_cvt(&d, src);
        if (all || !strcmp(o, "addr"))
            probe_addr(&d, src);
        int first = 0;
        for (int v = 1; v <= 3; ++v) {
            char name[8];
            snprintf(name, sizeof name, "cp%d", v);
            if ((all || !strcmp(o, name)) && probe_cpasync(&d, src, v) && !first)
                first = v;
        }
        if (all && first)
            printf("RECOMMEND TC_SMEM_ADDR=%d\n", first);
        else if (all)
            printf("RECOMMEND TC_SMEM_ADDR=none (use CP_ASYNC=0 configurations)\n");
        free(src);
        return 0;
    }
    if (strcmp(cmd, "run") != 0 || !config_line || !kernel_path) {
        usage();
        return 2;
    }

    if (!d.nvidia)
        emulate = 1;
    if (!phases) /* timing means nothing in emulation */
        phases = emulate ? "correct,accuracy" : "correct,accuracy,timing,ptx";
    config c;
    if (parse_config(config_line, &c))
        die("bad --config \"%s\"", config_line);
    FILE *sf = summary ? fopen(summary, "a") : NULL;
    const char *illegal = derive(&c, &d, emulate);
    printf("CONFIG %s: %s | THREADS %d, local %zu B, registers ~%d%s\n", c.name, config_line, c.der[D_THREADS],
           c.local_bytes, c.regs_estimate, emulate ? ftz ? ", EMULATED (subnormals flushed)" : ", EMULATED" : "");
    if (illegal) {
        printf("CONFIG %s: ILLEGAL: %s\n", c.name, illegal);
        if (sf) {
            fprintf(sf, "%s\tillegal\t%s\n", c.name, illegal);
            fclose(sf);
        }
        return 1;
    }
    char *src = read_file(kernel_path, NULL);
    if (!src)
        die("cannot read %s", kernel_path);
    char opts[2048];
    options(&c, emulate, ftz, smem_addr, &d, opts, sizeof opts);
    double build_s = 0.0;
    cl_program prog = build(&d, src, opts, c.name, &build_s);
    free(src);
    if (!prog) {
        if (sf) {
            fprintf(sf, "%s\tbuild-failed\n", c.name);
            fclose(sf);
        }
        return 1;
    }
    printf("BUILD %s: ok in %.1f s\n", c.name, build_s);
    cl_int err;
    cl_kernel kern = clCreateKernel(prog, "gemm_tc", &err);
    if (err != CL_SUCCESS)
        die("clCreateKernel: %d", err);
    size_t wg = 0;
    cl_ulong lmem = 0, pmem = 0;
    clGetKernelWorkGroupInfo(kern, d.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetKernelWorkGroupInfo(kern, d.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    clGetKernelWorkGroupInfo(kern, d.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pmem, &pmem, NULL);
    printf("BUILD %s: kernel work-group limit %zu, local %llu B, private %llu B%s\n", c.name, wg,
           (unsigned long long)lmem, (unsigned long long)pmem,
           wg < (size_t)c.der[D_THREADS] ? "  -- TOO MANY REGISTERS FOR THE WORK-GROUP" : "");
    if (strstr(phases, "ptx") && out_dir && !emulate) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.ptx", out_dir, c.name);
        if (write_binary(prog, path) == 0)
            printf("PTX %s: %s\n", c.name, path);
    }

    int cases = 0, failed_cases = -1, acc_failed = 0;
    acc_result ar = {{NAN, NAN}, {NAN, NAN}};
    if (strstr(phases, "correct")) {
        failed_cases = phase_correct(&d, kern, &c, &cases);
        printf("CORRECT %s: %d of %d cases pass\n", c.name, cases - failed_cases, cases);
    }
    if (strstr(phases, "accuracy")) {
        int sz[8][3], ns = 0;
        const char *s = acc ? acc : emulate ? "128x128x2048" : "1024x1024x1024,4096x4096x4096";
        while (s && *s && ns < 8) {
            if (sscanf(s, "%dx%dx%d", &sz[ns][0], &sz[ns][1], &sz[ns][2]) == 3)
                ++ns;
            s = strchr(s, ',');
            if (s)
                ++s;
        }
        acc_failed = phase_accuracy(&d, kern, &c, (const int (*)[3])sz, ns, &ar);
    }
    double tf[8] = {0};
    int tsz[8][3], nsz = 0, wrong_any = 0;
    char tname[8][40];
    if (strstr(phases, "timing")) {
        /* N (a cube) or MxNxK, comma-separated */
        for (const char *s = sizes_s; s && *s && nsz < 8;) {
            int q[3];
            const int got = sscanf(s, "%dx%dx%d", &q[0], &q[1], &q[2]);
            if (got == 3 || got == 1) {
                for (int j = 0; j < 3; ++j)
                    tsz[nsz][j] = got == 3 ? q[j] : q[0];
                if (got == 3)
                    snprintf(tname[nsz], sizeof tname[nsz], "%dx%dx%d", q[0], q[1], q[2]);
                else
                    snprintf(tname[nsz], sizeof tname[nsz], "%d", q[0]);
                ++nsz;
            }
            s = strchr(s, ',');
            if (s)
                ++s;
        }
        for (int i = 0; i < nsz; ++i) {
            int wrong;
            tf[i] = phase_timing(&d, kern, &c, tsz[i][0], tsz[i][1], tsz[i][2], reps, &wrong);
            wrong_any |= wrong;
        }
    }
    if (sf) {
        fprintf(sf, "%s\tok\tP%d\t%d/%d\t%.2e\t%.2e\t%.2e\t%.2e", c.name, c.v[P_PRODUCTS],
                failed_cases < 0 ? 0 : cases - failed_cases, cases, ar.max_elem[0], ar.normwise[0], ar.max_elem[1],
                ar.normwise[1]);
        for (int i = 0; i < nsz; ++i)
            fprintf(sf, "\t%s:%.1f", tname[i], tf[i]);
        fprintf(sf, "%s\n", wrong_any ? "\tWRONG" : "");
        fclose(sf);
    }
    clReleaseKernel(kern);
    clReleaseProgram(prog);
    clReleaseCommandQueue(d.queue);
    clReleaseContext(d.ctx);
    return (failed_cases > 0 || acc_failed || wrong_any) ? 1 : 0;
}
