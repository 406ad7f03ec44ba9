/*
 * Classes of shapes, without any OpenCL device (ctest runs this with no
 * OpenCL platform visible): the rules (their syntax, what they match,
 * what is refused), the database format (classes beside the sets for every
 * shape, partial sets, old entries without classes, malformed classes
 * refused with a message that names the cause), and how a device's sets
 * are resolved (classes from the entry that covers a kernel first; its set
 * for every shape, when missing, from the less specific entry or the global
 * default; a class set the device cannot run passed over; overrides on
 * every set).
 */
#include "dbtest.h"
#include "db/db.h"
#include "kernels/gemm_fast.h"
#include "kernels/routine.h"
#include "plan/context.h"
#include "util/util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static oclblas__shape_class parsed(const char *rule)
{
    oclblas__shape_class c;
    memset(&c, 0, sizeof c);
    char why[200] = "";
    if (!oclblas__class_parse(rule, &c, why, sizeof why))
        fail_msg("\"%s\" refused: %s", rule, why);
    return c;
}

static int meets(const char *rule, size_t m, size_t n, size_t k)
{
    const oclblas__shape_class c = parsed(rule);
    const oclblas__shape s = {m, n, k, 0};
    return oclblas__class_matches(&c, &s);
}

/* ---- rules ------------------------------------------------------------------ */

static void test_rules_match(void **state)
{
    (void)state;
    assert_true(meets("", 1, 1, 1)); /* no condition: every shape */
    assert_true(meets("m <= 64", 64, 5000, 5000));
    assert_false(meets("m <= 64", 65, 5000, 5000));
    assert_false(meets("m < 64", 64, 1, 1));
    assert_true(meets("n>=512,k<=128", 1, 512, 128)); /* spaces are optional */
    assert_false(meets("n >= 512, k <= 128", 1, 512, 129));
    assert_true(meets("n >= 512 and k <= 128", 1, 600, 1));
    assert_true(meets("min(m,n) <= 256", 4096, 256, 4096));
    assert_true(meets("min(m, n) <= 256", 256, 4096, 4096)); /* either side: symmetric */
    assert_false(meets("min(m,n) <= 256", 257, 4096, 1));
    assert_true(meets("max(m,n) >= 4096", 1, 4096, 1));
    assert_true(meets("min(m,n,k) <= 128", 4096, 4096, 128));
    assert_true(meets("max(m,n,k) < 1025", 1024, 1000, 1024));
    assert_true(meets("m*n <= 1048576", 1024, 1024, 99999));
    assert_false(meets("m*n*k <= 1.1e9", 1100, 1000, 1001));
    assert_true(meets("m*n*k <= 1.1e9", 1024, 1024, 1024));
    /* k much larger than m and n: compared with the larger of the two. */
    assert_true(meets("k/max(m,n) >= 8", 256, 128, 2048));
    assert_false(meets("k/max(m,n) >= 8", 256, 128, 2047));
    assert_true(meets("k/max(m,n) >= 8", 128, 256, 2048));

    /* The text form parses back to the same rule. */
    const oclblas__shape_class c = parsed("min(m,n) <= 256,k/max(m,n)>=8, m*n*k < 2.5e8");
    char text[256];
    oclblas__class_format(&c, text, sizeof text);
    assert_string_equal(text, "min(m,n) <= 256, k/max(m,n) >= 8, m*n*k < 250000000");
    const oclblas__shape_class d = parsed(text);
    assert_int_equal(d.num_conditions, 3);
    assert_memory_equal(d.cond, c.cond, sizeof c.cond);
    oclblas__class_format(&(oclblas__shape_class){.num_conditions = 0}, text, sizeof text);
    assert_string_equal(text, "");
}

static void refused(const char *rule, const char *because)
{
    oclblas__shape_class c;
    char why[200] = "";
    if (oclblas__class_parse(rule, &c, why, sizeof why))
        fail_msg("\"%s\" accepted", rule);
    if (!strstr(why, because))
        fail_msg("\"%s\": \"%s\" does not say \"%s\"", rule, why, because);
}

