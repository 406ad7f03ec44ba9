/*
 * The host plan (host_plan.c): how a host-pointer call runs, as a value
 * made from the call's record, the devices' facts and the measured rates,
 * without any OpenCL call, and why. The executor (api/host.c) gathers
 * what the plan asks for, makes the plan again until it asks for nothing
 * more, and runs it.
 */
#ifndef OCLBLAS_HOST_PLAN_H
#define OCLBLAS_HOST_PLAN_H

#include "plan/cost.h"
#include "plan/record.h"
#include "util/settings.h" /* oclblas__host_calls */

/* What the plan may need gathered, as bits of needs and known. Devices
 * cost opening them; each rate a measurement, once per process. */
enum {
    OCLBLAS__KNOW_DEVICES = 1,    /* the facts below, down to index_limit */
    OCLBLAS__KNOW_HOST_GEMM = 2,  /* host.gemm_flops, host.call_s */
    OCLBLAS__KNOW_HOST_GEMV = 4,  /* host.gemv_bps */
    OCLBLAS__KNOW_TRANSFERS = 8,  /* dev: latency and the bus */
    OCLBLAS__KNOW_DEV_GEMM = 16,  /* dev.gemm_flops, dev.gemm_call_s */
    OCLBLAS__KNOW_DEV_GEMV = 32,  /* dev.gemv_bps */
};

/* What the plan knows of the host and the devices. */
typedef struct {
    unsigned known;         /* OCLBLAS__KNOW_* gathered so far */
    int reentered;          /* the host BLAS has called back into the library */
    int devices;            /* devices of the host path's set (0: none can serve) */
    oclblas_status no_device; /* why there is none */
    int unified_memory;     /* the first device works on host memory */
    size_t max_alloc;       /* the least of the devices' largest buffers, bytes */
    size_t budget;          /* the least of the devices' memory budgets, bytes */
    int host_max;           /* the first device's HOST_MAX crossover */
    oclblas__host_calls calls;
    int pinned_context;     /* the tuner pinned the first device's context: the plain crossover */
    int zero_copy;          /* OCLBLAS_HOST_ZERO_COPY allows working in place */
    size_t index_limit;
    oclblas__host_rates host;
    oclblas__dev_rates dev; /* the first device's; a product rate not yet known counts as infinite */
} oclblas__host_facts;

typedef enum {
    OCLBLAS__ROUTE_OWN,      /* the library's own host routine */
    OCLBLAS__ROUTE_HOST,     /* the host BLAS (the process's, else the library's own routine) */
    OCLBLAS__ROUTE_IN_PLACE, /* one device on the caller's arrays (zero copy) */
    OCLBLAS__ROUTE_COPY,     /* one device, the operands copied to its buffers and back */
    OCLBLAS__ROUTE_TILES     /* pipelined tiles over the devices */
} oclblas__route;

typedef enum {
    OCLBLAS__WHY_TRIVIAL,      /* alpha = 0 or k = 0: C = beta C, cheaper than any round trip */
    OCLBLAS__WHY_REENTERED,    /* the host BLAS called back into the library */
    OCLBLAS__WHY_NO_DEVICE,    /* no device can serve */
    OCLBLAS__WHY_HOST_MAX,     /* at most HOST_MAX^3 (SGEMV: m n at most that) */
    OCLBLAS__WHY_CALLS_HOST,   /* OCLBLAS_HOST_CALLS=host */
    OCLBLAS__WHY_NO_ROOM,      /* no tile fits the devices' memory */
    OCLBLAS__WHY_PAST_LIMIT,   /* SGEMV past the index limit of one device call */
    OCLBLAS__WHY_CALLS_DEVICE, /* OCLBLAS_HOST_CALLS=device */
    OCLBLAS__WHY_PINNED,       /* the tuner's pinned context measures the device */
    OCLBLAS__WHY_MODEL         /* the cost model */
} oclblas__host_why;

typedef struct {
    oclblas__routine routine;
    unsigned needs;          /* OCLBLAS__KNOW_* to gather before the plan is final (0: final) */
    oclblas__route route;
    oclblas__host_why why;
    int devices;             /* devices it runs on */
    oclblas__tiling tiling;  /* OCLBLAS__ROUTE_TILES */
    oclblas__estimate est;   /* OCLBLAS__WHY_MODEL: the model's seconds for each side */
    int host_max;            /* OCLBLAS__WHY_HOST_MAX: the crossover */
    oclblas_status no_device;
} oclblas__host_plan;

/* The plan of a call whose arguments are checked, m, n > 0 and the
 * operands it uses not NULL. */
void oclblas__host_plan_make(const oclblas__record *r, const oclblas__host_facts *f, oclblas__host_plan *out);

/* Whether a route computes on the devices. */
int oclblas__route_on_device(oclblas__route route);
/* The plan in a few words for the log and the host report: where, and why. */
void oclblas__host_plan_describe(const oclblas__host_plan *p, char *buf, size_t len);

#endif
