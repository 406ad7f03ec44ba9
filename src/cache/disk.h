/*
 * The disk cache of program binaries (disk.c): files in the user's own
 * cache folder, each holding the key it was written for, its program's
 * kernel names and the binary, checked before use, written so that no
 * reader sees half a file. It knows keys and bytes, not OpenCL: the
 * memory cache above it (runtime/programs.c) makes the key, builds, and
 * loads what it reads.
 */
#ifndef OCLBLAS_DISK_H
#define OCLBLAS_DISK_H

#include <stddef.h>

#define OCLBLAS__CACHE_FILE_NAME_LEN 44 /* "oclblas-" 32 hex digits ".bin" */
/* The most kernel names (';'-separated) and binary bytes a file holds. */
#define OCLBLAS__CACHE_MAX_NAMES 4096u
#define OCLBLAS__CACHE_MAX_BINARY (256u << 20)

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

/* Kernel names as a file holds them: letters, digits and '_', separated by
 * single ';', none empty. */
int oclblas__cache_names_valid(const char *names, size_t len);

/* A cache file taken for loading (oclblas__disk_take). */
typedef struct {
    int dir;                          /* the folder, open until oclblas__disk_keep or _drop */
    char path[900];                   /* the folder's path, for the log */
    char name[OCLBLAS__CACHE_FILE_NAME_LEN + 1];     /* the file's name in the cache */
    char aside[OCLBLAS__CACHE_FILE_NAME_LEN + 18];   /* its name while the driver reads it, "" if it stayed */
    unsigned char *file;
    size_t file_len;
    oclblas__cache_file parts;
} oclblas__disk_entry;
/* The file for key, read and checked: 1 when it checks out. A file that
 * does not, or that the trust rules refuse, is removed. One that checks out
 * is set aside under a temporary name while the driver reads it (a process
 * that dies inside the driver leaves it where no later process loads it);
 * oclblas__disk_keep puts it back. */
int oclblas__disk_take(const char *key, oclblas__disk_entry *e);
/* The driver accepted it: back under its name. */
void oclblas__disk_keep(oclblas__disk_entry *e);
/* The driver refused it, or its kernels are not the program's: removed. */
void oclblas__disk_drop(oclblas__disk_entry *e, const char *why);
/* The binary of key, with its program's kernel names, into the folder
 * (created if missing); a failure only costs a later process a build. */
void oclblas__disk_write(const char *key, const char *names, const unsigned char *data, size_t len);
/* Removes the library's files (and stale temporaries) from a trusted folder. */
void oclblas__disk_clear(void);
/* Files found invalid and removed, since the process started. */
unsigned long oclblas__disk_rejects(void);

#endif
