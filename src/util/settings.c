/*
 * The library's settings from the environment: every OCLBLAS_* variable
 * with a value of a fixed form is parsed here and nowhere else, strictly.
 * A count is the whole string in decimal digits (no sign, no space) within
 * its range; a size the same with an optional unit K, M, G or T (powers of
 * 1024, with or without "B" or "iB" after it, in any case); a choice one
 * of its names in any case; a switch 0 or 1. An empty variable is unset. A
 * value of any other form leaves the setting at its documented default,
 * says so in the verbose log and is kept for oclblas_settings_error. All
 * of them are read together at the first need; the tests read them again
 * through oclblas__settings_reread. The free-form variables (OCLBLAS_DEVICE,
 * OCLBLAS_CACHE_DIR, OCLBLAS_DATABASE, OCLBLAS_BUILD_OPTIONS) are read
 * where they are used; a use that refuses one reports it here
 * (oclblas__setting_refused). The verbose log is here too, the only place
 * the library writes to a stream, and only under OCLBLAS_VERBOSE=1.
 */
#include "util/settings.h"
#include "util/util.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OCLBLAS_FAULT names devices of the set, which has at most as many as the report. */
#define MAX_SET OCLBLAS_REPORT_DEVICES

static pthread_once_t read_once = PTHREAD_ONCE_INIT;
static oclblas__settings settings;

/* ---- the verbose log ------------------------------------------------------ */

int oclblas__verbose(void) { return oclblas__settings_get()->verbose; }

void oclblas__log_line(const char *line)
{
    /* One write per line, so that lines from several threads do not interleave. */
    fprintf(stderr, "oclblas: %s\n", line);
}

void oclblas__log(const char *fmt, ...)
{
    if (!oclblas__verbose())
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    oclblas__log_line(line);
}

/* The refusals, "; "-separated; under refusals_lock. */
static pthread_mutex_t refusals_lock = PTHREAD_MUTEX_INITIALIZER;
static char refusals[2048];

/* Keeps a refusal, and logs it when verbose (given: the settings may be being read). */
static void refuse(int verbose, const char *name, const char *value, const char *fmt, va_list ap)
{
    char why[256];
    vsnprintf(why, sizeof why, fmt, ap);
    char line[512];
    /* A value is anything the environment holds: cut, so that the line stays short. */
    snprintf(line, sizeof line, "%s=%.96s%s %s", name, value, strlen(value) > 96 ? "..." : "", why);
    oclblas__mutex_lock(&refusals_lock);
    const size_t used = strlen(refusals);
    snprintf(refusals + used, sizeof refusals - used, "%s%s", used ? "; " : "", line);
    oclblas__mutex_unlock(&refusals_lock);
    if (verbose)
        oclblas__log_line(line);
}

void oclblas__setting_refused(const char *name, const char *value, const char *fmt, ...)
{
    const int verbose = oclblas__verbose();
    va_list ap;
    va_start(ap, fmt);
    refuse(verbose, name, value, fmt, ap);
    va_end(ap);
}

/* While the settings are read: verbose as read so far (a refused
 * OCLBLAS_VERBOSE leaves the log off, so its own refusal is not logged). */
static int reading_verbose;

static void refused(const char *name, const char *value, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refused(const char *name, const char *value, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    refuse(reading_verbose, name, value, fmt, ap);
    va_end(ap);
}

/* ---- the forms ------------------------------------------------------------ */

/* Decimal digits only, the whole string, at most max. */
static int parse_count(const char *v, unsigned long long max, unsigned long long *out)
{
    unsigned long long n = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9'; ++p) {
        const unsigned d = (unsigned)(*p - '0');
        if (d > max || n > (max - d) / 10)
            return 0;
        n = n * 10 + d;
    }
    if (p == v || *p)
        return 0;
    *out = n;
    return 1;
}

