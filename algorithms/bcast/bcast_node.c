/* bcast_node.c - broadcast in two levels: among one representative per
 * node (the root on its own node, the leader elsewhere), then inside each
 * node from its representative; each level run by the algorithm the
 * tables choose for its group (compose/steps.h), so the message crosses
 * the network once per node, not once per rank.
 *
 *   representatives: bcast from the root     (inter-node: alpha_e, beta_e)
 *   node:            bcast from the representative (intra-node)
 *
 * Cost (k ranks per node, N nodes) = Cost_e(bcast, N) + Cost_i(bcast, k);
 * binomial levels: lg N (alpha_e + n beta_e) + lg k (alpha_i + n beta_i),
 * scatter-allgather levels: about 2 n beta_e + 2 n beta_i, against flat
 * scatter-allgather's 2 n beta_e with k ranks sharing a node's link. */
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

double bcast_node_cost(const struct cost_call *c, const struct machine_model *m)
{
    const struct model_step steps[] = {{1, COLL_bcast, MODEL_CALL_BYTES},
                                       {0, COLL_bcast, MODEL_CALL_BYTES}};
    return c->p <= 1 ? 0 : model_steps(c, m, steps, 2);
}

int bcast_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), reps = node_rooted_leaders(L, a->root);
    int err = MPI_SUCCESS;
    if (node_is_rep(L, a->root))
        err = step_bcast(a, &reps, a->recvbuf, a->count, a->datatype, L->node_of[a->root]);
    if (!err)
        err = step_bcast(a, &node, a->recvbuf, a->count, a->datatype, node_rep_index(L, a->root));
    return err;
}
