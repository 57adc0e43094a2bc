/* alltoallv_inter_direct.c - intercommunicator alltoallv, direct: block i
 * (sendcounts[i] at sdispls[i]) goes to rank i of the other group and
 * block i of recvbuf comes from it, every non-empty block at once.
 *
 * Cost = q alpha + (bytes sent + bytes received) beta (latencies overlap). */
#include "algorithms/compose/inter.h"

int alltoallv_inter_direct(const struct coll_args *a)
{
    struct inter_blocks out, in;
    inter_call_blocks(a, &out, &in);
    return inter_exchange(a, &out, &in);
}
