/*
 * Declarations of the host-pointer path (oclblas_sgemm and oclblas_sgemv on
 * host memory, and the drop-in library under them): the host threads
 * (pool.c), the process's BLAS (sysblas.c), the index limit (limits.c),
 * the cost model and the tiling, pure functions of rates and problem
 * (cost.c), the devices' host-path state: queues, pinned staging, memory
 * budget, measured rates (hostdev.c), the pipelined tiles over one or
 * several devices (pipeline.c), and the sub-problems of device-buffer calls
 * beyond the index limit (split.c). Internal to the library.
 */
#ifndef OCLBLAS_HOSTPATH_H
#define OCLBLAS_HOSTPATH_H

#include "internal.h"

#include <stdatomic.h>

/* ---- host threads (pool.c) --------------------------------------------- */

typedef void (*oclblas__part_fn)(void *arg, size_t part);
/* Runs fn(arg, p) for every p in [0, parts) on the pool and the calling
 * thread; returns when all are done. */
void oclblas__pool_run(size_t parts, oclblas__part_fn fn, void *arg);
/* The threads a job may use, the caller included (OCLBLAS_HOST_THREADS). */
unsigned oclblas__pool_threads(void);
/* Elements [e0, e1) of the packed rows x cols rectangle (ld = rows) from
 * or into the column-major matrix at src/dst with leading dimension ld,
 * with the pool's threads; dst/src of the packed side point at element e0. */
void oclblas__pack(const float *src, size_t ld, size_t rows, size_t e0, size_t e1, float *dst);
void oclblas__unpack(const float *src, size_t e0, size_t e1, float *dst, size_t ld, size_t rows);

/* ---- the index limit (limits.c) ---------------------------------------- */

/* The most elements one kernel launch, one device buffer of the library or
 * one host BLAS call may span: 2^31 - 1, or lower by OCLBLAS_INDEX_LIMIT. */
size_t oclblas__index_limit(void);

/* ---- the process's BLAS (sysblas.c) ------------------------------------ */

/* SGEMM and SGEMV on host memory (arguments checked) by the BLAS already
 * in the process, else the library's own routine; they return the name of
 * what served, for the log. */
const char *oclblas__sysblas_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                   size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                   const float *b, size_t ldb, float beta, float *c, size_t ldc);
const char *oclblas__sysblas_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                   const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                                   ptrdiff_t incy);
/* What serves SGEMM (gemm 1) or SGEMV on the host: a file name, or the library's own routine. */
const char *oclblas__sysblas_name(int gemm);
/* 1 when this thread is inside a call of the other BLAS, which has called
 * back into the library: from then on the library's own routine serves. */
int oclblas__sysblas_reentered(void);

/* ---- rates and the cost model (cost.c: pure) ---------------------------- */

/* What a device does for the host path, measured once at first need. */
typedef struct {
    double latency_s;     /* one small command's round trip: write, read back, wait */
    double h2d_bps;       /* transfers from pinned memory to the device, bytes/s */
    double d2h_bps;       /* and back */
    double copy_bps;      /* the host threads copying pageable <-> pinned memory */
    double gemm_flops;    /* SGEMM on device buffers at the calibration size, flop/s */
    double gemm_call_s;   /* one small SGEMM on device buffers (the fixed cost of a launch) */
    double gemv_bps;      /* SGEMV on device buffers, bytes of A per second */
    int zero_copy;        /* the device works on host memory in place */
    double pageable_h2d_bps; /* transfers to the device straight from pageable (malloc'ed) memory */
} oclblas__dev_rates;

/* Operands up to this size cross through a pinned staging buffer in the
 * untiled copying path (host.c), larger ones straight from the caller's memory. */
#define OCLBLAS__PIN_BYTES ((size_t)1 << 20)

/* What the host BLAS does, measured once at first need. */
typedef struct {
    double gemm_flops; /* SGEMM at a size near the crossover */
    double gemv_bps;   /* SGEMV, bytes of A per second, A beyond the caches */
    double call_s;     /* a tiny call */
} oclblas__host_rates;

/* A host-pointer SGEMM as the pipeline runs it: column-major, op(A) m x k. */
typedef struct {
    size_t m, n, k;
    int beta_reads;   /* beta != 0: tiles of C go to the device too */
    size_t limit;     /* the index limit */
} oclblas__tile_problem;

/* Tiles of C (tm x tn) and chunks of k (tk): what each device holds and
 * moves. tiles_m x tiles_n tiles, chunks chunks each; depth tiles in
 * flight per device (their C buffers and pinned read-back slots). */
typedef struct {
    size_t tm, tn, tk;
    size_t tiles_m, tiles_n, chunks;
    size_t depth;
    int resident;        /* every panel fits on a device at once: each crosses the bus once */
    size_t least_bytes;  /* device memory the tiles need at the least (one tile's panels, C buffers, scratch) */
} oclblas__tiling;

