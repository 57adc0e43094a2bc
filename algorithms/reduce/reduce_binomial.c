/* reduce_binomial.c - binomial tree reduction.
 *
 * Rank relative to the root rel = (rank - root) mod p. At round k a rank
 * whose rel has bit k set sends its partial to rel - 2^k and drops out; the
 * others receive and fold (lower positions on the left):
 *
 *   p = 8:   round 0: 1->0  3->2  5->4  7->6
 *            round 1: 2->0  6->4
 *            round 2: 4->0
 *
 * A node is the first position of its subtree, so folding children in
 * increasing position order keeps the rank order. Any p: children >= p are
 * skipped. A non-commutative op cannot rotate the tree (x_r ... x_{p-1}
 * x_0 ... would come out of order), so ranks r..p-1 form the root's tree
 * and ranks 0..r-1 a second binomial tree whose top, rank 0, sends to the
 * root as one more child folded on the left: at most one more round.
 * The common tree code (segments, folds) is in common/reduce_tree.c;
 * seg=X cuts the vector into segments (default: whole vector).
 *
 * Cost = ceil(lg p) (alpha + n beta + n gamma)
 *        (+ alpha + n beta + n gamma for a non-commutative op at a root r > 0)
 * Wins for small n, where the lg p latency term dominates; for large n the
 * root receiving lg p whole vectors loses to Rabenseifner's reduce-scatter +
 * gather (Thakur, Rabenseifner & Gropp 2005). */
#include "algorithms/common/reduce_tree.h"
#include "algorithms/model.h"

#include <math.h>

/* One level a round: the child's partial one hop up, folded by the parent.
 * seg= pipelines segments: the first climbs every level, each further one
 * costs the root the slower of receiving its ceil(lg p) children's
 * segments and folding them. */
double reduce_binomial_cost(const struct cost_call *c, const struct machine_model *m)
{
    int levels = model_log(2, c->p);
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double segments = c->seg > 0 ? ceil(c->bytes / c->seg) : 1;
    double piece = c->seg > 0 && c->seg < c->bytes ? c->seg : c->bytes, first = 0;
    for (int d = 1; d < c->p; d *= 2)
        first += model_tree(c, m, piece, d, 1) + model_reduce(m, piece);
    double receive = model_tree(c, m, piece, model_pow2_floor(c->p - 1), levels);
    double fold = levels * model_reduce(m, piece);
    return first + (segments - 1) * (receive > fold ? receive : fold);
}

int reduce_binomial(const struct coll_args *a)
{
    return reduce_tree_binomial(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root,
                                a);
}
