/* selector.c - walk the tables in order of precedence and pick the first
 * rule that matches the call and whose algorithm can run it. */
#include "tuning.h"
#include "../algorithms/registry.h"

#include <stdio.h>

static int rule_matches(const struct tune_rule *r, const struct coll_key *k)
{
    return r->coll == k->coll && k->np >= r->np_lo && k->np <= r->np_hi &&
           k->bytes >= r->bytes_lo && k->bytes < r->bytes_hi;
}

struct tune_choice tune_select(const struct tune_table *const *tables,
                               int ntables, const struct coll_key *key)
{
    struct tune_choice choice = {registry_vendor(key->coll), {0, 0}, NULL, -1};
    for (int t = 0; t < ntables; t++) {
        if (!tables[t])
            continue;
        for (int i = 0; i < tables[t]->n; i++) {
            const struct tune_rule *r = &tables[t]->rules[i];
            if (!rule_matches(r, key) || !registry_can_run(&registry_table[r->alg], key, NULL))
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
        for (int i = 0; tables[t] && i < tables[t]->n && used < len; i++) {
            const struct tune_rule *r = &tables[t]->rules[i];
            const char *why = NULL;
            if (!rule_matches(r, key))
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
