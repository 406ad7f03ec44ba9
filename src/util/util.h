/*
 * The library's small tools, which every layer may use: the version string,
 * the verbose log, strings, locks, the one reader of whole files, and the
 * index limit (limits.c); the settings from the environment have their own
 * header (settings.h). Nothing here knows of kernels, devices or calls.
 */
#ifndef OCLBLAS_UTIL_H
#define OCLBLAS_UTIL_H

#include "oclblas.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define OCLBLAS__STR(x) OCLBLAS__STR2(x)
#define OCLBLAS__STR2(x) #x
#define OCLBLAS_VERSION_STRING \
    OCLBLAS__STR(OCLBLAS_VERSION_MAJOR) "." OCLBLAS__STR(OCLBLAS_VERSION_MINOR) "." OCLBLAS__STR(OCLBLAS_VERSION_PATCH)

/* ---- utilities (util.c) ------------------------------------------------ */

/* The verbose log (settings.c): OCLBLAS_VERBOSE=1, and a line on stderr under it. */
int oclblas__verbose(void);
void oclblas__log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line on stderr whatever OCLBLAS_VERBOSE says: for the settings,
 * which decide it while they read it. */
void oclblas__log_line(const char *line);
void oclblas__strlcpy(char *dst, const char *src, size_t len);
int oclblas__strcaseeq(const char *a, const char *b);
const char *oclblas__strcasestr(const char *hay, const char *needle);
void oclblas__mutex_lock(pthread_mutex_t *m);
void oclblas__mutex_unlock(pthread_mutex_t *m);
/* Seconds on the monotonic clock, for the library's own timings. */
double oclblas__now(void);

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

/* FNV-1a of len bytes, continuing from h (a seed, or an earlier hash): the
 * cache keys' and files' hash. Two seeds give 128 bits. */
uint64_t oclblas__fnv1a(const void *data, size_t len, uint64_t h);
#define OCLBLAS__FNV_SEED 0xcbf29ce484222325ull
#define OCLBLAS__FNV_SEED2 0x84222325cbf29ce4ull

/* ---- the index limit (limits.c) ---------------------------------------- */

/* The most elements one kernel launch, one device buffer of the library or
 * one host BLAS call may span: 2^31 - 1, or lower by OCLBLAS_INDEX_LIMIT. */
size_t oclblas__index_limit(void);

#endif
