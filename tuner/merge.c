/*
 * Merging with an earlier entry: kernels can be tuned in separate runs into
 * one file, so an earlier entry for the same device at the output keeps
 * the kernels this run did not tune, with their classes' sets, what it
 * measured of those sets (rates, shares, factors), the cost model's facts
 * of the device, its classes' order and what its "tuned" object says about
 * them. The earlier file is read as the library reads any file (untrusted,
 * regular files only, never blocking).
 */
#include "util/json.h"
#include "program.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

static tune_set_facts facts_of(double rate, const double along_k[2], const double peeled[3], unsigned resident)
{
    return (tune_set_facts){rate, {along_k[0], along_k[1]}, {peeled[0], peeled[1], peeled[2]}, resident};
}

static void add_kept(char *kept, size_t len, const char *what)
{
    const size_t u = strlen(kept);
    snprintf(kept + u, len - u, "%s%s", u ? ", " : "", what);
}

/* The earlier entry at path when it is one entry for this device (NULL
 * otherwise), with the file's text in *text (to free, also on NULL). */
static oclblas__db_entry *earlier_entry(const tune_device *d, const char *path, char **text, size_t *n)
{
    *text = NULL;
    if (oclblas__read_file(AT_FDCWD, path, 0, OCLBLAS__DB_MAX_FILE, text, n, NULL, NULL, 0))
        return NULL;
    oclblas__db_entry *old = NULL;
    size_t count = 0;
    char perr[256];
    if (oclblas__db_parse(*text, *n, path, &old, &count, perr, sizeof perr) == OCLBLAS_SUCCESS && count == 1 &&
        strcmp(old->name, d->info->name) == 0 && strcmp(old->vendor, d->info->vendor) == 0 &&
        strcmp(old->type, d->info->type) == 0)
        return old;
    free(old);
    return NULL;
}

int tune_earlier_has_model(const tune_device *d, const char *path)
{
    char *text;
    size_t n;
    oclblas__db_entry *old = earlier_entry(d, path, &text, &n);
    const int has = old && old->has_model;
    free(old);
    free(text);
    return has;
}

/* An earlier entry for the same device at the output path keeps the
 * kernels this run did not tune (their sets for every shape and for their
 * classes, with what it measured of each), so that kernels can be tuned in
 * separate runs into one file; its classes keep their places (the run's
 * classes new to it go first), and its model's facts and what its "tuned"
 * object says about the kernels kept (sizes, when this run has none of its
 * own, and note) are carried over too. */
void tune_merge_existing(const tune_device *d, tune_entry *e, const char *path, char *kept, size_t len,
                         char *old_note, size_t old_note_len)
{
    kept[0] = '\0';
    old_note[0] = '\0';
    char *text;
    size_t n;
    oclblas__db_entry *old = earlier_entry(d, path, &text, &n);
    if (old) {
        for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
            /* A kernel this run tuned, for every shape or for a class, is this run's alone. */
            int tuned = e->has[k];
            for (int c = 0; c < e->num_classes; ++c)
                tuned |= e->classes[c].given[k] != 0;
            if (tuned || (!(old->has & (1u << k)) && !old->num_classes))
                continue;
            int any = 0;
            if (old->has & (1u << k)) {
                e->has[k] = any = 1;
                memcpy(e->params[k].v, old->values[k], sizeof e->params[k].v);
                e->facts[k] = facts_of(old->rates[k], old->along_k[k], old->peeled[k], old->resident[k]);
            }
            /* Its classes' sets too, into the class of the same name (a new one at the end). */
            for (int oc = 0; oc < old->num_classes; ++oc) {
                const oclblas__db_class *dc = &old->classes[oc];
                if (!(dc->has & (1u << k)))
                    continue;
                int c = 0;
                while (c < e->num_classes && strcmp(e->classes[c].cls.name, dc->cls.name) != 0)
                    ++c;
                if (c == e->num_classes) {
                    if (c == OCLBLAS__MAX_CLASSES)
                        continue;
                    memset(&e->classes[c], 0, sizeof e->classes[c]);
                    e->classes[c].cls = dc->cls;
                    ++e->num_classes;
                }
                e->classes[c].given[k] = dc->given[k];
                memcpy(e->classes[c].params[k].v, dc->values[k], sizeof e->classes[c].params[k].v);
                e->classes[c].facts[k] = facts_of(dc->rates[k], dc->along_k[k], dc->peeled[k], dc->resident[k]);
                any = 1;
            }
            if (any)
                add_kept(kept, len, oclblas__kernels[k]->name);
        }
        /* A class of the earlier entry stays where it stood, the run's set in it or not. */
        for (int oc = 0; oc < old->num_classes; ++oc)
            for (int c = 0; c < e->num_classes; ++c)
                if (strcmp(e->classes[c].cls.name, old->classes[oc].cls.name) == 0)
                    e->classes[c].place = oc + 1;
        if (old->has_model) {
            e->has_model = 1;
            e->model = old->model;
            add_kept(kept, len, "the model's facts");
        }
        if (kept[0]) {
            if (!e->sizes[0])
                oclblas__strlcpy(e->sizes, old->sizes, sizeof e->sizes);
            oclblas__json *j = oclblas__json_parse(text, n, NULL, 0);
            const oclblas__json *note = oclblas__json_get(oclblas__json_get(j, "tuned"), "note");
            if (note && note->type == OCLBLAS__JSON_STRING)
                oclblas__strlcpy(old_note, note->string, old_note_len);
            oclblas__json_free(j);
        }
    }
    free(old);
    free(text);
}

void tune_merge_run(tune_run *r)
{
    tune_entry *e = &r->entry;
    char kept[256], old_note[sizeof e->note];
    tune_merge_existing(&r->d, e, r->output, kept, sizeof kept, old_note, sizeof old_note);
    if (!kept[0])
        return;
    const size_t u = strlen(e->note);
    const int room = (int)(sizeof e->note - u); /* the old note is cut where the new one ends */
    snprintf(e->note + u, (size_t)room, " kept from the earlier entry: %s;%s%.*s", kept,
             old_note[0] ? " its note: " : "", room, old_note);
    if (!r->o.quiet)
        fprintf(stderr, "kept from the earlier entry in %s: %s\n", r->output, kept);
}
