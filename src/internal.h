/*
 * Declarations shared between the library's source files (and the tuner,
 * which links the same objects): kernel parameter tables, device facts,
 * the database, the program cache, scratch buffers and small utilities.
 * Nothing here is exported from the shared library.
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

/* ---- kernel parameter tables (params.c) -------------------------------- */

typedef enum {
    OCLBLAS__K_GEMM_FAST,
    OCLBLAS__K_GEMM_DIRECT,
    OCLBLAS__K_HELPERS,
    OCLBLAS__K_GEMV_N,
    OCLBLAS__K_GEMV_T,
    OCLBLAS__K_ROUTINE, /* routine-level values, no kernel of its own */
    OCLBLAS__K_COUNT
} oclblas__kernel_id;

typedef struct {
    const char *name;
    int min, max;             /* legal range; the kernel's check adds the rest */
    int num_candidates;       /* the tuner's search values */
    int candidates[OCLBLAS__MAX_CANDIDATES];
} oclblas__param_def;

/* What a device allows: the device-dependent half of legality. */
typedef struct {
    size_t max_wg_size;
    size_t max_item[3];
    unsigned long long local_mem;
} oclblas__limits;

typedef struct {
    int v[OCLBLAS__MAX_PARAMS];
} oclblas__params;

typedef struct {
    const char *name;   /* "gemm_fast", the name in database files and overrides */
    int source;         /* oclblas__source_id of its .cl file, -1 for the routine values */
    int num_params;
    const oclblas__param_def *params;
    oclblas__params defaults; /* legal on any OpenCL 1.2 device */
    /* NULL when v is legal, else why not. lim NULL: device-independent rules only. */
    const char *(*check)(const int *v, const oclblas__limits *lim);
} oclblas__kernel_def;

extern const oclblas__kernel_def oclblas__kernels[OCLBLAS__K_COUNT];

int oclblas__kernel_by_name(const char *name); /* -1 when unknown */
int oclblas__param_index(int kernel, const char *name);
/* Legal range and the kernel's rules; why receives the reason (may be NULL). */
int oclblas__params_legal(int kernel, const oclblas__params *p, const oclblas__limits *lim,
                          const char **why);
/* "-DNAME=VALUE ..." for the kernel's parameters into buf. */
void oclblas__params_defines(int kernel, const oclblas__params *p, char *buf, size_t len);
/* "NAME=VALUE,..." */
void oclblas__params_format(int kernel, const oclblas__params *p, char *buf, size_t len);
/* Parses "NAME=VALUE" items separated by commas or spaces on top of *p. */
oclblas_status oclblas__params_parse(int kernel, const char *text, oclblas__params *p);

/* Parameter indices, in table order. */
enum { GF_MWG, GF_NWG, GF_KWG, GF_MDIMC, GF_NDIMC, GF_MDIMA, GF_NDIMB, GF_KWI, GF_VWM, GF_VWN,
       GF_STRM, GF_STRN, GF_SA, GF_SB, GF_COUNT };
enum { GD_WGD, GD_KWGD, GD_MDIMCD, GD_NDIMCD, GD_KWID, GD_PADA, GD_PADB, GD_COUNT };
enum { HP_PAD_DIMX, HP_PAD_DIMY, HP_PAD_WPTX, HP_PAD_WPTY, HP_TRA_DIM, HP_TRA_WPT, HP_TRA_PAD,
       HP_COUNT };
enum { GN_WGS, GN_WPT, GN_VW, GN_UNR, GN_COUNT };
enum { GT_WGS, GT_TPC, GT_VW, GT_UNR, GT_COUNT };
enum { RT_GEMM_MIN_INDIRECT, RT_GEMV_GROUPS_PER_CU, RT_HOST_MAX, RT_GEMM_SPLIT_K, RT_COUNT };

/* ---- embedded kernel sources (generated: kernels.c) -------------------- */

typedef enum { OCLBLAS__SRC_GEMM_FAST, OCLBLAS__SRC_GEMM_DIRECT, OCLBLAS__SRC_HELPERS,
               OCLBLAS__SRC_GEMV_N, OCLBLAS__SRC_GEMV_T, OCLBLAS__SRC_COUNT } oclblas__source_id;
