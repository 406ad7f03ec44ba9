/*
 * gemv_n's descriptor (kernels/gemv_n.cl, y = A x along the contiguous
 * direction of A): its parameters (work-group size WGS, vectors per
 * work-item WPT, vector width VW, unroll UNR, interleaved or consecutive
 * vectors or a panel of whole columns STRM), their rules, the rows a
 * work-group covers (derived, passed as -D), and its launch geometry. The
 * candidates span both kinds of device: small work-groups of consecutive
 * vectors for CPUs (whose OpenCL runs a work-group's items one after the
 * other), large interleaved ones for GPUs.
 */
#include "kernels/gemv_n.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

static const oclblas__param_def params[GN_COUNT] = {
    [GN_WGS] = {"WGS", 1, 1024, 8, {4, 8, 16, 32, 64, 128, 256, 512}},
    [GN_WPT] = {"WPT", 1, 64, 6, {1, 2, 4, 8, 16, 32}},
    [GN_VW] = {"VW", 1, 16, 5, {1, 2, 4, 8, 16}},
    [GN_UNR] = {"UNR", 1, 32, 4, {1, 2, 4, 8}},
    [GN_STRM] = {"STRM", 0, 2, 3, {0, 1, 2}},
};

static const char *vw(const int *v, const oclblas__limits *l)
{
    const int w = v[GN_VW];
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 ? NULL : "VW must be 1, 2, 4, 8 or 16";
}
/* The accumulators live in registers (a GPU: a few dozen of them), or in
 * a CPU's first-level cache, where a work-item's long column of rows reads
 * whole pages (512 rows ran 2.5 times as fast as 32 on PoCL at 3001 x
 * 2999); beyond a few thousand they would not stay there. */
static const char *registers(const int *v, const oclblas__limits *l)
{
    return v[GN_WPT] * v[GN_VW] > 1024 ? "WPT * VW must be at most 1024" : NULL;
}
static const char *dev_wgs(const int *v, const oclblas__limits *l)
{
    return (size_t)v[GN_WGS] > l->max_wg_size ? "work-group larger than the device allows" : NULL;
}
static const char *dev_dims(const int *v, const oclblas__limits *l)
{
    return (size_t)v[GN_WGS] > l->max_item[0] ? "work-group dimension larger than the device allows" : NULL;
}

/* A panel (STRM 2) is one work-item's: the other shapes would repeat it. */
static const char *panel(const int *v, const oclblas__limits *l)
{
    return v[GN_STRM] == 2 && (v[GN_WGS] != 1 || v[GN_WPT] != 1) ? "STRM = 2 takes WGS = 1 and WPT = 1" : NULL;
}

/* The teams add their sums in local memory, a vector of rows per work-item. */
static const char *dev_local(const int *v, const oclblas__limits *l)
{
    return v[GN_STRM] != 2 && sizeof(float) * (unsigned long long)v[GN_WGS] * (unsigned long long)v[GN_VW] > l->local_mem
               ? "more local memory than the device has"
               : NULL;
}

static const oclblas__rule rules[] = {
    {OCLBLAS__P(GN_VW), 0, vw},
    {OCLBLAS__P(GN_STRM) | OCLBLAS__P(GN_WGS) | OCLBLAS__P(GN_WPT), 0, panel},
    {OCLBLAS__P(GN_WPT) | OCLBLAS__P(GN_VW), 0, registers},
    {OCLBLAS__P(GN_WGS), 1, dev_wgs},
    {OCLBLAS__P(GN_WGS), 1, dev_dims},
    {OCLBLAS__P(GN_WGS) | OCLBLAS__P(GN_VW) | OCLBLAS__P(GN_STRM), 1, dev_local},
};

size_t oclblas__gemv_n_rows_per_group(const oclblas__params *p)
{
    return p->v[GN_STRM] == 2 ? 0 : (size_t)p->v[GN_WGS] * (size_t)p->v[GN_VW] * (size_t)p->v[GN_WPT];
}

/* A team's work-items side by side along the rows: at least a warp's 32,
 * so that the loads of neighbouring work-items stay whole cache lines. */
#define MIN_ROW_ITEMS 32

