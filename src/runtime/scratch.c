/*
 * Scratch buffers for the padded operands of the gemm_fast plan, the
 * partial sums of split reductions (gemv, and gemm_fast's split of k) and
 * the counters of splits finished in one launch (zero between uses). One set per context, grown when a
 * call needs more and otherwise reused, so that calls do not allocate. The
 * set is locked from the first enqueue that uses it to the last, and it
 * remembers its last use: the next call, on whatever queue of the context,
 * makes its first write wait for it, so two calls can never overwrite each
 * other's operands. The last use is a queue (retained) and the event of
 * the use's last command, where the call made one; a call on an in-order
 * queue makes none unless its caller asks (an event costs the host about
 * as much as a launch), and waits for nothing when the last use was on the
 * same queue. A call on another queue then waits for a marker that it
 * enqueues on the last queue, which ends after everything enqueued there
 * before. A set goes with its context (lifetime.c).
 */
#include "runtime/scratch.h"
#include "runtime/lifetime.h"
#include "util/util.h"

#include <stdlib.h>

struct oclblas__scratch {
    cl_context ctx;
    cl_mem buf[OCLBLAS__SCRATCH_SLOTS];
    size_t bytes[OCLBLAS__SCRATCH_SLOTS];
    cl_command_queue writer[OCLBLAS__SCRATCH_SLOTS]; /* the queue that last wrote each; compared, never used */
    int taken[OCLBLAS__SCRATCH_SLOTS];                /* the slots of the call that holds the lock */
    cl_event last_use;           /* of the last use's last command; NULL: none made (or finished) */
    cl_command_queue last_queue; /* of the last use (retained); NULL: never used */
    pthread_mutex_t lock;
    struct oclblas__scratch *next;
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static oclblas__scratch *sets;

/* The scratch sets as the lifetime of contexts sees them (runtime/lifetime.c). */
static int context_refs(cl_context ctx, int per_program, int per_buffer, int *writers)
{
    return oclblas__scratch_refs(ctx, per_buffer, writers);
}
static const oclblas__context_user context_user = {context_refs, oclblas__scratch_drop};

/* Returns the context's set locked. Lock order: list_lock, then a set's lock. */
static oclblas__scratch *find_and_lock(cl_context ctx)
{
    for (;;) {
        oclblas__mutex_lock(&list_lock);
        oclblas__scratch *s = sets;
        while (s && s->ctx != ctx)
            s = s->next;
        if (s) {
            oclblas__mutex_lock(&s->lock);
            oclblas__mutex_unlock(&list_lock);
            return s;
        }
        oclblas__context_user_add(&context_user);
        s = calloc(1, sizeof *s);
        if (!s) {
            oclblas__mutex_unlock(&list_lock);
            return NULL;
        }
        s->ctx = ctx;
        clRetainContext(ctx);
        pthread_mutex_init(&s->lock, NULL);
        s->next = sets;
        sets = s;
        oclblas__mutex_unlock(&list_lock);
        /* With no lock held (it may let go of other contexts' sets), and
         * after the set is listed, so that whoever lets go of the context
         * meanwhile finds it; then the set is looked up again. */
        oclblas__context_hold(ctx);
    }
}

/* A buffer of `bytes`, zero where `zero` (the counters' slot; copied from
 * the host as the buffer is made, so that no command has to run first). */
static cl_mem create(cl_context ctx, size_t bytes, int zero, cl_int *err)
{
    if (!zero)
        return clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, err);
    void *zeros = calloc(1, bytes);
    if (!zeros) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, zeros, err);
    free(zeros);
    return m;
}

