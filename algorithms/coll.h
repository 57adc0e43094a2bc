/* coll.h - what the selection knows of calls and algorithms: the
 * selection key, the restriction flags and the registry row (the call
 * itself: engine/call.h).
 *
 * Every algorithm is one function `int <coll>_<name>(const struct coll_args *)`
 * that runs the whole collective on the shadow communicator `a->comm` and
 * returns an MPI error code. An algorithm never calls another algorithm's
 * function; a composed one runs other collectives as steps, each chosen by
 * the tables (compose/sub.h). */
#ifndef COLLSHIM_COLL_H
#define COLLSHIM_COLL_H

#include "engine/call.h"

/* The selection key: only facts that are identical on every rank. Keys
 * are compared with memcmp (the remembered choices, select/choose.c), so
 * the struct has no padding: every byte is a field, the spare ones zero
 * in every initialiser, and a field added later is compared without a
 * line of its own. Flags are 0 or 1, in bytes rather than bitfields: the
 * key is built on every call, and a bitfield store is a read-modify-write
 * of the word just written (a store-forwarding stall, about 17% of a
 * forwarded 8-byte call in perf at np 1). */
struct coll_key {
    uint64_t bytes;
    int64_t count;            /* element count where rank-invariant (reductions),
                                 else bytes; 64 bits: a large-count call's */
    enum coll_id coll;
    int np;
    int remote;               /* intercommunicator: the larger group's size; 0: intra */
    struct node_shape shape;  /* nodes, ranks per node (nodes= and ppn= rules);
                                 all 0 on an intercommunicator (no node levels) */
    unsigned char commutative;
    unsigned char predefined_op;
    unsigned char in_place;
    unsigned char nonblocking; /* MPI_Ixxx or persistent: rules naming ixxx apply first */
    unsigned char sub;         /* a step of a composed algorithm (compose/sub.h) */
    unsigned char inter;       /* an intercommunicator: np is the smaller group's size
                                  and remote the larger's, the same in both groups,
                                  so both choose the same algorithm */
    unsigned char large_count; /* a large-count call (MPI_Bcast_c): remembered apart
                                  from a classic one of the same counts */
    unsigned char spare[1];
};
_Static_assert(sizeof(struct coll_key) ==
                   sizeof(uint64_t) + sizeof(int64_t) + 3 * sizeof(int) +
                       sizeof(struct node_shape) + 7 + 1,
               "struct coll_key has padding: memcmp would compare indeterminate bytes");

/* What an algorithm needs of a call; the selector skips rules whose
 * algorithm cannot run and walks on. */
enum alg_restriction {
    ALG_NEEDS_COMMUTATIVE = 1u << 0, /* op must be commutative */
    ALG_NEEDS_POW2        = 1u << 1, /* communicator size a power of two */
    ALG_NEEDS_EVEN_NP     = 1u << 2, /* communicator size even */
    ALG_NEEDS_COUNT_GE_P  = 1u << 3, /* element count >= communicator size */
    ALG_NO_IN_PLACE       = 1u << 4, /* cannot run MPI_IN_PLACE */
    ALG_NEEDS_PREDEFINED  = 1u << 5, /* op must be predefined */
    ALG_NEEDS_IN_PLACE    = 1u << 6, /* the in-place path of a collective */
    ALG_NEEDS_CONTEXT     = 1u << 7, /* runs on the caller's communicator and its
                                        context (vendor, levels of its nodes),
                                        never as a step of another algorithm */
    ALG_INTER             = 1u << 8, /* an intercommunicator algorithm: runs
                                        intercommunicator calls only (and only
                                        intercommunicator algorithms and the
                                        vendor run those) */
    ALG_NEEDS_NODES       = 1u << 9, /* at least 2 nodes and 2 ranks on some node */
    ALG_NEEDS_EQUAL_NODES = 1u << 10, /* every node has the same number of ranks */
    ALG_NODE_ORDER        = 1u << 11, /* commutative op, or ranks in blocks per node
                                         (node then leaders order is rank order) */
    ALG_NEEDS_BLOCK_NODES = 1u << 12, /* ranks in blocks per node: a node's blocks of
                                         data are contiguous in rank order */
    /* Not restrictions: parameters the algorithm reads (registry_can_run
     * ignores them; learning tries their values, select/learn.c). */
    ALG_TAKES_SEG         = 1u << 13, /* params.seg: its segment size */
    ALG_TAKES_WINDOW      = 1u << 14, /* params.outstanding: requests in flight */
    /* Not a restriction either: the row is the MPI library's own
     * collective, which the shim runs (run is NULL). */
    ALG_VENDOR            = 1u << 15,
};

/* An algorithm's predicted time on the machine model (algorithms/model.h). */
struct cost_call;
struct machine_model;
typedef double (*coll_cost_fn)(const struct cost_call *c, const struct machine_model *m);

/* One row of the registry: everything the project knows of an algorithm. */
struct algorithm {
    enum coll_id coll;
    const char *name;
    coll_algorithm_fn run;
    unsigned restrictions;
    const char *cost;     /* "Cost = ..." in the alpha-beta-gamma model */
    const char *summary;  /* one line: what it is, when it wins */
    coll_cost_fn model;   /* its cost on the machine model; NULL: not modelled */
};

#endif
