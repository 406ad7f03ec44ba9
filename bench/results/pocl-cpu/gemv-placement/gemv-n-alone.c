/*
 * gemv_n alone on a CPU's OpenCL (kernels/common.cl and kernels/gemv_n.cl,
 * or the file KSRC names): y = A x for a column-major M x N A of ones, in
 * the launch the plan makes (SPLITS splits of the columns, work-groups of
 * WGS items over ROWS_PER_GROUP rows, 0: a panel of every row), R launches
 * (default 200) queued back to back; prints the median and best kernel time
 * (OpenCL events, START to END) and the median span from one launch's end
 * to the next's. A measuring aid, not part of the library:
 *   gcc -O2 -o /tmp/gemv-n-alone bench/results/pocl-cpu/gemv-placement/gemv-n-alone.c -lOpenCL
 *   /tmp/gemv-n-alone M N "OPTIONS" SPLITS ROWS_PER_GROUP WGS     (from the project root; run.sh)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *readf(const char *p){FILE*f=fopen(p,"rb");fseek(f,0,2);long n=ftell(f);rewind(f);char*s=malloc(n+1);fread(s,1,n,f);s[n]=0;fclose(f);return s;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int M=atoi(argv[1]),N=atoi(argv[2]); const char*opts=argv[3]; int splits=atoi(argv[4]), rpg=atoi(argv[5]), wgs=atoi(argv[6]);
  cl_platform_id pl[4];cl_uint np;clGetPlatformIDs(4,pl,&np);cl_device_id d;cl_int e=-1;
  for(cl_uint i=0;i<np&&e;i++) e=clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_CPU,1,&d,NULL);
  cl_context cx=clCreateContext(NULL,1,&d,NULL,NULL,&e);cl_command_queue q=clCreateCommandQueue(cx,d,CL_QUEUE_PROFILING_ENABLE,&e);
  char*common=readf("kernels/common.cl"), *src=readf(getenv("KSRC")?getenv("KSRC"):"kernels/gemv_n.cl"); const char*srcs[2]={common,src};
  cl_program pr=clCreateProgramWithSource(cx,2,srcs,NULL,&e);
  e=clBuildProgram(pr,1,&d,opts,NULL,NULL); if(e){char log[20000];clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof log,log,NULL);puts(log);return 1;}
  cl_kernel k=clCreateKernel(pr,"gemv_n",&e);
  float*A=malloc((size_t)M*N*4),*x=malloc(N*4); for(size_t i=0;i<(size_t)M*N;i++)A[i]=1; for(int i=0;i<N;i++)x[i]=1;
  cl_mem a=clCreateBuffer(cx,CL_MEM_COPY_HOST_PTR,(size_t)M*N*4,A,&e),xb=clCreateBuffer(cx,CL_MEM_COPY_HOST_PTR,N*4,x,&e),yb=clCreateBuffer(cx,0,M*4,0,&e),pb=clCreateBuffer(cx,0,(size_t)M*4*splits,0,&e),ar=clCreateBuffer(cx,0,64,0,&e);
  int cps=(N+splits-1)/splits; float one=1,zero=0; int i0=0,i1=1,vec=1,team=1;
  int ai=0; clSetKernelArg(k,ai++,4,&M);clSetKernelArg(k,ai++,4,&N);clSetKernelArg(k,ai++,4,&one);clSetKernelArg(k,ai++,4,&zero);
  clSetKernelArg(k,ai++,sizeof a,&a);clSetKernelArg(k,ai++,4,&i0);clSetKernelArg(k,ai++,4,&M);clSetKernelArg(k,ai++,sizeof a,&xb);clSetKernelArg(k,ai++,4,&i0);clSetKernelArg(k,ai++,4,&i1);
  clSetKernelArg(k,ai++,sizeof a,&yb);clSetKernelArg(k,ai++,4,&i0);clSetKernelArg(k,ai++,4,&i1);clSetKernelArg(k,ai++,4,&cps);clSetKernelArg(k,ai++,sizeof a,&pb);clSetKernelArg(k,ai++,4,&vec);
  clSetKernelArg(k,ai++,4,&i0);clSetKernelArg(k,ai++,4,&i0);clSetKernelArg(k,ai++,4,&i0);clSetKernelArg(k,ai++,4,&team);clSetKernelArg(k,ai++,sizeof a,&ar);
  size_t g[3]={(rpg? (M+rpg-1)/rpg:1)*wgs, splits,1}, l[3]={wgs,1,1};
  int R=atoi(getenv("R")?getenv("R"):"200"); double *t=malloc(R*8),*s=malloc(R*8); cl_event*ev=malloc(R*sizeof(cl_event));
  for(int w=0;w<20;w++) clEnqueueNDRangeKernel(q,k,3,NULL,g,l,0,NULL,NULL); clFinish(q);
  for(int r=0;r<R;r++) clEnqueueNDRangeKernel(q,k,3,NULL,g,l,0,NULL,&ev[r]); clFinish(q);
  for(int r=0;r<R;r++){cl_ulong a0,a1;clGetEventProfilingInfo(ev[r],CL_PROFILING_COMMAND_START,8,&a0,NULL);clGetEventProfilingInfo(ev[r],CL_PROFILING_COMMAND_END,8,&a1,NULL);t[r]=(a1-a0)*1e-3; if(r){cl_ulong b;clGetEventProfilingInfo(ev[r-1],CL_PROFILING_COMMAND_END,8,&b,NULL);s[r-1]=(a1-b)*1e-3;}}
  qsort(t,R,8,cmp);qsort(s,R-1,8,cmp); printf("%s splits %d: kernel med %.1f us best %.1f; end-to-end per launch med %.1f\n",opts,splits,t[R/2],t[0],s[R/2]);
  float y0; clEnqueueReadBuffer(q,splits>1?pb:yb,1,0,4,&y0,0,0,0); if(splits==1&&y0!=N) printf("wrong %f\n",y0);
  return 0;}
