/*
 * The search space never yields an illegal configuration: listing matches
 * a brute-force decode-and-check of every combination, for every kernel
 * and several device limits; neighbours are legal and differ in exactly the
 * parameters they should; every configuration every strategy proposes, on
 * every kernel, under tight limits where most combinations are illegal,
 * passes oclblas__params_legal; --values restrictions are parsed strictly
 * and respected. Also prints what listing gemm_fast's space costs.
 */
#include "kernels/gemm_fast.h"
#include "tune.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* An NVIDIA GPU of compute capability 9.0 (gemm_tc can run there). */
static const oclblas__limits gpu = {1024, {1024, 1024, 64}, 48 * 1024, 90};
static const oclblas__limits tiny = {64, {64, 16, 1}, 4096, 0}; /* an old embedded device */

/* The compiled-in global default entry's set: the library's defaults. */
static oclblas__params global_default(int kernel)
{
    oclblas__params p = {{0}};
    for (size_t i = 0; i < oclblas__db_builtin_count; ++i) {
        const oclblas__db_entry *e = &oclblas__db_builtin[i];
        if (!e->vendor[0] && !e->type[0] && !e->arch[0] && !e->name[0])
            memcpy(p.v, e->values[kernel], sizeof p.v);
    }
    return p;
}

static void init(tune_space *s, int kernel, const oclblas__limits *lim)
{
    char err[256];
    if (!tune_space_init(s, kernel, lim, err, sizeof err))
        fail_msg("%s", err);
}

static void restrict_to(tune_space *s, const char *text)
{
    char err[256];
    if (!tune_space_restrict(s, text, err, sizeof err))
        fail_msg("%s", err);
}

static size_t brute_force(tune_space *s, const oclblas__limits *lim)
{
    size_t n = 0;
    for (uint64_t c = 0; c < s->product; ++c) {
        oclblas__params p;
        tune_space_params(s, c, &p);
        n += oclblas__params_legal(s->kernel, &p, lim, NULL);
    }
    return n;
}

static void check_listing(tune_space *s, const oclblas__limits *lim)
{
    char err[256];
    assert_true(tune_space_enumerate(s, TUNE_ENUM_LIMIT, err, sizeof err));
    assert_int_equal(s->num_legal, brute_force(s, lim));
    for (size_t i = 0; i < s->num_legal; ++i) {
        oclblas__params p;
        tune_space_params(s, s->legal[i], &p);
        assert_true(oclblas__params_legal(s->kernel, &p, lim, NULL));
        if (i)
            assert_true(s->legal[i] > s->legal[i - 1]);
    }
}

static void test_listing(void **state)
{
    (void)state;
    const oclblas__limits *lims[] = {NULL, &gpu, &tiny};
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        for (int l = 0; l < 3; ++l) {
            tune_space s;
            init(&s, k, lims[l]);
            if (k == OCLBLAS__K_GEMM_FAST) {
                /* The whole product is 26 million; brute force on a slice of it. */
                restrict_to(&s, "MWG=32,64,128");
                restrict_to(&s, "KWG=16,32");
                restrict_to(&s, "VWN=2,4");
            }
            check_listing(&s, lims[l]);
            tune_space_free(&s);
        }
    }
}

static void test_listing_cost(void **state)
{
    (void)state;
    tune_space s;
    init(&s, OCLBLAS__K_GEMM_FAST, &gpu);
    char err[256];
    const double t0 = tune_now();
    assert_true(tune_space_enumerate(&s, TUNE_ENUM_LIMIT, err, sizeof err));
    const double t = tune_now() - t0;
    print_message("gemm_fast: %llu combinations, %zu legal, listed in %.2f s\n", (unsigned long long)s.product,
                  s.num_legal, t);
    assert_int_equal(s.product, 37748736ull);
    /* A limit below the product refuses rather than running for long. */
    tune_space s2;
    init(&s2, OCLBLAS__K_GEMM_FAST, &gpu);
    assert_false(tune_space_enumerate(&s2, 1000000, err, sizeof err));
    assert_non_null(strstr(err, "--values"));
    tune_space_free(&s);
    tune_space_free(&s2);
}

