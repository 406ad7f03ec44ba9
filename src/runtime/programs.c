/*
 * The program cache: a process never compiles what it, or an earlier
 * process, already compiled. Three levels, tried in order:
 *   memory   built programs per (context, device, kernel table, options),
 *            each with a pool of kernel objects so that calls create none;
 *   binaries program binaries per key, in memory, so that a new context on
 *            the same device loads instead of compiling;
 *   disk     the same binaries in the cache folder, for later processes.
 * The key hashes platform and device name, driver version, library
 * version, kernel source and build options. A disk file starts with a header
 * holding the whole key text, the program's kernel names and a checksum; it
 * is written under a temporary name created exclusively and renamed, so
 * readers never see half a file, and a file that does not check out, does
 * not load, or whose kernels are not its program's is deleted and the
 * program is built from source. The folder is trusted only when it is the
 * user's own (see "the cache folder" below). A cache folder that cannot be
 * written or is not trusted only costs speed. Threads asking for a program that another thread is building
 * wait for it instead of building it again.
 */
#include "runtime/programs.h"
#include "cache/disk.h"
#include "runtime/devctx.h"
#include "runtime/lifetime.h"
#include "util/util.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef struct pooled_kernel {
    char name[48];
    cl_kernel kernel;
    struct pooled_kernel *next;
} pooled_kernel;

enum { BUILDING, READY, FAILED };