/* The tiling of a problem for devices with `budget` bytes each (the least
 * of the devices) and buffers of at most max_alloc bytes, over ndev
 * devices: tiles large enough for the kernels, enough of them to overlap
 * transfers with products (about 8 per device), k cut into chunks where
 * it is long so that the first product starts early, everything inside
 * the index limit and the budget. CL_MEM_OBJECT_ALLOCATION_FAILURE when
 * even the smallest tiles do not fit the budget. */
oclblas_status oclblas__tiling_plan(const oclblas__tile_problem *p, size_t budget, size_t max_alloc, int ndev,
                                    oclblas__tiling *out);
/* The bytes of device scratch the kernels may take beside a tile's
 * operands (padded copies of the panels, partial sums of a split k). */
size_t oclblas__tiling_scratch(size_t tm, size_t tn, size_t tk);

/* The devices' grid over the tiles: pr x pc blocks (pr * pc = ndev), each
 * device's first run of tiles, chosen so that what crosses twice (A to
 * each column of devices, B to each row) is least. */
void oclblas__device_grid(size_t tiles_m, size_t tiles_n, int ndev, double a_bytes, double b_bytes, int *pr, int *pc);

/* Seconds of a host-pointer call by each side; the model's parts for the log. */
typedef struct {
    double host_s, device_s;
    double compute_s, in_s, out_s, copy_s, fill_s, drain_s; /* the device's parts */
} oclblas__estimate;

/* SGEMM: the host from its rates; the device through the pipeline (tiling
 * given: overlapped transfers, a first chunk to fill and a last tile to
 * drain) or in place (tiling NULL, zero-copy). Returns 1 for the device. */
int oclblas__choose_gemm(const oclblas__host_rates *h, const oclblas__dev_rates *d, int ndev,
                         const oclblas__tiling *t, const oclblas__tile_problem *p, oclblas__estimate *e);
/* SGEMV of a rows x cols A: the device only where it beats the host by a
 * margin (a discrete device must move A over the bus, which is almost
 * always slower than the host reading it once). Returns 1 for the device. */
int oclblas__choose_gemv(const oclblas__host_rates *h, const oclblas__dev_rates *d, size_t rows, size_t cols,
                         oclblas__estimate *e);

/* The time a device's in-order queue was busy, from its commands' profiling
 * timestamps (seconds on the device's clock) given in queue order. */
typedef struct {
    double busy_s;          /* the union of the commands' intervals */
    double first, last;     /* the earliest start and the latest end counted (0: none) */
    double prev_end;        /* the end of the last command given */
    unsigned long commands; /* commands with a known end */
    unsigned long clamped;  /* of those, stamped as started before their queue or inputs allowed */
} oclblas__busy;

/* One command, in its queue's order: it ran from no earlier than its START
 * (start, <= 0 unknown), the end of the command before it on the queue,
 * and ready (the latest end of what it waited for on other queues, 0
 * none), to its END (end, <= 0 unknown: not counted). */
void oclblas__busy_add(oclblas__busy *b, double start, double end, double ready);

/* ---- the devices of the host path (device.c, hostdev.c) ---------------- */

#define OCLBLAS__MAX_SET OCLBLAS_REPORT_DEVICES
/* The devices of the host-pointer API as OCLBLAS_DEVICE names them (a
 * list, `gpus`, `all`), each with its context and queue; the first is the
 * default device. *count is 0 when there is none (then [0].status says why). */
const oclblas__default_device *oclblas__device_set(int *count);

#define OCLBLAS__LANES 4
#define OCLBLAS__UP_SLOTS 4

typedef struct oclblas__hostdev oclblas__hostdev;

/* A device buffer kept between calls. */
typedef struct {
    cl_mem mem;
    size_t bytes;
} oclblas__kept_buffer;

#define OCLBLAS__KEPT 64

/* Queues and pinned staging for one call at a time on a device: uploads,
 * kernels and read-backs each on their own queue, so that they overlap. */
typedef struct {
    oclblas__hostdev *hd;
    int in_use;
    cl_command_queue up, comp, down;
    cl_mem up_buf[OCLBLAS__UP_SLOTS];
    float *up_ptr[OCLBLAS__UP_SLOTS];
    cl_event up_busy[OCLBLAS__UP_SLOTS]; /* the transfer that reads the slot */
    size_t up_bytes;
    int up_next;
    cl_mem *down_buf;
    float **down_ptr;
    size_t down_count, down_bytes;
    oclblas__kept_buffer kept[OCLBLAS__KEPT]; /* free device buffers, for the next call */
} oclblas__lane;

struct oclblas__hostdev {
    const oclblas__default_device *d;
    int index;                 /* in the device set */
    size_t budget;             /* device bytes the host path may hold */
    atomic_size_t held;        /* what it holds now, over all lanes */
    atomic_size_t kept_bytes;  /* of that, kept between calls */
    oclblas__lane lanes[OCLBLAS__LANES];
    pthread_mutex_t lock;      /* lanes */
    pthread_mutex_t cal_lock;  /* rates: one measurement at a time */
    pthread_cond_t lane_free;
    oclblas__dev_rates rates;
    int transfer_measured, gemm_measured, gemv_measured;
    long fail_at;              /* OCLBLAS_FAULT: it fails after delivering this many tiles of a call (-1: never) */
};

