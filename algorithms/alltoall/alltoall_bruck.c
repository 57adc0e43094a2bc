/* alltoall_bruck.c - Bruck's index algorithm (Bruck, Ho, Kipnis, Upfal &
 * Weathersby, IEEE TPDS 8(11), 1997; the variant analysed by Thakur,
 * Rabenseifner & Gropp 2005).
 *
 * Every rank packs its p send blocks to bytes, rotated so that working
 * block k is the one for rank + k. In the step of distance 2^i it sends
 * every working block whose index has bit i set to rank + 2^i and receives
 * the same indices from rank - 2^i. After ceil(lg p) steps working block k
 * holds the data from rank - k, which the last phase unpacks into the
 * receive block of that peer:
 *
 *   p = 5, rank 0, working index k:   0  1  2  3  4
 *   dist 1: bit 0 -> to 1, from 4       x     x
 *   dist 2: bit 1 -> to 2, from 3          x  x
 *   dist 4: bit 2 -> to 4, from 1                x
 *
 * The bit test needs no power of two: indices run 0..p-1 and distances up
 * to the largest power of two below p, so any p works unchanged.
 *
 * Wins for small blocks with many ranks: ceil(lg p) messages instead of
 * p - 1, paid for by moving every byte about lg(p)/2 times and by the local
 * packing. All data travels as MPI_BYTE after PMPI_Pack, so send and
 * receive type maps may differ between ranks.
 *
 * Memory: the working array is recvbuf itself when the receive type is
 * contiguous (then the last phase swaps blocks k and rank - k in place:
 * working block k holds what belongs in block rank - k and the other way
 * round), else a temporary of n bytes; the blocks received in a step go
 * through a buffer of the most blocks a step moves (ceil(p/2) at most).
 * Small steps gather the moving blocks into a second such buffer (memcpy);
 * steps of more than BRUCK_COPY_MAX bytes send them straight from the
 * working array as one derived type instead.
 *
 * Cost = ceil(lg p) alpha + (n/2) ceil(lg p) beta (+ about (1 + lg(p)/2) n
 *        bytes of local copying, 1.5 n more for the swaps in place),
 *        n = sendcount * p * type size
 * Restriction: not in place (the selector walks on to alltoall/inplace).
 * Any size: packing goes in pieces whose positions fit an int, messages
 * above INT_MAX bytes through p2p_bytes.h. */
#include "algorithms/common/alltoall_core.h"
#include "algorithms/patterns/alltoall_pattern.h"
#include "engine/buf.h"
#include "engine/p2p.h"
#include "engine/p2p_bytes.h"
#include "engine/scratch.h"
#include "algorithms/model.h"

#include <stdlib.h>
#include <string.h>

/* Steps at distances 1, 2, 4, ... < p, each moving the blocks whose
 * working index has that bit set (local packing and copies not counted). */
double alltoall_bruck_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double block = c->bytes / c->p, cost = 0;
    for (int distance = 1; distance < c->p; distance *= 2)
        cost += model_shift(c, m, alltoall_pattern_bruck_count_moves(c->p, distance) * block,
                            distance);
    return cost + model_copy(m, (1 + model_log(2, c->p) / 2.0) * c->bytes); /* rotations, packing */
}

#define BRUCK_COPY_MAX ((size_t)1 << 20)

struct bruck {
    char *work;       /* p working blocks of bb bytes */
    char *sbuf, *rbuf; /* a step's blocks; sbuf NULL: sent as a derived type */
    size_t bb;
};

/* Gather (to_msg) or scatter back the working blocks that move at dist. */
static size_t bruck_gather(const struct coll_args *a, const struct bruck *b, char *msg, int p,
                           int dist, int to_msg)
{
    size_t n = 0;
    for (int k = 0; k < p; k++) {
        if (!alltoall_pattern_bruck_moves(k, dist))
            continue;
        if (to_msg)
            buf_memcpy(a, msg + n, b->work + b->bb * (size_t)k, b->bb);
        else
            buf_memcpy(a, b->work + b->bb * (size_t)k, msg + n, b->bb);
        n += b->bb;
    }
    return n;
}

