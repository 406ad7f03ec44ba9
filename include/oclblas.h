/*
 * oclblas: SGEMM and SGEMV on any OpenCL device, with kernels whose
 * parameters are tuned per device. This is the whole public API.
 *
 * Thread safety: every function declared here may be called from several
 * threads at once. Calls on device buffers are asynchronous on the caller's
 * queue; the host-pointer calls are synchronous and use the default device.
 * The library never prints (except under OCLBLAS_VERBOSE=1, on stderr),
 * never aborts and never exits; every failure is a status, and a call that
 * fails leaves the caller's memory untouched.
 */
#ifndef OCLBLAS_H
#define OCLBLAS_H

/* No CL_TARGET_OPENCL_VERSION here: the includer's choice (or the OpenCL
 * headers' default) stands. The API needs only OpenCL 1.2 types. */
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif
#include <stddef.h>

#if defined(OCLBLAS_STATIC)
#define OCLBLAS_API
#elif defined(_WIN32)
#ifdef OCLBLAS_BUILDING
#define OCLBLAS_API __declspec(dllexport)
#else
#define OCLBLAS_API __declspec(dllimport)
#endif
#else
#define OCLBLAS_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define OCLBLAS_VERSION_MAJOR 0
#define OCLBLAS_VERSION_MINOR 1
#define OCLBLAS_VERSION_PATCH 0

typedef enum { OCLBLAS_ROW_MAJOR = 101, OCLBLAS_COL_MAJOR = 102 } oclblas_layout;
typedef enum { OCLBLAS_NO_TRANS = 111, OCLBLAS_TRANS = 112, OCLBLAS_CONJ_TRANS = 113 } oclblas_transpose;

/* Every status of the library, once: its name, its value and its message.
 * OpenCL error codes (-1 .. -72) pass through unchanged; the library's own
 * causes are below -1000, one code for each. X(name, value, message). */
