/*
 * The executor: enqueues a plan. It takes one program from the cache per
 * distinct parameter set the plan uses (not one per step) and a kernel
 * object per step (the same ones from one call of a plan to the next, so
 * that their arguments are mostly set already), the scratch set when the plan needs one, and chains the
 * steps as the plan says: a step waits for the steps it reads from, and the
 * first writers of the scratch set wait for its previous use. On an
 * in-order queue the queue itself keeps that order, so the steps carry no
 * events and no wait lists among themselves (an event costs the host about
 * as much as a launch on NVIDIA's driver), and the scratch set's previous
 * use needs no waiting when it was on the same queue (nor an event: the
 * set keeps the queue); on an out-of-order queue events chain them. Events
 * are made only where something waits for them or the caller (or, out of
 * order, the scratch set) needs the last one. Nothing here
 * decides anything about the problem: that is the plan's job
 * (plan/plan.c).
 */
#include "runtime/execute.h"
#include "runtime/launch.h"
#include "runtime/programs.h"
#include "runtime/scratch.h"

#include <string.h>

/* Whether a later step of the plan waits for step i. */
static int waited_for(const oclblas__plan *plan, int i, int upto)
{
    for (int j = i + 1; j < upto; ++j)
        if (plan->step[j].after & (1u << i))
            return 1;
    return 0;
}

/* The step whose program and kernel object are taken o-th: the main
 * kernel's first (a build that fails is its, not a helper's), then the
 * others in order. */
static int taken(const oclblas__plan *plan, int o)
{
    return o == 0 ? plan->main : o <= plan->main ? o - 1 : o;
}

oclblas_status oclblas__execute(const oclblas__devctx *cx, const oclblas__plan *plan, cl_context ctx,
                                cl_command_queue q, const cl_mem operands[3], cl_event *event,
                                cl_event step_events[OCLBLAS__MAX_STEPS])
{
    const int n = plan->num_steps;
    if (n == 0)
        return oclblas__marker(q, event);
    oclblas__program *prog[OCLBLAS__MAX_STEPS] = {NULL};
    int owns[OCLBLAS__MAX_STEPS] = {0}; /* step i holds the reference to prog[i] */
    oclblas__kernel *kern[OCLBLAS__MAX_STEPS] = {NULL};
    oclblas_status st = OCLBLAS_SUCCESS;
    for (int o = 0; o < n && st == OCLBLAS_SUCCESS; ++o) {
        const int i = taken(plan, o);
        const oclblas__step *s = &plan->step[i];
        for (int j = 0; j < n && !prog[i]; ++j)
            if (j != i && prog[j] && plan->step[j].kernel == s->kernel &&
                !memcmp(&plan->step[j].params, &s->params, sizeof s->params))
                prog[i] = prog[j];
        if (!prog[i]) {
            st = oclblas__program_get(ctx, cx->dev, s->kernel, &s->params, &prog[i]);
            owns[i] = st == OCLBLAS_SUCCESS;
        }
        if (st == OCLBLAS_SUCCESS)
            st = oclblas__kernel_take(prog[i], s->entry, &kern[i]);
        if (st != OCLBLAS_SUCCESS)
            kern[i] = NULL;
    }

    oclblas__scratch *scratch = NULL;
    cl_mem bufs[OCLBLAS__BUF_COUNT] = {operands[0], operands[1], operands[2]};
    cl_event scratch_wait = NULL;
    int uses_scratch = 0;
    for (int i = 0; i < OCLBLAS__SCRATCH_SLOTS; ++i)
        uses_scratch |= plan->scratch[i] != 0;
    /* A single step without scratch has nothing to be ordered with. */
    const int in_order = (n > 1 || uses_scratch) && oclblas__queue_in_order(q);
    if (st == OCLBLAS_SUCCESS && uses_scratch)
        st = oclblas__scratch_take(ctx, q, in_order, plan->scratch, &scratch, bufs + OCLBLAS__BUF_S0, &scratch_wait);

    cl_event ev[OCLBLAS__MAX_STEPS] = {NULL};
    int enqueued = 0;
    for (int i = 0; i < n && st == OCLBLAS_SUCCESS; ++i) {
        const oclblas__step *s = &plan->step[i];
        cl_event wait[OCLBLAS__MAX_STEPS + 1];
        cl_uint nw = 0;
        for (int j = 0; j < i && !in_order; ++j)
            if ((s->after & (1u << j)) && ev[j])
                wait[nw++] = ev[j];
        if (s->after_scratch && scratch_wait)
            wait[nw++] = scratch_wait;
        const int last = i == n - 1;
        const int want =
            step_events || (!in_order && waited_for(plan, i, n)) || (last && (event || (scratch && !in_order)));
        st = oclblas__step_enqueue(q, kern[i], s, bufs, nw, wait, want ? &ev[i] : NULL);
        if (st == OCLBLAS_SUCCESS)
            enqueued = i + 1;
    }

    cl_event last_use = enqueued ? ev[enqueued - 1] : NULL, marker = NULL;
    if (scratch && !in_order && !last_use && enqueued) {
        /* On an out-of-order queue the set's last use must be an event: a
         * marker ends after every step enqueued; without one, they finish
         * before the set is used again. (In order, the queue is enough.) */
        if (oclblas__marker(q, &marker) == OCLBLAS_SUCCESS)
            last_use = marker;
        else
            clFinish(q);
    }
    if (scratch && st != OCLBLAS_SUCCESS && enqueued > 1 && !in_order) {
        /* A step failed after others ran: those that nothing after them
         * waits for may run in any order (on an out-of-order queue), so they
         * finish before the scratch set is used again. */
        cl_event leaves[OCLBLAS__MAX_STEPS];
        cl_uint nl = 0;
        for (int i = 0; i < enqueued; ++i)
            if (ev[i] && !waited_for(plan, i, enqueued))
                leaves[nl++] = ev[i];
        if (nl > 1)
            clWaitForEvents(nl, leaves);
    }
    if (scratch)
        oclblas__scratch_put(scratch, enqueued ? q : NULL, last_use);
    if (marker)
        clReleaseEvent(marker);

    for (int i = 0; i < n; ++i) {
        if (step_events) {
            step_events[i] = ev[i]; /* the caller's, success or not */
            if (st == OCLBLAS_SUCCESS && event && i == n - 1 && ev[i])
                clRetainEvent(ev[i]);
        } else if (ev[i] && !(st == OCLBLAS_SUCCESS && event && i == n - 1)) {
            clReleaseEvent(ev[i]);
        }
    }
    /* Back in the reverse order, so that the next call of the plan takes
     * each step's kernel object again, whose arguments it mostly has. */
    for (int o = n - 1; o >= 0; --o)
        if (kern[taken(plan, o)])
            oclblas__kernel_put(prog[taken(plan, o)], kern[taken(plan, o)]);
    if (st == OCLBLAS_SUCCESS && event)
        *event = ev[n - 1];
    for (int i = 0; i < n; ++i)
        if (owns[i])
            oclblas__program_release(prog[i]);
    return st;
}
