/*
 * The cost model of device-buffer plans. A plan's time is the sum of its
 * launches (a fixed cost for the call, with its first kernel, and one for
 * each kernel after it: on the GPUs it was fitted on these are most of a
 * small problem's time), its copies and sums at the device's bandwidth,
 * and its computing kernel. That kernel's time has two bounds. The
 * throughput of the busiest compute unit: its share of the work-groups at
 * its share of the kernel's measured rate, counted in whole waves of the
 * groups a unit holds at once (as the entry measured them for the set,
 * from its registers and local memory, else estimated: the set's rate
 * over busy_item_rate for each of its work-items), so that a last wave of
 * few groups costs as much as a full one (1536^3 in 128 x 64 tiles of 64
 * work-items, 4 a unit: 288 groups in 2 slices of k are 576, one wave of
 * 528 on 132 units and 48 groups more, slower than 1 slice or 3). And the
 * latency of one work-group: its work-items each running their share of
 * the group's multiply-adds one after the other, at most item_rate. The
 * first decides large problems, the second small ones with large tiles or
 * long k, where splitting k or a smaller tile shortens the chain (for
 * gemm_direct, which loads each step of k only as it starts it, each step
 * also waits for its loads: a 32 x 32 tile that runs a batch of tiny
 * products fastest runs a lone group of long k slowest); where they are
 * close the kernel takes longer than either (a p-norm of the two,
 * bounds_norm, where the entry gives it). The
 * facts were fitted on calibration runs (bench/results/nvidia-h200/
 * shapes-model, nvidia-h100/model-fit and nvidia-h100/along-k-sets; the
 * wait on samples of the plans it changes, nvidia-h100/direct-batched).
 */
#include "plan/model.h"

#include <math.h>

static double ceil_div(double a, double b) { return ceil(a / b); }

int oclblas__model_valid(const oclblas__model_device *d)
{
    const double v[] = {d->call_s, d->launch_s, d->bandwidth, d->item_rate, d->busy_item_rate};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
        if (!(v[i] > 0) || !isfinite(v[i]))
            return 0;
    return d->compute_units > 0 && d->along_k_share >= 0 && d->along_k_share <= 1 && d->bounds_norm >= 0 &&
           isfinite(d->bounds_norm) && d->step_wait_s >= 0 && isfinite(d->step_wait_s);
}

double oclblas__model_kernel_s(const oclblas__model_device *d, const oclblas__model_kernel *k)
{
    if (!k->groups || !(k->group_flops > 0))
        return 0;
    if (!(k->rate > 0))
        return HUGE_VAL;
    const double units = d->compute_units, items = k->items ? (double)k->items : 1;
    const double resident =
        k->resident ? (double)k->resident : fmax(1, floor(k->rate / (units * items * d->busy_item_rate) + 0.5));
    const double groups = (double)k->groups, share = k->share > 0 ? k->share : 1;
    const double per_unit = groups > units * resident ? ceil_div(groups, units * resident) * resident
                                                      : ceil_div(groups, units);
    const double throughput = per_unit * k->group_flops / (share * k->rate / units);
    const double latency =
        k->group_flops / (share * items * d->item_rate) + (double)k->waiting_steps * d->step_wait_s;
    if (d->bounds_norm > 0) {
        const double p = d->bounds_norm, top = fmax(throughput, latency); /* scaled: no overflow */
        return top * pow(pow(throughput / top, p) + pow(latency / top, p), 1.0 / p);
    }
    return throughput > latency ? throughput : latency;
}

double oclblas__model_plan_s(const oclblas__model_device *d, const oclblas__model_plan *p)
{
    const int more = p->kernels > 1 ? p->kernels - 1 : 0;
    return d->call_s + more * d->launch_s + p->bytes / d->bandwidth + oclblas__model_kernel_s(d, &p->compute);
}
