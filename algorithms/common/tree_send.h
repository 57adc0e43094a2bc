/* tree_send.h - a tree's parent sending to its children, by where they sit.
 *
 * Children on other nodes share this node's network link: sent one at a
 * time, largest subtree first, the largest subtree (the critical path)
 * gets its message at the link's full rate first instead of last. At
 * p = 1024 on SMPI's fat tree, a binomial bcast of 64 KiB took 140 us with
 * the sends posted together and 63 one at a time, as MPICH's binomial tree
 * sends (and SMPI's MPICH selection, 63). Children whose subtrees are equal
 * (a k-nomial level) gain nothing from an order and are posted together.
 * Children on this node are posted together: shared-memory copies run side
 * by side (the receiver copies; SMPI's loopback is not one wire), and sent
 * one at a time a radix-4 tree's in-node levels took 1.8x as long (p = 64,
 * 64 KiB-1 MiB). A short message is sent eagerly, so order costs it
 * nothing either way. */
#ifndef COLLSHIM_TREE_SEND_H
#define COLLSHIM_TREE_SEND_H

#include "algorithms/coll.h"

/* Whether peer (a rank of the call's communicator or group) is on this
 * rank's node. */
int tree_same_node(int peer, const struct coll_args *a);

/* One child's message; call it for the children largest subtree first,
 * then wait for reqs[0 .. *n): a child on another node is sent to before
 * this returns, one on this node gets an isend in reqs[(*n)++]. */
int tree_send_child(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
                    const struct coll_args *a, MPI_Request *reqs, int *n);

#endif
