/* reduce_scatter_inter_leaders.c - intercommunicator reduce_scatter
 * through the two leaders: each group reduces its vectors at its rank 0
 * (the selected reduce, sub.h), the leaders swap the results, and each
 * group scatters the other group's result from its rank 0 in blocks of
 * recvcounts (the selected scatterv).
 *
 * Cost = Cost(reduce, p, n) + alpha + n beta + Cost(scatterv, p, n). */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"

int reduce_scatter_inter_leaders(const struct coll_args *a)
{
    int p = a->size, err = MPI_SUCCESS;
    MPI_Aint n = 0, *displs = buf_bytes(a, (size_t)p * sizeof *displs);
    void *base = NULL, *other = NULL;
    if (!displs)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < p; n += coll_array_at(a->recvcounts, i++))
        displs[i] = n;
    if (a->rank == 0)
        err = buf_alloc_checked(a, n, a->datatype, &other, &base);
    if (!err)
        err = inter_reduce_swap(a, n, other);
    struct coll_args s = {.coll = COLL_scatterv, .sendbuf = other, .sendcounts = a->recvcounts,
                          .sdispls = COLL_ARRAY(displs), .sendtype = a->datatype,
                          .recvbuf = a->recvbuf,
                          .recvcount = coll_array_at(a->recvcounts, a->rank),
                          .recvtype = a->datatype,
                          .root = 0};
    if (!err)
        err = inter_local(a, &s);
    buf_free(a, base);
    buf_free(a, displs);
    return err;
}
