/* alltoall_core.h - the shared core of alltoall, alltoallv and alltoallw.
 *
 * The three collectives differ only in where the block for (from) peer j
 * lives: alltoall at j * count elements, alltoallv at displs[j] elements,
 * alltoallw at displs[j] bytes with its own datatype.
 * alltoall_core_send_block and alltoall_core_recv_block hide that (in place,
 * the send block is the receive block), so one pairwise, one scattered and
 * one in-place exchange serve all three; the algorithm files are thin
 * wrappers with their own header comment. */
#ifndef COLLSHIM_ALLTOALL_CORE_H
#define COLLSHIM_ALLTOALL_CORE_H

#include "algorithms/coll.h"

/* count elements of type at buf: one peer's block of one call. */
struct alltoall_core_block {
    void *buf;
    MPI_Aint count;
    MPI_Datatype type;
};

/* The block this rank sends to (receives from) peer. In place the send
 * block is the receive block, as the standard says. */
void alltoall_core_send_block(const struct coll_args *a, int peer, struct alltoall_core_block *b);
void alltoall_core_recv_block(const struct coll_args *a, int peer, struct alltoall_core_block *b);
/* Bytes of a block's type signature (0: no message needs to move; the
 * matching peer computes 0 too, since signatures match). */
size_t alltoall_core_block_bytes(const struct alltoall_core_block *b);

/* Packed blocks (bruck, linear): p blocks of bb bytes, packed block k
 * being the send block for (receive block from) peer(rank, p, k). Packing
 * fails with MPI_ERR_TRUNCATE if a send block is not bb bytes. Any size:
 * buf_pack works in pieces whose positions fit an int. */
typedef int (*alltoall_core_peer_fn)(int rank, int p, int k);
int alltoall_core_pack_sends(const struct coll_args *a, char *out, size_t bb,
                             alltoall_core_peer_fn peer);
int alltoall_core_unpack_recvs(const struct coll_args *a, const char *in, size_t bb,
                               alltoall_core_peer_fn peer);

/* Own block: send block rank -> receive block rank (nothing in place). */
int alltoall_core_copy_self(const struct coll_args *a);

/* p - 1 sendrecv steps with alltoall_pattern_pairwise_peers(); not in
 * place. */
int alltoall_core_pairwise(const struct coll_args *a);
/* All exchanges nonblocking, at most `outstanding` send/receive pairs in
 * flight (a->params.outstanding, 0 = ALLTOALL_CORE_DEFAULT_OUTSTANDING); not
 * in place. */
#define ALLTOALL_CORE_DEFAULT_OUTSTANDING 8
int alltoall_core_scattered(const struct coll_args *a);
/* In place: pairs swap blocks through one block-sized temporary, in the
 * rounds of alltoall_pattern_inplace_partner(). */
int alltoall_core_inplace(const struct coll_args *a);

#endif
