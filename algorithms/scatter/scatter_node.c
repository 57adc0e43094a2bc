/* scatter_node.c - scatter in two levels, for ranks in blocks per node (a
 * node's blocks are one contiguous run of the root's sendbuf):
 *
 *   representatives: scatterv of the nodes' runs from the root   (inter)
 *                    (representative: the root on its own node, the
 *                    leader elsewhere)
 *   node:            scatter from the representative             (intra)
 *
 * each run by the algorithm the tables choose for its group
 * (compose/steps.h), on a type of one rank's block: one message per node
 * leaves the root's node instead of one per rank.
 *
 * Cost (k ranks per node, N nodes, n bytes in all) = Cost_e(scatterv, n, N)
 * + Cost_i(scatter, nk/p, k); linear then binomial levels:
 * (N-1) alpha_e + (N-1)/N n beta_e + lg k alpha_i + (k-1)/p n beta_i. */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"

int scatter_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), reps = node_rooted_leaders(L, a->root);
    int is_root = a->rank == a->root, err;
    MPI_Datatype blk = MPI_DATATYPE_NULL;
    void *run, *base;
    if ((err = node_run(a, L, 0, &blk, &run, &base)))
        goto out;
    if (node_is_rep(L, a->root)) {
        struct coll_args sv = {.coll = COLL_scatterv, .sendbuf = a->sendbuf,
                               .sendcounts = COLL_ARRAY(L->node_size),
                               .sdispls = COLL_ARRAY(L->node_start),
                               .sendtype = blk, .recvbuf = is_root ? MPI_IN_PLACE : run,
                               .recvcount = L->node_size[L->my_node], .recvtype = blk,
                               .root = L->node_of[a->root]};
        if ((err = sub_collective(a, &reps, &sv)))
            goto out;
    }
    struct coll_args s = {.coll = COLL_scatter, .sendbuf = run, .sendcount = 1, .sendtype = blk,
                          .recvbuf = a->recvbuf, .recvcount = a->recvcount,
                          .recvtype = a->recvtype, .root = node_rep_index(L, a->root)};
    err = sub_collective(a, &node, &s);
out:
    node_run_free(a, &blk, base);
    return err;
}
