/*
 * gemv_t's descriptor (kernels/gemv_t.cl, y = A^T x, each output a dot
 * product along the contiguous direction of A): its parameters (work-group
 * size WGS, the most work-items per column TPC, vector width VW, unroll
 * UNR), their rules, the team a call's columns get, and its launch
 * geometry. TPC goes down to 1, a CPU's choice (a work-item streams its
 * column, nothing to reduce).
 */
#include "kernels/gemv_t.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

static const oclblas__param_def params[GT_COUNT] = {
    [GT_WGS] = {"WGS", 1, 1024, 6, {16, 32, 64, 128, 256, 512}},
    [GT_TPC] = {"TPC", 1, 1024, 8, {1, 2, 4, 8, 16, 32, 64, 128}},
    [GT_VW] = {"VW", 1, 16, 5, {1, 2, 4, 8, 16}},
    [GT_UNR] = {"UNR", 1, 32, 4, {1, 2, 4, 8}},
};

static const char *vw(const int *v, const oclblas__limits *l)
{
    const int w = v[GT_VW];
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 ? NULL : "VW must be 1, 2, 4, 8 or 16";
}
/* UNR sums of VW, and as many loaded vectors of A and x, live in registers. */
static const char *registers(const int *v, const oclblas__limits *l)
{
    return v[GT_UNR] * v[GT_VW] > 64 ? "UNR * VW must be at most 64" : NULL;
}
/* The work-items of one column reduce through a tree: a power of two. */
static const char *tpc(const int *v, const oclblas__limits *l)
{
    return v[GT_TPC] & (v[GT_TPC] - 1) ? "TPC must be a power of two" : NULL;
}
static const char *wgs(const int *v, const oclblas__limits *l)
{
    return v[GT_WGS] % v[GT_TPC] ? "WGS must be a multiple of TPC" : NULL;
}
static const char *dev_wgs(const int *v, const oclblas__limits *l)
{
    return (size_t)v[GT_WGS] > l->max_wg_size ? "work-group larger than the device allows" : NULL;
}
static const char *dev_dims(const int *v, const oclblas__limits *l)
{
    return (size_t)v[GT_WGS] > l->max_item[0] ? "work-group dimension larger than the device allows" : NULL;
}
static const char *dev_local(const int *v, const oclblas__limits *l)
{
    return sizeof(float) * (unsigned long long)v[GT_WGS] > l->local_mem ? "more local memory than the device has"
                                                                           : NULL;
}

static const oclblas__rule rules[] = {
    {OCLBLAS__P(GT_VW), 0, vw},
    {OCLBLAS__P(GT_TPC), 0, tpc},
    {OCLBLAS__P(GT_UNR) | OCLBLAS__P(GT_VW), 0, registers},
    {OCLBLAS__P(GT_WGS) | OCLBLAS__P(GT_TPC), 0, wgs},
    {OCLBLAS__P(GT_WGS), 1, dev_wgs},
    {OCLBLAS__P(GT_WGS), 1, dev_dims},
    {OCLBLAS__P(GT_WGS), 1, dev_local},
};

/* TPC work-items read a long column UNR vectors of VW apart each step; a
 * column shorter than that step gets the smallest team (a power of two)
 * whose one step covers it, so that no work-item idles and the work-group
 * takes more columns instead. */
size_t oclblas__gemv_t_team(const oclblas__params *p, size_t rows)
{
    const size_t tpc = (size_t)p->v[GT_TPC];
    const size_t per_item = (size_t)p->v[GT_VW] * (size_t)p->v[GT_UNR];
    size_t team = 1;
    while (team < tpc && team * per_item < rows)
        team *= 2;
    return team;
}

static int derive(const int *v, oclblas__derived *out)
{
    out[0] = (oclblas__derived){"FINISH", v[GT_FINISH]};
    return 1;
}

/* The first program, and on NVIDIA (which reports a compute capability)
 * the one that finishes a split in the launch. */
static int programs(const oclblas__params *p, const oclblas__limits *lim, oclblas__params *out)
{
    out[0] = out[1] = *p;
    out[0].v[GT_FINISH] = 0;
    out[1].v[GT_FINISH] = 1;
    return lim->nv_compute_capability > 0 ? 2 : 1;
}

/* A work-group per WGS / team columns, a split of the rows per chunk, a problem of a batch per third index. */
void oclblas__gemv_t_step(const oclblas__params *p, const oclblas__gemv_args *a, oclblas__step *s)
{
    *s = (oclblas__step){.kernel = OCLBLAS__K_GEMV_T, .entry = "gemv_t", .params = *p};
    s->params.v[GT_FINISH] = a->finish;
    s->geo.dims = 2;
    s->geo.local[0] = (size_t)p->v[GT_WGS];
    s->geo.local[1] = 1;
    s->geo.global[0] = ceil_div(a->cols, (size_t)p->v[GT_WGS] / a->team) * s->geo.local[0];
    s->geo.global[1] = ceil_div(a->rows, a->chunk);
    oclblas__step_batch(s, a->batch.count);
    oclblas__gemv_args_put(a, s);
}

const oclblas__kernel_desc oclblas__desc_gemv_t = {
    .name = "gemv_t",
    .source = oclblas__source_gemv_t,
    .num_params = GT_COUNT,
    .params = params,
    .num_rules = (int)(sizeof rules / sizeof rules[0]),
    .rules = rules,
    .derive = derive,
    .programs = programs,
};
