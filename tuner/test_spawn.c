/*
 * The tests' folders and runs of oclblas-tune as a process (test_spawn.h).
 */
#include "test_spawn.h"
#include "measure.h"
#include "tune.h"

#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

char spawn_log[512];

#define VICTIM_TEXT "the victim's own content\n"

int spawn_folder_make(char *tmpl, int pocl)
{
    if (!mkdtemp(tmpl))
        return -1;
    snprintf(spawn_log, sizeof spawn_log, "%s/log.txt", tmpl);
    if (pocl) {
        char cache[600];
        snprintf(cache, sizeof cache, "%s/pocl-cache", tmpl);
        setenv("POCL_KERNEL_CACHE", "1", 1);
        setenv("POCL_CACHE_DIR", cache, 1);
    }
    return 0;
}

int spawn_folder_remove(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

int spawn_folder_count(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

void spawn_victim_write(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(VICTIM_TEXT, f);
    assert_int_equal(fclose(f), 0);
}

void spawn_victim_assert(const char *path)
{
    char *text = spawn_slurp(path);
    assert_non_null(text);
    assert_string_equal(text, VICTIM_TEXT);
    free(text);
}

pid_t spawn_startv(const char *arg, va_list ap)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = OCLBLAS_TUNE_PATH;
    for (const char *a = arg; a && n < 63; a = va_arg(ap, const char *))
        argv[n++] = a;
    argv[n] = NULL;
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        FILE *f = freopen(spawn_log, "w", stderr);
        if (!f || dup2(fileno(stderr), STDOUT_FILENO) < 0)
            _exit(120);
        execv(argv[0], (char *const *)argv);
        _exit(121);
    }
    setpgid(pid, pid); /* either side may get there first */
    return pid;
}

pid_t spawn_start(const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    const pid_t pid = spawn_startv(arg, ap);
    va_end(ap);
    return pid;
}

int spawn_finish(pid_t pid)
{
    const double t0 = tune_now();
    int status;
    pid_t got;
    while ((got = waitpid(pid, &status, WNOHANG)) == 0 && tune_now() - t0 < SPAWN_LIMIT)
        usleep(10000);
    if (got == 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        spawn_show_log();
        fail_msg("oclblas-tune still ran after %.0f s", SPAWN_LIMIT);
    }
    assert_int_equal(got, pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

int spawn_tune(const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    const pid_t pid = spawn_startv(arg, ap);
    va_end(ap);
    return spawn_finish(pid);
}

char *spawn_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    const size_t n = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

int spawn_log_has(const char *what)
{
    char *log = spawn_slurp(spawn_log);
    const int has = log && strstr(log, what) != NULL;
    free(log);
    return has;
}

int spawn_count_in_log(const char *what)
{
    char *log = spawn_slurp(spawn_log);
    int n = 0;
    for (const char *p = log; p && (p = strstr(p, what)) != NULL; p += strlen(what))
        ++n;
    free(log);
    return n;
}

double spawn_log_number(const char *after)
{
    char *log = spawn_slurp(spawn_log);
    const char *p = log ? strstr(log, after) : NULL;
    const double x = p ? atof(p + strlen(after)) : -1;
    free(log);
    return x;
}

void spawn_show_log(void)
{
    char *log = spawn_slurp(spawn_log);
    print_message("--- oclblas-tune output ---\n%s---\n", log ? log : "(none)");
    free(log);
}

int spawn_count_lines(const char *path)
{
    char *text = spawn_slurp(path);
    int n = 0;
    for (const char *p = text; p && *p; ++p)
        n += *p == '\n';
    free(text);
    return n;
}

pid_t spawn_child_of(pid_t pid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t found = 0;
    for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        const size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        const char *close = strrchr(buf, ')'); /* after the command name, which may hold anything */
        int ppid;
        char state;
        if (close && sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == pid)
            found = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return found;
}

pid_t spawn_wait_for_child(pid_t pid, double seconds)
{
    const double t0 = tune_now();
    while (tune_now() - t0 < seconds) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        /* Ended: our child (left for spawn_finish to reap), or another's that is gone. */
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 ? info.si_pid != 0 : kill(pid, 0) != 0)
            return 0;
        const pid_t child = spawn_child_of(pid);
        if (child)
            return child;
        usleep(2000);
    }
    return 0;
}

static oclblas_status gemm_call(void *v, tune_problem *t, cl_command_queue q)
{
    (void)v;
    const oclblas__tune_problem *p = &t->p;
    return oclblas_sgemm_cl(OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, t->trans_b ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, p->m,
                            p->n, p->k, p->alpha, t->buf[0], 0, p->m, t->buf[1], 0, tune_problem_ld(t, OCLBLAS__BUF_B),
                            p->beta, t->buf[2], 0, p->m, q, NULL);
}

void spawn_check_gemm(cl_context ctx, cl_command_queue q, oclblas_transpose tb, size_t m, size_t n, size_t k)
{
    const oclblas__tune_problem p = {m, n, k, 0, 0, 1.25f, -0.5f};
    tune_problem t;
    assert_true(tune_problem_make(&t, OCLBLAS__FORM_GEMM, 0, tb == OCLBLAS_TRANS, &p, 5));
    assert_int_equal(tune_problem_upload(&t, ctx, 0), OCLBLAS_SUCCESS);
    int ok = 0;
    char note[200];
    assert_int_equal(tune_problem_check(&t, q, gemm_call, NULL, &ok, note, sizeof note), OCLBLAS_SUCCESS);
    if (!ok)
        fail_msg("sgemm %zux%zux%zu: %s", m, n, k, note);
    tune_problem_free(&t);
}

/* Whether building a program on the tuner's device starts a linker process,
 * as PoCL's CPU devices do; other implementations (Intel's CPU runtime)
 * compile and link inside the process, and there is no linker to catch. */
int spawn_links_in_processes(void)
{
    cl_device_id dev;
    cl_platform_id platform;
    cl_device_type type = 0;
    char name[256] = "";
    if (oclblas__device_find(getenv("OCLBLAS_DEVICE"), &dev, NULL, NULL) != OCLBLAS_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS)
        return 0;
    return strstr(name, "Portable Computing Language") && (type & CL_DEVICE_TYPE_CPU);
}