struct oclblas__program {
    cl_context ctx;
    cl_device_id dev;
    int table;
    char *options;
    uint64_t hash;
    int state;
    oclblas_status failure;
    int refs; /* the cache list holds one while the entry is listed */
    int dropped; /* let go of while it was being built: unlisted once built */
    cl_program program;
    pthread_mutex_t pool_lock;
    pooled_kernel *pool;
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
static char chosen_dir[1024]; /* oclblas__cache_dir_set's choice, when chosen */
static int dir_chosen;

static uint64_t fnv1a(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
#define FNV_SEED 0xcbf29ce484222325ull
#define FNV_SEED2 0x84222325cbf29ce4ull

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

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- the cache folder ----------------------------------------------------
 *
 * Trust: the folder is the user's own. The key is public and the checksum
 * unkeyed, so a header proves nothing about who wrote a file; only
 * ownership and permissions keep another user from planting a binary that
 * this process would run. So a folder not owned by this user or writable by
 * group or others is not used at all, and a file in it that is not a
 * regular file owned by this user and writable by no one else is removed
 * unread. The folder may be reached through symbolic links (a linked
 * ~/.cache is common); what is checked is the folder itself, opened once,
 * and every file is opened relative to that descriptor, without following a
 * link, so nothing can be swapped in between the check and the use. Each
 * refusal costs only speed and says why under OCLBLAS_VERBOSE. */

/* 0 when the disk cache is off or has no folder. */
static int cache_dir(char *out, size_t len)
{
    const char *env = dir_chosen ? chosen_dir : getenv("OCLBLAS_CACHE_DIR");
    if (env && *env) {
        if (strcmp(env, "off") == 0)
            return 0;
        oclblas__strlcpy(out, env, len);
        return strlen(env) < len;
    }
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && *xdg)
        n = snprintf(out, len, "%s/oclblas", xdg);
    else if (home && *home)
        n = snprintf(out, len, "%s/.cache/oclblas", home);
    else
        return 0;
    return n > 0 && (size_t)n < len;
}

/* A folder created here is 0700 whatever the umask. */
static int make_dir(const char *path)
{
    if (mkdir(path, 0700) != 0)
        return errno == EEXIST ? 0 : -1;
    const int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    const int r = fchmod(fd, 0700);
    close(fd);
    return r;
}

static int make_dirs(const char *path)
{
    char tmp[1024];
    if (strlen(path) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    oclblas__strlcpy(tmp, path, sizeof tmp);
    for (char *p = tmp + 1; *p; ++p) {
        if (*p == '/') {
            *p = '\0';
            if (make_dir(tmp) != 0)
                return -1;
            *p = '/';
        }
    }
    return make_dir(tmp);
}

#define FILE_NAME_LEN 44 /* "oclblas-" 32 hex digits ".bin" */
#define TEMP_SUFFIX ".tmp."
#define STALE_SECONDS (10 * 60)

/* The cache file's name for key, in the folder. */
static void file_name(const char *key, char out[FILE_NAME_LEN + 1])
{
    const size_t kl = strlen(key);
    snprintf(out, FILE_NAME_LEN + 1, "oclblas-%016llx%016llx.bin", (unsigned long long)fnv1a(key, kl, FNV_SEED),
             (unsigned long long)fnv1a(key, kl, FNV_SEED2));
}

/* Whether name starts with a cache file's name. */
static int cache_name_prefix(const char *name)
{
    if (strncmp(name, "oclblas-", 8) != 0)
        return 0;
    for (int i = 8; i < 40; ++i)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return 0;
    return strncmp(name + 40, ".bin", 4) == 0;
}

static int is_cache_name(const char *name)
{
    return cache_name_prefix(name) && name[FILE_NAME_LEN] == '\0';
}

/* A temporary of this library: a cache file's name, ".tmp.", and a suffix
 * of letters, digits and dots (earlier versions used "<pid>.<serial>"). */
static int is_temp_name(const char *name)
{
    if (!cache_name_prefix(name) || strncmp(name + FILE_NAME_LEN, TEMP_SUFFIX, 5) != 0)
        return 0;
    const char *suffix = name + FILE_NAME_LEN + 5;
    size_t n = 0;
    for (; suffix[n]; ++n)
        if (!((suffix[n] >= '0' && suffix[n] <= '9') || (suffix[n] >= 'a' && suffix[n] <= 'z') ||
              (suffix[n] >= 'A' && suffix[n] <= 'Z') || suffix[n] == '.'))
            return 0;
    return n >= 1 && n <= 32;
}

/* name + ".tmp." + 12 random letters and digits: unpredictable, so that no
 * one can plant anything at the name in advance (it is created exclusively
 * anyway, and a planted name only makes the next try pick another). */
static void temp_name(const char *name, char out[FILE_NAME_LEN + 18])
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[12];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        /* No entropy yet (early boot): unique still, from the time, the process and a counter. */
        static unsigned long counter;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        const unsigned long seed[4] = {(unsigned long)ts.tv_nsec, (unsigned long)ts.tv_sec, (unsigned long)getpid(),
                                       __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED)};
        const uint64_t h1 = fnv1a(seed, sizeof seed, FNV_SEED), h2 = fnv1a(seed, sizeof seed, FNV_SEED2);
        memcpy(r, &h1, 8);
        memcpy(r + 8, &h2, 4);
    }
    char suffix[13];
    for (int i = 0; i < 12; ++i)
        suffix[i] = alphabet[r[i] % (sizeof alphabet - 1)];
    suffix[12] = '\0';
    snprintf(out, FILE_NAME_LEN + 18, "%s" TEMP_SUFFIX "%s", name, suffix);
}

/* Removes the library's temporaries that a killed process left: regular
 * files of this user with a temporary's name, not touched for minutes. */
static void sweep(int dir, const char *path)
{
    const int fd = fcntl(dir, F_DUPFD_CLOEXEC, 0);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    const time_t now = time(NULL);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        struct stat sb;
        if (!is_temp_name(de->d_name) || fstatat(dir, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() || now - sb.st_mtime < STALE_SECONDS)
            continue;
        if (unlinkat(dir, de->d_name, 0) == 0)
            oclblas__log("cache: removed %s/%s, a temporary left %ld minutes ago", path, de->d_name,
                         (long)(now - sb.st_mtime) / 60);
    }
    closedir(d);
}

/* The cache folder, checked and open, or -1: the disk cache is off, the
 * folder is missing (create 0) or cannot be made, or it is not trusted. Its
 * stale temporaries are swept the first time a process uses it. */
