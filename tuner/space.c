/*
 * The search space of one kernel: the candidate values of each parameter,
 * taken from the kernel's descriptor (src/kernel_<name>.c; or narrowed on
 * the command line), and legality decided by oclblas__params_legal with the
 * device's limits, the very rule the library applies before it compiles
 * anything.
 * A configuration is a mixed-radix code, so that sets and maps of them are
 * sets and maps of integers.
 *
 * Efficiency: the guided strategies never list the space; they draw random
 * legal configurations by rejection and move to legal neighbours, which
 * costs a few hundred legality checks per step. Listing (full search, a
 * random fraction, --list) walks the product depth first, most significant
 * parameter first, and checks each partial assignment with
 * oclblas__params_legal_partial: a prefix that breaks a rule cuts its whole
 * subtree, and the codes come out ascending. Restricting values with
 * --values shrinks the product before anything is checked.
 */
#include "tune.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PRODUCT (1ull << 62)

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int recompute(tune_space *s, char *err, size_t len)
{
    uint64_t stride = 1;
    for (int i = s->num_params - 1; i >= 0; --i) {
        s->stride[i] = stride;
        if (stride > MAX_PRODUCT / (uint64_t)s->num_values[i]) {
            snprintf(err, len, "%s: the search space has too many combinations; restrict it with --values",
                     oclblas__kernels[s->kernel]->name);
            return 0;
        }
        stride *= (uint64_t)s->num_values[i];
    }
    s->product = stride;
    free(s->legal);
    s->legal = NULL;
    s->num_legal = 0;
    s->enumerated = 0;
    return 1;
}

int tune_space_init(tune_space *s, int kernel, const oclblas__limits *lim, char *err, size_t len)
{
    memset(s, 0, sizeof *s);
    if (kernel < 0 || kernel >= OCLBLAS__K_COUNT) {
        snprintf(err, len, "unknown kernel");
        return 0;
    }
    const oclblas__kernel_desc *kd = oclblas__kernels[kernel];
    s->kernel = kernel;
    s->num_params = kd->num_params;
    for (int i = 0; i < kd->num_params; ++i) {
        const oclblas__param_def *pd = &kd->params[i];
        s->num_values[i] = pd->num_candidates;
        memcpy(s->values[i], pd->candidates, (size_t)pd->num_candidates * sizeof(int));
        qsort(s->values[i], (size_t)pd->num_candidates, sizeof(int), cmp_int);
    }
    if (lim) {
        s->lim = *lim;
        s->has_lim = 1;
    }
    return recompute(s, err, len);
}

int tune_space_restrict(tune_space *s, const char *text, char *err, size_t len)
{
    const oclblas__kernel_desc *kd = oclblas__kernels[s->kernel];
    const char *eq = strchr(text, '=');
    char name[64];
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof name) {
        snprintf(err, len, "%s: expected NAME=VALUE[,VALUE...], got \"%s\"", kd->name, text);
        return 0;
    }
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    const int idx = oclblas__param_index(s->kernel, name);
    if (idx < 0) {
        snprintf(err, len, "%s has no parameter %s", kd->name, name);
        return 0;
    }
    const oclblas__param_def *pd = &kd->params[idx];
    int vals[TUNE_MAX_VALUES], n = 0;
    const char *p = eq + 1;
    for (;;) {
        char item[32];
        size_t l = strcspn(p, ",");
        long v;
        if (l == 0 || l >= sizeof item) {
            snprintf(err, len, "%s.%s: expected a comma-separated list of integers", kd->name, name);
            return 0;
        }
        memcpy(item, p, l);
        item[l] = '\0';
        if (!tune_parse_long(item, pd->min, pd->max, &v)) {
            snprintf(err, len, "%s.%s: \"%s\" is not an integer in the legal range %d..%d", kd->name, name, item,
                     pd->min, pd->max);
            return 0;
        }
        int dup = 0;
        for (int i = 0; i < n; ++i)
            dup |= vals[i] == (int)v;
        if (!dup) {
            if (n == TUNE_MAX_VALUES) {
                snprintf(err, len, "%s.%s: at most %d values", kd->name, name, TUNE_MAX_VALUES);
                return 0;
            }
            vals[n++] = (int)v;
        }
        p += l;
        if (!*p)
            break;
        ++p;
    }
    qsort(vals, (size_t)n, sizeof(int), cmp_int);
    memcpy(s->values[idx], vals, (size_t)n * sizeof(int));
    s->num_values[idx] = n;
    return recompute(s, err, len);
}

int tune_space_cap(tune_space *s, int i, int max, char *err, size_t len)
{
    int n = 0;
    while (n < s->num_values[i] && s->values[i][n] <= max)
        ++n;
    s->num_values[i] = n ? n : 1; /* ascending: the smallest stays */
    return recompute(s, err, len);
}

void tune_space_params(const tune_space *s, uint64_t code, oclblas__params *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < s->num_params; ++i) {
        const uint64_t digit = code / s->stride[i] % (uint64_t)s->num_values[i];
        p->v[i] = s->values[i][digit];
    }
}

int tune_space_encode(const tune_space *s, const oclblas__params *p, uint64_t *code)
{
    uint64_t c = 0;
    for (int i = 0; i < s->num_params; ++i) {
        int d = -1;
        for (int j = 0; j < s->num_values[i] && d < 0; ++j)
            if (s->values[i][j] == p->v[i])
                d = j;
        if (d < 0)
            return 0;
        c += (uint64_t)d * s->stride[i];
    }
    *code = c;
    return 1;
}

