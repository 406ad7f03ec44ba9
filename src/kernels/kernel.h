/*
 * What every kernel is to the library: its id in the kernel list
 * (kernels.def), its embedded source, and its descriptor: parameters with
 * their ranges and the tuner's candidates, legality rules, derived sizes,
 * capability. The generic functions over any descriptor's parameters
 * (lookup, legality, build options, text) are in kernel.c; a kernel's own
 * indices, arguments and steps are in kernels/<name>.h.
 */
#ifndef OCLBLAS_KERNEL_H
#define OCLBLAS_KERNEL_H

#include "oclblas.h"

#include <stddef.h>

/* A kernel's parameters, and after them the switches between a set's
 * programs that a step sets (gemm_fast.h, gemm_tc.h). */
#define OCLBLAS__MAX_PARAMS 19
#define OCLBLAS__MAX_CANDIDATES 12
#define OCLBLAS__MAX_DERIVED 17
#define OCLBLAS__MAX_PROGRAMS 17

/* ---- the kernel list (kernels.def) ------------------------------------- */

typedef enum {
#define OCLBLAS_KERNEL(ID, name) OCLBLAS__K_##ID,
#define OCLBLAS_TABLE(ID, name) OCLBLAS__K_##ID,
#include "kernels/kernels.def"
#undef OCLBLAS_KERNEL
#undef OCLBLAS_TABLE
    OCLBLAS__K_COUNT
} oclblas__kernel_id;

/* The embedded sources (generated: kernels.c), one per OCLBLAS_KERNEL line. */
#define OCLBLAS_KERNEL(ID, name) extern const char oclblas__source_##name[];
#define OCLBLAS_TABLE(ID, name)
#include "kernels/kernels.def"
#undef OCLBLAS_KERNEL
#undef OCLBLAS_TABLE

/* ---- kernel descriptors (kernels/<name>.c; generic functions in kernel.c) */

typedef struct {
    const char *name;
    int min, max;             /* legal range; the rules add the rest */
    int num_candidates;       /* the tuner's search values */
    int candidates[OCLBLAS__MAX_CANDIDATES];
    /* 'm', 'n' or 'k': a tile's side along that dimension of the problem;
     * tuning a class of shapes, the tuner leaves out values beyond the
     * class's problems (a 128-wide tile for m = 32). 0: none. */
    char along;
    /* A set for every shape may leave it out: it then holds 0, which its
     * meaning (and min) must allow. For a value added to a table after
     * entries that lack it were written. */
    char optional;
} oclblas__param_def;

/* What a device allows and offers: the device-dependent half of legality. */
typedef struct {
    size_t max_wg_size;
    size_t max_item[3];
    unsigned long long local_mem;
    int nv_compute_capability; /* 10 * major + minor on NVIDIA (cl_nv_device_attribute_query), else 0 */
} oclblas__limits;

typedef struct {
    int v[OCLBLAS__MAX_PARAMS];
} oclblas__params;

/* One legality rule. It reads the parameters of its mask only, so that it
 * can be checked as soon as those are assigned (the tuner cuts its search
 * there). A device rule needs the device's limits and is skipped without
 * them. Returns NULL when the values pass, else why not. */
typedef struct {
    unsigned reads; /* bit i: parameter i */
    int device;
    const char *(*check)(const int *v, const oclblas__limits *lim);
} oclblas__rule;
#define OCLBLAS__P(i) (1u << (i))

/* A size derived from the parameters, passed as -DNAME=VALUE beside them. */
typedef struct {
    const char *name;
    int value;
} oclblas__derived;

typedef struct oclblas__tiled oclblas__tiled; /* what the plan asks of a tiled GEMM kernel (kernels/tiled.h) */

typedef struct {
    const char *name;   /* "gemm_fast": the name in the list, database files and overrides */
    const char *source; /* the embedded .cl text; NULL for a table without a program */
    int num_params;
    const oclblas__param_def *params;
    int num_rules;
    const oclblas__rule *rules;
    /* Whether the kernel can run on a device at all (NULL: on any OpenCL
     * 1.2 device); returns NULL or why not. */
    const char *(*capable)(const oclblas__limits *lim);
    /* The derived sizes of a legal set, into out (at most
     * OCLBLAS__MAX_DERIVED); returns how many. NULL: none. */
    int (*derive)(const int *v, oclblas__derived *out);
    const oclblas__tiled *tiled; /* NULL: not a kernel that computes C tile by tile */
    /* Every program of a set that a plan may run on a device with these
     * limits, the set itself first: with its switches in the slots after
     * the parameters (gemm_fast's PEELED, gemm_cpu's BK and CT, the gemv
     * kernels' FINISH) and in its forms for the math modes (gemm_tc),
     * into out (at most OCLBLAS__MAX_PROGRAMS); returns how many.
     * oclblas_cache_fill builds them all. NULL: the set alone. */
    int (*programs)(const oclblas__params *p, const oclblas__limits *lim, oclblas__params *out);
} oclblas__kernel_desc;

#define OCLBLAS_KERNEL(ID, name) extern const oclblas__kernel_desc oclblas__desc_##name;
#define OCLBLAS_TABLE(ID, name) extern const oclblas__kernel_desc oclblas__desc_##name;
#include "kernels/kernels.def"
#undef OCLBLAS_KERNEL
#undef OCLBLAS_TABLE

/* Every descriptor, by id. */
extern const oclblas__kernel_desc *const oclblas__kernels[OCLBLAS__K_COUNT];

int oclblas__kernel_by_name(const char *name); /* -1 when unknown */
int oclblas__param_index(int kernel, const char *name);
/* Legal ranges and rules, and with lim the device's rules and the kernel's
 * capability; why receives the reason (may be NULL). */
int oclblas__params_legal(int kernel, const oclblas__params *p, const oclblas__limits *lim,
                          const char **why);
/* The same on a partial assignment: only the parameters of the mask
 * `assigned` are looked at, and only the rules that read nothing else; of
 * those, only the ranges of the `fresh` parameters and the rules that read
 * one of them (a walk that assigns one parameter at a time passes that one,
 * having checked the rest before; ~0u checks everything assigned). The
 * kernel's capability is checked when fresh covers all that is assigned. */
int oclblas__params_legal_partial(int kernel, const oclblas__params *p, unsigned assigned, unsigned fresh,
                                  const oclblas__limits *lim, const char **why);
/* "-DNAME=VALUE ..." for the kernel's parameters and derived sizes into buf
 * (cut to len); returns the length the whole text needs, as snprintf does. */
size_t oclblas__params_defines(int kernel, const oclblas__params *p, char *buf, size_t len);
/* "NAME=VALUE,..." */
void oclblas__params_format(int kernel, const oclblas__params *p, char *buf, size_t len);
/* Parses "NAME=VALUE" items separated by commas or spaces on top of *p;
 * *given (may be NULL) gets the mask of the parameters it named. */
oclblas_status oclblas__params_parse(int kernel, const char *text, oclblas__params *p, unsigned *given);

#endif
