/*
 * The library's settings from the environment (settings.c): every
 * OCLBLAS_* variable of a fixed form, parsed strictly in one place, and
 * the refusals that oclblas_settings_error returns. The free-form
 * variables (OCLBLAS_DEVICE, OCLBLAS_CACHE_DIR, OCLBLAS_DATABASE,
 * OCLBLAS_BUILD_OPTIONS) are read where they are used; a use that refuses
 * one reports it here.
 */
#ifndef OCLBLAS_SETTINGS_H
#define OCLBLAS_SETTINGS_H

#include "oclblas.h"

#include <stddef.h>

/* How host-pointer calls above HOST_MAX choose (OCLBLAS_HOST_CALLS). */
typedef enum { OCLBLAS__CALLS_AUTO, OCLBLAS__CALLS_DEVICE, OCLBLAS__CALLS_HOST } oclblas__host_calls;

/* The range of OCLBLAS_HOST_THREADS, and the lowest OCLBLAS_INDEX_LIMIT
 * (below it nothing useful fits: a tile of 16 x 16 with a k of 16). */
#define OCLBLAS__MAX_HOST_THREADS 64
#define OCLBLAS__SMALLEST_INDEX_LIMIT 256

/* Each setting in force: the variable's value, or the documented default
 * where it is unset or refused. */
typedef struct {
    int verbose;                    /* OCLBLAS_VERBOSE: 0 or 1 */
    oclblas_math_mode math_mode;    /* OCLBLAS_MATH_MODE; 0: unset (runtime/mathmode.c's default) */
    oclblas__host_calls host_calls; /* OCLBLAS_HOST_CALLS */
    int database_hide;              /* OCLBLAS_DATABASE_HIDE: 0 none, 1 device, 2 vendor (db/database.c) */
    int host_zero_copy;             /* OCLBLAS_HOST_ZERO_COPY: 1, or 0 to copy even where memory is shared */
    int host_pinned;                /* OCLBLAS_HOST_PINNED: 1, or 0 to transfer without pinned staging */
    unsigned host_threads;          /* OCLBLAS_HOST_THREADS; 0: unset (the processors online, at most 16) */
    size_t device_memory;           /* OCLBLAS_DEVICE_MEMORY in bytes; 0: unset (3/4 of each device's memory) */
    size_t index_limit;             /* OCLBLAS_INDEX_LIMIT; 2^31 - 1 unless lowered */
    long fault_at[OCLBLAS_REPORT_DEVICES]; /* OCLBLAS_FAULT: tiles device i of the set delivers before it fails; -1: never */
} oclblas__settings;

/* The settings, read from the environment at the first need. */
const oclblas__settings *oclblas__settings_get(void);

/* Reads the environment again and forgets earlier refusals: for tests,
 * with no other thread in the library. */
void oclblas__settings_reread(void);

/* A free-form variable's value that its user refuses (a database path that
 * cannot be loaded): kept for oclblas_settings_error and logged as
 * "NAME=VALUE <why>". */
void oclblas__setting_refused(const char *name, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
