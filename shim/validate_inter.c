/* validate_inter.c - argument checks of an intercommunicator collective
 * (a->remote_size > 0).
 *
 * The standard's intercommunicator forms: no MPI_IN_PLACE anywhere; a
 * rooted collective names its root MPI_ROOT at the root, MPI_PROC_NULL at
 * the other ranks of the root's group (nothing else is significant there)
 * and the root's rank in the remote group elsewhere; count arrays have one
 * entry per REMOTE rank (gatherv, scatterv, allgatherv, alltoall(v,w)),
 * except reduce_scatter's, which scatters over the local group. */
#include "config.h"
#include "shim/validate.h"
#include "engine/buf.h"

static int check_root(const struct coll_args *a)
{
    if (!coll_is(a->coll, COLL_ROOTED) || a->root == MPI_ROOT || a->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return a->root < 0 || a->root >= a->remote_size ? MPI_ERR_ROOT : MPI_SUCCESS;
}

static int check_reduction_inter(struct coll_args *a)
{
    int err, n = a->size, root = a->root == MPI_ROOT;
    if (a->coll == COLL_reduce_scatter && (err = check_counts(a->recvcounts, n)))
        return err;
    MPI_Aint mine = a->coll == COLL_reduce_scatter ? coll_array_at(a->recvcounts, a->rank)
                  : a->coll == COLL_reduce_scatter_block ? a->recvcount : a->count;
    /* whether the send vector holds elements (its length where it fits) */
    MPI_Aint all = a->coll == COLL_reduce_scatter ? check_count_sum(a->recvcounts, n)
                 : a->coll == COLL_reduce_scatter_block ? (a->recvcount > 0) : a->count;
    if (mine < 0)
        return MPI_ERR_COUNT;
    if ((err = check_op_and_type(a)))
        return err;
    if (!(a->coll == COLL_reduce && root) && (err = check_buffer(a->sendbuf, all, a->datatype)))
        return err;
    if (a->coll != COLL_reduce || root)
        return check_buffer(a->recvbuf, mine, a->datatype);
    return MPI_SUCCESS;
}

static int check_movement_inter(struct coll_args *a)
{
    int r = a->remote_size, root = a->root == MPI_ROOT, strict = VENDOR_IS_MPICH, err;
    switch (a->coll) {
    case COLL_gather:
        return root ? check_side(a->recvbuf, a->recvcount, &a->recvtype, strict)
                    : check_side(a->sendbuf, a->sendcount, &a->sendtype, 1);
    case COLL_gatherv:
        return root ? check_vside(a->recvbuf, a->recvcounts, r, &a->recvtype, strict)
                    : check_side(a->sendbuf, a->sendcount, &a->sendtype, 1);
    case COLL_scatter:
        return root ? check_side(a->sendbuf, a->sendcount, &a->sendtype, strict)
                    : check_side(a->recvbuf, a->recvcount, &a->recvtype, strict);
    case COLL_scatterv:
        return root ? check_vside(a->sendbuf, a->sendcounts, r, &a->sendtype, 1)
                    : check_side(a->recvbuf, a->recvcount, &a->recvtype, strict);
    case COLL_allgather: case COLL_alltoall:
        if (!(err = check_side(a->sendbuf, a->sendcount, &a->sendtype, 1)))
            err = check_side(a->recvbuf, a->recvcount, &a->recvtype,
                             a->coll == COLL_alltoall || strict);
        return err;
    case COLL_allgatherv:
        if (!(err = check_side(a->sendbuf, a->sendcount, &a->sendtype, 1)))
            err = check_vside(a->recvbuf, a->recvcounts, r, &a->recvtype, strict);
        return err;
    case COLL_alltoallv:
        if (!(err = check_vside(a->sendbuf, a->sendcounts, r, &a->sendtype, 1)))
            err = check_vside(a->recvbuf, a->recvcounts, r, &a->recvtype, 1);
        return err;
    default: /* alltoallw */
        if (!(err = check_wside(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes, r)))
            err = check_wside(a->recvbuf, a->recvcounts, a->rdispls, a->recvtypes, r);
        return err;
    }
}

/* MPI_IN_PLACE, which has no meaning on an intercommunicator. The vendors
 * differ (README, "Intercommunicators"): MPICH raises MPI_ERR_BUFFER for
 * the reductions and ignores the buffers that are not significant (the
 * send buffer of gather and the receive buffer of scatter at MPI_ROOT);
 * Open MPI raises MPI_ERR_BUFFER in allreduce and MPI_ERR_ARG elsewhere,
 * the send buffer at the root of gather included. Where a vendor lets it
 * through (MPICH's data movements, which then truncate or hang; Open MPI's
 * scatter at a receiving rank; Open MPI's reduce_scatter(_block), which
 * crash) the shim raises the same class as that vendor's other cases. */
static int in_place_error(const struct coll_args *a)
{
    int root = a->root == MPI_ROOT;
    int gather = a->coll == COLL_gather || a->coll == COLL_gatherv;
    int scatter = a->coll == COLL_scatter || a->coll == COLL_scatterv;
    int send_ip = a->sendbuf == MPI_IN_PLACE, recv_ip = a->recvbuf == MPI_IN_PLACE;
    if (root && scatter)
        recv_ip = 0; /* not significant at the root */
    if (root && gather && VENDOR_IS_MPICH)
        send_ip = 0;
    if (!send_ip && !recv_ip)
        return MPI_SUCCESS;
    return VENDOR_IS_MPICH || a->coll == COLL_allreduce ? MPI_ERR_BUFFER : MPI_ERR_ARG;
}

int validate_inter_args(struct coll_args *a)
{
    int err = check_root(a);
    if (a->coll == COLL_scan || a->coll == COLL_exscan)
        return MPI_SUCCESS; /* not defined on intercommunicators: the vendor
                               (no native algorithm runs them) raises its error */
    if (err || a->coll == COLL_barrier)
        return err;
    if (coll_is(a->coll, COLL_ROOTED) && a->root == MPI_PROC_NULL)
        return MPI_SUCCESS; /* nothing of this rank's is significant */
    if ((err = in_place_error(a)))
        return err;
    if (a->coll == COLL_bcast)
        return check_side(a->recvbuf, a->count, &a->datatype, 1);
    if (coll_is(a->coll, COLL_REDUCES)) /* scan and exscan returned above */
        return check_reduction_inter(a);
    return check_movement_inter(a);
}
