/*
 * The cost model of host-pointer calls and the tiling of the pipeline:
 * pure functions of rates, limits and the problem, with no OpenCL call,
 * so that every decision is tested without a device (tests/test_cost.c).
 *
 * Host or device is whichever the model expects to finish first. The host
 * takes a fixed cost per call plus the work at the host BLAS's measured
 * rate. The device, for SGEMM through the pipeline, takes the time to fill
 * (the first chunk of the first tile must arrive before anything is
 * computed), then the longest of its streams, which overlap: the products
 * at its measured rate, the bytes to it and from it over the bus, and the
 * host threads' copies between the caller's pageable memory and pinned
 * staging; then the time to drain (the last tile's way back). On memory it
 * shares with the host (zero-copy) it takes only the products. SGEMV reads
 * each element of A once, so on a discrete device A's way over the bus
 * alone is slower than the host reading it: the device serves only where
 * the model, with the rates of the path the call would take (small
 * operands through pinned staging, large ones straight from the caller's
 * pageable memory, which on the H100 machine crossed at 8 GB/s against
 * 51 from pinned memory), finds it faster by a margin (the measurements
 * are not exact, and SGEMV must never be slower than the host).
 *
 * The devices' busy time (oclblas__busy_add) is the union of the
 * intervals of a queue's commands, each clamped to start no earlier than
 * the command before it on the same in-order queue ended and the
 * commands of other queues it waited for ended: NVIDIA's OpenCL stamps
 * the START of a command that waits (behind the queue, or for an upload on
 * another queue) before it runs, and the plain sum of END - START came to
 * nine times the call's wall time.
 *
 * The tiling cuts C into tiles of about equal size, around four per
 * device (enough for each tile's transfers to hide behind others'
 * products), at least 512 and at most 4096 on a side unless the problem
 * is smaller, and k into chunks of about 2048 where it is longer than
 * 4096, so that the first product starts after the first chunk's panels
 * have crossed and C's tiles accumulate on the device. Few, large tiles
 * and chunks, because each is a product of its own: on an H100 a product
 * of 2048^3 runs at 43 TFLOPS and one of 1024^3 at 25, and each chunk is
 * a few commands more and a wait across queues (the first H100 run, with
 * eight tiles per device of 1408 and chunks of 1024, ran 4096^3 at 6.5
 * TFLOPS where the bus and the host's copies allowed 20). Several devices own blocks of a grid of
 * tiles chosen so that the fewest panels cross twice (A goes to every
 * column of devices, B to every row). Everything stays inside the index limit (the
 * kernels' int) and the device's memory budget: tiles shrink until one
 * tile in flight per slot, the panels it needs now and next, and the
 * kernels' scratch fit. When all panels fit at once, each crosses the bus
 * once per device.
 */
#include "plan/cost.h"

#include <math.h>

#define TILES_PER_DEVICE 4
#define TILE_MIN 512
#define TILE_MAX 4096
#define K_CHUNK 2048
#define SMALLEST 16 /* tiles shrink for memory down to this */
#define DEPTH 3     /* tiles in flight per device */
/* SGEMV on the device only when the model expects it this much faster. */
#define GEMV_MARGIN 0.8

