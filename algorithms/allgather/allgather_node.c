/* allgather_node.c - allgather in three levels, for ranks in blocks per
 * node (a node's blocks are then one contiguous run of recvbuf):
 *
 *   node:    gather to the leader, into the node's run of recvbuf  (intra)
 *   leaders: allgatherv of the nodes' runs, in place               (inter)
 *   node:    bcast of the whole recvbuf from the leader            (intra)
 *
 * each run by the algorithm the tables choose for its group
 * (compose/steps.h), on a type of one rank's block. Every block crosses
 * the network once per node that needs it, from one rank per node.
 *
 * Cost (k ranks per node, N nodes, n bytes in all) = Cost_i(gather, nk/p, k)
 * + Cost_e(allgatherv, n, N) + Cost_i(bcast, n, k); with binomial, ring
 * and scatter-allgather levels lg k alpha_i + (N-1) alpha_e
 * + (N-1)/N n beta_e + ~3 n beta_i, against the flat ring's (p-1) alpha
 * with k ranks per node sharing its link (k (p-1)/p n beta_e there). */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

/* Gather of the node's k blocks, allgatherv of all n bytes among the
 * leaders, bcast of all n bytes in the node. */
double allgather_node_cost(const struct cost_call *c, const struct machine_model *m)
{
    const struct model_step steps[] = {{0, COLL_gather, c->bytes / c->p * c->ppn},
                                       {1, COLL_allgatherv, c->bytes},
                                       {0, COLL_bcast, c->bytes}};
    return c->p <= 1 ? 0 : model_steps(c, m, steps, 3);
}

static int gather_in_node(const struct coll_args *a, const struct node_layout *L,
                          MPI_Datatype blk)
{
    struct sub_group node = node_group_mine(L);
    void *run = buf_at(a->recvbuf, (MPI_Aint)L->node_start[L->my_node] * a->recvcount,
                       a->recvtype);
    struct coll_args g = {.coll = COLL_gather, .sendbuf = a->sendbuf, .sendcount = a->sendcount,
                          .sendtype = a->sendtype, .recvbuf = run, .recvcount = 1,
                          .recvtype = blk, .root = 0};
    if (a->in_place && L->my_index > 0) { /* my block sits in recvbuf */
        g.sendbuf = buf_at(a->recvbuf, (MPI_Aint)a->rank * a->recvcount, a->recvtype);
        g.sendcount = 1;
        g.sendtype = blk;
    }
    return sub_collective(a, &node, &g);
}

int allgather_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), leaders = node_group_leaders(L);
    MPI_Datatype blk;
    int err = step_block_type(a->recvcount, a->recvtype, &blk);
    if (err)
        return err;
    err = gather_in_node(a, L, blk);
    if (!err && L->my_index == 0)
        err = step_allgatherv(a, &leaders, MPI_IN_PLACE, 0, a->recvbuf, COLL_ARRAY(L->node_size),
                              COLL_ARRAY(L->node_start), blk);
    if (!err)
        err = step_bcast(a, &node, a->recvbuf, a->size, blk, 0);
    buf_type_free(a, &blk);
    return err;
}
