/*
 * The host BLAS: SGEMM and SGEMV on host memory by the BLAS that the
 * process already has (the one the program was linked against, OpenBLAS,
 * MKL, BLIS...), and by the library's own routine (hostblas.c) only when it
 * has none. The other BLAS is found once, at first need, by its Fortran
 * symbols sgemm_ and sgemv_ (every BLAS has them): the first definition in
 * the global scope (RTLD_DEFAULT). A definition in one of this project's
 * own libraries (liboclblas*, whose drop-in stands first under LD_PRELOAD)
 * is never taken: the loaded objects are walked in their order instead,
 * each looked at for a definition of its own. As a
 * last guard, a BLAS that calls back into the library while we call it (a
 * wrapper over oclblas under another name) is dropped for good, and the
 * call that came back is served by the library's own routine.
 * Fortran's int arguments bound what one call may take: larger problems
 * (or any beyond OCLBLAS_INDEX_LIMIT, for tests) go as blocks of C and of
 * k, and a leading dimension beyond int goes to the library's own routine,
 * which takes size_t. The name of whatever served a call is returned for
 * the verbose log.
 */
#define _GNU_SOURCE
#include "host/sysblas.h"
#include "host/hostblas.h"
#include "plan/record.h" /* oclblas__abs_inc */
#include "util/util.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>

typedef void (*sgemm_fn)(const char *ta, const char *tb, const int *m, const int *n, const int *k, const float *alpha,
                         const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
                         const int *ldc, size_t ta_len, size_t tb_len);
typedef void (*sgemv_fn)(const char *t, const int *m, const int *n, const float *alpha, const float *a,
                         const int *lda, const float *x, const int *incx, const float *beta, float *y,
                         const int *incy, size_t t_len);

static struct {
    sgemm_fn sgemm;
    sgemv_fn sgemv;
    char sgemm_from[512], sgemv_from[512];
} peer;
static pthread_once_t peer_once = PTHREAD_ONCE_INIT;
static atomic_int peer_dropped; /* it called back into the library */
static _Thread_local int inside_peer;

static const char own_name[] = "the library's own routine";

/* The file an address lies in, as the loader names it. */
static const char *object_of(const void *p, void **base)
{
    Dl_info info;
    if (!p || !dladdr(p, &info))
        return NULL;
    if (base)
        *base = info.dli_fbase;
    return info.dli_fname ? info.dli_fname : "";
}

/* One of this project's libraries: liboclblas.so*, liboclblas_cblas.so*,
 * or the object this file is compiled into (a static build, a test program
 * that links the library's objects). */
static int is_ours(const void *sym)
{
    void *base = NULL, *own_base = NULL;
    const char *file = object_of(sym, &base);
    if (!file)
        return 1;
    object_of((const void *)&is_ours, &own_base);
    if (base == own_base)
        return 1;
    const char *slash = strrchr(file, '/');
    return strncmp(slash ? slash + 1 : file, "liboclblas", 10) == 0;
}

typedef struct {
    const char *name;
    void *found;
} walk_state;

/* dl_iterate_phdr callback: a definition of state->name in this very
 * object (not one of its dependencies), unless the object is ours. */
static int walk_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    walk_state *w = data;
    const int main_program = !info->dlpi_name || !*info->dlpi_name;
    void *h = dlopen(main_program ? NULL : info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    void *sym = dlsym(h, w->name);
    struct link_map *lm = NULL;
    Dl_info di;
    if (sym && dladdr1(sym, &di, (void **)&lm, RTLD_DL_LINKMAP) && lm && lm->l_addr == info->dlpi_addr &&
        !is_ours(sym))
        w->found = sym;
    dlclose(h);
    return w->found != NULL;
}

static void *find_symbol(const char *name)
{
    void *sym = dlsym(RTLD_DEFAULT, name);
    if (sym && !is_ours(sym))
        return sym;
    walk_state w = {name, NULL};
    dl_iterate_phdr(walk_object, &w);
    return w.found;
}

static void find_peer(void)
{
    peer.sgemm = (sgemm_fn)find_symbol("sgemm_");
    peer.sgemv = (sgemv_fn)find_symbol("sgemv_");
    const char *f;
    if (peer.sgemm && (f = object_of((void *)peer.sgemm, NULL)) != NULL)
        oclblas__strlcpy(peer.sgemm_from, *f ? f : "the program", sizeof peer.sgemm_from);
    if (peer.sgemv && (f = object_of((void *)peer.sgemv, NULL)) != NULL)
        oclblas__strlcpy(peer.sgemv_from, *f ? f : "the program", sizeof peer.sgemv_from);
    oclblas__log("host BLAS: sgemm by %s, sgemv by %s", peer.sgemm ? peer.sgemm_from : own_name,
                 peer.sgemv ? peer.sgemv_from : own_name);
}

const char *oclblas__sysblas_name(int gemm)
{
    pthread_once(&peer_once, find_peer);
    if (atomic_load(&peer_dropped))
        return own_name;
    if (gemm)
        return peer.sgemm ? peer.sgemm_from : own_name;
    return peer.sgemv ? peer.sgemv_from : own_name;
}

int oclblas__sysblas_reentered(void)
{
    if (!inside_peer)
        return 0;
    if (!atomic_exchange(&peer_dropped, 1))
        oclblas__log("host BLAS %s calls back into oclblas: the library's own routine serves from now on",
                     peer.sgemm_from[0] ? peer.sgemm_from : peer.sgemv_from);
    return 1;
}

