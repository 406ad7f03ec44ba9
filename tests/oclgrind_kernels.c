/*
 * Every kernel with every shipped parameter set, for Oclgrind's checks
 * (.ci/extra runs this program under oclgrind with its memory, data-race
 * and uninitialised-value checks). For each database entry compiled into
 * the library (every JSON file under database/, the global defaults
 * included) and each kernel of the list, the entry's set for every shape
 * and each class's set are forced in turn (oclblas_override_params) on
 * the default device, which under oclgrind is its simulator, and small
 * ragged problems that run that kernel are computed through the
 * device-buffer API (offsets, padded leading dimensions, both layouts,
 * transposes, negative increments, strided batches, k in slices, split
 * reductions; and one tile of gemm_fast's set read in place along k) and
 * checked against a float64 reference, the memory around each result
 * included. A set the simulated device cannot run (past its work-group
 * size or local memory) is named and skipped; a kernel the device is not
 * capable of is skipped by its descriptor's capable predicate: gemm_tc,
 * whose mma.sync and cp.async are NVIDIA inline PTX. Oclgrind reports
 * what it finds itself; this program's exit status says whether every
 * result was right.
 *
 * No buffer is released while it runs: the operands live in three buffers
 * made once, each problem's at the end of its buffer (an access past an
 * operand is past the buffer; OCLGRIND_AT_START=1: at the start), and the library's scratch is reserved at
 * the start, large enough for every problem here. Oclgrind 21.10 keeps the
 * shadow memory of a released buffer, sized as that buffer, for the next
 * buffer that takes its index, and then reports every read beyond the old
 * size as uninitialised.
 *
 *   oclgrind_kernels [KERNEL...]   only these kernels (default: all)
 * OCLGRIND_SET=TEXT runs only the sets whose parameters or origin contain
 * TEXT, OCLGRIND_SKIP=TEXT all the others, and OCLGRIND_CASE=TEXT[|TEXT...]
 * only the problems whose description contains one of them: for CI's
 * selections, and to reproduce one finding.
 */
#include "db/db.h"
#include "device/device.h"
#include "kernels/kernel.h"
#include "runtime/launch.h"
#include "runtime/scratch.h"
#include "util/verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static int failures;

/* ---- problems ------------------------------------------------------------ */

/* The operands' buffers, made once (see above), and their size in floats. */
#define OPERAND_FLOATS ((size_t)1 << 16)
static cl_mem operand[3];

/* Operand i's count elements from host, placed at the end of its buffer
 * (the index returned), so that a read or write past the operand's last
 * element is past the buffer, where Oclgrind sees it; with
 * OCLGRIND_AT_START=1 at its start, for the uninitialised-value check:
 * Oclgrind 21.10 reports operands written past a buffer's start as
 * uninitialised (even where the whole buffer was written first). At the
 * start, the rest of the buffer is never written, so a use of what lies
 * past the operand is still reported. */
static size_t operand_at_end(int i, const float *host, size_t count)
{
    if (count > OPERAND_FLOATS) {
        fprintf(stderr, "oclgrind_kernels: a problem larger than its buffers\n");
        exit(2);
    }
    const char *at_start = getenv("OCLGRIND_AT_START");
    const size_t base = at_start && strcmp(at_start, "1") == 0 ? 0 : OPERAND_FLOATS - count;
    const cl_int err = clEnqueueWriteBuffer(queue, operand[i], CL_TRUE, base * sizeof(float), count * sizeof(float),
                                            host, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clEnqueueWriteBuffer: %d\n", err);
        exit(2);
    }
    return base;
}

/* Elements an operand of outer lines of inner elements, ld apart, spans. */
static size_t extent(size_t outer, size_t inner, size_t ld) { return (outer - 1) * ld + inner; }

/* Whether OCLGRIND_CASE leaves a problem out; else it is named, so that
 * what Oclgrind reports next belongs to it. */
