/*
 * The parameter database (database.c, dbparse.c, the generated
 * database_builtin.c): entries by device with their sets for every shape
 * and for classes of shapes, parsing and validating them, loading files at
 * run time, overrides, and resolving a device's context from all of them.
 */
#ifndef OCLBLAS_DB_H
#define OCLBLAS_DB_H

#include "plan/context.h"

/* A class of an entry: its rule, and for each kernel it covers the
 * parameters it names (all of them, or some: the others come from the set
 * for every shape that serves the device). */
typedef struct {
    oclblas__shape_class cls;
    unsigned has;                     /* bit per oclblas__kernel_id */
    unsigned given[OCLBLAS__K_COUNT]; /* bit per parameter named */
    int values[OCLBLAS__K_COUNT][OCLBLAS__MAX_PARAMS];
    double rates[OCLBLAS__K_COUNT];   /* flop/s of its sets ("rates"); 0: not given */
    double along_k[OCLBLAS__K_COUNT][2]; /* shares of those kept reading A, B along k ("along_k_shares"); 0: not given */
    double peeled[OCLBLAS__K_COUNT][3];  /* factors on those of their peeled programs ("peeled_factors"); 0: not given */
    unsigned resident[OCLBLAS__K_COUNT]; /* work-groups of its sets a compute unit holds ("resident"); 0: not given */
} oclblas__db_class;

typedef struct {
    char vendor[32], type[16], arch[64], name[256]; /* "" matches anything */
    char tool[64], driver[128], date[32], sizes[128];
    char origin[256]; /* file it came from */
    unsigned has;     /* bit per oclblas__kernel_id: a set for every shape */
    int values[OCLBLAS__K_COUNT][OCLBLAS__MAX_PARAMS];
    double rates[OCLBLAS__K_COUNT]; /* flop/s of the sets for every shape ("rates"); 0: not given */
    double along_k[OCLBLAS__K_COUNT][2]; /* shares of those kept reading A, B along k; 0: not given */
    double peeled[OCLBLAS__K_COUNT][3];  /* factors on those of their peeled programs; 0: not given */
    unsigned resident[OCLBLAS__K_COUNT]; /* work-groups of those a compute unit holds at once; 0: not given */
    int has_model;                  /* "model": the device's facts for the cost model */
    oclblas__model_device model;    /* (compute_units is the device's, not the entry's) */
    int num_classes; /* tried in order, before the sets for every shape */
    oclblas__db_class classes[OCLBLAS__MAX_CLASSES];
} oclblas__db_entry;

extern const oclblas__db_entry oclblas__db_builtin[];
extern const size_t oclblas__db_builtin_count;

#define OCLBLAS__DB_FORMAT "oclblas-database-1"
/* The largest database file the library, the build and the tuner read. A
 * device's file is 2 to 3 KiB, so 1 MiB holds hundreds of entries; the cap
 * bounds what hostile input costs (about 40 MB while parsing the worst
 * 1 MiB file) and keeps /dev/zero-like files from exhausting memory. */
#define OCLBLAS__DB_MAX_FILE ((size_t)1 << 20)
/* Parses a database document (one entry object, or an array of them) of
 * len bytes, which text must follow with a NUL (a NUL inside refuses the
 * document), and validates every entry by the device-independent rules;
 * *entries is malloc'ed. err gets a message naming the cause. */
oclblas_status oclblas__db_parse(const char *text, size_t len, const char *origin, oclblas__db_entry **entries,
                                 size_t *count, char *err, size_t err_len);
/* Entries loaded at run time and held now (for tests: loading a file again replaces its entries). */
size_t oclblas__db_runtime_count(void);
/* Parameters for one kernel on one device: overrides, runtime entries,
 * compiled-in entries, most specific first. from gets a description. */
oclblas_status oclblas__db_lookup(const oclblas__device_info *dev, int kernel, oclblas__params *out,
                                  char *from, size_t from_len);
/* OCLBLAS_DATABASE_HIDE as a level: compiled-in entries more specific than
 * it are passed over (0 none; 2 device name and architecture; 3 vendor too). */
int oclblas__db_hidden_levels(void);
/* Grows with every database load and override: a device context resolved
 * at an older generation is stale. */
unsigned oclblas__db_generation(void);
/* Resolves every table for a device into *out, from the database and the
 * overrides (database.c); no caching. */
oclblas_status oclblas__devctx_resolve(const oclblas__device_info *dev, oclblas__devctx *out);

#endif
