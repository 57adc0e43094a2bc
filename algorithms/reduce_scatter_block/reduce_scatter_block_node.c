/* reduce_scatter_block_node.c - reduce-scatter of equal blocks in levels,
 * for ranks in blocks per node (common/reduce_scatter_core_node.c): reduce of
 * the whole vector in each node to its leader, reduce_scatter of the nodes'
 * runs among the leaders, scatterv of each run in its node; each level chosen
 * by the tables for its group.
 *
 * Cost (k ranks per node, N nodes) = Cost_i(reduce, n, k)
 * + Cost_e(reduce_scatter, n, N) + Cost_i(scatterv, n/N, k), as
 * reduce_scatter_node. */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* reduce of the whole vector in each node, reduce_scatter of it among the
 * leaders (a node's run each), scatterv of the node's run (k blocks; its
 * count: bytes, as the key's) in each node. */
double reduce_scatter_block_node_cost(const struct cost_call *c, const struct machine_model *m)
{
    const struct model_step steps[] = {{0, COLL_reduce, MODEL_CALL_BYTES},
                                       {1, COLL_reduce_scatter, MODEL_CALL_BYTES},
                                       {0, COLL_scatterv, c->bytes / c->p * c->ppn}};
    return c->p <= 1 ? 0 : model_steps(c, m, steps, 3);
}

int reduce_scatter_block_node(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_node);
}
