/* learn.h - COLLSHIM_LEARN: learning the fastest algorithm on the
 * program's own blocking calls (learn.c, doc/learning.md). */
#ifndef COLLSHIM_LEARN_H
#define COLLSHIM_LEARN_H

#include <mpi.h>
#include <stdio.h>

struct coll_args;
struct learn_ctx;   /* a communicator's learning state (learn.c) */
struct learn_class; /* one size class of it */

/* What learning is handed by the shim: the MPI library's own collectives
 * (its agreements and the gathering at MPI_Finalize must not run through
 * collshim) and the common clock. */
struct learn_io {
    int (*allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
    int (*gather)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
    int (*gatherv)(const void *, int, MPI_Datatype, void *, const int *, const int *,
                   MPI_Datatype, int, MPI_Comm);
    int (*get_library_version)(char *, int *);
    /* This rank's clock minus that of rank 0 of a's communicator (collective). */
    int (*clock_offset)(const struct coll_args *a, double *offset);
};

/* The settings of learning, as the environment gave them (shim/settings.c). */
struct learn_settings {
    int enabled;            /* COLLSHIM_LEARN */
    const char *out;        /* COLLSHIM_LEARN_OUT, or NULL */
    const char *charge;     /* COLLSHIM_LEARN_CHARGE: own (NULL) or last_entry */
    const char *test_nomem; /* COLLSHIM_TEST_NOMEM, or NULL */
    int verbose;            /* COLLSHIM_VERBOSE */
};
/* Take the settings (world rank 0 says what is malformed). Called after
 * the tables are loaded. */
void learn_configure(const struct learn_settings *settings, const struct learn_io *io,
                     int world_rank);
extern int learn_enabled; /* COLLSHIM_LEARN=1 */

/* ---- the hook: learning chooses, the shim runs, learning is told ----
 * learn_choose gives the algorithm for a blocking intracommunicator call
 * (a->params set) or -1, where the tables choose (learning does not apply,
 * or this call goes to them); when it gives one, the caller runs exactly
 * that and then calls learn_ran with the turn and the run's result.
 * *state is the communicator's learning state, NULL until its first
 * call (which is collective: every rank reaches it in the same call). */
struct learn_turn {
    struct learn_ctx *lc;
    struct learn_class *c; /* NULL: nothing to measure */
};
int learn_choose(struct learn_ctx **state, struct coll_args *a, struct learn_turn *turn);
void learn_ran(const struct learn_turn *turn, const struct coll_args *a, int err);
/* At a context's destruction: keep its accounting, free its state. */
void learn_ctx_free(struct learn_ctx *lc);
/* At MPI_Finalize, collective over MPI_COMM_WORLD (vendor calls only):
 * gather every rank's results; rank 0 writes COLLSHIM_LEARN_OUT and keeps
 * the rows for the report. */
void learn_finalize(void);
/* Rank 0: the learning section of the COLLSHIM_REPORT file. */
void learn_report(FILE *f);
void learn_free(void);


/* ---- between learn.c and learn_results.c ---- */
/* COLLSHIM_LEARN_CHARGE: what a measured call costs (doc/learning.md) */
enum learn_charge {
    LEARN_CHARGE_OWN,        /* the slowest rank's own time (default) */
    LEARN_CHARGE_LAST_ENTRY, /* last rank's entry to last rank's exit, common clock */
};
extern enum learn_charge learn_charge;
extern const struct learn_io *learn_io;
extern int learn_verbose;
/* COLLSHIM_TEST_NOMEM=WHAT@RANK (testing aid): on that rank of
 * MPI_COMM_WORLD, learning's allocations of WHAT fail: ctx (a
 * communicator's state) or class (every class's). */
#define LEARN_NOMEM_CTX 1
#define LEARN_NOMEM_CLASS 2
extern int learn_test_nomem;

#include "select/learn_settle.h"

/* What this process knows of one (collective, np, nodes, ppn, size class,
 * call flags): the settled choice, shared with later communicators of the
 * same shape, and the accounting of the contexts this process was rank 0 of
 * (so that, gathered, each communicator counts once). */
struct learn_entry {
    int coll, np, nodes, ppn, bucket, flags;
    int settled_alg; /* registry index; -1: not settled (yet) */
    struct coll_params params;
    int ncand, cand_alg[LEARN_MAX_CAND];
    size_t cand_seg[LEARN_MAX_CAND]; /* the candidates' seg=, 0: default */
    int cand_window[LEARN_MAX_CAND]; /* the candidates' outstanding=, 0: default */
    double vendor_mean, chosen_mean; /* seconds per call, slowest rank */
    double explore_calls, settled_calls, explore_time, extra_time, saved_time;
    double classes; /* classes (communicator, size class) counted here */
};

/* The entry of a key, made if missing (under the table's lock), or NULL
 * when the table is full. */
struct learn_entry *learn_entry_get(const struct learn_entry *key);
/* Settled algorithm of the key's entry (a copy of the entry in *known), or -1. */
int learn_entry_settled(const struct learn_entry *key, struct learn_entry *known);
/* Record a settling (the first one of the key stays). */
void learn_entry_settle(const struct learn_entry *result);
/* Add a class's accounting to its entry. */
void learn_entry_account(const struct learn_entry *counts);

/* At MPI_Finalize, once every live state is accounted (learn_finalize):
 * gather the entries at world rank 0, which writes the learned table. */
void learn_results_gather(void);
#endif
