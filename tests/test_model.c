/*
 * The cost model of device-buffer plans and its facts, without any OpenCL
 * device (ctest runs this with no OpenCL platform visible): the time of a
 * kernel (the busiest compute unit's share of the work-groups in whole
 * waves of the groups it holds at once, a last partial wave costing a full
 * one; one work-group's chain of work when groups are few), the time of a plan (launches, bytes, kernel), which
 * facts are usable; the database's "model", "rates" and "resident" (units, where they
 * may stand, what is refused with a message naming the cause) and how a
 * device's context gets them (the most specific entry's facts, each set's
 * rate, none after an override or for the tuner's candidate).
 */
#include "dbtest.h"
#include "db/db.h"
#include "plan/context.h"
#include "plan/model.h"
#include "util/util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

/* An H200-like device: 132 units, a call 16 us, each further kernel 8 us,
 * 3 TB/s, 2.5 GFLOPS a work-item alone, 1 GFLOPS in a full unit. */
static const oclblas__model_device gpu = {16e-6, 8e-6, 3e12, 2.5e9, 1e9, 132, 0, 0, 0};

static void assert_near(double got, double want)
{
    if (fabs(got - want) > 1e-9 * fabs(want) + 1e-15)
        fail_msg("%.12g, expected %.12g", got, want);
}

/* ---- the model ---------------------------------------------------------------- */

static void test_kernel_time(void **state)
{
    (void)state;
    /* Throughput: 2 groups per unit at the unit's share of 48 TFLOPS. */
    const double per_unit_rate = 48e12 / 132, gf = 2.0 * 128 * 64 * 4096;
    oclblas__model_kernel k = {264, 256, gf, 48e12, 0, 0, 0};
    assert_near(oclblas__model_kernel_s(&gpu, &k), 2 * gf / per_unit_rate);
    /* One group more than two waves: the busiest unit runs three. */
    k.groups = 265;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 3 * gf / per_unit_rate);
    /* A few groups of few work-items: each group's own chain decides. */
    k.groups = 8;
    k.items = 64;
    assert_near(oclblas__model_kernel_s(&gpu, &k), gf / (64 * 2.5e9));
    /* More work-items per group shorten the chain until the unit's rate bounds it. */
    k.items = 1024;
    assert_near(oclblas__model_kernel_s(&gpu, &k), gf / per_unit_rate);
    /* 64 work-items a group at 48 TFLOPS: 6 groups a unit at once. 1128
     * groups are 8.5 a unit but two waves of 6: as 12. Up to one wave,
     * the groups a unit holds share its rate. */
    k.items = 64;
    k.groups = 1128;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 12 * gf / per_unit_rate);
    k.groups = 792;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 6 * gf / per_unit_rate);
    k.groups = 793;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 12 * gf / per_unit_rate);
    /* Nothing to compute, no rate. */
    k.groups = 0;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 0);
    k.groups = 8;
    k.rate = 0;
    assert_true(isinf(oclblas__model_kernel_s(&gpu, &k)));
}

/* A kernel at a share of its set's rate (reading operands along k): every
 * group slower by it, both bounds, but a unit holds as many groups as the
 * set allows (6 of 64 work-items at 48 TFLOPS), not fewer. */
static void test_kernel_share(void **state)
{
    (void)state;
    const double per_unit_rate = 48e12 / 132, gf = 2.0 * 128 * 64 * 1024;
    oclblas__model_kernel k = {792, 64, gf, 48e12, 0.5, 0, 0};
    assert_near(oclblas__model_kernel_s(&gpu, &k), 6 * gf / (0.5 * per_unit_rate));
    /* At 24 TFLOPS the set itself would hold 3 a unit: two waves of 3. */
    const oclblas__model_kernel slower_set = {792, 64, gf, 24e12, 0, 0, 0};
    assert_near(oclblas__model_kernel_s(&gpu, &slower_set), 6 * gf / (0.5 * per_unit_rate));
    k.groups = 400; /* past one wave of the slower set's 396, within the set's 792 */
    assert_near(oclblas__model_kernel_s(&gpu, &k), 4 * gf / (0.5 * per_unit_rate));
    const oclblas__model_kernel slower_400 = {400, 64, gf, 24e12, 0, 0, 0};
    assert_near(oclblas__model_kernel_s(&gpu, &slower_400), 6 * gf / (0.5 * per_unit_rate));
    /* A few groups: each group's chain at the share of item_rate. */
    k.groups = 8;
    assert_near(oclblas__model_kernel_s(&gpu, &k), gf / (0.5 * 64 * 2.5e9));
}

