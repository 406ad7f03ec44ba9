/*
 * gemm_fast's descriptor: its 14 parameters (work-group tile MWG NWG KWG,
 * work-group shape MDIMC NDIMC, loader shapes MDIMA NDIMB, unroll KWI,
 * vector widths VWM VWN, strided access STRM STRN, local memory for A and
 * B SA SB) with their ranges and the tuner's candidates, the rules that
 * make a set legal, the sizes derived from a set (passed as -D beside it:
 * kernels/gemm_fast.cl derives nothing itself), its launch geometry and
 * its tile, as the plan asks of a tiled kernel (kernels/tiled.h): which
 * operands it can read in place stored with k contiguous as well, and
 * that it reads m, n and k that are not whole tiles (the last in its
 * second program, peeled).
 */
#include "kernels/gemm_fast.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

static const oclblas__param_def params[GF_COUNT] = {
    [GF_MWG] = {"MWG", 1, 512, 6, {8, 16, 32, 64, 128, 256}, 'm'},
    [GF_NWG] = {"NWG", 1, 512, 6, {8, 16, 32, 64, 128, 256}, 'n'},
    [GF_KWG] = {"KWG", 1, 256, 4, {8, 16, 32, 64}, 'k'},
    [GF_MDIMC] = {"MDIMC", 1, 1024, 4, {8, 16, 32, 64}},
    [GF_NDIMC] = {"NDIMC", 1, 1024, 4, {8, 16, 32, 64}},
    [GF_MDIMA] = {"MDIMA", 1, 1024, 4, {8, 16, 32, 64}},
    [GF_NDIMB] = {"NDIMB", 1, 1024, 4, {8, 16, 32, 64}},
    [GF_KWI] = {"KWI", 1, 256, 4, {1, 2, 4, 8}},
    [GF_VWM] = {"VWM", 1, 8, 4, {1, 2, 4, 8}},
    [GF_VWN] = {"VWN", 1, 8, 4, {1, 2, 4, 8}},
    [GF_STRM] = {"STRM", 0, 1, 2, {0, 1}},
    [GF_STRN] = {"STRN", 0, 1, 2, {0, 1}},
    [GF_SA] = {"SA", 0, 1, 2, {0, 1}},
    [GF_SB] = {"SB", 0, 1, 2, {0, 1}},
};

static int is_vector_width(int v) { return v == 1 || v == 2 || v == 4 || v == 8; }
static int wgs(const int *v) { return v[GF_MDIMC] * v[GF_NDIMC]; }

/* Vectors of k a row of a tile stored with k contiguous, read in vectors
 * of vw (0: KWG is not whole vectors, no such reading). */
static int k_vectors(int kwg, int vw) { return kwg % vw ? 0 : kwg / vw; }

