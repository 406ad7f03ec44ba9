/*
 * The tuning run's private folder: made before the first OpenCL call, so
 * that the drivers' caches (PoCL's off, NVIDIA's JIT cache kept for the
 * build processes) live in a folder of this run's own, and removed with
 * everything in it when the process ends, normally or by a second
 * interrupt (sofar.c).
 */
#define _GNU_SOURCE /* nftw */
#include "program.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

static char private_dir[1024];

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

const char *tune_private_dir(void) { return private_dir; }

void tune_private_dir_remove(void)
{
    /* Only the folder mkdtemp made for this run, and only what is in it. */
    if (private_dir[0])
        nftw(private_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    private_dir[0] = '\0';
}

/* Before the first OpenCL call: the drivers read these when they start.
 * NVIDIA's JIT cache stays on, in a folder of this run's own, because
 * build processes hand their work to this one through it. */
int tune_private_dir_make(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(private_dir, sizeof private_dir, "%s/oclblas-tune-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(private_dir)) {
        private_dir[0] = '\0';
        fprintf(stderr, "oclblas-tune: cannot create a temporary folder in %s\n", tmp && *tmp ? tmp : "/tmp");
        return 0;
    }
    atexit(tune_private_dir_remove);
    setenv("POCL_KERNEL_CACHE", "0", 0);
    if (!getenv("CUDA_CACHE_PATH")) {
        char path[1100];
        snprintf(path, sizeof path, "%s/nv", private_dir);
        setenv("CUDA_CACHE_PATH", path, 1);
        setenv("CUDA_CACHE_MAXSIZE", "2147483648", 0);
    }
    return 1;
}
