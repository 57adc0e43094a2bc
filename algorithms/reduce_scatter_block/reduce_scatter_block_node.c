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
    if (c->p <= 1)
        return 0;
    struct cost_call node = model_node_level(c), leaders = model_leader_level(c);
    node.coll = COLL_reduce;
    double reduce = model_best_step(&node, m);
    leaders.coll = COLL_reduce_scatter;
    double reduce_scatter = model_best_step(&leaders, m);
    node.coll = COLL_scatterv;
    node.bytes = c->bytes / c->p * c->ppn;
    node.count = (int64_t)node.bytes;
    double scatterv = model_best_step(&node, m);
    if (reduce < 0 || reduce_scatter < 0 || scatterv < 0)
        return COST_UNKNOWN;
    return reduce + reduce_scatter + scatterv;
}

int reduce_scatter_block_node(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_node);
}
