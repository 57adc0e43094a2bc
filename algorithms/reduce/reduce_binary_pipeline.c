/* reduce_binary_pipeline.c - segmented binary tree reduction.
 *
 * A balanced binary tree numbered in preorder from the root (position =
 * rank relative to the root): a node of a subtree of size z has its left
 * child next to it, covering z/2 positions, and its right child after that:
 *
 *   p = 7:        0
 *              /     \
 *             1       4
 *            / \     / \
 *           2   3   5   6
 *
 * Every subtree covers consecutive positions, so folding left child then
 * right child after the node's own data keeps the order (no commutativity
 * needed). The vector is cut into s segments of m bytes (seg=, default
 * 32 KiB); segment j+1 is received while segment j is folded and sent up.
 * A non-commutative op keeps rank order: ranks r..p-1 form the root's tree
 * and ranks 0..r-1 a second tree whose top, rank 0, feeds the root as a
 * third child folded on the left. Any p: the split z/2, z - 1 - z/2 keeps
 * depth floor(lg p).
 *
 * Cost = 2 (floor(lg p) + s - 1) (alpha + m beta + m gamma), s = ceil(n/m)
 *        (a node folds two children per segment; three at a root r > 0
 *         with a non-commutative op); where the MPI sends segments
 *        eagerly between nodes, a further segment costs 2 (m beta + o +
 *        m gamma), o the per-message overhead (model_pipeline_step);
 *        one segment's parent waits for the later of its children's
 *        messages, the left child next to it and the right one half the
 *        subtree away (one child a level where the right subtree is
 *        shallower, p = 2^k), and where eager bytes wait for their
 *        receive each segment spends REDUCE_TREE_SLOTS rounds a level
 *        (model_binary_pipeline)
 * Wins for large n at moderate p: lg p fill steps instead of the chain's
 * p - 2, at twice the per-segment work of the chain (Traff; Sanders,
 * Speck & Traff 2009 on pipelined binary trees). */
#include "algorithms/common/reduce_tree.h"
#include "algorithms/segments.h"
#include "algorithms/model.h"

double reduce_binary_pipeline_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_binary_pipeline(c, m, SEG_DEFAULT_REDUCE_BINARY_PIPELINE, MODEL_PREORDER, 1,
                                 REDUCE_TREE_SLOTS);
}

int reduce_binary_pipeline(const struct coll_args *a)
{
    size_t seg = a->params.seg ? a->params.seg : SEG_DEFAULT_REDUCE_BINARY_PIPELINE;
    return reduce_tree(REDUCE_TREE_BINARY, a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                       a->root, seg, a);
}
