/*
 * The disk cache of program binaries: the same binaries as the memory
 * cache above it (runtime/programs.c), in the cache folder, for later
 * processes. A file starts with a header holding the whole key text, the
 * program's kernel names and a checksum; it is written under a temporary
 * name created exclusively and renamed, so readers never see half a file,
 * and a file that does not check out, does not load, or whose kernels are
 * not its program's is deleted (the memory cache then builds the program
 * from source). The folder is trusted only when it is the user's own (see
 * "the cache folder" below). A cache folder that cannot be written or is
 * not trusted only costs speed.
 */
#include "cache/disk.h"
#include "util/util.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char chosen_dir[1024]; /* oclblas__cache_dir_set's choice, when chosen */
static int dir_chosen;

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

#define FILE_NAME_LEN OCLBLAS__CACHE_FILE_NAME_LEN
#define TEMP_SUFFIX ".tmp."
#define STALE_SECONDS (10 * 60)

/* The cache file's name for key, in the folder. */
static void file_name(const char *key, char out[FILE_NAME_LEN + 1])
{
    const size_t kl = strlen(key);
    snprintf(out, FILE_NAME_LEN + 1, "oclblas-%016llx%016llx.bin", (unsigned long long)oclblas__fnv1a(key, kl, OCLBLAS__FNV_SEED),
             (unsigned long long)oclblas__fnv1a(key, kl, OCLBLAS__FNV_SEED2));
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
        const uint64_t h1 = oclblas__fnv1a(seed, sizeof seed, OCLBLAS__FNV_SEED), h2 = oclblas__fnv1a(seed, sizeof seed, OCLBLAS__FNV_SEED2);
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
#define MAX_NAMES OCLBLAS__CACHE_MAX_NAMES
#define MAX_BINARY OCLBLAS__CACHE_MAX_BINARY
#define MAX_FILE (HEADER_SIZE + MAX_KEY + MAX_NAMES + MAX_BINARY)

int oclblas__cache_names_valid(const char *names, size_t len)
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
    return oclblas__fnv1a(bin, bin_len, oclblas__fnv1a(names, names_len, OCLBLAS__FNV_SEED));
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
    if (!oclblas__cache_names_valid(names, names_len))
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

static atomic_ulong rejects;

static void count_reject(void) { atomic_fetch_add(&rejects, 1); }

unsigned long oclblas__disk_rejects(void) { return atomic_load(&rejects); }

static void disk_close(oclblas__disk_entry *e)
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
int oclblas__disk_take(const char *key, oclblas__disk_entry *e)
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
void oclblas__disk_keep(oclblas__disk_entry *e)
{
    if (e->aside[0] && renameat(e->dir, e->aside, e->dir, e->name) != 0)
        unlinkat(e->dir, e->aside, 0);
    disk_close(e);
}

/* The driver refused it, or its kernels are not the program's: removed. */
void oclblas__disk_drop(oclblas__disk_entry *e, const char *why)
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
void oclblas__disk_write(const char *key, const char *names, const unsigned char *data, size_t len)
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

/* ---- control ----------------------------------------------------------- */

void oclblas__disk_clear(void)
{
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

void oclblas__cache_dir_set(const char *dir)
{
    oclblas__strlcpy(chosen_dir, dir ? dir : "off", sizeof chosen_dir);
    dir_chosen = 1;
}
