/*
 * CLBlast as a peer: libclblast loaded at run time, on the same device,
 * context and profiling queue as oclblas, the same operands, timed the
 * same way (timing.h); a batch as CLBlastSgemmStridedBatched.
 */
#include "peers.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

/* CLBlast's C API as far as the bench calls it: its layout and transpose
 * values are those of CBLAS, and 0 is success. */
enum { CLBLAST_ROW_MAJOR = 101, CLBLAST_COL_MAJOR = 102, CLBLAST_NO_TRANS = 111, CLBLAST_TRANS = 112 };
typedef int (*clblast_sgemm_fn)(int layout, int ta, int tb, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                                size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c,
                                size_t c_off, size_t ldc, cl_command_queue *q, cl_event *ev);
typedef int (*clblast_sgemv_fn)(int layout, int ta, size_t m, size_t n, float alpha, cl_mem a, size_t a_off,
                                size_t lda, cl_mem x, size_t x_off, size_t incx, float beta, cl_mem y, size_t y_off,
                                size_t incy, cl_command_queue *q, cl_event *ev);

typedef int (*clblast_sgemm_strided_fn)(int layout, int ta, int tb, size_t m, size_t n, size_t k, float alpha,
                                        cl_mem a, size_t a_off, size_t lda, size_t a_stride, cl_mem b, size_t b_off,
                                        size_t ldb, size_t b_stride, float beta, cl_mem c, size_t c_off, size_t ldc,
                                        size_t c_stride, size_t batch, cl_command_queue *q, cl_event *ev);

static struct {
    int state; /* 0 not tried, 1 loaded, -1 absent */
    clblast_sgemm_fn sgemm;
    clblast_sgemv_fn sgemv;
    clblast_sgemm_strided_fn sgemm_strided; /* NULL in a CLBlast before 1.5 */
    char note[600];
} lib;

int clblast_available(const char **note)
{
    if (lib.state == 0) {
        static const char *const names[] = {"libclblast.so.1", "libclblast.so", NULL};
        char found[512], missing[64];
        void *h = bench_load(names, NULL, found, sizeof found);
        const bench_symbol symbols[] = {{"CLBlastSgemm", (void **)&lib.sgemm}, {"CLBlastSgemv", (void **)&lib.sgemv},
                                        {NULL, NULL}};
        lib.state = -1;
        if (!h)
            snprintf(lib.note, sizeof lib.note, "CLBlast not found (%s)", found);
        else if (bench_symbols(h, symbols, missing, sizeof missing) != 0)
            snprintf(lib.note, sizeof lib.note, "%s has no %s", found, missing);
        else {
            snprintf(lib.note, sizeof lib.note, "%s", found);
            lib.sgemm_strided = (clblast_sgemm_strided_fn)(uintptr_t)dlsym(h, "CLBlastSgemmStridedBatched");
            lib.state = 1;
        }
    }
    if (note)
        *note = lib.note;
    return lib.state == 1;
}

typedef struct {
    const bench_cl *cl;
    const bench_problem *p;
    cl_mem a, b, c;
} call_ctx;

static int call(void *v, cl_event *ev)
{
    call_ctx *x = v;
    const bench_problem *p = x->p;
    cl_command_queue q = x->cl->queue;
    const int layout = p->col_major ? CLBLAST_COL_MAJOR : CLBLAST_ROW_MAJOR;
    const int ta = p->trans_a ? CLBLAST_TRANS : CLBLAST_NO_TRANS, tb = p->trans_b ? CLBLAST_TRANS : CLBLAST_NO_TRANS;
    if (p->batch > 1) {
        size_t na, nb, nc;
        bench_sizes(p, &na, &nb, &nc);
        return lib.sgemm_strided(layout, ta, tb, p->m, p->n, p->k, p->alpha, x->a, 0, bench_lda(p), na, x->b, 0,
                                 bench_ldb(p), nb, p->beta, x->c, 0, bench_ldc(p), nc, p->batch, &q, ev) == 0
                   ? 0
                   : -1;
    }
    const int st = p->gemm ? lib.sgemm(layout, ta, tb, p->m, p->n, p->k, p->alpha, x->a, 0, bench_lda(p), x->b, 0,
                                       bench_ldb(p), p->beta, x->c, 0, bench_ldc(p), &q, ev)
                           : lib.sgemv(layout, ta, p->m, p->n, p->alpha, x->a, 0, bench_lda(p), x->b, 0, 1, p->beta,
                                       x->c, 0, 1, &q, ev);
    return st == 0 ? 0 : -1;
}

int clblast_run(const bench_cl *cl, const bench_problem *p, const bench_data *d, int reps, bench_time *t)
{
    if (!clblast_available(NULL) || (p->batch > 1 && (!p->gemm || !lib.sgemm_strided)))
        return -1;
    size_t nc;
    call_ctx x = {cl, p, NULL, NULL, NULL};
    const cl_int err = bench_cl_operands(cl, p, d, &x.a, &x.b, &x.c, &nc);
    int rc = err == CL_SUCCESS ? bench_time_cl(cl, call, &x, reps, t) : -1;
    if (rc == 0 && d->out) {
        /* The result of one call from the original C. */
        clEnqueueWriteBuffer(cl->queue, x.c, CL_TRUE, 0, nc * 4, d->c, 0, NULL, NULL);
        rc = bench_cl_result(cl, call, &x, x.c, nc, d->out);
    }
    bench_cl_release(x.a, x.b, x.c);
    return rc;
}

int clblast_sgemm_once(cl_command_queue q, size_t s, cl_mem a, cl_mem b, cl_mem c)
{
    if (!clblast_available(NULL))
        return -1;
    return lib.sgemm(CLBLAST_ROW_MAJOR, CLBLAST_NO_TRANS, CLBLAST_NO_TRANS, s, s, s, 1.0f, a, 0, s, b, 0, s, 0.0f, c, 0,
                     s, &q, NULL) == 0
               ? 0
               : -1;
}
