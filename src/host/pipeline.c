/*
 * Pipelined tiles: a host-pointer SGEMM (column-major, arguments checked)
 * cut into tiles of C and chunks of k (cost.c chooses their sizes) and
 * computed on one or several devices, each driven by a thread of its own
 * (the caller's thread drives the first).
 *
 * On a device, three queues overlap: uploads, kernels, read-backs. An
 * operand reaches the device as panels (the rows of op(A) of a tile row,
 * the columns of op(B) of a tile column, for one chunk of k): the host
 * threads copy the panel's rectangle from the caller's pageable memory
 * into a ring of pinned staging slots, a piece at a time, and each piece
 * crosses by DMA while the next is copied. Panels stay on the device
 * while its memory budget allows (then each crosses once); past it the
 * least recently used make room. A tile's kernels (one oclblas SGEMM on
 * device buffers per chunk of k, accumulating in the tile's C buffer) wait
 * for their panels by events, so the next tile's uploads run beside this
 * tile's products; its read-back goes to a pinned slot of its own, up to
 * three tiles in flight, and the host threads copy it into the caller's C
 * while later tiles compute. With beta != 0 the tile of C goes up first;
 * with beta = 0 C is never read.
 *
 * Every tile's product is the call's record cut to the tile, so each runs
 * in the mode the call was made in.
 *
 * Tiles are taken in a snake order down the columns of tiles (so that
 * consecutive tiles share a panel of B, and the panels of A come back in
 * the order they left). With several devices each starts with its own
 * block of a grid of tiles (cost.c chooses the grid so that the fewest
 * panels go to two devices) and, when done, takes tiles from the end of
 * the longest remaining run.
 *
 * The caller's C receives each tile once, whole, and only from a
 * read-back that completed without error (or from the host BLAS). A device
 * that fails at any point (any OpenCL error, a kernel that does not build,
 * its memory exhausted, or OCLBLAS_FAULT) finishes what it enqueued, gives
 * its undelivered tiles back, and leaves; the other devices take them, and
 * if none is left the host BLAS computes them: every tile left, or the
 * whole call in one piece when no tile was delivered (C still the
 * caller's). A failing device costs only speed.
 *
 * Each device's busy time, in the report, is measured on its clock from
 * the profiling events of its queues (oclblas__busy_add, cost.c): on the
 * kernel queue each chunk counts from the latest of its first command's
 * START, the END of the chunk before it and the END of its panels'
 * uploads, to its last kernel's END, so a chunk stamped as started while
 * it waited (NVIDIA's driver does) counts only its own run. The upload and
 * read-back queues are counted the same way, and the driving thread's time
 * (copies in and out, enqueueing, waiting) is kept too, for the verbose
 * log: where a call's time went.
 */
#include "host/pipeline.h"
#include "host/pool.h"
#include "host/sysblas.h"
#include "runtime/devctx.h"
#include "runtime/run.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 3

enum { TILE_FREE, TILE_CLAIMED, TILE_DONE };

typedef struct {
    /* The call, column-major, and its output (the caller's C). */
    oclblas__record p;
    int ta, tb;
    float *c;
    oclblas__tiling t;
    size_t tiles;
    /* The schedule, under lock. */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned char *state;
    size_t lo[OCLBLAS__MAX_SET], hi[OCLBLAS__MAX_SET]; /* each device's run of tiles not yet claimed */
    int failed[OCLBLAS__MAX_SET];
    size_t *redo, nredo; /* tiles given back by a failed device */
    size_t claimed, delivered;
    int ndev, pr, pc;
    size_t first[OCLBLAS__MAX_SET]; /* where each device's block starts in the order */
    oclblas_status first_error;
} job;

typedef struct {
    int kind; /* 0: A, 1: B */
    size_t idx, kc;
    cl_mem mem;
    size_t bytes;
    size_t ld; /* of the packed panel: the stored rectangle's rows */
    cl_event ready, last_use;
    unsigned long tick;
} panel;

/* One chunk's commands on the kernel queue, for its busy time: the
 * barrier that opens it, its last kernel, and the uploads it waited for. */
typedef struct {
    cl_event open, last;
    cl_event inputs[3];
} chunk_events;

typedef struct {
    size_t t;
    int slot;
    cl_event read;
    chunk_events *chunks;
    size_t nchunks;
} flight;

typedef struct {
    job *j;
    oclblas__hostdev *hd;
    int di;
    oclblas__lane *lane;
    const oclblas__devctx *cx;
    panel *panels;
    size_t npanels, cap;
    unsigned long tick;
    cl_mem cbuf[MAX_DEPTH];
    size_t cbytes[MAX_DEPTH];
    int slot_used[MAX_DEPTH];
    flight fly[MAX_DEPTH]; /* oldest first */
    size_t nfly;
    unsigned long delivered;
    double bytes_in, bytes_out;
    /* The device's queues, busy (profiling, the device's clock): uploads, kernels, read-backs. */
    oclblas__busy up, comp, down;
    /* The driving thread's time (host clock): copying into pinned slots
     * (with the host threads), out of them into C, in OpenCL enqueue
     * calls, and waiting (for a pinned slot to be free, for a read-back). */
    double pack_s, unpack_s, enqueue_s, wait_s;
    oclblas_status error;
} driver;

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

