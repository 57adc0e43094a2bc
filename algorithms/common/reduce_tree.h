/* reduce_tree.h - tree reductions to a root, shared by reduce_binomial,
 * reduce_pipeline, reduce_binary_pipeline, reduce_linear and allreduce
 * reduce_bcast. */
#ifndef COLLSHIM_REDUCE_TREE_H
#define COLLSHIM_REDUCE_TREE_H

#include "algorithms/coll.h"
#include "algorithms/patterns/reduce_tree_pattern.h"

/* Segments whose receives a node keeps posted at once (slots of segment
 * buffers): segment s + 2's receives are posted once segment s is folded
 * and its send is done. */
#define REDUCE_TREE_SLOTS 2

/* Reduce count elements of type with op to root along a tree of the given
 * shape, cut into segments of seg bytes (0: the whole vector in one), with
 * the next segment's receives in flight while the current one is folded
 * and sent. Non-commutative ops are applied in rank order.
 *
 * sendbuf MPI_IN_PLACE: this rank's input is in recvbuf (the root of a
 * reduce, or any rank of an allreduce). recvbuf gets the result at root;
 * elsewhere it is only read, when in place, and may be NULL otherwise.
 * count, type and op must be the same on every rank (MPI_Reduce's rule);
 * count may pass INT_MAX (a whole reduce_scatter vector): a segment is at
 * most INT_MAX elements.
 * Traffic uses a->comm and a->coll's tag. */
int reduce_tree(enum reduce_tree_shape shape, const void *sendbuf, void *recvbuf, MPI_Aint count,
                MPI_Datatype type, MPI_Op op, int root, size_t seg,
                const struct coll_args *a);

struct cost_call;
struct machine_model;
/* The flat tree's predicted seconds (REDUCE_TREE_FLAT, segments of
 * c->seg bytes): the root receives p - 1 segments at once and folds them
 * in turn; a further segment costs the slower of the two, since its
 * receives are in flight while the current one is folded. */
double reduce_tree_flat_cost(const struct cost_call *c, const struct machine_model *m);

/* The binomial tree, segmented by a->params.seg (0: unsegmented).
 * Cost = ceil(lg p) (alpha + n beta + n gamma) */
int reduce_tree_binomial(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype type,
                         MPI_Op op, int root, const struct coll_args *a);

#endif
