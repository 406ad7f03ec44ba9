/*
 * Database entries from JSON: the one parser for the build-time generator
 * (compiled-in tables), OCLBLAS_DATABASE and oclblas_database_load, so that
 * a file is accepted or refused by the same rules everywhere. An entry names
 * a device (any of its fields may be left out, which makes it a default for
 * the devices that match the rest), how it was tuned, for each kernel it
 * covers a complete, legal parameter set for every shape, and optionally
 * classes of shapes (a name, a rule on m, n, k, and sets for some kernels,
 * each naming all or some of the parameters), tried in order, first match
 * winning: a class that an earlier one of the same kernel leaves no shape
 * to is refused, as are bad rules, names given twice and empty classes.
 * For the plans' cost model an entry may also give the device's facts
 * ("model": {"call_us", "launch_us", "bandwidth_gbs", "item_gflops",
 * "busy_item_gflops"}, all five, and optionally "along_k_share" and
 * "bounds_norm") and, beside any set of a GEMM kernel, its measured rate
 * ("rates": {"gemm_fast": GFLOPS, ...}, in the entry for its sets for
 * every shape, in a class for the class's) and, for a kernel that reads
 * operands along k, the shares of that rate it keeps doing so
 * ("along_k_shares": {"gemm_fast": [A, B]}), and for a kernel whose sets
 * have a second, peeled program (kernels/tiled.h), the factors on that
 * rate of that program ("peeled_factors": {"gemm_fast": [F, A, B]});
 * without them the model never runs it; and the work-groups of a set a
 * compute unit holds at once, as its registers and local memory allow
 * ("resident": {"gemm_fast": N}; without it the model estimates them).
 */
#include "db/db.h"
#include "kernels/tiled.h"
#include "util/json.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static oclblas_status bad(char *err, size_t len, const char *origin, const char *what, const char *name)
{
    snprintf(err, len, "%s: %s%s%s", origin, what, name ? " " : "", name ? name : "");
    return OCLBLAS_DATABASE_INVALID_ENTRY;
}

static oclblas_status get_string(const oclblas__json *obj, const char *key, char *dst, size_t len, char *err,
                                 size_t err_len, const char *origin)
{
    const oclblas__json *v = oclblas__json_get(obj, key);
    dst[0] = '\0';
    if (!v)
        return OCLBLAS_SUCCESS;
    if (v->type != OCLBLAS__JSON_STRING)
        return bad(err, err_len, origin, "expected a string for", key);
    if (strlen(v->string) >= len)
        return bad(err, err_len, origin, "string too long for", key);
    oclblas__strlcpy(dst, v->string, len);
    return OCLBLAS_SUCCESS;
}

/* One kernel's set from {"NAME": VALUE, ...}: every parameter when complete
 * (a set for every shape; an optional one left out holds 0), else at least
 * one (a class may name only those it changes); the values named must be
 * in range and keep the rules that read only them. *given gets the
 * parameters named. */
static oclblas_status parse_set(const oclblas__json *kj, int k, int complete, const char *origin, oclblas__params *p,
                                unsigned *given, char *err, size_t err_len)
{
    const oclblas__kernel_desc *kd = oclblas__kernels[k];
    if (kj->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "expected an object of parameters for", kj->key);
    memset(p, 0, sizeof *p);
    unsigned seen = 0;
    for (const oclblas__json *pj = kj->child; pj; pj = pj->next) {
        const int i = oclblas__param_index(k, pj->key);
        if (i < 0)
            return bad(err, err_len, origin, "unknown parameter", pj->key);
        if (pj->type != OCLBLAS__JSON_NUMBER || pj->number != floor(pj->number) || fabs(pj->number) > 1e9)
            return bad(err, err_len, origin, "expected an integer for", pj->key);
        if (seen & (1u << i))
            return bad(err, err_len, origin, "parameter given twice:", pj->key);
        seen |= 1u << i;
        p->v[i] = (int)pj->number;
    }
    for (int i = 0; i < kd->num_params && complete; ++i)
        if (!(seen & (1u << i)) && !kd->params[i].optional) {
            char what[96];
            snprintf(what, sizeof what, "%s.%s", kd->name, kd->params[i].name);
            return bad(err, err_len, origin, "missing parameter", what);
        }
    if (!seen)
        return bad(err, err_len, origin, "no parameters for", kd->name);
    const char *why;
    if (!oclblas__params_legal_partial(k, p, seen, seen, NULL, &why)) {
        char what[256];
        snprintf(what, sizeof what, "%s (%s)", kd->name, why);
        return bad(err, err_len, origin, "illegal parameters for", what);
    }
    *given = seen;
    return OCLBLAS_SUCCESS;
}