static int skip_case(const char *what)
{
    const char *only = getenv("OCLGRIND_CASE");
    if (only && *only) {
        /* TEXT[|TEXT...] */
        char list[256], *save = NULL;
        snprintf(list, sizeof list, "%s", only);
        int named = 0;
        for (char *t = strtok_r(list, "|", &save); t && !named; t = strtok_r(NULL, "|", &save))
            named = strstr(what, t) != NULL;
        if (!named)
            return 1;
    }
    printf("  %s\n", what);
    fflush(stdout);
    return 0;
}

/* Element (i, j) of a rows x cols matrix stored with ld in a layout. */
static size_t at(int col, size_t i, size_t j, size_t ld) { return col ? j * ld + i : i * ld + j; }

/* SGEMM on device buffers against the float64 reference, one problem or a
 * strided batch of them (problems a few elements apart, so that the gaps
 * show a write past one); what names the case in a failure. With whole,
 * A's and B's leading dimensions, offsets and strides are whole vectors of
 * 8 (and so, with sizes that are too, each operand's first element), so
 * that tile-aligned sizes are read in place. */
static void gemm_case_as(const char *what, oclblas_layout layout, oclblas_transpose ta, oclblas_transpose tb,
                         size_t m, size_t n, size_t k, float alpha, float beta, size_t batch, int whole)
{
    if (skip_case(what))
        return;
    const int col = layout == OCLBLAS_COL_MAJOR, at_ = ta != OCLBLAS_NO_TRANS, bt = tb != OCLBLAS_NO_TRANS;
    const size_t ar = at_ ? k : m, ac = at_ ? m : k, br = bt ? n : k, bc = bt ? k : n;
    /* Leading dimensions past the stored rows (or columns), offsets, and strides past each problem. */
    const size_t lda = (col ? ar : ac) + (whole ? 8 : 3), ldb = (col ? br : bc) + (whole ? 8 : 1);
    const size_t ldc = (col ? m : n) + 2;
    const size_t ao = whole ? 8 : 5, bo = whole ? 16 : 1, co = 7;
    const size_t sa = (col ? ac : ar) * lda + (whole ? 8 : 2), sb = (col ? bc : br) * ldb + (whole ? 8 : 3);
    const size_t sc = (col ? n : m) * ldc + 1;
    const size_t na = ao + (batch - 1) * sa + extent(col ? ac : ar, col ? ar : ac, lda);
    const size_t nb = bo + (batch - 1) * sb + extent(col ? bc : br, col ? br : bc, ldb);
    const size_t nc = co + (batch - 1) * sc + extent(col ? n : m, col ? m : n, ldc);
    if (na > OPERAND_FLOATS || nb > OPERAND_FLOATS || nc > OPERAND_FLOATS) { /* a large set's tiles */
        printf("  %s: skipped, larger than the buffers\n", what);
        return;
    }
    float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c = malloc(nc * sizeof *c), *got = malloc(nc * sizeof *got);
    uint32_t seed = (uint32_t)(m * 131 + n * 17 + k);
    oclblas__fill_uniform(a, na, &seed);
    oclblas__fill_uniform(b, nb, &seed);
    oclblas__fill_uniform(c, nc, &seed);
    const size_t pa = operand_at_end(0, a, na), pb = operand_at_end(1, b, nb), pc = operand_at_end(2, c, nc);
    cl_mem da = operand[0], db = operand[1], dc = operand[2];
    const oclblas_status st =
        batch == 1 ? oclblas_sgemm_cl(layout, ta, tb, m, n, k, alpha, da, pa + ao, lda, db, pb + bo, ldb, beta, dc,
                                      pc + co, ldc, queue, NULL)
                   : oclblas_sgemm_strided_batched_cl(layout, ta, tb, m, n, k, alpha, da, pa + ao, lda, sa, db, pb + bo,
                                                      ldb, sb, beta, dc, pc + co, ldc, sc, batch, queue, NULL);
    if (st == OCLBLAS_SUCCESS)
        clEnqueueReadBuffer(queue, dc, CL_TRUE, pc * sizeof *got, nc * sizeof *got, got, 0, NULL, NULL);
    if (st != OCLBLAS_SUCCESS) {
        printf("  FAILED %s: %s\n", what, oclblas_status_name(st));
        ++failures;
    } else {
        size_t bad = 0;
        double worst = 0;
        for (size_t z = 0; z < batch; ++z)
            for (size_t j = 0; j < n; ++j)
                for (size_t i = 0; i < m; ++i) {
                    double s = 0, mag = 0;
                    for (size_t p = 0; p < k; ++p) {
                        const double x = a[ao + z * sa + (at_ ? at(col, p, i, lda) : at(col, i, p, lda))];
                        const double y = b[bo + z * sb + (bt ? at(col, j, p, ldb) : at(col, p, j, ldb))];
                        s += x * y;
                        mag += fabs(x * y);
                    }
                    const size_t e = co + z * sc + at(col, i, j, ldc);
                    const double want = alpha * s + (beta != 0.0f ? beta * c[e] : 0.0);
                    const double bound = oclblas__error_bound(k, fabs(alpha) * mag + fabs(beta) * fabs(c[e]));
                    const double err = fabs(got[e] - want) / bound;
                    worst = err > worst ? err : worst;
                    bad += !(err <= 1.0);
                }
        /* Everything outside the problems' C (offset, padding, gaps) as it was. */
        size_t written = 0;
        for (size_t e = 0; e < nc; ++e) {
            const size_t rel = e < co ? 0 : (e - co) % sc;
            const int inside = e >= co && rel % ldc < (col ? m : n) && rel / ldc < (col ? n : m);
            written += !inside && memcmp(&got[e], &c[e], sizeof(float)) != 0;
        }
        if (bad || written) {
            printf("  FAILED %s: %zu elements wrong (worst %.3g of the bound), %zu written outside C\n", what, bad,
                   worst, written);
            ++failures;
        }
    }
    free(a);
    free(b);
    free(c);
    free(got);
}

