/*
 * The tuner's files (files.c, journal.c) against what a shared folder may
 * hold at their names: a link planted at the destination (to a file, or
 * dangling), a FIFO, a device, a folder. Nothing is written through a
 * link or to anything but a regular file, a refusal names the path and
 * what is there, and nothing waits: each case ends within a second. No
 * OpenCL here.
 */
#include "test_spawn.h"
#include "tune.h"

#include <fcntl.h>
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

static char dir[] = "/tmp/oclblas-tune-files-XXXXXX";
static char victim[300]; /* what a planted link points at: it must never change */
#define DEVICE "some device | 1.0 | platform"

static void in_dir(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

/* The folder holds n names (the victim, and the plant when it is in the
 * folder), and the victim as it was: nothing was written through a link,
 * and no temporary was left behind. */
static void assert_nothing_written(int n)
{
    spawn_victim_assert(victim);
    assert_int_equal(spawn_folder_count(dir), n);
}

static int setup(void **state)
{
    (void)state;
    if (spawn_folder_make(dir, 0) != 0)
        return -1;
    in_dir(victim, sizeof victim, "victim");
    /* A planted FIFO must be refused, never waited on: a hang ends the test here. */
    alarm(60);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return spawn_folder_remove(dir);
}

/* Before each test: the folder holds the victim alone. */
static int fresh_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "find %s -mindepth 1 -delete", dir);
    if (system(cmd) != 0)
        return -1;
    spawn_victim_write(victim);
    return 0;
}

/* What a shared folder may hold at a name: each kind the tests plant. */
typedef enum { LINK, DANGLING, FIFO, FOLDER, DEV_NULL, DEV_ZERO, DEV_FULL, NUM_PLANTS } plant;
static const char *const plant_words[NUM_PLANTS] = {"symbolic link", "symbolic link", "FIFO", "folder",
                                                    "character device", "character device", "character device"};

/* The path of a planted thing of that kind. A device is a node of the same
 * device in the folder where this process may make one (root), else the
 * system's own (real: always the system's, which is only ever opened).
 * Returns whether the plant is in the folder. */
