/*
 * Declarations shared between the library's source files (and the tuner,
 * which links the same objects): the kernel list and the descriptors'
 * common types, steps (one launch as a value), device facts, the database,
 * the per-device context, the plans and their executor, the program cache,
 * scratch buffers and small utilities. Each kernel's own indices, argument
 * struct and step function are in its src/kernel_<name>.h. Nothing here is
 * exported from the shared library.
 */
#ifndef OCLBLAS_INTERNAL_H
#define OCLBLAS_INTERNAL_H

#include "oclblas.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define OCLBLAS__STR(x) OCLBLAS__STR2(x)
#define OCLBLAS__STR2(x) #x
#define OCLBLAS_VERSION_STRING \
    OCLBLAS__STR(OCLBLAS_VERSION_MAJOR) "." OCLBLAS__STR(OCLBLAS_VERSION_MINOR) "." OCLBLAS__STR(OCLBLAS_VERSION_PATCH)

#define OCLBLAS__MAX_PARAMS 16
#define OCLBLAS__MAX_CANDIDATES 12
#define OCLBLAS__MAX_DERIVED 16
#define OCLBLAS__MAX_ARGS 16

/* ---- the kernel list (kernels.def) ------------------------------------- */

typedef enum {
#define OCLBLAS_KERNEL(ID, name) OCLBLAS__K_##ID,
#define OCLBLAS_TABLE(ID, name) OCLBLAS__K_##ID,
#include "kernels.def"
#undef OCLBLAS_KERNEL
#undef OCLBLAS_TABLE
    OCLBLAS__K_COUNT
} oclblas__kernel_id;

/* The embedded sources (generated: kernels.c), one per OCLBLAS_KERNEL line. */
#define OCLBLAS_KERNEL(ID, name) extern const char oclblas__source_##name[];
#define OCLBLAS_TABLE(ID, name)
#include "kernels.def"
#undef OCLBLAS_KERNEL
#undef OCLBLAS_TABLE

/* ---- kernel descriptors (kernel_<name>.c; generic functions in params.c) */

typedef struct {
    const char *name;
    int min, max;             /* legal range; the rules add the rest */
    int num_candidates;       /* the tuner's search values */
    int candidates[OCLBLAS__MAX_CANDIDATES];
    /* 'm', 'n' or 'k': a tile's side along that dimension of the problem;
     * tuning a class of shapes, the tuner leaves out values beyond the
     * class's problems (a 128-wide tile for m = 32). 0: none. */
    char along;
} oclblas__param_def;

/* What a device allows and offers: the device-dependent half of legality. */
typedef struct {
    size_t max_wg_size;
    size_t max_item[3];
    unsigned long long local_mem;
    int nv_compute_capability; /* 10 * major + minor on NVIDIA (cl_nv_device_attribute_query), else 0 */
} oclblas__limits;

typedef struct {
    int v[OCLBLAS__MAX_PARAMS];
} oclblas__params;

/* One legality rule. It reads the parameters of its mask only, so that it
 * can be checked as soon as those are assigned (the tuner cuts its search
 * there). A device rule needs the device's limits and is skipped without
 * them. Returns NULL when the values pass, else why not. */
typedef struct {
    unsigned reads; /* bit i: parameter i */
    int device;
    const char *(*check)(const int *v, const oclblas__limits *lim);
} oclblas__rule;
#define OCLBLAS__P(i) (1u << (i))

/* A size derived from the parameters, passed as -DNAME=VALUE beside them. */
typedef struct {
    const char *name;
    int value;
} oclblas__derived;

typedef struct oclblas__tuning oclblas__tuning; /* how oclblas-tune times a kernel (below) */

typedef struct {
    const char *name;   /* "gemm_fast": the name in the list, database files and overrides */
    const char *source; /* the embedded .cl text; NULL for a table without a program */
    int num_params;
    const oclblas__param_def *params;
    int num_rules;
    const oclblas__rule *rules;
    /* Whether the kernel can run on a device at all (NULL: on any OpenCL
     * 1.2 device); returns NULL or why not. */
    const char *(*capable)(const oclblas__limits *lim);
    /* The derived sizes of a legal set, into out (at most
     * OCLBLAS__MAX_DERIVED); returns how many. NULL: none. */
    int (*derive)(const int *v, oclblas__derived *out);
    const oclblas__tuning *tuning; /* NULL: the tuner does not search it */
} oclblas__kernel_desc;

