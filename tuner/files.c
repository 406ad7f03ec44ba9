/*
 * The tuner's files, written as carefully as the library's disk cache
 * writes its own (src/progcache.c): the tuner may run as root in a shared
 * folder, where anyone can plant a link, a FIFO or a device node at the
 * name it is given. A new file is written under an unpredictable name next
 * to its destination, created exclusively without following a link, and
 * renamed over the destination only when that is a regular file or
 * absent; rename replaces a name and never writes through it. A file that
 * is opened in place (the journal) is opened without following a link and
 * without waiting (a FIFO would block the open for ever), and refused
 * unless fstat on the opened descriptor says it is a regular file. Every
 * refusal is one line naming the path and what it is.
 */
#define _GNU_SOURCE
#include "tune.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What a file that is not a regular one is, for the messages. */
static const char *kind_of(mode_t m)
{
    return S_ISLNK(m)    ? "a symbolic link"
           : S_ISDIR(m)  ? "a folder"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

int tune_file_replaceable(const char *what, const char *path, char *err, size_t len)
{
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT)
            return 1;
        snprintf(err, len, "cannot write the %s %s: %s", what, path, strerror(errno));
        return 0;
    }
    if (S_ISREG(sb.st_mode))
        return 1;
    snprintf(err, len, "refusing to write the %s %s: it is %s, not a regular file", what, path, kind_of(sb.st_mode));
    return 0;
}

/* 12 random letters and digits: a name nobody can plant anything at in advance. */
static void random_suffix(char out[13])
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[12];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        /* No entropy yet (early boot): unique still, from the clock and the process; O_EXCL does the rest. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
        for (int i = 0; i < 12; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            r[i] = (unsigned char)(x >> 56);
        }
    }
    for (int i = 0; i < 12; ++i)
        out[i] = alphabet[r[i] % (sizeof alphabet - 1)];
    out[12] = '\0';
}

FILE *tune_file_temp(const char *what, const char *path, unsigned mode, char *tmp, size_t tmp_len, char *err,
                     size_t len)
{
    /* In the destination's folder, so that the rename stays within one file system. */
    const char *slash = strrchr(path, '/');
    const int dir_len = slash ? (int)(slash - path + 1) : 0;
    for (int attempt = 0; attempt < 8; ++attempt) {
        char suffix[13];
        random_suffix(suffix);
        if ((size_t)snprintf(tmp, tmp_len, "%.*s.%s.tmp.%s", dir_len, path, path + dir_len, suffix) >= tmp_len) {
            snprintf(err, len, "cannot write the %s %s: the name is too long", what, path);
            return NULL;
        }
        const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, (mode_t)mode);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            break;
        FILE *f = fdopen(fd, "w");
        if (f)
            return f;
        close(fd);
        unlink(tmp);
        break;
    }
    snprintf(err, len, "cannot write the %s %s: cannot create a file next to it: %s", what, path, strerror(errno));
    return NULL;
}

int tune_file_commit(const char *what, const char *tmp, const char *path, char *err, size_t len)
{
    if (!tune_file_replaceable(what, path, err, len)) {
        unlink(tmp);
        return 0;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, len, "cannot write the %s %s: cannot rename %s to it: %s", what, path, tmp, strerror(errno));
        unlink(tmp);
        return 0;
    }
    return 1;
}

int tune_file_open_regular(const char *what, const char *path, int create, char *err, size_t len)
{
    const int fd = open(path, O_RDWR | (create ? O_CREAT : 0) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0) {
        const int e = errno;
        struct stat sb;
        if ((e == ELOOP || e == EISDIR || e == ENXIO) && lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
            snprintf(err, len, "refusing the %s %s: it is %s, not a regular file", what, path, kind_of(sb.st_mode));
        else
            snprintf(err, len, "cannot open the %s %s: %s", what, path, strerror(e));
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        snprintf(err, len, "cannot open the %s %s: %s", what, path, strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        snprintf(err, len, "refusing the %s %s: it is %s, not a regular file", what, path, kind_of(sb.st_mode));
    else {
        /* A regular file never waits; O_APPEND: every line goes to the end, whatever was read. */
        fcntl(fd, F_SETFL, (fcntl(fd, F_GETFL) & ~O_NONBLOCK) | O_APPEND);
        return fd;
    }
    close(fd);
    return -1;
}
