/*
 * Database files as untrusted input, white-box (linked to the library's
 * internal objects, so that it can count the entries held and call the
 * parser directly): a FIFO given as a database or named *.json in a folder
 * is refused at once; /dev/zero and files over the size cap are refused
 * without being read to the end; a folder with links to itself or several
 * links to one folder loads each file once and returns quickly; loading the
 * same file again replaces its entries (by path, or by another path to the
 * same file); and the parser refuses a NUL followed by garbage, invalid
 * UTF-8, a member name given twice and \u0000, each with a message that
 * names the cause and the line. An alarm turns a hang into a failure.
 */
#include "db/db.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static char dir[] = "/tmp/oclblas-test-dbload-XXXXXX";

/* A complete entry for gemv_n on devices of type CPU, with a note. */
static const char *entry(int wgs, const char *note)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "{\n  \"format\": \"oclblas-database-1\",\n  \"device\": {\"type\": \"CPU\"},\n"
             "  \"tuned\": {\"tool\": \"test\", \"note\": \"%s\"},\n"
             "  \"parameters\": {\"gemv_n\": {\"WGS\": %d, \"WPT\": 1, \"VW\": 1, \"UNR\": 1, \"STRM\": 0}}\n}\n",
             note, wgs);
    return text;
}

static const char *path_of(const char *name)
{
    static char p[4][512];
    static int next;
    char *out = p[next++ % 4];
    snprintf(out, 512, "%s/%s", dir, name);
    return out;
}

