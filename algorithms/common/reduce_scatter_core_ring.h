/* reduce_scatter_core_ring.h - segmented ring passes
 * (reduce_scatter_core_ring.c) shared by the ring reduce-scatters and
 * allreduce_ring: p-1 steps to the right neighbour, each block cut into
 * segments of a->params.seg bytes (default SEG_DEFAULT_RING) so that
 * receiving, reducing and forwarding overlap. At most a->params.outstanding
 * segments per block (default RING_MAX_SEGS): longer blocks get longer
 * segments, which bounds the requests in flight (Open MPI 4.1.4 mismatched
 * messages once more than 65536 were in flight to one peer). Commutative ops
 * only: a block's contributions wrap around rank 0. */
#ifndef COLLSHIM_REDUCE_SCATTER_CORE_RING_H
#define COLLSHIM_REDUCE_SCATTER_CORE_RING_H

#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/segments.h"

#define RING_MAX_SEGS 256
/* Cap of outstanding=: a pass keeps up to two blocks in flight per peer. */
#define RING_SEGS_LIMIT 16384

/* Reduce the vector at src (blocks b, a->datatype, a->op) so that block
 * a->rank, reduced over all ranks, ends at out. src is only read; out may
 * lie inside src (it is written last). */
int ring_reduce_scatter(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                        const void *src, void *out);
/* buf holds block a->rank at its place; fill in every other block. */
int ring_allgather(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                   void *buf);

#endif