/* A positive, finite number of at most 1e9 (a rate in GFLOPS, microseconds, GB/s). */
static oclblas_status get_positive(const oclblas__json *v, const char *what, double *out, char *err, size_t err_len,
                                   const char *origin)
{
    if (v->type != OCLBLAS__JSON_NUMBER || !(v->number > 0) || v->number > 1e9)
        return bad(err, err_len, origin, "expected a number above 0 and at most 1e9 for", what);
    *out = v->number;
    return OCLBLAS_SUCCESS;
}

/* "rates": {"KERNEL": GFLOPS, ...}: the measured rate of sets that has
 * (a bit per kernel) holds, as flop/s into rates[]. */
static oclblas_status parse_rates(const oclblas__json *rj, unsigned has, const char *origin, double *rates,
                                  char *err, size_t err_len)
{
    if (rj->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "expected an object for", "\"rates\"");
    for (const oclblas__json *kj = rj->child; kj; kj = kj->next) {
        const int k = oclblas__kernel_by_name(kj->key);
        if (k < 0)
            return bad(err, err_len, origin, "unknown kernel in \"rates\":", kj->key);
        if (!(has & (1u << k)))
            return bad(err, err_len, origin, "a rate without a set of parameters beside it:", kj->key);
        double gflops;
        oclblas_status st = get_positive(kj, kj->key, &gflops, err, err_len, origin);
        if (st)
            return st;
        rates[k] = gflops * 1e9;
    }
    return OCLBLAS_SUCCESS;
}

/* "peeled_factors": {"KERNEL": [F, A, B], ...}: the factors on its rate of
 * the peeled program of a set that has (a bit per kernel), each in (0, 4]:
 * with neither operand read along k, and further with A, with B read along
 * k; only for a kernel with such a program. */
static oclblas_status parse_peeled(const oclblas__json *fj, unsigned has, const char *origin,
                                   double factors[][3], char *err, size_t err_len)
{
    if (fj->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "expected an object for", "\"peeled_factors\"");
    for (const oclblas__json *kj = fj->child; kj; kj = kj->next) {
        const int k = oclblas__kernel_by_name(kj->key);
        if (k < 0)
            return bad(err, err_len, origin, "unknown kernel in \"peeled_factors\":", kj->key);
        const oclblas__tiled *tiled = oclblas__kernels[k]->tiled;
        if (!tiled || !tiled->peels)
            return bad(err, err_len, origin, "a peeled factor for a kernel without a peeled program:", kj->key);
        if (!(has & (1u << k)))
            return bad(err, err_len, origin, "a peeled factor without a set of parameters beside it:", kj->key);
        const oclblas__json *f = kj->type == OCLBLAS__JSON_ARRAY ? kj->child : NULL;
        for (int i = 0; i < 3; ++i, f = f ? f->next : NULL) {
            if (!f || f->type != OCLBLAS__JSON_NUMBER || !(f->number > 0 && f->number <= 4))
                return bad(err, err_len, origin, "expected [F, A, B], three factors in (0, 4], for", kj->key);
            factors[k][i] = f->number;
        }
        if (f)
            return bad(err, err_len, origin, "expected [F, A, B], three factors in (0, 4], for", kj->key);
    }
    return OCLBLAS_SUCCESS;
}

/* "along_k_shares": {"KERNEL": [A, B], ...}: the shares of its rate a set
 * that has (a bit per kernel) keeps reading A, and B, in place along k,
 * each in (0, 1], into shares[]; only for a kernel that can. */
