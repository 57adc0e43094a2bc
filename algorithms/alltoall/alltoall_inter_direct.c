/* alltoall_inter_direct.c - intercommunicator alltoall, direct: block i of
 * sendbuf goes to rank i of the other group and block i of recvbuf comes
 * from it, every request posted at once.
 *
 * Cost = q alpha + (q m + q m') beta (latencies overlap), m, m' = the
 * blocks sent and received; any size. */
#include "algorithms/compose/inter.h"

int alltoall_inter_direct(const struct coll_args *a)
{
    struct inter_blocks out, in;
    inter_call_blocks(a, &out, &in);
    return inter_exchange(a, &out, &in);
}
