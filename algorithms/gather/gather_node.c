/* gather_node.c - gather in two levels, for ranks in blocks per node (a
 * node's blocks are one contiguous run of the root's recvbuf):
 *
 *   node:            gather to the representative (the root on its own
 *                    node, the leader elsewhere)                  (intra)
 *   representatives: gatherv of the nodes' runs to the root       (inter)
 *
 * each run by the algorithm the tables choose for its group
 * (compose/steps.h), on a type of one rank's block: one message per node
 * reaches the root's node instead of one per rank.
 *
 * Cost (k ranks per node, N nodes, n bytes in all) = Cost_i(gather, nk/p, k)
 * + Cost_e(gatherv, n, N); binomial then linear levels:
 * lg k alpha_i + (k-1)/p n beta_i + (N-1) alpha_e + (N-1)/N n beta_e. */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"

int gather_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), reps = node_rooted_leaders(L, a->root);
    int is_root = a->rank == a->root, err;
    MPI_Datatype blk = MPI_DATATYPE_NULL;
    void *run, *base;
    if ((err = node_run(a, L, 1, &blk, &run, &base)))
        goto out;
    struct coll_args g = {.coll = COLL_gather, .sendbuf = a->sendbuf, .sendcount = a->sendcount,
                          .sendtype = a->sendtype, .recvbuf = run, .recvcount = 1,
                          .recvtype = blk, .root = node_rep_index(L, a->root)};
    if ((err = sub_collective(a, &node, &g)) || !node_is_rep(L, a->root))
        goto out;
    struct coll_args gv = {.coll = COLL_gatherv, .sendbuf = is_root ? MPI_IN_PLACE : run,
                           .sendcount = L->node_size[L->my_node], .sendtype = blk,
                           .recvbuf = a->recvbuf, .recvcounts = COLL_ARRAY(L->node_size),
                           .rdispls = COLL_ARRAY(L->node_start), .recvtype = blk,
                           .root = L->node_of[a->root]};
    err = sub_collective(a, &reps, &gv);
out:
    node_run_free(a, &blk, base);
    return err;
}
