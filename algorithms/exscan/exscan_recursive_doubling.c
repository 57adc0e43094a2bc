/* exscan_recursive_doubling.c - order-preserving recursive doubling
 * (the parallel-prefix scheme of Hillis & Steele / Kogge & Stone as used for
 * MPI_Scan by Thakur, Rabenseifner & Gropp 2005).
 *
 * Every rank keeps a partial (the reduction of its aligned block of
 * 2^k ranks) and its result (x_0 op ... op x_{r-1}). In step k it swaps
 * partials with rank XOR 2^k: from a lower partner the received partial
 * is folded in on the left of both result and partial; from a higher one
 * it goes on the right of the partial only:
 *
 *   step 0:  0<->1  2<->3  4<->5  6<->7     partials cover 2 ranks
 *   step 1:  0<->2  1<->3  4<->6  5<->7     partials cover 4 ranks
 *   step 2:  0<->4  1<->5  2<->6  3<->7     results complete
 *
 * Non-power-of-two p: a partner >= p is skipped, so partials of blocks cut
 * by p miss ranks that do not exist. Results stay exact: a result only
 * absorbs the partial of a block lying wholly below the receiving rank,
 * and such a block is never cut by p.
 * Operands are always combined lower-left, so non-commutative ops work.
 * Rank 0's recvbuf is left untouched (the standard leaves it undefined).
 * Wins for small vectors: lg p latency terms instead of the chain's p - 1.
 *
 * Cost = ceil(lg p) alpha + ceil(lg p) n beta + 2 ceil(lg p) n gamma
 *        (a rank reduces twice in a step with a lower partner, once otherwise)
 * Core shared with scan: common/prefix.c (prefix_recursive_doubling). */
#include "algorithms/common/prefix.h"

int exscan_recursive_doubling(const struct coll_args *a) { return prefix_recursive_doubling(a, 1); }