#define OCLBLAS_KERNEL(ID, name) extern const oclblas__kernel_desc oclblas__desc_##name;
#define OCLBLAS_TABLE(ID, name) extern const oclblas__kernel_desc oclblas__desc_##name;
#include "kernels.def"
#undef OCLBLAS_KERNEL
#undef OCLBLAS_TABLE

/* Every descriptor, by id. */
extern const oclblas__kernel_desc *const oclblas__kernels[OCLBLAS__K_COUNT];

int oclblas__kernel_by_name(const char *name); /* -1 when unknown */
int oclblas__param_index(int kernel, const char *name);
/* Legal ranges and rules, and with lim the device's rules and the kernel's
 * capability; why receives the reason (may be NULL). */
int oclblas__params_legal(int kernel, const oclblas__params *p, const oclblas__limits *lim,
                          const char **why);
/* The same on a partial assignment: only the parameters of the mask
 * `assigned` are looked at, and only the rules that read nothing else; of
 * those, only the ranges of the `fresh` parameters and the rules that read
 * one of them (a walk that assigns one parameter at a time passes that one,
 * having checked the rest before; ~0u checks everything assigned). The
 * kernel's capability is checked when fresh covers all that is assigned. */
int oclblas__params_legal_partial(int kernel, const oclblas__params *p, unsigned assigned, unsigned fresh,
                                  const oclblas__limits *lim, const char **why);
/* "-DNAME=VALUE ..." for the kernel's parameters and derived sizes into buf
 * (cut to len); returns the length the whole text needs, as snprintf does. */
size_t oclblas__params_defines(int kernel, const oclblas__params *p, char *buf, size_t len);
/* "NAME=VALUE,..." */
void oclblas__params_format(int kernel, const oclblas__params *p, char *buf, size_t len);
/* Parses "NAME=VALUE" items separated by commas or spaces on top of *p;
 * *given (may be NULL) gets the mask of the parameters it named. */
oclblas_status oclblas__params_parse(int kernel, const char *text, oclblas__params *p, unsigned *given);

/* ---- steps: one kernel launch as a value (launch.c) -------------------- */

/* The buffers a step reads and writes, by role: the call's operands
 * (A, B or x, C or y) and the three scratch slots. */
typedef enum {
    OCLBLAS__BUF_A,
    OCLBLAS__BUF_B,
    OCLBLAS__BUF_C,
    OCLBLAS__BUF_S0,
    OCLBLAS__BUF_S1,
    OCLBLAS__BUF_S2,
    OCLBLAS__BUF_COUNT
} oclblas__buf;

typedef struct {
    cl_uint dims;
    size_t global[3], local[3];
} oclblas__geometry;

typedef struct {
    enum { OCLBLAS__ARG_INT, OCLBLAS__ARG_FLOAT, OCLBLAS__ARG_BUF } kind;
    union {
        int i;
        float f;
        oclblas__buf buf;
    } u;
} oclblas__arg_value;

/* A launch: which program and entry point, its geometry and arguments, and
 * what it waits for. The descriptors' step functions make it from their
 * typed argument structs, so that nobody else restates a geometry. */
typedef struct {
    int kernel;              /* the table whose program it runs */
    oclblas__params params;  /* the parameters of that program (and of the geometry) */
    const char *entry;       /* the kernel function in that program */
    oclblas__geometry geo;
    int num_args;
    oclblas__arg_value args[OCLBLAS__MAX_ARGS];
    unsigned after;    /* bit i: waits for step i of its plan */
    int after_scratch; /* waits for the scratch buffers' previous use */
} oclblas__step;

/* Argument builders for the descriptors' step functions. */
void oclblas__step_int(oclblas__step *s, int v);
void oclblas__step_float(oclblas__step *s, float v);
void oclblas__step_buf(oclblas__step *s, oclblas__buf b);

/* Sets a step's arguments (roles resolved through bufs) and enqueues it. */
oclblas_status oclblas__step_enqueue(cl_command_queue q, cl_kernel k, const oclblas__step *s,
                                     const cl_mem bufs[OCLBLAS__BUF_COUNT], cl_uint num_wait,
                                     const cl_event *wait, cl_event *event);

/* ---- devices (device.c) ------------------------------------------------ */

