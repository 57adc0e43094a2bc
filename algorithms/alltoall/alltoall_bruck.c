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
 * Cost = ceil(lg p) alpha + (n/2) ceil(lg p) beta (+ about (2 + lg p) n bytes
 *        of local copying), n = sendcount * p * type size
 * Restriction: not in place (the selector walks on to alltoall/inplace).
 * Limit: the packed vector (n bytes) must fit an int (PMPI_Pack positions);
 * beyond that it returns MPI_ERR_COUNT - a size where pairwise wins anyway. */
#include "../common/a2a.h"
#include "../common/a2a_pattern.h"
#include "../common/buf.h"
#include "../common/p2p.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Gather (to_msg) or scatter back the working blocks that move at dist. */
static size_t bruck_gather(char *work, char *msg, size_t bb, int p, int dist, int to_msg)
{
    size_t n = 0;
    for (int k = 0; k < p; k++) {
        if (!a2a_bruck_moves(k, dist))
            continue;
        if (to_msg)
            memcpy(msg + n, work + bb * (size_t)k, bb);
        else
            memcpy(work + bb * (size_t)k, msg + n, bb);
        n += bb;
    }
    return n;
}

static int bruck_steps(const struct coll_args *a, char *work, char *sbuf, char *rbuf,
                       size_t bb)
{
    int err = MPI_SUCCESS, p = a->size;
    for (int dist = 1; dist < p && !err; dist <<= 1) {
        size_t n = bruck_gather(work, sbuf, bb, p, dist, 1);
        err = p2p_sendrecv(sbuf, (int)n, MPI_BYTE, (a->rank + dist) % p, rbuf, (int)n,
                           MPI_BYTE, (a->rank - dist + p) % p, a);
        if (!err)
            bruck_gather(work, rbuf, bb, p, dist, 0);
    }
    return err;
}

int alltoall_bruck(const struct coll_args *a)
{
    size_t bb = (size_t)a->recvcount * (size_t)buf_type_size(a->recvtype);
    if (bb == 0)
        return MPI_SUCCESS;
    if (a->size == 1)
        return a2a_copy_self(a);
    if (bb * (size_t)a->size > INT_MAX) /* PMPI_Pack positions are ints */
        return MPI_ERR_COUNT;
    size_t half = bb * (size_t)(a->size / 2 + 1);
    char *work = malloc(bb * (size_t)a->size), *sbuf = malloc(half), *rbuf = malloc(half);
    int err = (work && sbuf && rbuf) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (!err)
        err = a2a_pack_sends(a, work, bb, a2a_bruck_send_peer);
    if (!err)
        err = bruck_steps(a, work, sbuf, rbuf, bb);
    if (!err)
        err = a2a_unpack_recvs(a, work, bb, a2a_bruck_recv_peer);
    free(work);
    free(sbuf);
    free(rbuf);
    return err;
}
