/* allreduce_ring.c - ring allreduce: a segmented ring reduce-scatter
 * followed by a segmented ring allgather (Patarasuk & Yuan 2009; Thakur,
 * Rabenseifner & Gropp 2005).
 *
 * The vector is cut into p blocks (pattern_block_count). In p-1 steps each
 * rank passes a growing partial of one block to its right neighbour, so
 * rank r ends with block r reduced; in p-1 more steps the finished blocks
 * travel round the ring:
 *
 *   p = 3   reduce-scatter  s=0: 0->1 blk 2, 1->2 blk 0, 2->0 blk 1
 *                           s=1: 0->1 blk 1, 1->2 blk 2, 2->0 blk 0
 *           allgather       s=0: 0->1 blk 0, ... s=1: 0->1 blk 2, ...
 *
 * Blocks are cut into segments of a->params.seg bytes (default 64k,
 * SEG_DEFAULT_RING): all receives of a step are posted before the first
 * is reduced and every finished segment is forwarded at once, so
 * receiving, reducing and sending overlap
 * (common/reduce_scatter_core_ring.c). Each block is reduced once and copied:
 * bitwise identical on every rank. The partial of a block wraps around rank
 * 0, so commutative ops only. Any p.
 *
 * Cost = 2(p-1) alpha + 2n(p-1)/p beta + n(p-1)/p gamma
 *        (+ 2(p-1) alpha per extra segment of a block)
 * Wins for long vectors, where only bandwidth counts and neighbour-only
 * traffic avoids contention. */
#include "engine/buf.h"
#include "algorithms/common/reduce_scatter_core_ring.h"
#include "algorithms/model.h"

/* Two passes of p - 1 neighbour steps, each step the longest block in
 * segments one after the other (received, reduced, forwarded: no overlap
 * counted); the allgather pass without the reductions. */
double allreduce_ring_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0 || c->count <= 0)
        return 0;
    double size = c->bytes / (double)c->count;
    int64_t longest = (c->count + c->p - 1) / c->p;
    double segments = model_segments(c, longest, SEG_DEFAULT_RING, RING_MAX_SEGS);
    double segment = longest * size / segments;
    double step = model_shift(c, m, segment, 1);
    return (c->p - 1) * segments * (2 * step + model_reduce(m, segment));
}

int allreduce_ring(const struct coll_args *a)
{
    const void *src = a->in_place ? a->recvbuf : a->sendbuf;
    struct reduce_scatter_core_blocks b;
    int err = reduce_scatter_core_blocks_even(&b, a->count, a->size);
    if (err)
        return err;
    if (a->count > 0)
        err = ring_reduce_scatter(a, &b, src, buf_at(a->recvbuf, b.displs[a->rank], a->datatype));
    if (!err && a->count > 0)
        err = ring_allgather(a, &b, a->recvbuf);
    reduce_scatter_core_blocks_free(&b);
    return err;
}
