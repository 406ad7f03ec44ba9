/*
 * This program's cblas_xerbla (cblas_err.c), for the drop-in's tests that
 * call it with bad arguments: it records each call, and the test reads
 * what the drop-in reported.
 */
#ifndef OCLBLAS_CBLAS_TEST_CBLAS_ERR_H
#define OCLBLAS_CBLAS_TEST_CBLAS_ERR_H

/* How many calls since the last reset, and the last one's argument
 * position, routine name and formatted message. */
typedef struct {
    int calls, info;
    char rout[64], message[256];
} cblas_err_record;

extern cblas_err_record cblas_err;

void cblas_err_reset(void);

#endif
