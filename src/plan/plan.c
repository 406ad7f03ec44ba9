/*
 * The plans: what a call enqueues, decided by pure functions of the device
 * context (device facts and the parameters in force) and the problem,
 * without any OpenCL call, so that every decision can be tested without a
 * device (tests/test_plan.c). For SGEMM (column-major, arguments checked):
 *   k = 0 or alpha = 0     C = beta * C (scale_matrix), or nothing if beta = 1
 *   m = 1 or n = 1         the SGEMV plan of the matrix-vector product it is
 *   m * n * k small        gemm_direct, straight from the caller's buffers
 *                          (below GEMM_MIN_INDIRECT cubed)
 *   otherwise              gemm_fast, on operands that the helpers pad (and
 *                          transpose) into scratch buffers, unless the
 *                          caller's own layout already fits the kernel:
 *                          tile-aligned and in whole vectors, stored
 *                          either way (a set with local memory for an
 *                          operand reads it along k too, transposing as
 *                          it loads; gemm_tc too, unless its set pairs k
 *                          rows);
 *                          with k split into slices (summed by sum_slices)
 *                          where the tiles of C alone cannot fill the device;
 *                          in the accurate and tf32 math modes gemm_tc in
 *                          gemm_fast's place (same padding, same split, its
 *                          own tile) where the device can run it and
 *                          m * n * k is at least GEMM_TC_MIN cubed; where
 *                          GEMM_CPU is 1 (a CPU's entry) gemm_cpu in
 *                          gemm_fast's place, on operands packed into
 *                          panels by its own program (pack_a, pack_b)
 *                          unless it reads them as stored (panel_in_place).
 * Where the device's entry gives the cost model's facts and the measured
 * rates of its sets (plan/model.h), the last two rows are one choice
 * instead: the plan the model finds fastest among gemm_direct with each of
 * its sets, gemm_fast (and gemm_cpu) with each set of the entry and each
 * split of k, and gemm_tc with the mode's set and each split where the
 * mode allows it.
 * For SGEMV the kernel follows the direction of memory: gemv_n when the
 * output runs along A's contiguous direction (y = A x), gemv_t when each
 * output is a dot product along it (y = A^T x); in each a team of
 * work-items shares an output's sum (gemv_t: sized to the column's length;
 * gemv_n: sharing the columns where the rows alone are too few), and each gets
 * enough work-groups to fill the device, splitting its reduction over
 * several work-groups when its natural parallelism is too small (their
 * partial sums added by gemv_reduce's launch, or on NVIDIA by the kernel's
 * last work-group to arrive, in its own launch). The steps come from the descriptors' step
 * functions, which alone know arguments and geometry. Every parameter,
 * the routine values included, is read for the problem's column-major
 * shape (oclblas__devctx_params): a class of shapes with its own sets (a
 * narrow tile, its own split of k) serves the problems its rule takes.
 *
 * A strided batch of SGEMMs is the single problem's plan with the batch as
 * the launches' third dimension: the same parameters (read for one
 * problem's shape), scratch for each problem's padded copies (one copy of
 * an A or B that every problem shares), k never split (the batch gives the
 * parallelism). Where the model chooses, it prices the batch's launch with
 * gemm_direct, with each set of gemm_fast and with gemm_tc's set for the
 * mode against the single problem's own plan run once per problem, per
 * problem. By the rules instead: the single problem's rows with the
 * crossovers (GEMM_MIN_INDIRECT, GEMM_TC_MIN) applied to the batch's whole
 * work (the batch fills the device where one problem cannot, so the
 * padding passes and the large tiles pay sooner), unless the problems are
 * mostly padding in the tiled kernel's tiles (then the kernel with the
 * smaller tiles: gemm_fast for gemm_tc, gemm_direct for gemm_fast); a batch
 * of matrix-vector products large enough to fill the device alone runs
 * one gemv per problem. A plan may take fewer problems than the batch
 * holds (plan.problems): the caller plans the rest after.
 */
#include "plan/plan.h"
#include "kernels/gemm_direct.h"
#include "kernels/gemv_t.h"
#include "kernels/helpers.h"
#include "kernels/routine.h"
#include "kernels/tiled.h"
#include "util/util.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t round_up(size_t x, size_t m) { return ceil_div(x, m) * m; }

static oclblas__step *add_step(oclblas__plan *plan) { return &plan->step[plan->num_steps++]; }

/* For the log: the class of shapes whose set the plan's main kernel runs with. */
static void class_of(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape, oclblas__plan *out)
{
    const char *name = oclblas__devctx_class(cx, kernel, shape);
    oclblas__strlcpy(out->cls, name ? name : "", sizeof out->cls);
}

/* C = beta * C on a rows x cols block (also a strided vector: rows 1, ld =
 * |inc|), on the plan's problems, c_stride apart, for a batch. */
static oclblas_status scale_plan(const oclblas__devctx *cx, const oclblas__shape *shape, size_t rows, size_t cols,
                                 float beta, oclblas__buf c, size_t c_off, size_t ldc, size_t c_stride,
                                 oclblas__plan *out)
{
    if (beta == 1.0f) {
        out->kind = OCLBLAS__PLAN_NOTHING;
        return OCLBLAS_SUCCESS;
    }
    oclblas_status st;
    const oclblas__params *hp = oclblas__devctx_params(cx, OCLBLAS__K_HELPERS, shape, &st);
    if (!hp)
        return st;
    out->kind = OCLBLAS__PLAN_SCALE;
    const oclblas__scale_args a = {rows, cols, beta, c, c_off, ldc, out->problems, c_stride};
    oclblas__scale_step(hp, &a, add_step(out));
    return OCLBLAS_SUCCESS;
}

/* ---- SGEMV --------------------------------------------------------------- */

/* The most splits each member of a team of the last work-group adds when
 * a gemv kernel finishes a split in its own launch: 8, the most measured
 * (gemv_n: 64 splits of 256 rows in teams of 8 ran as fast as with
 * gemv_reduce, whose teams add many splits in parallel over many
 * work-groups). */
#define GEMV_FINISH_MAX_ADDS 8

/* Whether a gemv kernel adds its splits up in its own launch (the last
 * work-group of each block of rows, or columns, to arrive), which saves
 * gemv_reduce's launch and the wait between the two. That takes an atomic
 * that orders memory across the work-groups of a launch, which OpenCL 1.2
 * does not have: NVIDIA's in inline PTX does, so NVIDIA alone; for gemv_n
 * the interleaved layout (STRM = 1), whose teams the last work-group's adds
 * share. */
static int finishes_in_launch(const oclblas__device_info *dev, int trans, const oclblas__params *gp, size_t splits,
                              size_t team)
{
    return strcmp(dev->vendor, "nvidia") == 0 && (trans || gp->v[GN_STRM] == 1) &&
           ceil_div(splits, team) <= GEMV_FINISH_MAX_ADDS;
}

/* Whether gemv_t's split of the rows into two, which doubles work-groups
 * that are already more than half the target, is worth what adding the
 * splits up costs (gemv_reduce's launch, or the last work-group's round
 * trips): only where reading A takes longer than GEMV_SPLIT_MIN_LAUNCHES
 * launches, since the few more groups a unit holds read faster by a share
 * of the time, while the cost is the same whatever the size. Without the
 * model's facts, always. */
#define GEMV_SPLIT_MIN_LAUNCHES 3
static int worth_splitting(const oclblas__model_device *m, double bytes)
{
    return !oclblas__model_valid(m) || bytes / m->bandwidth > GEMV_SPLIT_MIN_LAUNCHES * m->launch_s;
}

/* A single SGEMV (batch NULL) or a strided batch of them as the launches'
 * third dimension: the splits aim at the device's work-groups over the
 * whole batch, and A (and x) are read in aligned vectors only where every
 * problem's are aligned as problem 0's. */
