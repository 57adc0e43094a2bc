/* allreduce_reduce_scatter_allgather.c - allreduce composed of two
 * collectives, each run by the algorithm the tables choose for it
 * (compose/sub.h): a reduce_scatter of the vector in p near-equal blocks,
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
#include "engine/buf.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

/* The steps over the whole communicator: reduce_scatter of the vector in p
 * near-equal blocks, allgatherv of them (its count: bytes, as the key's). */
double allreduce_reduce_scatter_allgather_cost(const struct cost_call *c,
                                               const struct machine_model *m)
{
    if (c->p <= 1)
        return 0;
    struct cost_call step = *c;
    step.coll = COLL_reduce_scatter;
    double reduce_scatter = model_best_step(&step, m);
    step.coll = COLL_allgatherv;
    step.count = (int64_t)c->bytes;
    double allgatherv = model_best_step(&step, m);
    if (reduce_scatter < 0 || allgatherv < 0)
        return COST_UNKNOWN;
    /* the vector into the reduce_scatter's work space, the block out */
    return reduce_scatter + allgatherv + model_copy(m, c->bytes + c->bytes / c->p);
}

int allreduce_reduce_scatter_allgather(const struct coll_args *a)
{
    void *base = NULL, *block;
    MPI_Aint *counts = sub_block_table(a, a->count, a->size);
    int err = MPI_SUCCESS;
    if (!counts)
        return MPI_ERR_NO_MEM;
    block = buf_alloc(a, counts[a->rank], a->datatype, &base);
    if (!base && counts[a->rank] > 0)
        err = MPI_ERR_NO_MEM;
    struct sub_group all = sub_group_all(a);
    if (!err)
        err = step_reduce_scatter(a, &all, a->in_place ? a->recvbuf : a->sendbuf, block,
                                  COLL_ARRAY(counts));
    if (!err)
        err = step_allgatherv(a, &all, block, counts[a->rank], a->recvbuf,
                              COLL_ARRAY(counts), COLL_ARRAY(counts + a->size), a->datatype);
    buf_free(a, base);
    buf_free(a, counts);
    return err;
}
