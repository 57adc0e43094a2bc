/* allgather_inter_direct.c - intercommunicator allgather, direct: every
 * rank sends its block to every rank of the other group and receives
 * theirs straight into recvbuf, all requests at once; no relay, no copy.
 *
 * Cost = q alpha + (q m_p + n_q) beta (latencies overlap), m_p = this
 * rank's block, n_q = the other group's data; large blocks, few ranks. */
#include "algorithms/compose/inter.h"

int allgather_inter_direct(const struct coll_args *a)
{
    struct inter_blocks out, in;
    inter_call_blocks(a, &out, &in);
    return inter_exchange(a, &out, &in);
}
