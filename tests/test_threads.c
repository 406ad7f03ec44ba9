/*
 * Thread safety: every public function may be called from several threads
 * at once. Threads run the host-pointer API, device-buffer calls on the
 * shared default queue and on queues of their own, parameter queries, and
 * one thread keeps switching gemm_fast's parameters between two legal sets
 * with overrides while the others compute; every result must still match
 * OpenBLAS.
 */
#include "testutil.h"

#include <pthread.h>
#include <string.h>

enum { THREADS = 6, ROUNDS = 4 };

typedef struct {
    int id;
    double worst;
    int failed_status;
    volatile int *stop;
} arg;

static const char *const sets[2] = {
    "MWG=32,NWG=32,KWG=16,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=2,VWM=4,VWN=4,STRM=1,STRN=1,SA=1,SB=1",
    "MWG=16,NWG=32,KWG=8,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,KWI=1,VWM=2,VWN=1,STRM=0,STRN=1,SA=0,SB=1",
};

static void *switcher(void *p)
{
    arg *a = p;
    tu_env env;
    tu_get_env(&env);
    for (int i = 0; !*a->stop; ++i) {
        oclblas_status st = oclblas_override_params(env.device, "gemm_fast", sets[i % 2]);
        char buf[1024];
        if (st == OCLBLAS_SUCCESS)
            st = oclblas_get_params(env.device, "gemm_fast", buf, sizeof buf);
        if (st != OCLBLAS_SUCCESS)
            a->failed_status = st;
    }
    return NULL;
}

static void *worker(void *p)
{
    arg *a = p;
    tu_env env;
    tu_get_env(&env);
    const int own_queue = a->id % 3 == 2;
    if (own_queue) {
        cl_int err;
        env.queue = clCreateCommandQueue(env.context, env.device, 0, &err);
    }
    for (int r = 0; r < ROUNDS; ++r) {
        const size_t m = 40 + 37 * (size_t)a->id, n = 90 + 13 * (size_t)r, k = 150;
        double e[4];
        e[0] = tu_gemm_case(&env, 1, r % 2 ? OCLBLAS_ROW_MAJOR : OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, OCLBLAS_TRANS, m,
                            n, k, 1.0f, 0.25f, 1, 0, 0, 0, (unsigned)(a->id * 100 + r));
        e[1] = tu_gemm_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_TRANS, OCLBLAS_NO_TRANS, m, n, k, -1.0f, 0.0f, 2, 3, 1,
                            2, (unsigned)(a->id * 100 + r + 50));
        e[2] = tu_gemv_case(&env, 1, OCLBLAS_ROW_MAJOR, r % 2 ? OCLBLAS_TRANS : OCLBLAS_NO_TRANS, m * 3, n, 1.0f, 1.0f,
                            0, 1, -2, 0, 0, 0, (unsigned)r);
        e[3] = tu_gemv_case(&env, 0, OCLBLAS_COL_MAJOR, OCLBLAS_NO_TRANS, n, m * 5, 0.5f, 0.0f, 1, 2, 1, 1, 1, 1,
                            (unsigned)r);
        for (int i = 0; i < 4; ++i)
            a->worst = e[i] > a->worst ? e[i] : a->worst;
        char desc[1024];
        oclblas_cache_stats s;
        oclblas_status st = oclblas_device_description(env.device, desc, sizeof desc);
        if (st == OCLBLAS_SUCCESS)
            st = oclblas_cache_get_stats(&s);
        if (st == OCLBLAS_SUCCESS)
            st = oclblas_default_device(NULL, NULL, NULL);
        if (st != OCLBLAS_SUCCESS)
            a->failed_status = st;
    }
    if (own_queue)
        clReleaseCommandQueue(env.queue);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    tu_env env;
    tu_get_env(&env);
    /* Both sets are used by gemm_fast for every product here. */
    TU_CHECK(oclblas_override_params(env.device, "routine", "GEMM_MIN_INDIRECT=0"));
    volatile int stop = 0;
    pthread_t t[THREADS + 1];
    arg a[THREADS + 1];
    for (int i = 0; i <= THREADS; ++i) {
        a[i] = (arg){i, 0.0, 0, &stop};
        pthread_create(&t[i], NULL, i == THREADS ? switcher : worker, &a[i]);
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    stop = 1;
    pthread_join(t[THREADS], NULL);
    TU_CHECK(oclblas_override_params(env.device, "routine", NULL));
    TU_CHECK(oclblas_override_params(env.device, "gemm_fast", NULL));
    for (int i = 0; i <= THREADS; ++i) {
        if (a[i].failed_status)
            fail_msg("thread %d: %s", i, oclblas_status_string(a[i].failed_status));
        if (a[i].worst > 1.0)
            fail_msg("thread %d: error %.3g x bound", i, a[i].worst);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_threads)};
    return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
