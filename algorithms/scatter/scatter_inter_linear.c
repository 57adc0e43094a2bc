/* scatter_inter_linear.c - intercommunicator scatter, linear: the root
 * posts a send of block i to every rank i of the remote group at once,
 * straight from sendbuf. No copies, no relay.
 *
 * Cost = q alpha + n beta (latencies overlap), q = the receiving group's
 * size; large blocks. */
#include "../common/inter.h"

int scatter_inter_linear(const struct coll_args *a)
{
    struct inter_blocks b = {.buf = a->sendbuf, .type = a->sendtype, .count = a->sendcount};
    switch (inter_role(a)) {
    case INTER_ROOT:
        return inter_root_blocks(a, &b, 1);
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        return inter_to_root(a, a->recvbuf, a->recvcount, a->recvtype, 0);
    }
}
