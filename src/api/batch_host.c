/*
 * The batched calls on host memory: synchronous, on the default device or
 * the host BLAS, checked as the device-buffer calls are (every problem by
 * the single call's rules, no two problems writing one element of C or y)
 * before anything is read or written.
 *
 * Where: the host BLAS, problem by problem, when no device can serve (none
 * present, none that OCLBLAS_DEVICE names: as the single calls), when the
 * batch's whole work is at most the device's HOST_MAX cubed (a round trip
 * costs more; for SGEMV, as the single call, m * n summed over the batch
 * against HOST_MAX cubed) or OCLBLAS_HOST_CALLS=host says so; SGEMV also
 * where the cost model of the single call, given the batch's bytes,
 * expects the host to be faster. The host report and the verbose log give
 * the reason in the host plan's words (plan/host_plan.h).
 * Else the device: where it shares memory with the host and the strided
 * batch lies inside the index limit, on the caller's arrays in place
 * (CL_MEM_USE_HOST_PTR, nothing copied); otherwise each operand of the
 * batch crosses in one transfer, packed (every problem's operand
 * tight, one after the other: the lines between and the padding are not
 * moved) unless it is packed already, into device buffers of the host
 * path's lanes (hostdev.c: within its memory budget, kept between calls),
 * the batch runs as one batched call on them (batch_cl.c), and C comes back
 * in one transfer and is unpacked into the caller's problems, so that no
 * element outside them is ever written. A batch larger than the budget, a
 * buffer or the index limit allow crosses in chunks of whole problems (a
 * problem that alone is that large runs as the single call runs it). A
 * device that fails while copying leaves the problems it had not delivered
 * to the host BLAS, C receiving each problem once, whole; in place, its
 * failure is the call's status, as for the single calls.
 */
#include "api/batch.h"
#include "host/pipeline.h"
#include "api/checks.h"
#include "api/host.h"
#include "api/split.h"
#include "host/hostblas.h"
#include "host/hostdev.h"
#include "host/pool.h"
#include "host/sysblas.h"
#include "kernels/routine.h"
#include "plan/context.h"
#include "plan/host_plan.h"
#include "plan/plan.h"
#include "runtime/devctx.h"
#include "runtime/execute.h"
#include "runtime/run.h"
#include "util/settings.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* OCLBLAS_HOST_ZERO_COPY=0 makes host calls copy even where memory is shared (as in host.c). */
static int zero_copy_allowed(void) { return oclblas__settings_get()->host_zero_copy; }

/* ---- a batch's operands in host memory ------------------------------------ */

/* The three operands of a host batch (A, B, C; or A, x, y): strided (every
 * problem's operand of one shape, stride elements after the previous) or,
 * for a grouped batch (items not NULL), problem i's operands at ptr[o][i]
 * with its own shape. An operand is outer lines of inner elements, ld
 * apart; a vector is one element per line, |inc| apart. used[o] 0: the
 * batch does not read operand o (nor write it: C is always used). mode:
 * the call's math mode, read once by its front door. */
typedef struct {
    oclblas_layout layout;
    oclblas_math_mode mode;
    size_t count;
    int used[3];
    size_t inner[3], outer[3], ld[3], stride[3];
    const float *base[3];
    const oclblas__gemm_item *items;
    const float *const *ptr[3];
} host_ops;

/* Operand o of problem i: where it starts, its lines. */
static const float *op_at(const host_ops *h, int o, size_t i, size_t *inner, size_t *outer, size_t *ld)
{
    if (!h->items) {
        *inner = h->inner[o];
        *outer = h->outer[o];
        *ld = h->ld[o];
        return h->base[o] + i * h->stride[o];
    }
    size_t in[3], out[3];
    oclblas__gemm_shapes(h->layout, &h->items[i], in, out);
    const size_t lds[3] = {h->items[i].lda, h->items[i].ldb, h->items[i].ldc};
    *inner = in[o];
    *outer = out[o];
    *ld = lds[o];
    return h->ptr[o][i];
}

/* Where operand o of problem i starts. */
static const float *start_of(const host_ops *h, int o, size_t i)
{
    size_t inner, outer, ld;
    return op_at(h, o, i, &inner, &outer, &ld);
}

/* Elements of operand o of problem i packed tight; 0 where the problem
 * does not use it (a grouped problem with m or n 0, or A and B where k or
 * alpha is 0). */