#define OCLBLAS_STATUS_LIST(X) \
    X(OCLBLAS_SUCCESS, 0, "success") \
    X(OCLBLAS_INVALID_LAYOUT, -1001, "layout is neither row-major nor column-major") \
    /* INVALID_TRANS_A is also gemv's trans */ \
    X(OCLBLAS_INVALID_TRANS_A, -1002, "transpose of A is not one of no-trans, trans, conj-trans") \
    X(OCLBLAS_INVALID_TRANS_B, -1003, "transpose of B is not one of no-trans, trans, conj-trans") \
    X(OCLBLAS_INVALID_LDA, -1004, "lda is smaller than the rows (column-major) or columns (row-major) of A") \
    X(OCLBLAS_INVALID_LDB, -1005, "ldb is smaller than the rows (column-major) or columns (row-major) of B") \
    X(OCLBLAS_INVALID_LDC, -1006, "ldc is smaller than the rows (column-major) or columns (row-major) of C") \
    X(OCLBLAS_INVALID_INCX, -1007, "incx is zero") \
    X(OCLBLAS_INVALID_INCY, -1008, "incy is zero") \
    X(OCLBLAS_NULL_A, -1009, "A is NULL") \
    X(OCLBLAS_NULL_B, -1010, "B is NULL") \
    X(OCLBLAS_NULL_C, -1011, "C is NULL") \
    X(OCLBLAS_NULL_X, -1012, "x is NULL") \
    X(OCLBLAS_NULL_Y, -1013, "y is NULL") \
    X(OCLBLAS_NULL_QUEUE, -1014, "the command queue is NULL") \
    X(OCLBLAS_BUFFER_A_TOO_SMALL, -1015, "buffer A is too small for the offset, sizes and lda") \
    X(OCLBLAS_BUFFER_B_TOO_SMALL, -1016, "buffer B is too small for the offset, sizes and ldb") \
    X(OCLBLAS_BUFFER_C_TOO_SMALL, -1017, "buffer C is too small for the offset, sizes and ldc") \
    X(OCLBLAS_BUFFER_X_TOO_SMALL, -1018, "buffer x is too small for the offset, size and incx") \
    X(OCLBLAS_BUFFER_Y_TOO_SMALL, -1019, "buffer y is too small for the offset, size and incy") \
    X(OCLBLAS_BUFFER_CONTEXT_MISMATCH, -1020, "a buffer belongs to another OpenCL context than the queue") \
    X(OCLBLAS_SIZE_TOO_LARGE, -1021, \
      "an operand's extent (sizes, leading dimension or increment, offset) overflows the address space, " \
      "or a device call's leading dimension or increment exceeds the kernels' 32-bit range") \
    X(OCLBLAS_NO_DEVICE, -1022, "no OpenCL platform or device is available") \
    X(OCLBLAS_DEVICE_NOT_FOUND, -1023, "OCLBLAS_DEVICE names no available device") \
    X(OCLBLAS_INVALID_PARAMS, -1024, "kernel parameters break the kernel's constraints for this device") \
    X(OCLBLAS_UNKNOWN_KERNEL, -1025, "unknown kernel name") \
    X(OCLBLAS_UNKNOWN_PARAM, -1026, "unknown parameter name for this kernel") \
    X(OCLBLAS_BUILD_FAILED, -1027, "the OpenCL compiler rejected a kernel") \
    X(OCLBLAS_OUT_OF_HOST_MEMORY, -1028, "out of host memory") \
    X(OCLBLAS_DATABASE_PARSE_ERROR, -1029, "database file is not well-formed JSON") \
    X(OCLBLAS_DATABASE_INVALID_ENTRY, -1030, "database entry is missing fields or has illegal parameters") \
    X(OCLBLAS_DATABASE_FILE_ERROR, -1031, "database file or folder cannot be read") \
    X(OCLBLAS_INVALID_ARGUMENT, -1032, "invalid argument to a control function") \
    X(OCLBLAS_NOT_A_BUFFER, -1033, "a memory object is an image or a pipe, not a buffer") \
    X(OCLBLAS_READ_ONLY_OUTPUT, -1034, \
      "C or y is a read-only buffer (CL_MEM_READ_ONLY): kernels cannot write the result") \
    X(OCLBLAS_WRITE_ONLY_INPUT, -1035, \
      "a buffer the call reads (A, B, x, or C or y when beta is not 0) is write-only (CL_MEM_WRITE_ONLY)") \
    X(OCLBLAS_BATCH_OVERLAP, -1036, \
      "two problems of a batch would write the same element of C (or y): a stride or offset too small") \
    X(OCLBLAS_NULL_ARRAY, -1037, "an array argument of a grouped batch is NULL")

typedef enum {
#define OCLBLAS_STATUS_ENUMERATOR_(name, value, message) name = value,
    OCLBLAS_STATUS_LIST(OCLBLAS_STATUS_ENUMERATOR_)
#undef OCLBLAS_STATUS_ENUMERATOR_
} oclblas_status;

/* A short, constant English description of a status (OpenCL codes too);
 * "unknown status" for a code that is none. */
OCLBLAS_API const char *oclblas_status_string(oclblas_status status);

/* The status's name as a constant string: "OCLBLAS_INVALID_LDA", and for
 * OpenCL's codes their names in CL/cl.h ("CL_OUT_OF_RESOURCES"); "unknown"
 * for a code that is none. */
OCLBLAS_API const char *oclblas_status_name(oclblas_status status);

/* The library version as "major.minor.patch". */
OCLBLAS_API const char *oclblas_version(void);

/* The values of OCLBLAS_* environment variables that the library refused:
 * NULL when it took every one, else a line per refused value, separated
 * by "; ", that names the variable, the value, what it should be and the
 * default used in its place ("OCLBLAS_HOST_THREADS=0 is not a count from 1
 * to 64: the default, ..., is used"). A refused value never fails a call
 * by itself: its setting keeps the documented default (OCLBLAS_VERBOSE=1
 * logs each refusal too). Counts are decimal digits only, sizes digits
 * with an optional K, M, G or T, choices their names in any case, switches
 * 0 or 1; an empty variable is unset. The variables are read at the
 * library's first need, or by this function; an OCLBLAS_DATABASE path that
 * cannot be loaded, or an OCLBLAS_DEVICE that names no device, is reported
 * once the library first reads it (the first call on a device, or
 * oclblas_database_load). The string belongs to the calling thread, valid
 * until its next call of this function. */
