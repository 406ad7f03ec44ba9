/*
 * oclblas-tune: tunes oclblas's kernels and routine-level values for one
 * OpenCL device and writes a database entry. main strings the parts
 * together (program.h): the options, the run's setup (its private folder in privdir.c,
 * the device, the files, the build processes), the kernels' searches and
 * the routine values (run.c), the rates of the sets they chose (rates.c),
 * the entry written from what they found and
 * merged with an earlier one (merge.c), the summary (report.c), and the
 * check of the entry through the library (check.c). Interrupts
 * (interrupt.c) stop the searches after the candidate in flight; a second
 * one writes what was found so far and ends the process (sofar.c).
 */
#include "program.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- setup ---------------------------------------------------------------------------------- */

/* The output and journal paths the options name; "" for the output when it depends on the device. */
static void name_files(tune_run *r)
{
    r->output[0] = '\0';
    if (r->o.output)
        oclblas__strlcpy(r->output, r->o.output, sizeof r->output);
    else if (r->d.info)
        tune_default_output(&r->d, r->output, sizeof r->output);
    if (r->o.journal)
        oclblas__strlcpy(r->journal_path, r->o.journal, sizeof r->journal_path);
    else if (r->output[0])
        snprintf(r->journal_path, sizeof r->journal_path, "%s.journal", r->output);
    else
        r->journal_path[0] = '\0';
}

/* Files that are there and are not regular ones (a link, a FIFO, a device,
 * a folder) are refused before anything starts; what opens them refuses
 * them again, whatever came in between. */
static int files_replaceable(tune_run *r)
{
    char err[1200];
    name_files(r);
    if ((r->output[0] && !tune_file_replaceable("entry", r->output, err, sizeof err)) ||
        (r->journal_path[0] && !tune_file_replaceable("journal", r->journal_path, err, sizeof err))) {
        fprintf(stderr, "oclblas-tune: %s; nothing was written\n", err);
        return 0;
    }
    return 1;
}

/* The device, as a value from here on: the library's default device (the
 * host-pointer calls of HOST_MAX run on it) is made this one. */
static int open_device(tune_run *r)
{
    char err[1024];
    const char *spec = r->o.device ? r->o.device : getenv("OCLBLAS_DEVICE");
    if (!tune_device_open(spec, &r->d, err, sizeof err)) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        return 0;
    }
    if (oclblas__default_choose(r->d.device) != OCLBLAS_SUCCESS)
        fprintf(stderr, "oclblas-tune: the library's default device is already in use; HOST_MAX may not be measured\n");
    tune_options_for_device(&r->o, &r->d);
    return 1;
}

/* The journal, and the build processes where they are wanted. */
static int open_journal(tune_run *r)
{
    char err[1600], devline[800];
    const tune_device *d = &r->d;
    name_files(r);
    snprintf(devline, sizeof devline, "%s | %s | %s", d->info->name, d->info->driver, d->info->platform_name);
    if (!files_replaceable(r))
        return 0;
    if (r->o.from_journal && access(r->journal_path, R_OK) != 0) {
        fprintf(stderr, "oclblas-tune: cannot read the journal %s: %s\n", r->journal_path, strerror(errno));
        return 0;
    }
    if (!tune_journal_open(r->journal_path, devline, !r->o.from_journal, r->o.fresh, &r->journal, err, sizeof err)) {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        return 0;
    }
    return 1;
}

/* Build processes (NVIDIA's driver compiles one program at a time per
 * process), with the disk cache they share with this one; the library's
 * disk cache off otherwise: hundreds of candidates must not fill the
 * user's cache folder. */
static void start_builds(tune_run *r)
{
    const tune_options *o = &r->o;
    char binaries[1100], err[1024];
    snprintf(binaries, sizeof binaries, "%s", o->cache_dir ? o->cache_dir : "off");
    const int processes = o->build_mode == BUILD_PROCESSES ||
                          (o->build_mode == BUILD_AUTO && strcmp(r->d.info->vendor, "nvidia") == 0);
    if (processes && !o->list && !o->from_journal) {
        if (!o->cache_dir)
            snprintf(binaries, sizeof binaries, "%s/binaries", tune_private_dir());
        r->workers = tune_workers_start(&r->d, binaries, o->jobs, err, sizeof err);
        if (!r->workers)
            fprintf(stderr, "oclblas-tune: %s; compiling in threads\n", err);
    }
    oclblas__cache_dir_set(binaries);
}

