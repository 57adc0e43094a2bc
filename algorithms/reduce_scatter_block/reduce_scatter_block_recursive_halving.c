/* reduce_scatter_block_recursive_halving.c - reduce-scatter with equal
 * blocks by recursive halving (Thakur, Rabenseifner & Gropp 2005).
 *
 * At distances p/2, p/4, ..., 1 each rank swaps half of the blocks it is
 * still responsible for with its partner and reduces the partner's
 * partial of the half it keeps:
 *
 *   p = 4, blocks 0123   d=2: 0<->2, 1<->3 swap {01 | 23}
 *                        d=1: 0<->1, 2<->3 swap single blocks
 *
 * A block's contributions arrive in exchange order, not rank order:
 * commutative ops only (declared in the registry). Non-power-of-two p:
 * the first 2r ranks (r = p - 2^floor(lg p)) fold pairwise into the odd
 * rank, the survivors halve over virtual blocks (a folded pair's two
 * blocks as one), and each odd survivor hands its even neighbour its
 * block at the end.
 *
 * The core is reduce_scatter_recursive_halving's
 * (common/reduce_scatter_core_halving.c), run on p blocks of recvcount
 * elements.
 *
 * Cost = lg(p) alpha + n(p-1)/p beta + n(p-1)/p gamma
 *        (+ 2 alpha + n(1 + 1/p) beta + n gamma when p is not a power of two)
 * n = bytes of the whole vector (p * recvcount elements).
 * Wins for medium and long vectors with commutative ops:
 * bandwidth-optimal in lg(p) steps. */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/model.h"

/* Halving at distances pof2/2, ..., 1, swapping and reducing half of the
 * virtual blocks still held (the largest such range: the critical path). */
double reduce_scatter_block_recursive_halving_cost(const struct cost_call *c,
                                                   const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    int pow2 = model_pow2_floor(c->p), rem = c->p - pow2;
    double block = c->bytes / c->p, cost = model_fold(c, m, c->bytes, block);
    for (int distance = pow2 / 2; distance >= 1; distance /= 2) {
        double bytes = model_folded_bytes(distance, rem, block);
        cost += model_exchange(c, m, bytes, distance) + model_reduce(m, bytes);
    }
    return cost;
}

int reduce_scatter_block_recursive_halving(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_halving);
}
