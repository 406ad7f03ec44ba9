/*
 * The parameter database: lookup order (device name, architecture, vendor,
 * type, global default), entries loaded at run time winning over the
 * compiled-in ones at the same level but not over more specific ones,
 * newest first, entries a device cannot run passed over, invalid files
 * refused with the status that names the cause and nothing of them loaded,
 * OCLBLAS_DATABASE read at start (checked in a child process), a load in
 * force from the next call on, and overrides for every device and for one
 * device, checked when they are set.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/oclblas-test-db-XXXXXX";
static char dev_vendor[64], dev_type[16], dev_arch[128], dev_name[512];

/* Pulls "key": "value" out of the device description. */
static void field(const char *json, const char *key, char *out, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(json, pat);
    assert_non_null(p);
    p += strlen(pat);
    size_t n = 0;
    while (p[n] && p[n] != '"' && n + 1 < len) {
        out[n] = p[n];
        ++n;
    }
    out[n] = '\0';
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    tu_env env;
    tu_get_env(&env);
    char desc[1024];
    TU_CHECK(oclblas_device_description(env.device, desc, sizeof desc));
    field(desc, "vendor", dev_vendor, sizeof dev_vendor);
    field(desc, "type", dev_type, sizeof dev_type);
    field(desc, "architecture", dev_arch, sizeof dev_arch);
    field(desc, "name", dev_name, sizeof dev_name);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

/* Writes text to dir/name and returns the path. */
static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* An entry whose device object is dev_json, with one kernel's parameters. */
static const char *entry(const char *dev_json, const char *kernel, const char *params)
{
    static char text[2048];
    snprintf(text, sizeof text,
             "{\"format\": \"oclblas-database-1\", \"device\": %s, \"tuned\": {\"tool\": \"test\"},\n"
             " \"parameters\": {\"%s\": {%s}}}\n",
             dev_json, kernel, params);
    return text;
}

#define DIRECT_FMT "\"WGD\": %d, \"KWGD\": 8, \"MDIMCD\": 8, \"NDIMCD\": 8, \"KWID\": 1, \"PADA\": 0, \"PADB\": 0"

static void origin(const tu_env *env, const char *kernel, char *out, size_t len)
{
    char buf[1024];
    TU_CHECK(oclblas_get_params(env->device, kernel, buf, sizeof buf));
    const char *semi = strchr(buf, ';');
    assert_non_null(semi);
    snprintf(out, len, "%s", semi + 1);
}

static void expect(const tu_env *env, const char *kernel, const char *file, const char *level, const char *value)
{
    char buf[1024];
    TU_CHECK(oclblas_get_params(env->device, kernel, buf, sizeof buf));
    if ((file && !strstr(buf, file)) || (level && !strstr(buf, level)) || (value && !strstr(buf, value)))
        fail_msg("%s: got \"%s\", wanted %s / %s / %s", kernel, buf, file ? file : "-", level ? level : "-",
                 value ? value : "-");
}

/* The level an origin names, 0 (device name) to 4 (global default). */
static int level_of(const char *origin)
{
    static const char *const names[] = {"device name match", "architecture match", "vendor match",
                                        "device type match", "global default match"};
    for (int l = 0; l < 5; ++l)
        if (strstr(origin, names[l]))
            return l;
    fail_msg("no level in \"%s\"", origin);
    return -1;
}

/* Loads a runtime entry for gemm_direct at a level; it must take over when it
 * is at least as specific as what matched before (a runtime entry wins a
 * tie with a compiled-in one), and change nothing otherwise. */
static void load_level(const tu_env *env, int level, const char *dev_json, const char *file, int wgd)
{
    char before[512], params[256], value[32];
    origin(env, "gemm_direct", before, sizeof before);
    snprintf(params, sizeof params, DIRECT_FMT, wgd);
    TU_CHECK(oclblas_database_load(write_file(file, entry(dev_json, "gemm_direct", params))));
    snprintf(value, sizeof value, "WGD=%d", wgd);
    if (level <= level_of(before)) {
        expect(env, "gemm_direct", file, NULL, value);
        char now[512];
        origin(env, "gemm_direct", now, sizeof now);
        assert_int_equal(level_of(now), level);
    } else {
        char now[512];
        origin(env, "gemm_direct", now, sizeof now);
        assert_string_equal(before, now);
    }
}

static void test_fallback_order(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char dev[1024];
    /* From the least specific level to the most: each takes over from what the compiled-in database gave. */
    load_level(&env, 4, "{}", "l4.json", 8);
    snprintf(dev, sizeof dev, "{\"type\": \"%s\"}", dev_type);
    load_level(&env, 3, dev, "l3.json", 16);
    snprintf(dev, sizeof dev, "{\"vendor\": \"%s\"}", dev_vendor);
    load_level(&env, 2, dev, "l2.json", 24);
    if (dev_arch[0]) {
        snprintf(dev, sizeof dev, "{\"vendor\": \"%s\", \"architecture\": \"%s\"}", dev_vendor, dev_arch);
        load_level(&env, 1, dev, "l1.json", 32);
    }
    /* Another device's name does not match: nothing changes. */
    char before[512], after[512];
    origin(&env, "gemm_direct", before, sizeof before);
    char params[256];
    snprintf(params, sizeof params, DIRECT_FMT, 40);
    snprintf(dev, sizeof dev, "{\"name\": \"%s (not this one)\"}", dev_name);
    TU_CHECK(oclblas_database_load(write_file("other.json", entry(dev, "gemm_direct", params))));
    origin(&env, "gemm_direct", after, sizeof after);
    assert_string_equal(before, after);
    snprintf(dev, sizeof dev, "{\"name\": \"%s\"}", dev_name);
    load_level(&env, 0, dev, "l0.json", 48);
    /* At the same level the newest runtime entry wins. */
    load_level(&env, 0, dev, "l0b.json", 64);
    /* And a less specific one, however new, does not. */
    snprintf(dev, sizeof dev, "{\"type\": \"%s\"}", dev_type);
    load_level(&env, 3, dev, "late.json", 8);
}

static void test_runtime_versus_compiled(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char was[512], dev[1024];
    origin(&env, "gemv_t", was, sizeof was);
    assert_non_null(strstr(was, "compiled-in"));
    /* A runtime entry less specific than the compiled-in one does not win ... */
    TU_CHECK(oclblas_database_load(
        write_file("any.json", entry("{}", "gemv_t", "\"WGS\": 32, \"TPC\": 4, \"VW\": 1, \"UNR\": 1"))));
    char now[512];
    origin(&env, "gemv_t", now, sizeof now);
    if (strstr(was, "global default") == NULL)
        assert_string_equal(was, now);
    /* ... one at the same level does. */
    snprintf(dev, sizeof dev, "{\"type\": \"%s\"}", dev_type);
    TU_CHECK(oclblas_database_load(
        write_file("same.json", entry(dev, "gemv_t", "\"WGS\": 64, \"TPC\": 16, \"VW\": 2, \"UNR\": 2"))));
    if (strstr(was, "device type") || strstr(was, "global default"))
        expect(&env, "gemv_t", "same.json", NULL, "TPC=16");
    /* The loaded parameters are the ones that run. */
    const double r = tu_gemv_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, 300, 200, 1.0f, 0.0f, 0, 1, 1, 0, 0, 0, 5);
    assert_true(r <= 1.0);
}

