/* scatterv_inter_linear.c - intercommunicator scatterv, linear: the root
 * posts one send per non-empty block, block i from sdispls[i] of sendbuf
 * to rank i of the remote group, all at once.
 *
 * Cost = q alpha + n beta (latencies overlap), q = the receiving group's
 * size; the only order that needs no rank to know another's count. */
#include "algorithms/compose/inter.h"

int scatterv_inter_linear(const struct coll_args *a)
{
    return inter_rooted_linear(a, 0);
}