static size_t tight_size(const host_ops *h, int o, size_t i)
{
    if (!h->used[o])
        return 0;
    if (h->items) {
        const oclblas__gemm_item *g = &h->items[i];
        if (g->m == 0 || g->n == 0 || (o < 2 && (g->k == 0 || g->alpha == 0.0f)))
            return 0;
    }
    size_t inner, outer, ld;
    op_at(h, o, i, &inner, &outer, &ld);
    return inner * outer;
}

/* Whether a strided operand is packed already: its lines and problems follow one another. */
static int packed(const host_ops *h, int o)
{
    return !h->items && h->ld[o] == h->inner[o] && (h->stride[o] == h->inner[o] * h->outer[o] || h->count == 1);
}

/* Problems [first, first + count) of operand o between the caller's memory
 * and a tight copy (problem i at tight + off[i - first]), with the pool's
 * threads: each part takes a run of problems. */
typedef struct {
    const host_ops *h;
    int o, unpack;
    size_t first, count, per;
    float *tight;
    const size_t *off;
} copy_job;

static void copy_part(void *arg, size_t part)
{
    const copy_job *j = arg;
    const size_t end = min_size(j->count, (part + 1) * j->per);
    for (size_t p = part * j->per; p < end; ++p) {
        if (!tight_size(j->h, j->o, j->first + p))
            continue;
        size_t inner, outer, ld;
        const float *src = op_at(j->h, j->o, j->first + p, &inner, &outer, &ld);
        float *t = j->tight + j->off[p];
        for (size_t l = 0; l < outer; ++l) {
            if (j->unpack) /* the caller's C or y, given to us writable */
                memcpy((float *)src + l * ld, t + l * inner, inner * sizeof(float));
            else
                memcpy(t + l * inner, src + l * ld, inner * sizeof(float));
        }
    }
}

static void copy_problems(const host_ops *h, int o, int unpack, size_t first, size_t count, float *tight,
                          const size_t *off)
{
    const size_t parts = min_size(count, 4 * (size_t)oclblas__pool_threads());
    copy_job j = {h, o, unpack, first, count, (count + parts - 1) / parts, tight, off};
    oclblas__pool_run((count + j.per - 1) / j.per, copy_part, &j);
}

/* ---- the device ------------------------------------------------------------ */

/* Runs a batch on device buffers that hold it: a, b, c (or a, x, y) with
 * problem i at the offsets tight packing gives (grouped: off[o][i]) or, in
 * place, where the caller's arrays put it. */
typedef oclblas_status (*device_run)(void *ctx, int in_place, size_t first, size_t count, const size_t *const off[3],
                                     cl_mem a, cl_mem b, cl_mem c, cl_command_queue q);

/* Bytes moved, for the report. */
typedef struct {
    double to, from;
} moved;

/* The strided batch on the caller's arrays in place, where the device shares
 * memory with the host and each operand's span fits a buffer and the index
 * limit. Returns 0 when it does not apply (nothing done). */
