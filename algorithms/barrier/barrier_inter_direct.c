/* barrier_inter_direct.c - intercommunicator barrier in one round: every
 * rank sends a zero-byte message to every rank of the other group and
 * waits for theirs. The standard asks no more of an intercommunicator
 * barrier: a rank leaves once every rank of the OTHER group has entered.
 *
 * Cost = q alpha (sends and receives overlap; one round), q = the other
 * group's size; small groups, where it beats 2 Cost(barrier, p) + alpha. */
#include "engine/p2p.h"
#include "engine/scratch.h"

#include <stdlib.h>

int barrier_inter_direct(const struct coll_args *a)
{
    int q = a->remote_size, n = 0, err = MPI_SUCCESS;
    MPI_Request *reqs = scratch_get(2 * (size_t)q * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < q && !err; j++)
        err = p2p_irecv(NULL, 0, MPI_BYTE, j, a, &reqs[n++]);
    for (int j = 0; j < q && !err; j++)
        err = p2p_isend(NULL, 0, MPI_BYTE, j, a, &reqs[n++]);
    if (!err)
        err = p2p_waitall(a, n, reqs);
    scratch_put(reqs);
    return err;
}
