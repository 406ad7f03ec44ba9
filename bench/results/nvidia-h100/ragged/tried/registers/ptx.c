/* ptx KERNEL.cl "OPTIONS" > out.ptx: build on the first GPU, print the binary (PTX on NVIDIA). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *src = malloc(n + 1);
    if (fread(src, 1, n, f) != (size_t)n)
        return 1;
    src[n] = 0;
    cl_platform_id pl;
    cl_device_id dev;
    clGetPlatformIDs(1, &pl, NULL);
    clGetDeviceIDs(pl, CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    const char *s = src;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, NULL);
    if (clBuildProgram(p, 1, &dev, argv[2], NULL, NULL) != CL_SUCCESS) {
        char log[20000];
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s\n", log);
        return 1;
    }
    size_t sz;
    clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, NULL);
    unsigned char *bin = malloc(sz);
    clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    fwrite(bin, 1, sz, stdout);
    return 0;
}
