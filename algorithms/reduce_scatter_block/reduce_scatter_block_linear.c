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

int reduce_scatter_block_linear(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_linear);
}