/* A count with an optional unit: 512M, 4G, 4GiB, 1048576. */
static int parse_size(const char *v, size_t *out)
{
    const char *unit = v;
    while (*unit >= '0' && *unit <= '9')
        ++unit;
    int shift = 0;
    switch (*unit) {
    case '\0': break;
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: return 0;
    }
    if (shift && !oclblas__strcaseeq(unit + 1, "") && !oclblas__strcaseeq(unit + 1, "B") &&
        !oclblas__strcaseeq(unit + 1, "iB"))
        return 0;
    char digits[32];
    const size_t len = (size_t)(unit - v);
    if (len == 0 || len >= sizeof digits)
        return 0;
    memcpy(digits, v, len);
    digits[len] = '\0';
    unsigned long long n;
    if (!parse_count(digits, SIZE_MAX >> shift, &n))
        return 0;
    *out = (size_t)n << shift;
    return 1;
}

/* The index of v in names[0..count), in any case. */
static int parse_choice(const char *v, const char *const *names, int count, int *out)
{
    for (int i = 0; i < count; ++i)
        if (oclblas__strcaseeq(v, names[i])) {
            *out = i;
            return 1;
        }
    return 0;
}

/* D:T[,D:T...]: device D of the set fails after delivering T tiles. */
static int parse_faults(const char *v, long fault_at[MAX_SET])
{
    long at[MAX_SET];
    for (int i = 0; i < MAX_SET; ++i)
        at[i] = -1;
    char item[64];
    for (const char *p = v;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len >= sizeof item)
            return 0;
        memcpy(item, p, len);
        item[len] = '\0';
        char *colon = strchr(item, ':');
        unsigned long long d, t;
        if (!colon)
            return 0;
        *colon = '\0';
        if (!parse_count(item, MAX_SET - 1, &d) || !parse_count(colon + 1, LONG_MAX, &t))
            return 0;
        at[d] = (long)t;
        if (!comma)
            break;
        p = comma + 1;
    }
    memcpy(fault_at, at, sizeof at);
    return 1;
}

/* ---- the variables -------------------------------------------------------- */

static const char *const switch_names[] = {"0", "1"};
static const char *const call_names[] = {[OCLBLAS__CALLS_AUTO] = "auto", [OCLBLAS__CALLS_DEVICE] = "device",
                                         [OCLBLAS__CALLS_HOST] = "host"};
static const char *const mode_names[] = {"strict", "accurate", "tf32"};
static const char *const hide_names[] = {"device", "vendor"};