/* Where the entry measured the groups a unit holds (its registers and
 * local memory decide), they make the waves instead of the estimate from
 * the rate: 64 work-items at 48 TFLOPS are 6 a unit estimated, 4 held
 * (254 registers each); 576 groups are then one wave of 528 and 48 more. */
static void test_kernel_resident(void **state)
{
    (void)state;
    const double per_unit_rate = 48e12 / 132, gf = 2.0 * 128 * 64 * 768;
    oclblas__model_kernel k = {576, 64, gf, 48e12, 0, 0, 0};
    assert_near(oclblas__model_kernel_s(&gpu, &k), 5 * gf / per_unit_rate); /* within one wave of 6 */
    k.resident = 4;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 8 * gf / per_unit_rate);
    k.groups = 528;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 4 * gf / per_unit_rate);
    /* More held than estimated: 256 work-items at 34 TFLOPS are 1 a unit estimated, 5 held. */
    k = (oclblas__model_kernel){660, 256, gf, 34e12, 0, 0, 0};
    assert_near(oclblas__model_kernel_s(&gpu, &k), 5 * gf / (34e12 / 132)); /* five waves of one */
    k.groups = 661;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 6 * gf / (34e12 / 132));
    k.resident = 5;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 10 * gf / (34e12 / 132)); /* one group past a wave of 5 */
    k.groups = 660;
    assert_near(oclblas__model_kernel_s(&gpu, &k), 5 * gf / (34e12 / 132));
}

/* bounds_norm joins the two bounds by their p-norm: equal bounds take
 * 2^(1/p) times either, far apart ones the larger, nearly. */
static void test_bounds_norm(void **state)
{
    (void)state;
    oclblas__model_device d = gpu;
    d.bounds_norm = 6;
    /* 132 groups of 64 work-items, one a unit: throughput gf / (48e12 / 132) and latency gf / (64 * 2.5e9). */
    const double gf = 2.0 * 128 * 64 * 1024, throughput = gf / (48e12 / 132), latency = gf / (64 * 2.5e9);
    oclblas__model_kernel k = {132, 64, gf, 48e12, 0, 0, 0};
    assert_near(oclblas__model_kernel_s(&d, &k), pow(pow(throughput, 6) + pow(latency, 6), 1.0 / 6));
    /* The same rates where the latency equals the throughput: 2^(1/6) times either. */
    k.rate = 132 * 64 * 2.5e9;
    assert_near(oclblas__model_kernel_s(&d, &k), pow(2, 1.0 / 6) * latency);
    assert_near(oclblas__model_kernel_s(&gpu, &k), latency); /* no norm: the larger */
    /* Many waves: the throughput, the latency a rounding error beside it. */
    k = (oclblas__model_kernel){132 * 6 * 40, 64, gf, 48e12, 0, 0, 0};
    const double many = oclblas__model_kernel_s(&gpu, &k);
    assert_true(oclblas__model_kernel_s(&d, &k) >= many && oclblas__model_kernel_s(&d, &k) < 1.0001 * many);
    /* Huge bounds do not overflow the powers. */
    d.bounds_norm = 64;
    k = (oclblas__model_kernel){132, 64, 1e30, 1.0, 0, 0, 0};
    assert_true(isfinite(oclblas__model_kernel_s(&d, &k)));
}

