/*
 * The host threads of the library: a small pool of workers, started at
 * first need, that run the parts of a job beside the thread that submitted
 * it. Host-pointer calls use it to copy between the caller's pageable
 * memory and pinned staging buffers (one thread copies at a fraction of
 * the memory bus; the DMA engines want more), and the library's own host
 * routines to use every core. The submitter always works on its own job,
 * so a job completes even with no worker at all (a forked child, whose
 * workers did not survive the fork, starts new ones when it first needs
 * them), and a part may submit a job of its own without deadlock. Several
 * threads may submit at once; their parts are served in order of arrival.
 * OCLBLAS_HOST_THREADS sets how many threads a job may use, the submitter
 * included (default: the processors online, at most 16).
 */
#include "host/pool.h"
#include "util/settings.h"
#include "util/util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct job {
    oclblas__part_fn fn;
    void *arg;
    size_t parts;
    size_t next; /* the next part to hand out; under the lock */
    size_t done; /* parts finished; under the lock */
    pthread_cond_t finished;
    struct job *next_job;
} job;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_work = PTHREAD_COND_INITIALIZER;
static job *queue_head, *queue_tail; /* jobs with parts not yet handed out */
static unsigned workers_started, threads_wanted;
static int settings_read;

static unsigned read_threads(void)
{
    const unsigned chosen = oclblas__settings_get()->host_threads;
    if (chosen)
        return chosen;
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1 : online > 16 ? 16 : (unsigned)online;
}

/* Under pool_lock: a part of the first queued job, or NULL. */
static job *take_part(size_t *part)
{
    job *j = queue_head;
    if (!j)
        return NULL;
    *part = j->next++;
    if (j->next == j->parts) { /* every part handed out: off the queue */
        queue_head = j->next_job;
        if (!queue_head)
            queue_tail = NULL;
    }
    return j;
}

/* Under pool_lock. */
static void finish_part(job *j)
{
    if (++j->done == j->parts)
        pthread_cond_signal(&j->finished);
}

static void *worker(void *unused)
{
    (void)unused;
    oclblas__mutex_lock(&pool_lock);
    for (;;) {
        size_t part;
        job *j = take_part(&part);
        if (!j) {
            pthread_cond_wait(&pool_work, &pool_lock);
            continue;
        }
        oclblas__mutex_unlock(&pool_lock);
        j->fn(j->arg, part);
        oclblas__mutex_lock(&pool_lock);
        finish_part(j);
    }
    return NULL;
}

/* In a forked child only the thread that forked lives on: the pool starts
 * again from nothing (the lock may have been held by a thread that is gone). */
static void after_fork_child(void)
{
    pthread_mutex_init(&pool_lock, NULL);
    pthread_cond_init(&pool_work, NULL);
    queue_head = queue_tail = NULL;
    workers_started = 0;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) { pthread_atfork(NULL, NULL, after_fork_child); }

unsigned oclblas__pool_threads(void)
{
    oclblas__mutex_lock(&pool_lock);
    if (!settings_read) {
        threads_wanted = read_threads();
        settings_read = 1;
    }
    const unsigned t = threads_wanted;
    oclblas__mutex_unlock(&pool_lock);
    return t;
}

/* Under pool_lock: workers up to the count wanted; a thread that cannot
 * be started leaves the work to the others and to the submitter. */
static void start_workers(void)
{
    while (workers_started + 1 < threads_wanted) {
        pthread_attr_t attr;
        pthread_t t;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        const int rc = pthread_create(&t, &attr, worker, NULL);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            threads_wanted = workers_started + 1;
            break;
        }
        ++workers_started;
    }
}

