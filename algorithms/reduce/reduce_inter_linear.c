/* reduce_inter_linear.c - intercommunicator reduce, linear: every rank of
 * the remote group sends its vector straight to the root, which receives
 * them all at once and folds them in the remote group's rank order
 * (v_0 op (v_1 op (... op v_{q-1}))), so any op, commutative or not.
 *
 * Cost = alpha + q n beta + (q-1) n gamma (latencies overlap; the root's
 * link carries q n), q = the sending group's size; tiny vectors, few
 * ranks, where one round beats the tree's lg q. */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"
#include "engine/scratch.h"

#include <stdlib.h>

static int root_folds(const struct coll_args *a)
{
    int q = a->remote_size, err;
    void *base = NULL, *tmp = NULL;
    MPI_Request *reqs = scratch_get((size_t)q * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    err = buf_alloc_checked(a, (MPI_Aint)(q - 1) * a->count, a->datatype, &tmp, &base);
    for (int i = 0; i < q - 1 && !err; i++)
        err = p2p_irecv(buf_at(tmp, (MPI_Aint)i * a->count, a->datatype), a->count,
                        a->datatype, i, a, &reqs[i]);
    if (!err)
        err = p2p_irecv(a->recvbuf, a->count, a->datatype, q - 1, a, &reqs[q - 1]);
    if (!err)
        err = p2p_waitall(a, q, reqs);
    for (int i = q - 2; i >= 0 && !err; i--)
        err = buf_reduce(a, buf_at(tmp, (MPI_Aint)i * a->count, a->datatype), a->recvbuf,
                         a->count, a->datatype, a->op);
    buf_free(a, base);
    scratch_put(reqs);
    return err;
}

int reduce_inter_linear(const struct coll_args *a)
{
    switch (inter_role(a)) {
    case INTER_ROOT:
        return root_folds(a);
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        return p2p_send(a->sendbuf, a->count, a->datatype, a->root, a);
    }
}
