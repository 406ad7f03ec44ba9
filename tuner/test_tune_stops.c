/*
 * How a tuning run ends, with oclblas-tune itself on the default device
 * (PoCL here): a run with a time budget ends within the total plus one
 * candidate's time (plus the check of its entry, which the tuner times);
 * Ctrl-C, sent as a terminal sends it (to the tuner's whole process group,
 * the linkers PoCL starts for each candidate included), at any moment and
 * while a candidate is being linked, ends the run with exit status 130
 * and an entry or a message saying there is none, never with a crash; a
 * second Ctrl-C stops at once and still writes the entry; and an entry
 * written again from the run's journal (--from-journal) is the one the
 * run wrote, without measuring anything.
 */
#include "measure.h"

#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

static char dir[] = "/tmp/oclblas-tune-stops-XXXXXX";
static char log_path[300];

#define LIMIT 300.0 /* seconds any run may take before the test gives up on it */

/* Small problems, so that a candidate is measured in milliseconds and
 * built in a second or so (gemm_direct: several). */
#define SMALL "--size", "gemm_direct=64x64x64", "--size", "gemv_n=256x256", "--size", "gemv_t=256x256", \
              "--size", "routine=4096x64x512", "--values", "routine:GEMM_MIN_INDIRECT=64,128:HOST_MAX=0,16,32"

/* Starts oclblas-tune in a process group of its own, as a shell starts a
 * job, with stdout and stderr to log_path. */
static pid_t start(const char *arg, va_list ap)
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
        FILE *f = freopen(log_path, "w", stderr);
        if (!f || dup2(fileno(stderr), STDOUT_FILENO) < 0)
            _exit(120);
        execv(argv[0], (char *const *)argv);
        _exit(121);
    }
    setpgid(pid, pid); /* either side may get there first */
    return pid;
}

static pid_t start_tune(const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    const pid_t pid = start(arg, ap);
    va_end(ap);
    return pid;
}

/* Waits for the run: its exit status, or 1000 + the signal that ended it. */
static int finish(pid_t pid)
{
    const double t0 = tune_now();
    int status;
    pid_t got;
    while ((got = waitpid(pid, &status, WNOHANG)) == 0 && tune_now() - t0 < LIMIT)
        usleep(20000);
    if (got == 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("oclblas-tune still ran after %.0f s", LIMIT);
    }
    assert_int_equal(got, pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

static int tune(const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    const pid_t pid = start(arg, ap);
    va_end(ap);
    return finish(pid);
}

static char *slurp(const char *path)
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

static void show_log(void)
{
    char *log = slurp(log_path);
    print_message("--- oclblas-tune output ---\n%s---\n", log ? log : "(none)");
    free(log);
}

static int log_has(const char *what)
{
    char *log = slurp(log_path);
    const int has = log && strstr(log, what) != NULL;
    free(log);
    return has;
}

/* A number that follows `after` in the log; -1 when it is not there. */
static double log_number(const char *after)
{
    char *log = slurp(log_path);
    const char *p = log ? strstr(log, after) : NULL;
    const double x = p ? atof(p + strlen(after)) : -1;
    free(log);
    return x;
}

static int count_lines(const char *path)
{
    char *text = slurp(path);
    int n = 0;
    for (const char *p = text; p && *p; ++p)
        n += *p == '\n';
    free(text);
    return n;
}

/* The longest a record of the journal cost: the time from the record
 * before (its batch's builds, its measurement, the tuner's own work). */
static double longest_record(const char *journal)
{
    char *text = slurp(journal);
    assert_non_null(text);
    double longest = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        const char *f = line;
        for (int i = 0; i < 6 && f; ++i) {
            f = strchr(f, '\t');
            if (f)
                ++f;
        }
        if (f && atof(f) > longest)
            longest = atof(f);
    }
    free(text);
    return longest;
}

/* Whether building a program on the tuner's device starts a linker process,
 * as PoCL's CPU devices do; other implementations (Intel's CPU runtime)
 * compile and link inside the process, and there is no linker to catch. */
static int links_in_processes(void)
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

/* Whether a process whose parent is pid runs now: in a threads build on
 * PoCL, that is the linker of a candidate. */
static int has_child(pid_t pid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int found = 0;
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
            found = 1;
    }
    closedir(d);
    return found;
}

/* Waits (up to `seconds`) until the run starts a linker; 0 when it ended or none came. */
static int wait_for_link(pid_t pid, double seconds)
{
    const double t0 = tune_now();
    while (tune_now() - t0 < seconds) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != 0)
            return 0; /* it ended (and is left for finish to reap) */
        if (has_child(pid))
            return 1;
        usleep(2000);
    }
    return 0;
}