static int run_in_place(const host_ops *h, const oclblas__default_device *d, device_run run, void *run_ctx,
                        oclblas_status *st)
{
    if (h->items || !d->info->unified_memory || !zero_copy_allowed())
        return 0;
    size_t end[3];
    for (int o = 0; o < 3; ++o) {
        end[o] = h->used[o] ? oclblas__batch_end(0, h->stride[o], h->count,
                                                 oclblas__extent(h->inner[o], h->outer[o], h->ld[o]))
                            : 0;
        if (end[o] > oclblas__index_limit() || end[o] > d->info->max_alloc / sizeof(float))
            return 0;
    }
    cl_mem m[3] = {NULL, NULL, NULL};
    cl_int err = CL_SUCCESS;
    for (int o = 0; o < 3 && err == CL_SUCCESS; ++o)
        if (end[o])
            m[o] = clCreateBuffer(d->context, (o == 2 ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY) | CL_MEM_USE_HOST_PTR,
                                  end[o] * sizeof(float), (void *)h->base[o], &err);
    *st = (oclblas_status)err;
    if (*st == OCLBLAS_SUCCESS)
        *st = run(run_ctx, 1, 0, h->count, NULL, m[0], m[1], m[2], d->queue);
    if (*st == OCLBLAS_SUCCESS) {
        /* Mapping is what makes the device's writes visible in the host array. */
        void *p = clEnqueueMapBuffer(d->queue, m[2], CL_TRUE, CL_MAP_READ, 0, end[2] * sizeof(float), 0, NULL, NULL,
                                     &err);
        if (err == CL_SUCCESS)
            err = clEnqueueUnmapMemObject(d->queue, m[2], p, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(d->queue);
        *st = (oclblas_status)err;
    } else {
        clFinish(d->queue);
    }
    for (int o = 0; o < 3; ++o)
        if (m[o])
            clReleaseMemObject(m[o]);
    return 1;
}

/* The problems from `first` on that one chunk takes: at most `most`, each
 * operand's tight copy within `cap` elements (at least one problem).
 * off[o] gets each problem's tight offset, tight[o] the chunk's elements
 * of operand o. An operand every problem shares (stride 0) counts once. */
static size_t chunk_of(const host_ops *h, size_t first, size_t most, size_t cap, size_t *off[3], size_t tight[3])
{
    size_t i = first;
    tight[0] = tight[1] = tight[2] = 0;
    for (; i < h->count && i - first < most; ++i) {
        size_t add[3];
        int fits = 1;
        for (int o = 0; o < 3; ++o) {
            const int shared = !h->items && h->stride[o] == 0 && i > first;
            add[o] = h->used[o] && !shared ? tight_size(h, o, i) : 0;
            fits &= add[o] <= cap - tight[o];
        }
        if (!fits && i > first)
            break;
        for (int o = 0; o < 3; ++o) {
            off[o][i - first] = add[o] ? tight[o] : 0;
            tight[o] += add[o];
        }
    }
    return i - first;
}

/* The batch through device buffers, chunk by chunk from problem *done on;
 * *done gets the problems delivered (C written). */
static oclblas_status run_copied(const host_ops *h, const oclblas__default_device *d, int reads_c, device_run run,
                                 void *run_ctx, size_t *done, moved *bytes)
{
    oclblas__hostdev *hd = oclblas__hostdev_get(0);
    oclblas_status st;
    oclblas__lane *l = oclblas__lane_take(hd, &st);
    if (!l)
        return st;
    /* A chunk's operands take at most a third of the budget each, inside one buffer and the index limit. */
    const size_t cap = min_size(min_size(hd->budget / 3, (size_t)d->info->max_alloc) / sizeof(float),
                                oclblas__index_limit());
    size_t *off[3] = {NULL, NULL, NULL};
    float *stage[3] = {NULL, NULL, NULL};
    size_t stage_elems[3] = {0, 0, 0};
    cl_mem buf[3] = {NULL, NULL, NULL};
    size_t buf_bytes[3] = {0, 0, 0};
    const size_t per_chunk = min_size(h->count - *done, cap);
    for (int o = 0; o < 3; ++o)
        if (!(off[o] = malloc(per_chunk * sizeof *off[o])))
            st = OCLBLAS_OUT_OF_HOST_MEMORY;
    cl_command_queue q = l->comp;
    while (st == OCLBLAS_SUCCESS && *done < h->count) {
        size_t tight[3];
        const size_t n = chunk_of(h, *done, per_chunk, cap, off, tight);
        if (tight[0] > cap || tight[1] > cap || tight[2] > cap)
            break; /* one problem beyond a chunk: the caller runs it alone */
        for (int o = 0; o < 3 && st == OCLBLAS_SUCCESS; ++o) {
            if (!tight[o] || tight[o] * sizeof(float) <= buf_bytes[o])
                continue;
            oclblas__lane_buffer_put(l, buf[o], buf_bytes[o]);
            buf[o] = NULL;
            st = oclblas__lane_buffer(l, tight[o] * sizeof(float), &buf[o], &buf_bytes[o]);
        }
        /* Each operand in one transfer: straight from the caller's memory
         * where it is packed already, else packed first. */
        for (int o = 0; o < 3 && st == OCLBLAS_SUCCESS; ++o) {
            const int shared = !h->items && h->stride[o] == 0 && h->count > 1;
            if (!tight[o] || (o == 2 && !reads_c) || (shared && *done > 0))
                continue;
            const float *from = start_of(h, o, *done);
            if (!packed(h, o)) {
                if (tight[o] > stage_elems[o]) {
                    free(stage[o]);
                    stage_elems[o] = 0;
                    if (!(stage[o] = malloc(tight[o] * sizeof(float)))) {
                        st = OCLBLAS_OUT_OF_HOST_MEMORY;
                        break;
                    }
                    stage_elems[o] = tight[o];
                }
                copy_problems(h, o, 0, *done, shared ? 1 : n, stage[o], off[o]);
                from = stage[o];
            }
            st = (oclblas_status)clEnqueueWriteBuffer(q, buf[o], CL_FALSE, 0, tight[o] * sizeof(float), from, 0, NULL,
                                                      NULL);
            bytes->to += (double)tight[o] * sizeof(float);
        }
        if (st == OCLBLAS_SUCCESS && tight[2] > stage_elems[2]) {
            free(stage[2]);
            stage_elems[2] = 0;
            if (!(stage[2] = malloc(tight[2] * sizeof(float))))
                st = OCLBLAS_OUT_OF_HOST_MEMORY;
            else
                stage_elems[2] = tight[2];
        }
        if (st == OCLBLAS_SUCCESS)
            st = run(run_ctx, 0, *done, n, (const size_t *const *)off, buf[0], buf[1], buf[2], q);
        if (st == OCLBLAS_SUCCESS)
            st = (oclblas_status)clEnqueueReadBuffer(q, buf[2], CL_TRUE, 0, tight[2] * sizeof(float), stage[2], 0, NULL,
                                                     NULL);
        if (st != OCLBLAS_SUCCESS) {
            clFinish(q); /* the writes read the caller's arrays and the staging */
            break;
        }
        copy_problems(h, 2, 1, *done, n, stage[2], off[2]);
        bytes->from += (double)tight[2] * sizeof(float);
        *done += n;
    }
    for (int o = 0; o < 3; ++o) {
        oclblas__lane_buffer_put(l, buf[o], buf_bytes[o]);
        free(stage[o]);
        free(off[o]);
    }
    oclblas__lane_put(l);
    return st;
}

/* ---- one driver for every batched host call ------------------------------ */

/* What a routine gives the driver: its problems on the host ([first, first
 * + count); own: the library's routine rather than the process's BLAS;
 * returns what served), problem i alone as the single host call runs it
 * (a problem too large for one chunk), and its device runner. */
typedef struct {
    const char *(*host)(void *ctx, size_t first, size_t count, int own);
    oclblas_status (*alone)(void *ctx, size_t i);
    device_run device;
    void *ctx;
} routine;

/* The batch on the host for a reason of the host plan (plan/host_plan.h),
 * in its words in the log and the report: problem by problem, by the
 * library's own routine (own) or the host BLAS. */
static oclblas_status on_host(const host_ops *h, const routine *r, const char *name, int own,
                              const oclblas__host_plan *why, oclblas_host_report *rep, double t0)
{
    const char *served = r->host(r->ctx, 0, h->count, own);
    char words[128];
    oclblas__host_plan_describe(why, words, sizeof words);
    if (!own)
        oclblas__log("%s batch of %zu: on the host by %s (%s)", name, h->count, served, words);
    oclblas__strlcpy(rep->host_blas, served, sizeof rep->host_blas);
    snprintf(rep->reason, sizeof rep->reason, "%s (%s)", own ? "the library's own routine" : "the host BLAS", words);
    rep->seconds = oclblas__now() - t0;
    oclblas__report_set(rep);
    return OCLBLAS_SUCCESS;
}

/* Runs a checked batch: computes 0 when alpha (and k) leave only C =
 * beta C, reads_c when beta != 0 for some problem, work the batch's size
 * against HOST_MAX cubed (multiply-adds; for SGEMV m * n), gemv_rows and
 * gemv_cols the matrix the SGEMV model weighs (0 for SGEMM). The host's
 * reasons come in the single call's order (plan/host_plan.c): C = beta C or
 * the host BLAS calling back (the library's own routine), no device that
 * can serve, HOST_MAX, OCLBLAS_HOST_CALLS=host, SGEMV's cost model. */
static oclblas_status run_batch(const host_ops *h, const routine *r, const char *name, int computes, int reads_c,
                                double work, size_t gemv_rows, size_t gemv_cols)
{
    const double t0 = oclblas__now();
    oclblas_host_report rep;
    memset(&rep, 0, sizeof rep);
    rep.tiles = h->count;
    oclblas__host_plan why;
    memset(&why, 0, sizeof why);
    why.routine = gemv_rows ? OCLBLAS__SGEMV : OCLBLAS__SGEMM;
    if (!computes || oclblas__sysblas_reentered()) {
        /* Cheaper than any round trip; and never back into a BLAS that called us. */
        why.why = !computes ? OCLBLAS__WHY_TRIVIAL : OCLBLAS__WHY_REENTERED;
        return on_host(h, r, name, 1, &why, &rep, t0);
    }
    int ndev;
    const oclblas__default_device *set = oclblas__device_set(&ndev);
    if (ndev == 0) {
        /* No device can serve (none present, none that OCLBLAS_DEVICE
         * names): the host BLAS, as the single calls and the drop-in. */
        why.why = OCLBLAS__WHY_NO_DEVICE;
        why.no_device = set[0].status;
        return on_host(h, r, name, 0, &why, &rep, t0);
    }
    const oclblas__default_device *d = &set[0];
    int host_max;
    const int mode = oclblas__host_calls_for(d, &host_max);
    const double hm = (double)host_max;
    why.host_max = host_max;
    if (work <= hm * hm * hm || mode == OCLBLAS__CALLS_HOST) {
        why.why = work <= hm * hm * hm ? OCLBLAS__WHY_HOST_MAX : OCLBLAS__WHY_CALLS_HOST;
        return on_host(h, r, name, 0, &why, &rep, t0);
    }
    if (gemv_rows && mode == OCLBLAS__CALLS_AUTO) {
        /* The single SGEMV's model on the batch's bytes: the matrices side by side. */
        const oclblas__host_rates hr = oclblas__host_rates_get(1);
        const oclblas__dev_rates dr = oclblas__hostdev_rates(oclblas__hostdev_get(0), 0, 1, h->mode);
        why.why = OCLBLAS__WHY_MODEL;
        const int device_wins = oclblas__choose_gemv(&hr, &dr, gemv_rows, gemv_cols, &why.est);
        rep.model_host_s = why.est.host_s;
        rep.model_device_s = why.est.device_s;
        if (!device_wins)
            return on_host(h, r, name, 0, &why, &rep, t0);
    }
    oclblas__strlcpy(rep.host_blas, oclblas__sysblas_name(gemv_rows == 0), sizeof rep.host_blas);
    rep.on_device = 1;
    rep.devices = 1;
    oclblas_status st;
    size_t done = 0;
    if (run_in_place(h, d, r->device, r->ctx, &st)) {
        /* The device wrote into C itself: which problems it finished before
         * a failure is not known, so a failure is the call's status (as the
         * single calls' in-place path). */
        oclblas__log("%s batch of %zu: device %s in place%s%s", name, h->count, d->info->name,
                     st == OCLBLAS_SUCCESS ? "" : ", failed: ", st == OCLBLAS_SUCCESS ? "" : oclblas_status_string(st));
        if (st != OCLBLAS_SUCCESS)
            return st;
        done = h->count;
    } else {
        moved bytes = {0, 0};
        st = OCLBLAS_SUCCESS;
        while (done < h->count && st == OCLBLAS_SUCCESS) {
            st = run_copied(h, d, reads_c, r->device, r->ctx, &done, &bytes);
            if (st == OCLBLAS_SUCCESS && done < h->count) {
                /* Too large for a chunk: the single call tiles it. */
                st = r->alone(r->ctx, done);
                done += st == OCLBLAS_SUCCESS;
            }
        }
        oclblas__log("%s batch of %zu: device %s, %.3g MB there and %.3g MB back", name, h->count, d->info->name,
                     bytes.to * 1e-6, bytes.from * 1e-6);
        rep.bytes_to_device = bytes.to;
        rep.bytes_from_device = bytes.from;
    }
    rep.device[0].tiles = done;
    if (done < h->count) {
        /* The device failed: the problems it did not deliver are the host's. */
        oclblas__log("%s batch: the device failed (%s): %zu of %zu problems on the host", name,
                     oclblas_status_string(st), h->count - done, h->count);
        r->host(r->ctx, done, h->count - done, 0);
        rep.tiles_on_host = h->count - done;
        rep.on_device = done > 0;
    }
    rep.seconds = oclblas__now() - t0;
    oclblas__report_set(&rep);
    return OCLBLAS_SUCCESS;
}

/* ---- SGEMM --------------------------------------------------------------- */

/* A host SGEMM batch: strided (h.items NULL, every problem g's shape) or grouped. */
typedef struct {
    const host_ops *h;
    const oclblas__gemm_item *g;
} gemm_batch;

static oclblas__gemm_item gemm_item_at(const gemm_batch *b, size_t i)
{
    return b->h->items ? b->h->items[i] : *b->g;
}

static const char *gemm_host(void *ctx, size_t first, size_t count, int own)
{
    const gemm_batch *b = ctx;
    const char *served = "";
    for (size_t i = first; i < first + count; ++i) {
        const oclblas__gemm_item g = gemm_item_at(b, i);
        if (g.m == 0 || g.n == 0)
            continue;
        const float *pa = start_of(b->h, 0, i), *pb = start_of(b->h, 1, i);
        float *pc = (float *)start_of(b->h, 2, i); /* the caller's C, given to us writable */
        if (own) {
            oclblas__host_sgemm(b->h->layout, g.trans_a, g.trans_b, g.m, g.n, g.k, g.alpha, pa, g.lda, pb, g.ldb,
                                g.beta, pc, g.ldc);
            served = "the library's own routine";
        } else {
            served = oclblas__sysblas_sgemm(b->h->layout, g.trans_a, g.trans_b, g.m, g.n, g.k, g.alpha, pa, g.lda, pb,
                                            g.ldb, g.beta, pc, g.ldc);
        }
    }
    return served;
}

static oclblas_status gemm_alone(void *ctx, size_t i)
{
    const gemm_batch *b = ctx;
    const oclblas__gemm_item g = gemm_item_at(b, i);
    const oclblas__record r = {OCLBLAS__SGEMM, b->h->layout, g.trans_a, g.trans_b, g.m, g.n, g.k, g.alpha, g.beta,
                               {start_of(b->h, 0, i), NULL, 0, g.lda, 0}, {start_of(b->h, 1, i), NULL, 0, g.ldb, 0},
                               {start_of(b->h, 2, i), NULL, 0, g.ldc, 0}, b->h->mode};
    return oclblas__host_call(&r);
}

static size_t at_least_1(size_t x) { return x > 1 ? x : 1; }

static oclblas_status gemm_device(void *ctx, int in_place, size_t first, size_t count, const size_t *const off[3],
                                  cl_mem a, cl_mem b, cl_mem c, cl_command_queue q)
{
    const gemm_batch *gb = ctx;
    const host_ops *h = gb->h;
    if (!h->items) {
        oclblas__gemm_item g = *gb->g;
        size_t stride[3];
        for (int o = 0; o < 3; ++o)
            stride[o] = in_place || h->stride[o] == 0 ? h->stride[o] : h->inner[o] * h->outer[o];
        if (!in_place) { /* packed: each line after the other */
            g.lda = at_least_1(h->inner[0]);
            g.ldb = at_least_1(h->inner[1]);
            g.ldc = at_least_1(h->inner[2]);
        }
        return oclblas__sgemm_strided_run(h->layout, &g, stride[0], stride[1], stride[2], count, a, b, c, h->mode, q,
                                          NULL);
    }
    oclblas__gemm_item *items = malloc(count * sizeof *items);
    if (!items)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < count; ++i) {
        items[i] = h->items[first + i];
        size_t inner[3], outer[3];
        oclblas__gemm_shapes(h->layout, &items[i], inner, outer);
        items[i].lda = at_least_1(inner[0]);
        items[i].ldb = at_least_1(inner[1]);
        items[i].ldc = at_least_1(inner[2]);
        items[i].a_off = off[0][i];
        items[i].b_off = off[1][i];
        items[i].c_off = off[2][i];
    }
    const oclblas_status st = oclblas__sgemm_items_run(h->layout, items, count, a, b, c, h->mode, q, NULL);
    free(items);
    return st;
}