static void say_start(const tune_run *r)
{
    const oclblas__device_info *i = r->d.info;
    if (r->o.quiet)
        return;
    if (r->o.from_journal)
        fprintf(stderr, "oclblas-tune %s: %s (%s, %s %s), driver %s; the entry from the journal %s (%ld records), "
                "measuring nothing\n", TUNE_VERSION, i->name, i->type, i->vendor, i->arch, i->driver, r->journal_path,
                tune_journal_loaded(r->journal));
    else
        fprintf(stderr, "oclblas-tune %s: %s (%s, %s %s), driver %s; %d build %s; journal %s (%ld records)\n",
                TUNE_VERSION, i->name, i->type, i->vendor, i->arch, i->driver, r->o.jobs,
                r->workers ? "processes" : "threads", r->journal_path, tune_journal_loaded(r->journal));
    if (r->o.quick && !r->o.from_journal)
        fprintf(stderr, "quick run: %.0f s of tuning (%s), %s, then the entry's check\n", r->o.time_total,
                r->o.quick_time_given ? "-t" : strcmp(i->type, "CPU") == 0 ? "a CPU's" : "a GPU's",
                r->o.num_classes ? "classes of shapes included" : "the sets for every shape only");
}

/* Everything before the searches; 0 with the exit status in r->status. */
static int setup(tune_run *r)
{
    r->status = EXIT_SETUP;
    tune_run_budget_init(&r->budget, r->o.from_journal ? 0 : r->o.time_total,
                         r->o.selected[OCLBLAS__K_ROUTINE] ? ROUTINE_RESERVE : 0);
    r->budget.measure_nothing = r->o.from_journal != NULL;
    if ((!r->o.list && !files_replaceable(r)) || !tune_private_dir_make() || !open_device(r))
        return 0;
    /* --quick chooses its time budget by the device's type, known only now. */
    r->budget.total = r->o.from_journal ? 0 : r->o.time_total;
    if (!r->o.list && !open_journal(r))
        return 0;
    start_builds(r);
    if (r->o.list) {
        tune_list_spaces(&r->o, &r->d);
        r->status = 0;
        return 0;
    }
    say_start(r);
    r->entry.num_classes = r->o.num_classes;
    for (int c = 0; c < r->o.num_classes; ++c)
        r->entry.classes[c].cls = r->o.classes[c].cls;
    r->status = 0;
    tune_so_far_start(r);
    return 1;
}

/* ---- the entry ------------------------------------------------------------------------------ */

/* Writes the entry from what the run found; 1 when it was written. */
static int write_entry(tune_run *r, double wall0)
{
    tune_format_duration(tune_now() - wall0, r->wall_text, sizeof r->wall_text);
    const char *problems[OCLBLAS__K_COUNT];
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        problems[k] = r->results[k].problem;
    tune_describe_entry(&r->o, problems, &r->entry);
    tune_write_note(r);
    tune_merge_run(r);
    int any = 0, wrote = 0;
    char err[1600];
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        any |= r->entry.has[k];
    /* A second interrupt now finds the entry written, or waits until it is. */
    tune_so_far_hold();
    if (!any) {
        fprintf(stderr, "oclblas-tune: nothing to write\n");
        if (!tune_interrupted())
            r->status = EXIT_PARTIAL;
    } else if (tune_entry_write(&r->d, &r->entry, r->output, err, sizeof err)) {
        wrote = 1;
        if (!r->o.quiet)
            fprintf(stderr, "wrote %s (%s)\n", r->output, r->wall_text);
    } else {
        fprintf(stderr, "oclblas-tune: %s\n", err);
        r->status = EXIT_PARTIAL;
    }
    tune_so_far_release(1);
    return wrote;
}

static int finish(tune_run *r)
{
    tune_journal_close(r->journal);
    tune_device_close(&r->d);
    if (tune_interrupted()) {
        fprintf(stderr, "oclblas-tune: %s; run the same command again to resume from %s\n", tune_interrupt_word(),
                r->journal_path);
        return tune_interrupt_status();
    }
    return r->status;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--build-worker") == 0)
        return tune_worker_main(argv[2], argv[3]);
    static tune_run run; /* large: not on the stack */
    tune_run *r = &run;
    const int parsed = tune_options_parse(argc, argv, &r->o);
    if (parsed >= 0)
        return parsed;
    /* Before any thread starts (the drivers start theirs at the first OpenCL call). */
    if (!tune_interrupt_start(tune_so_far_stop))
        fprintf(stderr, "oclblas-tune: warning: cannot take interrupts: Ctrl-C will end the run without an entry\n");
    if (!setup(r)) {
        tune_device_close(&r->d);
        return r->status;
    }
    const double wall0 = r->budget.start; /* the run's wall time is the one its budget counts */
    const int searched = tune_run_kernels(r);
    tune_workers_stop(r->workers); /* the rest builds a few programs only */
    if (searched && r->o.selected[OCLBLAS__K_ROUTINE] && !tune_interrupted())
        tune_run_routine(r);
    if (r->status == EXIT_USAGE) {
        tune_journal_close(r->journal);
        tune_device_close(&r->d);
        return EXIT_USAGE;
    }
    if (searched)
        tune_run_rates(r);
    const int wrote = write_entry(r, wall0);
    tune_print_summary(r);
    if (wrote && !tune_interrupted() && !tune_check_entry(r))
        r->status = EXIT_PARTIAL;
    return finish(r);
}
