/*
 * The per-device context as a value (context.c): the device's facts and
 * the parameters in force for every kernel, for every shape and for each
 * class of shapes, and which of them serves a shape. It is made from the
 * database (db/) and kept per device (runtime/devctx.c); plans only read it.
 */
#ifndef OCLBLAS_CONTEXT_H
#define OCLBLAS_CONTEXT_H

#include "device/device.h"
#include "kernels/kernel.h"
#include "plan/model.h"
#include "plan/shapes.h"

/* Everything a plan needs to know about a device: its facts and the
 * resolved parameters of every table, resolved once from the database and
 * the overrides and kept (BLIS's cntx in spirit). A snapshot is immutable:
 * loading a database or setting an override makes the next call resolve a
 * new one, and a call keeps the snapshot it started with. A copy with other
 * parameters is a valid context too (the tuner times candidates so). */
/* A set for a class of shapes, resolved for a device, with its rate
 * (flop per second when it fills the device, as measured for the entry;
 * 0: unknown, as after an override) and the shares of that rate it keeps
 * reading A, and B, in place along k (0: not measured; the device's
 * along_k_share stands in), and the factors on it of its peeled program
 * (kernels/tiled.h), with neither operand along k and further with A, with
 * B along k (0: not measured, and the model does not run it), and the
 * work-groups of it a compute unit holds at once (0: not measured, the
 * model estimates them). */
typedef struct {
    oclblas__shape_class cls;
    oclblas__params params;
    double rate;
    double along_k[2];
    double peeled[3];
    unsigned resident;
} oclblas__class_set;

typedef struct {
    const oclblas__device_info *dev;
    unsigned generation; /* of the database and overrides it was resolved from */
    int pinned;          /* set by oclblas__devctx_pin: in force whatever the generation */
    oclblas__params params[OCLBLAS__K_COUNT]; /* the set for every shape (of no class below) */
    double rate[OCLBLAS__K_COUNT];            /* its rate, as a class set's; 0: unknown */
    double along_k[OCLBLAS__K_COUNT][2];      /* its shares along k, as a class set's */
    double peeled[OCLBLAS__K_COUNT][3];       /* its peeled program's factors, as a class set's */
    unsigned resident[OCLBLAS__K_COUNT];      /* its groups a compute unit holds, as a class set's */
    /* SUCCESS, or why the table has no set this device can run (then its
     * parameters are unusable and plans that need them fail with it). */
    oclblas_status status[OCLBLAS__K_COUNT];
    /* Sets for classes of shapes, tried in order before params[]. */
    int num_classes[OCLBLAS__K_COUNT];
    oclblas__class_set classes[OCLBLAS__K_COUNT][OCLBLAS__MAX_CLASSES];
    /* The device's facts for the cost model (compute_units 0: none; the
     * plans then follow the routine values and the classes' rules alone). */
    oclblas__model_device model;
} oclblas__devctx;

/* The parameters in force for a kernel on a problem of this shape (context.c):
 * the set of the first of the kernel's classes whose rule the shape meets,
 * else the set for every shape (shape NULL: that one). The one place where
 * a plan reads parameters. NULL (with *st) when the device has no legal set
 * for the kernel. */
const oclblas__params *oclblas__devctx_params(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape,
                                              oclblas_status *st);
/* The name of the class whose set serves the shape, NULL for the set for every shape. */
const char *oclblas__devctx_class(const oclblas__devctx *cx, int kernel, const oclblas__shape *shape);
/* Makes p the kernel's set for every shape and drops its class sets, its
 * rate and its shares along k: a candidate of the tuner is in force for
 * every problem (with no rate, the plans do not choose by the model). */
void oclblas__devctx_set(oclblas__devctx *cx, int kernel, const oclblas__params *p);

#endif