static void test_device_limits_pass_over(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char before[512], dev[1024];
    origin(&env, "helpers", before, sizeof before);
    /* Legal in general, but no device has 64 x 64 work-items in one group. */
    snprintf(dev, sizeof dev, "{\"name\": \"%s\"}", dev_name);
    TU_CHECK(oclblas_database_load(write_file(
        "toobig.json", entry(dev, "helpers",
                             "\"PAD_DIMX\": 1024, \"PAD_DIMY\": 1024, \"PAD_WPTX\": 1, \"PAD_WPTY\": 1, "
                             "\"TRA_DIM\": 8, \"TRA_WPT\": 1, \"TRA_PAD\": 1"))));
    char after[512];
    origin(&env, "helpers", after, sizeof after);
    assert_string_equal(before, after);
}

static void test_invalid_refused(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char before[512];
    origin(&env, "gemv_n", before, sizeof before);
    const char *gemv_n = "\"WGS\": 32, \"WPT\": 1, \"VW\": 1, \"UNR\": 1";
    struct {
        const char *name, *text;
        oclblas_status want;
    } cases[] = {
        {"syntax.json", "{\"format\": \"oclblas-database-1\", \"device\": {},", OCLBLAS_DATABASE_PARSE_ERROR},
        {"trailing.json", "{} {}", OCLBLAS_DATABASE_PARSE_ERROR},
        {"format.json", "{\"format\": \"v0\", \"device\": {}, \"parameters\": {}}", OCLBLAS_DATABASE_INVALID_ENTRY},
        {"kernel.json", "{\"format\": \"oclblas-database-1\", \"device\": {}, \"parameters\": {\"gemm_slow\": {}}}",
         OCLBLAS_DATABASE_INVALID_ENTRY},
        {"missing.json", entry("{}", "gemv_n", "\"WGS\": 32, \"WPT\": 1, \"VW\": 1"), OCLBLAS_DATABASE_INVALID_ENTRY},
        {"unknown.json", entry("{}", "gemv_n", "\"WGS\": 32, \"WPT\": 1, \"VW\": 1, \"UNR\": 1, \"XYZ\": 2"),
         OCLBLAS_DATABASE_INVALID_ENTRY},
        {"float.json", entry("{}", "gemv_n", "\"WGS\": 32.5, \"WPT\": 1, \"VW\": 1, \"UNR\": 1"),
         OCLBLAS_DATABASE_INVALID_ENTRY},
        {"illegal.json", entry("{}", "gemv_n", "\"WGS\": 32, \"WPT\": 1, \"VW\": 3, \"UNR\": 1"),
         OCLBLAS_DATABASE_INVALID_ENTRY},
        {"type.json", entry("{\"type\": \"FPGA\"}", "gemv_n", gemv_n), OCLBLAS_DATABASE_INVALID_ENTRY},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char name[64];
        snprintf(name, sizeof name, "bad/%s", cases[i].name);
        const oclblas_status st = oclblas_database_load(write_file(name, cases[i].text));
        if (st != cases[i].want)
            fail_msg("%s: got %d (%s), want %d", cases[i].name, st, oclblas_status_string(st), cases[i].want);
    }
    char path[300];
    snprintf(path, sizeof path, "%s/no/such/file.json", dir);
    assert_int_equal(oclblas_database_load(path), OCLBLAS_DATABASE_FILE_ERROR);
    assert_int_equal(oclblas_database_load(NULL), OCLBLAS_INVALID_ARGUMENT);
    /* A folder with one good and several bad files loads nothing. */
    char dev[1024];
    snprintf(dev, sizeof dev, "{\"name\": \"%s\"}", dev_name);
    write_file("bad/good.json", entry(dev, "gemv_n", gemv_n));
    snprintf(path, sizeof path, "%s/bad", dir);
    assert_int_not_equal(oclblas_database_load(path), OCLBLAS_SUCCESS);
    char after[512];
    origin(&env, "gemv_n", after, sizeof after);
    assert_string_equal(before, after);
}