static void test_rules_refused(void **state)
{
    (void)state;
    refused("mn <= 4", "unknown quantity \"mn\"");
    refused("max(m,k) <= 4", "unknown quantity");
    refused("m = 4", "expected <=, <, >= or > after m");
    refused("m <= ", "expected a number");
    refused("m <= -1", "expected a number of 0 or more");
    refused("m <= 4x", "expected a number");
    refused("m <= inf", "expected a number");
    refused("m <= 4, n <= 4, k <= 4, m <= 5, n <= 5, k <= 5, m <= 6", "more than 6 conditions");
    /* Conditions on one quantity that no problem meets. */
    refused("m <= 0", "no shape meets the conditions on m");
    refused("k >= 100, k <= 50", "no shape meets the conditions on k");
    refused("n > 64, n < 64", "on n");
    refused("n > 64, n <= 64", "on n");
    assert_true(meets("n >= 64, n <= 64", 1, 64, 1));
    /* Which class leaves a later one no shape (first match wins). */
    oclblas__shape_class a = parsed("m <= 64"), b = parsed("m <= 32, k >= 3"), c = parsed("n <= 3"),
                         every = parsed(""), lt = parsed("m < 64"), ge = parsed("k/max(m,n) >= 8"),
                         ge2 = parsed("k/max(m,n) > 8, m <= 64");
    assert_true(oclblas__class_covers(&a, &b));
    assert_false(oclblas__class_covers(&b, &a));
    assert_false(oclblas__class_covers(&a, &c));
    assert_true(oclblas__class_covers(&every, &c));
    assert_false(oclblas__class_covers(&c, &every));
    assert_true(oclblas__class_covers(&a, &lt));
    assert_false(oclblas__class_covers(&lt, &a));
    assert_true(oclblas__class_covers(&ge, &ge2));
    assert_false(oclblas__class_covers(&ge2, &ge));
    assert_int_equal(oclblas__class_name_valid("narrow-m_2.x"), 1);
    assert_int_equal(oclblas__class_name_valid(""), 0);
    assert_int_equal(oclblas__class_name_valid("has space"), 0);
    assert_int_equal(oclblas__class_name_valid("0123456789012345678901234567890123"), 0);
}

/* ---- the format ---------------------------------------------------------------- */

/* An entry for device name NAME (vendor "testvendor", type ACCELERATOR),
 * with PARAMS inside "parameters" and CLASSES as the "classes" array ("":
 * none). */
static const char *entry(const char *name, const char *params, const char *classes)
{
    static char text[8192];
    snprintf(text, sizeof text,
             "{\"format\": \"oclblas-database-1\",\n"
             " \"device\": {\"vendor\": \"testvendor\", \"type\": \"ACCELERATOR\"%s%s%s},\n"
             " \"parameters\": {%s}%s%s%s}\n",
             name ? ", \"name\": \"" : "", name ? name : "", name ? "\"" : "", params, classes[0] ? ",\n \"classes\": [" : "",
             classes, classes[0] ? "]" : "");
    return text;
}

static oclblas__db_entry *parse_ok(const char *text, size_t *count)
{
    oclblas__db_entry *es = NULL;
    char err[512] = "";
    const oclblas_status st = oclblas__db_parse(text, strlen(text), "test.json", &es, count, err, sizeof err);
    if (st != OCLBLAS_SUCCESS)
        fail_msg("refused: %s\n%s", err, text);
    return es;
}

