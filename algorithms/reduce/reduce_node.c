/* reduce_node.c - reduce in two levels: inside each node to its
 * representative (the root on its own node, the leader elsewhere), then
 * among the representatives to the root; each level run by the algorithm
 * the tables choose for its group (compose/steps.h).
 *
 *   node:            reduce to the representative  (intra-node)
 *   representatives: reduce to the root            (inter-node)
 *
 * Rank order: with ranks in blocks per node, node order then node
 * number is rank order, so non-commutative ops need a block layout.
 *
 * Cost (k ranks per node, N nodes) = Cost_i(reduce, k) + Cost_e(reduce, N);
 * binomial levels lg k (alpha_i + n beta_i + n gamma) + lg N (alpha_e +
 * n beta_e + n gamma), one message per node on the network. */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

double reduce_node_cost(const struct cost_call *c, const struct machine_model *m)
{
    const struct model_step steps[] = {{0, COLL_reduce, MODEL_CALL_BYTES},
                                       {1, COLL_reduce, MODEL_CALL_BYTES}};
    return c->p <= 1 ? 0 : model_steps(c, m, steps, 2);
}

int reduce_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), reps = node_rooted_leaders(L, a->root);
    int is_root = a->rank == a->root, rep = node_is_rep(L, a->root), err = MPI_SUCCESS;
    void *base = NULL, *partial = is_root ? a->recvbuf : NULL;
    if (rep && !is_root && (err = buf_alloc_checked(a, a->count, a->datatype, &partial, &base)))
        return err;
    err = step_reduce(a, &node, is_root && a->in_place ? MPI_IN_PLACE : a->sendbuf, partial,
                      a->count, node_rep_index(L, a->root));
    if (!err && rep)
        err = step_reduce(a, &reps, is_root ? MPI_IN_PLACE : partial, a->recvbuf, a->count,
                          L->node_of[a->root]);
    buf_free(a, base);
    return err;
}
