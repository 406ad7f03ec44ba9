/*
 * Classes of shapes: a device's database entry may hold, beside its set of
 * parameters for every shape, sets for classes of problems (one side
 * small, k much larger than m and n, small squares...), each with a rule
 * on the problem's m, n and k. This file owns the rules (their text form,
 * "min(m,n) <= 64, k >= 1024", parsed and printed here for the database,
 * the tuner and the logs), whether a shape meets one, and the one place
 * where a plan reads parameters: oclblas__devctx_params takes the first
 * class of the kernel whose rule the shape meets, else the set for every
 * shape. Rules see the problem the kernels compute: column-major, so a
 * row-major caller's m is the rule's n (classes that single out a side come
 * in pairs, one for m and one for n).
 */
#include "plan/shapes.h"
#include "util/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The quantities a condition may name, longest names first where one is a
 * prefix of another ("m*n*k" before "m*n" before "m"). */
static const struct {
    const char *name;
    oclblas__quantity q;
} quantities[] = {
    {"k/max(m,n)", OCLBLAS__Q_K_PER_MN}, {"min(m,n,k)", OCLBLAS__Q_MIN_MNK}, {"max(m,n,k)", OCLBLAS__Q_MAX_MNK},
    {"min(m,n)", OCLBLAS__Q_MIN_MN},     {"max(m,n)", OCLBLAS__Q_MAX_MN},     {"m*n*k", OCLBLAS__Q_MNK},
    {"m*n", OCLBLAS__Q_MN},              {"m", OCLBLAS__Q_M},                 {"n", OCLBLAS__Q_N},
    {"k", OCLBLAS__Q_K},                 {"products", OCLBLAS__Q_PRODUCTS},
};
static const char *const op_names[] = {"<=", "<", ">=", ">"};

static const char *quantity_name(int q)
{
    for (size_t i = 0; i < sizeof quantities / sizeof quantities[0]; ++i)
        if ((int)quantities[i].q == q)
            return quantities[i].name;
    return "?";
}

static double value_of(int q, const oclblas__shape *s)
{
    const double m = (double)s->m, n = (double)s->n, k = (double)s->k;
    const double lo = fmin(m, n), hi = fmax(m, n);
    switch ((oclblas__quantity)q) {
    case OCLBLAS__Q_M: return m;
    case OCLBLAS__Q_N: return n;
    case OCLBLAS__Q_K: return k;
    case OCLBLAS__Q_MIN_MN: return lo;
    case OCLBLAS__Q_MAX_MN: return hi;
    case OCLBLAS__Q_MIN_MNK: return fmin(lo, k);
    case OCLBLAS__Q_MAX_MNK: return fmax(hi, k);
    case OCLBLAS__Q_MN: return m * n;
    case OCLBLAS__Q_MNK: return m * n * k;
    case OCLBLAS__Q_K_PER_MN: return hi > 0 ? k / hi : INFINITY;
    case OCLBLAS__Q_PRODUCTS: return (double)s->products;
    case OCLBLAS__Q_COUNT: break;
    }
    return NAN;
}

static int holds(const oclblas__condition *c, double v)
{
    switch (c->op) {
    case OCLBLAS__OP_LE: return v <= c->value;
    case OCLBLAS__OP_LT: return v < c->value;
    case OCLBLAS__OP_GE: return v >= c->value;
    default: return v > c->value;
    }
}

int oclblas__class_matches(const oclblas__shape_class *c, const oclblas__shape *s)
{
    for (int i = 0; i < c->num_conditions; ++i)
        if (!holds(&c->cond[i], value_of(c->cond[i].quantity, s)))
            return 0;
    return 1;
}

static int refuse(char *why, size_t len, const char *fmt, const char *what)
{
    if (why && len)
        snprintf(why, len, fmt, what);
    return 0;
}

/* Whether the conditions on each quantity leave any value: every quantity
 * is at least 1 for a problem with a product to compute (the ratio more
 * than 0), and a lower bound above an upper one, or equal with either
 * strict, leaves none. Contradictions between different quantities are not
 * looked for. */
static int satisfiable(const oclblas__shape_class *c, const char **which)
{
    for (int q = 0; q < OCLBLAS__Q_COUNT; ++q) {
        double lo = q == OCLBLAS__Q_K_PER_MN ? 0 : 1, hi = INFINITY;
        int lo_strict = q == OCLBLAS__Q_K_PER_MN, hi_strict = 0;
        for (int i = 0; i < c->num_conditions; ++i) {
            const oclblas__condition *d = &c->cond[i];
            if (d->quantity != q)
                continue;
            const int strict = d->op == OCLBLAS__OP_LT || d->op == OCLBLAS__OP_GT;
            if (d->op == OCLBLAS__OP_GE || d->op == OCLBLAS__OP_GT) {
                if (d->value > lo || (d->value == lo && strict)) {
                    lo = d->value;
                    lo_strict = strict;
                }
            } else if (d->value < hi || (d->value == hi && strict)) {
                hi = d->value;
                hi_strict = strict;
            }
        }
        if (lo > hi || (lo == hi && (lo_strict || hi_strict))) {
            *which = quantity_name(q);
            return 0;
        }
    }
    return 1;
}

