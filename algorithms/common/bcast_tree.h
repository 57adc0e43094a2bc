/* bcast_tree.h - binomial-tree broadcast shared by bcast_binomial, by
 * algorithms that end with a broadcast (allreduce reduce_bcast, ...) and
 * by barrier_tree's release. */
#ifndef COLLSHIM_BCAST_TREE_H
#define COLLSHIM_BCAST_TREE_H

#include "algorithms/coll.h"

/* Broadcast count elements of type at buf from root to every rank of
 * a->comm along a binomial tree (any p, any root). Each rank receives and
 * forwards with its own (count, type): only the type signatures must
 * match between ranks, as in MPI_Bcast. Traffic uses a->coll's tag. */
int bcast_tree_binomial(void *buf, MPI_Aint count, MPI_Datatype type, int root,
                        const struct coll_args *a);

/* Flat tree: the root sends buf to every other rank at once, one round.
 * Cost = alpha + (p - 1) n beta (the root's link carries every copy) */
int bcast_tree_flat(void *buf, MPI_Aint count, MPI_Datatype type, int root,
                    const struct coll_args *a);

/* The same tree with zero-byte messages: returns on a rank once the root
 * has called it (the release half of a tree barrier). */
int bcast_tree_release(int root, const struct coll_args *a);

#endif
