/*
 * Declarations shared by the parts of oclblas-tune and its tests: random
 * numbers, a map from configuration codes to costs, the search space built
 * from the kernels' descriptors (src/kernel_<name>.c), the search
 * strategies, the search loop with its budgets, the journal, the
 * measurements on a device and the database entry writer. The space, the
 * strategies and the search loop know nothing about OpenCL, so that the
 * tests can drive them with a synthetic cost function.
 */
#ifndef OCLBLAS_TUNE_H
#define OCLBLAS_TUNE_H

#include "cache/disk.h"
#include "db/db.h"
#include "kernels/routine.h"
#include "runtime/devctx.h"
#include "runtime/execute.h"
#include "runtime/programs.h"
#include "runtime/run.h"
#include "tune/tuning.h"
#include "util/util.h"

#include <stdint.h>
#include <stdio.h>

#define TUNE_VERSION OCLBLAS_VERSION_STRING
#define TUNE_MAX_VALUES 32 /* values of one parameter in a search space */

/* ---- random numbers (util.c) -------------------------------------------- */

/* xoshiro256**, seeded through splitmix64: the same seed gives the same
 * search on every platform. */
typedef struct {
    uint64_t s[4];
} tune_rng;

void tune_rng_seed(tune_rng *r, uint64_t seed);
uint64_t tune_rng_next(tune_rng *r);
double tune_rng_uniform(tune_rng *r);              /* [0, 1) */
uint64_t tune_rng_below(tune_rng *r, uint64_t n); /* [0, n); 0 when n is 0 */

/* ---- a map from configuration codes to numbers (util.c) ----------------- */

typedef struct {
    uint64_t *keys; /* key + 1, 0 marks a free slot */
    double *vals;
    size_t cap, count;
} tune_map;

/* 0 when out of memory. */
int tune_map_put(tune_map *m, uint64_t key, double val);
int tune_map_get(const tune_map *m, uint64_t key, double *val);
void tune_map_free(tune_map *m);

/* ---- small helpers (util.c) --------------------------------------------- */

double tune_now(void); /* monotonic seconds */
/* "1m05s" style durations for the progress line. */
void tune_format_duration(double seconds, char *buf, size_t len);
/* Parses a whole string as a number in [min, max]; 0 when it is not one. */
int tune_parse_long(const char *s, long min, long max, long *out);
int tune_parse_double(const char *s, double min, double max, double *out);

/* ---- the search space (space.c) ----------------------------------------- */

/* The candidate values of each parameter of one kernel (the table's, or
 * those the user gave), and the device limits that legality also checks. A
 * configuration is a code: the mixed-radix number whose digits are the
 * indices of its values. Legality is always oclblas__params_legal, the
 * library's own rule; the space never restates it. */
typedef struct {
    int kernel;
    int num_params;
    int num_values[OCLBLAS__MAX_PARAMS];
    int values[OCLBLAS__MAX_PARAMS][TUNE_MAX_VALUES]; /* ascending */
    uint64_t stride[OCLBLAS__MAX_PARAMS];
    uint64_t product; /* every combination, legal or not */
    oclblas__limits lim;
    int has_lim;
    uint64_t *legal; /* after tune_space_enumerate: the legal codes, ascending */
    size_t num_legal;
    int enumerated;
    uint64_t checks; /* legality checks made so far, for the tests and --list */
} tune_space;

/* lim NULL: only the device-independent rules. */
int tune_space_init(tune_space *s, int kernel, const oclblas__limits *lim, char *err, size_t len);
/* "NAME=V,V,..." replaces one parameter's values (within its legal range). */
int tune_space_restrict(tune_space *s, const char *text, char *err, size_t len);
void tune_space_params(const tune_space *s, uint64_t code, oclblas__params *p);
/* 0 when a value of p is not among the space's values. */
int tune_space_encode(const tune_space *s, const oclblas__params *p, uint64_t *code);
/* The configuration of the space nearest to p (each value to the nearest
 * candidate), when it is legal; 0 otherwise. */
