/*
 * The journal: one line per measured configuration (kernel, problem,
 * parameters, outcome, rate, the seconds it cost), appended and flushed as
 * soon as it is known, so that a run stopped at any moment (Ctrl-C, a
 * crash, a lost machine) resumes where it stopped: the next run with the
 * same journal takes every recorded outcome instead of measuring again.
 * Failures are recorded too, so a configuration that does not build is
 * not built again. The file is plain text with tab-separated fields; a
 * line cut short by a crash is ignored. A journal names its device in its
 * header and is refused for another one.
 */
#include "tune.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "# oclblas-tune journal 1"
#define BUCKETS 4096

typedef struct rec {
    char *key; /* kernel \t problem \t config */
    tune_record r;
    long order; /* of its line in the journal: a search keeps the first of equal costs */
    struct rec *next;
} rec;

struct tune_journal {
    FILE *f;
    rec *bucket[BUCKETS];
    long loaded;
    long lines;
};

static const char *const status_names[] = {"ok", "wrong", "build-failed", "run-failed"};

const char *tune_status_name(tune_status s) { return (unsigned)s < 4 ? status_names[s] : "?"; }

static unsigned hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; ++s)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % BUCKETS;
}

static char *make_key(const char *kernel, const char *problem, const char *config)
{
    const size_t n = strlen(kernel) + strlen(problem) + strlen(config) + 3;
    char *k = malloc(n);
    if (k)
        snprintf(k, n, "%s\t%s\t%s", kernel, problem, config);
    return k;
}

static rec *lookup(const tune_journal *j, const char *key)
{
    for (rec *r = j->bucket[hash(key)]; r; r = r->next)
        if (strcmp(r->key, key) == 0)
            return r;
    return NULL;
}

/* Takes ownership of key. */
static int remember(tune_journal *j, char *key, const tune_record *r)
{
    rec *old = lookup(j, key);
    ++j->lines;
    if (old) {
        old->r = *r; /* the later line wins */
        old->order = j->lines;
        free(key);
        return 1;
    }
    rec *n = malloc(sizeof *n);
    if (!n) {
        free(key);
        return 0;
    }
    n->key = key;
    n->r = *r;
    n->order = j->lines;
    const unsigned h = hash(key);
    n->next = j->bucket[h];
    j->bucket[h] = n;
    return 1;
}

/* Fields must not contain the separators. */
static void clean(char *s)
{
    for (; *s; ++s)
        if (*s == '\t' || *s == '\n' || *s == '\r')
            *s = ' ';
}

static int parse_line(tune_journal *j, char *line)
{
    char *f[8];
    int n = 0;
    for (char *p = line; n < 8;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    if (n != 8)
        return 0;
    tune_record r;
    memset(&r, 0, sizeof r);
    int st = -1;
    for (int i = 0; i < 4; ++i)
        if (strcmp(f[3], status_names[i]) == 0)
            st = i;
    char *end;
    if (st < 0)
        return 0;
    r.status = (tune_status)st;
    r.cost = strtod(f[4], &end);
    if (*end)
        return 0;
    r.rate = strtod(f[5], &end);
    if (*end)
        return 0;
    r.charged = strtod(f[6], &end);
    if (*end || !(r.charged >= 0))
        return 0;
    if (r.status != TUNE_OK)
        r.cost = INFINITY;
    else if (!(r.cost > 0))
        return 0;
    oclblas__strlcpy(r.note, f[7], sizeof r.note);
    char *key = make_key(f[0], f[1], f[2]);
    return key && remember(j, key, &r);
}

/* Takes the journal's records from j->f; 0 (with a message) when it is not
 * a journal of this device. *have_header: it starts with this device's header. */
static int load(tune_journal *j, const char *path, const char *dev_line, int *have_header, char *err, size_t len)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0, ok = 1;
    while (ok && (got = getline(&line, &cap, j->f)) > 0) {
        ++lineno;
        const int complete = line[got - 1] == '\n';
        if (complete)
            line[got - 1] = '\0';
        if (lineno == 1 && strcmp(line, MAGIC) != 0) {
            snprintf(err, len, "%s is not an oclblas-tune journal; give another --journal or --fresh", path);
            ok = 0;
        } else if (lineno == 2 && strcmp(line, dev_line) != 0) {
            snprintf(err, len, "journal %s was written for another device (%s); give another --journal or --fresh",
                     path, line[0] == '#' ? line + 9 : line);
            ok = 0;
        } else if (lineno == 2) {
            *have_header = 1;
        } else if (lineno > 2 && complete && line[0] != '#' && parse_line(j, line)) {
            /* (An unfinished last line is what an interruption leaves.) */
            ++j->loaded;
        }
    }
    free(line);
    return ok;
}

