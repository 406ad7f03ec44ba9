/*
 * Build processes: compiling candidates in worker processes rather than
 * threads. Some drivers serialise clBuildProgram within a process (NVIDIA's:
 * on an H100, 16 threads built gemm_fast candidates only 1.6 times faster
 * than one), but not across processes. Each worker is this program started
 * with --build-worker P:D DIR: it opens the same device and, for every job
 * the parent writes to its stdin, calls oclblas__program_get, which builds
 * from source and stores the binary in the library's disk cache (the run's
 * private folder DIR), and the driver its machine code in its own
 * JIT cache (CUDA_CACHE_PATH, shared by the processes). The parent then
 * calls oclblas__program_get itself and finds the binary: the workers only
 * warm caches, so the program the parent times is still the library's own,
 * and if a worker's binary is missing the parent simply builds from source.
 * A worker that crashes or hangs (a compiler bug) costs that candidate a
 * "build-failed" record, not the run; it is restarted for the next job.
 * Workers run in a session of their own and ignore SIGINT, so that Ctrl-C
 * reaches only the parent (interrupt.c), which stops between candidates.
 */
#include "interrupt.h"
#include "measure.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

extern char **environ;

#define BUILD_TIMEOUT 300.0 /* seconds one build may take before its worker is killed */
#define LINE_MAX_LEN 1024
#define POLL_MS 100          /* how often the wait for the workers looks for an interrupt */

typedef struct {
    pid_t pid;
    int to, from; /* our ends of its stdin and stdout */
    int job;      /* index in the batch, -1 when idle */
    double started;
    char buf[LINE_MAX_LEN];
    size_t len;
} worker;

struct tune_workers {
    char exe[4096];
    char index[32];
    char cache_dir[1100];
    int n;
    worker w[64];
};

static void stop_one(worker *w)
{
    if (w->to >= 0)
        close(w->to);
    if (w->from >= 0)
        close(w->from);
    if (w->pid > 0) {
        /* EOF on its stdin ends it; one that is stuck in a build is killed. */
        int status;
        for (int i = 0; i < 20 && waitpid(w->pid, &status, WNOHANG) == 0; ++i)
            usleep(10000);
        if (waitpid(w->pid, &status, WNOHANG) == 0) {
            kill(w->pid, SIGKILL);
            waitpid(w->pid, &status, 0);
        }
    }
    w->pid = -1;
    w->to = w->from = -1;
    w->job = -1;
    w->len = 0;
}

static int start_one(tune_workers *ws, worker *w)
{
    int in[2], out[2];
    w->pid = -1;
    w->to = w->from = -1;
    w->job = -1;
    w->len = 0;
    if (pipe(in) != 0)
        return 0;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return 0;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    char *argv[] = {ws->exe, "--build-worker", ws->index, ws->cache_dir, NULL};
    const int rc = posix_spawn(&w->pid, ws->exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        w->pid = -1;
        return 0;
    }
    w->to = in[1];
    w->from = out[0];
    return 1;
}

tune_workers *tune_workers_start(const tune_device *d, const char *cache_dir, int n, char *err, size_t len)
{
    tune_workers *ws = calloc(1, sizeof *ws);
    if (!ws) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    const ssize_t l = readlink("/proc/self/exe", ws->exe, sizeof ws->exe - 1);
    if (l <= 0) {
        snprintf(err, len, "cannot find this program's path for the build processes");
        free(ws);
        return NULL;
    }
    ws->exe[l] = '\0';
    snprintf(ws->index, sizeof ws->index, "%u:%u", d->platform_index, d->device_index);
    snprintf(ws->cache_dir, sizeof ws->cache_dir, "%s", cache_dir);
    /* A worker's pipe closing under us must be an error, not a signal. */
    signal(SIGPIPE, SIG_IGN);
    ws->n = n < 1 ? 1 : n > 64 ? 64 : n;
    for (int i = 0; i < ws->n; ++i) {
        if (!start_one(ws, &ws->w[i])) {
            snprintf(err, len, "cannot start build processes: %s", strerror(errno));
            for (int j = 0; j < i; ++j)
                stop_one(&ws->w[j]);
            free(ws);
            return NULL;
        }
    }
    return ws;
}

void tune_workers_stop(tune_workers *ws)
{
    if (!ws)
        return;
    for (int i = 0; i < ws->n; ++i)
        stop_one(&ws->w[i]);
    free(ws);
}

static int send_job(worker *w, int kernel, const oclblas__params *p)
{
    char line[LINE_MAX_LEN], text[512];
    oclblas__params_format(kernel, p, text, sizeof text);
    const int n = snprintf(line, sizeof line, "%s\t%s\n", oclblas__kernels[kernel]->name, text);
    for (int done = 0; done < n;) {
        const ssize_t r = write(w->to, line + done, (size_t)(n - done));
        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            return 0;
        }
        done += (int)r;
    }
    w->started = tune_now();
    return 1;
}

/* After an interrupt: the jobs not done are marked so (the run stops
 * before it measures or records anything more), and the workers still
 * building are stopped, to be started again if the run goes on. */
static void interrupted(tune_workers *ws, tune_status *status, char (*notes)[200], int next, int n)
{
    for (int i = 0; i < ws->n; ++i)
        if (ws->w[i].job >= 0) {
            status[ws->w[i].job] = TUNE_BUILD_FAILED;
            snprintf(notes[ws->w[i].job], sizeof notes[0], "build: interrupted");
            stop_one(&ws->w[i]);
        }
    for (int i = next; i < n; ++i) {
        status[i] = TUNE_BUILD_FAILED;
        snprintf(notes[i], sizeof notes[0], "build: not started: interrupted");
    }
}

