/*
 * What oclblas-tune times for each kernel, by kernel id: the form and the
 * default sizes of its problems, its share of a run, and the plan it
 * times. Most kernels are timed alone on operands they read in place
 * (gemm_fast and gemm_tc on sizes rounded to the candidate's tile, k not
 * split; gemm_direct on column-major NN products; the helpers padding an
 * operand to the tuned gemm_fast's tile); the gemv kernels, gemm_cpu and
 * gemm_fast's classes of shapes through the library's whole plan with the
 * candidate in force, since the reduction, the padding or the packing a
 * candidate causes is part of its cost. This sits above the plans so that the descriptors, which the
 * plans read, never call back into them.
 */
#include "tune/tuning.h"
#include "kernels/gemm_direct.h"
#include "kernels/helpers.h"
#include "kernels/routine.h"
#include "kernels/tiled.h"

static size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

/* ---- the tiled kernels (gemm_fast, gemm_tc) ----------------------------- */

static oclblas__tile tile_of(int kernel, const oclblas__params *p)
{
    oclblas__tile t;
    oclblas__kernels[kernel]->tiled->tile(p, &t);
    return t;
}

/* The sizes rounded up to the candidate's tile. */
static void tiled_prepare(int kernel, const oclblas__params *cand, oclblas__tune_problem *p)
{
    const oclblas__tile t = tile_of(kernel, cand);
    p->m = round_up(p->m, t.m);
    p->n = round_up(p->n, t.n);
    p->k = round_up(p->k, t.k);
}

/* The kernel alone: the operands (A m x k, B stored n x k) read in place. */
static oclblas_status tiled_plan(int kernel, const oclblas__params *cand, const oclblas__tune_problem *p,
                                 oclblas__plan *out)
{
    *out = (oclblas__plan){.kind = OCLBLAS__PLAN_FAST, .num_steps = 1};
    const oclblas__tile_args a = {p->m, p->n, p->k, p->k, p->m * p->n, p->alpha, p->beta,
                                  OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C,
                                  0, p->m, 0, p->n, 0, p->m, {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0};
    oclblas__kernels[kernel]->tiled->step(cand, &a, &out->step[0]);
    return OCLBLAS_SUCCESS;
}

static void gemm_fast_prepare(const oclblas__devctx *cx, const oclblas__params *cand, oclblas__tune_problem *p)
{
    tiled_prepare(OCLBLAS__K_GEMM_FAST, cand, p);
}

static oclblas_status gemm_fast_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                     const oclblas__tune_problem *p, oclblas__plan *out)
{
    return tiled_plan(OCLBLAS__K_GEMM_FAST, cand, p, out);
}

/* For a class of shapes: the library's whole plan (pads, the split of k
 * and its sum included) on the class's problem, NN, cand for every shape;
 * gemm_fast's plan even where the crossover would send the problem to
 * gemm_direct (the class's own crossover is measured afterwards, with the
 * tuned set) or GEMM_CPU to gemm_cpu. */
static oclblas_status gemm_fast_class_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                           const oclblas__tune_problem *p, oclblas__plan *out)
{
    oclblas__devctx with = *cx;
    oclblas__devctx_set(&with, OCLBLAS__K_GEMM_FAST, cand);
    with.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_MIN_INDIRECT] = 0;
    with.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_CPU] = 0;
    for (int c = 0; c < with.num_classes[OCLBLAS__K_ROUTINE]; ++c) {
        with.classes[OCLBLAS__K_ROUTINE][c].params.v[RT_GEMM_MIN_INDIRECT] = 0;
        with.classes[OCLBLAS__K_ROUTINE][c].params.v[RT_GEMM_CPU] = 0;
    }
    const oclblas__gemm_problem g = {0, 0, p->m, p->n, p->k, p->alpha, p->beta,
                                     {0, p->m, 0, OCLBLAS__MAX_ALIGN}, {0, p->k, 0, OCLBLAS__MAX_ALIGN},
                                     {0, p->m, 0, OCLBLAS__MAX_ALIGN}, OCLBLAS_MATH_STRICT};
    const oclblas_status st = oclblas__gemm_plan(&with, &g, out);
    /* Below the crossover the direct kernel would serve: not this kernel's plan. */
    return st == OCLBLAS_SUCCESS && out->kind != OCLBLAS__PLAN_FAST ? OCLBLAS_INVALID_ARGUMENT : st;
}

