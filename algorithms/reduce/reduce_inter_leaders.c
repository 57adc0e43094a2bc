/* reduce_inter_leaders.c - intercommunicator reduce through the remote
 * group's leader: the group holding the data reduces it at its rank 0
 * with the reduce the tables choose (sub.h; rank order kept for
 * non-commutative ops), which sends the result to the root. The other
 * ranks of the root's group (MPI_PROC_NULL) take no part.
 *
 * Cost = Cost(reduce, q, n) + alpha + n beta, q = the sending group's
 * size; any size, the default. */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"

static int group_reduces(const struct coll_args *a)
{
    void *base = NULL, *tmp = NULL;
    int err = MPI_SUCCESS;
    if (a->rank == 0 && (err = buf_alloc_checked(a, a->count, a->datatype, &tmp, &base)))
        return err;
    struct coll_args r = {.coll = COLL_reduce, .sendbuf = a->sendbuf, .recvbuf = tmp,
                          .count = a->count, .datatype = a->datatype, .op = a->op, .root = 0};
    err = inter_local(a, &r);
    if (!err && a->rank == 0)
        err = p2p_send(tmp, a->count, a->datatype, a->root, a);
    buf_free(a, base);
    return err;
}

int reduce_inter_leaders(const struct coll_args *a)
{
    switch (inter_role(a)) {
    case INTER_ROOT:
        return p2p_recv(a->recvbuf, a->count, a->datatype, 0, a);
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        return group_reduces(a);
    }
}
