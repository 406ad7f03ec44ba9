/*
 * oclblas-bench in the test suite: a tiny sweep whose CSV must have the
 * documented columns, a row per library that took part and none for a peer
 * that is absent (cuBLAS without a CUDA device, any peer left out with
 * --peers), and oclblas results that agree with OpenBLAS; the JSON file must
 * be well-formed.
 */
#include "testutil.h"
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COLUMNS "routine,layout,trans_a,trans_b,m,n,k,alpha,beta,library,device_ms,wall_ms,rate,unit," \
                "ratio_oclblas_to_lib,max_rel_diff,device"

typedef struct {
    int rows, libs[8];
} csv_summary;

static const char *const libs[] = {"oclblas", "oclblas-host", "openblas", "clblast", "cublas"};

/* Runs the bench; *cuda tells whether its header line named a CUDA device. */
static int run_bench(const char *args, const char *csv, const char *json, int *cuda)
{
    char out[80], cmd[1024];
    snprintf(out, sizeof out, "%s.out", csv);
    snprintf(cmd, sizeof cmd, "'%s' --quiet --reps 2 %s --csv %s%s%s > %s", OCLBLAS_BENCH_PATH, args, csv,
             json ? " --json " : "", json ? json : "", out);
    const int rc = system(cmd);
    FILE *f = fopen(out, "r");
    char line[1024] = "";
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    unlink(out);
    *cuda = strstr(line, "CUDA device") != NULL;
    return rc;
}

static csv_summary check_csv(const char *path)
{
    csv_summary s = {0, {0}};
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[2048];
    assert_non_null(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = '\0';
    assert_string_equal(line, COLUMNS);
    while (fgets(line, sizeof line, f)) {
        char *field[17];
        int nf = 0;
        for (char *p = strtok(line, ",\n"); p && nf < 17; p = strtok(NULL, ",\n"))
            field[nf++] = p;
        assert_int_equal(nf, 17);
        int lib = -1;
        for (int i = 0; i < 5; ++i)
            if (strcmp(field[9], libs[i]) == 0)
                lib = i;
        if (lib < 0)
            fail_msg("unknown library %s", field[9]);
        ++s.libs[lib];
        ++s.rows;
        assert_true(atof(field[12]) > 0.0);                       /* rate */
        assert_true(strcmp(field[13], "GFLOPS") == 0 || strcmp(field[13], "GB/s") == 0);
        if (lib == 0)
            assert_true(atof(field[15]) < 1e-4); /* max_rel_diff against OpenBLAS */
    }
    fclose(f);
    return s;
}

static void test_tiny_sweep(void **state)
{
    (void)state;
    char csv[] = "/tmp/oclblas-test-bench-XXXXXX";
    int fd = mkstemp(csv);
    close(fd);
    char json[64];
    snprintf(json, sizeof json, "%s.json", csv);
    int cuda;
    assert_int_equal(
        run_bench("--sizes 64,96 --routine all --layout both --peers openblas,clblast,cublas", csv, json, &cuda), 0);
    csv_summary s = check_csv(csv);
    /* 2 sizes x 2 routines x 2 layouts, each with oclblas and OpenBLAS */
    assert_int_equal(s.libs[0], 8);
    assert_int_equal(s.libs[2], 8);
    assert_true(s.libs[3] == 0 || s.libs[3] == 8);
    /* cuBLAS rows exactly when the run found a CUDA device. */
    assert_int_equal(s.libs[4], cuda ? 8 : 0);
    FILE *f = fopen(json, "r");
    assert_non_null(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char err[200];
    oclblas__json *doc = oclblas__json_parse(text, n, err, sizeof err);
    if (!doc)
        fail_msg("bench JSON: %s", err);
    const oclblas__json *results = oclblas__json_get(doc, "results");
    assert_non_null(results);
    int count = 0;
    for (const oclblas__json *r = results->child; r; r = r->next)
        ++count;
    assert_int_equal(count, s.rows);
    oclblas__json_free(doc);
    unlink(csv);
    unlink(json);
}

static void test_absent_peers(void **state)
{
    (void)state;
    char csv[] = "/tmp/oclblas-test-bench-XXXXXX";
    int fd = mkstemp(csv);
    close(fd);
    int cuda;
    assert_int_equal(run_bench("--sizes 48 --routine gemm --peers none --host", csv, NULL, &cuda), 0);
    csv_summary s = check_csv(csv);
    assert_int_equal(s.rows, 2);
    assert_int_equal(s.libs[0], 1);
    assert_int_equal(s.libs[1], 1); /* the host-pointer API, asked for with --host */
    unlink(csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_tiny_sweep), cmocka_unit_test(test_absent_peers)};
    return cmocka_run_group_tests_name("bench", tests, NULL, NULL);
}
