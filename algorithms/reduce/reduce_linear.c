/* reduce_linear.c - flat tree: the root receives from every rank.
 *
 * The root posts receives from all p - 1 ranks at once and folds them in
 * rank order as they are waited for, each partial on the correct side:
 *
 *   0 --\
 *   1 ---+--> root:  acc = x_root;  acc = acc op x_{root+1}, ... x_{p-1};
 *   ...  |                          acc = x_{root-1} op acc, ... x_0 op acc
 *   p-1 -/
 *
 * so non-commutative ops come out in rank order for any root; no
 * power-of-two assumption. The root holds p - 1 receive buffers; seg=X
 * bounds them to segments of X bytes (default: whole vector).
 *
 * Cost = (p - 1) (alpha + n beta + n gamma)
 * Wins only for tiny p (2, 3) and small n, where one round of latency
 * beats the tree's ceil(lg p) rounds; the root's p - 1 inbound vectors
 * make it lose everywhere else. */
#include "algorithms/common/reduce_tree.h"
#include "algorithms/model.h"

/* One round: the root receives p - 1 vectors at once and folds them in
 * turn (reduce_tree_flat_cost). */
double reduce_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    return reduce_tree_flat_cost(c, m);
}

int reduce_linear(const struct coll_args *a)
{
    return reduce_tree(REDUCE_TREE_FLAT, a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                       a->root, a->params.seg, a);
}
