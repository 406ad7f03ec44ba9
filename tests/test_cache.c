/*
 * The program cache, observed through oclblas_cache_get_stats and the files
 * in the cache folder: a second process loads instead of compiling; a
 * corrupted, truncated or unloadable file is removed and rebuilt; other
 * parameters or build options make a new key; an unwritable folder and
 * OCLBLAS_CACHE_DIR=off only cost speed; the default folders; several
 * processes and several threads at once on one folder; a new context reuses
 * the binary; oclblas_cache_clear and oclblas_cache_fill. And the trust
 * rules: a folder of another user or one writable by others is not used, a
 * file planted by another user (a valid header around a genuine binary) is
 * not loaded, a binary of another program or half a binary under a valid
 * header is evicted, folders and files are private whatever the umask, a
 * link at a temporary's name writes nothing through it, a FIFO does not
 * block, stale temporaries are swept. Child processes are this program run
 * again with --child; "another user" is nobody, where this runs as root
 * (as CI does), and those tests are skipped otherwise.
 */
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char root[] = "/tmp/oclblas-test-cache-XXXXXX";

typedef struct {
    unsigned long memory_hits, disk_hits, builds, rejects;
} stats;

/* ---- the child --------------------------------------------------------- */

static int child(const char *what)
{
    /* A cache file that blocks (a FIFO) or any other hang fails the test instead of stalling the suite. */
    alarm(300);
    if (strncmp(what, "umask0-", 7) == 0) {
        umask(0);
        what += 7;
    }
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
        /* New sets for both tiled FP32 kernels: the plans run one of them (gemm_cpu on a CPU). */
        if (strcmp(what, "override") == 0 &&
            (oclblas_override_params(env.device, "gemm_fast",
                                     "MWG=16,NWG=16,KWG=8,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=1,VWM=1,VWN=1,STRM=0,"
                                     "STRN=0,SA=0,SB=0") != OCLBLAS_SUCCESS ||
             oclblas_override_params(env.device, "gemm_cpu", "VW=4,MV=1,NR=3,KU=1,TN=1") != OCLBLAS_SUCCESS))
            return 5;
        /* gemm_fast (or gemm_cpu) and helpers, gemv_t */
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
 * unset, "off": off); returns its pid and the read end of its stdout. With
 * gate, the child waits until a byte is written to *gate before it runs. */
static pid_t start_child_gated(const char *cache, const char *what, const char **env, int *out_fd, int *gate)
{
    int fd[2], g[2];
    if (pipe(fd) != 0 || (gate && pipe(g) != 0))
        fail_msg("pipe");
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        if (gate) {
            close(g[1]);
            char c;
            if (read(g[0], &c, 1) != 1)
                _exit(126);
            close(g[0]);
        }
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
    if (gate) {
        close(g[0]);
        *gate = g[1];
    }
    *out_fd = fd[0];
    return pid;
}

static pid_t start_child(const char *cache, const char *what, const char **env, int *out_fd)
{
    return start_child_gated(cache, what, env, out_fd, NULL);
}

/* The child's wait status; *s filled when it succeeded. */
static int wait_child(pid_t pid, int fd, stats *s)
{
    char buf[256] = "";
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    int status;
    waitpid(pid, &status, 0);
    buf[n > 0 ? n : 0] = '\0';
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        sscanf(buf, "%lu %lu %lu %lu", &s->memory_hits, &s->disk_hits, &s->builds, &s->rejects) != 4)
        fail_msg("child said \"%s\"", buf);
    return status;
}

