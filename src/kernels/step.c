/*
 * A step's arguments as values, appended in the kernel's order by the
 * descriptors' step functions (the launch itself is runtime/launch.c).
 */
#include "kernels/step.h"

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