static int open_folder(int create, char *dir, size_t len)
{
    if (!cache_dir(dir, len))
        return -1;
    if (create && make_dirs(dir) != 0) {
        oclblas__log("cache: cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        if (create || errno != ENOENT)
            oclblas__log("cache: cannot open %s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat sb;
    char why[120] = "";
    if (fstat(fd, &sb) != 0)
        snprintf(why, sizeof why, "%s", strerror(errno));
    else if (sb.st_uid != geteuid())
        snprintf(why, sizeof why, "owned by user %lu, not by this user (%lu)", (unsigned long)sb.st_uid,
                 (unsigned long)geteuid());
    else if (sb.st_mode & (S_IWGRP | S_IWOTH))
        snprintf(why, sizeof why, "writable by %s (mode %03o)", sb.st_mode & S_IWOTH ? "others" : "its group",
                 (unsigned)(sb.st_mode & 0777));
    if (why[0]) {
        oclblas__log("cache: folder %s not used: %s", dir, why);
        close(fd);
        return -1;
    }
    static pthread_mutex_t swept_lock = PTHREAD_MUTEX_INITIALIZER;
    static char swept[1024];
    oclblas__mutex_lock(&swept_lock);
    const int first = strcmp(swept, dir) != 0;
    if (first)
        oclblas__strlcpy(swept, dir, sizeof swept);
    oclblas__mutex_unlock(&swept_lock);
    if (first)
        sweep(fd, dir);
    return fd;
}

/* ---- the cache file ------------------------------------------------------
 * 40-byte header: 8-byte magic, u32 version, u32 key length, u64 binary
 * length, u64 FNV-1a checksum of the kernel names and the binary, u32 names
 * length, u32 zero; then the key, the kernel names (as the program built
 * from source listed them, ';'-separated) and the binary. */

#define FILE_MAGIC "OCLBLAS\x01"
#define FILE_VERSION 2u
#define HEADER_SIZE 40u
#define MAX_KEY 4096u
#define MAX_NAMES 4096u
#define MAX_BINARY (256u << 20)
#define MAX_FILE (HEADER_SIZE + MAX_KEY + MAX_NAMES + MAX_BINARY)

static int names_valid(const char *names, size_t len)
{
    if (len == 0 || names[0] == ';' || names[len - 1] == ';')
        return 0;
    for (size_t i = 0; i < len; ++i) {
        const char c = names[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              (c == ';' && names[i + 1] != ';')))
            return 0;
    }
    return 1;
}

static uint64_t file_checksum(const char *names, size_t names_len, const unsigned char *bin, size_t bin_len)
{
    return fnv1a(bin, bin_len, fnv1a(names, names_len, FNV_SEED));
}

const char *oclblas__cache_file_check(const unsigned char *file, size_t len, const char *key,
                                      oclblas__cache_file *out)
{
    uint32_t version, key_len, names_len, zero;
    uint64_t bin_len, sum;
    if (len < HEADER_SIZE || memcmp(file, FILE_MAGIC, 8) != 0)
        return "not a cache file";
    memcpy(&version, file + 8, 4);
    memcpy(&key_len, file + 12, 4);
    memcpy(&bin_len, file + 16, 8);
    memcpy(&sum, file + 24, 8);
    memcpy(&names_len, file + 32, 4);
    memcpy(&zero, file + 36, 4);
    if (version != FILE_VERSION || zero != 0)
        return "another version of the file format";
    if (key_len != strlen(key) || key_len > MAX_KEY || names_len > MAX_NAMES || bin_len == 0 || bin_len > MAX_BINARY)
        return "key or size does not match";
    const uint64_t want = (uint64_t)HEADER_SIZE + key_len + names_len + bin_len;
    if (len < want)
        return "truncated";
    if (len > want)
        return "trailing bytes";
    if (memcmp(file + HEADER_SIZE, key, key_len) != 0)
        return "key does not match";
    const char *names = (const char *)file + HEADER_SIZE + key_len;
    const unsigned char *bin = file + HEADER_SIZE + key_len + names_len;
    if (!names_valid(names, names_len))
        return "bad kernel names";
    if (file_checksum(names, names_len, bin, bin_len) != sum)
        return "checksum mismatch";
    out->names = names;
    out->names_len = names_len;
    out->binary = bin;
    out->binary_len = bin_len;
    return NULL;
}

/* ---- the disk level --------------------------------------------------- */

static void count_reject(void)
{
    oclblas__mutex_lock(&cache_lock);
    ++stats.disk_rejects;
    oclblas__mutex_unlock(&cache_lock);
}

/* A cache file taken for loading. */
typedef struct {
    int dir;                          /* the folder, open until disk_keep or disk_drop */
    char path[900];                   /* the folder's path, for the log */
    char name[FILE_NAME_LEN + 1];     /* the file's name in the cache */
    char aside[FILE_NAME_LEN + 18];   /* its name while the driver reads it, "" if it stayed */
    unsigned char *file;
    size_t file_len;
    oclblas__cache_file parts;
} disk_entry;

static void disk_close(disk_entry *e)
{
    close(e->dir);
    free(e->file);
}

/* The file for key, read and checked: 1 when it checks out. A file that
 * does not, or that the trust rules refuse, is removed. One that checks out
 * is set aside under a temporary name while the driver reads it: a process
 * that dies inside the driver (some implementations crash on a damaged
 * binary with a valid header) leaves it there, where no later process
 * loads it and the sweep removes it, instead of a file that crashes every
 * later run. disk_keep puts it back. */
static int disk_take(const char *key, disk_entry *e)
{
    e->dir = open_folder(0, e->path, sizeof e->path);
    if (e->dir < 0)
        return 0;
    file_name(key, e->name);
    e->aside[0] = '\0';
    char why[160];
    char *data;
    const int err = oclblas__read_file(e->dir, e->name, OCLBLAS__READ_PRIVATE, MAX_FILE, &data, &e->file_len, NULL,
                                       why, sizeof why);
    e->file = (unsigned char *)data;
    const char *bad = err ? why : oclblas__cache_file_check(e->file, e->file_len, key, &e->parts);
    if (err == ENOENT || err == ENOMEM) {
        disk_close(e);
        return 0;
    }
    if (bad) {
        if (unlinkat(e->dir, e->name, 0) == 0) {
            count_reject();
            oclblas__log("cache: removed %s/%s: %s", e->path, e->name, bad);
        } else {
            oclblas__log("cache: %s/%s not used: %s", e->path, e->name, bad);
        }
        disk_close(e);
        return 0;
    }
    temp_name(e->name, e->aside);
    if (renameat(e->dir, e->name, e->dir, e->aside) != 0)
        e->aside[0] = '\0'; /* a read-only folder: loaded unguarded */
    return 1;
}

/* The driver accepted it: back under its name. */
static void disk_keep(disk_entry *e)
{
    if (e->aside[0] && renameat(e->dir, e->aside, e->dir, e->name) != 0)
        unlinkat(e->dir, e->aside, 0);
    disk_close(e);
}

/* The driver refused it, or its kernels are not the program's: removed. */
static void disk_drop(disk_entry *e, const char *why)
{
    if (unlinkat(e->dir, e->aside[0] ? e->aside : e->name, 0) == 0) {
        count_reject();
        oclblas__log("cache: removed %s/%s: %s", e->path, e->name, why);
    }
    disk_close(e);
}

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        const ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        p += n;
        len -= (size_t)n;
    }
    return 1;
}