static oclblas_status gemv_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p,
                                const oclblas__batch *batch, oclblas__plan *out)
{
    memset(out, 0, sizeof *out);
    const size_t count = batch ? (batch->count < OCLBLAS__MAX_BATCH_LAUNCH ? batch->count
                                                                            : OCLBLAS__MAX_BATCH_LAUNCH)
                               : 1;
    const oclblas__batch whole = {count, batch ? batch->stride_a : 0, batch ? batch->stride_b : 0,
                                  batch ? batch->stride_c : 0};
    out->problems = count;
    const int trans = p->trans != 0;
    const size_t rows = p->rows, cols = p->cols, len_y = trans ? cols : rows;
    out->gemv.trans = trans;
    out->gemv.rows = rows;
    out->gemv.cols = cols;
    const oclblas__shape shape = {rows, cols, 1, 0};
    if (p->alpha == 0.0f) {
        const size_t step = (size_t)(p->y.inc < 0 ? -p->y.inc : p->y.inc);
        const size_t lowest = p->y.inc < 0 ? p->y.offset - (len_y - 1) * step : p->y.offset;
        return scale_plan(cx, &shape, 1, len_y, p->beta, p->y_buf, lowest, step, whole.stride_c, out);
    }
    const int table = trans ? OCLBLAS__K_GEMV_T : OCLBLAS__K_GEMV_N;
    oclblas_status st;
    const oclblas__params *gp = oclblas__devctx_params(cx, table, &shape, &st);
    const oclblas__params *rp = gp ? oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, &shape, &st) : NULL;
    const oclblas__params *hp = rp ? oclblas__devctx_params(cx, OCLBLAS__K_HELPERS, &shape, &st) : NULL;
    if (!hp)
        return st;

    const int per_cu = trans && rp->v[RT_GEMV_T_GROUPS_PER_CU] ? rp->v[RT_GEMV_T_GROUPS_PER_CU]
                                                               : rp->v[RT_GEMV_GROUPS_PER_CU];
    const size_t target = (size_t)cx->dev->compute_units * (size_t)per_cu;
    const size_t vw = (size_t)gp->v[trans ? GT_VW : GN_VW];
    const size_t lda = p->a.ld;
    size_t groups, splits, chunk, team;
    int vec;
    if (!trans) {
        /* Rows are the parallel direction; the columns are shared by a team
         * inside a work-group, and split across work-groups where the
         * groups are still too few, in multiples of the team's steps. A
         * panel (STRM = 2) covers every row: only its split is parallel. */
        const size_t rpg = oclblas__gemv_n_rows_per_group(gp);
        team = oclblas__gemv_n_team(gp, rows, cols, ceil_div(target, count));
        groups = (rpg ? ceil_div(rows, rpg / team) : 1) * count;
        splits = groups < target ? ceil_div(target, groups) : 1;
        const size_t max_splits = ceil_div(cols, 32 * team); /* keep each loop worth its partial sums */
        if (splits > max_splits)
            splits = max_splits ? max_splits : 1;
        chunk = splits > 1 ? round_up(ceil_div(cols, splits), team * (size_t)gp->v[GN_UNR]) : cols;
        splits = ceil_div(cols, chunk);
        vec = lda % vw == 0 && whole.stride_a % vw == 0 && p->a.align >= vw * sizeof(float) ? 1 : 2;
    } else {
        /* Columns are the parallel direction, each read by a team sized
         * to its length; rows may be split, in multiples of the team's
         * vectors. */
        team = oclblas__gemv_t_team(gp, rows);
        groups = ceil_div(cols, (size_t)gp->v[GT_WGS] / team) * count;
        splits = groups < target ? ceil_div(target, groups) : 1;
        if (groups * 2 > target && !worth_splitting(&cx->model, (double)rows * (double)cols * sizeof(float) * count))
            splits = 1;
        const size_t max_splits = ceil_div(rows, team * vw * 8);
        if (splits > max_splits)
            splits = max_splits ? max_splits : 1;
        chunk = ceil_div(ceil_div(rows, splits), team * vw) * team * vw;
        splits = ceil_div(rows, chunk);
        vec = p->x.inc != 1 ? 0
              : lda % vw == 0 && whole.stride_a % vw == 0 && whole.stride_b % vw == 0 &&
                        p->a.align >= vw * sizeof(float) && p->x.align >= vw * sizeof(float)
                    ? 1
                    : 2;
    }
    if (splits * len_y > INT_MAX / count || chunk > INT_MAX)
        return OCLBLAS_SIZE_TOO_LARGE;
    const int finish = splits > 1 && finishes_in_launch(cx->dev, trans, gp, splits, team);

    out->kind = OCLBLAS__PLAN_GEMV;
    class_of(cx, table, &shape, out);
    out->gemv.groups = groups;
    out->gemv.splits = splits;
    out->gemv.chunk = chunk;
    out->gemv.vec = vec;
    out->gemv.finish = finish;
    /* Without finish, the arrivals are never read: y stands in. */
    const oclblas__gemv_args a = {rows,        cols,          p->alpha,   p->beta,    p->a_buf,
                                  p->x_buf,    p->y_buf,      OCLBLAS__BUF_S2,        p->a.offset,
                                  lda,         p->x.offset,   p->y.offset, p->x.inc,  p->y.inc,
                                  chunk,       vec,           whole,      team,
                                  finish ? OCLBLAS__BUF_S3 : p->y_buf, finish};
    oclblas__step *g = add_step(out);
    if (trans)
        oclblas__gemv_t_step(gp, &a, g);
    else
        oclblas__gemv_n_step(gp, &a, g);
    if (splits > 1) {
        /* The partial sums: the previous user of the scratch set must be done with them. */
        out->scratch[2] = count * splits * len_y * sizeof(float);
        g->after_scratch = 1;
    }
    if (finish) {
        out->scratch[3] = groups * sizeof(int); /* a count for each block of rows of each problem */
    } else if (splits > 1) {
        const oclblas__gemv_reduce_args r = {len_y,       splits,   OCLBLAS__BUF_S2, p->alpha,
                                             p->beta,     p->y_buf, p->y.offset,     p->y.inc,
                                             count,       whole.stride_c, oclblas__gemv_reduce_team(hp, splits)};
        oclblas__step *s = add_step(out);
        oclblas__gemv_reduce_step(hp, &r, s);
        s->after = 1u << 0;
    }
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__gemv_batch_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p,
                                        const oclblas__batch *batch, oclblas__plan *out)
{
    return gemv_plan(cx, p, batch && batch->count > 1 ? batch : NULL, out);
}

/* ---- SGEMM --------------------------------------------------------------- */

/* The most bytes of scratch that a split of k (its partial sums) or a
 * batch (its problems' padded copies) may take: 256 MiB or an eighth of
 * the largest allocation. */
static size_t scratch_cap(const oclblas__device_info *dev)
{
    return dev->max_alloc / 8 < ((size_t)256 << 20) ? (size_t)(dev->max_alloc / 8) : (size_t)256 << 20;
}

/* The problems one launch of a batch may take (all of them for a single problem: 1). */
static size_t launch_problems(const oclblas__batch *batch)
{
    return !batch ? 1 : batch->count < OCLBLAS__MAX_BATCH_LAUNCH ? batch->count : OCLBLAS__MAX_BATCH_LAUNCH;
}

/* The k of each of at most s slices (a multiple of kwg; the last slice may
 * be shorter) and how many slices that makes. */
static size_t slices_of(size_t kp, size_t kwg, size_t s, size_t *k_slice)
{
    const size_t kt = kp / kwg, per = (kt + s - 1) / s;
    *k_slice = per * kwg;
    return (kt + per - 1) / per;
}

/* The most slices of k the partial sums may take: 64, within scratch_cap,
 * and indices in an int. */
static size_t max_slices(const oclblas__device_info *dev, size_t mp, size_t np)
{
    const size_t bytes_cap = scratch_cap(dev);
    size_t s = 64;
    while (s > 1 && (s * mp * np * sizeof(float) > bytes_cap || s * mp * np > (size_t)INT_MAX))
        --s;
    return s;
}

/* The split of k for gemm_fast by the routine values: how many slices (1:
 * none) and the k of each (a multiple of KWG). A product whose tiles of C
 * give few work-groups leaves most of the device idle however long k is
 * (256 x 256 x 65536, or 1024^3 with large tiles); its k is cut into
 * slices that run side by side, each into its own copy of C, which
 * sum_slices then adds. The aim is GEMM_SPLIT_K work-groups per compute
 * unit, and there is no split unless the tiles alone give at most half of
 * that (the slices' extra memory traffic would cost more than it gains);
 * such a slice keeps at least 256 of k (or one KWG). Independently, no
 * slice is longer than GEMM_MAX_SLICE_K (when not 0): a CPU runs a
 * work-group's items one after the other, each over the whole k, so the
 * work-group's panels of A and B must stay in its caches (2048^3 ran at a
 * third of 2048 x 2048 x 512's rate on our 2-core machine). There are at
 * most max_slices. */
