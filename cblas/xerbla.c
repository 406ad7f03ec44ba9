/*
 * The default error handlers of the drop-in library, the one place where it
 * prints without OCLBLAS_VERBOSE: an illegal argument is reported on stderr
 * as reference CBLAS and BLAS word it, and then, unlike them, the handler
 * returns and the call returns untouched, so that a library never ends its
 * caller's process. They live in a file of their own and are exported like
 * the routines: cblas.c calls them through the dynamic symbol table, so a
 * program's own cblas_xerbla or xerbla_ takes their place.
 */
#include "report.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define CBLAS_EXPORT __attribute__((visibility("default")))

CBLAS_EXPORT void cblas_xerbla(int info, const char *rout, const char *form, ...);
CBLAS_EXPORT void xerbla_(const char *srname, const int *info, size_t srname_len);

_Thread_local int oclblas__cblas_row_major_report;

int oclblas__cblas_caller_position(const char *rout, int info)
{
    /* Pairs of positions that a row-major call swaps, per routine. */
    static const struct {
        const char *routine;
        int swaps[2][2];
    } routines[] = {{"gemm", {{4, 5}, {9, 11}}}, {"gemv", {{3, 4}, {0, 0}}}};
    for (size_t r = 0; r < sizeof routines / sizeof routines[0]; ++r) {
        if (!rout || !strstr(rout, routines[r].routine))
            continue;
        for (int p = 0; p < 2; ++p) {
            if (info == routines[r].swaps[p][0])
                return routines[r].swaps[p][1];
            if (info == routines[r].swaps[p][1])
                return routines[r].swaps[p][0];
        }
    }
    return info;
}

void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
    if (oclblas__cblas_row_major_report)
        info = oclblas__cblas_caller_position(rout, info);
    /* One buffer and one write, so that reports from several threads stay whole. */
    char msg[512];
    int n = 0;
    if (info)
        n = snprintf(msg, sizeof msg, "Parameter %d to routine %s was incorrect\n", info, rout ? rout : "?");
    if (n >= 0 && (size_t)n < sizeof msg && form) {
        va_list ap;
        va_start(ap, form);
        vsnprintf(msg + n, sizeof msg - (size_t)n, form, ap);
        va_end(ap);
    }
    fputs(msg, stderr);
}

void xerbla_(const char *srname, const int *info, size_t srname_len)
{
    /* Fortran pads the name with blanks; C callers that leave the hidden
     * length out pass a NUL-terminated name and garbage for the length. */
    size_t len = 0;
    while (len < srname_len && len < 32 && srname && srname[len] && srname[len] != ' ')
        ++len;
    fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", (int)len, srname ? srname : "",
            info ? *info : 0);
}
