/*
 * pack_panels alone on a CPU's OpenCL: a rows x cols source (transposed 0:
 * rows contiguous; 1: cols contiguous) packed in panels of `panel` rows,
 * the best of five launches by OpenCL events, every element checked. A
 * measuring aid, not part of the library (the helpers' -D options below
 * are the haswell entry's set):
 *   gcc -O2 -o /tmp/pack-alone bench/results/pocl-cpu/gemm-cpu/pack-alone.c -lOpenCL
 *   D="-DPAD_DIMX=64 -DPAD_DIMY=8 -DPAD_WPTX=2 -DPAD_WPTY=4 -DTRA_DIM=16 -DTRA_WPT=1 -DTRA_PAD=0 \
 *      -DPAD_TILEX=128 -DPAD_TILEY=32 -DTRA_TILE=16 -DREDUCE_WGS=512"
 *   for t in 0 1; do for s in "128 128" "2048 1024"; do
 *     KSRC=kernels/helpers.cl /tmp/pack-alone $s 16 $t "$D"; done; done
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *readf(const char *p){FILE*f=fopen(p,"rb");fseek(f,0,2);long n=ftell(f);rewind(f);char*s=malloc(n+1);fread(s,1,n,f);s[n]=0;fclose(f);return s;}
/* pack rows x cols (panel, transposed) from a src of rows*cols: time pack_panels */
int main(int argc,char**argv){
  int rows=atoi(argv[1]),cols=atoi(argv[2]),panel=atoi(argv[3]),tr=atoi(argv[4]); const char*opts=argv[5];
  int dx=64,dy=8; if(strstr(opts,"-DPAD_DIMX=")) dx=atoi(strstr(opts,"-DPAD_DIMX=")+11); if(strstr(opts,"-DPAD_DIMY=")) dy=atoi(strstr(opts,"-DPAD_DIMY=")+11);
  cl_platform_id pl[4];cl_uint np;clGetPlatformIDs(4,pl,&np);cl_device_id d;cl_int e=-1;
  for(cl_uint i=0;i<np&&e;i++) e=clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_CPU,1,&d,NULL);
  cl_context cx=clCreateContext(NULL,1,&d,NULL,NULL,&e);cl_command_queue q=clCreateCommandQueue(cx,d,CL_QUEUE_PROFILING_ENABLE,&e);
  char*src=readf(getenv("KSRC"));cl_program pr=clCreateProgramWithSource(cx,1,(const char**)&src,NULL,&e);
  e=clBuildProgram(pr,1,&d,opts,NULL,NULL); if(e){char log[20000];clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof log,log,NULL);puts(log);return 1;}
  cl_kernel k=clCreateKernel(pr,getenv("KNAME")?getenv("KNAME"):"pack_panels",&e);
  int dr=(rows+panel-1)/panel*panel, dc=cols; size_t n=(size_t)rows*cols, nd=(size_t)dr*dc;
  float*A=malloc(n*4);for(size_t i=0;i<n;i++)A[i]=i%1000;
  cl_mem ba=clCreateBuffer(cx,CL_MEM_COPY_HOST_PTR,n*4,A,&e),bd=clCreateBuffer(cx,0,nd*4,NULL,&e);
  int zero=0, ld= tr? cols: rows;
  int a=0; clSetKernelArg(k,a++,4,&rows);clSetKernelArg(k,a++,4,&cols);clSetKernelArg(k,a++,8,&ba);clSetKernelArg(k,a++,4,&zero);clSetKernelArg(k,a++,4,&ld);clSetKernelArg(k,a++,4,&tr);clSetKernelArg(k,a++,4,&panel);clSetKernelArg(k,a++,4,&dr);clSetKernelArg(k,a++,4,&dc);clSetKernelArg(k,a++,8,&bd);clSetKernelArg(k,a++,4,&zero);clSetKernelArg(k,a++,4,&zero);
  size_t g[2]={(dc+dx-1)/dx*dx,((dr/panel)+dy-1)/dy*dy}, l[2]={dx,dy};
  double best=1e30;
  for(int r=0;r<5;r++){cl_event ev;e=clEnqueueNDRangeKernel(q,k,2,NULL,g,l,0,NULL,&ev);if(e){printf("enq %d\n",e);return 1;}clWaitForEvents(1,&ev);
    cl_ulong t0,t1;clGetEventProfilingInfo(ev,CL_PROFILING_COMMAND_START,8,&t0,NULL);clGetEventProfilingInfo(ev,CL_PROFILING_COMMAND_END,8,&t1,NULL);double t=(t1-t0)*1e-9;if(t<best)best=t;}
  float*D=malloc(nd*4);clEnqueueReadBuffer(q,bd,1,0,nd*4,D,0,NULL,NULL);
  long bad=0; for(int r=0;r<dr;r++)for(int c=0;c<dc;c++){float want=(r<rows)?A[tr?(size_t)r*cols+c:(size_t)c*rows+r]:0; if(D[(size_t)(r/panel)*panel*dc+(size_t)c*panel+r%panel]!=want)bad++;}
  printf("%dx%d panel %d tr %d: %.3f ms, %.2f GB/s (r+w), bad %ld\n",rows,cols,panel,tr,best*1e3,2.0*n*4/best*1e-9,bad);return 0;}