int oclblas__class_parse(const char *rule, oclblas__shape_class *c, char *why, size_t len)
{
    c->num_conditions = 0;
    const char *s = rule ? rule : "";
    for (;;) {
        while (*s == ',' || isspace((unsigned char)*s))
            ++s;
        if (!*s)
            break;
        if (strncmp(s, "and", 3) == 0 && isspace((unsigned char)s[3])) {
            s += 3;
            continue;
        }
        if (c->num_conditions == OCLBLAS__MAX_CONDITIONS)
            return refuse(why, len, "more than %s conditions", OCLBLAS__STR(OCLBLAS__MAX_CONDITIONS));
        oclblas__condition *d = &c->cond[c->num_conditions];
        /* The quantity: its name exactly, spaces inside it ignored ("min(m, n)"). */
        char name[24];
        size_t n = 0;
        while (*s && !strchr("<>=", *s) && n + 1 < sizeof name) {
            if (!isspace((unsigned char)*s))
                name[n++] = (char)tolower((unsigned char)*s);
            ++s;
        }
        name[n] = '\0';
        int found = -1;
        for (size_t i = 0; i < sizeof quantities / sizeof quantities[0] && found < 0; ++i)
            if (strcmp(name, quantities[i].name) == 0)
                found = (int)quantities[i].q;
        if (found < 0)
            return refuse(why, len,
                          "unknown quantity \"%s\" (m, n, k, min(m,n), max(m,n), min(m,n,k), max(m,n,k), m*n, "
                          "m*n*k, k/max(m,n), products)",
                          name);
        d->quantity = (unsigned char)found;
        int op = -1;
        for (int i = 0; i < 4 && op < 0; ++i)
            if (strncmp(s, op_names[i], strlen(op_names[i])) == 0)
                op = i;
        if (op < 0)
            return refuse(why, len, "expected <=, <, >= or > after %s", quantity_name(found));
        d->op = (unsigned char)op;
        s += strlen(op_names[op]);
        while (isspace((unsigned char)*s))
            ++s;
        char *end;
        const double v = strtod(s, &end);
        if (end == s || !isfinite(v) || v < 0 || !(*end == '\0' || *end == ',' || isspace((unsigned char)*end)))
            return refuse(why, len, "expected a number of 0 or more after %s", op_names[op]);
        d->value = v;
        s = end;
        ++c->num_conditions;
    }
    const char *which;
    if (!satisfiable(c, &which))
        return refuse(why, len, "no shape meets the conditions on %s", which);
    return 1;
}

void oclblas__class_format(const oclblas__shape_class *c, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < c->num_conditions && used < len; ++i) {
        const int w = snprintf(buf + used, len - used, "%s%s %s %.15g", i ? ", " : "",
                               quantity_name(c->cond[i].quantity), op_names[c->cond[i].op], c->cond[i].value);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}

/* Whether condition a implies b (same quantity; every value that meets a meets b). */
static int implies(const oclblas__condition *a, const oclblas__condition *b)
{
    if (a->quantity != b->quantity)
        return 0;
    const int a_up = a->op == OCLBLAS__OP_LE || a->op == OCLBLAS__OP_LT;
    const int b_up = b->op == OCLBLAS__OP_LE || b->op == OCLBLAS__OP_LT;
    if (a_up != b_up)
        return 0;
    const int a_strict = a->op == OCLBLAS__OP_LT || a->op == OCLBLAS__OP_GT;
    const int b_strict = b->op == OCLBLAS__OP_LT || b->op == OCLBLAS__OP_GT;
    if (a->value == b->value)
        return a_strict || !b_strict;
    return a_up ? a->value < b->value : a->value > b->value;
}

int oclblas__class_covers(const oclblas__shape_class *earlier, const oclblas__shape_class *later)
{
    for (int i = 0; i < earlier->num_conditions; ++i) {
        int implied = 0;
        for (int j = 0; j < later->num_conditions && !implied; ++j)
            implied = implies(&later->cond[j], &earlier->cond[i]);
        if (!implied)
            return 0;
    }
    return 1;
}

int oclblas__class_name_valid(const char *name)
{
    const size_t n = strlen(name);
    if (n == 0 || n >= OCLBLAS__CLASS_NAME)
        return 0;
    for (const char *p = name; *p; ++p)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
            return 0;
    return 1;
}