/* The working blocks that move at dist as one type over work. */
static int moving_type(const struct coll_args *a, const struct bruck *b, int p, int dist,
                       MPI_Datatype *type)
{
    MPI_Aint *disp = scratch_get((size_t)p * sizeof *disp);
    MPI_Datatype block;
    int n = 0, len, err = disp ? big_type((MPI_Aint)b->bb, MPI_BYTE, &len, &block) : MPI_ERR_NO_MEM;
    if (err) {
        scratch_put(disp);
        return err;
    }
    for (int k = 0; k < p; k++)
        if (alltoall_pattern_bruck_moves(k, dist))
            disp[n++] = (MPI_Aint)(b->bb * (size_t)k);
    err = PMPI_Type_create_hindexed_block(n, len, disp, block, type);
    if (!err && (err = PMPI_Type_commit(type)))
        PMPI_Type_free(type);
    big_type_free(a, MPI_BYTE, &block);
    scratch_put(disp);
    return err;
}

static int bruck_step(const struct coll_args *a, const struct bruck *b, int dist)
{
    int p = a->size, to = (a->rank + dist) % p, from = (a->rank - dist + p) % p, err;
    size_t n = b->bb * (size_t)alltoall_pattern_bruck_count_moves(p, dist);
    MPI_Datatype type;
    if (b->sbuf) {
        bruck_gather(a, b, b->sbuf, p, dist, 1);
        err = p2p_sendrecv(b->sbuf, (MPI_Aint)n, MPI_BYTE, to, b->rbuf, (MPI_Aint)n, MPI_BYTE,
                             from, a);
    } else if (!(err = moving_type(a, b, p, dist, &type))) {
        err = p2p_sendrecv(b->work, 1, type, to, b->rbuf, (MPI_Aint)n, MPI_BYTE, from, a);
        buf_type_free(a, &type);
    }
    if (!err)
        bruck_gather(a, b, b->rbuf, p, dist, 0);
    return err;
}

/* work is recvbuf: block k belongs in block rank - k and the other way
 * round; swap each such pair once, through rbuf. */
static void swap_home(const struct coll_args *a, const struct bruck *b)
{
    for (int k = 0; k < a->size; k++) {
        int j = alltoall_pattern_bruck_recv_peer(a->rank, a->size, k);
        if (k >= j)
            continue;
        char *x = b->work + b->bb * (size_t)k, *y = b->work + b->bb * (size_t)j;
        buf_memcpy(a, b->rbuf, x, b->bb);
        buf_memcpy(a, x, y, b->bb);
        buf_memcpy(a, y, b->rbuf, b->bb);
    }
}

int alltoall_bruck(const struct coll_args *a)
{
    struct bruck b = {NULL, NULL, NULL, 0};
    int p = a->size, err = MPI_SUCCESS;
    b.bb = a->recvcount > 0 ? (size_t)a->recvcount * buf_type_size(a->recvtype) : 0;
    if (b.bb == 0)
        return MPI_SUCCESS;
    if (p == 1)
        return alltoall_core_copy_self(a);
    size_t most = b.bb * (size_t)alltoall_pattern_bruck_max_moves(p);
    char *in_recvbuf = buf_contiguous_data(a->recvbuf, (MPI_Aint)p * a->recvcount, a->recvtype);
    b.work = in_recvbuf ? in_recvbuf : buf_bytes(a, b.bb * (size_t)p);
    b.rbuf = buf_bytes(a, most);
    if (most <= BRUCK_COPY_MAX)
        b.sbuf = buf_bytes(a, most);
    if (!b.work || !b.rbuf || (most <= BRUCK_COPY_MAX && !b.sbuf))
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = alltoall_core_pack_sends(a, b.work, b.bb, alltoall_pattern_bruck_send_peer);
    for (int dist = 1; dist < p && !err; dist <<= 1)
        err = bruck_step(a, &b, dist);
    if (!err && in_recvbuf)
        swap_home(a, &b);
    else if (!err)
        err = alltoall_core_unpack_recvs(a, b.work, b.bb, alltoall_pattern_bruck_recv_peer);
    if (!in_recvbuf)
        buf_free(a, b.work);
    buf_free(a, b.sbuf);
    buf_free(a, b.rbuf);
    return err;
}
