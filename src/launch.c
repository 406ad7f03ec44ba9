/*
 * Taking a kernel out of the program cache for one call, and launching it:
 * the two steps every routine repeats for every kernel it enqueues.
 */
#include "internal.h"

#include <string.h>

oclblas_status oclblas__kref_get(cl_context ctx, const oclblas__device_info *dev, int table,
                                 const oclblas__params *p, const char *name, oclblas__kref *out)
{
    memset(out, 0, sizeof *out);
    oclblas__program *prog;
    oclblas_status st = oclblas__program_get(ctx, dev, table, p, &prog);
    if (st != OCLBLAS_SUCCESS)
        return st;
    st = oclblas__kernel_take(prog, name, &out->kernel);
    if (st != OCLBLAS_SUCCESS) {
        oclblas__program_release(prog);
        return st;
    }
    out->prog = prog;
    out->name = name;
    return OCLBLAS_SUCCESS;
}

void oclblas__kref_put(oclblas__kref *r)
{
    if (!r->prog)
        return;
    oclblas__kernel_put(r->prog, r->name, r->kernel);
    oclblas__program_release(r->prog);
    memset(r, 0, sizeof *r);
}

oclblas_status oclblas__launch(cl_command_queue q, const oclblas__kref *k, const oclblas__arg *args, int nargs,
                               int dims, const size_t *global, const size_t *local, cl_uint num_wait,
                               const cl_event *wait, cl_event *event)
{
    for (int i = 0; i < nargs; ++i) {
        cl_int err = clSetKernelArg(k->kernel, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            return (oclblas_status)err;
    }
    return (oclblas_status)clEnqueueNDRangeKernel(q, k->kernel, (cl_uint)dims, NULL, global, local, num_wait,
                                                  num_wait ? wait : NULL, event);
}
