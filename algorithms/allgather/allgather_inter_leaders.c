/* allgather_inter_leaders.c - intercommunicator allgather through the
 * two leaders: each group gathers its blocks at its rank 0 (the gather the
 * tables choose, sub.h), the leaders swap the two gathered vectors, and
 * each group broadcasts the other group's vector from its rank 0 (the
 * selected bcast).
 *
 * Cost = Cost(gather, p, n_p) + alpha + max(n_p, n_q) beta + Cost(bcast,
 * p, n_q), n_p, n_q = the two groups' data; small blocks, many ranks. */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"

int allgather_inter_leaders(const struct coll_args *a)
{
    MPI_Aint mine = (MPI_Aint)a->sendcount * a->size;
    MPI_Aint theirs = (MPI_Aint)a->recvcount * a->remote_size;
    void *base, *tmp;
    int err = inter_gather_at_leader(a, &tmp, &base);
    if (!err && a->rank == 0)
        err = p2p_sendrecv(tmp, mine, a->sendtype, 0, a->recvbuf, theirs,
                           a->recvtype, 0, a);
    struct coll_args b = {.coll = COLL_bcast, .recvbuf = a->recvbuf, .count = theirs,
                          .datatype = a->recvtype, .root = 0};
    if (!err)
        err = inter_local(a, &b);
    buf_free(a, base);
    return err;
}
