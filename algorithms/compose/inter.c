/* inter.c - helpers of the intercommunicator algorithms (inter.h). */
#include "algorithms/compose/inter.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "engine/scratch.h"

#include <stdlib.h>

struct sub_group inter_local_group(const struct coll_args *a)
{
    /* shape unknown: one node */
    struct sub_group g = {a->rank, a->size, a->local_peers, node_shape_make(0, 0, 0, 0), NULL};
    return g;
}

int inter_local(const struct coll_args *a, struct coll_args *sub)
{
    struct sub_group g = inter_local_group(a);
    return sub_collective(a, &g, sub);
}

enum inter_role inter_role(const struct coll_args *a)
{
    if (a->root == MPI_ROOT)
        return INTER_ROOT;
    return a->root == MPI_PROC_NULL ? INTER_IDLE : INTER_REMOTE;
}

static MPI_Aint block_count(const struct inter_blocks *b, int i)
{
    return b->counts.base ? coll_array_at(b->counts, i) : b->count;
}

static MPI_Datatype block_type(const struct inter_blocks *b, int i)
{
    return b->types ? b->types[i] : b->type;
}

static void *block_at(const struct inter_blocks *b, int i)
{
    if (b->bdispls.base)
        return (char *)b->buf + coll_array_at(b->bdispls, i);
    if (b->same)
        return (void *)b->buf;
    return buf_at(b->buf, b->displs.base ? coll_array_at(b->displs, i) : (MPI_Aint)i * b->count,
                  b->type);
}

/* Post the send or receive of block i to or from remote rank i, if it
 * has bytes; *posted says whether it did. */
static int post_block(const struct coll_args *a, const struct inter_blocks *b, int sending,
                      int i, MPI_Request *req, int *posted)
{
    MPI_Aint count = block_count(b, i);
    MPI_Datatype type = block_type(b, i);
    *posted = buf_carries_data(count, type);
    if (!*posted)
        return MPI_SUCCESS;
    if (sending)
        return p2p_isend(block_at(b, i), count, type, i, a, req);
    return p2p_irecv(block_at(b, i), count, type, i, a, req);
}

int inter_post_blocks(const struct coll_args *a, const struct inter_blocks *b, int sending,
                      MPI_Request *reqs, int *n)
{
    int err = MPI_SUCCESS, posted;
    *n = 0;
    for (int i = 0; i < a->remote_size && !err; i++) {
        err = post_block(a, b, sending, i, &reqs[*n], &posted);
        *n += posted;
    }
    return err;
}

int inter_exchange_pairwise(const struct coll_args *a, const struct inter_blocks *out,
                            const struct inter_blocks *in)
{
    int rounds = a->size > a->remote_size ? a->size : a->remote_size, err = MPI_SUCCESS;
    for (int k = 0; k < rounds && !err; k++) {
        int j = ((k - a->rank) % rounds + rounds) % rounds, n = 0, posted;
        MPI_Request reqs[2];
        if (j >= a->remote_size)
            continue;
        err = post_block(a, in, 0, j, &reqs[n], &posted);
        n += posted;
        if (!err)
            err = post_block(a, out, 1, j, &reqs[n], &posted);
        n += !err && posted;
        if (!err)
            err = p2p_waitall(a, n, reqs);
    }
    return err;
}

