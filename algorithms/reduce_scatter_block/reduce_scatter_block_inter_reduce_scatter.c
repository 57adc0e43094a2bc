/* reduce_scatter_block_inter_reduce_scatter.c - intercommunicator
 * reduce_scatter_block for long vectors, with no leader carrying whole
 * vectors. Both groups reduce vectors of the same N elements (recvcount
 * times the group's size), and every rank knows both groups' blocks:
 *
 *   reduce_scatter   each group reduces its own vectors, rank i keeping
 *                    the i-th of p near-equal pieces (the selected
 *                    reduce_scatter, sub.h; rank order kept)
 *   transfer         each rank sends every part of its piece to the rank
 *                    of the other group whose block (N/q elements) it
 *                    overlaps, and receives the parts of its own block
 *                    straight into recvbuf
 *
 * Cost = Cost(reduce_scatter, p, n) + (ceil(q/p) + ceil(p/q) + 1) alpha +
 * (n/min(p, q)) beta, against the leaders' reduce + scatter (n lg p beta
 * at the leader's tree); long vectors. */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "engine/scratch.h"

#include <stdlib.h>

/* [lo, hi) of the piece of group size p that rank i reduces. */
static void piece(MPI_Aint n, int p, int i, MPI_Aint *lo, MPI_Aint *hi)
{
    *lo = pattern_block_offset(n, p, i);
    *hi = *lo + pattern_block_count(n, p, i);
}

/* Send the parts of my piece [lo, hi) to the remote blocks they fall in;
 * receive the remote pieces that overlap my block into recvbuf. */
static int transfer(const struct coll_args *a, MPI_Aint n, const void *mine)
{
    int p = a->size, q = a->remote_size, nreq = 0, err = MPI_SUCCESS;
    MPI_Aint lo, hi, theirs = n / q, my_lo = a->rank * a->recvcount, my_hi = my_lo + a->recvcount;
    MPI_Request *reqs = scratch_get((2 * (size_t)q + 2) * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    for (int b = 0; b < q && !err; b++) { /* remote pieces over my block */
        piece(n, q, b, &lo, &hi);
        lo = lo > my_lo ? lo : my_lo, hi = hi < my_hi ? hi : my_hi;
        if (hi > lo)
            err = p2p_irecv(buf_at(a->recvbuf, lo - my_lo, a->datatype), hi - lo, a->datatype,
                            b, a, &reqs[nreq++]);
    }
    piece(n, p, a->rank, &my_lo, &my_hi);
    for (int j = 0; j < q && !err && theirs > 0; j++) { /* my piece over remote blocks */
        lo = j * theirs > my_lo ? j * theirs : my_lo;
        hi = (j + 1) * theirs < my_hi ? (j + 1) * theirs : my_hi;
        if (hi > lo)
            err = p2p_isend(buf_at(mine, lo - my_lo, a->datatype), hi - lo, a->datatype, j, a,
                            &reqs[nreq++]);
    }
    if (!err)
        err = p2p_waitall(a, nreq, reqs);
    scratch_put(reqs);
    return err;
}

int reduce_scatter_block_inter_reduce_scatter(const struct coll_args *a)
{
    MPI_Aint n = a->recvcount * a->size;
    int err;
    void *base = NULL, *mine = NULL;
    err =
        buf_alloc_checked(a, pattern_block_count(n, a->size, a->rank), a->datatype, &mine, &base);
    if (!err)
        err = inter_reduce_pieces(a, n, mine);
    if (!err)
        err = transfer(a, n, mine);
    buf_free(a, base);
    return err;
}