OCLBLAS_API const char *oclblas_settings_error(void);

/* How SGEMM computes its products, for the whole process. No mode changes
 * the BLAS semantics: beta = 0 never reads C, Inf and NaN in A or B come
 * through as in FP32 arithmetic, and alpha, beta, transposes, leading
 * dimensions and offsets mean what they always do. SGEMV is always FP32.
 *   OCLBLAS_MATH_STRICT    FP32 fused multiply-adds only, on every device.
 *   OCLBLAS_MATH_ACCURATE  FP32 accuracy: on NVIDIA GPUs of compute
 *                          capability 8.0 and above, where the device's
 *                          database entry says it is faster for the shape,
 *                          the tensor cores compute each product from
 *                          the operands split exactly into three BF16
 *                          words each (the six products of words above
 *                          2^-25 of it), summed in FP32; never less
 *                          accurate than the FP32 kernels, where products
 *                          cancel too (docs/math-modes.md gives the
 *                          measurements). A tile of C whose sums
 *                          hold Inf, NaN or a magnitude near overflow is
 *                          recomputed with FP32 fused multiply-adds, so
 *                          these come out as FP32 arithmetic gives them.
 *                          Elsewhere, as strict. The default.
 *   OCLBLAS_MATH_TF32      on the same devices and shapes, one TF32 product
 *                          (10-bit mantissas), for callers who trade
 *                          accuracy for speed: about 1e-3 relative error
 *                          norm-wise (as cuBLAS's and PyTorch's TF32
 *                          modes); elsewhere, as strict.
 * OCLBLAS_MATH_MODE (strict, accurate or tf32) sets it at the first call
 * that needs it; oclblas_set_math_mode wins over it. */
typedef enum { OCLBLAS_MATH_STRICT = 1, OCLBLAS_MATH_ACCURATE = 2, OCLBLAS_MATH_TF32 = 3 } oclblas_math_mode;

/* Sets the mode of every later call in the process (calls already issued
 * keep theirs); OCLBLAS_INVALID_ARGUMENT for a value that is no mode. */
OCLBLAS_API oclblas_status oclblas_set_math_mode(oclblas_math_mode mode);
/* The mode in force. */
OCLBLAS_API oclblas_math_mode oclblas_get_math_mode(void);
/* The mode's name, "strict", "accurate" or "tf32" (as OCLBLAS_MATH_MODE
 * spells it); "unknown" for a value that is no mode. */
OCLBLAS_API const char *oclblas_math_mode_name(oclblas_math_mode mode);

/* Host memory, synchronous: on the devices of OCLBLAS_DEVICE or the host,
 * whichever is expected to finish first. A device that fails, or none at
 * all, costs only speed: the host computes the call. A status names a bad
 * argument (nothing is touched then), or a device that failed after
 * writing C in place while its old values were needed (beta != 0). */
OCLBLAS_API oclblas_status oclblas_sgemm(oclblas_layout layout, oclblas_transpose trans_a,
                                         oclblas_transpose trans_b, size_t m, size_t n, size_t k,
                                         float alpha, const float *a, size_t lda, const float *b,
                                         size_t ldb, float beta, float *c, size_t ldc);
OCLBLAS_API oclblas_status oclblas_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m,
                                         size_t n, float alpha, const float *a, size_t lda,
                                         const float *x, ptrdiff_t incx, float beta, float *y,
                                         ptrdiff_t incy);

