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

#include <math.h>

/* One round: the root receives p - 1 vectors at once and folds them in
 * turn. seg= pipelines segments: each further one costs the slower of
 * receiving p - 1 segments and folding them. */
double reduce_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double segments = c->seg > 0 ? ceil(c->bytes / c->seg) : 1;
    double piece = c->seg > 0 && c->seg < c->bytes ? c->seg : c->bytes;
    double receive = model_tree(c, m, piece, c->p - 1, c->p - 1);
    double fold = (c->p - 1) * model_reduce(m, piece);
    return receive + fold + (segments - 1) * (receive > fold ? receive : fold);
}

int reduce_linear(const struct coll_args *a)
{
    return reduce_tree(REDUCE_TREE_FLAT, a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                       a->root, a->params.seg, a);
}
