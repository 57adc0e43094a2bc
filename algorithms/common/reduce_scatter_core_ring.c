/* reduce_scatter_core_ring.c - the segmented ring (Patarasuk & Yuan 2009;
 * Thakur, Rabenseifner & Gropp 2005, section 4.4): the core of
 * reduce_scatter_ring and reduce_scatter_block_ring, and the two passes of
 * allreduce_ring. Commutative ops only.
 *
 * Reduce-scatter pass: in step s = 0 .. p-2 rank r receives from r-1 the
 * partial of block r-s-2, reduces its own input block into it and, except
 * in the last step, forwards it to r+1; block r is complete after p-1
 * steps. The allgather pass circulates finished blocks the same way with
 * no reduction (block r-s-1 arrives in step s):
 *
 *   p = 4, reduce-scatter, block travelling to rank 3:
 *     s=0: 0 -> 1   s=1: 1 -> 2   s=2: 2 -> 3   (0+1, +2, +3 at rank 3)
 *
 * Each block is cut into segments (seg bytes, at most `outstanding` per
 * block); all receives of a step are posted before the first is waited
 * for, so segment k+1 arrives while k is reduced, and a finished segment
 * is sent on at once. Two block-sized buffers alternate between steps.
 * Any p: no power-of-two structure.
 *
 * Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma per reduce-scatter
 *        pass, plus one alpha per extra segment (segments of seg bytes)
 * Wins for long vectors: bandwidth-optimal and only neighbour traffic. */
#include "algorithms/common/reduce_scatter_core_ring.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "engine/scratch.h"

#include <stdlib.h>
#include "algorithms/segments.h"

struct ring {
    const struct coll_args *a;
    const struct reduce_scatter_core_blocks *b;
    MPI_Aint seg;               /* elements per segment */
    MPI_Request *rreq, *sreq[2];
    int nsend[2];               /* sends in flight per slot */
};

/* At most RING_SEGS_LIMIT + 1 (seg_elems). */
static int nsegs(const struct ring *g, MPI_Aint count)
{
    return (int)(count / g->seg + (count % g->seg != 0));
}

static MPI_Aint seg_len(const struct ring *g, MPI_Aint count, int k)
{
    MPI_Aint rest = count - k * g->seg;
    return rest < g->seg ? rest : g->seg;
}

static void *seg_at(const struct ring *g, const void *blk, int k)
{
    return buf_at(blk, k * g->seg, g->a->datatype);
}

/* Elements per segment: seg bytes, enlarged so that no block has more
 * than `outstanding` segments. Rank-invariant: counts, type size and
 * parameters are the same everywhere. */
static MPI_Aint seg_elems(const struct coll_args *a, const struct reduce_scatter_core_blocks *b)
{
    size_t bytes = a->params.seg ? a->params.seg : SEG_DEFAULT_RING;
    size_t size = buf_type_size(a->datatype), elems = size ? bytes / size : 1;
    size_t most = a->params.outstanding > 0 ? (size_t)a->params.outstanding : RING_MAX_SEGS;
    if (most > RING_SEGS_LIMIT)
        most = RING_SEGS_LIMIT;
    size_t longest = (size_t)reduce_scatter_core_blocks_max(b),
           least = longest / most + (longest % most != 0);
    if (elems < least)
        elems = least;
    return elems < 1 ? 1 : (MPI_Aint)elems;
}