static void test_format(void **state)
{
    (void)state;
    /* An entry of before: no classes, one set for every shape. */
    size_t n;
    oclblas__db_entry *e = parse_ok(entry("old", "\"gemm_fast\": {" DBT_FAST_SET "}", ""), &n);
    assert_int_equal(n, 1);
    assert_int_equal(e->num_classes, 0);
    assert_int_equal(e->has, 1u << OCLBLAS__K_GEMM_FAST);
    free(e);

    /* Classes in order, each with full or partial sets. */
    e = parse_ok(entry("new", "\"gemm_fast\": {" DBT_FAST_SET "}",
                       "{\"name\": \"narrow-n\", \"when\": \"n <= 64\",\n"
                       "  \"parameters\": {\"gemm_fast\": {\"NWG\": 16, \"NDIMC\": 4, \"NDIMB\": 4, \"VWN\": 4}}},\n"
                       " {\"name\": \"deep\", \"when\": \"k/max(m,n) >= 8\",\n"
                       "  \"parameters\": {\"routine\": {\"GEMM_SPLIT_K\": 8}, \"gemm_fast\": {" DBT_FAST_SET "}}},\n"
                       " {\"name\": \"rest\", \"parameters\": {\"routine\": {\"GEMM_SPLIT_K\": 2}}}"),
                 &n);
    assert_int_equal(e->num_classes, 3);
    const oclblas__db_class *c = &e->classes[0];
    assert_string_equal(c->cls.name, "narrow-n");
    assert_int_equal(c->cls.num_conditions, 1);
    assert_int_equal(c->has, 1u << OCLBLAS__K_GEMM_FAST);
    assert_int_equal(c->given[OCLBLAS__K_GEMM_FAST],
                     OCLBLAS__P(GF_NWG) | OCLBLAS__P(GF_NDIMC) | OCLBLAS__P(GF_NDIMB) | OCLBLAS__P(GF_VWN));
    assert_int_equal(c->values[OCLBLAS__K_GEMM_FAST][GF_NWG], 16);
    c = &e->classes[1];
    assert_int_equal(c->has, (1u << OCLBLAS__K_GEMM_FAST) | (1u << OCLBLAS__K_ROUTINE));
    assert_int_equal(c->given[OCLBLAS__K_ROUTINE], OCLBLAS__P(RT_GEMM_SPLIT_K));
    assert_int_equal(c->given[OCLBLAS__K_GEMM_FAST], (1u << GF_COUNT) - 1);
    assert_int_equal(e->classes[2].cls.num_conditions, 0); /* no "when": every shape */
    free(e);

    /* An entry of classes only: its sets for every shape come from elsewhere. */
    e = parse_ok(entry("classes-only", "",
                       "{\"name\": \"small\", \"when\": \"m*n*k <= 1e6\", \"parameters\": {\"routine\": "
                       "{\"GEMM_MIN_INDIRECT\": 64}}}"),
                 &n);
    assert_int_equal(e->has, 0);
    assert_int_equal(e->num_classes, 1);
    free(e);
}