static oclblas_status grow(oclblas__scratch *s, int slot, size_t bytes)
{
    if (bytes <= s->bytes[slot])
        return OCLBLAS_SUCCESS;
    /* Round up, so that a slowly growing sequence of sizes reallocates rarely. */
    size_t want = bytes + bytes / 4;
    const int zero = slot == OCLBLAS__BUF_S3 - OCLBLAS__BUF_S0;
    cl_int err;
    cl_mem m = create(s->ctx, want, zero, &err);
    if (err != CL_SUCCESS) {
        want = bytes;
        m = create(s->ctx, want, zero, &err);
        if (err != CL_SUCCESS)
            return (oclblas_status)err;
    }
    /* The old buffer lives on until the commands that use it have finished. */
    if (s->buf[slot])
        clReleaseMemObject(s->buf[slot]);
    s->buf[slot] = m;
    s->bytes[slot] = want;
    s->writer[slot] = NULL;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__scratch_take(cl_context ctx, cl_command_queue q, int in_order,
                                     const size_t bytes[OCLBLAS__SCRATCH_SLOTS], oclblas__scratch **out,
                                     cl_mem buf[OCLBLAS__SCRATCH_SLOTS], cl_event *wait)
{
    oclblas__scratch *s = find_and_lock(ctx);
    if (!s)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    oclblas_status st = OCLBLAS_SUCCESS;
    for (int i = 0; i < OCLBLAS__SCRATCH_SLOTS && st == OCLBLAS_SUCCESS; ++i)
        st = grow(s, i, bytes[i]);
    if (st != OCLBLAS_SUCCESS) {
        oclblas__mutex_unlock(&s->lock);
        return st;
    }
    *out = s;
    for (int i = 0; i < OCLBLAS__SCRATCH_SLOTS; ++i) {
        s->taken[i] = bytes[i] != 0;
        buf[i] = bytes[i] ? s->buf[i] : NULL;
    }
    /* An in-order queue runs this call after its own last use anyway. */
    *wait = NULL;
    if (!(in_order && s->last_queue == q)) {
        if (!s->last_use && s->last_queue) {
            cl_event marker = NULL;
            if (clEnqueueMarkerWithWaitList(s->last_queue, 0, NULL, &marker) == CL_SUCCESS)
                s->last_use = marker;
            else
                clFinish(s->last_queue);
        }
        /* A command may wait on another queue's event only once that queue
         * is flushed (OpenCL 1.2, 5.13), and nothing says its caller did:
         * the marker above is newer than anything the caller enqueued. */
        if (s->last_use && s->last_queue && s->last_queue != q)
            clFlush(s->last_queue);
        *wait = s->last_use;
    }
    return OCLBLAS_SUCCESS;
}

void oclblas__scratch_put(oclblas__scratch *s, cl_command_queue q, cl_event last_use)
{
    if (q) {
        for (int i = 0; i < OCLBLAS__SCRATCH_SLOTS; ++i)
            if (s->taken[i])
                s->writer[i] = q;
        if (q != s->last_queue) {
            clRetainCommandQueue(q);
            if (s->last_queue)
                clReleaseCommandQueue(s->last_queue);
            s->last_queue = q;
        }
        /* The use before this one was waited for by this one's first write. */
        if (last_use)
            clRetainEvent(last_use);
        if (s->last_use)
            clReleaseEvent(s->last_use);
        s->last_use = last_use;
    }
    oclblas__mutex_unlock(&s->lock);
}

static void free_set(oclblas__scratch *s)
{
    for (int i = 0; i < OCLBLAS__SCRATCH_SLOTS; ++i)
        if (s->buf[i])
            clReleaseMemObject(s->buf[i]);
    if (s->last_use)
        clReleaseEvent(s->last_use);
    if (s->last_queue)
        clReleaseCommandQueue(s->last_queue);
    clReleaseContext(s->ctx);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void oclblas__scratch_drop(cl_context ctx)
{
    oclblas__scratch *gone = NULL;
    oclblas__mutex_lock(&list_lock);
    for (oclblas__scratch **pp = &sets; *pp;) {
        oclblas__scratch *s = *pp;
        if (!ctx || s->ctx == ctx) {
            *pp = s->next;
            s->next = gone;
            gone = s;
        } else {
            pp = &s->next;
        }
    }
    oclblas__mutex_unlock(&list_lock);
    while (gone) {
        oclblas__scratch *next = gone->next;
        /* Wait for a call that is enqueueing with it right now; the buffers
         * live on until the commands that use them have finished. */
        oclblas__mutex_lock(&gone->lock);
        oclblas__mutex_unlock(&gone->lock);
        free_set(gone);
        gone = next;
    }
}

int oclblas__scratch_refs(cl_context ctx, int per_buffer, int *writers)
{
    int refs = 0;
    *writers = 0;
    oclblas__mutex_lock(&list_lock);
    oclblas__scratch *s = sets;
    while (s && s->ctx != ctx)
        s = s->next;
    if (s && pthread_mutex_trylock(&s->lock) != 0) {
        refs = -1; /* a call is using it */
    } else if (s) {
        /* A finished last use needs no waiting for, and its event may keep
         * the caller's queue alive (PoCL), and with it the context. */
        cl_int done = CL_QUEUED;
        if (s->last_use && clGetEventInfo(s->last_use, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof done, &done,
                                          NULL) == CL_SUCCESS &&
            (done == CL_COMPLETE || done < 0)) {
            clReleaseEvent(s->last_use);
            s->last_use = NULL;
        }
        int buffers = 0;
        for (int i = 0; i < OCLBLAS__SCRATCH_SLOTS; ++i) {
            if (!s->buf[i])
                continue;
            ++buffers;
            int seen = 0;
            for (int j = 0; j < i; ++j)
                seen |= s->buf[j] && s->writer[j] == s->writer[i];
            *writers += s->writer[i] && !seen;
        }
        refs = 1 + buffers * per_buffer;
        oclblas__mutex_unlock(&s->lock);
    }
    oclblas__mutex_unlock(&list_lock);
    return refs;
}