void oclblas__pool_run(size_t parts, oclblas__part_fn fn, void *arg)
{
    if (parts == 0)
        return;
    if (parts == 1 || oclblas__pool_threads() == 1) {
        for (size_t p = 0; p < parts; ++p)
            fn(arg, p);
        return;
    }
    pthread_once(&atfork_once, register_atfork);
    job j;
    memset(&j, 0, sizeof j);
    j.fn = fn;
    j.arg = arg;
    j.parts = parts;
    pthread_cond_init(&j.finished, NULL);
    oclblas__mutex_lock(&pool_lock);
    start_workers();
    if (queue_tail)
        queue_tail->next_job = &j;
    else
        queue_head = &j;
    queue_tail = &j;
    pthread_cond_broadcast(&pool_work);
    /* The submitter takes parts of its own job only: it returns as soon as
     * its job is done, whatever other submitters queued behind it. */
    while (j.next < j.parts) {
        const size_t part = j.next++;
        if (j.next == j.parts) {
            /* Off the queue: it may be anywhere in it. */
            job **p = &queue_head, *prev = NULL;
            while (*p != &j) {
                prev = *p;
                p = &(*p)->next_job;
            }
            *p = j.next_job;
            if (queue_tail == &j)
                queue_tail = prev;
        }
        oclblas__mutex_unlock(&pool_lock);
        fn(arg, part);
        oclblas__mutex_lock(&pool_lock);
        finish_part(&j);
    }
    while (j.done < j.parts)
        pthread_cond_wait(&j.finished, &pool_lock);
    oclblas__mutex_unlock(&pool_lock);
    pthread_cond_destroy(&j.finished);
}

/* ---- copies between strided matrices and packed buffers ---------------- */

typedef struct {
    const float *src;
    float *dst;
    size_t ld, rows, e0, e1, per_part;
    int unpack; /* 0: strided -> packed, 1: packed -> strided */
} copy_job;

/* Elements [e0, e1) of the packed rows x cols rectangle, column by column. */
static void copy_range(const copy_job *c, size_t e0, size_t e1)
{
    while (e0 < e1) {
        const size_t col = e0 / c->rows, row = e0 % c->rows;
        size_t len = c->rows - row;
        if (len > e1 - e0)
            len = e1 - e0;
        if (c->unpack)
            memcpy(c->dst + col * c->ld + row, c->src + (e0 - c->e0), len * sizeof(float));
        else
            memcpy(c->dst + (e0 - c->e0), c->src + col * c->ld + row, len * sizeof(float));
        e0 += len;
    }
}

static void copy_part(void *arg, size_t part)
{
    const copy_job *c = arg;
    const size_t a = c->e0 + part * c->per_part;
    const size_t b = a + c->per_part < c->e1 ? a + c->per_part : c->e1;
    if (a < b)
        copy_range(c, a, b);
}

/* Below this a copy is not worth waking other threads for. */
#define PARALLEL_COPY_BYTES ((size_t)1 << 20)

static void run_copy(copy_job *c)
{
    const size_t n = c->e1 - c->e0;
    size_t parts = 1;
    if (n * sizeof(float) >= PARALLEL_COPY_BYTES) {
        parts = oclblas__pool_threads();
        const size_t most = n * sizeof(float) / (PARALLEL_COPY_BYTES / 4);
        if (parts > most)
            parts = most ? most : 1;
    }
    c->per_part = (n + parts - 1) / parts;
    /* Parts on 64-byte boundaries of the packed side, so no two threads write one cache line. */
    c->per_part = (c->per_part + 15) / 16 * 16;
    parts = (n + c->per_part - 1) / c->per_part;
    oclblas__pool_run(parts, copy_part, c);
}

void oclblas__pack(const float *src, size_t ld, size_t rows, size_t e0, size_t e1, float *dst)
{
    copy_job c = {src, dst, ld, rows, e0, e1, 0, 0};
    run_copy(&c);
}

void oclblas__unpack(const float *src, size_t e0, size_t e1, float *dst, size_t ld, size_t rows)
{
    copy_job c = {src, dst, ld, rows, e0, e1, 0, 1};
    run_copy(&c);
}