/* What the calling thread's last host-pointer call (oclblas_sgemm,
 * oclblas_sgemv, the batched calls, whose problems count as its tiles, the
 * drop-in library's calls) did: where it ran, what the
 * cost model expected, what crossed the bus, how busy each device was (its
 * kernels' time by profiling events over the call's wall time). For
 * benchmarks and for checking a setup; a call refused for its arguments
 * leaves it as it was. Devices are numbered as OCLBLAS_DEVICE lists them.
 * Where no device can serve (none present, a kernel that does not build, a
 * device lost), the host computes the call and the report says so. */
#define OCLBLAS_REPORT_DEVICES 16
typedef struct {
    int on_device;                /* 1: one or more devices computed it (or part of it), 0: the host */
    char host_blas[256];          /* what computes on the host: a BLAS's file, or the library's own routine */
    double seconds;               /* the call's wall time */
    double model_host_s;          /* the cost model's estimate for the host (0: not estimated) */
    double model_device_s;        /* and for the device(s) */
    double bytes_to_device;       /* moved over the bus (or copied, on shared memory) */
    double bytes_from_device;
    unsigned long tiles;          /* tiles of C (1: an untiled call) */
    unsigned long tiles_on_host;  /* of those, computed by the host (a device failed or ran out of memory) */
    int devices;                  /* devices that took part */
    int failed_devices;           /* of those, how many failed during the call */
    struct {
        unsigned long tiles;      /* tiles it delivered */
        double busy_s;            /* its kernels' time */
    } device[OCLBLAS_REPORT_DEVICES];
    char reason[192];             /* how it ran and why, then what moved where a device failed: "tiles on 2
                                     devices (cost model: host 9.1 ms, device 3.2 ms); device 1 failed
                                     (out of resources), 3 of 12 tiles to the host" */
} oclblas_host_report;
OCLBLAS_API oclblas_status oclblas_host_report_get(oclblas_host_report *report);

/* Device buffers, asynchronous on the caller's queue; offsets in elements.
 * event, when not NULL, receives an event that completes when the result is
 * in c (or y); the caller releases it. */
OCLBLAS_API oclblas_status oclblas_sgemm_cl(oclblas_layout layout, oclblas_transpose trans_a,
                                            oclblas_transpose trans_b, size_t m, size_t n, size_t k,
                                            float alpha, cl_mem a, size_t a_offset, size_t lda,
                                            cl_mem b, size_t b_offset, size_t ldb, float beta,
                                            cl_mem c, size_t c_offset, size_t ldc,
                                            cl_command_queue queue, cl_event *event);
OCLBLAS_API oclblas_status oclblas_sgemv_cl(oclblas_layout layout, oclblas_transpose trans, size_t m,
                                            size_t n, float alpha, cl_mem a, size_t a_offset,
                                            size_t lda, cl_mem x, size_t x_offset, ptrdiff_t incx,
                                            float beta, cl_mem y, size_t y_offset, ptrdiff_t incy,
                                            cl_command_queue queue, cl_event *event);

/* Batches: many independent products in one call, each problem meaning
 * what the single call means with its arguments and checked by its rules;
 * the host-pointer forms are synchronous on the default device (or the
 * host BLAS, for small batches), the _cl forms asynchronous on the
 * caller's queue, as the single calls. The strided forms give every
 * problem one shape, problem i's operands i strides after problem 0's
 * (strides in elements; a stride of 0 for an input, A, B or x, gives every
 * problem the same one). No two problems may write the same element of C
 * (or y): outputs may interleave (a stride below a problem's span, heads
 * side by side in the rows of a larger C), but a batch in which two
 * problems would share an element is refused with OCLBLAS_BATCH_OVERLAP.
 * batch_count 0 does nothing (the arguments are still checked). A bad
 * argument in any problem refuses the whole call, and nothing is written
 * to any problem. On device buffers the last problem's operands must lie
 * inside their buffers (OCLBLAS_BUFFER_*_TOO_SMALL). */
OCLBLAS_API oclblas_status oclblas_sgemm_strided_batched(oclblas_layout layout, oclblas_transpose trans_a,
                                                         oclblas_transpose trans_b, size_t m, size_t n, size_t k,
                                                         float alpha, const float *a, size_t lda, size_t stride_a,
                                                         const float *b, size_t ldb, size_t stride_b, float beta,
                                                         float *c, size_t ldc, size_t stride_c, size_t batch_count);
