/* export_openmpi.c - a table as Open MPI 4.1's coll/tuned dynamic rules
 * file (coll_tuned_use_dynamic_rules, coll_tuned_dynamic_rules_filename;
 * doc/export.md).
 *
 * The file is a list of numbers: collectives; per collective its id and
 * its communicator sizes; per size the size and its rules; per rule the
 * message size it applies from, the algorithm, the fan-in/out and the
 * segment size. Open MPI takes the last communicator size and the last
 * message size at or below the call's (both lists ascending, the first
 * message size 0, or it ignores the whole file), and algorithm 0 leaves
 * the call to its own fixed decision. Facts of Open MPI 4.1.4, measured on
 * it: ompi_info --param coll tuned --level 9 for the numbers, the message
 * size each collective computes probed with two ranks. */
#include "bench/export.h"
#include "algorithms/registry.h"
#include "algorithms/segments.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* How Open MPI 4.1.4 sizes a call against collshim's selection bytes. */
enum ompi_size {
    OMPI_SIZE_BYTES,    /* the same bytes */
    OMPI_SIZE_PER_RANK, /* allgatherv: the bytes over the communicator size */
    OMPI_SIZE_ZERO,     /* always 0: only the rule from 0 bytes ever applies */
    OMPI_SIZE_OTHER,    /* scan, exscan: type size x ranks, whatever the count */
};

static const struct ompi_collective {
    enum coll_id coll;
    int id; /* COLLTYPE of coll_base_functions.h */
    enum ompi_size size;
} ompi_collectives[] = {
    {COLL_allgather, 0, OMPI_SIZE_BYTES},   {COLL_allgatherv, 1, OMPI_SIZE_PER_RANK},
    {COLL_allreduce, 2, OMPI_SIZE_BYTES},   {COLL_alltoall, 3, OMPI_SIZE_BYTES},
    {COLL_alltoallv, 4, OMPI_SIZE_ZERO},    {COLL_barrier, 6, OMPI_SIZE_ZERO},
    {COLL_bcast, 7, OMPI_SIZE_BYTES},       {COLL_exscan, 8, OMPI_SIZE_OTHER},
    {COLL_gather, 9, OMPI_SIZE_BYTES},      {COLL_reduce, 11, OMPI_SIZE_BYTES},
    {COLL_reduce_scatter, 12, OMPI_SIZE_BYTES}, {COLL_reduce_scatter_block, 13, OMPI_SIZE_BYTES},
    {COLL_scan, 14, OMPI_SIZE_OTHER},       {COLL_scatter, 15, OMPI_SIZE_BYTES},
};
#define OMPI_COLLECTIVES (int)(sizeof ompi_collectives / sizeof ompi_collectives[0])

/* collshim's algorithm and Open MPI's that moves the same messages;
 * seg_default: Open MPI's is segmented, and collshim's segment size when
 * its rule names none is this. */
static const struct ompi_algorithm {
    enum coll_id coll;
    const char *name;
    int id;
    size_t seg_default;
} ompi_algorithms[] = {
    {COLL_allreduce, "linear", 1, 0},
    {COLL_allreduce, "reduce_bcast", 2, 0},
    {COLL_allreduce, "recursive_doubling", 3, 0},
    {COLL_allreduce, "ring", 5, SEG_DEFAULT_RING},
    {COLL_allreduce, "rabenseifner", 6, 0},
    {COLL_bcast, "linear", 1, 0},
    {COLL_bcast, "pipeline", 3, SEG_DEFAULT_BCAST_PIPELINE},
    {COLL_bcast, "binary_pipeline", 5, SEG_DEFAULT_BCAST_BINARY_PIPELINE},
    {COLL_bcast, "binomial", 6, 0},
    {COLL_bcast, "knomial", 7, 0},
    {COLL_bcast, "scatter_rdb_allgather", 8, 0},
    {COLL_bcast, "scatter_allgather", 9, 0},
    {COLL_reduce, "linear", 1, 0},
    {COLL_reduce, "pipeline", 3, SEG_DEFAULT_REDUCE_PIPELINE},
    {COLL_reduce, "binomial", 5, 0},
    {COLL_reduce, "binary_pipeline", 6, SEG_DEFAULT_REDUCE_BINARY_PIPELINE},
    {COLL_reduce, "rabenseifner", 7, 0},
    {COLL_allgather, "linear", 1, 0},
    {COLL_allgather, "bruck", 2, 0},
    {COLL_allgather, "recursive_doubling", 3, 0},
    {COLL_allgather, "ring", 4, 0},
    {COLL_allgather, "neighbor_exchange", 5, 0},
    {COLL_allgatherv, "linear", 1, 0},
    {COLL_allgatherv, "bruck", 2, 0},
    {COLL_allgatherv, "ring", 3, 0},
    {COLL_alltoall, "scattered", 1, 0},
    {COLL_alltoall, "pairwise", 2, 0},
    {COLL_alltoall, "bruck", 3, 0},
    {COLL_alltoallv, "scattered", 1, 0},
    {COLL_alltoallv, "pairwise", 2, 0},
    {COLL_barrier, "recursive_doubling", 3, 0},
    {COLL_barrier, "dissemination", 4, 0},
    {COLL_gather, "linear", 1, 0},
    {COLL_gather, "binomial", 2, 0},
    {COLL_scatter, "linear", 1, 0},
    {COLL_scatter, "binomial", 2, 0},
    {COLL_reduce_scatter, "reduce_scatterv", 1, 0},
    {COLL_reduce_scatter, "recursive_halving", 2, 0},
    {COLL_reduce_scatter, "ring", 3, 0},
    {COLL_reduce_scatter_block, "reduce_scatterv", 1, 0},
    {COLL_reduce_scatter_block, "recursive_doubling", 2, 0},
    {COLL_reduce_scatter_block, "recursive_halving", 3, 0},
    {COLL_scan, "linear", 1, 0},
    {COLL_scan, "recursive_doubling", 2, 0},
    {COLL_exscan, "linear", 1, 0},
    {COLL_exscan, "recursive_doubling", 2, 0},
};
#define OMPI_ALGORITHMS (int)(sizeof ompi_algorithms / sizeof ompi_algorithms[0])