/* The largest count one Fortran int (or, lower, OCLBLAS_INDEX_LIMIT) takes. */
static size_t int_limit(void)
{
    const size_t l = oclblas__index_limit();
    return l < (size_t)INT_MAX ? l : (size_t)INT_MAX;
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* Column-major C = alpha op(A) op(B) + beta C by the other BLAS, in blocks
 * whose sizes fit its ints; 0 when it cannot take the call at all. */
static int peer_gemm(int at, int bt, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                     const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    const size_t lim = int_limit();
    if (!peer.sgemm || atomic_load(&peer_dropped) || lda > (size_t)INT_MAX || ldb > (size_t)INT_MAX ||
        ldc > (size_t)INT_MAX)
        return 0;
    const char *ta = at ? "T" : "N", *tb = bt ? "T" : "N";
    inside_peer = 1;
    for (size_t j0 = 0; j0 < n; j0 += lim)
        for (size_t i0 = 0; i0 < m; i0 += lim)
            for (size_t p0 = 0; p0 < k || p0 == 0; p0 += lim) {
                const int mi = (int)min_size(lim, m - i0), ni = (int)min_size(lim, n - j0);
                const int ki = (int)min_size(lim, k - p0);
                const int ilda = (int)lda, ildb = (int)ldb, ildc = (int)ldc;
                const float b_eff = p0 == 0 ? beta : 1.0f;
                const float *ap = at ? a + i0 * lda + p0 : a + p0 * lda + i0;
                const float *bp = bt ? b + p0 * ldb + j0 : b + j0 * ldb + p0;
                peer.sgemm(ta, tb, &mi, &ni, &ki, &alpha, ap, &ilda, bp, &ildb, &b_eff, c + j0 * ldc + i0, &ildc, 1,
                           1);
                if (k == 0)
                    break;
            }
    inside_peer = 0;
    return 1;
}

const char *oclblas__sysblas_sgemm(oclblas_layout layout, oclblas_transpose trans_a, oclblas_transpose trans_b,
                                   size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                   const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    pthread_once(&peer_once, find_peer);
    const int at = trans_a != OCLBLAS_NO_TRANS, bt = trans_b != OCLBLAS_NO_TRANS;
    /* Reference BLAS reads A and B only when they count. */
    const int uses_ab = k > 0 && alpha != 0.0f;
    int done;
    if (!uses_ab)
        done = 0; /* C = beta C: nothing a BLAS call would do better */
    else if (layout == OCLBLAS_COL_MAJOR)
        done = peer_gemm(at, bt, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        done = peer_gemm(bt, at, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
    if (done)
        return peer.sgemm_from;
    oclblas__host_sgemm(layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return own_name;
}

/* Column-major y = alpha op(A) x + beta y (A rows x cols) by the other
 * BLAS, in blocks of rows and columns that fit its ints. */
static int peer_gemv(int trans, size_t rows, size_t cols, float alpha, const float *a, size_t lda, const float *x,
                     ptrdiff_t incx, float beta, float *y, ptrdiff_t incy)
{
    const size_t lim = int_limit();
    const size_t sx = oclblas__abs_inc(incx), sy = oclblas__abs_inc(incy);
    if (!peer.sgemv || atomic_load(&peer_dropped) || lda > (size_t)INT_MAX || sx > (size_t)INT_MAX / 2 ||
        sy > (size_t)INT_MAX / 2)
        return 0;
    const size_t len_x = trans ? rows : cols, len_y = trans ? cols : rows;
    const char *t = trans ? "T" : "N";
    const int ilda = (int)lda, iincx = (int)incx, iincy = (int)incy;
    inside_peer = 1;
    /* Blocks along y (independent) and along x (summed into y with beta 1).
     * A block of a vector with a negative increment starts, in memory, at
     * its last element, as reference BLAS reads it. */
    for (size_t o0 = 0; o0 < len_y; o0 += lim) {
        const size_t no = min_size(lim, len_y - o0);
        for (size_t r0 = 0; r0 < len_x; r0 += lim) {
            const size_t nr = min_size(lim, len_x - r0);
            const size_t i0 = trans ? r0 : o0, j0 = trans ? o0 : r0; /* A's block origin */
            const int mi = (int)(trans ? nr : no), ni = (int)(trans ? no : nr);
            const float *xp = incx > 0 ? x + r0 * sx : x + (len_x - r0 - nr) * sx;
            float *yp = incy > 0 ? y + o0 * sy : y + (len_y - o0 - no) * sy;
            const float b_eff = r0 == 0 ? beta : 1.0f;
            peer.sgemv(t, &mi, &ni, &alpha, a + j0 * lda + i0, &ilda, xp, &iincx, &b_eff, yp, &iincy, 1);
        }
    }
    inside_peer = 0;
    return 1;
}

const char *oclblas__sysblas_sgemv(oclblas_layout layout, oclblas_transpose trans, size_t m, size_t n, float alpha,
                                   const float *a, size_t lda, const float *x, ptrdiff_t incx, float beta, float *y,
                                   ptrdiff_t incy)
{
    pthread_once(&peer_once, find_peer);
    const int t = trans != OCLBLAS_NO_TRANS;
    int done = 0;
    if (alpha != 0.0f && m && n) {
        if (layout == OCLBLAS_COL_MAJOR)
            done = peer_gemv(t, m, n, alpha, a, lda, x, incx, beta, y, incy);
        else /* a row-major A is the column-major A^T */
            done = peer_gemv(!t, n, m, alpha, a, lda, x, incx, beta, y, incy);
    }
    if (done)
        return peer.sgemv_from;
    oclblas__host_sgemv(layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
    return own_name;
}
