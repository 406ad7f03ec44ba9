/*
 * gemm_direct's descriptor (kernels/gemm_direct.cl): its parameters (tile
 * WGD, k-step KWGD, work-group shape MDIMCD NDIMCD, unroll KWID, local
 * padding PADA PADB), their rules, the sizes derived from them, its launch
 * geometry (one entry point per pair of transposes, a batch as the third
 * dimension).
 */
#include "kernels/gemm_direct.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

static const oclblas__param_def params[GD_COUNT] = {
    [GD_WGD] = {"WGD", 1, 256, 5, {8, 16, 32, 64, 128}},
    [GD_KWGD] = {"KWGD", 1, 256, 4, {4, 8, 16, 32}},
    [GD_MDIMCD] = {"MDIMCD", 1, 1024, 6, {1, 2, 4, 8, 16, 32}},
    [GD_NDIMCD] = {"NDIMCD", 1, 1024, 6, {1, 2, 4, 8, 16, 32}},
    [GD_KWID] = {"KWID", 1, 256, 4, {1, 2, 4, 8}},
    [GD_PADA] = {"PADA", 0, 8, 2, {0, 1}},
    [GD_PADB] = {"PADB", 0, 8, 2, {0, 1}},
};

static int wgs(const int *v) { return v[GD_MDIMCD] * v[GD_NDIMCD]; }

static const char *tile(const int *v, const oclblas__limits *l)
{
    return v[GD_WGD] % v[GD_MDIMCD] || v[GD_WGD] % v[GD_NDIMCD] ? "WGD must be a multiple of MDIMCD and NDIMCD"
                                                                 : NULL;
}
static const char *unroll(const int *v, const oclblas__limits *l)
{
    return v[GD_KWGD] % v[GD_KWID] ? "KWGD must be a multiple of KWID" : NULL;
}
/* Every work-item loads the same number of elements of each tile. */
static const char *loads(const int *v, const oclblas__limits *l)
{
    return (v[GD_WGD] * v[GD_KWGD]) % wgs(v) ? "WGD * KWGD must be a multiple of MDIMCD * NDIMCD" : NULL;
}
static const char *registers(const int *v, const oclblas__limits *l)
{
    return (v[GD_WGD] / v[GD_MDIMCD]) * (v[GD_WGD] / v[GD_NDIMCD]) > 256
               ? "(WGD / MDIMCD) * (WGD / NDIMCD) must be at most 256"
               : NULL;
}
static const char *dev_wgs(const int *v, const oclblas__limits *l)
{
    return (size_t)wgs(v) > l->max_wg_size ? "work-group larger than the device allows" : NULL;
}
static const char *dev_dims(const int *v, const oclblas__limits *l)
{
    return (size_t)v[GD_MDIMCD] > l->max_item[0] || (size_t)v[GD_NDIMCD] > l->max_item[1]
               ? "work-group dimension larger than the device allows"
               : NULL;
}
static const char *dev_local(const int *v, const oclblas__limits *l)
{
    const unsigned long long bytes = sizeof(float) * (unsigned long long)v[GD_KWGD] *
                                     (2ull * v[GD_WGD] + (unsigned long long)(v[GD_PADA] + v[GD_PADB]));
    return bytes > l->local_mem ? "more local memory than the device has" : NULL;
}

#define P OCLBLAS__P
static const oclblas__rule rules[] = {
    {P(GD_WGD) | P(GD_MDIMCD) | P(GD_NDIMCD), 0, tile},
    {P(GD_KWGD) | P(GD_KWID), 0, unroll},
    {P(GD_WGD) | P(GD_KWGD) | P(GD_MDIMCD) | P(GD_NDIMCD), 0, loads},
    {P(GD_WGD) | P(GD_MDIMCD) | P(GD_NDIMCD), 0, registers},
    {P(GD_MDIMCD) | P(GD_NDIMCD), 1, dev_wgs},
    {P(GD_MDIMCD) | P(GD_NDIMCD), 1, dev_dims},
    {P(GD_KWGD) | P(GD_WGD) | P(GD_PADA) | P(GD_PADB), 1, dev_local},
};
#undef P

static int derive(const int *v, oclblas__derived *out)
{
    out[0] = (oclblas__derived){"WGSD", wgs(v)};
    out[1] = (oclblas__derived){"MWID", v[GD_WGD] / v[GD_MDIMCD]}; /* m elements per work-item */
    out[2] = (oclblas__derived){"NWID", v[GD_WGD] / v[GD_NDIMCD]};
    out[3] = (oclblas__derived){"LDAL", v[GD_WGD] + v[GD_PADA]}; /* local rows of A and B */
    out[4] = (oclblas__derived){"LDBL", v[GD_WGD] + v[GD_PADB]};
    out[5] = (oclblas__derived){"LOADS_PER_ITEM", v[GD_WGD] * v[GD_KWGD] / wgs(v)};
    return 6;
}

void oclblas__gemm_direct_step(const oclblas__params *p, const oclblas__gemm_direct_args *a,
                               const oclblas__batch *batch, oclblas__step *s)
{
    static const char *const names[2][2] = {{"gemm_direct_nn", "gemm_direct_nt"},
                                            {"gemm_direct_tn", "gemm_direct_tt"}};
    const oclblas__batch single = {0}; /* a single product: strides 0, two dimensions */
    if (!batch)
        batch = &single;
    const int *v = p->v;
    const size_t wgd = (size_t)v[GD_WGD];
    *s = (oclblas__step){.kernel = OCLBLAS__K_GEMM_DIRECT, .params = *p};
    s->entry = names[a->trans_a != 0][a->trans_b != 0];
    s->geo.dims = 2;
    s->geo.local[0] = (size_t)v[GD_MDIMCD];
    s->geo.local[1] = (size_t)v[GD_NDIMCD];
    s->geo.global[0] = ceil_div(a->m, wgd) * s->geo.local[0];
    s->geo.global[1] = ceil_div(a->n, wgd) * s->geo.local[1];
    oclblas__step_int(s, (int)a->m);
    oclblas__step_int(s, (int)a->n);
    oclblas__step_int(s, (int)a->k);
    oclblas__step_float(s, a->alpha);
    oclblas__step_float(s, a->beta);
    oclblas__step_buf(s, a->a);
    oclblas__step_int(s, (int)a->a_off);
    oclblas__step_int(s, (int)a->a_ld);
    oclblas__step_buf(s, a->b);
    oclblas__step_int(s, (int)a->b_off);
    oclblas__step_int(s, (int)a->b_ld);
    oclblas__step_buf(s, a->c);
    oclblas__step_int(s, (int)a->c_off);
    oclblas__step_int(s, (int)a->c_ld);
    oclblas__step_int(s, (int)batch->stride_a);
    oclblas__step_int(s, (int)batch->stride_b);
    oclblas__step_int(s, (int)batch->stride_c);
    oclblas__step_batch(s, batch->count);
}

const oclblas__kernel_desc oclblas__desc_gemm_direct = {
    .name = "gemm_direct",
    .source = oclblas__source_gemm_direct,
    .num_params = GD_COUNT,
    .params = params,
    .num_rules = (int)(sizeof rules / sizeof rules[0]),
    .rules = rules,
    .derive = derive,
};