int tune_space_nearest(const tune_space *s, const oclblas__params *p, uint64_t *code)
{
    oclblas__params q = *p;
    for (int i = 0; i < s->num_params; ++i) {
        int best = s->values[i][0];
        for (int j = 1; j < s->num_values[i]; ++j) {
            const long d = labs((long)s->values[i][j] - p->v[i]), bd = labs((long)best - p->v[i]);
            if (d < bd)
                best = s->values[i][j];
        }
        q.v[i] = best;
    }
    uint64_t c;
    if (!tune_space_encode(s, &q, &c) || !tune_space_legal((tune_space *)s, c))
        return 0;
    *code = c;
    return 1;
}

int tune_space_legal(tune_space *s, uint64_t code)
{
    if (code >= s->product)
        return 0;
    oclblas__params p;
    tune_space_params(s, code, &p);
    ++s->checks;
    return oclblas__params_legal(s->kernel, &p, s->has_lim ? &s->lim : NULL, NULL);
}

typedef struct {
    tune_space *s;
    const oclblas__limits *lim;
    oclblas__params p;
    uint64_t *list;
    size_t n, cap;
    uint64_t checks;
    int oom;
} listing;

/* Assigns parameter i (and the rest after it) every value whose prefix
 * passes the rules that read only assigned parameters: those that read
 * parameter i, the others having passed higher up. */
static void list_from(listing *l, int i, unsigned assigned, uint64_t code)
{
    const tune_space *s = l->s;
    if (i == s->num_params) {
        if (l->n == l->cap) {
            const size_t nc = l->cap ? l->cap * 2 : 4096;
            uint64_t *nl = realloc(l->list, nc * sizeof *nl);
            if (!nl) {
                l->oom = 1;
                return;
            }
            l->list = nl;
            l->cap = nc;
        }
        l->list[l->n++] = code;
        return;
    }
    const unsigned with = assigned | OCLBLAS__P(i);
    for (int d = 0; d < s->num_values[i] && !l->oom; ++d) {
        l->p.v[i] = s->values[i][d];
        ++l->checks;
        if (oclblas__params_legal_partial(s->kernel, &l->p, with, OCLBLAS__P(i), l->lim, NULL))
            list_from(l, i + 1, with, code + (uint64_t)d * s->stride[i]);
    }
}

int tune_space_enumerate(tune_space *s, uint64_t limit, char *err, size_t len)
{
    if (s->enumerated)
        return 1;
    if (s->product > limit) {
        snprintf(err, len,
                 "%s: %llu combinations are too many to list (limit %llu); restrict the values with --values or "
                 "use annealing or PSO",
                 oclblas__kernels[s->kernel]->name, (unsigned long long)s->product, (unsigned long long)limit);
        return 0;
    }
    listing l = {s, s->has_lim ? &s->lim : NULL, {{0}}, NULL, 0, 0, 0, 0};
    list_from(&l, 0, 0, 0);
    s->checks += l.checks;
    if (l.oom) {
        free(l.list);
        snprintf(err, len, "out of memory listing the search space");
        return 0;
    }
    s->legal = l.list;
    s->num_legal = l.n;
    s->enumerated = 1;
    return 1;
}

int tune_space_random(tune_space *s, tune_rng *r, uint64_t *code)
{
    if (!s->enumerated) {
        /* Legal configurations are a sizeable share of the product for the
         * tables' own values (15% for gemm_fast), so a few draws do. Only a
         * space narrowed to almost nothing legal is listed instead. */
        for (int tries = 0; tries < 200000; ++tries) {
            const uint64_t c = tune_rng_below(r, s->product);
            if (tune_space_legal(s, c)) {
                *code = c;
                return 1;
            }
        }
        char err[256];
        if (!tune_space_enumerate(s, TUNE_ENUM_LIMIT, err, sizeof err))
            return 0;
    }
    if (!s->num_legal)
        return 0;
    *code = s->legal[tune_rng_below(r, s->num_legal)];
    return 1;
}

typedef struct {
    tune_space *s;
    uint64_t base;
    int distance;
    uint64_t **out;
    size_t *cap;
    long n;
    int oom;
} walk;

/* Changes parameters first.. (one per level) to every other value. */
static void neighbours_rec(walk *w, int first, int left, uint64_t code)
{
    if (w->oom)
        return;
    if (left == 0) {
        if (!tune_space_legal(w->s, code))
            return;
        if ((size_t)w->n == *w->cap) {
            const size_t nc = *w->cap ? *w->cap * 2 : 256;
            uint64_t *no = realloc(*w->out, nc * sizeof *no);
            if (!no) {
                w->oom = 1;
                return;
            }
            *w->out = no;
            *w->cap = nc;
        }
        (*w->out)[w->n++] = code;
        return;
    }
    const tune_space *s = w->s;
    for (int i = first; i <= s->num_params - left; ++i) {
        const uint64_t own = w->base / s->stride[i] % (uint64_t)s->num_values[i];
        const uint64_t without = code - own * s->stride[i];
        for (int v = 0; v < s->num_values[i]; ++v)
            if ((uint64_t)v != own)
                neighbours_rec(w, i + 1, left - 1, without + (uint64_t)v * s->stride[i]);
    }
}

long tune_space_neighbours(tune_space *s, uint64_t code, int distance, uint64_t **out, size_t *cap)
{
    walk w = {s, code, distance, out, cap, 0, 0};
    if (distance < 1 || distance > s->num_params)
        return 0;
    neighbours_rec(&w, 0, distance, code);
    return w.oom ? -1 : w.n;
}

void tune_space_format(const tune_space *s, uint64_t code, char *buf, size_t len)
{
    oclblas__params p;
    tune_space_params(s, code, &p);
    oclblas__params_format(s->kernel, &p, buf, len);
}

void tune_space_free(tune_space *s)
{
    free(s->legal);
    s->legal = NULL;
    s->num_legal = 0;
    s->enumerated = 0;
}
