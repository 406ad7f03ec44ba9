/*
 * Build-time tool: reads the database's JSON files with the library's own
 * parser and rules, refuses the build if any entry is invalid, and writes
 * them as a static const C table. The global default entry must cover every
 * table of the kernel list with a complete, legal set: it is the library's
 * one source of defaults, where every lookup ends.
 *   dbgen OUT.c ROOT FILE.json...   (origins are recorded relative to ROOT)
 */
#include "db/db.h"
#include "util/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cstr(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if ((unsigned char)*s < 0x20)
            fprintf(out, "\\%03o", (unsigned char)*s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

/* A table of values per kernel, as a C initializer. */
static void values(FILE *out, const int v[OCLBLAS__K_COUNT][OCLBLAS__MAX_PARAMS])
{
    fputs("{", out);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        fputs("{", out);
        for (int p = 0; p < OCLBLAS__MAX_PARAMS; ++p)
            fprintf(out, "%d%s", v[k][p], p + 1 < OCLBLAS__MAX_PARAMS ? "," : "");
        fputs(k + 1 < OCLBLAS__K_COUNT ? "}," : "}", out);
    }
    fputs("}", out);
}

/* Rates per kernel (flop/s), as a C initializer. */
static void rates(FILE *out, const double r[OCLBLAS__K_COUNT])
{
    fputs("{", out);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        fprintf(out, "%.17g%s", r[k], k + 1 < OCLBLAS__K_COUNT ? "," : "");
    fputs("}", out);
}

/* Work-groups a compute unit holds per kernel, as a C initializer. */
static void counts(FILE *out, const unsigned c[OCLBLAS__K_COUNT])
{
    fputs("{", out);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        fprintf(out, "%uu%s", c[k], k + 1 < OCLBLAS__K_COUNT ? "," : "");
    fputs("}", out);
}

/* Shares along k per kernel (A, B), as a C initializer. */
static void shares(FILE *out, const double s[OCLBLAS__K_COUNT][2])
{
    fputs("{", out);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        fprintf(out, "{%.17g, %.17g}%s", s[k][0], s[k][1], k + 1 < OCLBLAS__K_COUNT ? "," : "");
    fputs("}", out);
}

/* Peeled factors per kernel (F, A, B), as a C initializer. */
static void factors(FILE *out, const double f[OCLBLAS__K_COUNT][3])
{
    fputs("{", out);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        fprintf(out, "{%.17g, %.17g, %.17g}%s", f[k][0], f[k][1], f[k][2], k + 1 < OCLBLAS__K_COUNT ? "," : "");
    fputs("}", out);
}

