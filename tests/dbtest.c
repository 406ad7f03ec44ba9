/*
 * What the pure tests of the parameter database share (dbtest.h): refusals
 * checked by their cause, entries written and loaded, a device of the
 * test's own.
 */
#include "dbtest.h"
#include "db/db.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dbt_refused(const char *text, const char *because)
{
    oclblas__db_entry *es = NULL;
    size_t n = 0;
    char err[512] = "";
    const oclblas_status st = oclblas__db_parse(text, strlen(text), "test.json", &es, &n, err, sizeof err);
    free(es);
    if (st == OCLBLAS_SUCCESS)
        fail_msg("accepted:\n%s", text);
    assert_int_equal(st, OCLBLAS_DATABASE_INVALID_ENTRY);
    if (!strstr(err, because))
        fail_msg("\"%s\" does not say \"%s\"", err, because);
}

void dbt_load(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(oclblas_database_load(path), OCLBLAS_SUCCESS);
}

oclblas__device_info dbt_device(const char *name, const char *vendor, unsigned units)
{
    oclblas__device_info d;
    memset(&d, 0, sizeof d);
    oclblas__strlcpy(d.name, name, sizeof d.name);
    oclblas__strlcpy(d.vendor, vendor, sizeof d.vendor);
    oclblas__strlcpy(d.type, "ACCELERATOR", sizeof d.type);
    d.compute_units = units;
    d.max_alloc = 1u << 30;
    d.lim = (oclblas__limits){1024, {1024, 1024, 64}, 48 * 1024, 0};
    return d;
}

void dbt_remove(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}
