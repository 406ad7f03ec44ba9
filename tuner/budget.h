/*
 * The time budget of a whole tuning run (-t SEC). What is spent is the
 * run's wall time since it started, plus what the journal's records that
 * this run takes instead of measuring cost the run that measured them, so
 * that a resumed run continues the budget of the interrupted one. Each
 * kernel gets a share of what is left when its turn comes (so time a
 * kernel leaves unused passes on, and time one overruns is taken from the
 * next); the routine values get the rest. Nothing is started once the
 * budget is spent, and what is in flight is finished: a run ends within
 * the total plus one candidate's time.
 */
#ifndef OCLBLAS_TUNE_BUDGET_H
#define OCLBLAS_TUNE_BUDGET_H

typedef struct {
    double total;       /* seconds for the whole run; 0: no time budget */
    double reserve;     /* fraction of the total set aside for the routine values */
    double start;       /* tune_now() when the run started */
    double carried;     /* seconds the journal's records cost when they were measured */
    int measure_nothing; /* rebuilding an entry from the journal: every measurement is refused */
    long refused;       /* measurements refused (budget spent, interrupted, or measure_nothing) */
} tune_run_budget;

/* total 0: no time budget; reserve: the routine values' fraction of it
 * (0 when they are not tuned). The clock starts now. */
void tune_run_budget_init(tune_run_budget *b, double total, double reserve);

/* A record of the journal was taken instead of a measurement: what it cost then counts as spent. */
void tune_run_budget_carry(tune_run_budget *b, double seconds);

double tune_run_budget_spent(const tune_run_budget *b);

/* The seconds a kernel may take, on the kernel's own clock (what its
 * candidates cost, measured or taken from the journal). own: the kernel's
 * own time budget (-t KERNEL=SEC), 0 if none; weight: its share in its
 * descriptor; weights: the sum of the shares of this kernel and the ones
 * after it that have no time budget of their own. *seconds is 0 when there
 * is no time limit at all. Returns 0 when the whole run's budget is spent:
 * the kernel must not start. */
int tune_run_budget_kernel(const tune_run_budget *b, double own, double weight, double weights, double *seconds);

/* Whether a measurement (one candidate, one routine measurement) may start
 * now: not when the run's budget is spent, the run was interrupted, or
 * nothing is to be measured. A refusal is counted in b->refused. b NULL:
 * no budget (an interrupt still refuses). */
int tune_run_may_measure(tune_run_budget *b);

#endif
