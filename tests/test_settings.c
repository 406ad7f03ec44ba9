/*
 * Every setting the library reads from the environment (src/util/settings.c),
 * as a table: a variable, a value, the value in force afterwards and
 * whether the library refused it (oclblas_settings_error names the
 * variable and the value). Each row reads the environment afresh through
 * the settings' re-read hook. Run with an argument, the program checks
 * the first reading in a fresh process instead, as ctest starts it with
 * bad values: "quiet" (OCLBLAS_VERBOSE refused, so nothing on stderr,
 * every refusal still kept), "logged" (OCLBLAS_VERBOSE=1: each refusal
 * on stderr) and "free-form" (an OCLBLAS_DEVICE that names no device and an
 * OCLBLAS_DATABASE that cannot be loaded, reported once the library reads
 * them). White-box and pure: no OpenCL platform.
 */
#include "util/settings.h"
#include "util/util.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

typedef enum { VERBOSE, MATH_MODE, HOST_CALLS, DATABASE_HIDE, ZERO_COPY, PINNED, THREADS, DEVICE_MEMORY, INDEX_LIMIT, FAULT0, FAULT1 } field;

static long long in_force(field f)
{
    const oclblas__settings *s = oclblas__settings_get();
    switch (f) {
    case VERBOSE: return s->verbose;
    case MATH_MODE: return s->math_mode;
    case HOST_CALLS: return s->host_calls;
    case DATABASE_HIDE: return s->database_hide;
    case ZERO_COPY: return s->host_zero_copy;
    case PINNED: return s->host_pinned;
    case THREADS: return s->host_threads;
    case DEVICE_MEMORY: return (long long)s->device_memory;
    case INDEX_LIMIT: return (long long)s->index_limit;
    case FAULT0: return s->fault_at[0];
    case FAULT1: return s->fault_at[1];
    }
    return -2;
}

static const char *const variables[] = {"OCLBLAS_VERBOSE",        "OCLBLAS_MATH_MODE",     "OCLBLAS_HOST_CALLS",
                                        "OCLBLAS_DATABASE_HIDE",  "OCLBLAS_HOST_ZERO_COPY", "OCLBLAS_HOST_PINNED",
                                        "OCLBLAS_HOST_THREADS",   "OCLBLAS_DEVICE_MEMORY", "OCLBLAS_INDEX_LIMIT",
                                        "OCLBLAS_FAULT"};

static void clear_environment(void)
{
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; ++i)
        unsetenv(variables[i]);
}

#define AUTO OCLBLAS__CALLS_AUTO
#define DEVICE OCLBLAS__CALLS_DEVICE
#define HOST OCLBLAS__CALLS_HOST
#define MiB (1LL << 20)
#define GiB (1LL << 30)
#define NO_LIMIT ((long long)INT_MAX)

