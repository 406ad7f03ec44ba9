/*
 * The one place where a plan reads parameters: oclblas__devctx_params takes
 * the first class of the kernel whose rule the shape meets, else the set
 * for every shape; and the tuner's way of putting one set in force for
 * every shape.
 */
#include "plan/context.h"

static const oclblas__class_set *class_set(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape)
{
    if (!shape)
        return NULL;
    for (int i = 0; i < cx->num_classes[kernel]; ++i)
        if (oclblas__class_matches(&cx->classes[kernel][i].cls, shape))
            return &cx->classes[kernel][i];
    return NULL;
}

const oclblas__params *oclblas__devctx_params(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape,
                                              oclblas_status *st)
{
    *st = cx->status[kernel];
    if (*st != OCLBLAS_SUCCESS)
        return NULL;
    const oclblas__class_set *c = class_set(cx, kernel, shape);
    return c ? &c->params : &cx->params[kernel];
}

const char *oclblas__devctx_class(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape)
{
    const oclblas__class_set *c = cx->status[kernel] == OCLBLAS_SUCCESS ? class_set(cx, kernel, shape) : NULL;
    return c ? c->cls.name : NULL;
}

void oclblas__devctx_set(oclblas__devctx *cx, int kernel, const oclblas__params *p)
{
    cx->params[kernel] = *p;
    cx->rate[kernel] = 0;
    cx->along_k[kernel][0] = cx->along_k[kernel][1] = 0;
    cx->peeled[kernel][0] = cx->peeled[kernel][1] = cx->peeled[kernel][2] = 0;
    cx->resident[kernel] = 0;
    cx->status[kernel] = OCLBLAS_SUCCESS;
    cx->num_classes[kernel] = 0;
}