static oclblas_status parse_along_k(const oclblas__json *sj, unsigned has, const char *origin,
                                    double shares[][2], char *err, size_t err_len)
{
    if (sj->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "expected an object for", "\"along_k_shares\"");
    for (const oclblas__json *kj = sj->child; kj; kj = kj->next) {
        const int k = oclblas__kernel_by_name(kj->key);
        if (k < 0)
            return bad(err, err_len, origin, "unknown kernel in \"along_k_shares\":", kj->key);
        const oclblas__tiled *tiled = oclblas__kernels[k]->tiled;
        if (!tiled || !tiled->reads_k_contiguous)
            return bad(err, err_len, origin, "shares along k for a kernel that reads no operand along k:", kj->key);
        if (!(has & (1u << k)))
            return bad(err, err_len, origin, "shares along k without a set of parameters beside them:", kj->key);
        const oclblas__json *a = kj->type == OCLBLAS__JSON_ARRAY ? kj->child : NULL, *b = a ? a->next : NULL;
        if (!a || !b || b->next || a->type != OCLBLAS__JSON_NUMBER || b->type != OCLBLAS__JSON_NUMBER ||
            !(a->number > 0 && a->number <= 1) || !(b->number > 0 && b->number <= 1))
            return bad(err, err_len, origin, "expected [A, B], two shares in (0, 1], for", kj->key);
        shares[k][0] = a->number;
        shares[k][1] = b->number;
    }
    return OCLBLAS_SUCCESS;
}

/* "resident": {"KERNEL": N, ...}: the work-groups of a set that has (a
 * bit per kernel) a compute unit holds at once, a whole number in [1,
 * 1024], into resident[]. */
static oclblas_status parse_resident(const oclblas__json *rj, unsigned has, const char *origin, unsigned *resident,
                                     char *err, size_t err_len)
{
    if (rj->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "expected an object for", "\"resident\"");
    for (const oclblas__json *kj = rj->child; kj; kj = kj->next) {
        const int k = oclblas__kernel_by_name(kj->key);
        if (k < 0)
            return bad(err, err_len, origin, "unknown kernel in \"resident\":", kj->key);
        if (!(has & (1u << k)))
            return bad(err, err_len, origin, "work-groups held without a set of parameters beside them:", kj->key);
        if (kj->type != OCLBLAS__JSON_NUMBER || !(kj->number >= 1 && kj->number <= 1024) ||
            kj->number != floor(kj->number))
            return bad(err, err_len, origin, "expected a whole number of work-groups in [1, 1024] for", kj->key);
        resident[k] = (unsigned)kj->number;
    }
    return OCLBLAS_SUCCESS;
}

/* "model": {"call_us": N, "launch_us": N, "bandwidth_gbs": N, "item_gflops": N, "busy_item_gflops": N}, all
 * five, and optionally "along_k_share", a fraction in (0, 1], "bounds_norm", a p in [1, 64], and
 * "step_wait_us", microseconds in [0, 1000]. */
static oclblas_status parse_model(const oclblas__json *mj, const char *origin, oclblas__db_entry *e, char *err,
                                  size_t err_len)
{
    if (mj->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "expected an object for", "\"model\"");
    static const char *const names[] = {"call_us", "launch_us", "bandwidth_gbs", "item_gflops", "busy_item_gflops"};
    static const double scale[] = {1e-6, 1e-6, 1e9, 1e9, 1e9};
    enum { N = sizeof names / sizeof names[0] };
    double v[N];
    for (const oclblas__json *c = mj->child; c; c = c->next) {
        int known = strcmp(c->key, "along_k_share") == 0 || strcmp(c->key, "bounds_norm") == 0 ||
                    strcmp(c->key, "step_wait_us") == 0;
        for (int i = 0; i < N; ++i)
            known |= strcmp(c->key, names[i]) == 0;
        if (!known)
            return bad(err, err_len, origin, "unknown member of \"model\":", c->key);
    }
    for (int i = 0; i < N; ++i) {
        const oclblas__json *f = oclblas__json_get(mj, names[i]);
        if (!f)
            return bad(err, err_len, origin, "\"model\" without", names[i]);
        oclblas_status st = get_positive(f, names[i], &v[i], err, err_len, origin);
        if (st)
            return st;
        v[i] *= scale[i];
    }
    double share = 0;
    const oclblas__json *sj = oclblas__json_get(mj, "along_k_share");
    if (sj) {
        if (sj->type != OCLBLAS__JSON_NUMBER || !(sj->number > 0 && sj->number <= 1))
            return bad(err, err_len, origin, "expected a share in (0, 1] for", "along_k_share");
        share = sj->number;
    }
    double norm = 0;
    const oclblas__json *nj = oclblas__json_get(mj, "bounds_norm");
    if (nj) {
        if (nj->type != OCLBLAS__JSON_NUMBER || !(nj->number >= 1 && nj->number <= 64))
            return bad(err, err_len, origin, "expected a p in [1, 64] for", "bounds_norm");
        norm = nj->number;
    }
    double wait = 0;
    const oclblas__json *wj = oclblas__json_get(mj, "step_wait_us");
    if (wj) {
        if (wj->type != OCLBLAS__JSON_NUMBER || !(wj->number >= 0 && wj->number <= 1000))
            return bad(err, err_len, origin, "expected microseconds in [0, 1000] for", "step_wait_us");
        wait = wj->number * 1e-6;
    }
    e->model = (oclblas__model_device){v[0], v[1], v[2], v[3], v[4], 0, share, norm, wait};
    e->has_model = 1;
    return OCLBLAS_SUCCESS;
}

