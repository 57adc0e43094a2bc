/* allgather_neighbor_exchange.c - neighbor exchange (Chen et al. 2005).
 *
 * Ranks pair up (2q, 2q+1). Step 0 swaps blocks inside each pair; from
 * then on every rank sends the pair of blocks it received in the previous
 * step, alternating between the rank across the left or right pair
 * border (odd steps) and its pair partner (even steps); p/2 steps in all:
 *
 *   p = 6   step 0: 0<->1 2<->3 4<->5   (own block)
 *           step 1: 1<->2 3<->4 5<->0   (own pair)
 *           step 2: 0<->1 2<->3 4<->5   (pair received at step 1)
 *
 * A pair of blocks is one contiguous message of 2 recvcount elements in
 * recvbuf. Needs an even p (ALG_NEEDS_EVEN_NP).
 *
 * Cost = (p/2) alpha + ((p-1)/p) n beta
 * Half the latencies of the ring at the same bandwidth, every message
 * between neighbours: wins for medium and large n at even p. */
#include "algorithms/common/allgather_blocks.h"
#include "algorithms/patterns/allgather_pattern.h"
#include "algorithms/model.h"

/* Step 0: one block with the pair partner (r xor 1); then p/2 - 1 steps of
 * two blocks, odd ones across the pair border (a shift by one, which
 * crosses node boundaries), even ones with the partner again. Across the
 * pair border a node of several ranks in blocks swaps at both its ends,
 * its first rank with the node before and its last with the node after.
 * Where one link carries both (one NIC, as on a fat tree), it carries two
 * such messages each way where a ring's shift carries one: priced as one,
 * on SMPI's fat tree at 16 hosts of 4 it measured 1.42-1.52x its
 * prediction from 64 KiB to 1 MiB blocks and ran at 1.10-1.45x the ring
 * (results/model.md). The two go to different nodes, so the second's
 * bytes cost what a parent's second message to another node adds
 * (fan_share, where measured; a whole message elsewhere): on SMPI's torus,
 * whose hosts send on a link per direction, priced as two it measured
 * 0.76 and 0.56x its prediction at 64 hosts of 4 with 1 and 16 KiB
 * blocks. */
double allgather_neighbor_exchange_cost(const struct cost_call *c, const struct machine_model *m)
{
    double block = c->bytes / c->p, cost;
    int two_ends = c->nodes > 1 && c->block && c->ppn > 1; /* a node's messages across */
    double ends = two_ends ? 1 + (m->fan_nodes > 0 ? m->fan_share : 1) : 1;
    if (c->p <= 1)
        return 0;
    cost = model_exchange(c, m, block, 1);
    for (int step = 1; step < c->p / 2; step++)
        cost += step % 2 ? model_shift(c, m, ends * 2 * block, 1)
                         : model_exchange(c, m, 2 * block, 1);
    return cost;
}

int allgather_neighbor_exchange(const struct coll_args *a)
{
    struct allgather_blocks_layout l = allgather_blocks_layout_of(a);
    int r = a->rank, p = a->size, partner = allgather_pattern_nx_peer(r, 0, p);
    int err = allgather_blocks_place_own(a, &l), sent = r / 2;
    if (!err)
        err = allgather_blocks_exchange(a, &l, r, 1, partner, partner, 1, partner);
    for (int s = 1; s < p / 2 && !err; s++) {
        int peer = allgather_pattern_nx_peer(r, s, p),
            got = allgather_pattern_nx_recv_pair(r, s, p);
        err = allgather_blocks_exchange(a, &l, 2 * sent, 2, peer, 2 * got, 2, peer);
        sent = got;
    }
    return err;
}
