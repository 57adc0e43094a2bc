/* allgatherv_ring.c - ring on uneven blocks.
 *
 * As allgather_ring: p-1 steps, at step s rank r sends block r-s to r+1
 * and receives block r-s-1 from r-1, straight between the recvbufs
 * (recvcounts[j] elements at rdispls[j], any order, gaps untouched).
 * Zero counts travel as empty messages. Any p.
 *
 * Cost = (p-1) alpha + (p-1) m beta, m = the largest block
 *        (= ((p-1)/p) n beta when the blocks are equal)
 * A step lasts as long as its largest block, so very uneven counts (all
 * data on one rank) make the ring pay n beta per step: then bruck or
 * recursive doubling win. (Thakur, Rabenseifner and Gropp 2005.)
 * The core is allgather_blocks_ring (common/allgather_blocks.c). */
#include "algorithms/common/allgather_blocks.h"

int allgatherv_ring(const struct coll_args *a) { return allgather_blocks_ring(a); }
