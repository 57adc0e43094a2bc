/* reduce_scatter_block_linear.c - reduce-scatter-block by a flat reduce of
 * the whole vector to rank 0, then a flat scatter of the p blocks of
 * recvcount elements.
 *
 *   reduce   1, 2, ..., p-1 -> 0      (rank 0 folds in rank order)
 *   scatter  0 -> r {block r}, all at once
 *
 * Cost = 2 alpha + (p - 1) n beta + (p-1)/p n beta + (p - 1) n gamma
 * n = bytes of the whole vector (p * recvcount elements).
 * Two rounds at any p: wins for very short vectors where latency, or the
 * number of messages in flight, is all that counts. Core:
 * reduce_scatter_core_linear (common/reduce_scatter_core_linear.c). */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/common/reduce_tree.h"
#include "algorithms/model.h"

/* The flat reduce of the whole vector to rank 0, then p - 1 blocks sent at
 * once. */
double reduce_scatter_block_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    return reduce_tree_flat_cost(c, m) + model_tree(c, m, c->bytes / c->p, c->p - 1, c->p - 1);
}

int reduce_scatter_block_linear(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_linear);
}
