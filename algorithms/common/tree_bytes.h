/* tree_bytes.h - binomial gather and scatter trees that move bytes.
 *
 * Inner nodes of a gather or scatter tree forward other ranks' blocks,
 * whose type maps may differ from their own: the tree moves packed bytes
 * (MPI_BYTE) between ranks, each rank packs or unpacks only its own block
 * with its own (count, type), and the root converts between its user
 * buffer and a byte array in relative order (block i = rank root+i).
 * Shared by gather_binomial and scatter_binomial. */
#ifndef COLLSHIM_TREE_BYTES_H
#define COLLSHIM_TREE_BYTES_H

#include "algorithms/coll.h"
#include "algorithms/patterns/pattern.h"

/* Relative ranks in the binomial subtree of rel: [rel, rel + size). */
static inline int tree_bytes_subtree(int rel, int p)
{
    int m = pattern_binomial_mask(rel, p);
    return m < p - rel ? m : p - rel;
}

/* Bytes of the data of count elements of type. */
size_t tree_bytes_bytes(MPI_Aint count, MPI_Datatype type);
/* Relative blocks [lo, hi) between the root's user buffer (p blocks of
 * count elements of type, in rank order) and the relative byte array
 * (blocks of blk bytes): at most two runs of buf_pack/buf_unpack. */
int tree_bytes_pack_rotated(const void *buf, MPI_Aint count, MPI_Datatype type, int lo, int hi,
                            const struct coll_args *a, char *bytes, size_t blk);
int tree_bytes_unpack_rotated(const char *bytes, size_t blk, int lo, int hi,
                              const struct coll_args *a, void *buf, MPI_Aint count,
                              MPI_Datatype type);

/* Post a receive (gather) or send (scatter) of each child's subtree of
 * the binomial tree rooted at a->root, at stage + (child - rel) * blk,
 * into reqs (room for 32), counted in *n; a send to another node is made
 * before this returns instead (tree_send_child). */
int tree_bytes_post_children(const struct coll_args *a, int rel, char *stage, size_t blk,
                             int sending, MPI_Request *reqs, int *n);

#endif
