/*
 * The host plan: where a host-pointer call runs, a pure function of the
 * call's record, the devices' facts and the measured rates (no OpenCL
 * call: tests/test_host_plan.c makes every choice from constructed facts).
 *
 * In order, the first that applies:
 *   - a call that computes no product (alpha = 0 or k = 0: C = beta C), or
 *     one made by the host BLAS calling back into the library, runs the
 *     library's own host routine: cheaper than any round trip, and never
 *     back into that BLAS;
 *   - no device can serve (none present, none that OCLBLAS_DEVICE names):
 *     the host BLAS, as the drop-in library does;
 *   - at most HOST_MAX^3 multiply-adds (the device's crossover, a routine
 *     value of its database entry): the host, without a model, since a
 *     round trip alone costs more; OCLBLAS_HOST_CALLS=host: the host;
 *   - SGEMM on one device that works on host memory, with every operand
 *     inside the index limit and one buffer: in place (zero copy); else
 *     pipelined tiles over every device of the set (cost.c's tiling), or
 *     the host when no tile fits the devices' memory;
 *   - SGEMV (its matrix read once: tiles over the bus could not beat the
 *     host) on the first device, in place or through copies, or the host
 *     past the index limit of one device call;
 *   - then OCLBLAS_HOST_CALLS=device (or the tuner's pinned context, whose
 *     crossover is the one it measures) takes the device; otherwise the
 *     cost model (cost.c) chooses, with the rates measured so far.
 * Rates are measured at first need: the plan asks for the host BLAS's and
 * the bus's, decides against a device whose products are not measured yet
 * (infinitely fast), and only when the device wins even so asks for the
 * device's product rate and decides again. A call that goes to the host
 * against an ideal device measures no product on the device.
 */
#include "plan/host_plan.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static size_t max3(size_t a, size_t b, size_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

/* The plan ends at the host (route) for a reason. */
static void at_host(oclblas__host_plan *p, oclblas__route route, oclblas__host_why why)
{
    p->route = route;
    p->why = why;
    p->devices = 0;
}

/* What the model needs before it can compare (0: it has it). */
static unsigned model_needs(const oclblas__host_facts *f, unsigned host_rate)
{
    return (host_rate | OCLBLAS__KNOW_TRANSFERS) & ~f->known;
}

/* The device's rates as the model uses them: a product rate not measured
 * yet is that of an ideal device. */
static oclblas__dev_rates model_rates(const oclblas__host_facts *f)
{
    oclblas__dev_rates d = f->dev;
    if (!(f->known & OCLBLAS__KNOW_DEV_GEMM)) {
        d.gemm_flops = INFINITY;
        d.gemm_call_s = 0.0;
    }
    if (!(f->known & OCLBLAS__KNOW_DEV_GEMV))
        d.gemv_bps = INFINITY;
    return d;
}

/* SGEMM on the device: in place or tiles; then who decides. */
static void gemm_plan(const oclblas__record *r, const oclblas__host_facts *f, oclblas__host_plan *p)
{
    const oclblas__record c = oclblas__record_col_major(r);
    size_t ext[3];
    oclblas__record_extents(r, ext);
    const size_t most = max3(ext[0], ext[1], ext[2]);
    const int in_place = f->devices == 1 && f->unified_memory && f->zero_copy && most <= f->index_limit &&
                         most <= f->max_alloc / sizeof(float) && c.a.ld <= (size_t)INT_MAX &&
                         c.b.ld <= (size_t)INT_MAX && c.c.ld <= (size_t)INT_MAX;
    const oclblas__tile_problem tp = {c.m, c.n, c.k, c.beta != 0.0f, f->index_limit};
    if (!in_place && oclblas__tiling_plan(&tp, f->budget, f->max_alloc, f->devices, &p->tiling) != OCLBLAS_SUCCESS) {
        at_host(p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_NO_ROOM);
        return;
    }
    p->route = in_place ? OCLBLAS__ROUTE_IN_PLACE : OCLBLAS__ROUTE_TILES;
    p->devices = in_place ? 1 : f->devices;
    if (p->why != OCLBLAS__WHY_MODEL)
        return;
    if ((p->needs = model_needs(f, OCLBLAS__KNOW_HOST_GEMM)) != 0)
        return;
    const oclblas__dev_rates d = model_rates(f);
    if (!oclblas__choose_gemm(&f->host, &d, f->devices, in_place ? NULL : &p->tiling, &tp, &p->est)) {
        at_host(p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_MODEL);
        return;
    }
    p->needs = OCLBLAS__KNOW_DEV_GEMM & ~f->known;
}

