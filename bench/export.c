/* export.c - what a table chooses, asked the way collshim asks it
 * (export.h). */
#include "bench/export.h"
#include "algorithms/registry.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A rule for blocking intracommunicator calls of coll: the only calls a
 * vendor's selection file describes. */
static int rule_is_plain(const struct tune_rule *r, enum coll_id coll)
{
    return r->coll == coll && !r->nonblocking && !r->inter;
}

int export_has_rules(const struct tune_table *table, enum coll_id coll)
{
    for (int i = 0; i < table->n; i++)
        if (rule_is_plain(&table->rules[i], coll))
            return 1;
    return 0;
}

/* One past the largest communicator size the rules of coll name (a rule
 * open upwards names its lower bound): from there on the choices repeat. */
static int np_reach(const struct tune_table *table, enum coll_id coll)
{
    int reach = 2;
    for (int i = 0; i < table->n; i++) {
        const struct tune_rule *r = &table->rules[i];
        int top = r->np_hi == TUNE_NP_INF ? r->np_lo : r->np_hi;
        if (rule_is_plain(r, coll) && top + 1 > reach)
            reach = top + 1;
    }
    return reach > EXPORT_MAX_NP ? EXPORT_MAX_NP : reach;
}

/* The selection key of a call of bytes on np ranks, ppn to a node, with a
 * commutative predefined op on 4-byte elements. */
static struct coll_key export_key(enum coll_id coll, int np, uint64_t bytes,
                                  const struct export_options *o)
{
    int ppn = o->ppn < np ? o->ppn : np;
    struct coll_key key;
    memset(&key, 0, sizeof key);
    key.coll = coll;
    key.np = np;
    key.bytes = bytes;
    key.count = (int64_t)(coll_is(coll, COLL_REDUCES) ? bytes / 4 : bytes);
    key.shape = node_shape_make((np + ppn - 1) / ppn, ppn, np % ppn == 0, 1);
    key.commutative = 1;
    key.predefined_op = 1;
    return key;
}

static int compare_bytes(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The byte bounds of the rules that apply at np, with 0 and the size
 * from which a float vector has an element per rank (count>=p), sorted
 * and each once. Returns how many, or -1 past max. */
static int byte_bounds(const struct tune_table *table, enum coll_id coll, int np, uint64_t *b,
                       int max)
{
    int n = 0, kept = 0;
    b[n++] = 0;
    b[n++] = 4 * (uint64_t)np;
    for (int i = 0; i < table->n; i++) {
        const struct tune_rule *r = &table->rules[i];
        if (!rule_is_plain(r, coll) || np < r->np_lo || np > r->np_hi)
            continue;
        if (n + 2 > max)
            return -1;
        b[n++] = r->bytes_lo;
        if (r->bytes_hi != TUNE_BYTES_INF)
            b[n++] = r->bytes_hi;
    }
    qsort(b, (size_t)n, sizeof *b, compare_bytes);
    for (int i = 0; i < n; i++)
        if (kept == 0 || b[i] != b[kept - 1])
            b[kept++] = b[i];
    return kept;
}

static int same_choice(const struct export_range *a, const struct export_range *b)
{
    return a->alg == b->alg && a->params.seg == b->params.seg &&
           a->params.outstanding == b->params.outstanding;
}

/* The choices at np: one range per bound, neighbours that agree merged. */
static int choices_at(const struct tune_table *table, enum coll_id coll, int np,
                      const struct export_options *o, struct export_choices *out)
{
    const struct tune_table *tables[1] = {table};
    uint64_t bounds[2 * EXPORT_MAX_RANGES];
    int n = byte_bounds(table, coll, np, bounds, 2 * EXPORT_MAX_RANGES);
    if (n < 0)
        return -1;
    out->np = np;
    out->n = 0;
    for (int i = 0; i < n; i++) {
        struct coll_key key = export_key(coll, np, bounds[i], o);
        struct tune_choice choice = tune_select(tables, 1, &key);
        struct export_range r = {bounds[i], choice.rule ? choice.alg : registry_vendor(coll),
                                 choice.rule ? choice.params : (struct coll_params){0, 0}};
        if (out->n > 0 && same_choice(&out->range[out->n - 1], &r))
            continue;
        if (out->n == EXPORT_MAX_RANGES)
            return -1;
        out->range[out->n++] = r;
    }
    return 0;
}

int export_evaluate(const struct tune_table *table, enum coll_id coll,
                    const struct export_options *o, struct export_collective *out)
{
    int reach = np_reach(table, coll);
    out->coll = coll;
    out->n = reach;
    out->choices = calloc((size_t)reach, sizeof *out->choices);
    if (!out->choices)
        return -1;
    for (int np = 1; np <= reach; np++)
        if (choices_at(table, coll, np, o, &out->choices[np - 1])) {
            export_collective_free(out);
            return -1;
        }
    return 0;
}

void export_collective_free(struct export_collective *c)
{
    free(c->choices);
    c->choices = NULL;
    c->n = 0;
}

void export_note(struct export_notes *notes, const char *fmt, ...)
{
    va_list ap;
    notes->count++;
    if (!notes->out)
        return;
    fputs("  - ", notes->out);
    va_start(ap, fmt);
    vfprintf(notes->out, fmt, ap);
    va_end(ap);
    fputc('\n', notes->out);
}

void export_list(struct export_notes *notes, enum coll_id coll, int np_lo, int np_hi,
                 uint64_t lo, uint64_t hi, const struct export_range *r, const char *vendor)
{
    char nps[32], from[32], to[32], range[72], seg[48] = "";
    if (!notes->list)
        return;
    if (np_hi)
        snprintf(nps, sizeof nps, "np=%d-%d", np_lo, np_hi);
    else
        snprintf(nps, sizeof nps, "np=%d-inf", np_lo);
    tune_format_bytes(lo, from, sizeof from);
    if (hi)
        tune_format_bytes(hi, to, sizeof to);
    else
        snprintf(to, sizeof to, "inf");
    if (r->params.seg)
        snprintf(seg, sizeof seg, " seg=%zu", r->params.seg);
    snprintf(range, sizeof range, "%s-%s", from, to);
    fprintf(notes->list, "%-20s %-10s %-12s @%s%s -> %s\n", coll_name(coll), nps, range,
            registry_table[r->alg].name, seg, vendor);
}
