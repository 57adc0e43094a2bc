/* gatherv_inter_linear.c - intercommunicator gatherv, linear: every rank
 * of the remote group with a non-empty block sends it to the root, which
 * posts one receive per such rank at rdispls[i] in recvbuf, all at once.
 *
 * Cost = q alpha + n beta (latencies overlap), q = the sending group's
 * size; the only order that needs no rank to know another's count. */
#include "algorithms/compose/inter.h"

int gatherv_inter_linear(const struct coll_args *a)
{
    return inter_rooted_linear(a, 0);
}
