/*
 * The program cache: a process never compiles what it, or an earlier
 * process, already compiled. Three levels, tried in order:
 *   memory   built programs per (context, device, kernel table, options),
 *            each with a pool of kernel objects so that calls create none;
 *   binaries program binaries per key, in memory, so that a new context on
 *            the same device loads instead of compiling;
 *   disk     the same binaries in the cache folder, for later processes
 *            (cache/disk.c).
 * The key hashes platform and device name, driver version, library
 * version, kernel source and build options. A binary from disk that the
 * driver refuses, or whose kernels are not the ones its file lists, is
 * dropped from the disk and the program is built from source. Threads
 * asking for a program that another thread is building wait for it
 * instead of building it again.
 */
#include "runtime/programs.h"
#include "cache/disk.h"
#include "runtime/devctx.h"
#include "runtime/lifetime.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BUILDING, READY, FAILED };

struct oclblas__program {
    cl_context ctx;
    cl_device_id dev;
    int table;
    oclblas__params params; /* what it was built from, with extra: the lookup of a call */
    char *extra;            /* OCLBLAS_BUILD_OPTIONS then ("" when unset) */
    char *options;
    uint64_t hash;
    int state;
    oclblas_status failure;
    int refs; /* the cache list holds one while the entry is listed */
    int dropped; /* let go of while it was being built: unlisted once built */
    cl_program program;
    pthread_mutex_t pool_lock;
    oclblas__kernel *pool; /* kernel objects not in use */
    struct oclblas__program *next;
};

typedef struct binary {
    char *key;
    unsigned char *data;
    size_t len;
    struct binary *next;
} binary;

typedef struct building {
    const char *key;
    struct building *next;
} building;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cache_cond = PTHREAD_COND_INITIALIZER;
static oclblas__program *programs;
static binary *binaries;
static building *builds_in_flight; /* keys being compiled from source right now, in any context */
static oclblas_cache_stats stats;
/* fmt printed into buf when it fits (the common case: no allocation on a
 * call's path), else into memory of its own length, never cut; NULL when
 * out of memory. A result other than buf is the caller's to free. */
static char *print(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *print(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    if ((size_t)n < len)
        return buf;
    char *text = malloc((size_t)n + 1);
    if (!text)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return text;
}

/* ---- binaries in memory ------------------------------------------------ */

static unsigned char *memory_binary(const char *key, size_t *len)
{
    unsigned char *copy = NULL;
    oclblas__mutex_lock(&cache_lock);
    for (binary *b = binaries; b; b = b->next) {
        if (strcmp(b->key, key) == 0) {
            copy = malloc(b->len);
            if (copy) {
                memcpy(copy, b->data, b->len);
                *len = b->len;
            }
            break;
        }
    }
    oclblas__mutex_unlock(&cache_lock);
    return copy;
}

static void remember_binary(const char *key, const unsigned char *data, size_t len)
{
    binary *b = malloc(sizeof *b);
    char *k = strdup(key);
    unsigned char *d = malloc(len);
    if (!b || !k || !d) {
        free(b);
        free(k);
        free(d);
        return;
    }
    memcpy(d, data, len);
    b->key = k;
    b->data = d;
    b->len = len;
    oclblas__mutex_lock(&cache_lock);
    for (binary *o = binaries; o; o = o->next) {
        if (strcmp(o->key, key) == 0) {
            oclblas__mutex_unlock(&cache_lock);
            free(b);
            free(k);
            free(d);
            return;
        }
    }
    b->next = binaries;
    binaries = b;
    oclblas__mutex_unlock(&cache_lock);
}

static void forget_binary(const char *key)
{
    oclblas__mutex_lock(&cache_lock);
    for (binary **pp = &binaries; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->key, key) == 0) {
            binary *b = *pp;
            *pp = b->next;
            free(b->key);
            free(b->data);
            free(b);
            break;
        }
    }
    oclblas__mutex_unlock(&cache_lock);
}

/* ---- building ---------------------------------------------------------- */