static oclblas_status gemm_batch_run(const host_ops *h, const oclblas__gemm_item *g, int computes, int reads_c,
                                     double work)
{
    gemm_batch b = {h, g};
    const routine r = {gemm_host, gemm_alone, gemm_device, &b};
    return run_batch(h, &r, "sgemm", computes, reads_c, work, 0, 0);
}

oclblas_status oclblas_sgemm_strided_batched(oclblas_layout layout, oclblas_transpose trans_a,
                                             oclblas_transpose trans_b, size_t m, size_t n, size_t k, float alpha,
                                             const float *a, size_t lda, size_t stride_a, const float *b, size_t ldb,
                                             size_t stride_b, float beta, float *c, size_t ldc, size_t stride_c,
                                             size_t batch_count)
{
    const oclblas_math_mode mode = oclblas_get_math_mode(); /* the call's, read once, here */
    const oclblas__gemm_item g = {trans_a, trans_b, m, n, k, alpha, beta, 0, lda, 0, ldb, 0, ldc};
    oclblas_status st = oclblas__gemm_item_check(layout, &g, 0);
    if (st != OCLBLAS_SUCCESS || batch_count == 0 || m == 0 || n == 0)
        return st;
    const int uses_ab = k > 0 && alpha != 0.0f;
    if (!c)
        return OCLBLAS_NULL_C;
    if (uses_ab && !a)
        return OCLBLAS_NULL_A;
    if (uses_ab && !b)
        return OCLBLAS_NULL_B;
    size_t inner[3], outer[3];
    oclblas__gemm_shapes(layout, &g, inner, outer);
    const size_t ld[3] = {lda, ldb, ldc}, stride[3] = {stride_a, stride_b, stride_c};
    /* The last problem's operands must have an address. */
    for (int o = uses_ab ? 0 : 2; o < 3; ++o)
        if (oclblas__batch_end(0, stride[o], batch_count, oclblas__extent(inner[o], outer[o], ld[o])) >
            SIZE_MAX / sizeof(float))
            return OCLBLAS_SIZE_TOO_LARGE;
    if (oclblas__strided_overlap(inner[2], outer[2], ldc, stride_c, batch_count))
        return OCLBLAS_BATCH_OVERLAP;
    const host_ops h = {layout, mode, batch_count, {uses_ab, uses_ab, 1}, {inner[0], inner[1], inner[2]},
                        {outer[0], outer[1], outer[2]}, {lda, ldb, ldc}, {stride_a, stride_b, stride_c},
                        {a, b, c}, NULL, {NULL, NULL, NULL}};
    return gemm_batch_run(&h, &g, uses_ab, beta != 0.0f, (double)batch_count * (double)m * (double)n * (double)k);
}

