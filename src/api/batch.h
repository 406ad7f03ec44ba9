/*
 * The batched calls' own declarations (batch_checks.c, batch_cl.c,
 * batch_host.c): a batch's problems as values, the rule that no two
 * problems write the same output element, and the device-buffer runners
 * that the host-pointer calls run after their transfers. A strided batch's
 * plan is the single problem's with a batch dimension (plan.c); how a call
 * flows: the entry point checks every problem by the single call's rules
 * plus the batch's own, then the runner plans and enqueues the batch in as
 * few launches as the kernels allow. Internal to the library.
 */
#ifndef OCLBLAS_BATCH_H
#define OCLBLAS_BATCH_H

#include "oclblas.h"

#include <stdint.h>

/* ---- the outputs of a batch must not overlap (batch_checks.c) ---------- */

/* An output of one problem: outer lines of inner contiguous elements, ld
 * apart (inner <= ld), starting at byte address or offset `start` (bytes:
 * elements are 4 bytes wide). */
typedef struct {
    uintptr_t start;
    size_t inner, outer, ld;
} oclblas__out_rect;

/* Whether two of count problems of a strided batch write the same
 * element: outputs of inner x outer elements (leading dimension ld),
 * stride elements apart. Exact: interleaved outputs that share no element
 * pass. */
int oclblas__strided_overlap(size_t inner, size_t outer, size_t ld, size_t stride, size_t count);

/* The same for outputs anywhere (rects, reordered by start): exact
 * between outputs of one leading dimension whose starts are whole elements
 * apart, else whether their spans intersect. Empty outputs (inner or outer
 * 0) never overlap. */
int oclblas__rects_overlap(oclblas__out_rect *rects, size_t count);

/* The element one past the last of a strided batch's operand: off + (count
 * - 1) * stride + span, or SIZE_MAX where that overflows. */
size_t oclblas__batch_end(size_t off, size_t stride, size_t count, size_t span);

/* ---- a batch's problems as values --------------------------------------- */

/* One SGEMM of a grouped batch, in the caller's layout, with the offsets
 * of its operands in the call's three buffers. */
typedef struct {
    oclblas_transpose trans_a, trans_b;
    size_t m, n, k;
    float alpha, beta;
    size_t a_off, lda, b_off, ldb, c_off, ldc;
} oclblas__gemm_item;

/* The stored operands of an SGEMM in the caller's layout as inner x outer
 * (inner contiguous): A's, B's and C's. */
void oclblas__gemm_shapes(oclblas_layout layout, const oclblas__gemm_item *g, size_t inner[3], size_t outer[3]);

/* One problem by the single call's rules (checks.c): its BLAS arguments,
 * and for device buffers (device 1) what the kernels take as int. */
oclblas_status oclblas__gemm_item_check(oclblas_layout layout, const oclblas__gemm_item *g, int device);

/* The problems of a grouped batch, each group checked by the single call's
 * rules in order (OCLBLAS_NULL_ARRAY for a missing array of the groups, or
 * of the problems' operands: host pointers or offsets, operands[3]), as a
 * list in *items (malloc'ed, offsets 0; NULL when there is none). */
oclblas_status oclblas__grouped_items(oclblas_layout layout, const oclblas_transpose *trans_a,
                                      const oclblas_transpose *trans_b, const size_t *m, const size_t *n,
                                      const size_t *k, const float *alpha, const size_t *lda, const size_t *ldb,
                                      const float *beta, const size_t *ldc, size_t group_count,
                                      const size_t *group_size, const void *const operands[3], int device,
                                      oclblas__gemm_item **items, size_t *count);

/* OCLBLAS_BATCH_OVERLAP where two of the problems would write one element
 * of C, whose starts c_start gives (bytes: an address or 4 x an offset). */
oclblas_status oclblas__items_overlap(oclblas_layout layout, const oclblas__gemm_item *items, size_t count,
                                      const uintptr_t *c_start);

/* ---- device-buffer runners: arguments already checked (batch_cl.c) ------ */

/* Each runner computes in mode, the call's math mode, read once by the
 * front door (as a single call's record holds it), so that every launch of
 * one batch runs in the mode the call was made in. */

/* A strided batch of count SGEMMs on queue, in as few launches as the
 * kernels allow; *event (when not NULL) completes with the last. */
oclblas_status oclblas__sgemm_strided_run(oclblas_layout layout, const oclblas__gemm_item *g, size_t stride_a,
                                          size_t stride_b, size_t stride_c, size_t count, cl_mem a, cl_mem b,
                                          cl_mem c, oclblas_math_mode mode, cl_command_queue queue,
                                          cl_event *event);
/* count SGEMMs of their own: consecutive problems of one shape whose
 * offsets step evenly run as one strided batch. */
oclblas_status oclblas__sgemm_items_run(oclblas_layout layout, const oclblas__gemm_item *items, size_t count,
                                        cl_mem a, cl_mem b, cl_mem c, oclblas_math_mode mode,
                                        cl_command_queue queue, cl_event *event);
/* A strided batch of SGEMVs; x_offset and y_offset as the caller gives
 * them (the runner starts a negative increment's vector at its far end). */
oclblas_status oclblas__sgemv_strided_run(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n,
                                          float alpha, cl_mem a, size_t a_offset, size_t lda, size_t stride_a,
                                          cl_mem x, size_t x_offset, ptrdiff_t incx, size_t stride_x, float beta,
                                          cl_mem y, size_t y_offset, ptrdiff_t incy, size_t stride_y,
                                          size_t count, oclblas_math_mode mode, cl_command_queue queue,
                                          cl_event *event);

#endif