/* A kernel that waits for its loads at each step along k: each group's
 * chain grows by the waits; where the units' throughput decides, the
 * waits of the groups a unit holds hide behind each other's work. */
static void test_kernel_waits(void **state)
{
    (void)state;
    oclblas__model_device d = gpu;
    d.step_wait_s = 0.7e-6;
    const double gf = 2.0 * 32 * 32 * 768;
    /* 96 groups, one a unit: the chain, 48 steps of waiting and the multiply-adds. */
    oclblas__model_kernel k = {96, 128, gf, 14e12, 0, 48, 0};
    assert_near(oclblas__model_kernel_s(&d, &k), gf / (128 * 2.5e9) + 48 * 0.7e-6);
    /* Without the wait, or for a kernel that fetches ahead (no waiting steps), the units' throughput. */
    const double throughput = gf / (14e12 / 132);
    assert_near(oclblas__model_kernel_s(&gpu, &k), throughput);
    k.waiting_steps = 0;
    assert_near(oclblas__model_kernel_s(&d, &k), throughput);
    /* Many waves: the throughput, whatever the waits. */
    k = (oclblas__model_kernel){132 * 40, 128, gf, 14e12, 0, 48, 0};
    assert_near(oclblas__model_kernel_s(&d, &k), 40 * throughput);
}

static void test_plan_time(void **state)
{
    (void)state;
    const oclblas__model_kernel k = {132, 256, 2.0 * 64 * 64 * 512, 34e12, 0, 0, 0};
    const double kt = oclblas__model_kernel_s(&gpu, &k);
    oclblas__model_plan p = {1, 0, k};
    assert_near(oclblas__model_plan_s(&gpu, &p), 16e-6 + kt);
    /* A pad before it and a sum after it: two launches more and their bytes. */
    p.kernels = 3;
    p.bytes = 6e6;
    assert_near(oclblas__model_plan_s(&gpu, &p), 16e-6 + 2 * 8e-6 + 6e6 / 3e12 + kt);
    /* More launches always cost more: a copy is never free. */
    oclblas__model_plan q = p;
    q.kernels = 4;
    assert_true(oclblas__model_plan_s(&gpu, &q) > oclblas__model_plan_s(&gpu, &p));
}

static void test_valid(void **state)
{
    (void)state;
    assert_true(oclblas__model_valid(&gpu));
    /* The facts of gpu, each with one of them out of range. */
    enum { BROKEN = 11 };
    oclblas__model_device broken[BROKEN];
    for (int i = 0; i < BROKEN; ++i)
        broken[i] = gpu;
    broken[0].compute_units = 0;
    broken[1].launch_s = 0;
    broken[2].bandwidth = NAN;
    broken[3].item_rate = INFINITY;
    broken[4].busy_item_rate = -1;
    broken[5] = (oclblas__model_device){0, 0, 0, 0, 0, 0, 0, 0, 0};
    broken[6].along_k_share = 1.5;
    broken[7].bounds_norm = NAN;
    broken[8].bounds_norm = -1;
    broken[9].step_wait_s = -1e-6;
    broken[10].step_wait_s = INFINITY;
    for (int i = 0; i < BROKEN; ++i)
        if (oclblas__model_valid(&broken[i]))
            fail_msg("facts %d taken for valid", i);
}

/* ---- the database's facts --------------------------------------------------------- */

#define MODEL                                                                                                  \
    "\"model\": {\"call_us\": 16, \"launch_us\": 8, \"bandwidth_gbs\": 3000, \"item_gflops\": 2.5, "        \
    "\"busy_item_gflops\": 1}"