static const char *vwm(const int *v, const oclblas__limits *l)
{
    return is_vector_width(v[GF_VWM]) ? NULL : "VWM must be 1, 2, 4 or 8";
}
static const char *vwn(const int *v, const oclblas__limits *l)
{
    return is_vector_width(v[GF_VWN]) ? NULL : "VWN must be 1, 2, 4 or 8";
}
static const char *mwg(const int *v, const oclblas__limits *l)
{
    return v[GF_MWG] % (v[GF_MDIMC] * v[GF_VWM]) ? "MWG must be a multiple of MDIMC * VWM" : NULL;
}
static const char *nwg(const int *v, const oclblas__limits *l)
{
    return v[GF_NWG] % (v[GF_NDIMC] * v[GF_VWN]) ? "NWG must be a multiple of NDIMC * VWN" : NULL;
}
static const char *kwg(const int *v, const oclblas__limits *l)
{
    return v[GF_KWG] % v[GF_KWI] ? "KWG must be a multiple of KWI" : NULL;
}
/* Accumulators live in registers; beyond this they spill on every device. */
static const char *registers(const int *v, const oclblas__limits *l)
{
    return (v[GF_MWG] / v[GF_MDIMC]) * (v[GF_NWG] / v[GF_NDIMC]) > 256 ? "MWI * NWI must be at most 256" : NULL;
}
static const char *sa_shape(const int *v, const oclblas__limits *l)
{
    return v[GF_SA] && wgs(v) % v[GF_MDIMA] ? "MDIMC * NDIMC must be a multiple of MDIMA" : NULL;
}
static const char *sa_tile(const int *v, const oclblas__limits *l)
{
    return v[GF_SA] && v[GF_MWG] % (v[GF_MDIMA] * v[GF_VWM]) ? "MWG must be a multiple of MDIMA * VWM" : NULL;
}
static const char *sa_k(const int *v, const oclblas__limits *l)
{
    const int kdima = wgs(v) / v[GF_MDIMA];
    return v[GF_SA] && (!kdima || v[GF_KWG] % kdima) ? "KWG must be a multiple of MDIMC * NDIMC / MDIMA" : NULL;
}
static const char *sb_shape(const int *v, const oclblas__limits *l)
{
    return v[GF_SB] && wgs(v) % v[GF_NDIMB] ? "MDIMC * NDIMC must be a multiple of NDIMB" : NULL;
}
static const char *sb_tile(const int *v, const oclblas__limits *l)
{
    return v[GF_SB] && v[GF_NWG] % (v[GF_NDIMB] * v[GF_VWN]) ? "NWG must be a multiple of NDIMB * VWN" : NULL;
}
static const char *sb_k(const int *v, const oclblas__limits *l)
{
    const int kdimb = wgs(v) / v[GF_NDIMB];
    return v[GF_SB] && (!kdimb || v[GF_KWG] % kdimb) ? "KWG must be a multiple of MDIMC * NDIMC / NDIMB" : NULL;
}
static const char *dev_wgs(const int *v, const oclblas__limits *l)
{
    return (size_t)wgs(v) > l->max_wg_size ? "work-group larger than the device allows" : NULL;
}
static const char *dev_dims(const int *v, const oclblas__limits *l)
{
    return (size_t)v[GF_MDIMC] > l->max_item[0] || (size_t)v[GF_NDIMC] > l->max_item[1]
               ? "work-group dimension larger than the device allows"
               : NULL;
}
/* Two local buffers of each tile: the next tile is stored while the current one is read. */
static const char *dev_local(const int *v, const oclblas__limits *l)
{
    const unsigned long long bytes =
        2ull * sizeof(float) * (unsigned long long)v[GF_KWG] * (v[GF_SA] * v[GF_MWG] + v[GF_SB] * v[GF_NWG]);
    return bytes > l->local_mem ? "more local memory than the device has" : NULL;
}

#define P OCLBLAS__P
static const oclblas__rule rules[] = {
    {P(GF_VWM), 0, vwm},
    {P(GF_VWN), 0, vwn},
    {P(GF_MWG) | P(GF_MDIMC) | P(GF_VWM), 0, mwg},
    {P(GF_NWG) | P(GF_NDIMC) | P(GF_VWN), 0, nwg},
    {P(GF_KWG) | P(GF_KWI), 0, kwg},
    {P(GF_MWG) | P(GF_MDIMC) | P(GF_NWG) | P(GF_NDIMC), 0, registers},
    {P(GF_SA) | P(GF_MDIMC) | P(GF_NDIMC) | P(GF_MDIMA), 0, sa_shape},
    {P(GF_SA) | P(GF_MWG) | P(GF_MDIMA) | P(GF_VWM), 0, sa_tile},
    {P(GF_SA) | P(GF_KWG) | P(GF_MDIMC) | P(GF_NDIMC) | P(GF_MDIMA), 0, sa_k},
    {P(GF_SB) | P(GF_MDIMC) | P(GF_NDIMC) | P(GF_NDIMB), 0, sb_shape},
    {P(GF_SB) | P(GF_NWG) | P(GF_NDIMB) | P(GF_VWN), 0, sb_tile},
    {P(GF_SB) | P(GF_KWG) | P(GF_MDIMC) | P(GF_NDIMC) | P(GF_NDIMB), 0, sb_k},
    {P(GF_MDIMC) | P(GF_NDIMC), 1, dev_wgs},
    {P(GF_MDIMC) | P(GF_NDIMC), 1, dev_dims},
    {P(GF_KWG) | P(GF_SA) | P(GF_MWG) | P(GF_SB) | P(GF_NWG), 1, dev_local},
};
#undef P

