/*
 * The tuner's device side: opening the device to tune, measuring one
 * candidate configuration of a kernel (checked against a host reference,
 * then timed with profiling events), building candidates in worker
 * threads, the routine-level crossovers, and writing the database entry.
 */
#ifndef OCLBLAS_TUNE_MEASURE_H
#define OCLBLAS_TUNE_MEASURE_H

#include "budget.h"
#include "tune.h"
#include "util/verify.h"

/* ---- the device (measure.c) ---------------------------------------------- */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    unsigned platform_index, device_index;
    const oclblas__device_info *info;
    cl_context ctx;
    cl_command_queue queue; /* in order, with profiling */
    unsigned generation;    /* grows with every reset, so that buffers know they are stale */
    /* The parameters every measurement runs with: the database's at the
     * start, then each kernel's winner and the routine values as they are
     * tuned. The library's own context is never changed by the search. */
    oclblas__devctx cx;
} tune_device;

/* spec: as OCLBLAS_DEVICE ("gpu", "cpu", "accelerator", "P:D", part of the
 * name; oclblas__device_find), NULL or "" for the first GPU, accelerator, CPU. */
int tune_device_open(const char *spec, tune_device *d, char *err, size_t len);
/* A new context and queue, when a failure may have broken the old ones. */
int tune_device_reset(tune_device *d, char *err, size_t len);
/* Whether the queue still works after a failed command. */
int tune_device_healthy(tune_device *d);
void tune_device_close(tune_device *d);
/* Makes p the parameters of a kernel (or table) in d->cx for every shape (its classes go). */
void tune_device_set(tune_device *d, int kernel, const oclblas__params *p);

/* ---- problems (problem.c) -------------------------------------------------- */

/* One problem of a form (oclblas__form): inputs from a seed, expected
 * outputs from the host reference with their error bounds, and device
 * buffers in roles A, B (or x), C (or y). */
typedef struct {
    oclblas__form form;
    int trans_a, trans_b;   /* GEMM: A stored k x m, B n x k when set; GEMV: trans_a */
    oclblas__tune_problem p; /* sizes, and alpha and beta of the checked run */
    size_t count[3];        /* elements in roles A, B, C */
    float *host[3];         /* the inputs, and the outputs' starting values */
    float *ref[3];          /* expected outputs (C; COPY's B too), NULL for inputs */
    float *bound[3];
    float *out;             /* room to read an output back */
    cl_mem buf[3];
    unsigned gen;           /* the device generation buf belongs to */
} tune_problem;

/* 0 when out of memory. */
int tune_problem_make(tune_problem *t, oclblas__form form, int trans_a, int trans_b, const oclblas__tune_problem *p,
                      uint32_t seed);
/* Device buffers (again, after a reset): inputs with their data. */
oclblas_status tune_problem_upload(tune_problem *t, cl_context ctx, unsigned generation);
size_t tune_problem_ld(const tune_problem *t, int role);
/* Enqueues the computation of t with its alpha and beta. */
typedef oclblas_status (*tune_run_fn)(void *ctx, tune_problem *t, cl_command_queue q);
/* The checked run: outputs reset (to their starting values; COPY's to NaN),
 * run, read back and compared; *ok and note say how it went. */
oclblas_status tune_problem_check(tune_problem *t, cl_command_queue q, tune_run_fn run, void *ctx, int *ok, char *note,
                                  size_t len);
int tune_problem_compare(const tune_problem *t, int role, const float *got, char *note, size_t len);
void tune_problem_free(tune_problem *t);

/* ---- measuring candidates (measure.c) ------------------------------------ */

typedef struct {
    size_t m, n, k; /* gemv: m x n; helpers: rows x cols of the operand */
} tune_size;

typedef struct {
    int runs;      /* timed runs after the checked one; the minimum counts */
    double screen; /* a candidate whose first timed run is this many times slower than the best so far
                      gets no more runs: it cannot win */
} tune_bench_opts;

/* A class of shapes the tuner tunes: its name and rule, and the problems
 * it is tuned on: MxNxK products (the GEMM-form kernels, and the split of
 * k among the routine values) and MxN gemvs (k = 0 here; the gemv kernels,
 * and GEMV_GROUPS_PER_CU, GEMV_T_GROUPS_PER_CU). */
#define TUNE_MAX_CLASS_SIZES 8
typedef struct {
    oclblas__shape_class cls;
    tune_size sizes[TUNE_MAX_CLASS_SIZES];
    int num_sizes;
} tune_class;

/* Its problems of one form: the products (gemv 0) or the gemvs (gemv 1). */
int tune_class_sizes(const tune_class *c, int gemv, tune_size *out);

typedef struct tune_bench tune_bench;
/* The bench of a kernel that has a tuning (its descriptor says how it is
 * timed); it reads the other kernels' parameters from d->cx. With a class
 * (cls not NULL) it times the descriptor's class plan (the library's whole
 * plan) on the class's problems as they are, rated by their real work. */
tune_bench *tune_bench_new(tune_device *d, int kernel, const tune_size *sizes, int num_sizes,
                           const tune_bench_opts *o, const tune_class *cls, char *err, size_t len);
/* Builds a candidate in the calling thread; *hold keeps it in the library's
 * memory cache until tune_bench_release, which drops it from there. */
tune_status tune_bench_build(tune_bench *b, const oclblas__params *p, void **hold, char *note, size_t len);
void tune_bench_release(void *hold);
/* Lets go of a candidate but leaves its program in the library's memory
 * cache: the winner's, which the entry's check runs next. */