static void test_neighbours(void **state)
{
    (void)state;
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        tune_space s;
        init(&s, k, &gpu);
        tune_rng r;
        tune_rng_seed(&r, (uint64_t)k + 11);
        uint64_t *buf = NULL;
        size_t cap = 0;
        for (int trial = 0; trial < 20; ++trial) {
            uint64_t c;
            assert_true(tune_space_random(&s, &r, &c));
            oclblas__params base;
            tune_space_params(&s, c, &base);
            for (int d = 1; d <= 3 && d <= s.num_params; ++d) {
                const long n = tune_space_neighbours(&s, c, d, &buf, &cap);
                assert_true(n >= 0);
                for (long i = 0; i < n; ++i) {
                    oclblas__params p;
                    tune_space_params(&s, buf[i], &p);
                    assert_true(oclblas__params_legal(k, &p, &gpu, NULL));
                    int diff = 0;
                    for (int j = 0; j < s.num_params; ++j)
                        diff += p.v[j] != base.v[j];
                    assert_int_equal(diff, d);
                    for (long m = 0; m < i; ++m)
                        assert_true(buf[m] != buf[i]);
                }
            }
        }
        free(buf);
        tune_space_free(&s);
    }
}

typedef struct {
    tune_space *s;
    const oclblas__limits *lim;
    tune_map seen;
    long proposals;
} watch;

/* A cost that depends on the configuration only, checking every proposal. */
static int watch_eval(void *ctx, const uint64_t *codes, int n, double *cost, double *charged)
{
    watch *w = ctx;
    for (int i = 0; i < n; ++i) {
        oclblas__params p;
        tune_space_params(w->s, codes[i], &p);
        const char *why = NULL;
        if (!oclblas__params_legal(w->s->kernel, &p, w->lim, &why))
            fail_msg("%s: illegal configuration proposed (%s)", oclblas__kernels[w->s->kernel]->name, why);
        if (tune_map_get(&w->seen, codes[i], NULL))
            fail_msg("a configuration was evaluated twice");
        assert_true(tune_map_put(&w->seen, codes[i], 0));
        ++w->proposals;
        uint64_t h = codes[i] * 0x9e3779b97f4a7c15ull;
        cost[i] = 1.0 + (double)((h ^ (h >> 29)) % 1000) / 100.0;
        if (h % 17 == 0)
            cost[i] = INFINITY; /* some configurations fail to build or run */
        charged[i] = 1;
    }
    return 0;
}

static void test_strategies_stay_legal(void **state)
{
    (void)state;
    const tune_strategy_kind kinds[] = {TUNE_FULL, TUNE_RANDOM, TUNE_ANNEALING, TUNE_PSO};
    const oclblas__limits *lims[] = {&tiny, &gpu};
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
        for (int l = 0; l < 2; ++l) {
            for (int m = 0; m < 4; ++m) {
                tune_space s;
                init(&s, k, lims[l]);
                if (k == OCLBLAS__K_GEMM_FAST && kinds[m] == TUNE_FULL)
                    restrict_to(&s, "MWG=32,64"); /* full search lists the space */
                tune_strategy_opts o;
                tune_strategy_defaults(&o);
                o.kind = kinds[m];
                o.seed = (uint64_t)(k * 10 + l * 3 + m);
                o.count = 150;
                /* The global default as a seed, as the tuner passes the database's. */
                uint64_t seed;
                const oclblas__params def = global_default(k);
                const int have_seed = tune_space_nearest(&s, &def, &seed);
                char err[256];
                tune_strategy *st = tune_strategy_new(&s, &o, &seed, have_seed, err, sizeof err);
                if (!st)
                    fail_msg("%s", err);
                watch w = {&s, lims[l], {0}, 0};
                tune_budget b = {150, 0};
                tune_outcome out;
                assert_true(tune_search(&s, st, &b, watch_eval, &w, NULL, NULL, &out));
                /* A kernel the device cannot run (gemm_tc off NVIDIA) has nothing to propose. */
                const oclblas__kernel_desc *kd = oclblas__kernels[k];
                if (kd->capable && kd->capable(lims[l])) {
                    assert_int_equal(w.proposals, 0);
                    tune_strategy_free(st);
                    tune_map_free(&w.seen);
                    tune_space_free(&s);
                    continue;
                }
                assert_true(w.proposals > 0);
                assert_int_equal(out.evaluated, w.proposals);
                if (have_seed) {
                    /* Seeds are measured first. */
                    double v;
                    assert_true(tune_map_get(&w.seen, seed, &v));
                }
                tune_strategy_free(st);
                tune_map_free(&w.seen);
                tune_space_free(&s);
            }
        }
    }
}