static void gemm_case(const char *what, oclblas_layout layout, oclblas_transpose ta, oclblas_transpose tb, size_t m,
                      size_t n, size_t k, float alpha, float beta, size_t batch)
{
    gemm_case_as(what, layout, ta, tb, m, n, k, alpha, beta, batch, 0);
}

static void gemv_case(const char *what, oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n,
                      ptrdiff_t incx, ptrdiff_t incy, float alpha, float beta)
{
    if (skip_case(what))
        return;
    const int col = layout == OCLBLAS_COL_MAJOR, t = trans != OCLBLAS_NO_TRANS;
    const size_t lx = t ? m : n, ly = t ? n : m, sx = (size_t)(incx < 0 ? -incx : incx), sy = (size_t)(incy < 0 ? -incy : incy);
    const size_t lda = (col ? m : n) + 3, ao = 2, xo = 3, yo = 1;
    const size_t na = ao + extent(col ? n : m, col ? m : n, lda), nx = xo + (lx - 1) * sx + 1, ny = yo + (ly - 1) * sy + 1;
    float *a = malloc(na * sizeof *a), *x = malloc(nx * sizeof *x), *y = malloc(ny * sizeof *y), *got = malloc(ny * sizeof *got);
    uint32_t seed = (uint32_t)(m * 7 + n);
    oclblas__fill_uniform(a, na, &seed);
    oclblas__fill_uniform(x, nx, &seed);
    oclblas__fill_uniform(y, ny, &seed);
    const size_t pa = operand_at_end(0, a, na), px = operand_at_end(1, x, nx), py = operand_at_end(2, y, ny);
    const oclblas_status st = oclblas_sgemv_cl(layout, trans, m, n, alpha, operand[0], pa + ao, lda, operand[1],
                                               px + xo, incx, beta, operand[2], py + yo, incy, queue, NULL);
    if (st == OCLBLAS_SUCCESS)
        clEnqueueReadBuffer(queue, operand[2], CL_TRUE, py * sizeof *got, ny * sizeof *got, got, 0, NULL, NULL);
    if (st != OCLBLAS_SUCCESS) {
        printf("  FAILED %s: %s\n", what, oclblas_status_name(st));
        ++failures;
    } else {
        size_t bad = 0;
        for (size_t i = 0; i < ly; ++i) {
            double s = 0, mag = 0;
            for (size_t p = 0; p < lx; ++p) {
                const double v = a[ao + (t ? at(col, p, i, lda) : at(col, i, p, lda))] *
                                 (double)x[xo + (incx > 0 ? p : lx - 1 - p) * sx];
                s += v;
                mag += fabs(v);
            }
            const size_t e = yo + (incy > 0 ? i : ly - 1 - i) * sy;
            const double want = alpha * s + (beta != 0.0f ? beta * y[e] : 0.0);
            bad += !(fabs(got[e] - want) <= oclblas__error_bound(lx, fabs(alpha) * mag + fabs(beta) * fabs(y[e])));
        }
        size_t written = 0;
        for (size_t e = 0; e < ny; ++e)
            written += (e < yo || (e - yo) % sy != 0) && memcmp(&got[e], &y[e], sizeof(float)) != 0;
        if (bad || written) {
            printf("  FAILED %s: %zu elements wrong, %zu written outside y\n", what, bad, written);
            ++failures;
        }
    }
    free(a);
    free(x);
    free(y);
    free(got);
}

