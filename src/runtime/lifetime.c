/*
 * The OpenCL contexts the library holds. Its caches keep objects per
 * context (programs and their kernels, scratch buffers and the event of
 * their last use), and each of them keeps the context alive. A context is
 * let go of, with everything the library holds in it:
 *   - on request, oclblas_context_release(ctx);
 *   - by itself, once the caller has let go of the context: when a new
 *     context is first seen, every other held context whose reference count
 *     is no more than the library's own references is dropped. So a program
 *     that creates and releases contexts without ever calling the release
 *     keeps at most the last one.
 * The library's own references are its explicit retains (one here, one per
 * cached program, one per scratch set) and, in implementations that count
 * them (PoCL does), one for each program and buffer it created in the
 * context: how much a program and a buffer raise the count is measured once
 * per context when it is first seen. Kernels and events are taken to add
 * nothing (true of PoCL); where they do, the count stays above the
 * library's share and the context is kept until it is released by request,
 * never dropped while in use. One hidden reference is known: a PoCL buffer
 * keeps the event of the last command that wrote it, which keeps that
 * command's queue, which keeps the context. So where a queue raises the
 * count (PoCL; Intel's CPU runtime counts only explicit retains), a context
 * whose count exceeds the library's share by no more than the queues that
 * last wrote its scratch buffers loses its scratch set first, and is
 * looked at again at the next sweep. A destructor callback (OpenCL 3.0) cannot
 * serve here: it fires only once the context is destroyed, which the
 * library's own objects prevent.
 */
#include "runtime/lifetime.h"
#include "util/util.h"

#include <stdlib.h>

typedef struct held {
    cl_context ctx;
    int per_program, per_buffer, per_queue; /* how much one of each raises the reference count */
    struct held *next;
} held;

/* Lock order: drop_lock, then held_lock; drop_lock before the caches' locks.
 * drop_lock serializes every letting go, so that a held context stays alive
 * (by this list's retain) while a sweep reads its reference count. */
static pthread_mutex_t drop_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static held *held_list;

/* The caches, in the order they named themselves; users_lock is taken
 * alone, never around a call out. */
#define MAX_USERS 4
static pthread_mutex_t users_lock = PTHREAD_MUTEX_INITIALIZER;
static const oclblas__context_user *users[MAX_USERS];
static int num_users;

void oclblas__context_user_add(const oclblas__context_user *u)
{
    oclblas__mutex_lock(&users_lock);
    int known = 0;
    for (int i = 0; i < num_users; ++i)
        known |= users[i] == u;
    if (!known && num_users < MAX_USERS)
        users[num_users++] = u;
    oclblas__mutex_unlock(&users_lock);
}

/* The caches named so far, into out; returns how many. */
static int users_now(const oclblas__context_user *out[MAX_USERS])
{
    oclblas__mutex_lock(&users_lock);
    const int n = num_users;
    for (int i = 0; i < n; ++i)
        out[i] = users[i];
    oclblas__mutex_unlock(&users_lock);
    return n;
}

static cl_uint reference_count(cl_context ctx)
{
    cl_uint count = 0;
    if (clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, NULL) != CL_SUCCESS)
        return 0;
    return count;
}

typedef enum { PROBE_PROGRAM, PROBE_BUFFER, PROBE_QUEUE } probe_kind;

/* How much creating an object of a kind raises ctx's reference count, 0
 * or 1. The caller's other threads may change the count meanwhile: a
 * reading that does not add up is taken again, and after three the answer
 * is 0, which can only make the library keep the context (and, for a
 * queue, its scratch set) longer. */
static int measure(cl_context ctx, probe_kind kind)
{
    static const char *probe = "kernel void oclblas_probe(void) {}";
    cl_device_id dev = NULL;
    if (kind == PROBE_QUEUE && clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) != CL_SUCCESS)
        return 0;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const cl_uint before = reference_count(ctx);
        cl_int err;
        cl_program p = NULL;
        cl_mem m = NULL;
        cl_command_queue q = NULL;
        if (kind == PROBE_PROGRAM)
            p = clCreateProgramWithSource(ctx, 1, &probe, NULL, &err);
        else if (kind == PROBE_BUFFER)
            m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float), NULL, &err);
        else
            q = clCreateCommandQueue(ctx, dev, 0, &err);
        if (err != CL_SUCCESS)
            return 0;
        const cl_uint during = reference_count(ctx);
        if (p)
            clReleaseProgram(p);
        if (m)
            clReleaseMemObject(m);
        if (q)
            clReleaseCommandQueue(q);
        const cl_uint after = reference_count(ctx);
        if (before && after == before && (during == before || during == before + 1))
            return (int)(during - before);
    }
    return 0;
}

static held *find_locked(cl_context ctx)
{
    held *h = held_list;
    while (h && h->ctx != ctx)
        h = h->next;
    return h;
}

