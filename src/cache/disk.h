/*
 * The disk cache of program binaries (disk.c): files in the user's own
 * cache folder, each holding the key it was written for, its program's
 * kernel names and the binary, checked before use, written so that no
 * reader sees half a file. The memory cache above it is
 * runtime/programs.c.
 */
#ifndef OCLBLAS_DISK_H
#define OCLBLAS_DISK_H

#include <stddef.h>

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

#endif
