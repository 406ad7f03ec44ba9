/*
 * The devices' host-path state (hostdev.c): per device its lanes of queues
 * and pinned staging, device buffers kept between calls within a memory
 * budget, and the measured rates.
 */
#ifndef OCLBLAS_HOSTDEV_H
#define OCLBLAS_HOSTDEV_H

#include "device/device.h"
#include "plan/cost.h"

#include <stdatomic.h>

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
    atomic_long fail_at;       /* OCLBLAS_FAULT: it fails after delivering this many tiles of a call (-1: never) */
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

/* OCLBLAS_FAULT: whether the device must fail now, in a call where it
 * has delivered `delivered` tiles (an untiled call is one tile); says so
 * in the log. */
int oclblas__hostdev_faulted(oclblas__hostdev *hd, unsigned long delivered);
/* What OCLBLAS_FAULT sets, for device i from the next call on: it fails
 * once it has delivered `after` tiles of a call (-1: never). For tests that
 * try every position in one process. */
void oclblas__hostdev_fault_set(int i, long after);

/* The device's rates: transfers always, SGEMM or SGEMV when asked, each
 * measured once (in the math mode of the call that needs them); failure
 * leaves the optimistic defaults and a log line. */
oclblas__dev_rates oclblas__hostdev_rates(oclblas__hostdev *hd, int need_gemm, int need_gemv, oclblas_math_mode mode);
/* The host BLAS's rates (need_gemv: SGEMV's too), measured once. */
oclblas__host_rates oclblas__host_rates_get(int need_gemv);

#endif