size_t oclblas__gemv_n_team(const oclblas__params *p, size_t rows, size_t cols, size_t wanted)
{
    if (p->v[GN_STRM] != 1)
        return 1;
    const size_t wgs = (size_t)p->v[GN_WGS], unr = (size_t)p->v[GN_UNR];
    const size_t items = ceil_div(rows, (size_t)p->v[GN_VW] * (size_t)p->v[GN_WPT]); /* that the rows need */
    size_t team = 1;
    while (wgs % (2 * team) == 0 && 2 * team * unr <= cols) {
        const size_t row_items = wgs / team;
        const int idle = items <= row_items / 2;
        const int few = ceil_div(items, row_items) < wanted && row_items / 2 >= MIN_ROW_ITEMS;
        if (!idle && !few)
            break;
        team *= 2;
    }
    return team;
}

static int derive(const int *v, oclblas__derived *out)
{
    out[0] = (oclblas__derived){"ROWS_PER_GROUP", v[GN_WGS] * v[GN_VW] * v[GN_WPT]};
    out[1] = (oclblas__derived){"FINISH", v[GN_FINISH]};
    return 2;
}

/* The first program, and where the plan may finish a split in the launch
 * (NVIDIA, which reports a compute capability; the interleaved layout)
 * the one that does. */
static int programs(const oclblas__params *p, const oclblas__limits *lim, oclblas__params *out)
{
    out[0] = out[1] = *p;
    out[0].v[GN_FINISH] = 0;
    out[1].v[GN_FINISH] = 1;
    return lim->nv_compute_capability > 0 && p->v[GN_STRM] == 1 ? 2 : 1;
}

void oclblas__gemv_args_put(const oclblas__gemv_args *a, oclblas__step *s)
{
    oclblas__step_int(s, (int)a->rows);
    oclblas__step_int(s, (int)a->cols);
    oclblas__step_float(s, a->alpha);
    oclblas__step_float(s, a->beta);
    oclblas__step_buf(s, a->a);
    oclblas__step_int(s, (int)a->a_off);
    oclblas__step_int(s, (int)a->a_ld);
    oclblas__step_buf(s, a->x);
    oclblas__step_int(s, (int)a->x_off);
    oclblas__step_int(s, (int)a->incx);
    oclblas__step_buf(s, a->y);
    oclblas__step_int(s, (int)a->y_off);
    oclblas__step_int(s, (int)a->incy);
    oclblas__step_int(s, (int)a->chunk);
    oclblas__step_buf(s, a->partial);
    oclblas__step_int(s, a->vec);
    oclblas__step_int(s, (int)a->batch.stride_a);
    oclblas__step_int(s, (int)a->batch.stride_b);
    oclblas__step_int(s, (int)a->batch.stride_c);
    oclblas__step_int(s, (int)a->team);
    oclblas__step_buf(s, a->arrivals);
}

/* A work-group per ROWS_PER_GROUP / team rows (a panel: one for every row), a split of the columns per
 * chunk, a problem of a batch per third index. */
void oclblas__gemv_n_step(const oclblas__params *p, const oclblas__gemv_args *a, oclblas__step *s)
{
    *s = (oclblas__step){.kernel = OCLBLAS__K_GEMV_N, .entry = "gemv_n", .params = *p};
    s->params.v[GN_FINISH] = a->finish;
    s->geo.dims = 2;
    s->geo.local[0] = (size_t)p->v[GN_WGS];
    s->geo.local[1] = 1;
    const size_t rpg = oclblas__gemv_n_rows_per_group(p) / a->team;
    s->geo.global[0] = (rpg ? ceil_div(a->rows, rpg) : 1) * s->geo.local[0];
    s->geo.global[1] = ceil_div(a->cols, a->chunk);
    oclblas__step_batch(s, a->batch.count);
    oclblas__gemv_args_put(a, s);
}

const oclblas__kernel_desc oclblas__desc_gemv_n = {
    .name = "gemv_n",
    .source = oclblas__source_gemv_n,
    .num_params = GN_COUNT,
    .params = params,
    .num_rules = (int)(sizeof rules / sizeof rules[0]),
    .rules = rules,
    .derive = derive,
    .programs = programs,
};
