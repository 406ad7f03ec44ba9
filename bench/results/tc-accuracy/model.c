/*
 * A host model of gemm_tc's arithmetic (kernels/gemm_tc.cl with
 * OCLBLAS_TC_EMULATE = 1, i.e. the tensor cores as measured on the H100:
 * operands read as their top 19 bits, products exact, each mma's sum
 * rounded toward zero to FP32), used to study where 3xTF32 loses accuracy
 * against FFMA and which splitting scheme is never worse. One element of C
 * is one dot product, so the model computes sampled elements directly:
 * `rows x cols` elements, each from its own row of A and column of B over
 * k, for each distribution of the accuracy gate, and prints per scheme
 * max |C - C64| / (|A||B|) and ||C - C64|| / ||C64||.
 *   cc -O2 -o model model.c -lm && ./model [k] [side]
 * The CHUNK scheme of the H100 entry reproduces the emulation's arithmetic:
 * per k8 step t = rtz(lo_a hi_b), t = rtz(t + hi_a lo_b),
 * t = rtz(t + hi_a hi_b) (each a float64 sum in k order), acc += t in FP32.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float fu(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t uf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float tf32_read(float x) { return fu(uf(x) & 0xFFFFE000u); } /* what the tensor cores read */
static float rna_tf32(float x) { return fu((uf(x) + 0x1000u) & 0xFFFFE000u); }
static float rna_bf16(float x) { return fu((uf(x) + 0x8000u) & 0xFFFF0000u); }

/* round a double toward zero to float */
static float rtz(double s)
{
    float f = (float)s;
    if (fabs((double)f) > fabs(s))
        f = nextafterf(f, 0.0f);
    return f;
}

/* one emulated mma column: d + sum_k x_k y_k over n terms, operands as the tensor cores read them */
static float mma(float d, const float *x, const float *y, int n, int bf16)
{
    double s = d;
    for (int k = 0; k < n; ++k) {
        const float a = bf16 ? x[k] : tf32_read(x[k]), b = bf16 ? y[k] : tf32_read(y[k]);
        s += (double)a * (double)b;
    }
    return rtz(s);
}

/* The three products of 3xTF32 added to t, smallest first: lo_a hi_b,
 * hi_a lo_b, hi_a hi_b (each mma rounded as the tensor cores round it). */
static float tf32x3(float t, const float *al, const float *ah, const float *bl, const float *bh)
{
    t = mma(t, al, bh, 8, 0);
    t = mma(t, ah, bl, 8, 0);
    return mma(t, ah, bh, 8, 0);
}

enum { STRICT, TC3, TC3_RNALO, TC3_TRUNCHI, TC4_LOLO, TC3_NOCHUNK, TC3_SEPARATE, TC3_BIGFIRST, TC5, TC6, BF16X6, BF16X6_SEP, NSCHEMES };
static const char *const scheme_names[NSCHEMES] = {
    "strict (FFMA, k order)",
    "3xTF32 CHUNK (shipped)",
    "3xTF32, lo rounded rna",
    "3xTF32, hi truncated",
    "4xTF32 (+lo*lo)",
    "3xTF32, one TC accumulator",
    "3xTF32, small products own acc",
    "3xTF32, hi*hi first in chunk",
    "5xTF32 exact split",
    "6xTF32 exact split",
    "6xBF16 (3 words), k16",
    "6xBF16, small products own acc",
};

/* x = h + l + r exactly: h = rna tf32, l = what the tensor cores read of x - h, r = the rest (at most one bit) */
static void split3(float x, float *h, float *l, float *r)
{
    *h = rna_tf32(x);
    const float lo = x - *h;
    *l = tf32_read(lo);
    *r = lo - *l;
}
static void split_bf16(float x, float *w)
{
    w[0] = rna_bf16(x);
    const float r1 = x - w[0];
    w[1] = rna_bf16(r1);
    w[2] = rna_bf16(r1 - w[1]); /* exact: 24 bits fit three 8-bit words with their signs */
}

