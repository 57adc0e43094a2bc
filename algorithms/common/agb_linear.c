/* agb_linear.c - allgather(v) as a flat gather to rank 0, then a flat
 * broadcast of the whole receive buffer from it: the core of
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
#include "allgather_blocks.h"
#include "bcast_tree.h"
#include "buf.h"
#include "p2p.h"

#include <stdlib.h>

static int send_own(const struct coll_args *a, const struct agb_layout *l)
{
    struct agb_msg m;
    int err;
    if (!a->in_place)
        return a->sendcount > 0 && buf_type_size(a->sendtype) > 0
                   ? p2p_send(a->sendbuf, a->sendcount, a->sendtype, 0, a)
                   : MPI_SUCCESS;
    if ((err = agb_msg_of(l, a->rank, 1, &m)))
        return err;
    if (m.count > 0 && buf_type_size(m.type) > 0)
        err = p2p_send(m.origin, m.count, m.type, 0, a);
    agb_msg_free(&m);
    return err;
}

/* Rank 0: every other rank's non-empty block, all receives in flight. */
static int receive_all(const struct coll_args *a, const struct agb_layout *l)
{
    int p = a->size, n = 0, err = MPI_SUCCESS;
    MPI_Request *reqs = malloc((size_t)p * sizeof *reqs);
    struct agb_msg *msgs = calloc((size_t)p, sizeof *msgs);
    if (!reqs || !msgs)
        err = MPI_ERR_NO_MEM;
    for (int r = 1; r < p && !err; r++) {
        if (agb_block_count(l, r) == 0 || buf_type_size(l->type) == 0)
            continue;
        if ((err = agb_msg_of(l, r, 1, &msgs[n])))
            break;
        if ((err = p2p_irecv(msgs[n].origin, msgs[n].count, msgs[n].type, r, a, &reqs[n])))
            agb_msg_free(&msgs[n]);
        else
            n++;
    }
    int werr = p2p_waitall(n, reqs);
    for (int i = 0; i < n; i++)
        agb_msg_free(&msgs[i]);
    free(reqs);
    free(msgs);
    return err ? err : werr;
}

int agb_linear(const struct coll_args *a)
{
    struct agb_layout l = agb_layout_of(a);
    struct agb_msg all;
    int err = MPI_SUCCESS;
    if (a->rank == 0)
        err = agb_place_own(a, &l);
    if (err || a->size == 1)
        return err;
    err = a->rank == 0 ? receive_all(a, &l) : send_own(a, &l);
    if (err || (err = agb_msg_of(&l, 0, a->size, &all)))
        return err;
    err = bcast_tree_flat(all.origin, all.count, all.type, 0, a);
    agb_msg_free(&all);
    return err;
}