static stats finish_child(pid_t pid, int fd)
{
    stats s;
    const int status = wait_child(pid, fd, &s);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("child failed (%s %d)", WIFEXITED(status) ? "status" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
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

/* The library's cache file format (src/cache/disk.c): a 40-byte header
 * (8-byte magic, u32 version, u32 key length, u64 binary length, u64
 * FNV-1a checksum of the kernel names and then the binary, u32 names
 * length, u32 zero), the key, the kernel names, the binary. Files the
 * tests rewrite keep a valid header: only what the driver does with the
 * binary can tell them apart. */
typedef struct {
    unsigned char head[40];
    unsigned char *key, *names, *bin;
    uint32_t key_len, names_len;
    uint64_t bin_len;
} cache_file;

static void cf_read(const char *p, cache_file *f)
{
    FILE *in = fopen(p, "rb");
    assert_non_null(in);
    assert_int_equal(fread(f->head, 1, 40, in), 40);
    memcpy(&f->key_len, f->head + 12, 4);
    memcpy(&f->bin_len, f->head + 16, 8);
    memcpy(&f->names_len, f->head + 32, 4);
    f->key = malloc(f->key_len);
    f->names = malloc(f->names_len);
    f->bin = malloc(f->bin_len);
    assert_int_equal(fread(f->key, 1, f->key_len, in), f->key_len);
    assert_int_equal(fread(f->names, 1, f->names_len, in), f->names_len);
    assert_int_equal(fread(f->bin, 1, f->bin_len, in), f->bin_len);
    assert_int_equal(fgetc(in), EOF);
    fclose(in);
}

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* Writes f back with its lengths and checksum recomputed. */
static void cf_write(const char *p, const cache_file *f)
{
    unsigned char head[40];
    memcpy(head, f->head, 40);
    const uint64_t sum = fnv1a(f->bin, f->bin_len, fnv1a(f->names, f->names_len, 0xcbf29ce484222325ull));
    memcpy(head + 12, &f->key_len, 4);
    memcpy(head + 16, &f->bin_len, 8);
    memcpy(head + 24, &sum, 8);
    memcpy(head + 32, &f->names_len, 4);
    FILE *out = fopen(p, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(head, 1, 40, out), 40);
    assert_int_equal(fwrite(f->key, 1, f->key_len, out), f->key_len);
    assert_int_equal(fwrite(f->names, 1, f->names_len, out), f->names_len);
    assert_int_equal(fwrite(f->bin, 1, f->bin_len, out), f->bin_len);
    fclose(out);
}

static void cf_free(cache_file *f)
{
    free(f->key);
    free(f->names);
    free(f->bin);
}

/* A binary of garbage, which only the driver can tell. */
static void garbage_binary(const char *p, long size)
{
    (void)size;
    cache_file f;
    cf_read(p, &f);
    for (uint64_t i = 0; i < f.bin_len; ++i)
        f.bin[i] = (unsigned char)(i * 131 + 7);
    cf_write(p, &f);
    cf_free(&f);
}

/* The first half of the genuine binary (PoCL crashes on it). */
static void half_binary(const char *p, long size)
{
    (void)size;
    cache_file f;
    cf_read(p, &f);
    f.bin_len /= 2;
    cf_write(p, &f);
    cf_free(&f);
}

/* The names of the cache files in dir, sorted; returns how many (at most max). */
static int cache_names(const char *dir, char names[][64], int max)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "oclblas-", 8) == 0 && len > 4 && strcmp(e->d_name + len - 4, ".bin") == 0 &&
            n < max)
            snprintf(names[n++], 64, "%s", e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, 64, (int (*)(const void *, const void *))strcmp);
    return n;
}

/* Fills a folder of genuine cache files for the child's run; returns its stats. */
static stats genuine(const char *name, char *dir, size_t len)
{
    path_in(dir, len, name);
    stats s = run_child(dir, "run", NULL);
    assert_true(s.builds >= 2);
    assert_int_equal(count_files(dir, 0), (int)s.builds);
    return s;
}

/* ---- another user ------------------------------------------------------ */

static uid_t other_uid;
static gid_t other_gid;

/* Whether this process can act as another user: as root, nobody. */
static int other_user_available(void)
{
    if (geteuid() != 0)
        return 0;
    const struct passwd *pw = getpwnam("nobody");
    if (!pw || pw->pw_uid == 0)
        return 0;
    other_uid = pw->pw_uid;
    other_gid = pw->pw_gid;
    return 1;
}

#define NEED_OTHER_USER()                                                                                     \
    do {                                                                                                      \
        if (!other_user_available()) {                                                                        \
            print_message("skipped: needs a second user (run as root, which acts as nobody)\n");              \
            skip();                                                                                           \
        }                                                                                                     \
    } while (0)

/* Runs op(arg) in a child process that is the other user; fails when op does. */
static void as_other_user(int (*op)(void *), void *arg)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (setgroups(0, NULL) != 0 || setgid(other_gid) != 0 || setuid(other_uid) != 0 || getuid() != other_uid)
            _exit(3);
        _exit(op(arg) ? 0 : 4);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static int chown_to_other(const char *p)
{
    return chown(p, other_uid, other_gid) == 0;
}

