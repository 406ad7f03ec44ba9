/*
 * The index limit: the most elements that one kernel launch, one device
 * buffer the library makes, or one call of the host BLAS (whose Fortran
 * ints stop at 2^31 - 1) may span. Host-pointer calls cut their operands
 * into tiles below it, and device-buffer calls whose operands reach beyond
 * it run as sub-problems that stay below it, so any size works. It is
 * 2^31 - 1, the kernels' int; OCLBLAS_INDEX_LIMIT=N lowers it (never
 * raises it) so that small problems take the paths of huge ones: the tests
 * use it instead of allocating gigabytes (settings.c reads it).
 */
#include "util/settings.h"
#include "util/util.h"

size_t oclblas__index_limit(void) { return oclblas__settings_get()->index_limit; }
