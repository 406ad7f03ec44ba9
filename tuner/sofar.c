/*
 * What a second interrupt writes: the best configuration found so far of
 * each kernel, for every shape and for each class (and the routine values
 * once measured), kept as they are found, so that a second interrupt can
 * write them from the signal thread (interrupt.c) while the run is in the
 * middle of a build or a measurement, and then end the process.
 */
#include "program.h"

#include <pthread.h>
#include <string.h>

/* The best configuration found so far of each kernel, for every shape
 * and for each class (and the routine values once measured), kept as they
 * are found, so that a second interrupt can write them from the signal
 * thread while the run is in the middle of a build or a measurement. */
static struct {
    pthread_mutex_t lock;
    const tune_run *run;
    int has[OCLBLAS__K_COUNT];
    oclblas__params params[OCLBLAS__K_COUNT];
    char problem[OCLBLAS__K_COUNT][256];
    tune_entry_class classes[OCLBLAS__MAX_CLASSES]; /* the options' classes, in their order */
    int done; /* the run wrote its entry (or found nothing to write): nothing is left to do */
} so_far = {.lock = PTHREAD_MUTEX_INITIALIZER};

void tune_so_far_start(const tune_run *r)
{
    pthread_mutex_lock(&so_far.lock);
    so_far.run = r;
    for (int c = 0; c < r->o.num_classes; ++c)
        so_far.classes[c].cls = r->o.classes[c].cls;
    pthread_mutex_unlock(&so_far.lock);
}

/* cls: the class (index in the options' classes), -1 for the set for
 * every shape; given: the parameters it names, for a class. */
void tune_so_far_set(int kernel, int cls, unsigned given, const oclblas__params *p, const char *problem)
{
    pthread_mutex_lock(&so_far.lock);
    if (cls < 0) {
        so_far.has[kernel] = 1;
        so_far.params[kernel] = *p;
        oclblas__strlcpy(so_far.problem[kernel], problem, sizeof so_far.problem[0]);
    } else {
        so_far.classes[cls].given[kernel] = given;
        so_far.classes[cls].params[kernel] = *p;
    }
    pthread_mutex_unlock(&so_far.lock);
}

void tune_so_far_hold(void) { pthread_mutex_lock(&so_far.lock); }

void tune_so_far_release(int done)
{
    so_far.done |= done;
    pthread_mutex_unlock(&so_far.lock);
}

/* The entry from what was found so far, into e. 0 when nothing was. */
static int entry_so_far(const tune_run *r, tune_entry *e)
{
    memset(e, 0, sizeof *e);
    int any = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        e->has[k] = so_far.has[k];
        e->params[k] = so_far.params[k];
        any |= e->has[k];
    }
    e->num_classes = r->o.num_classes;
    memcpy(e->classes, so_far.classes, sizeof so_far.classes);
    const char *problems[OCLBLAS__K_COUNT];
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        problems[k] = so_far.problem[k];
    tune_describe_entry(&r->o, problems, e);
    snprintf(e->note, sizeof e->note, "%s; stopped at once by a second interrupt: the best configurations found "
             "so far, unchecked; the journal %s holds every finished measurement;", r->o.command, r->journal_path);
    return any;
}

/* Runs in the signal thread (interrupt.c), which ends the process next. */
void tune_so_far_stop(void)
{
    pthread_mutex_lock(&so_far.lock);
    const tune_run *r = so_far.run;
    if (r && !so_far.done) {
        static tune_entry e; /* too large for the signal thread's stack */
        static char old_note[sizeof e.note];
        char kept[256], err[512];
        if (!entry_so_far(r, &e))
            fprintf(stderr, "oclblas-tune: nothing to write\n");
        else {
            tune_merge_existing(&r->d, &e, r->output, kept, sizeof kept, old_note, sizeof old_note);
            if (tune_entry_write(&r->d, &e, r->output, err, sizeof err))
                fprintf(stderr, "oclblas-tune: wrote %s (the best so far, unchecked)\n", r->output);
            else
                fprintf(stderr, "oclblas-tune: %s\n", err);
        }
        fprintf(stderr, "oclblas-tune: the journal %s keeps every finished measurement: run the same command "
                "again to resume, or add --from-journal %s to write the entry from it\n", r->journal_path,
                r->journal_path);
    }
    so_far.done = 1;
    pthread_mutex_unlock(&so_far.lock);
    tune_private_dir_remove();
}
