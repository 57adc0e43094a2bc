/* allreduce_linear.c - flat reduce to rank 0, then flat broadcast from it.
 *
 *   reduce:  1, 2, ..., p-1 -> 0   (rank 0 folds x_0 op x_1 op ... in rank order)
 *   bcast:   0 -> 1, 2, ..., p-1
 *
 * Two rounds whatever p: rank 0 posts every receive at once and folds the
 * contributions in rank order as they arrive (common/reduce_tree.c,
 * REDUCE_TREE_FLAT), so non-commutative ops are right, and every rank gets
 * rank 0's bits. seg=X segments the reduce half (default: whole vector).
 *
 * Cost = 2 alpha + 2 (p - 1) n beta + (p - 1) n gamma
 * Against recursive doubling's lg(p) alpha + lg(p) n (beta + gamma): fewer
 * rounds from p = 8 on (2 against 3) and half the messages (2 (p - 1)
 * against p lg p), but every byte crosses rank 0's link. Wins for short
 * vectors at small to moderate p on networks where latency, or the number
 * of messages in flight, dominates; loses for long vectors. */
#include "algorithms/common/bcast_tree.h"
#include "algorithms/common/reduce_tree.h"
#include "algorithms/model.h"

/* The flat reduce to rank 0, then p - 1 copies sent at once. */
double allreduce_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    return reduce_tree_flat_cost(c, m) + model_tree(c, m, c->bytes, c->p - 1, c->p - 1);
}

int allreduce_linear(const struct coll_args *a)
{
    int err = reduce_tree(REDUCE_TREE_FLAT, a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                          0, a->params.seg, a);
    return err ? err : bcast_tree_flat(a->recvbuf, a->count, a->datatype, 0, a);
}
