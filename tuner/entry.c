/*
 * Writes the database entry a tuning run produced, in the format of
 * database/ (see src/dbparse.c): the device as the library names it
 * (oclblas_device_description), how it was tuned ("tuned": tool, driver,
 * date, problem sizes, and a free "note" with the command line, strategy,
 * budgets and wall time, which the library does not read), one complete
 * parameter object per kernel that was tuned, and the classes of shapes
 * with their rules and sets (full for kernels, the measured values for the
 * routine), and what an earlier entry measured of the sets it kept and of
 * the device (merge.c). The file is written
 * under a temporary name and renamed (files.c: never through a link, and
 * only over a regular file), so that an interrupted write never leaves half
 * an entry, and it is read back with the library's own parser before it
 * replaces anything.
 */
#include "util/json.h"
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A JSON string, escaped by the library's one writer of them. */
static void json_string(FILE *f, const char *s)
{
    const size_t n = oclblas__json_quote(NULL, 0, s);
    char *q = malloc(n + 1);
    if (!q) {
        fputs("\"\"", f);
        return;
    }
    oclblas__json_quote(q, n + 1, s);
    fputs(q, f);
    free(q);
}

/* A set of kernel k as a JSON object: the parameters named in given (a bit each). */
static void write_set(FILE *f, int k, const oclblas__params *p, unsigned given)
{
    const oclblas__kernel_desc *kd = oclblas__kernels[k];
    int first = 1;
    fputc('{', f);
    for (int i = 0; i < kd->num_params; ++i)
        if (given & (1u << i)) {
            fprintf(f, "%s\"%s\": %d", first ? "" : ", ", kd->params[i].name, p->v[i]);
            first = 0;
        }
    fputc('}', f);
}

/* What was measured of the sets written (a bit per kernel in sets), as the
 * entry's or a class's "rates" (GFLOPS), "along_k_shares",
 * "peeled_factors" and "resident", each left out where no set has one; sep
 * opens each. */
static void write_facts(FILE *f, const tune_set_facts facts[OCLBLAS__K_COUNT], unsigned sets, const char *sep)
{
    static const char *const names[] = {"rates", "along_k_shares", "peeled_factors", "resident"};
    for (int what = 0; what < 4; ++what) {
        int first = 1;
        for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
            const tune_set_facts *t = &facts[k];
            const double *v = what == 0 ? &t->rate : what == 1 ? t->along_k : t->peeled;
            if (!(sets & (1u << k)) || (what == 3 ? t->resident == 0 : !(v[0] > 0)))
                continue;
            if (first)
                fprintf(f, "%s\"%s\": {", sep, names[what]);
            fprintf(f, "%s\"%s\": ", first ? "" : ", ", oclblas__kernels[k]->name);
            if (what == 0)
                fprintf(f, "%.10g", t->rate / 1e9);
            else if (what == 1)
                fprintf(f, "[%.10g, %.10g]", v[0], v[1]);
            else if (what == 2)
                fprintf(f, "[%.10g, %.10g, %.10g]", v[0], v[1], v[2]);
            else
                fprintf(f, "%u", t->resident);
            first = 0;
        }
        if (!first)
            fputc('}', f);
    }
}

/* The cost model's facts of the device, in the units of "model". */
static void write_model(FILE *f, const oclblas__model_device *m)
{
    fprintf(f, ",\n  \"model\": {\"call_us\": %.10g, \"launch_us\": %.10g, \"bandwidth_gbs\": %.10g, "
            "\"item_gflops\": %.10g, \"busy_item_gflops\": %.10g",
            m->call_s * 1e6, m->launch_s * 1e6, m->bandwidth / 1e9, m->item_rate / 1e9, m->busy_item_rate / 1e9);
    if (m->along_k_share > 0)
        fprintf(f, ", \"along_k_share\": %.10g", m->along_k_share);
    if (m->bounds_norm > 0)
        fprintf(f, ", \"bounds_norm\": %.10g", m->bounds_norm);
    if (m->step_wait_s > 0)
        fprintf(f, ", \"step_wait_us\": %.10g", m->step_wait_s * 1e6);
    fputc('}', f);
}

/* A class that holds a set (counted in *written): its rule, full sets for
 * the kernels, the measured values only for the routine, and what was
 * measured of its sets. */