void tune_bench_keep(void *hold);
/* Checks and times a candidate; one thread at a time. */
void tune_bench_measure(tune_bench *b, const oclblas__params *p, tune_record *r);
/* ---- build processes (workers.c) ----------------------------------------- */

typedef struct tune_workers tune_workers;
/* n processes running this program with --build-worker, on the device's
 * indices, with the library's disk cache in cache_dir (shared with them). */
tune_workers *tune_workers_start(const tune_device *d, const char *cache_dir, int n, char *err, size_t len);
/* Builds n configurations in the processes, which leaves their binaries in
 * the library's disk cache; status BUILD_FAILED where the compiler refused,
 * crashed or hung, else TUNE_OK (the caller then loads or builds it). */
void tune_workers_build(tune_workers *w, int kernel, const oclblas__params *p, int n, tune_status *status,
                        char (*notes)[200]);
void tune_workers_stop(tune_workers *w);
/* The --build-worker side: jobs on stdin, one reply line each on stdout. */
int tune_worker_main(const char *index, const char *cache_dir);

/* Builds n candidates: in build processes when w is not NULL (then loaded
 * here), else with up to jobs threads. */
void tune_bench_build_all(tune_bench *b, const oclblas__params *p, int n, int jobs, tune_workers *w, void **holds,
                          tune_status *status, char (*notes)[200]);
void tune_bench_problem(const tune_bench *b, char *buf, size_t len);
void tune_bench_free(tune_bench *b);
const char *tune_unit(int kernel); /* GFLOPS or GB/s */

/* ---- host references (ref.c) --------------------------------------------- */

/* References with the error bound of src/verify.h per element. */
int tune_ref_gemm(int ta, int tb, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                  const float *b, size_t ldb, float beta, const float *c0, float *ref, float *bound);
int tune_ref_gemv(int trans, size_t m, size_t n, float alpha, const float *a, const float *x, float beta,
                  const float *y0, float *ref, float *bound);
int tune_compare(const float *got, const float *ref, const float *bound, size_t n, char *note, size_t len);

/* ---- routine-level values (routine.c) ------------------------------------ */

typedef struct {
    int runs;
    int tune[RT_COUNT];                /* which values to tune */
    const tune_class *classes;         /* and for each class, the split of k on its products and */
    int num_classes;                   /*   GEMV_(T_)GROUPS_PER_CU on its gemvs */
    int num_values[RT_COUNT];          /* the candidates of each, from the table or --values */
    int values[RT_COUNT][TUNE_MAX_VALUES];
    size_t gemv_long, gemv_short;      /* GEMV_T_GROUPS_PER_CU on long x short (gemv_t), GEMV_GROUPS_PER_CU
                                          on short x long (gemv_n): the plan splits their reductions */
    size_t gemv_square;                /*   and a square one of each, where it hardly does */
    int quiet;
    tune_run_budget *budget;           /* no measurement starts once it is spent or after an interrupt
                                          (NULL: no budget); a value whose candidates were not all
                                          measured or found in the journal keeps its current value */
} tune_routine_opts;

/* Measures the crossovers with the kernels' current (tuned) parameters of
 * d->cx and sets the routine values there; tuned[i] tells which values were measured; summary gets
 * one line per value. For each class, class_given[c] gets the routine values measured for it
 * (a mask; 0: none) and class_values[c] them; d->cx then holds them as the routine's class sets.
 * 0 only for a fatal error (message in err). */
int tune_routine(tune_device *d, const tune_routine_opts *o, tune_journal *j, int tuned[RT_COUNT],
                 unsigned class_given[OCLBLAS__MAX_CLASSES], oclblas__params class_values[OCLBLAS__MAX_CLASSES],
                 char *summary, size_t summary_len, char *err, size_t len);

/* ---- the database entry (entry.c) ------------------------------------------ */

/* What an earlier entry measured of a set (its "rates", "along_k_shares",
 * "peeled_factors" and "resident"; 0: not given), which the tuner does not
 * measure: carried over with a set the run keeps, never with one it tuned. */
typedef struct {
    double rate; /* flop/s */
    double along_k[2];
    double peeled[3];
    unsigned resident; /* work-groups a compute unit holds */
} tune_set_facts;

typedef struct {
    oclblas__shape_class cls;
    unsigned given[OCLBLAS__K_COUNT]; /* the parameters the class names for each kernel; 0: no set */
    oclblas__params params[OCLBLAS__K_COUNT];
    tune_set_facts facts[OCLBLAS__K_COUNT];
    /* Where it is written: 0 first (the classes new to the entry, in the
     * options' order), i + 1 where class i of the earlier entry stood. */
    int place;
} tune_entry_class;

typedef struct {
    int has[OCLBLAS__K_COUNT];
    oclblas__params params[OCLBLAS__K_COUNT];
    tune_set_facts facts[OCLBLAS__K_COUNT];
    int has_model; /* the cost model's facts of the device, from an earlier entry */
    oclblas__model_device model;
    int num_classes;
    tune_entry_class classes[OCLBLAS__MAX_CLASSES];
    char tool[64];    /* the library's limits on these strings, with their NUL */
    char sizes[128];
    char note[8192];  /* not read by the library: free length */
} tune_entry;

/* Writes the entry atomically (temporary file, then rename) and checks it
 * with the library's own parser. */
int tune_entry_write(const tune_device *d, const tune_entry *e, const char *path, char *err, size_t len);

#endif
