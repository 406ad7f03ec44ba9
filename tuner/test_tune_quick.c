/*
 * The path of a user whose device nobody tuned: `oclblas-tune --quick`
 * on the default device (PoCL on CI) picks the time budget of the device's
 * type, prints its progress with the time the run has left, and writes an
 * entry that a fresh process loads through OCLBLAS_DATABASE, reports as
 * the origin of the parameters it tuned, and computes correct SGEMMs with.
 * The run is cut short by a configuration budget (-n) so that the test
 * takes a minute, not the quick run's eight: what is asserted is the path,
 * not the quality of the entry. This process touches the library only
 * after the run, so OCLBLAS_DATABASE, set then, is read as a user's
 * program reads it.
 */
#include "kernels/gemm_fast.h"
#include "measure.h"
#include "test_spawn.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static char dir[] = "/tmp/oclblas-tune-quick-XXXXXX";

static void test_quick_entry_is_used(void **state)
{
    (void)state;
    assert_int_equal(spawn_folder_make(dir, 1), 0);
    char entry[300];
    snprintf(entry, sizeof entry, "%s/my-device.json", dir);
    const double t0 = tune_now();
    assert_int_equal(spawn_tune("--quick", "-n", "2", "-k", "gemm_fast,gemv_n", "--no-classes", "--size",
                                "gemm_fast=256x256x256", "--size", "gemv_n=1024x1024", "--runs", "1", "-o", entry,
                                NULL),
                     0);
    print_message("quick run cut to two candidates a kernel: %.1f s\n", tune_now() - t0);
    /* The progress with the whole run's time left, a checked entry (the budget, by the device's type, below). */
    assert_log("/2 done");
    assert_log("; run ~");
    assert_log("entry checked");

    /* A user's program: the entry through OCLBLAS_DATABASE, nothing else. */
    assert_int_equal(setenv("OCLBLAS_DATABASE", entry, 1), 0);
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    assert_int_equal(oclblas_default_device(&dev, &ctx, &q), OCLBLAS_SUCCESS);
    cl_device_type type = 0;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_log(type & CL_DEVICE_TYPE_CPU ? "quick run: 480 s of tuning (a CPU's)" : "quick run: 210 s of tuning (a GPU's)");
    char *text = spawn_slurp(entry);
    assert_non_null(text);
    oclblas__db_entry *e;
    size_t count;
    char err[256];
    assert_int_equal(oclblas__db_parse(text, strlen(text), entry, &e, &count, err, sizeof err), OCLBLAS_SUCCESS);
    free(text);
    assert_int_equal(count, 1);
    assert_int_equal(e->has, (1u << OCLBLAS__K_GEMM_FAST) | (1u << OCLBLAS__K_GEMV_N));
    static const int tuned[] = {OCLBLAS__K_GEMM_FAST, OCLBLAS__K_GEMV_N};
    for (int i = 0; i < 2; ++i) {
        const int k = tuned[i];
        char buf[1600], want[512];
        assert_int_equal(oclblas_get_params(dev, oclblas__kernels[k]->name, buf, sizeof buf), OCLBLAS_SUCCESS);
        oclblas__params p;
        memcpy(p.v, e->values[k], sizeof p.v);
        oclblas__params_format(k, &p, want, sizeof want);
        assert_memory_equal(buf, want, strlen(want));
        if (!strstr(buf, entry))
            fail_msg("%s's parameters come from \"%s\", not from %s", oclblas__kernels[k]->name, buf, entry);
    }
    /* SGEMM with the entry's gemm_fast: in place (multiples of its tile) and padded. */
    const size_t mwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_MWG], nwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_NWG],
                 kwg = (size_t)e->values[OCLBLAS__K_GEMM_FAST][GF_KWG];
    spawn_check_gemm(ctx, q, OCLBLAS_NO_TRANS, 4 * mwg, 4 * nwg, 16 * kwg);
    spawn_check_gemm(ctx, q, OCLBLAS_NO_TRANS, 4 * mwg + 13, 4 * nwg - 5, 16 * kwg + 3);
    free(e);
    assert_int_equal(spawn_folder_remove(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_quick_entry_is_used)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