typedef struct {
    cl_device_id id;
    cl_platform_id platform;
    char name[256];
    char platform_name[128];
    char driver[128];
    char vendor[32];       /* implementation family: nvidia, amd, intel, pocl, or the raw vendor */
    char type[16];         /* GPU, CPU, ACCELERATOR */
    char arch[64];         /* NVIDIA "SM9.0", PoCL the LLVM CPU name, else "" */
    oclblas__limits lim;
    cl_uint compute_units;
    int unified_memory;
    unsigned long long max_alloc;
} oclblas__device_info;

/* The default device's order of preference: GPU 0, accelerator 1, CPU 2, other 3. */
int oclblas__type_rank(cl_device_type t);
/* The device a spec names, as OCLBLAS_DEVICE does ("gpu", "cpu",
 * "accelerator", "P:D" indices, a case-insensitive part of the name; NULL
 * or "" for the first GPU, accelerator, CPU), with its indices (may be NULL). */
oclblas_status oclblas__device_find(const char *spec, cl_device_id *dev, unsigned *platform_index,
                                    unsigned *device_index);
/* Makes the default device the one spec names instead of OCLBLAS_DEVICE's;
 * refused once the default device is in use. */
oclblas_status oclblas__default_choose(const char *spec);

/* Facts about a device, read once and kept for the life of the process. */
oclblas_status oclblas__device_info_get(cl_device_id dev, const oclblas__device_info **out);

typedef struct {
    oclblas_status status;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    const oclblas__device_info *info;
} oclblas__default_device;
const oclblas__default_device *oclblas__default(void);

/* ---- classes of shapes (shapes.c) ---------------------------------------- */

/* The size of the problem a parameter set is picked for: the column-major
 * problem the kernels compute (a row-major call's m and n swapped); a gemv
 * is rows x cols x 1. products: for the tensor-core kernel's sets, the
 * TF32 products per multiply-add that the call's math mode asks for (3
 * accurate, 1 tf32; 0 otherwise), so that an entry can hold a set tuned for
 * each. */
typedef struct {
    size_t m, n, k;
    int products;
} oclblas__shape;

/* What a condition of a class may look at. */
typedef enum {
    OCLBLAS__Q_M, OCLBLAS__Q_N, OCLBLAS__Q_K,
    OCLBLAS__Q_MIN_MN, OCLBLAS__Q_MAX_MN, /* min(m,n), max(m,n) */
    OCLBLAS__Q_MIN_MNK, OCLBLAS__Q_MAX_MNK, /* min(m,n,k), max(m,n,k) */
    OCLBLAS__Q_MN, OCLBLAS__Q_MNK,        /* m*n, m*n*k */
    OCLBLAS__Q_K_PER_MN,                  /* k/max(m,n) */
    OCLBLAS__Q_PRODUCTS,                  /* the shape's products */
    OCLBLAS__Q_COUNT
} oclblas__quantity;
typedef enum { OCLBLAS__OP_LE, OCLBLAS__OP_LT, OCLBLAS__OP_GE, OCLBLAS__OP_GT } oclblas__op;

#define OCLBLAS__MAX_CONDITIONS 6
#define OCLBLAS__MAX_CLASSES 8
#define OCLBLAS__CLASS_NAME 32
typedef struct {
    unsigned char quantity, op; /* oclblas__quantity, oclblas__op */
    double value;
} oclblas__condition;

/* A class: a name and conditions that must all hold (none: every shape). */
typedef struct {
    char name[OCLBLAS__CLASS_NAME];
    int num_conditions;
    oclblas__condition cond[OCLBLAS__MAX_CONDITIONS];
} oclblas__shape_class;

/* Parses a rule, conditions such as "min(m,n) <= 64, k >= 1024" joined by
 * commas or "and" ("": every shape), into c's conditions (not its name);
 * 0 and why for an unknown quantity or operator, a value that is not a
 * number of 0 or more, more than OCLBLAS__MAX_CONDITIONS, or conditions on
 * one quantity that no shape meets. */
int oclblas__class_parse(const char *rule, oclblas__shape_class *c, char *why, size_t len);
/* The rule in the same syntax ("" for every shape). */
void oclblas__class_format(const oclblas__shape_class *c, char *buf, size_t len);
int oclblas__class_matches(const oclblas__shape_class *c, const oclblas__shape *s);
/* Whether every shape that later's rule takes, earlier's takes too (each of
 * earlier's conditions is implied by one of later's on the same quantity):
 * tried first, earlier leaves later no shape. */
int oclblas__class_covers(const oclblas__shape_class *earlier, const oclblas__shape_class *later);
/* Letters, digits, '-', '_' and '.', 1 to 31 of them. */
int oclblas__class_name_valid(const char *name);

