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
 * run wrote, without measuring anything. PoCL's kernel cache is on in a
 * folder of the test's own, so that what a later run builds again (the
 * entry's check after --from-journal) is not compiled again.
 */
#include "measure.h"
#include "test_spawn.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

static char dir[] = "/tmp/oclblas-tune-stops-XXXXXX";

/* Seconds to wait for a linker: a candidate's build takes seconds of CPU, minutes on a loaded machine. */
#define LINK_WAIT 300

/* Small problems, so that a candidate is measured in milliseconds and
 * built in a second or so (gemm_direct: several); each candidate and each
 * routine measurement timed once; two candidates for each routine value
 * that the tests do not look at. */
#define SMALL "--size", "gemm_direct=64x64x64", "--size", "gemv_n=256x256", "--size", "gemv_t=256x256", \
              "--size", "routine=4096x64x512", "--values", "routine:GEMM_MIN_INDIRECT=64,128:HOST_MAX=0,16,32", \
              "--values", "routine:GEMM_MAX_SLICE_K=0,512", "--runs", "1"

/* The longest a record of the journal cost: the time from the record
 * before (its batch's builds, its measurement, the tuner's own work). */
static double longest_record(const char *journal)
{
    char *text = spawn_slurp(journal);
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

/* Two entries are the same: device, tool, sizes, kernels and every value (the note and date aside). */
static void assert_same_entry(const char *a_path, const char *b_path)
{
    char *a_text = spawn_slurp(a_path), *b_text = spawn_slurp(b_path);
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
    /* The classes too, with their sets. */
    assert_int_equal(a->num_classes, b->num_classes);
    for (int c = 0; c < a->num_classes; ++c) {
        assert_string_equal(a->classes[c].cls.name, b->classes[c].cls.name);
        assert_int_equal(a->classes[c].has, b->classes[c].has);
        for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
            assert_int_equal(a->classes[c].given[k], b->classes[c].given[k]);
            for (int i = 0; i < OCLBLAS__MAX_PARAMS; ++i)
                if (a->classes[c].given[k] & (1u << i))
                    assert_int_equal(a->classes[c].values[k][i], b->classes[c].values[k][i]);
        }
    }
    free(a);
    free(b);
    free(a_text);
    free(b_text);
}

/* The files of a run named NAME: its output in the test's folder, its
 * journal, and the output of a second run (--from-journal). */
typedef struct {
    char out[320], journal[340], again[340];
} run_files;

static run_files files_of(const char *name)
{
    run_files f;
    snprintf(f.out, sizeof f.out, "%s/%s.json", dir, name);
    snprintf(f.journal, sizeof f.journal, "%s.journal", f.out);
    snprintf(f.again, sizeof f.again, "%s/%s-again.json", dir, name);
    return f;
}

static int setup(void **state)
{
    (void)state;
    return spawn_folder_make(dir, 1);
}

static int teardown(void **state)
{
    (void)state;
    return spawn_folder_remove(dir);
}

/* The command on small problems: gemm_direct's first candidate
 * alone takes longer than the whole budget. The kernels after it and the
 * routine values must not run without a budget; the run ends within the
 * total plus one candidate's time, then writes and checks the entry. */
static void test_time_budget_holds(void **state)
{
    (void)state;
    const run_files f = files_of("budget");
    const char *out = f.out, *journal = f.journal;
    const double total = 2.0, t0 = tune_now();
    const int rc = spawn_tune("-k", "gemm_direct,gemv_t,routine", "-t", "2", "-J", "2", SMALL, "-o", out, NULL);
    const double wall = tune_now() - t0;
    const double longest = longest_record(journal), check = spawn_log_number("entry checked in ");
    print_message("-t %.0f: %.1f s in all, the longest candidate %.1f s, the check of the entry %.1f s\n", total, wall,
                  longest, check);
    if (rc != 0 || check < 0 || spawn_log_has("budget none"))
        spawn_show_log();
    assert_int_equal(rc, 0);
    assert_false(spawn_log_has("budget none"));
    assert_true(check >= 0);
    /* What starts a process, opens the device and writes the entry: well under a second here. */
    const double slack = 2.0;
    assert_true(wall <= total + longest + check + slack);
    /* Every value the budget did not reach keeps its value, and says why; a class's (gemv-small's) too,
     * which is no failure of its candidates. */
    assert_true(spawn_log_has("kept: not measured: the time budget is spent"));
    assert_true(spawn_log_has("for class gemv-small kept as for every shape: not measured: the time budget is spent"));
    assert_false(spawn_log_has("every candidate failed"));
}

/* Ctrl-C, as a terminal sends it, while PoCL links a candidate: the run
 * stops after that candidate, writes the entry from what it has (the
 * journal rebuilds the same one) and exits with 130. */
