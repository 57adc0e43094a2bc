/* reduce_scatter_core_linear.c - reduce-scatter as a flat reduce of the whole
 * vector to rank 0, then a flat scatter of the blocks: the core of
 * reduce_scatter_linear and reduce_scatter_block_linear.
 *
 *   reduce:   1, 2, ..., p-1 -> 0   (folded in rank order, REDUCE_TREE_FLAT)
 *   scatter:  0 -> 1 {block 1}, 0 -> 2 {block 2}, ...   (all at once)
 *
 * Any op, any p; each block is reduced once, at rank 0, so results are
 * reproducible. Every rank knows every count, so empty blocks are not
 * sent.
 *
 * Cost = 2 alpha + (p - 1) n beta + (p-1)/p n beta + (p - 1) n gamma
 * Two rounds whatever p, against 2 ceil(lg p) for the binomial
 * reduce_scatterv and lg p for recursive halving; every byte crosses rank
 * 0's link. Wins for very short vectors where latency or the number of
 * messages in flight is all that counts. */
#include "algorithms/common/reduce_scatter_core.h"
#include "engine/buf.h"
#include "algorithms/common/linear_root.h"
#include "engine/p2p.h"

/* Rank 0 sends each non-empty block of full to its rank and keeps its own. */
static int scatter_flat(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                        void *full)
{
    MPI_Datatype t = a->datatype;
    struct linear_root_blocks blocks = {.buf = full, .type = t, .counts = COLL_ARRAY(b->counts),
                                        .displs = COLL_ARRAY(b->displs)};
    if (a->rank != 0)
        return buf_carries_data(b->counts[a->rank], t)
                   ? p2p_recv(a->recvbuf, b->counts[a->rank], t, 0, a) : MPI_SUCCESS;
    int err = buf_copy(full, b->counts[0], t, a->recvbuf, b->counts[0], t, a);
    return err ? err : linear_root_exchange(a, 0, &blocks, 1, 0);
}

int reduce_scatter_core_linear(const struct coll_args *a, struct coll_array counts)
{
    return reduce_scatter_core_via_root(a, counts, REDUCE_TREE_FLAT, scatter_flat);
}
