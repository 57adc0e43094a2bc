/* linear_root.h - linear gather(v) and scatter(v): the root receives (or
 * sends) one message per other rank, straight into (or from) the user's
 * buffer, with at most `window` requests in flight. Shared by
 * gather_linear, gatherv_linear(_throttled), scatter_linear and
 * scatterv_linear(_throttled), and by the flat halves of the other linear
 * algorithms (allgather(v), reduce_scatter(_block), alltoall). */
#ifndef COLLSHIM_LINEAR_ROOT_H
#define COLLSHIM_LINEAR_ROOT_H

#include "algorithms/coll.h"

/* Default bound on requests in flight of the throttled variants. */
#define LINEAR_ROOT_DEFAULT_OUTSTANDING 8

/* The root's buffer as p blocks: recvbuf/recvtype of gather(v),
 * sendbuf/sendtype of scatter(v). */
struct linear_root_blocks {
    void *buf;
    MPI_Datatype type;
    MPI_Aint count;                   /* elements per block when counts has no base */
    struct coll_array counts, displs; /* v-variants: per rank, displs in type extents */
};

/* The root's side alone: send (sending) or receive block r of b to or
 * from every rank r != root whose block is not empty, in rank order from
 * root + 1, at most window requests in flight (<= 0: all at once). */
int linear_root_exchange(const struct coll_args *a, int root, const struct linear_root_blocks *b,
                         int sending, int window);

/* The whole collective. window <= 0 or >= p-1: every request at once.
 * Ranks skip empty blocks on both sides (their byte sizes agree). */
int linear_root_gather(const struct coll_args *a, const struct linear_root_blocks *b, int window);
int linear_root_scatter(const struct coll_args *a, const struct linear_root_blocks *b, int window);

#endif