/* "classes": [{"name": "...", "when": "RULE", "parameters": {...}, "rates": {...}, "along_k_shares": {...},
 * "peeled_factors": {...}}, ...], tried in order. */
static oclblas_status parse_classes(const oclblas__json *arr, const char *origin, oclblas__db_entry *e, char *err,
                                    size_t err_len)
{
    if (arr->type != OCLBLAS__JSON_ARRAY)
        return bad(err, err_len, origin, "expected an array for", "\"classes\"");
    oclblas_status st;
    for (const oclblas__json *cj = arr->child; cj; cj = cj->next) {
        if (e->num_classes == OCLBLAS__MAX_CLASSES)
            return bad(err, err_len, origin, "more classes than the library holds:", OCLBLAS__STR(OCLBLAS__MAX_CLASSES));
        if (cj->type != OCLBLAS__JSON_OBJECT)
            return bad(err, err_len, origin, "a class must be a JSON object", NULL);
        for (const oclblas__json *c = cj->child; c; c = c->next)
            if (strcmp(c->key, "name") && strcmp(c->key, "when") && strcmp(c->key, "parameters") &&
                strcmp(c->key, "rates") && strcmp(c->key, "along_k_shares") && strcmp(c->key, "peeled_factors") &&
                strcmp(c->key, "resident"))
                return bad(err, err_len, origin, "unknown member of a class:", c->key);
        oclblas__db_class *dc = &e->classes[e->num_classes];
        const oclblas__json *name = oclblas__json_get(cj, "name");
        if (!name)
            return bad(err, err_len, origin, "a class without a \"name\"", NULL);
        if ((st = get_string(cj, "name", dc->cls.name, sizeof dc->cls.name, err, err_len, origin)))
            return st;
        if (!oclblas__class_name_valid(dc->cls.name))
            return bad(err, err_len, origin, "a class name is letters, digits, '-', '_', '.' (1 to 31), not",
                       dc->cls.name);
        for (int i = 0; i < e->num_classes; ++i)
            if (strcmp(e->classes[i].cls.name, dc->cls.name) == 0)
                return bad(err, err_len, origin, "class named twice:", dc->cls.name);
        const oclblas__json *when = oclblas__json_get(cj, "when");
        if (when && when->type != OCLBLAS__JSON_STRING)
            return bad(err, err_len, origin, "expected a string (the rule) for the \"when\" of class", dc->cls.name);
        char why[200];
        if (!oclblas__class_parse(when ? when->string : "", &dc->cls, why, sizeof why)) {
            char what[300];
            snprintf(what, sizeof what, "%s: %s", dc->cls.name, why);
            return bad(err, err_len, origin, "bad rule of class", what);
        }
        const oclblas__json *params = oclblas__json_get(cj, "parameters");
        if (!params || params->type != OCLBLAS__JSON_OBJECT || !params->child)
            return bad(err, err_len, origin, "no \"parameters\" object in class", dc->cls.name);
        for (const oclblas__json *kj = params->child; kj; kj = kj->next) {
            const int k = oclblas__kernel_by_name(kj->key);
            if (k < 0)
                return bad(err, err_len, origin, "unknown kernel", kj->key);
            if (dc->has & (1u << k))
                return bad(err, err_len, origin, "kernel given twice in a class:", kj->key);
            oclblas__params p;
            if ((st = parse_set(kj, k, 0, origin, &p, &dc->given[k], err, err_len)))
                return st;
            memcpy(dc->values[k], p.v, sizeof p.v);
            dc->has |= 1u << k;
        }
        const oclblas__json *rates = oclblas__json_get(cj, "rates");
        if (rates && (st = parse_rates(rates, dc->has, origin, dc->rates, err, err_len)))
            return st;
        const oclblas__json *along = oclblas__json_get(cj, "along_k_shares");
        if (along && (st = parse_along_k(along, dc->has, origin, dc->along_k, err, err_len)))
            return st;
        const oclblas__json *peeled = oclblas__json_get(cj, "peeled_factors");
        if (peeled && (st = parse_peeled(peeled, dc->has, origin, dc->peeled, err, err_len)))
            return st;
        const oclblas__json *resident = oclblas__json_get(cj, "resident");
        if (resident && (st = parse_resident(resident, dc->has, origin, dc->resident, err, err_len)))
            return st;
        /* First match wins: a class whose every shape an earlier class of the same kernel takes is dead. */
        for (int i = 0; i < e->num_classes; ++i)
            if ((e->classes[i].has & dc->has) && oclblas__class_covers(&e->classes[i].cls, &dc->cls)) {
                char what[100];
                snprintf(what, sizeof what, "%s (class %s before it takes all its shapes)", dc->cls.name,
                         e->classes[i].cls.name);
                return bad(err, err_len, origin, "no shape can reach class", what);
            }
        ++e->num_classes;
    }
    return OCLBLAS_SUCCESS;
}

