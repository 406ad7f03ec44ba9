/*
 * The per-device contexts: for each device its current snapshot of
 * resolved parameters (oclblas__devctx), so that a call reads its
 * parameters without a database lookup or a lock. A snapshot is valid while
 * its generation equals the database's (oclblas__db_generation); a call
 * that finds it stale resolves a new one under this file's lock. Snapshots
 * are immutable and never freed, since a call on another thread may still
 * read the one it started with; they are replaced only when a database is
 * loaded or an override set, a handful of times in a process.
 */
#include "runtime/devctx.h"
#include "db/db.h"
#include "util/util.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct ctx_node {
    cl_device_id device;
    _Atomic(oclblas__devctx *) current;
    struct ctx_node *next;
} ctx_node;

/* Earlier snapshots stay reachable (readers may hold them). */
typedef struct retired_ctx {
    oclblas__devctx *ctx;
    struct retired_ctx *next;
} retired_ctx;

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(ctx_node *) nodes;
static retired_ctx *retired;

static ctx_node *find(cl_device_id device)
{
    for (ctx_node *n = atomic_load(&nodes); n; n = n->next)
        if (n->device == device)
            return n;
    return NULL;
}

/* Under ctx_lock. */
static ctx_node *find_or_add(cl_device_id device)
{
    ctx_node *n = find(device);
    if (n)
        return n;
    n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->device = device;
    n->next = atomic_load(&nodes);
    atomic_store(&nodes, n); /* readers see the node only complete */
    return n;
}

/* Under ctx_lock: installs fresh as the node's snapshot, keeping the old one. */
static oclblas_status install(ctx_node *n, oclblas__devctx *fresh)
{
    oclblas__devctx *old = atomic_load(&n->current);
    if (old) {
        retired_ctx *r = malloc(sizeof *r);
        if (!r)
            return OCLBLAS_OUT_OF_HOST_MEMORY;
        r->ctx = old;
        r->next = retired;
        retired = r;
    }
    atomic_store(&n->current, fresh);
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__devctx_get(const oclblas__device_info *dev, const oclblas__devctx **out)
{
    const unsigned gen = oclblas__db_generation();
    ctx_node *n = find(dev->id);
    if (n) {
        const oclblas__devctx *c = atomic_load(&n->current);
        if (c && (c->generation == gen || c->pinned)) {
            *out = c;
            return OCLBLAS_SUCCESS;
        }
    }
    oclblas__mutex_lock(&ctx_lock);
    oclblas_status st = OCLBLAS_OUT_OF_HOST_MEMORY;
    n = find_or_add(dev->id);
    if (n) {
        const oclblas__devctx *c = atomic_load(&n->current);
        if (c && (c->generation == oclblas__db_generation() || c->pinned)) {
            *out = c; /* another thread refreshed it meanwhile */
            st = OCLBLAS_SUCCESS;
        } else {
            oclblas__devctx *fresh = malloc(sizeof *fresh);
            st = fresh ? oclblas__devctx_resolve(dev, fresh) : OCLBLAS_OUT_OF_HOST_MEMORY;
            if (st == OCLBLAS_SUCCESS)
                st = install(n, fresh);
            if (st == OCLBLAS_SUCCESS)
                *out = fresh;
            else
                free(fresh);
        }
    }
    oclblas__mutex_unlock(&ctx_lock);
    return st;
}

oclblas_status oclblas__devctx_pin(const oclblas__device_info *dev, const oclblas__devctx *cx)
{
    oclblas__devctx *fresh = malloc(sizeof *fresh);
    if (!fresh)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    oclblas_status st = OCLBLAS_SUCCESS;
    if (cx) {
        for (int k = 0; k < OCLBLAS__K_COUNT && st == OCLBLAS_SUCCESS; ++k) {
            if (cx->status[k] != OCLBLAS_SUCCESS)
                continue;
            if (!oclblas__params_legal(k, &cx->params[k], &dev->lim, NULL))
                st = OCLBLAS_INVALID_PARAMS;
            for (int c = 0; c < cx->num_classes[k] && st == OCLBLAS_SUCCESS; ++c)
                if (!oclblas__params_legal(k, &cx->classes[k][c].params, &dev->lim, NULL))
                    st = OCLBLAS_INVALID_PARAMS;
        }
        *fresh = *cx;
        fresh->dev = dev;
        fresh->pinned = 1;
    } else {
        /* Unpinned: the database's and the overrides' again. */
        st = oclblas__devctx_resolve(dev, fresh);
    }
    oclblas__mutex_lock(&ctx_lock);
    ctx_node *n = st == OCLBLAS_SUCCESS ? find_or_add(dev->id) : NULL;
    if (st == OCLBLAS_SUCCESS)
        st = n ? install(n, fresh) : OCLBLAS_OUT_OF_HOST_MEMORY;
    oclblas__mutex_unlock(&ctx_lock);
    if (st != OCLBLAS_SUCCESS)
        free(fresh);
    return st;
}