static void release_event(cl_event *e)
{
    if (*e)
        clReleaseEvent(*e);
    *e = NULL;
}

/* Tile t of the order: (row i, column jj) of the grid of tiles. The order
 * runs through the devices' blocks one after the other, and through a
 * block column by column, down and up in turn. */
static void tile_at(const job *j, size_t t, size_t *i, size_t *jj)
{
    int d = 0;
    while (d + 1 < j->ndev && t >= j->first[d + 1])
        ++d;
    const int br = d / j->pc, bc = d % j->pc;
    const size_t r0 = j->t.tiles_m * (size_t)br / (size_t)j->pr, r1 = j->t.tiles_m * (size_t)(br + 1) / (size_t)j->pr;
    const size_t c0 = j->t.tiles_n * (size_t)bc / (size_t)j->pc;
    const size_t rows = r1 - r0, local = t - j->first[d];
    const size_t col = local / rows, r = local % rows;
    *jj = c0 + col;
    *i = r0 + (col % 2 ? rows - 1 - r : r);
}

/* ---- the schedule ------------------------------------------------------ */

/* The next tile for device d: one given back, its own run's next, or the
 * last of the longest run left. Waits while others may still give tiles
 * back; 0 when there is nothing more for it. */
static int claim(job *j, int d, int may_wait, size_t *t)
{
    oclblas__mutex_lock(&j->lock);
    for (;;) {
        if (j->failed[d]) {
            oclblas__mutex_unlock(&j->lock);
            return 0;
        }
        int got = 1;
        if (j->nredo)
            *t = j->redo[--j->nredo];
        else if (j->lo[d] < j->hi[d])
            *t = j->lo[d]++;
        else {
            int e = -1;
            for (int o = 0; o < j->ndev; ++o)
                if (j->hi[o] > j->lo[o] && (e < 0 || j->hi[o] - j->lo[o] > j->hi[e] - j->lo[e]))
                    e = o;
            if (e >= 0)
                *t = --j->hi[e];
            else
                got = 0;
        }
        if (got) {
            j->state[*t] = TILE_CLAIMED;
            ++j->claimed;
            oclblas__mutex_unlock(&j->lock);
            return 1;
        }
        /* Nothing free: tiles claimed elsewhere may yet come back. */
        if (!may_wait || j->claimed == 0) {
            oclblas__mutex_unlock(&j->lock);
            return 0;
        }
        pthread_cond_wait(&j->changed, &j->lock);
    }
}

static void deliver(job *j, size_t t)
{
    oclblas__mutex_lock(&j->lock);
    j->state[t] = TILE_DONE;
    --j->claimed;
    ++j->delivered;
    pthread_cond_broadcast(&j->changed);
    oclblas__mutex_unlock(&j->lock);
}

/* Device d failed (why): the tiles it had in flight go back, and the run
 * it had not claimed stays for the others to take. *left gets how many
 * tiles it leaves undelivered, *others how many devices still run. */
static void give_back(job *j, int d, const size_t *tiles, size_t count, oclblas_status why, size_t *left,
                      int *others)
{
    oclblas__mutex_lock(&j->lock);
    *left = j->hi[d] - j->lo[d];
    for (size_t i = 0; i < count; ++i)
        if (j->state[tiles[i]] == TILE_CLAIMED) {
            j->state[tiles[i]] = TILE_FREE;
            --j->claimed;
            j->redo[j->nredo++] = tiles[i];
            ++*left;
        }
    if (!j->failed[d]) {
        j->failed[d] = 1;
        if (j->first_error == OCLBLAS_SUCCESS)
            j->first_error = why;
    }
    *others = 0;
    for (int o = 0; o < j->ndev; ++o)
        *others += !j->failed[o];
    pthread_cond_broadcast(&j->changed);
    oclblas__mutex_unlock(&j->lock);
}

/* ---- transfers ----------------------------------------------------------- */

/* A profiling timestamp of e in seconds, or 0 when there is none. */
static double stamp(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    if (!e || clGetEventProfilingInfo(e, what, sizeof t, &t, NULL) != CL_SUCCESS)
        return 0.0;
    return (double)t * 1e-9;
}

/* A finished transfer of the upload queue, in the queue's order. */
static void upload_done(driver *r, cl_event e)
{
    oclblas__busy_add(&r->up, stamp(e, CL_PROFILING_COMMAND_START), stamp(e, CL_PROFILING_COMMAND_END), 0.0);
}

