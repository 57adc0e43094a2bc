/* coll.h - what every algorithm sees: the collectives, the call arguments,
 * the selection key, restriction flags and the registry row.
 *
 * Every algorithm is one function `int <coll>_<name>(const struct coll_args *)`
 * that runs the whole collective on the shadow communicator `a->comm` and
 * returns an MPI error code. An algorithm never calls another algorithm's
 * function; a composed one runs other collectives as steps, each chosen by
 * the tables (common/sub.h). */
#ifndef COLLSHIM_COLL_H
#define COLLSHIM_COLL_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Tags a communicator owns on the shadow: [tag, tag + CTX_TAG_SPAN).
 * Blocking collectives use tag + coll id; a persistent collective gets a
 * tag of the second range when it is initialised (the n-th init on the
 * communicator, the same on every rank since inits are collective); each
 * nonblocking call the next tag of the third range, in call order. A tag
 * comes back after CTX_TAG_PERSISTENT resp. CTX_TAG_NONBLOCKING more. */
#define CTX_TAG_SPAN 16384
#define CTX_TAG_BLOCKING 32
#define CTX_TAG_PERSISTENT 8192
#define CTX_TAG_NONBLOCKING (CTX_TAG_SPAN - CTX_TAG_BLOCKING - CTX_TAG_PERSISTENT)

/* The 17 blocking collectives of the MPI standard, in one list. */
#define COLLSHIM_COLLECTIVES(X)                                              \
    X(barrier) X(bcast) X(gather) X(gatherv) X(scatter) X(scatterv)          \
    X(allgather) X(allgatherv) X(alltoall) X(alltoallv) X(alltoallw)         \
    X(reduce) X(allreduce) X(reduce_scatter) X(reduce_scatter_block)         \
    X(scan) X(exscan)

enum coll_id {
#define COLL_ENUM(name) COLL_##name,
    COLLSHIM_COLLECTIVES(COLL_ENUM)
#undef COLL_ENUM
    COLL_COUNT
};

const char *coll_name(enum coll_id coll);
/* Collective named by the first len bytes of name, or -1. */
int coll_from_name(const char *name, size_t len);

/* Tunable parameters of one call; 0 means "the algorithm's default". */
struct coll_params {
    size_t seg;       /* segment size in bytes (pipelines, ring) */
    int outstanding;  /* bound on requests in flight (throttled, scattered) */
};

/* How a communicator's ranks sit on the machine's nodes (identical on
 * every rank; shim/layout.c). ppn is the number of ranks of the most
 * populated node; equal: every node has ppn ranks; block: each node's
 * ranks are consecutive in the communicator (round robin and other
 * interleavings are not). A group that is one level of a node-aware
 * algorithm has nodes=1 (a node) or ppn=1 (leaders, slices). */
struct node_shape {
    int nodes, ppn;
    unsigned char equal, block; /* 0 or 1; bytes, not bitfields: the key is
                                   built on every call (dispatch.c) */
};
struct node_layout; /* the full layout of a communicator: common/node.h */
struct sched;       /* a recorded algorithm: sched.h */

/* The arguments of one collective call. Field use per collective:
 *   barrier                  -
 *   bcast                    recvbuf (the buffer), count, datatype, root
 *   reduce, allreduce,
 *   scan, exscan             sendbuf, recvbuf, count, datatype, op (root)
 *   reduce_scatter           sendbuf, recvbuf, recvcounts, datatype, op
 *   reduce_scatter_block     sendbuf, recvbuf, recvcount, datatype, op
 *   gather, scatter,
 *   allgather, alltoall      sendbuf, sendcount, sendtype,
 *                            recvbuf, recvcount, recvtype (root)
 *   gatherv, allgatherv      + recvcounts, rdispls
 *   scatterv                 + sendcounts, sdispls
 *   alltoallv                + sendcounts, sdispls, recvcounts, rdispls
 *   alltoallw                + sendtypes, recvtypes (displacements in bytes)
 * sendbuf is MPI_IN_PLACE when in_place is set (kept as the caller gave it).
 */
struct coll_args {
    enum coll_id coll;
    MPI_Comm comm;      /* shadow communicator: all algorithm traffic */
    MPI_Comm user_comm; /* the caller's communicator (vendor forwarding) */
    int rank, size;     /* in the caller's communicator (its local group) */
    const int *peers;   /* rank in comm of each rank; NULL: the same numbers.
                           On an intercommunicator: of each REMOTE rank, since
                           point-to-point peers there are remote ranks */
    int remote_size;    /* intercommunicator: size of the remote group; 0: intra */
    const int *local_peers; /* intercommunicator: rank in comm of each local rank */
    int tag;            /* first tag of the caller's communicator on comm */
    int in_place;
    int alias_in_place; /* in_place only because the buffers alias (not in the key) */

