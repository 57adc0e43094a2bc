/* reduce_scatter_block_pairwise.c - reduce-scatter with equal blocks by
 * pairwise exchange (Thakur, Rabenseifner & Gropp 2005).
 *
 * In step i = 1 .. p-1 rank r sends rank r+i its block straight from the
 * input and receives its own block from rank r-i (mod p):
 *
 *   p = 4, rank 1:  i=1: ->2 <-0   i=2: ->3 <-3   i=3: ->0 <-2
 *
 * Two accumulators (ranks 0..r and r+1..p-1, combined last) keep rank
 * order, so any op works. Any p: there is no power-of-two structure.
 *
 * The core is reduce_scatter_pairwise's
 * (common/reduce_scatter_core_pairwise.c), run on p blocks of recvcount
 * elements.
 *
 * Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma
 * n = bytes of the whole vector (p * recvcount elements).
 * Wins for long vectors and very uneven blocks: each block travels
 * once, directly to its owner, and only one block is held. */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* p - 1 steps: one block to rank + i, one block reduced. */
double reduce_scatter_block_pairwise_cost(const struct cost_call *c,
                                          const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double block = c->bytes / c->p, cost = 0;
    for (int distance = 1; distance < c->p; distance++)
        cost += model_shift(c, m, block, distance) + model_reduce(m, block);
    return cost;
}

int reduce_scatter_block_pairwise(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_pairwise);
}