int tune_journal_open(const char *path, const char *device, int create, int fresh, tune_journal **out, char *err,
                      size_t len)
{
    tune_journal *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, len, "out of memory");
        return 0;
    }
    char dev_line[600];
    snprintf(dev_line, sizeof dev_line, "# device\t%s", device);
    clean(dev_line + 9);
    const int fd = tune_file_open_regular("journal", path, create, err, len);
    if (fd < 0 || !(j->f = fdopen(fd, "r+"))) {
        if (fd >= 0) {
            snprintf(err, len, "cannot read the journal %s: %s", path, strerror(errno));
            close(fd);
        }
        tune_journal_close(j);
        return 0;
    }
    int have_header = 0;
    if (!fresh && !load(j, path, dev_line, &have_header, err, len)) {
        tune_journal_close(j);
        return 0;
    }
    /* Lines are appended (O_APPEND); a file without this device's header, or --fresh, starts over. */
    int ok = fseek(j->f, 0, SEEK_END) == 0;
    if (ok && !have_header)
        ok = ftruncate(fd, 0) == 0 && fprintf(j->f, "%s\n%s\n", MAGIC, dev_line) > 0 && fflush(j->f) == 0;
    if (!ok) {
        snprintf(err, len, "cannot write the journal %s: %s", path, strerror(errno));
        tune_journal_close(j);
        return 0;
    }
    *out = j;
    return 1;
}

int tune_journal_find(const tune_journal *j, const char *kernel, const char *problem, const char *config,
                      tune_record *out)
{
    char *key = make_key(kernel, problem, config);
    if (!key)
        return 0;
    const rec *r = lookup(j, key);
    free(key);
    if (!r)
        return 0;
    *out = r->r;
    return 1;
}

int tune_journal_add(tune_journal *j, const char *kernel, const char *problem, const char *config,
                     const tune_record *r)
{
    tune_record c = *r;
    clean(c.note);
    char *key = make_key(kernel, problem, config);
    if (!key)
        return 0;
    if (fprintf(j->f, "%s\t%s\t%.17g\t%.9g\t%.6g\t%s\n", key, tune_status_name(c.status),
                c.status == TUNE_OK ? c.cost : INFINITY, c.rate, c.charged, c.note) < 0 ||
        fflush(j->f) != 0) {
        free(key);
        return 0;
    }
    return remember(j, key, &c);
}

int tune_journal_best(const tune_journal *j, const char *kernel, const char *problem, char *config, size_t len,
                      tune_record *best, tune_journal_tally *tally)
{
    const size_t kl = strlen(kernel), pl = strlen(problem);
    const rec *pick = NULL;
    tune_journal_tally t = {0, 0, 0};
    for (int b = 0; b < BUCKETS; ++b) {
        for (const rec *r = j->bucket[b]; r; r = r->next) {
            if (strncmp(r->key, kernel, kl) != 0 || r->key[kl] != '\t' || strncmp(r->key + kl + 1, problem, pl) != 0 ||
                r->key[kl + 1 + pl] != '\t')
                continue;
            ++t.records;
            t.charged += r->r.charged;
            if (r->r.status != TUNE_OK) {
                ++t.failed;
                continue;
            }
            if (!pick || r->r.cost < pick->r.cost || (r->r.cost == pick->r.cost && r->order < pick->order))
                pick = r;
        }
    }
    if (tally)
        *tally = t;
    if (!pick)
        return 0;
    oclblas__strlcpy(config, pick->key + kl + 1 + pl + 1, len);
    *best = pick->r;
    return 1;
}

long tune_journal_loaded(const tune_journal *j) { return j->loaded; }

void tune_journal_close(tune_journal *j)
{
    if (!j)
        return;
    if (j->f)
        fclose(j->f);
    for (int i = 0; i < BUCKETS; ++i) {
        for (rec *r = j->bucket[i]; r;) {
            rec *next = r->next;
            free(r->key);
            free(r);
            r = next;
        }
    }
    free(j);
}
