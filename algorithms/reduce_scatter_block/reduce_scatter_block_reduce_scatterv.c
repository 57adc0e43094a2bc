/* reduce_scatter_block_reduce_scatterv.c - reduce-scatter with equal blocks
 * by binomial reduce of the whole vector to rank 0, then a binomial scatter
 * of the blocks.
 *
 *   reduce   (reduce_tree_binomial, in rank order)   1->0, 3->2, 2->0 ...
 *   scatter  0 -> 4 {4..7}, 0 -> 2 {2,3}, 0 -> 1 {1}, 4 -> 6 {6,7} ...
 *
 * Any op (the tree keeps rank order), any p; each block is reduced once,
 * at rank 0. The simple, always-correct one.
 *
 * The core is reduce_scatter_reduce_scatterv's
 * (common/reduce_scatter_core_scatterv.c), run on p blocks of recvcount
 * elements.
 *
 * Cost = 2 ceil(lg p) alpha + n(ceil(lg p) + (p-1)/p) beta + n ceil(lg p) gamma
 * n = bytes of the whole vector (p * recvcount elements).
 * Wins for very short vectors, where 2 ceil(lg p) latencies are all
 * that counts; the fallback for anything. */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* Binomial reduce of the vector to rank 0 (distances 1, 2, ..., a fold
 * each; every segment through rank 0's levels), then rank 0 sends its
 * children their subtrees' blocks one after the other (distances ..., 2, 1:
 * min(2 d, p) - d blocks at distance d). */
double reduce_scatter_block_reduce_scatterv_cost(const struct cost_call *c,
                                                 const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double n = c->bytes, block = n / c->p, segments = model_segments(c, c->count, 0, 0),
           segment = n / segments, cost = 0;
    for (int distance = 1; distance < c->p; distance *= 2) {
        int blocks = (2 * distance < c->p ? 2 * distance : c->p) - distance;
        cost += segments * (model_tree(c, m, segment, distance, 1) + model_reduce(m, segment)) +
                model_tree(c, m, blocks * block, distance, 1);
    }
    return cost;
}

int reduce_scatter_block_reduce_scatterv(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_scatterv);
}
