/* inter.h - what the intercommunicator algorithms share.
 *
 * On an intercommunicator a->rank and a->size are the local group's,
 * a->remote_size the remote group's, and point-to-point peers are REMOTE
 * ranks (a->peers maps them onto the shadow), so p2p_send(..., j, a) goes
 * to rank j of the other group. Steps inside the local group run as
 * composed steps (sub.h) over inter_local_group(a), with the algorithm the
 * tables choose for that group: the groups are disjoint, so the local
 * steps of the two groups and the transfers between them never share a
 * pair of ranks, and the caller's tag keeps them apart from other calls. */
#ifndef COLLSHIM_INTER_H
#define COLLSHIM_INTER_H

#include "algorithms/coll.h"
#include "algorithms/compose/sub.h"

/* The local group as a group of a composed step. */
struct sub_group inter_local_group(const struct coll_args *a);

/* Run sub->coll over the local group (sub_collective). */
int inter_local(const struct coll_args *a, struct coll_args *sub);

/* A rooted collective's part at this rank. */
enum inter_role { INTER_ROOT, INTER_IDLE, INTER_REMOTE };
enum inter_role inter_role(const struct coll_args *a);

/* Blocks of a buffer, one per rank of the other group: block i is
 * counts[i] (or count) elements of type at displs[i] (or i * count, or 0
 * when every block is the same one) extents, or at bdispls[i] bytes with
 * its own types[i] (alltoallw). */
struct inter_blocks {
    const void *buf;
    MPI_Datatype type;
    MPI_Aint count;
    struct coll_array counts, displs, bdispls; /* base NULL: none */
    const MPI_Datatype *types;
    int same; /* every block is the buffer itself (allgather's send side) */
};

/* Post one send (sending) or receive of block i to or from every remote
 * rank i with a non-empty block, into reqs (remote_size of them); *n gets
 * how many were posted. */
int inter_post_blocks(const struct coll_args *a, const struct inter_blocks *b, int sending,
                      MPI_Request *reqs, int *n);

/* The send and receive blocks of an allgather(v) or alltoall(v,w) call. */
void inter_call_blocks(const struct coll_args *a, struct inter_blocks *out,
                       struct inter_blocks *in);

/* The linear gather(v) / scatter(v) of the call: the root receives (sends)
 * block i from (to) remote rank i straight into (from) its buffer, with at
 * most window requests in flight (<= 0: all at once); the remote ranks
 * send (receive) their block; MPI_PROC_NULL ranks do nothing. */
int inter_rooted_linear(const struct coll_args *a, int window);

/* Receive block i of in from, and send block i of out to, every remote
 * rank i at once, then wait for all. */
int inter_exchange(const struct coll_args *a, const struct inter_blocks *out,
                   const struct inter_blocks *in);

/* The group's blocks (sendcount of sendtype each) gathered at its rank 0
 * with the selected gather: *tmp (free *base with buf_free) holds them
 * there in rank order; NULL elsewhere. */
int inter_gather_at_leader(const struct coll_args *a, void **tmp, void **base);

/* The leaders' step of the reductions: the group reduces its n-element
 * vectors (sendbuf) at its rank 0 with the selected reduce, and the two
 * leaders swap their results: rank 0 ends with the OTHER group's
 * reduction in dst (significant at rank 0 only). */
int inter_reduce_swap(const struct coll_args *a, MPI_Aint n, void *dst);

/* The same exchange in max(p, q) rounds of one sendrecv each: in round k
 * local rank i and remote rank j with i + j = k (mod max(p, q)) swap
 * their blocks (the relation is the same seen from either group, so every
 * pair meets once), at most one message in flight per rank and direction. */
int inter_exchange_pairwise(const struct coll_args *a, const struct inter_blocks *out,
                            const struct inter_blocks *in);

/* The long-vector reductions' first step: the group reduces its n-element
 * vectors (sendbuf) with the selected reduce_scatter, rank i keeping the
 * i-th of p near-equal pieces (patterns/pattern.h) in mine. */
int inter_reduce_pieces(const struct coll_args *a, MPI_Aint n, void *mine);

/* inter_post_blocks to or from every remote rank, at most window requests
 * in flight (<= 0: all at once), served in rank order as earlier ones
 * complete; returns when all are done. */
int inter_root_blocks_window(const struct coll_args *a, const struct inter_blocks *b,
                             int sending, int window);

/* A rooted collective's remote rank: send (sending) or receive its own
 * count elements of type to or from the root, if there are any bytes. */
int inter_to_root(const struct coll_args *a, const void *buf, MPI_Aint count, MPI_Datatype type,
                  int sending);

#endif