static const oclblas__tuning gemm_fast = {
    .form = OCLBLAS__FORM_GEMM, .trans_a = 0, .trans_b = 1, .share = 0.55,
    /* The set for every shape serves what the default classes leave: larger products. */
    .num_sizes = 2, .gpu = {{2048, 2048, 2048}, {4096, 4096, 4096}}, .cpu = {{1024, 1024, 1024}, {2048, 2048, 2048}},
    .rate = {4096, 4096, 4096}, .whole_plan = 0, .prepare = gemm_fast_prepare, .plan = gemm_fast_plan,
    .per_class = 1, .class_plan = gemm_fast_class_plan,
};

/* gemm_tc is timed with its candidates as they are: the accurate kernel
 * (PRODUCTS = 6, the candidates' only value). */
static void gemm_tc_prepare(const oclblas__devctx *cx, const oclblas__params *cand, oclblas__tune_problem *p)
{
    tiled_prepare(OCLBLAS__K_GEMM_TC, cand, p);
}

static oclblas_status gemm_tc_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                   const oclblas__tune_problem *p, oclblas__plan *out)
{
    return tiled_plan(OCLBLAS__K_GEMM_TC, cand, p, out);
}

static const oclblas__tuning gemm_tc = {
    .form = OCLBLAS__FORM_GEMM, .trans_a = 0, .trans_b = 1, .share = 0.3,
    .num_sizes = 1, .gpu = {{4096, 4096, 4096}}, .cpu = {{256, 256, 256}}, .rate = {4096, 4096, 4096},
    .whole_plan = 0, .prepare = gemm_tc_prepare, .plan = gemm_tc_plan,
};

/* gemm_cpu through the library's whole plan (A packed into panels, which
 * is part of its cost; B read along k), column-major NN, cand in force for
 * every shape and GEMM_CPU 1, whatever the crossover. */
static oclblas_status gemm_cpu_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                    const oclblas__tune_problem *p, oclblas__plan *out)
{
    oclblas__devctx with = *cx;
    oclblas__devctx_set(&with, OCLBLAS__K_GEMM_CPU, cand);
    oclblas__devctx_set(&with, OCLBLAS__K_ROUTINE, &cx->params[OCLBLAS__K_ROUTINE]);
    with.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_MIN_INDIRECT] = 0;
    with.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_CPU] = 1;
    const oclblas__gemm_problem g = {0, 0, p->m, p->n, p->k, p->alpha, p->beta,
                                     {0, p->m, 0, OCLBLAS__MAX_ALIGN}, {0, p->k, 0, OCLBLAS__MAX_ALIGN},
                                     {0, p->m, 0, OCLBLAS__MAX_ALIGN}, OCLBLAS_MATH_STRICT};
    const oclblas_status st = oclblas__gemm_plan(&with, &g, out);
    const int runs_it = out->kind == OCLBLAS__PLAN_FAST && out->step[out->main].kernel == OCLBLAS__K_GEMM_CPU;
    return st == OCLBLAS_SUCCESS && !runs_it ? OCLBLAS_INVALID_ARGUMENT : st;
}

static const oclblas__tuning gemm_cpu = {
    .form = OCLBLAS__FORM_GEMM, .trans_a = 0, .trans_b = 0, .share = 0.3,
    .num_sizes = 2, .gpu = {{1024, 1024, 1024}, {2048, 2048, 2048}}, .cpu = {{1024, 1024, 1024}, {512, 512, 512}},
    .rate = {1024, 1024, 1024}, .whole_plan = 1, .plan = gemm_cpu_plan, .cpu_only = 1,
};

/* ---- gemm_direct ----------------------------------------------------------- */

static oclblas_status gemm_direct_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                       const oclblas__tune_problem *p, oclblas__plan *out)
{
    *out = (oclblas__plan){.kind = OCLBLAS__PLAN_DIRECT, .num_steps = 1};
    const oclblas__gemm_direct_args a = {0, 0, p->m, p->n, p->k, p->alpha, p->beta,
                                         OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C,
                                         0, p->m, 0, p->k, 0, p->m};
    oclblas__gemm_direct_step(cand, &a, NULL, &out->step[0]);
    return OCLBLAS_SUCCESS;
}

static const oclblas__tuning gemm_direct = {
    .form = OCLBLAS__FORM_GEMM, .trans_a = 0, .trans_b = 0, .share = 0.2,
    .num_sizes = 2, .gpu = {{128, 128, 128}, {256, 256, 256}}, .cpu = {{64, 64, 64}, {128, 128, 128}},
    .rate = {1024, 1024, 1024}, .whole_plan = 0, .plan = gemm_direct_plan,
};

/* ---- the helpers ------------------------------------------------------------ */

