/*
 * The program cache, observed through oclblas_cache_get_stats and the files
 * in the cache folder: a second process loads instead of compiling; a
 * corrupted, truncated or unloadable file is removed and rebuilt; other
 * parameters or build options make a new key; an unwritable folder and
 * OCLBLAS_CACHE_DIR=off only cost speed; the default folders; several
 * processes and several threads at once on one folder; a new context reuses
 * the binary; oclblas_cache_clear and oclblas_cache_fill. Child processes
 * are this program run again with --child.
 */
#include "testutil.h"

#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[] = "/tmp/oclblas-test-cache-XXXXXX";

typedef struct {
    unsigned long memory_hits, disk_hits, builds, rejects;
} stats;

/* ---- the child --------------------------------------------------------- */

static int child(const char *what)
{
    tu_env env;
    if (oclblas_default_device(&env.device, &env.context, &env.queue) != OCLBLAS_SUCCESS)
        return 3;
    /* Whatever the device's crossovers: every product goes to gemm_fast, none to the host. */
    if (oclblas_override_params(env.device, "routine", "GEMM_MIN_INDIRECT=0,HOST_MAX=0") != OCLBLAS_SUCCESS)
        return 7;
    if (strcmp(what, "fill") == 0) {
        if (oclblas_cache_fill(env.device) != OCLBLAS_SUCCESS)
            return 4;
    } else {
        if (strcmp(what, "override") == 0 &&
            oclblas_override_params(env.device, "gemm_fast",
                                    "MWG=16,NWG=16,KWG=8,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=1,VWM=1,VWN=1,STRM=0,"
                                    "STRN=0,SA=0,SB=0") != OCLBLAS_SUCCESS)
            return 5;
        /* gemm_fast and helpers, gemv_t */
        if (tu_gemm_case(&env, 0, OCLBLAS_ROW_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, 200, 300, 400, 1.0f, 0.0f, 0, 0,
                         0, 0, 1) > 1.0 ||
            tu_gemm_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 9, 10, 11, 1.0f, 0.5f, 0, 0,
                         0, 0, 2) > 1.0 ||
            tu_gemv_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, 100, 50, 1.0f, 0.0f, 0, 1, 1, 0, 0, 0, 3) > 1.0)
            return 6;
    }
    oclblas_cache_stats s;
    oclblas_cache_get_stats(&s);
    printf("%lu %lu %lu %lu\n", s.memory_hits, s.disk_hits, s.builds, s.disk_rejects);
    return 0;
}

/* ---- helpers of the parent --------------------------------------------- */

static void path_in(char *out, size_t len, const char *name) { snprintf(out, len, "%s/%s", root, name); }

/* Starts a child with OCLBLAS_CACHE_DIR=cache (NULL: leave the variable
 * unset, "off": off); returns its pid and the read end of its stdout. */
static pid_t start_child(const char *cache, const char *what, const char **env, int *out_fd)
{
    int fd[2];
    if (pipe(fd) != 0)
        fail_msg("pipe");
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        if (cache)
            setenv("OCLBLAS_CACHE_DIR", cache, 1);
        else
            unsetenv("OCLBLAS_CACHE_DIR");
        for (int i = 0; env && env[i]; i += 2) {
            if (env[i + 1])
                setenv(env[i], env[i + 1], 1);
            else
                unsetenv(env[i]);
        }
        execl("/proc/self/exe", "test_cache", "--child", what, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    *out_fd = fd[0];
    return pid;
}

static stats finish_child(pid_t pid, int fd)
{
    char buf[256] = "";
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("child failed (status %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    stats s;
    buf[n > 0 ? n : 0] = '\0';
    if (sscanf(buf, "%lu %lu %lu %lu", &s.memory_hits, &s.disk_hits, &s.builds, &s.rejects) != 4)
        fail_msg("child said \"%s\"", buf);
    return s;
}

static stats run_child(const char *cache, const char *what, const char **env)
{
    int fd;
    pid_t pid = start_child(cache, what, env, &fd);
    return finish_child(pid, fd);
}

/* Cache files (oclblas-*.bin) in a folder; with leftovers, temporary files too. */
static int count_files(const char *dir, int leftovers)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *bin = strstr(e->d_name, ".bin");
        if (strncmp(e->d_name, "oclblas-", 8) == 0 && bin && (leftovers ? bin[4] != '\0' : bin[4] == '\0'))
            ++n;
    }
    closedir(d);
    return n;
}

