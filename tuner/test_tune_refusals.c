/*
 * oclblas-tune as a process, refusing what it must not do, each within a
 * second and with a message that names the cause: bad command lines (exit
 * status 2), an entry or a journal whose name holds a link (to a file, or
 * dangling), a FIFO, /dev/zero, /dev/full or a folder (exit status 3,
 * nothing written anywhere, the planted thing as it was), a journal of
 * another device (3); and SIGTERM while the run waits on its build
 * processes ends it at once with exit status 143 and a message saying so.
 */
#include "measure.h"
#include "test_spawn.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

static char dir[] = "/tmp/oclblas-tune-refusals-XXXXXX";
static char victim[300];

static void in_dir(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

static int setup(void **state)
{
    (void)state;
    if (spawn_folder_make(dir, 0) != 0)
        return -1;
    in_dir(victim, sizeof victim, "victim");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return spawn_folder_remove(dir);
}

/* A run that must be refused at once: its exit status. */
static int refused(double *seconds, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    const double t0 = tune_now();
    const pid_t pid = spawn_startv(arg, ap);
    va_end(ap);
    const int rc = spawn_finish(pid);
    *seconds = tune_now() - t0;
    return rc;
}

static void test_bad_command_lines(void **state)
{
    (void)state;
    char out[320];
    in_dir(out, sizeof out, "bad.json");
    assert_int_equal(spawn_tune("--values", "gemm_fast:NOPE=1", "-k", "gemm_fast", "-o", out, NULL), 2);
    assert_log("gemm_fast has no parameter NOPE");
    assert_int_equal(spawn_tune("--values", "gemm_fast:MWG=0", "-o", out, NULL), 2);
    assert_int_equal(spawn_tune("--strategy", "bogus", NULL), 2);
    assert_log("unknown strategy");
    assert_int_equal(spawn_tune("--size", "gemm_fast=12x12", NULL), 2);
    assert_int_equal(spawn_tune("--time-budget", "-5", NULL), 2);
    assert_int_equal(spawn_tune("--kernels", "gemm_slow", NULL), 2);
    assert_int_equal(spawn_tune("--build", "fork", NULL), 2);
    assert_int_equal(spawn_tune("--runs", NULL), 2);
    assert_int_equal(spawn_tune("--temperature", "0.1", NULL), 2);
    assert_int_equal(spawn_tune("--bogus", NULL), 2);
    assert_log("unknown option --bogus");
    assert_int_equal(spawn_tune("--rates", "sometimes", NULL), 2);
    assert_log("--rates needs auto, on or off");
    assert_int_equal(spawn_tune("--rate-size", "gemv_n=512x512x1", NULL), 2); /* a gemv's sets have no rate */
    assert_log("for a kernel whose sets have rates");
    assert_int_equal(spawn_tune("--rate-size", "gemm_fast=512x512", NULL), 2);
    assert_log("--rate-size takes one MxNxK");
    assert_int_equal(spawn_tune("extra", NULL), 2);
    /* Classes: a bad rule, a size outside the class, a name twice, a missing part. */
    assert_int_equal(spawn_tune("--class", "a:mn <= 4:8x8x8", NULL), 2);
    assert_log("unknown quantity");
    assert_int_equal(spawn_tune("--class", "a:n <= 4:8x8x8", NULL), 2);
    assert_log("does not meet the class's rule");
    assert_int_equal(spawn_tune("--class", "a:n <= 4:8x4x8", "--class", "a:m <= 4:4x8x8", NULL), 2);
    assert_log("named twice");
    assert_int_equal(spawn_tune("--class", "a:n <= 4", NULL), 2);
    assert_int_equal(spawn_tune("--class", "a:n <= 4:8x4x8", "--class", "b:n <= 2, k >= 2:8x2x8", NULL), 2);
    assert_log("class a before it takes all its shapes");
    assert_int_equal(spawn_tune("--class", "a:n <= 4:8x4x8", "--no-classes", NULL), 2);
    assert_int_equal(spawn_tune("--from-journal", out, "--fresh", NULL), 2);
    assert_int_equal(spawn_tune("--device", "no-such-device-anywhere", NULL), 3);
    assert_log("no OpenCL device matches");
    assert_int_equal(spawn_tune("--help", NULL), 0);
    assert_log("--time-budget");
    assert_int_equal(spawn_tune("--version", NULL), 0);
    assert_log("oclblas-tune ");
}

/* What a shared folder may hold at a name the tuner is given. */
typedef struct {
    const char *what; /* as the message names it */
    const char *path; /* a system path, or NULL: "planted" in the folder */
} plant;

static const plant plants[] = {
    {"a symbolic link", NULL},          {"a symbolic link", NULL},          {"a FIFO", NULL}, {"a folder", NULL},
    {"a character device", "/dev/zero"}, {"a character device", "/dev/full"},
};

/* Plants plants[i] as path; the number of names the folder then holds (the victim's included). */
static int plant_at(int i, char *path, size_t len)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "find %s -mindepth 1 ! -name log.txt -delete", dir);
    assert_int_equal(system(cmd), 0);
    spawn_victim_write(victim);
    if (plants[i].path) {
        snprintf(path, len, "%s", plants[i].path);
        return 2;
    }
    in_dir(path, len, "planted");
    char gone[320];
    in_dir(gone, sizeof gone, "created-through-the-link");
    switch (i) {
    case 0: assert_int_equal(symlink(victim, path), 0); break;
    case 1: assert_int_equal(symlink(gone, path), 0); break;
    case 2: assert_int_equal(mkfifo(path, 0600), 0); break;
    default: assert_int_equal(mkdir(path, 0700), 0); break;
    }
    return 3;
}