/* An event that completed, or its error. */
static oclblas_status wait_ok(cl_event e)
{
    cl_int err = clWaitForEvents(1, &e), status = CL_COMPLETE;
    if (err == CL_SUCCESS)
        err = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    if (err == CL_SUCCESS && status < 0)
        err = status;
    return (oclblas_status)err;
}

/* The rows x cols rectangle at src (leading dimension ld) into mem,
 * packed, through the pinned slots; the first piece waits for `after`.
 * *done gets the last piece's event. */
static oclblas_status upload(driver *r, const float *src, size_t ld, size_t rows, size_t cols, cl_mem mem,
                             cl_event after, cl_event *done)
{
    oclblas__lane *l = r->lane;
    const size_t elems = rows * cols, piece = l->up_bytes / sizeof(float);
    cl_event last = NULL;
    for (size_t e0 = 0; e0 < elems; e0 += piece) {
        const size_t e1 = min_size(e0 + piece, elems);
        const int s = l->up_next;
        l->up_next = (s + 1) % OCLBLAS__UP_SLOTS;
        if (l->up_busy[s]) {
            /* The slot's previous piece must have crossed before it is refilled. */
            const double t0 = oclblas__now();
            const oclblas_status st = wait_ok(l->up_busy[s]);
            r->wait_s += oclblas__now() - t0;
            if (st == OCLBLAS_SUCCESS)
                upload_done(r, l->up_busy[s]);
            release_event(&l->up_busy[s]);
            if (st != OCLBLAS_SUCCESS) {
                release_event(&last);
                return st;
            }
        }
        const double t0 = oclblas__now();
        oclblas__pack(src, ld, rows, e0, e1, l->up_ptr[s]);
        const double t1 = oclblas__now();
        cl_event ev;
        const cl_int err = clEnqueueWriteBuffer(l->up, mem, CL_FALSE, e0 * sizeof(float), (e1 - e0) * sizeof(float),
                                                l->up_ptr[s], after && e0 == 0 ? 1 : 0, after && e0 == 0 ? &after : NULL,
                                                &ev);
        if (err == CL_SUCCESS)
            clFlush(l->up);
        r->pack_s += t1 - t0;
        r->enqueue_s += oclblas__now() - t1;
        if (err != CL_SUCCESS) {
            release_event(&last);
            return (oclblas_status)err;
        }
        l->up_busy[s] = ev;
        release_event(&last);
        clRetainEvent(ev);
        last = ev;
        r->bytes_in += (double)(e1 - e0) * sizeof(float);
    }
    *done = last;
    return OCLBLAS_SUCCESS;
}

/* Panel (kind, idx, kc) on the device: kept, or uploaded into a new
 * buffer, or into the least recently used one's (keep excepted) when the
 * budget has no room. */
static oclblas_status panel_get(driver *r, int kind, size_t idx, size_t kc, const panel *keep, panel **out)
{
    job *j = r->j;
    for (size_t i = 0; i < r->npanels; ++i) {
        panel *p = &r->panels[i];
        if (p->mem && p->kind == kind && p->idx == idx && p->kc == kc) {
            p->tick = ++r->tick;
            *out = p;
            return OCLBLAS_SUCCESS;
        }
    }
    /* The stored rectangle: op(A) rows [i0, i0 + len) by k [p0, p0 + kk),
     * or op(B) k [p0, p0 + kk) by columns [j0, j0 + len). */
    const size_t tile = kind ? j->t.tn : j->t.tm, full = kind ? j->p.n : j->p.m;
    const size_t x0 = idx * tile, len = min_size(tile, full - x0), p0 = kc * j->t.tk, kk = min_size(j->t.tk, j->p.k - p0);
    const int trans = kind ? j->tb : j->ta;
    const float *base = kind ? j->p.b.host : j->p.a.host;
    const size_t ld = kind ? j->p.b.ld : j->p.a.ld;
    /* A not transposed: rows x0.. of columns p0..; transposed: rows p0.. of columns x0..
     * B not transposed: rows p0.. of columns x0..; transposed: rows x0.. of columns p0.. */
    const int x_is_rows = kind ? trans : !trans;
    const size_t rows = x_is_rows ? len : kk, cols = x_is_rows ? kk : len;
    const float *src = x_is_rows ? base + p0 * ld + x0 : base + x0 * ld + p0;
    const size_t bytes = rows * cols * sizeof(float);

    cl_mem mem = NULL;
    size_t got = 0;
    cl_event after = NULL;
    panel *slot = NULL;
    oclblas_status st = oclblas__lane_buffer(r->lane, bytes, &mem, &got);
    while (st == (oclblas_status)CL_MEM_OBJECT_ALLOCATION_FAILURE) {
        panel *victim = NULL;
        for (size_t i = 0; i < r->npanels; ++i) {
            panel *p = &r->panels[i];
            if (p->mem && p != keep && (!victim || p->tick < victim->tick))
                victim = p;
        }
        if (!victim)
            return st;
        release_event(&victim->ready);
        slot = victim;
        if (victim->bytes >= bytes) {
            /* Its buffer, once the kernels that read it are done. */
            mem = victim->mem;
            got = victim->bytes;
            after = victim->last_use;
            victim->last_use = NULL;
            victim->mem = NULL;
            st = OCLBLAS_SUCCESS;
            break;
        }
        if (victim->last_use)
            clWaitForEvents(1, &victim->last_use);
        release_event(&victim->last_use);
        oclblas__lane_buffer_free(r->lane, victim->mem, victim->bytes);
        victim->mem = NULL;
        st = oclblas__lane_buffer(r->lane, bytes, &mem, &got);
    }
    if (st != OCLBLAS_SUCCESS)
        return st;
    if (!slot) {
        for (size_t i = 0; i < r->npanels && !slot; ++i)
            if (!r->panels[i].mem)
                slot = &r->panels[i];
        if (!slot) {
            if (r->npanels == r->cap) {
                const size_t cap = r->cap ? 2 * r->cap : 16;
                /* keep points into the array: it must not move under it. */
                const size_t keep_at = keep ? (size_t)(keep - r->panels) : 0;
                panel *np = realloc(r->panels, cap * sizeof *np);
                if (!np) {
                    release_event(&after);
                    oclblas__lane_buffer_put(r->lane, mem, got);
                    return OCLBLAS_OUT_OF_HOST_MEMORY;
                }
                r->panels = np;
                r->cap = cap;
                if (keep)
                    keep = &r->panels[keep_at];
            }
            slot = &r->panels[r->npanels++];
        }
    }
    memset(slot, 0, sizeof *slot);
    slot->kind = kind;
    slot->idx = idx;
    slot->kc = kc;
    slot->mem = mem;
    slot->bytes = got;
    slot->ld = rows;
    slot->tick = ++r->tick;
    st = upload(r, src, ld, rows, cols, mem, after, &slot->ready);
    /* A failed upload still has its panel's buffer to give back at the end. */
    slot->last_use = after;
    *out = slot;
    return st;
}

