/*
 * gemm_cpu's kernel alone on a CPU's OpenCL (kernels/gemm_cpu.cl as of
 * 2b40780 and later), each operand packed in panels or as stored: A mode
 * 0 packed, 1 as stored with m contiguous; B mode 0 packed, 1 as stored
 * with n contiguous, 2 with k contiguous (the BK program); CT=1 in the
 * environment stores C transposed (the CT program). Random integers,
 * checked at 200 places against a float64 product; the best of eight
 * launches by OpenCL events. A measuring aid, not part of the library:
 *   gcc -O2 -o /tmp/kernel-alone bench/results/pocl-cpu/gemm-cpu-in-place/kernel-alone.c -lOpenCL
 *   /tmp/kernel-alone 1152 1152 1024 0 2 "-DVW=8 -DMV=2 -DNR=6 -DKU=1 -DTN=1 -DMR=16"
 * (from the project root; KSRC names another kernel file).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
static char *readf(const char *p){FILE*f=fopen(p,"rb");fseek(f,0,2);long n=ftell(f);rewind(f);char*s=malloc(n+1);fread(s,1,n,f);s[n]=0;fclose(f);return s;}
int main(int argc,char**argv){
  int M=atoi(argv[1]),N=atoi(argv[2]),K=atoi(argv[3]),am=atoi(argv[4]),bm=atoi(argv[5]); const char*opts0=argc>6?argv[6]:"";
  int NR=6,MR=16,TN=1; if(strstr(opts0,"-DNR=")) NR=atoi(strstr(opts0,"-DNR=")+5);
  if(strstr(opts0,"-DMR=")) MR=atoi(strstr(opts0,"-DMR=")+5); if(strstr(opts0,"-DTN=")) TN=atoi(strstr(opts0,"-DTN=")+5);
  char opts[500]; snprintf(opts,sizeof opts,"%s -DBK=%d -DCT=%d",opts0,bm==2,getenv("CT")?atoi(getenv("CT")):0);
  cl_platform_id pl[4];cl_uint np;clGetPlatformIDs(4,pl,&np);cl_device_id d;cl_int e=-1;
  for(cl_uint i=0;i<np&&e;i++) e=clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_CPU,1,&d,NULL);
  cl_context cx=clCreateContext(NULL,1,&d,NULL,NULL,&e);cl_command_queue q=clCreateCommandQueue(cx,d,CL_QUEUE_PROFILING_ENABLE,&e);
  char*src=readf(getenv("KSRC")?getenv("KSRC"):"kernels/gemm_cpu.cl");cl_program pr=clCreateProgramWithSource(cx,1,(const char**)&src,NULL,&e);
  e=clBuildProgram(pr,1,&d,opts,NULL,NULL); if(e){char log[20000];clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof log,log,NULL);puts(log);return 1;}
  cl_kernel k=clCreateKernel(pr,"gemm_cpu",&e);
  int Mp=(M+MR-1)/MR*MR, Np=(N+NR-1)/NR*NR;
  size_t sa=(size_t)Mp*K,sb=(size_t)Np*K,sc=(size_t)M*N;
  float*A=calloc(sa,4),*B=calloc(sb,4);
  /* logical A(m,k), B(k,n) */
  float*LA=malloc((size_t)M*K*4),*LB=malloc((size_t)K*N*4);
  for(size_t i=0;i<(size_t)M*K;i++)LA[i]=(rand()%7-3);for(size_t i=0;i<(size_t)K*N;i++)LB[i]=(rand()%5-2);
  int a_kstep,a_mstep,a_last,b_kstep,b_nstep,b_last;
  for(int m=0;m<M;m++)for(int kk=0;kk<K;kk++){float v=LA[(size_t)m*K+kk]; if(am) A[(size_t)kk*M+m]=v; else A[(size_t)(m/MR)*MR*K+(size_t)kk*MR+m%MR]=v;}
  if(am){a_kstep=M;a_mstep=1;a_last=M-MR;}else{a_kstep=MR;a_mstep=K;a_last=INT_MAX;}
  for(int n=0;n<N;n++)for(int kk=0;kk<K;kk++){float v=LB[(size_t)kk*N+n];
    if(bm==1) B[(size_t)kk*N+n]=v; else if(bm==2) B[(size_t)n*K+kk]=v; else B[(size_t)(n/NR)*NR*K+(size_t)kk*NR+n%NR]=v;}
  if(bm==1){b_kstep=N;b_nstep=1;b_last=N-NR;} else if(bm==2){b_kstep=1;b_nstep=K;b_last=N-NR;} else {b_kstep=NR;b_nstep=K;b_last=INT_MAX;}
  cl_mem ba=clCreateBuffer(cx,CL_MEM_COPY_HOST_PTR,sa*4,A,&e),bb=clCreateBuffer(cx,CL_MEM_COPY_HOST_PTR,sb*4,B,&e),bc=clCreateBuffer(cx,0,sc*4,NULL,&e);
  int ldc=M,zero=0; float one=1.f,fz=0.f; int ai=0;
#define I(x) clSetKernelArg(k,ai++,4,&(x))
  I(M);I(N);I(K);I(zero);I(zero);I(one);I(fz);clSetKernelArg(k,ai++,8,&ba);I(zero);I(a_kstep);I(a_mstep);I(a_last);
  clSetKernelArg(k,ai++,8,&bb);I(zero);I(b_kstep);I(b_nstep);I(b_last);int ct=getenv("CT")?atoi(getenv("CT")):0; if(ct) ldc=N; clSetKernelArg(k,ai++,8,&bc);I(zero);I(ldc);I(zero);I(zero);
  size_t g[3]={(M+MR-1)/MR,((N+NR-1)/NR+TN-1)/TN,1}; size_t l[3]={1,1,1};
  double best=1e30;
  for(int r=0;r<8;r++){cl_event ev;e=clEnqueueNDRangeKernel(q,k,3,NULL,g,l,0,NULL,&ev);if(e){printf("enq %d\n",e);return 1;}clWaitForEvents(1,&ev);
    cl_ulong t0,t1;clGetEventProfilingInfo(ev,CL_PROFILING_COMMAND_START,8,&t0,NULL);clGetEventProfilingInfo(ev,CL_PROFILING_COMMAND_END,8,&t1,NULL);double t=(t1-t0)*1e-9;if(t<best)best=t;}
  float*C=malloc(sc*4);clEnqueueReadBuffer(q,bc,1,0,sc*4,C,0,NULL,NULL);
  double maxerr=0;for(int t=0;t<200;t++){int m=rand()%M,n=rand()%N; if(t<4){m=M-1-t;n=N-1-t%2;} double s=0;for(int kk=0;kk<K;kk++)s+=(double)LA[(size_t)m*K+kk]*LB[(size_t)kk*N+n];double dd=s-(ct?C[(size_t)m*ldc+n]:C[(size_t)n*ldc+m]);if(dd<0)dd=-dd;if(dd>maxerr)maxerr=dd;}
  printf("%dx%dx%d a%d b%d %s: %.1f GFLOPS (%.3f ms), maxerr %g\n",M,N,K,am,bm,opts0,2.0*M*N*K/best*1e-9,best*1e3,maxerr);return 0;}
