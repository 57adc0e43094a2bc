/* allreduce_node_slices.c - allreduce for long vectors on nodes of k
 * ranks each: every rank of a node carries one slice of the vector across
 * the network, so all of a node's links and cores work.
 *
 *   node:   reduce_scatter into k slices, rank i keeps slice i   (intra)
 *   slice:  allreduce of slice i among the i-th ranks of all nodes (inter)
 *   node:   allgatherv of the k reduced slices                   (intra)
 *
 * Each level is run by the algorithm the tables choose for its group
 * (compose/steps.h, compose/sub.h). Equal nodes only (the slices of
 * all nodes must line up); non-commutative ops need ranks in blocks per
 * node (node order then slice order is then rank order).
 *
 * Cost (k ranks per node, N nodes) = Cost_i(reduce_scatter, n, k) +
 * Cost_e(allreduce, n/k, N) + Cost_i(allgatherv, n, k); with ring levels
 * 2(k-1) alpha_i + 2 n (k-1)/k beta_i + n (k-1)/k gamma
 * + 2(N-1) alpha_e + 2 n (N-1)/N beta_e + (n/k)(N-1)/N gamma per node link
 * (k slices of n/k each share it), against allreduce_node's n beta_e per
 * leader step with one core reducing: this wins once n beta_e dominates. */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

/* reduce_scatter of the vector in k slices in each node, allreduce of the
 * largest slice among the i-th ranks of the nodes (k such groups at once,
 * so a node's link carries k slices: beta_inter k times), allgatherv of
 * the slices in each node (its count: bytes, as the key's). */
double allreduce_node_slices_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1)
        return 0;
    struct cost_call node = model_node_level(c), slices = model_leader_level(c);
    struct machine_model shared = *m;
    shared.beta_inter *= c->ppn;
    int64_t slice = (c->count + c->ppn - 1) / c->ppn;
    node.coll = COLL_reduce_scatter;
    double reduce_scatter = model_best_step(&node, m);
    slices.coll = COLL_allreduce;
    slices.count = slice;
    slices.bytes = c->count > 0 ? c->bytes / (double)c->count * (double)slice : 0;
    double allreduce = model_best_step(&slices, &shared);
    node.coll = COLL_allgatherv;
    node.count = (int64_t)c->bytes;
    double allgatherv = model_best_step(&node, m);
    if (reduce_scatter < 0 || allreduce < 0 || allgatherv < 0)
        return COST_UNKNOWN;
    return reduce_scatter + allreduce + allgatherv;
}

int allreduce_node_slices(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), slices = node_group_slice(L);
    void *base = NULL, *slice;
    MPI_Aint *counts = sub_block_table(a, a->count, node.size);
    int err = MPI_SUCCESS;
    if (!counts)
        return MPI_ERR_NO_MEM;
    slice = buf_alloc(a, counts[node.rank], a->datatype, &base);
    if (!base && counts[node.rank] > 0)
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = step_reduce_scatter(a, &node, a->in_place ? a->recvbuf : a->sendbuf, slice,
                                  COLL_ARRAY(counts));
    if (!err)
        err = step_allreduce(a, &slices, MPI_IN_PLACE, slice, counts[node.rank]);
    if (!err)
        err = step_allgatherv(a, &node, slice, counts[node.rank], a->recvbuf,
                              COLL_ARRAY(counts), COLL_ARRAY(counts + node.size), a->datatype);
    buf_free(a, base);
    buf_free(a, counts);
    return err;
}