/* ---- files read by the parent, written by the other user --------------- */

typedef struct {
    const char *dir; /* where to plant */
    int n;
    char names[8][64];
    unsigned char *data[8];
    size_t len[8];
} planted;

static void load_planted(planted *p, const char *from)
{
    p->n = cache_names(from, p->names, 8);
    for (int i = 0; i < p->n; ++i) {
        char src[1024];
        snprintf(src, sizeof src, "%s/%s", from, p->names[i]);
        FILE *in = fopen(src, "rb");
        assert_non_null(in);
        fseek(in, 0, SEEK_END);
        p->len[i] = (size_t)ftell(in);
        fseek(in, 0, SEEK_SET);
        p->data[i] = malloc(p->len[i]);
        assert_int_equal(fread(p->data[i], 1, p->len[i], in), p->len[i]);
        fclose(in);
    }
}

static int write_planted(void *arg)
{
    const planted *p = arg;
    for (int i = 0; i < p->n; ++i) {
        char dst[1024];
        snprintf(dst, sizeof dst, "%s/%s", p->dir, p->names[i]);
        const int fd = open(dst, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 || write(fd, p->data[i], p->len[i]) != (ssize_t)p->len[i])
            return 0;
        close(fd);
    }
    return 1;
}

static void free_planted(planted *p)
{
    for (int i = 0; i < p->n; ++i)
        free(p->data[i]);
}

/* How many cache files in dir the user uid owns. */
static int owned_by(const char *dir, uid_t uid)
{
    char names[8][64];
    const int n = cache_names(dir, names, 8);
    int owned = 0;
    for (int i = 0; i < n; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        struct stat sb;
        owned += lstat(p, &sb) == 0 && sb.st_uid == uid;
    }
    return owned;
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
    /* The tiled kernel at least, its parameters changed; where the entry's
     * cost model chooses plans (a GPU's), a set without a measured rate
     * hands the choice to the rules, whose plans may take other programs. */
    assert_true(b.builds >= 1);
    assert_int_equal(count_files(dir, 0), files + (int)b.builds);
    const char *opts[] = {"OCLBLAS_BUILD_OPTIONS", "-DOCLBLAS_TEST_KEY=1", NULL};
    stats c = run_child(dir, "run", opts);
    assert_int_equal(c.builds, a.builds); /* every program: the options changed */
    assert_int_equal(count_files(dir, 0), files + (int)b.builds + (int)a.builds);
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

/* ---- trust ------------------------------------------------------------ */

/* Another user's folder full of valid files for exactly this run's keys. */
static void test_folder_of_another_user(void **state)
{
    (void)state;
    NEED_OTHER_USER();
    char from[300], dir[300];
    const stats g = genuine("trust-genuine-1", from, sizeof from);
    path_in(dir, sizeof dir, "theirs");
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_true(chown_to_other(dir));
    planted p = {.dir = dir};
    load_planted(&p, from);
    as_other_user(write_planted, &p);
    const stats s = run_child(dir, "run", NULL); /* the results are checked in the child */
    assert_int_equal(s.disk_hits, 0);
    assert_int_equal(s.builds, g.builds);
    /* Nothing of this user's went there either. */
    assert_int_equal(owned_by(dir, other_uid), p.n);
    assert_int_equal(count_files(dir, 0), p.n);
    free_planted(&p);
}

/* A folder others can write (a shared /tmp-like folder, mode 1777) is not
 * used, whoever planted the files in it. */
static void test_folder_writable_by_others(void **state)
{
    (void)state;
    char from[300], dir[300];
    const stats g = genuine("trust-genuine-2", from, sizeof from);
    path_in(dir, sizeof dir, "shared-tmp");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chmod(dir, 01777), 0);
    planted p = {.dir = dir};
    load_planted(&p, from);
    if (other_user_available())
        as_other_user(write_planted, &p);
    else
        assert_true(write_planted(&p));
    stats s = run_child(dir, "run", NULL);
    assert_int_equal(s.disk_hits, 0);
    assert_int_equal(s.builds, g.builds);
    free_planted(&p);
    /* Writable by the group only: the same. The files in it are this user's own and genuine. */
    path_in(dir, sizeof dir, "group-writable");
    run_child(dir, "run", NULL);
    assert_int_equal(chmod(dir, 0770), 0);
    s = run_child(dir, "run", NULL);
    assert_int_equal(s.disk_hits, 0);
    assert_int_equal(s.builds, g.builds);
    /* Private again: used again. */
    assert_int_equal(chmod(dir, 0700), 0);
    s = run_child(dir, "run", NULL);
    assert_int_equal(s.builds, 0);
}