typedef void (*file_op)(const char *path, long size);

static void each_file(const char *dir, file_op op)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "oclblas-", 8) != 0)
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        stat(p, &sb);
        op(p, (long)sb.st_size);
    }
    closedir(d);
}

static void flip_byte(const char *p, long size)
{
    FILE *f = fopen(p, "r+b");
    fseek(f, size / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, size / 2, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

static void truncate_half(const char *p, long size) { assert_int_equal(truncate(p, size / 2), 0); }

/* A well-formed file (header, key, checksum all right) whose binary is
 * garbage: only the driver can tell. The layout is the library's file
 * format: 8-byte magic, u32 version, u32 key length, u64 binary length,
 * u64 FNV-1a checksum of the binary, the key, the binary. */
static void garbage_binary(const char *p, long size)
{
    FILE *f = fopen(p, "r+b");
    unsigned char head[32];
    assert_int_equal(fread(head, 1, 32, f), 32);
    uint32_t key_len;
    uint64_t len;
    memcpy(&key_len, head + 12, 4);
    memcpy(&len, head + 16, 8);
    assert_int_equal((long)(32 + key_len + len), size);
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char *junk = malloc(len);
    for (uint64_t i = 0; i < len; ++i) {
        junk[i] = (unsigned char)(i * 131 + 7);
        h = (h ^ junk[i]) * 0x100000001b3ull;
    }
    fseek(f, 24, SEEK_SET);
    fwrite(&h, 8, 1, f);
    fseek(f, 32 + (long)key_len, SEEK_SET);
    fwrite(junk, 1, len, f);
    fclose(f);
    free(junk);
}

/* ---- tests ------------------------------------------------------------- */

static void test_second_process_loads(void **state)
{
    (void)state;
    char dir[300];
    path_in(dir, sizeof dir, "warm");
    stats a = run_child(dir, "run", NULL);
    assert_true(a.builds > 0);
    assert_int_equal(a.disk_hits, 0);
    const int files = count_files(dir, 0);
    assert_int_equal(files, (int)a.builds);
    stats b = run_child(dir, "run", NULL);
    assert_int_equal(b.builds, 0);
    assert_int_equal(b.disk_hits, a.builds);
    assert_int_equal(count_files(dir, 0), files);
}

static void damaged(const char *name, file_op damage)
{
    char dir[300];
    path_in(dir, sizeof dir, name);
    stats a = run_child(dir, "run", NULL);
    each_file(dir, damage);
    stats b = run_child(dir, "run", NULL); /* correct results, checked in the child */
    assert_int_equal(b.rejects, a.builds);
    assert_int_equal(b.builds, a.builds);
    stats c = run_child(dir, "run", NULL); /* the rebuilt files are good again */
    assert_int_equal(c.builds, 0);
    assert_int_equal(c.rejects, 0);
}

static void test_corrupted_file(void **state)
{
    (void)state;
    damaged("flipped", flip_byte);
}

static void test_truncated_file(void **state)
{
    (void)state;
    damaged("truncated", truncate_half);
}

static void test_unloadable_binary(void **state)
{
    (void)state;
    damaged("garbage", garbage_binary);
}

static void test_new_key(void **state)
{
    (void)state;
    char dir[300];
    path_in(dir, sizeof dir, "keys");
    stats a = run_child(dir, "run", NULL);
    const int files = count_files(dir, 0);
    stats b = run_child(dir, "override", NULL);
    assert_int_equal(b.builds, 1); /* gemm_fast only: its parameters changed */
    assert_int_equal(count_files(dir, 0), files + 1);
    const char *opts[] = {"OCLBLAS_BUILD_OPTIONS", "-DOCLBLAS_TEST_KEY=1", NULL};
    stats c = run_child(dir, "run", opts);
    assert_int_equal(c.builds, a.builds); /* every program: the options changed */
    assert_int_equal(count_files(dir, 0), files + 1 + (int)a.builds);
}

static void test_unwritable_and_off(void **state)
{
    (void)state;
    char file[300], dir[400];
    path_in(file, sizeof file, "a-file");
    FILE *f = fopen(file, "w");
    fclose(f);
    snprintf(dir, sizeof dir, "%s/cache", file); /* under a file: no one can create it, root neither */
    stats a = run_child(dir, "run", NULL);
    stats b = run_child(dir, "run", NULL);
    assert_true(a.builds > 0);
    assert_int_equal(b.builds, a.builds);
    char home[300];
    path_in(home, sizeof home, "home-off");
    mkdir(home, 0755);
    const char *env[] = {"HOME", home, "XDG_CACHE_HOME", NULL, NULL};
    stats c = run_child("off", "run", env);
    assert_true(c.builds > 0);
    char def[400];
    snprintf(def, sizeof def, "%s/.cache/oclblas", home);
    assert_int_equal(count_files(def, 0), 0);
}

static void test_default_folders(void **state)
{
    (void)state;
    char xdg[300], home[300], in_xdg[400], in_home[400];
    path_in(xdg, sizeof xdg, "xdg");
    path_in(home, sizeof home, "home");
    snprintf(in_xdg, sizeof in_xdg, "%s/oclblas", xdg);
    snprintf(in_home, sizeof in_home, "%s/.cache/oclblas", home);
    const char *with_xdg[] = {"XDG_CACHE_HOME", xdg, "HOME", home, NULL};
    stats a = run_child(NULL, "run", with_xdg);
    assert_int_equal(count_files(in_xdg, 0), (int)a.builds);
    assert_int_equal(count_files(in_home, 0), 0);
    const char *with_home[] = {"XDG_CACHE_HOME", NULL, "HOME", home, NULL};
    stats b = run_child(NULL, "run", with_home);
    assert_int_equal(count_files(in_home, 0), (int)b.builds);
}

static void test_processes_at_once(void **state)
{
    (void)state;
    char dir[300];
    path_in(dir, sizeof dir, "shared");
    enum { N = 4 };
    pid_t pid[N];
    int fd[N];
    for (int i = 0; i < N; ++i)
        pid[i] = start_child(dir, "run", NULL, &fd[i]);
    for (int i = 0; i < N; ++i)
        finish_child(pid[i], fd[i]);
    assert_int_equal(count_files(dir, 1), 0); /* no temporary files left */
    stats s = run_child(dir, "run", NULL);
    assert_int_equal(s.builds, 0);
    assert_int_equal(s.rejects, 0);
}

typedef struct {
    int id;
    double worst;
} thread_arg;

static void *thread_main(void *p)
{
    thread_arg *a = p;
    tu_env env;
    tu_get_env(&env);
    if (a->id % 2) {
        /* A context and queue of its own: programs per context, binaries shared. */
        cl_int err;
        env.context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
        env.queue = clCreateCommandQueue(env.context, env.device, 0, &err);
    }
    for (int r = 0; r < 3; ++r) {
        double e = tu_gemm_case(&env, 0, r % 2 ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS,
                                OCLBLAS_TRANS, 150 + 10 * (size_t)a->id, 170, 190, 1.0f, 0.5f, 1, 1, 2, 3,
                                (unsigned)(a->id * 10 + r));
        e = e > a->worst ? e : a->worst;
        const double g = tu_gemv_case(&env, 0, OCLBLAS_ROW_MAJOR, r % 2 ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, 333, 222,
                                      2.0f, 0.0f, 0, 1, -1, 0, 0, 0, (unsigned)r);
        a->worst = g > e ? g : e;
        const double d = tu_gemm_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, 5, 6, 7, 1.0f,
                                      0.0f, 0, 0, 0, 0, (unsigned)r);
        a->worst = d > a->worst ? d : a->worst;
    }
    if (a->id % 2) {
        clReleaseCommandQueue(env.queue);
        clReleaseContext(env.context);
    }
    return NULL;
}

static void test_threads_at_once(void **state)
{
    (void)state;
    /* This process's own folder, set before its first build. */
    enum { N = 6 };
    pthread_t t[N];
    thread_arg a[N];
    for (int i = 0; i < N; ++i) {
        a[i] = (thread_arg){i, 0.0};
        pthread_create(&t[i], NULL, thread_main, &a[i]);
    }
    for (int i = 0; i < N; ++i) {
        pthread_join(t[i], NULL);
        if (a[i].worst > 1.0)
            fail_msg("thread %d: error %.3g x bound", i, a[i].worst);
    }
    char dir[300];
    path_in(dir, sizeof dir, "parent");
    assert_int_equal(count_files(dir, 1), 0);
    oclblas_cache_stats s;
    TU_CHECK(oclblas_cache_get_stats(&s));
    /* Each program was built once, however many threads and contexts asked for it. */
    assert_int_equal(s.builds, (unsigned long)count_files(dir, 0));
}

static void test_new_context_and_clear(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    oclblas_cache_stats before, after;
    assert_true(tu_gemm_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 200, 200, 200, 1.0f,
                             0.0f, 0, 0, 0, 0, 9) <= 1.0);
    TU_CHECK(oclblas_cache_get_stats(&before));
    cl_int err;
    tu_env other = env;
    other.context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    other.queue = clCreateCommandQueue(other.context, env.device, 0, &err);
    assert_true(tu_gemm_case(&other, 0, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 200, 200, 200, 1.0f,
                             0.0f, 0, 0, 0, 0, 9) <= 1.0);
    TU_CHECK(oclblas_cache_get_stats(&after));
    assert_int_equal(after.builds, before.builds);
    assert_true(after.disk_hits > before.disk_hits);
    clReleaseCommandQueue(other.queue);
    clReleaseContext(other.context);

    /* Memory cleared: the next call loads from disk, compiles nothing. */
    TU_CHECK(oclblas_cache_clear(OCLBLAS_CACHE_MEMORY));
    TU_CHECK(oclblas_cache_get_stats(&before));
    assert_true(tu_gemm_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_NO_TRANS, 200, 200, 200, 1.0f,
                             0.0f, 0, 0, 0, 0, 9) <= 1.0);
    TU_CHECK(oclblas_cache_get_stats(&after));
    assert_int_equal(after.builds, before.builds);
    assert_true(after.disk_hits > before.disk_hits);
    /* Disk cleared: the files go. */
    char dir[300];
    path_in(dir, sizeof dir, "parent");
    assert_true(count_files(dir, 0) > 0);
    TU_CHECK(oclblas_cache_clear(OCLBLAS_CACHE_DISK));
    assert_int_equal(count_files(dir, 0), 0);
    assert_int_equal(oclblas_cache_clear(0), OCLBLAS_INVALID_ARGUMENT);
    assert_int_equal(oclblas_cache_clear(8), OCLBLAS_INVALID_ARGUMENT);
}