int tune_space_nearest(const tune_space *s, const oclblas__params *p, uint64_t *code);
int tune_space_legal(tune_space *s, uint64_t code);
/* Leaves out the values of parameter i above max, keeping the smallest
 * one if none is left (a class's tiles no wider than its problems). */
int tune_space_cap(tune_space *s, int i, int max, char *err, size_t len);
/* Lists the legal configurations; refuses (0, message) when the space has
 * more than limit combinations. */
#define TUNE_ENUM_LIMIT 400000000ull
int tune_space_enumerate(tune_space *s, uint64_t limit, char *err, size_t len);
/* A uniformly random legal configuration; 0 when there is none. */
int tune_space_random(tune_space *s, tune_rng *r, uint64_t *code);
/* The legal configurations that differ from code in exactly `distance`
 * parameters, into a growing array (*out, *cap); the count, or -1 when out
 * of memory. */
long tune_space_neighbours(tune_space *s, uint64_t code, int distance, uint64_t **out, size_t *cap);
void tune_space_format(const tune_space *s, uint64_t code, char *buf, size_t len);
void tune_space_free(tune_space *s);

/* ---- strategies (strategy.c) -------------------------------------------- */

typedef enum { TUNE_FULL, TUNE_RANDOM, TUNE_ANNEALING, TUNE_PSO } tune_strategy_kind;

typedef struct {
    tune_strategy_kind kind;
    uint64_t seed;
    double fraction;   /* random: this fraction of the legal space, when > 0 */
    long count;        /* random: this many configurations, when fraction is 0 */
    int batch;         /* configurations proposed at once (full, random, annealing) */
    double temp_start; /* annealing: temperatures in relative cost: a move this much */
    double temp_end;   /*   worse is accepted with probability 1/e */
    int swarm;         /* PSO: particles */
    double p_random, p_local, p_global; /* PSO: per parameter, the chance of a random value,
                                           the particle's best value, the swarm's best value */
} tune_strategy_opts;

void tune_strategy_defaults(tune_strategy_opts *o);
const char *tune_strategy_name(tune_strategy_kind k);
int tune_strategy_parse(const char *name, tune_strategy_kind *k);

typedef struct tune_strategy tune_strategy;
/* seeds: configurations to evaluate first (the database's, say); they must be legal. */
tune_strategy *tune_strategy_new(tune_space *s, const tune_strategy_opts *o, const uint64_t *seeds, int num_seeds,
                                 char *err, size_t len);
/* Up to max configurations to evaluate next, all legal; progress in [0, 1] is
 * the share of the budget used (it cools the annealing). 0: nothing is left
 * to try; -1: out of memory. */
int tune_strategy_next(tune_strategy *st, double progress, uint64_t *out, int max);
/* Costs of what next() proposed, in the same order; NAN marks one that was
 * not evaluated (the budget ran out), INFINITY one that failed. */
void tune_strategy_report(tune_strategy *st, const uint64_t *codes, const double *costs, int n);
/* How many configurations the strategy will try at most, -1 when open-ended. */
long tune_strategy_total(const tune_strategy *st);
void tune_strategy_free(tune_strategy *st);

/* ---- the search loop (search.c) ----------------------------------------- */

typedef struct {
    long max_configs;   /* 0: no limit */
    double max_seconds; /* 0: no limit; on the evaluation clock (the seconds evaluate() charges) */
} tune_budget;

typedef struct {
    long done;          /* distinct configurations evaluated */
    long total;         /* what the strategy and the budget allow, -1 when open-ended */
    double clock;       /* evaluation clock */
    double clock_limit; /* the time budget, 0 if none */
    int have_best;
    uint64_t best;
    double best_cost;
} tune_progress;

