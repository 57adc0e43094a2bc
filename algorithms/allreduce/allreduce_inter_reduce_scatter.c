/* allreduce_inter_reduce_scatter.c - intercommunicator allreduce for long
 * vectors, with no leader carrying whole vectors:
 *
 *   reduce_scatter   each group reduces its own vectors, rank r keeping
 *                    block r of p near-equal blocks (the selected
 *                    reduce_scatter, sub.h; rank order kept)
 *   transfer         rank r sends its block to rank r q / p of the other
 *                    group, so each receiving rank gets a run of
 *                    consecutive blocks of the other group's result
 *   allgatherv       each group completes the other group's result from
 *                    those runs (the selected allgatherv)
 *
 * Cost = Cost(reduce_scatter, p, n) + ceil(q/p) alpha + (n/min(p,q)) beta
 * + Cost(allgatherv, p, n); with ring or halving steps about 2 n beta +
 * n gamma against the leaders' reduce + bcast, n lg p beta each. */
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "engine/scratch.h"

#include <stdlib.h>

/* The rank of a group of size to that block b of from blocks goes to. */
static int receiver(int b, int from, int to)
{
    return (int)((long long)b * to / from);
}

/* counts[j], displs[j]: the run of the other group's blocks (q of them)
 * that rank j of this group (p ranks) receives, in one buffer the schedule
 * keeps. */
static MPI_Aint *runs_layout(const struct coll_args *a, MPI_Aint count, int p, int q)
{
    MPI_Aint *layout = buf_bytes(a, 2 * (size_t)p * sizeof *layout);
    for (int j = 0; layout && j < p; j++)
        layout[j] = 0, layout[p + j] = -1;
    for (int b = 0; layout && b < q; b++) {
        int j = receiver(b, q, p);
        if (layout[p + j] < 0)
            layout[p + j] = pattern_block_offset(count, q, b);
        layout[j] += pattern_block_count(count, q, b);
    }
    for (int j = 0; layout && j < p; j++)
        if (layout[p + j] < 0)
            layout[p + j] = 0;
    return layout;
}

/* Send my block of this group's result; receive my run of the other's. */
static int transfer(const struct coll_args *a, const void *block)
{
    int p = a->size, q = a->remote_size, n = 0, err = MPI_SUCCESS;
    MPI_Request *reqs = scratch_get(((size_t)q + 1) * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    for (int b = 0; b < q && !err; b++) {
        MPI_Aint c = pattern_block_count(a->count, q, b);
        if (receiver(b, q, p) == a->rank && c > 0)
            err = p2p_irecv(buf_at(a->recvbuf, pattern_block_offset(a->count, q, b), a->datatype),
                            c, a->datatype, b, a, &reqs[n++]);
    }
    MPI_Aint mine = pattern_block_count(a->count, p, a->rank);
    if (!err && mine > 0)
        err = p2p_isend(block, mine, a->datatype, receiver(a->rank, p, q), a, &reqs[n++]);
    if (!err)
        err = p2p_waitall(a, n, reqs);
    scratch_put(reqs);
    return err;
}

static int gather_runs(const struct coll_args *a)
{
    MPI_Aint *runs = runs_layout(a, a->count, a->size, a->remote_size);
    if (!runs)
        return MPI_ERR_NO_MEM;
    struct coll_args ag = {.coll = COLL_allgatherv, .sendbuf = MPI_IN_PLACE,
                           .recvbuf = a->recvbuf, .recvcounts = COLL_ARRAY(runs),
                           .rdispls = COLL_ARRAY(runs + a->size), .recvtype = a->datatype};
    int err = inter_local(a, &ag);
    buf_free(a, runs);
    return err;
}

int allreduce_inter_reduce_scatter(const struct coll_args *a)
{
    void *base = NULL, *block = NULL;
    int err = buf_alloc_checked(a, pattern_block_count(a->count, a->size, a->rank), a->datatype,
                                &block, &base);
    if (!err)
        err = inter_reduce_pieces(a, a->count, block);
    if (!err)
        err = transfer(a, block);
    if (!err)
        err = gather_runs(a);
    buf_free(a, base);
    return err;
}
