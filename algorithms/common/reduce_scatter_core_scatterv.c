/* reduce_scatter_core_scatterv.c - reduce-scatter as a reduce to rank 0
 * followed by a scatterv of the blocks, the core of
 * reduce_scatter_reduce_scatterv and reduce_scatter_block_reduce_scatterv.
 * Any op, any p: the simple, always-correct one.
 *
 * The whole vector is reduced to rank 0 along the binomial tree of
 * reduce_tree_binomial (reduce_tree.h), which applies the op in rank
 * order; rank 0 then hands out the blocks along a binomial tree: each rank
 * receives the blocks of its subtree [r, r + lowbit(r)) from its parent in
 * one message and passes each child its share, largest subtree first.
 *
 *   p = 8 scatter:  0 -> 4 {4..7}, 0 -> 2 {2,3}, 0 -> 1 {1}
 *                   4 -> 6 {6,7}, 4 -> 5 {5}, 2 -> 3 {3}, 6 -> 7 {7}
 *
 * Each block is reduced once, at rank 0, so results are reproducible.
 * Every rank knows every count, so subtrees whose blocks are all empty get
 * no message at all (a short vector over many ranks: most of them).
 *
 * Cost = 2 ceil(lg p) alpha + n(ceil(lg p) + (p-1)/p) beta + n ceil(lg p) gamma
 * Wins for short vectors, and is the fallback for any op and p. */
#include "algorithms/common/reduce_scatter_core.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/common/reduce_tree.h"

/* Elements of blocks [first, end) with end clipped to p. */
static MPI_Aint span(const struct reduce_scatter_core_blocks *b, int first, int end)
{
    return b->displs[end < b->p ? end : b->p] - b->displs[first];
}

/* Pass each child of rank r its subtree's blocks out of stage, which
 * holds blocks [r, ...) from its start. */
static int to_children(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                       const void *stage)
{
    int r = a->rank, err = MPI_SUCCESS;
    for (int m = pattern_binomial_mask(r, a->size) / 2; m >= 1 && !err; m /= 2)
        if (r + m < a->size && span(b, r + m, r + 2 * m) > 0)
            err = p2p_send(buf_at(stage, b->displs[r + m] - b->displs[r], a->datatype),
                             span(b, r + m, r + 2 * m), a->datatype, r + m, a);
    return err;
}

/* Binomial scatter from rank 0, where full holds the reduced vector. */
static int scatter(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                   void *full)
{
    MPI_Datatype t = a->datatype;
    int r = a->rank;
    MPI_Aint my = b->counts[r], n = span(b, r, r + pattern_binomial_mask(r, a->size));
    void *stage = full, *base = NULL;
    /* only its own block comes: straight into recvbuf (which may be
     * MPI_BOTTOM: a flag, never a pointer test) */
    int direct = r > 0 && n > 0 && n == my, err = MPI_SUCCESS;
    if (direct)
        stage = a->recvbuf;
    else if (r > 0 && n > 0)
        err = buf_alloc_checked(a, n, t, &stage, &base);
    if (!err && r > 0 && n > 0)
        err = p2p_recv(stage, n, t, pattern_binomial_parent(r), a);
    if (!err)
        err = to_children(a, b, stage);
    if (!err && !direct)
        err = buf_copy(stage, my, t, a->recvbuf, my, t, a);
    buf_free(a, base);
    return err;
}

int reduce_scatter_core_via_root(const struct coll_args *a, struct coll_array counts,
                                 enum reduce_tree_shape shape,
                                 reduce_scatter_core_scatter_fn scatter)
{
    struct reduce_scatter_core_blocks b;
    void *full = NULL, *base = NULL;
    int err = reduce_scatter_core_blocks_init(&b, counts, a->size);
    MPI_Aint total = err ? 0 : b.displs[a->size];
    if (!err && total > 0 && a->rank == 0)
        err = buf_alloc_checked(a, total, a->datatype, &full, &base);
    if (!err && total > 0)
        err = reduce_tree(shape, reduce_scatter_core_source(a), full, total, a->datatype, a->op,
                          0, a->params.seg, a);
    if (!err && total > 0)
        err = scatter(a, &b, full);
    buf_free(a, base);
    reduce_scatter_core_blocks_free(&b);
    return err;
}

int reduce_scatter_core_scatterv(const struct coll_args *a, struct coll_array counts)
{
    return reduce_scatter_core_via_root(a, counts, REDUCE_TREE_BINOMIAL, scatter);
}