oclblas_status oclblas_sgemm_grouped_batched(oclblas_layout layout, const oclblas_transpose *trans_a,
                                             const oclblas_transpose *trans_b, const size_t *m, const size_t *n,
                                             const size_t *k, const float *alpha, const float *const *a,
                                             const size_t *lda, const float *const *b, const size_t *ldb,
                                             const float *beta, float *const *c, const size_t *ldc,
                                             size_t group_count, const size_t *group_size)
{
    const oclblas_math_mode mode = oclblas_get_math_mode(); /* the call's, read once, here */
    oclblas__gemm_item *items;
    size_t count;
    const void *const operands[3] = {a, b, c};
    oclblas_status st = oclblas__grouped_items(layout, trans_a, trans_b, m, n, k, alpha, lda, ldb, beta, ldc,
                                               group_count, group_size, operands, 0, &items, &count);
    double work = 0.0;
    int computes = 0, reads_c = 0;
    for (size_t i = 0; i < count && st == OCLBLAS_SUCCESS; ++i) {
        const oclblas__gemm_item *g = &items[i];
        if (g->m == 0 || g->n == 0)
            continue;
        const int uses_ab = g->k > 0 && g->alpha != 0.0f;
        if (!c[i])
            st = OCLBLAS_NULL_C;
        else if (uses_ab && !a[i])
            st = OCLBLAS_NULL_A;
        else if (uses_ab && !b[i])
            st = OCLBLAS_NULL_B;
        work += (double)g->m * (double)g->n * (double)g->k;
        computes |= uses_ab;
        reads_c |= g->beta != 0.0f;
    }
    if (st == OCLBLAS_SUCCESS && count) {
        uintptr_t *c_start = malloc(count * sizeof *c_start);
        if (!c_start)
            st = OCLBLAS_OUT_OF_HOST_MEMORY;
        for (size_t i = 0; i < count && c_start; ++i)
            c_start[i] = (uintptr_t)c[i];
        if (st == OCLBLAS_SUCCESS)
            st = oclblas__items_overlap(layout, items, count, c_start);
        free(c_start);
    }
    if (st == OCLBLAS_SUCCESS && count) {
        const host_ops h = {layout, mode, count, {computes, computes, 1}, {0}, {0}, {0}, {0}, {NULL},
                            items, {a, b, (const float *const *)c}};
        st = gemm_batch_run(&h, NULL, computes, reads_c, work);
    }
    free(items);
    return st;
}