static void files_of_other(const char *p, long size)
{
    (void)size;
    assert_true(chown_to_other(p));
}

static void files_writable_by_all(const char *p, long size)
{
    (void)size;
    assert_int_equal(chmod(p, 0666), 0);
}

/* Files in this user's private folder that another user owns, or that
 * anyone may write, are removed unread and rebuilt. */
static void refused_files(const char *name, file_op op)
{
    char dir[300];
    const stats g = genuine(name, dir, sizeof dir);
    each_file(dir, op);
    const stats s = run_child(dir, "run", NULL);
    assert_int_equal(s.disk_hits, 0);
    assert_int_equal(s.builds, g.builds);
    assert_int_equal(s.rejects, g.builds);
    assert_int_equal(owned_by(dir, geteuid()), (int)g.builds);
    const stats again = run_child(dir, "run", NULL);
    assert_int_equal(again.builds, 0);
}

static void test_file_of_another_user(void **state)
{
    (void)state;
    NEED_OTHER_USER();
    refused_files("trust-owner", files_of_other);
}

static void test_file_writable_by_others(void **state)
{
    (void)state;
    refused_files("trust-mode", files_writable_by_all);
}

/* Under umask 000 the folders the cache creates are 0700 and its files 0600. */
static void test_private_modes(void **state)
{
    (void)state;
    char top[300], dir[400];
    path_in(top, sizeof top, "modes");
    snprintf(dir, sizeof dir, "%s/a/b", top);
    const stats s = run_child(dir, "umask0-run", NULL);
    assert_true(s.builds > 0);
    const char *folders[] = {top, NULL, dir};
    char mid[400];
    snprintf(mid, sizeof mid, "%s/a", top);
    folders[1] = mid;
    for (int i = 0; i < 3; ++i) {
        struct stat sb;
        assert_int_equal(stat(folders[i], &sb), 0);
        if ((sb.st_mode & 07777) != 0700)
            fail_msg("%s: mode %03o", folders[i], (unsigned)(sb.st_mode & 07777));
    }
    char names[8][64];
    const int n = cache_names(dir, names, 8);
    assert_int_equal(n, (int)s.builds);
    for (int i = 0; i < n; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        struct stat sb;
        assert_int_equal(lstat(p, &sb), 0);
        if (!S_ISREG(sb.st_mode) || (sb.st_mode & 07777) != 0600)
            fail_msg("%s: mode %o", names[i], (unsigned)sb.st_mode);
    }
}