static cl_program from_binary(cl_context ctx, cl_device_id dev, const unsigned char *data, size_t len,
                              const char *options)
{
    cl_int err, bin_status;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, &data, &bin_status, &err);
    if (err != CL_SUCCESS || bin_status != CL_SUCCESS) {
        if (p)
            clReleaseProgram(p);
        return NULL;
    }
    if (clBuildProgram(p, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

static unsigned char *program_binary(cl_program p, size_t *len)
{
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0 ||
        size > OCLBLAS__CACHE_MAX_BINARY)
        return NULL;
    unsigned char *data = malloc(size);
    if (!data)
        return NULL;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof data, &data, NULL) != CL_SUCCESS) {
        free(data);
        return NULL;
    }
    *len = size;
    return data;
}

static void log_build_failure(cl_program p, cl_device_id dev, const char *what)
{
    if (!oclblas__verbose())
        return;
    size_t size = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = size ? malloc(size + 1) : NULL;
    if (log && clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
        log[size] = '\0';
        oclblas__log("build of %s failed:\n%s", what, log);
    } else {
        oclblas__log("build of %s failed", what);
    }
    free(log);
}

/* Claims the right to compile key from source. When another thread (for
 * another context) is compiling the same key, waits for it and returns 0:
 * its binary is then in memory. */
static int claim_build(building *me)
{
    oclblas__mutex_lock(&cache_lock);
    int waited = 0;
    for (;;) {
        const building *b = builds_in_flight;
        while (b && strcmp(b->key, me->key) != 0)
            b = b->next;
        if (!b)
            break;
        waited = 1;
        pthread_cond_wait(&cache_cond, &cache_lock);
    }
    if (!waited) {
        me->next = builds_in_flight;
        builds_in_flight = me;
    }
    oclblas__mutex_unlock(&cache_lock);
    return !waited;
}

static void release_build(building *me)
{
    oclblas__mutex_lock(&cache_lock);
    for (building **pp = &builds_in_flight; *pp; pp = &(*pp)->next)
        if (*pp == me) {
            *pp = me->next;
            break;
        }
    pthread_cond_broadcast(&cache_cond);
    oclblas__mutex_unlock(&cache_lock);
}

static oclblas_status load_or_build(oclblas__program *e, const oclblas__device_info *dev, const char *key,
                                        const char *what);

static oclblas_status obtain(oclblas__program *e, const oclblas__device_info *dev, const char *key,
                             const char *what)
{
    for (;;) {
        size_t len = 0;
        unsigned char *bin = memory_binary(key, &len);
        if (bin) {
            e->program = from_binary(e->ctx, e->dev, bin, len, e->options);
            free(bin);
            if (e->program) {
                oclblas__log("cache: %s loaded from a binary in memory", what);
                oclblas__mutex_lock(&cache_lock);
                ++stats.disk_hits; /* counted with disk loads: no compilation happened */
                oclblas__mutex_unlock(&cache_lock);
                return OCLBLAS_SUCCESS;
            }
            forget_binary(key);
        }
        /* One thread per key goes to the disk or the compiler; the others
         * (other contexts on the same device) wait and load its binary. */
        building me = {key, NULL};
        if (!claim_build(&me))
            continue;
        const oclblas_status st = load_or_build(e, dev, key, what);
        release_build(&me);
        return st;
    }
}

/* The kernel names a program built from source lists, ';'-separated
 * (malloc'ed), or NULL: then its binary is not written to disk, since a
 * later load could not be checked against them. */
static char *program_kernel_names(cl_program p)
{
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size) != CL_SUCCESS || size < 2 ||
        size > OCLBLAS__CACHE_MAX_NAMES)
        return NULL;
    char *names = malloc(size);
    if (names && (clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, size, names, NULL) != CL_SUCCESS ||
                  names[size - 1] != '\0' || !oclblas__cache_names_valid(names, strlen(names)))) {
        free(names);
        names = NULL;
    }
    return names;
}

/* NULL when every kernel of p can be created and they are exactly the
 * kernels that the file says its program has; else why not. A binary of
 * another program, or one the driver accepts but cannot make kernels of,
 * would otherwise fail every later call of every process. */