/* The operand padded to the tuned gemm_fast's tile, as the gemm plan pads A. */
static void helpers_prepare(const oclblas__devctx *cx, const oclblas__params *cand, oclblas__tune_problem *p)
{
    const oclblas__tile t = tile_of(OCLBLAS__K_GEMM_FAST, &cx->params[OCLBLAS__K_GEMM_FAST]);
    p->rows = round_up(p->m, t.m);
    p->cols = round_up(p->n, t.k);
}

/* pad_copy and pad_transpose of the same source. */
static oclblas_status helpers_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                   const oclblas__tune_problem *p, oclblas__plan *out)
{
    *out = (oclblas__plan){.kind = OCLBLAS__PLAN_FAST, .num_steps = 2};
    const oclblas__pad_args copy = {0, p->m, p->n, OCLBLAS__BUF_A, 0, p->m, p->rows, p->cols, OCLBLAS__BUF_C,
                                    1, 0, 0};
    const oclblas__pad_args transpose = {1, p->m, p->n, OCLBLAS__BUF_A, 0, p->n, p->rows, p->cols, OCLBLAS__BUF_B,
                                         1, 0, 0};
    oclblas__pad_step(cand, &copy, &out->step[0]);
    oclblas__pad_step(cand, &transpose, &out->step[1]);
    return OCLBLAS_SUCCESS;
}

static const oclblas__tuning helpers = {
    .form = OCLBLAS__FORM_COPY, .share = 0.05,
    .num_sizes = 1, .gpu = {{4000, 4000, 0}}, .cpu = {{1000, 1000, 0}},
    .whole_plan = 0, .prepare = helpers_prepare, .plan = helpers_plan,
};

/* ---- the gemv kernels --------------------------------------------------------- */

/* The library's whole plan, reduction included, with cand in force as
 * kernel's set: A (m x n) read as it is stored (gemv_n) or transposed. */
static oclblas_status gemv_plan(int kernel, int trans, const oclblas__devctx *cx, const oclblas__params *cand,
                                const oclblas__tune_problem *p, oclblas__plan *out)
{
    oclblas__devctx with = *cx;
    oclblas__devctx_set(&with, kernel, cand);
    const oclblas__gemv_problem g = {trans, p->m, p->n, p->alpha, p->beta,
                                     {0, p->m, 0, OCLBLAS__MAX_ALIGN}, {0, 0, 1, OCLBLAS__MAX_ALIGN}, {0, 0, 1, 0},
                                     OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C, OCLBLAS_MATH_STRICT};
    return oclblas__gemv_plan(&with, &g, out);
}

static oclblas_status gemv_n_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                  const oclblas__tune_problem *p, oclblas__plan *out)
{
    return gemv_plan(OCLBLAS__K_GEMV_N, 0, cx, cand, p, out);
}

static oclblas_status gemv_t_plan(const oclblas__devctx *cx, const oclblas__params *cand,
                                  const oclblas__tune_problem *p, oclblas__plan *out)
{
    return gemv_plan(OCLBLAS__K_GEMV_T, 1, cx, cand, p, out);
}

static const oclblas__tuning gemv_n = {
    .form = OCLBLAS__FORM_GEMV, .trans_a = 0, .share = 0.1,
    .num_sizes = 1, .gpu = {{8192, 8192, 0}}, .cpu = {{4096, 4096, 0}},
    .whole_plan = 1, .plan = gemv_n_plan, .per_class = 1,
};

static const oclblas__tuning gemv_t = {
    .form = OCLBLAS__FORM_GEMV, .trans_a = 1, .share = 0.1,
    .num_sizes = 1, .gpu = {{8192, 8192, 0}}, .cpu = {{4096, 4096, 0}},
    .whole_plan = 1, .plan = gemv_t_plan, .per_class = 1,
};

/* ---- by kernel --------------------------------------------------------------- */

static const oclblas__tuning *const tunings[OCLBLAS__K_COUNT] = {
    [OCLBLAS__K_GEMM_FAST] = &gemm_fast, [OCLBLAS__K_HELPERS] = &helpers, [OCLBLAS__K_GEMM_DIRECT] = &gemm_direct,
    [OCLBLAS__K_GEMV_N] = &gemv_n,       [OCLBLAS__K_GEMV_T] = &gemv_t,   [OCLBLAS__K_GEMM_TC] = &gemm_tc,
    [OCLBLAS__K_GEMM_CPU] = &gemm_cpu,
};

const oclblas__tuning *oclblas__tuning_of(int kernel)
{
    return kernel >= 0 && kernel < OCLBLAS__K_COUNT ? tunings[kernel] : NULL;
}