/* The value of a variable, NULL when unset or empty. */
static const char *value_of(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* The values taken, for the log: "NAME=VALUE, ...". */
static char taken[512];

static void take(const char *name, const char *value)
{
    const size_t used = strlen(taken);
    snprintf(taken + used, sizeof taken - used, "%s%s=%.64s", used ? ", " : "", name, value);
}

static void read_switch(const char *name, int *setting, const char *default_value)
{
    const char *v = value_of(name);
    int i;
    if (!v)
        return;
    if (parse_choice(v, switch_names, 2, &i)) {
        *setting = i;
        take(name, v);
    } else {
        refused(name, v, "is not 0 or 1: the default, %s, is used", default_value);
    }
}

static void read_all(void)
{
    oclblas__settings s = {0};
    s.host_calls = OCLBLAS__CALLS_AUTO;
    s.host_zero_copy = 1;
    s.host_pinned = 1;
    s.index_limit = (size_t)INT_MAX;
    for (int i = 0; i < MAX_SET; ++i)
        s.fault_at[i] = -1;
    const char *v;
    unsigned long long n;
    size_t bytes;
    int i;

    /* First, so that the refusals of the others reach the log. */
    taken[0] = '\0';
    reading_verbose = 0;
    read_switch("OCLBLAS_VERBOSE", &s.verbose, "0");
    reading_verbose = s.verbose;

    if ((v = value_of("OCLBLAS_MATH_MODE")) && parse_choice(v, mode_names, 3, &i)) {
        s.math_mode = (oclblas_math_mode)(OCLBLAS_MATH_STRICT + i);
        take("OCLBLAS_MATH_MODE", v);
    } else if (v) {
        refused("OCLBLAS_MATH_MODE", v, "is none of strict, accurate, tf32: the default mode is used");
    }
    if ((v = value_of("OCLBLAS_HOST_CALLS")) && parse_choice(v, call_names, 3, &i)) {
        s.host_calls = (oclblas__host_calls)i;
        take("OCLBLAS_HOST_CALLS", v);
    } else if (v) {
        refused("OCLBLAS_HOST_CALLS", v, "is none of auto, device, host: the default, auto, is used");
    }
    if ((v = value_of("OCLBLAS_DATABASE_HIDE")) && parse_choice(v, hide_names, 2, &i)) {
        s.database_hide = 1 + i;
        take("OCLBLAS_DATABASE_HIDE", v);
    } else if (v) {
        refused("OCLBLAS_DATABASE_HIDE", v, "is neither device nor vendor: no entry is hidden");
    }
    read_switch("OCLBLAS_HOST_ZERO_COPY", &s.host_zero_copy, "1");
    read_switch("OCLBLAS_HOST_PINNED", &s.host_pinned, "1");
    if ((v = value_of("OCLBLAS_HOST_THREADS")) && parse_count(v, OCLBLAS__MAX_HOST_THREADS, &n) && n >= 1) {
        s.host_threads = (unsigned)n;
        take("OCLBLAS_HOST_THREADS", v);
    } else if (v) {
        refused("OCLBLAS_HOST_THREADS", v,
                "is not a count from 1 to %d: the default, the processors online (at most 16), is used",
                OCLBLAS__MAX_HOST_THREADS);
    }
    if ((v = value_of("OCLBLAS_DEVICE_MEMORY")) && parse_size(v, &bytes) && bytes > 0) {
        s.device_memory = bytes;
        take("OCLBLAS_DEVICE_MEMORY", v);
    } else if (v) {
        refused("OCLBLAS_DEVICE_MEMORY", v,
                "is not a size above 0 (bytes, or with K, M, G or T: 512M, 4G): the default, three quarters of "
                "each device's memory, is used");
    }
    if ((v = value_of("OCLBLAS_INDEX_LIMIT")) && parse_count(v, INT_MAX, &n) && n >= OCLBLAS__SMALLEST_INDEX_LIMIT) {
        s.index_limit = (size_t)n;
        take("OCLBLAS_INDEX_LIMIT", v);
    } else if (v) {
        refused("OCLBLAS_INDEX_LIMIT", v, "is not a count from %d to %d: the default, %d, is used",
                OCLBLAS__SMALLEST_INDEX_LIMIT, INT_MAX, INT_MAX);
    }
    if ((v = value_of("OCLBLAS_FAULT")) && parse_faults(v, s.fault_at)) {
        take("OCLBLAS_FAULT", v);
    } else if (v) {
        refused("OCLBLAS_FAULT", v, "is not DEVICE:TILES[,DEVICE:TILES...] with devices 0 to %d: no device fails",
                MAX_SET - 1);
    }
    if (s.verbose && taken[0]) {
        char line[sizeof taken + 32];
        snprintf(line, sizeof line, "settings: %s", taken);
        oclblas__log_line(line);
    }
    settings = s;
}

const oclblas__settings *oclblas__settings_get(void)
{
    pthread_once(&read_once, read_all);
    return &settings;
}

void oclblas__settings_reread(void)
{
    pthread_once(&read_once, read_all);
    oclblas__mutex_lock(&refusals_lock);
    refusals[0] = '\0';
    oclblas__mutex_unlock(&refusals_lock);
    read_all();
}

const char *oclblas_settings_error(void)
{
    static _Thread_local char copy[sizeof refusals];
    oclblas__settings_get();
    oclblas__mutex_lock(&refusals_lock);
    memcpy(copy, refusals, sizeof copy);
    oclblas__mutex_unlock(&refusals_lock);
    return copy[0] ? copy : NULL;
}
