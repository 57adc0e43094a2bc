/* reduce_scatter_block_recursive_doubling.c - reduce-scatter with equal
 * blocks by order-preserving recursive doubling (after Thakur, Rabenseifner
 * & Gropp 2005, non-commutative case).
 *
 * At distances 1, 2, 4, ... each rank merges its group with the adjacent
 * one: it sends the partner every block the partner still needs (its own
 * and all blocks outside the merged group) and combines what it receives
 * with the lower group's partial on the left, so any op stays in rank
 * order:
 *
 *   p = 4   d=1: 0<->1, 2<->3 send all blocks but the sender's own
 *           d=2: 0<->2, 1<->3 send the partner's block only
 *
 * Non-power-of-two p: the first 2r ranks fold pairwise (even into odd,
 * lower-left), the survivors double over virtual blocks, and each odd
 * survivor hands its even neighbour its block at the end.
 *
 * The core is reduce_scatter_recursive_doubling's
 * (common/reduce_scatter_core_doubling.c), run on p blocks of recvcount
 * elements.
 *
 * Cost = lg(p) alpha + n(lg(p) - 2(p-1)/p + lg(p)/p) (beta + gamma)
 *        (+ 2 alpha + n(1 + 1/p) beta + n gamma when p is not a power of two)
 * n = bytes of the whole vector (p * recvcount elements).
 * Wins for short and medium vectors with non-commutative ops: lg(p)
 * steps instead of reduce_scatterv's 2 lg(p). */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* At distances 1, 2, ..., pof2/2 the partner gets (and this rank reduces)
 * every virtual block outside the merged group of 2 distance plus its own:
 * pof2 - 2 distance + 1 of them. */
double reduce_scatter_block_recursive_doubling_cost(const struct cost_call *c,
                                                    const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    int pow2 = model_pow2_floor(c->p), rem = c->p - pow2;
    double block = c->bytes / c->p, cost = model_fold(c, m, c->bytes, block);
    for (int distance = 1; distance < pow2; distance *= 2) {
        double bytes = model_folded_bytes(pow2 - 2 * distance + 1, rem, block);
        cost += model_exchange(c, m, bytes, distance) + model_reduce(m, bytes);
    }
    return cost;
}

int reduce_scatter_block_recursive_doubling(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_doubling);
}
