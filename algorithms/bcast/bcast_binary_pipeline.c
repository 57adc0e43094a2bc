/* bcast_binary_pipeline.c - segmented binary-tree broadcast.
 *
 * Relative ranks form a binary tree in heap order (children of rel are
 * 2 rel + 1 and 2 rel + 2); the packed message moves down in segments of
 * seg bytes, every rank forwarding segment i to both children while
 * segment i+1 arrives:
 *
 *              0
 *           /     \
 *          1       2        depth floor(lg p); each segment costs a
 *         / \     / \       parent two sends (one per child)
 *        3   4   5   6
 *
 * Segments are cut from the packed bytes (identical on every rank even
 * when type maps differ). Wins for large messages on many ranks, where the
 * chain's p - 2 fill steps are too many but the whole-vector binomial tree
 * moves too much: the fill is only lg p deep.
 *
 * Cost = 2 (floor(lg p) + n/s - 1) (alpha + s beta), s = segment bytes
 *        (a->params.seg, default 64 KiB); where the MPI sends segments
 *        eagerly between nodes, a further segment costs 2 (s beta + o),
 *        o the per-message overhead (model_pipeline_step)
 * Non-power-of-two p: the heap tree is cut at p, so its last level is
 * partly filled; nothing else changes. */
#include "algorithms/common/bcast_bytes.h"
#include "algorithms/patterns/bcast_pattern.h"
#include "algorithms/segments.h"
#include "algorithms/model.h"

double bcast_binary_pipeline_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_binary_pipeline(c, m, SEG_DEFAULT_BCAST_BINARY_PIPELINE, MODEL_HEAP_ORDER, 0,
                                 BCAST_BYTES_SLOTS);
}

int bcast_binary_pipeline(const struct coll_args *a)
{
    struct bcast_bytes b;
    int p = a->size, rel = pattern_rel(a->rank, a->root, p), kids[2], nkids = 0, err;
    int parent = rel > 0 ? pattern_abs(bcast_pattern_binary_parent(rel), a->root, p) : -1;
    size_t seg = a->params.seg ? a->params.seg : SEG_DEFAULT_BCAST_BINARY_PIPELINE;
    if (p == 1)
        return MPI_SUCCESS;
    if ((err = bcast_bytes_open(&b, a)) || b.n == 0)
        return bcast_bytes_close(&b, err, a);
    for (int k = 0; k < 2; k++)
        if (bcast_pattern_binary_child(rel, k, p) >= 0)
            kids[nkids++] = pattern_abs(bcast_pattern_binary_child(rel, k, p), a->root, p);
    err = bcast_bytes_forward(&b, seg, parent, kids, nkids, a);
    return bcast_bytes_close(&b, err, a);
}
