/*
 * Small pieces every other file needs: the verbose log (the only place the
 * library writes to a stream, and only under OCLBLAS_VERBOSE=1), string
 * helpers, mutex wrappers, and the argument checks that each routine makes
 * on the caller's queue and buffers.
 */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t verbose_once = PTHREAD_ONCE_INIT;
static int verbose_level;

static void verbose_init(void)
{
    const char *v = getenv("OCLBLAS_VERBOSE");
    verbose_level = v && *v && strcmp(v, "0") != 0;
}

int oclblas__verbose(void)
{
    pthread_once(&verbose_once, verbose_init);
    return verbose_level;
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
    /* One write per line, so that lines from several threads do not interleave. */
    fprintf(stderr, "oclblas: %s\n", line);
}

void oclblas__strlcpy(char *dst, const char *src, size_t len)
{
    if (!len)
        return;
    size_t n = src ? strlen(src) : 0;
    if (n >= len)
        n = len - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

int oclblas__strcaseeq(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const char *oclblas__strcasestr(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return hay;
    }
    return n == 0 ? hay : NULL;
}

void oclblas__mutex_lock(pthread_mutex_t *m)
{
    /* Fails only on misuse (an uninitialised or not-owned mutex), which would be our bug. */
    (void)pthread_mutex_lock(m);
}

void oclblas__mutex_unlock(pthread_mutex_t *m) { (void)pthread_mutex_unlock(m); }