static void test_format_refused(void **state)
{
    (void)state;
    const char *set = "\"gemm_fast\": {" DBT_FAST_SET "}";
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"when\": \"mn <= 3\", \"parameters\": {\"routine\": "
                                "{\"HOST_MAX\": 0}}}"),
                "bad rule of class a: unknown quantity");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"when\": 64, \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}}"),
                "expected a string (the rule)");
    dbt_refused(entry("x", set, "{\"when\": \"m <= 3\", \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}}"),
                "a class without a \"name\"");
    dbt_refused(entry("x", set, "{\"name\": \"a b\", \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}}"),
                "a class name is letters");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"when\": \"m <= 3\"}"), "no \"parameters\" object in class a");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"parameters\": {}}"), "no \"parameters\" object in class a");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"rule\": \"m <= 3\", \"parameters\": {\"routine\": "
                                "{\"HOST_MAX\": 0}}}"),
                "unknown member of a class: rule");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"parameters\": {\"routine\": {}}}"), "no parameters for routine");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"parameters\": {\"gemv_x\": {\"WGS\": 4}}}"),
                "unknown kernel gemv_x");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"parameters\": {\"routine\": {\"HOST\": 4}}}"),
                "unknown parameter HOST");
    /* Values that break a rule among themselves, even in a partial set. */
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"parameters\": {\"gemm_fast\": {\"MWG\": 48, \"MDIMC\": 16, "
                                "\"VWM\": 2}}}"),
                "illegal parameters for gemm_fast (MWG must be a multiple of MDIMC * VWM)");
    dbt_refused(entry("x", set, "{\"name\": \"a\", \"parameters\": {\"routine\": {\"GEMM_SPLIT_K\": 65}}}"),
                "illegal parameters for routine");
    dbt_refused(entry("x", set,
                      "{\"name\": \"a\", \"when\": \"m <= 3\", \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}},"
                      "{\"name\": \"a\", \"when\": \"n <= 3\", \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}}"),
                "class named twice: a");
    dbt_refused(entry("x", set, "3"), "a class must be a JSON object");
    /* First match wins: a class that an earlier one of the same kernel leaves no shape to is dead. */
    dbt_refused(entry("x", set,
                      "{\"name\": \"all\", \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}},"
                      "{\"name\": \"b\", \"when\": \"n <= 3\", \"parameters\": {\"routine\": {\"HOST_MAX\": 1}}}"),
                "no shape can reach class b (class all before it takes all its shapes)");
    dbt_refused(entry("x", set,
                      "{\"name\": \"a\", \"when\": \"m <= 64\", \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}},"
                      "{\"name\": \"b\", \"when\": \"m < 64, k >= 9\", \"parameters\": {\"routine\": {\"HOST_MAX\": 1}}}"),
                "no shape can reach class b");
    /* ... but overlaps are fine, and so is a class of another kernel behind a catch-all. */
    size_t n;
    free(parse_ok(entry("x", set,
                        "{\"name\": \"a\", \"when\": \"m <= 64\", \"parameters\": {\"routine\": {\"HOST_MAX\": 0}}},"
                        "{\"name\": \"b\", \"when\": \"m <= 65, k >= 9\", \"parameters\": {\"routine\": {\"HOST_MAX\": 1}}},"
                        "{\"name\": \"c\", \"when\": \"n <= 64\", \"parameters\": {\"routine\": {\"HOST_MAX\": 1}}},"
                        "{\"name\": \"all\", \"parameters\": {\"routine\": {\"HOST_MAX\": 3}}},"
                        "{\"name\": \"d\", \"when\": \"m <= 64\", \"parameters\": {\"gemm_fast\": {\"KWI\": 4}}}"),
                  &n));
    char many[8192] = "";
    for (int i = 0; i < OCLBLAS__MAX_CLASSES + 1; ++i) {
        const size_t u = strlen(many);
        snprintf(many + u, sizeof many - u, "%s{\"name\": \"c%d\", \"when\": \"m <= %d\", \"parameters\": "
                 "{\"routine\": {\"HOST_MAX\": 0}}}", i ? "," : "", i, 100 + i);
    }
    dbt_refused(entry("x", set, many), "more classes than the library holds: " OCLBLAS__STR(OCLBLAS__MAX_CLASSES));
    dbt_refused("{\"format\": \"oclblas-database-1\", \"device\": {}, \"parameters\": {}, \"classes\": {}}",
                "expected an array for \"classes\"");
}

/* ---- resolution on a device ---------------------------------------------------- */

static char dir[] = "/tmp/oclblas-test-classes-XXXXXX";

static void load(const char *name, const char *text)
{
    dbt_load(dir, name, text);
}

/* A device that only the global default and the test's entries match. */
static oclblas__device_info fake(const char *name)
{
    return dbt_device(name, "testvendor", 8);
}

