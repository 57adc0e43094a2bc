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

int allreduce_reduce_bcast(const struct coll_args *a)
{
    int err = reduce_tree_binomial(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, 0, a);
    return err ? err : bcast_tree_binomial(a->recvbuf, a->count, a->datatype, 0, a);
}
