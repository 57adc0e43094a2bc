/* call.h - one collective call as every layer sees it: the collectives,
 * the arguments of a call, how its ranks sit on nodes, what the layers
 * above hand the algorithms (coll_env: the step runner and the transport)
 * and the execution mode (coll_args.sched). The bottom of the layers above
 * ops/: it includes no project header. */
#ifndef COLLSHIM_CALL_H
#define COLLSHIM_CALL_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* What a collective is, as flags of its row below. Every predicate on a
 * collective (argument checks, the selection key, the schedule cache, the
 * vendor's forms) derives from these rows, never from a list of its own. */
enum coll_fact {
    COLL_ROOTED       = 1u << 0, /* one rank is the root: bcast, reduce, gather(v), scatter(v) */
    COLL_REDUCES      = 1u << 1, /* combines with an op */
    COLL_ROOT_IN_PLACE = 1u << 2, /* MPI_IN_PLACE at the root only: not part of the key,
                                     since every rank must select alike */
    COLL_IN_PLACE_RECV = 1u << 3, /* MPI_IN_PLACE is given as recvbuf (scatter, scatterv) */
    COLL_COUNT_ARRAYS = 1u << 4, /* counts per rank: no rank knows every other's block */
    COLL_SAME_SIGNATURE = 1u << 5, /* every rank's significant arguments are scalars of
                                      one meaning on all ranks: a recorded schedule may
                                      serve an identical later call (shim/nbc.c) */
};

/* The 17 blocking collectives of the MPI standard, in one list, with
 * their facts. */
#define COLLSHIM_COLLECTIVES(X)                                                          \
    X(barrier, COLL_SAME_SIGNATURE)                                                      \
    X(bcast, COLL_ROOTED | COLL_SAME_SIGNATURE)                                          \
    X(gather, COLL_ROOTED | COLL_ROOT_IN_PLACE)                                          \
    X(gatherv, COLL_ROOTED | COLL_ROOT_IN_PLACE | COLL_COUNT_ARRAYS)                     \
    X(scatter, COLL_ROOTED | COLL_ROOT_IN_PLACE | COLL_IN_PLACE_RECV)                    \
    X(scatterv, COLL_ROOTED | COLL_ROOT_IN_PLACE | COLL_IN_PLACE_RECV | COLL_COUNT_ARRAYS) \
    X(allgather, COLL_SAME_SIGNATURE)                                                    \
    X(allgatherv, COLL_COUNT_ARRAYS)                                                     \
    X(alltoall, COLL_SAME_SIGNATURE)                                                     \
    X(alltoallv, COLL_COUNT_ARRAYS)                                                      \
    X(alltoallw, COLL_COUNT_ARRAYS)                                                      \
    X(reduce, COLL_ROOTED | COLL_REDUCES | COLL_ROOT_IN_PLACE | COLL_SAME_SIGNATURE)     \
    X(allreduce, COLL_REDUCES | COLL_SAME_SIGNATURE)                                     \
    X(reduce_scatter, COLL_REDUCES | COLL_COUNT_ARRAYS)                                  \
    X(reduce_scatter_block, COLL_REDUCES | COLL_SAME_SIGNATURE)                          \
    X(scan, COLL_REDUCES | COLL_SAME_SIGNATURE)                                          \
    X(exscan, COLL_REDUCES | COLL_SAME_SIGNATURE)

enum coll_id {
#define COLL_ENUM(name, facts) COLL_##name,
    COLLSHIM_COLLECTIVES(COLL_ENUM)
#undef COLL_ENUM
    COLL_COUNT
};

extern const unsigned coll_facts[COLL_COUNT];
/* 1 when collective coll has every flag of `fact`. */
static inline int coll_is(enum coll_id coll, unsigned fact)
{
    return (coll_facts[coll] & fact) == fact;
}

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
                                   built on every call (select/key.c) */
    unsigned char ranks_per_core; /* the job's ranks per core on its most loaded
                                     node, rounded up (1: not oversubscribed;
                                     shim/layout.c); 0 where unknown */
    unsigned char spare[1];     /* zero: a shape has no padding (it is part of
                                   the key, which is compared with memcmp) */
};
_Static_assert(sizeof(struct node_shape) == 2 * sizeof(int) + 4, "struct node_shape has padding");
static inline struct node_shape node_shape_make(int nodes, int ppn, int equal, int block)
{
    struct node_shape shape = {.nodes = nodes, .ppn = ppn, .equal = (unsigned char)equal,
                               .block = (unsigned char)block};
    return shape;
}
struct node_layout; /* the full layout of a communicator: compose/node.h */
struct sched;       /* a recorded algorithm: engine/sched.h */
struct sub_group;   /* a group of a composed algorithm: algorithms/compose/sub.h */
struct coll_args;   /* below */

/* The MPI calls that move a call's data and complete its requests (the
 * transport helpers, engine/p2p.h, and the engine, sched.c, make no
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
    /* Run sub->coll over the group g as one step of parent (compose/sub.h:
     * sub_collective), with the algorithm the tables choose for it. */
    int (*step)(const struct coll_args *parent, const struct sub_group *g,
                struct coll_args *sub);
    const struct transport *transport;
};

/* A count or displacement array of a call, as its caller wrote it: int
 * elements from the classic entry points, MPI_Count counts and MPI_Aint
 * displacements from MPI-4's large-count ones (MPI_Gatherv_c, ...), int or
 * MPI_Aint arrays an algorithm makes for its steps. The view knows the
 * width of its elements, so an entry point hands the caller's array on as
 * it is (no copy, no allocation per call) and a composed algorithm may mix
 * its caller's counts with displacements of its own; every reader goes
 * through coll_array_at. */
struct coll_array {
    const void *base; /* NULL: no array */
    int width;        /* bytes per element: sizeof(int) or sizeof(MPI_Aint) */
};
_Static_assert(sizeof(MPI_Aint) == sizeof(int64_t) && sizeof(int) == 4,
               "coll_array_at reads elements of 4 and 8 bytes");

/* The view of array p (int *, MPI_Aint *, MPI_Count *), with its width. */
#define COLL_ARRAY(p) ((struct coll_array){(p), (int)sizeof *(p)})

/* Element i of v. */
static inline MPI_Aint coll_array_at(struct coll_array v, int i)
{
    return v.width == (int)sizeof(int) ? ((const int *)v.base)[i]
                                       : ((const MPI_Aint *)v.base)[i];
}

/* The view of v from element first on. */
static inline struct coll_array coll_array_from(struct coll_array v, int first)
{
    struct coll_array tail = {(const char *)v.base + (size_t)first * (size_t)v.width, v.width};
    return tail;
}

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
 * Counts are MPI_Aint whatever the form of the call: a large-count call
 * (large_count) may pass more than INT_MAX elements.
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
    int large_count;    /* came through a large-count entry point (MPI_Bcast_c):
                           the vendor runs it through its _c form */

    const void *sendbuf;
    void *recvbuf;
    MPI_Aint count;
    MPI_Datatype datatype;
    MPI_Op op;
    int root;

    MPI_Aint sendcount, recvcount;
    MPI_Datatype sendtype, recvtype;
    struct coll_array sendcounts, sdispls, recvcounts, rdispls;
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

/* An algorithm: runs the whole collective described by *a on a->comm and
 * returns an MPI error code. */
typedef int (*coll_algorithm_fn)(const struct coll_args *a);

#endif
