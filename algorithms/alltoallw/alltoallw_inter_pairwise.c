/* alltoallw_inter_pairwise.c - intercommunicator alltoallw in max(p, q)
 * rounds of one sendrecv: in round k this rank swaps blocks with remote
 * rank j where rank + j = k (mod max(p, q)) (compose/inter.c).
 *
 * Cost = max(p, q) alpha + (bytes sent + bytes received) beta; large
 * blocks, one message in flight per link. */
#include "algorithms/compose/inter.h"

int alltoallw_inter_pairwise(const struct coll_args *a)
{
    struct inter_blocks out, in;
    inter_call_blocks(a, &out, &in);
    return inter_exchange_pairwise(a, &out, &in);
}
