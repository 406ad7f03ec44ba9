/*
 * Interrupts of oclblas-tune (Ctrl-C, SIGTERM). A compiler that the OpenCL
 * implementation runs for a candidate must never receive them: PoCL links
 * each kernel with a linker process started from the thread that builds,
 * and a linker killed by the terminal's SIGINT makes PoCL abort the whole
 * tuner. So the signals are blocked in every thread (and so in every
 * process those threads start) and taken by one thread of their own; the
 * tuner polls tune_interrupted() between candidates, and a second
 * interrupt ends the process at once.
 */
#ifndef OCLBLAS_TUNE_INTERRUPT_H
#define OCLBLAS_TUNE_INTERRUPT_H

#define TUNE_EXIT_INTERRUPTED 130 /* 128 + SIGINT, as a shell reports an interrupted command */
#define TUNE_EXIT_TERMINATED 143  /* 128 + SIGTERM */

/* Blocks SIGINT and SIGTERM in the calling thread, and so in every thread
 * and process started after it, and starts the thread that takes them.
 * Call it first in main, before any OpenCL call starts the drivers'
 * threads. The first interrupt sets tune_interrupted() and says on stderr
 * that the run stops after the candidate in flight; the second calls
 * at_once (from the signal thread, while the others go on: it must only
 * take locks that are never held for long) and ends the process with
 * tune_interrupt_status(). 0 when the thread cannot be started (the
 * signals then keep their default action). */
int tune_interrupt_start(void (*at_once)(void));

/* Nonzero once an interrupt came. */
int tune_interrupted(void);

/* The exit status of a run that an interrupt stopped: 128 + the first
 * signal, as a shell reports it (TUNE_EXIT_INTERRUPTED for SIGINT,
 * TUNE_EXIT_TERMINATED for SIGTERM); 0 when none came. */
int tune_interrupt_status(void);
/* "interrupted" (SIGINT) or "terminated" (SIGTERM), for the messages. */
const char *tune_interrupt_word(void);

/* For a process that must ignore the terminal's interrupts altogether (a
 * build process): SIGINT ignored, also in what it starts. */
void tune_interrupt_ignore(void);

#endif
