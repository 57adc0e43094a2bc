/* allgather_blocks.h - the allgather family on one block layout.
 *
 * allgather is allgatherv with equal counts and displacements r * count;
 * the cores below run on that general layout (recvbuf, recvtype, one block
 * per rank), so allgather_<alg> and allgatherv_<alg> share them. Every
 * block travels with the receiving rank's own (count, recvtype), or as
 * bytes between temporaries: only type signatures match between ranks. */
#ifndef COLLSHIM_ALLGATHER_BLOCKS_H
#define COLLSHIM_ALLGATHER_BLOCKS_H

#include "algorithms/coll.h"

/* The receive buffer of an allgather(v) as p blocks of type. */
struct allgather_blocks_layout {
    void *buf;
    MPI_Datatype type;
    int p;
    MPI_Aint count;                   /* elements per block when counts has no base */
    struct coll_array counts, displs; /* allgatherv: per block, in type extents */
};

/* Blocks first, first+1, ..., first+n-1 (mod p) as one message: origin,
 * count and type; a derived (indexed) type when the blocks are not
 * adjacent in memory, to be released with allgather_blocks_msg_free. */
struct allgather_blocks_msg {
    void *origin;
    MPI_Aint count;
    MPI_Datatype type;
    int owned;
};

/* The layout of a call (allgather or allgatherv). */
struct allgather_blocks_layout allgather_blocks_layout_of(const struct coll_args *a);
MPI_Aint allgather_blocks_block_count(const struct allgather_blocks_layout *l, int i);
int allgather_blocks_msg_of(const struct allgather_blocks_layout *l, int first, int n,
                            struct allgather_blocks_msg *m);
void allgather_blocks_msg_free(const struct coll_args *a, struct allgather_blocks_msg *m);

/* Copy the caller's block into its place in recvbuf (nothing in place). */
int allgather_blocks_place_own(const struct coll_args *a, const struct allgather_blocks_layout *l);
/* Send blocks [sfirst, +sn) to dest and receive [rfirst, +rn) from src. */
int allgather_blocks_exchange(const struct coll_args *a, const struct allgather_blocks_layout *l,
                              int sfirst, int sn, int dest, int rfirst, int rn, int src);

/* The cores; each starts with allgather_blocks_place_own. */
int allgather_blocks_ring(const struct coll_args *a);
int allgather_blocks_recursive_doubling(const struct coll_args *a);
int allgather_blocks_bruck(const struct coll_args *a);
int allgather_blocks_linear(const struct coll_args *a); /* allgather_blocks_linear.c */

#endif