/* Without a + b - 1, which wraps for sizes near SIZE_MAX. */
static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }
static size_t round_up(size_t x, size_t m) { return ceil_div(x, m) * m; }
static size_t max3(size_t a, size_t b, size_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

/* A tile side near target that cuts len into equal parts, in multiples of gran. */
static size_t balanced(size_t len, size_t target, size_t gran)
{
    if (len <= target)
        return len;
    const size_t t = round_up(ceil_div(len, ceil_div(len, target)), gran);
    return t < len ? t : len;
}

size_t oclblas__tiling_scratch(size_t tm, size_t tn, size_t tk)
{
    /* Padded copies of both panels (tiles of up to 256), and the partial
     * sums of a split k (a few copies of the tile, capped by the plan). */
    const size_t pads = (round_up(tm, 256) + round_up(tn, 256)) * round_up(tk, 256) * sizeof(float);
    size_t partial = 4 * round_up(tm, 256) * round_up(tn, 256) * sizeof(float);
    if (partial > ((size_t)256 << 20))
        partial = (size_t)256 << 20;
    return pads + partial;
}

static size_t least_bytes(size_t tm, size_t tn, size_t tk, size_t depth)
{
    /* C buffers of the tiles in flight, the panels of the chunk computed
     * now and of the one that arrives meanwhile, the kernels' scratch. */
    return depth * tm * tn * sizeof(float) + 2 * (tm + tn) * tk * sizeof(float) + oclblas__tiling_scratch(tm, tn, tk);
}

oclblas_status oclblas__tiling_plan(const oclblas__tile_problem *p, size_t budget, size_t max_alloc, int ndev,
                                    oclblas__tiling *out)
{
    const size_t m = p->m, n = p->n, k = p->k, limit = p->limit;
    double t0 = sqrt((double)m * (double)n / (TILES_PER_DEVICE * (ndev > 0 ? ndev : 1)));
    if (t0 < TILE_MIN)
        t0 = TILE_MIN;
    if (t0 > TILE_MAX)
        t0 = TILE_MAX;
    size_t tm = balanced(m, (size_t)t0, 128), tn = balanced(n, (size_t)t0, 128);
    size_t tk = k <= 2 * K_CHUNK ? k : balanced(k, K_CHUNK, 128);
    const size_t max_elems = max_alloc / sizeof(float);
    for (;;) {
        const size_t tiles = ceil_div(m, tm) * ceil_div(n, tn);
        const size_t depth = tiles < DEPTH ? tiles : DEPTH;
        const size_t big = max3(tm * tk, tn * tk, tm * tn);
        if (big <= limit && big <= max_elems && least_bytes(tm, tn, tk, depth) <= budget)
            break;
        /* Halve the largest side that can still shrink. */
        size_t *side = NULL;
        if (tm > SMALLEST && tm >= tn && tm >= tk)
            side = &tm;
        else if (tn > SMALLEST && tn >= tk)
            side = &tn;
        else if (tk > SMALLEST)
            side = &tk;
        else if (tm > SMALLEST)
            side = &tm;
        else if (tn > SMALLEST)
            side = &tn;
        if (!side)
            return (oclblas_status)CL_MEM_OBJECT_ALLOCATION_FAILURE;
        *side = ceil_div(*side, 2);
    }
    out->tm = tm;
    out->tn = tn;
    out->tk = tk;
    out->tiles_m = ceil_div(m, tm);
    out->tiles_n = ceil_div(n, tn);
    out->chunks = k ? ceil_div(k, tk) : 1;
    const size_t tiles = out->tiles_m * out->tiles_n;
    out->depth = tiles < DEPTH ? tiles : DEPTH;
    out->least_bytes = least_bytes(tm, tn, tk, out->depth);
    const double all_panels = ((double)m * (double)k + (double)k * (double)n) * sizeof(float);
    out->resident = all_panels + (double)out->least_bytes <= (double)budget;
    return OCLBLAS_SUCCESS;
}

void oclblas__device_grid(size_t tiles_m, size_t tiles_n, int ndev, double a_bytes, double b_bytes, int *pr, int *pc)
{
    /* Each device needs the panels of A of its rows of tiles and those of
     * B of its columns: A crosses pc times, B pr times. */
    *pr = 1;
    *pc = ndev;
    double best = -1.0;
    for (int r = 1; r <= ndev; ++r) {
        if (ndev % r)
            continue;
        const int c = ndev / r;
        /* A grid finer than the tiles leaves devices without a block. */
        const double idle = ((size_t)r > tiles_m ? 1.0 : 0.0) + ((size_t)c > tiles_n ? 1.0 : 0.0);
        const double cost = a_bytes * c + b_bytes * r + idle * 1e30;
        if (best < 0 || cost < best) {
            best = cost;
            *pr = r;
            *pc = c;
        }
    }
}

static double min2(double a, double b) { return a < b ? a : b; }
static double max2(double a, double b) { return a > b ? a : b; }

/* Seconds to move bytes at a rate; an unmeasured (0) or infinite rate costs nothing. */
static double at(double bytes, double rate) { return rate > 0 && isfinite(rate) ? bytes / rate : 0.0; }

int oclblas__choose_gemm(const oclblas__host_rates *h, const oclblas__dev_rates *d, int ndev,
                         const oclblas__tiling *t, const oclblas__tile_problem *p, oclblas__estimate *e)
{
    const double m = (double)p->m, n = (double)p->n, k = (double)p->k, flops = 2.0 * m * n * k;
    *e = (oclblas__estimate){0};
    e->host_s = h->call_s + at(flops, h->gemm_flops);
    if (!t) {
        e->compute_s = d->gemm_call_s + at(flops, d->gemm_flops);
        e->device_s = d->latency_s + e->compute_s;
        return e->device_s < e->host_s;
    }
    const double tiles = (double)(t->tiles_m * t->tiles_n), used = min2((double)(ndev > 0 ? ndev : 1), tiles);
    const double launches = tiles * (double)t->chunks / used;
    e->compute_s = at(flops / used, d->gemm_flops) + launches * d->gemm_call_s;
    /* Resident panels cross once per device that needs them: the devices
     * own blocks of a pr x pc grid of tiles, so A crosses pc times and B pr
     * times. Otherwise A comes again for every column of tiles. */
    int pr, pc;
    oclblas__device_grid(t->tiles_m, t->tiles_n, (int)used, m * k * 4.0, k * n * 4.0, &pr, &pc);
    const double a_times = t->resident ? pc : (double)t->tiles_n;
    const double b_times = t->resident || t->chunks == 1 ? pr : (double)t->tiles_m;
    const double in = 4.0 * (m * k * a_times + k * n * b_times + (p->beta_reads ? m * n : 0.0));
    const double out = 4.0 * m * n;
    e->in_s = at(in / used, d->h2d_bps);
    e->out_s = at(out / used, d->d2h_bps);
    e->copy_s = at(in + out, d->copy_bps);
    const double first = 4.0 * ((double)(t->tm + t->tn) * (double)t->tk + (p->beta_reads ? (double)(t->tm * t->tn) : 0));
    const double last = 4.0 * (double)(t->tm * t->tn);
    e->fill_s = d->latency_s + at(first, d->h2d_bps) + at(first, d->copy_bps) + d->gemm_call_s;
    e->drain_s = at(last, d->d2h_bps) + at(last, d->copy_bps);
    e->device_s = e->fill_s + max2(max2(e->compute_s, e->copy_s), max2(e->in_s, e->out_s)) + e->drain_s;
    return e->device_s < e->host_s;
}

int oclblas__choose_gemv(const oclblas__host_rates *h, const oclblas__dev_rates *d, size_t rows, size_t cols,
                         oclblas__estimate *e)
{
    const double bytes = 4.0 * (double)rows * (double)cols;
    *e = (oclblas__estimate){0};
    e->host_s = h->call_s + at(bytes, h->gemv_bps);
    e->compute_s = at(bytes, d->gemv_bps);
    if (!d->zero_copy) {
        /* A crosses before the product starts (one call, no tiles): a
         * small one through the host's copy into pinned staging and the
         * bus, a large one straight from the caller's pageable memory. */
        if (bytes <= (double)OCLBLAS__PIN_BYTES) {
            e->in_s = at(bytes, d->h2d_bps);
            e->copy_s = at(bytes, d->copy_bps);
        } else {
            e->in_s = at(bytes, d->pageable_h2d_bps);
        }
    }
    e->device_s = d->latency_s + e->in_s + e->copy_s + e->compute_s;
    return e->device_s < GEMV_MARGIN * e->host_s;
}

void oclblas__busy_add(oclblas__busy *b, double start, double end, double ready)
{
    if (!(end > 0))
        return;
    /* No earlier than the queue was free and its inputs were there. */
    double lo = start > 0 ? start : 0.0;
    const double bound = b->prev_end > ready ? b->prev_end : ready;
    if (bound > lo) {
        if (start > 0 && bound - start > 1e-6)
            ++b->clamped;
        lo = bound;
    }
    ++b->commands;
    if (lo <= 0) {
        /* Nothing known of when it started: it counts nothing, but the
         * next command cannot have started before it ended. */
        b->prev_end = end > b->prev_end ? end : b->prev_end;
        return;
    }
    if (end > lo)
        b->busy_s += end - lo;
    if (b->first <= 0 || lo < b->first)
        b->first = lo;
    if (end > b->last)
        b->last = end;
    if (end > b->prev_end)
        b->prev_end = end;
}
