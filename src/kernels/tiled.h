/*
 * What the plan asks of a kernel that computes C tile by tile on padded
 * operands (gemm_fast, gemm_tc) or packed ones (gemm_cpu), through its
 * descriptor's `tiled` member: the tile a set computes, the vector widths
 * it reads A and B in and the layouts it reads them in place in (or the
 * panels it reads them packed in), the set that runs in a math mode, its
 * step on the arguments such kernels share, and a word for the log.
 * The plan pads the operands, splits k and sums the slices in the same way
 * for every such kernel (plan/plan.c), so a new one needs only its
 * descriptor.
 */
#ifndef OCLBLAS_TILED_H
#define OCLBLAS_TILED_H

#include "kernels/helpers.h"
#include "kernels/step.h"

/* The arguments tiled kernels share: C (m x n) = alpha A B + beta C over k, in slices of k_slice: slice z is
 * written into its own copy of C, c_slice elements after the previous one
 * (one slice: into C itself). A is m x k with m contiguous, B k x n with n
 * contiguous (unless the flags below say k contiguous); both are padded to
 * the tile (m, n and k to multiples of the tile, zeros beyond the real
 * sizes; m and n need not be where the kernel reads them ragged, nor k
 * in its peeled program, below).
 * Offsets and leading dimensions are in elements; those of A must be
 * multiples of the kernel's vwa, of B of its vwb. C is read and written in
 * place, guarded at its edges. */
typedef struct {
    size_t m, n, k, k_slice, c_slice;
    float alpha, beta;
    oclblas__buf a, b, c;
    size_t a_off, a_ld, b_off, b_ld, c_off, c_ld;
    /* A strided batch over the whole k (k not split; count 0 or 1: one
     * problem); A's and B's strides multiples of vwa and vwb. */
    oclblas__batch batch;
    /* A stored with k contiguous, (m, k) at a[a_off + m * a_ld + k], and B,
     * (k, n) at b[b_off + n * b_ld + k]: only where the set reads it so
     * (reads_k_contiguous below). */
    int a_k_contiguous, b_k_contiguous;
    /* The set's second program (only where it has one, peels): tile 0
     * of each slice of k fetched before the loop, partly as zeros where k
     * is not whole tiles. */
    int peeled;
    /* A (B) packed in panels (the tiled pack hook below), for a kernel
     * that reads panels (the tile's panel_a and panel_b): offset 0,
     * leading dimension unused; else as stored. */
    int a_packed, b_packed;
    /* C stored transposed, (m, n) at c[c_off + m * c_ld + n]: a kernel
     * that reads panels computing C^T = B^T A^T (one slice of k). */
    int c_transposed;
} oclblas__tile_args;

/* The head of every tiled kernel's argument list (m, n, k, k_slice, the
 * stride of C's slices or problems, alpha, beta), appended to s, and the
 * launch's third dimension, s->geo.global[2]: the batch's problems, or the
 * slices of k (defined beside gemm_fast's whole list, gemm_fast.c). */
void oclblas__tile_args_head(const oclblas__tile_args *a, oclblas__step *s);

/* What a set computes per work-group: a tile of C (m x n) and a step of k;
 * padded sizes are multiples of them. An operand read in place (not padded
 * into scratch) has its offset, leading dimension and alignment multiples
 * of the vector width it is read in: vwa for A, vwb for B. A kernel whose
 * operands are packed in panels (gemm_cpu) gives the panels' rows of A
 * and of B, panel_a and panel_b (dividing the tile's m and n), and reads
 * in place only the operands the plan's rule for such kernels lets it
 * (plan.c, panel_in_place); 0 for the others, whose operands are padded
 * 2-D. */
typedef struct {
    size_t m, n, k;
    size_t vwa, vwb;
    size_t panel_a, panel_b;
} oclblas__tile;

struct oclblas__tiled {
    void (*tile)(const oclblas__params *p, oclblas__tile *out);
    void (*step)(const oclblas__params *p, const oclblas__tile_args *a, oclblas__step *out);
    /* Every set reads A stored with m contiguous and B with n contiguous in
     * place. Whether the set also reads in place an A (operand 0) or a B
     * (1) stored with k contiguous, transposing it on its way into local
     * memory; NULL (or 0): never, such an operand goes through the
     * helpers' transposing pass. */
    int (*reads_k_contiguous)(const oclblas__params *p, int operand);
    /* A kernel that reads panels packs an operand into them itself, A
     * (operand 0) in panels of the tile's panel_a rows or B (1) of
     * panel_b, from the padding's arguments (dst_rows whole panels), in
     * the program of program (its main step's parameters, switches set:
     * one program for both steps); NULL for the others, padded by the
     * helpers. */
    void (*pack)(const oclblas__params *program, int operand, const oclblas__pad_args *a, oclblas__step *out);
    /* Whether the kernel reads operands in place whose m (A) or n (B) is
     * not whole tiles, where it is at least a tile and whole vectors of the
     * operand's width (a tile that would cross the edge of C is moved back
     * to end at it); 0: such an operand is padded. */
    int reads_ragged;
    /* Whether the peeled program (below) reads such operands, where the
     * first does not (reads_ragged 0). */
    int peeled_reads_ragged;
    /* Whether the set has a second program, peeled: tile 0 of k fetched
     * before the loop, which reads operands in place whose k is not whole
     * tiles (an operand stored with k contiguous: k whole vectors), given
     * the real k, and on some sets runs faster whatever k; NULL or 0: such
     * operands are padded and the kernel given k padded. */
    int (*peels)(const oclblas__params *p);
    /* The set that runs in a math mode (gemm_tc: its number of products);
     * NULL: the set as it is, in every mode. */
    oclblas__params (*for_mode)(const oclblas__params *p, oclblas_math_mode mode);
    /* A word the log adds to the kernel's name for a set ("6xBF16"); NULL: none. */
    const char *(*label)(const oclblas__params *p);
};

#endif
