/*
 * What the pure tests of the parameter database share (test_classes,
 * test_model): a complete gemm_fast set to write into entries, the check
 * that an entry is refused for a named cause, writing an entry into a
 * temporary folder and loading it, and a device that only the global
 * default and the test's own entries match. No OpenCL.
 */
#ifndef OCLBLAS_DBTEST_H
#define OCLBLAS_DBTEST_H

#include "device/device.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

/* A complete, legal gemm_fast set, as the members of its JSON object. */
#define DBT_FAST_SET                                                                                           \
    "\"MWG\": 64, \"NWG\": 64, \"KWG\": 16, \"MDIMC\": 16, \"NDIMC\": 16, \"MDIMA\": 16, \"NDIMB\": 16, "       \
    "\"KWI\": 2, \"VWM\": 2, \"VWN\": 4, \"STRM\": 1, \"STRN\": 1, \"SA\": 1, \"SB\": 1"

/* TEXT, a database file, is refused as an invalid entry with a message
 * that contains BECAUSE; fails the test otherwise. */
void dbt_refused(const char *text, const char *because);

/* Writes TEXT as DIR/NAME and loads it; fails the test if it is refused. */
void dbt_load(const char *dir, const char *name, const char *text);

/* An accelerator named NAME of VENDOR with UNITS compute units, 1 GiB
 * allocations and a common GPU's work-group limits. */
oclblas__device_info dbt_device(const char *name, const char *vendor, unsigned units);

/* Removes DIR and everything in it. */
void dbt_remove(const char *dir);

#endif