int inter_root_blocks_window(const struct coll_args *a, const struct inter_blocks *b,
                             int sending, int window)
{
    int q = a->remote_size, next = 0, n = 0, err = MPI_SUCCESS, posted, idx;
    if (window <= 0 || window > q)
        window = q;
    MPI_Request *reqs = scratch_get((size_t)(window > 0 ? window : 1) * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    while (!err && n < window && next < q) {
        err = post_block(a, b, sending, next++, &reqs[n], &posted);
        n += posted;
    }
    while (!err) {
        if ((err = p2p_waitany(a, n, reqs, &idx)) || idx == MPI_UNDEFINED)
            break;
        for (posted = 0; !err && !posted && next < q;)
            err = post_block(a, b, sending, next++, &reqs[idx], &posted);
    }
    scratch_put(reqs);
    return err;
}

int inter_to_root(const struct coll_args *a, const void *buf, MPI_Aint count, MPI_Datatype type,
                  int sending)
{
    if (!buf_carries_data(count, type))
        return MPI_SUCCESS;
    if (sending)
        return p2p_send(buf, count, type, a->root, a);
    return p2p_recv((void *)buf, count, type, a->root, a);
}

int inter_exchange(const struct coll_args *a, const struct inter_blocks *out,
                   const struct inter_blocks *in)
{
    int n = 0, m = 0, err;
    MPI_Request *reqs = scratch_get(2 * (size_t)(a->remote_size > 0 ? a->remote_size : 1) *
                               sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    err = inter_post_blocks(a, in, 0, reqs, &n);
    if (!err)
        err = inter_post_blocks(a, out, 1, reqs + n, &m);
    if (!err)
        err = p2p_waitall(a, n + m, reqs);
    scratch_put(reqs);
    return err;
}

int inter_reduce_swap(const struct coll_args *a, MPI_Aint n, void *dst)
{
    void *base = NULL, *tmp = NULL;
    int err = MPI_SUCCESS;
    if (a->rank == 0 && (err = buf_alloc_checked(a, n, a->datatype, &tmp, &base)))
        return err;
    struct coll_args r = {.coll = COLL_reduce, .sendbuf = a->sendbuf, .recvbuf = tmp,
                          .count = n, .datatype = a->datatype, .op = a->op, .root = 0};
    err = inter_local(a, &r);
    if (!err && a->rank == 0)
        err = p2p_sendrecv(tmp, n, a->datatype, 0, dst, n, a->datatype, 0, a);
    buf_free(a, base);
    return err;
}

void inter_call_blocks(const struct coll_args *a, struct inter_blocks *out,
                       struct inter_blocks *in)
{
    struct inter_blocks o = {.buf = a->sendbuf, .type = a->sendtype, .count = a->sendcount};
    struct inter_blocks i = {.buf = a->recvbuf, .type = a->recvtype, .count = a->recvcount};
    switch (a->coll) {
    case COLL_allgather:
        o.same = 1;
        break;
    case COLL_allgatherv:
        o.same = 1;
        i.counts = a->recvcounts, i.displs = a->rdispls;
        break;
    case COLL_alltoallv:
        o.counts = a->sendcounts, o.displs = a->sdispls;
        i.counts = a->recvcounts, i.displs = a->rdispls;
        break;
    case COLL_alltoallw:
        o.counts = a->sendcounts, o.bdispls = a->sdispls, o.types = a->sendtypes;
        i.counts = a->recvcounts, i.bdispls = a->rdispls, i.types = a->recvtypes;
        break;
    default: /* alltoall */
        break;
    }
    *out = o;
    *in = i;
}

int inter_rooted_linear(const struct coll_args *a, int window)
{
    int gather = a->coll == COLL_gather || a->coll == COLL_gatherv;
    struct inter_blocks b = {.buf = gather ? a->recvbuf : a->sendbuf,
                             .type = gather ? a->recvtype : a->sendtype,
                             .count = gather ? a->recvcount : a->sendcount};
    if (a->coll == COLL_gatherv)
        b.counts = a->recvcounts, b.displs = a->rdispls;
    if (a->coll == COLL_scatterv)
        b.counts = a->sendcounts, b.displs = a->sdispls;
    switch (inter_role(a)) {
    case INTER_ROOT:
        return inter_root_blocks_window(a, &b, !gather, window);
    case INTER_IDLE:
        return MPI_SUCCESS;
    default:
        if (gather)
            return inter_to_root(a, a->sendbuf, a->sendcount, a->sendtype, 1);
        return inter_to_root(a, a->recvbuf, a->recvcount, a->recvtype, 0);
    }
}

int inter_reduce_pieces(const struct coll_args *a, MPI_Aint n, void *mine)
{
    int p = a->size;
    MPI_Aint *counts = buf_bytes(a, (size_t)p * sizeof *counts);
    if (!counts)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < p; i++)
        counts[i] = pattern_block_count(n, p, i);
    struct coll_args rs = {.coll = COLL_reduce_scatter, .sendbuf = a->sendbuf, .recvbuf = mine,
                           .recvcounts = COLL_ARRAY(counts), .datatype = a->datatype,
                           .op = a->op};
    int err = inter_local(a, &rs);
    buf_free(a, counts);
    return err;
}

int inter_gather_at_leader(const struct coll_args *a, void **tmp, void **base)
{
    int err = MPI_SUCCESS;
    *tmp = *base = NULL;
    if (a->rank == 0 &&
        (err = buf_alloc_checked(a, (MPI_Aint)a->sendcount * a->size, a->sendtype, tmp, base)))
        return err;
    struct coll_args g = {.coll = COLL_gather, .sendbuf = a->sendbuf, .sendcount = a->sendcount,
                          .sendtype = a->sendtype, .recvbuf = *tmp, .recvcount = a->sendcount,
                          .recvtype = a->sendtype, .root = 0};
    return inter_local(a, &g);
}