extern const char *const oclblas__sources[OCLBLAS__SRC_COUNT];
extern const char *const oclblas__source_names[OCLBLAS__SRC_COUNT];

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

/* ---- database (database.c, dbparse.c, generated database_builtin.c) ---- */

typedef struct {
    char vendor[32], type[16], arch[64], name[256]; /* "" matches anything */
    char tool[64], driver[128], date[32], sizes[128];
    char origin[256]; /* file it came from */
    unsigned has;     /* bit per oclblas__kernel_id */
    int values[OCLBLAS__K_COUNT][OCLBLAS__MAX_PARAMS];
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

/* ---- program cache (progcache.c) --------------------------------------- */

typedef struct oclblas__program oclblas__program;
/* The built program for (context, device, kernel table, parameters), from
 * memory, the disk cache or a build; the parameters are validated for the
 * device first. The caller holds a reference until oclblas__program_release. */
oclblas_status oclblas__program_get(cl_context ctx, const oclblas__device_info *dev, int kernel,
                                    const oclblas__params *p, oclblas__program **out);
void oclblas__program_release(oclblas__program *prog);
/* Drops the memory cache's programs of one context (binaries stay). */
void oclblas__programs_drop_context(cl_context ctx);
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

/* A kernel taken from the cache for one call (launch.c). */
typedef struct {
    oclblas__program *prog;
    cl_kernel kernel;
    const char *name;
} oclblas__kref;
oclblas_status oclblas__kref_get(cl_context ctx, const oclblas__device_info *dev, int table,
                                 const oclblas__params *p, const char *name, oclblas__kref *out);
void oclblas__kref_put(oclblas__kref *r); /* no-op on a zeroed kref */

typedef struct {
    size_t size;
    const void *value;
} oclblas__arg;
#define OCLBLAS__ARG(x) ((oclblas__arg){sizeof(x), &(x)})
/* Sets the arguments and enqueues an NDRange (dims 1 or 2). */
oclblas_status oclblas__launch(cl_command_queue q, const oclblas__kref *k, const oclblas__arg *args, int nargs,
                               int dims, const size_t *global, const size_t *local, cl_uint num_wait,
                               const cl_event *wait, cl_event *event);

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
void oclblas__scratch_clear(void);

/* ---- routines (gemm.c, gemv.c) ----------------------------------------- */

/* The column-major core of oclblas_sgemm_cl, with arguments already checked. */
oclblas_status oclblas__sgemm_colmajor(int trans_a, int trans_b, size_t m, size_t n, size_t k,
                                       float alpha, cl_mem a, size_t a_off, size_t lda, cl_mem b,
                                       size_t b_off, size_t ldb, float beta, cl_mem c, size_t c_off,
                                       size_t ldc, cl_command_queue queue, cl_event *event);

/* The column-major core of oclblas_sgemv_cl: y = alpha * op(A) x + beta * y
 * with A rows x cols; x_start and y_start are the elements of x[0] and y[0]
 * (for a negative increment, the last element in memory). */
oclblas_status oclblas__sgemv_colmajor(int trans, size_t rows, size_t cols, float alpha, cl_mem a, size_t a_off,
                                       size_t lda, cl_mem x, size_t x_start, ptrdiff_t incx, float beta, cl_mem y,
                                       size_t y_start, ptrdiff_t incy, cl_command_queue queue, cl_event *event);
/* C = beta * C on a rows x cols block (also a strided vector: rows 1, ld = |inc|). */
oclblas_status oclblas__scale(cl_context ctx, const oclblas__device_info *dev, size_t rows, size_t cols, float beta,
                              cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_event *event);

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

/* Queue facts needed by every routine. */
oclblas_status oclblas__queue_info(cl_command_queue q, cl_context *ctx, cl_device_id *dev);
/* Checks a buffer: not NULL, same context, large enough for elements
 * [off, off + need) and inside 32-bit indexing. */
oclblas_status oclblas__check_buffer(cl_mem buf, cl_context ctx, size_t off, size_t need,
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
