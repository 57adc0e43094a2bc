/* choose.c - the algorithm for a call: the first rule of the user's tables
 * and of the measured built-in rules that matches the call's key and
 * whose algorithm can run it (tuning/selector.c walks one table), else the
 * machine model's cheapest algorithm where it covers the call (model.c),
 * else the built-in table's rule; remembered per thread for the keys a
 * program repeats. */
#include "select/select.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long long select_calls[COLLSHIM_MAX_ALGORITHMS];
unsigned select_sources[COLLSHIM_MAX_ALGORITHMS];
const char *const select_source_names[SELECT_SOURCES] = {
    [SELECT_TUNE] = "COLLSHIM_TUNE",         [SELECT_FILE] = "table file",
    [SELECT_MEASURED] = "built-in, measured", [SELECT_BUILTIN] = "built-in",
    [SELECT_BY_MODEL] = "model",             [SELECT_BY_LEARNING] = "learned",
};
SHIM_TLS int select_last_alg = -1;
static struct select_settings choose_settings;

void select_configure(const struct select_settings *s) { choose_settings = *s; }

void select_note_source(int alg, int source)
{
    unsigned bit = source >= 0 ? 1u << source : 0;
    if (bit && !(__atomic_load_n(&select_sources[alg], __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(&select_sources[alg], bit, __ATOMIC_RELAXED);
}

void select_count(int alg)
{
    __atomic_fetch_add(&select_calls[alg], 1, __ATOMIC_RELAXED);
    select_last_alg = alg;
}

/* COLLSHIM_EXPLAIN: the rules of the walk that chose for key, each with
 * why it was skipped or taken (tune_explain), under its verbose line. */
static void explain_walk(const struct coll_key *key)
{
    const struct tune_table *tables[SELECT_TABLES];
    char walk[4096];
    size_t used;
    select_tables_enter(tables);
    tune_explain(tables, SELECT_BUILTIN, key, walk, sizeof walk);
    used = strlen(walk);
    select_model_explain(key, walk + used, sizeof walk - used);
    used = strlen(walk);
    tune_explain(&tables[SELECT_BUILTIN], 1, key, walk + used, sizeof walk - used);
    select_tables_leave();
    for (char *line = walk, *end; *line; line = end + 1) {
        if (!(end = strchr(line, '\n')))
            break;
        fprintf(stderr, "collshim:     %.*s\n", (int)(end - line), line);
    }
}

static const char *source_name(int source)
{
    return source >= 0 && source < SELECT_SOURCES ? select_source_names[source] : "no rule";
}

/* COLLSHIM_VERBOSE: one line the first time each (np, collective,
 * algorithm) runs in this process, from rank 0 of the communicator. */
static void verbose_line(const struct coll_args *a, int alg, int source, const struct coll_key *key)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct { int np, nodes, alg; } *seen;
    static int nseen, capseen;
    int found = 0;
    if (a->rank != 0)
        return;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nseen && !found; i++)
        found = seen[i].np == a->size && seen[i].nodes == a->shape.nodes && seen[i].alg == alg;
    if (!found) {
        if (nseen == capseen) {
            capseen = capseen ? 2 * capseen : 64;
            void *grown = realloc(seen, (size_t)capseen * sizeof *seen);
            if (!grown) {
                pthread_mutex_unlock(&lock);
                return;
            }
            seen = grown;
        }
        seen[nseen].np = a->size;
        seen[nseen].nodes = a->shape.nodes;
        seen[nseen++].alg = alg;
        char window[32];
        select_window_name(a->params.outstanding, window, sizeof window);
        if (a->remote_size) /* no node shape on an intercommunicator */
            fprintf(stderr, "collshim: %s inter np=%d remote=%d bytes=%llu -> %s%s (%s)\n",
                    coll_name(a->coll), a->size, a->remote_size, (unsigned long long)a->bytes,
                    registry_table[alg].name, window, source_name(source));
        else
            fprintf(stderr, "collshim: %s np=%d bytes=%llu nodes=%d ppn=%d%s%s%s -> %s%s (%s)\n",
                    coll_name(a->coll), a->size, (unsigned long long)a->bytes, a->shape.nodes,
                    a->shape.ppn, a->shape.equal ? "" : " unequal",
                    a->shape.block ? "" : " interleaved",
                    a->shape.ranks_per_core > 1 ? " oversubscribed" : "", registry_table[alg].name,
                    window, source_name(source));
        if (choose_settings.explain)
            explain_walk(key);
    }
    pthread_mutex_unlock(&lock);
}

/* The built-in table's choice, its source named as the walk counts it. */
static struct tune_choice builtin_choice(const struct tune_table *tables[SELECT_TABLES],
                                         const struct coll_key *key)
{
    struct tune_choice choice = tune_select(&tables[SELECT_BUILTIN], 1, key);
    choice.table = choice.rule ? SELECT_BUILTIN : -1;
    return choice;
}

/* The walk: the user's tables and the measured built-in rules, the
 * model, the built-in table. A step of a composed algorithm whose rule
 * names an algorithm it cannot run (the vendor, a node-aware one) takes
 * the built-in table's choice, which always has a native rule. */
struct tune_choice select_walk(const struct coll_key *key)
{
    const struct tune_table *tables[SELECT_TABLES];
    select_tables_enter(tables);
    struct tune_choice choice = tune_select(tables, SELECT_BUILTIN, key);
    if (!choice.rule && !select_model_choose(key, &choice))
        choice = builtin_choice(tables, key);
    if (key->sub && !registry_can_run(&registry_table[choice.alg], key, NULL))
        choice = builtin_choice(tables, key);
    select_tables_leave();
    choice.rule = NULL; /* the table may be freed once left */
    return choice;
}

/* The choices this thread made last, one per slot, valid while the tables
 * are those of `generation` (0: empty). A program repeats a few keys; the
 * walk over the rules and their restrictions was about a quarter of an
 * 8-byte call under the built-in table (perf, np 1), a lookup here costs a
 * key comparison. */
#define REMEMBERED 8
static SHIM_TLS struct remembered_choice {
    struct coll_key key;
    struct tune_choice choice;
    unsigned long generation;
} remembered[REMEMBERED];

static struct tune_choice select_remembered(const struct coll_key *key)
{
    unsigned long generation = select_tables_generation() + 1;
    struct remembered_choice *slot = &remembered[coll_key_hash(key) % REMEMBERED];
    if (slot->generation == generation && !memcmp(&slot->key, key, sizeof *key))
        return slot->choice;
    slot->choice = select_walk(key);
    select_note_source(slot->choice.alg, slot->choice.table);
    slot->key = *key;
    slot->generation = generation;
    return slot->choice;
}

struct tune_choice select_choose(struct coll_args *a, int nonblocking, int sub)
{
    struct coll_key key = select_key(a);
    key.nonblocking = nonblocking != 0;
    key.sub = sub != 0;
    struct tune_choice choice = select_remembered(&key);
    a->params = choice.params;
    if (choose_settings.verbose)
        verbose_line(a, choice.alg, choice.table, &key);
    return choice;
}