/* ---- what runs each kernel ----------------------------------------------- */

/* gemm_fast (or with cpu gemm_cpu, GEMM_CPU=1, on operands that its
 * pack_a and pack_b pack or that it reads as stored, its last panels moved
 * back to end at the edge) and the helpers: every product indirect
 * (GEMM_MIN_INDIRECT=0): ragged sizes that the helpers pad, with and
 * without turning an operand, both layouts; a strided batch (the launches'
 * third dimension); k in slices (GEMM_MAX_SLICE_K=1: a slice per k tile)
 * summed by sum_slices; C = beta C; tile-aligned operands stored with k
 * contiguous, read in place along k, alone, batched and in slices; and
 * operands whose m, n and k are not whole tiles read in place, alone,
 * batched and in slices. */
static void run_indirect(int cpu)
{
    const char *kernel = cpu ? "GEMM_CPU=1," : "";
    char routine[128];
    snprintf(routine, sizeof routine, "%sGEMM_MIN_INDIRECT=0", kernel);
    oclblas_override_params(device, "routine", routine);
    gemm_case("sgemm 19x13x37 NT", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 19, 13, 37, 1.5f, 0.5f, 1);
    gemm_case("sgemm 21x11x9 TN row-major, beta 0", OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 21, 11, 9, -1.0f,
              0.0f, 1);
    gemm_case("sgemm 5x7x3 alpha 0 (C = beta C)", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 5, 7, 3, 0.0f,
              3.0f, 1);
    gemm_case("sgemm batch of 3, 11x9x13 TN", OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 11, 9, 13, 1.0f, 0.5f,
              3);
    /* One tile of C over two tiles of k of the set in force, A transposed
     * and B not: both read in place along k where the set has local memory
     * for them (else transposed by the helpers). */
    char text[1024];
    int mwg = 0, nwg = 0, kwg = 0;
    if (oclblas_get_params(device, "gemm_fast", text, sizeof text) == OCLBLAS_SUCCESS) {
        const char *v;
        mwg = (v = strstr(text, "MWG=")) ? atoi(v + 4) : 0;
        nwg = (v = strstr(text, "NWG=")) ? atoi(v + 4) : 0;
        kwg = (v = strstr(text, "KWG=")) ? atoi(v + 4) : 0;
    }
    /* k a multiple of 8 too: the operands' first elements whole vectors. */
    const size_t tm = (size_t)mwg, tn = (size_t)nwg, tk = (size_t)(kwg % 4 ? 8 * kwg : 2 * kwg);
    if (tm && tn && tk) {
        gemm_case_as("sgemm along k, one tile TN", OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, tm, tn, tk,
                     1.5f, 0.5f, 1, 1);
        gemm_case_as("sgemm along k, batch of 2 tiles NT row-major, beta 0", OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS,
                     OCLBLAS_TRANS, tn, tm, tk, -1.0f, 0.0f, 2, 1);
    }
    /* Not whole tiles, read in place: m and n a tile and 8 more (whole
     * vectors; the edge tiles move back to end at the edge), k a tile and
     * a part (where the set stages both operands through local memory, its
     * program for such a k reads the first tile of k from before the
     * operands' start, as zeros). */
    const size_t rm = tm + 8, rn = tn + 8, rk = tk + (kwg > 8 ? 8 : 4);
    if (tm && tn && tk) {
        gemm_case_as("sgemm ragged in place NN", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, rm, rn, rk,
                     1.5f, 0.5f, 1, 1);
        gemm_case_as("sgemm ragged in place NT row-major, batch of 2, beta 0", OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS,
                     OCLBLAS_TRANS, rn, rm, rk, -1.0f, 0.0f, 2, 1);
    }
    snprintf(routine, sizeof routine, "%sGEMM_MIN_INDIRECT=0,GEMM_MAX_SLICE_K=1", kernel);
    oclblas_override_params(device, "routine", routine);
    gemm_case("sgemm 9x17x40 TT, k in slices", OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_TRANS, 9, 17, 40, 1.0f, 1.0f, 1);
    if (tm && tn && tk)
        gemm_case_as("sgemm ragged in place TN, k in slices", OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, rm,
                     rn, rk, 1.0f, 1.0f, 1, 1);
    if (tm && tn && tk)
        gemm_case_as("sgemm along k, one tile TN, k in slices", OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, tm,
                     tn, tk, 1.0f, 1.0f, 1, 1);
    oclblas_override_params(device, "routine", NULL);
}

