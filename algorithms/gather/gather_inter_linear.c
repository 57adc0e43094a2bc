/* gather_inter_linear.c - intercommunicator gather, linear: every rank of
 * the remote group sends its block straight to the root, which posts all
 * receives at once into recvbuf. No copies, no relay.
 *
 * Cost = q alpha + n beta (latencies overlap), q = the sending group's
 * size; large blocks. */
#include "algorithms/compose/inter.h"

int gather_inter_linear(const struct coll_args *a)
{
    return inter_rooted_linear(a, 0);
}
