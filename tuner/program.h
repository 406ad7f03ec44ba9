/*
 * The parts of the oclblas-tune program (the tool around the tuner's
 * library of space, strategies, journal and measurements): its options
 * (options.c), the run of the kernels' searches and the routine values
 * (run.c), the rates of the sets chosen (rates.c), what it reports
 * (report.c), the check of the written entry (check.c), the merge with an
 * earlier entry (merge.c), what a second interrupt writes (sofar.c), and
 * main (main.c), which strings them together. One tune_run value holds a
 * run's state from the options to the exit status; each part takes what
 * it needs from it.
 */
#ifndef OCLBLAS_TUNE_PROGRAM_H
#define OCLBLAS_TUNE_PROGRAM_H

#include "budget.h"
#include "interrupt.h"
#include "measure.h"

/* Exit statuses; an interrupted run ends with tune_interrupt_status() (130 or 143). */
enum { EXIT_PARTIAL = 1, EXIT_USAGE = 2, EXIT_SETUP = 3 };
enum { BUILD_AUTO, BUILD_THREADS, BUILD_PROCESSES };
/* --rates: the rates of the sets a run chose measured where the cost model
 * has the device's facts, always, or never. */
enum { RATES_AUTO, RATES_ON, RATES_OFF };

#define ROUTINE_RESERVE 0.06 /* of a whole-run budget, set aside for the routine values */
#define DEFAULT_CONFIGS 200  /* per kernel, for a search that has no other budget */
#define MAX_VALUES_OPTS 64

/* How the descriptor of kernel k says it is tuned (NULL: it is not searched). */
static inline const oclblas__tuning *tuning_of(int k) { return oclblas__tuning_of(k); }

/* ---- options (options.c) --------------------------------------------------- */

typedef struct {
    int kernel;
    char text[256];
} values_opt;

#define SELECTED_BY_DEFAULT 2

typedef struct {
    const char *device, *output, *journal, *cache_dir;
    int fresh, list, quiet, jobs, runs, seed_db;
    const char *from_journal; /* write the entry from this journal, measuring nothing */
    int build_mode; /* BUILD_AUTO, BUILD_THREADS, BUILD_PROCESSES */
    int selected[OCLBLAS__K_COUNT]; /* 0 no, 1 named by -k, SELECTED_BY_DEFAULT no -k given */
    tune_strategy_opts strategy;
    double time_total;
    double time_kernel[OCLBLAS__K_COUNT];
    long configs_all;
    long configs_kernel[OCLBLAS__K_COUNT];
    double screen;
    values_opt values[MAX_VALUES_OPTS];
    int num_values;
    tune_size sizes[OCLBLAS__K_COUNT][8];
    int num_sizes[OCLBLAS__K_COUNT];
    size_t gemv_long, gemv_short, gemv_square;
    tune_class classes[OCLBLAS__MAX_CLASSES]; /* tuned beside the sets for every shape, in this order */
    int num_classes, no_classes;
    int quick, quick_time_given; /* --quick: a time budget by the device's type (options.c), unless -t gave one */
    int rates;                         /* RATES_AUTO, RATES_ON, RATES_OFF */
    tune_size rate_size[OCLBLAS__K_COUNT]; /* --rate-size, else the descriptor's rate problem */
    int runs_given;
    char command[2048];
} tune_options;

/* The command line into o, with the defaults for what it does not say.
 * Returns -1 to go on, else the exit status (0 after --help or --version,
 * EXIT_USAGE after a message on stderr). */
int tune_options_parse(int argc, char **argv, tune_options *o);
/* What depends on the device: default sizes and classes, and the kernels
 * it cannot run left out (said on stderr unless quiet). */
void tune_options_for_device(tune_options *o, const tune_device *d);
/* oclblas-VENDOR-NAME.json */
void tune_default_output(const tune_device *d, char *buf, size_t len);

/* ---- a run ------------------------------------------------------------------- */

/* One search of a kernel: its set for every shape or for a class. */
typedef struct {
    int found;
    oclblas__params best;
    tune_record best_rec, seed_rec;
    int seed_measured;
    long measured, replayed, failed;
    double clock;     /* with the kernel's classes' searches (tune_kernel) */
    double own_clock; /* this search's alone */
    tune_stop stop;
    char problem[256];
    int out_of_time;  /* a class's search that did not start: the kernel's time budget was spent */
} tune_result;

