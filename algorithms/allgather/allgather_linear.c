/* allgather_linear.c - flat gather to rank 0, then a flat broadcast of the
 * whole result from it.
 *
 *   gather:  1, 2, ..., p-1 -> 0      bcast:  0 -> 1, 2, ..., p-1
 *
 * Cost = 2 alpha + (p-1)/p n beta + (p - 1) n beta
 * Two rounds and 2 (p - 1) messages at any p, against ceil(lg p) rounds
 * and p ceil(lg p) messages for Bruck: wins for short blocks at small to
 * moderate p where latency, or the number of messages in flight,
 * dominates; rank 0's link carries everything, so it loses for long ones.
 * The core is allgather_blocks_linear (common/allgather_blocks_linear.c),
 * shared with allgatherv_linear. */
#include "algorithms/common/allgather_blocks.h"
#include "algorithms/model.h"

/* Two rounds: rank 0 receives p - 1 blocks at once, then sends all n
 * bytes to p - 1 ranks at once. */
double allgather_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    return model_tree(c, m, c->bytes / c->p, c->p - 1, c->p - 1) +
           model_tree(c, m, c->bytes, c->p - 1, c->p - 1);
}

int allgather_linear(const struct coll_args *a) { return allgather_blocks_linear(a); }