static size_t k_slices(const oclblas__device_info *dev, int per_cu, int max_k, size_t tiles, size_t mp, size_t np,
                       size_t kp, size_t kwg, size_t *k_slice)
{
    *k_slice = kp;
    const size_t want = per_cu > 0 ? (size_t)per_cu * dev->compute_units : 0;
    const size_t kt = kp / kwg, min_kt = (256 + kwg - 1) / kwg;
    size_t s = 1;
    if (want && tiles < want) {
        s = want / tiles; /* no split until the tiles fill at most half */
        if (s > kt / min_kt)
            s = kt / min_kt;
    }
    if (max_k > 0 && kp > (size_t)max_k) {
        const size_t per_max = (size_t)max_k / kwg ? (size_t)max_k / kwg : 1; /* k tiles a slice may have */
        const size_t need = (kt + per_max - 1) / per_max;
        if (need > s)
            s = need;
    }
    const size_t cap = max_slices(dev, mp, np);
    if (s > cap)
        s = cap;
    return s < 2 ? 1 : slices_of(kp, kwg, s, k_slice);
}

/* What the entry measured of a set: its rate (flop/s), the shares of it
 * kept reading A, and B, in place along k, the factors on it of its
 * second program, peeled: with neither operand along k, and further with
 * A, with B along k (0: not measured; a set without them never runs that
 * program by the model), and the work-groups of it a compute unit holds
 * at once (0: not measured, the model estimates them). */
typedef struct {
    double rate;
    double along_k[2];
    double peeled[3];
    unsigned resident;
} set_facts;

/* The set of gemm_tc for the call's mode (in *out) where the mode allows
 * the tensor cores (not strict, GEMM_TC_MIN not 0) and the device has a
 * set for gemm_tc that runs in that mode; the entry may hold a set for each
 * mode, a class on the products the mode asks for. A set is tuned for the
 * accurate mode; one with no legal six-product form (a tf32 set: BK 8 or
 * KPAIR) cannot run it. Its rate, its shares along k, its peeled
 * program's factors and the work-groups a compute unit holds, where the
 * entry measured them, in *facts (else 0). */
static int tc_mode_set(const oclblas__devctx *cx, const oclblas__gemm_problem *p, const oclblas__shape *shape,
                       const oclblas__params *rp, oclblas__params *out, const char **cls, set_facts *facts)
{
    if (p->mode == OCLBLAS_MATH_STRICT || rp->v[RT_GEMM_TC_MIN] <= 0)
        return 0;
    oclblas__shape tc_shape = *shape;
    tc_shape.products = p->mode == OCLBLAS_MATH_TF32 ? 1 : 6;
    oclblas_status st;
    const oclblas__params *tp = oclblas__devctx_params(cx, OCLBLAS__K_GEMM_TC, &tc_shape, &st);
    if (!tp)
        return 0;
    *out = oclblas__kernels[OCLBLAS__K_GEMM_TC]->tiled->for_mode(tp, p->mode);
    *cls = oclblas__devctx_class(cx, OCLBLAS__K_GEMM_TC, &tc_shape);
    const int for_every_shape = tp == &cx->params[OCLBLAS__K_GEMM_TC];
    const double none[3] = {0, 0, 0};
    const double *shares = for_every_shape ? cx->along_k[OCLBLAS__K_GEMM_TC] : none;
    const double *peeled = for_every_shape ? cx->peeled[OCLBLAS__K_GEMM_TC] : none;
    facts->rate = for_every_shape ? cx->rate[OCLBLAS__K_GEMM_TC] : 0;
    facts->resident = for_every_shape ? cx->resident[OCLBLAS__K_GEMM_TC] : 0;
    for (int i = 0; i < cx->num_classes[OCLBLAS__K_GEMM_TC]; ++i)
        if (tp == &cx->classes[OCLBLAS__K_GEMM_TC][i].params) {
            facts->rate = cx->classes[OCLBLAS__K_GEMM_TC][i].rate;
            facts->resident = cx->classes[OCLBLAS__K_GEMM_TC][i].resident;
            shares = cx->classes[OCLBLAS__K_GEMM_TC][i].along_k;
            peeled = cx->classes[OCLBLAS__K_GEMM_TC][i].peeled;
        }
    facts->along_k[0] = shares[0];
    facts->along_k[1] = shares[1];
    for (int i = 0; i < 3; ++i)
        facts->peeled[i] = peeled[i];
    return oclblas__params_legal(OCLBLAS__K_GEMM_TC, out, &cx->dev->lim, NULL);
}

/* A batch's padded copies of A and B (f->a_copies, f->b_copies): one per
 * problem of an operand not read in place, one that every problem shares
 * (stride 0), none in place. The launch takes as many of f->problems as
 * the copies fit the scratch cap for, each slot inside the kernels' int;
 * 0 where not even two fit. */
static void batch_copies(const oclblas__devctx *cx, const oclblas__batch *batch, oclblas__fast_layout *f)
{
    const size_t stride[2] = {batch->stride_a, batch->stride_b}, copy[2] = {f->mp * f->kp, f->np * f->kp};
    const int in_place[2] = {f->a_in_place, f->b_in_place};
    size_t each = 0, shared = 0, largest = 0;
    for (int o = 0; o < 2; ++o) {
        const int per_problem = stride[o] && !in_place[o];
        each += per_problem ? copy[o] : 0;
        shared += !per_problem && !in_place[o] ? copy[o] : 0;
        largest = per_problem && copy[o] > largest ? copy[o] : largest;
    }
    if (each) {
        const size_t cap = scratch_cap(cx->dev) / sizeof(float);
        size_t fit = cap > shared ? (cap - shared) / each : 0;
        fit = fit < (size_t)INT_MAX / largest ? fit : (size_t)INT_MAX / largest;
        f->problems = fit < 2 ? 0 : fit < f->problems ? fit : f->problems;
    }
    f->a_copies = stride[0] && !in_place[0] ? f->problems : 1;
    f->b_copies = stride[1] && !in_place[1] ? f->problems : 1;
}

/* A set's tile and what the plan may have it read (kernels/tiled.h): A
 * and B in place stored with k contiguous, m and n that are not whole
 * tiles (ragged; peeled_ragged: in its peeled program only); peeled: its
 * second program for a k that is not whole tiles (read in place), and
 * peel_whole: for every k (the model prices it against the first). */
typedef struct {
    oclblas__tile t;
    int a_k_contiguous, b_k_contiguous;
    int ragged, peeled_ragged, peeled, peel_whole;
} set_tile;

static set_tile tile_of(int kernel, const oclblas__params *set)
{
    const oclblas__tiled *tiled = oclblas__kernels[kernel]->tiled;
    set_tile st = {{0}, 0, 0, 0, 0, 0, 0};
    tiled->tile(set, &st.t);
    if (tiled->reads_k_contiguous) {
        st.a_k_contiguous = tiled->reads_k_contiguous(set, 0);
        st.b_k_contiguous = tiled->reads_k_contiguous(set, 1);
    }
    st.ragged = tiled->reads_ragged;
    st.peeled_ragged = tiled->peeled_reads_ragged;
    st.peeled = tiled->peels && tiled->peels(set);
    return st;
}

/* Whether an operand of rows x k (rows: m of A, n of B; tile_rows a
 * tile's, read in vectors of vw, along k where k_contiguous) is in the
 * tiles the set reads in place: rows whole tiles or, where the kernel
 * reads them ragged (or its peeled program does and the set may run it),
 * at least a tile and whole vectors; k whole tiles or, where the set may
 * run its peeled program, anything (along k: whole vectors). */
static int tiles_fit(const set_tile *st, size_t rows, size_t k, size_t tile_rows, size_t vw, int k_contiguous)
{
    const int ragged = st->ragged || (st->peeled && st->peeled_ragged);
    const int rows_fit = rows % tile_rows == 0 || (ragged && rows >= tile_rows && rows % vw == 0);
    const int k_fit = k % st->t.k == 0 || (st->peeled && (!k_contiguous || k % vw == 0));
    return rows_fit && k_fit;
}

/* A kernel that reads panels (gemm_cpu) reads an operand stored with its
 * rows contiguous once for every panel of the other operand, a leading
 * dimension apart at each step of k. Read so, it is as fast as packed
 * only while the whole operand stays in the caches and is re-read a few
 * times (PoCL's AVX2 code: 256^2 products, 43 panels of B, and batches of
 * 128^2 ran 1.2 to 1.8x as fast as with the operand packed, since packing
 * a 128^2 operand costs as much as its product; a 64 x 1024 or 1024 x 64 A
 * re-read for 171 to 341 panels of B, 0.6 to 0.8x). */
#define PANEL_IN_PLACE_BYTES (256u * 1024u)
#define PANEL_IN_PLACE_REREADS 48u