/* Two entries are the same: device, tool, sizes, kernels and every value (the note and date aside). */
static void assert_same_entry(const char *a_path, const char *b_path)
{
    char *a_text = slurp(a_path), *b_text = slurp(b_path);
    assert_non_null(a_text);
    assert_non_null(b_text);
    oclblas__db_entry *a, *b;
    size_t na, nb;
    char err[256];
    assert_int_equal(oclblas__db_parse(a_text, strlen(a_text), a_path, &a, &na, err, sizeof err), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__db_parse(b_text, strlen(b_text), b_path, &b, &nb, err, sizeof err), OCLBLAS_SUCCESS);
    assert_int_equal(na, 1);
    assert_int_equal(nb, 1);
    assert_string_equal(a->name, b->name);
    assert_string_equal(a->vendor, b->vendor);
    assert_string_equal(a->type, b->type);
    assert_string_equal(a->arch, b->arch);
    assert_string_equal(a->tool, b->tool);
    assert_string_equal(a->driver, b->driver);
    assert_string_equal(a->sizes, b->sizes);
    assert_int_equal(a->has, b->has);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        if (a->has & (1u << k))
            assert_memory_equal(a->values[k], b->values[k], sizeof a->values[k]);
    free(a);
    free(b);
    free(a_text);
    free(b_text);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(log_path, sizeof log_path, "%s/log.txt", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

/* The command on small problems: gemm_direct's first candidate
 * alone takes longer than the whole budget. The kernels after it and the
 * routine values must not run without a budget; the run ends within the
 * total plus one candidate's time, then writes and checks the entry. */
static void test_time_budget_holds(void **state)
{
    (void)state;
    char out[320], journal[340];
    snprintf(out, sizeof out, "%s/budget.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    const double total = 2.0, t0 = tune_now();
    const int rc = tune("-k", "gemm_direct,gemv_t,routine", "-t", "2", "-J", "2", SMALL, "-o", out, NULL);
    const double wall = tune_now() - t0;
    const double longest = longest_record(journal), check = log_number("entry checked in ");
    print_message("-t %.0f: %.1f s in all, the longest candidate %.1f s, the check of the entry %.1f s\n", total, wall,
                  longest, check);
    if (rc != 0 || check < 0 || log_has("budget none"))
        show_log();
    assert_int_equal(rc, 0);
    assert_false(log_has("budget none"));
    assert_true(check >= 0);
    /* What starts a process, opens the device and writes the entry: well under a second here. */
    const double slack = 2.0;
    assert_true(wall <= total + longest + check + slack);
    /* Every value the budget did not reach keeps its value, and says why. */
    assert_true(log_has("kept: not measured: the time budget is spent"));
}

/* Ctrl-C, as a terminal sends it, while PoCL links a candidate: the run
 * stops after that candidate, writes the entry from what it has (the
 * journal rebuilds the same one) and exits with 130. */
static void test_interrupt_while_linking(void **state)
{
    (void)state;
    if (!links_in_processes()) {
        print_message("skipped: this device's implementation starts no linker process (interrupts during its "
                      "builds: test_interrupt_at_random, test_second_interrupt)\n");
        skip();
    }
    char out[320], journal[340], again[340];
    snprintf(out, sizeof out, "%s/link.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    snprintf(again, sizeof again, "%s/link-again.json", dir);
    int interrupted_while_linking = 0;
    for (int round = 0; round < 3; ++round) {
        /* The first candidates of each round come from the journal; what is new is built. */
        const pid_t pid = start_tune("-k", "gemv_n", "-n", "20", "-J", "2", SMALL, "-o", out, NULL);
        const int linking = wait_for_link(pid, 60);
        interrupted_while_linking += linking;
        kill(-pid, SIGINT);
        const int rc = finish(pid);
        if (rc != 130)
            show_log();
        assert_int_equal(rc, 130);
        assert_true(log_has("stopping after the candidate in flight"));
        assert_true(log_has("wrote ") || log_has("nothing to write"));
        if (log_has("wrote ")) {
            assert_int_equal(tune("-k", "gemv_n", "--from-journal", journal, SMALL, "-o", again, NULL), 0);
            assert_same_entry(out, again);
        }
    }
    assert_true(interrupted_while_linking >= 2);
}

/* Ctrl-C at moments drawn at random (printed, to repeat a failure), from
 * the start of the process (opening the device) to its builds and
 * measurements. */
static void test_interrupt_at_random(void **state)
{
    (void)state;
    char out[320];
    snprintf(out, sizeof out, "%s/random.json", dir);
    srand((unsigned)time(NULL));
    for (int round = 0; round < 4; ++round) {
        const double delay = 0.05 + 3.0 * rand() / (double)RAND_MAX;
        print_message("interrupt after %.2f s\n", delay);
        const pid_t pid = start_tune("-k", "gemv_n", "-n", "40", "-J", "2", "--fresh", SMALL, "-o", out, NULL);
        usleep((useconds_t)(delay * 1e6));
        kill(-pid, SIGINT);
        const int rc = finish(pid);
        if (rc != 130 && rc != 0)
            show_log();
        /* 0: it was done before the interrupt came. */
        assert_true(rc == 130 || rc == 0);
        assert_true(rc == 0 || log_has("wrote ") || log_has("nothing to write"));
    }
}

/* A second Ctrl-C stops at once, in the middle of the work in flight (on
 * PoCL a gemm_direct candidate is linked at its first launch, seconds of
 * work; elsewhere, right after a record, the next candidates' builds,
 * seconds too), and still writes the best configuration found so far: the
 * journal's best. */
static void test_second_interrupt(void **state)
{
    (void)state;
    char out[320], journal[340], again[340];
    snprintf(out, sizeof out, "%s/twice.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    snprintf(again, sizeof again, "%s/twice-again.json", dir);
    const pid_t pid = start_tune("-k", "gemm_direct", "-n", "20", "-J", "2", SMALL, "-o", out, NULL);
    /* Once one candidate is in the journal (after its two header lines), during the next link. */
    const double t0 = tune_now();
    while (count_lines(journal) < 3 && tune_now() - t0 < LIMIT)
        usleep(20000);
    if (links_in_processes())
        assert_true(wait_for_link(pid, 60));
    kill(-pid, SIGINT);
    usleep(100000);
    const double t1 = tune_now();
    kill(-pid, SIGINT);
    const int rc = finish(pid);
    const double after = tune_now() - t1;
    print_message("second interrupt: ended %.2f s later, %s\n", after,
                  log_has("the best so far") ? "the best so far written at once" : "the entry written before it");
    if (rc != 130)
        show_log();
    assert_int_equal(rc, 130);
    assert_true(log_has("stopping at once"));
    assert_true(log_has("wrote "));
    assert_true(after < 2.0);
    assert_int_equal(tune("-k", "gemm_direct", "--from-journal", journal, SMALL, "-o", again, NULL), 0);
    assert_same_entry(out, again);
}

/* A whole run, kernels and routine values (fewer candidates of the slow
 * ones): --from-journal writes the same entry again, measuring nothing
 * (the journal does not grow). */
static void test_entry_from_journal(void **state)
{
    (void)state;
    char out[320], journal[340], again[340];
    snprintf(out, sizeof out, "%s/whole.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    snprintf(again, sizeof again, "%s/whole-again.json", dir);
#define FEWER "--values", "routine:GEMM_SPLIT_K=0,4:GEMV_GROUPS_PER_CU=1,8"
    assert_int_equal(tune("-k", "gemv_n,gemv_t,routine", "-n", "3", SMALL, FEWER, "-o", out, NULL), 0);
    const int lines = count_lines(journal);
    assert_int_equal(tune("-k", "gemv_n,gemv_t,routine", "--from-journal", journal, SMALL, FEWER, "-o", again, NULL),
                     0);
    if (!log_has("from the journal: 3 records"))
        show_log();
    assert_true(log_has("gemv_t: from the journal: 3 records"));
    assert_false(log_has("kept: the journal lacks"));
    assert_true(log_has("entry checked"));
    assert_int_equal(count_lines(journal), lines);
    assert_same_entry(out, again);

    /* Other sizes than the run's: nothing of theirs is in the journal, and the message says what to give. */
    snprintf(again, sizeof again, "%s/whole-other.json", dir);
    assert_int_equal(tune("-k", "gemv_t", "--from-journal", journal, "--size", "gemv_t=300x300", "-o", again, NULL),
                     1);
    assert_true(log_has("give the run's --size"));
    assert_true(log_has("nothing to write"));
    /* No journal, or one that --fresh would start over. */
    assert_int_equal(tune("--from-journal", "/nonexistent/journal", NULL), 3);
    assert_true(log_has("cannot read the journal"));
    assert_int_equal(tune("--from-journal", journal, "--fresh", NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_budget_holds),
        cmocka_unit_test(test_interrupt_while_linking),
        cmocka_unit_test(test_interrupt_at_random),
        cmocka_unit_test(test_second_interrupt),
        cmocka_unit_test(test_entry_from_journal),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
