/* barrier_node.c - barrier in three levels: inside each node, among the
 * node leaders, inside each node again; each level run by the algorithm
 * the tables choose for its group (compose/steps.h). No rank leaves the
 * last level before its leader has left the leaders' barrier, which no
 * leader leaves before every node has passed the first level.
 *
 * Cost (k ranks per node, N nodes) = 2 Cost_i(barrier, k) + Cost_e(barrier, N);
 * dissemination levels: 2 ceil(lg k) alpha_i + ceil(lg N) alpha_e, against
 * flat dissemination's ceil(lg kN) rounds, most of them across the
 * network with k ranks per node sending at once. */
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

double barrier_node_cost(const struct cost_call *c, const struct machine_model *m)
{
    const struct model_step steps[] = {
        {0, COLL_barrier, 0}, {1, COLL_barrier, 0}, {0, COLL_barrier, 0}};
    return c->p <= 1 ? 0 : model_steps(c, m, steps, 3);
}

int barrier_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), leaders = node_group_leaders(L);
    int err = step_barrier(a, &node);
    if (!err && L->my_index == 0)
        err = step_barrier(a, &leaders);
    return err ? err : step_barrier(a, &node);
}
