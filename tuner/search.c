/*
 * The search loop: asks the strategy for configurations, evaluates those
 * not evaluated yet, reports the costs back, and stops when the strategy
 * has nothing left, a budget is spent, the evaluator says stop, or the
 * strategy keeps proposing only what was already measured. Budgets count
 * distinct configurations and the seconds the evaluator charges for them
 * (its clock, not the wall's), so that a run resumed from the journal,
 * where earlier measurements come back with the seconds they cost then,
 * ends where the uninterrupted run would have.
 */
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BATCH 256
#define STALL_STEPS 1000 /* consecutive steps without a new configuration */

static const char *const stop_names[] = {"strategy exhausted", "configuration budget spent", "time budget spent",
                                         "interrupted", "no new configurations", "error"};

const char *tune_stop_name(tune_stop s) { return (unsigned)s < 6 ? stop_names[s] : "?"; }

int tune_search(tune_space *s, tune_strategy *st, const tune_budget *b, tune_eval_fn eval, void *eval_ctx,
                tune_progress_fn progress, void *progress_ctx, tune_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->best_cost = INFINITY;
    tune_map done = {0};
    uint64_t props[MAX_BATCH], fresh[MAX_BATCH];
    double costs[MAX_BATCH], fresh_cost[MAX_BATCH], fresh_charge[MAX_BATCH];
    int stalled = 0, ok = 1;
    long total = tune_strategy_total(st);
    if (b->max_configs > 0 && (total < 0 || total > b->max_configs))
        total = b->max_configs;
    (void)s;

    for (;;) {
        if (b->max_configs > 0 && out->evaluated >= b->max_configs) {
            out->stop = TUNE_STOP_CONFIGS;
            break;
        }
        if (b->max_seconds > 0 && out->clock >= b->max_seconds) {
            out->stop = TUNE_STOP_TIME;
            break;
        }
        double used = 0;
        if (b->max_configs > 0)
            used = (double)out->evaluated / (double)b->max_configs;
        if (b->max_seconds > 0 && out->clock / b->max_seconds > used)
            used = out->clock / b->max_seconds;
        int room = MAX_BATCH;
        if (b->max_configs > 0 && b->max_configs - out->evaluated < room)
            room = (int)(b->max_configs - out->evaluated);
        const int n = tune_strategy_next(st, used, props, room);
        if (n < 0) {
            out->stop = TUNE_STOP_ERROR;
            ok = 0;
            break;
        }
        if (n == 0) {
            out->stop = TUNE_STOP_EXHAUSTED;
            break;
        }
        /* What was measured before is answered from memory; the rest, once
         * each, goes to the evaluator. */
        int nf = 0;
        for (int i = 0; i < n; ++i) {
            costs[i] = NAN;
            if (tune_map_get(&done, props[i], &costs[i]))
                continue;
            int dup = 0;
            for (int j = 0; j < nf && !dup; ++j)
                dup = fresh[j] == props[i];
            if (!dup) {
                fresh[nf] = props[i];
                fresh_cost[nf] = NAN;
                fresh_charge[nf] = 0;
                ++nf;
            }
        }
        int stop = 0;
        if (nf > 0)
            stop = eval(eval_ctx, fresh, nf, fresh_cost, fresh_charge);
        for (int j = 0; j < nf; ++j) {
            if (isnan(fresh_cost[j]))
                continue;
            if (!tune_map_put(&done, fresh[j], fresh_cost[j])) {
                ok = 0;
                stop = 1;
                break;
            }
            ++out->evaluated;
            out->clock += fresh_charge[j];
            if (isfinite(fresh_cost[j]) && (!out->found || fresh_cost[j] < out->best_cost)) {
                out->found = 1;
                out->best = fresh[j];
                out->best_cost = fresh_cost[j];
            }
        }
        for (int i = 0; i < n; ++i)
            if (isnan(costs[i]))
                tune_map_get(&done, props[i], &costs[i]);
        tune_strategy_report(st, props, costs, n);
        if (progress) {
            tune_progress p = {out->evaluated, total, out->clock, b->max_seconds, out->found, out->best,
                               out->best_cost};
            progress(progress_ctx, &p);
        }
        if (stop) {
            out->stop = ok ? TUNE_STOP_INTERRUPTED : TUNE_STOP_ERROR;
            break;
        }
        stalled = nf > 0 ? 0 : stalled + 1;
        if (stalled >= STALL_STEPS) {
            out->stop = TUNE_STOP_STALLED;
            break;
        }
    }
    tune_map_free(&done);
    return ok;
}
