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

/* Segments of a block of `elements` elements of `size` bytes: seg bytes
 * each, enlarged to at most RING_MAX_SEGS (the default outstanding). */
static double ring_segments(const struct cost_call *c, int64_t elements, double size)
{
    double seg = c->seg > 0 ? c->seg : SEG_DEFAULT_RING;
    int64_t per_segment = (int64_t)(seg / size),
            least = (elements + RING_MAX_SEGS - 1) / RING_MAX_SEGS;
    if (per_segment < least)
        per_segment = least;
    if (per_segment < 1)
        per_segment = 1;
    return (double)((elements + per_segment - 1) / per_segment);
}

/* p - 1 neighbour steps, each a block in segments one after the other
 * (received, reduced, forwarded: no overlap counted). */
double reduce_scatter_block_ring_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0 || c->count <= 0)
        return 0;
    double size = c->bytes / (double)c->count;
    int64_t elements = c->count / c->p;
    double segments = ring_segments(c, elements, size), segment = elements * size / segments;
    return (c->p - 1) * segments * (model_shift(c, m, segment, 1) + model_reduce(m, segment));
}

int reduce_scatter_block_ring(const struct coll_args *a)
{
    return reduce_scatter_core_block_run(a, reduce_scatter_core_ring);
}
