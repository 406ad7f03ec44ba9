/*
 * The cost model of device-buffer plans (model.c): the time a plan takes
 * on a device, from a few measured facts of the device and the rate of
 * the kernel it runs, so that the plan can choose among the entry's sets,
 * the splits of k and the kernels (plan.c). Pure functions.
 */
#ifndef OCLBLAS_MODEL_H
#define OCLBLAS_MODEL_H

#include <stddef.h>

/* What the model knows of a device: measured once per device and kept in
 * its database entry ("model"); compute_units from the device. A call
 * costs call_s with its first kernel, launch_s for each kernel after it;
 * the copies and sums move their bytes at bandwidth; one work-item alone
 * computes at most item_rate, and at busy_item_rate when its compute unit
 * is full (which tells how many work-groups of a set a unit holds at
 * once, where the entry does not say: its rate over busy_item_rate for
 * each of its work-items). */
typedef struct {
    double call_s, launch_s;
    double bandwidth;      /* bytes per second */
    double item_rate;      /* flop per second */
    double busy_item_rate; /* flop per second */
    unsigned compute_units;
    /* The share of a set's rate it keeps for each operand it reads in place
     * stored with k contiguous (transposing it on the way into local
     * memory, kernels/gemm_fast.cl), against a copy the helpers turned
     * first, for a set without its own shares (the entry's
     * "along_k_shares"); 0 where not measured (taken as 1). */
    double along_k_share;
    /* How the kernel's two bounds join: the p of their p-norm, (T^p +
     * L^p)^(1/p), near the larger where they differ and above it where
     * they are close (a unit that holds few groups keeps neither its full
     * throughput nor each group's full speed); 0 where not given: the
     * larger of the two. */
    double bounds_norm;
    /* The wait of one step along k of a kernel that fetches each step's
     * tiles only as it starts the step (gemm_direct: load, barrier,
     * multiply), where a work-group's loads cannot hide behind its own
     * multiply-adds: seconds; 0 where not given. */
    double step_wait_s;
} oclblas__model_device;

/* The kernel of a plan that computes, as the model sees it: groups
 * work-groups of items work-items, each group group_flops, the kernel's
 * set running at rate (flop per second of the whole device) when every
 * compute unit is busy, and this kernel at share of that (reading
 * operands along k: every group slower, as many held by a unit; 0: 1);
 * each group waits step_wait_s for its loads at each of its waiting_steps
 * (0: the kernel fetches the next step while it multiplies); resident, the
 * groups of the set a unit holds at once where the entry measured it (its
 * registers and local memory decide: "resident"), else 0: the model
 * estimates it from the rate and busy_item_rate. */
typedef struct {
    size_t groups, items;
    double group_flops;
    double rate;
    double share;
    size_t waiting_steps;
    size_t resident;
} oclblas__model_kernel;

/* A plan: its kernels (launches), the bytes its copies and sums read and
 * write, and its computing kernel. */
typedef struct {
    int kernels;
    double bytes;
    oclblas__model_kernel compute;
} oclblas__model_plan;

/* Seconds of the computing kernel: each compute unit takes its share of
 * the work-groups at its share of the rate, in waves of as many groups as
 * it holds at once (the busiest unit's share rounded up to whole waves
 * when there is more than one), and no work-group ends sooner than its
 * work-items allow at item_rate each, plus its waits for loads (few
 * groups, each long: the work-items' own chain of multiply-adds and
 * loads is then the time); the two bounds joined by bounds_norm. */
double oclblas__model_kernel_s(const oclblas__model_device *d, const oclblas__model_kernel *k);
/* Seconds of a plan: its launches, its copies and sums, its kernel. */
double oclblas__model_plan_s(const oclblas__model_device *d, const oclblas__model_plan *p);
/* Whether the facts are usable (every one positive and finite). */
int oclblas__model_valid(const oclblas__model_device *d);

#endif
