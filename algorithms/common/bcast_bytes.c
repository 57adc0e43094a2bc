/* bcast_bytes.c - the broadcast message as bytes (see bcast_bytes.h).
 *
 * Packing assumes a homogeneous job (the packed form of a type signature
 * is its raw bytes), which both supported MPIs guarantee on one machine
 * type; that is what lets a contiguous root feed a non-contiguous rank. */
#include "bcast_bytes.h"

#include "bcast_pattern.h"
#include "buf.h"
#include "p2p.h"

#include <limits.h>
#include <stdlib.h>

int bcast_bytes_open(struct bcast_bytes *b, const struct coll_args *a)
{
    long long n = (long long)a->count * buf_type_size(a->datatype);
    MPI_Aint true_lb, true_extent;
    int pos = 0;
    b->p = NULL;
    b->n = 0;
    b->copy = NULL;
    if (n > INT_MAX)
        return MPI_ERR_COUNT;
    if ((b->n = (int)n) == 0)
        return MPI_SUCCESS;
    if (buf_is_contiguous(a->count, a->datatype)) {
        PMPI_Type_get_true_extent(a->datatype, &true_lb, &true_extent);
        b->p = (char *)a->recvbuf + true_lb;
        return MPI_SUCCESS;
    }
    if (!(b->copy = b->p = malloc((size_t)b->n)))
        return MPI_ERR_NO_MEM;
    if (a->rank != a->root)
        return MPI_SUCCESS;
    return PMPI_Pack(a->recvbuf, a->count, a->datatype, b->p, b->n, &pos, MPI_COMM_SELF);
}

int bcast_bytes_close(struct bcast_bytes *b, int err, const struct coll_args *a)
{
    if (!err && b->copy && a->rank != a->root)
        err = buf_unpack(b->copy, b->n, a->recvbuf, a->count, a->datatype);
    free(b->copy);
    b->copy = NULL;
    return err;
}

char *bcast_bytes_blocks(const struct bcast_bytes *b, int p, int first, int end, int *len)
{
    int lo = pat_block_offset(b->n, p, first);
    *len = pat_block_offset(b->n, p, end) - lo;
    return b->p + lo;
}

/* Send the subtree blocks of child rel + m, m = mask/2, ..., 1. */
static int scatter_down(const struct bcast_bytes *b, int rel, const struct coll_args *a)
{
    MPI_Request reqs[32];
    int p = a->size, nreq = 0, err = MPI_SUCCESS, len;
    for (int m = pat_binomial_mask(rel, p) / 2; m > 0 && !err; m /= 2) {
        if (rel + m >= p)
            continue;
        char *at = bcast_bytes_blocks(b, p, rel + m, bpat_subtree_end(rel + m, p), &len);
        if (len > 0 && (err = p2p_isend(at, len, MPI_BYTE, pat_abs(rel + m, a->root, p), a,
                                        &reqs[nreq])) == MPI_SUCCESS)
            nreq++;
    }
    int werr = p2p_waitall(nreq, reqs);
    return err ? err : werr;
}

int bcast_bytes_scatter(const struct bcast_bytes *b, const struct coll_args *a)
{
    int p = a->size, rel = pat_rel(a->rank, a->root, p), len, err = MPI_SUCCESS;
    if (rel != 0) {
        char *at = bcast_bytes_blocks(b, p, rel, bpat_subtree_end(rel, p), &len);
        int parent = pat_abs(pat_binomial_parent(rel), a->root, p);
        if (len > 0 && (err = p2p_recv(at, len, MPI_BYTE, parent, a)))
            return err;
    }
    return scatter_down(b, rel, a);
}

static int post_recv(const struct bcast_bytes *b, size_t seg, int i, int parent,
                     const struct coll_args *a, MPI_Request *req)
{
    return p2p_irecv(b->p + (size_t)i * seg, bpat_seg_len(b->n, seg, i), MPI_BYTE, parent, a,
                     req);
}

int bcast_bytes_forward(const struct bcast_bytes *b, size_t seg, int parent,
                        const int *kids, int nkids, const struct coll_args *a)
{
    MPI_Request rreq = MPI_REQUEST_NULL, sreq[BCAST_BYTES_MAX_KIDS];
    int nseg = bpat_seg_count(b->n, seg), err = MPI_SUCCESS;
    for (int k = 0; k < nkids; k++)
        sreq[k] = MPI_REQUEST_NULL;
    if (parent >= 0 && nseg > 0)
        err = post_recv(b, seg, 0, parent, a, &rreq);
    for (int i = 0; i < nseg && !err; i++) {
        if (parent >= 0 && !(err = p2p_wait(&rreq)) && i + 1 < nseg)
            err = post_recv(b, seg, i + 1, parent, a, &rreq);
        if (!err) /* the previous segment's sends */
            err = p2p_waitall(nkids, sreq);
        for (int k = 0; k < nkids && !err; k++)
            if ((err = p2p_isend(b->p + (size_t)i * seg, bpat_seg_len(b->n, seg, i), MPI_BYTE,
                                 kids[k], a, &sreq[k])))
                sreq[k] = MPI_REQUEST_NULL;
    }
    int werr = p2p_waitall(nkids, sreq);
    return err ? err : werr;
}