/* ---- database (database.c, dbparse.c, generated database_builtin.c) ---- */

/* A class of an entry: its rule, and for each kernel it covers the
 * parameters it names (all of them, or some: the others come from the set
 * for every shape that serves the device). */
typedef struct {
    oclblas__shape_class cls;
    unsigned has;                     /* bit per oclblas__kernel_id */
    unsigned given[OCLBLAS__K_COUNT]; /* bit per parameter named */
    int values[OCLBLAS__K_COUNT][OCLBLAS__MAX_PARAMS];
} oclblas__db_class;

typedef struct {
    char vendor[32], type[16], arch[64], name[256]; /* "" matches anything */
    char tool[64], driver[128], date[32], sizes[128];
    char origin[256]; /* file it came from */
    unsigned has;     /* bit per oclblas__kernel_id: a set for every shape */
    int values[OCLBLAS__K_COUNT][OCLBLAS__MAX_PARAMS];
    int num_classes; /* tried in order, before the sets for every shape */
    oclblas__db_class classes[OCLBLAS__MAX_CLASSES];
} oclblas__db_entry;

extern const oclblas__db_entry oclblas__db_builtin[];
extern const size_t oclblas__db_builtin_count;

#define OCLBLAS__DB_FORMAT "oclblas-database-1"
/* The largest database file the library, the build and the tuner read. A
 * device's file is 2 to 3 KiB, so 1 MiB holds hundreds of entries; the cap
 * bounds what hostile input costs (about 40 MB while parsing the worst
 * 1 MiB file) and keeps /dev/zero-like files from exhausting memory. */
#define OCLBLAS__DB_MAX_FILE ((size_t)1 << 20)
/* Parses a database document (one entry object, or an array of them) of
 * len bytes, which text must follow with a NUL (a NUL inside refuses the
 * document), and validates every entry by the device-independent rules;
 * *entries is malloc'ed. err gets a message naming the cause. */
oclblas_status oclblas__db_parse(const char *text, size_t len, const char *origin, oclblas__db_entry **entries,
                                 size_t *count, char *err, size_t err_len);
/* Entries loaded at run time and held now (for tests: loading a file again replaces its entries). */
size_t oclblas__db_runtime_count(void);
/* Parameters for one kernel on one device: overrides, runtime entries,
 * compiled-in entries, most specific first. from gets a description. */
oclblas_status oclblas__db_lookup(const oclblas__device_info *dev, int kernel, oclblas__params *out,
                                  char *from, size_t from_len);
/* Grows with every database load and override: a device context resolved
 * at an older generation is stale. */
unsigned oclblas__db_generation(void);

/* ---- program cache (progcache.c) --------------------------------------- */

typedef struct oclblas__program oclblas__program;
/* The built program for (context, device, kernel table, parameters), from
 * memory, the disk cache or a build; the parameters are validated for the
 * device first. The caller holds a reference until oclblas__program_release. */
oclblas_status oclblas__program_get(cl_context ctx, const oclblas__device_info *dev, int kernel,
                                    const oclblas__params *p, oclblas__program **out);
void oclblas__program_release(oclblas__program *prog);
/* Drops the memory cache's programs of one context (NULL: all; binaries
 * stay). A program in use lives on until its last user releases it. */
void oclblas__programs_drop_context(cl_context ctx);
/* The references the cached programs of ctx hold on it: one retain each,
 * and per_program more for each that has a program object; -1 while one
 * of them is being built. */
int oclblas__programs_refs(cl_context ctx, int per_program);
/* Programs in the memory cache, for tests. */
size_t oclblas__programs_held(void);
/* Drops one program and its binary from the memory cache (holders keep
 * their reference): the tuner lets go of a candidate so. */
void oclblas__program_forget(oclblas__program *prog);
/* The disk cache's folder for this process ("off": none) instead of
 * OCLBLAS_CACHE_DIR's; the tuner's private folder. Before any build. */
void oclblas__cache_dir_set(const char *dir);
/* The parts of a disk cache file that passed its checks (pointers into the file). */
typedef struct {
    const char *names; /* the kernels its program has, ';'-separated, not NUL-terminated */
    size_t names_len;
    const unsigned char *binary;
    size_t binary_len;
} oclblas__cache_file;
/* Checks a whole cache file read from disk (untrusted bytes) against the
 * key it must hold: NULL with *out filled, or why it is refused. */
