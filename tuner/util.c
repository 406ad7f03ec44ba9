/*
 * Small pieces the tuner's parts share: a seeded random number generator
 * whose streams are the same on every platform (so that a seed repeats a
 * search exactly, which is also what lets a resumed run replay its
 * journal), an open-addressing map from configuration codes to costs, the
 * clock, and strict number parsing for the command line.
 */
#include "tune.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- random numbers ------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void tune_rng_seed(tune_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tune_rng_next(tune_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double tune_rng_uniform(tune_rng *r) { return (double)(tune_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

uint64_t tune_rng_below(tune_rng *r, uint64_t n)
{
    if (n == 0)
        return 0;
    /* Rejection keeps the draw exactly uniform: no modulo bias. */
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = tune_rng_next(r);
    while (x >= limit);
    return x % n;
}

/* ---- map ----------------------------------------------------------------- */

static size_t slot_of(uint64_t key, size_t cap)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static int grow(tune_map *m)
{
    const size_t cap = m->cap ? m->cap * 2 : 1024;
    uint64_t *keys = calloc(cap, sizeof *keys);
    double *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return 0;
    }
    for (size_t i = 0; i < m->cap; ++i) {
        if (!m->keys[i])
            continue;
        size_t j = slot_of(m->keys[i], cap);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 1;
}

int tune_map_put(tune_map *m, uint64_t key, double val)
{
    if ((m->count + 1) * 2 > m->cap && !grow(m))
        return 0;
    const uint64_t k = key + 1;
    size_t j = slot_of(k, m->cap);
    while (m->keys[j] && m->keys[j] != k)
        j = (j + 1) & (m->cap - 1);
    if (!m->keys[j]) {
        m->keys[j] = k;
        ++m->count;
    }
    m->vals[j] = val;
    return 1;
}

int tune_map_get(const tune_map *m, uint64_t key, double *val)
{
    if (!m->cap)
        return 0;
    const uint64_t k = key + 1;
    size_t j = slot_of(k, m->cap);
    while (m->keys[j]) {
        if (m->keys[j] == k) {
            if (val)
                *val = m->vals[j];
            return 1;
        }
        j = (j + 1) & (m->cap - 1);
    }
    return 0;
}

void tune_map_free(tune_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- clock and numbers --------------------------------------------------- */

double tune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tune_format_duration(double s, char *buf, size_t len)
{
    if (!(s >= 0) || s > 1e7) {
        snprintf(buf, len, "?");
        return;
    }
    const long t = (long)(s + 0.5);
    if (t < 60)
        snprintf(buf, len, "%lds", t);
    else if (t < 3600)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
}

int tune_parse_long(const char *s, long min, long max, long *out)
{
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return 0;
    *out = v;
    return 1;
}

int tune_parse_double(const char *s, double min, double max, double *out)
{
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (errno || *end || !(v >= min && v <= max))
        return 0;
    *out = v;
    return 1;
}
