/* reduce_scatter_block_inter_leaders.c - intercommunicator
 * reduce_scatter_block through the two leaders: each group reduces its
 * vectors at its rank 0 (the selected reduce, sub.h), the leaders swap
 * the results, and each group scatters the other group's result from its
 * rank 0 in blocks of recvcount (the selected scatter).
 *
 * Cost = Cost(reduce, p, n) + alpha + n beta + Cost(scatter, p, n). */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"

int reduce_scatter_block_inter_leaders(const struct coll_args *a)
{
    MPI_Aint n = a->recvcount * a->size;
    int err = MPI_SUCCESS;
    void *base = NULL, *other = NULL;
    if (a->rank == 0)
        err = buf_alloc_checked(a, n, a->datatype, &other, &base);
    if (!err)
        err = inter_reduce_swap(a, n, other);
    struct coll_args s = {.coll = COLL_scatter, .sendbuf = other, .sendcount = a->recvcount,
                          .sendtype = a->datatype, .recvbuf = a->recvbuf,
                          .recvcount = a->recvcount, .recvtype = a->datatype, .root = 0};
    if (!err)
        err = inter_local(a, &s);
    buf_free(a, base);
    return err;
}
