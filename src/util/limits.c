/*
 * The index limit: the most elements that one kernel launch, one device
 * buffer the library makes, or one call of the host BLAS (whose Fortran
 * ints stop at 2^31 - 1) may span. Host-pointer calls cut their operands
 * into tiles below it, and device-buffer calls whose operands reach beyond
 * it run as sub-problems that stay below it, so any size works. It is
 * 2^31 - 1, the kernels' int; OCLBLAS_INDEX_LIMIT=N lowers it (never
 * raises it) so that small problems take the paths of huge ones: the tests
 * use it instead of allocating gigabytes. Read once.
 */
#include "util/util.h"

#include <limits.h>
#include <stdlib.h>

static pthread_once_t limit_once = PTHREAD_ONCE_INIT;
static size_t limit = (size_t)INT_MAX;

/* Below this nothing useful fits: a tile of 16 x 16 with a k of 16. */
#define SMALLEST_LIMIT 256

static void read_limit(void)
{
    const char *v = getenv("OCLBLAS_INDEX_LIMIT");
    if (!v || !*v)
        return;
    char *end;
    const unsigned long long n = strtoull(v, &end, 10);
    if (*end || n < SMALLEST_LIMIT || v[0] == '-') {
        oclblas__log("OCLBLAS_INDEX_LIMIT=%s is not a count from %d up: ignored", v, SMALLEST_LIMIT);
        return;
    }
    if (n < limit)
        limit = (size_t)n;
    oclblas__log("index limit %zu elements (OCLBLAS_INDEX_LIMIT)", limit);
}

size_t oclblas__index_limit(void)
{
    pthread_once(&limit_once, read_limit);
    return limit;
}
