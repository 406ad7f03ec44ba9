/*
 * A step's arguments as values, and its launch: the arguments set on the
 * kernel object (buffer roles resolved to the call's buffers) and the
 * NDRange enqueued with the geometry the descriptor gave it.
 */
#include "internal.h"

static oclblas__arg_value *next_arg(oclblas__step *s)
{
    /* The descriptors' step functions set at most OCLBLAS__MAX_ARGS. */
    return &s->args[s->num_args < OCLBLAS__MAX_ARGS ? s->num_args++ : OCLBLAS__MAX_ARGS - 1];
}

void oclblas__step_int(oclblas__step *s, int v)
{
    oclblas__arg_value *a = next_arg(s);
    a->kind = OCLBLAS__ARG_INT;
    a->u.i = v;
}

void oclblas__step_float(oclblas__step *s, float v)
{
    oclblas__arg_value *a = next_arg(s);
    a->kind = OCLBLAS__ARG_FLOAT;
    a->u.f = v;
}

void oclblas__step_buf(oclblas__step *s, oclblas__buf b)
{
    oclblas__arg_value *a = next_arg(s);
    a->kind = OCLBLAS__ARG_BUF;
    a->u.buf = b;
}

void oclblas__step_batch(oclblas__step *s, size_t count)
{
    if (count < 2)
        return;
    s->geo.dims = 3;
    s->geo.global[2] = count;
    s->geo.local[2] = 1;
}

oclblas_status oclblas__step_enqueue(cl_command_queue q, cl_kernel k, const oclblas__step *s,
                                     const cl_mem bufs[OCLBLAS__BUF_COUNT], cl_uint num_wait, const cl_event *wait,
                                     cl_event *event)
{
    for (int i = 0; i < s->num_args; ++i) {
        const oclblas__arg_value *a = &s->args[i];
        cl_int err;
        if (a->kind == OCLBLAS__ARG_INT) {
            const cl_int v = a->u.i;
            err = clSetKernelArg(k, (cl_uint)i, sizeof v, &v);
        } else if (a->kind == OCLBLAS__ARG_FLOAT) {
            const cl_float v = a->u.f;
            err = clSetKernelArg(k, (cl_uint)i, sizeof v, &v);
        } else {
            err = clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[a->u.buf]);
        }
        if (err != CL_SUCCESS)
            return (oclblas_status)err;
    }
    return (oclblas_status)clEnqueueNDRangeKernel(q, k, s->geo.dims, NULL, s->geo.global, s->geo.local, num_wait,
                                                  num_wait ? wait : NULL, event);
}