static const struct {
    const char *variable, *value;
    field f;
    long long want;
    int refused;
} rows[] = {
    /* Switches: 0 or 1, nothing else. */
    {"OCLBLAS_VERBOSE", "1", VERBOSE, 1, 0},
    {"OCLBLAS_VERBOSE", "0", VERBOSE, 0, 0},
    {"OCLBLAS_VERBOSE", "", VERBOSE, 0, 0},
    {"OCLBLAS_VERBOSE", "abc", VERBOSE, 0, 1},
    {"OCLBLAS_VERBOSE", "-0", VERBOSE, 0, 1},
    {"OCLBLAS_VERBOSE", "2", VERBOSE, 0, 1},
    {"OCLBLAS_VERBOSE", " 1", VERBOSE, 0, 1},
    {"OCLBLAS_VERBOSE", "1 ", VERBOSE, 0, 1},
    {"OCLBLAS_VERBOSE", "01", VERBOSE, 0, 1},
    {"OCLBLAS_VERBOSE", "true", VERBOSE, 0, 1},
    {"OCLBLAS_HOST_ZERO_COPY", "0", ZERO_COPY, 0, 0},
    {"OCLBLAS_HOST_ZERO_COPY", "1", ZERO_COPY, 1, 0},
    {"OCLBLAS_HOST_ZERO_COPY", "no", ZERO_COPY, 1, 1},
    {"OCLBLAS_HOST_ZERO_COPY", "00", ZERO_COPY, 1, 1},
    {"OCLBLAS_HOST_PINNED", "0", PINNED, 0, 0},
    {"OCLBLAS_HOST_PINNED", "off", PINNED, 1, 1},
    {"OCLBLAS_HOST_PINNED", "-1", PINNED, 1, 1},
    /* Choices: the whole name, in any case. */
    {"OCLBLAS_HOST_CALLS", "auto", HOST_CALLS, AUTO, 0},
    {"OCLBLAS_HOST_CALLS", "device", HOST_CALLS, DEVICE, 0},
    {"OCLBLAS_HOST_CALLS", "HOST", HOST_CALLS, HOST, 0},
    {"OCLBLAS_HOST_CALLS", "sometimes", HOST_CALLS, AUTO, 1},
    {"OCLBLAS_DATABASE_HIDE", "device", DATABASE_HIDE, 1, 0},
    {"OCLBLAS_DATABASE_HIDE", "Vendor", DATABASE_HIDE, 2, 0},
    {"OCLBLAS_DATABASE_HIDE", "all", DATABASE_HIDE, 0, 1},
    {"OCLBLAS_HOST_CALLS", "dev", HOST_CALLS, AUTO, 1},
    {"OCLBLAS_HOST_CALLS", "device ", HOST_CALLS, AUTO, 1},
    {"OCLBLAS_HOST_CALLS", "hosts", HOST_CALLS, AUTO, 1},
    {"OCLBLAS_MATH_MODE", "tf32", MATH_MODE, OCLBLAS_MATH_TF32, 0},
    {"OCLBLAS_MATH_MODE", "Strict", MATH_MODE, OCLBLAS_MATH_STRICT, 0},
    {"OCLBLAS_MATH_MODE", "ACCURATE", MATH_MODE, OCLBLAS_MATH_ACCURATE, 0},
    {"OCLBLAS_MATH_MODE", "fast", MATH_MODE, 0, 1},
    {"OCLBLAS_MATH_MODE", "tf3", MATH_MODE, 0, 1},
    /* Counts: decimal digits only, within the range. */
    {"OCLBLAS_HOST_THREADS", "4", THREADS, 4, 0},
    {"OCLBLAS_HOST_THREADS", "1", THREADS, 1, 0},
    {"OCLBLAS_HOST_THREADS", "64", THREADS, 64, 0},
    {"OCLBLAS_HOST_THREADS", "0", THREADS, 0, 1},
    {"OCLBLAS_HOST_THREADS", "65", THREADS, 0, 1},
    {"OCLBLAS_HOST_THREADS", "-1", THREADS, 0, 1},
    {"OCLBLAS_HOST_THREADS", "+4", THREADS, 0, 1},
    {"OCLBLAS_HOST_THREADS", "4x", THREADS, 0, 1},
    {"OCLBLAS_HOST_THREADS", "99999999999999999999999", THREADS, 0, 1},
    {"OCLBLAS_INDEX_LIMIT", "65536", INDEX_LIMIT, 65536, 0},
    {"OCLBLAS_INDEX_LIMIT", "256", INDEX_LIMIT, 256, 0},
    {"OCLBLAS_INDEX_LIMIT", "2147483647", INDEX_LIMIT, NO_LIMIT, 0},
    {"OCLBLAS_INDEX_LIMIT", "", INDEX_LIMIT, NO_LIMIT, 0},
    {"OCLBLAS_INDEX_LIMIT", "abc", INDEX_LIMIT, NO_LIMIT, 1},
    {"OCLBLAS_INDEX_LIMIT", "-1", INDEX_LIMIT, NO_LIMIT, 1},
    {"OCLBLAS_INDEX_LIMIT", "255", INDEX_LIMIT, NO_LIMIT, 1},
    {"OCLBLAS_INDEX_LIMIT", "2147483648", INDEX_LIMIT, NO_LIMIT, 1},
    {"OCLBLAS_INDEX_LIMIT", "0x10000", INDEX_LIMIT, NO_LIMIT, 1},
    {"OCLBLAS_INDEX_LIMIT", "65536 ", INDEX_LIMIT, NO_LIMIT, 1},
    /* Sizes: digits with an optional unit of powers of 1024. */
    {"OCLBLAS_DEVICE_MEMORY", "512M", DEVICE_MEMORY, 512 * MiB, 0},
    {"OCLBLAS_DEVICE_MEMORY", "4G", DEVICE_MEMORY, 4 * GiB, 0},
    {"OCLBLAS_DEVICE_MEMORY", "4GiB", DEVICE_MEMORY, 4 * GiB, 0},
    {"OCLBLAS_DEVICE_MEMORY", "4gb", DEVICE_MEMORY, 4 * GiB, 0},
    {"OCLBLAS_DEVICE_MEMORY", "4GiBs", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "4B", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "4GB", DEVICE_MEMORY, 4 * GiB, 0},
    {"OCLBLAS_DEVICE_MEMORY", "64k", DEVICE_MEMORY, 64 * 1024, 0},
    {"OCLBLAS_DEVICE_MEMORY", "1T", DEVICE_MEMORY, 1024 * GiB, 0},
    {"OCLBLAS_DEVICE_MEMORY", "1048576", DEVICE_MEMORY, MiB, 0},
    {"OCLBLAS_DEVICE_MEMORY", "abc", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "-1", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "0", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "0M", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "1.5G", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "4 G", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "G", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "4P", DEVICE_MEMORY, 0, 1},
    {"OCLBLAS_DEVICE_MEMORY", "16777216T", DEVICE_MEMORY, 0, 1}, /* 2^64 bytes */
    {"OCLBLAS_DEVICE_MEMORY", "99999999999999999999", DEVICE_MEMORY, 0, 1},
    /* Faults: DEVICE:TILES, comma-separated, devices of the set. */
    {"OCLBLAS_FAULT", "0:0", FAULT0, 0, 0},
    {"OCLBLAS_FAULT", "1:3", FAULT1, 3, 0},
    {"OCLBLAS_FAULT", "1:3", FAULT0, -1, 0},
    {"OCLBLAS_FAULT", "0:2,1:1", FAULT0, 2, 0},
    {"OCLBLAS_FAULT", "0:2,1:1", FAULT1, 1, 0},
    {"OCLBLAS_FAULT", "0", FAULT0, -1, 1},
    {"OCLBLAS_FAULT", "0:", FAULT0, -1, 1},
    {"OCLBLAS_FAULT", ":1", FAULT0, -1, 1},
    {"OCLBLAS_FAULT", "0:-1", FAULT0, -1, 1},
    {"OCLBLAS_FAULT", "0:1,", FAULT0, -1, 1},
    {"OCLBLAS_FAULT", "0:1,1", FAULT0, -1, 1},
    {"OCLBLAS_FAULT", "16:1", FAULT0, -1, 1},
    {"OCLBLAS_FAULT", "a:b", FAULT0, -1, 1},
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        clear_environment();
        setenv(rows[i].variable, rows[i].value, 1);
        oclblas__settings_reread();
        const long long got = in_force(rows[i].f);
        const char *err = oclblas_settings_error();
        if (got != rows[i].want)
            fail_msg("%s=\"%s\": %lld in force, want %lld", rows[i].variable, rows[i].value, got, rows[i].want);
        if (!rows[i].refused && err)
            fail_msg("%s=\"%s\" was refused: %s", rows[i].variable, rows[i].value, err);
        if (rows[i].refused) {
            char named[128];
            snprintf(named, sizeof named, "%s=%s ", rows[i].variable, rows[i].value);
            if (!err || !strstr(err, named))
                fail_msg("%s=\"%s\": no refusal that names it (%s)", rows[i].variable, rows[i].value,
                         err ? err : "none");
        }
    }
    /* Every variable unset: every default, nothing refused. */
    clear_environment();
    oclblas__settings_reread();
    const field all[] = {VERBOSE, MATH_MODE, HOST_CALLS, ZERO_COPY, PINNED, THREADS, DEVICE_MEMORY, INDEX_LIMIT, FAULT0};
    const long long defaults[] = {0, 0, AUTO, 1, 1, 0, 0, NO_LIMIT, -1};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        assert_int_equal(in_force(all[i]), defaults[i]);
    assert_null(oclblas_settings_error());
}