/* gemm_direct: every product direct (GEMM_MIN_INDIRECT above the sizes), a strided batch too. */
static void run_direct(void)
{
    oclblas_override_params(device, "routine", "GEMM_MIN_INDIRECT=4096");
    gemm_case("sgemm 19x13x37 NT", OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 19, 13, 37, 1.5f, 0.5f, 1);
    gemm_case("sgemm 21x11x9 TN row-major, beta 0", OCLBLAS_ROW_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 21, 11, 9, -1.0f,
              0.0f, 1);
    gemm_case("sgemm batch of 3, 11x9x13 NT row-major", OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 11, 9, 13,
              -0.5f, 1.0f, 3);
    oclblas_override_params(device, "routine", NULL);
}

/* gemv_n (y = A x along A's contiguous direction) and gemv_t: ragged sizes,
 * strided and negative increments, both layouts, and a reduction split
 * over work-groups with its partial sums (GEMV_GROUPS_PER_CU high). */
static void run_gemv(oclblas_transpose col_trans)
{
    const oclblas_transpose row_trans = col_trans == OCLBLAS_NO_TRANS ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS;
    gemv_case("sgemv 37x29", OCLBLAS_COL_MAJOR, col_trans, 37, 29, 1, 1, 1.5f, 0.5f);
    gemv_case("sgemv 20x45 row-major, incx -2, incy 3, beta 0", OCLBLAS_ROW_MAJOR, row_trans, 20, 45, -2, 3, 1.0f,
              0.0f);
    oclblas_override_params(device, "routine", "GEMV_GROUPS_PER_CU=64");
    const int n_kernel = col_trans == OCLBLAS_NO_TRANS;
    gemv_case("sgemv reduction split", OCLBLAS_COL_MAJOR, col_trans, n_kernel ? 21 : 200, n_kernel ? 200 : 21, 1, 1,
              1.0f, 1.0f);
    oclblas_override_params(device, "routine", NULL);
}