OCLBLAS_API oclblas_status oclblas_sgemm_strided_batched_cl(oclblas_layout layout, oclblas_transpose trans_a,
                                                            oclblas_transpose trans_b, size_t m, size_t n, size_t k,
                                                            float alpha, cl_mem a, size_t a_offset, size_t lda,
                                                            size_t stride_a, cl_mem b, size_t b_offset, size_t ldb,
                                                            size_t stride_b, float beta, cl_mem c, size_t c_offset,
                                                            size_t ldc, size_t stride_c, size_t batch_count,
                                                            cl_command_queue queue, cl_event *event);

/* The grouped form: group_count groups, group g of group_size[g] problems
 * that share trans_a[g], trans_b[g], m[g], n[g], k[g], alpha[g], lda[g],
 * ldb[g], beta[g] and ldc[g] (the convention and argument order of MKL's
 * cblas_sgemm_batch and cuBLAS's grouped batch; groups of one give every
 * problem its own shape). The operands are listed problem by problem,
 * group after group: host pointers a[i], b[i], c[i], or element offsets
 * a_offsets[i], b_offsets[i], c_offsets[i] into three buffers (problems
 * packed one after the other run as few launches). Outputs of problems
 * whose C have different leading dimensions may not interleave: their
 * spans must not intersect. A NULL array where group_count > 0 is
 * OCLBLAS_NULL_ARRAY; a NULL operand that a problem needs is the single
 * call's status. */
OCLBLAS_API oclblas_status oclblas_sgemm_grouped_batched(
    oclblas_layout layout, const oclblas_transpose *trans_a, const oclblas_transpose *trans_b, const size_t *m,
    const size_t *n, const size_t *k, const float *alpha, const float *const *a, const size_t *lda,
    const float *const *b, const size_t *ldb, const float *beta, float *const *c, const size_t *ldc,
    size_t group_count, const size_t *group_size);
OCLBLAS_API oclblas_status oclblas_sgemm_grouped_batched_cl(
    oclblas_layout layout, const oclblas_transpose *trans_a, const oclblas_transpose *trans_b, const size_t *m,
    const size_t *n, const size_t *k, const float *alpha, cl_mem a, const size_t *a_offsets, const size_t *lda,
    cl_mem b, const size_t *b_offsets, const size_t *ldb, const float *beta, cl_mem c, const size_t *c_offsets,
    const size_t *ldc, size_t group_count, const size_t *group_size, cl_command_queue queue, cl_event *event);

/* Strided-batched SGEMV: problem i computes y_i = alpha op(A_i) x_i + beta y_i,
 * the memory of A_i, x_i and y_i starting stride_a, stride_x and stride_y
 * elements after that of A_0, x_0 and y_0 (a negative increment walks each
 * problem's vector from its far end, as in the single call). */
OCLBLAS_API oclblas_status oclblas_sgemv_strided_batched(oclblas_layout layout, oclblas_transpose trans, size_t m,
                                                         size_t n, float alpha, const float *a, size_t lda,
                                                         size_t stride_a, const float *x, ptrdiff_t incx,
                                                         size_t stride_x, float beta, float *y, ptrdiff_t incy,
                                                         size_t stride_y, size_t batch_count);
OCLBLAS_API oclblas_status oclblas_sgemv_strided_batched_cl(oclblas_layout layout, oclblas_transpose trans,
                                                            size_t m, size_t n, float alpha, cl_mem a,
                                                            size_t a_offset, size_t lda, size_t stride_a, cl_mem x,
                                                            size_t x_offset, ptrdiff_t incx, size_t stride_x,
                                                            float beta, cl_mem y, size_t y_offset, ptrdiff_t incy,
                                                            size_t stride_y, size_t batch_count,
                                                            cl_command_queue queue, cl_event *event);

