/*
 * The host-pointer API: oclblas_sgemm and oclblas_sgemv make the call's
 * record (the math mode read once, here) and hand it to the executor,
 * oclblas__host_call, which the drop-in library calls too. The executor
 * checks the call, gathers what its host plan (plan/host_plan.c) asks for
 * (the devices of OCLBLAS_DEVICE, the rates each side measures once),
 * runs the plan (the library's own routine, the host BLAS of sysblas.c,
 * one device call in place or through copies of untiled.c, or the
 * pipelined tiles of pipeline.c), logs it and leaves the report.
 *
 * A device that fails costs only speed: the pipeline gives a failed
 * device's tiles to the others and then to the host, and a failed untiled
 * call is computed again by the host BLAS, from the caller's arrays as
 * they were. Only a device that fails after its kernels wrote the caller's
 * output in place, where that output's old values are still needed (beta
 * != 0), leaves a status: nothing can compute the call then.
 * OCLBLAS_HOST_CALLS=device (every call above HOST_MAX on the device) or
 * host (every call on the host) sets the choice instead of the model.
 */
#include "api/host.h"
#include "api/checks.h"
#include "host/hostblas.h"
#include "host/pipeline.h"
#include "host/sysblas.h"
#include "host/untiled.h"
#include "kernels/routine.h"
#include "plan/host_plan.h"
#include "runtime/devctx.h"
#include "util/settings.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

oclblas__host_calls oclblas__host_calls_for(const oclblas__default_device *d, int *host_max)
{
    const oclblas__host_calls calls_mode = oclblas__settings_get()->host_calls;
    const oclblas__devctx *cx;
    oclblas_status st;
    *host_max = 0;
    if (oclblas__devctx_get(d->info, &cx) != OCLBLAS_SUCCESS)
        return calls_mode;
    const oclblas__params *rp = oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, NULL, &st);
    if (rp)
        *host_max = rp->v[RT_HOST_MAX];
    return cx->pinned && calls_mode == OCLBLAS__CALLS_AUTO ? OCLBLAS__CALLS_DEVICE : calls_mode;
}

/* ---- what the plan asks for ------------------------------------------------ */

/* The devices' facts: the set of OCLBLAS_DEVICE (opened at the first call
 * that needs it), the least of their budgets and largest buffers, the
 * first one's crossover and whether the tuner pinned its context, and the
 * settings. */
static void gather_devices(oclblas__host_facts *f, oclblas__hostdev **hds)
{
    int ndev;
    const oclblas__default_device *set = oclblas__device_set(&ndev);
    f->devices = ndev;
    f->no_device = ndev ? OCLBLAS_SUCCESS : set[0].status;
    f->budget = f->max_alloc = (size_t)-1;
    for (int i = 0; i < ndev; ++i) {
        hds[i] = oclblas__hostdev_get(i);
        f->budget = hds[i]->budget < f->budget ? hds[i]->budget : f->budget;
        if (set[i].info->max_alloc < f->max_alloc)
            f->max_alloc = (size_t)set[i].info->max_alloc;
    }
    f->calls = oclblas__settings_get()->host_calls;
    f->zero_copy = oclblas__host_zero_copy();
    f->index_limit = oclblas__index_limit();
    const oclblas__devctx *cx;
    oclblas_status st;
    if (ndev && oclblas__devctx_get(set[0].info, &cx) == OCLBLAS_SUCCESS) {
        const oclblas__params *rp = oclblas__devctx_params(cx, OCLBLAS__K_ROUTINE, NULL, &st);
        f->host_max = rp ? rp->v[RT_HOST_MAX] : 0;
        f->pinned_context = cx->pinned;
    }
    if (ndev)
        f->unified_memory = set[0].info->unified_memory;
}

/* What the plan asks for (needs), into its facts: each measurement is made
 * once per process, the first device's in the call's mode. */