/* SGEMV on the first device: in place or copied, inside the index limit. */
static void gemv_plan(const oclblas__record *r, const oclblas__host_facts *f, oclblas__host_plan *p)
{
    const oclblas__record c = oclblas__record_col_major(r);
    size_t ext[3];
    oclblas__record_extents(r, ext);
    const size_t step_x = oclblas__abs_inc(c.b.inc);
    const size_t step_y = oclblas__abs_inc(c.c.inc);
    if (max3(ext[0], ext[1], ext[2]) > f->index_limit || ext[0] > f->max_alloc / sizeof(float) ||
        c.a.ld > (size_t)INT_MAX || step_x > (size_t)INT_MAX || step_y > (size_t)INT_MAX) {
        at_host(p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_PAST_LIMIT);
        return;
    }
    p->route = f->unified_memory && f->zero_copy ? OCLBLAS__ROUTE_IN_PLACE : OCLBLAS__ROUTE_COPY;
    p->devices = 1;
    if (p->why != OCLBLAS__WHY_MODEL)
        return;
    if ((p->needs = model_needs(f, OCLBLAS__KNOW_HOST_GEMM | OCLBLAS__KNOW_HOST_GEMV)) != 0)
        return;
    oclblas__dev_rates d = model_rates(f);
    d.zero_copy = p->route == OCLBLAS__ROUTE_IN_PLACE;
    if (!oclblas__choose_gemv(&f->host, &d, c.m, c.n, &p->est)) {
        at_host(p, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_MODEL);
        return;
    }
    p->needs = OCLBLAS__KNOW_DEV_GEMV & ~f->known;
}

void oclblas__host_plan_make(const oclblas__record *r, const oclblas__host_facts *f, oclblas__host_plan *out)
{
    memset(out, 0, sizeof *out);
    out->routine = r->routine;
    const double hm = (double)f->host_max;
    const double work = (double)r->m * (double)r->n * (r->routine == OCLBLAS__SGEMM ? (double)r->k : 1.0);
    if (!oclblas__record_uses_ab(r)) {
        at_host(out, OCLBLAS__ROUTE_OWN, OCLBLAS__WHY_TRIVIAL);
    } else if (f->reentered) {
        at_host(out, OCLBLAS__ROUTE_OWN, OCLBLAS__WHY_REENTERED);
    } else if (!(f->known & OCLBLAS__KNOW_DEVICES)) {
        out->needs = OCLBLAS__KNOW_DEVICES;
    } else if (f->devices < 1) {
        out->no_device = f->no_device;
        at_host(out, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_NO_DEVICE);
    } else if (work <= hm * hm * hm) {
        out->host_max = f->host_max;
        at_host(out, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_HOST_MAX);
    } else if (f->calls == OCLBLAS__CALLS_HOST) {
        at_host(out, OCLBLAS__ROUTE_HOST, OCLBLAS__WHY_CALLS_HOST);
    } else {
        out->why = f->calls == OCLBLAS__CALLS_DEVICE ? OCLBLAS__WHY_CALLS_DEVICE
                   : f->pinned_context             ? OCLBLAS__WHY_PINNED
                                                   : OCLBLAS__WHY_MODEL;
        if (r->routine == OCLBLAS__SGEMM)
            gemm_plan(r, f, out);
        else
            gemv_plan(r, f, out);
    }
}

int oclblas__route_on_device(oclblas__route route) { return route >= OCLBLAS__ROUTE_IN_PLACE; }

void oclblas__host_plan_describe(const oclblas__host_plan *p, char *buf, size_t len)
{
    switch (p->why) {
    case OCLBLAS__WHY_TRIVIAL: snprintf(buf, len, "C = beta C"); break;
    case OCLBLAS__WHY_REENTERED: snprintf(buf, len, "the host BLAS called back into the library"); break;
    case OCLBLAS__WHY_NO_DEVICE: snprintf(buf, len, "no device: %s", oclblas_status_string(p->no_device)); break;
    case OCLBLAS__WHY_HOST_MAX:
        snprintf(buf, len, "%s <= HOST_MAX^3, HOST_MAX %d", p->routine == OCLBLAS__SGEMV ? "m*n" : "m*n*k",
                 p->host_max);
        break;
    case OCLBLAS__WHY_CALLS_HOST: snprintf(buf, len, "OCLBLAS_HOST_CALLS=host"); break;
    case OCLBLAS__WHY_NO_ROOM: snprintf(buf, len, "no tile fits the devices' memory (OCLBLAS_DEVICE_MEMORY)"); break;
    case OCLBLAS__WHY_PAST_LIMIT: snprintf(buf, len, "beyond the index limit of one device call"); break;
    case OCLBLAS__WHY_CALLS_DEVICE: snprintf(buf, len, "OCLBLAS_HOST_CALLS=device"); break;
    case OCLBLAS__WHY_PINNED: snprintf(buf, len, "the tuner's pinned context"); break;
    case OCLBLAS__WHY_MODEL:
        snprintf(buf, len, "cost model: host %.3g ms, device %.3g ms", p->est.host_s * 1e3, p->est.device_s * 1e3);
        break;
    }
}