static void test_overrides(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char base[1024], buf[1024];
    TU_CHECK(oclblas_get_params(env.device, "gemv_n", base, sizeof base));
    TU_CHECK(oclblas_override_params(NULL, "gemv_n", "UNR=8"));
    TU_CHECK(oclblas_get_params(env.device, "gemv_n", buf, sizeof buf));
    assert_non_null(strstr(buf, "UNR=8"));
    assert_non_null(strstr(buf, "with overrides"));
    /* The device's own override wins over the one for every device. */
    TU_CHECK(oclblas_override_params(env.device, "gemv_n", "UNR=2,WGS=96,STRM=1")); /* (a panel, STRM=2, is one work-item's) */
    TU_CHECK(oclblas_get_params(env.device, "gemv_n", buf, sizeof buf));
    assert_non_null(strstr(buf, "UNR=2"));
    assert_non_null(strstr(buf, "WGS=96"));
    TU_CHECK(oclblas_override_params(env.device, "gemv_n", NULL));
    TU_CHECK(oclblas_get_params(env.device, "gemv_n", buf, sizeof buf));
    assert_non_null(strstr(buf, "UNR=8"));
    TU_CHECK(oclblas_override_params(NULL, "gemv_n", ""));
    TU_CHECK(oclblas_get_params(env.device, "gemv_n", buf, sizeof buf));
    assert_string_equal(buf, base);
}

