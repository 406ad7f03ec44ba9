/*
 * The helpers' descriptor (kernels/helpers.cl): the parameters of the pad
 * and transpose passes of the gemm_fast plan (whose work-group shapes also
 * serve scale_matrix, sum_slices and gemv_reduce), their rules, the sizes
 * derived from them, and each entry point's launch geometry.
 */
#include "kernels/helpers.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t round_up(size_t x, size_t m) { return ceil_div(x, m) * m; }

static const oclblas__param_def params[HP_COUNT] = {
    [HP_PAD_DIMX] = {"PAD_DIMX", 1, 1024, 4, {8, 16, 32, 64}},
    [HP_PAD_DIMY] = {"PAD_DIMY", 1, 1024, 4, {1, 2, 4, 8}},
    [HP_PAD_WPTX] = {"PAD_WPTX", 1, 16, 3, {1, 2, 4}},
    [HP_PAD_WPTY] = {"PAD_WPTY", 1, 16, 3, {1, 2, 4}},
    [HP_TRA_DIM] = {"TRA_DIM", 1, 64, 4, {4, 8, 16, 32}},
    [HP_TRA_WPT] = {"TRA_WPT", 1, 16, 4, {1, 2, 4, 8}},
    [HP_TRA_PAD] = {"TRA_PAD", 0, 8, 2, {0, 1}},
};

/* The derived sizes, which the geometry below uses too. */
static size_t pad_tile_x(const int *v) { return (size_t)v[HP_PAD_DIMX] * (size_t)v[HP_PAD_WPTX]; }
static size_t pad_tile_y(const int *v) { return (size_t)v[HP_PAD_DIMY] * (size_t)v[HP_PAD_WPTY]; }
static size_t tra_tile(const int *v) { return (size_t)v[HP_TRA_DIM] * (size_t)v[HP_TRA_WPT]; }
static size_t reduce_wgs(const int *v) { return (size_t)v[HP_PAD_DIMX] * (size_t)v[HP_PAD_DIMY]; }

/* Many splits of few outputs: a team of work-items adds each output's,
 * each member at least 8 of them, a work-group still reading 8
 * neighbouring outputs (a 32-byte memory sector). */
size_t oclblas__gemv_reduce_team(const oclblas__params *p, size_t splits)
{
    const size_t wgs = reduce_wgs(p->v);
    size_t team = 1;
    while (wgs % (2 * team) == 0 && wgs / (2 * team) >= 8 && 2 * team * 8 <= splits)
        team *= 2;
    return team;
}

static const char *pad_wgs(const int *v, const oclblas__limits *l)
{
    return reduce_wgs(v) > l->max_wg_size ? "work-group larger than the device allows" : NULL;
}
static const char *pad_dims(const int *v, const oclblas__limits *l)
{
    return (size_t)v[HP_PAD_DIMX] > l->max_item[0] || (size_t)v[HP_PAD_DIMY] > l->max_item[1]
               ? "work-group dimension larger than the device allows"
               : NULL;
}
/* gemv_reduce runs the same work-items in one dimension. */
static const char *reduce_dim(const int *v, const oclblas__limits *l)
{
    return reduce_wgs(v) > l->max_item[0] ? "gemv_reduce's work-group (PAD_DIMX * PAD_DIMY) larger than the "
                                            "device's first dimension allows"
                                          : NULL;
}
static const char *tra_wgs(const int *v, const oclblas__limits *l)
{
    return (size_t)v[HP_TRA_DIM] * (size_t)v[HP_TRA_DIM] > l->max_wg_size ? "work-group larger than the device allows"
                                                                            : NULL;
}
static const char *tra_dims(const int *v, const oclblas__limits *l)
{
    return (size_t)v[HP_TRA_DIM] > l->max_item[0] || (size_t)v[HP_TRA_DIM] > l->max_item[1]
               ? "work-group dimension larger than the device allows"
               : NULL;
}
static const char *tra_local(const int *v, const oclblas__limits *l)
{
    const unsigned long long t = tra_tile(v);
    return sizeof(float) * t * (t + (unsigned long long)v[HP_TRA_PAD]) > l->local_mem
               ? "more local memory than the device has"
               : NULL;
}

#define P OCLBLAS__P
static const oclblas__rule rules[] = {
    {P(HP_PAD_DIMX) | P(HP_PAD_DIMY), 1, pad_wgs},
    {P(HP_PAD_DIMX) | P(HP_PAD_DIMY), 1, pad_dims},
    {P(HP_PAD_DIMX) | P(HP_PAD_DIMY), 1, reduce_dim},
    {P(HP_TRA_DIM), 1, tra_wgs},
    {P(HP_TRA_DIM), 1, tra_dims},
    {P(HP_TRA_DIM) | P(HP_TRA_WPT) | P(HP_TRA_PAD), 1, tra_local},
};
#undef P

static int derive(const int *v, oclblas__derived *out)
{
    out[0] = (oclblas__derived){"PAD_TILEX", (int)pad_tile_x(v)};  /* rows a pad_copy work-group covers */
    out[1] = (oclblas__derived){"PAD_TILEY", (int)pad_tile_y(v)};
    out[2] = (oclblas__derived){"TRA_TILE", (int)tra_tile(v)};     /* pad_transpose's square local tile */
    out[3] = (oclblas__derived){"REDUCE_WGS", (int)reduce_wgs(v)}; /* gemv_reduce's 1-D work-group */
    return 4;
}

