/*
 * What the drop-in library's routines (cblas.c) tell its default error
 * handler (xerbla.c) beside the reference arguments: reference CBLAS hands
 * cblas_xerbla the position in the column-major call it makes, and its
 * default handler prints the caller's position for a row-major call, which
 * it learns from a global. Internal to liboclblas_cblas.
 */
#ifndef OCLBLAS_CBLAS_REPORT_H
#define OCLBLAS_CBLAS_REPORT_H

/* 1 while a row-major call reports to cblas_xerbla on this thread. */
extern _Thread_local int oclblas__cblas_row_major_report;

/* The position that the caller of a row-major call wrote, for the number
 * reference CBLAS passes cblas_xerbla for routine rout: sgemm swaps M and N
 * (4, 5) and lda and ldb (9, 11), sgemv M and N (3, 4). */
int oclblas__cblas_caller_position(const char *rout, int info);

#endif
