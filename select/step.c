/* step.c - a collective as a step of a composed algorithm
 * (algorithms/compose/sub.h): selected like a call of the user's, on a
 * group that has no communicator of its own. */
#include "select/select.h"
#include "algorithms/compose/sub.h"

int select_step(const struct coll_args *parent, const struct sub_group *g,
                struct coll_args *sub)
{
    sub->comm = parent->comm;
    sub->user_comm = parent->user_comm;
    sub->tag = parent->tag;
    sub->rank = g->rank;
    sub->size = g->size;
    sub->peers = g->peers;
    sub->remote_size = 0; /* a group step is an intracommunicator collective */
    sub->local_peers = NULL;
    sub->alias_in_place = 0;
    sub->layout = g->layout;
    sub->shape = g->shape;
    if (!g->shape.nodes) /* unknown: one node, which no node-aware algorithm takes */
        sub->shape = node_shape_make(1, g->size, 1, 1);
    /* the group's ranks share the cores the call's ranks do */
    sub->shape.ranks_per_core = parent->shape.ranks_per_core;
    select_call_facts(sub);
    sub->bytes = select_key_bytes(sub);
    sub->sched = parent->sched; /* a step of a recorded call is recorded */
    sub->env = parent->env;
    struct tune_choice choice = select_choose(sub, sub->sched != NULL, 1);
    const struct algorithm *alg = &registry_table[choice.alg];
    if (alg->restrictions & ALG_NEEDS_CONTEXT) /* the built-in table lacks a rule */
        return MPI_ERR_INTERN;
    /* counted as a run of its own, but the call's algorithm stays the one
       collshim_last_algorithm() names (the composed one, not its last step) */
    int call_alg = select_last_alg;
    select_count(choice.alg);
    int err = alg->run(sub);
    select_last_alg = call_alg;
    return err;
}
