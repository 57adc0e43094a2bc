/* gather_inter_linear.c - intercommunicator gather, linear: every rank of
 * the remote group sends its block straight to the root, which posts all
 * receives at once into recvbuf. No copies, no relay.
 *
 * Cost = q alpha + n beta (latencies overlap), q = the sending group's
 * size; large blocks. */
#include "../common/inter.h"

int gather_inter_linear(const struct coll_args *a)
{
    struct inter_blocks b = {.buf = a->recvbuf, .type = a->recvtype, .count = a->recvcount};
    switch (inter_role(a)) {
    case INTER_ROOT:
        return inter_root_blocks(a, &b, 0);
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        return inter_to_root(a, a->sendbuf, a->sendcount, a->sendtype, 1);
    }
}