/* Every override is checked when it is accepted, for one device or for all:
 * a value a plan would divide by (or multiply into nonsense) out of its
 * range, or values that break a rule among themselves, are refused and
 * change nothing. One that is legal by itself but not on top of this
 * device's set is passed over here, and calls go on with the device's set. */
static void test_overrides_validated(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char before[1024], after[1024], buf[1024];
    TU_CHECK(oclblas_get_params(env.device, "gemm_fast", before, sizeof before));
    assert_int_equal(oclblas_override_params(NULL, "gemm_fast", "MWG=0"), OCLBLAS_INVALID_PARAMS);
    assert_int_equal(oclblas_override_params(NULL, "gemv_t", "TPC=-16"), OCLBLAS_INVALID_PARAMS);
    assert_int_equal(oclblas_override_params(NULL, "routine", "HOST_MAX=-1"), OCLBLAS_INVALID_PARAMS);
    assert_int_equal(oclblas_override_params(NULL, "gemv_t", "TPC=24"), OCLBLAS_INVALID_PARAMS);
    assert_int_equal(oclblas_override_params(NULL, "gemm_fast", "MWG=24,MDIMC=16,VWM=1"), OCLBLAS_INVALID_PARAMS);
    TU_CHECK(oclblas_get_params(env.device, "gemm_fast", after, sizeof after));
    assert_string_equal(before, after);
    const double r = tu_gemm_case(&env, 1, OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 7, 9, 5, 1.0f, 0.5f,
                                  0, 0, 0, 0, 3);
    assert_true(r <= 1.0);

    /* TPC = 1024 is a power of two in range, but no work-group of this
     * device's gemv_t set is a multiple of it. */
    TU_CHECK(oclblas_get_params(env.device, "gemv_t", before, sizeof before));
    assert_null(strstr(before, "WGS=1024"));
    TU_CHECK(oclblas_override_params(NULL, "gemv_t", "TPC=1024"));
    TU_CHECK(oclblas_get_params(env.device, "gemv_t", buf, sizeof buf));
    assert_string_equal(buf, before);
    for (int t = 0; t < 2; ++t)
        assert_true(tu_gemv_case(&env, 0, OCLBLAS_COL_MAJOR, t ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, 300, 40, 1.0f,
                                 0.0f, 0, 1, 1, 0, 0, 0, 11u + (unsigned)t) <= 1.0);
    TU_CHECK(oclblas_override_params(NULL, "gemv_t", NULL));
}

/* Calls use what a load brings from the next call on: a device's
 * parameters are resolved once and kept, and a load makes them stale. */
static void test_loaded_entry_in_force(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    /* A call first, so that the device's parameters are resolved and its program is in memory. */
    assert_true(tu_gemv_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, 300, 40, 1.0f, 0.0f, 0, 1, 1, 0, 0, 0, 5) <=
                1.0);
    oclblas_cache_stats a, b;
    TU_CHECK(oclblas_cache_get_stats(&a));
    char dev[1024];
    snprintf(dev, sizeof dev, "{\"name\": \"%s\"}", dev_name);
    TU_CHECK(oclblas_database_load(
        write_file("in-force/entry.json", entry(dev, "gemv_t", "\"WGS\": 48, \"TPC\": 4, \"VW\": 2, \"UNR\": 3"))));
    assert_true(tu_gemv_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, 300, 40, 1.0f, 0.0f, 0, 1, 1, 0, 0, 0, 6) <=
                1.0);
    TU_CHECK(oclblas_cache_get_stats(&b));
    /* The loaded set's program: built or read from disk, not found in memory. */
    assert_true(b.builds + b.disk_hits > a.builds + a.disk_hits);
}

/* A value added to a kernel's table after entries were written may be left
 * out of them (GEMV_T_GROUPS_PER_CU: it then holds 0, "as
 * GEMV_GROUPS_PER_CU"); given, it is read and checked as any other; the
 * other values stay required. The entries repeat the device's own routine
 * values, so that nothing else changes for the tests after this one. */
