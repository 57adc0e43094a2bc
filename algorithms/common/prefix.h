/* prefix.h - the shared core of scan and exscan (inclusive and exclusive
 * prefix reductions). Both keep rank order: the lower ranks' data is always
 * the left operand, so non-commutative ops are correct. exscan leaves rank
 * 0's recvbuf untouched. */
#ifndef COLLSHIM_PREFIX_H
#define COLLSHIM_PREFIX_H

#include "algorithms/coll.h"

/* Segment size of the linear chain when a->params.seg is 0. */

/* Partners rank XOR 2^k; exclusive = 1 for exscan. */
int prefix_recursive_doubling(const struct coll_args *a, int exclusive);
/* Chain 0 -> 1 -> ... -> p-1, pipelined in segments of a->params.seg bytes. */
int prefix_linear(const struct coll_args *a, int exclusive);

#endif