    const void *sendbuf;
    void *recvbuf;
    int count;
    MPI_Datatype datatype;
    MPI_Op op;
    int root;

    int sendcount, recvcount;
    MPI_Datatype sendtype, recvtype;
    const int *sendcounts, *sdispls, *recvcounts, *rdispls;
    const MPI_Datatype *sendtypes, *recvtypes;

    int commutative;    /* op is commutative (1 when there is no op) */
    int predefined_op;  /* op is one of MPI's own */
    uint64_t bytes;     /* selection message size, see key_bytes() */
    struct coll_params params;
    struct node_shape shape;          /* of this communicator or group */
    const struct node_layout *layout; /* its ranks per node; NULL for one level */
    const struct coll_env *env;       /* the step runner and the transport */
    struct sched *sched;              /* the execution mode: NULL, the helpers act
                                         now (a blocking call); else the schedule
                                         this call is being recorded into (a
                                         nonblocking or persistent one) */
};

/* The selection key: only facts that are identical on every rank. */
struct coll_key {
    enum coll_id coll;
    int np;
    uint64_t bytes;
    int count;          /* element count where rank-invariant (reductions), else -1 */
    /* Flags are 0 or 1, in bytes rather than bitfields: the key is built on
     * every call, and a bitfield store is a read-modify-write of the word
     * just written (a store-forwarding stall, about 17% of a forwarded
     * 8-byte call in perf at np 1). */
    unsigned char commutative;
    unsigned char predefined_op;
    unsigned char in_place;
    unsigned char nonblocking; /* MPI_Ixxx or persistent: rules naming ixxx apply first */
    unsigned char sub;         /* a step of a composed algorithm (common/sub.h) */
    struct node_shape shape;  /* nodes, ranks per node (nodes= and ppn= rules);
                                 all 0 on an intercommunicator (no node levels) */
    unsigned char inter;      /* an intercommunicator: np is the smaller group's size
                                 and remote the larger's, the same in both groups,
                                 so both choose the same algorithm */
    int remote;               /* intercommunicator: the larger group's size; 0: intra */
};

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
     * ignores them; learning tries their values, shim/learn.c). */
    ALG_TAKES_SEG         = 1u << 13, /* params.seg: its segment size */
    ALG_TAKES_WINDOW      = 1u << 14, /* params.outstanding: requests in flight */
    /* Not a restriction either: the row is the MPI library's own
     * collective, which the shim runs (run is NULL). */
    ALG_VENDOR            = 1u << 15,
};

typedef int (*coll_algorithm_fn)(const struct coll_args *a);

struct sub_group; /* common/sub.h */

/* The MPI calls that move a call's data and complete its requests (the
 * transport helpers, common/p2p.h, and the engine, sched.c, make no
 * others). The shim hands down its own: their blocking calls advance the
 * schedules in flight while they wait (shim/requests.c). */
struct transport {
    int (*isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
    int (*irecv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
    int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
    int (*recv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
    int (*sendrecv)(const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int,
                    int, MPI_Comm, MPI_Status *);
    int (*wait)(MPI_Request *, MPI_Status *);
    int (*waitall)(int, MPI_Request *, MPI_Status *);
    int (*waitany)(int, MPI_Request *, int *, MPI_Status *);
    int (*test)(MPI_Request *, int *, MPI_Status *); /* never advances schedules */
    int (*request_free)(MPI_Request *);
};

/* What the algorithm layer is handed by the layers above it, and reaches
 * them through: it includes none of their headers. */
struct coll_env {
    /* Run sub->coll over the group g as one step of parent (common/sub.h:
     * sub_collective), with the algorithm the tables choose for it. */
    int (*step)(const struct coll_args *parent, const struct sub_group *g,
                struct coll_args *sub);
    const struct transport *transport;
};

/* One row of the registry: everything the project knows of an algorithm. */
struct algorithm {
    enum coll_id coll;
    const char *name;
    coll_algorithm_fn run;
    unsigned restrictions;
    const char *cost;     /* "Cost = ..." in the alpha-beta-gamma model */
    const char *summary;  /* one line: what it is, when it wins */
};

#endif
