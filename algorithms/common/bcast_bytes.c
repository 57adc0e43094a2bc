/* bcast_bytes.c - the broadcast message as bytes (see bcast_bytes.h).
 *
 * Packing assumes a homogeneous job (the packed form of a type signature
 * is its raw bytes), which both supported MPIs guarantee on one machine
 * type; that is what lets a contiguous root feed a non-contiguous rank. */
#include "algorithms/common/bcast_bytes.h"

#include "algorithms/patterns/bcast_pattern.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/common/tree_send.h"

#include <stdlib.h>

int bcast_bytes_open(struct bcast_bytes *b, const struct coll_args *a)
{
    b->p = NULL;
    b->n = a->count > 0 ? (size_t)a->count * buf_type_size(a->datatype) : 0;
    b->copy = NULL;
    if (b->n == 0)
        return MPI_SUCCESS;
    if ((b->p = buf_contiguous_data(a->recvbuf, a->count, a->datatype)))
        return MPI_SUCCESS;
    if (!(b->copy = b->p = buf_bytes(a, b->n)))
        return MPI_ERR_NO_MEM;
    if (a->rank != a->root)
        return MPI_SUCCESS;
    return buf_pack(a->recvbuf, a->count, a->datatype, b->p, a);
}

int bcast_bytes_close(struct bcast_bytes *b, int err, const struct coll_args *a)
{
    if (!err && b->copy && a->rank != a->root)
        err = buf_unpack(b->copy, a->recvbuf, a->count, a->datatype, a);
    buf_free(a, b->copy);
    b->copy = NULL;
    return err;
}

char *bcast_bytes_blocks(const struct bcast_bytes *b, int p, int first, int end, size_t *len)
{
    size_t lo = bcast_pattern_block_offset(b->n, p, first);
    *len = bcast_pattern_block_offset(b->n, p, end) - lo;
    return b->p + lo;
}

/* Send the subtree blocks of child rel + m, m = mask/2, ..., 1: to other
 * nodes one at a time, in this node posted together (tree_send_child). */
static int scatter_down(const struct bcast_bytes *b, int rel, const struct coll_args *a)
{
    MPI_Request reqs[32];
    int p = a->size, nreq = 0, err = MPI_SUCCESS;
    size_t len;
    for (int m = pattern_binomial_mask(rel, p) / 2; m > 0 && !err; m /= 2) {
        if (rel + m >= p)
            continue;
        char *at = bcast_bytes_blocks(b, p, rel + m, bcast_pattern_subtree_end(rel + m, p), &len);
        if (len > 0)
            err = tree_send_child(at, (MPI_Aint)len, MPI_BYTE, pattern_abs(rel + m, a->root, p), a,
                                   reqs, &nreq);
    }
    int werr = p2p_waitall(a, nreq, reqs);
    return err ? err : werr;
}

int bcast_bytes_scatter(const struct bcast_bytes *b, const struct coll_args *a)
{
    int p = a->size, rel = pattern_rel(a->rank, a->root, p), err = MPI_SUCCESS;
    size_t len;
    if (rel != 0) {
        char *at = bcast_bytes_blocks(b, p, rel, bcast_pattern_subtree_end(rel, p), &len);
        int parent = pattern_abs(pattern_binomial_parent(rel), a->root, p);
        if (len > 0 && (err = p2p_recv(at, (MPI_Aint)len, MPI_BYTE, parent, a)))
            return err;
    }
    return scatter_down(b, rel, a);
}

static int post_recv(const struct bcast_bytes *b, size_t seg, size_t i, int parent,
                     const struct coll_args *a, MPI_Request *req)
{
    return p2p_irecv(b->p + i * seg, (MPI_Aint)bcast_pattern_seg_len(b->n, seg, i), MPI_BYTE,
                       parent, a, req);
}

int bcast_bytes_forward(const struct bcast_bytes *b, size_t seg, int parent,
                        const int *kids, int nkids, const struct coll_args *a)
{
    MPI_Request rreq = MPI_REQUEST_NULL, sreq[BCAST_BYTES_MAX_KIDS];
    size_t nseg = bcast_pattern_seg_count(b->n, seg);
    int err = MPI_SUCCESS;
    for (int k = 0; k < nkids; k++)
        sreq[k] = MPI_REQUEST_NULL;
    if (parent >= 0 && nseg > 0)
        err = post_recv(b, seg, 0, parent, a, &rreq);
    for (size_t i = 0; i < nseg && !err; i++) {
        if (parent >= 0 && !(err = p2p_wait(a, &rreq)) && i + 1 < nseg)
            err = post_recv(b, seg, i + 1, parent, a, &rreq);
        if (!err) /* the previous segment's sends */
            err = p2p_waitall(a, nkids, sreq);
        for (int k = 0; k < nkids && !err; k++)
            if ((err = p2p_isend(b->p + i * seg, (MPI_Aint)bcast_pattern_seg_len(b->n, seg, i),
                                   MPI_BYTE, kids[k], a, &sreq[k])))
                sreq[k] = MPI_REQUEST_NULL;
    }
    int werr = p2p_waitall(a, nkids, sreq);
    return err ? err : werr;
}