typedef struct {
    tune_options o;
    tune_device d;
    tune_workers *workers;
    tune_journal *journal;
    tune_run_budget budget;
    char output[1024], journal_path[1100];
    tune_entry entry;
    tune_result results[OCLBLAS__K_COUNT];
    tune_result class_results[OCLBLAS__K_COUNT][OCLBLAS__MAX_CLASSES];
    int searched[OCLBLAS__K_COUNT], out_of_time[OCLBLAS__K_COUNT];
    int changed[OCLBLAS__K_COUNT]; /* what the entry's check must exercise */
    char routine_summary[2048];
    char rates_summary[1024]; /* the rates of the sets it chose, or why none were measured ("": no step) */
    char wall_text[32];
    int status; /* the exit status so far */
} tune_run;

/* ---- the searches (run.c) ------------------------------------------------------ */

/* Each selected kernel in the order of the kernel list, its set for every
 * shape and its classes'; the winners go into r->d's context and the entry.
 * 0 for a fatal error of the options (r->status EXIT_USAGE). */
int tune_run_kernels(tune_run *r);
/* The routine values, with every kernel tuned; 0 for a bad --values. */
int tune_run_routine(tune_run *r);

/* ---- the rates of the sets chosen (rates.c) ---------------------------------------- */

/* Times each GEMM set the run chose (for every shape and for its classes)
 * on the problem its rate is defined on and puts the rates into the entry,
 * where --rates asks for them. */
void tune_run_rates(tune_run *r);

/* ---- what the run reports (report.c) ------------------------------------------- */

/* The tool and the problem of each kernel in the entry (problem[k]). */
void tune_describe_entry(const tune_options *o, const char *const problem[OCLBLAS__K_COUNT], tune_entry *e);
/* The entry's note: the command, the wall time and each search. */
void tune_write_note(tune_run *r);
/* The summary on stdout: a line for each search and the routine values. */
void tune_print_summary(const tune_run *r);
/* --list: the search spaces and the plan. */
void tune_list_spaces(const tune_options *o, tune_device *d);

/* ---- the check of the written entry (check.c) ---------------------------------- */

/* Loads the entry as a user would and checks it: the library takes its
 * parameters, and a call through each plan that uses what the run changed
 * is correct. 0 when it is not. */
int tune_check_entry(const tune_run *r);

/* ---- an earlier entry at the output (merge.c) ------------------------------------ */

/* An earlier entry for the same device at path keeps in e the kernels this
 * run did not tune; kept gets their names ("" when none), old_note its note. */
void tune_merge_existing(const tune_device *d, tune_entry *e, const char *path, char *kept, size_t len,
                         char *old_note, size_t old_note_len);
/* Whether the earlier entry for the same device at path gives the cost model's facts. */
int tune_earlier_has_model(const tune_device *d, const char *path);
/* The same for the run's entry at its output; the entry's note says what was kept. */
void tune_merge_run(tune_run *r);

/* ---- what a second interrupt writes (sofar.c) ------------------------------------ */

/* The run whose best configurations so far a second interrupt writes. */
void tune_so_far_start(const tune_run *r);
/* A new best: for every shape (cls -1) or for class cls (given: the parameters it names). */
void tune_so_far_set(int kernel, int cls, unsigned given, const oclblas__params *p, const char *problem);
/* Held while the run writes its entry; done: nothing is left for a second interrupt to write. */
void tune_so_far_hold(void);
void tune_so_far_release(int done);
/* The second interrupt's last words (interrupt.c calls it from its thread). */
void tune_so_far_stop(void);

/* ---- the run's private folder (privdir.c) ---------------------------------------- */

/* Makes it and points the drivers' caches into it; 0 (said on stderr) when it cannot. */
int tune_private_dir_make(void);
/* Its path; "" before it is made or after it is removed. */
const char *tune_private_dir(void);
/* Removes it and what is in it; at exit, or from the second interrupt. */
void tune_private_dir_remove(void);

#endif
