/*
 * The rates of the sets a run chose. The plans' cost model counts a GEMM
 * set among its candidates only with its rate (docs/database.md: what the
 * set runs at on a problem that fills the device), so after the searches
 * each gemm_fast, gemm_tc and gemm_direct set the run chose, for every
 * shape and for each class, is timed on that problem (the kernel's
 * descriptor names it, --rate-size another) as the searches time the
 * kernel alone, and its rate goes into the entry beside it. This happens
 * where the model has the device's facts (--rates auto), since elsewhere
 * nothing reads the rates and a CPU would spend minutes on 4096^3.
 */
#include "program.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Appends to the run's summary of rates. */
__attribute__((format(printf, 2, 3))) static void say(tune_run *r, const char *fmt, ...)
{
    const size_t u = strlen(r->rates_summary);
    va_list ap;
    va_start(ap, fmt);
    if (u < sizeof r->rates_summary)
        vsnprintf(r->rates_summary + u, sizeof r->rates_summary - u, fmt, ap);
    va_end(ap);
}

/* Whether the rates are measured, and if not why ("" when --rates off says so). */
static int wanted(tune_run *r, const char **why)
{
    *why = "";
    if (r->o.rates == RATES_OFF)
        return 0;
    if (r->o.from_journal) {
        *why = "the entry is written from the journal, measuring nothing";
        return 0;
    }
    if (tune_interrupted()) {
        *why = "the run was interrupted";
        return 0;
    }
    if (r->o.rates == RATES_ON || r->d.cx.model.compute_units > 0 || tune_earlier_has_model(&r->d, r->output))
        return 1;
    *why = "the cost model has no facts of this device (--rates on measures them anyway)";
    return 0;
}

/* Times set p of kernel k on the kernel's rate problem with bench b; its rate in flop/s, 0 when it failed
 * (the summary says why). */
static double rate_of(tune_run *r, tune_bench *b, int k, const oclblas__params *p, const char *what)
{
    void *hold = NULL;
    char note[200];
    tune_record rec;
    if (tune_bench_build(b, p, &hold, note, sizeof note) != TUNE_OK) {
        say(r, " %s: no rate (%s);", what, note);
        return 0;
    }
    tune_bench_measure(b, p, &rec);
    tune_bench_keep(hold);
    if (rec.status != TUNE_OK) {
        say(r, " %s: no rate (%s);", what, rec.note);
        return 0;
    }
    say(r, " %s %.1f %s;", what, rec.rate, tune_unit(k));
    return rec.rate * 1e9;
}

void tune_run_rates(tune_run *r)
{
    const char *why;
    r->rates_summary[0] = '\0';
    const int measure = wanted(r, &why);
    const double t0 = tune_now();
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        const tune_size *size = &r->o.rate_size[k];
        int chosen = r->results[k].found;
        for (int c = 0; c < r->o.num_classes; ++c)
            chosen |= r->class_results[k][c].found;
        if (!r->searched[k] || !size->m || !chosen)
            continue;
        if (!measure) {
            if (why[0] && !r->rates_summary[0])
                snprintf(r->rates_summary, sizeof r->rates_summary, " not measured: %s;", why);
            continue;
        }
        /* Every set gets all its runs: none is screened against another. */
        const tune_bench_opts bo = {r->o.runs, INFINITY};
        char err[512], what[80];
        tune_bench *b = tune_bench_new(&r->d, k, size, 1, &bo, NULL, err, sizeof err);
        if (!b) {
            say(r, " %s: no rate (%s);", oclblas__kernels[k]->name, err);
            continue;
        }
        say(r, " %s at %zux%zux%zu:", oclblas__kernels[k]->name, size->m, size->n, size->k);
        if (r->results[k].found)
            r->entry.facts[k].rate = rate_of(r, b, k, &r->entry.params[k], "every shape");
        for (int c = 0; c < r->o.num_classes && !tune_interrupted(); ++c)
            if (r->class_results[k][c].found) {
                snprintf(what, sizeof what, "class %s", r->o.classes[c].cls.name);
                r->entry.classes[c].facts[k].rate = rate_of(r, b, k, &r->entry.classes[c].params[k], what);
            }
        tune_bench_free(b);
    }
    if (measure && r->rates_summary[0])
        say(r, " measured in %.1f s;", tune_now() - t0);
}
