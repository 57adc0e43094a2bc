/* alltoall_pairwise.c - pairwise exchange, one peer per step.
 *
 * The own block is copied locally; then in step s = 1 .. p-1 every rank
 * sends its block for rank + s and receives the block from rank - s with
 * one sendrecv (blocks of sendcount elements at j * sendcount). When p is a power of two the partner is rank XOR s
 * instead, so every step is a set of disjoint pairwise swaps
 * (Thakur, Rabenseifner & Gropp 2005):
 *
 *   p = 4   step 1: 0<->1 2<->3   step 2: 0<->2 1<->3   step 3: 0<->3 1<->2
 *   p = 3   step 1: 0->1->2->0    step 2: 0->2->1->0
 *
 * Non-power-of-two p uses the shifts, which need no pairing. Data moves with
 * the caller's datatypes (no packing); zero-byte blocks are not sent.
 * Wins for large blocks: every byte crosses the network once and only one
 * message per rank is in flight, so links are not oversubscribed.
 *
 * Cost = (p-1) alpha + ((p-1)/p) n beta, n = sendcount * p * type size
 * Restriction: not in place (the selector walks on to alltoall/inplace).
 * Core shared with the other all-to-alls: common/alltoall_core.c
 * (alltoall_core_pairwise). */
#include "algorithms/common/alltoall_core.h"
#include "algorithms/model.h"

/* p - 1 steps of one block: swaps with rank xor s for pow2 p (as far as the
 * highest bit of s), else shifts by s. */
double alltoall_pairwise_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    int pow2 = model_pow2_floor(c->p) == c->p;
    double block = c->bytes / c->p, cost = 0;
    for (int step = 1; step < c->p; step++)
        cost += pow2 ? model_exchange(c, m, block, model_pow2_floor(step))
                     : model_shift(c, m, block, step);
    return cost;
}

int alltoall_pairwise(const struct coll_args *a) { return alltoall_core_pairwise(a); }