static void write_class(FILE *f, const tune_entry_class *ec, int *written)
{
    unsigned sets = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        sets |= ec->given[k] ? 1u << k : 0;
    if (!sets)
        return;
    char rule[256];
    oclblas__class_format(&ec->cls, rule, sizeof rule);
    fprintf(f, "%s\n    {\"name\": ", (*written)++ ? "," : ",\n  \"classes\": [");
    json_string(f, ec->cls.name);
    fputs(", \"when\": ", f);
    json_string(f, rule);
    fputs(",\n     \"parameters\": {", f);
    int first_k = 1;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (!ec->given[k])
            continue;
        fprintf(f, "%s\"%s\": ", first_k ? "" : ",\n                    ", oclblas__kernels[k]->name);
        write_set(f, k, &ec->params[k], ec->given[k]);
        first_k = 0;
    }
    fputc('}', f);
    write_facts(f, ec->facts, sets, ",\n     ");
    fputc('}', f);
}

int tune_entry_write(const tune_device *d, const tune_entry *e, const char *path, char *err, size_t len)
{
    char device[4096];
    oclblas_status st = oclblas_device_description(d->device, device, sizeof device);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(err, len, "device description: %s", oclblas_status_string(st));
        return 0;
    }
    char date[32];
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    /* Refused before anything is written when the destination is not a regular file. */
    char tmp[4200];
    FILE *f = NULL;
    if (tune_file_replaceable("entry", path, err, len))
        f = tune_file_temp("entry", path, 0644, tmp, sizeof tmp, err, len);
    if (!f)
        return 0;
    char driver[128];
    oclblas__strlcpy(driver, d->info->driver, sizeof driver);
    fprintf(f, "{\n  \"format\": \"%s\",\n  \"device\": %s,\n  \"tuned\": {\"tool\": ", OCLBLAS__DB_FORMAT, device);
    json_string(f, e->tool);
    fputs(", \"driver\": ", f);
    json_string(f, driver);
    fprintf(f, ", \"date\": \"%s\",\n            \"sizes\": ", date);
    json_string(f, e->sizes);
    fputs(",\n            \"note\": ", f);
    json_string(f, e->note);
    fputs("},\n  \"parameters\": {", f);
    int first = 1;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        if (!e->has[k])
            continue;
        fprintf(f, "%s\n    \"%s\": ", first ? "" : ",", oclblas__kernels[k]->name);
        write_set(f, k, &e->params[k], ~0u);
        first = 0;
    }
    fputs("\n  }", f);
    unsigned sets = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        sets |= e->has[k] ? 1u << k : 0;
    write_facts(f, e->facts, sets, ",\n  ");
    if (e->has_model)
        write_model(f, &e->model);
    /* The classes that hold a set, in the order of their places (the
     * options' order within one). */
    int classes = 0;
    for (int place = 0; place <= OCLBLAS__MAX_CLASSES; ++place)
        for (int c = 0; c < e->num_classes; ++c)
            if (e->classes[c].place == place)
                write_class(f, &e->classes[c], &classes);
    fputs(classes ? "\n  ]\n}\n" : "\n}\n", f);
    int ok = fflush(f) == 0;
    ok = fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        snprintf(err, len, "cannot write %s: %s", tmp, strerror(errno));
        unlink(tmp);
        return 0;
    }
    /* Read back with the library's parser: a file it refuses must not replace a good one. */
    char *text, why[160];
    size_t text_len;
    if (oclblas__read_file(AT_FDCWD, tmp, 0, OCLBLAS__DB_MAX_FILE, &text, &text_len, NULL, why, sizeof why)) {
        snprintf(err, len, "cannot read back %s: %s", tmp, why);
        unlink(tmp);
        return 0;
    }
    oclblas__db_entry *entries = NULL;
    size_t count = 0;
    char perr[512];
    st = oclblas__db_parse(text, text_len, path, &entries, &count, perr, sizeof perr);
    free(text);
    free(entries);
    if (st != OCLBLAS_SUCCESS) {
        snprintf(err, len, "the entry does not parse (%s): %s", oclblas_status_string(st), perr);
        unlink(tmp);
        return 0;
    }
    return tune_file_commit("entry", tmp, path, err, len);
}