/* ---- tiles ------------------------------------------------------------- */

/* Enqueues tile t: C's tile up when beta reads it, then per chunk of k the
 * panels and one SGEMM into the tile's buffer, then its read-back into
 * the pinned slot of the same number. */
static oclblas_status tile_start(driver *r, flight *f)
{
    job *j = r->j;
    size_t ti, tj;
    tile_at(j, f->t, &ti, &tj);
    const size_t i0 = ti * j->t.tm, j0 = tj * j->t.tn;
    const size_t mi = min_size(j->t.tm, j->p.m - i0), nj = min_size(j->t.tn, j->p.n - j0);
    const cl_mem cbuf = r->cbuf[f->slot];
    oclblas__lane *l = r->lane;
    cl_event c_ready = NULL, kev = NULL;
    oclblas_status st = OCLBLAS_SUCCESS;
    if (oclblas__hostdev_faulted(r->hd, r->delivered))
        return (oclblas_status)CL_OUT_OF_RESOURCES;
    if (j->p.beta != 0.0f)
        st = upload(r, j->c + j0 * j->p.c.ld + i0, j->p.c.ld, mi, nj, cbuf, NULL, &c_ready);
    f->chunks = calloc(j->t.chunks, sizeof *f->chunks);
    if (!f->chunks && st == OCLBLAS_SUCCESS)
        st = OCLBLAS_OUT_OF_HOST_MEMORY;
    for (size_t kc = 0; kc < j->t.chunks && st == OCLBLAS_SUCCESS; ++kc) {
        panel *pa, *pb;
        st = panel_get(r, 0, ti, kc, NULL, &pa);
        if (st == OCLBLAS_SUCCESS)
            st = panel_get(r, 1, tj, kc, pa, &pb);
        if (st == OCLBLAS_SUCCESS) {
            /* The panels may have moved in memory (panel_get grows the list). */
            for (size_t i = 0; i < r->npanels; ++i)
                if (r->panels[i].mem && r->panels[i].kind == 0 && r->panels[i].idx == ti && r->panels[i].kc == kc)
                    pa = &r->panels[i];
        }
        if (st != OCLBLAS_SUCCESS)
            break;
        cl_event wait[3] = {pa->ready, pb->ready, c_ready};
        const cl_uint nw = kc == 0 && c_ready ? 3 : 2;
        chunk_events *ce = &f->chunks[f->nchunks++];
        for (cl_uint w = 0; w < nw; ++w)
            if (wait[w]) {
                clRetainEvent(wait[w]);
                ce->inputs[w] = wait[w];
            }
        const double t0 = oclblas__now();
        st = (oclblas_status)clEnqueueBarrierWithWaitList(l->comp, nw, wait, &ce->open);
        if (st != OCLBLAS_SUCCESS) {
            r->enqueue_s += oclblas__now() - t0;
            break;
        }
        const size_t p0 = kc * j->t.tk, kk = min_size(j->t.tk, j->p.k - p0);
        release_event(&kev);
        /* The call's record, its mode included, cut to the tile and chunk. */
        oclblas__record tile = j->p;
        tile.m = mi;
        tile.n = nj;
        tile.k = kk;
        tile.beta = kc == 0 ? j->p.beta : 1.0f;
        tile.a = (oclblas__arg){NULL, pa->mem, 0, pa->ld, 0};
        tile.b = (oclblas__arg){NULL, pb->mem, 0, pb->ld, 0};
        tile.c = (oclblas__arg){NULL, cbuf, 0, mi, 0};
        st = oclblas__run(r->cx, &tile, l->comp, &kev);
        if (st == OCLBLAS_SUCCESS)
            clFlush(l->comp); /* later uploads may wait for this kernel (a panel's buffer reused) */
        r->enqueue_s += oclblas__now() - t0;
        if (st != OCLBLAS_SUCCESS)
            break;
        clRetainEvent(kev);
        ce->last = kev;
        release_event(&pa->last_use);
        release_event(&pb->last_use);
        clRetainEvent(kev);
        pa->last_use = kev;
        clRetainEvent(kev);
        pb->last_use = kev;
    }
    release_event(&c_ready);
    if (st == OCLBLAS_SUCCESS) {
        const double t0 = oclblas__now();
        st = (oclblas_status)clEnqueueReadBuffer(l->down, cbuf, CL_FALSE, 0, mi * nj * sizeof(float),
                                                 l->down_ptr[f->slot], 1, &kev, &f->read);
        r->enqueue_s += oclblas__now() - t0;
    }
    release_event(&kev);
    return st;
}