/* One rule of the file, and collshim's choice it stands for. */
struct ompi_rule {
    unsigned long long msg;
    int alg;
    unsigned long long seg;
    struct export_range source;
};

/* The rules of one communicator size. */
struct ompi_size_rules {
    int np, n;
    struct ompi_rule rule[EXPORT_MAX_RANGES];
};

static const struct ompi_algorithm *ompi_equivalent(const struct export_range *r)
{
    const struct algorithm *a = &registry_table[r->alg];
    for (int i = 0; i < OMPI_ALGORITHMS; i++)
        if (ompi_algorithms[i].coll == a->coll && !strcmp(ompi_algorithms[i].name, a->name))
            return &ompi_algorithms[i];
    return NULL;
}

/* Open MPI's rule for collshim's range; a native algorithm without an
 * equivalent is noted once per collective and algorithm. */
static struct ompi_rule ompi_rule_of(const struct export_range *r, unsigned long long msg,
                                     struct export_notes *notes, unsigned char *said)
{
    struct ompi_rule rule = {msg, 0, 0, *r};
    const struct algorithm *a = &registry_table[r->alg];
    const struct ompi_algorithm *e = ompi_equivalent(r);
    if (e) {
        rule.alg = e->id;
        rule.seg = e->seg_default ? (r->params.seg ? r->params.seg : e->seg_default) : 0;
    } else if (!registry_is_vendor(a) && !said[r->alg]++) {
        export_note(notes, "%s @%s: Open MPI 4.1 has no such algorithm; its own choice runs there",
                    coll_name(a->coll), a->name);
    }
    return rule;
}

static void ompi_add(struct ompi_size_rules *s, struct ompi_rule rule)
{
    struct ompi_rule *last = s->n ? &s->rule[s->n - 1] : NULL;
    if (last && last->alg == rule.alg && last->seg == rule.seg &&
        last->source.alg == rule.source.alg)
        return;
    s->rule[s->n++] = rule;
}

/* Open MPI's rules at one communicator size. */
static void ompi_size_rules(const struct ompi_collective *c, const struct export_choices *ch,
                            struct ompi_size_rules *s, struct export_notes *notes,
                            unsigned char *said)
{
    s->np = ch->np;
    s->n = 0;
    if (c->size == OMPI_SIZE_OTHER && ch->n > 1) {
        struct export_range vendor = {0, registry_vendor(c->coll), {0, 0}};
        ompi_add(s, (struct ompi_rule){0, 0, 0, vendor});
        return;
    }
    int n = c->size == OMPI_SIZE_ZERO ? 1 : ch->n;
    for (int i = 0; i < n; i++) {
        unsigned long long lo = ch->range[i].lo;
        if (c->size == OMPI_SIZE_PER_RANK)
            lo = (lo + (unsigned long long)ch->np - 1) / (unsigned long long)ch->np;
        ompi_add(s, ompi_rule_of(&ch->range[i], lo, notes, said));
    }
}

static int same_rules(const struct ompi_size_rules *a, const struct ompi_size_rules *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->rule[i].msg != b->rule[i].msg || a->rule[i].alg != b->rule[i].alg ||
            a->rule[i].seg != b->rule[i].seg || a->rule[i].source.alg != b->rule[i].source.alg)
            return 0;
    return 1;
}

/* The communicator sizes of one collective, neighbours with the same
 * rules merged; how many (0: nothing but Open MPI's own choice). */
