/* bcast_tree.c - binomial-tree broadcast (see bcast_tree.h).
 *
 * Relative rank rel = (rank - root) mod p. A rank receives from the rank
 * that clears its lowest set bit, then sends to rel + m for the powers of
 * two m below its lowest set bit, the largest subtree first:
 *
 *   p = 8:   0 -> 4, 2, 1      4 -> 6, 5      2 -> 3      6 -> 7
 *
 * Any p works: children >= p are skipped. lg p rounds deep.
 * Cost = ceil(lg p) (alpha + n beta) */
#include "algorithms/common/bcast_tree.h"

#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "engine/scratch.h"
#include "algorithms/common/tree_send.h"

#include <stdlib.h>

#define BCAST_TREE_MAX_CHILDREN 32

/* Receive from the parent, then send to the children, largest subtree
 * first: those on other nodes one at a time, those on this node posted
 * together (tree_send_child says why). */
static int tree_down(void *buf, MPI_Aint count, MPI_Datatype type, int root,
                     const struct coll_args *a)
{
    MPI_Request reqs[BCAST_TREE_MAX_CHILDREN];
    int p = a->size, rel = pattern_rel(a->rank, root, p), n = 0, err = MPI_SUCCESS;
    if (rel != 0 &&
        (err = p2p_recv(buf, count, type, pattern_abs(pattern_binomial_parent(rel), root, p), a)))
        return err;
    for (int m = pattern_binomial_mask(rel, p) / 2; m > 0 && !err; m /= 2)
        if (rel + m < p)
            err = tree_send_child(buf, count, type, pattern_abs(rel + m, root, p), a, reqs, &n);
    int werr = p2p_waitall(a, n, reqs);
    return err ? err : werr;
}

int bcast_tree_binomial(void *buf, MPI_Aint count, MPI_Datatype type, int root,
                        const struct coll_args *a)
{
    if (a->size == 1 || !buf_carries_data(count, type))
        return MPI_SUCCESS;
    return tree_down(buf, count, type, root, a);
}

int bcast_tree_flat(void *buf, MPI_Aint count, MPI_Datatype type, int root,
                    const struct coll_args *a)
{
    int p = a->size, n = 0, err = MPI_SUCCESS;
    if (p == 1 || !buf_carries_data(count, type))
        return MPI_SUCCESS;
    if (a->rank != root)
        return p2p_recv(buf, count, type, root, a);
    MPI_Request *reqs = scratch_get((size_t)(p - 1) * sizeof *reqs);
    if (!reqs)
        return MPI_ERR_NO_MEM;
    for (int rel = 1; rel < p && !err; rel++)
        if (!(err = p2p_isend(buf, count, type, pattern_abs(rel, root, p), a, &reqs[n])))
            n++;
    int werr = p2p_waitall(a, n, reqs);
    scratch_put(reqs);
    return err ? err : werr;
}

int bcast_tree_release(int root, const struct coll_args *a)
{
    return a->size == 1 ? MPI_SUCCESS : tree_down(NULL, 0, MPI_BYTE, root, a);
}
