/* allgatherv_inter_pairwise.c - intercommunicator allgatherv in max(p, q)
 * rounds of one sendrecv: in round k this rank sends its block to, and
 * receives block j from, remote rank j where rank + j = k (mod max(p, q))
 * (compose/inter.c).
 *
 * Cost = max(p, q) alpha + (q m_p + n_q) beta; large blocks, one message
 * in flight per link where inter_direct posts them all. */
#include "algorithms/compose/inter.h"

int allgatherv_inter_pairwise(const struct coll_args *a)
{
    struct inter_blocks out, in;
    inter_call_blocks(a, &out, &in);
    return inter_exchange_pairwise(a, &out, &in);
}