/* Whether a kernel that reads panels reads in place an operand of rows x
 * k (the fit of its tiles aside, tiles_fit) that it reads once for each
 * of the other operand's panels: stored with k contiguous, always (the
 * panel's columns streamed side by side, as fast as packed: 1152^2 x 1024
 * at 193 GFLOPS against 194), else only where small and re-read little. */
static int panel_in_place(size_t rows, size_t k, int k_contiguous, size_t other_panels)
{
    return k_contiguous || (rows * k * sizeof(float) <= PANEL_IN_PLACE_BYTES && other_panels <= PANEL_IN_PLACE_REREADS);
}

/* What the indirect plan with a tiled kernel of this tile decides before
 * its steps: the padded problem, which operand is read in place (else
 * padded, or transposed on the way; packed for a kernel that reads
 * panels), the split of k into at most slices
 * slices (0: as the routine values say, k_slices), and of a batch (not
 * NULL) the problems of its launch and the copies they take (k never
 * split). */
static oclblas_status fast_layout(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                  const oclblas__params *rp, const set_tile *st, size_t slices,
                                  const oclblas__batch *batch, oclblas__fast_layout *f)
{
    const oclblas__tile *tile = &st->t;
    const size_t vwm = tile->vwa, vwn = tile->vwb, kwg = tile->k;
    const int at = p->trans_a != 0, bt = p->trans_b != 0;
    const size_t m = p->m, n = p->n, k = p->k, lda = p->a.ld, ldb = p->b.ld;
    const size_t mp = round_up(m, tile->m), np = round_up(n, tile->n), kp = round_up(k, kwg);
    if (mp > INT_MAX / kp || np > INT_MAX / kp)
        return OCLBLAS_SIZE_TOO_LARGE;
    /* Both kernels read A as (m, k) with m contiguous and B as (k, n) with
     * n contiguous, and a set that says so (reads_k_contiguous) also an A
     * (B) stored with k contiguous: the caller's A transposed (B not
     * transposed), transposed on its way into local memory. Where the
     * caller's operand is such, in the tiles the set reads in place
     * (tiles_fit), it is read in place (in whole vectors: leading
     * dimension, offset and alignment; if its indices fit the kernel's
     * int; in a batch, if every problem's operand starts on a whole
     * vector); a kernel that reads panels reads them so too (whole floats,
     * its panels' rows), but for an operand with rows contiguous only if
     * small (panel_in_place). */
    const size_t stride_a = batch ? batch->stride_a : 0, stride_b = batch ? batch->stride_b : 0;
    const int packed = tile->panel_a > 0; /* the kernel reads panels (gemm_cpu) */
    f->a_in_place = (!at || st->a_k_contiguous) && tiles_fit(st, m, k, tile->m, vwm, at) && lda % vwm == 0 &&
                    lda <= INT_MAX / (at ? mp : kp) && p->a.align >= vwm * sizeof(float) && stride_a % vwm == 0 &&
                    (!packed || panel_in_place(m, k, at, ceil_div(n, tile->panel_b)));
    f->b_in_place = (bt || st->b_k_contiguous) && tiles_fit(st, n, k, tile->n, vwn, !bt) && ldb % vwn == 0 &&
                    ldb <= INT_MAX / (bt ? kp : np) && p->b.align >= vwn * sizeof(float) && stride_b % vwn == 0 &&
                    (!packed || panel_in_place(n, k, !bt, ceil_div(m, tile->panel_a)));
    f->a_k_contiguous = f->a_in_place && at;
    f->b_k_contiguous = f->b_in_place && !bt;
    f->a_transposed = !packed && !f->a_in_place && at;
    f->b_transposed = !packed && !f->b_in_place && !bt;
    f->a_packed = packed && !f->a_in_place;
    f->b_packed = packed && !f->b_in_place;
    /* The set's second program where k is not whole tiles and that lets an
     * operand be read in place, where an operand in place is ragged and
     * only that program reads it so, or wherever it may (the kernel is then
     * given the real k). */
    const int ragged_in_place = (f->a_in_place && m != mp) || (f->b_in_place && n != np);
    f->peeled = st->peeled && (st->peel_whole || (k != kp && (f->a_in_place || f->b_in_place)) ||
                               (!st->ragged && ragged_in_place));
    f->mp = mp;
    f->np = np;
    f->kp = kp;
    f->k_slice = kp;
    f->problems = launch_problems(batch);
    f->a_copies = f->b_copies = 1;
    if (batch) {
        f->slices = 1;
        batch_copies(cx, batch, f);
    } else if (slices == 0) {
        f->slices = k_slices(cx->dev, rp->v[RT_GEMM_SPLIT_K], rp->v[RT_GEMM_MAX_SLICE_K],
                             (mp / tile->m) * (np / tile->n), mp, np, kp, kwg, &f->k_slice);
    } else {
        f->slices = slices > 1 ? slices_of(kp, kwg, slices, &f->k_slice) : 1;
    }
    return OCLBLAS_SUCCESS;
}

/* The problem transposed, C^T = B^T A^T, and a batch's strides with it
 * (tb where batch is not NULL): A's role taken by B stored as it is, B's
 * by A, C stored transposed. */
static void transposed_problem(const oclblas__gemm_problem *p, const oclblas__batch *batch, oclblas__gemm_problem *t,
                               oclblas__batch *tb)
{
    *t = *p;
    t->trans_a = !p->trans_b;
    t->trans_b = !p->trans_a;
    t->m = p->n;
    t->n = p->m;
    t->a = p->b;
    t->b = p->a;
    if (batch)
        *tb = (oclblas__batch){batch->count, batch->stride_b, batch->stride_a, batch->stride_c};
}

/* The floats packed into panels for a layout. */
static size_t packed_floats(const oclblas__fast_layout *f)
{
    return (f->a_packed ? f->a_copies * f->mp * f->kp : 0) + (f->b_packed ? f->b_copies * f->np * f->kp : 0);
}

/* Whether a kernel that reads panels computes C^T = B^T A^T (layout t)
 * rather than C = A B (layout f) for an m x n C: in one slice of k, where
 * the floats it saves packing are at least SWAP_MIN_SAVING times C's. Its
 * stores of C transposed, a float at a time a leading dimension apart,
 * cost more than the packing saved elsewhere (PoCL: column-major TT 1024 x
 * 1024 x 64, saving 64 Ki floats of 1 Mi in C, ran at 0.33x; 1000^3 TT,
 * saving as many as C's, 0.84x; TN 2048 x 64 x 1024, saving 2 Mi of 128
 * Ki, 2.1x). */
#define SWAP_MIN_SAVING 4
static int swap_pays(const oclblas__fast_layout *f, const oclblas__fast_layout *t, size_t m, size_t n)
{
    const size_t before = packed_floats(f), after = packed_floats(t);
    return t->problems == f->problems && t->slices == 1 && after < before &&
           (double)(before - after) >= SWAP_MIN_SAVING * (double)m * (double)n * (double)f->problems;
}

/* The step that copies operand 0 (A) or 1 (B) into scratch before the
 * main step: packed into panels by the tiled kernel itself, in the main
 * step's program, or padded by the helpers; its bit among the plan's steps. */
static unsigned copy_step(oclblas__plan *out, const oclblas__tiled *tiled, const oclblas__params *hp,
                          const oclblas__step *main_step, int operand, int packed, const oclblas__pad_args *a)
{
    const unsigned bit = 1u << out->num_steps;
    oclblas__step *s = add_step(out);
    if (packed)
        tiled->pack(&main_step->params, operand, a, s);
    else
        oclblas__pad_step(hp, a, s);
    s->after_scratch = 1;
    return bit;
}

/* The indirect plan: a tiled kernel (gemm_fast, gemm_tc or gemm_cpu) with
 * the given set (of the class cls, NULL for the set for every shape) on
 * operands that the helpers pad (and transpose), or pack into panels for
 * a kernel that reads panels, into scratch buffers, unless the kernel
 * reads the caller's own layout in place (fast_layout), with k in
 * at most slices slices (0: as the routine values say), reading what
 * reads (the set's tile_of, or less) says it may; of a strided batch where
 * batch is not NULL, or, where not even two problems' copies fit the
 * scratch, the single problem's plan. A kernel that reads panels computes
 * C^T = B^T A^T instead where that packs far fewer floats (swap_pays): a
 * large operand stored with k contiguous then comes as B, read in place,
 * where as A (whose vectors run along m) it would be packed. */