/* An entry for a test device: its members after "parameters", and classes. */
static const char *entry(const char *name, const char *members, const char *classes)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "{\"format\": \"oclblas-database-1\",\n"
             " \"device\": {\"vendor\": \"modelvendor\", \"type\": \"ACCELERATOR\"%s%s%s},\n"
             " \"parameters\": {\"gemm_fast\": {" DBT_FAST_SET "}}%s%s%s%s%s}\n",
             name ? ", \"name\": \"" : "", name ? name : "", name ? "\"" : "", members[0] ? ",\n " : "", members,
             classes[0] ? ",\n \"classes\": [" : "", classes, classes[0] ? "]" : "");
    return text;
}

static oclblas__db_entry *parse_ok(const char *text)
{
    oclblas__db_entry *es = NULL;
    size_t n = 0;
    char err[512] = "";
    if (oclblas__db_parse(text, strlen(text), "test.json", &es, &n, err, sizeof err) != OCLBLAS_SUCCESS)
        fail_msg("refused: %s\n%s", err, text);
    assert_int_equal(n, 1);
    return es;
}

static void test_format(void **state)
{
    (void)state;
    /* Without them: no model, no rates (every entry of before). */
    oclblas__db_entry *e = parse_ok(entry("plain", "", ""));
    assert_false(e->has_model);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        assert_true(e->rates[k] == 0);
    free(e);

    /* The facts in SI units, rates in flop/s, a class's rate beside its set. */
    e = parse_ok(entry("full", "\"rates\": {\"gemm_fast\": 48300.5}, " MODEL,
                       "{\"name\": \"narrow\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_fast\": {\"NWG\": 32}},"
                       " \"rates\": {\"gemm_fast\": 39000}},"
                       "{\"name\": \"no-rate\", \"when\": \"m <= 64\", \"parameters\": {\"gemm_fast\": {\"MWG\": 32}}}"));
    assert_true(e->has_model);
    assert_near(e->model.call_s, 16e-6);
    assert_near(e->model.launch_s, 8e-6);
    assert_near(e->model.bandwidth, 3e12);
    assert_near(e->model.item_rate, 2.5e9);
    assert_near(e->model.busy_item_rate, 1e9);
    assert_true(e->model.along_k_share == 0); /* not given: not measured */
    assert_near(e->rates[OCLBLAS__K_GEMM_FAST], 48300.5e9);
    assert_true(e->rates[OCLBLAS__K_GEMM_DIRECT] == 0);
    assert_near(e->classes[0].rates[OCLBLAS__K_GEMM_FAST], 39000e9);
    assert_true(e->classes[1].rates[OCLBLAS__K_GEMM_FAST] == 0);
    free(e);

    /* The share of a set's rate left for an operand read along k, optional. */
    e = parse_ok(entry("share", "\"model\": {\"call_us\": 16, \"launch_us\": 8, \"bandwidth_gbs\": 3000, "
                                "\"item_gflops\": 2.5, \"busy_item_gflops\": 1, \"along_k_share\": 0.88}", ""));
    assert_near(e->model.along_k_share, 0.88);
    assert_true(e->model.bounds_norm == 0); /* not given: the larger bound */
    free(e);

    /* The p-norm that joins the kernel's bounds, optional. */
    e = parse_ok(entry("norm", "\"model\": {\"call_us\": 16, \"launch_us\": 8, \"bandwidth_gbs\": 3000, "
                               "\"item_gflops\": 2.5, \"busy_item_gflops\": 1, \"bounds_norm\": 6}", ""));
    assert_near(e->model.bounds_norm, 6);
    assert_true(e->model.step_wait_s == 0); /* not given: no wait */
    free(e);

    /* The wait of a step along k for its loads, optional. */
    e = parse_ok(entry("wait", "\"model\": {\"call_us\": 16, \"launch_us\": 8, \"bandwidth_gbs\": 3000, "
                               "\"item_gflops\": 2.5, \"busy_item_gflops\": 1, \"step_wait_us\": 0.7}", ""));
    assert_near(e->model.step_wait_s, 0.7e-6);
    free(e);

    /* A set's own shares along k, A then B, beside its rate, in the entry and in a class. */
    e = parse_ok(entry("along", "\"rates\": {\"gemm_fast\": 48300}, \"along_k_shares\": {\"gemm_fast\": [0.87, 0.95]}",
                       "{\"name\": \"narrow\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_fast\": {\"NWG\": 32}},"
                       " \"rates\": {\"gemm_fast\": 39000}, \"along_k_shares\": {\"gemm_fast\": [0.66, 1]}}"));
    assert_near(e->along_k[OCLBLAS__K_GEMM_FAST][0], 0.87);
    assert_near(e->along_k[OCLBLAS__K_GEMM_FAST][1], 0.95);
    assert_near(e->classes[0].along_k[OCLBLAS__K_GEMM_FAST][0], 0.66);
    assert_near(e->classes[0].along_k[OCLBLAS__K_GEMM_FAST][1], 1);
    assert_true(e->along_k[OCLBLAS__K_GEMM_DIRECT][0] == 0);
    free(e);

    /* A set's peeled program's factor, below or above 1, in the entry and in a class. */
    e = parse_ok(entry("peeled", "\"rates\": {\"gemm_fast\": 48300}, \"peeled_factors\": {\"gemm_fast\": [0.94, 1.01, 1.02]}",
                       "{\"name\": \"narrow\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_fast\": {\"NWG\": 32}},"
                       " \"peeled_factors\": {\"gemm_fast\": [1.01, 1.15, 1.12]}}"));
    assert_near(e->peeled[OCLBLAS__K_GEMM_FAST][0], 0.94);
    assert_near(e->peeled[OCLBLAS__K_GEMM_FAST][2], 1.02);
    assert_near(e->classes[0].peeled[OCLBLAS__K_GEMM_FAST][1], 1.15);
    assert_true(e->peeled[OCLBLAS__K_GEMM_DIRECT][0] == 0);
    free(e);

    /* The work-groups of a set a compute unit holds, in the entry and in a class. */
    e = parse_ok(entry("resident", "\"rates\": {\"gemm_fast\": 48300}, \"resident\": {\"gemm_fast\": 4}",
                       "{\"name\": \"narrow\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_fast\": {\"NWG\": 32}},"
                       " \"resident\": {\"gemm_fast\": 6}}"));
    assert_int_equal(e->resident[OCLBLAS__K_GEMM_FAST], 4);
    assert_int_equal(e->classes[0].resident[OCLBLAS__K_GEMM_FAST], 6);
    assert_int_equal(e->resident[OCLBLAS__K_GEMM_DIRECT], 0);
    free(e);
}