/* Several refusals at once are all kept; the accepted values around them hold. */
static void test_several(void **state)
{
    (void)state;
    clear_environment();
    setenv("OCLBLAS_HOST_THREADS", "0", 1);
    setenv("OCLBLAS_INDEX_LIMIT", "65536", 1);
    setenv("OCLBLAS_HOST_CALLS", "sometimes", 1);
    oclblas__settings_reread();
    const char *err = oclblas_settings_error();
    assert_non_null(err);
    assert_non_null(strstr(err, "OCLBLAS_HOST_THREADS=0 "));
    assert_non_null(strstr(err, "OCLBLAS_HOST_CALLS=sometimes "));
    assert_null(strstr(err, "OCLBLAS_INDEX_LIMIT"));
    assert_int_equal(in_force(INDEX_LIMIT), 65536);
    clear_environment();
    oclblas__settings_reread();
}

/* ---- the first reading, in a fresh process ------------------------------- */

/* stderr into a file until read_captured, which gives it back. */
static int saved_stderr = -1;

static FILE *capture_stderr(void)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    assert_true(saved_stderr >= 0 && dup2(fileno(f), STDERR_FILENO) >= 0);
    return f;
}

static void read_captured(FILE *f, char *buf, size_t len)
{
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    rewind(f);
    const size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* OCLBLAS_VERBOSE=-0 OCLBLAS_HOST_CALLS=sometimes OCLBLAS_DEVICE_MEMORY=abc
 * OCLBLAS_INDEX_LIMIT=-1: every one refused and kept, the defaults in
 * force, and not a word on stderr (the log is off). */
static void test_first_reading_quiet(void **state)
{
    (void)state;
    FILE *f = capture_stderr();
    const char *err = oclblas_settings_error();
    char out[4096];
    read_captured(f, out, sizeof out);
    assert_string_equal(out, "");
    assert_non_null(err);
    const char *named[] = {"OCLBLAS_VERBOSE=-0 ", "OCLBLAS_HOST_CALLS=sometimes ", "OCLBLAS_DEVICE_MEMORY=abc ",
                           "OCLBLAS_INDEX_LIMIT=-1 "};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; ++i)
        if (!strstr(err, named[i]))
            fail_msg("no refusal of %s in \"%s\"", named[i], err);
    assert_int_equal(oclblas__verbose(), 0);
    assert_int_equal(in_force(HOST_CALLS), AUTO);
    assert_int_equal(in_force(DEVICE_MEMORY), 0);
    assert_int_equal((long long)oclblas__index_limit(), NO_LIMIT);
}