static oclblas_status tiled_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                 const oclblas__batch *batch, const oclblas__params *hp, const oclblas__params *rp,
                                 int main_kernel, const oclblas__params *main_set, const char *cls, size_t slices,
                                 const set_tile *reads, oclblas__plan *out)
{
    memset(out, 0, sizeof *out);
    const oclblas__tiled *tiled = oclblas__kernels[main_kernel]->tiled;
    const oclblas_status st = fast_layout(cx, p, rp, reads, slices, batch, &out->fast);
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (out->fast.problems == 0)
        return oclblas__gemm_plan(cx, p, out);
    oclblas__gemm_problem tp;
    oclblas__batch tb;
    oclblas__fast_layout tf;
    if (reads->t.panel_a) {
        transposed_problem(p, batch, &tp, &tb);
        if (fast_layout(cx, &tp, rp, reads, slices, batch ? &tb : NULL, &tf) == OCLBLAS_SUCCESS &&
            swap_pays(&out->fast, &tf, p->m, p->n)) {
            tf.swapped = 1;
            out->fast = tf;
            p = &tp;
            batch = batch ? &tb : NULL;
        }
    }
    /* The buffers A's and B's roles read from. */
    const oclblas__buf a_buf = out->fast.swapped ? OCLBLAS__BUF_B : OCLBLAS__BUF_A;
    const oclblas__buf b_buf = out->fast.swapped ? OCLBLAS__BUF_A : OCLBLAS__BUF_B;
    const int at = p->trans_a != 0, bt = p->trans_b != 0;
    const size_t m = p->m, n = p->n, k = p->k, lda = p->a.ld, ldb = p->b.ld;
    const size_t mp = out->fast.mp, np = out->fast.np, kp = out->fast.kp, k_slice = out->fast.k_slice;
    const int a_in_place = out->fast.a_in_place, b_in_place = out->fast.b_in_place;
    const size_t a_copies = out->fast.a_copies, b_copies = out->fast.b_copies;
    const size_t stride_a = batch ? batch->stride_a : 0, stride_b = batch ? batch->stride_b : 0;
    slices = out->fast.slices;
    out->kind = OCLBLAS__PLAN_FAST;
    out->problems = out->fast.problems;
    oclblas__strlcpy(out->cls, cls ? cls : "", sizeof out->cls);
    out->scratch[0] = a_in_place ? 0 : a_copies * mp * kp * sizeof(float);
    out->scratch[1] = b_in_place ? 0 : b_copies * np * kp * sizeof(float);
    out->scratch[2] = slices > 1 ? slices * mp * np * sizeof(float) : 0;

    /* With a split, each slice goes to the partial sums (alpha 1, beta 0,
     * leading dimension mp) and sum_slices applies alpha and beta. */
    const int split = slices > 1;
    oclblas__tile_args g = {m, n, out->fast.peeled ? k : kp, k_slice, mp * np,
                            split ? 1.0f : p->alpha, split ? 0.0f : p->beta,
                            a_in_place ? a_buf : OCLBLAS__BUF_S0,
                            b_in_place ? b_buf : OCLBLAS__BUF_S1,
                            split ? OCLBLAS__BUF_S2 : OCLBLAS__BUF_C,
                            a_in_place ? p->a.offset : 0, a_in_place ? lda : mp,
                            b_in_place ? p->b.offset : 0, b_in_place ? ldb : np,
                            split ? 0 : p->c.offset, split ? mp : p->c.ld, {0, 0, 0, 0},
                            out->fast.a_k_contiguous, out->fast.b_k_contiguous, out->fast.peeled,
                            out->fast.a_packed, out->fast.b_packed, out->fast.swapped};
    if (batch) /* the strides of the operands it reads: the caller's, or its copies' */
        g.batch = (oclblas__batch){out->problems, a_in_place ? stride_a : a_copies > 1 ? mp * kp : 0,
                                   b_in_place ? stride_b : b_copies > 1 ? np * kp : 0, batch->stride_c};
    /* The main step first, so that a kernel that packs its own panels does
     * so in its program. */
    oclblas__step main_step;
    tiled->step(main_set, &g, &main_step);
    unsigned pads = 0;
    if (!a_in_place) {
        const oclblas__pad_args a = {at, m, k, a_buf, p->a.offset, lda, mp, kp, OCLBLAS__BUF_S0,
                                     a_copies, stride_a, mp * kp};
        pads |= copy_step(out, tiled, hp, &main_step, 0, out->fast.a_packed, &a);
    }
    if (!b_in_place) {
        /* B's n must be the contiguous direction (or its panels' rows): stored
         * k x n (not transposed) it is turned. */
        const oclblas__pad_args b = {!bt, n, k, b_buf, p->b.offset, ldb, np, kp, OCLBLAS__BUF_S1,
                                     b_copies, stride_b, np * kp};
        pads |= copy_step(out, tiled, hp, &main_step, 1, out->fast.b_packed, &b);
    }
    const int fast = out->num_steps;
    out->main = fast;
    oclblas__step *s = add_step(out);
    *s = main_step;
    s->after = pads;
    /* Without pads before it, it is the first to write the scratch set (the partial sums). */
    s->after_scratch = !pads && split;
    if (split) {
        const oclblas__sum_slices_args sum = {m, n, slices, OCLBLAS__BUF_S2, mp, mp * np,
                                              p->alpha, p->beta, OCLBLAS__BUF_C, p->c.offset, p->c.ld};
        oclblas__step *t = add_step(out);
        oclblas__sum_slices_step(hp, &sum, t);
        t->after = 1u << fast;
    }
    return OCLBLAS_SUCCESS;
}

/* Whether a problem is mostly padding in a tiled kernel's tiles: its tiles
 * more than four times its work, well beyond gemm_fast's speed over
 * gemm_direct's on the devices measured (a batch of such problems goes to
 * the kernel with smaller tiles: from gemm_tc to gemm_fast, from gemm_fast
 * to gemm_direct, whose every access is guarded). */
static int mostly_padding(const oclblas__tile *tile, const oclblas__shape *s)
{
    const double padded =
        (double)round_up(s->m, tile->m) * (double)round_up(s->n, tile->n) * (double)round_up(s->k, tile->k);
    return padded > 4.0 * (double)s->m * (double)s->n * (double)s->k;
}

/* The tiled FP32 kernel of the indirect plan by the rules, rp the routine
 * values in force: gemm_cpu where GEMM_CPU says so (a CPU's entry: its
 * packed panels keep a block's sums in registers, where gemm_fast's tiles
 * spill them there), else gemm_fast. */
static int indirect_kernel(const oclblas__devctx *cx, const oclblas__params *rp)
{
    return rp->v[RT_GEMM_CPU] && cx->status[OCLBLAS__K_GEMM_CPU] == OCLBLAS_SUCCESS ? OCLBLAS__K_GEMM_CPU
                                                                                   : OCLBLAS__K_GEMM_FAST;
}

/* The indirect plan by the routine values and the classes' rules:
 * gemm_tc where the mode allows it (tc_mode_set), m * n * k (of a batch:
 * the whole batch's) is at least GEMM_TC_MIN cubed, and a batch's
 * problems are not mostly padding in its tiles; else the FP32 kernel
 * (indirect_kernel) with the set of its class for the shape (gemm_fast's
 * second program only for a k that is not whole tiles); k split by
 * k_slices. hp and rp: the helpers' and the routine's sets in force for
 * the shape. */
static oclblas_status fast_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                const oclblas__batch *batch, const oclblas__shape *shape, const oclblas__params *hp,
                                const oclblas__params *rp, oclblas__plan *out)
{
    oclblas_status st;
    const double min = (double)rp->v[RT_GEMM_TC_MIN];
    const double work = (double)p->m * (double)p->n * (double)p->k * (double)(batch ? batch->count : 1);
    oclblas__params tc_set;
    const char *cls = NULL;
    set_facts facts;
    if (work >= min * min * min && tc_mode_set(cx, p, shape, rp, &tc_set, &cls, &facts)) {
        const set_tile reads = tile_of(OCLBLAS__K_GEMM_TC, &tc_set);
        if (!batch || !mostly_padding(&reads.t, shape))
            return tiled_plan(cx, p, batch, hp, rp, OCLBLAS__K_GEMM_TC, &tc_set, cls, 0, &reads, out);
    }
    const int kernel = indirect_kernel(cx, rp);
    const oclblas__params *fp = oclblas__devctx_params(cx, kernel, shape, &st);
    if (!fp)
        return st;
    const set_tile reads = tile_of(kernel, fp);
    return tiled_plan(cx, p, batch, hp, rp, kernel, fp, oclblas__devctx_class(cx, kernel, shape), 0, &reads, out);
}

/* gemm_direct with the given set, straight from the caller's buffers; of
 * a strided batch where batch is not NULL. */
