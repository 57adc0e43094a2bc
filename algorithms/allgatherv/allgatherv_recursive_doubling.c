/* allgatherv_recursive_doubling.c - recursive doubling on uneven blocks.
 *
 * As allgather_recursive_doubling: at step k ranks 2^k apart swap the
 * blocks of their groups, one message each way built as an indexed type
 * over recvcounts/rdispls (contiguous when the blocks are adjacent), so
 * displacements out of rank order and gaps cost no copies.
 * Non-power-of-two p: the first 2r ranks fold pairwise into their odd
 * member before the doubling and get the rest back after it.
 *
 *   step 0:  0<->1  2<->3      step 1:  0<->2  1<->3
 *
 * Cost = lg(p) alpha + ((p-1)/p) n beta for equal blocks, up to
 *        lg(p) alpha + lg(p) n beta when one rank holds all data
 *        (+ 2 alpha + (n/p + n) beta when p is not a power of two)
 * Wins for small n at power-of-two p. The core is
 * allgather_blocks_recursive_doubling (common/allgather_blocks.c). */
#include "algorithms/common/allgather_blocks.h"

int allgatherv_recursive_doubling(const struct coll_args *a)
{
    return allgather_blocks_recursive_doubling(a);
}