/* On a tiny space the guided strategies end when everything was measured. */
static void test_exhaust_small_space(void **state)
{
    (void)state;
    const tune_strategy_kind kinds[] = {TUNE_ANNEALING, TUNE_PSO, TUNE_RANDOM};
    for (int m = 0; m < 3; ++m) {
        tune_space s;
        init(&s, OCLBLAS__K_GEMV_T, &gpu);
        restrict_to(&s, "WGS=64,128");
        restrict_to(&s, "VW=1,4");
        char err[256];
        assert_true(tune_space_enumerate(&s, TUNE_ENUM_LIMIT, err, sizeof err));
        tune_strategy_opts o;
        tune_strategy_defaults(&o);
        o.kind = kinds[m];
        o.count = 1000;
        tune_strategy *st = tune_strategy_new(&s, &o, NULL, 0, err, sizeof err);
        watch w = {&s, &gpu, {0}, 0};
        tune_budget b = {0, 0};
        tune_outcome out;
        assert_true(tune_search(&s, st, &b, watch_eval, &w, NULL, NULL, &out));
        assert_int_equal(out.evaluated, (long)s.num_legal);
        assert_int_equal(out.stop, TUNE_STOP_EXHAUSTED);
        tune_strategy_free(st);
        tune_map_free(&w.seen);
        tune_space_free(&s);
    }
}

static void test_restrict(void **state)
{
    (void)state;
    tune_space s;
    init(&s, OCLBLAS__K_GEMM_FAST, &gpu);
    char err[256];
    assert_false(tune_space_restrict(&s, "MWG", err, sizeof err));
    assert_false(tune_space_restrict(&s, "NOPE=1", err, sizeof err));
    assert_non_null(strstr(err, "no parameter NOPE"));
    assert_false(tune_space_restrict(&s, "MWG=64,,128", err, sizeof err));
    assert_false(tune_space_restrict(&s, "MWG=64,x", err, sizeof err));
    assert_false(tune_space_restrict(&s, "MWG=0", err, sizeof err)); /* below the legal range */
    assert_false(tune_space_restrict(&s, "SA=2", err, sizeof err));
    assert_false(tune_space_restrict(&s, "MWG=", err, sizeof err));
    assert_int_equal(s.product, 37748736ull); /* refusals change nothing */

    /* Values outside the table's candidates but in range are accepted. */
    restrict_to(&s, "MWG=128,96,128");
    assert_int_equal(s.num_values[GF_MWG], 2);
    assert_int_equal(s.values[GF_MWG][0], 96);
    restrict_to(&s, "SA=1");
    restrict_to(&s, "SB=1");
    restrict_to(&s, "KWG=16");
    assert_true(tune_space_enumerate(&s, TUNE_ENUM_LIMIT, err, sizeof err));
    assert_true(s.num_legal > 0);
    for (size_t i = 0; i < s.num_legal; ++i) {
        oclblas__params p;
        tune_space_params(&s, s.legal[i], &p);
        assert_true(p.v[GF_MWG] == 96 || p.v[GF_MWG] == 128);
        assert_true(p.v[GF_SA] == 1 && p.v[GF_SB] == 1 && p.v[GF_KWG] == 16);
    }
    /* The nearest configuration of the space to one outside it. */
    oclblas__params want = {{0}};
    assert_int_equal(oclblas__params_parse(OCLBLAS__K_GEMM_FAST,
                                           "MWG=120,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MDIMA=32,NDIMB=32,KWI=8,VWM=4,"
                                           "VWN=4,STRM=1,STRN=1,SA=1,SB=1",
                                           &want, NULL),
                     OCLBLAS_SUCCESS);
    uint64_t c;
    assert_true(tune_space_nearest(&s, &want, &c));
    oclblas__params got;
    tune_space_params(&s, c, &got);
    assert_int_equal(got.v[GF_MWG], 128);
    assert_int_equal(got.v[GF_KWG], 16);
    tune_space_free(&s);

    /* A restriction that leaves nothing legal: no random configuration, no crash. */
    init(&s, OCLBLAS__K_GEMM_FAST, &gpu);
    restrict_to(&s, "MWG=16");
    restrict_to(&s, "MDIMC=32");
    tune_rng r;
    tune_rng_seed(&r, 1);
    assert_false(tune_space_random(&s, &r, &c));
    tune_strategy_opts o;
    tune_strategy_defaults(&o);
    tune_strategy *st = tune_strategy_new(&s, &o, NULL, 0, err, sizeof err);
    assert_non_null(st);
    uint64_t out[8];
    assert_int_equal(tune_strategy_next(st, 0, out, 8), 0);
    tune_strategy_free(st);
    tune_space_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listing),     cmocka_unit_test(test_listing_cost),
        cmocka_unit_test(test_neighbours),  cmocka_unit_test(test_strategies_stay_legal),
        cmocka_unit_test(test_exhaust_small_space), cmocka_unit_test(test_restrict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
