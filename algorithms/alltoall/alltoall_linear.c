/* alltoall_linear.c - relay through rank 0: every rank sends its whole
 * send buffer to rank 0, which transposes the p x p blocks and sends each
 * rank its whole receive buffer back.
 *
 *   gather:   1, 2, ..., p-1 -> 0     row r = rank r's blocks for 0..p-1
 *   transpose at rank 0               row r' = block r of every row, in order
 *   scatter:  0 -> 1, 2, ..., p-1     row r' = rank r's receive buffer
 *
 * 2 (p - 1) messages in two rounds, against p (p - 1) for the direct
 * exchanges (scattered, pairwise) and p ceil(lg p) in ceil(lg p) rounds
 * for Bruck. Blocks travel as bytes after PMPI_Pack, so send and receive
 * type maps may differ between ranks. Every rank packs its send blocks
 * before it receives anything, so MPI_IN_PLACE needs nothing more.
 *
 * Cost = 2 alpha + 2 (p - 1) n beta (+ 2 p n local copying at rank 0),
 *        n = sendcount * p * type size (one rank's whole send buffer)
 * Rank 0's link carries everything twice: wins only for tiny blocks at
 * small to moderate p, where the p (p - 1) messages in flight of a direct
 * exchange, or Bruck's ceil(lg p) latencies, cost more than two rounds.
 * Any size: a row longer than INT_MAX bytes travels as one derived type
 * (p2p_bytes.h), packing goes in pieces. */
#include "../common/a2a.h"
#include "../common/buf.h"
#include "../common/linear_root.h"
#include "../common/p2p.h"
#include "../common/p2p_bytes.h"

#include <stdlib.h>
#include <string.h>

/* Packed block k of a row is the block for (from) rank k. */
static int rank_k(int rank, int p, int k)
{
    (void)rank, (void)p;
    return k;
}

/* Rows 1..p-1 of rows from (send: to) their ranks, all in flight: a row
 * is rowlen bytes, one derived type when that does not fit an int. */
static int move_rows(const struct coll_args *a, char *rows, size_t rowlen, int send)
{
    struct lin_blocks b = {rows, MPI_BYTE, 0, NULL, NULL, NULL};
    int err = big_type((MPI_Aint)rowlen, MPI_BYTE, &b.count, &b.type);
    if (err)
        return err;
    err = lin_root_exchange(a, 0, &b, send, 0);
    big_type_free(MPI_BYTE, &b.type);
    return err;
}

/* out row r = block r of every row of in, in rank order. */
static void transpose(const char *in, char *out, size_t bb, int p)
{
    for (int r = 0; r < p; r++)
        for (int j = 0; j < p; j++)
            memcpy(out + bb * ((size_t)r * p + j), in + bb * ((size_t)j * p + r), bb);
}

static int relay_at_root(const struct coll_args *a, char *all, size_t bb)
{
    size_t rowlen = bb * (size_t)a->size;
    char *out = malloc(rowlen * (size_t)a->size);
    int err = out ? move_rows(a, all, rowlen, 0) : MPI_ERR_NO_MEM;
    if (!err)
        transpose(all, out, bb, a->size);
    if (!err)
        err = a2a_unpack_recvs(a, out, bb, rank_k);
    if (!err)
        err = move_rows(a, out, rowlen, 1);
    free(out);
    return err;
}

int alltoall_linear(const struct coll_args *a)
{
    size_t bb = a->recvcount > 0 ? (size_t)a->recvcount * buf_type_size(a->recvtype) : 0;
    size_t rowlen = bb * (size_t)a->size;
    if (bb == 0)
        return MPI_SUCCESS;
    if (a->size == 1)
        return a2a_copy_self(a);
    char *row = malloc(a->rank == 0 ? rowlen * (size_t)a->size : rowlen);
    int err = row ? a2a_pack_sends(a, row, bb, rank_k) : MPI_ERR_NO_MEM;
    if (!err && a->rank == 0)
        err = relay_at_root(a, row, bb);
    else if (!err)
        err = p2p_send_n(row, (MPI_Aint)rowlen, MPI_BYTE, 0, a);
    if (!err && a->rank != 0)
        err = p2p_recv_n(row, (MPI_Aint)rowlen, MPI_BYTE, 0, a);
    if (!err && a->rank != 0)
        err = a2a_unpack_recvs(a, row, bb, rank_k);
    free(row);
    return err;
}