static void run_kernel(int kernel)
{
    switch (kernel) {
    case OCLBLAS__K_GEMM_FAST:
    case OCLBLAS__K_HELPERS: run_indirect(0); break;
    case OCLBLAS__K_GEMM_CPU: run_indirect(1); break;
    case OCLBLAS__K_GEMM_DIRECT: run_direct(); break;
    case OCLBLAS__K_GEMV_N: run_gemv(OCLBLAS_NO_TRANS); break;
    case OCLBLAS__K_GEMV_T: run_gemv(OCLBLAS_TRANS); break;
    default: break;
    }
}

/* ---- the shipped sets ------------------------------------------------------ */

#define MAX_SETS 256
static struct {
    int kernel;
    char text[512];
    char from[160];
} sets[MAX_SETS];
static int num_sets;

/* "NAME=VALUE,..." of the parameters in mask, once per kernel and text. */
static void add_set(int kernel, const int *values, unsigned mask, const char *from)
{
    const oclblas__kernel_desc *kd = oclblas__kernels[kernel];
    char text[512] = "";
    for (int i = 0; i < kd->num_params; ++i)
        if (mask & (1u << i)) {
            const size_t used = strlen(text);
            snprintf(text + used, sizeof text - used, "%s%s=%d", used ? "," : "", kd->params[i].name, values[i]);
        }
    for (int s = 0; s < num_sets; ++s)
        if (sets[s].kernel == kernel && strcmp(sets[s].text, text) == 0)
            return;
    if (num_sets == MAX_SETS)
        return;
    sets[num_sets].kernel = kernel;
    snprintf(sets[num_sets].text, sizeof sets[num_sets].text, "%s", text);
    snprintf(sets[num_sets].from, sizeof sets[num_sets].from, "%s", from);
    ++num_sets;
}

static void collect(unsigned kernels)
{
    for (size_t i = 0; i < oclblas__db_builtin_count; ++i) {
        const oclblas__db_entry *e = &oclblas__db_builtin[i];
        for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
            if (!(kernels & (1u << k)))
                continue;
            const unsigned all = (1u << oclblas__kernels[k]->num_params) - 1;
            char from[160];
            if (e->has & (1u << k)) {
                snprintf(from, sizeof from, "%s%s%s", e->origin, e->name[0] ? ", " : "", e->name);
                add_set(k, e->values[k], all, from);
            }
            for (int c = 0; c < e->num_classes; ++c) {
                const oclblas__db_class *dc = &e->classes[c];
                if (!(dc->has & (1u << k)))
                    continue;
                /* The class's values over the entry's set for every shape. */
                int v[OCLBLAS__MAX_PARAMS];
                unsigned mask = dc->given[k];
                for (int p = 0; p < OCLBLAS__MAX_PARAMS; ++p)
                    v[p] = dc->given[k] & (1u << p) ? dc->values[k][p] : e->values[k][p];
                if (e->has & (1u << k))
                    mask = all;
                snprintf(from, sizeof from, "%s%s%s, class %s", e->origin, e->name[0] ? ", " : "", e->name, dc->cls.name);
                add_set(k, v, mask, from);
            }
        }
    }
}

/* Whether the set in force for kernel is the one asked for (an override the
 * device cannot run is passed over: the database's set stays). */
