/* reduce_scatter_block_ring.c - reduce-scatter with equal blocks by
 * segmented ring (Patarasuk & Yuan 2009).
 *
 * In step s = 0 .. p-2 rank r receives from r-1 the partial of block
 * r-s-2, reduces its own input block into it and passes it on to r+1;
 * after p-1 steps block r is complete at rank r:
 *
 *   p = 3   s=0: 0->1 blk 2, 1->2 blk 0, 2->0 blk 1
 *           s=1: 0->1 blk 1, 1->2 blk 2, 2->0 blk 0   (final)
 *
 * Blocks travel in segments of a->params.seg bytes (default 64k): all
 * receives of a step are posted before the first segment is reduced and
 * each finished segment is forwarded at once. A partial wraps around
 * rank 0: commutative ops only. Any p.
 *
 * The core is reduce_scatter_ring's (common/reduce_scatter_core_ring.c), run
 * on p blocks of recvcount elements.
 *
 * Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma
 *        (+ (p-1) alpha per extra segment of a block)
 * n = bytes of the whole vector (p * recvcount elements).
 * Wins for long vectors: bandwidth-optimal, neighbour traffic only,
 * and the reduction overlaps the transfers. */
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/common/reduce_scatter_core_ring.h"
#include "algorithms/model.h"

/* p - 1 neighbour steps, each a block in segments one after the other
 * (received, reduced, forwarded: no overlap counted). */
double reduce_scatter_block_ring_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0 || c->count <= 0)
        return 0;
    double size = c->bytes / (double)c->count;
    int64_t elements = c->count / c->p;
    double segments = model_segments(c, elements, SEG_DEFAULT_RING, RING_MAX_SEGS);
    double segment = elements * size / segments;
    return (c->p - 1) * segments * (model_shift(c, m, segment, 1) + model_reduce(m, segment));
}

int reduce_scatter_block_ring(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_ring);
}
