/*
 * What oclblas-tune reports about a run: the entry's "tuned" object (the
 * tool, the problems, and the note with the command line, the wall time
 * and how each search went, which the library does not read), the summary
 * table on stdout, and --list's search spaces.
 */
#include "program.h"

#include <string.h>

/* The tool, and the problem of each kernel in the entry (problem[k] for kernel k). */
void tune_describe_entry(const tune_options *o, const char *const problem[OCLBLAS__K_COUNT], tune_entry *e)
{
    snprintf(e->tool, sizeof e->tool, "oclblas-tune %s, %s, seed %llu", TUNE_VERSION,
             tune_strategy_name(o->strategy.kind), (unsigned long long)o->strategy.seed);
    size_t used = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT && used < sizeof e->sizes; ++k) {
        if (!e->has[k] || !tuning_of(k))
            continue;
        const int w = snprintf(e->sizes + used, sizeof e->sizes - used, "%s%s %s", used ? "; " : "",
                               oclblas__kernels[k]->name, problem[k]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used >= sizeof e->sizes) /* the library keeps 127 characters: the note has all of it */
        strcpy(e->sizes + sizeof e->sizes - 4, "...");
}

/* Search i of the run, in the order of the report: each kernel's for every
 * shape, then its classes'. NULL for one that did not run (a kernel not
 * searched, a class that does not tune it); *k and *c (-1: every shape) say
 * which it is. */
static const tune_result *search_at(const tune_run *r, int i, int *k, int *c)
{
    *k = i / (1 + OCLBLAS__MAX_CLASSES);
    *c = i % (1 + OCLBLAS__MAX_CLASSES) - 1;
    const tune_result *res = *c < 0 ? &r->results[*k] : &r->class_results[*k][*c];
    if (!r->searched[*k] || !tuning_of(*k) ||
        (*c >= 0 && (*c >= r->o.num_classes || (res->measured + res->replayed == 0 && !res->out_of_time))))
        return NULL;
    return res;
}

#define NUM_SEARCHES (OCLBLAS__K_COUNT * (1 + OCLBLAS__MAX_CLASSES))

/* One search's part of the note; the characters written. */
static size_t note_search(const tune_run *r, int k, int c, const tune_result *res, char *note, size_t room)
{
    char tb[32], what[64];
    tune_format_duration(res->own_clock, tb, sizeof tb);
    snprintf(what, sizeof what, "%s%s%s", oclblas__kernels[k]->name, c < 0 ? "" : " class ",
             c < 0 ? "" : r->o.classes[c].cls.name);
    if (res->out_of_time) {
        const int w = snprintf(note, room, " %s: not tuned, the time budget was spent;", what);
        return w < 0 ? 0 : (size_t)w;
    }
    int w = snprintf(note, room, " %s: %s, %ld configurations (%ld measured, %ld failed) in %s, best %.1f %s", what,
                     res->problem, res->measured + res->replayed, res->measured, res->failed, tb,
                     res->found ? res->best_rec.rate : 0.0, tune_unit(k));
    if (w > 0 && res->seed_measured && res->seed_rec.status == TUNE_OK && (size_t)w < room)
        w += snprintf(note + w, room - (size_t)w, " (database's %.1f)", res->seed_rec.rate);
    if (w > 0 && (size_t)w < room)
        w += snprintf(note + w, room - (size_t)w, ";");
    return w < 0 ? room : (size_t)w;
}

void tune_write_note(tune_run *r)
{
    tune_entry *e = &r->entry;
    size_t used = (size_t)snprintf(e->note, sizeof e->note, "%s; wall time %s;", r->o.command, r->wall_text);
    for (int i = 0; i < NUM_SEARCHES && used < sizeof e->note; ++i) {
        int k, c;
        const tune_result *res = search_at(r, i, &k, &c);
        if (res)
            used += note_search(r, k, c, res, e->note + used, sizeof e->note - used);
    }
    for (int k = 0; k < OCLBLAS__K_COUNT && used < sizeof e->note; ++k)
        if (r->out_of_time[k])
            used += (size_t)snprintf(e->note + used, sizeof e->note - used,
                                     " %s: not tuned, the time budget was spent;", oclblas__kernels[k]->name);
    if (r->rates_summary[0] && used < sizeof e->note)
        used += (size_t)snprintf(e->note + used, sizeof e->note - used, " rates:%s", r->rates_summary);
    if (r->routine_summary[0] && used < sizeof e->note) {
        snprintf(e->note + used, sizeof e->note - used, " routine:%s", r->routine_summary);
        for (char *p = e->note; *p; ++p)
            if (*p == '\n')
                *p = ';';
    }
}

