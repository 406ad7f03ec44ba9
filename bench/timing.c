/*
 * The bench's timing helpers (timing.h): the host clock, the number of
 * calls per timing, and batches of calls on an OpenCL queue.
 */
#include "timing.h"

#include <time.h>

static double min_time_s = 0.25;

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_set_min_time(double seconds) { min_time_s = seconds; }

int bench_reps(int reps, double one_call_s)
{
    if (reps > 0)
        return reps;
    const int r = (int)(min_time_s / (one_call_s > 1e-6 ? one_call_s : 1e-6));
    return r < 3 ? 3 : r > 500 ? 500 : r;
}

static cl_ulong profile(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    clGetEventProfilingInfo(e, what, sizeof t, &t, NULL);
    return t;
}

int bench_time_cl(const bench_cl *cl, bench_cl_call call, void *ctx, int reps, bench_time *t)
{
    cl_event ev = NULL, mark = NULL;
    for (int warm = 0; warm < 2; ++warm) {
        /* The first call builds and allocates; the second tells how many calls fill the time. */
        const double w = bench_now();
        if (call(ctx, &ev) != 0)
            return -1;
        if (ev)
            clReleaseEvent(ev);
        ev = NULL;
        clFinish(cl->queue);
        if (warm)
            reps = bench_reps(reps, bench_now() - w);
    }
    if (clEnqueueMarkerWithWaitList(cl->queue, 0, NULL, &mark) != CL_SUCCESS)
        return -1;
    const double w0 = bench_now();
    for (int r = 0; r < reps; ++r) {
        /* An event for the last call only, as a caller's loop asks: an
         * event costs the host about as much as a launch (NVIDIA), and
         * cuBLAS's peer times its loop by one pair of events. */
        if (call(ctx, r == reps - 1 ? &ev : NULL) != 0) {
            clReleaseEvent(mark);
            return -1;
        }
    }
    clFinish(cl->queue);
    t->wall_s = (bench_now() - w0) / reps;
    t->device_s = -1.0;
    if (ev) {
        const cl_ulong start = profile(mark, CL_PROFILING_COMMAND_END), end = profile(ev, CL_PROFILING_COMMAND_END);
        if (end > start && start)
            t->device_s = (double)(end - start) * 1e-9 / reps;
        clReleaseEvent(ev);
    }
    clReleaseEvent(mark);
    return 0;
}
