/* bcast_inter_scatter_allgather.c - intercommunicator bcast for long
 * messages: the root sends block i of the message (near-equal blocks of
 * elements) straight to rank i of the remote group, which then completes
 * the message with the allgatherv the tables choose for the group (sub.h),
 * so the root's link carries n once and no rank relays the whole message.
 *
 * Cost = q alpha + n beta (the root's sends overlap) + Cost(allgatherv,
 * q, n), q = the remote group's size; long messages. */
#include "../common/buf.h"
#include "../common/inter.h"
#include "../common/p2p.h"
#include "../common/pattern.h"
#include "../common/scratch.h"

#include <stdlib.h>

/* counts[i], displs[i] of block i of q, in one buffer the schedule keeps. */
static int *block_layout(int count, int q)
{
    int *counts = buf_bytes(2 * (size_t)q * sizeof *counts);
    for (int i = 0; counts && i < q; i++) {
        counts[i] = pat_block_count(count, q, i);
        counts[q + i] = (int)pat_block_offset(count, q, i);
    }
    return counts;
}

static int root_sends(const struct coll_args *a)
{
    int q = a->remote_size, n = 0, err;
    int *layout = block_layout(a->count, q);
    MPI_Request *reqs = scratch_get((size_t)q * sizeof *reqs);
    struct inter_blocks b = {.buf = a->recvbuf, .type = a->datatype, .counts = layout,
                             .displs = layout ? layout + q : NULL};
    err = layout && reqs ? inter_post_blocks(a, &b, 1, reqs, &n) : MPI_ERR_NO_MEM;
    if (!err)
        err = p2p_waitall(n, reqs);
    scratch_put(reqs);
    buf_free(layout);
    return err;
}

static int remote_completes(const struct coll_args *a)
{
    int p = a->size, err = MPI_SUCCESS;
    int *layout = block_layout(a->count, p);
    if (!layout)
        return MPI_ERR_NO_MEM;
    void *mine = buf_at(a->recvbuf, layout[p + a->rank], a->datatype);
    if (layout[a->rank] > 0 && buf_type_size(a->datatype) > 0)
        err = p2p_recv(mine, layout[a->rank], a->datatype, a->root, a);
    struct coll_args ag = {.coll = COLL_allgatherv, .sendbuf = MPI_IN_PLACE,
                           .recvbuf = a->recvbuf, .recvcounts = layout,
                           .rdispls = layout + p, .recvtype = a->datatype};
    if (!err)
        err = inter_local(a, &ag);
    buf_free(layout);
    return err;
}

int bcast_inter_scatter_allgather(const struct coll_args *a)
{
    switch (inter_role(a)) {
    case INTER_ROOT: return root_sends(a);
    case INTER_IDLE: return MPI_SUCCESS;
    default: return remote_completes(a);
    }
}