/* Drops the caches' objects in ctx (NULL: in every context) and this
 * list's retain. Called with drop_lock held. */
static void drop_locked(cl_context ctx)
{
    const oclblas__context_user *u[MAX_USERS];
    const int n_users = users_now(u);
    for (int i = 0; i < n_users; ++i)
        u[i]->drop(ctx);
    held *gone = NULL;
    oclblas__mutex_lock(&held_lock);
    for (held **pp = &held_list; *pp;) {
        held *h = *pp;
        if (!ctx || h->ctx == ctx) {
            *pp = h->next;
            h->next = gone;
            gone = h;
        } else {
            pp = &h->next;
        }
    }
    oclblas__mutex_unlock(&held_lock);
    while (gone) {
        held *next = gone->next;
        if (ctx)
            oclblas__log("context %p let go of", (void *)gone->ctx);
        clReleaseContext(gone->ctx);
        free(gone);
        gone = next;
    }
}

/* Drops every held context but `except` whose caller has let go of it.
 * Called with drop_lock held: no context leaves the list meanwhile. */
static void sweep_locked(cl_context except)
{
    oclblas__mutex_lock(&held_lock);
    size_t n = 0;
    for (held *h = held_list; h; h = h->next)
        ++n;
    held *copy = n ? malloc(n * sizeof *copy) : NULL;
    n = 0;
    for (held *h = held_list; h && copy; h = h->next)
        if (h->ctx != except)
            copy[n++] = *h;
    oclblas__mutex_unlock(&held_lock);
    const oclblas__context_user *u[MAX_USERS];
    const int n_users = users_now(u);
    for (size_t i = 0; i < n; ++i) {
        cl_context ctx = copy[i].ctx;
        int own = 1, writers = 0, in_use = 0, user_writers[MAX_USERS];
        for (int j = 0; j < n_users; ++j) {
            user_writers[j] = 0;
            const int refs = u[j]->refs(ctx, copy[i].per_program, copy[i].per_buffer, &user_writers[j]);
            in_use |= refs < 0;
            own += refs;
            writers += user_writers[j];
        }
        if (in_use)
            continue; /* a call is using it right now */
        const cl_uint count = reference_count(ctx);
        if (count && count <= (cl_uint)own) {
            oclblas__log("context %p: released by its caller (reference count %u, the library's %d)", (void *)ctx,
                         count, own);
            drop_locked(ctx);
        } else if (count && writers && copy[i].per_queue &&
                   count <= (cl_uint)(own + writers * copy[i].per_queue)) {
            /* A buffer may hold the last queue that wrote it (PoCL does),
             * and that queue the context: the caches' buffers go (the
             * scratch set: a later call makes it again), and the next look
             * tells. */
            oclblas__log("context %p: scratch let go of (reference count %u, the library's %d and %d queues)",
                         (void *)ctx, count, own, writers);
            for (int j = 0; j < n_users; ++j)
                if (user_writers[j])
                    u[j]->drop(ctx);
        } else {
            oclblas__log("context %p: kept (reference count %u, the library's %d)", (void *)ctx, count, own);
        }
    }
    free(copy);
}

void oclblas__context_hold(cl_context ctx)
{
    oclblas__mutex_lock(&held_lock);
    const int known = find_locked(ctx) != NULL;
    oclblas__mutex_unlock(&held_lock);
    if (known)
        return;
    held *h = calloc(1, sizeof *h);
    if (!h)
        return; /* untracked: kept until the memory cache is cleared */
    h->ctx = ctx;
    h->per_program = measure(ctx, PROBE_PROGRAM);
    h->per_buffer = measure(ctx, PROBE_BUFFER);
    h->per_queue = measure(ctx, PROBE_QUEUE);
    oclblas__mutex_lock(&drop_lock);
    oclblas__mutex_lock(&held_lock);
    const int raced = find_locked(ctx) != NULL;
    if (!raced) {
        clRetainContext(ctx);
        h->next = held_list;
        held_list = h;
    }
    oclblas__mutex_unlock(&held_lock);
    if (raced)
        free(h);
    else
        sweep_locked(ctx);
    oclblas__mutex_unlock(&drop_lock);
}

void oclblas__context_drop(cl_context ctx)
{
    oclblas__mutex_lock(&drop_lock);
    drop_locked(ctx);
    oclblas__mutex_unlock(&drop_lock);
}

size_t oclblas__contexts_held(cl_context only)
{
    size_t n = 0;
    oclblas__mutex_lock(&held_lock);
    for (held *h = held_list; h; h = h->next)
        n += !only || h->ctx == only;
    oclblas__mutex_unlock(&held_lock);
    return n;
}

oclblas_status oclblas_context_release(cl_context context)
{
    if (!context)
        return OCLBLAS_INVALID_ARGUMENT;
    /* Only compared, never passed to OpenCL unless held: the caller may
     * already have released it. */
    oclblas__context_drop(context);
    return OCLBLAS_SUCCESS;
}
