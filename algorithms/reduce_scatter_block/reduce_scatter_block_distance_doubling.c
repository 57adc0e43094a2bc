/* reduce_scatter_block_distance_doubling.c - reduce-scatter with equal blocks by
 * recursive halving of the vector with partners 1, 2, 4, ... apart, the
 * largest exchanges nearest (inside a node when ranks are laid out in
 * blocks of nodes), then one swap that puts each block at its owner.
 * Commutative ops only (declared in the registry); non-power-of-two p
 * folds. The core is reduce_scatter_core_distance_doubling
 * (common/reduce_scatter_core_distance_doubling.c).
 *
 * Cost = (lg p + 1) alpha + n(p-1)/p beta + n/p beta + n(p-1)/p gamma
 *        (+ 2 alpha + n(1 + 1/p) beta + n gamma when p is not a power of two)
 * Wins over recursive_halving where many ranks share a node's link: there
 * the n/2 exchanges of every rank of a node cross the network at once. */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* Halving at distances 1, 2, ..., pof2/2 (pof2/2, pof2/4, ... virtual
 * blocks), then the bit-reversal swap of one virtual block, its farthest
 * pairs about pof2/2 apart (none below pof2 = 4; two real blocks when a
 * folded pair swaps, rem >= 2). */
double reduce_scatter_block_distance_doubling_cost(const struct cost_call *c,
                                                   const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    int pow2 = model_pow2_floor(c->p), rem = c->p - pow2;
    double block = c->bytes / c->p, cost = model_fold(c, m, c->bytes, block);
    for (int distance = 1, blocks = pow2 / 2; distance < pow2; distance *= 2, blocks /= 2) {
        double bytes = model_folded_bytes(blocks, rem, block);
        cost += model_exchange(c, m, bytes, distance) + model_reduce(m, bytes);
    }
    if (pow2 >= 4)
        cost += model_exchange(c, m, (rem >= 2 ? 2 : 1) * block, pow2 / 2);
    return cost;
}

int reduce_scatter_block_distance_doubling(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_distance_doubling);
}
