/*
 * How oclblas-bench times a library: the host clock, the number of calls
 * that fill a timing, and a batch of calls on an OpenCL queue timed by its
 * profiling events. bench.c and the peers share these; nothing here knows a
 * library.
 */
#ifndef OCLBLAS_BENCH_TIMING_H
#define OCLBLAS_BENCH_TIMING_H

#include <CL/cl.h>

typedef struct {
    double device_s; /* seconds per call by device timestamps; < 0 when not measured */
    double wall_s;   /* seconds per call by the host clock */
} bench_time;

/* An OpenCL device with a context and a profiling queue, shared by oclblas
 * and the OpenCL peers. */
typedef struct {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char name[256];
} bench_cl;

/* Seconds on a monotonic clock. */
double bench_now(void);

/* The least time one automatic timing lasts (--min-time; 0.25 s unless set). */
void bench_set_min_time(double seconds);

/* reps if positive, else as many calls as fill the least time, given one
 * call's seconds (3 to 500). */
int bench_reps(int reps, double one_call_s);

/* Runs call reps times after two warm-up calls on an OpenCL queue, timing
 * by the events of a marker before the batch and of the last call (device)
 * and by the host clock. call returns 0 on success and gives its last
 * event. 0 on success. */
typedef int (*bench_cl_call)(void *ctx, cl_event *ev);
int bench_time_cl(const bench_cl *cl, bench_cl_call call, void *ctx, int reps, bench_time *t);

#endif