static oclblas_status parse_entry(const oclblas__json *j, const char *origin, oclblas__db_entry *e, char *err,
                                  size_t err_len)
{
    memset(e, 0, sizeof *e);
    oclblas__strlcpy(e->origin, origin, sizeof e->origin);
    if (j->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "an entry must be a JSON object", NULL);
    const oclblas__json *fmt = oclblas__json_get(j, "format");
    if (!fmt || fmt->type != OCLBLAS__JSON_STRING || strcmp(fmt->string, OCLBLAS__DB_FORMAT) != 0)
        return bad(err, err_len, origin, "\"format\" must be", "\"" OCLBLAS__DB_FORMAT "\"");
    for (const oclblas__json *c = j->child; c; c = c->next)
        if (strcmp(c->key, "format") && strcmp(c->key, "device") && strcmp(c->key, "tuned") &&
            strcmp(c->key, "parameters") && strcmp(c->key, "classes") && strcmp(c->key, "rates") &&
            strcmp(c->key, "along_k_shares") && strcmp(c->key, "peeled_factors") && strcmp(c->key, "model") &&
            strcmp(c->key, "resident"))
            return bad(err, err_len, origin, "unknown member", c->key);

    const oclblas__json *dev = oclblas__json_get(j, "device");
    if (!dev || dev->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "missing object", "\"device\"");
    oclblas_status st;
    if ((st = get_string(dev, "vendor", e->vendor, sizeof e->vendor, err, err_len, origin)) ||
        (st = get_string(dev, "type", e->type, sizeof e->type, err, err_len, origin)) ||
        (st = get_string(dev, "architecture", e->arch, sizeof e->arch, err, err_len, origin)) ||
        (st = get_string(dev, "name", e->name, sizeof e->name, err, err_len, origin)))
        return st;
    if (e->type[0] && strcmp(e->type, "GPU") && strcmp(e->type, "CPU") && strcmp(e->type, "ACCELERATOR"))
        return bad(err, err_len, origin, "device type must be GPU, CPU or ACCELERATOR, not", e->type);

    const oclblas__json *tuned = oclblas__json_get(j, "tuned");
    if (tuned && tuned->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "expected an object for", "\"tuned\"");
    if (tuned && ((st = get_string(tuned, "tool", e->tool, sizeof e->tool, err, err_len, origin)) ||
                  (st = get_string(tuned, "driver", e->driver, sizeof e->driver, err, err_len, origin)) ||
                  (st = get_string(tuned, "date", e->date, sizeof e->date, err, err_len, origin)) ||
                  (st = get_string(tuned, "sizes", e->sizes, sizeof e->sizes, err, err_len, origin))))
        return st;

    const oclblas__json *params = oclblas__json_get(j, "parameters");
    if (!params || params->type != OCLBLAS__JSON_OBJECT)
        return bad(err, err_len, origin, "missing object", "\"parameters\"");
    for (const oclblas__json *kj = params->child; kj; kj = kj->next) {
        const int k = oclblas__kernel_by_name(kj->key);
        if (k < 0)
            return bad(err, err_len, origin, "unknown kernel", kj->key);
        oclblas__params p;
        unsigned given;
        if ((st = parse_set(kj, k, 1, origin, &p, &given, err, err_len)))
            return st;
        memcpy(e->values[k], p.v, sizeof p.v);
        e->has |= 1u << k;
    }
    const oclblas__json *rates = oclblas__json_get(j, "rates");
    if (rates && (st = parse_rates(rates, e->has, origin, e->rates, err, err_len)))
        return st;
    const oclblas__json *along = oclblas__json_get(j, "along_k_shares");
    if (along && (st = parse_along_k(along, e->has, origin, e->along_k, err, err_len)))
        return st;
    const oclblas__json *peeled = oclblas__json_get(j, "peeled_factors");
    if (peeled && (st = parse_peeled(peeled, e->has, origin, e->peeled, err, err_len)))
        return st;
    const oclblas__json *resident = oclblas__json_get(j, "resident");
    if (resident && (st = parse_resident(resident, e->has, origin, e->resident, err, err_len)))
        return st;
    const oclblas__json *model = oclblas__json_get(j, "model");
    if (model && (st = parse_model(model, origin, e, err, err_len)))
        return st;
    const oclblas__json *classes = oclblas__json_get(j, "classes");
    return classes ? parse_classes(classes, origin, e, err, err_len) : OCLBLAS_SUCCESS;
}