/* The facts of a model with one member more (or, where they come first, in place of one). */
#define FACTS "\"call_us\": 16, \"launch_us\": 8, \"bandwidth_gbs\": 3000, \"item_gflops\": 2.5, \"busy_item_gflops\": 1"
#define MODEL_WITH(member) "\"model\": {" FACTS ", " member "}"
#define SHARES(value) "\"along_k_shares\": {\"gemm_fast\": " value "}"
#define BAD_SHARES "expected [A, B], two shares in (0, 1], for gemm_fast"
#define PEELED(value) "\"peeled_factors\": {\"gemm_fast\": " value "}"
#define BAD_PEELED "expected [F, A, B], three factors in (0, 4], for gemm_fast"

static void test_format_refused(void **state)
{
    (void)state;
    static const struct {
        const char *members, *classes, *because;
    } refused[] = {
        {"\"rates\": {\"gemm_fastest\": 1}", "", "unknown kernel in \"rates\": gemm_fastest"},
        {"\"rates\": {\"gemm_direct\": 1}", "", "a rate without a set of parameters beside it: gemm_direct"},
        {"\"rates\": {\"gemm_fast\": 0}", "", "above 0 and at most 1e9 for gemm_fast"},
        {"\"rates\": {\"gemm_fast\": -5}", "", "above 0 and at most 1e9 for gemm_fast"},
        {"\"rates\": {\"gemm_fast\": 2e9}", "", "above 0 and at most 1e9 for gemm_fast"},
        {"\"rates\": {\"gemm_fast\": \"fast\"}", "", "above 0 and at most 1e9 for gemm_fast"},
        {"\"rates\": [1]", "", "expected an object for \"rates\""},
        {"\"model\": {\"call_us\": 16, \"launch_us\": 8, \"bandwidth_gbs\": 3000, \"busy_item_gflops\": 1}", "",
         "\"model\" without item_gflops"},
        {MODEL_WITH("\"clock_mhz\": 1980"), "", "unknown member of \"model\": clock_mhz"},
        {"\"model\": {\"call_us\": 0, \"launch_us\": 8, \"bandwidth_gbs\": 3000, \"item_gflops\": 2.5, "
         "\"busy_item_gflops\": 1}",
         "", "above 0 and at most 1e9 for call_us"},
        {"\"model\": 16", "", "expected an object for \"model\""},
        {MODEL_WITH("\"along_k_share\": 1.5"), "", "expected a share in (0, 1] for along_k_share"},
        {MODEL_WITH("\"along_k_share\": 0"), "", "expected a share in (0, 1] for along_k_share"},
        {MODEL_WITH("\"along_k_share\": \"most\""), "", "expected a share in (0, 1] for along_k_share"},
        {MODEL_WITH("\"bounds_norm\": 0.5"), "", "expected a p in [1, 64] for bounds_norm"},
        {MODEL_WITH("\"bounds_norm\": \"max\""), "", "expected a p in [1, 64] for bounds_norm"},
        {MODEL_WITH("\"step_wait_us\": -0.5"), "", "expected microseconds in [0, 1000] for step_wait_us"},
        {MODEL_WITH("\"step_wait_us\": 5000"), "", "expected microseconds in [0, 1000] for step_wait_us"},
        {MODEL_WITH("\"step_wait_us\": \"long\""), "", "expected microseconds in [0, 1000] for step_wait_us"},
        /* Shares along k: two, each in (0, 1], for a kernel that reads along k, beside its set. */
        {SHARES("[0.9]"), "", BAD_SHARES},
        {SHARES("[0.9, 0.8, 0.7]"), "", BAD_SHARES},
        {SHARES("[0, 0.8]"), "", BAD_SHARES},
        {SHARES("[0.9, 1.2]"), "", BAD_SHARES},
        {SHARES("[0.9, \"most\"]"), "", BAD_SHARES},
        {SHARES("0.9"), "", BAD_SHARES},
        {"\"along_k_shares\": [0.9, 0.9]", "", "expected an object for \"along_k_shares\""},
        {"\"along_k_shares\": {\"gemm_slow\": [0.9, 0.9]}", "", "unknown kernel in \"along_k_shares\": gemm_slow"},
        {"\"along_k_shares\": {\"gemm_direct\": [0.9, 0.9]}", "",
         "shares along k for a kernel that reads no operand along k: gemm_direct"},
        {"",
         "{\"name\": \"c\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_direct\": {\"WGD\": 16}}, " SHARES("[0.9, 0.9]")
         "}",
         "shares along k without a set of parameters beside them: gemm_fast"},
        /* Peeled factors: three, each in (0, 4], for a kernel with a peeled program, beside its set. */
        {PEELED("[0, 1, 1]"), "", BAD_PEELED},
        {PEELED("[1, 4.5, 1]"), "", BAD_PEELED},
        {PEELED("[1.1, 1]"), "", BAD_PEELED},
        {PEELED("[1.1, 1, 1, 1]"), "", BAD_PEELED},
        {PEELED("[1.1, 1, \"more\"]"), "", BAD_PEELED},
        {PEELED("1.1"), "", BAD_PEELED},
        {"\"peeled_factors\": [1.1]", "", "expected an object for \"peeled_factors\""},
        {"\"peeled_factors\": {\"gemm_cpu\": [1, 1, 1]}", "",
         "a peeled factor for a kernel without a peeled program: gemm_cpu"},
        {"",
         "{\"name\": \"c\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_direct\": {\"WGD\": 16}},"
         " " PEELED("[1, 1, 1]") "}",
         "a peeled factor without a set of parameters beside it: gemm_fast"},
        /* Work-groups held: a whole number in [1, 1024], for a set beside it. */
        {"\"resident\": {\"gemm_fast\": 0}", "", "a whole number of work-groups in [1, 1024] for gemm_fast"},
        {"\"resident\": {\"gemm_fast\": 2.5}", "", "a whole number of work-groups in [1, 1024] for gemm_fast"},
        {"\"resident\": {\"gemm_fast\": 2048}", "", "a whole number of work-groups in [1, 1024] for gemm_fast"},
        {"\"resident\": {\"gemm_fast\": \"4\"}", "", "a whole number of work-groups in [1, 1024] for gemm_fast"},
        {"\"resident\": [4]", "", "expected an object for \"resident\""},
        {"\"resident\": {\"gemm_faster\": 4}", "", "unknown kernel in \"resident\": gemm_faster"},
        {"\"resident\": {\"gemm_direct\": 4}", "",
         "work-groups held without a set of parameters beside them: gemm_direct"},
        /* A class's rate stands beside the class's own set. */
        {"",
         "{\"name\": \"c\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_fast\": {\"NWG\": 32}},"
         " \"rates\": {\"gemm_tc\": 1000}}",
         "a rate without a set of parameters beside it: gemm_tc"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i)
        dbt_refused(entry("x", refused[i].members, refused[i].classes), refused[i].because);
}

/* ---- resolution on a device ---------------------------------------------------------- */

static char dir[] = "/tmp/oclblas-test-model-XXXXXX";

static void load(const char *name, const char *text)
{
    dbt_load(dir, name, text);
}

static oclblas__device_info fake(const char *name)
{
    return dbt_device(name, "modelvendor", 24);
}

static void test_resolution(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    oclblas__device_info a = fake("model-a");
    oclblas__devctx cx;
    /* Nothing but the shipped defaults: no model, no rates. */
    assert_int_equal(oclblas__devctx_resolve(&a, &cx), OCLBLAS_SUCCESS);
    assert_false(oclblas__model_valid(&cx.model));
    assert_true(cx.rate[OCLBLAS__K_GEMM_FAST] == 0);

    /* The vendor's entry has the facts; the device's entry has the sets
     * and their rates. The facts come from the vendor's, with the device's
     * compute units; each set has its own entry's rate and shares along k. */
    load("vendor.json", entry(NULL, MODEL, ""));
    load("device.json",
         entry("model-a",
               "\"rates\": {\"gemm_fast\": 20000}, \"along_k_shares\": {\"gemm_fast\": [0.8, 0.9]},"
               " \"peeled_factors\": {\"gemm_fast\": [0.9, 1, 1.1]}, \"resident\": {\"gemm_fast\": 4}",
               "{\"name\": \"wide\", \"when\": \"n >= 4096\", \"parameters\": {\"gemm_fast\": {\"NWG\": 128}},"
               " \"rates\": {\"gemm_fast\": 15000}, \"along_k_shares\": {\"gemm_fast\": [0.7, 0.6]},"
               " \"peeled_factors\": {\"gemm_fast\": [1.2, 1.1, 1]}, \"resident\": {\"gemm_fast\": 3}}"));
    assert_int_equal(oclblas__devctx_resolve(&a, &cx), OCLBLAS_SUCCESS);
    assert_true(oclblas__model_valid(&cx.model));
    assert_int_equal(cx.model.compute_units, 24);
    assert_near(cx.model.launch_s, 8e-6);
    assert_near(cx.rate[OCLBLAS__K_GEMM_FAST], 20000e9);
    assert_int_equal(cx.num_classes[OCLBLAS__K_GEMM_FAST], 1);
    assert_near(cx.classes[OCLBLAS__K_GEMM_FAST][0].rate, 15000e9);
    assert_near(cx.along_k[OCLBLAS__K_GEMM_FAST][0], 0.8);
    assert_near(cx.along_k[OCLBLAS__K_GEMM_FAST][1], 0.9);
    assert_near(cx.classes[OCLBLAS__K_GEMM_FAST][0].along_k[0], 0.7);
    assert_near(cx.classes[OCLBLAS__K_GEMM_FAST][0].along_k[1], 0.6);
    assert_near(cx.peeled[OCLBLAS__K_GEMM_FAST][2], 1.1);
    assert_near(cx.classes[OCLBLAS__K_GEMM_FAST][0].peeled[0], 1.2);
    assert_int_equal(cx.resident[OCLBLAS__K_GEMM_FAST], 4);
    assert_int_equal(cx.classes[OCLBLAS__K_GEMM_FAST][0].resident, 3);
    assert_true(cx.rate[OCLBLAS__K_GEMM_DIRECT] == 0); /* the global default's set: never measured */

    /* An override makes a set one nobody measured: no rate, on every set it changes. */
    assert_int_equal(oclblas_override_params(NULL, "gemm_fast", "KWI=8"), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__devctx_resolve(&a, &cx), OCLBLAS_SUCCESS);
    assert_true(cx.rate[OCLBLAS__K_GEMM_FAST] == 0);
    assert_true(cx.classes[OCLBLAS__K_GEMM_FAST][0].rate == 0);
    assert_true(cx.along_k[OCLBLAS__K_GEMM_FAST][0] == 0 && cx.classes[OCLBLAS__K_GEMM_FAST][0].along_k[1] == 0);
    assert_true(cx.peeled[OCLBLAS__K_GEMM_FAST][0] == 0 && cx.classes[OCLBLAS__K_GEMM_FAST][0].peeled[0] == 0);
    assert_true(cx.resident[OCLBLAS__K_GEMM_FAST] == 0 && cx.classes[OCLBLAS__K_GEMM_FAST][0].resident == 0);
    assert_int_equal(oclblas_override_params(NULL, "gemm_fast", NULL), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__devctx_resolve(&a, &cx), OCLBLAS_SUCCESS);
    assert_near(cx.rate[OCLBLAS__K_GEMM_FAST], 20000e9);

    /* The tuner's candidate in force: no rate either. */
    oclblas__params cand = cx.params[OCLBLAS__K_GEMM_FAST];
    oclblas__devctx_set(&cx, OCLBLAS__K_GEMM_FAST, &cand);
    assert_true(cx.rate[OCLBLAS__K_GEMM_FAST] == 0);
    assert_true(cx.along_k[OCLBLAS__K_GEMM_FAST][0] == 0 && cx.along_k[OCLBLAS__K_GEMM_FAST][1] == 0);
    assert_true(cx.resident[OCLBLAS__K_GEMM_FAST] == 0);
    assert_int_equal(cx.num_classes[OCLBLAS__K_GEMM_FAST], 0);

    /* Another device of the vendor: the vendor's facts, no rates. */
    oclblas__device_info b = fake("model-b");
    assert_int_equal(oclblas__devctx_resolve(&b, &cx), OCLBLAS_SUCCESS);
    assert_true(oclblas__model_valid(&cx.model));
    assert_true(cx.rate[OCLBLAS__K_GEMM_FAST] == 0);

    dbt_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_time), cmocka_unit_test(test_kernel_share),
        cmocka_unit_test(test_kernel_resident), cmocka_unit_test(test_bounds_norm), cmocka_unit_test(test_kernel_waits), cmocka_unit_test(test_plan_time),
        cmocka_unit_test(test_valid),       cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_refused), cmocka_unit_test(test_resolution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