static float dot(int scheme, const float *a, const float *b, int k)
{
    if (scheme == STRICT) {
        float s = 0.0f;
        for (int p = 0; p < k; ++p)
            s = fmaf(a[p], b[p], s);
        return s;
    }
    if (scheme == BF16X6 || scheme == BF16X6_SEP) {
        float acc = 0.0f, accs = 0.0f;
        for (int p0 = 0; p0 < k; p0 += 16) {
            float aw[3][16], bw[3][16], w[3];
            for (int q = 0; q < 16; ++q) {
                split_bf16(a[p0 + q], w);
                for (int i = 0; i < 3; ++i) aw[i][q] = w[i];
                split_bf16(b[p0 + q], w);
                for (int i = 0; i < 3; ++i) bw[i][q] = w[i];
            }
            /* weights 2^-16 (3 terms), 2^-8 (2), then 1 */
            float t = 0.0f;
            t = mma(t, aw[2], bw[0], 16, 1);
            t = mma(t, aw[1], bw[1], 16, 1);
            t = mma(t, aw[0], bw[2], 16, 1);
            t = mma(t, aw[1], bw[0], 16, 1);
            t = mma(t, aw[0], bw[1], 16, 1);
            if (scheme == BF16X6_SEP) {
                accs += t;
                acc += mma(0.0f, aw[0], bw[0], 16, 1);
            } else {
                t = mma(t, aw[0], bw[0], 16, 1);
                acc += t;
            }
        }
        return acc + accs;
    }
    float acc = 0.0f, accs = 0.0f, tc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += 8) {
        float ah[8], al[8], ar[8], bh[8], bl[8], br[8];
        for (int q = 0; q < 8; ++q) {
            split3(a[p0 + q], &ah[q], &al[q], &ar[q]);
            split3(b[p0 + q], &bh[q], &bl[q], &br[q]);
            if (scheme == TC3_RNALO) {
                al[q] = rna_tf32(a[p0 + q] - ah[q]);
                bl[q] = rna_tf32(b[p0 + q] - bh[q]);
            } else if (scheme == TC3_TRUNCHI) {
                ah[q] = tf32_read(a[p0 + q]);
                bh[q] = tf32_read(b[p0 + q]);
                al[q] = a[p0 + q] - ah[q];
                bl[q] = b[p0 + q] - bh[q];
            }
        }
        float t = 0.0f;
        switch (scheme) {
        case TC3: case TC3_RNALO: case TC3_TRUNCHI:
            acc += tf32x3(t, al, ah, bl, bh);
            break;
        case TC4_LOLO:
            t = mma(t, al, bl, 8, 0);
            acc += tf32x3(t, al, ah, bl, bh);
            break;
        case TC3_NOCHUNK:
            tc = tf32x3(tc, al, ah, bl, bh);
            break;
        case TC3_SEPARATE:
            t = mma(t, al, bh, 8, 0);
            t = mma(t, ah, bl, 8, 0);
            accs += t;
            acc += mma(0.0f, ah, bh, 8, 0);
            break;
        case TC3_BIGFIRST:
            t = mma(t, ah, bh, 8, 0);
            t = mma(t, al, bh, 8, 0);
            t = mma(t, ah, bl, 8, 0);
            acc += t;
            break;
        case TC5: case TC6:
            t = mma(t, ar, bh, 8, 0);
            t = mma(t, ah, br, 8, 0);
            if (scheme == TC6)
                t = mma(t, al, bl, 8, 0);
            acc += tf32x3(t, al, ah, bl, bh);
            break;
        }
    }
    return scheme == TC3_NOCHUNK ? tc : acc + accs;
}

/* ---- distributions: a row of A (a) and a column of B (b) over k ---- */
static uint64_t rng = 88172645463325252ull;
static double unit(void) /* (0, 1] */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return ((double)(rng >> 11) + 1.0) / 9007199254740992.0;
}
static double normal(void) { return sqrt(-2.0 * log(unit())) * cos(6.283185307179586 * unit()); }
static float sgn(float x) { return unit() < 0.5 ? -x : x; }
/* a float with 12 significant bits in its lo part and its last bit set: the split's worst case */
static float worst_bits(float x)
{
    uint32_t u = uf(x);
    u = (u & ~0x1FFFu) | 0x801u | (uint32_t)(unit() * 0x3FF) << 1; /* rounds down; bit 11 set (lo >= 2^-12 x), last bit 1 */
    return fu(u);
}

