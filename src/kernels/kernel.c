/*
 * What every parameter table shares: the descriptors by id (from the kernel
 * list), lookup by name, legality (ranges, the descriptor's rules, on a
 * whole set or a partial one, and with a device's limits its device rules
 * and capability), the -D options of a set with its derived sizes, and the
 * text form NAME=VALUE,... of overrides and logs. The library validates
 * every set with these before it compiles anything, the database parser
 * before it accepts an entry, and the tuner searches with the same rules.
 */
#include "kernels/kernel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const oclblas__kernel_desc *const oclblas__kernels[OCLBLAS__K_COUNT] = {
#define OCLBLAS_KERNEL(ID, name) [OCLBLAS__K_##ID] = &oclblas__desc_##name,
#define OCLBLAS_TABLE(ID, name) [OCLBLAS__K_##ID] = &oclblas__desc_##name,
#include "kernels/kernels.def"
#undef OCLBLAS_KERNEL
#undef OCLBLAS_TABLE
};

int oclblas__kernel_by_name(const char *name)
{
    if (!name)
        return -1;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (strcmp(oclblas__kernels[k]->name, name) == 0)
            return k;
    return -1;
}

int oclblas__param_index(int kernel, const char *name)
{
    const oclblas__kernel_desc *kd = oclblas__kernels[kernel];
    for (int i = 0; i < kd->num_params; ++i)
        if (strcmp(kd->params[i].name, name) == 0)
            return i;
    return -1;
}

int oclblas__params_legal_partial(int kernel, const oclblas__params *p, unsigned assigned, unsigned fresh,
                                  const oclblas__limits *lim, const char **why)
{
    const oclblas__kernel_desc *kd = oclblas__kernels[kernel];
    const char *reason = NULL;
    assigned &= kd->num_params < 32 ? (1u << kd->num_params) - 1 : ~0u;
    fresh &= assigned;
    for (unsigned left = fresh; left && !reason; left &= left - 1) {
        const int i = __builtin_ctz(left);
        if (p->v[i] < kd->params[i].min || p->v[i] > kd->params[i].max)
            reason = "a parameter is outside its legal range";
    }
    /* A rule runs only on values that passed their ranges: no divisor is 0. */
    for (int r = 0; r < kd->num_rules && !reason; ++r) {
        const oclblas__rule *rule = &kd->rules[r];
        if ((rule->reads & ~assigned) == 0 && (rule->reads & fresh) && (!rule->device || lim))
            reason = rule->check(p->v, lim);
    }
    if (!reason && lim && kd->capable && fresh == assigned)
        reason = kd->capable(lim);
    if (why)
        *why = reason;
    return reason == NULL;
}

int oclblas__params_legal(int kernel, const oclblas__params *p, const oclblas__limits *lim, const char **why)
{
    return oclblas__params_legal_partial(kernel, p, ~0u, ~0u, lim, why);
}

/* Appends to buf as snprintf would, keeping count of the whole length. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, const char *name, int value)
{
    const size_t at = *used < len ? *used : len;
    const int w = snprintf(buf + at, len - at, fmt, name, value);
    if (w > 0)
        *used += (size_t)w;
}

/* The set's NAME=VALUE items into buf, the first printed with first, the
 * others with next, and with derived the derived sizes after them; returns
 * the length the whole text needs. */
static size_t print_set(int kernel, const oclblas__params *p, int derived, const char *first, const char *next,
                        char *buf, size_t len)
{
    const oclblas__kernel_desc *kd = oclblas__kernels[kernel];
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < kd->num_params; ++i)
        append(buf, len, &used, used ? next : first, kd->params[i].name, p->v[i]);
    if (derived && kd->derive) {
        oclblas__derived d[OCLBLAS__MAX_DERIVED];
        const int n = kd->derive(p->v, d);
        for (int i = 0; i < n; ++i)
            append(buf, len, &used, used ? next : first, d[i].name, d[i].value);
    }
    return used;
}

size_t oclblas__params_defines(int kernel, const oclblas__params *p, char *buf, size_t len)
{
    return print_set(kernel, p, 1, "-D%s=%d", " -D%s=%d", buf, len);
}

void oclblas__params_format(int kernel, const oclblas__params *p, char *buf, size_t len)
{
    print_set(kernel, p, 0, "%s=%d", ",%s=%d", buf, len);
}

oclblas_status oclblas__params_parse(int kernel, const char *text, oclblas__params *p, unsigned *given)
{
    const char *s = text;
    oclblas__params out = *p;
    unsigned named = 0;
    while (*s) {
        while (*s == ',' || isspace((unsigned char)*s))
            ++s;
        if (!*s)
            break;
        char name[32];
        size_t n = 0;
        while (s[n] && s[n] != '=' && s[n] != ',' && !isspace((unsigned char)s[n]))
            ++n;
        if (s[n] != '=' || n == 0 || n >= sizeof name)
            return OCLBLAS_INVALID_ARGUMENT;
        memcpy(name, s, n);
        name[n] = '\0';
        const int idx = oclblas__param_index(kernel, name);
        if (idx < 0)
            return OCLBLAS_UNKNOWN_PARAM;
        s += n + 1;
        char *end;
        const long val = strtol(s, &end, 10);
        if (end == s || (*end && *end != ',' && !isspace((unsigned char)*end)) || val < -1000000000L ||
            val > 1000000000L)
            return OCLBLAS_INVALID_ARGUMENT;
        out.v[idx] = (int)val;
        named |= OCLBLAS__P(idx);
        s = end;
    }
    *p = out;
    if (given)
        *given = named;
    return OCLBLAS_SUCCESS;
}