static void direct_plan(const oclblas__gemm_problem *p, const oclblas__batch *batch, const oclblas__params *dp,
                        const char *cls, oclblas__plan *out)
{
    memset(out, 0, sizeof *out);
    out->kind = OCLBLAS__PLAN_DIRECT;
    out->problems = launch_problems(batch);
    oclblas__strlcpy(out->cls, cls ? cls : "", sizeof out->cls);
    const oclblas__gemm_direct_args d = {p->trans_a != 0, p->trans_b != 0, p->m, p->n, p->k, p->alpha, p->beta,
                                         OCLBLAS__BUF_A, OCLBLAS__BUF_B, OCLBLAS__BUF_C,
                                         p->a.offset, p->a.ld, p->b.offset, p->b.ld, p->c.offset, p->c.ld};
    const oclblas__batch db = {out->problems, batch ? batch->stride_a : 0, batch ? batch->stride_b : 0,
                               batch ? batch->stride_c : 0};
    oclblas__gemm_direct_step(dp, &d, batch ? &db : NULL, add_step(out));
}

/* Whether a batch of count problems of the shape pays the indirect plan
 * (by the rules): the launch's whole work at the crossover or beyond
 * (where the padding passes pay for a single problem), and the problems
 * not mostly padding in the FP32 kernel's tiles. */
static int batch_pays_fast(const oclblas__devctx *cx, const oclblas__params *rp, const oclblas__shape *s,
                           size_t count, double cube)
{
    oclblas_status st;
    const int kernel = indirect_kernel(cx, rp);
    const oclblas__params *fp = oclblas__devctx_params(cx, kernel, s, &st);
    if (!fp || (double)count * (double)s->m * (double)s->n * (double)s->k < cube)
        return 0;
    oclblas__tile tile;
    oclblas__kernels[kernel]->tiled->tile(fp, &tile);
    return !mostly_padding(&tile, s);
}

/* ---- the choice by the cost model ----------------------------------------- */

/* Whether the model chooses the plan: the device's entry gives the model's
 * facts and a measured rate for the sets for every shape of the kernels it
 * chooses among (gemm_fast, gemm_direct, and gemm_tc where the device runs
 * it; gemm_cpu's sets join where GEMM_CPU is 1 and they have rates). A set
 * in force without a rate (an override, the tuner's candidate) leaves the
 * choice to the routine values and the classes' rules. */
static int model_decides(const oclblas__devctx *cx)
{
    return oclblas__model_valid(&cx->model) && cx->rate[OCLBLAS__K_GEMM_FAST] > 0 &&
           cx->rate[OCLBLAS__K_GEMM_DIRECT] > 0 &&
           (cx->status[OCLBLAS__K_GEMM_TC] != OCLBLAS_SUCCESS || cx->rate[OCLBLAS__K_GEMM_TC] > 0);
}

/* Work-items per work-group of a step. */
static size_t items_of(const oclblas__step *s)
{
    size_t items = 1;
    for (cl_uint d = 0; d < s->geo.dims; ++d)
        items *= s->geo.local[d];
    return items;
}

/* Work-groups of a step (of a batch's launch: all its problems'). */
static size_t groups_of(const oclblas__step *s)
{
    size_t groups = 1;
    for (cl_uint d = 0; d < s->geo.dims; ++d)
        groups *= s->geo.global[d] / s->geo.local[d];
    return groups;
}

/* The model's time for an indirect plan of this layout: its launches (the
 * pads, the kernel, the sum of slices), the bytes its pads and the sum
 * move, and its kernel's work-groups (a tile of C and a slice of k each,
 * for each problem of a batch's launch) at the set's rate, less its share
 * for each operand read in place along k (the set's own, measured, else
 * the device's along_k_share), times its peeled program's factors where
 * it runs that. */
static double tiled_time(const oclblas__devctx *cx, const oclblas__gemm_problem *p, const oclblas__tile *tile,
                         const oclblas__fast_layout *f, size_t items, const set_facts *sr)
{
    const double m = (double)p->m, n = (double)p->n, k = (double)p->k, fl = sizeof(float);
    const double device_share = cx->model.along_k_share > 0 ? cx->model.along_k_share : 1;
    double share = 1;
    if (f->a_k_contiguous)
        share *= sr->along_k[0] > 0 ? sr->along_k[0] : device_share;
    if (f->b_k_contiguous)
        share *= sr->along_k[1] > 0 ? sr->along_k[1] : device_share;
    if (f->peeled)
        share *= sr->peeled[0] * (f->a_k_contiguous ? sr->peeled[1] : 1) * (f->b_k_contiguous ? sr->peeled[2] : 1);
    const double pm = (double)f->mp, pn = (double)f->np, pk = (double)f->kp;
    const int split = f->slices > 1;
    oclblas__model_plan mp = {1 + !f->a_in_place + !f->b_in_place + split, 0,
                              {(f->mp / tile->m) * (f->np / tile->n) * f->slices * f->problems, items,
                               2.0 * (double)tile->m * (double)tile->n * (double)f->k_slice, sr->rate, share,
                               0, /* the tiled kernels fetch the next step of k while they multiply */
                               sr->resident}};
    if (!f->a_in_place)
        mp.bytes += fl * (double)f->a_copies * (m * k + pm * pk);
    if (!f->b_in_place)
        mp.bytes += fl * (double)f->b_copies * (n * k + pn * pk);
    if (split)
        mp.bytes += fl * ((double)f->slices * pm * pn + (p->beta != 0.0f ? 2 : 1) * m * n);
    return oclblas__model_plan_s(&cx->model, &mp);
}

/* The model's choice so far: the kernel, its set (a copy: gemm_tc's is
 * made for the mode), its class, the split, whether the batch runs as one
 * launch (else one problem per plan), what a tiled kernel may read (else
 * the helpers pad or turn it) and whether it runs its peeled program; the
 * time of its plan and of each problem it computes, and how many ways were
 * priced. */
typedef struct {
    int kernel;
    oclblas__params set;
    const char *cls;
    size_t slices;
    int batched;
    set_tile reads;
    double time_s, per_problem_s;
    int ways;
} choice;

static void consider(choice *best, int kernel, const oclblas__params *set, const char *cls, size_t slices,
                     int batched, const set_tile *reads, double t, size_t problems)
{
    const double per = t / (double)problems;
    if (best->ways++ == 0 || per < best->per_problem_s)
        *best = (choice){kernel, *set, cls, slices, batched, *reads, t, per, best->ways};
}

/* The split counts the model tries: up to 64 slices, each of at least 128
 * of k (or one KWG; the model prices the sum of the slices, so a split
 * need not leave more of k than the kernel's pipeline wants), no slice
 * longer than GEMM_MAX_SLICE_K, none where GEMM_SPLIT_K is 0. */
static const size_t split_tries[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};

/* Every split of k the model tries for one set of a tiled kernel, reading
 * what reads allows; of a batch (not NULL), its one launch without a
 * split. *read_along_k: whether the layout read an operand along k;
 * *ran_peeled: whether it ran the peeled program. */
