/* allgatherv_linear.c - flat gather of the uneven blocks to rank 0, then a
 * flat broadcast of all of them from it (as one message: an indexed type
 * where the blocks are not adjacent).
 *
 *   gather:  1, 2, ..., p-1 -> 0      bcast:  0 -> 1, 2, ..., p-1
 *
 * Empty blocks are not sent (every rank knows recvcounts). Any p.
 *
 * Cost = 2 alpha + (n - n_0) beta + (p - 1) n beta, n = sum of the blocks
 * Two rounds whatever p and however uneven the blocks; rank 0's link
 * carries everything. Wins for short vectors at small to moderate p.
 * The core is allgather_blocks_linear (common/allgather_blocks_linear.c). */
#include "algorithms/common/allgather_blocks.h"

int allgatherv_linear(const struct coll_args *a) { return allgather_blocks_linear(a); }