/* The device, context and queue that the host-pointer calls use (chosen once
 * from OCLBLAS_DEVICE, else the first GPU, accelerator, CPU; when
 * OCLBLAS_DEVICE names several, the first, and host-pointer SGEMM spreads
 * over all of them). Any output pointer may be NULL. The handles stay
 * owned by the library. */
OCLBLAS_API oclblas_status oclblas_default_device(cl_device_id *device, cl_context *context,
                                                  cl_command_queue *queue);

/* The device as the database names it, a JSON object ready to paste into a
 * database entry: {"vendor": ..., "type": ..., "architecture": ..., "name": ...}.
 * A buffer that is too small gets nothing and OCLBLAS_INVALID_ARGUMENT. */
OCLBLAS_API oclblas_status oclblas_device_description(cl_device_id device, char *buf, size_t len);

/* Parameters of one kernel for one device (NULL: every device), winning over
 * the database. params is a list "NAME=VALUE" separated by commas or spaces;
 * names it leaves out keep the value the database gives. params NULL or ""
 * removes the override. Kernels: "gemm_fast", "gemm_direct", "gemm_tc"
 * (the tensor-core kernel of the accurate and tf32 modes), "helpers",
 * "gemv_n", "gemv_t", and "routine" for routine-level values. The set is
 * validated against the kernel's constraint table before it is accepted. */
OCLBLAS_API oclblas_status oclblas_override_params(cl_device_id device, const char *kernel,
                                                   const char *params);

/* Writes into buf (NUL-terminated, at most len bytes) the parameters that
 * a kernel would use on a device, as "NAME=VALUE,...;where they came from"
 * (the database entry and the level at which it matched): its set for every
 * shape, with the entry's classes of shapes that have sets of their own
 * named after the origin ("..., and classes narrow-m, deep"). A buffer that
 * is too small gets nothing and OCLBLAS_INVALID_ARGUMENT. */
OCLBLAS_API oclblas_status oclblas_get_params(cl_device_id device, const char *kernel, char *buf,
                                              size_t len);

/* Loads database entries (a JSON file or a folder of them) that win over the
 * compiled-in ones, as OCLBLAS_DATABASE does at start. */
OCLBLAS_API oclblas_status oclblas_database_load(const char *path);

/* Lets go of everything the library holds for one OpenCL context: its
 * built programs and kernels, scratch buffers and events, and the
 * library's references to the context (binaries stay in memory and on
 * disk, so a later call on the context loads instead of compiling). Other
 * contexts are not touched, and calls on them may run meanwhile. Calls on
 * this context that are running meanwhile complete correctly (what they
 * use lives until they are done); later calls on it work and make what
 * they need again. A context the library does not hold, or one already
 * released by the caller, is fine (the handle is only compared).
 * Without this call, a context is let go of once its caller has released
 * it (every handle of the caller's on it, queues and buffers included):
 * the library checks the contexts it holds when it first sees another. */
OCLBLAS_API oclblas_status oclblas_context_release(cl_context context);

/* Program cache. what: OCLBLAS_CACHE_MEMORY drops built programs and kernels
 * held in memory (and the contexts they hold), OCLBLAS_CACHE_DISK deletes
 * the binaries in the cache folder. */
#define OCLBLAS_CACHE_MEMORY 1
#define OCLBLAS_CACHE_DISK 2
OCLBLAS_API oclblas_status oclblas_cache_clear(int what);

/* Builds (or loads from the disk cache) every kernel that the device's
 * database entry needs, so that later calls compile nothing. */
OCLBLAS_API oclblas_status oclblas_cache_fill(cl_device_id device);

/* Counters of the program cache since the process started, for tests and
 * benchmarks: programs found in memory, loaded from disk binaries, built
 * from source, and disk files found invalid and removed. */
typedef struct {
    unsigned long memory_hits;
    unsigned long disk_hits;
    unsigned long builds;
    unsigned long disk_rejects;
} oclblas_cache_stats;
OCLBLAS_API oclblas_status oclblas_cache_get_stats(oclblas_cache_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