static void read_text(const char *p, char *buf, size_t len)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    const size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Links to a private file of the user, planted where the cache writes: at
 * the temporary names earlier versions used (the file's name, ".tmp.", the
 * writer's pid and a serial number) and at the final names. The cache
 * writes its files and nothing through a link. */
static void test_links_at_temporary_names(void **state)
{
    (void)state;
    char from[300], dir[300], secret[300];
    const stats g = genuine("links-genuine", from, sizeof from);
    char names[8][64];
    const int n = cache_names(from, names, 8);
    path_in(secret, sizeof secret, "secret.txt");
    FILE *f = fopen(secret, "w");
    fputs("private\n", f);
    fclose(f);
    chmod(secret, 0600);
    path_in(dir, sizeof dir, "links");
    assert_int_equal(mkdir(dir, 0700), 0);
    int out, gate;
    const pid_t pid = start_child_gated(dir, "run", NULL, &out, &gate);
    for (int i = 0; i < n; ++i) {
        char p[1024];
        for (int serial = 1; serial <= 16; ++serial) {
            snprintf(p, sizeof p, "%s/%s.tmp.%ld.%d", dir, names[i], (long)pid, serial);
            assert_int_equal(symlink(secret, p), 0);
        }
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        assert_int_equal(symlink(secret, p), 0);
    }
    assert_int_equal(write(gate, "x", 1), 1);
    close(gate);
    const stats s = finish_child(pid, out);
    assert_int_equal(s.builds, g.builds);
    char text[64];
    read_text(secret, text, sizeof text);
    assert_string_equal(text, "private\n");
    /* The links at the final names were replaced by the cache's own files. */
    for (int i = 0; i < n; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        struct stat sb;
        assert_int_equal(lstat(p, &sb), 0);
        assert_true(S_ISREG(sb.st_mode));
    }
    const stats again = run_child(dir, "run", NULL);
    assert_int_equal(again.builds, 0);
}

/* A FIFO at a cache file's name: refused at once, not waited on (the child
 * would be killed by its alarm), removed, and the file rebuilt. */
static void test_fifo_in_cache(void **state)
{
    (void)state;
    char from[300], dir[300];
    const stats g = genuine("fifo-genuine", from, sizeof from);
    char names[8][64];
    const int n = cache_names(from, names, 8);
    path_in(dir, sizeof dir, "fifo");
    assert_int_equal(mkdir(dir, 0700), 0);
    for (int i = 0; i < n; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        assert_int_equal(mkfifo(p, 0600), 0);
    }
    const time_t t0 = time(NULL);
    const stats s = run_child(dir, "run", NULL);
    assert_true(time(NULL) - t0 < 120);
    assert_int_equal(s.builds, g.builds);
    assert_int_equal(s.rejects, (unsigned long)n);
    assert_int_equal(run_child(dir, "run", NULL).builds, 0);
}

static void make_aged(const char *dir, const char *name, int minutes_old)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("partial", f);
    fclose(f);
    const struct timespec t[2] = {{time(NULL) - minutes_old * 60, 0}, {time(NULL) - minutes_old * 60, 0}};
    assert_int_equal(utimensat(AT_FDCWD, p, t, AT_SYMLINK_NOFOLLOW), 0);
}

static int exists(const char *dir, const char *name)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat sb;
    return lstat(p, &sb) == 0;
}

/* Temporaries that a killed process left are removed by the next process
 * that uses the folder, once they are old; nothing else is. */
static void test_stale_temporaries_swept(void **state)
{
    (void)state;
    char dir[300];
    genuine("stale", dir, sizeof dir);
    char names[8][64];
    cache_names(dir, names, 8);
    char old_tmp[100], old_style[100], fresh[100], link[100], theirs[100], foreign[100];
    snprintf(old_tmp, sizeof old_tmp, "%s.tmp.Q3xk9ZpL2mWa", names[0]);
    snprintf(old_style, sizeof old_style, "%s.tmp.12345.7", names[0]);
    snprintf(fresh, sizeof fresh, "%s.tmp.FreshFresh12", names[0]);
    snprintf(link, sizeof link, "%s.tmp.LinkLinkLink", names[0]);
    snprintf(theirs, sizeof theirs, "%s.tmp.TheirsTheirs", names[0]);
    snprintf(foreign, sizeof foreign, "notours.bin.tmp.1");
    make_aged(dir, old_tmp, 60);
    make_aged(dir, old_style, 60 * 24);
    make_aged(dir, fresh, 1);
    make_aged(dir, foreign, 60);
    char p[1024], target[700];
    snprintf(target, sizeof target, "%s/%s", dir, foreign);
    snprintf(p, sizeof p, "%s/%s", dir, link);
    assert_int_equal(symlink(target, p), 0);
    const struct timespec t[2] = {{time(NULL) - 3600, 0}, {time(NULL) - 3600, 0}};
    utimensat(AT_FDCWD, p, t, AT_SYMLINK_NOFOLLOW);
    const int other = other_user_available();
    if (other) {
        make_aged(dir, theirs, 60);
        snprintf(p, sizeof p, "%s/%s", dir, theirs);
        assert_true(chown_to_other(p));
    }
    const stats s = run_child(dir, "run", NULL);
    assert_int_equal(s.builds, 0);
    assert_false(exists(dir, old_tmp));
    assert_false(exists(dir, old_style));
    assert_true(exists(dir, fresh));
    assert_true(exists(dir, link));
    assert_true(exists(dir, foreign));
    if (other)
        assert_true(exists(dir, theirs));
}

