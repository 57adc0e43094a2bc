/* tree_send.c - a tree's parent sending to its children (tree_send.h). */
#include "algorithms/common/tree_send.h"

#include "algorithms/compose/node.h"
#include "engine/p2p.h"

/* From the communicator's layout; without one, a group of one rank per
 * node (the leaders, the slices) has every peer elsewhere, and any other
 * (a node's own group, a group of unknown shape) counts as one node. */
int tree_same_node(int peer, const struct coll_args *a)
{
    if (a->layout)
        return a->layout->node_of[peer] == a->layout->my_node;
    return !(a->shape.nodes > 1 && a->shape.ppn == 1);
}

int tree_send_child(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
                    const struct coll_args *a, MPI_Request *reqs, int *n)
{
    if (!tree_same_node(peer, a))
        return p2p_send(buf, count, type, peer, a);
    int err = p2p_isend(buf, count, type, peer, a, &reqs[*n]);
    if (!err)
        (*n)++;
    return err;
}
