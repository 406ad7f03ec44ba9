/*
 * Small pieces every other file needs: string helpers, mutex wrappers, and
 * the one reader of whole files, which treats every file as untrusted
 * input (the database, the program cache, and the tools that read database
 * files with the library's rules). The verbose log is with the settings
 * (settings.c), as one of them turns it on.
 */
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void oclblas__strlcpy(char *dst, const char *src, size_t len)
{
    if (!len)
        return;
    size_t n = src ? strlen(src) : 0;
    if (n >= len)
        n = len - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

int oclblas__strcaseeq(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const char *oclblas__strcasestr(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return hay;
    }
    return n == 0 ? hay : NULL;
}

void oclblas__mutex_lock(pthread_mutex_t *m)
{
    /* Fails only on misuse (an uninitialised or not-owned mutex), which would be our bug. */
    (void)pthread_mutex_lock(m);
}

void oclblas__mutex_unlock(pthread_mutex_t *m) { (void)pthread_mutex_unlock(m); }

double oclblas__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


static int refuse(int err, char *why, size_t why_len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int refuse(int err, char *why, size_t why_len, const char *fmt, ...)
{
    if (why && why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return err;
}

int oclblas__read_file(int dir, const char *path, unsigned flags, size_t max, char **data, size_t *len,
                       struct stat *st_out, char *why, size_t why_len)
{
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO or a device must not wait for a writer or
     * a carrier; what it is is decided by fstat on the opened descriptor,
     * so that nothing can be swapped in between the check and the read. */
    const int fd = openat(dir, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
                                         (flags & OCLBLAS__READ_PRIVATE ? O_NOFOLLOW : 0));
    if (fd < 0) {
        const int e = errno;
        if (e == ELOOP && (flags & OCLBLAS__READ_PRIVATE))
            return refuse(e, why, why_len, "a symbolic link");
        return refuse(e, why, why_len, "%s", strerror(e));
    }
    struct stat sb;
    int err = 0;
    if (fstat(fd, &sb) != 0)
        err = refuse(errno, why, why_len, "%s", strerror(errno));
    else if (S_ISDIR(sb.st_mode))
        err = refuse(EISDIR, why, why_len, "a folder");
    else if (!S_ISREG(sb.st_mode))
        err = refuse(EINVAL, why, why_len, "not a regular file (a %s)",
                     S_ISFIFO(sb.st_mode) ? "FIFO" : S_ISCHR(sb.st_mode) ? "character device"
                                                  : S_ISBLK(sb.st_mode)  ? "block device"
                                                  : S_ISSOCK(sb.st_mode) ? "socket"
                                                                         : "special file");
    else if ((flags & OCLBLAS__READ_PRIVATE) && sb.st_uid != geteuid())
        err = refuse(EPERM, why, why_len, "owned by user %lu, not by this user (%lu)", (unsigned long)sb.st_uid,
                     (unsigned long)geteuid());
    else if ((flags & OCLBLAS__READ_PRIVATE) && (sb.st_mode & (S_IWGRP | S_IWOTH)))
        err = refuse(EPERM, why, why_len, "writable by %s (mode %03o)",
                     sb.st_mode & S_IWOTH ? "others" : "its group", (unsigned)(sb.st_mode & 0777));
    else if ((unsigned long long)sb.st_size > max)
        err = refuse(EFBIG, why, why_len, "larger than %zu bytes", max);
    if (err) {
        close(fd);
        return err;
    }
    /* The size is a hint: a file may grow while it is read, or report 0
     * (/proc); reading stops one byte past the cap either way. */
    size_t cap = (size_t)sb.st_size < max ? (size_t)sb.st_size + 1 : max + 1, n = 0;
    if (cap < 4096 && cap < max + 1)
        cap = max + 1 < 4096 ? max + 1 : 4096;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        return refuse(ENOMEM, why, why_len, "out of memory");
    }
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                err = refuse(EFBIG, why, why_len, "larger than %zu bytes", max);
                break;
            }
            size_t ncap = cap * 2 < max + 1 ? cap * 2 : max + 1;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                err = refuse(ENOMEM, why, why_len, "out of memory");
                break;
            }
            buf = nb;
            cap = ncap;
        }
        const ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            err = refuse(errno, why, why_len, "%s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (err) {
        free(buf);
        return err;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    if (st_out)
        *st_out = sb;
    return 0;
}

uint64_t oclblas__fnv1a(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
