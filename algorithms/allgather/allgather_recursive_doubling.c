/* allgather_recursive_doubling.c - recursive doubling.
 *
 * At step k every rank swaps everything it has (the 2^k blocks of its
 * group) with the rank 2^k away, doubling its data each step:
 *
 *   step 0:  0<->1  2<->3  4<->5  6<->7     blocks held: 2
 *   step 1:  0<->2  1<->3  4<->6  5<->7                  4
 *   step 2:  0<->4  1<->5  2<->6  3<->7                  8
 *
 * A group's blocks are a contiguous run of ranks, sent as one message
 * straight from recvbuf (an indexed type where the blocks are not
 * adjacent in memory). Non-power-of-two p: the first 2r ranks
 * (r = p - 2^floor(lg p)) fold pairwise - each even one gives its block to
 * its odd neighbour, which then stands for both in the doubling - and get
 * every other block back from that neighbour at the end.
 *
 * Cost = lg(p) alpha + ((p-1)/p) n beta
 *        (+ 2 alpha + (n/p + n) beta when p is not a power of two)
 * Wins for small and medium n at power-of-two p (Thakur, Rabenseifner
 * and Gropp 2005). The core is allgather_blocks_recursive_doubling
 * (common/allgather_blocks.c), shared with allgatherv. */
#include "algorithms/common/allgather_blocks.h"
#include "algorithms/model.h"

/* Step d swaps a group of d virtual ranks' blocks: d real blocks, up to
 * d + min(d, r) where virtual ranks stand for folded pairs (r = p - 2^floor(lg p)).
 * r > 0: one block in before, the p - 1 others back after, at distance 1. */
double allgather_recursive_doubling_cost(const struct cost_call *c, const struct machine_model *m)
{
    int p = c->p, pow2 = model_pow2_floor(p), folded = p - pow2;
    double block = c->bytes / p, cost = 0;
    if (p <= 1)
        return 0;
    if (folded > 0)
        cost += model_exchange(c, m, block, 1) + model_exchange(c, m, (p - 1) * block, 1);
    for (int d = 1; d < pow2; d *= 2)
        cost += model_folded_exchange(c, m, (d + (d < folded ? d : folded)) * block, d);
    return cost;
}

int allgather_recursive_doubling(const struct coll_args *a)
{
    return allgather_blocks_recursive_doubling(a);
}