enum { UNIFORM, SPREAD, POSITIVE, TINY, HUGE_, CANCEL_ADJ, CANCEL_FAR, CANCEL_SPREAD, CANCEL_WORST, CANCEL_1E6, NDISTS };
static const char *const dist_names[NDISTS] = {
    "uniform [-1, 1]", "spread 2^-8..2^8", "positive [0, 1]", "near 2^-48", "A near 2^60",
    "cancel adjacent 1e-3", "cancel k/2 apart 1e-3", "cancel, spread", "cancel, worst split bits", "cancel adjacent 1e-6",
};

static void fill(int dist, float *a, float *b, int k)
{
    const int cancel = dist >= CANCEL_ADJ;
    const int n = cancel ? k / 2 : k;
    for (int p = 0; p < n; ++p) {
        float x, y;
        switch (dist) {
        case SPREAD: case CANCEL_SPREAD:
            x = (float)ldexp(normal(), (int)(unit() * 17) - 8);
            y = (float)ldexp(normal(), (int)(unit() * 17) - 8);
            break;
        case POSITIVE: x = (float)unit(); y = (float)unit(); break;
        case TINY: x = sgn((float)ldexp(1.0 + unit(), -48)); y = sgn((float)ldexp(1.0 + unit(), -48)); break;
        case HUGE_: x = sgn((float)ldexp(1.0 + unit(), 60)); y = (float)(2.0 * unit() - 1.0); break;
        case CANCEL_WORST: x = worst_bits((float)(2.0 * unit() - 1.0)); y = worst_bits((float)(2.0 * unit() - 1.0)); break;
        default: x = (float)(2.0 * unit() - 1.0); y = (float)(2.0 * unit() - 1.0);
        }
        if (!cancel) {
            a[p] = x, b[p] = y;
            continue;
        }
        /* columns p1 and p2 of A nearly equal, rows p1 and p2 of B opposite: the pair's
         * products cancel up to delta */
        const double delta = (dist == CANCEL_1E6 ? 1e-6 : 1e-3) * (2.0 * unit() - 1.0);
        const int p1 = dist == CANCEL_FAR ? p : 2 * p, p2 = dist == CANCEL_FAR ? p + k / 2 : 2 * p + 1;
        a[p1] = x, b[p1] = y;
        /* (with worst split bits only the first of a pair is forced: the second
         * forced alike would lose the same bit, and the two errors cancel) */
        a[p2] = (float)((double)x * (1.0 + delta));
        b[p2] = -y;
    }
}

int main(int argc, char **argv)
{
    const int k = argc > 1 ? atoi(argv[1]) : 4096, side = argc > 2 ? atoi(argv[2]) : 64;
    float *a = malloc(sizeof(float) * k), *b = malloc(sizeof(float) * k);
    printf("k = %d, %d elements per distribution; max |C - C64| / (|A||B|) / norm-wise, and the ratio of each to strict's\n",
           k, side * side);
    for (int d = 0; d < NDISTS; ++d) {
        double mx[NSCHEMES] = {0}, num[NSCHEMES] = {0}, den = 0.0;
        for (int e = 0; e < side * side; ++e) {
            fill(d, a, b, k);
            double r = 0.0, mag = 0.0;
            for (int p = 0; p < k; ++p)
                r += (double)a[p] * b[p], mag += fabs((double)a[p] * b[p]);
            den += r * r;
            for (int s = 0; s < NSCHEMES; ++s) {
                const double err = fabs((double)dot(s, a, b, k) - r);
                if (err / mag > mx[s])
                    mx[s] = err / mag;
                num[s] += err * err;
            }
        }
        printf("\n%s\n", dist_names[d]);
        const double nw0 = sqrt(num[0] / den);
        for (int s = 0; s < NSCHEMES; ++s) {
            const double nw = sqrt(num[s] / den);
            printf("  %-32s %9.3g %9.3g   x%5.2f x%5.2f%s\n", scheme_names[s], mx[s], nw, mx[s] / mx[0], nw / nw0,
                   s && (mx[s] > mx[0] || nw > nw0) ? "  WORSE than strict" : "");
        }
    }
    return 0;
}
