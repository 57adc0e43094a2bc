/* alltoall_linear.c - relay through rank 0: every rank sends its whole
 * send buffer to rank 0, which sends each rank its whole receive buffer
 * back, block r of every row:
 *
 *   gather:   1, 2, ..., p-1 -> 0     row r = rank r's blocks for 0..p-1
 *   scatter:  0 -> 1, 2, ..., p-1     rank r gets column r: block r of
 *                                     rows 0, 1, ..., p-1, in order
 *
 * 2 (p - 1) messages in two rounds, against p (p - 1) for the direct
 * exchanges (scattered, pairwise) and p ceil(lg p) in ceil(lg p) rounds
 * for Bruck. The other ranks send with their own (count, type) straight
 * from their buffers and receive the packed bytes of their result (into
 * the buffer when it is contiguous, else a copy unpacked); rank 0 holds
 * the rows as packed bytes and receives and sends them as MPI_PACKED
 * (which matches any type signature), a column as one strided derived
 * type, so send and receive type maps may differ between ranks and
 * nothing is transposed.
 * Every rank sends its whole buffer before it receives anything, so
 * MPI_IN_PLACE needs nothing more.
 *
 * Cost = 2 alpha + 2 (p - 1) n beta (+ 2 n local copying at rank 0: its
 *        own row and column), n = sendcount * p * type size (one rank's
 *        whole send buffer)
 * Rank 0's link carries everything twice: wins only for tiny blocks at
 * small to moderate p, where the p (p - 1) messages in flight of a direct
 * exchange, or Bruck's ceil(lg p) latencies, cost more than two rounds.
 * Memory: p n bytes at rank 0, nothing elsewhere. Any size: rows and
 * columns longer than INT_MAX bytes are derived types (p2p_bytes.h). */
#include "algorithms/common/alltoall_core.h"
#include "engine/buf.h"
#include "algorithms/common/linear_root.h"
#include "engine/p2p.h"
#include "engine/p2p_bytes.h"
#include "algorithms/model.h"

#include <limits.h>
#include <stdlib.h>

/* Rank 0 receives p - 1 whole send buffers at once, then sends p - 1 whole
 * receive buffers at once (its own row and column copied, not counted). */
double alltoall_linear_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    return 2 * model_tree(c, m, c->bytes, c->p - 1, c->p - 1);
}

/* Packed block k of a row is the block for (from) rank k. */
static int rank_k(int rank, int p, int k)
{
    (void)rank, (void)p;
    return k;
}

/* One block of bb packed bytes as a single element. */
static int block_type(size_t bb, MPI_Datatype *block)
{
    int n;
    if (bb <= INT_MAX)
        return PMPI_Type_contiguous((int)bb, MPI_PACKED, block);
    return big_type((MPI_Aint)bb, MPI_PACKED, &n, block); /* n is 1: a new type */
}

/* Column r of the rows (block r of each, rows p bb bytes apart), with an
 * extent of one block so that linear_root_exchange finds column r at rows +
 * r bb. */
static int column_type(size_t bb, int p, MPI_Datatype *column)
{
    MPI_Datatype block, strided;
    int err = block_type(bb, &block);
    if (err)
        return err;
    err = PMPI_Type_create_hvector(p, 1, (MPI_Aint)(bb * (size_t)p), block, &strided);
    PMPI_Type_free(&block);
    if (err)
        return err;
    err = PMPI_Type_create_resized(strided, 0, (MPI_Aint)bb, column);
    PMPI_Type_free(&strided);
    if (!err && (err = PMPI_Type_commit(column)))
        PMPI_Type_free(column);
    return err;
}

/* Rows 1..p-1 from their ranks, all in flight. */
static int receive_rows(const struct coll_args *a, char *rows, size_t rowlen)
{
    struct linear_root_blocks b = {.buf = rows};
    int count, err = big_type((MPI_Aint)rowlen, MPI_PACKED, &count, &b.type);
    if (err)
        return err;
    b.count = count;
    err = linear_root_exchange(a, 0, &b, 0, 0);
    big_type_free(a, MPI_PACKED, &b.type);
    return err;
}

/* Columns 1..p-1 to their ranks, all in flight. */
static int send_columns(const struct coll_args *a, char *rows, size_t bb)
{
    struct linear_root_blocks b = {.buf = rows, .type = MPI_DATATYPE_NULL, .count = 1};
    int err = column_type(bb, a->size, &b.type);
    if (err)
        return err;
    err = linear_root_exchange(a, 0, &b, 1, 0);
    buf_type_free(a, &b.type);
    return err;
}

/* Column 0 is rank 0's own receive buffer: block k of row k. */
static int own_column(const struct coll_args *a, const char *rows, size_t bb)
{
    int err = MPI_SUCCESS;
    for (int k = 0; k < a->size && !err; k++) {
        struct alltoall_core_block b;
        alltoall_core_recv_block(a, k, &b);
        err = buf_unpack(rows + bb * (size_t)a->size * (size_t)k, b.buf, b.count, b.type, a);
    }
    return err;
}

static int relay_at_root(const struct coll_args *a, size_t bb)
{
    size_t rowlen = bb * (size_t)a->size;
    char *rows = buf_bytes(a, rowlen * (size_t)a->size);
    int err = rows ? alltoall_core_pack_sends(a, rows, bb, rank_k) : MPI_ERR_NO_MEM;
    if (!err)
        err = receive_rows(a, rows, rowlen);
    if (!err)
        err = own_column(a, rows, bb);
    if (!err)
        err = send_columns(a, rows, bb);
    buf_free(a, rows);
    return err;
}

/* Any other rank: its whole buffer to rank 0, its whole result back. The
 * result comes as packed bytes: straight into a contiguous buffer, else
 * into a copy that is unpacked. (MPICH 4.0.2 truncates a message of
 * packed bytes above about 16 KiB received as a pair type such as
 * MPI_SHORT_INT, so bytes are received as bytes.) */
static int relay_through_root(const struct coll_args *a)
{
    MPI_Aint p = a->size, n = p * a->recvcount;
    size_t bytes = (size_t)n * buf_type_size(a->recvtype);
    char *direct = buf_contiguous_data(a->recvbuf, n, a->recvtype), *copy = NULL;
    int err = a->in_place ? p2p_send(a->recvbuf, n, a->recvtype, 0, a)
                          : p2p_send(a->sendbuf, p * a->sendcount, a->sendtype, 0, a);
    if (!err && !direct && !(copy = buf_bytes(a, bytes)))
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = p2p_recv(direct ? direct : copy, (MPI_Aint)bytes, MPI_BYTE, 0, a);
    if (!err && copy)
        err = buf_unpack(copy, a->recvbuf, n, a->recvtype, a);
    buf_free(a, copy);
    return err;
}

int alltoall_linear(const struct coll_args *a)
{
    size_t bb = a->recvcount > 0 ? (size_t)a->recvcount * buf_type_size(a->recvtype) : 0;
    if (bb == 0)
        return MPI_SUCCESS;
    if (a->size == 1)
        return alltoall_core_copy_self(a);
    return a->rank == 0 ? relay_at_root(a, bb) : relay_through_root(a);
}
