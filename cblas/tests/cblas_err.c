/*
 * This program's cblas_xerbla, in place of the drop-in's (cblas_err.h): it
 * records the call instead of printing it.
 */
#include "cblas_err.h"
#include "oclblas_cblas.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

cblas_err_record cblas_err;

void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
    ++cblas_err.calls;
    cblas_err.info = info;
    snprintf(cblas_err.rout, sizeof cblas_err.rout, "%s", rout);
    va_list ap;
    va_start(ap, form);
    vsnprintf(cblas_err.message, sizeof cblas_err.message, form, ap);
    va_end(ap);
}

void cblas_err_reset(void) { memset(&cblas_err, 0, sizeof cblas_err); }