/* Written to a temporary created exclusively (0600, no link followed),
 * synced, and renamed over the name: readers never see half a file, and a
 * link planted anywhere makes the write fail or go elsewhere, never through it. */
static void disk_write(const char *key, const char *names, const unsigned char *data, size_t len)
{
    char dir[900];
    const int dfd = open_folder(1, dir, sizeof dir);
    if (dfd < 0)
        return;
    char name[FILE_NAME_LEN + 1], tmp[FILE_NAME_LEN + 18];
    file_name(key, name);
    int fd = -1;
    for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
        temp_name(name, tmp);
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        oclblas__log("cache: cannot write in %s: %s", dir, strerror(errno));
        close(dfd);
        return;
    }
    const uint32_t version = FILE_VERSION, key_len = (uint32_t)strlen(key), names_len = (uint32_t)strlen(names),
                   zero = 0;
    const uint64_t len64 = len, sum = file_checksum(names, names_len, data, len);
    unsigned char head[HEADER_SIZE];
    memcpy(head, FILE_MAGIC, 8);
    memcpy(head + 8, &version, 4);
    memcpy(head + 12, &key_len, 4);
    memcpy(head + 16, &len64, 8);
    memcpy(head + 24, &sum, 8);
    memcpy(head + 32, &names_len, 4);
    memcpy(head + 36, &zero, 4);
    /* fchmod: 0600 whatever the umask took away (it cannot add). */
    int ok = fchmod(fd, 0600) == 0 && write_all(fd, head, sizeof head) && write_all(fd, key, key_len) &&
             write_all(fd, names, names_len) && write_all(fd, data, len);
    ok = fsync(fd) == 0 && ok;
    ok = close(fd) == 0 && ok;
    if (!ok || renameat(dfd, tmp, dfd, name) != 0) {
        unlinkat(dfd, tmp, 0);
        oclblas__log("cache: cannot write %s/%s", dir, name);
    } else {
        oclblas__log("cache: wrote %s/%s (%zu bytes)", dir, name, len);
    }
    close(dfd);
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
        size > MAX_BINARY)
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
    if (clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size) != CL_SUCCESS || size < 2 || size > MAX_NAMES)
        return NULL;
    char *names = malloc(size);
    if (names && (clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, size, names, NULL) != CL_SUCCESS ||
                  names[size - 1] != '\0' || !names_valid(names, strlen(names)))) {
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
        char name[MAX_NAMES];
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
    const double t0 = now_ms();
    disk_entry d;
    if (disk_take(key, &d)) {
        e->program = from_binary(e->ctx, e->dev, d.parts.binary, d.parts.binary_len, e->options);
        const char *bad = e->program ? kernels_match(e->program, d.parts.names, d.parts.names_len)
                                     : "the driver did not accept the binary";
        if (!bad) {
            remember_binary(key, d.parts.binary, d.parts.binary_len);
            disk_keep(&d);
            oclblas__log("cache: %s loaded from disk in %.1f ms", what, now_ms() - t0);
            oclblas__mutex_lock(&cache_lock);
            ++stats.disk_hits;
            oclblas__mutex_unlock(&cache_lock);
            return OCLBLAS_SUCCESS;
        }
        if (e->program) {
            clReleaseProgram(e->program);
            e->program = NULL;
        }
        disk_drop(&d, bad);
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
    oclblas__log("cache: %s built from source in %.1f ms on %s", what, now_ms() - t0, dev->name);
    size_t len = 0;
    unsigned char *bin = program_binary(p, &len);
    if (bin) {
        remember_binary(key, bin, len);
        char *names = program_kernel_names(p);
        if (names)
            disk_write(key, names, bin, len);
        free(names);
        free(bin);
    }
    return OCLBLAS_SUCCESS;
}

static void free_program(oclblas__program *e)
{
    for (pooled_kernel *k = e->pool; k;) {
        pooled_kernel *next = k->next;
        clReleaseKernel(k->kernel);
        free(k);
        k = next;
    }
    if (e->program)
        clReleaseProgram(e->program);
    clReleaseContext(e->ctx);
    pthread_mutex_destroy(&e->pool_lock);
    free(e->options);
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
static int context_refs(cl_context ctx, int per_program, int per_buffer, int *buffers)
{
    *buffers = 0;
    return oclblas__programs_refs(ctx, per_program);
}
static const oclblas__context_user context_user = {context_refs, oclblas__programs_drop_context};

oclblas_status oclblas__program_get(cl_context ctx, const oclblas__device_info *dev, int table,
                                    const oclblas__params *p, oclblas__program **out)
{
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
    const char *extra = getenv("OCLBLAS_BUILD_OPTIONS");
    char options_buf[1024];
    char *options = print(options_buf, sizeof options_buf, "-cl-std=CL1.2 %s%s%s%s", defines,
                          strcmp(dev->vendor, "nvidia") == 0 ? " -DOCLBLAS_NVIDIA=1" : "", extra && *extra ? " " : "",
                          extra ? extra : "");
    if (!options)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    const uint64_t hash = fnv1a(options, strlen(options), fnv1a(&table, sizeof table, FNV_SEED));

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
                      kd->name, (unsigned long long)fnv1a(src, strlen(src), FNV_SEED), opts);
    if (!e || !opts || !key) {
        oclblas__mutex_unlock(&cache_lock);
        free(e);
        free(opts);
        free(key);
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    e->ctx = ctx;
    e->dev = dev->id;
    e->table = table;
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

oclblas_status oclblas__kernel_take(oclblas__program *prog, const char *name, cl_kernel *out)
{
    oclblas__mutex_lock(&prog->pool_lock);
    for (pooled_kernel **pp = &prog->pool; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            pooled_kernel *k = *pp;
            *pp = k->next;
            oclblas__mutex_unlock(&prog->pool_lock);
            *out = k->kernel;
            free(k);
            return OCLBLAS_SUCCESS;
        }
    }
    oclblas__mutex_unlock(&prog->pool_lock);
    cl_int err;
    *out = clCreateKernel(prog->program, name, &err);
    return (oclblas_status)err;
}

void oclblas__kernel_put(oclblas__program *prog, const char *name, cl_kernel k)
{
    pooled_kernel *pk = malloc(sizeof *pk);
    if (!pk) {
        clReleaseKernel(k);
        return;
    }
    oclblas__strlcpy(pk->name, name, sizeof pk->name);
    pk->kernel = k;
    oclblas__mutex_lock(&prog->pool_lock);
    pk->next = prog->pool;
    prog->pool = pk;
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
    if (what & OCLBLAS_CACHE_DISK) {
        /* Only a trusted folder, and only the library's own names in it. */
        char dir[900];
        const int fd = open_folder(0, dir, sizeof dir);
        const int list_fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
        DIR *d = list_fd >= 0 ? fdopendir(list_fd) : NULL;
        if (!d && list_fd >= 0)
            close(list_fd);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL)
            if (is_cache_name(de->d_name) || is_temp_name(de->d_name))
                unlinkat(fd, de->d_name, 0);
        if (d)
            closedir(d);
        if (fd >= 0)
            close(fd);
    }
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas_cache_get_stats(oclblas_cache_stats *s)
{
    if (!s)
        return OCLBLAS_INVALID_ARGUMENT;
    oclblas__mutex_lock(&cache_lock);
    *s = stats;
    oclblas__mutex_unlock(&cache_lock);
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas_cache_fill(cl_device_id device)
{
    if (!device)
        return OCLBLAS_INVALID_ARGUMENT;
    const oclblas__device_info *dev;
    oclblas_status st = oclblas__device_info_get(device, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    /* Every set in force: for every shape and for each class of shapes. */
    const oclblas__devctx *cx = NULL;
    st = oclblas__devctx_get(dev, &cx);
    for (int k = 0; k < OCLBLAS__K_COUNT && st == OCLBLAS_SUCCESS; ++k) {
        /* Not a table without a program, nor a kernel the device cannot run (gemm_tc off NVIDIA). */
        const oclblas__kernel_desc *kd = oclblas__kernels[k];
        if (!kd->source || (kd->capable && kd->capable(&dev->lim)))
            continue;
        st = cx->status[k];
        for (int c = -1; c < cx->num_classes[k] && st == OCLBLAS_SUCCESS; ++c) {
            oclblas__program *prog = NULL;
            st = oclblas__program_get(ctx, dev, k, c < 0 ? &cx->params[k] : &cx->classes[k][c].params, &prog);
            oclblas__program_release(prog);
        }
    }
    /* The binaries stay in memory and on disk; the programs of this private context go. */
    oclblas__context_drop(ctx);
    clReleaseContext(ctx);
    return st;
}

/* ---- for oclblas-tune --------------------------------------------------- */

void oclblas__cache_dir_set(const char *dir)
{
    oclblas__strlcpy(chosen_dir, dir ? dir : "off", sizeof chosen_dir);
    dir_chosen = 1;
}

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