static oclblas_status consider_splits(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                      const oclblas__batch *batch, const oclblas__params *rp, int kernel,
                                      const oclblas__params *set, const char *cls, const set_facts *sr,
                                      const set_tile *reads, choice *best, int *read_along_k, int *ran_peeled)
{
    const oclblas__tiled *tiled = oclblas__kernels[kernel]->tiled;
    const oclblas__tile tile = reads->t;
    /* The work-items of a work-group: the set's, whatever the problem. */
    oclblas__step probe;
    const oclblas__tile_args any = {tile.m, tile.n, tile.k, tile.k, 0, 1.0f, 0.0f, OCLBLAS__BUF_S0, OCLBLAS__BUF_S1,
                                    OCLBLAS__BUF_C, 0, tile.m, 0, tile.n, 0, tile.m, {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0};
    tiled->step(set, &any, &probe);
    const size_t items = items_of(&probe);
    oclblas__fast_layout f;
    oclblas_status st = fast_layout(cx, p, rp, reads, 1, batch, &f);
    *read_along_k = st == OCLBLAS_SUCCESS && (f.a_k_contiguous || f.b_k_contiguous);
    *ran_peeled = st == OCLBLAS_SUCCESS && f.peeled;
    if (st != OCLBLAS_SUCCESS || batch) {
        if (st == OCLBLAS_SUCCESS && f.problems) /* else the copies of two problems do not fit */
            consider(best, kernel, set, cls, 1, 1, reads, tiled_time(cx, p, &tile, &f, items, sr), f.problems);
        return st;
    }
    const size_t kt = f.kp / tile.k, min_kt = (128 + tile.k - 1) / tile.k;
    const int max_k = rp->v[RT_GEMM_MAX_SLICE_K];
    const size_t per_max = max_k > 0 ? ((size_t)max_k / tile.k ? (size_t)max_k / tile.k : 1) : kt;
    const size_t cap = max_slices(cx->dev, f.mp, f.np), want = (kt + per_max - 1) / per_max;
    const size_t need = want < cap ? want : cap; /* as k_slices: the partial sums' cap first */
    /* GEMM_MAX_SLICE_K asks for at least need slices; GEMM_SPLIT_K = 0 for no more than that. */
    size_t upper = rp->v[RT_GEMM_SPLIT_K] == 0 ? need : kt / min_kt > need ? kt / min_kt : need;
    if (upper > cap)
        upper = cap;
    /* No split can beat the call, its pads, the sum's launch and the padded
     * product at the set's full rate: where the best so far does, the
     * splits after the first way are not priced. */
    const oclblas__model_device *d = &cx->model;
    double top = sr->rate; /* the fastest it may run, peeled or not */
    for (int i = 0; i < 3 && f.peeled; ++i)
        top *= sr->peeled[i] > 1 ? sr->peeled[i] : 1;
    const double bound = d->call_s + (1 + !f.a_in_place + !f.b_in_place) * d->launch_s +
                         2.0 * (double)f.mp * (double)f.np * (double)f.kp / top;
    size_t last = 0;
    for (size_t i = 0; i <= sizeof split_tries / sizeof split_tries[0]; ++i) {
        const size_t s = i == 0 ? need : split_tries[i - 1];
        if (s < need || s > (upper > 1 ? upper : 1) || (last && bound >= best->per_problem_s))
            continue;
        if ((st = fast_layout(cx, p, rp, reads, s, NULL, &f)) != OCLBLAS_SUCCESS)
            return st;
        if (f.slices == last)
            continue;
        last = f.slices;
        consider(best, kernel, set, cls, f.slices, 0, reads, tiled_time(cx, p, &tile, &f, items, sr), 1);
    }
    return OCLBLAS_SUCCESS;
}

/* One set of a tiled kernel: its splits reading in place along k what it
 * can, and, where that reads an operand along k, its splits with the
 * helpers turning that operand first (a pass over it, against a slower
 * load in every work-group: the model weighs the two); each with its
 * peeled program where the entry measured that program's factors, and
 * without it (on padded k where k is not whole tiles). A batch's launch
 * runs the first program: the factors were measured on single problems,
 * never on a batch's launch. */
static oclblas_status consider_tiled(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                     const oclblas__batch *batch, const oclblas__params *rp, int kernel,
                                     const oclblas__params *set, const char *cls, const set_facts *sr, choice *best)
{
    set_tile full = tile_of(kernel, set);
    full.peeled = full.peel_whole = full.peeled && sr->peeled[0] > 0 && !batch;
    oclblas_status st;
    for (int along_k = 1; along_k >= 0; --along_k) {
        set_tile reads = full;
        if (!along_k)
            reads.a_k_contiguous = reads.b_k_contiguous = 0;
        int read_along_k, ran_peeled;
        if ((st = consider_splits(cx, p, batch, rp, kernel, set, cls, sr, &reads, best, &read_along_k, &ran_peeled)))
            return st;
        if (ran_peeled) {
            reads.peeled = reads.peel_whole = 0;
            int unused;
            if ((st = consider_splits(cx, p, batch, rp, kernel, set, cls, sr, &reads, best, &unused, &unused)))
                return st;
        }
        if (!read_along_k)
            break;
    }
    return OCLBLAS_SUCCESS;
}

/* The plan the model finds fastest among: gemm_direct with each of its
 * sets, gemm_fast with each of its sets and each split of k, and gemm_tc
 * with the mode's set and each split where the mode allows the tensor
 * cores. Every set of the entry is a candidate whatever its class's rule
 * (a rule says where a set was tuned for, not where it may run); a set
 * without a measured rate is not. The ways are priced from their
 * decisions alone; only the chosen one is built. Of a batch (not NULL),
 * the ways are its one launch with gemm_direct, gemm_fast with each set
 * or gemm_tc (no split), and the single problem's own choice run once per
 * problem, compared per problem. hp and rp as for fast_plan. */
static oclblas_status model_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                 const oclblas__batch *batch, const oclblas__shape *shape, const oclblas__params *hp,
                                 const oclblas__params *rp, oclblas__plan *out)
{
    oclblas_status st;
    choice best = {0};
    if (batch) { /* one problem per plan: the single problem's own choice */
        if ((st = model_plan(cx, p, NULL, shape, hp, rp, out)) != OCLBLAS_SUCCESS)
            return st;
        best.ways = 1;
        best.time_s = best.per_problem_s = out->model.time_s;
    }
    static const int tables[] = {OCLBLAS__K_GEMM_DIRECT, OCLBLAS__K_GEMM_FAST, OCLBLAS__K_GEMM_CPU};
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t) {
        const int kernel = tables[t];
        for (int i = -1; i < cx->num_classes[kernel]; ++i) {
            const oclblas__class_set *c = i >= 0 ? &cx->classes[kernel][i] : NULL;
            const double *along_k = c ? c->along_k : cx->along_k[kernel];
            const double *peeled = c ? c->peeled : cx->peeled[kernel];
            const set_facts sr = {c ? c->rate : cx->rate[kernel], {along_k[0], along_k[1]},
                                  {peeled[0], peeled[1], peeled[2]}, c ? c->resident : cx->resident[kernel]};
            const oclblas__params *set = c ? &c->params : &cx->params[kernel];
            const char *cls = c ? c->cls.name : NULL;
            if (!(sr.rate > 0) || (kernel == OCLBLAS__K_GEMM_CPU && !rp->v[RT_GEMM_CPU]))
                continue;
            if (kernel == OCLBLAS__K_GEMM_DIRECT) {
                /* One launch on the caller's buffers, every group a tile of C over the whole of k:
                 * it runs every multiply-add of its tile, in whole steps of k, where the
                 * tile overhangs C too (a 32 x 32 tile costs an 8 x 8 product four times
                 * what a 16 x 16 one does), and waits for its loads at every step. */
                oclblas__plan probe;
                direct_plan(p, batch, set, cls, &probe);
                const oclblas__step *s = &probe.step[0];
                const double wgd = (double)set->v[GD_WGD];
                const size_t steps = ceil_div(p->k, (size_t)set->v[GD_KWGD]);
                const double group_flops = 2.0 * wgd * wgd * (double)(steps * (size_t)set->v[GD_KWGD]);
                const oclblas__model_plan mp = {1, 0,
                                                {groups_of(s), items_of(s), group_flops, sr.rate, 1, steps, sr.resident}};
                const set_tile reads_as_is = {{0}, 0, 0, 0, 0, 0, 0}; /* not a tiled kernel's */
                consider(&best, kernel, set, cls, 0, batch != NULL, &reads_as_is, oclblas__model_plan_s(&cx->model, &mp),
                         probe.problems);
            } else if ((st = consider_tiled(cx, p, batch, rp, kernel, set, cls, &sr, &best))) {
                return st;
            }
        }
    }
    oclblas__params tc_set;
    const char *cls = NULL;
    set_facts tc_rate = {0, {0, 0}, {0, 0, 0}, 0};
    if (tc_mode_set(cx, p, shape, rp, &tc_set, &cls, &tc_rate) && tc_rate.rate > 0 &&
        (st = consider_tiled(cx, p, batch, rp, OCLBLAS__K_GEMM_TC, &tc_set, cls, &tc_rate, &best)))
        return st;
    if (!best.ways)
        return OCLBLAS_INVALID_PARAMS;
    if (batch && !best.batched) { /* the single problem's plan, already in out */
        out->model.ways = best.ways;
        return OCLBLAS_SUCCESS;
    }
    const oclblas__batch *b = best.batched ? batch : NULL;
    if (best.kernel == OCLBLAS__K_GEMM_DIRECT)
        direct_plan(p, b, &best.set, best.cls, out);
    else if ((st = tiled_plan(cx, p, b, hp, rp, best.kernel, &best.set, best.cls, best.slices, &best.reads, out)))
        return st;
    out->model.time_s = best.time_s;
    out->model.ways = best.ways;
    return OCLBLAS_SUCCESS;
}