static int derive(const int *v, oclblas__derived *out)
{
    const int w = wgs(v), mwi = v[GF_MWG] / v[GF_MDIMC], nwi = v[GF_NWG] / v[GF_NDIMC];
    const int mvg = v[GF_MWG] / v[GF_VWM], nvg = v[GF_NWG] / v[GF_VWN];
    int n = 0;
    out[n++] = (oclblas__derived){"WGS", w};
    out[n++] = (oclblas__derived){"MWI", mwi}; /* m elements per work-item */
    out[n++] = (oclblas__derived){"NWI", nwi};
    out[n++] = (oclblas__derived){"MVI", mwi / v[GF_VWM]}; /* ... in vectors */
    out[n++] = (oclblas__derived){"NVI", nwi / v[GF_VWN]};
    out[n++] = (oclblas__derived){"MVG", mvg}; /* tile width in vectors */
    out[n++] = (oclblas__derived){"NVG", nvg};
    if (v[GF_SA]) { /* the loader of A: MDIMA x KDIMA work-items, MVA x KWA vectors each */
        const int kdima = w / v[GF_MDIMA];
        out[n++] = (oclblas__derived){"KDIMA", kdima};
        out[n++] = (oclblas__derived){"MVA", mvg / v[GF_MDIMA]};
        out[n++] = (oclblas__derived){"KWA", kdima ? v[GF_KWG] / kdima : 0};
        /* ... and of an A stored with k contiguous, vectors of k a row of its tile */
        out[n++] = (oclblas__derived){"AKV", k_vectors(v[GF_KWG], v[GF_VWM])};
    }
    if (v[GF_SB]) {
        const int kdimb = w / v[GF_NDIMB];
        out[n++] = (oclblas__derived){"KDIMB", kdimb};
        out[n++] = (oclblas__derived){"NVB", nvg / v[GF_NDIMB]};
        out[n++] = (oclblas__derived){"KWB", kdimb ? v[GF_KWG] / kdimb : 0};
        out[n++] = (oclblas__derived){"BKV", k_vectors(v[GF_KWG], v[GF_VWN])};
    }
    out[n++] = (oclblas__derived){"PEELED", v[GF_SA] && v[GF_SB] && v[GF_PEELED]};
    return n;
}

void oclblas__gemm_fast_step(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *s)
{
    const int *v = p->v;
    *s = (oclblas__step){.kernel = OCLBLAS__K_GEMM_FAST, .entry = "gemm_fast", .params = *p};
    s->params.v[GF_PEELED] = a->peeled;
    s->geo.dims = 3;
    s->geo.local[0] = (size_t)v[GF_MDIMC];
    s->geo.local[1] = (size_t)v[GF_NDIMC];
    s->geo.local[2] = 1;
    s->geo.global[0] = ceil_div(a->m, (size_t)v[GF_MWG]) * s->geo.local[0];
    s->geo.global[1] = ceil_div(a->n, (size_t)v[GF_NWG]) * s->geo.local[1];
    oclblas__gemm_tile_args(a, (size_t)v[GF_VWM], (size_t)v[GF_VWN], s);
    oclblas__step_int(s, a->a_k_contiguous);
    oclblas__step_int(s, a->b_k_contiguous);
}