void oclblas__pad_step(const oclblas__params *p, const oclblas__pad_args *a, oclblas__step *s)
{
    const int *v = p->v;
    *s = (oclblas__step){.kernel = OCLBLAS__K_HELPERS, .params = *p};
    s->entry = a->transpose ? "pad_transpose" : "pad_copy";
    s->geo.dims = 2;
    if (a->transpose) {
        const size_t tile = tra_tile(v);
        s->geo.local[0] = s->geo.local[1] = (size_t)v[HP_TRA_DIM];
        s->geo.global[0] = ceil_div(a->dst_rows, tile) * s->geo.local[0];
        s->geo.global[1] = ceil_div(a->dst_cols, tile) * s->geo.local[1];
    } else {
        s->geo.local[0] = (size_t)v[HP_PAD_DIMX];
        s->geo.local[1] = (size_t)v[HP_PAD_DIMY];
        s->geo.global[0] = ceil_div(a->dst_rows, pad_tile_x(v)) * s->geo.local[0];
        s->geo.global[1] = ceil_div(a->dst_cols, pad_tile_y(v)) * s->geo.local[1];
    }
    oclblas__step_int(s, (int)a->rows);
    oclblas__step_int(s, (int)a->cols);
    oclblas__step_buf(s, a->src);
    oclblas__step_int(s, (int)a->src_off);
    oclblas__step_int(s, (int)a->src_ld);
    oclblas__step_int(s, (int)a->dst_rows);
    oclblas__step_int(s, (int)a->dst_cols);
    oclblas__step_buf(s, a->dst);
    oclblas__step_int(s, (int)a->dst_rows); /* the destination's leading dimension */
    oclblas__step_int(s, (int)a->src_stride);
    oclblas__step_int(s, (int)a->dst_stride);
    oclblas__step_batch(s, a->batch);
}

void oclblas__scale_step(const oclblas__params *p, const oclblas__scale_args *a, oclblas__step *s)
{
    const int *v = p->v;
    *s = (oclblas__step){.kernel = OCLBLAS__K_HELPERS, .entry = "scale_matrix", .params = *p};
    s->geo.dims = 2;
    s->geo.local[0] = (size_t)v[HP_PAD_DIMX];
    s->geo.local[1] = (size_t)v[HP_PAD_DIMY];
    s->geo.global[0] = ceil_div(a->rows, pad_tile_x(v)) * s->geo.local[0];
    s->geo.global[1] = ceil_div(a->cols, pad_tile_y(v)) * s->geo.local[1];
    oclblas__step_int(s, (int)a->rows);
    oclblas__step_int(s, (int)a->cols);
    oclblas__step_float(s, a->beta);
    oclblas__step_buf(s, a->c);
    oclblas__step_int(s, (int)a->c_off);
    oclblas__step_int(s, (int)a->c_ld);
    oclblas__step_int(s, (int)a->c_stride);
    oclblas__step_batch(s, a->batch);
}

void oclblas__sum_slices_step(const oclblas__params *p, const oclblas__sum_slices_args *a, oclblas__step *s)
{
    const int *v = p->v;
    *s = (oclblas__step){.kernel = OCLBLAS__K_HELPERS, .entry = "sum_slices", .params = *p};
    s->geo.dims = 2;
    s->geo.local[0] = (size_t)v[HP_PAD_DIMX];
    s->geo.local[1] = (size_t)v[HP_PAD_DIMY];
    s->geo.global[0] = round_up(a->rows, s->geo.local[0]);
    s->geo.global[1] = round_up(a->cols, s->geo.local[1]);
    oclblas__step_int(s, (int)a->rows);
    oclblas__step_int(s, (int)a->cols);
    oclblas__step_int(s, (int)a->slices);
    oclblas__step_buf(s, a->part);
    oclblas__step_int(s, (int)a->part_ld);
    oclblas__step_int(s, (int)a->part_stride);
    oclblas__step_float(s, a->alpha);
    oclblas__step_float(s, a->beta);
    oclblas__step_buf(s, a->c);
    oclblas__step_int(s, (int)a->c_off);
    oclblas__step_int(s, (int)a->c_ld);
}

void oclblas__gemv_reduce_step(const oclblas__params *p, const oclblas__gemv_reduce_args *a, oclblas__step *s)
{
    *s = (oclblas__step){.kernel = OCLBLAS__K_HELPERS, .entry = "gemv_reduce", .params = *p};
    s->geo.dims = 1;
    s->geo.local[0] = reduce_wgs(p->v);
    s->geo.global[0] = ceil_div(a->n, s->geo.local[0] / a->team) * s->geo.local[0];
    s->geo.local[1] = s->geo.global[1] = 1; /* the batch, if any, is the third dimension */
    oclblas__step_batch(s, a->count);
    oclblas__step_int(s, (int)a->n);
    oclblas__step_int(s, (int)a->splits);
    oclblas__step_buf(s, a->partial);
    oclblas__step_float(s, a->alpha);
    oclblas__step_float(s, a->beta);
    oclblas__step_buf(s, a->y);
    oclblas__step_int(s, (int)a->y_off);
    oclblas__step_int(s, (int)a->incy);
    oclblas__step_int(s, (int)a->y_stride);
    oclblas__step_int(s, (int)a->team);
}

const oclblas__kernel_desc oclblas__desc_helpers = {
    .name = "helpers",
    .source = oclblas__source_helpers,
    .num_params = HP_COUNT,
    .params = params,
    .num_rules = (int)(sizeof rules / sizeof rules[0]),
    .rules = rules,
    .derive = derive,
};