static int same_device(const oclblas__db_entry *a, const oclblas__db_entry *b)
{
    return strcmp(a->vendor, b->vendor) == 0 && strcmp(a->type, b->type) == 0 && strcmp(a->arch, b->arch) == 0 &&
           strcmp(a->name, b->name) == 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s out.c root file.json...\n", argv[0]);
        return 2;
    }
    const size_t root_len = strlen(argv[2]);
    oclblas__db_entry *all = NULL;
    size_t count = 0;
    for (int i = 3; i < argc; ++i) {
        char *text, why[160];
        size_t len;
        if (oclblas__read_file(AT_FDCWD, argv[i], 0, OCLBLAS__DB_MAX_FILE, &text, &len, NULL, why, sizeof why)) {
            fprintf(stderr, "database error: %s: %s\n", argv[i], why);
            return 1;
        }
        const char *origin = argv[i];
        if (strncmp(origin, argv[2], root_len) == 0 && origin[root_len] == '/')
            origin += root_len + 1;
        oclblas__db_entry *es;
        size_t n;
        char err[512];
        if (oclblas__db_parse(text, len, origin, &es, &n, err, sizeof err) != OCLBLAS_SUCCESS) {
            fprintf(stderr, "database error: %s\n", err);
            return 1;
        }
        free(text);
        all = realloc(all, (count + n) * sizeof *all);
        memcpy(all + count, es, n * sizeof *es);
        count += n;
        free(es);
    }
    int global = -1;
    for (size_t i = 0; i < count; ++i) {
        /* Two entries for one device are ambiguous, unless one file holds
         * both: then they are tried in the file's order, the first legal on
         * the device winning (global.json's last resort works so). */
        for (size_t j = 0; j < i; ++j)
            if (same_device(&all[i], &all[j]) && strcmp(all[i].origin, all[j].origin) != 0) {
                fprintf(stderr, "database error: %s and %s describe the same device\n", all[i].origin, all[j].origin);
                return 1;
            }
        if (global < 0 && !all[i].vendor[0] && !all[i].type[0] && !all[i].arch[0] && !all[i].name[0])
            global = (int)i;
    }
    /* The global entry is the library's only source of defaults: every
     * table must have a complete set there (the parser checked that each
     * set it holds is complete and legal). */
    if (global < 0) {
        fprintf(stderr, "database error: a global default entry (database/default/global.json) is required\n");
        return 1;
    }
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (!(all[global].has & (1u << k))) {
            fprintf(stderr, "database error: %s: the global default entry has no parameters for %s\n",
                    all[global].origin, oclblas__kernels[k]->name);
            return 1;
        }

    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "/* Generated by tools/dbgen.c from the database folder; do not edit. */\n#include \"db/db.h\"\n\n");
    fprintf(out, "const oclblas__db_entry oclblas__db_builtin[] = {\n");
    for (size_t i = 0; i < count; ++i) {
        const oclblas__db_entry *e = &all[i];
        fprintf(out, "    {");
        const char *names[] = {"vendor", "type", "arch", "name", "tool", "driver", "date", "sizes", "origin"};
        const char *fields[] = {e->vendor, e->type, e->arch, e->name, e->tool, e->driver, e->date, e->sizes, e->origin};
        for (int f = 0; f < 9; ++f) {
            fprintf(out, ".%s = ", names[f]);
            cstr(out, fields[f]);
            fputs(", ", out);
        }
        fprintf(out, "\n     .has = 0x%xu, .values = ", e->has);
        values(out, e->values);
        fputs(", .rates = ", out);
        rates(out, e->rates);
        fputs(", .along_k = ", out);
        shares(out, e->along_k);
        fputs(", .peeled = ", out);
        factors(out, e->peeled);
        fputs(", .resident = ", out);
        counts(out, e->resident);
        if (e->has_model)
            fprintf(out, ",\n     .has_model = 1, .model = {%.17g, %.17g, %.17g, %.17g, %.17g, 0, %.17g, %.17g, %.17g}",
                    e->model.call_s, e->model.launch_s, e->model.bandwidth, e->model.item_rate,
                    e->model.busy_item_rate, e->model.along_k_share, e->model.bounds_norm, e->model.step_wait_s);
        fprintf(out, ",\n     .num_classes = %d, .classes = {", e->num_classes);
        for (int c = 0; c < e->num_classes; ++c) {
            const oclblas__db_class *dc = &e->classes[c];
            fprintf(out, "%s\n        {.cls = {.name = ", c ? "," : "");
            cstr(out, dc->cls.name);
            fprintf(out, ", .num_conditions = %d, .cond = {", dc->cls.num_conditions);
            for (int j = 0; j < dc->cls.num_conditions; ++j)
                fprintf(out, "%s{%u, %u, %.17g}", j ? ", " : "", dc->cls.cond[j].quantity, dc->cls.cond[j].op,
                        dc->cls.cond[j].value);
            fprintf(out, "}}, .has = 0x%xu, .given = {", dc->has);
            for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
                fprintf(out, "%s0x%xu", k ? ", " : "", dc->given[k]);
            fputs("}, .values = ", out);
            values(out, dc->values);
            fputs(", .rates = ", out);
            rates(out, dc->rates);
            fputs(", .along_k = ", out);
            shares(out, dc->along_k);
            fputs(", .peeled = ", out);
            factors(out, dc->peeled);
            fputs(", .resident = ", out);
            counts(out, dc->resident);
            fputs("}", out);
        }
        fprintf(out, "}},\n");
    }
    fprintf(out, "};\nconst size_t oclblas__db_builtin_count = %zu;\n", count);
    free(all);
    return fclose(out) == 0 ? 0 : 1;
}
