/* gather_binomial.c - binomial-tree gather.
 *
 * Over ranks relative to the root, rank rel collects the blocks of its
 * subtree [rel, rel + lowbit(rel)) from its children rel+1, rel+2, rel+4,
 * ... and sends them up to rel - lowbit(rel) as one message:
 *
 *   step 0:  1->0  3->2  5->4  7->6        (1 block each)
 *   step 1:  2->0  6->4                    (2 blocks)
 *   step 2:  4->0                          (4 blocks)
 *
 * Non-power-of-two p: subtrees are cut at p (the last child's subtree is
 * shorter), nothing else changes. Blocks are forwarded as packed bytes:
 * every rank packs only its own block with its own (sendcount, sendtype),
 * and the root unpacks relative blocks 1..p-1 into recvbuf with its
 * (recvcount, recvtype) - at most two unpacks, split where the relative
 * order wraps past rank p-1. Leaves with a contiguous sendtype send
 * straight from sendbuf; with root 0 and a contiguous recvtype the root
 * receives straight into recvbuf. In place at the root its block is
 * already in recvbuf and is left alone.
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

double gather_binomial_cost(const struct cost_call *c, const struct machine_model *m)
{
    return model_binomial_blocks(c, m);
}

/* Where this rank's subtree lands: the caller's buffer when the bytes can
 * go straight there, else NULL (then a temporary is used). */
static char *direct_stage(const struct coll_args *a, int nsub)
{
    if (a->rank == a->root)
        return a->root == 0
                   ? buf_contiguous_data(a->recvbuf, (MPI_Aint)a->size * a->recvcount, a->recvtype)
                   : NULL;
    return nsub == 1 ? buf_contiguous_data(a->sendbuf, a->sendcount, a->sendtype) : NULL;
}

static int collect(const struct coll_args *a, int rel, char *stage, size_t blk)
{
    MPI_Request reqs[32];
    int n, err = tree_bytes_post_children(a, rel, stage, blk, 0, reqs, &n);
    int err2 = p2p_waitall(a, n, reqs);
    return err ? err : err2;
}

static int own_block_at_root(const struct coll_args *a)
{
    if (a->in_place)
        return MPI_SUCCESS;
    return buf_copy(a->sendbuf, a->sendcount, a->sendtype,
                    buf_at(a->recvbuf, (MPI_Aint)a->root * a->recvcount, a->recvtype),
                    a->recvcount, a->recvtype, a);
}

int gather_binomial(const struct coll_args *a)
{
    int p = a->size, rel = pattern_rel(a->rank, a->root, p), is_root = a->rank == a->root;
    size_t blk = is_root ? tree_bytes_bytes(a->recvcount, a->recvtype)
                         : tree_bytes_bytes(a->sendcount, a->sendtype);
    int nsub = tree_bytes_subtree(rel, p), err = is_root ? own_block_at_root(a) : MPI_SUCCESS;
    if (err || p == 1 || blk == 0)
        return err;
    char *tmp = NULL, *stage = direct_stage(a, nsub);
    if (!stage && !(stage = tmp = buf_bytes(a, (size_t)nsub * blk)))
        return MPI_ERR_NO_MEM;
    if (tmp && !is_root)
        err = buf_pack(a->sendbuf, a->sendcount, a->sendtype, stage, a);
    if (!err)
        err = collect(a, rel, stage, blk);
    if (!err && !is_root)
        err = p2p_send(stage, (MPI_Aint)((size_t)nsub * blk), MPI_BYTE,
                         pattern_abs(pattern_binomial_parent(rel), a->root, p), a);
    if (!err && is_root && tmp)
        err =
            tree_bytes_unpack_rotated(stage, blk, 1, p, a, a->recvbuf, a->recvcount, a->recvtype);
    buf_free(a, tmp);
    return err;
}