static int ring_init(struct ring *g, const struct coll_args *a,
                     const struct reduce_scatter_core_blocks *b)
{
    *g = (struct ring){.a = a, .b = b, .seg = seg_elems(a, b)};
    int max = nsegs(g, reduce_scatter_core_blocks_max(b)) + 1;
    g->rreq = scratch_get(3 * (size_t)max * sizeof(MPI_Request));
    g->sreq[0] = g->rreq + max;
    g->sreq[1] = g->rreq + 2 * max;
    return g->rreq ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static int right_of(const struct coll_args *a) { return (a->rank + 1) % a->size; }
static int left_of(const struct coll_args *a) { return (a->rank - 1 + a->size) % a->size; }

static int send_block(struct ring *g, int slot, const void *blk, int id)
{
    MPI_Aint count = g->b->counts[id];
    int err = MPI_SUCCESS;
    for (int k = 0; k < nsegs(g, count) && !err; k++)
        err = p2p_isend(seg_at(g, blk, k), seg_len(g, count, k), g->a->datatype,
                        right_of(g->a), g->a, &g->sreq[slot][g->nsend[slot]++]);
    return err;
}

static int wait_sends(struct ring *g, int slot)
{
    int err = p2p_waitall(g->a, g->nsend[slot], g->sreq[slot]);
    g->nsend[slot] = 0;
    return err;
}

/* Receive block id into rbuf segment by segment; when reduce, rbuf = src
 * op rbuf per segment (src may be MPI_BOTTOM: a flag, not a NULL test);
 * with fwd, each finished segment goes on into slot. */
static int step(struct ring *g, int id, void *rbuf, int reduce, const void *src, int fwd,
                int slot)
{
    MPI_Datatype t = g->a->datatype;
    MPI_Aint count = g->b->counts[id];
    int n = nsegs(g, count), err = MPI_SUCCESS, k;
    for (k = 0; k < n && !err; k++)
        err = p2p_irecv(seg_at(g, rbuf, k), seg_len(g, count, k), t, left_of(g->a), g->a,
                        &g->rreq[k]);
    for (k = 0; k < n && !err; k++) {
        void *s = seg_at(g, rbuf, k);
        MPI_Aint len = seg_len(g, count, k);
        err = p2p_wait(g->a, &g->rreq[k]);
        if (!err && reduce)
            err = buf_reduce(g->a, seg_at(g, src, k), s, len, t, g->a->op);
        if (!err && fwd)
            err = p2p_isend(s, len, t, right_of(g->a), g->a, &g->sreq[slot][g->nsend[slot]++]);
    }
    return err;
}

/* The p-1 steps of a pass. Step s receives block r-s-1-shift: shift 0
 * (allgather) into buf in place, shift 1 (reduce-scatter) into tmp[s % 2]
 * to reduce with src's block. */
static int pass(struct ring *g, int shift, const void *src, void *buf, void *tmp[2])
{
    const struct coll_args *a = g->a;
    const MPI_Aint *displs = g->b->displs;
    int p = a->size, first = (a->rank - shift + p) % p, err;
    err = send_block(g, 1, buf_at(shift ? src : buf, displs[first], a->datatype), first);
    for (int s = 0; s < p - 1 && !err; s++) {
        int id = (a->rank - s - 1 - shift + 2 * p) % p;
        void *rbuf = shift ? tmp[s % 2] : buf_at(buf, displs[id], a->datatype);
        const void *with = shift ? buf_at(src, displs[id], a->datatype) : NULL;
        err = step(g, id, rbuf, shift, with, s < p - 2, s % 2);
        if (!err)
            err = wait_sends(g, 1 - s % 2);
    }
    return err;
}

int ring_reduce_scatter(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                        const void *src, void *out)
{
    MPI_Datatype t = a->datatype;
    MPI_Aint my = b->counts[a->rank], max = reduce_scatter_core_blocks_max(b);
    int err;
    void *tmp[2], *base[2] = {NULL, NULL};
    struct ring g;
    if (a->size == 1)
        return buf_copy(src, my, t, out, my, t, a);
    if ((err = ring_init(&g, a, b)))
        return err;
    err = buf_alloc_checked(a, max, t, &tmp[0], &base[0]);
    if (!err)
        err = buf_alloc_checked(a, max, t, &tmp[1], &base[1]);
    if (!err)
        err = pass(&g, 1, src, NULL, tmp);
    if (!err)
        err = buf_copy(tmp[(a->size - 2) % 2], my, t, out, my, t, a);
    buf_free(a, base[0]);
    buf_free(a, base[1]);
    scratch_put(g.rreq);
    return err;
}

int ring_allgather(const struct coll_args *a, const struct reduce_scatter_core_blocks *b,
                   void *buf)
{
    struct ring g;
    int err;
    if (a->size == 1)
        return MPI_SUCCESS;
    if ((err = ring_init(&g, a, b)))
        return err;
    err = pass(&g, 0, NULL, buf, NULL);
    scratch_put(g.rreq);
    return err;
}

int reduce_scatter_core_ring(const struct coll_args *a, struct coll_array counts)
{
    struct reduce_scatter_core_blocks b;
    int err = reduce_scatter_core_blocks_init(&b, counts, a->size);
    if (!err && b.displs[a->size] > 0)
        err = ring_reduce_scatter(a, &b, reduce_scatter_core_source(a), a->recvbuf);
    reduce_scatter_core_blocks_free(&b);
    return err;
}
