/* allgather_blocks.c - ring, recursive doubling and Bruck on a block
 * layout, shared by allgather and allgatherv (see the algorithm files for
 * the patterns, costs and diagrams). */
#include "algorithms/common/allgather_blocks.h"
#include "algorithms/patterns/allgather_pattern.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "engine/p2p_bytes.h"
#include "engine/scratch.h"

#include <stdlib.h>

struct allgather_blocks_layout allgather_blocks_layout_of(const struct coll_args *a)
{
    struct allgather_blocks_layout l = {.buf = a->recvbuf, .type = a->recvtype, .p = a->size,
                                        .count = a->recvcount};
    if (a->coll == COLL_allgatherv) {
        l.counts = a->recvcounts;
        l.displs = a->rdispls;
    }
    return l;
}

MPI_Aint allgather_blocks_block_count(const struct allgather_blocks_layout *l, int i)
{
    return l->counts.base ? coll_array_at(l->counts, i) : l->count;
}

static MPI_Aint block_displ(const struct allgather_blocks_layout *l, int i)
{
    return l->counts.base ? coll_array_at(l->displs, i) : (MPI_Aint)i * l->count;
}

/* 1 when the non-empty blocks of the run follow each other in memory, in
 * order; then they are *total elements from element *start on. */
static int adjacent(const struct allgather_blocks_layout *l, int first, int n, MPI_Aint *start,
                    MPI_Aint *total)
{
    MPI_Aint end = 0;
    int seen = 0;
    *start = 0;
    for (int k = 0; k < n; k++) {
        int b = (first + k) % l->p;
        MPI_Aint c = allgather_blocks_block_count(l, b);
        if (c == 0)
            continue;
        if (seen && block_displ(l, b) != end)
            return 0;
        if (!seen)
            *start = block_displ(l, b);
        end = block_displ(l, b) + c;
        seen = 1;
    }
    *total = end - *start;
    return 1;
}

/* The blocks as one type over the buffer: byte displacements, so neither
 * element offsets, their bytes nor a block's count need to fit an int. */
static int indexed_msg(const struct allgather_blocks_layout *l, int first, int n,
                       struct allgather_blocks_msg *m)
{
    MPI_Aint *disp = scratch_get(2 * (size_t)n * sizeof *disp), extent = buf_extent(l->type);
    int err;
    if (!disp)
        return MPI_ERR_NO_MEM;
    MPI_Aint *len = disp + n;
    for (int k = 0; k < n; k++) {
        int b = (first + k) % l->p;
        len[k] = allgather_blocks_block_count(l, b);
        disp[k] = block_displ(l, b) * extent;
    }
    err = big_blocks_type(n, len, disp, l->type, &m->type);
    if (!err) {
        m->origin = l->buf;
        m->count = 1;
        m->owned = 1;
    }
    scratch_put(disp);
    return err;
}

int allgather_blocks_msg_of(const struct allgather_blocks_layout *l, int first, int n,
                            struct allgather_blocks_msg *m)
{
    MPI_Aint start, total;
    m->owned = 0;
    m->type = l->type;
    first %= l->p;
    if (adjacent(l, first, n, &start, &total)) {
        m->origin = buf_at(l->buf, start, l->type);
        m->count = total;
        return MPI_SUCCESS;
    }
    return indexed_msg(l, first, n, m);
}

void allgather_blocks_msg_free(const struct coll_args *a, struct allgather_blocks_msg *m)
{
    if (m->owned)
        buf_type_free(a, &m->type);
    m->owned = 0;
}

int allgather_blocks_place_own(const struct coll_args *a, const struct allgather_blocks_layout *l)
{
    struct allgather_blocks_msg m;
    int err;
    if (a->in_place)
        return MPI_SUCCESS;
    if ((err = allgather_blocks_msg_of(l, a->rank, 1, &m)))
        return err;
    err = buf_copy(a->sendbuf, a->sendcount, a->sendtype, m.origin, m.count, m.type, a);
    allgather_blocks_msg_free(a, &m);
    return err;
}

int allgather_blocks_exchange(const struct coll_args *a, const struct allgather_blocks_layout *l,
                              int sfirst, int sn, int dest, int rfirst, int rn, int src)
{
    struct allgather_blocks_msg s, r;
    int err = allgather_blocks_msg_of(l, sfirst, sn, &s);
    if (err)
        return err;
    if (!(err = allgather_blocks_msg_of(l, rfirst, rn, &r))) {
        err = p2p_sendrecv(s.origin, s.count, s.type, dest, r.origin, r.count, r.type, src, a);
        allgather_blocks_msg_free(a, &r);
    }
    allgather_blocks_msg_free(a, &s);
    return err;
}

/* ---- ring ---- */

int allgather_blocks_ring(const struct coll_args *a)
{
    struct allgather_blocks_layout l = allgather_blocks_layout_of(a);
    int p = a->size, r = a->rank, err = allgather_blocks_place_own(a, &l);
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int s = 0; s < p - 1 && !err; s++)
        err = allgather_blocks_exchange(a, &l, (r - s + p) % p, 1, right, (r - s - 1 + p) % p, 1,
                                        left);
    return err;
}

/* ---- recursive doubling, with folding for p not a power of two ---- */