/* Evaluates n distinct, legal, not yet evaluated configurations: cost[i]
 * (INFINITY: it failed) and the seconds charged to the budget for it.
 * Nonzero return: stop the search (interrupted); the costs filled so far
 * (the others NAN) still count. */
typedef int (*tune_eval_fn)(void *ctx, const uint64_t *codes, int n, double *cost, double *charged);
typedef void (*tune_progress_fn)(void *ctx, const tune_progress *p);

typedef enum { TUNE_STOP_EXHAUSTED, TUNE_STOP_CONFIGS, TUNE_STOP_TIME, TUNE_STOP_INTERRUPTED, TUNE_STOP_STALLED,
               TUNE_STOP_ERROR } tune_stop;

typedef struct {
    long evaluated;
    int found; /* a configuration with a finite cost */
    uint64_t best;
    double best_cost;
    double clock;
    tune_stop stop;
} tune_outcome;

int tune_search(tune_space *s, tune_strategy *st, const tune_budget *b, tune_eval_fn eval, void *eval_ctx,
                tune_progress_fn progress, void *progress_ctx, tune_outcome *out);
const char *tune_stop_name(tune_stop s);

/* ---- careful files (files.c) -------------------------------------------- */

/* Each refuses with one line in err naming `what` ("entry", "journal"), the
 * path and what is there. */
/* Whether path may be created or replaced: absent, or a regular file (a
 * link is not followed). */
int tune_file_replaceable(const char *what, const char *path, char *err, size_t len);
/* A new file in path's folder under an unpredictable name (into tmp),
 * created exclusively with mode (less the umask), no link followed. */
FILE *tune_file_temp(const char *what, const char *path, unsigned mode, char *tmp, size_t tmp_len, char *err,
                     size_t len);
/* Renames tmp over path when path is absent or a regular file; removes tmp otherwise. */
int tune_file_commit(const char *what, const char *tmp, const char *path, char *err, size_t len);
/* Opens path to read and append (create: creating it, 0644), never through
 * a link, never waiting (a FIFO), and only a regular file; the descriptor
 * (O_APPEND), or -1. */
int tune_file_open_regular(const char *what, const char *path, int create, char *err, size_t len);

/* ---- the journal (journal.c) -------------------------------------------- */

typedef enum { TUNE_OK, TUNE_WRONG, TUNE_BUILD_FAILED, TUNE_RUN_FAILED } tune_status;
const char *tune_status_name(tune_status s);

typedef struct {
    tune_status status;
    double cost;    /* 1 / rate, INFINITY unless ok */
    double rate;    /* GFLOPS or GB/s */
    double charged; /* seconds it cost the run: its compilation and measurement, and the tuner's
                       own time since the one before; spent already when a later run takes it */
    char note[200];
} tune_record;

typedef struct tune_journal tune_journal;
/* Opens the journal (create: creating it; tune_file_open_regular's care);
 * one recorded for another device is refused. fresh: start over, ignoring
 * what the file holds. */
int tune_journal_open(const char *path, const char *device, int create, int fresh, tune_journal **out, char *err,
                      size_t len);
int tune_journal_find(const tune_journal *j, const char *kernel, const char *problem, const char *config,
                      tune_record *out);
/* Appends a line and flushes it, so that an interruption loses nothing measured. */
int tune_journal_add(tune_journal *j, const char *kernel, const char *problem, const char *config,
                     const tune_record *r);
long tune_journal_loaded(const tune_journal *j);
/* What the journal holds for a kernel's problem. */
typedef struct {
    long records, failed;
    double charged; /* seconds they cost */
} tune_journal_tally;
/* The best record of a kernel's problem that checked out (the lowest cost,
 * the earliest of equal ones, as the search keeps it) and its
 * configuration; 0 when there is none. tally (may be NULL): all its records. */
int tune_journal_best(const tune_journal *j, const char *kernel, const char *problem, char *config, size_t len,
                      tune_record *best, tune_journal_tally *tally);
void tune_journal_close(tune_journal *j);

#endif