static int in_force(int kernel, const char *text)
{
    char got[1024];
    if (oclblas_get_params(device, oclblas__kernels[kernel]->name, got, sizeof got) != OCLBLAS_SUCCESS)
        return 0;
    char copy[512], *save = NULL;
    snprintf(copy, sizeof copy, "%s", text);
    char *semi = strchr(got, ';');
    if (semi)
        *semi = '\0';
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        const size_t len = strlen(item);
        const char *hit = got;
        while ((hit = strstr(hit, item)) != NULL && ((hit != got && hit[-1] != ',') || (hit[len] && hit[len] != ',')))
            ++hit;
        if (!hit)
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (oclblas_default_device(&device, &context, &queue) != OCLBLAS_SUCCESS) {
        fprintf(stderr, "oclgrind_kernels: no OpenCL device\n");
        return 2;
    }
    const oclblas__device_info *info;
    if (oclblas__device_info_get(device, &info) != OCLBLAS_SUCCESS)
        return 2;
    printf("device: %s (%s), %zu work-items, %llu bytes of local memory\n", info->name, info->platform_name,
           info->lim.max_wg_size, info->lim.local_mem);
    for (int i = 0; i < 3; ++i) {
        cl_int err;
        operand[i] = clCreateBuffer(context, CL_MEM_READ_WRITE, OPERAND_FLOATS * sizeof(float), NULL, &err);
        if (err != CL_SUCCESS)
            return 2;
    }
    /* Padded operands of tiles up to 256 wide and deep, the slices' partial sums, counters. */
    const size_t reserve[OCLBLAS__SCRATCH_SLOTS] = {(size_t)1 << 22, (size_t)1 << 22, (size_t)1 << 22, 4096};
    oclblas__scratch *scratch;
    cl_mem scratch_bufs[OCLBLAS__SCRATCH_SLOTS];
    cl_event last_use;
    if (oclblas__scratch_take(context, queue, oclblas__queue_in_order(queue), reserve, &scratch, scratch_bufs,
                              &last_use) != OCLBLAS_SUCCESS)
        return 2;
    oclblas__scratch_put(scratch, NULL, NULL);
    unsigned kernels = 0;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        const oclblas__kernel_desc *kd = oclblas__kernels[k];
        int wanted = argc < 2;
        for (int a = 1; a < argc; ++a)
            wanted |= strcmp(argv[a], kd->name) == 0;
        if (!wanted || !kd->source)
            continue;
        const char *why = kd->capable ? kd->capable(&info->lim) : NULL;
        if (why) {
            printf("%s: skipped, the device is not capable: %s\n", kd->name, why);
            continue;
        }
        kernels |= 1u << k;
    }
    collect(kernels);
    int ran = 0, skipped = 0;
    const char *only = getenv("OCLGRIND_SET"), *skip = getenv("OCLGRIND_SKIP");
    int left_out = 0;
    for (int s = 0; s < num_sets; ++s) {
        const char *name = oclblas__kernels[sets[s].kernel]->name;
        const int in_only = only && *only && (strstr(sets[s].text, only) || strstr(sets[s].from, only));
        const int in_skip = skip && *skip && (strstr(sets[s].text, skip) || strstr(sets[s].from, skip));
        if ((only && *only && !in_only) || in_skip) {
            ++left_out;
            continue;
        }
        const oclblas_status st = oclblas_override_params(device, name, sets[s].text);
        if (st != OCLBLAS_SUCCESS || !in_force(sets[s].kernel, sets[s].text)) {
            printf("%s %s (%s): skipped, not legal on this device (%s)\n", name, sets[s].text, sets[s].from,
                   st != OCLBLAS_SUCCESS ? oclblas_status_string(st) : "passed over");
            ++skipped;
        } else {
            printf("%s %s (%s)\n", name, sets[s].text, sets[s].from);
            fflush(stdout);
            const int before = failures;
            run_kernel(sets[s].kernel);
            if (failures == before)
                ++ran;
        }
        oclblas_override_params(device, name, NULL);
        fflush(stdout);
    }
    printf("%d parameter sets ran right, %d failed, %d skipped as not legal on the device, %d left out "
           "(OCLGRIND_SET, OCLGRIND_SKIP)\n",
           ran, num_sets - ran - skipped - left_out, skipped, left_out);
    return failures ? 1 : 0;
}
