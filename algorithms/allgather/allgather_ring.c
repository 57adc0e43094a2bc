/* allgather_ring.c - ring.
 *
 * Every rank sends to its right neighbour and receives from its left one,
 * p-1 times; at step s rank r forwards block r-s, which it received at
 * step s-1, and receives block r-s-1. Each block travels p-1 hops; every
 * link carries one block per step:
 *
 *   step 0:  0 -b0-> 1 -b1-> 2 -b2-> 3 -b3-> 0
 *   step 1:  0 -b3-> 1 -b0-> 2 -b1-> 3 -b2-> 0
 *   step 2:  0 -b2-> 1 -b3-> 2 -b0-> 3 -b1-> 0
 *
 * Blocks go straight from recvbuf to the neighbour's recvbuf with each
 * rank's own (recvcount, recvtype). Any p: the ring needs no power of two.
 *
 * Cost = (p-1) alpha + ((p-1)/p) n beta
 * Bandwidth-optimal, but p-1 latencies: wins for large n; also when only
 * neighbouring ranks are cheap to reach. (Thakur, Rabenseifner and Gropp
 * 2005.) The core is allgather_blocks_ring (common/allgather_blocks.c),
 * shared with allgatherv_ring. */
#include "algorithms/common/allgather_blocks.h"
#include "algorithms/model.h"

double allgather_ring_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1)
        return 0;
    return (c->p - 1) * model_shift(c, m, c->bytes / c->p, 1);
}

int allgather_ring(const struct coll_args *a) { return allgather_blocks_ring(a); }
