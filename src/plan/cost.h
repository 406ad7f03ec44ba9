/*
 * The host-pointer path's cost model and tiling (cost.c), pure functions of
 * measured rates and the problem: the devices' and the host's rates, the
 * tiling of a pipelined SGEMM, the devices' grid over its tiles, which side
 * computes a call, and the busy time of a queue from its commands' stamps.
 */
#ifndef OCLBLAS_COST_H
#define OCLBLAS_COST_H

#include "oclblas.h"

#include <stddef.h>

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

#endif
