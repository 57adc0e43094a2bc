/* collshim.h - the public interface of libcollshim for programs that link
 * it (tests, collbench, colltune). Preloaded under an unmodified program
 * the library needs none of this: it is configured by the environment. */
#ifndef COLLSHIM_H
#define COLLSHIM_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COLLSHIM_VERSION "0.1.0"

/* The MPI this build is for: "openmpi" or "mpich". */
const char *collshim_flavour(void);

/* Threads: under MPI_THREAD_MULTIPLE every function here may be called
 * from any thread, alongside collectives on other threads. collshim_tune
 * replaces the rules for calls that select after it returns; a selection
 * running meanwhile on another thread finishes with the rules it started
 * with (the old table is freed only after it). collshim_bypass is one flag
 * for the whole process. The counters (collshim_algorithm_calls) count the
 * runs of every thread; collshim_last_algorithm is the calling thread's. */

/* Replace the COLLSHIM_TUNE rules of this process (same grammar, same
 * precedence). Every rank must set the same rules between the same
 * collectives. Returns MPI_SUCCESS, or MPI_ERR_ARG with the message in err
 * ("collshim_tune:1:12: unknown algorithm ..."). NULL or "" clears them. */
int collshim_tune(const char *rules, char *err, int errlen);

/* Calls made in this process to algorithm `name` of collective `coll`;
 * -1 when no such algorithm exists. */
long long collshim_algorithm_calls(const char *coll, const char *name);
/* Name of the algorithm the last collective call of this process ran. */
const char *collshim_last_algorithm(void);

/* Number of algorithms of coll (vendor included) and the name of the
 * i-th; NULL past the end or for an unknown collective. */
int collshim_algorithm_count(const char *coll);
const char *collshim_algorithm_name(const char *coll, int i);
/* Whether algorithm `name` of `coll` accepts a call with these properties
 * (its declared restrictions): 1 yes, 0 no, -1 unknown name. The node
 * layout is MPI_COMM_WORLD's when np is its size, else one node. */
int collshim_algorithm_can_run(const char *coll, const char *name, int np,
                               int count, int commutative, int predefined_op,
                               int in_place);

/* The node layout collshim keys comm's calls on (nodes=, ppn= rules):
 * its number of nodes and the ranks on its most populated node, whether
 * all nodes hold as many (*equal) and each node's ranks are consecutive
 * (*block); any pointer may be NULL. Collective over comm when it is the
 * first collective there (it makes comm's context). 0, or -1 when collshim
 * does not run comm's collectives (the vendor does) or comm is an
 * intercommunicator (no node levels there). */
int collshim_node_shape(MPI_Comm comm, int *nodes, int *ppn, int *equal, int *block);

/* The machine model the selection uses (doc/model.md) as one line of
 * `name value` pairs and where it comes from, into buf (len bytes);
 * 0, or -1 when there is none (one node, COLLSHIM_MODEL=0). */
int collshim_machine_model(char *buf, int len);

/* The model's predicted seconds for one call of algorithm `name` of coll
 * on comm, of `bytes` selection bytes (README, "message size") and
 * `count` elements (reductions), commutative predefined op, at the window
 * the model would run a windowed algorithm with; -1 when the
 * model has no prediction (no model, no cost for that algorithm, a
 * restriction forbids the call, an intercommunicator, a communicator
 * that has had no collective yet). Never communicates. */
double collshim_model_predict(MPI_Comm comm, const char *coll, const char *name,
                              unsigned long long bytes, long long count);

/* While on (nonzero), every collective of this process goes straight to the
 * MPI library, as under COLLSHIM_DISABLE=1; for reference results. */
void collshim_bypass(int on);

/* Shim contexts (shadow communicators) alive in this process. */
int collshim_live_contexts(void);

/* This rank's MPI_Wtime minus rank 0's of comm, in seconds, from the
 * fastest of 8 ping-pongs with rank 0 (tag 7301 on comm). Collective. */
int collshim_clock_offset(MPI_Comm comm, double *offset);

#ifdef __cplusplus
}
#endif
#endif
