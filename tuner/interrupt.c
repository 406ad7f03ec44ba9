/*
 * Interrupts of oclblas-tune: SIGINT and SIGTERM are blocked in every
 * thread and taken by a thread of their own with sigwait, so that they
 * never land in a compiler. A terminal sends Ctrl-C's SIGINT to every
 * process of its foreground group, the linker processes that PoCL starts
 * for each kernel included; a linker killed that way made PoCL abort the
 * tuner (exit 134, no entry). Started with the signals blocked, those
 * processes keep them pending and finish their work. The first interrupt
 * only raises a flag (the tuner stops after the candidate in flight and
 * writes its entry); the second runs the tuner's last words and ends the
 * process.
 */
#include "interrupt.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static atomic_int interrupts;
static atomic_int first_signal;
static pthread_t taker;
static sigset_t taken;
static void (*last_words)(void);

int tune_interrupted(void) { return atomic_load(&interrupts) > 0; }

int tune_interrupt_status(void)
{
    const int sig = atomic_load(&first_signal);
    return sig ? 128 + sig : 0;
}

const char *tune_interrupt_word(void) { return atomic_load(&first_signal) == SIGTERM ? "terminated" : "interrupted"; }

/* A thread that a library started before main (OpenBLAS's pool) does not
 * block the signals, and the kernel may pick it: it hands the signal on. */
static void forward(int sig)
{
    const int saved = errno;
    pthread_kill(taker, sig);
    errno = saved;
}

static void *take(void *unused)
{
    (void)unused;
    for (;;) {
        int sig;
        if (sigwait(&taken, &sig) != 0)
            continue;
        if (atomic_load(&first_signal) == 0)
            atomic_store(&first_signal, sig);
        if (atomic_fetch_add(&interrupts, 1) == 0) {
            fprintf(stderr, "\noclblas-tune: %s (%s): stopping after the candidate in flight (interrupt again to "
                            "stop at once)\n",
                    tune_interrupt_word(), sig == SIGTERM ? "SIGTERM" : "SIGINT");
            continue;
        }
        fprintf(stderr, "\noclblas-tune: %s again: stopping at once\n", tune_interrupt_word());
        if (last_words)
            last_words();
        _exit(tune_interrupt_status());
    }
    return NULL;
}

int tune_interrupt_start(void (*at_once)(void))
{
    last_words = at_once;
    sigemptyset(&taken);
    sigaddset(&taken, SIGINT);
    sigaddset(&taken, SIGTERM);
    sigset_t old;
    if (pthread_sigmask(SIG_BLOCK, &taken, &old) != 0)
        return 0;
    if (pthread_create(&taker, NULL, take, NULL) != 0) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return 0;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward;
    sa.sa_flags = SA_RESTART;
    sigfillset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return 1;
}

void tune_interrupt_ignore(void)
{
    /* An ignored signal stays ignored across exec: the linkers it starts ignore it too. */
    signal(SIGINT, SIG_IGN);
}