const char *oclblas__cache_file_check(const unsigned char *file, size_t len, const char *key,
                                      oclblas__cache_file *out);
/* A kernel object for the caller's exclusive use until it is put back. */
oclblas_status oclblas__kernel_take(oclblas__program *prog, const char *name, cl_kernel *out);
void oclblas__kernel_put(oclblas__program *prog, const char *name, cl_kernel k);

/* ---- scratch buffers (scratch.c) --------------------------------------- */

typedef struct oclblas__scratch oclblas__scratch;
#define OCLBLAS__SCRATCH_SLOTS 3
/* Locks the context's scratch set and makes each slot i at least bytes[i]
 * large (0: not needed, buf[i] may be NULL). *wait gets the event of their
 * last use (NULL if none), to be waited on by the first command that writes
 * them. */
oclblas_status oclblas__scratch_take(cl_context ctx, const size_t bytes[OCLBLAS__SCRATCH_SLOTS], oclblas__scratch **s,
                                     cl_mem buf[OCLBLAS__SCRATCH_SLOTS], cl_event *wait);
/* Unlocks; last_use (retained here) is the event of the last command that reads them. */
void oclblas__scratch_put(oclblas__scratch *s, cl_event last_use);
/* Frees the scratch set of ctx (NULL: every set), once no call uses it. */
void oclblas__scratch_drop(cl_context ctx);
/* The references ctx's scratch set holds on it: one retain, and per_buffer
 * more for each of its buffers; a last-use event that has completed is let
 * go of first. -1 while a call uses the set. *writers: how many distinct
 * queues last wrote its buffers (each may be kept alive by them, PoCL). */
int oclblas__scratch_refs(cl_context ctx, int per_buffer, int *writers);

/* ---- contexts the library holds (lifetime.c) ---------------------------- */

/* Called by a cache after it lists its first object in ctx: the first time,
 * measures how much the library's objects raise ctx's reference count,
 * holds ctx, and lets go of the other held contexts that their callers have
 * released. Takes locks of the caches: call it holding none. */
void oclblas__context_hold(cl_context ctx);
/* Lets go of everything the library holds for ctx (NULL: every context). */
void oclblas__context_drop(cl_context ctx);
/* Contexts held (only: that one, NULL: all), for tests. */
size_t oclblas__contexts_held(cl_context only);

/* ---- the per-device context (devctx.c, database.c) --------------------- */

/* Everything a plan needs to know about a device: its facts and the
 * resolved parameters of every table, resolved once from the database and
 * the overrides and kept (BLIS's cntx in spirit). A snapshot is immutable:
 * loading a database or setting an override makes the next call resolve a
 * new one, and a call keeps the snapshot it started with. A copy with other
 * parameters is a valid context too (the tuner times candidates so). */
/* A set for a class of shapes, resolved for a device. */
typedef struct {
    oclblas__shape_class cls;
    oclblas__params params;
} oclblas__class_set;

typedef struct {
    const oclblas__device_info *dev;
    unsigned generation; /* of the database and overrides it was resolved from */
    int pinned;          /* set by oclblas__devctx_pin: in force whatever the generation */
    oclblas__params params[OCLBLAS__K_COUNT]; /* the set for every shape (of no class below) */
    /* SUCCESS, or why the table has no set this device can run (then its
     * parameters are unusable and plans that need them fail with it). */
    oclblas_status status[OCLBLAS__K_COUNT];
    /* Sets for classes of shapes, tried in order before params[]. */
    int num_classes[OCLBLAS__K_COUNT];
    oclblas__class_set classes[OCLBLAS__K_COUNT][OCLBLAS__MAX_CLASSES];
} oclblas__devctx;

/* The current context of a device: two atomic reads when nothing changed. */
oclblas_status oclblas__devctx_get(const oclblas__device_info *dev, const oclblas__devctx **out);
/* Resolves every table for a device into *out, from the database and the
 * overrides (database.c); no caching. */
oclblas_status oclblas__devctx_resolve(const oclblas__device_info *dev, oclblas__devctx *out);
/* Makes cx (copied) the context of its device for every call until
 * unpinned (cx NULL), whatever the database and overrides say: how the
 * tuner runs the whole library with its candidates. Every set must be
 * legal on the device. */
oclblas_status oclblas__devctx_pin(const oclblas__device_info *dev, const oclblas__devctx *cx);

/* The parameters in force for a kernel on a problem of this shape (shapes.c):
 * the set of the first of the kernel's classes whose rule the shape meets,
 * else the set for every shape (shape NULL: that one). The one place where
 * a plan reads parameters. NULL (with *st) when the device has no legal set
 * for the kernel. */
