/* reduce_scatter_linear.c - reduce-scatter by a flat reduce of the whole
 * vector to rank 0, then a flat scatter of the blocks.
 *
 *   reduce   1, 2, ..., p-1 -> 0      (rank 0 folds in rank order)
 *   scatter  0 -> r {block r} for every r with a non-empty block
 *
 * Any op, any p; each block is reduced once, at rank 0.
 *
 * Cost = 2 alpha + (p - 1) n beta + (p-1)/p n beta + (p - 1) n gamma
 * n = bytes of the whole vector (sum of recvcounts).
 * Two rounds at any p: wins for very short vectors where latency, or the
 * number of messages in flight, is all that counts. Core:
 * reduce_scatter_core_linear (common/reduce_scatter_core_linear.c). */
#include "algorithms/common/reduce_scatter_core.h"

int reduce_scatter_linear(const struct coll_args *a)
{
    return reduce_scatter_core_linear(a, a->recvcounts);
}
