/* allreduce_node.c - allreduce in three levels: reduce inside each node
 * to its leader (its first rank), allreduce among the leaders, broadcast
 * inside each node; each level run by the algorithm the tables choose for
 * its group (compose/steps.h), so one network message per node and
 * step instead of one per rank.
 *
 *   node:    reduce to the leader        (intra-node: alpha_i, beta_i)
 *   leaders: allreduce, in place         (inter-node: alpha_e, beta_e)
 *   node:    bcast from the leader       (intra-node)
 *
 * Rank order: ranks in blocks per node make node order then leader order
 * the rank order, so non-commutative ops need a block layout.
 *
 * Cost (k ranks per node, N nodes) = Cost_i(reduce, k) + Cost_e(allreduce,
 * N) + Cost_i(bcast, k); with binomial and doubling levels
 * 2 lg k (alpha_i + n beta_i) + lg k n gamma + lg N (alpha_e + n beta_e + n gamma),
 * against flat doubling's lg(kN) alpha with k ranks per node sharing the
 * node's link: k n beta_e per inter-node step there, n beta_e here. */
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

double allreduce_node_cost(const struct cost_call *c, const struct machine_model *m)
{
    const struct model_step steps[] = {{0, COLL_reduce, MODEL_CALL_BYTES},
                                       {1, COLL_allreduce, MODEL_CALL_BYTES},
                                       {0, COLL_bcast, MODEL_CALL_BYTES}};
    return c->p <= 1 ? 0 : model_steps(c, m, steps, 3);
}

int allreduce_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), leaders = node_group_leaders(L);
    int leader = L->my_index == 0, err;
    const void *mine = a->in_place ? a->recvbuf : a->sendbuf;
    err = step_reduce(a, &node, leader && a->in_place ? MPI_IN_PLACE : mine, a->recvbuf,
                      a->count, 0);
    if (!err && leader)
        err = step_allreduce(a, &leaders, MPI_IN_PLACE, a->recvbuf, a->count);
    if (!err)
        err = step_bcast(a, &node, a->recvbuf, a->count, a->datatype, 0);
    return err;
}
