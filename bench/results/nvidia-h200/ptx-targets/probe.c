// Builds small OpenCL kernels with inline PTX on the default GPU and prints build status, log, and PTX .target.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char *names[] = {"mma_tf32", "mma_s8", "wgmma_fence", "wgmma_tf32", "cp_async_bulk", "setmaxnreg", "mbarrier"};
static const char *srcs[] = {
"__kernel void k(__global float *o){ float d0=0,d1=0,d2=0,d3=0; unsigned a0=1,a1=2,a2=3,a3=4,b0=5,b1=6;\n"
" asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%0,%1,%2,%3};\" : \"+f\"(d0),\"+f\"(d1),\"+f\"(d2),\"+f\"(d3) : \"r\"(a0),\"r\"(a1),\"r\"(a2),\"r\"(a3),\"r\"(b0),\"r\"(b1));\n"
" o[get_global_id(0)]=d0+d1+d2+d3; }\n",
"__kernel void k(__global int *o){ int d0=0,d1=0,d2=0,d3=0; unsigned a0=1,a1=2,a2=3,a3=4,b0=5,b1=6;\n"
" asm volatile(\"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%0,%1,%2,%3};\" : \"+r\"(d0),\"+r\"(d1),\"+r\"(d2),\"+r\"(d3) : \"r\"(a0),\"r\"(a1),\"r\"(a2),\"r\"(a3),\"r\"(b0),\"r\"(b1));\n"
" o[get_global_id(0)]=d0+d1+d2+d3; }\n",
"__kernel void k(__global float *o){ asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\"); o[get_global_id(0)]=1; }\n",
"__kernel void k(__global float *o){ float d[4]={0,0,0,0}; unsigned long desc_a=0, desc_b=0;\n"
" asm volatile(\"{\\n wgmma.fence.sync.aligned;\\n wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, 1, 1, 1;\\n wgmma.commit_group.sync.aligned;\\n wgmma.wait_group.sync.aligned 0;\\n}\" : \"+f\"(d[0]),\"+f\"(d[1]),\"+f\"(d[2]),\"+f\"(d[3]) : \"l\"(desc_a),\"l\"(desc_b));\n"
" o[get_global_id(0)]=d[0]+d[1]+d[2]+d[3]; }\n",
"__kernel void k(__global float *o){ __local float s[256]; __local unsigned long bar; \n"
" asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];\" :: \"r\"((unsigned)(size_t)s), \"l\"(o), \"r\"((unsigned)(size_t)&bar) : \"memory\");\n"
" o[get_global_id(0)]=s[0]; }\n",
"__kernel void k(__global float *o){ asm volatile(\"setmaxnreg.inc.sync.aligned.u32 240;\"); o[get_global_id(0)]=1; }\n",
"__kernel void k(__global float *o){ __local unsigned long bar; asm volatile(\"mbarrier.init.shared.b64 [%0], 1;\" :: \"r\"((unsigned)(size_t)&bar)); o[get_global_id(0)]=1; }\n",
};
int main(void) {
  cl_platform_id p[8]; cl_uint np; clGetPlatformIDs(8, p, &np);
  cl_device_id d = 0;
  for (cl_uint i = 0; i < np && !d; i++) if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = 0;
  if (!d) { printf("no gpu\n"); return 1; }
  char buf[256]; clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof buf, buf, NULL); printf("device %s\n", buf);
  clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof buf, buf, NULL); printf("driver %s\n", buf);
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
  for (int i = 0; i < (int)(sizeof srcs / sizeof *srcs); i++) {
    cl_program pr = clCreateProgramWithSource(ctx, 1, &srcs[i], NULL, NULL);
    const char *opts[] = {"", "-cl-nv-arch sm_90a", "-nv-arch=sm_90a"};
    for (int o = 0; o < 3; o++) {
      cl_int e = clBuildProgram(pr, 1, &d, opts[o], NULL, NULL);
      size_t n = 0; clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
      char *log = calloc(n + 1, 1); clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, n, log, NULL);
      printf("== %s [%s]: %d\n%.600s\n", names[i], opts[o], e, log);
      if (e == CL_SUCCESS) {
        size_t bs; clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, NULL);
        unsigned char *b = malloc(bs + 1); clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof b, &b, NULL); b[bs] = 0;
        char *t = strstr((char *)b, ".target"); if (t) { char *nl = strchr(t, '\n'); if (nl) *nl = 0; printf("   %s\n", t); }
        free(b);
      }
      free(log);
    }
    clReleaseProgram(pr);
  }
  return 0;
}