/* Each file holds the binary of the next file whose program has other
 * kernels, with its own program's kernel names and a valid header: the
 * driver loads it, but its kernels are not the program's (every call would
 * fail with CL_INVALID_KERNEL_NAME). It is evicted and rebuilt, and the
 * call succeeds. (Two builds of one kernel, a class's set and the set for
 * every shape, have the same names: telling their binaries apart takes the
 * driver's format, and only the cache's owner can swap them.) */
static void test_binary_of_another_program(void **state)
{
    (void)state;
    char dir[300];
    const stats g = genuine("swapped", dir, sizeof dir);
    char names[8][64];
    const int n = cache_names(dir, names, 8);
    cache_file f[8];
    for (int i = 0; i < n; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        cf_read(p, &f[i]);
    }
    for (int i = 0; i < n; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        int next = (i + 1) % n;
        while (next != i && f[next].names_len == f[i].names_len &&
               memcmp(f[next].names, f[i].names, f[i].names_len) == 0)
            next = (next + 1) % n;
        assert_int_not_equal(next, i);
        cache_file w = f[i];
        w.bin = f[next].bin;
        w.bin_len = f[next].bin_len;
        cf_write(p, &w);
    }
    for (int i = 0; i < n; ++i)
        cf_free(&f[i]);
    /* Without LeakSanitizer's check at exit under the sanitizers: its
     * tracer crashed there ("Tracer caught signal 11", inside the
     * sanitizer) after PoCL had loaded these binaries, as at test_batched's
     * and the bench's exits (.ci/extra); the rejections' own leaks are
     * checked where the other files are refused. */
    const char *no_leak_check[] = {"ASAN_OPTIONS", "detect_leaks=0:use_sigaltstack=0", NULL};
    const stats s = run_child(dir, "run", no_leak_check);
    assert_int_equal(s.builds, g.builds);
    assert_int_equal(s.rejects, g.builds);
    const stats again = run_child(dir, "run", no_leak_check);
    assert_int_equal(again.builds, 0);
    assert_int_equal(again.rejects, 0);
}

/* Half of each binary under a valid header. PoCL crashes inside
 * clCreateProgramWithBinary on it, which no check of the library can
 * prevent short of parsing the driver's format; what the library ensures
 * is that a process that dies there leaves the file set aside, so that
 * every run does not crash: within one run per file the cache is whole
 * again, and the results are right. (A driver that refuses the binary
 * instead makes the first run succeed.) */
static void test_half_binary(void **state)
{
    (void)state;
    char dir[300];
    const stats g = genuine("half", dir, sizeof dir);
    each_file(dir, half_binary);
    int runs = 0, ok = 0;
    while (!ok && runs <= (int)g.builds) {
        int fd;
        stats s;
        const pid_t pid = start_child(dir, "run", NULL, &fd);
        const int status = wait_child(pid, fd, &s);
        ++runs;
        ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        /* Killed by a signal, or status 1: AddressSanitizer's report of the driver's crash. The
         * child's own failures (an error, wrong results) have statuses from 3 up. */
        if (!ok && WIFEXITED(status) && WEXITSTATUS(status) != 1)
            fail_msg("run %d: the child failed with status %d (wrong results or an error)", runs,
                     WEXITSTATUS(status));
    }
    if (!ok)
        fail_msg("still crashing after %d runs", runs);
    const stats again = run_child(dir, "run", NULL);
    assert_int_equal(again.builds, 0);
    assert_int_equal(again.rejects, 0);
    print_message("half binaries: healed after %d run(s)\n", runs);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--child") == 0)
        return child(argv[2]);
    if (!mkdtemp(root))
        return 1;
    /* Traversable, so that another user can reach the folders made for it. */
    chmod(root, 0711);
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
        cmocka_unit_test(test_folder_of_another_user),  cmocka_unit_test(test_folder_writable_by_others),
        cmocka_unit_test(test_file_of_another_user),    cmocka_unit_test(test_file_writable_by_others),
        cmocka_unit_test(test_private_modes),           cmocka_unit_test(test_links_at_temporary_names),
        cmocka_unit_test(test_fifo_in_cache),           cmocka_unit_test(test_stale_temporaries_swept),
        cmocka_unit_test(test_binary_of_another_program), cmocka_unit_test(test_half_binary),
    };
    const int rc = cmocka_run_group_tests_name("cache", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
