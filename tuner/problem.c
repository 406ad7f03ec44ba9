/*
 * The problems the tuner runs, set up in one place for the kernels' benches
 * (measure.c), the routine values (routine.c), the check of the written
 * entry (main.c) and the tests: inputs from a seed, the expected outputs
 * from the host reference (ref.c) with their error bounds, device buffers
 * in the roles the plans use (A, B or x, C or y), and the checked run that
 * resets the outputs, runs a call, reads the outputs back and compares them.
 * The forms are the descriptors' (oclblas__form): column-major, leading
 * dimensions equal to the rows, offsets 0.
 */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t tune_problem_ld(const tune_problem *t, int role)
{
    const oclblas__tune_problem *p = &t->p;
    switch (t->form) {
    case OCLBLAS__FORM_GEMM:
        if (role == OCLBLAS__BUF_A)
            return t->trans_a ? p->k : p->m;
        if (role == OCLBLAS__BUF_B)
            return t->trans_b ? p->n : p->k;
        return p->m;
    case OCLBLAS__FORM_GEMV:
        return role == OCLBLAS__BUF_A ? p->m : 1;
    case OCLBLAS__FORM_COPY:
        return role == OCLBLAS__BUF_A ? p->m : p->rows;
    }
    return 1;
}

void tune_problem_free(tune_problem *t)
{
    for (int r = 0; r < 3; ++r) {
        free(t->host[r]);
        free(t->ref[r]);
        free(t->bound[r]);
        if (t->buf[r])
            clReleaseMemObject(t->buf[r]);
    }
    free(t->out);
    memset(t, 0, sizeof *t);
}

/* COPY's expected outputs: the source as it is into C, its transpose (the
 * same array read as n x m) into B, zeros around; copies are exact. */
static void copy_reference(tune_problem *t)
{
    const size_t m = t->p.m, n = t->p.n, rows = t->p.rows;
    for (size_t c = 0; c < t->p.cols; ++c)
        for (size_t r = 0; r < rows; ++r) {
            const int inside = r < m && c < n;
            t->ref[OCLBLAS__BUF_C][c * rows + r] = inside ? t->host[OCLBLAS__BUF_A][c * m + r] : 0.0f;
            t->ref[OCLBLAS__BUF_B][c * rows + r] = inside ? t->host[OCLBLAS__BUF_A][r * n + c] : 0.0f;
        }
}

int tune_problem_make(tune_problem *t, oclblas__form form, int trans_a, int trans_b, const oclblas__tune_problem *p,
                      uint32_t seed)
{
    memset(t, 0, sizeof *t);
    t->form = form;
    t->trans_a = trans_a;
    t->trans_b = trans_b;
    t->p = *p;
    const size_t m = p->m, n = p->n, k = p->k;
    int outputs[3] = {0, 0, 1}; /* C is always an output; COPY's B too */
    switch (form) {
    case OCLBLAS__FORM_GEMM:
        t->count[0] = m * k;
        t->count[1] = k * n;
        t->count[2] = m * n;
        break;
    case OCLBLAS__FORM_GEMV:
        t->count[0] = m * n;
        t->count[1] = trans_a ? m : n;
        t->count[2] = trans_a ? n : m;
        break;
    case OCLBLAS__FORM_COPY:
        t->count[0] = m * n;
        t->count[1] = t->count[2] = p->rows * p->cols;
        outputs[1] = 1;
        break;
    }
    size_t most = 0;
    for (int r = 0; r < 3; ++r) {
        t->host[r] = malloc((t->count[r] ? t->count[r] : 1) * sizeof(float));
        if (!t->host[r])
            return 0;
        if (outputs[r]) {
            t->ref[r] = malloc((t->count[r] ? t->count[r] : 1) * sizeof(float));
            t->bound[r] = calloc(t->count[r] ? t->count[r] : 1, sizeof(float));
            if (!t->ref[r] || !t->bound[r])
                return 0;
        }
        if (t->count[r] > most)
            most = t->count[r];
        oclblas__fill_uniform(t->host[r], t->count[r], &seed);
    }
    t->out = malloc((most ? most : 1) * sizeof(float));
    if (!t->out)
        return 0;
    switch (form) {
    case OCLBLAS__FORM_GEMM:
        return tune_ref_gemm(trans_a, trans_b, m, n, k, p->alpha, t->host[0], tune_problem_ld(t, OCLBLAS__BUF_A),
                             t->host[1], tune_problem_ld(t, OCLBLAS__BUF_B), p->beta, t->host[2], t->ref[2],
                             t->bound[2]);
    case OCLBLAS__FORM_GEMV:
        return tune_ref_gemv(trans_a, m, n, p->alpha, t->host[0], t->host[1], p->beta, t->host[2], t->ref[2],
                             t->bound[2]);
    case OCLBLAS__FORM_COPY:
        copy_reference(t);
        return 1;
    }
    return 0;
}

oclblas_status tune_problem_upload(tune_problem *t, cl_context ctx, unsigned generation)
{
    if (t->buf[2] && t->gen == generation)
        return OCLBLAS_SUCCESS;
    for (int r = 0; r < 3; ++r)
        if (t->buf[r]) {
            clReleaseMemObject(t->buf[r]);
            t->buf[r] = NULL;
        }
    cl_int e = CL_SUCCESS;
    for (int r = 0; r < 3 && e == CL_SUCCESS; ++r) {
        const int input = !t->ref[r]; /* outputs are set by each checked run */
        t->buf[r] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (input ? CL_MEM_COPY_HOST_PTR : 0),
                                   (t->count[r] ? t->count[r] : 1) * sizeof(float), input ? t->host[r] : NULL, &e);
    }
    if (e != CL_SUCCESS)
        return (oclblas_status)e;
    t->gen = generation;
    return OCLBLAS_SUCCESS;
}

int tune_problem_compare(const tune_problem *t, int role, const float *got, char *note, size_t len)
{
    return tune_compare(got, t->ref[role], t->bound[role], t->count[role], note, len);
}

oclblas_status tune_problem_check(tune_problem *t, cl_command_queue q, tune_run_fn run, void *ctx, int *ok, char *note,
                                  size_t len)
{
    oclblas_status st = OCLBLAS_SUCCESS;
    *ok = 1;
    for (int r = 0; r < 3 && st == OCLBLAS_SUCCESS; ++r) {
        if (!t->ref[r])
            continue;
        if (t->form == OCLBLAS__FORM_COPY) {
            /* NaN where nothing may be left unwritten. */
            const float nan = NAN;
            st = (oclblas_status)clEnqueueFillBuffer(q, t->buf[r], &nan, sizeof nan, 0, t->count[r] * sizeof(float),
                                                     0, NULL, NULL);
        } else {
            st = (oclblas_status)clEnqueueWriteBuffer(q, t->buf[r], CL_FALSE, 0, t->count[r] * sizeof(float),
                                                      t->host[r], 0, NULL, NULL);
        }
    }
    if (st == OCLBLAS_SUCCESS)
        st = run(ctx, t, q);
    for (int r = 0; r < 3 && st == OCLBLAS_SUCCESS && *ok; ++r) {
        if (!t->ref[r])
            continue;
        st = (oclblas_status)clEnqueueReadBuffer(q, t->buf[r], CL_TRUE, 0, t->count[r] * sizeof(float), t->out, 0,
                                                 NULL, NULL);
        if (st == OCLBLAS_SUCCESS)
            *ok = tune_problem_compare(t, r, t->out, note, len);
    }
    if (st != OCLBLAS_SUCCESS)
        clFinish(q);
    return st;
}