static const char *kernels_match(cl_program p, const char *names, size_t names_len)
{
    static const char *const cannot = "the driver cannot create its kernels";
    cl_uint n = 0;
    if (clCreateKernelsInProgram(p, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return cannot;
    cl_uint expected = 1;
    for (size_t i = 0; i < names_len; ++i)
        expected += names[i] == ';';
    if (n != expected)
        return "its kernels are not its program's";
    cl_kernel *k = calloc(n, sizeof *k);
    if (!k)
        return cannot;
    const char *why = NULL;
    if (clCreateKernelsInProgram(p, n, k, NULL) != CL_SUCCESS) {
        why = cannot;
        n = 0;
    }
    for (cl_uint i = 0; i < n; ++i) {
        char name[OCLBLAS__CACHE_MAX_NAMES];
        size_t len = 0;
        if (!why && (clGetKernelInfo(k[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, &len) != CL_SUCCESS ||
                     len < 2 || name[len - 1] != '\0'))
            why = cannot;
        if (!why) {
            /* Names are distinct, so equal counts and each one listed mean the same set. */
            const size_t nl = len - 1;
            const char *at = names, *end = names + names_len;
            int found = 0;
            while (!found && at < end) {
                const char *semi = memchr(at, ';', (size_t)(end - at));
                const char *stop = semi ? semi : end;
                found = (size_t)(stop - at) == nl && memcmp(at, name, nl) == 0;
                at = stop + 1;
            }
            if (!found)
                why = "its kernels are not its program's";
        }
        clReleaseKernel(k[i]);
    }
    free(k);
    return why;
}

/* From the disk cache, else from source (and then into both caches). */
static oclblas_status load_or_build(oclblas__program *e, const oclblas__device_info *dev, const char *key,
                                        const char *what)
{
    const double t0 = oclblas__now() * 1e3;
    oclblas__disk_entry d;
    if (oclblas__disk_take(key, &d)) {
        e->program = from_binary(e->ctx, e->dev, d.parts.binary, d.parts.binary_len, e->options);
        const char *bad = e->program ? kernels_match(e->program, d.parts.names, d.parts.names_len)
                                     : "the driver did not accept the binary";
        if (!bad) {
            remember_binary(key, d.parts.binary, d.parts.binary_len);
            oclblas__disk_keep(&d);
            oclblas__log("cache: %s loaded from disk in %.1f ms", what, oclblas__now() * 1e3 - t0);
            oclblas__mutex_lock(&cache_lock);
            ++stats.disk_hits;
            oclblas__mutex_unlock(&cache_lock);
            return OCLBLAS_SUCCESS;
        }
        if (e->program) {
            clReleaseProgram(e->program);
            e->program = NULL;
        }
        oclblas__disk_drop(&d, bad);
    }

    const char *src = oclblas__kernels[e->table]->source;
    cl_int err;
    cl_program p = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    err = clBuildProgram(p, 1, &e->dev, e->options, NULL, NULL);
    if (err != CL_SUCCESS) {
        log_build_failure(p, e->dev, what);
        clReleaseProgram(p);
        return err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS ? OCLBLAS_BUILD_FAILED
                                                                                   : (oclblas_status)err;
    }
    e->program = p;
    oclblas__mutex_lock(&cache_lock);
    ++stats.builds;
    oclblas__mutex_unlock(&cache_lock);
    oclblas__log("cache: %s built from source in %.1f ms on %s", what, oclblas__now() * 1e3 - t0, dev->name);
    size_t len = 0;
    unsigned char *bin = program_binary(p, &len);
    if (bin) {
        remember_binary(key, bin, len);
        char *names = program_kernel_names(p);
        if (names)
            oclblas__disk_write(key, names, bin, len);
        free(names);
        free(bin);
    }
    return OCLBLAS_SUCCESS;
}

static void free_program(oclblas__program *e)
{
    for (oclblas__kernel *k = e->pool; k;) {
        oclblas__kernel *next = k->next;
        clReleaseKernel(k->kernel);
        free(k);
        k = next;
    }
    if (e->program)
        clReleaseProgram(e->program);
    clReleaseContext(e->ctx);
    pthread_mutex_destroy(&e->pool_lock);
    free(e->options);
    free(e->extra);
    free(e);
}

void oclblas__program_release(oclblas__program *e)
{
    if (!e)
        return;
    oclblas__mutex_lock(&cache_lock);
    const int last = --e->refs == 0;
    oclblas__mutex_unlock(&cache_lock);
    if (last)
        free_program(e);
}

static void unlink_locked(oclblas__program *e)
{
    for (oclblas__program **pp = &programs; *pp; pp = &(*pp)->next) {
        if (*pp == e) {
            *pp = e->next;
            return;
        }
    }
}

/* The memory cache as the lifetime of contexts sees it (runtime/lifetime.c). */
static int context_refs(cl_context ctx, int per_program, int per_buffer, int *writers)
{
    *writers = 0;
    return oclblas__programs_refs(ctx, per_program);
}
static const oclblas__context_user context_user = {context_refs, oclblas__programs_drop_context};

oclblas_status oclblas__program_get(cl_context ctx, const oclblas__device_info *dev, int table,
                                    const oclblas__params *p, oclblas__program **out)
{
    const char *extra = getenv("OCLBLAS_BUILD_OPTIONS");
    /* A program built before from these very parameters and options, found
     * without writing its options out (which costs a call more host time
     * than the rest of its planning). */
    oclblas__mutex_lock(&cache_lock);
    for (oclblas__program *e = programs; e; e = e->next) {
        if (e->state == READY && !e->dropped && e->ctx == ctx && e->dev == dev->id && e->table == table &&
            !memcmp(&e->params, p, sizeof *p) && strcmp(e->extra, extra ? extra : "") == 0) {
            ++e->refs;
            ++stats.memory_hits;
            oclblas__mutex_unlock(&cache_lock);
            *out = e;
            return OCLBLAS_SUCCESS;
        }
    }
    oclblas__mutex_unlock(&cache_lock);

    const oclblas__kernel_desc *kd = oclblas__kernels[table];
    const char *why;
    if (!oclblas__params_legal(table, p, &dev->lim, &why)) {
        oclblas__log("%s parameters refused for %s: %s", kd->name, dev->name, why);
        return OCLBLAS_INVALID_PARAMS;
    }
    /* The options and the key at their full length: a cut string would
     * drop the caller's options and let two option strings share a key. */
    char defines[1024];
    oclblas__params_defines(table, p, defines, sizeof defines);
    if (strlen(defines) + 1 >= sizeof defines)
        return OCLBLAS_INVALID_PARAMS; /* more than any parameter table writes */
    char options_buf[1024];
    char *options = print(options_buf, sizeof options_buf, "-cl-std=CL1.2 %s%s%s%s", defines,
                          strcmp(dev->vendor, "nvidia") == 0 ? " -DOCLBLAS_NVIDIA=1" : "", extra && *extra ? " " : "",
                          extra ? extra : "");
    if (!options)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    const uint64_t hash =
        oclblas__fnv1a(options, strlen(options), oclblas__fnv1a(&table, sizeof table, OCLBLAS__FNV_SEED));

    oclblas__mutex_lock(&cache_lock);
    for (;;) {
        oclblas__program *e = programs;
        while (e && !(e->hash == hash && e->ctx == ctx && e->dev == dev->id && e->table == table && !e->dropped &&
                      strcmp(e->options, options) == 0))
            e = e->next;
        if (!e)
            break;
        if (e->state == READY) {
            ++e->refs;
            ++stats.memory_hits;
            oclblas__mutex_unlock(&cache_lock);
            if (options != options_buf)
                free(options);
            *out = e;
            return OCLBLAS_SUCCESS;
        }
        if (e->state == FAILED) {
            const oclblas_status st = e->failure;
            oclblas__mutex_unlock(&cache_lock);
            if (options != options_buf)
                free(options);
            return st;
        }
        pthread_cond_wait(&cache_cond, &cache_lock);
    }
    oclblas__context_user_add(&context_user);
    oclblas__program *e = calloc(1, sizeof *e);
    char *opts = options == options_buf ? strdup(options) : options;
    const char *src = kd->source;
    /* The key: everything that could change the binary. */
    char *key = print(NULL, 0, "oclblas %s\nplatform %s\ndevice %s\ndriver %s\nsource %s %016llx\noptions %s",
                      OCLBLAS_VERSION_STRING, dev->platform_name, dev->name, dev->driver,
                      kd->name, (unsigned long long)oclblas__fnv1a(src, strlen(src), OCLBLAS__FNV_SEED), opts);
    char *extra_copy = strdup(extra ? extra : "");
    if (!e || !opts || !key || !extra_copy) {
        oclblas__mutex_unlock(&cache_lock);
        free(e);
        free(opts);
        free(key);
        free(extra_copy);
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    e->ctx = ctx;
    e->dev = dev->id;
    e->table = table;
    e->params = *p;
    e->extra = extra_copy;
    e->options = opts;
    e->hash = hash;
    e->state = BUILDING;
    e->refs = 1;
    pthread_mutex_init(&e->pool_lock, NULL);
    clRetainContext(ctx);
    e->next = programs;
    programs = e;
    oclblas__mutex_unlock(&cache_lock);
    /* After the entry is listed, so that whoever lets go of the context
     * meanwhile finds it. */
    oclblas__context_hold(ctx);

    char what[1100];
    snprintf(what, sizeof what, "%s [%s]", kd->name, defines);
    const oclblas_status st = obtain(e, dev, key, what);
    free(key);

    oclblas__mutex_lock(&cache_lock);
    int unlisted = 0;
    if (st == OCLBLAS_SUCCESS) {
        e->state = READY;
        if (e->dropped)
            unlink_locked(e); /* the list's reference becomes the caller's */
        else
            ++e->refs;
    } else if (st == OCLBLAS_BUILD_FAILED && !e->dropped) {
        /* The same source and options will fail again: remember it. */
        e->state = FAILED;
        e->failure = st;
    } else {
        /* Possibly transient (out of resources): let a later call try again. */
        unlink_locked(e);
        unlisted = 1;
        e->state = FAILED;
        e->failure = st;
    }
    pthread_cond_broadcast(&cache_cond);
    oclblas__mutex_unlock(&cache_lock);
    if (st != OCLBLAS_SUCCESS) {
        if (unlisted)
            oclblas__program_release(e);
        return st;
    }
    *out = e;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__kernel_take(oclblas__program *prog, const char *name, oclblas__kernel **out)
{
    oclblas__mutex_lock(&prog->pool_lock);
    for (oclblas__kernel **pp = &prog->pool; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            oclblas__kernel *k = *pp;
            *pp = k->next;
            oclblas__mutex_unlock(&prog->pool_lock);
            *out = k;
            return OCLBLAS_SUCCESS;
        }
    }
    oclblas__mutex_unlock(&prog->pool_lock);
    oclblas__kernel *k = calloc(1, sizeof *k);
    if (!k)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    cl_int err;
    k->kernel = clCreateKernel(prog->program, name, &err);
    if (err != CL_SUCCESS) {
        free(k);
        return (oclblas_status)err;
    }
    oclblas__strlcpy(k->name, name, sizeof k->name);
    *out = k;
    return OCLBLAS_SUCCESS;
}

void oclblas__kernel_put(oclblas__program *prog, oclblas__kernel *k)
{
    oclblas__mutex_lock(&prog->pool_lock);
    k->next = prog->pool;
    prog->pool = k;
    oclblas__mutex_unlock(&prog->pool_lock);
}

/* ---- control ----------------------------------------------------------- */

/* Unlists the programs of ctx (NULL: all); one being built is unlisted by
 * its builder when it is done. A program still in use lives on until its
 * users release it. */
void oclblas__programs_drop_context(cl_context ctx)
{
    oclblas__program *dropped = NULL;
    oclblas__mutex_lock(&cache_lock);
    for (oclblas__program **pp = &programs; *pp;) {
        oclblas__program *e = *pp;
        if (ctx && e->ctx != ctx) {
            pp = &e->next;
        } else if (e->state == BUILDING) {
            e->dropped = 1;
            pp = &e->next;
        } else {
            *pp = e->next;
            e->next = dropped;
            dropped = e;
        }
    }
    oclblas__mutex_unlock(&cache_lock);
    while (dropped) {
        oclblas__program *next = dropped->next;
        oclblas__program_release(dropped);
        dropped = next;
    }
}

int oclblas__programs_refs(cl_context ctx, int per_program)
{
    int refs = 0;
    oclblas__mutex_lock(&cache_lock);
    for (const oclblas__program *e = programs; e && refs >= 0; e = e->next) {
        if (e->ctx != ctx)
            continue;
        if (e->state == BUILDING)
            refs = -1;
        else
            refs += 1 + (e->program ? per_program : 0);
    }
    oclblas__mutex_unlock(&cache_lock);
    return refs;
}

size_t oclblas__programs_held(void)
{
    size_t n = 0;
    oclblas__mutex_lock(&cache_lock);
    for (const oclblas__program *e = programs; e; e = e->next)
        ++n;
    oclblas__mutex_unlock(&cache_lock);
    return n;
}

oclblas_status oclblas_cache_clear(int what)
{
    if (what & ~(OCLBLAS_CACHE_MEMORY | OCLBLAS_CACHE_DISK) || !what)
        return OCLBLAS_INVALID_ARGUMENT;
    if (what & OCLBLAS_CACHE_MEMORY) {
        oclblas__context_drop(NULL); /* programs, scratch, and the contexts they held */
        oclblas__mutex_lock(&cache_lock);
        binary *b = binaries;
        binaries = NULL;
        oclblas__mutex_unlock(&cache_lock);
        while (b) {
            binary *next = b->next;
            free(b->key);
            free(b->data);
            free(b);
            b = next;
        }
    }
    if (what & OCLBLAS_CACHE_DISK)
        oclblas__disk_clear();
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas_cache_get_stats(oclblas_cache_stats *s)
{
    if (!s)
        return OCLBLAS_INVALID_ARGUMENT;
    oclblas__mutex_lock(&cache_lock);
    *s = stats;
    s->disk_rejects = oclblas__disk_rejects();
    oclblas__mutex_unlock(&cache_lock);
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas_cache_fill(cl_device_id device)
{
    const oclblas__device_info *dev; /* a NULL device is refused here */
    oclblas_status st = oclblas__device_info_get(device, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    /* Every program of every set in force: for every shape and for each class of shapes. */
    const oclblas__devctx *cx = NULL;
    st = oclblas__devctx_get(dev, &cx);
    for (int k = 0; k < OCLBLAS__K_COUNT && st == OCLBLAS_SUCCESS; ++k) {
        /* Not a table without a program, nor a kernel the device cannot run (gemm_tc off NVIDIA). */
        const oclblas__kernel_desc *kd = oclblas__kernels[k];
        if (!kd->source || (kd->capable && kd->capable(&dev->lim)))
            continue;
        st = cx->status[k];
        for (int c = -1; c < cx->num_classes[k] && st == OCLBLAS_SUCCESS; ++c) {
            const oclblas__params *set = c < 0 ? &cx->params[k] : &cx->classes[k][c].params;
            oclblas__params each[OCLBLAS__MAX_PROGRAMS];
            const int n = kd->programs ? kd->programs(set, &dev->lim, each) : (each[0] = *set, 1);
            for (int i = 0; i < n && st == OCLBLAS_SUCCESS; ++i) {
                oclblas__program *prog = NULL;
                st = oclblas__program_get(ctx, dev, k, &each[i], &prog);
                oclblas__program_release(prog);
            }
        }
    }
    /* The binaries stay in memory and on disk; the programs of this private context go. */
    oclblas__context_drop(ctx);
    clReleaseContext(ctx);
    return st;
}

/* ---- for oclblas-tune --------------------------------------------------- */

void oclblas__program_forget(oclblas__program *prog)
{
    if (!prog)
        return;
    const size_t ol = strlen(prog->options);
    binary *gone = NULL;
    int listed = 0;
    oclblas__mutex_lock(&cache_lock);
    for (oclblas__program **pp = &programs; *pp; pp = &(*pp)->next) {
        if (*pp == prog && prog->state != BUILDING) {
            *pp = prog->next;
            listed = 1;
            break;
        }
    }
    /* Its binary: the one whose key ends with its options. */
    for (binary **pp = &binaries; *pp;) {
        binary *b = *pp;
        const size_t kl = strlen(b->key);
        if (kl >= ol + 9 && memcmp(b->key + kl - ol - 9, "\noptions ", 9) == 0 &&
            strcmp(b->key + kl - ol, prog->options) == 0) {
            *pp = b->next;
            b->next = gone;
            gone = b;
        } else {
            pp = &b->next;
        }
    }
    oclblas__mutex_unlock(&cache_lock);
    while (gone) {
        binary *next = gone->next;
        free(gone->key);
        free(gone->data);
        free(gone);
        gone = next;
    }
    if (listed)
        oclblas__program_release(prog); /* the list's reference; holders keep theirs */
}
