/* gather_inter_leaders.c - intercommunicator gather through the remote
 * group's leader: the group sending to the root gathers its blocks at its
 * rank 0 with the gather the tables choose (sub.h), which sends them to
 * the root in one message. The other ranks of the root's group
 * (MPI_PROC_NULL) take no part.
 *
 * Cost = Cost(gather, q, n) + alpha + n beta, q = the sending group's
 * size; many small blocks (one message reaches the root). */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"

static int group_sends(const struct coll_args *a)
{
    MPI_Aint all = (MPI_Aint)a->sendcount * a->size;
    void *base, *tmp;
    int err = inter_gather_at_leader(a, &tmp, &base);
    if (!err && a->rank == 0 && all > 0)
        err = p2p_send(tmp, all, a->sendtype, a->root, a);
    buf_free(a, base);
    return err;
}

int gather_inter_leaders(const struct coll_args *a)
{
    MPI_Aint all = (MPI_Aint)a->recvcount * a->remote_size;
    switch (inter_role(a)) {
    case INTER_ROOT:
        return all > 0 ? p2p_recv(a->recvbuf, all, a->recvtype, 0, a) : MPI_SUCCESS;
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        return group_sends(a);
    }
}
