/* alltoall_core.c - block addressing and the three exchanges shared by
 * alltoall, alltoallv and alltoallw (see alltoall_core.h). */
#include "algorithms/common/alltoall_core.h"
#include "algorithms/patterns/alltoall_pattern.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "engine/scratch.h"

#include <stdlib.h>

void alltoall_core_recv_block(const struct coll_args *a, int peer, struct alltoall_core_block *b)
{
    switch (a->coll) {
    case COLL_alltoall:
        b->type = a->recvtype;
        b->count = a->recvcount;
        b->buf = buf_at(a->recvbuf, (MPI_Aint)peer * a->recvcount, a->recvtype);
        break;
    case COLL_alltoallv:
        b->type = a->recvtype;
        b->count = coll_array_at(a->recvcounts, peer);
        b->buf = buf_at(a->recvbuf, coll_array_at(a->rdispls, peer), a->recvtype);
        break;
    default: /* alltoallw: byte displacements, a type per peer */
        b->type = a->recvtypes[peer];
        b->count = coll_array_at(a->recvcounts, peer);
        b->buf = (char *)a->recvbuf + coll_array_at(a->rdispls, peer);
        break;
    }
}

void alltoall_core_send_block(const struct coll_args *a, int peer, struct alltoall_core_block *b)
{
    if (a->in_place) {
        alltoall_core_recv_block(a, peer, b);
        return;
    }
    switch (a->coll) {
    case COLL_alltoall:
        b->type = a->sendtype;
        b->count = a->sendcount;
        b->buf = buf_at(a->sendbuf, (MPI_Aint)peer * a->sendcount, a->sendtype);
        break;
    case COLL_alltoallv:
        b->type = a->sendtype;
        b->count = coll_array_at(a->sendcounts, peer);
        b->buf = buf_at(a->sendbuf, coll_array_at(a->sdispls, peer), a->sendtype);
        break;
    default:
        b->type = a->sendtypes[peer];
        b->count = coll_array_at(a->sendcounts, peer);
        b->buf = (char *)a->sendbuf + coll_array_at(a->sdispls, peer);
        break;
    }
}

size_t alltoall_core_block_bytes(const struct alltoall_core_block *b)
{
    return b->count > 0 ? (size_t)b->count * buf_type_size(b->type) : 0;
}

int alltoall_core_pack_sends(const struct coll_args *a, char *out, size_t bb,
                             alltoall_core_peer_fn peer)
{
    int err = MPI_SUCCESS;
    for (int k = 0; k < a->size && !err; k++) {
        struct alltoall_core_block b;
        alltoall_core_send_block(a, peer(a->rank, a->size, k), &b);
        if (alltoall_core_block_bytes(&b) != bb)
            return MPI_ERR_TRUNCATE; /* send and receive signatures differ */
        err = buf_pack(b.buf, b.count, b.type, out + bb * (size_t)k, a);
    }
    return err;
}

int alltoall_core_unpack_recvs(const struct coll_args *a, const char *in, size_t bb,
                               alltoall_core_peer_fn peer)
{
    int err = MPI_SUCCESS;
    for (int k = 0; k < a->size && !err; k++) {
        struct alltoall_core_block b;
        alltoall_core_recv_block(a, peer(a->rank, a->size, k), &b);
        err = buf_unpack(in + bb * (size_t)k, b.buf, b.count, b.type, a);
    }
    return err;
}

int alltoall_core_copy_self(const struct coll_args *a)
{
    struct alltoall_core_block s, r;
    if (a->in_place)
        return MPI_SUCCESS;
    alltoall_core_send_block(a, a->rank, &s);
    alltoall_core_recv_block(a, a->rank, &r);
    return buf_copy(s.buf, s.count, s.type, r.buf, r.count, r.type, a);
}

/* ---- pairwise ---- */

int alltoall_core_pairwise(const struct coll_args *a)
{
    int err = alltoall_core_copy_self(a);
    for (int s = 1; s < a->size && !err; s++) {
        struct alltoall_core_block sb, rb;
        int to, from;
        alltoall_pattern_pairwise_peers(a->rank, a->size, s, &to, &from);
        alltoall_core_send_block(a, to, &sb);
        alltoall_core_recv_block(a, from, &rb);
        err = p2p_sendrecv(sb.buf, sb.count, sb.type,
                           alltoall_core_block_bytes(&sb) ? to : MPI_PROC_NULL, rb.buf, rb.count,
                           rb.type, alltoall_core_block_bytes(&rb) ? from : MPI_PROC_NULL, a);
    }
    return err;
}