void tune_workers_build(tune_workers *ws, int kernel, const oclblas__params *p, int n, tune_status *status,
                        char (*notes)[200])
{
    int next = 0, left = n;
    for (int i = 0; i < n; ++i) {
        status[i] = TUNE_OK;
        notes[i][0] = '\0';
    }
    while (left > 0) {
        /* An interrupt ends the wait at once: the builds in flight are the workers' to drop. */
        if (tune_interrupted()) {
            interrupted(ws, status, notes, next, n);
            return;
        }
        /* Jobs to idle workers; a worker that cannot take one is restarted. */
        for (int i = 0; i < ws->n && next < n; ++i) {
            worker *w = &ws->w[i];
            if (w->job >= 0)
                continue;
            if (w->pid <= 0 && !start_one(ws, w))
                continue;
            if (!send_job(w, kernel, &p[next])) {
                stop_one(w);
                continue;
            }
            w->job = next++;
        }
        struct pollfd fds[64];
        int which[64], nf = 0;
        for (int i = 0; i < ws->n; ++i)
            if (ws->w[i].job >= 0) {
                fds[nf].fd = ws->w[i].from;
                fds[nf].events = POLLIN;
                which[nf++] = i;
            }
        if (nf == 0) {
            /* No worker could be started: the parent builds the rest itself. */
            for (; next < n; ++next, --left)
                snprintf(notes[next], sizeof notes[0], "no build process");
            break;
        }
        const int r = poll(fds, (nfds_t)nf, POLL_MS);
        if (r < 0 && errno != EINTR)
            break;
        for (int f = 0; f < nf; ++f) {
            worker *w = &ws->w[which[f]];
            const int job = w->job;
            int finished = 0;
            if (fds[f].revents & (POLLIN | POLLHUP | POLLERR)) {
                const ssize_t got = read(w->from, w->buf + w->len, sizeof w->buf - 1 - w->len);
                if (got <= 0) {
                    status[job] = TUNE_BUILD_FAILED;
                    snprintf(notes[job], sizeof notes[0], "build: the build process died (compiler crash?)");
                    stop_one(w);
                    finished = 1;
                } else {
                    w->len += (size_t)got;
                    w->buf[w->len] = '\0';
                    char *nl = strchr(w->buf, '\n');
                    if (nl) {
                        *nl = '\0';
                        if (strncmp(w->buf, "ok", 2) == 0) {
                            snprintf(notes[job], sizeof notes[0], "built in %.2f s in a build process",
                                     tune_now() - w->started);
                        } else if (strncmp(w->buf, "refused\t", 8) == 0) {
                            status[job] = TUNE_BUILD_FAILED;
                            snprintf(notes[job], sizeof notes[0], "build: %.180s", w->buf + 8);
                        } else {
                            /* Any other trouble: the parent tries itself. */
                            snprintf(notes[job], sizeof notes[0], "build process: %.160s", w->buf);
                        }
                        w->len = 0;
                        w->job = -1;
                        finished = 1;
                    } else if (w->len >= sizeof w->buf - 1) {
                        stop_one(w); /* garbage: start over */
                        snprintf(notes[job], sizeof notes[0], "build process: unreadable reply");
                        finished = 1;
                    }
                }
            } else if (tune_now() - w->started > BUILD_TIMEOUT) {
                status[job] = TUNE_BUILD_FAILED;
                snprintf(notes[job], sizeof notes[0], "build: no result after %.0f s", BUILD_TIMEOUT);
                stop_one(w);
                finished = 1;
            }
            if (finished)
                --left;
        }
    }
}

/* ---- the worker's side ------------------------------------------------------- */

int tune_worker_main(const char *index, const char *cache_dir)
{
    /* The terminal's signals are the parent's to take: a session of its own
     * keeps Ctrl-C from this process and from the linkers its builds start. */
    setsid();
    tune_interrupt_ignore();
#ifdef __linux__
    /* A parent that stops at once (a second Ctrl-C) leaves no build behind. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    tune_device d;
    char err[512];
    oclblas__cache_dir_set(cache_dir);
    if (!tune_device_open(index, &d, err, sizeof err)) {
        fprintf(stderr, "oclblas-tune build process: %s\n", err);
        return 3;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) > 0) {
        if (line[got - 1] == '\n')
            line[got - 1] = '\0';
        char *tab = strchr(line, '\t');
        const int kernel = tab ? (*tab = '\0', oclblas__kernel_by_name(line)) : -1;
        oclblas__params p = {{0}}; /* the job names every parameter */
        oclblas_status st = kernel < 0 ? OCLBLAS_UNKNOWN_KERNEL : oclblas__params_parse(kernel, tab + 1, &p, NULL);
        oclblas__program *prog = NULL;
        if (st == OCLBLAS_SUCCESS)
            st = oclblas__program_get(d.ctx, d.info, kernel, &p, &prog);
        oclblas__program_release(prog);
        /* The binary is on disk now; this process needs nothing in memory. */
        oclblas_cache_clear(OCLBLAS_CACHE_MEMORY);
        if (st == OCLBLAS_SUCCESS)
            printf("ok\n");
        else if (st == OCLBLAS_BUILD_FAILED || st == OCLBLAS_INVALID_PARAMS)
            printf("refused\t%s\n", oclblas_status_string(st));
        else
            printf("error\t%s\n", oclblas_status_string(st));
        fflush(stdout);
    }
    free(line);
    tune_device_close(&d);
    return 0;
}
