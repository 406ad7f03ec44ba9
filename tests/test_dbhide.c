/*
 * OCLBLAS_DATABASE_HIDE, without OpenCL: devices described as the
 * compiled-in entries name them (PoCL on this machine's CPU, the H100)
 * take their sets from the level the setting leaves them, and an entry
 * loaded at run time still serves. ctest runs it once per value; the first
 * argument is the value the process was started with ("none": unset).
 */
#include "db/db.h"
#include "kernels/kernel.h"
#include "util/util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static const char *mode = "none";

static oclblas__device_info device(const char *vendor, const char *type, const char *arch, const char *name)
{
    oclblas__device_info d;
    memset(&d, 0, sizeof d);
    oclblas__strlcpy(d.vendor, vendor, sizeof d.vendor);
    oclblas__strlcpy(d.type, type, sizeof d.type);
    oclblas__strlcpy(d.arch, arch, sizeof d.arch);
    oclblas__strlcpy(d.name, name, sizeof d.name);
    d.compute_units = 2;
    d.max_alloc = 1u << 30;
    d.lim = (oclblas__limits){4096, {4096, 4096, 4096}, 64 * 1024, 0};
    return d;
}

/* The level gemm_fast's set for every shape comes from, as the lookup words it. */
static void assert_from(const oclblas__device_info *d, const char *level)
{
    oclblas__params p;
    char from[512];
    assert_int_equal(oclblas__db_lookup(d, oclblas__kernel_by_name("gemm_fast"), &p, from, sizeof from), OCLBLAS_SUCCESS);
    if (!strstr(from, level))
        fail_msg("OCLBLAS_DATABASE_HIDE=%s, %s: gemm_fast from \"%s\", expected a %s", mode, d->name, from, level);
}

static void test_levels(void **state)
{
    (void)state;
    const oclblas__device_info pocl = device("pocl", "CPU", "skylake-avx512", "pthread-skylake-avx512-AMD EPYC");
    const oclblas__device_info h100 = device("nvidia", "GPU", "SM9.0", "NVIDIA H100 80GB HBM3");
    const int device_hidden = strcmp(mode, "none") != 0, vendor_hidden = strcmp(mode, "vendor") == 0;
    assert_int_equal(oclblas__db_hidden_levels(), vendor_hidden ? 3 : device_hidden ? 2 : 0); /* what the tuner reads */
    assert_from(&pocl, !device_hidden ? "(device name match)" : !vendor_hidden ? "(vendor match)" : "(device type match)");
    assert_from(&h100, !device_hidden ? "(device name match)" : "(device type match)");
}

static void test_loaded_entry_serves(void **state)
{
    (void)state;
    char path[] = "/tmp/oclblas-dbhide-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char entry[] =
        "{\"format\": \"oclblas-database-1\", \"device\": {\"vendor\": \"pocl\", \"type\": \"CPU\", "
        "\"architecture\": \"skylake-avx512\", \"name\": \"pthread-skylake-avx512-AMD EPYC\"}, "
        "\"tuned\": {\"tool\": \"test\", \"date\": \"2026-11-26\", \"sizes\": \"none\"}, \"parameters\": {\"gemm_fast\": "
        "{\"MWG\": 32, \"NWG\": 32, \"KWG\": 16, \"MDIMC\": 8, \"NDIMC\": 8, \"MDIMA\": 8, \"NDIMB\": 8, \"KWI\": 2, "
        "\"VWM\": 4, \"VWN\": 4, \"STRM\": 0, \"STRN\": 0, \"SA\": 0, \"SB\": 0}}}";
    assert_int_equal(write(fd, entry, sizeof entry - 1), (ssize_t)(sizeof entry - 1));
    close(fd);
    assert_int_equal(oclblas_database_load(path), OCLBLAS_SUCCESS);
    unlink(path);
    const oclblas__device_info pocl = device("pocl", "CPU", "skylake-avx512", "pthread-skylake-avx512-AMD EPYC");
    assert_from(&pocl, "(device name match)");
    oclblas__params p;
    assert_int_equal(oclblas__db_lookup(&pocl, oclblas__kernel_by_name("gemm_fast"), &p, NULL, 0), OCLBLAS_SUCCESS);
    assert_int_equal(p.v[0], 32); /* MWG: the loaded entry's, not a compiled-in one's */
}

int main(int argc, char **argv)
{
    if (argc > 1)
        mode = argv[1];
    const char *env = getenv("OCLBLAS_DATABASE_HIDE");
    if (strcmp(mode, env && *env ? env : "none") != 0) {
        fprintf(stderr, "test_dbhide: started for %s, but OCLBLAS_DATABASE_HIDE is %s\n", mode, env ? env : "unset");
        return 1;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_levels), cmocka_unit_test(test_loaded_entry_serves)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