static void test_resolution(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    oclblas__devctx global;
    oclblas__device_info nobody = fake("nobody");
    assert_int_equal(oclblas__devctx_resolve(&nobody, &global), OCLBLAS_SUCCESS);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        assert_int_equal(global.num_classes[k], 0); /* the shipped defaults have no classes */

    /* The vendor's entry: a set for every shape and a class; the device's
     * entry: classes only, so its set for every shape is the vendor's. */
    load("vendor.json", entry(NULL, "\"gemm_fast\": {\"MWG\": 32, \"NWG\": 64, \"KWG\": 16, \"MDIMC\": 16, \"NDIMC\": 16, "
                                    "\"MDIMA\": 16, \"NDIMB\": 16, \"KWI\": 2, \"VWM\": 2, \"VWN\": 4, \"STRM\": 1, "
                                    "\"STRN\": 1, \"SA\": 1, \"SB\": 1}",
                              "{\"name\": \"vendor-class\", \"when\": \"k <= 64\", \"parameters\": "
                              "{\"gemm_fast\": {\"KWI\": 4}}}"));
    load("device.json", entry("dev-a", "\"routine\": {\"GEMM_MIN_INDIRECT\": 77, \"GEMV_GROUPS_PER_CU\": 3, "
                                       "\"HOST_MAX\": 0, \"GEMM_SPLIT_K\": 2, \"GEMM_TC_MIN\": 0, \"GEMM_MAX_SLICE_K\": 0}",
                              "{\"name\": \"narrow-n\", \"when\": \"n <= 64\", \"parameters\": {\"gemm_fast\": "
                              "{\"NWG\": 16, \"NDIMC\": 4, \"NDIMB\": 4, \"VWN\": 4}, \"routine\": {\"GEMM_SPLIT_K\": 8}}},"
                              "{\"name\": \"huge-tile\", \"when\": \"m >= 8192\", \"parameters\": {\"gemm_fast\": "
                              "{\"MWG\": 64, \"MDIMC\": 32, \"MDIMA\": 32, \"KWG\": 32}}},"
                              "{\"name\": \"deep\", \"when\": \"k/max(m,n) >= 8\", \"parameters\": {\"routine\": "
                              "{\"GEMM_SPLIT_K\": 16}}}"));
    oclblas__device_info a = fake("dev-a");
    a.lim.max_wg_size = 256; /* huge-tile's 32 x 16 work-items do not fit */
    oclblas__devctx cx;
    assert_int_equal(oclblas__devctx_resolve(&a, &cx), OCLBLAS_SUCCESS);
    const oclblas__params *vendor = &cx.params[OCLBLAS__K_GEMM_FAST];
    assert_int_equal(vendor->v[GF_MWG], 32); /* the vendor's, the device entry has none */
    /* gemm_fast's classes are the device entry's (which covers it first), on top of the vendor's set. */
    assert_int_equal(cx.num_classes[OCLBLAS__K_GEMM_FAST], 1); /* huge-tile passed over: 512 work-items */
    const oclblas__class_set *nn = &cx.classes[OCLBLAS__K_GEMM_FAST][0];
    assert_string_equal(nn->cls.name, "narrow-n");
    assert_int_equal(nn->params.v[GF_NWG], 16);
    assert_int_equal(nn->params.v[GF_MWG], 32); /* the rest from the set for every shape */
    assert_int_equal(nn->params.v[GF_KWI], 2);
    /* routine: the device entry's set for every shape, and two classes of its own. */
    assert_int_equal(cx.params[OCLBLAS__K_ROUTINE].v[RT_GEMM_MIN_INDIRECT], 77);
    assert_int_equal(cx.num_classes[OCLBLAS__K_ROUTINE], 2);
    assert_string_equal(cx.classes[OCLBLAS__K_ROUTINE][1].cls.name, "deep");
    assert_int_equal(cx.classes[OCLBLAS__K_ROUTINE][1].params.v[RT_GEMM_MIN_INDIRECT], 77);
    assert_int_equal(cx.classes[OCLBLAS__K_ROUTINE][1].params.v[RT_GEMM_SPLIT_K], 16);
    /* Which set serves which shape. */
    oclblas_status st;
    const oclblas__shape deep = {100, 100, 5000, 0}, narrow_deep = {100, 10, 5000, 0}, square = {500, 500, 500, 0};
    assert_int_equal(oclblas__devctx_params(&cx, OCLBLAS__K_ROUTINE, &deep, &st)->v[RT_GEMM_SPLIT_K], 16);
    assert_int_equal(oclblas__devctx_params(&cx, OCLBLAS__K_ROUTINE, &narrow_deep, &st)->v[RT_GEMM_SPLIT_K], 8);
    assert_int_equal(oclblas__devctx_params(&cx, OCLBLAS__K_ROUTINE, &square, &st)->v[RT_GEMM_SPLIT_K], 2);
    /* Other kernels: the global default's sets, without classes. */
    assert_int_equal(cx.num_classes[OCLBLAS__K_GEMV_N], 0);
    assert_memory_equal(&cx.params[OCLBLAS__K_GEMV_N], &global.params[OCLBLAS__K_GEMV_N], sizeof(oclblas__params));
    /* get_params names the set for every shape, where it came from, and the classes. */
    char from[400];
    oclblas__params p;
    assert_int_equal(oclblas__db_lookup(&a, OCLBLAS__K_GEMM_FAST, &p, from, sizeof from), OCLBLAS_SUCCESS);
    assert_non_null(strstr(from, "vendor.json (vendor match), and classes narrow-n, huge-tile"));

    /* Another device of the vendor: the vendor's class on the vendor's set. */
    oclblas__device_info b = fake("dev-b");
    assert_int_equal(oclblas__devctx_resolve(&b, &cx), OCLBLAS_SUCCESS);
    assert_int_equal(cx.num_classes[OCLBLAS__K_GEMM_FAST], 1);
    assert_string_equal(cx.classes[OCLBLAS__K_GEMM_FAST][0].cls.name, "vendor-class");
    assert_int_equal(cx.classes[OCLBLAS__K_GEMM_FAST][0].params.v[GF_KWI], 4);
    assert_int_equal(cx.num_classes[OCLBLAS__K_ROUTINE], 0);

    /* An override for every device applies to every set, class sets too. */
    assert_int_equal(oclblas_override_params(NULL, "gemm_fast", "STRM=0"), OCLBLAS_SUCCESS);
    assert_int_equal(oclblas__devctx_resolve(&a, &cx), OCLBLAS_SUCCESS);
    assert_int_equal(cx.params[OCLBLAS__K_GEMM_FAST].v[GF_STRM], 0);
    assert_int_equal(cx.classes[OCLBLAS__K_GEMM_FAST][0].params.v[GF_STRM], 0);
    assert_int_equal(cx.classes[OCLBLAS__K_GEMM_FAST][0].params.v[GF_NWG], 16);
    assert_int_equal(oclblas_override_params(NULL, "gemm_fast", NULL), OCLBLAS_SUCCESS);

    /* A newer entry for the device with a set for every shape and no classes
     * covers gemm_fast first: the older entry's classes no longer apply. */
    load("device2.json", entry("dev-a", "\"gemm_fast\": {" DBT_FAST_SET "}", ""));
    assert_int_equal(oclblas__devctx_resolve(&a, &cx), OCLBLAS_SUCCESS);
    assert_int_equal(cx.params[OCLBLAS__K_GEMM_FAST].v[GF_MWG], 64);
    assert_int_equal(cx.num_classes[OCLBLAS__K_GEMM_FAST], 0);
    assert_int_equal(cx.num_classes[OCLBLAS__K_ROUTINE], 2); /* routine still from the older one */

    dbt_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_match), cmocka_unit_test(test_rules_refused),
        cmocka_unit_test(test_format),      cmocka_unit_test(test_format_refused),
        cmocka_unit_test(test_resolution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
