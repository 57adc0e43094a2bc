/* bcast_linear.c - flat tree: the root sends the whole message to every
 * other rank at once, and each of them receives it straight from the root.
 *
 *   0 -> 1, 2, 3, ..., p-1      (one round; all sends in flight together)
 *
 * Each rank uses its own count and datatype, as in MPI_Bcast.
 *
 * Cost = alpha + (p - 1) n beta
 * In LogP terms L + (p - 1) g + ...: one latency instead of ceil(lg p),
 * paid for with p - 1 messages leaving the root back to back. Wins for
 * short messages at small p where the latency is large against the
 * per-message gap g (at p = 8 on a 50 us link: 1 latency against 3);
 * loses as soon as n beta or the root's injection rate counts. The walk
 * is bcast_tree_flat (algorithms/common/bcast_tree.c). */
#include "algorithms/common/bcast_tree.h"
#include "algorithms/model.h"

double bcast_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    return model_tree(c, m, c->bytes, c->p - 1, c->p - 1);
}

int bcast_linear(const struct coll_args *a)
{
    return bcast_tree_flat(a->recvbuf, a->count, a->datatype, a->root, a);
}
