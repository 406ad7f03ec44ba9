/*
 * The host threads (pool.c): parts of a job run on the pool and the calling
 * thread, and packing a matrix to and from a contiguous block.
 */
#ifndef OCLBLAS_POOL_H
#define OCLBLAS_POOL_H

#include <stddef.h>

typedef void (*oclblas__part_fn)(void *arg, size_t part);
/* Runs fn(arg, p) for every p in [0, parts) on the pool and the calling
 * thread; returns when all are done. */
void oclblas__pool_run(size_t parts, oclblas__part_fn fn, void *arg);
/* The threads a job may use, the caller included (OCLBLAS_HOST_THREADS). */
unsigned oclblas__pool_threads(void);
/* Elements [e0, e1) of the packed rows x cols rectangle (ld = rows) from
 * or into the column-major matrix at src/dst with leading dimension ld,
 * with the pool's threads; dst/src of the packed side point at element e0. */
void oclblas__pack(const float *src, size_t ld, size_t rows, size_t e0, size_t e1, float *dst);
void oclblas__unpack(const float *src, size_t e0, size_t e1, float *dst, size_t ld, size_t rows);

#endif
