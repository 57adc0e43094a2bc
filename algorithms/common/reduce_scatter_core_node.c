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
 * any op. */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/common/reduce_scatter_core.h"
#include "algorithms/compose/steps.h"

/* Elements of each node's run, then their displacements, in one buffer
 * (the run of member j of this node at displs[nodes + j]); the whole
 * vector's in *total. */
static MPI_Aint *node_runs(const struct coll_args *a, const struct node_layout *L,
                           struct coll_array counts, MPI_Aint *total)
{
    int nodes = L->shape.nodes, mine = L->node_size[L->my_node];
    MPI_Aint *runs = buf_bytes(a, ((size_t)nodes + mine) * sizeof *runs), *displs = runs + nodes;
    *total = 0;
    for (int n = 0; runs && n < nodes; n++) {
        runs[n] = 0;
        for (int i = L->node_start[n]; i < L->node_start[n + 1]; i++)
            runs[n] += coll_array_at(counts, L->members[i]);
        *total += runs[n];
    }
    MPI_Aint at = 0;
    for (int j = 0; runs && j < mine; j++) {
        displs[j] = at;
        at += coll_array_at(counts, L->members[L->node_start[L->my_node] + j]);
    }
    return runs;
}

/* The leader reduces the node's vectors into full, then keeps its node's
 * run of the reduction across the leaders in run. */
static int reduce_to_run(const struct coll_args *a, const struct node_layout *L,
                         const MPI_Aint *runs, MPI_Aint total, void *run)
{
    struct sub_group node = node_group_mine(L), leaders = node_group_leaders(L);
    void *base = NULL, *full = NULL;
    int err = MPI_SUCCESS;
    if (L->my_index == 0 && (err = buf_alloc_checked(a, total, a->datatype, &full, &base)))
        return err;
    err = step_reduce(a, &node, reduce_scatter_core_source(a), full, total, 0);
    if (!err && L->my_index == 0)
        err = step_reduce_scatter(a, &leaders, full, run, COLL_ARRAY(runs));
    buf_free(a, base);
    return err;
}

int reduce_scatter_core_node(const struct coll_args *a, struct coll_array counts)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L);
    MPI_Aint total;
    MPI_Aint *runs = node_runs(a, L, counts, &total);
    void *base = NULL, *run = NULL;
    int err = MPI_SUCCESS;
    if (!runs)
        return MPI_ERR_NO_MEM;
    if (L->my_index == 0)
        err = buf_alloc_checked(a, runs[L->my_node], a->datatype, &run, &base);
    if (!err)
        err = reduce_to_run(a, L, runs, total, run);
    struct coll_args sv = {.coll = COLL_scatterv, .sendbuf = run,
                           .sendcounts = coll_array_from(counts, L->node_start[L->my_node]),
                           .sdispls = COLL_ARRAY(runs + L->shape.nodes), .sendtype = a->datatype,
                           .recvbuf = a->recvbuf, .recvcount = coll_array_at(counts, a->rank),
                           .recvtype = a->datatype, .root = 0};
    if (!err)
        err = sub_collective(a, &node, &sv);
    buf_free(a, base);
    buf_free(a, runs);
    return err;
}
