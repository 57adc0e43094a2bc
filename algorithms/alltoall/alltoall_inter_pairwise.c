/* alltoall_inter_pairwise.c - intercommunicator alltoall in max(p, q)
 * rounds: in round k this rank swaps blocks with remote rank j where
 * rank + j = k (mod max(p, q)) (compose/inter.c), one sendrecv at a time,
 * so no link carries more than one message each way.
 *
 * Cost = max(p, q) alpha + (q m + q m') beta; large blocks, where posting
 * everything at once (inter_direct) congests the receivers. */
#include "algorithms/compose/inter.h"

int alltoall_inter_pairwise(const struct coll_args *a)
{
    struct inter_blocks out, in;
    inter_call_blocks(a, &out, &in);
    return inter_exchange_pairwise(a, &out, &in);
}
