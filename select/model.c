/* model.c - the machine model's choice: where no rule of the user's tables
 * (nor a measured built-in one) covers a call on a communicator that spans
 * nodes, the modelled algorithm of least predicted cost that can run it
 * (doc/model.md). The shim measures the model and hands it here once, in
 * MPI_Init, before any call selects. */
#include "select/select.h"
#include "algorithms/model.h"

#include <stdio.h>
#include <string.h>

static struct machine_model model;
static int model_everywhere; /* 0: calls with one rank per node only */
static unsigned long model_generation = 1; /* bumped by each select_model_set */
static unsigned long evaluations;          /* choices computed, not remembered */

/* The model's choices this thread made, one per slot (alg -1: the model
 * has none), valid while the model is that of `generation` and the
 * tables those of `tables`: a composed algorithm is priced at the steps
 * the tables choose (step_choice), so a choice made under other tables
 * may differ, and would differ between the ranks that remembered it and
 * those that did not. Every modelled row's cost for one key takes about
 * 2 us (allreduce, 8 ranks), twenty times the shim's budget for a whole
 * call; a program whose keys outnumber select_remembered's slots, and the
 * steps of a composed algorithm, would pay it on every call. */
#define MODEL_REMEMBERED 64
static SHIM_TLS struct model_choice {
    struct coll_key key;
    int alg;
    struct coll_params params;
    unsigned long generation, tables;
} remembered[MODEL_REMEMBERED];

/* What runs a step of a composed algorithm (model_step_choice): the
 * walk's choice, as select_step makes it. */
static int step_choice(const struct coll_key *key, struct coll_params *params)
{
    struct tune_choice choice = select_walk(key);
    *params = choice.params;
    return choice.alg;
}

void select_model_set(const struct machine_model *m, int everywhere)
{
    model_set_step_choice(step_choice);
    model = *m;
    model_everywhere = everywhere;
    __atomic_fetch_add(&model_generation, 1, __ATOMIC_RELEASE);
}

unsigned long select_model_evaluations(void)
{
    return __atomic_load_n(&evaluations, __ATOMIC_RELAXED);
}

static struct cost_call cost_call_of(const struct coll_key *key)
{
    struct cost_call c = {.coll = key->coll, .p = key->np, .nodes = key->shape.nodes,
                          .ppn = key->shape.ppn, .block = key->shape.block,
                          .equal = key->shape.equal, .bytes = (double)key->bytes,
                          .count = key->count};
    return c;
}

/* The model covers intracommunicator calls that span nodes (with one
 * rank on each unless told otherwise), whose bytes every rank knows (not
 * those of alltoallv, alltoallw, gatherv, scatterv). */
static int model_covers(const struct coll_key *key)
{
    return model.valid && !key->inter && key->shape.nodes >= 2 &&
           (model_everywhere || key->shape.ppn == 1) &&
           (key->bytes > 0 || key->coll == COLL_barrier);
}

double select_model_cost(int alg, const struct coll_key *key, int *outstanding)
{
    struct cost_call c = cost_call_of(key);
    int window = 0;
    double cost = model_covers(key) ? model_cheapest_window(alg, key, &c, &model, &window)
                                    : COST_UNKNOWN;
    if (outstanding)
        *outstanding = window;
    return cost;
}

/* The row of least predicted cost for key, or -1, and its parameters; a
 * step's among those that run as steps (which price no steps of their
 * own, so pricing a composed algorithm's steps does not recurse). */
static int cheapest_row(const struct coll_key *key, struct coll_params *params)
{
    struct cost_call c = cost_call_of(key);
    __atomic_fetch_add(&evaluations, 1, __ATOMIC_RELAXED);
    return model_cheapest(key, &c, &model, key->sub, NULL, params);
}

int select_model_choose(const struct coll_key *key, struct tune_choice *choice)
{
    if (!model_covers(key))
        return 0;
    unsigned long generation = __atomic_load_n(&model_generation, __ATOMIC_ACQUIRE);
    unsigned long tables = select_tables_generation();
    struct model_choice *slot = &remembered[coll_key_hash(key) % MODEL_REMEMBERED];
    if (slot->generation != generation || slot->tables != tables ||
        memcmp(&slot->key, key, sizeof *key)) {
        slot->alg = cheapest_row(key, &slot->params);
        slot->key = *key;
        slot->generation = generation;
        slot->tables = tables;
    }
    if (slot->alg < 0)
        return 0;
    choice->alg = slot->alg;
    choice->params = slot->params;
    choice->rule = NULL;
    choice->table = SELECT_BY_MODEL;
    return 1;
}

const char *select_window_name(int outstanding, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (outstanding)
        snprintf(buf, len, ":outstanding=%d", outstanding);
    return buf;
}

void select_model_explain(const struct coll_key *key, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (!model_covers(key))
        return;
    struct cost_call c = cost_call_of(key);
    used += (size_t)snprintf(buf, len, "model, predicted us:");
    for (int i = 0; i < registry_count && used < len; i++) {
        int window;
        char named[32];
        double cost = model_cheapest_window(i, key, &c, &model, &window);
        if (cost >= 0)
            used += (size_t)snprintf(buf + used, len - used, " %s%s %.1f", registry_table[i].name,
                                     select_window_name(window, named, sizeof named), cost * 1e6);
    }
    if (used < len)
        snprintf(buf + used, len - used, "\n");
}