static void flight_free(flight *f)
{
    for (size_t i = 0; i < f->nchunks; ++i) {
        chunk_events *ce = &f->chunks[i];
        release_event(&ce->open);
        release_event(&ce->last);
        for (int w = 0; w < 3; ++w)
            release_event(&ce->inputs[w]);
    }
    free(f->chunks);
    f->chunks = NULL;
    f->nchunks = 0;
    release_event(&f->read);
}

/* The busy time of a delivered tile's commands on the kernel and
 * read-back queues (oclblas__busy_add: each chunk from when its queue
 * was free and its panels there, or from its first command's START if
 * later, to its last kernel's END). A chunk's first command is its
 * barrier; its last kernel's START stands in where the barrier has none
 * (the earlier of the two: with a split k the last kernel is the sum). */
static void tile_busy(driver *r, const flight *f)
{
    double last_end = 0.0;
    for (size_t i = 0; i < f->nchunks; ++i) {
        const chunk_events *ce = &f->chunks[i];
        double start = stamp(ce->open, CL_PROFILING_COMMAND_START);
        const double kstart = stamp(ce->last, CL_PROFILING_COMMAND_START);
        if (kstart > 0 && (start <= 0 || kstart < start))
            start = kstart;
        double ready = 0.0;
        for (int w = 0; w < 3; ++w) {
            const double e = stamp(ce->inputs[w], CL_PROFILING_COMMAND_END);
            ready = e > ready ? e : ready;
        }
        last_end = stamp(ce->last, CL_PROFILING_COMMAND_END);
        oclblas__busy_add(&r->comp, start, last_end, ready);
    }
    oclblas__busy_add(&r->down, stamp(f->read, CL_PROFILING_COMMAND_START), stamp(f->read, CL_PROFILING_COMMAND_END),
                      last_end);
}

/* The oldest tile in flight into the caller's C, once its read-back has
 * completed (block: waits for it). 1: delivered, 0: not yet, -1: the
 * device failed (r->error). */
