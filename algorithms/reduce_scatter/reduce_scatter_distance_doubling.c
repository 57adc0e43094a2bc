/* reduce_scatter_distance_doubling.c - reduce-scatter by
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

int reduce_scatter_distance_doubling(const struct coll_args *a)
{
    return reduce_scatter_core_distance_doubling(a, a->recvcounts);
}