/* OCLBLAS_VERBOSE=1 OCLBLAS_HOST_THREADS=0: the log says so, once. */
static void test_first_reading_logged(void **state)
{
    (void)state;
    FILE *f = capture_stderr();
    const char *err = oclblas_settings_error();
    char out[4096];
    read_captured(f, out, sizeof out);
    assert_non_null(err);
    const char *line = strstr(out, "oclblas: OCLBLAS_HOST_THREADS=0 is not a count");
    if (!line)
        fail_msg("the log does not say that OCLBLAS_HOST_THREADS=0 was refused: \"%s\"", out);
    assert_null(strstr(line + strlen("oclblas: OCLBLAS_HOST_THREADS"), "OCLBLAS_HOST_THREADS=0"));
    assert_int_equal(oclblas__verbose(), 1);
    assert_int_equal(in_force(THREADS), 0);
}

/* OCLBLAS_DEVICE=no-such-device OCLBLAS_DATABASE=/nonexistent/entry.json:
 * nothing to refuse before the library reads them; then each named, and
 * the calls that read them give their own status. */
static void test_free_form(void **state)
{
    (void)state;
    assert_null(oclblas_settings_error());
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    assert_int_not_equal(oclblas_default_device(&device, &context, &queue), OCLBLAS_SUCCESS);
    const char *err = oclblas_settings_error();
    if (!err || !strstr(err, "OCLBLAS_DEVICE=no-such-device names no device"))
        fail_msg("no refusal of OCLBLAS_DEVICE: %s", err ? err : "none");
    assert_int_not_equal(oclblas_database_load("/nonexistent/other.json"), OCLBLAS_SUCCESS);
    err = oclblas_settings_error();
    if (!err || !strstr(err, "OCLBLAS_DATABASE=/nonexistent/entry.json cannot be loaded"))
        fail_msg("no refusal of OCLBLAS_DATABASE: %s", err ? err : "none");
    /* The path given to the call is the call's status, not a setting. */
    assert_null(strstr(err, "other.json"));
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "quiet") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_first_reading_quiet)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    if (argc > 1 && strcmp(argv[1], "logged") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_first_reading_logged)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    if (argc > 1 && strcmp(argv[1], "free-form") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_free_form)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_table), cmocka_unit_test(test_several)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