/* ---- SGEMV --------------------------------------------------------------- */

/* A host SGEMV batch, strided; h's vectors as lines of one element. */
typedef struct {
    const host_ops *h;
    oclblas_layout layout;
    oclblas_transpose trans;
    size_t m, n, lda;
    float alpha, beta;
    ptrdiff_t incx, incy;
} gemv_batch;

static const char *gemv_host(void *ctx, size_t first, size_t count, int own)
{
    const gemv_batch *v = ctx;
    const char *served = "";
    for (size_t i = first; i < first + count; ++i) {
        /* The single call's pointers: its own routine and the BLAS take x and y at element 0 in memory. */
        const float *pa = start_of(v->h, 0, i), *px = start_of(v->h, 1, i);
        float *py = (float *)start_of(v->h, 2, i); /* the caller's y, given to us writable */
        if (own) {
            oclblas__host_sgemv(v->layout, v->trans, v->m, v->n, v->alpha, pa, v->lda, px, v->incx, v->beta, py,
                                v->incy);
            served = "the library's own routine";
        } else {
            served = oclblas__sysblas_sgemv(v->layout, v->trans, v->m, v->n, v->alpha, pa, v->lda, px, v->incx,
                                            v->beta, py, v->incy);
        }
    }
    return served;
}

static oclblas_status gemv_alone(void *ctx, size_t i)
{
    const gemv_batch *v = ctx;
    const oclblas__record r = {OCLBLAS__SGEMV, v->layout, v->trans, OCLBLAS_NO_TRANS, v->m, v->n, 0, v->alpha,
                               v->beta, {start_of(v->h, 0, i), NULL, 0, v->lda, 0},
                               {start_of(v->h, 1, i), NULL, 0, 0, v->incx}, {start_of(v->h, 2, i), NULL, 0, 0, v->incy},
                               v->h->mode};
    return oclblas__host_call(&r);
}

