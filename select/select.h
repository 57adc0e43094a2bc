/* select.h - the selection layer: from a call to the algorithm that runs
 * it. The key of a call (key.c), the tables in precedence order
 * (tables.c), the walk over them and the remembered choice (choose.c), the
 * step runner of composed algorithms (step.c). It sits under the shim and
 * above the tables and the algorithms: it is handed what it needs of the
 * layers above (select_configure) and never calls them. */
#ifndef COLLSHIM_SELECT_H
#define COLLSHIM_SELECT_H

#include "algorithms/registry.h"
#include "engine/tls.h"
#include "tuning/tuning.h"

/* ---- key.c: the selection key of a call ---- */
/* a->in_place, a->commutative and a->predefined_op from the arguments. */
void select_call_facts(struct coll_args *a);
/* The call's selection bytes (README, "message size"): the same number on
 * every rank of the communicator, both groups of an intercommunicator. */
uint64_t select_key_bytes(const struct coll_args *a);
/* The key of a call whose facts and bytes are set. */
struct coll_key select_key(const struct coll_args *a);

/* ---- tables.c: COLLSHIM_TUNE (or collshim_tune()), COLLSHIM_TUNING_FILE,
 * the measured built-in rules, the built-in table, in precedence order;
 * the machine model (model.c) chooses between the measured built-in rules
 * and the built-in table ---- */
enum select_source {
    SELECT_TUNE,      /* COLLSHIM_TUNE or collshim_tune() */
    SELECT_FILE,      /* COLLSHIM_TUNING_FILE */
    SELECT_MEASURED,  /* built-in rules measured to beat the model */
    SELECT_BUILTIN,   /* the built-in table */
    SELECT_TABLES,    /* (how many tables) */
    SELECT_BY_MODEL = SELECT_TABLES, /* the machine model (tune_choice.table) */
    SELECT_BY_LEARNING,              /* learning (select/learn.c) */
    SELECT_SOURCES
};
/* What the report and COLLSHIM_VERBOSE call each source. */
extern const char *const select_source_names[SELECT_SOURCES];
/* Bit s of select_sources[alg]: the source s chose row alg at least once. */
extern unsigned select_sources[COLLSHIM_MAX_ALGORITHMS];
/* Set that bit (source -1: none); a load first, so a repeated source
 * writes nothing. */
void select_note_source(int alg, int source);
/* Parse the sources (NULL or "": none); a source with an error is said by
 * world rank 0 and ignored. */
void select_tables_load(const char *tune, const char *file, int world_rank);
/* Replace the COLLSHIM_TUNE slot at run time (collshim_tune()); safe while
 * other threads select: the old table is freed once no walk can hold it. */
int select_tables_set_tune(const char *rules, char *err, size_t errlen);
void select_tables_free(void);
/* The tables for one walk: every select_tables_enter is followed by
 * select_tables_leave once the walk no longer reads them. */
void select_tables_enter(const struct tune_table *tables[SELECT_TABLES]);
void select_tables_leave(void);
/* Bumped whenever a table changes: voids the remembered choices. */
unsigned long select_tables_generation(void);

/* ---- model.c: the machine model's choice ---- */
struct machine_model;
/* Hand the model over (the shim, once, in MPI_Init); everywhere: it
 * covers calls with several ranks per node too (COLLSHIM_MODEL=1, or auto
 * where no node has more ranks than cores). */
void select_model_set(const struct machine_model *m, int everywhere);
/* 1 and the cheapest modelled algorithm that can run key, where the model
 * covers it (a valid model; an intracommunicator that spans nodes, with one
 * rank per node unless everywhere; known bytes); else 0. */
int select_model_choose(const struct coll_key *key, struct tune_choice *choice);
/* The predicted seconds of registry row alg for key where the model
 * covers it and the row can run it, else COST_UNKNOWN (-1); a windowed
 * row is priced at its cheapest window, the one the model would run it
 * with, which goes to *outstanding (if not NULL; 0: the default). */
double select_model_cost(int alg, const struct coll_key *key, int *outstanding);
/* ":outstanding=N" for a window of N, "" for 0 (the default): how a rule,
 * a collbench arm and every report name a windowed algorithm's window. */
const char *select_window_name(int outstanding, char *buf, size_t len);
/* COLLSHIM_EXPLAIN: the predicted cost of each candidate, one line ("" if
 * the model does not cover key). */
void select_model_explain(const struct coll_key *key, char *buf, size_t len);
/* Choices the model computed rather than remembered, in all threads. */
unsigned long select_model_evaluations(void);

/* The slot of key in the remembered choices (choose.c, model.c). */
static inline uint64_t coll_key_hash(const struct coll_key *key)
{
    uint64_t h = (uint64_t)key->coll * 0x9e3779b97f4a7c15ull ^ key->bytes * 0xff51afd7ed558ccdull ^
                 (uint64_t)key->np;
    return h ^ h >> 29;
}

/* ---- choose.c ---- */
/* The choice of the tables and the model for key, without learning and
 * without remembering (learning's starting point). */
struct tune_choice select_walk(const struct coll_key *key);
struct select_settings {
    int verbose; /* COLLSHIM_VERBOSE: a line the first time each choice runs */
    int explain; /* COLLSHIM_EXPLAIN: with it, the walk over the rules that chose it */
};
void select_configure(const struct select_settings *settings);
/* The algorithm for a call whose key facts are set, a->params filled in.
 * nonblocking: ixxx rules apply first; sub: a step of a composed algorithm
 * (no vendor, no algorithm that needs the caller's communicator: the
 * built-in table answers where the loaded tables do not). */
struct tune_choice select_choose(struct coll_args *a, int nonblocking, int sub);
/* Count one run of registry row alg (collshim_algorithm_calls) and make
 * it this thread's last. */
void select_count(int alg);
extern unsigned long long select_calls[]; /* runs of each registry row */
extern SHIM_TLS int select_last_alg;      /* this thread's last call's row, or -1 */

/* ---- step.c ---- */
struct sub_group;
/* The step runner the algorithm layer is handed (coll_env.step): sub runs
 * over the group g as one step of parent, selected as a call of its own. */
int select_step(const struct coll_args *parent, const struct sub_group *g,
                struct coll_args *sub);

#endif