/* ---- scattered ---- */

/* Post the receives, then the sends, of steps [first, last); *n counts
 * the requests posted (all of them must be waited for, even on error). */
static int scattered_post(const struct coll_args *a, int first, int last, MPI_Request *reqs,
                          int *n)
{
    int err = MPI_SUCCESS, p = a->size;
    for (int s = first; s < last && !err; s++) {
        struct alltoall_core_block rb;
        int from = (a->rank - s + p) % p;
        alltoall_core_recv_block(a, from, &rb);
        if (alltoall_core_block_bytes(&rb))
            err = p2p_irecv(rb.buf, rb.count, rb.type, from, a, &reqs[(*n)++]);
    }
    for (int s = first; s < last && !err; s++) {
        struct alltoall_core_block sb;
        int to = (a->rank + s) % p;
        alltoall_core_send_block(a, to, &sb);
        if (alltoall_core_block_bytes(&sb))
            err = p2p_isend(sb.buf, sb.count, sb.type, to, a, &reqs[(*n)++]);
    }
    return err;
}

int alltoall_core_scattered(const struct coll_args *a)
{
    int window =
        a->params.outstanding > 0 ? a->params.outstanding : ALLTOALL_CORE_DEFAULT_OUTSTANDING;
    int err = alltoall_core_copy_self(a);
    if (err || a->size == 1)
        return err;
    if (window > a->size - 1)
        window = a->size - 1;
    MPI_Request *reqs = scratch_get(2 * (size_t)window * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    for (int first = 1; first < a->size && !err; first += window) {
        int n = 0, last = first + window < a->size ? first + window : a->size;
        err = scattered_post(a, first, last, reqs, &n);
        int werr = p2p_waitall(a, n, reqs);
        if (!err)
            err = werr;
    }
    scratch_put(reqs);
    return err;
}

/* ---- in place ---- */

/* One growable temporary: room for count elements of type, reused over
 * rounds (alltoallw's blocks differ in type and span). */
struct alltoall_core_scratch {
    void *base;
    size_t cap;
};

static int scratch_for(const struct coll_args *a, struct alltoall_core_scratch *s,
                       const struct alltoall_core_block *b, void **buf)
{
    MPI_Aint true_lb, true_extent, extent = buf_extent(b->type);
    PMPI_Type_get_true_extent(b->type, &true_lb, &true_extent);
    MPI_Aint span = true_extent + (b->count - 1) * (extent < 0 ? -extent : extent);
    size_t need = span > 0 ? (size_t)span : 1;
    if (need > s->cap) {
        void *grown = buf_bytes(a, need); /* a schedule keeps every size it used */
        if (!grown)
            return MPI_ERR_NO_MEM;
        buf_free(a, s->base);
        s->base = grown;
        s->cap = need;
    }
    *buf = (char *)s->base - true_lb;
    return MPI_SUCCESS;
}

/* Swap my block for peer with peer's block for me. */
static int inplace_swap(const struct coll_args *a, int peer, struct alltoall_core_scratch *s)
{
    struct alltoall_core_block b;
    void *tmp;
    alltoall_core_recv_block(a, peer, &b);
    if (!alltoall_core_block_bytes(&b))
        return MPI_SUCCESS;
    int err = scratch_for(a, s, &b, &tmp);
    if (!err)
        err = buf_copy(b.buf, b.count, b.type, tmp, b.count, b.type, a);
    if (!err)
        err = p2p_sendrecv(tmp, b.count, b.type, peer, b.buf, b.count, b.type, peer, a);
    return err;
}

int alltoall_core_inplace(const struct coll_args *a)
{
    struct alltoall_core_scratch s = {NULL, 0};
    int err = MPI_SUCCESS, rounds = alltoall_pattern_inplace_rounds(a->size);
    for (int r = 0; r < rounds && !err; r++) {
        int peer = alltoall_pattern_inplace_partner(a->rank, a->size, r);
        if (peer != a->rank)
            err = inplace_swap(a, peer, &s);
    }
    buf_free(a, s.base);
    return err;
}
