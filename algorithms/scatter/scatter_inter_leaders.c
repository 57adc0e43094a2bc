/* scatter_inter_leaders.c - intercommunicator scatter through the remote
 * group's leader: the root sends every block in one message to rank 0 of
 * the remote group, which scatters them in its group with the scatter the
 * tables choose (sub.h). The other ranks of the root's group
 * (MPI_PROC_NULL) take no part.
 *
 * Cost = alpha + n beta + Cost(scatter, q, n), q = the receiving group's
 * size; many small blocks (one message leaves the root). */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"

static int group_receives(const struct coll_args *a)
{
    MPI_Aint all = (MPI_Aint)a->recvcount * a->size;
    void *base = NULL, *tmp = NULL;
    int err = MPI_SUCCESS;
    if (a->rank == 0 && (err = buf_alloc_checked(a, all, a->recvtype, &tmp, &base)))
        return err;
    if (a->rank == 0 && all > 0)
        err = p2p_recv(tmp, all, a->recvtype, a->root, a);
    struct coll_args s = {.coll = COLL_scatter, .sendbuf = tmp, .sendcount = a->recvcount,
                          .sendtype = a->recvtype, .recvbuf = a->recvbuf,
                          .recvcount = a->recvcount, .recvtype = a->recvtype, .root = 0};
    if (!err)
        err = inter_local(a, &s);
    buf_free(a, base);
    return err;
}

int scatter_inter_leaders(const struct coll_args *a)
{
    MPI_Aint all = (MPI_Aint)a->sendcount * a->remote_size;
    switch (inter_role(a)) {
    case INTER_ROOT:
        return all > 0 ? p2p_send(a->sendbuf, all, a->sendtype, 0, a) : MPI_SUCCESS;
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        return group_receives(a);
    }
}
