/* reduce_scatter_core_node.c - the node-aware reduce-scatter core
 * (reduce_scatter_core.h), for ranks in blocks per node (a node's blocks are
 * then one run of the vector):
 *
 *   node:    reduce of the whole vector to the leader          (intra)
 *   leaders: reduce_scatter, leader of node m keeping m's run  (inter)
 *   node:    scatterv of the run from the leader               (intra)
 *
 * each level run by the algorithm the tables choose for its group
 * (steps.h). Rank order: node order, then node number, is rank order, so
 * any op. The vector and each node's run must be at most INT_MAX
 * elements (an MPI_ERR_COUNT otherwise). */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/compose/steps.h"

#include <limits.h>

/* Elements of each node's run, then their displacements, in one buffer
 * (the run of member j of this node at displs[nodes + j]); -1 in *total
 * when a run or the vector passes INT_MAX elements. */
static int *node_runs(const struct coll_args *a, const struct node_layout *L, const int *counts,
                      long long *total)
{
    int nodes = L->shape.nodes, mine = L->node_size[L->my_node];
    int *runs = buf_bytes(a, ((size_t)nodes + mine) * sizeof *runs), *displs = runs + nodes;
    *total = 0;
    for (int n = 0; runs && n < nodes; n++) {
        long long run = 0;
        for (int i = L->node_start[n]; i < L->node_start[n + 1]; i++)
            run += counts[L->members[i]];
        runs[n] = run > INT_MAX ? 0 : (int)run;
        *total = run > INT_MAX || *total < 0 ? -1 : *total + run;
    }
    for (int j = 0, at = 0; runs && j < mine; j++) {
        displs[j] = at;
        at += counts[L->members[L->node_start[L->my_node] + j]];
    }
    if (*total > INT_MAX)
        *total = -1;
    return runs;
}

/* The leader reduces the node's vectors into full, then keeps its node's
 * run of the reduction across the leaders in run. */
static int reduce_to_run(const struct coll_args *a, const struct node_layout *L,
                         const int *runs, int total, void *run)
{
    struct sub_group node = node_group_mine(L), leaders = node_group_leaders(L);
    void *base = NULL, *full = NULL;
    int err = MPI_SUCCESS;
    if (L->my_index == 0 && (err = buf_alloc_checked(a, total, a->datatype, &full, &base)))
        return err;
    err = step_reduce(a, &node, reduce_scatter_core_source(a), full, total, 0);
    if (!err && L->my_index == 0)
        err = step_reduce_scatter(a, &leaders, full, run, runs);
    buf_free(a, base);
    return err;
}

int reduce_scatter_core_node(const struct coll_args *a, const int *counts)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L);
    long long total;
    int *runs = node_runs(a, L, counts, &total), err;
    void *base = NULL, *run = NULL;
    if (!runs)
        return MPI_ERR_NO_MEM;
    err = total < 0 ? MPI_ERR_COUNT : MPI_SUCCESS;
    if (!err && L->my_index == 0)
        err = buf_alloc_checked(a, runs[L->my_node], a->datatype, &run, &base);
    if (!err)
        err = reduce_to_run(a, L, runs, (int)total, run);
    struct coll_args sv = {.coll = COLL_scatterv, .sendbuf = run,
                           .sendcounts = counts + L->node_start[L->my_node],
                           .sdispls = runs + L->shape.nodes, .sendtype = a->datatype,
                           .recvbuf = a->recvbuf, .recvcount = counts[a->rank],
                           .recvtype = a->datatype, .root = 0};
    if (!err)
        err = sub_collective(a, &node, &sv);
    buf_free(a, base);
    buf_free(a, runs);
    return err;
}
