/* barrier_inter_leaders.c - intercommunicator barrier through the two
 * group leaders (local rank 0 of each group).
 *
 *   local barrier     every rank of this group has entered
 *   leaders swap      a zero-byte message each way: both groups have
 *   local barrier     no rank leaves before its leader has heard
 *
 * Cost = 2 Cost(barrier, p_local) + alpha; the local steps are the
 * barriers the tables choose for the group (sub.h). */
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"

static int local_barrier(const struct coll_args *a)
{
    struct coll_args b = {.coll = COLL_barrier};
    return inter_local(a, &b);
}

int barrier_inter_leaders(const struct coll_args *a)
{
    int err = local_barrier(a);
    if (!err && a->rank == 0)
        err = p2p_sendrecv(NULL, 0, MPI_BYTE, 0, NULL, 0, MPI_BYTE, 0, a);
    return err ? err : local_barrier(a);
}
