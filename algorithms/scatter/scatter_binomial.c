/* scatter_binomial.c - binomial-tree scatter.
 *
 * The mirror of gather_binomial: over ranks relative to the root, rank
 * rel receives the blocks of its subtree [rel, rel + lowbit(rel)) from
 * rel - lowbit(rel) and hands each child rel+m (m = lowbit/2, ..., 1) the
 * blocks of the child's subtree, largest first:
 *
 *   step 0:  0->4                          (4 blocks)
 *   step 1:  0->2  4->6                    (2 blocks)
 *   step 2:  0->1  2->3  4->5  6->7        (1 block each)
 *
 * Non-power-of-two p: subtrees are cut at p. Blocks travel as packed
 * bytes: the root packs relative blocks 1..p-1 of sendbuf with its
 * (sendcount, sendtype) - at most two packs, split where the relative
 * order wraps past rank p-1 - and every rank unpacks only its own block
 * into recvbuf with its own (recvcount, recvtype). With root 0 and a
 * contiguous sendtype the root sends straight from sendbuf; leaves with a
 * contiguous recvtype receive straight into recvbuf. In place at the root
 * (recvbuf = MPI_IN_PLACE) its block stays in sendbuf.
 *
 * Cost = lg(p) alpha + ((p-1)/p) n beta (+ n beta_mem packing at the root
 *        and inner nodes)
 * Wins for small and medium n: lg(p) latencies instead of p-1.
 * (Thakur, Rabenseifner and Gropp 2005.) */
#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/common/tree_bytes.h"

#include <stdlib.h>
#include "algorithms/model.h"

double scatter_binomial_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_binomial_blocks(c, m);
}

static char *direct_stage(const struct coll_args *a, int nsub)
{
    if (a->rank == a->root)
        return a->root == 0
                   ? buf_contiguous_data(a->sendbuf, (MPI_Aint)a->size * a->sendcount, a->sendtype)
                   : NULL;
    return nsub == 1 ? buf_contiguous_data(a->recvbuf, a->recvcount, a->recvtype) : NULL;
}

static int own_block_at_root(const struct coll_args *a)
{
    if (a->in_place)
        return MPI_SUCCESS;
    return buf_copy(buf_at(a->sendbuf, (MPI_Aint)a->root * a->sendcount, a->sendtype),
                    a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, a);
}

/* Fill the stage: the root packs, the others receive from their parent. */
static int fill(const struct coll_args *a, int rel, int nsub, char *stage, size_t blk, int packed)
{
    if (a->rank != a->root)
        return p2p_recv(stage, (MPI_Aint)((size_t)nsub * blk), MPI_BYTE,
                          pattern_abs(pattern_binomial_parent(rel), a->root, a->size), a);
    if (!packed)
        return MPI_SUCCESS;
    return tree_bytes_pack_rotated(a->sendbuf, a->sendcount, a->sendtype, 1, a->size, a, stage,
                                   blk);
}

/* Send the children their subtrees; meanwhile unpack this rank's block. */
static int spread(const struct coll_args *a, int rel, char *stage, size_t blk, int unpack_own)
{
    MPI_Request reqs[32];
    int n, err = tree_bytes_post_children(a, rel, stage, blk, 1, reqs, &n);
    if (!err && unpack_own)
        err = buf_unpack(stage, a->recvbuf, a->recvcount, a->recvtype, a);
    int err2 = p2p_waitall(a, n, reqs);
    return err ? err : err2;
}

int scatter_binomial(const struct coll_args *a)
{
    int p = a->size, rel = pattern_rel(a->rank, a->root, p), is_root = a->rank == a->root;
    size_t blk = is_root ? tree_bytes_bytes(a->sendcount, a->sendtype)
                         : tree_bytes_bytes(a->recvcount, a->recvtype);
    int nsub = tree_bytes_subtree(rel, p), err = is_root ? own_block_at_root(a) : MPI_SUCCESS;
    if (err || p == 1 || blk == 0)
        return err;
    char *tmp = NULL, *stage = direct_stage(a, nsub);
    if (!stage && !(stage = tmp = buf_bytes(a, (size_t)nsub * blk)))
        return MPI_ERR_NO_MEM;
    err = fill(a, rel, nsub, stage, blk, tmp != NULL);
    if (!err)
        err = spread(a, rel, stage, blk, tmp && !is_root);
    buf_free(a, tmp);
    return err;
}