oclblas_status oclblas__db_parse(const char *text, size_t len, const char *origin, oclblas__db_entry **entries,
                                 size_t *count, char *err, size_t err_len)
{
    char perr[200] = "";
    *entries = NULL;
    *count = 0;
    oclblas__json *doc = oclblas__json_parse(text, len, perr, sizeof perr);
    if (!doc) {
        snprintf(err, err_len, "%s: %s", origin, perr);
        return strstr(perr, "out of memory") ? OCLBLAS_OUT_OF_HOST_MEMORY : OCLBLAS_DATABASE_PARSE_ERROR;
    }
    /* Entries are validated one by one into a growing array: a huge array
     * of junk fails at its first element, not after allocating room for
     * every element. */
    const int array = doc->type == OCLBLAS__JSON_ARRAY;
    oclblas__db_entry *out = NULL;
    size_t n = 0, cap = 0;
    oclblas_status st = OCLBLAS_SUCCESS;
    for (const oclblas__json *c = array ? doc->child : doc; c && st == OCLBLAS_SUCCESS; c = array ? c->next : NULL) {
        if (n == cap) {
            const size_t ncap = cap ? cap * 2 : 4;
            oclblas__db_entry *grown = realloc(out, ncap * sizeof *grown);
            if (!grown) {
                snprintf(err, err_len, "%s: out of memory", origin);
                st = OCLBLAS_OUT_OF_HOST_MEMORY;
                break;
            }
            out = grown;
            cap = ncap;
        }
        st = parse_entry(c, origin, &out[n], err, err_len);
        n += st == OCLBLAS_SUCCESS;
    }
    oclblas__json_free(doc);
    if (st != OCLBLAS_SUCCESS) {
        free(out);
        return st;
    }
    *entries = out;
    *count = n;
    return OCLBLAS_SUCCESS;
}
