/*
 * What the tests of the tuner's files and processes share (test_spawn.c):
 * a folder of the test's own; starting oclblas-tune in a process group of
 * its own, as a shell starts a job, with its stdout and stderr in a log
 * file; waiting for it with a limit; reading what it wrote; and a victim
 * file, what a planted link points at, which must never change; and the
 * check that the library, with the entry a run wrote, computes SGEMM right.
 */
#ifndef OCLBLAS_TUNE_TEST_SPAWN_H
#define OCLBLAS_TUNE_TEST_SPAWN_H

#include "oclblas.h"

#include <stdarg.h>
#include <sys/types.h>

#define SPAWN_LIMIT 900.0 /* seconds any run may take before the test gives up on it (a loaded machine) */

/* Where every run's output goes: log.txt in the test's folder. */
extern char spawn_log[512];

/* The test's folder: tmpl ("/tmp/NAME-XXXXXX") made, the log named in it.
 * pocl: PoCL's kernel cache on, in a folder inside it that this test
 * starts empty, for this process and the runs it starts: a first build
 * compiles and links as ever, and what a later run builds again (the
 * entry's check, --from-journal) is not compiled again. 0, or -1. */
int spawn_folder_make(char *tmpl, int pocl);
/* Removes the folder with all it holds. */
int spawn_folder_remove(const char *dir);
/* How many names the folder holds. */
int spawn_folder_count(const char *dir);

/* The victim: a file with known content, and the check that it is as written. */
void spawn_victim_write(const char *path);
void spawn_victim_assert(const char *path);

/* Starts oclblas-tune with the arguments (a NULL-terminated list). */
pid_t spawn_start(const char *arg, ...);
pid_t spawn_startv(const char *arg, va_list ap);
/* Waits for the run: its exit status, or 1000 + the signal that ended it;
 * fails the test (killing the run's group) after SPAWN_LIMIT seconds. */
int spawn_finish(pid_t pid);
/* Starts and waits. */
int spawn_tune(const char *arg, ...);

/* The whole file (NULL when it cannot be read); free it. */
char *spawn_slurp(const char *path);
/* Whether the log holds `what`. */
int spawn_log_has(const char *what);
int spawn_count_in_log(const char *what);
/* A number that follows `after` in the log; -1 when it is not there. */
double spawn_log_number(const char *after);
void spawn_show_log(void);
int spawn_count_lines(const char *path);

/* A process whose parent is pid (a build process, a linker), 0 when none runs now. */
pid_t spawn_child_of(pid_t pid);
/* Waits (up to `seconds`) until pid has a child; its pid, 0 when pid ended or none came. */
pid_t spawn_wait_for_child(pid_t pid, double seconds);
/* Whether building a program on the tuner's device starts a linker process (PoCL's CPU devices). */
int spawn_links_in_processes(void);

/* Fails the test, showing the log, when the log lacks `what` (cmocka is included first). */
#define assert_log(what)                                                                                             \
    do {                                                                                                             \
        if (!spawn_log_has(what)) {                                                                                  \
            spawn_show_log();                                                                                        \
            fail_msg("the log lacks \"%s\"", what);                                                                  \
        }                                                                                                            \
    } while (0)

/* C = 1.25 A op(B) - 0.5 C, column-major, through oclblas_sgemm_cl on q
 * against the tuner's own reference (seeded operands); fails the test with
 * the reference's note when a result is wrong. */
void spawn_check_gemm(cl_context ctx, cl_command_queue q, oclblas_transpose tb, size_t m, size_t n, size_t k);

#endif