static int plant_at(plant p, char *path, size_t len, int real)
{
    in_dir(path, len, "planted");
    const unsigned minor = p == DEV_NULL ? 3 : p == DEV_ZERO ? 5 : 7; /* of /dev/null, /dev/zero, /dev/full */
    if (p >= DEV_NULL && !real && mknod(path, S_IFCHR | 0666, makedev(1, minor)) == 0)
        return 1;
    switch (p) {
    case LINK: assert_int_equal(symlink(victim, path), 0); break;
    case DANGLING: {
        char target[320];
        in_dir(target, sizeof target, "created-through-the-link");
        assert_int_equal(symlink(target, path), 0);
        break;
    }
    case FIFO: assert_int_equal(mkfifo(path, 0600), 0); break;
    case FOLDER: assert_int_equal(mkdir(path, 0700), 0); break;
    case DEV_NULL: snprintf(path, len, "/dev/null"); break;
    case DEV_ZERO: snprintf(path, len, "/dev/zero"); break;
    case DEV_FULL: snprintf(path, len, "/dev/full"); break;
    default: fail();
    }
    return p < DEV_NULL;
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    while (f && (c = fgetc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

static void test_replaceable(void **state)
{
    (void)state;
    char path[320], err[512];
    in_dir(path, sizeof path, "absent.json");
    assert_true(tune_file_replaceable("entry", path, err, sizeof err));
    assert_true(tune_file_replaceable("entry", victim, err, sizeof err));
    for (plant p = 0; p < NUM_PLANTS; ++p) {
        fresh_dir(NULL);
        plant_at(p, path, sizeof path, 1);
        err[0] = '\0';
        assert_false(tune_file_replaceable("entry", path, err, sizeof err));
        if (!strstr(err, plant_words[p]) || !strstr(err, path) || !strstr(err, "entry"))
            fail_msg("%s: \"%s\"", plant_words[p], err);
    }
}

/* A temporary next to the destination, renamed over it: only over a regular file or nothing. */
static void test_temp_and_commit(void **state)
{
    (void)state;
    char path[320], tmp[400], tmp2[400], err[512];
    in_dir(path, sizeof path, "entry.json");
    FILE *f = tune_file_temp("entry", path, 0644, tmp, sizeof tmp, err, sizeof err);
    assert_non_null(f);
    FILE *g = tune_file_temp("entry", path, 0644, tmp2, sizeof tmp2, err, sizeof err);
    assert_non_null(g);
    fclose(g);
    unlink(tmp2);
    /* In the destination's folder, under a name no one could guess. */
    assert_memory_equal(tmp, path, strlen(dir) + 1);
    assert_string_not_equal(tmp, tmp2);
    struct stat sb;
    assert_int_equal(lstat(tmp, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    assert_int_equal(sb.st_mode & 0133, 0); /* 0644 at most */
    fputs("new\n", f);
    assert_int_equal(fclose(f), 0);
    assert_true(tune_file_commit("entry", tmp, path, err, sizeof err));
    char *text = NULL;
    size_t n;
    assert_int_equal(oclblas__read_file(AT_FDCWD, path, 0, 100, &text, &n, NULL, NULL, 0), 0);
    assert_string_equal(text, "new\n");
    free(text);
    assert_int_equal(spawn_folder_count(dir), 2);
    /* Whatever was planted at the destination meanwhile stays, and the temporary goes. */
    for (plant p = 0; p < NUM_PLANTS; ++p) {
        fresh_dir(NULL);
        if (!plant_at(p, path, sizeof path, 0)) {
            /* No temporary is made in the system's /dev: the writer refuses before it (test_replaceable). */
            print_message("(no %s node of our own: not root)\n", plant_words[p]);
            continue;
        }
        f = tune_file_temp("entry", path, 0644, tmp, sizeof tmp, err, sizeof err);
        assert_non_null(f);
        fputs("new\n", f);
        fclose(f);
        const double t0 = tune_now();
        assert_false(tune_file_commit("entry", tmp, path, err, sizeof err));
        assert_true(tune_now() - t0 < 1.0);
        if (!strstr(err, plant_words[p]))
            fail_msg("%s: \"%s\"", plant_words[p], err);
        assert_int_equal(lstat(tmp, &sb), -1);
        assert_nothing_written(2);
    }
}

/* The journal, opened in place (created, resumed or started over), never through a link or to a special file. */
static void test_journal_refuses(void **state)
{
    (void)state;
    for (plant p = 0; p < NUM_PLANTS; ++p)
        for (int fresh = 0; fresh < 2; ++fresh) {
            fresh_dir(NULL);
            char path[320], err[512] = "";
            const int in_folder = plant_at(p, path, sizeof path, 1);
            tune_journal *j = NULL;
            const double t0 = tune_now();
            assert_false(tune_journal_open(path, DEVICE, 1, fresh, &j, err, sizeof err));
            assert_true(tune_now() - t0 < 1.0);
            assert_null(j);
            if (!strstr(err, plant_words[p]) || !strstr(err, "journal"))
                fail_msg("%s%s: \"%s\"", plant_words[p], fresh ? " (--fresh)" : "", err);
            assert_nothing_written(in_folder ? 2 : 1);
        }
}

static void test_journal_regular(void **state)
{
    (void)state;
    char path[320], err[512];
    in_dir(path, sizeof path, "run.journal");
    tune_journal *j;
    /* Created, with its header; a record; resumed; refused for another device; started over. */
    assert_true(tune_journal_open(path, DEVICE, 1, 0, &j, err, sizeof err));
    tune_record r = {TUNE_OK, 0.5, 2.0, 0.25, "note"};
    assert_true(tune_journal_add(j, "gemv_n", "256x256 N", "WGS=64", &r));
    tune_journal_close(j);
    assert_true(tune_journal_open(path, DEVICE, 0, 0, &j, err, sizeof err));
    assert_int_equal(tune_journal_loaded(j), 1);
    tune_record got;
    assert_true(tune_journal_find(j, "gemv_n", "256x256 N", "WGS=64", &got));
    assert_true(tune_journal_add(j, "gemv_n", "256x256 N", "WGS=128", &r));
    tune_journal_close(j);
    assert_false(tune_journal_open(path, "another device", 0, 0, &j, err, sizeof err));
    assert_non_null(strstr(err, "another device"));
    assert_true(tune_journal_open(path, DEVICE, 0, 0, &j, err, sizeof err));
    assert_int_equal(tune_journal_loaded(j), 2);
    tune_journal_close(j);
    assert_true(tune_journal_open(path, DEVICE, 0, 1, &j, err, sizeof err));
    assert_int_equal(tune_journal_loaded(j), 0);
    tune_journal_close(j);
    assert_int_equal(count_lines(path), 2);
    /* Without create, a journal that is not there is not made. */
    in_dir(path, sizeof path, "absent.journal");
    assert_false(tune_journal_open(path, DEVICE, 0, 0, &j, err, sizeof err));
    assert_int_equal(spawn_folder_count(dir), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_replaceable, fresh_dir),
        cmocka_unit_test_setup(test_temp_and_commit, fresh_dir),
        cmocka_unit_test_setup(test_journal_refuses, fresh_dir),
        cmocka_unit_test_setup(test_journal_regular, fresh_dir),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
