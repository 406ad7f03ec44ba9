/*
 * The parameter tables of every kernel: names, legal ranges, the tuner's
 * candidate values, defaults that are legal on any OpenCL 1.2 device, and
 * the legality rules. The library validates every parameter set with these
 * before it compiles anything, and the tuner searches the same tables, so
 * the two can never disagree about what is legal. The rules mirror the
 * derived sizes in the .cl files (MWI = MWG / MDIMC, ...).
 */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_vector_width(int v) { return v == 1 || v == 2 || v == 4 || v == 8; }

static const char *check_device(size_t wgs, size_t dim0, size_t dim1, unsigned long long local_bytes,
                                const oclblas__limits *lim)
{
    if (!lim)
        return NULL;
    if (wgs > lim->max_wg_size)
        return "work-group larger than the device allows";
    if (dim0 > lim->max_item[0] || dim1 > lim->max_item[1])
        return "work-group dimension larger than the device allows";
    if (local_bytes > lim->local_mem)
        return "more local memory than the device has";
    return NULL;
}

/* ---- gemm_fast --------------------------------------------------------- */

static const oclblas__param_def gemm_fast_params[GF_COUNT] = {
    [GF_MWG] = {"MWG", 1, 512, 5, {16, 32, 64, 128, 256}},
    [GF_NWG] = {"NWG", 1, 512, 5, {16, 32, 64, 128, 256}},
    [GF_KWG] = {"KWG", 1, 256, 4, {8, 16, 32, 64}},
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

static const char *gemm_fast_check(const int *v, const oclblas__limits *lim)
{
    const int wgs = v[GF_MDIMC] * v[GF_NDIMC];
    if (!is_vector_width(v[GF_VWM]) || !is_vector_width(v[GF_VWN]))
        return "VWM and VWN must be 1, 2, 4 or 8";
    if (v[GF_MWG] % (v[GF_MDIMC] * v[GF_VWM]) != 0)
        return "MWG must be a multiple of MDIMC * VWM";
    if (v[GF_NWG] % (v[GF_NDIMC] * v[GF_VWN]) != 0)
        return "NWG must be a multiple of NDIMC * VWN";
    if (v[GF_KWG] % v[GF_KWI] != 0)
        return "KWG must be a multiple of KWI";
    /* Accumulators live in registers; beyond this they spill on every device. */
    if ((v[GF_MWG] / v[GF_MDIMC]) * (v[GF_NWG] / v[GF_NDIMC]) > 256)
        return "MWI * NWI must be at most 256";
    if (v[GF_SA]) {
        if (wgs % v[GF_MDIMA] != 0)
            return "MDIMC * NDIMC must be a multiple of MDIMA";
        if (v[GF_MWG] % (v[GF_MDIMA] * v[GF_VWM]) != 0)
            return "MWG must be a multiple of MDIMA * VWM";
        if (v[GF_KWG] % (wgs / v[GF_MDIMA]) != 0)
            return "KWG must be a multiple of MDIMC * NDIMC / MDIMA";
    }
    if (v[GF_SB]) {
        if (wgs % v[GF_NDIMB] != 0)
            return "MDIMC * NDIMC must be a multiple of NDIMB";
        if (v[GF_NWG] % (v[GF_NDIMB] * v[GF_VWN]) != 0)
            return "NWG must be a multiple of NDIMB * VWN";
        if (v[GF_KWG] % (wgs / v[GF_NDIMB]) != 0)
            return "KWG must be a multiple of MDIMC * NDIMC / NDIMB";
    }
    /* Two local buffers of each tile: the next tile is stored while the current one is read. */
    const unsigned long long local =
        2ull * sizeof(float) * (unsigned long long)v[GF_KWG] * (v[GF_SA] * v[GF_MWG] + v[GF_SB] * v[GF_NWG]);
    return check_device((size_t)wgs, (size_t)v[GF_MDIMC], (size_t)v[GF_NDIMC], local, lim);
}

/* ---- gemm_direct ------------------------------------------------------- */

static const oclblas__param_def gemm_direct_params[GD_COUNT] = {
    [GD_WGD] = {"WGD", 1, 256, 5, {8, 16, 32, 64, 128}},
    [GD_KWGD] = {"KWGD", 1, 256, 4, {4, 8, 16, 32}},
    [GD_MDIMCD] = {"MDIMCD", 1, 1024, 4, {4, 8, 16, 32}},
    [GD_NDIMCD] = {"NDIMCD", 1, 1024, 4, {4, 8, 16, 32}},
    [GD_KWID] = {"KWID", 1, 256, 4, {1, 2, 4, 8}},
    [GD_PADA] = {"PADA", 0, 8, 2, {0, 1}},
    [GD_PADB] = {"PADB", 0, 8, 2, {0, 1}},
};

static const char *gemm_direct_check(const int *v, const oclblas__limits *lim)
{
    const int wgs = v[GD_MDIMCD] * v[GD_NDIMCD];
    if (v[GD_WGD] % v[GD_MDIMCD] != 0 || v[GD_WGD] % v[GD_NDIMCD] != 0)
        return "WGD must be a multiple of MDIMCD and NDIMCD";
    if (v[GD_KWGD] % v[GD_KWID] != 0)
        return "KWGD must be a multiple of KWID";
    if ((v[GD_WGD] * v[GD_KWGD]) % wgs != 0)
        return "WGD * KWGD must be a multiple of MDIMCD * NDIMCD";
    if ((v[GD_WGD] / v[GD_MDIMCD]) * (v[GD_WGD] / v[GD_NDIMCD]) > 256)
        return "(WGD / MDIMCD) * (WGD / NDIMCD) must be at most 256";
    const unsigned long long local = sizeof(float) * (unsigned long long)v[GD_KWGD] *
                                     (2ull * v[GD_WGD] + v[GD_PADA] + v[GD_PADB]);
    return check_device((size_t)wgs, (size_t)v[GD_MDIMCD], (size_t)v[GD_NDIMCD], local, lim);
}

/* ---- helpers ----------------------------------------------------------- */

static const oclblas__param_def helpers_params[HP_COUNT] = {
    [HP_PAD_DIMX] = {"PAD_DIMX", 1, 1024, 4, {8, 16, 32, 64}},
    [HP_PAD_DIMY] = {"PAD_DIMY", 1, 1024, 4, {1, 2, 4, 8}},
    [HP_PAD_WPTX] = {"PAD_WPTX", 1, 16, 3, {1, 2, 4}},
    [HP_PAD_WPTY] = {"PAD_WPTY", 1, 16, 3, {1, 2, 4}},
    [HP_TRA_DIM] = {"TRA_DIM", 1, 64, 4, {4, 8, 16, 32}},
    [HP_TRA_WPT] = {"TRA_WPT", 1, 16, 4, {1, 2, 4, 8}},
    [HP_TRA_PAD] = {"TRA_PAD", 0, 8, 2, {0, 1}},
};

static const char *helpers_check(const int *v, const oclblas__limits *lim)
{
    const char *why = check_device((size_t)v[HP_PAD_DIMX] * v[HP_PAD_DIMY], (size_t)v[HP_PAD_DIMX],
                                   (size_t)v[HP_PAD_DIMY], 0, lim);
    if (why)
        return why;
    const unsigned long long tile = (unsigned long long)v[HP_TRA_DIM] * v[HP_TRA_WPT];
    return check_device((size_t)v[HP_TRA_DIM] * v[HP_TRA_DIM], (size_t)v[HP_TRA_DIM], (size_t)v[HP_TRA_DIM],
                        sizeof(float) * tile * (tile + v[HP_TRA_PAD]), lim);
}

/* ---- gemv -------------------------------------------------------------- */

static const oclblas__param_def gemv_n_params[GN_COUNT] = {
    [GN_WGS] = {"WGS", 1, 1024, 5, {32, 64, 128, 256, 512}},
    [GN_WPT] = {"WPT", 1, 16, 4, {1, 2, 4, 8}},
    [GN_VW] = {"VW", 1, 8, 4, {1, 2, 4, 8}},
    [GN_UNR] = {"UNR", 1, 32, 4, {1, 2, 4, 8}},
};

static const char *gemv_n_check(const int *v, const oclblas__limits *lim)
{
    if (!is_vector_width(v[GN_VW]))
        return "VW must be 1, 2, 4 or 8";
    return check_device((size_t)v[GN_WGS], (size_t)v[GN_WGS], 1, 0, lim);
}

static const oclblas__param_def gemv_t_params[GT_COUNT] = {
    [GT_WGS] = {"WGS", 1, 1024, 5, {32, 64, 128, 256, 512}},
    [GT_TPC] = {"TPC", 1, 1024, 6, {4, 8, 16, 32, 64, 128}},
    [GT_VW] = {"VW", 1, 8, 4, {1, 2, 4, 8}},
    [GT_UNR] = {"UNR", 1, 32, 4, {1, 2, 4, 8}},
};

static const char *gemv_t_check(const int *v, const oclblas__limits *lim)
{
    if (!is_vector_width(v[GT_VW]))
        return "VW must be 1, 2, 4 or 8";
    /* The work-items of one column reduce through a tree: a power of two. */
    if (v[GT_TPC] & (v[GT_TPC] - 1))
        return "TPC must be a power of two";
    if (v[GT_WGS] % v[GT_TPC] != 0)
        return "WGS must be a multiple of TPC";
    return check_device((size_t)v[GT_WGS], (size_t)v[GT_WGS], 1, sizeof(float) * (unsigned long long)v[GT_WGS],
                        lim);
}

/* ---- routine-level values ---------------------------------------------- */

static const oclblas__param_def routine_params[RT_COUNT] = {
    /* gemm_fast when m * n * k >= this cubed, else the direct kernel */
    [RT_GEMM_MIN_INDIRECT] = {"GEMM_MIN_INDIRECT", 0, 1 << 20, 8, {64, 128, 192, 256, 384, 512, 768, 1024}},
    /* gemv work-groups to aim for per compute unit before the reduction is split */
    [RT_GEMV_GROUPS_PER_CU] = {"GEMV_GROUPS_PER_CU", 1, 1024, 6, {1, 2, 4, 8, 16, 32}},
    /* host-pointer calls with m * n * k <= this cubed are computed on the host */
    [RT_HOST_MAX] = {"HOST_MAX", 0, 1 << 20, 8, {0, 8, 16, 32, 48, 64, 96, 128}},
    /* gemm_fast splits k when the tiles of C give fewer work-groups than this
     * per compute unit; 0 never splits */
    [RT_GEMM_SPLIT_K] = {"GEMM_SPLIT_K", 0, 64, 6, {0, 1, 2, 4, 8, 16}},
};

static const char *routine_check(const int *v, const oclblas__limits *lim)
{
    (void)v;
    (void)lim;
    return NULL;
}

const oclblas__kernel_def oclblas__kernels[OCLBLAS__K_COUNT] = {
    [OCLBLAS__K_GEMM_FAST] = {"gemm_fast", OCLBLAS__SRC_GEMM_FAST, GF_COUNT, gemm_fast_params,
                              {{8, 8, 8, 8, 8, 8, 8, 1, 1, 1, 0, 0, 0, 0}}, gemm_fast_check},
    [OCLBLAS__K_GEMM_DIRECT] = {"gemm_direct", OCLBLAS__SRC_GEMM_DIRECT, GD_COUNT, gemm_direct_params,
                                {{8, 8, 8, 8, 1, 0, 0}}, gemm_direct_check},
    [OCLBLAS__K_HELPERS] = {"helpers", OCLBLAS__SRC_HELPERS, HP_COUNT, helpers_params,
                            {{8, 8, 1, 1, 8, 1, 1}}, helpers_check},
    [OCLBLAS__K_GEMV_N] = {"gemv_n", OCLBLAS__SRC_GEMV_N, GN_COUNT, gemv_n_params, {{64, 1, 1, 1}},
                           gemv_n_check},
    [OCLBLAS__K_GEMV_T] = {"gemv_t", OCLBLAS__SRC_GEMV_T, GT_COUNT, gemv_t_params, {{64, 16, 1, 1}},
                           gemv_t_check},
    [OCLBLAS__K_ROUTINE] = {"routine", -1, RT_COUNT, routine_params, {{128, 4, 0}}, routine_check},
};

int oclblas__kernel_by_name(const char *name)
{
    if (!name)
        return -1;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (strcmp(oclblas__kernels[k].name, name) == 0)
            return k;
    return -1;
}

int oclblas__param_index(int kernel, const char *name)
{
    const oclblas__kernel_def *kd = &oclblas__kernels[kernel];
    for (int i = 0; i < kd->num_params; ++i)
        if (strcmp(kd->params[i].name, name) == 0)
            return i;
    return -1;
}

int oclblas__params_legal(int kernel, const oclblas__params *p, const oclblas__limits *lim, const char **why)
{
    const oclblas__kernel_def *kd = &oclblas__kernels[kernel];
    const char *reason = NULL;
    for (int i = 0; i < kd->num_params && !reason; ++i)
        if (p->v[i] < kd->params[i].min || p->v[i] > kd->params[i].max)
            reason = "a parameter is outside its legal range";
    if (!reason)
        reason = kd->check(p->v, lim);
    if (why)
        *why = reason;
    return reason == NULL;
}

void oclblas__params_defines(int kernel, const oclblas__params *p, char *buf, size_t len)
{
    const oclblas__kernel_def *kd = &oclblas__kernels[kernel];
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < kd->num_params && used < len; ++i) {
        int w = snprintf(buf + used, len - used, "%s-D%s=%d", i ? " " : "", kd->params[i].name, p->v[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

void oclblas__params_format(int kernel, const oclblas__params *p, char *buf, size_t len)
{
    const oclblas__kernel_def *kd = &oclblas__kernels[kernel];
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < kd->num_params && used < len; ++i) {
        int w = snprintf(buf + used, len - used, "%s%s=%d", i ? "," : "", kd->params[i].name, p->v[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

oclblas_status oclblas__params_parse(int kernel, const char *text, oclblas__params *p)
{
    const char *s = text;
    oclblas__params out = *p;
    while (*s) {
        while (*s == ',' || isspace((unsigned char)*s))
            ++s;
        if (!*s)
            break;
        char name[32];
        size_t n = 0;
        while (s[n] && s[n] != '=' && s[n] != ',' && !isspace((unsigned char)s[n]))
            ++n;
        if (s[n] != '=' || n == 0 || n >= sizeof name)
            return OCLBLAS_INVALID_ARGUMENT;
        memcpy(name, s, n);
        name[n] = '\0';
        const int idx = oclblas__param_index(kernel, name);
        if (idx < 0)
            return OCLBLAS_UNKNOWN_PARAM;
        s += n + 1;
        char *end;
        const long val = strtol(s, &end, 10);
        if (end == s || (*end && *end != ',' && !isspace((unsigned char)*end)) || val < -1000000000L ||
            val > 1000000000L)
            return OCLBLAS_INVALID_ARGUMENT;
        out.v[idx] = (int)val;
        s = end;
    }
    *p = out;
    return OCLBLAS_SUCCESS;
}
