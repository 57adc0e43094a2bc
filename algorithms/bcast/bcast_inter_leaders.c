/* bcast_inter_leaders.c - intercommunicator bcast: the root sends the
 * whole message to rank 0 of the remote group, which broadcasts it in its
 * group with the bcast the tables choose (sub.h). The other ranks of the
 * root's group (MPI_PROC_NULL) take no part.
 *
 * Cost = alpha + n beta + Cost(bcast, q, n), q = the remote group's size;
 * short and medium messages. */
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"

int bcast_inter_leaders(const struct coll_args *a)
{
    int err = MPI_SUCCESS;
    switch (inter_role(a)) {
    case INTER_ROOT:
        return p2p_send(a->recvbuf, a->count, a->datatype, 0, a);
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        break;
    }
    if (a->rank == 0)
        err = p2p_recv(a->recvbuf, a->count, a->datatype, a->root, a);
    struct coll_args b = {.coll = COLL_bcast, .recvbuf = a->recvbuf, .count = a->count,
                          .datatype = a->datatype, .root = 0};
    return err ? err : inter_local(a, &b);
}
