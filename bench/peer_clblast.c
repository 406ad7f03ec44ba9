/*
 * CLBlast as a peer: the same device, context and profiling queue as
 * oclblas, the same operands, timed the same way.
 */
#include "peers.h"

#ifdef OCLBLAS_BENCH_CLBLAST
#include <clblast_c.h>

#include <string.h>

typedef struct {
    const bench_cl *cl;
    int gemm;
    const bench_problem *p;
    cl_mem a, b, c;
} call_ctx;

static int call(void *v, cl_event *ev)
{
    call_ctx *x = v;
    const bench_problem *p = x->p;
    cl_command_queue q = x->cl->queue;
    const CLBlastLayout layout = p->col_major ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
    const CLBlastTranspose ta = p->trans_a ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose tb = p->trans_b ? CLBlastTransposeYes : CLBlastTransposeNo;
    CLBlastStatusCode st;
    if (x->gemm) {
        const size_t ar = p->trans_a ? p->k : p->m, ac = p->trans_a ? p->m : p->k;
        const size_t br = p->trans_b ? p->n : p->k, bc = p->trans_b ? p->k : p->n;
        st = CLBlastSgemm(layout, ta, tb, p->m, p->n, p->k, p->alpha, x->a, 0, p->col_major ? ar : ac, x->b, 0,
                          p->col_major ? br : bc, p->beta, x->c, 0, p->col_major ? p->m : p->n, &q, ev);
    } else {
        st = CLBlastSgemv(layout, ta, p->m, p->n, p->alpha, x->a, 0, p->col_major ? p->m : p->n, x->b, 0, 1, p->beta,
                          x->c, 0, 1, &q, ev);
    }
    return st == CLBlastSuccess ? 0 : -1;
}

int clblast_available(void) { return 1; }
const char *clblast_version(void) { return "CLBlast"; }

int clblast_run(const bench_cl *cl, int gemm, const bench_problem *p, const bench_data *d, int reps, bench_time *t)
{
    size_t na, nb, nc;
    if (gemm) {
        na = p->m * p->k;
        nb = p->k * p->n;
        nc = p->m * p->n;
    } else {
        na = p->m * p->n;
        nb = p->trans_a ? p->m : p->n;
        nc = p->trans_a ? p->n : p->m;
    }
    cl_int err;
    call_ctx x = {cl, gemm, p, NULL, NULL, NULL};
    x.a = clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * 4, (void *)d->a, &err);
    if (err == CL_SUCCESS)
        x.b = clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nb * 4, (void *)d->b, &err);
    if (err == CL_SUCCESS)
        x.c = clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nc * 4, (void *)d->c, &err);
    int rc = err == CL_SUCCESS ? bench_time_cl(cl, call, &x, reps, t) : -1;
    if (rc == 0 && d->out) {
        /* The result of one call from the original C. */
        clEnqueueWriteBuffer(cl->queue, x.c, CL_TRUE, 0, nc * 4, d->c, 0, NULL, NULL);
        cl_event ev = NULL;
        rc = call(&x, &ev);
        if (ev)
            clReleaseEvent(ev);
        if (rc == 0)
            rc = clEnqueueReadBuffer(cl->queue, x.c, CL_TRUE, 0, nc * 4, d->out, 0, NULL, NULL) == CL_SUCCESS ? 0 : -1;
    }
    if (x.a)
        clReleaseMemObject(x.a);
    if (x.b)
        clReleaseMemObject(x.b);
    if (x.c)
        clReleaseMemObject(x.c);
    return rc;
}

int clblast_sgemm_once(cl_command_queue q, size_t s, cl_mem a, cl_mem b, cl_mem c)
{
    return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, s, s, s, 1.0f, a, 0, s, b, 0, s,
                        0.0f, c, 0, s, &q, NULL) == CLBlastSuccess
               ? 0
               : -1;
}

#else

int clblast_sgemm_once(cl_command_queue q, size_t s, cl_mem a, cl_mem b, cl_mem c)
{
    (void)q, (void)s, (void)a, (void)b, (void)c;
    return -1;
}
int clblast_available(void) { return 0; }
const char *clblast_version(void) { return "absent"; }
int clblast_run(const bench_cl *cl, int gemm, const bench_problem *p, const bench_data *d, int reps, bench_time *t)
{
    (void)cl, (void)gemm, (void)p, (void)d, (void)reps, (void)t;
    return -1;
}

#endif