static void gather(unsigned needs, const oclblas__record *r, oclblas__host_facts *f, oclblas__hostdev **hds)
{
    if (needs & OCLBLAS__KNOW_DEVICES)
        gather_devices(f, hds);
    if (needs & (OCLBLAS__KNOW_HOST_GEMM | OCLBLAS__KNOW_HOST_GEMV)) {
        const int gemv = (needs & OCLBLAS__KNOW_HOST_GEMV) != 0;
        f->host = oclblas__host_rates_get(gemv);
        needs |= OCLBLAS__KNOW_HOST_GEMM | (gemv ? OCLBLAS__KNOW_HOST_GEMV : 0);
    }
    if (needs & (OCLBLAS__KNOW_TRANSFERS | OCLBLAS__KNOW_DEV_GEMM | OCLBLAS__KNOW_DEV_GEMV)) {
        f->dev = oclblas__hostdev_rates(hds[0], (needs & OCLBLAS__KNOW_DEV_GEMM) != 0,
                                        (needs & OCLBLAS__KNOW_DEV_GEMV) != 0, r->mode);
        needs |= OCLBLAS__KNOW_TRANSFERS;
    }
    f->known |= needs;
}

/* ---- running the plan ---------------------------------------------------------- */

/* The whole call on the host: the library's own routine (own) or the host BLAS. */
static const char *on_host(const oclblas__record *r, int own)
{
    float *out = (float *)r->c.host; /* the caller's writable C or y (record.h) */
    if (r->routine == OCLBLAS__SGEMV) {
        if (!own)
            return oclblas__sysblas_sgemv(r->layout, r->trans_a, r->m, r->n, r->alpha, r->a.host, r->a.ld, r->b.host,
                                          r->b.inc, r->beta, out, r->c.inc);
        oclblas__host_sgemv(r->layout, r->trans_a, r->m, r->n, r->alpha, r->a.host, r->a.ld, r->b.host, r->b.inc,
                            r->beta, out, r->c.inc);
    } else {
        if (!own)
            return oclblas__sysblas_sgemm(r->layout, r->trans_a, r->trans_b, r->m, r->n, r->k, r->alpha, r->a.host,
                                          r->a.ld, r->b.host, r->b.ld, r->beta, out, r->c.ld);
        oclblas__host_sgemm(r->layout, r->trans_a, r->trans_b, r->m, r->n, r->k, r->alpha, r->a.host, r->a.ld,
                            r->b.host, r->b.ld, r->beta, out, r->c.ld);
    }
    return "the library's own routine";
}

/* The plan's route and reason in words: "tiles on 2 devices (cost model: ...)". */
static void plan_words(const oclblas__host_plan *p, char *buf, size_t len)
{
    char why[128];
    oclblas__host_plan_describe(p, why, sizeof why);
    static const char *const where[] = {[OCLBLAS__ROUTE_OWN] = "the library's own routine",
                                        [OCLBLAS__ROUTE_HOST] = "the host BLAS",
                                        [OCLBLAS__ROUTE_IN_PLACE] = "in place on the device",
                                        [OCLBLAS__ROUTE_COPY] = "copies on the device",
                                        [OCLBLAS__ROUTE_TILES] = "tiles on"};
    if (p->route == OCLBLAS__ROUTE_TILES)
        snprintf(buf, len, "tiles on %d device%s (%s)", p->devices, p->devices == 1 ? "" : "s", why);
    else
        snprintf(buf, len, "%s (%s)", where[p->route], why);
}

/* The verbose log of a call that starts on the devices. */
static void log_start(const oclblas__record *r, const oclblas__host_plan *p, const oclblas__hostdev *hd0)
{
    char name[96], why[128];
    oclblas__record_name(r, name, sizeof name);
    oclblas__host_plan_describe(p, why, sizeof why);
    const oclblas__tiling *t = &p->tiling;
    if (p->route == OCLBLAS__ROUTE_TILES)
        oclblas__log("%s: %d device%s, %zux%zu tiles of %zux%zu, k in %zu chunk%s of %zu, panels %s (%s)", name,
                     p->devices, p->devices == 1 ? "" : "s", t->tiles_m, t->tiles_n, t->tm, t->tn, t->chunks,
                     t->chunks == 1 ? "" : "s", t->tk, t->resident ? "resident" : "streamed", why);
    else
        oclblas__log("%s: device %s %s (%s)", name, hd0->d->info->name,
                     p->route == OCLBLAS__ROUTE_IN_PLACE ? "in place" : "through copies", why);
}