static void test_interrupt_while_linking(void **state)
{
    (void)state;
    if (!spawn_links_in_processes()) {
        print_message("skipped: this device's implementation starts no linker process (interrupts during its "
                      "builds: test_interrupt_at_random, test_second_interrupt)\n");
        skip();
    }
    const run_files f = files_of("link");
    const char *out = f.out, *journal = f.journal, *again = f.again;
    int interrupted_while_linking = 0;
    for (int round = 0; round < 3; ++round) {
        /* The first candidates of each round come from the journal; what is new is built. */
        const pid_t pid = spawn_start("-k", "gemv_n", "-n", "20", "-J", "2", SMALL, "--no-classes", "-o", out, NULL);
        const int linking = spawn_wait_for_child(pid, LINK_WAIT) > 0;
        interrupted_while_linking += linking;
        kill(-pid, SIGINT);
        const int rc = spawn_finish(pid);
        if (rc != 130)
            spawn_show_log();
        assert_int_equal(rc, 130);
        assert_true(spawn_log_has("stopping after the candidate in flight"));
        assert_true(spawn_log_has("wrote ") || spawn_log_has("nothing to write"));
        if (spawn_log_has("wrote ")) {
            assert_int_equal(
                spawn_tune("-k", "gemv_n", "--from-journal", journal, SMALL, "--no-classes", "-o", again, NULL), 0);
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
    const run_files f = files_of("random");
    const char *out = f.out;
    srand((unsigned)time(NULL));
    for (int round = 0; round < 4; ++round) {
        const double delay = 0.05 + 3.0 * rand() / (double)RAND_MAX;
        print_message("interrupt after %.2f s\n", delay);
        const pid_t pid =
            spawn_start("-k", "gemv_n", "-n", "40", "-J", "2", "--fresh", SMALL, "--no-classes", "-o", out, NULL);
        usleep((useconds_t)(delay * 1e6));
        kill(-pid, SIGINT);
        const int rc = spawn_finish(pid);
        char *log = spawn_slurp(spawn_log);
        const int said = log && log[0];
        free(log);
        /* 0: it was done before the interrupt came. Killed by SIGINT itself: it came before main could
         * take it (exec and the loading of the libraries), which a shell reports as 130 too. */
        if (rc == 1000 + SIGINT && !said) {
            print_message("(the interrupt came before main: the process ended by it, saying nothing)\n");
            continue;
        }
        if (rc != 130 && rc != 0)
            spawn_show_log();
        assert_true(rc == 130 || rc == 0);
        assert_true(rc == 0 || spawn_log_has("wrote ") || spawn_log_has("nothing to write"));
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
    const run_files f = files_of("twice");
    const char *out = f.out, *journal = f.journal, *again = f.again;
    const pid_t pid = spawn_start("-k", "gemm_direct", "-n", "20", "-J", "2", SMALL, "--no-classes", "-o", out, NULL);
    /* Once one candidate is in the journal (after its two header lines), during the next link. */
    const double t0 = tune_now();
    while (spawn_count_lines(journal) < 3 && tune_now() - t0 < 120)
        usleep(20000);
    if (spawn_links_in_processes())
        assert_true(spawn_wait_for_child(pid, LINK_WAIT) > 0);
    kill(-pid, SIGINT);
    usleep(100000);
    const double t1 = tune_now();
    kill(-pid, SIGINT);
    const int rc = spawn_finish(pid);
    const double after = tune_now() - t1;
    print_message("second interrupt: ended %.2f s later, %s\n", after,
                  spawn_log_has("the best so far") ? "the best so far written at once" : "the entry written before it");
    if (rc != 130)
        spawn_show_log();
    assert_int_equal(rc, 130);
    assert_true(spawn_log_has("stopping at once"));
    assert_true(spawn_log_has("wrote "));
    assert_true(after < 2.0);
    assert_int_equal(
        spawn_tune("-k", "gemm_direct", "--from-journal", journal, SMALL, "--no-classes", "-o", again, NULL), 0);
    assert_same_entry(out, again);
}

/* A whole run, kernels and routine values (fewer candidates of the slow
 * ones), with a class of products and one of gemvs: --from-journal writes
 * the same entry again, the classes' sets included, measuring nothing
 * (the journal does not grow). */
static void test_entry_from_journal(void **state)
{
    (void)state;
    run_files f = files_of("whole");
    char *out = f.out, *journal = f.journal, *again = f.again;
#define FEWER "--values", "routine:GEMM_SPLIT_K=0,4:GEMV_GROUPS_PER_CU=1,8:GEMV_T_GROUPS_PER_CU=1,8", \
              "--class", "thin:n <= 64, k >= 2:160x32x128", "--class", "little:k <= 1, m*n <= 70000:256x256"
    assert_int_equal(spawn_tune("-k", "gemv_n,gemv_t,routine", "-n", "3", SMALL, FEWER, "-o", out, NULL), 0);
    const int lines = spawn_count_lines(journal);
    assert_int_equal(
        spawn_tune("-k", "gemv_n,gemv_t,routine", "--from-journal", journal, SMALL, FEWER, "-o", again, NULL), 0);
    if (!spawn_log_has("from the journal: 3 records"))
        spawn_show_log();
    assert_true(spawn_log_has("gemv_t: from the journal: 3 records"));
    assert_false(spawn_log_has("kept: the journal lacks"));
    assert_true(spawn_log_has("entry checked"));
    assert_int_equal(spawn_count_lines(journal), lines);
    assert_same_entry(out, again);

    /* Other sizes than the run's: nothing of theirs is in the journal, and the message says what to give. */
    snprintf(f.again, sizeof f.again, "%s/whole-other.json", dir);
    assert_int_equal(
        spawn_tune("-k", "gemv_t", "--from-journal", journal, "--size", "gemv_t=300x300", "-o", again, NULL), 1);
    assert_true(spawn_log_has("give the run's --size"));
    assert_true(spawn_log_has("nothing to write"));
    /* No journal, or one that --fresh would start over. */
    assert_int_equal(spawn_tune("--from-journal", "/nonexistent/journal", NULL), 3);
    assert_true(spawn_log_has("cannot read the journal"));
    assert_int_equal(spawn_tune("--from-journal", journal, "--fresh", NULL), 2);
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