static int ompi_collective_sizes(const struct ompi_collective *c, const struct export_collective *e,
                                 struct ompi_size_rules *sizes, struct export_notes *notes)
{
    unsigned char said[COLLSHIM_MAX_ALGORITHMS] = {0};
    int n = 0, any = 0;
    for (int i = 0; i < e->n; i++) {
        ompi_size_rules(c, &e->choices[i], &sizes[n], notes, said);
        if (n == 0 || !same_rules(&sizes[n - 1], &sizes[n]))
            n++;
    }
    for (int i = 0; i < n; i++)
        any |= sizes[i].n > 1 || sizes[i].rule[0].alg != 0;
    if (c->size == OMPI_SIZE_OTHER && any == 0 && e->n > 0)
        export_note(notes, "%s: Open MPI sizes it by type size and ranks, not by bytes; only a "
                    "choice that holds at every size can be said, and this table has none",
                    coll_name(c->coll));
    if (c->size == OMPI_SIZE_PER_RANK && any)
        export_note(notes, "%s: Open MPI sizes it per rank (bytes / ranks): the bounds are "
                    "divided by each communicator size, rounded up", coll_name(c->coll));
    return any ? n : 0;
}

/* A rule's comment: collshim's algorithm, and what Open MPI runs for it. */
static void ompi_rule_comment(const struct ompi_rule *rule, char *buf, size_t len)
{
    const struct algorithm *a = &registry_table[rule->source.alg];
    if (registry_is_vendor(a))
        snprintf(buf, len, "vendor");
    else if (rule->alg)
        snprintf(buf, len, "%s", a->name);
    else
        snprintf(buf, len, "%s: not in Open MPI, its own choice", a->name);
}

static void ompi_write_collective(FILE *f, const struct ompi_collective *c,
                                  const struct ompi_size_rules *sizes, int n,
                                  struct export_notes *notes)
{
    char comment[160], vendor[32];
    fprintf(f, "%d # %s\n%d # communicator sizes\n", c->id, coll_name(c->coll), n);
    for (int i = 0; i < n; i++) {
        int np_hi = i + 1 < n ? sizes[i + 1].np - 1 : 0;
        fprintf(f, "%d %d # from this many ranks, rules:\n", sizes[i].np, sizes[i].n);
        for (int j = 0; j < sizes[i].n; j++) {
            const struct ompi_rule *r = &sizes[i].rule[j];
            ompi_rule_comment(r, comment, sizeof comment);
            fprintf(f, "  %llu %d 0 %llu # %s\n", r->msg, r->alg, r->seg, comment);
            snprintf(vendor, sizeof vendor, r->alg ? "algorithm %d" : "its own choice", r->alg);
            export_list(notes, c->coll, sizes[i].np, np_hi, r->source.lo,
                        j + 1 < sizes[i].n ? sizes[i].rule[j + 1].source.lo : 0, &r->source,
                        vendor);
        }
    }
}

static void ompi_header(FILE *f, const struct tune_table *table, const struct export_options *o,
                        const char *path)
{
    fprintf(f, "# Open MPI coll/tuned dynamic rules, written by colltune-export from %s\n"
               "# for communicators of %d rank%s per node.\n"
               "# Use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
               "coll_tuned_dynamic_rules_filename %s ...\n"
               "# Each rule: message size from which it applies, algorithm (0: Open MPI's own "
               "choice), fan-in/out, segment size.\n",
            table->source, o->ppn, o->ppn == 1 ? "" : "s", path);
}

int export_openmpi(const struct tune_table *table, const struct export_options *o,
                   const char *path, struct export_notes *notes, char *err, size_t errlen)
{
    struct ompi_size_rules *sizes = calloc(EXPORT_MAX_NP, sizeof *sizes);
    int counts[OMPI_COLLECTIVES] = {0}, ncolls = 0, rc = 0;
    FILE *f = NULL, *body = tmpfile();
    if (!sizes || !body) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    for (int i = 0; i < OMPI_COLLECTIVES && rc == 0; i++) {
        struct export_collective e;
        if (!export_has_rules(table, ompi_collectives[i].coll))
            continue;
        if (export_evaluate(table, ompi_collectives[i].coll, o, &e)) {
            snprintf(err, errlen, "%s: more byte ranges than %d at one size",
                     coll_name(ompi_collectives[i].coll), EXPORT_MAX_RANGES);
            rc = -1;
            break;
        }
        counts[i] = ompi_collective_sizes(&ompi_collectives[i], &e, sizes, notes);
        if (counts[i]) {
            ompi_write_collective(body, &ompi_collectives[i], sizes, counts[i], notes);
            ncolls++;
        }
        export_collective_free(&e);
    }
    if (rc == 0 && !(f = fopen(path, "w"))) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0) {
        ompi_header(f, table, o, path);
        fprintf(f, "%d # collectives\n", ncolls);
        rewind(body);
        for (int ch; (ch = getc(body)) != EOF;)
            putc(ch, f);
        if (fclose(f)) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            rc = -1;
        }
    }
done:
    if (body)
        fclose(body);
    free(sizes);
    return rc;
}