static void test_optional_value(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    char now[1024], fields[600] = "", no_host_max[600] = "";
    TU_CHECK(oclblas_get_params(env.device, "routine", now, sizeof now));
    char *origin_at = strchr(now, ';');
    assert_non_null(origin_at);
    *origin_at = '\0';
    /* "NAME=V,..." as JSON, without GEMV_T_GROUPS_PER_CU (and, once more, without HOST_MAX). */
    for (char *item = strtok(now, ","); item; item = strtok(NULL, ",")) {
        char *eq = strchr(item, '=');
        assert_non_null(eq);
        *eq = '\0';
        if (strcmp(item, "GEMV_T_GROUPS_PER_CU") == 0)
            continue;
        size_t u = strlen(fields);
        snprintf(fields + u, sizeof fields - u, "%s\"%s\": %s", u ? ", " : "", item, eq + 1);
        if (strcmp(item, "HOST_MAX") == 0)
            continue;
        u = strlen(no_host_max);
        snprintf(no_host_max + u, sizeof no_host_max - u, "%s\"%s\": %s", u ? ", " : "", item, eq + 1);
    }
    char dev[600], params[700];
    snprintf(dev, sizeof dev, "{\"name\": \"%s\"}", dev_name);
    TU_CHECK(oclblas_database_load(write_file("optional/absent.json", entry(dev, "routine", fields))));
    expect(&env, "routine", "absent.json", NULL, "GEMV_T_GROUPS_PER_CU=0");
    snprintf(params, sizeof params, "%s, \"GEMV_T_GROUPS_PER_CU\": 8", fields);
    TU_CHECK(oclblas_database_load(write_file("optional/given.json", entry(dev, "routine", params))));
    expect(&env, "routine", "given.json", NULL, "GEMV_T_GROUPS_PER_CU=8");
    static const char *const refused[] = {"-1", "1025", "2.5"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
        snprintf(params, sizeof params, "%s, \"GEMV_T_GROUPS_PER_CU\": %s", fields, refused[i]);
        assert_int_equal(oclblas_database_load(write_file("optional/bad.json", entry(dev, "routine", params))),
                         OCLBLAS_DATABASE_INVALID_ENTRY);
    }
    /* A required value left out is refused as ever. */
    assert_int_equal(oclblas_database_load(write_file("optional/bad.json", entry(dev, "routine", no_host_max))),
                     OCLBLAS_DATABASE_INVALID_ENTRY);
    expect(&env, "routine", "given.json", NULL, "GEMV_T_GROUPS_PER_CU=8");
}

/* OCLBLAS_DATABASE is read when the library first looks up parameters. */
static void test_environment_variable(void **state)
{
    (void)state;
    char dev[1024];
    snprintf(dev, sizeof dev, "{\"name\": \"%s\"}", dev_name);
    const char *file = write_file("env/entry.json", entry(dev, "gemv_t", "\"WGS\": 64, \"TPC\": 8, \"VW\": 4, \"UNR\": 3"));
    char list[600];
    snprintf(list, sizeof list, "%s/does-not-exist.json:%s", dir, file);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("OCLBLAS_DATABASE", list, 1);
        execl("/proc/self/exe", "test_database", "--env-child", (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static int env_child(void)
{
    cl_device_id d;
    char buf[1024];
    if (oclblas_default_device(&d, NULL, NULL) != OCLBLAS_SUCCESS ||
        oclblas_get_params(d, "gemv_t", buf, sizeof buf) != OCLBLAS_SUCCESS)
        return 2;
    /* The bad path before it costs nothing but its own entries. */
    return strstr(buf, "env/entry.json") && strstr(buf, "UNR=3") ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--env-child") == 0)
        return env_child();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fallback_order),      cmocka_unit_test(test_runtime_versus_compiled),
        cmocka_unit_test(test_device_limits_pass_over), cmocka_unit_test(test_invalid_refused),
        cmocka_unit_test(test_overrides),           cmocka_unit_test(test_overrides_validated),
        cmocka_unit_test(test_loaded_entry_in_force), cmocka_unit_test(test_optional_value),
        cmocka_unit_test(test_environment_variable),
    };
    return cmocka_run_group_tests_name("database", tests, setup, teardown);
}
