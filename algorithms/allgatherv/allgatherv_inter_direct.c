/* allgatherv_inter_direct.c - intercommunicator allgatherv, direct: every
 * rank sends its block to every rank of the other group and receives
 * block i (recvcounts[i] at rdispls[i]) from rank i of the other group,
 * all at once. No rank knows its own group's counts, so no rank can
 * relay its group's blocks: this is the natural form.
 *
 * Cost = q alpha + (q m_p + n_q) beta (latencies overlap). */
#include "algorithms/compose/inter.h"

int allgatherv_inter_direct(const struct coll_args *a)
{
    struct inter_blocks out, in;
    inter_call_blocks(a, &out, &in);
    return inter_exchange(a, &out, &in);
}