/* Even ranks of the first 2 rem give their block to their odd neighbour. */
static int rd_fold_in(const struct coll_args *a, const struct allgather_blocks_layout *l)
{
    struct allgather_blocks_msg m;
    int r = a->rank, even = r % 2 == 0, err = allgather_blocks_msg_of(l, even ? r : r - 1, 1, &m);
    if (err)
        return err;
    if (even)
        err = p2p_send(m.origin, m.count, m.type, r + 1, a);
    else
        err = p2p_recv(m.origin, m.count, m.type, r - 1, a);
    allgather_blocks_msg_free(a, &m);
    return err;
}

/* ... and get back every block but their own: blocks r+1, ..., r-1. */
static int rd_fold_out(const struct coll_args *a, const struct allgather_blocks_layout *l)
{
    struct allgather_blocks_msg m;
    int r = a->rank, p = a->size, even = r % 2 == 0;
    int err = allgather_blocks_msg_of(l, even ? r + 1 : r, p - 1, &m);
    if (err)
        return err;
    if (even)
        err = p2p_recv(m.origin, m.count, m.type, r + 1, a);
    else
        err = p2p_send(m.origin, m.count, m.type, r - 1, a);
    allgather_blocks_msg_free(a, &m);
    return err;
}

static int rd_double(const struct coll_args *a, const struct allgather_blocks_layout *l, int vrank)
{
    int pof2 = pattern_pow2_floor(a->size), err = MPI_SUCCESS;
    for (int mask = 1; mask < pof2 && !err; mask <<= 1) {
        int vpeer = vrank ^ mask, slo, sn, rlo, rn;
        allgather_pattern_vgroup_range(vrank & ~(mask - 1), mask, a->size, &slo, &sn);
        allgather_pattern_vgroup_range(vpeer & ~(mask - 1), mask, a->size, &rlo, &rn);
        int peer = pattern_fold_real(vpeer, a->size);
        err = allgather_blocks_exchange(a, l, slo, sn, peer, rlo, rn, peer);
    }
    return err;
}

int allgather_blocks_recursive_doubling(const struct coll_args *a)
{
    struct allgather_blocks_layout l = allgather_blocks_layout_of(a);
    int p = a->size, rem = p - pattern_pow2_floor(p), vrank = pattern_fold_virtual(a->rank, p);
    int err = allgather_blocks_place_own(a, &l);
    if (!err && a->rank < 2 * rem)
        err = rd_fold_in(a, &l);
    if (!err && vrank >= 0)
        err = rd_double(a, &l, vrank);
    if (!err && a->rank < 2 * rem)
        err = rd_fold_out(a, &l);
    return err;
}

/* ---- Bruck: rotated byte buffer, ceil(lg p) steps, one unpack ---- */

/* Byte offsets off[0..p] of blocks r, r+1, ..., r-1 packed one after the
 * other (this rank's counts and type: the byte sizes agree everywhere). */
static size_t *bruck_offsets(const struct allgather_blocks_layout *l, int r)
{
    size_t *off = scratch_get(((size_t)l->p + 1) * sizeof *off), tsize = buf_type_size(l->type);
    if (!off)
        return NULL;
    off[0] = 0;
    for (int i = 0; i < l->p; i++)
        off[i + 1] = off[i] + (size_t)allgather_blocks_block_count(l, (r + i) % l->p) * tsize;
    return off;
}

static int bruck_pack_own(const struct coll_args *a, const struct allgather_blocks_layout *l,
                          char *tmp)
{
    if (!a->in_place)
        return buf_pack(a->sendbuf, a->sendcount, a->sendtype, tmp, a);
    return buf_pack(buf_at(l->buf, block_displ(l, a->rank), l->type),
                    allgather_blocks_block_count(l, a->rank), l->type, tmp, a);
}

/* Step with distance d: send positions [0, n) to r - d, receive positions
 * [d, d + n) from r + d, where n = min(d, p - d). */
static int bruck_steps(const struct coll_args *a, char *tmp, const size_t *off)
{
    int p = a->size, r = a->rank, err = MPI_SUCCESS;
    for (int d = 1; d < p && !err; d <<= 1) {
        int n = d < p - d ? d : p - d;
        err = p2p_sendrecv(tmp, (MPI_Aint)off[n], MPI_BYTE, (r - d + p) % p, tmp + off[d],
                             (MPI_Aint)(off[d + n] - off[d]), MPI_BYTE, (r + d) % p, a);
    }
    return err;
}

/* Position i (block r + i) goes to its place in recvbuf, one block at a
 * time. */
static int bruck_unrotate(const struct coll_args *a, const struct allgather_blocks_layout *l,
                          const char *tmp, const size_t *off)
{
    int err = MPI_SUCCESS;
    for (int i = 1; i < l->p && !err; i++) {
        int b = (a->rank + i) % l->p;
        err = buf_unpack(tmp + off[i], buf_at(l->buf, block_displ(l, b), l->type),
                         allgather_blocks_block_count(l, b), l->type, a);
    }
    return err;
}

int allgather_blocks_bruck(const struct coll_args *a)
{
    struct allgather_blocks_layout l = allgather_blocks_layout_of(a);
    int err = allgather_blocks_place_own(a, &l);
    if (err || a->size == 1)
        return err;
    size_t *off = bruck_offsets(&l, a->rank);
    char *tmp = off ? buf_bytes(a, off[a->size] > 0 ? off[a->size] : 1) : NULL;
    if (!tmp)
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = bruck_pack_own(a, &l, tmp);
    if (!err)
        err = bruck_steps(a, tmp, off);
    if (!err)
        err = bruck_unrotate(a, &l, tmp, off);
    buf_free(a, tmp);
    scratch_put(off);
    return err;
}
