/* linear_root.c - the root's loop of linear gather(v)/scatter(v), with an
 * optional bound on requests in flight (Waitany refills the window). */
#include "algorithms/common/linear_root.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "engine/scratch.h"

#include <stdlib.h>

static MPI_Aint block_count(const struct linear_root_blocks *b, int i)
{
    return b->counts.base ? coll_array_at(b->counts, i) : b->count;
}

static void *block_at(const struct linear_root_blocks *b, int i)
{
    MPI_Aint d = b->counts.base ? coll_array_at(b->displs, i) : (MPI_Aint)i * b->count;
    return buf_at(b->buf, d, b->type);
}

/* Next peer after *next (in rank order from root+1) with a non-empty block,
 * or -1 when none is left. */
static int next_peer(const struct coll_args *a, int root, const struct linear_root_blocks *b,
                     int *next)
{
    while (*next < a->size - 1) {
        int peer = (root + 1 + (*next)++) % a->size;
        if (buf_carries_data(block_count(b, peer), b->type))
            return peer;
    }
    return -1;
}

static int post(const struct coll_args *a, const struct linear_root_blocks *b, int sending,
                int peer, MPI_Request *req)
{
    if (sending)
        return p2p_isend(block_at(b, peer), block_count(b, peer), b->type, peer, a, req);
    return p2p_irecv(block_at(b, peer), block_count(b, peer), b->type, peer, a, req);
}

/* Keep up to window requests in flight until every peer is served. */
int linear_root_exchange(const struct coll_args *a, int root, const struct linear_root_blocks *b,
                         int sending, int window)
{
    int next = 0, peer, err = MPI_SUCCESS, n = 0;
    if (window <= 0 || window > a->size - 1)
        window = a->size - 1;
    MPI_Request *reqs = scratch_get((size_t)(window > 0 ? window : 1) * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    while (!err && n < window && (peer = next_peer(a, root, b, &next)) >= 0)
        err = post(a, b, sending, peer, &reqs[n++]);
    while (!err) {
        int idx;
        if ((err = p2p_waitany(a, n, reqs, &idx)) || idx == MPI_UNDEFINED)
            break;
        if ((peer = next_peer(a, root, b, &next)) >= 0)
            err = post(a, b, sending, peer, &reqs[idx]);
    }
    scratch_put(reqs);
    return err;
}

int linear_root_gather(const struct coll_args *a, const struct linear_root_blocks *b, int window)
{
    int err = MPI_SUCCESS;
    if (a->rank != a->root) {
        if (!buf_carries_data(a->sendcount, a->sendtype))
            return MPI_SUCCESS;
        return p2p_send(a->sendbuf, a->sendcount, a->sendtype, a->root, a);
    }
    if (!a->in_place)
        err = buf_copy(a->sendbuf, a->sendcount, a->sendtype, block_at(b, a->root),
                       block_count(b, a->root), b->type, a);
    return err ? err : linear_root_exchange(a, a->root, b, 0, window);
}

int linear_root_scatter(const struct coll_args *a, const struct linear_root_blocks *b, int window)
{
    int err = MPI_SUCCESS;
    if (a->rank != a->root) {
        if (!buf_carries_data(a->recvcount, a->recvtype))
            return MPI_SUCCESS;
        return p2p_recv(a->recvbuf, a->recvcount, a->recvtype, a->root, a);
    }
    if (!a->in_place)
        err = buf_copy(block_at(b, a->root), block_count(b, a->root), b->type, a->recvbuf,
                       a->recvcount, a->recvtype, a);
    return err ? err : linear_root_exchange(a, a->root, b, 1, window);
}
