/* a2a.h - the shared core of alltoall, alltoallv and alltoallw.
 *
 * The three collectives differ only in where the block for (from) peer j
 * lives: alltoall at j * count elements, alltoallv at displs[j] elements,
 * alltoallw at displs[j] bytes with its own datatype. a2a_send_block and
 * a2a_recv_block hide that (in place, the send block is the receive block),
 * so one pairwise, one scattered and one in-place exchange serve all three;
 * the algorithm files are thin wrappers with their own header comment. */
#ifndef COLLSHIM_A2A_H
#define COLLSHIM_A2A_H

#include "algorithms/coll.h"

/* count elements of type at buf: one peer's block of one call. */
struct a2a_block {
    void *buf;
    int count;
    MPI_Datatype type;
};

/* The block this rank sends to (receives from) peer. In place the send
 * block is the receive block, as the standard says. */
void a2a_send_block(const struct coll_args *a, int peer, struct a2a_block *b);
void a2a_recv_block(const struct coll_args *a, int peer, struct a2a_block *b);
/* Bytes of a block's type signature (0: no message needs to move; the
 * matching peer computes 0 too, since signatures match). */
size_t a2a_block_bytes(const struct a2a_block *b);

/* Packed blocks (bruck, linear): p blocks of bb bytes, packed block k
 * being the send block for (receive block from) peer(rank, p, k). Packing
 * fails with MPI_ERR_TRUNCATE if a send block is not bb bytes. Any size:
 * buf_pack works in pieces whose positions fit an int. */
typedef int (*a2a_peer_fn)(int rank, int p, int k);
int a2a_pack_sends(const struct coll_args *a, char *out, size_t bb, a2a_peer_fn peer);
int a2a_unpack_recvs(const struct coll_args *a, const char *in, size_t bb, a2a_peer_fn peer);

/* Own block: send block rank -> receive block rank (nothing in place). */
int a2a_copy_self(const struct coll_args *a);

/* p - 1 sendrecv steps with a2a_pairwise_peers(); not in place. */
int a2a_pairwise(const struct coll_args *a);
/* All exchanges nonblocking, at most `outstanding` send/receive pairs in
 * flight (a->params.outstanding, 0 = A2A_DEFAULT_OUTSTANDING); not in place. */
#define A2A_DEFAULT_OUTSTANDING 8
int a2a_scattered(const struct coll_args *a);
/* In place: pairs swap blocks through one block-sized temporary, in the
 * rounds of a2a_inplace_partner(). */
int a2a_inplace(const struct coll_args *a);

#endif
