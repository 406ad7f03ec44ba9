/*
 * The math mode of the process: how SGEMM may compute its products
 * (oclblas.h says what each mode guarantees). One value for the whole
 * process, read by every call when it is made: OCLBLAS_MATH_MODE gives it
 * at the first call that needs it, oclblas_set_math_mode replaces it. The
 * plans (plan/plan.c) turn the call's mode into a choice of kernel.
 */
#include "util/settings.h"
#include "util/util.h"

#include <stdatomic.h>

/* The default while the accurate mode's accuracy gate is confirmed on the
 * GPUs that have an entry for gemm_tc: the one place to change it. */
#define DEFAULT_MODE OCLBLAS_MATH_ACCURATE

static const char *const names[] = {[OCLBLAS_MATH_STRICT] = "strict", [OCLBLAS_MATH_ACCURATE] = "accurate",
                                    [OCLBLAS_MATH_TF32] = "tf32"};

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static atomic_int mode = DEFAULT_MODE;

static int is_mode(int m) { return m >= OCLBLAS_MATH_STRICT && m <= OCLBLAS_MATH_TF32; }

/* Once; a value that is no mode leaves the default (settings.c says so). */
static void env_init(void)
{
    const oclblas_math_mode chosen = oclblas__settings_get()->math_mode;
    if (!chosen)
        return;
    atomic_store(&mode, (int)chosen);
    oclblas__log("math mode %s (OCLBLAS_MATH_MODE)", names[chosen]);
}

oclblas_status oclblas_set_math_mode(oclblas_math_mode m)
{
    if (!is_mode((int)m))
        return OCLBLAS_INVALID_ARGUMENT;
    /* The environment is read first, so that it can never overwrite the call. */
    pthread_once(&env_once, env_init);
    atomic_store(&mode, (int)m);
    return OCLBLAS_SUCCESS;
}

oclblas_math_mode oclblas_get_math_mode(void)
{
    pthread_once(&env_once, env_init);
    return (oclblas_math_mode)atomic_load(&mode);
}

const char *oclblas_math_mode_name(oclblas_math_mode m) { return is_mode((int)m) ? names[m] : "unknown"; }