/* The verbose log of a pipelined call: its time and rate, what crossed the
 * bus, the tiles the host took, and each device's kernels against the call:
 * idle = 1 - busy / wall (pipeline.c says how busy is measured). */
static void log_pipelined(const oclblas__record *r, double secs, const oclblas_host_report *rep)
{
    const double work = (double)r->m * (double)r->n * (double)r->k;
    char name[96], per[OCLBLAS_REPORT_DEVICES * 64] = "";
    oclblas__record_name(r, name, sizeof name);
    for (int i = 0; i < rep->devices && i < OCLBLAS_REPORT_DEVICES; ++i) {
        const size_t used = strlen(per);
        snprintf(per + used, sizeof per - used, "%s%d: %.0f%% busy, %.1f TFLOPS in its kernels", i ? "; " : "", i,
                 100.0 * rep->device[i].busy_s / secs,
                 rep->device[i].busy_s > 0
                     ? 2e-12 * work * (double)rep->device[i].tiles / (double)rep->tiles / rep->device[i].busy_s
                     : 0.0);
    }
    oclblas__log("%s: %.3f ms (%.2f TFLOPS), %.3g GB to the device%s and %.3g GB back, %lu of %lu tiles on the host; "
                 "devices %s",
                 name, secs * 1e3, 2e-12 * work / secs, rep->bytes_to_device * 1e-9, rep->devices == 1 ? "" : "s",
                 rep->bytes_from_device * 1e-9, rep->tiles_on_host, rep->tiles, per);
}

/* The plan on its devices. A failed untiled call, or tiles that could not
 * start, fall back to the host BLAS unless the device wrote the caller's
 * output in place where its old values are needed. */
static oclblas_status on_devices(const oclblas__record *r, const oclblas__host_plan *p, oclblas__hostdev **hds,
                                 oclblas_host_report *rep)
{
    oclblas_status st;
    int written = 0;
    char name[96], what[320];
    oclblas__record_name(r, name, sizeof name);
    rep->devices = p->devices;
    if (p->route == OCLBLAS__ROUTE_TILES) {
        const oclblas__record c = oclblas__record_col_major(r);
        st = oclblas__pipeline_sgemm(hds, p->devices, &p->tiling, &c, rep);
        snprintf(what, sizeof what, "the tiles could not start");
    } else {
        st = oclblas__untiled_call(hds[0], r, p->route == OCLBLAS__ROUTE_IN_PLACE, rep, &written);
        rep->on_device = st == OCLBLAS_SUCCESS;
        rep->device[0].tiles = st == OCLBLAS_SUCCESS;
        rep->failed_devices = st != OCLBLAS_SUCCESS;
        snprintf(what, sizeof what, "device %s failed", hds[0]->d->info->name);
    }
    if (st == OCLBLAS_SUCCESS)
        return st;
    if (written && r->beta != 0.0f) {
        oclblas__log("%s: %s (%s) after writing C in place: C is lost", name, what, oclblas_status_string(st));
        return st;
    }
    const char *served = on_host(r, 0);
    oclblas__log("%s: %s (%s): computed on the host by %s", name, what, oclblas_status_string(st), served);
    oclblas__strlcpy(rep->host_blas, served, sizeof rep->host_blas);
    rep->on_device = 0;
    rep->tiles_on_host = rep->tiles;
    return OCLBLAS_SUCCESS;
}

/* ---- the executor ------------------------------------------------------------ */

/* The BLAS arguments of the record's routine, then the arrays it uses. */
static oclblas_status host_check(const oclblas__record *r)
{
    const int v = r->routine == OCLBLAS__SGEMV;
    const oclblas_status st =
        v ? oclblas__sgemv_check(r->layout, r->trans_a, r->m, r->n, r->a.ld, r->b.inc, r->c.inc)
          : oclblas__sgemm_check(r->layout, r->trans_a, r->trans_b, r->m, r->n, r->k, r->a.ld, r->b.ld, r->c.ld);
    if (st != OCLBLAS_SUCCESS || r->m == 0 || r->n == 0)
        return st;
    if (!r->c.host)
        return v ? OCLBLAS_NULL_Y : OCLBLAS_NULL_C;
    if (oclblas__record_uses_ab(r) && !r->a.host)
        return OCLBLAS_NULL_A;
    if (oclblas__record_uses_ab(r) && !r->b.host)
        return v ? OCLBLAS_NULL_X : OCLBLAS_NULL_B;
    /* The arrays must end inside the address space (the rule for extents). */
    size_t ext[3];
    oclblas__record_extents(r, ext);
    if (!oclblas__host_extent_fits(r->c.host, ext[2]) ||
        (oclblas__record_uses_ab(r) &&
         (!oclblas__host_extent_fits(r->a.host, ext[0]) || !oclblas__host_extent_fits(r->b.host, ext[1]))))
        return OCLBLAS_SIZE_TOO_LARGE;
    return OCLBLAS_SUCCESS;
}

