/* allgather_blocks_linear.c - allgather(v) as a flat gather to rank 0, then a
 * flat broadcast of the whole receive buffer from it: the core of
 * allgather_linear and allgatherv_linear (allgather_blocks.h).
 *
 *   gather:  1, 2, ..., p-1 -> 0   (each block straight into its place)
 *   bcast:   0 -> 1, 2, ..., p-1   (all p blocks as one message)
 *
 * Blocks travel with each rank's own (count, recvtype), the broadcast as
 * all blocks in rank order (an indexed type where allgatherv's blocks are
 * not adjacent), so only type signatures must match between ranks. Every
 * rank knows every block's size, so empty blocks are not sent.
 *
 * Cost = 2 alpha + (p-1)/p n beta + (p - 1) n beta
 * Two rounds whatever p, 2 (p - 1) messages (Bruck: ceil(lg p) rounds, p
 * ceil(lg p) messages); every byte leaves rank 0 p - 1 times. Wins for
 * short blocks at small to moderate p where latency, or the number of
 * messages in flight, dominates. */
#include "algorithms/common/allgather_blocks.h"
#include "algorithms/common/bcast_tree.h"
#include "engine/buf.h"
#include "algorithms/common/linear_root.h"
#include "engine/p2p.h"

static int send_own(const struct coll_args *a, const struct allgather_blocks_layout *l)
{
    struct allgather_blocks_msg m;
    int err;
    if (!a->in_place)
        return buf_carries_data(a->sendcount, a->sendtype)
                   ? p2p_send(a->sendbuf, a->sendcount, a->sendtype, 0, a)
                   : MPI_SUCCESS;
    if ((err = allgather_blocks_msg_of(l, a->rank, 1, &m)))
        return err;
    if (buf_carries_data(m.count, m.type))
        err = p2p_send(m.origin, m.count, m.type, 0, a);
    allgather_blocks_msg_free(a, &m);
    return err;
}

int allgather_blocks_linear(const struct coll_args *a)
{
    struct allgather_blocks_layout l = allgather_blocks_layout_of(a);
    struct allgather_blocks_msg all;
    int err = MPI_SUCCESS;
    if (a->rank == 0)
        err = allgather_blocks_place_own(a, &l);
    if (err || a->size == 1)
        return err;
    struct linear_root_blocks blocks = {.buf = l.buf, .type = l.type, .count = l.count,
                                        .counts = l.counts, .displs = l.displs};
    err = a->rank == 0 ? linear_root_exchange(a, 0, &blocks, 0, 0) : send_own(a, &l);
    if (err || (err = allgather_blocks_msg_of(&l, 0, a->size, &all)))
        return err;
    err = bcast_tree_flat(all.origin, all.count, all.type, 0, a);
    allgather_blocks_msg_free(a, &all);
    return err;
}