const oclblas__params *oclblas__devctx_params(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape,
                                              oclblas_status *st);
/* The name of the class whose set serves the shape, NULL for the set for every shape. */
const char *oclblas__devctx_class(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape);
/* Makes p the kernel's set for every shape and drops its class sets: a
 * candidate of the tuner is in force for every problem. */
void oclblas__devctx_set(oclblas__devctx *cx, int kernel, const oclblas__params *p);

/* ---- plans (plan.c): what a call enqueues, as a value ------------------ */

/* An operand in a device buffer, column-major. align: the bytes the
 * element at offset is aligned to (a power of two, at most
 * OCLBLAS__MAX_ALIGN), which decides vector loads and in-place reads. */
#define OCLBLAS__MAX_ALIGN 32
typedef struct {
    size_t offset; /* elements; for a vector, of its element 0 (the last in memory when inc < 0) */
    size_t ld;     /* leading dimension of a matrix */
    ptrdiff_t inc; /* increment of a vector */
    unsigned align;
} oclblas__operand;

/* C = alpha op(A) op(B) + beta C, column-major, arguments checked. */
typedef struct {
    int trans_a, trans_b;
    size_t m, n, k;
    float alpha, beta;
    oclblas__operand a, b, c;
    oclblas_math_mode mode; /* the call's (oclblas_get_math_mode when it was made) */
} oclblas__gemm_problem;

/* y = alpha op(A) x + beta y with A rows x cols, column-major; the roles say
 * which of the call's buffers hold A, x and y (an SGEMM with m = 1 or
 * n = 1 runs as one with its own buffers). */
typedef struct {
    int trans;
    size_t rows, cols;
    float alpha, beta;
    oclblas__operand a, x, y;
    oclblas__buf a_buf, x_buf, y_buf;
    oclblas_math_mode mode;
} oclblas__gemv_problem;

typedef enum {
    OCLBLAS__PLAN_NOTHING, /* C unchanged: a marker as the call's event */
    OCLBLAS__PLAN_SCALE,   /* C = beta C */
    OCLBLAS__PLAN_GEMV,    /* a gemv kernel, with its split reduction */
    OCLBLAS__PLAN_DIRECT,  /* gemm_direct on the caller's buffers */
    OCLBLAS__PLAN_FAST     /* gemm_fast, operands padded or in place, k split or not */
} oclblas__plan_kind;

#define OCLBLAS__MAX_STEPS 4
typedef struct {
    oclblas__plan_kind kind;
    int num_steps;
    oclblas__step step[OCLBLAS__MAX_STEPS];
    int main; /* the step of the kernel the plan is for: its program is taken first */
    char cls[OCLBLAS__CLASS_NAME]; /* the class of shapes whose set the main kernel runs with ("": the set for every shape) */
    size_t scratch[OCLBLAS__SCRATCH_SLOTS]; /* bytes of each scratch slot; 0: not used */
    /* What was decided, for the log and the tests. */
    struct {
        size_t mp, np, kp;            /* the padded problem */
        int a_in_place, b_in_place;   /* read from the caller's buffer */
        int a_transposed, b_transposed; /* padded through pad_transpose */
        size_t slices, k_slice;       /* the split of k (1 slice: none) */
    } fast;
    struct {
        int trans;
        size_t rows, cols;
        size_t groups, splits, chunk; /* work-groups along the output, splits of the reduction, and each one's length */
        int vec;                      /* 1 aligned vector loads, 2 unaligned ones (vloadn), 0 none */
    } gemv;
} oclblas__plan;

oclblas_status oclblas__gemm_plan(const oclblas__devctx *cx, const oclblas__gemm_problem *p, oclblas__plan *out);
oclblas_status oclblas__gemv_plan(const oclblas__devctx *cx, const oclblas__gemv_problem *p, oclblas__plan *out);

/* A routine call as its caller wrote it, for the verbose log. */
typedef struct {
    const char *routine; /* "sgemm", "sgemv" */
    oclblas_layout layout;
    oclblas_transpose trans_a, trans_b;
    size_t m, n, k;
} oclblas__call;
/* One line: the caller's problem and the plan (operands named as the
 * caller names them, so row-major A is the caller's A). */
void oclblas__plan_describe(const oclblas__call *call, const oclblas__plan *plan, char *buf, size_t len);

