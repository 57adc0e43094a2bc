/* sub.h - composed algorithms: a collective run as one step of another
 * algorithm, over a group of the caller's ranks (all of them, the ranks of
 * a node, the node leaders, one group of an intercommunicator), with the
 * algorithm the tuning tables choose for that group and message.
 *
 * A group needs no communicator of its own: its members are named by
 * their ranks on the shadow communicator and the step sends on the
 * caller's tag. Steps of one call run one after the other on every rank,
 * so MPI's non-overtaking order keeps the messages of consecutive steps
 * between two ranks apart, as it does for consecutive blocking calls.
 * While a schedule is being built (sched.h) the step is recorded into it
 * like any other, so a composed algorithm is also nonblocking and
 * persistent. A step never runs the vendor or another algorithm that
 * needs the caller's communicator (ALG_NEEDS_CONTEXT): the selection walks
 * on, and ends in the built-in table, which always has a native rule. */
#ifndef COLLSHIM_SUB_H
#define COLLSHIM_SUB_H

#include "algorithms/coll.h"

struct sub_group {
    int rank, size;   /* this rank's index in the group; members */
    const int *peers; /* shadow rank of each member; NULL: the caller's own
                         numbering (the group is the whole communicator) */
    struct node_shape shape; /* its nodes and ranks per node; nodes = 0:
                                one node (a group whose shape is unknown) */
    const struct node_layout *layout; /* its full layout, or NULL (one level) */
};

/* counts[i] (i < p) and displacements counts[p + i] of p near-equal
 * blocks of count elements (patterns/pattern.h), in one buffer from
 * buf_bytes (the schedule keeps it; buf_free it); NULL: out of memory. */
MPI_Aint *sub_block_table(const struct coll_args *a, MPI_Aint count, int p);

/* The caller's whole communicator as a group. */
struct sub_group sub_group_all(const struct coll_args *a);

/* Run sub->coll over g. The caller fills the collective's own fields of
 * *sub (buffers, counts, types, op, root as a member index); the rest is
 * set by the step runner the call was handed (parent->env: the selection,
 * in the layers above). Returns an MPI error code. */
static inline int sub_collective(const struct coll_args *parent, const struct sub_group *g,
                                 struct coll_args *sub)
{
    return parent->env->step(parent, g, sub);
}

#endif