static int complete(driver *r, int block)
{
    flight *f = &r->fly[0];
    if (!block) {
        cl_int status = CL_QUEUED;
        if (clGetEventInfo(f->read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS)
            status = CL_QUEUED; /* the blocking wait below tells */
        if (status > CL_COMPLETE)
            return 0;
    }
    const double t0 = oclblas__now();
    const oclblas_status st = oclblas__hostdev_faulted(r->hd, r->delivered) ? (oclblas_status)CL_OUT_OF_RESOURCES : wait_ok(f->read);
    r->wait_s += oclblas__now() - t0;
    if (st != OCLBLAS_SUCCESS) {
        r->error = st;
        return -1;
    }
    job *j = r->j;
    size_t ti, tj;
    tile_at(j, f->t, &ti, &tj);
    const size_t i0 = ti * j->t.tm, j0 = tj * j->t.tn;
    const size_t mi = min_size(j->t.tm, j->p.m - i0), nj = min_size(j->t.tn, j->p.n - j0);
    tile_busy(r, f);
    const double t1 = oclblas__now();
    oclblas__unpack(r->lane->down_ptr[f->slot], 0, mi * nj, j->c + j0 * j->p.c.ld + i0, j->p.c.ld, mi);
    r->unpack_s += oclblas__now() - t1;
    r->bytes_out += (double)(mi * nj) * sizeof(float);
    deliver(j, f->t);
    ++r->delivered;
    r->slot_used[f->slot] = 0;
    flight_free(f);
    memmove(&r->fly[0], &r->fly[1], (r->nfly - 1) * sizeof r->fly[0]);
    --r->nfly;
    return 1;
}

/* ---- one device's driver -------------------------------------------------- */

static oclblas_status driver_setup(driver *r)
{
    job *j = r->j;
    oclblas_status st;
    r->lane = oclblas__lane_take(r->hd, &st);
    if (!r->lane)
        return st;
    st = oclblas__devctx_get(r->hd->d->info, &r->cx);
    /* Upload pieces of 16 MiB (less when the panels are smaller): large
     * enough for the bus's full rate, small enough that copy and DMA
     * alternate often. */
    const size_t panel_bytes = (j->t.tm > j->t.tn ? j->t.tm : j->t.tn) * j->t.tk * sizeof(float);
    const size_t tile_bytes = j->t.tm * j->t.tn * sizeof(float);
    size_t piece = panel_bytes > tile_bytes ? panel_bytes : tile_bytes;
    piece = piece > ((size_t)16 << 20) ? (size_t)16 << 20 : (piece + 65535) / 65536 * 65536;
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__lane_up_slots(r->lane, piece);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas__lane_down_slots(r->lane, j->t.depth, tile_bytes);
    for (size_t s = 0; s < j->t.depth && st == OCLBLAS_SUCCESS; ++s)
        st = oclblas__lane_buffer(r->lane, tile_bytes, &r->cbuf[s], &r->cbytes[s]);
    return st;
}

static void driver_cleanup(driver *r)
{
    oclblas__lane *l = r->lane;
    if (!l)
        return;
    /* Nothing of ours may still run when the lane and its buffers are reused. */
    clFinish(l->up);
    clFinish(l->comp);
    clFinish(l->down);
    for (size_t i = 0; i < r->nfly; ++i)
        flight_free(&r->fly[i]);
    r->nfly = 0;
    for (size_t i = 0; i < r->npanels; ++i) {
        panel *p = &r->panels[i];
        release_event(&p->ready);
        release_event(&p->last_use);
        if (p->mem) {
            if (r->error == OCLBLAS_SUCCESS)
                oclblas__lane_buffer_put(l, p->mem, p->bytes);
            else
                oclblas__lane_buffer_free(l, p->mem, p->bytes);
        }
    }
    free(r->panels);
    r->panels = NULL;
    /* The uploads still counted in the ring, oldest first (the queue's order). */
    for (int i = 0; i < OCLBLAS__UP_SLOTS; ++i) {
        const int s = (l->up_next + i) % OCLBLAS__UP_SLOTS;
        if (l->up_busy[s] && r->error == OCLBLAS_SUCCESS)
            upload_done(r, l->up_busy[s]);
        release_event(&l->up_busy[s]);
    }
    for (size_t s = 0; s < MAX_DEPTH; ++s)
        if (r->cbuf[s]) {
            if (r->error == OCLBLAS_SUCCESS)
                oclblas__lane_buffer_put(l, r->cbuf[s], r->cbytes[s]);
            else
                oclblas__lane_buffer_free(l, r->cbuf[s], r->cbytes[s]);
        }
    oclblas__lane_put(l);
    r->lane = NULL;
}

/* The device failed: its undelivered tiles go back to the others, or to
 * the host when no other device is left. */
static void driver_fail(driver *r)
{
    size_t tiles[MAX_DEPTH], left;
    int others;
    for (size_t i = 0; i < r->nfly; ++i)
        tiles[i] = r->fly[i].t;
    give_back(r->j, r->di, tiles, r->nfly, r->error, &left, &others);
    oclblas__log("device %d (%s) failed after delivering %lu tile%s: %s; its %zu undelivered tile%s go%s to %s",
                 r->hd->index, r->hd->d->info->name, r->delivered, r->delivered == 1 ? "" : "s",
                 oclblas_status_string(r->error), left, left == 1 ? "" : "s", left == 1 ? "es" : "",
                 others ? "the other devices" : "the host");
}

static void *drive(void *arg)
{
    driver *r = arg;
    job *j = r->j;
    r->error = driver_setup(r);
    while (r->error == OCLBLAS_SUCCESS) {
        /* What has come back goes to C first, without waiting. */
        int c = 1;
        while (r->nfly && (c = complete(r, 0)) == 1)
            ;
        if (c < 0)
            break;
        if (r->nfly == j->t.depth && complete(r, 1) < 0)
            break;
        size_t t;
        if (!claim(j, r->di, 0, &t)) {
            /* Nothing free now: drain our own, then wait for what others may give back. */
            if (r->nfly) {
                if (complete(r, 1) < 0)
                    break;
                continue;
            }
            if (!claim(j, r->di, 1, &t))
                break;
        }
        flight *f = &r->fly[r->nfly++];
        memset(f, 0, sizeof *f);
        f->t = t;
        for (int s = 0; s < (int)j->t.depth; ++s)
            if (!r->slot_used[s]) {
                f->slot = s;
                break;
            }
        r->slot_used[f->slot] = 1;
        r->error = tile_start(r, f);
        /* Commands on one queue wait for events of the others: each queue
         * must have handed its commands to the device. */
        clFlush(r->lane->up);
        clFlush(r->lane->comp);
        clFlush(r->lane->down);
    }
    if (r->error != OCLBLAS_SUCCESS) {
        /* Whatever it enqueued ends before its tiles are handed on, so
         * that nothing of it runs once another device or the host has
         * them (a failed read-back never reaches the caller's C anyway). */
        if (r->lane) {
            clFinish(r->lane->up);
            clFinish(r->lane->comp);
            clFinish(r->lane->down);
        }
        driver_fail(r);
    }
    driver_cleanup(r);
    return NULL;
}

/* ---- the call -------------------------------------------------------------- */

/* A device's kernel time in a call of `seconds`: the busy union of its
 * kernel queue, at most the call (the device's clock and the host's may
 * differ by a little). */
static double device_busy(const driver *r, double seconds)
{
    return r->comp.busy_s < seconds ? r->comp.busy_s : seconds;
}

/* Where a device's call went, for OCLBLAS_VERBOSE: each queue's busy time
 * and the driving thread's. */
static void log_device(const driver *r, double seconds)
{
    const double s = seconds > 0 ? seconds : 1.0, pct = 100.0 / s;
    oclblas__log("device %d (%s): %lu tiles in %.3f ms: kernels busy %.1f ms (%.0f%%, %lu chunks, %lu stamped as "
                 "started before their queue or inputs allowed), bus to it %.1f ms (%.0f%%), back %.1f ms (%.0f%%); "
                 "the driving thread: copies in %.1f ms, out %.1f ms, enqueueing %.1f ms, waiting %.1f ms",
                 r->hd->index, r->hd->d->info->name, r->delivered, seconds * 1e3, r->comp.busy_s * 1e3,
                 r->comp.busy_s * pct, r->comp.commands, r->comp.clamped, r->up.busy_s * 1e3, r->up.busy_s * pct,
                 r->down.busy_s * 1e3, r->down.busy_s * pct, r->pack_s * 1e3, r->unpack_s * 1e3, r->enqueue_s * 1e3,
                 r->wait_s * 1e3);
}

/* Rows [i0, i0 + mi) and columns [j0, j0 + nj) of C by the host BLAS. */
static const char *host_block(const job *j, size_t i0, size_t j0, size_t mi, size_t nj)
{
    const float *a = j->ta ? j->p.a.host + i0 * j->p.a.ld : j->p.a.host + i0;
    const float *b = j->tb ? j->p.b.host + j0 : j->p.b.host + j0 * j->p.b.ld;
    return oclblas__sysblas_sgemm(OCLBLAS_COL_MAJOR, j->p.trans_a, j->p.trans_b, mi, nj, j->p.k, j->p.alpha, a,
                                  j->p.a.ld, b, j->p.b.ld, j->p.beta, j->c + j0 * j->p.c.ld + i0, j->p.c.ld);
}

/* What no device delivered, by the host: the whole call when C is as the
 * caller gave it, else each tile left. Returns the tiles it computed. */
static size_t host_rest(job *j, const char **served)
{
    if (j->delivered == 0) {
        *served = host_block(j, 0, 0, j->p.m, j->p.n);
        return j->tiles;
    }
    size_t on_host = 0;
    for (size_t t = 0; t < j->tiles; ++t)
        if (j->state[t] != TILE_DONE) {
            size_t ti, tj;
            tile_at(j, t, &ti, &tj);
            const size_t i0 = ti * j->t.tm, j0 = tj * j->t.tn;
            *served = host_block(j, i0, j0, min_size(j->t.tm, j->p.m - i0), min_size(j->t.tn, j->p.n - j0));
            ++on_host;
        }
    return on_host;
}

/* Each device's first run: its block of the grid of tiles. */
static void first_runs(job *j, driver *drv, oclblas__hostdev *const *hd)
{
    const oclblas__tiling *t = &j->t;
    oclblas__device_grid(t->tiles_m, t->tiles_n, j->ndev, 4.0 * (double)j->p.m * (double)j->p.k,
                         4.0 * (double)j->p.k * (double)j->p.n, &j->pr, &j->pc);
    size_t at = 0;
    for (int d = 0; d < j->ndev; ++d) {
        const size_t br = (size_t)(d / j->pc), bc = (size_t)(d % j->pc), pr = (size_t)j->pr, pc = (size_t)j->pc;
        const size_t rows = t->tiles_m * (br + 1) / pr - t->tiles_m * br / pr;
        const size_t cols = t->tiles_n * (bc + 1) / pc - t->tiles_n * bc / pc;
        j->first[d] = j->lo[d] = at;
        at += rows * cols;
        j->hi[d] = at;
        drv[d].j = j;
        drv[d].hd = hd[d];
        drv[d].di = d;
    }
}

/* Every device's driver, the first in the caller's thread. A device whose
 * thread cannot start fails at once: the others take its run. */
static void drive_all(job *j, driver *drv)
{
    pthread_t threads[OCLBLAS__MAX_SET];
    int running[OCLBLAS__MAX_SET] = {0};
    for (int d = 1; d < j->ndev; ++d) {
        running[d] = pthread_create(&threads[d], NULL, drive, &drv[d]) == 0;
        if (!running[d]) {
            size_t left;
            int others;
            drv[d].error = OCLBLAS_OUT_OF_HOST_MEMORY;
            give_back(j, d, NULL, 0, drv[d].error, &left, &others);
        }
    }
    drive(&drv[0]);
    for (int d = 1; d < j->ndev; ++d)
        if (running[d])
            pthread_join(threads[d], NULL);
}

/* The call's report: what each device delivered and moved, how busy it was. */
static void report_of(const job *j, const driver *drv, size_t on_host, const char *served, double seconds,
                      oclblas_host_report *report)
{
    report->on_device = j->delivered > 0;
    oclblas__strlcpy(report->host_blas, served, sizeof report->host_blas);
    report->seconds = seconds;
    report->tiles = j->tiles;
    report->tiles_on_host = on_host;
    report->devices = j->ndev;
    report->failed_devices = 0;
    report->bytes_to_device = report->bytes_from_device = 0;
    for (int d = 0; d < j->ndev; ++d) {
        report->failed_devices += drv[d].error != OCLBLAS_SUCCESS;
        report->bytes_to_device += drv[d].bytes_in;
        report->bytes_from_device += drv[d].bytes_out;
        if (d < OCLBLAS_REPORT_DEVICES) {
            report->device[d].tiles = drv[d].delivered;
            report->device[d].busy_s = device_busy(&drv[d], seconds);
        }
    }
}

oclblas_status oclblas__pipeline_sgemm(oclblas__hostdev *const *hd, int ndev, const oclblas__tiling *tiling,
                                       const oclblas__record *call, oclblas_host_report *report)
{
    if (tiling->depth > MAX_DEPTH || ndev < 1 || ndev > OCLBLAS__MAX_SET || call->layout != OCLBLAS_COL_MAJOR)
        return OCLBLAS_INVALID_ARGUMENT;
    const double t0 = oclblas__now();
    job j;
    memset(&j, 0, sizeof j);
    j.p = *call;
    j.ta = call->trans_a != OCLBLAS_NO_TRANS;
    j.tb = call->trans_b != OCLBLAS_NO_TRANS;
    j.c = (float *)call->c.host; /* the caller's writable C (record.h) */
    j.t = *tiling;
    j.tiles = tiling->tiles_m * tiling->tiles_n;
    j.ndev = ndev;
    j.state = calloc(j.tiles, 1);
    j.redo = malloc(j.tiles * sizeof *j.redo);
    driver *drv = calloc((size_t)ndev, sizeof *drv);
    if (!j.state || !j.redo || !drv) {
        free(j.state);
        free(j.redo);
        free(drv);
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    pthread_mutex_init(&j.lock, NULL);
    pthread_cond_init(&j.changed, NULL);
    first_runs(&j, drv, hd);
    drive_all(&j, drv);
    /* What no device delivered goes to the host. */
    size_t on_host = 0;
    const char *served = oclblas__sysblas_name(1);
    if (j.delivered < j.tiles) {
        on_host = host_rest(&j, &served);
        oclblas__log("sgemm %zux%zux%zu: %zu of %zu tiles computed by the host (%s): no device left", j.p.m, j.p.n,
                     j.p.k, on_host, j.tiles, served);
    }
    if (report)
        report_of(&j, drv, on_host, served, oclblas__now() - t0, report);
    if (oclblas__verbose())
        for (int d = 0; d < ndev; ++d)
            log_device(&drv[d], oclblas__now() - t0);
    pthread_mutex_destroy(&j.lock);
    pthread_cond_destroy(&j.changed);
    free(j.state);
    free(j.redo);
    free(drv);
    return OCLBLAS_SUCCESS;
}

/* ---- the report -------------------------------------------------------- */

static _Thread_local oclblas_host_report last_report;
static _Thread_local int have_report;

void oclblas__report_set(const oclblas_host_report *r)
{
    last_report = *r;
    have_report = 1;
}

oclblas_status oclblas_host_report_get(oclblas_host_report *report)
{
    if (!report)
        return OCLBLAS_INVALID_ARGUMENT;
    if (!have_report)
        memset(&last_report, 0, sizeof last_report);
    *report = last_report;
    return OCLBLAS_SUCCESS;
}