/* The plan of p alone (batch NULL) or of a strided batch of it. */
static oclblas_status gemm_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p, const oclblas__batch *batch,
                                oclblas__plan *out)
{
    memset(out, 0, sizeof *out);
    const int at = p->trans_a != 0, bt = p->trans_b != 0;
    const size_t m = p->m, n = p->n, k = p->k;
    const oclblas__shape shape = {m, n, k, 0};
    out->problems = launch_problems(batch);
    if (k == 0 || p->alpha == 0.0f)
        return scale_plan(cx, &shape, m, n, p->beta, OCLBLAS__BUF_C, p->c.offset, p->c.ld, batch ? batch->stride_c : 0,
                          out);
    /* A product with one row or one column of C is a matrix-vector product. */
    if (!batch && (n == 1 || m == 1)) {
        oclblas__gemv_problem g = {.alpha = p->alpha, .beta = p->beta, .y_buf = OCLBLAS__BUF_C, .mode = p->mode};
        g.y = (oclblas__operand){p->c.offset, 0, 1, p->c.align};
        if (n == 1) { /* c = op(A) * (column of op(B)) */
            g.trans = at;
            g.rows = at ? k : m;
            g.cols = at ? m : k;
            g.a = p->a;
            g.a_buf = OCLBLAS__BUF_A;
            g.x = (oclblas__operand){p->b.offset, 0, bt ? (ptrdiff_t)p->b.ld : 1, p->b.align};
            g.x_buf = OCLBLAS__BUF_B;
        } else { /* c^T = op(B)^T * (row of op(A))^T */
            g.trans = !bt;
            g.rows = bt ? n : k;
            g.cols = bt ? k : n;
            g.a = p->b;
            g.a_buf = OCLBLAS__BUF_B;
            g.x = (oclblas__operand){p->a.offset, 0, at ? 1 : (ptrdiff_t)p->a.ld, p->a.align};
            g.x_buf = OCLBLAS__BUF_A;
            g.y.inc = (ptrdiff_t)p->c.ld;
        }
        return oclblas__gemv_plan(cx, &g, out);
    }
    oclblas_status st;
    const oclblas__params *rp = oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, &shape, &st);
    if (!rp)
        return st;
    /* The helpers' set, which every indirect plan reads (NULL: none for this device, st says why). */
    oclblas_status hst;
    const oclblas__params *hp = oclblas__devctx_params(cx, OCLBLAS__K_HELPERS, &shape, &hst);
    const double crossover = (double)rp->v[RT_GEMM_MIN_INDIRECT];
    const double cube = crossover * crossover * crossover, work = (double)m * (double)n * (double)k;
    /* A batch of matrix-vector products large enough to fill the device alone: one gemv per problem. */
    if (batch && (n == 1 || m == 1) && work >= cube)
        return gemm_plan(cx, p, NULL, out);
    if ((n > 1 && m > 1) && model_decides(cx) &&
        (st = hp ? model_plan(cx, p, batch, &shape, hp, rp, out) : hst) != OCLBLAS_INVALID_PARAMS)
        return st;
    memset(out, 0, sizeof *out);
    out->problems = launch_problems(batch);
    if (batch ? batch_pays_fast(cx, rp, &shape, batch->count, cube) : work >= cube)
        return hp ? fast_plan(cx, p, batch, &shape, hp, rp, out) : hst;
    const oclblas__params *dp = oclblas__devctx_params(cx, OCLBLAS__K_GEMM_DIRECT, &shape, &st);
    if (!dp)
        return st;
    direct_plan(p, batch, dp, oclblas__devctx_class(cx, OCLBLAS__K_GEMM_DIRECT, &shape), out);
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__gemm_batch_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p,
                                        const oclblas__batch *batch, oclblas__plan *out)
{
    return gemm_plan(cx, p, batch && batch->count > 1 ? batch : NULL, out);
}

/* ---- the verbose log ------------------------------------------------------- */

static char trans_letter(oclblas_transpose t)
{
    return t == OCLBLAS_NO_TRANS ? 'N' : t == OCLBLAS_TRANS ? 'T' : 'C';
}

static void put(char *buf, size_t len, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    const int w = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used += (size_t)w;
}

static const char *operand_way(int in_place, int k_contiguous, int transposed, int packed)
{
    return k_contiguous ? "in place along k"
           : in_place   ? "in place"
           : transposed ? "transposed"
           : packed     ? "packed"
                        : "padded";
}

void oclblas__plan_describe(const oclblas__call *call, const oclblas__plan *plan, char *buf, size_t len)
{
    const int row = call->layout == OCLBLAS_ROW_MAJOR, gemm = strcmp(call->routine, "sgemm") == 0;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    /* The class of shapes whose parameters the kernel runs with, if not the set for every shape. */
    char cls[OCLBLAS__CLASS_NAME + 16] = "";
    if (plan->cls[0])
        snprintf(cls, sizeof cls, " [class %s]", plan->cls);
    if (gemm)
        put(buf, len, &used, "sgemm %zux%zux%zu %c%c: ", call->m, call->n, call->k, trans_letter(call->trans_a),
            trans_letter(call->trans_b));
    else
        put(buf, len, &used, "sgemv %zux%zu %c: ", call->m, call->n, trans_letter(call->trans_a));
    switch (plan->kind) {
    case OCLBLAS__PLAN_NOTHING:
        put(buf, len, &used, "nothing to compute (beta = 1)");
        break;
    case OCLBLAS__PLAN_SCALE:
        put(buf, len, &used, "%s = beta * %s (scale_matrix)", gemm ? "C" : "y", gemm ? "C" : "y");
        break;
    case OCLBLAS__PLAN_DIRECT:
        put(buf, len, &used, "%s%s", oclblas__kernels[plan->step[0].kernel]->name, cls);
        break;
    case OCLBLAS__PLAN_GEMV:
        put(buf, len, &used, "%s%s, %zu work-groups x %zu split%s%s", oclblas__kernels[plan->step[0].kernel]->name,
            cls, plan->gemv.groups, plan->gemv.splits,
            plan->gemv.splits < 2 ? "" : plan->gemv.finish ? "s (added up by the last to arrive)" : "s (gemv_reduce)",
            plan->gemv.vec == 1 ? ", vector loads" : plan->gemv.vec == 2 ? ", unaligned vector loads" : "");
        break;
    case OCLBLAS__PLAN_FAST: {
        /* The plan is column-major: a row-major call's A is its B, its m the
         * plan's n; and again where the plan computes C^T = B^T A^T. */
        const int flip = row != plan->fast.swapped;
        const int a_ip = flip ? plan->fast.b_in_place : plan->fast.a_in_place;
        const int b_ip = flip ? plan->fast.a_in_place : plan->fast.b_in_place;
        const int a_tr = flip ? plan->fast.b_transposed : plan->fast.a_transposed;
        const int b_tr = flip ? plan->fast.a_transposed : plan->fast.b_transposed;
        const int a_kc = flip ? plan->fast.b_k_contiguous : plan->fast.a_k_contiguous;
        const int b_kc = flip ? plan->fast.a_k_contiguous : plan->fast.b_k_contiguous;
        const int a_pk = flip ? plan->fast.b_packed : plan->fast.a_packed;
        const int b_pk = flip ? plan->fast.a_packed : plan->fast.b_packed;
        const oclblas__step *main = &plan->step[plan->main];
        const oclblas__tiled *tiled = oclblas__kernels[main->kernel]->tiled;
        const char *label = tiled && tiled->label ? tiled->label(&main->params) : NULL;
        put(buf, len, &used, "%s%s%s%s%s on %zux%zux%zu, A %s, B %s, %zu slice%s of k",
            oclblas__kernels[main->kernel]->name, label ? " (" : "", label ? label : "", label ? ")" : "", cls,
            flip ? plan->fast.np : plan->fast.mp, flip ? plan->fast.mp : plan->fast.np, plan->fast.kp,
            operand_way(a_ip, a_kc, a_tr, a_pk), operand_way(b_ip, b_kc, b_tr, b_pk),
            plan->fast.slices, plan->fast.slices > 1 ? "s" : "");
        if (plan->fast.swapped)
            put(buf, len, &used, ", C stored transposed (C^T = B^T A^T)");
        if (plan->fast.peeled)
            put(buf, len, &used, ", peeled%s", plan->fast.kp != call->k ? " (k read ragged)" : "");
        break;
    }
    }
    if (plan->problems > 1)
        put(buf, len, &used, ", %zu problems in one launch", plan->problems);
    put(buf, len, &used, "; %s-major", row ? "row" : "column");
    if (plan->model.ways)
        put(buf, len, &used, "; model %.1f us, the fastest of %d ways", plan->model.time_s * 1e6, plan->model.ways);
}