/* The host path's state of device i of the set (NULL past the end), made at first need. */
oclblas__hostdev *oclblas__hostdev_get(int i);
/* The devices of the host path (OCLBLAS_DEVICE's list), the first the default. */
int oclblas__hostdev_count(void);

oclblas__lane *oclblas__lane_take(oclblas__hostdev *hd, oclblas_status *st);
void oclblas__lane_put(oclblas__lane *l);
/* Pinned staging: upload slots of at least bytes each, download slots. */
oclblas_status oclblas__lane_up_slots(oclblas__lane *l, size_t bytes);
oclblas_status oclblas__lane_down_slots(oclblas__lane *l, size_t count, size_t bytes);
/* A device buffer of at least bytes within the device's budget (one kept
 * from an earlier call if one fits), or an error when the budget or the
 * device has no room. */
oclblas_status oclblas__lane_buffer(oclblas__lane *l, size_t bytes, cl_mem *out, size_t *got);
/* Back to the lane's kept buffers (or released when there is no room). */
void oclblas__lane_buffer_put(oclblas__lane *l, cl_mem mem, size_t bytes);
/* Releases a buffer for good, giving its bytes back to the budget. */
void oclblas__lane_buffer_free(oclblas__lane *l, cl_mem mem, size_t bytes);

/* The device's rates: transfers always, SGEMM or SGEMV when asked, each
 * measured once; failure leaves the optimistic defaults and a log line. */
oclblas__dev_rates oclblas__hostdev_rates(oclblas__hostdev *hd, int need_gemm, int need_gemv);
/* The host BLAS's rates (need_gemv: SGEMV's too), measured once. */
oclblas__host_rates oclblas__host_rates_get(int need_gemv);

/* ---- the host-pointer calls' choice (host.c) ----------------------------- */

/* How a host-pointer call chooses where it runs: by the cost model (auto),
 * every call above HOST_MAX on the device, or every call on the host, as
 * OCLBLAS_HOST_CALLS says; a pinned device context (the tuner's) keeps the
 * plain crossover (device). *host_max gets the device's HOST_MAX. */
enum { OCLBLAS__CALLS_AUTO, OCLBLAS__CALLS_DEVICE, OCLBLAS__CALLS_HOST };
int oclblas__host_calls(const oclblas__default_device *d, int *host_max);

/* ---- pipelined tiles (pipeline.c) --------------------------------------- */

/* What the last host-pointer call of this thread did (oclblas_host_report). */
void oclblas__report_set(const oclblas_host_report *r);

/* Column-major C = alpha op(A) op(B) + beta C through tiles on the devices
 * hd[0..ndev). Tiles of a device that fails go to the others, else to the
 * host; C receives each tile once, whole, from a successful read-back or
 * from the host. Fails (C untouched) only when no tile could be started:
 * the devices' memory or pinned staging could not be had at all. */
oclblas_status oclblas__pipeline_sgemm(oclblas__hostdev *const *hd, int ndev, const oclblas__tiling *tiling, int ta,
                                       int tb, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                       const float *b, size_t ldb, float beta, float *c, size_t ldc,
                                       oclblas_host_report *report);

/* ---- device-buffer calls beyond the index limit (split.c) --------------- */

/* OCLBLAS_SIZE_TOO_LARGE for a leading dimension or increment beyond the
 * kernels' int (checks.c); sizes and extents may be anything. */
oclblas_status oclblas__sgemm_check_kernels(size_t m, size_t n, size_t lda, size_t ldb, size_t ldc);
oclblas_status oclblas__sgemv_check_kernels(size_t m, size_t n, size_t lda, ptrdiff_t incx, ptrdiff_t incy);

/* Whether a device-buffer SGEMM or SGEMV must run as sub-problems: an
 * operand spans elements past the index limit from its buffer's start. */
int oclblas__gemm_needs_split(oclblas_layout layout, int ta, int tb, size_t m, size_t n, size_t k, size_t a_off,
                              size_t lda, size_t b_off, size_t ldb, size_t c_off, size_t ldc);
oclblas_status oclblas__sgemm_split(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                    size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_off, size_t lda,
                                    cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c, size_t c_off,
                                    size_t ldc, cl_command_queue queue, cl_event *event);
int oclblas__gemv_needs_split(oclblas_layout layout, int t, size_t m, size_t n, size_t a_off, size_t lda,
                              size_t x_lo, size_t x_span, size_t y_lo, size_t y_span);
oclblas_status oclblas__sgemv_split(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                    cl_mem a, size_t a_off, size_t lda, cl_mem x, size_t x_start, ptrdiff_t incx,
                                    float beta, cl_mem y, size_t y_start, ptrdiff_t incy, cl_command_queue queue,
                                    cl_event *event);

#endif