/* ---- the executor (execute.c) ------------------------------------------ */

/* Enqueues a plan on q: its programs from the cache (one lookup per
 * table), scratch buffers, events between its steps. bufs holds the call's
 * A, B and C (scratch slots are filled here). *event gets the last step's
 * event (or a marker); step_events, when not NULL, gets each step's (the
 * caller releases them), for the tuner to time one kernel. */
oclblas_status oclblas__execute(const oclblas__devctx *cx, const oclblas__plan *plan, cl_context ctx,
                                cl_command_queue q, const cl_mem operands[3], cl_event *event,
                                cl_event step_events[OCLBLAS__MAX_STEPS]);
/* The largest power of two, at most OCLBLAS__MAX_ALIGN, that element off of
 * buf is aligned to (the buffer's start counts: it may wrap host memory). */
unsigned oclblas__alignment(cl_mem buf, size_t off);

/* ---- how oclblas-tune times a kernel (a descriptor's tuning member) ---- */

/* The kind of problem a kernel is timed on: the tuner sets up its data and
 * host reference by form, so a new kernel of a known form needs nothing in
 * the tuner. Column-major, leading dimensions equal to the rows, offsets 0,
 * the tuner's own buffers in roles A, B and C:
 *   GEMM  C (m x n) = alpha op(A) op(B) + beta C, A and B stored as the
 *         tuning's transposes say;
 *   GEMV  y (role C) = alpha op(A) x (role B) + beta y, A m x n;
 *   COPY  the source A (m x n) padded to rows x cols into C as it is and
 *         into B as its transpose (A read as n x m with leading dimension n);
 *         both outputs are checked, zeros beyond the source included. */
typedef enum { OCLBLAS__FORM_GEMM, OCLBLAS__FORM_GEMV, OCLBLAS__FORM_COPY } oclblas__form;

typedef struct {
    size_t m, n, k;
    size_t rows, cols; /* COPY: the padded shape, set by prepare */
    float alpha, beta;
} oclblas__tune_problem;

struct oclblas__tuning {
    oclblas__form form;
    int trans_a, trans_b; /* GEMM: the stored orientation of A and B; GEMV: trans_a */
    double share;         /* of a whole-run time budget */
    int num_sizes;        /* default problem sizes (m, n, k) on a GPU or accelerator, and on a CPU */
    size_t gpu[2][3], cpu[2][3];
    /* 1: whole calls are timed end to end (the reduction a gemv candidate's
     * geometry causes is part of its cost); 0: the plan's steps of this
     * kernel only, each by its own event. */
    int whole_plan;
    /* Fits the problem to a candidate (gemm_fast: sizes to its tile; the
     * helpers: the padded shape of the tuned gemm_fast); NULL: as it is. */
    void (*prepare)(const oclblas__devctx *cx, const oclblas__params *cand, oclblas__tune_problem *p);
    /* The plan the tuner times: cand as this kernel's parameters, cx for the others. */
    oclblas_status (*plan)(const oclblas__devctx *cx, const oclblas__params *cand, const oclblas__tune_problem *p,
                           oclblas__plan *out);
    /* 1: a set is tuned for each class of shapes of the kernel's form (the
     * tuner's --class), beside the set for every shape. */
    int per_class;
    /* The plan timed for a class: the library's whole plan for the class's
     * problem as it is (no prepare), cand in force for every shape, timed
     * end to end; for the GEMM form column-major NN (A m x k, B k x n).
     * NULL: plan (whole_plan kernels, which need nothing else). */
    oclblas_status (*class_plan)(const oclblas__devctx *cx, const oclblas__params *cand,
                                 const oclblas__tune_problem *p, oclblas__plan *out);
};

/* ---- routines (gemm.c, gemv.c): the device-buffer API after its checks -- */

/* SGEMM on checked arguments, in the caller's layout, with a device context
 * (NULL: the current one of the queue's device). */
oclblas_status oclblas__sgemm_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans_a,
                                  oclblas_transpose trans_b,
                                  size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_off, size_t lda,
                                  cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c, size_t c_off,
                                  size_t ldc, cl_command_queue queue, cl_event *event);
/* SGEMV likewise; x_start and y_start are the elements of x[0] and y[0]
 * (for a negative increment, the last element in memory). */
