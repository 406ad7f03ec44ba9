/*
 * gemm_fast's descriptor (gemm_fast.c): the indices of its parameters, and
 * the argument list it shares with gemm_tc. The plans reach it through
 * its tiled member (kernels/tiled.h).
 */
#ifndef OCLBLAS_KERNEL_GEMM_FAST_H
#define OCLBLAS_KERNEL_GEMM_FAST_H

#include "kernels/tiled.h"

enum { GF_MWG, GF_NWG, GF_KWG, GF_MDIMC, GF_NDIMC, GF_MDIMA, GF_NDIMB, GF_KWI, GF_VWM, GF_VWN,
       GF_STRM, GF_STRN, GF_SA, GF_SB, GF_COUNT };
/* Not a parameter: which of a set's two programs a step runs (1: the one
 * with tile 0 of k fetched before the loop, PEELED), in the slot after the
 * parameters, set by the step alone; the database and the tuner never see
 * it, and the program cache keys on it with the rest. */
enum { GF_PEELED = GF_COUNT };
_Static_assert(GF_PEELED < OCLBLAS__MAX_PARAMS, "gemm_fast's program switch needs a slot after its parameters");

void oclblas__gemm_fast_step(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *out);
/* The argument list that gemm_fast and gemm_tc share, appended to s (A and
 * B's offsets, leading dimensions and batch strides in vectors of vwa and
 * vwb floats), and the launch's third dimension, s->geo.global[2]: the
 * batch's problems, or the slices of k. */
void oclblas__gemm_tile_args(const oclblas__tile_args *a, size_t vwa, size_t vwb, oclblas__step *s);

#endif