static void test_fill(void **state)
{
    (void)state;
    char dir[300];
    path_in(dir, sizeof dir, "filled");
    stats f = run_child(dir, "fill", NULL);
    assert_true(f.builds >= 5); /* gemm_fast, gemm_direct, helpers, gemv_n, gemv_t */
    stats s = run_child(dir, "run", NULL);
    assert_int_equal(s.builds, 0);
    assert_int_equal(oclblas_cache_fill(NULL), OCLBLAS_INVALID_ARGUMENT);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--child") == 0)
        return child(argv[2]);
    if (!mkdtemp(root))
        return 1;
    char parent[300];
    path_in(parent, sizeof parent, "parent");
    setenv("OCLBLAS_CACHE_DIR", parent, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_process_loads), cmocka_unit_test(test_corrupted_file),
        cmocka_unit_test(test_truncated_file),       cmocka_unit_test(test_unloadable_binary),
        cmocka_unit_test(test_new_key),              cmocka_unit_test(test_unwritable_and_off),
        cmocka_unit_test(test_default_folders),      cmocka_unit_test(test_processes_at_once),
        cmocka_unit_test(test_threads_at_once),      cmocka_unit_test(test_new_context_and_clear),
        cmocka_unit_test(test_fill),
    };
    const int rc = cmocka_run_group_tests_name("cache", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