/* The folder holds n names (log, victim, plant), the victim as it was, and a device is still the device. */
static void assert_nothing_written(int n, const char *planted)
{
    spawn_victim_assert(victim);
    const int count = spawn_folder_count(dir);
    if (count != n) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "ls -la %s", dir);
        assert_int_equal(system(cmd), 0);
        fail_msg("%d names in the folder, not %d", count, n);
    }
    struct stat sb;
    if (strncmp(planted, "/dev/", 5) == 0) {
        assert_int_equal(lstat(planted, &sb), 0);
        assert_true(S_ISCHR(sb.st_mode));
    }
}

/* The entry (-o) and the journal (-j) at each planted thing: refused before anything runs. */
static void test_planted_files(void **state)
{
    (void)state;
    char path[340], other[320], cmd[400];
    in_dir(other, sizeof other, "other.json");
    for (int journal = 0; journal < 2; ++journal)
        for (size_t i = 0; i < sizeof plants / sizeof plants[0]; ++i) {
            const int names = plant_at((int)i, path, sizeof path);
            double seconds;
            const int rc = journal ? refused(&seconds, "-k", "gemv_n", "-n", "1", "-o", other, "-j", path, NULL)
                                   : refused(&seconds, "-k", "gemv_n", "-n", "1", "-o", path, NULL);
            snprintf(cmd, sizeof cmd, "refusing to write the %s %s: it is %s", journal ? "journal" : "entry", path,
                     plants[i].what);
            print_message("%s %s: exit %d in %.2f s\n", journal ? "journal" : "entry", path, rc, seconds);
            assert_int_equal(rc, 3);
            assert_log(cmd);
            assert_true(seconds < 1.0);
            assert_nothing_written(names, path);
        }
    /* --fresh on a planted journal, and the default journal name beside a planted entry name. */
    plant_at(0, path, sizeof path);
    double seconds;
    assert_int_equal(refused(&seconds, "-k", "gemv_n", "-o", other, "-j", path, "--fresh", NULL), 3);
    assert_nothing_written(3, path);
    snprintf(path, sizeof path, "%s.journal", other);
    assert_int_equal(symlink(victim, path), 0);
    assert_int_equal(refused(&seconds, "-k", "gemv_n", "-o", other, NULL), 3);
    assert_log("refusing to write the journal");
    assert_nothing_written(4, path);
    /* A journal of another device is refused, not mixed in. */
    in_dir(path, sizeof path, "other-device.journal");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# oclblas-tune journal 1\n# device\tsome other device | 1.0 | X\n", f);
    fclose(f);
    assert_int_equal(spawn_tune("-k", "gemv_n", "-j", path, "-o", other, NULL), 3);
    assert_log("another device");
}

/* SIGTERM while the run waits on a build process (PoCL compiling a
 * candidate there, its linker running): the wait ends at once, the run
 * writes what it has (nothing yet) and ends with 143. */
static void test_sigterm_while_waiting(void **state)
{
    (void)state;
    char out[320];
    in_dir(out, sizeof out, "term.json");
    const pid_t pid = spawn_start("-k", "gemm_direct", "-n", "4", "-J", "1", "--build", "processes", "--size",
                                  "gemm_direct=64x64x64", "--no-classes", "-o", out, NULL);
    /* The build process, then (PoCL) a short look for a linker under it: it
     * is building, and the run waits on it. An implementation that compiles
     * inside the build process (Intel's) starts no linker: the signal as
     * soon as the build process is there, while its first candidate is
     * being built (about a second each here, which a look for a linker that
     * never comes could outlast). */
    const pid_t worker = spawn_wait_for_child(pid, 300);
    assert_true(worker > 0);
    const int linking = spawn_links_in_processes() && spawn_wait_for_child(worker, 1.0) > 0;
    const double t0 = tune_now();
    kill(pid, SIGTERM);
    const int rc = spawn_finish(pid);
    const double after = tune_now() - t0;
    print_message("SIGTERM %s: ended %.2f s later with %d\n", linking ? "while linking" : "while building", after, rc);
    if (rc != 143)
        spawn_show_log();
    assert_int_equal(rc, 143);
    assert_log("terminated (SIGTERM): stopping after the candidate in flight");
    assert_log("oclblas-tune: terminated; run the same command again to resume");
    assert_true(after < 1.0);
    /* The candidate it waited on is not recorded: the journal holds its two header lines alone. */
    char journal[340];
    snprintf(journal, sizeof journal, "%s.journal", out);
    assert_int_equal(spawn_count_lines(journal), 2);
    assert_int_equal(kill(worker, 0), -1); /* no build process left behind */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_command_lines),
        cmocka_unit_test(test_planted_files),
        cmocka_unit_test(test_sigterm_while_waiting),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
