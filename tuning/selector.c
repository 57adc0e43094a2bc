/* selector.c - walk the tables in order of precedence and pick the first
 * rule that matches the call and whose algorithm can run it. */
#include "tuning/tuning.h"
#include "algorithms/registry.h"

#include <stdio.h>

static int rule_fits(const struct tune_rule *r, const struct coll_key *k)
{
    return r->coll == k->coll && k->np >= r->np_lo && k->np <= r->np_hi &&
           k->shape.nodes >= r->nodes_lo && k->shape.nodes <= r->nodes_hi &&
           k->shape.ppn >= r->ppn_lo && k->shape.ppn <= r->ppn_hi &&
           k->shape.ranks_per_core >= r->ranks_per_core_lo &&
           k->shape.ranks_per_core <= r->ranks_per_core_hi &&
           k->bytes >= r->bytes_lo && k->bytes < r->bytes_hi && r->inter == (int)k->inter &&
           (!k->inter || (k->remote >= r->remote_lo && k->remote <= r->remote_hi));
}

/* Pass 0 of a nonblocking call takes only i-rules, pass 1 the blocking
 * rules; a blocking call has pass 1 only. */
static int rule_matches_pass(const struct tune_rule *r, const struct coll_key *k, int pass)
{
    return rule_fits(r, k) && r->nonblocking == (pass == 0);
}

static int first_pass(const struct coll_key *k) { return k->nonblocking ? 0 : 1; }

struct tune_choice tune_select(const struct tune_table *const *tables,
                               int ntables, const struct coll_key *key)
{
    struct tune_choice choice = {registry_vendor(key->coll), {0, 0}, NULL, -1};
    for (int t = 0; t < ntables; t++) {
        if (!tables[t])
            continue;
        for (int pass = first_pass(key); pass < 2; pass++)
        for (int i = tables[t]->first_of_coll[key->coll]; i; i = tables[t]->rules[i - 1].next_same_coll) {
            const struct tune_rule *r = &tables[t]->rules[i - 1];
            if (!rule_matches_pass(r, key, pass) ||
                !registry_can_run(&registry_table[r->alg], key, NULL))
                continue;
            choice.alg = r->alg;
            choice.params = r->params;
            choice.rule = r;
            choice.table = t;
            return choice;
        }
    }
    return choice;
}

void tune_explain(const struct tune_table *const *tables, int ntables,
                  const struct coll_key *key, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < ntables; t++) {
        for (int pass = first_pass(key); pass < 2; pass++)
        for (int i = 0; tables[t] && i < tables[t]->n && used < len; i++) {
            const struct tune_rule *r = &tables[t]->rules[i];
            const char *why = NULL;
            if (!rule_matches_pass(r, key, pass))
                continue;
            int ok = registry_can_run(&registry_table[r->alg], key, &why);
            used += (size_t)snprintf(buf + used, len - used, "%s:%d @%s: %s\n",
                                     tables[t]->source, r->line, registry_table[r->alg].name,
                                     ok ? "taken" : why);
            if (ok)
                return;
        }
    }
    if (used < len)
        snprintf(buf + used, len - used, "no rule can run: @vendor\n");
}