/* What moved where a device failed, after the plan's words. */
static void failures_words(const oclblas_host_report *rep, char *buf, size_t len)
{
    if (!rep->failed_devices)
        return;
    const size_t used = strlen(buf);
    snprintf(buf + used, len - used, "; %d device%s failed, %lu of %lu tile%s to the host", rep->failed_devices,
             rep->failed_devices == 1 ? "" : "s", rep->tiles_on_host, rep->tiles, rep->tiles == 1 ? "" : "s");
}

oclblas_status oclblas__host_call(const oclblas__record *r)
{
    oclblas_status st = host_check(r);
    if (st != OCLBLAS_SUCCESS || r->m == 0 || r->n == 0)
        return st;
    const double t0 = oclblas__now();
    oclblas__host_facts facts = {0};
    oclblas__hostdev *hds[OCLBLAS__MAX_SET] = {NULL};
    oclblas__host_plan plan;
    facts.reentered = oclblas__sysblas_reentered();
    for (oclblas__host_plan_make(r, &facts, &plan); plan.needs; oclblas__host_plan_make(r, &facts, &plan))
        gather(plan.needs, r, &facts, hds);

    oclblas_host_report rep;
    memset(&rep, 0, sizeof rep);
    rep.tiles = 1;
    rep.model_host_s = plan.est.host_s;
    rep.model_device_s = plan.est.device_s;
    plan_words(&plan, rep.reason, sizeof rep.reason);
    if (oclblas__route_on_device(plan.route)) {
        oclblas__strlcpy(rep.host_blas, oclblas__sysblas_name(r->routine == OCLBLAS__SGEMM), sizeof rep.host_blas);
        log_start(r, &plan, hds[0]);
        st = on_devices(r, &plan, hds, &rep);
        failures_words(&rep, rep.reason, sizeof rep.reason);
        if (plan.route == OCLBLAS__ROUTE_TILES && st == OCLBLAS_SUCCESS && oclblas__verbose())
            log_pipelined(r, oclblas__now() - t0, &rep);
    } else {
        const char *served = on_host(r, plan.route == OCLBLAS__ROUTE_OWN);
        oclblas__strlcpy(rep.host_blas, served, sizeof rep.host_blas);
        if (plan.route == OCLBLAS__ROUTE_HOST) {
            char name[96], why[128];
            oclblas__record_name(r, name, sizeof name);
            oclblas__host_plan_describe(&plan, why, sizeof why);
            oclblas__log("%s: on the host by %s (%s)", name, served, why);
        }
    }
    rep.seconds = oclblas__now() - t0;
    oclblas__report_set(&rep);
    return st;
}

/* ---- the front doors --------------------------------------------------------- */

oclblas_status oclblas_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b, size_t m,
                             size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                             float beta, float *c, size_t ldc)
{
    const oclblas__record r = {OCLBLAS__SGEMM, layout, trans_a, trans_b, m, n, k, alpha, beta,
                               {a, NULL, 0, lda, 0}, {b, NULL, 0, ldb, 0}, {c, NULL, 0, ldc, 0},
                               oclblas_get_math_mode()};
    return oclblas__host_call(&r);
}

oclblas_status oclblas_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                             const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                             ptrdiff_t incy)
{
    const oclblas__record r = {OCLBLAS__SGEMV, layout, trans, OCLBLAS_NO_TRANS, m, n, 0, alpha, beta,
                               {a, NULL, 0, lda, 0}, {x, NULL, 0, 0, incx}, {y, NULL, 0, 0, incy},
                               oclblas_get_math_mode()};
    return oclblas__host_call(&r);
}