static oclblas_status gemv_device(void *ctx, int in_place, size_t first, size_t count, const size_t *const off[3],
                                  cl_mem a, cl_mem x, cl_mem y, cl_command_queue q)
{
    const gemv_batch *v = ctx;
    const host_ops *h = v->h;
    if (in_place)
        return oclblas__sgemv_strided_run(v->layout, v->trans, v->m, v->n, v->alpha, a, 0, v->lda, h->stride[0], x, 0,
                                          v->incx, h->stride[1], v->beta, y, 0, v->incy, h->stride[2], count,
                                          h->mode, q, NULL);
    /* Packed: A's lines after one another, each vector's elements adjacent in memory order. */
    size_t stride[3];
    for (int o = 0; o < 3; ++o)
        stride[o] = h->stride[o] == 0 ? 0 : h->inner[o] * h->outer[o];
    return oclblas__sgemv_strided_run(v->layout, v->trans, v->m, v->n, v->alpha, a, 0, at_least_1(h->inner[0]),
                                      stride[0], x, 0, v->incx < 0 ? -1 : 1, stride[1], v->beta, y, 0,
                                      v->incy < 0 ? -1 : 1, stride[2], count, h->mode, q, NULL);
}

oclblas_status oclblas_sgemv_strided_batched(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n,
                                             float alpha, const float *a, size_t lda, size_t stride_a, const float *x,
                                             ptrdiff_t incx, size_t stride_x, float beta, float *y, ptrdiff_t incy,
                                             size_t stride_y, size_t batch_count)
{
    const oclblas_math_mode mode = oclblas_get_math_mode(); /* the call's, read once, here */
    oclblas_status st = oclblas__sgemv_check(layout, trans, m, n, lda, incx, incy);
    if (st != OCLBLAS_SUCCESS || batch_count == 0 || m == 0 || n == 0)
        return st;
    if (!y)
        return OCLBLAS_NULL_Y;
    if (alpha != 0.0f && !a)
        return OCLBLAS_NULL_A;
    if (alpha != 0.0f && !x)
        return OCLBLAS_NULL_X;
    const int col = layout == OCLBLAS_COL_MAJOR, t = trans != OCLBLAS_NO_TRANS;
    const size_t len_x = t ? m : n, len_y = t ? n : m;
    const size_t step_x = oclblas__abs_inc(incx), step_y = oclblas__abs_inc(incy);
    /* A as lines, each vector as lines of one element. */
    const host_ops h = {layout, mode, batch_count, {alpha != 0.0f, alpha != 0.0f, 1}, {col ? m : n, 1, 1},
                        {col ? n : m, len_x, len_y}, {lda, step_x, step_y}, {stride_a, stride_x, stride_y},
                        {a, x, y}, NULL, {NULL, NULL, NULL}};
    for (int o = alpha != 0.0f ? 0 : 2; o < 3; ++o)
        if (oclblas__batch_end(0, h.stride[o], batch_count, oclblas__extent(h.inner[o], h.outer[o], h.ld[o])) >
            SIZE_MAX / sizeof(float))
            return OCLBLAS_SIZE_TOO_LARGE;
    if (oclblas__strided_overlap(1, len_y, step_y, stride_y, batch_count))
        return OCLBLAS_BATCH_OVERLAP;
    gemv_batch v = {&h, layout, trans, m, n, lda, alpha, beta, incx, incy};
    const routine r = {gemv_host, gemv_alone, gemv_device, &v};
    const size_t rows = col ? m : n, cols = col ? n : m;
    return run_batch(&h, &r, "sgemv", alpha != 0.0f, beta != 0.0f, (double)batch_count * (double)m * (double)n,
                     rows, cols * batch_count);
}