/* The routine values in the summary: for every shape, then each class's. */
static void print_routine(const tune_run *r)
{
    const tune_entry *e = &r->entry;
    char text[256];
    oclblas__params_format(OCLBLAS__K_ROUTINE, &e->params[OCLBLAS__K_ROUTINE], text, sizeof text);
    printf("%-24s %s\n", "routine", text);
    for (int c = 0; c < r->o.num_classes; ++c) {
        const tune_entry_class *ec = &e->classes[c];
        if (!ec->given[OCLBLAS__K_ROUTINE])
            continue;
        size_t u = 0;
        text[0] = '\0';
        for (int v = 0; v < RT_COUNT && u < sizeof text; ++v)
            if (ec->given[OCLBLAS__K_ROUTINE] & (1u << v))
                u += (size_t)snprintf(text + u, sizeof text - u, "%s%s=%d", u ? "," : "",
                                      oclblas__kernels[OCLBLAS__K_ROUTINE]->params[v].name,
                                      ec->params[OCLBLAS__K_ROUTINE].v[v]);
        printf("routine %-16s %s\n", ec->cls.name, text);
    }
}

void tune_print_summary(const tune_run *r)
{
    static const char *const stops[] = {"exhausted", "configs", "time", "interrupt", "stalled", "error"};
    printf("%-24s %-10s %12s %12s %8s  %s\n", "kernel", "stop", "best", "database's", "configs", "parameters");
    for (int i = 0; i < NUM_SEARCHES; ++i) {
        int k, c;
        const tune_result *res = search_at(r, i, &k, &c);
        if (!res)
            continue;
        char what[64];
        snprintf(what, sizeof what, "%s%s%s", oclblas__kernels[k]->name, c < 0 ? "" : " ",
                 c < 0 ? "" : r->o.classes[c].cls.name);
        if (res->out_of_time) {
            printf("%-24s %-10s %12s %12s %8d  (not tuned: the time budget was spent)\n", what, "time", "-", "-", 0);
            continue;
        }
        char best[32] = "-", base[32] = "-", text[512] = "(none)";
        if (res->found) {
            snprintf(best, sizeof best, "%.1f", res->best_rec.rate);
            oclblas__params_format(k, &res->best, text, sizeof text);
        }
        if (res->seed_measured && res->seed_rec.status == TUNE_OK)
            snprintf(base, sizeof base, "%.1f", res->seed_rec.rate);
        printf("%-24s %-10s %12s %12s %8ld  %s %s\n", what, r->o.from_journal ? "journal" : stops[res->stop], best,
               base, res->measured + res->replayed, tune_unit(k), text);
    }
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (r->out_of_time[k])
            printf("%-24s %-10s %12s %12s %8d  (not tuned: the time budget was spent)\n", oclblas__kernels[k]->name,
                   "time", "-", "-", 0);
    if (r->searched[OCLBLAS__K_ROUTINE])
        print_routine(r);
    if (r->rates_summary[0])
        printf("rates:%s\n", r->rates_summary);
    fflush(stdout);
}

void tune_list_spaces(const tune_options *o, tune_device *d)
{
    printf("device: %s (%s, %s %s), driver %s\n", d->info->name, d->info->type, d->info->vendor, d->info->arch,
           d->info->driver);
    for (int c = 0; c < o->num_classes; ++c) {
        char rule[256];
        oclblas__class_format(&o->classes[c].cls, rule, sizeof rule);
        printf("class %-11s %s:", o->classes[c].cls.name, rule);
        for (int z = 0; z < o->classes[c].num_sizes; ++z) {
            const tune_size *t = &o->classes[c].sizes[z];
            if (t->k)
                printf(" %zux%zux%zu", t->m, t->n, t->k);
            else
                printf(" %zux%zu", t->m, t->n);
        }
        putchar('\n');
    }
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (!o->selected[k] || !tuning_of(k))
            continue;
        char err[512];
        tune_space s;
        if (!tune_space_init(&s, k, &d->info->lim, err, sizeof err))
            continue;
        int ok = 1;
        for (int v = 0; v < o->num_values; ++v)
            if (o->values[v].kernel == k && !tune_space_restrict(&s, o->values[v].text, err, sizeof err)) {
                printf("%s: %s\n", oclblas__kernels[k]->name, err);
                ok = 0;
            }
        if (!ok)
            continue;
        const double t0 = tune_now();
        if (tune_space_enumerate(&s, TUNE_ENUM_LIMIT, err, sizeof err))
            printf("%-11s %12llu combinations, %9zu legal on this device (listed in %.2f s)\n",
                   oclblas__kernels[k]->name, (unsigned long long)s.product, s.num_legal, tune_now() - t0);
        else
            printf("%-11s %s\n", oclblas__kernels[k]->name, err);
        for (int p = 0; p < s.num_params; ++p) {
            printf("    %-8s", oclblas__kernels[k]->params[p].name);
            for (int v = 0; v < s.num_values[p]; ++v)
                printf(" %d", s.values[p][v]);
            putchar('\n');
        }
        const oclblas__params seed = d->cx.params[k];
        uint64_t code;
        if (d->cx.status[k] == OCLBLAS_SUCCESS) {
            char text[512];
            oclblas__params_format(k, &seed, text, sizeof text);
            printf("    database: %s%s\n", text,
                   tune_space_nearest(&s, &seed, &code) ? "" : " (no legal configuration near it in this space)");
        }
        tune_space_free(&s);
    }
}

