/*
 * Classes of shapes (shapes.c): the size of the problem a parameter set is
 * picked for, and the rules ("min(m,n) <= 64, k >= 1024") that name a class;
 * pure functions.
 */
#ifndef OCLBLAS_SHAPES_H
#define OCLBLAS_SHAPES_H

#include <stddef.h>

/* The size of the problem a parameter set is picked for: the column-major
 * problem the kernels compute (a row-major call's m and n swapped); a gemv
 * is rows x cols x 1. products: for the tensor-core kernel's sets, the
 * tensor-core products per multiply-add that the call's math mode asks for
 * (6 accurate, 1 tf32; 0 otherwise), so that an entry can hold a set tuned
 * for each. */
typedef struct {
    size_t m, n, k;
    int products;
} oclblas__shape;

/* What a condition of a class may look at. */
typedef enum {
    OCLBLAS__Q_M, OCLBLAS__Q_N, OCLBLAS__Q_K,
    OCLBLAS__Q_MIN_MN, OCLBLAS__Q_MAX_MN, /* min(m,n), max(m,n) */
    OCLBLAS__Q_MIN_MNK, OCLBLAS__Q_MAX_MNK, /* min(m,n,k), max(m,n,k) */
    OCLBLAS__Q_MN, OCLBLAS__Q_MNK,        /* m*n, m*n*k */
    OCLBLAS__Q_K_PER_MN,                  /* k/max(m,n) */
    OCLBLAS__Q_PRODUCTS,                  /* the shape's products */
    OCLBLAS__Q_COUNT
} oclblas__quantity;
typedef enum { OCLBLAS__OP_LE, OCLBLAS__OP_LT, OCLBLAS__OP_GE, OCLBLAS__OP_GT } oclblas__op;

#define OCLBLAS__MAX_CONDITIONS 6
#define OCLBLAS__MAX_CLASSES 12
#define OCLBLAS__CLASS_NAME 32
typedef struct {
    unsigned char quantity, op; /* oclblas__quantity, oclblas__op */
    double value;
} oclblas__condition;

/* A class: a name and conditions that must all hold (none: every shape). */
typedef struct {
    char name[OCLBLAS__CLASS_NAME];
    int num_conditions;
    oclblas__condition cond[OCLBLAS__MAX_CONDITIONS];
} oclblas__shape_class;

/* Parses a rule, conditions such as "min(m,n) <= 64, k >= 1024" joined by
 * commas or "and" ("": every shape), into c's conditions (not its name);
 * 0 and why for an unknown quantity or operator, a value that is not a
 * number of 0 or more, more than OCLBLAS__MAX_CONDITIONS, or conditions on
 * one quantity that no shape meets. */
int oclblas__class_parse(const char *rule, oclblas__shape_class *c, char *why, size_t len);
/* The rule in the same syntax ("" for every shape). */
void oclblas__class_format(const oclblas__shape_class *c, char *buf, size_t len);
int oclblas__class_matches(const oclblas__shape_class *c, const oclblas__shape *s);
/* Whether every shape that later's rule takes, earlier's takes too (each of
 * earlier's conditions is implied by one of later's on the same quantity):
 * tried first, earlier leaves later no shape. */
int oclblas__class_covers(const oclblas__shape_class *earlier, const oclblas__shape_class *later);
/* Letters, digits, '-', '_' and '.', 1 to 31 of them. */
int oclblas__class_name_valid(const char *name);

#endif