oclblas_status oclblas__sgemv_run(const oclblas__devctx *cx, oclblas_layout layout, oclblas_transpose trans,
                                  size_t m, size_t n,
                                  float alpha, cl_mem a, size_t a_off, size_t lda, cl_mem x, size_t x_start,
                                  ptrdiff_t incx, float beta, cl_mem y, size_t y_start, ptrdiff_t incy,
                                  cl_command_queue queue, cl_event *event);

/* ---- the host routines (hostblas.c) ------------------------------------- */

/* SGEMM and SGEMV on host memory, in C, with reference BLAS semantics; the
 * arguments are already checked (valid enums, leading dimensions, non-zero
 * increments). They serve the host API below the HOST_MAX crossover and the
 * drop-in library whenever no device can do the work. Never fail. */
void oclblas__host_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b, size_t m,
                         size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                         float beta, float *c, size_t ldc);
void oclblas__host_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                         const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                         ptrdiff_t incy);

/* ---- utilities (util.c) ------------------------------------------------ */

int oclblas__verbose(void);
void oclblas__log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void oclblas__strlcpy(char *dst, const char *src, size_t len);
int oclblas__strcaseeq(const char *a, const char *b);
const char *oclblas__strcasestr(const char *hay, const char *needle);
void oclblas__mutex_lock(pthread_mutex_t *m);
void oclblas__mutex_unlock(pthread_mutex_t *m);

/* The one reader of whole files; every file is untrusted input. It opens
 * path (relative to the folder descriptor dir, or AT_FDCWD) without ever
 * blocking, reads it only when fstat on the opened descriptor says it is a
 * regular file of at most max bytes, and returns 0 with *data (malloc'ed,
 * NUL-terminated after *len bytes; the length counts any NUL inside) and
 * *st filled (st may be NULL), or an errno value with the cause in why:
 * ENOENT, EISDIR for a folder, EINVAL for a FIFO, device or socket, EFBIG
 * over max, EPERM or ELOOP for a file that OCLBLAS__READ_PRIVATE refuses. */
struct stat;
enum { OCLBLAS__READ_PRIVATE = 1 /* no symbolic link, owned by this user, not writable by group or others */ };
int oclblas__read_file(int dir, const char *path, unsigned flags, size_t max, char **data, size_t *len,
                       struct stat *st, char *why, size_t why_len);

/* ---- argument checks (checks.c) ---------------------------------------- */

/* The BLAS arguments of a routine, checked in the order of reference BLAS
 * (for a row-major call, that of the column-major call reference CBLAS
 * makes: B before A): layout, transposes, leading dimensions against the
 * sizes, increments. Any size is fine here (the device-buffer calls add
 * the kernels' own limit: split.c). The status names the first bad one.
 * Sizes are size_t: a negative int size (CBLAS, Fortran) is the caller's
 * to catch. Every front end calls these: the host API, the device-buffer
 * API and the drop-in library. */
oclblas_status oclblas__sgemm_check(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                    size_t m, size_t n, size_t k, size_t lda, size_t ldb, size_t ldc);
oclblas_status oclblas__sgemv_check(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, size_t lda,
                                    ptrdiff_t incx, ptrdiff_t incy);

/* Queue facts needed by every routine. */
oclblas_status oclblas__queue_info(cl_command_queue q, cl_context *ctx, cl_device_id *dev);
/* What a call's kernels do with a buffer (oclblas__check_buffer's access). */
enum { OCLBLAS__READS = 1, OCLBLAS__WRITES = 2 };
/* Checks a buffer: not NULL, a buffer (no image, no pipe), same context,
 * its flags allowing the access (kernels write it: not CL_MEM_READ_ONLY;
 * kernels read it: not CL_MEM_WRITE_ONLY), large enough for elements
 * [off, off + need). */
oclblas_status oclblas__check_buffer(cl_mem buf, cl_context ctx, size_t off, size_t need, int access,
                                     oclblas_status null_status, oclblas_status small_status);
/* Whether vectors of `bytes` can be read from buf starting at element off:
 * the buffer's start and the offset are both multiples of bytes. Buffers
 * the implementation allocates start aligned far beyond that; a buffer over
 * the caller's host memory (CL_MEM_USE_HOST_PTR) is aligned as that memory is. */
int oclblas__aligned(cl_mem buf, size_t off, size_t bytes);
/* Elements spanned by a column-major rows x cols matrix with leading dimension ld. */
size_t oclblas__extent(size_t rows, size_t cols, size_t ld);
/* A marker on the queue as the call's event, for calls that enqueue nothing. */
oclblas_status oclblas__marker(cl_command_queue q, cl_event *event);

#endif
