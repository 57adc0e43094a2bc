/* allreduce_reduce_bcast.c - binomial reduce to rank 0, then binomial
 * broadcast from rank 0.
 *
 *   reduce:  1->0 3->2 5->4 7->6 | 2->0 6->4 | 4->0
 *   bcast:   0->4 | 0->2 4->6 | 0->1 2->3 4->5 6->7
 *
 * Rank 0 folds in rank order (common/reduce_tree.c), so non-commutative
 * ops are correct, and the broadcast hands every rank the same bits.
 * Any p: children >= p are skipped in both trees. seg=X segments the
 * reduce half (default: whole vector).
 *
 * Cost = 2 ceil(lg p) alpha + 2 ceil(lg p) n beta + ceil(lg p) n gamma
 * The baseline: recursive doubling has the same gamma term with half the
 * alpha and beta terms, so this rarely wins; it keeps only one rank busy
 * with arithmetic and needs no pairwise exchanges, which can help when
 * ranks share cores. */
#include "algorithms/common/bcast_tree.h"
#include "algorithms/common/reduce_tree.h"
#include "algorithms/model.h"

/* Binomial reduce (distances 1, 2, ..., a fold each; every segment through
 * rank 0's levels), then binomial bcast from rank 0 (distances ..., 2, 1). */
double allreduce_reduce_bcast_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double n = c->bytes, segments = model_segments(c, c->count, 0, 0);
    double segment = n / segments, cost = 0;
    for (int distance = 1; distance < c->p; distance *= 2)
        cost += segments * (model_tree(c, m, segment, distance, 1) + model_reduce(m, segment)) +
                model_tree(c, m, n, distance, 1);
    return cost;
}

int allreduce_reduce_bcast(const struct coll_args *a)
{
    int err = reduce_tree_binomial(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, 0, a);
    return err ? err : bcast_tree_binomial(a->recvbuf, a->count, a->datatype, 0, a);
}
