/* learn.h - COLLSHIM_LEARN: learning the fastest algorithm on the
 * program's own blocking calls (learn.c, doc/learning.md). */
#ifndef COLLSHIM_LEARN_H
#define COLLSHIM_LEARN_H

#include <stdio.h>

struct coll_args;
struct comm_ctx;
struct learn_ctx; /* a communicator's learning state (learn.c) */

extern int learn_enabled;  /* COLLSHIM_LEARN=1 */
extern int learn_delay_on; /* COLLSHIM_TEST_DELAY is set */
/* COLLSHIM_LEARN_CHARGE: what a measured call costs (doc/learning.md) */
enum learn_charge {
    LEARN_CHARGE_OWN,        /* the slowest rank's own time (default) */
    LEARN_CHARGE_LAST_ENTRY, /* last rank's entry to last rank's exit, common clock */
};
extern enum learn_charge learn_charge;
/* COLLSHIM_TEST_NOMEM=WHAT@RANK (testing aid): on that rank of
 * MPI_COMM_WORLD, learning's allocations of WHAT fail: ctx (a
 * communicator's state) or class (every class's). */
#define LEARN_NOMEM_CTX 1
#define LEARN_NOMEM_CLASS 2
extern int learn_test_nomem;

/* Read COLLSHIM_LEARN, COLLSHIM_LEARN_OUT, COLLSHIM_LEARN_CHARGE, COLLSHIM_TEST_DELAY and
 * COLLSHIM_TEST_NOMEM; rank 0 of MPI_COMM_WORLD reports a malformed
 * testing aid. Called after the tables. */
void learn_config(int world_rank);
/* Run a blocking intracommunicator call with learning on: explore, or the
 * settled choice, or the tables' choice where learning does not apply. */
int learn_run(struct coll_args *a, struct comm_ctx *ctx);
/* At a context's destruction: keep its accounting, free its state. */
void learn_ctx_free(struct learn_ctx *lc);
/* Testing aid (COLLSHIM_TEST_DELAY): sleep before registry row alg runs. */
void learn_test_delay(int alg);
/* At MPI_Finalize, collective over MPI_COMM_WORLD (vendor calls only):
 * gather every rank's results; rank 0 writes COLLSHIM_LEARN_OUT and keeps
 * the rows for the report. */
void learn_finalize(void);
/* Rank 0: the learning section of the COLLSHIM_REPORT file. */
void learn_report(FILE *f);
void learn_free(void);


/* ---- between learn.c and learn_results.c ---- */
#include "shim/learn_settle.h"

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

/* Walk the live learning states at MPI_Finalize (learn.c). */
void learn_account_live(void);
#endif
