/* allgatherv_bruck.c - Bruck's concatenation on uneven blocks (Bruck et
 * al. 1997).
 *
 * As allgather_bruck: blocks packed as bytes in an order rotated by the
 * rank (position i = block r+i, this rank's counts and recvtype give the
 * byte sizes, which signatures make equal everywhere), ceil(lg p) steps
 * of min(2^k, p-2^k) positions to r-2^k and from r+2^k, then one unpack
 * into recvbuf through an indexed type over rdispls. Any p.
 *
 * Cost = ceil(lg p) alpha + ((p-1)/p) n beta for equal blocks, up to
 *        ceil(lg p) alpha + ceil(lg p) n beta when one rank holds all data
 *        (+ n beta_mem for packing and the rotation)
 * Wins for small n, and for uneven counts where the ring waits on the
 * largest block at every step. The core is allgather_blocks_bruck
 * (common/allgather_blocks.c). */
#include "algorithms/common/allgather_blocks.h"

int allgatherv_bruck(const struct coll_args *a) { return allgather_blocks_bruck(a); }
