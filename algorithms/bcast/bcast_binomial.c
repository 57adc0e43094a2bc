/* bcast_binomial.c - binomial tree broadcast of the whole message.
 *
 * The root sends the whole buffer to relative ranks p/2, p/4, ..., 1 (rounded
 * to powers of two); each receiver forwards to its own subtree, so the
 * number of informed ranks doubles every round:
 *
 *   round 1:  0 -> 4
 *   round 2:  0 -> 2            4 -> 6
 *   round 3:  0 -> 1   2 -> 3   4 -> 5   6 -> 7
 *
 * Every rank sends and receives with its own count and datatype, so type
 * maps that differ between ranks need no packing. Wins for small messages,
 * where ceil(lg p) latencies are the whole cost; for large ones it moves
 * the whole vector lg p times.
 *
 * Cost = ceil(lg p) (alpha + n beta)
 * Non-power-of-two p: the tree is cut at p (children >= p do not exist),
 * still ceil(lg p) rounds. The walk is algorithms/common/bcast_tree.c. */
#include "algorithms/common/bcast_tree.h"
#include "algorithms/model.h"

/* One level a round, the whole message one hop down (the largest subtree's
 * child first). Where the messages leave at once (model_fans), the
 * binomial tree of model_fan_tree: sharing one link and arriving
 * together, ceil(lg p) alpha + lg p (lg p + 1) / 2 n beta; on SMPI's fat
 * tree at 64 hosts and 8 KiB, 21.2 us measured against 11.4 priced one
 * level a round (results/model.md). */
double bcast_binomial_cost(const struct cost_call *c, const struct machine_model *m)
{
    double cost = 0;
    if (c->bytes <= 0)
        return 0;
    if (model_fans(m, c->bytes))
        return model_fan_tree(c, m, 2, 1);
    for (int d = 1; d < c->p; d *= 2)
        cost += model_tree(c, m, c->bytes, d, 1);
    return cost;
}

int bcast_binomial(const struct coll_args *a)
{
    return bcast_tree_binomial(a->recvbuf, a->count, a->datatype, a->root, a);
}
