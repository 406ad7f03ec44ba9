/*
 * The whole run's time budget (budget.h): how much is spent, the share of
 * each kernel when its turn comes, and whether another measurement may
 * start. The search of one kernel counts its own share on its own clock
 * (search.c); this file keeps the run as a whole within its total.
 */
#include "budget.h"
#include "interrupt.h"
#include "tune.h"

#include <string.h>

void tune_run_budget_init(tune_run_budget *b, double total, double reserve)
{
    memset(b, 0, sizeof *b);
    b->total = total > 0 ? total : 0;
    b->reserve = reserve > 0 && reserve < 1 ? reserve : 0;
    b->start = tune_now();
}

void tune_run_budget_carry(tune_run_budget *b, double seconds)
{
    if (b && seconds > 0)
        b->carried += seconds;
}

double tune_run_budget_spent(const tune_run_budget *b) { return tune_now() - b->start + b->carried; }

int tune_run_budget_kernel(const tune_run_budget *b, double own, double weight, double weights, double *seconds)
{
    *seconds = own > 0 ? own : 0;
    if (b->total <= 0)
        return 1;
    const double spent = tune_run_budget_spent(b);
    if (own > 0) {
        /* Its own budget, within what is left of the whole run's. */
        const double left = b->total - spent;
        if (left <= 0)
            return 0;
        if (left < *seconds)
            *seconds = left;
        return 1;
    }
    /* What the kernels may still spend, shared by weight among this one and those after it. */
    const double left = b->total * (1.0 - b->reserve) - spent;
    if (left <= 0 || !(weights > 0))
        return 0;
    *seconds = left * weight / weights;
    return *seconds > 0;
}

int tune_run_may_measure(tune_run_budget *b)
{
    int may = !tune_interrupted();
    if (b && may)
        may = !b->measure_nothing && (b->total <= 0 || tune_run_budget_spent(b) < b->total);
    if (!may && b)
        ++b->refused;
    return may;
}
