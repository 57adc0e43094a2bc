/* scatter_inter_linear.c - intercommunicator scatter, linear: the root
 * posts a send of block i to every rank i of the remote group at once,
 * straight from sendbuf. No copies, no relay.
 *
 * Cost = q alpha + n beta (latencies overlap), q = the receiving group's
 * size; large blocks. */
#include "algorithms/compose/inter.h"

int scatter_inter_linear(const struct coll_args *a)
{
    return inter_rooted_linear(a, 0);
}
