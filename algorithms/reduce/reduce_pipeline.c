/* reduce_pipeline.c - segmented chain (pipeline) reduction.
 *
 * The vector is cut into s segments of m bytes (seg=, default 32 KiB).
 * Ranks form a chain ending at the root; each rank receives segment j from
 * the rank behind it, folds its own segment j in front (lower positions on
 * the left) and passes it on, while segment j+1 is already arriving:
 *
 *   time ->    r+3      r+2      r+1      r (root)
 *     t0       seg0 ->
 *     t1       seg1 ->  seg0 ->
 *     t2       seg2 ->  seg1 ->  seg0 ->
 *
 * Commutative op: the chain runs over ranks relative to the root. A non-
 * commutative op keeps rank order: ranks r..p-1 chain down to the root and
 * ranks 0..r-1 chain down to rank 0, which feeds the root as a second
 * stream folded on the left. Any p works; no power-of-two assumption.
 *
 * Cost = (p + s - 2) (alpha + m beta + m gamma), s = ceil(n/m);
 *        where the MPI sends segments of m bytes eagerly between nodes,
 *        (p - 1) (alpha + m beta + m gamma) + (s - 1) (m beta + o + m gamma),
 *        o the per-message overhead: a segment's latency passes while the
 *        one before it is on the link
 *        (non-commutative op at a root r > 0: the root folds two streams,
 *         about (max(r, p-1-r) + 2s) (alpha + m beta + m gamma))
 * Wins for large n at small p (Traff's pipelined trees): every link and
 * the arithmetic stay busy and the time tends to n (beta + gamma), but
 * the p - 2 fill steps make it lose to trees as p grows. */
#include "algorithms/common/reduce_tree.h"
#include "algorithms/segments.h"
#include "algorithms/model.h"

double reduce_pipeline_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_chain_pipeline(c, m, SEG_DEFAULT_REDUCE_PIPELINE, 1, REDUCE_TREE_SLOTS);
}

int reduce_pipeline(const struct coll_args *a)
{
    size_t seg = a->params.seg ? a->params.seg : SEG_DEFAULT_REDUCE_PIPELINE;
    return reduce_tree(REDUCE_TREE_CHAIN, a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                       a->root, seg, a);
}
