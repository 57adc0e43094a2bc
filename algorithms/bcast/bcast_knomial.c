/* bcast_knomial.c - k-nomial tree broadcast of the whole message, radix 4.
 *
 * Relative rank rel = (rank - root) mod p, written in base k = 4. A rank
 * receives from the rank that clears its lowest non-zero digit, then sends
 * to rel + j k^i (j = 1 .. k-1) for every digit position i below that one,
 * the largest subtrees first:
 *
 *   p = 16:  0 -> 4, 8, 12, 1, 2, 3     4 -> 5, 6, 7     8 -> 9, 10, 11  ...
 *
 * ceil(log_k p) levels instead of binomial's ceil(lg p), each costing a
 * parent k - 1 sends: with a per-message overhead o (LogP) a level costs
 * about alpha + (k - 1) (o + n beta), so for short messages, where alpha is
 * several o, half the levels of a binomial tree win. On ranks laid out in
 * blocks of nodes the first level reaches k - 1 nodes at once and the
 * levels below stay in the node (the k - 1 sends of the root's first level
 * are its only trips over the network when p <= k^2 nodes' worth).
 * Radix 4 is the k-nomial radix Open MPI's tuned bcast and MVAPICH2's
 * intra-node bcast use by default. Measured on SMPI's fat tree at p = 64
 * (results/scale.md): the tree SMPI's Open MPI selection picks there.
 *
 * Cost = ceil(log_4 p) (alpha + 3 n beta)
 * Any p: children >= p do not exist. Each rank uses its own (count, type),
 * as in MPI_Bcast. */
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "algorithms/common/tree_send.h"
#include "algorithms/model.h"

enum { KNOMIAL_RADIX = 4, KNOMIAL_MAX_CHILDREN = (KNOMIAL_RADIX - 1) * 16 };

/* Level `level`: a parent sends the message to its up to radix - 1
 * children rel + j level, all inside its aligned group of radix level =
 * 4 level ranks (model_tree's pair at distance 2 level). Where the
 * messages leave at once (model_fans), every level of them does
 * (model_fan_tree): sharing one link and arriving together, ceil(log_4
 * p) alpha + 3 L (L + 1) / 2 n beta; on SMPI's fat tree at 64 hosts and
 * 8 KiB, 15.7 us measured against 10.4 priced a level at a time
 * (results/model.md). */
double bcast_knomial_cost(const struct cost_call *c, const struct machine_model *m)
{
    double cost = 0;
    if (c->bytes <= 0)
        return 0;
    if (model_fans(m, c->bytes))
        return model_fan_tree(c, m, KNOMIAL_RADIX, 2);
    for (long level = 1; level < c->p; level *= KNOMIAL_RADIX) {
        long children = (c->p - 1) / level;
        if (children > KNOMIAL_RADIX - 1)
            children = KNOMIAL_RADIX - 1;
        cost += model_tree(c, m, c->bytes, (int)(2 * level), (int)children);
    }
    return cost;
}

/* The k^i at which rel receives (its lowest non-zero digit's weight), or
 * the first power of k >= p for the root. */
static long receive_level(int rel, int p)
{
    long mask = 1;
    while (mask < p && rel % (mask * KNOMIAL_RADIX) == 0)
        mask *= KNOMIAL_RADIX;
    return mask;
}

/* Send to the k - 1 children rel + j m of one level, whose subtrees are
 * equal (but for a last, cut short by p): those on this node get isends in near[(*nnear)++], waited for
 * at the end; those on other nodes are posted together and waited for
 * here, before the next, smaller level (common/tree_send.h). */
static int send_level(const struct coll_args *a, int rel, long m, MPI_Request *near, int *nnear)
{
    MPI_Request far[KNOMIAL_RADIX - 1];
    int p = a->size, nfar = 0, err = MPI_SUCCESS;
    for (int j = 1; j < KNOMIAL_RADIX && !err && rel + j * m < p; j++) {
        int child = pattern_abs((int)(rel + j * m), a->root, p);
        int here = tree_same_node(child, a);
        MPI_Request *req = here ? &near[*nnear] : &far[nfar];
        if ((err = p2p_isend(a->recvbuf, a->count, a->datatype, child, a, req)))
            break;
        if (here)
            (*nnear)++;
        else
            nfar++;
    }
    int werr = p2p_waitall(a, nfar, far);
    return err ? err : werr;
}

int bcast_knomial(const struct coll_args *a)
{
    MPI_Request near[KNOMIAL_MAX_CHILDREN];
    int p = a->size, root = a->root, rel = pattern_rel(a->rank, root, p), n = 0, err = MPI_SUCCESS;
    if (p == 1 || !buf_carries_data(a->count, a->datatype))
        return MPI_SUCCESS;
    long level = receive_level(rel, p);
    if (rel != 0) {
        int parent = (int)(rel - rel % (level * KNOMIAL_RADIX));
        if ((err = p2p_recv(a->recvbuf, a->count, a->datatype, pattern_abs(parent, root, p), a)))
            return err;
    }
    for (long m = level / KNOMIAL_RADIX; m >= 1 && !err; m /= KNOMIAL_RADIX)
        err = send_level(a, rel, m, near, &n);
    int werr = p2p_waitall(a, n, near);
    return err ? err : werr;
}
