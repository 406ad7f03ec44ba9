/*
 * gemm_cpu's kernel alone on a CPU's OpenCL as of 8efd30d (its argument
 * list changed since: git show 8efd30d:kernels/gemm_cpu.cl > /tmp/k.cl and
 * KSRC=/tmp/k.cl; ../gemm-cpu-in-place/kernel-alone.c for today's), its panels given (random
 * integers, checked at 50 places against the packed product): the best of
 * six launches by OpenCL events. A measuring aid, not part of the library:
 *   gcc -O2 -o /tmp/kernel-alone bench/results/pocl-cpu/gemm-cpu/kernel-alone.c -lOpenCL
 *   KSRC=kernels/gemm_cpu.cl KNAME=gemm_cpu /tmp/kernel-alone 1152 1152 1024 \
 *     "-DVW=8 -DMV=2 -DNR=6 -DKU=1 -DTN=1 -DMR=16"
 * (M a multiple of MR, N of NR TN.)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *readf(const char *p){FILE*f=fopen(p,"rb");fseek(f,0,2);long n=ftell(f);rewind(f);char*s=malloc(n+1);fread(s,1,n,f);s[n]=0;fclose(f);return s;}
int main(int argc,char**argv){
  int M=atoi(argv[1]),N=atoi(argv[2]),K=atoi(argv[3]); const char*opts=argc>4?argv[4]:"";
  int NR=6; if(strstr(opts,"-DNR=")) NR=atoi(strstr(opts,"-DNR=")+5);
  cl_platform_id pl[4];cl_uint np;clGetPlatformIDs(4,pl,&np);cl_device_id d;cl_int e=-1;
  for(cl_uint i=0;i<np&&e;i++) e=clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_CPU,1,&d,NULL);
  cl_context cx=clCreateContext(NULL,1,&d,NULL,NULL,&e);cl_command_queue q=clCreateCommandQueue(cx,d,CL_QUEUE_PROFILING_ENABLE,&e);
  char*src=readf(getenv("KSRC")?getenv("KSRC"):"k.cl");cl_program pr=clCreateProgramWithSource(cx,1,(const char**)&src,NULL,&e);
  e=clBuildProgram(pr,1,&d,opts,NULL,NULL); if(e){char log[20000];clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof log,log,NULL);puts(log);return 1;}
  cl_kernel k=clCreateKernel(pr,getenv("KNAME")?getenv("KNAME"):"mk",&e);
  size_t sa=(size_t)M*K,sb=(size_t)N*K,sc=(size_t)M*N;
  float*A=malloc(sa*4),*B=malloc(sb*4);for(size_t i=0;i<sa;i++)A[i]=(rand()%7-3);for(size_t i=0;i<sb;i++)B[i]=(rand()%5-2);
  cl_mem ba=clCreateBuffer(cx,CL_MEM_COPY_HOST_PTR,sa*4,A,&e),bb=clCreateBuffer(cx,CL_MEM_COPY_HOST_PTR,sb*4,B,&e),bc=clCreateBuffer(cx,0,sc*4,NULL,&e);
  int ldc=M,zero=0; float one=1.f,fz=0.f; clSetKernelArg(k,0,4,&M);clSetKernelArg(k,1,4,&N);clSetKernelArg(k,2,4,&K);clSetKernelArg(k,3,4,&zero);clSetKernelArg(k,4,4,&zero);clSetKernelArg(k,5,4,&one);clSetKernelArg(k,6,4,&fz);clSetKernelArg(k,7,8,&ba);clSetKernelArg(k,8,8,&bb);clSetKernelArg(k,9,8,&bc);clSetKernelArg(k,10,4,&zero);clSetKernelArg(k,11,4,&ldc);clSetKernelArg(k,12,4,&zero);clSetKernelArg(k,13,4,&zero);
  int MR=16,TN=1; if(strstr(opts,"-DMR=")) MR=atoi(strstr(opts,"-DMR=")+5); if(strstr(opts,"-DTN=")) TN=atoi(strstr(opts,"-DTN=")+5); size_t g[3]={M/MR,(N/NR+TN-1)/TN,1}; size_t l[3]={1,1,1};
  double best=1e30;
  for(int r=0;r<6;r++){cl_event ev;e=clEnqueueNDRangeKernel(q,k,3,NULL,g,l,0,NULL,&ev);if(e){printf("enq %d\n",e);return 1;}clWaitForEvents(1,&ev);
    cl_ulong t0,t1;clGetEventProfilingInfo(ev,CL_PROFILING_COMMAND_START,8,&t0,NULL);clGetEventProfilingInfo(ev,CL_PROFILING_COMMAND_END,8,&t1,NULL);double t=(t1-t0)*1e-9;if(t<best)best=t;}
  float*C=malloc(sc*4);clEnqueueReadBuffer(q,bc,1,0,sc*4,C,0,NULL,NULL);
  /* check a few entries: C(m,n) = sum_k Ap(m,k) Bp(k,n) with packed layouts */
  double maxerr=0;for(int t=0;t<50;t++){int m=rand()%M,n=rand()%N;double s=0;for(int kk=0;kk<K;kk++)s+=(double)A[(size_t)(m/MR)*K*MR+kk*MR+m%MR]*B[(size_t)(n/NR)*K*NR+kk*NR+n%NR];double d=s-C[(size_t)n*ldc+m];if(d<0)d=-d;if(d>maxerr)maxerr=d;}
  printf("%dx%dx%d %s: %.1f GFLOPS (%.3f ms), maxerr %g\n",M,N,K,opts,2.0*M*N*K/best*1e-9,best*1e3,maxerr);return 0;}
