/* bcast_inter_scatter_allgather.c - intercommunicator bcast for long
 * messages: the root sends block i of the message straight to rank i of
 * the remote group, which then completes the message with the allgatherv
 * the tables choose for the group (sub.h), so the root's link carries n
 * once and no rank relays the whole message.
 *
 * Blocks are near-equal ranges of the packed bytes (bcast_bytes.h): type
 * maps may differ between the root and the others (one vector of 10 ints
 * against 10 MPI_INT), so a split by local element counts would disagree.
 * A contiguous buffer is used in place; any other is packed at the root
 * and unpacked at the others at the end.
 *
 * Cost = q alpha + n beta (the root's sends overlap) + Cost(allgatherv,
 * q, n), q = the remote group's size; long messages. */
#include "algorithms/patterns/bcast_pattern.h"
#include "engine/buf.h"
#include "algorithms/compose/inter.h"
#include "engine/p2p.h"
#include "engine/scratch.h"

#include <stdlib.h>

/* The message as n bytes: in the user's buffer when contiguous, else a
 * copy (packed here at the root). *copy is what to free. */
static int message_bytes(const struct coll_args *a, int root, char **bytes, void **copy,
                         size_t *n)
{
    *n = a->count > 0 ? (size_t)a->count * buf_type_size(a->datatype) : 0;
    *copy = NULL;
    if ((*bytes = buf_contiguous_data(a->recvbuf, a->count, a->datatype)) || *n == 0)
        return MPI_SUCCESS;
    if (!(*copy = *bytes = buf_bytes(a, *n)))
        return MPI_ERR_NO_MEM;
    return root ? buf_pack(a->recvbuf, a->count, a->datatype, *bytes, a) : MPI_SUCCESS;
}

/* counts[i], displs[i] (bytes) of block i of q, in one buffer the
 * schedule keeps. */
static int block_layout(const struct coll_args *a, size_t n, int q, MPI_Aint **layout)
{
    if (!(*layout = buf_bytes(a, 2 * (size_t)q * sizeof **layout)))
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < q; i++) {
        (*layout)[q + i] = (MPI_Aint)bcast_pattern_block_offset(n, q, i);
        (*layout)[i] = (MPI_Aint)(bcast_pattern_block_offset(n, q, i + 1) -
                                  bcast_pattern_block_offset(n, q, i));
    }
    return MPI_SUCCESS;
}

static int root_sends(const struct coll_args *a)
{
    int q = a->remote_size, n = 0, err;
    char *bytes;
    void *copy;
    size_t total;
    if ((err = message_bytes(a, 1, &bytes, &copy, &total)) || total == 0) {
        buf_free(a, copy);
        return err;
    }
    MPI_Aint *layout;
    MPI_Request *reqs = scratch_get((size_t)q * sizeof *reqs);
    if (!(err = block_layout(a, total, q, &layout)) && !reqs)
        err = MPI_ERR_NO_MEM;
    struct inter_blocks b = {.buf = bytes, .type = MPI_BYTE, .counts = COLL_ARRAY(layout),
                             .displs = COLL_ARRAY(layout ? layout + q : NULL)};
    if (!err)
        err = inter_post_blocks(a, &b, 1, reqs, &n);
    if (!err)
        err = p2p_waitall(a, n, reqs);
    scratch_put(reqs);
    buf_free(a, layout);
    buf_free(a, copy);
    return err;
}

static int remote_completes(const struct coll_args *a)
{
    int p = a->size, err;
    char *bytes;
    void *copy;
    size_t total;
    if ((err = message_bytes(a, 0, &bytes, &copy, &total)) || total == 0) {
        buf_free(a, copy);
        return err;
    }
    MPI_Aint *layout;
    err = block_layout(a, total, p, &layout);
    if (!err && layout[a->rank] > 0)
        err = p2p_recv(bytes + layout[p + a->rank], layout[a->rank], MPI_BYTE, a->root, a);
    struct coll_args ag = {.coll = COLL_allgatherv, .sendbuf = MPI_IN_PLACE, .recvbuf = bytes,
                           .recvcounts = COLL_ARRAY(layout),
                           .rdispls = COLL_ARRAY(layout ? layout + p : NULL),
                           .recvtype = MPI_BYTE};
    if (!err)
        err = inter_local(a, &ag);
    if (!err && copy)
        err = buf_unpack(copy, a->recvbuf, a->count, a->datatype, a);
    buf_free(a, layout);
    buf_free(a, copy);
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