static void write_bytes(const char *name, const char *data, size_t len)
{
    const char *p = path_of(name);
    char parent[512];
    snprintf(parent, sizeof parent, "%s", p);
    for (char *s = parent + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; ++s) {
        *s = '\0';
        mkdir(parent, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void write_text(const char *name, const char *text) { write_bytes(name, text, strlen(text)); }

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- special files ----------------------------------------------------- */

static void test_fifo_refused(void **state)
{
    (void)state;
    const size_t before = oclblas__db_runtime_count();
    assert_int_equal(mkfifo(path_of("pipe.json"), 0600), 0);
    double t0 = seconds();
    assert_int_equal(oclblas_database_load(path_of("pipe.json")), OCLBLAS_DATABASE_FILE_ERROR);
    /* In a folder, next to a good file: the load is refused as a whole. */
    write_text("withpipe/good.json", entry(32, "good"));
    assert_int_equal(mkfifo(path_of("withpipe/pipe.json"), 0600), 0);
    assert_int_equal(oclblas_database_load(path_of("withpipe")), OCLBLAS_DATABASE_FILE_ERROR);
    assert_true(seconds() - t0 < 2.0);
    assert_int_equal(oclblas__db_runtime_count(), before);
    /* A FIFO not named *.json is no part of the database: not opened, not an error. */
    write_text("otherpipe/good.json", entry(32, "good"));
    assert_int_equal(mkfifo(path_of("otherpipe/fifo"), 0600), 0);
    assert_int_equal(oclblas_database_load(path_of("otherpipe")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__db_runtime_count(), before + 1);
}

static void test_size_cap(void **state)
{
    (void)state;
    const size_t before = oclblas__db_runtime_count();
    double t0 = seconds();
    assert_int_equal(oclblas_database_load("/dev/zero"), OCLBLAS_DATABASE_FILE_ERROR);
    assert_true(seconds() - t0 < 1.0);
    /* A valid entry padded with spaces to exactly the cap loads; one byte more does not. */
    const char *e = entry(64, "padded");
    char *big = malloc(OCLBLAS__DB_MAX_FILE + 1);
    memset(big, ' ', OCLBLAS__DB_MAX_FILE + 1);
    memcpy(big, e, strlen(e));
    write_bytes("cap/at.json", big, OCLBLAS__DB_MAX_FILE);
    write_bytes("over.json", big, OCLBLAS__DB_MAX_FILE + 1);
    free(big);
    assert_int_equal(oclblas_database_load(path_of("cap/at.json")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas_database_load(path_of("over.json")), OCLBLAS_DATABASE_FILE_ERROR);
    /* The same reader refuses what is not a regular file and says why. */
    char *data;
    size_t len;
    char why[160];
    assert_int_equal(oclblas__read_file(AT_FDCWD, "/dev/zero", 0, 100, &data, &len, NULL, why, sizeof why), EINVAL);
    assert_non_null(strstr(why, "character device"));
    assert_int_equal(oclblas__read_file(AT_FDCWD, path_of("over.json"), 0, OCLBLAS__DB_MAX_FILE, &data, &len, NULL,
                                        why, sizeof why),
                     EFBIG);
    assert_int_equal(oclblas__db_runtime_count(), before + 1);
}

/* 8 links to the folder itself fanned out to 8^8 paths before. */
static void test_folder_loops(void **state)
{
    (void)state;
    const size_t before = oclblas__db_runtime_count();
    write_text("loop/a.json", entry(32, "loop"));
    for (int i = 0; i < 8; ++i) {
        char name[64];
        snprintf(name, sizeof name, "loop/self%d", i);
        assert_int_equal(symlink(".", path_of(name)), 0);
    }
    /* And a link from a subfolder back to an ancestor. */
    write_text("loop/sub/c.json", entry(48, "sub"));
    assert_int_equal(symlink("..", path_of("loop/sub/up")), 0);
    const double t0 = seconds();
    assert_int_equal(oclblas_database_load(path_of("loop")), OCLBLAS_SUCCESS);
    assert_true(seconds() - t0 < 1.0);
    const size_t after_loop = oclblas__db_runtime_count();
    assert_int_equal(after_loop, before + 2);
    /* A folder reached through several links is read once: sub's file counts once. */
    write_text("diamond/sub/b.json", entry(16, "diamond"));
    assert_int_equal(symlink("sub", path_of("diamond/x")), 0);
    assert_int_equal(symlink("sub", path_of("diamond/y")), 0);
    assert_int_equal(symlink("sub/b.json", path_of("diamond/z.json")), 0);
    assert_int_equal(oclblas_database_load(path_of("diamond")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__db_runtime_count(), after_loop + 1);
    /* And the loop folder alone, loaded again, replaces and adds nothing. */
    assert_int_equal(oclblas_database_load(path_of("loop")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__db_runtime_count(), after_loop + 1);
}

/* ---- loading again ----------------------------------------------------- */

static void test_reload_replaces(void **state)
{
    (void)state;
    const size_t before = oclblas__db_runtime_count();
    char two[2048];
    snprintf(two, sizeof two, "[%s,", entry(32, "first"));
    snprintf(two + strlen(two), sizeof two - strlen(two), "%s]", entry(64, "second"));
    write_text("reload/two.json", two);
    for (int i = 0; i < 1000; ++i)
        assert_int_equal(oclblas_database_load(path_of("reload/two.json")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__db_runtime_count(), before + 2);
    /* Another path to the same file (a link), and the folder holding it. */
    assert_int_equal(symlink("reload/two.json", path_of("link.json")), 0);
    assert_int_equal(oclblas_database_load(path_of("link.json")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas_database_load(path_of("reload")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__db_runtime_count(), before + 2);
    /* The file replaced by a new one at the same path (as the tuner writes it): one entry now. */
    write_text("reload/new.json", entry(16, "rewritten"));
    assert_int_equal(rename(path_of("reload/new.json"), path_of("reload/two.json")), 0);
    assert_int_equal(oclblas_database_load(path_of("reload/two.json")), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__db_runtime_count(), before + 1);
    /* A reload that fails changes nothing. */
    write_text("reload/two.json", "{\"format\": ");
    assert_int_equal(oclblas_database_load(path_of("reload/two.json")), OCLBLAS_DATABASE_PARSE_ERROR);
    assert_int_equal(oclblas__db_runtime_count(), before + 1);
}

/* ---- the parser -------------------------------------------------------- */

/* Parses len bytes (followed by a NUL, as the reader leaves them); returns
 * the status and leaves the message in err. */
static oclblas_status parse(const char *text, size_t len, char *err, size_t err_len)
{
    char *copy = malloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    oclblas__db_entry *es = NULL;
    size_t n = 0;
    err[0] = '\0';
    const oclblas_status st = oclblas__db_parse(copy, len, "t.json", &es, &n, err, err_len);
    free(es);
    free(copy);
    return st;
}

/* len SIZE_MAX: the text's length. */
static void refused(const char *text, size_t len, const char *cause, int line)
{
    if (len == SIZE_MAX)
        len = strlen(text);
    char err[512], want_line[32];
    const oclblas_status st = parse(text, len, err, sizeof err);
    snprintf(want_line, sizeof want_line, "line %d:", line);
    if (st != OCLBLAS_DATABASE_PARSE_ERROR || !strstr(err, cause) || !strstr(err, want_line))
        fail_msg("got %d \"%s\", wanted a parse error at %s naming \"%s\"", st, err, want_line, cause);
}

static void accepted(const char *text)
{
    char err[512];
    const oclblas_status st = parse(text, strlen(text), err, sizeof err);
    if (st != OCLBLAS_SUCCESS)
        fail_msg("refused: %s", err);
}

static void test_nul_and_garbage(void **state)
{
    (void)state;
    char buf[2048];
    const char *e = entry(32, "x");
    const size_t n = strlen(e);
    memcpy(buf, e, n);
    memcpy(buf + n, "\0garbage", 8);
    refused(buf, n + 8, "NUL byte after the document", 7);
    refused(buf, n + 1, "NUL byte after the document", 7);
    /* Inside the document too. */
    memcpy(buf, "{\"format\": \"oclblas\0-database-1\"}", 33);
    refused(buf, 33, "NUL byte in a string", 1);
    memcpy(buf, "[\n\0]", 4);
    refused(buf, 4, "NUL byte", 2);
    /* The file reader hands the parser the whole length. */
    memcpy(buf, e, n);
    memcpy(buf + n, "\0garbage", 8);
    write_bytes("nul.json", buf, n + 8);
    assert_int_equal(oclblas_database_load(path_of("nul.json")), OCLBLAS_DATABASE_PARSE_ERROR);
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "\x80",             /* a continuation byte alone */
        "\xC0\xAF",         /* overlong '/' */
        "\xC1\xBF",         /* overlong */
        "\xE0\x80\xAF",     /* overlong, 3 bytes */
        "\xF0\x80\x80\xAF", /* overlong, 4 bytes */
        "\xED\xA0\x80",     /* a surrogate, U+D800 */
        "\xED\xBF\xBF",     /* a surrogate, U+DFFF */
        "\xF4\x90\x80\x80", /* above U+10FFFF */
        "\xF5\x80\x80\x80", /* lead byte above F4 */
        "\xFF",
        "\xE2\x82",         /* truncated */
        "\xF0\x9F\x98",     /* truncated */
        "\xC3(",            /* lead byte, then not a continuation */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char note[32];
        snprintf(note, sizeof note, "a%sb", bad[i]);
        const char *e = entry(32, note);
        refused(e, strlen(e), "invalid UTF-8", 4);
    }
    /* Valid: two-, three- and four-byte forms, raw and escaped. */
    accepted(entry(32, "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xEF\xBF\xBF \xF4\x8F\xBF\xBF"));
    accepted(entry(32, "caf\\u00e9 \\u20ac \\ud83d\\ude00"));
}

static void test_duplicate_members(void **state)
{
    (void)state;
    refused("{\"format\": \"oclblas-database-1\",\n \"format\": \"oclblas-database-1\", \"device\": {}, "
            "\"parameters\": {}}",
            SIZE_MAX, "member \"format\" given twice", 2);
    refused("{\"format\": \"oclblas-database-1\", \"device\": {\"type\": \"CPU\",\n\n \"type\": \"GPU\"}, "
            "\"parameters\": {}}",
            SIZE_MAX, "member \"type\" given twice", 3);
    /* Many members, the duplicate last: still found (and fast). */
    char *big = malloc(1 << 20);
    size_t n = (size_t)sprintf(big, "{");
    for (int i = 0; i < 20000; ++i)
        n += (size_t)sprintf(big + n, "\"k%d\": %d,\n", i, i);
    n += (size_t)sprintf(big + n, "\"k7\": 0}");
    refused(big, n, "member \"k7\" given twice", 20001);
    free(big);
    /* The same name in different objects is fine. */
    accepted("{\"format\": \"oclblas-database-1\", \"device\": {\"name\": \"x\"}, \"tuned\": {\"name\": \"x\"}, "
             "\"parameters\": {}}");
}

static void test_escapes(void **state)
{
    (void)state;
    const char *e = entry(32, "abc\\u0000def");
    refused(e, strlen(e), "\\u0000", 4);
    e = entry(32, "\\ud800");
    refused(e, strlen(e), "unpaired surrogate", 4);
    e = entry(32, "\\udc00\\ud800");
    refused(e, strlen(e), "unpaired surrogate", 4);
    e = entry(32, "\\ud800\\u0041");
    refused(e, strlen(e), "unpaired surrogate", 4);
    /* A name cut by \u0000 would have matched more devices than it names: refused, not shortened. */
    const char *cut = "{\"format\": \"oclblas-database-1\", \"device\": {\"name\": \"\\u0000Tesla\"},\n"
                      " \"parameters\": {}}";
    refused(cut, strlen(cut), "\\u0000", 1);
}

static int setup(void **state)
{
    (void)state;
    alarm(120);
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_refused),    cmocka_unit_test(test_size_cap),
        cmocka_unit_test(test_folder_loops),    cmocka_unit_test(test_reload_replaces),
        cmocka_unit_test(test_nul_and_garbage), cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_duplicate_members), cmocka_unit_test(test_escapes),
    };
    return cmocka_run_group_tests_name("dbload", tests, setup, teardown);
}