void oclblas__tile_args_head(const oclblas__tile_args *a, oclblas__step *s)
{
    /* The launch's third dimension: the batch, or the slices of k. The
     * kernels read k_slice 0 as a batch, and then c_slice as C's stride. */
    const oclblas__batch *batch = &a->batch;
    const int batched = batch->count > 1;
    s->geo.global[2] = batched ? batch->count : ceil_div(a->k, a->k_slice);
    oclblas__step_int(s, (int)a->m);
    oclblas__step_int(s, (int)a->n);
    oclblas__step_int(s, (int)a->k);
    oclblas__step_int(s, batched ? 0 : (int)a->k_slice);
    oclblas__step_int(s, (int)(batched ? batch->stride_c : a->c_slice));
    oclblas__step_float(s, a->alpha);
    oclblas__step_float(s, a->beta);
}

void oclblas__gemm_tile_args(const oclblas__tile_args *a, size_t vwa, size_t vwb, oclblas__step *s)
{
    const oclblas__batch *batch = &a->batch;
    const int batched = batch->count > 1;
    oclblas__tile_args_head(a, s);
    /* The kernels index A and B in vectors. */
    oclblas__step_buf(s, a->a);
    oclblas__step_int(s, (int)(a->a_off / vwa));
    oclblas__step_int(s, (int)(a->a_ld / vwa));
    oclblas__step_buf(s, a->b);
    oclblas__step_int(s, (int)(a->b_off / vwb));
    oclblas__step_int(s, (int)(a->b_ld / vwb));
    oclblas__step_buf(s, a->c);
    oclblas__step_int(s, (int)a->c_off);
    oclblas__step_int(s, (int)a->c_ld);
    oclblas__step_int(s, batched ? (int)(batch->stride_a / vwa) : 0);
    oclblas__step_int(s, batched ? (int)(batch->stride_b / vwb) : 0);
}

/* A work-group computes MWG x NWG of C per KWG of k, reading A in vectors
 * of VWM and B of VWN. */
static void tile(const oclblas__params *p, oclblas__tile *out)
{
    const int *v = p->v;
    *out = (oclblas__tile){(size_t)v[GF_MWG], (size_t)v[GF_NWG], (size_t)v[GF_KWG], (size_t)v[GF_VWM],
                           (size_t)v[GF_VWN], 0, 0};
}

/* An operand staged through local memory may be stored with k contiguous,
 * where KWG is whole vectors of its width. */
static int reads_k_contiguous(const oclblas__params *p, int operand)
{
    const int *v = p->v;
    return operand == 0 ? v[GF_SA] && k_vectors(v[GF_KWG], v[GF_VWM]) : v[GF_SB] && k_vectors(v[GF_KWG], v[GF_VWN]);
}

/* The second program, tile 0 of k fetched before the loop (partly as
 * zeros where k is not whole tiles): where both operands go through local
 * memory. */
static int peels(const oclblas__params *p) { return p->v[GF_SA] && p->v[GF_SB]; }

/* The first program, and the peeled one where the set has it. */
static int programs(const oclblas__params *p, const oclblas__limits *lim, oclblas__params *out)
{
    (void)lim;
    out[0] = out[1] = *p;
    out[0].v[GF_PEELED] = 0;
    out[1].v[GF_PEELED] = 1;
    return peels(p) ? 2 : 1;
}

static const oclblas__tiled tiled = {.tile = tile,
                                     .step = oclblas__gemm_fast_step,
                                     .reads_k_contiguous = reads_k_contiguous,
                                     .reads_ragged = 1,
                                     .peels = peels};

const oclblas__kernel_desc oclblas__desc_gemm_fast = {
    .name = "gemm_fast",
    .source = oclblas__source_gemm_fast,
    .num_params = GF_COUNT,
    .params = params,
    .num_rules = (int)(sizeof rules / sizeof rules[0]),
    .rules = rules,
    .derive = derive,
    .tiled = &tiled,
    .programs = programs,
};
