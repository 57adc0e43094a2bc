/* allreduce_reduce_scatter_allgather.c - allreduce composed of two
 * collectives, each run by the algorithm the tables choose for it
 * (common/sub.h): a reduce_scatter of the vector in p near-equal blocks,
 * rank r keeping block r, then an allgatherv of the reduced blocks.
 *
 *   reduce_scatter   rank r ends with block r of the sum
 *   allgatherv       every rank gets every block
 *
 * With ring steps this is the ring allreduce, with recursive halving and
 * doubling Rabenseifner's; the tables may pair any reduce_scatter with any
 * allgatherv (pairwise with Bruck's, say), and give the steps their own
 * parameters (`reduce_scatter ... seg=`). Non-commutative ops go to a
 * reduce_scatter algorithm that keeps rank order. Each block is reduced on
 * one rank and copied: bitwise identical everywhere. Any p.
 *
 * Cost = Cost(reduce_scatter, n) + Cost(allgatherv, n); with the ring
 * steps 2(p-1) alpha + 2n(p-1)/p beta + n(p-1)/p gamma, with halving and
 * doubling 2 lg p alpha + 2n(p-1)/p beta + n(p-1)/p gamma (p = 2^k). */
#include "../common/buf.h"
#include "../common/pattern.h"
#include "../common/sub.h"


/* counts[i], displs[i] of block i, in one buffer the schedule keeps. */
static int *block_layout(const struct coll_args *a)
{
    int p = a->size, *counts = buf_bytes(2 * (size_t)p * sizeof *counts);
    for (int i = 0; counts && i < p; i++) {
        counts[i] = pat_block_count(a->count, p, i);
        counts[p + i] = (int)pat_block_offset(a->count, p, i);
    }
    return counts;
}

static int reduce_my_block(const struct coll_args *a, const int *counts, void *block)
{
    struct coll_args rs = {.coll = COLL_reduce_scatter, .datatype = a->datatype, .op = a->op,
                           .sendbuf = a->in_place ? a->recvbuf : a->sendbuf,
                           .recvbuf = block, .recvcounts = counts};
    struct sub_group all = sub_group_all(a);
    return sub_collective(a, &all, &rs);
}

static int gather_blocks(const struct coll_args *a, const int *counts, const void *block)
{
    int p = a->size;
    struct coll_args ag = {.coll = COLL_allgatherv, .sendbuf = block,
                           .sendcount = counts[a->rank], .sendtype = a->datatype,
                           .recvbuf = a->recvbuf, .recvcounts = counts,
                           .rdispls = counts + p, .recvtype = a->datatype};
    struct sub_group all = sub_group_all(a);
    return sub_collective(a, &all, &ag);
}

int allreduce_reduce_scatter_allgather(const struct coll_args *a)
{
    void *base = NULL, *block;
    int *counts = block_layout(a), err = MPI_SUCCESS;
    if (!counts)
        return MPI_ERR_NO_MEM;
    block = buf_alloc(counts[a->rank], a->datatype, &base);
    if (!base && counts[a->rank] > 0)
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = reduce_my_block(a, counts, block);
    if (!err)
        err = gather_blocks(a, counts, block);
    buf_free(base);
    buf_free(counts);
    return err;
}
