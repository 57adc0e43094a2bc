/* sched.h - an algorithm as a schedule, and the one engine that runs it.
 *
 * Every algorithm is written once, as the straight-line program it has
 * always been: point-to-point calls (p2p.h), waits, copies, packing and
 * reductions (buf.h). Run directly, that program IS the blocking
 * collective. Run while a schedule is being built (sched_build), the same
 * helpers append one step each instead of acting:
 *
 *   SEND / RECV  post a nonblocking send or receive into a request slot
 *   START        start a nonblocking call given as a function (the
 *                vendor's own collective behind a persistent request)
 *   WAIT         do not go on until these slots have completed
 *   COPY, PACK, UNPACK, REDUCE, MEMCPY   local work on the buffers
 *
 * The steps keep the algorithm's own order, so a pipeline that posts the
 * receive of segment k+1 before reducing segment k keeps that overlap: the
 * engine issues every step up to the first WAIT that is not satisfied and
 * returns. sched_advance is called again by whoever makes progress
 * (shim/nbc.c); the schedule is finished when the last step has run.
 * A persistent collective builds its schedule once and restarts it.
 *
 * Control flow of an algorithm depends only on its arguments (counts,
 * ranks, types), never on received data, which is what makes recording
 * sound; temporary buffers and derived types made while recording belong
 * to the schedule and live until sched_free. See doc/schedules.md. */
#ifndef COLLSHIM_SCHED_H
#define COLLSHIM_SCHED_H

#include "engine/call.h"

enum sched_step_kind {
    STEP_SEND, STEP_RECV, STEP_WAIT, STEP_COPY, STEP_PACK, STEP_UNPACK, STEP_REDUCE,
    STEP_MEMCPY, STEP_START
};

/* A nonblocking call a START step makes with the schedule's arguments. */
typedef int (*sched_start_fn)(const struct coll_args *a, MPI_Request *req);

struct sched_step {
    enum sched_step_kind kind;
    int slot;               /* SEND/RECV: request slot; WAIT: first entry of waits */
    int n;                  /* WAIT: number of slots */
    int peer;               /* SEND/RECV: rank on the shadow communicator */
    const void *src;        /* SEND, COPY, PACK, UNPACK, REDUCE (in), MEMCPY */
    void *dst;              /* RECV, COPY, PACK, UNPACK, REDUCE (inout), MEMCPY */
    MPI_Aint count, count2; /* elements (COPY: source, destination); MEMCPY bytes */
    MPI_Datatype type, type2;
    MPI_Op op;
    sched_start_fn start;   /* START */
};

struct sched {
    struct coll_args args;  /* what the algorithm was built with; steps use it */
    int alg;                /* registry row */
    struct sched_step *steps;
    int nsteps, capsteps;
    MPI_Request *reqs;      /* one per SEND/RECV step */
    int nreqs, capreqs;
    int *waits;             /* slots named by WAIT steps */
    int nwaits, capwaits;
    void **mem;             /* temporaries allocated while recording */
    int nmem, capmem;
    MPI_Datatype *types;    /* derived types made while recording */
    int ntypes, captypes;
    int *peers;             /* copy of the context's rank map (or NULL) */
    int pc;                 /* next step to run */
    int err;                /* first error, MPI error code */
    int built;              /* recording finished without error */
};

/* Record algorithm `run` for the call *a into a new schedule (*out): run
 * gets a copy of *a whose sched is the new schedule, so every helper it
 * calls appends a step. The schedule's args are that copy (sched NULL
 * again); a->peers is copied too. */
int sched_build(const struct coll_args *a, int alg, coll_algorithm_fn run,
                struct sched **out);
/* Rewind a finished schedule to its first step (persistent restart). */
void sched_restart(struct sched *s);
/* Run steps until a WAIT is not yet satisfied. Returns 1 when the schedule
 * has finished (s->err tells how), 0 when it waits. */
int sched_advance(struct sched *s);
/* Free the schedule, its temporaries and types. Requests still pending
 * (after an error) are freed without waiting. */
void sched_free(struct sched *s);

/* Appending steps; called by the helpers while recording. They return an
 * MPI error code (MPI_ERR_NO_MEM) or MPI_SUCCESS. */
int sched_add_p2p(struct sched *s, enum sched_step_kind kind, const void *buf, int count,
                  MPI_Datatype type, int peer, MPI_Request *req);
int sched_add_wait(struct sched *s, int n, MPI_Request *reqs);
/* A START step: start(args, slot) when the schedule reaches it; *req gets
 * the slot's token, for a WAIT. */
int sched_add_start(struct sched *s, sched_start_fn start, MPI_Request *req);
int sched_add_local(struct sched *s, const struct sched_step *step);
int sched_keep_mem(struct sched *s, void *base);
int sched_keep_type(struct sched *s, MPI_Datatype type);

/* A request slot as the algorithm sees it while recording: a token in its
 * MPI_Request variable, never passed to MPI. */
#define SCHED_TOKEN(slot) ((MPI_Request)(intptr_t)((slot) + 1))
#define SCHED_SLOT(req) ((int)((intptr_t)(req) - 1))


#endif
