/* learn_results.c - what COLLSHIM_LEARN keeps: the process's table of
 * settled choices (shared by communicators of the same shape), and at
 * MPI_Finalize the learned table (COLLSHIM_LEARN_OUT, in the grammar, with
 * a provenance header) and the learning rows of the COLLSHIM_REPORT file.
 * doc/learning.md. */
#include "config.h"
#include "select/select.h"
#include "select/learn.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LEARN_ENTRIES 1024

int learn_enabled;
int learn_verbose;
enum learn_charge learn_charge;
const struct learn_io *learn_io;
int learn_test_nomem; /* COLLSHIM_TEST_NOMEM on this rank (learn.h) */
static const char *learn_out;

static struct learn_entry entries[LEARN_ENTRIES];
static int nentries, entries_full;
static pthread_mutex_t entries_lock = PTHREAD_MUTEX_INITIALIZER;

/* Rank 0 of MPI_COMM_WORLD after learn_finalize: every rank's entries merged. */
static struct learn_entry *merged;
static int nmerged;

/* ---- COLLSHIM_TEST_NOMEM=ctx@RANK or class@RANK ---- */

static void config_nomem(const char *spec, int world_rank)
{
    char what[8];
    int rank;
    if (!spec || !*spec)
        return;
    if (sscanf(spec, "%7[a-z]@%d", what, &rank) != 2 ||
        (strcmp(what, "ctx") && strcmp(what, "class"))) {
        if (world_rank == 0)
            fprintf(stderr, "collshim: COLLSHIM_TEST_NOMEM: '%s' is not ctx@RANK or class@RANK; "
                            "ignored\n", spec);
        return;
    }
    if (rank == world_rank)
        learn_test_nomem = strcmp(what, "ctx") ? LEARN_NOMEM_CLASS : LEARN_NOMEM_CTX;
}

static void config_charge(const char *v, int world_rank)
{
    learn_charge = LEARN_CHARGE_OWN;
    if (!v || !*v || !strcmp(v, "own"))
        return;
    if (!strcmp(v, "last_entry"))
        learn_charge = LEARN_CHARGE_LAST_ENTRY;
    else if (world_rank == 0)
        fprintf(stderr, "collshim: COLLSHIM_LEARN_CHARGE: '%s' is not own or last_entry; "
                        "ignored (own)\n", v);
}

void learn_configure(const struct learn_settings *settings, const struct learn_io *io,
                     int world_rank)
{
    learn_enabled = settings->enabled;
    learn_verbose = settings->verbose;
    learn_io = io;
    learn_out = settings->out && *settings->out ? settings->out : NULL;
    config_charge(settings->charge, world_rank);
    config_nomem(settings->test_nomem, world_rank);
}

/* ---- the process's entries ---- */

static int same_key(const struct learn_entry *a, const struct learn_entry *b)
{
    return a->coll == b->coll && a->np == b->np && a->nodes == b->nodes && a->ppn == b->ppn &&
           a->bucket == b->bucket && a->flags == b->flags;
}

static struct learn_entry *find_locked(const struct learn_entry *key)
{
    for (int i = 0; i < nentries; i++)
        if (same_key(&entries[i], key))
            return &entries[i];
    return NULL;
}

static struct learn_entry *get_locked(const struct learn_entry *key)
{
    struct learn_entry *e = find_locked(key);
    if (e || nentries == LEARN_ENTRIES) {
        entries_full |= !e;
        return e;
    }
    e = &entries[nentries++];
    *e = *key;
    e->settled_alg = -1;
    e->explore_calls = e->settled_calls = e->explore_time = e->extra_time = e->saved_time = 0;
    e->classes = 0;
    return e;
}

struct learn_entry *learn_entry_get(const struct learn_entry *key)
{
    pthread_mutex_lock(&entries_lock);
    struct learn_entry *e = get_locked(key);
    pthread_mutex_unlock(&entries_lock);
    return e;
}

int learn_entry_settled(const struct learn_entry *key, struct learn_entry *known)
{
    pthread_mutex_lock(&entries_lock);
    const struct learn_entry *e = find_locked(key);
    int alg = e ? e->settled_alg : -1;
    if (e)
        *known = *e;
    pthread_mutex_unlock(&entries_lock);
    return alg;
}

void learn_entry_settle(const struct learn_entry *result)
{
    pthread_mutex_lock(&entries_lock);
    struct learn_entry *e = get_locked(result);
    if (e && e->settled_alg < 0) {
        e->settled_alg = result->settled_alg;
        e->params = result->params;
        e->vendor_mean = result->vendor_mean;
        e->chosen_mean = result->chosen_mean;
    }
    pthread_mutex_unlock(&entries_lock);
}

static void add_counts(struct learn_entry *e, const struct learn_entry *n)
{
    e->explore_calls += n->explore_calls;
    e->settled_calls += n->settled_calls;
    e->explore_time += n->explore_time;
    e->extra_time += n->extra_time;
    e->saved_time += n->saved_time;
    e->classes += n->classes;
}

void learn_entry_account(const struct learn_entry *counts)
{
    pthread_mutex_lock(&entries_lock);
    struct learn_entry *e = get_locked(counts);
    if (e)
        add_counts(e, counts);
    pthread_mutex_unlock(&entries_lock);
}

/* ---- merging at rank 0 ---- */

static int cmp_int(int a, int b) { return (a > b) - (a < b); }

/* Collective, np, nodes, ppn, class; then the more restricted algorithm
 * first, so that its rule comes before the one that would shadow it. */
static int cmp_entries(const void *pa, const void *pb)
{
    const struct learn_entry *a = pa, *b = pb;
    int c = cmp_int(a->coll, b->coll);
    if (!c) c = cmp_int(a->np, b->np);
    if (!c) c = cmp_int(a->nodes, b->nodes);
    if (!c) c = cmp_int(a->ppn, b->ppn);
    if (!c) c = cmp_int(a->bucket, b->bucket);
    if (!c) c = cmp_int(a->flags, b->flags);
    return c;
}

static int merge_entries(struct learn_entry *all, int n)
{
    int m = 0;
    qsort(all, (size_t)n, sizeof *all, cmp_entries);
    for (int i = 0; i < n; i++) {
        if (m && same_key(&all[m - 1], &all[i])) {
            struct learn_entry *e = &all[m - 1];
            if (all[i].settled_alg >= 0 && (e->settled_alg < 0 || (!e->classes && all[i].classes))) {
                struct learn_entry counts = *e;
                *e = all[i];
                e->explore_calls = e->settled_calls = e->explore_time = 0;
                e->extra_time = e->saved_time = e->classes = 0;
                add_counts(e, &counts);
            }
            add_counts(e, &all[i]);
            continue;
        }
        all[m++] = all[i];
    }
    return m;
}

/* ---- the learned table ---- */

static int restriction_count(int alg)
{
    return __builtin_popcount(registry_table[alg].restrictions &
                             ~(unsigned)(ALG_NEEDS_CONTEXT | ALG_TAKES_SEG));
}

static void command_line(char *buf, size_t len)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i < n; i++)
        buf[i] = buf[i] ? buf[i] : ' ';
    buf[n] = '\0';
}

static void write_header(FILE *f, const char *hosts, int np)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "", date[64], cmd[1024];
    int len = 0;
    time_t now = time(NULL);
    learn_io->get_library_version(version, &len);
    version[strcspn(version, "\r\n")] = '\0';
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    command_line(cmd, sizeof cmd);
    fprintf(f, "# collshim learned table (COLLSHIM_LEARN=1): the algorithms this run settled on\n"
               "# tool: COLLSHIM_LEARN (collshim %s, %s build)\n# command: %s\n# date: %s\n"
               "# mpi: %s\n# np: %d\n# hosts: %s\n# charge: %s (COLLSHIM_LEARN_CHARGE)\n"
               "# One rule per (collective, communicator size, nodes, ranks per node, size class);\n"
               "# load it with COLLSHIM_TUNING_FILE. Tables of runs of other sizes merge by\n"
               "# concatenation (cat a.table b.table > both.table): their rules name other np=,\n"
               "# nodes=, ppn= or byte ranges; where two rules match, the first wins.\n",
            PACKAGE_VERSION, COLLSHIM_FLAVOUR, cmd, date, version, np, hosts,
            learn_charge == LEARN_CHARGE_LAST_ENTRY ? "last_entry" : "own");
}

static void format_entry_rule(const struct learn_entry *e, char *buf, size_t len)
{
    struct tune_rule r = {.coll = (enum coll_id)e->coll, .np_lo = e->np, .np_hi = e->np,
                          .nodes_lo = e->nodes, .nodes_hi = e->nodes, .ppn_lo = e->ppn,
                          .ppn_hi = e->ppn, .ranks_per_core_hi = TUNE_NP_INF,
                          .alg = e->settled_alg, .params = e->params};
    r.bytes_lo = e->bucket ? 1ull << (e->bucket - 1) : 0;
    r.bytes_hi = e->bucket == 0 ? 1 : e->bucket >= 64 ? TUNE_BYTES_INF : 1ull << e->bucket;
    tune_format_rule(&r, buf, len);
}

static void tried_names(const struct learn_entry *e, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < e->ncand && used < len; i++) {
        char seg[24] = "", window[24] = "";
        if (e->cand_seg[i])
            tune_format_bytes(e->cand_seg[i], seg, sizeof seg);
        select_window_name(e->cand_window[i], window, sizeof window);
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s%s", i ? "," : "",
                                 registry_table[e->cand_alg[i]].name, *seg ? ":seg=" : "", seg,
                                 window);
    }
}

static double ratio(const struct learn_entry *e)
{
    return e->vendor_mean > 0 ? e->chosen_mean / e->vendor_mean : 1.0;
}

/* The rules as text: restricted algorithms first within a class. */
static char *table_rules(void)
{
    size_t cap = (size_t)nmerged * 900 + 1, used = 0;
    char *text = calloc(1, cap), rule[256], tried[600];
    int *order = calloc((size_t)nmerged + 1, sizeof *order), n = 0;
    for (int i = 0; text && order && i < nmerged; i++)
        if (merged[i].settled_alg >= 0)
            order[n++] = i;
    for (int i = 1; i < n; i++) /* stable: same class, more restrictions first */
        for (int j = i; j > 0; j--) {
            const struct learn_entry *a = &merged[order[j - 1]], *b = &merged[order[j]];
            struct learn_entry ka = *a, kb = *b;
            ka.flags = kb.flags = 0;
            if (!same_key(&ka, &kb) ||
                restriction_count(a->settled_alg) >= restriction_count(b->settled_alg))
                break;
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 0; text && order && i < n; i++) {
        const struct learn_entry *e = &merged[order[i]];
        format_entry_rule(e, rule, sizeof rule);
        tried_names(e, tried, sizeof tried);
        used += (size_t)snprintf(text + used, cap - used, "%s   # %.3gx the vendor; tried %s\n",
                                 rule, ratio(e), tried);
    }
    free(order);
    return text;
}

static void write_table(const char *hosts, int np)
{
    char *rules = table_rules(), err[512];
    struct tune_table check;
    FILE *f;
    if (!rules)
        return;
    if (tune_parse(rules, learn_out, &check, err, sizeof err)) { /* a bug: say so */
        fprintf(stderr, "collshim: the learned table does not parse (%s); not written\n", err);
        free(rules);
        return;
    }
    tune_free(&check);
    if (!(f = fopen(learn_out, "w"))) {
        fprintf(stderr, "collshim: cannot write the learned table to %s: %s\n", learn_out,
                strerror(errno));
        free(rules);
        return;
    }
    write_header(f, hosts, np);
    fputs(rules, f);
    fclose(f);
    free(rules);
}

/* ---- at MPI_Finalize ---- */

/* Distinct host names of the gathered MPI_MAX_PROCESSOR_NAME blocks. */
static void distinct_hosts(const char *names, int np, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int r = 0; r < np && used < len; r++) {
        const char *h = names + (size_t)r * MPI_MAX_PROCESSOR_NAME;
        int seen = 0;
        for (int q = 0; q < r && !seen; q++)
            seen = !strcmp(h, names + (size_t)q * MPI_MAX_PROCESSOR_NAME);
        if (!seen)
            used += (size_t)snprintf(out + used, len - used, "%s%s", used ? " " : "", h);
    }
}

static void summary_line(void)
{
    double calls = 0, extra = 0, saved = 0, settled = 0, native = 0;
    for (int i = 0; i < nmerged; i++) {
        calls += merged[i].explore_calls;
        extra += merged[i].extra_time;
        saved += merged[i].saved_time;
        settled += merged[i].settled_alg >= 0;
        native += merged[i].settled_alg >= 0 &&
                  !registry_is_vendor(&registry_table[merged[i].settled_alg]);
    }
    fprintf(stderr, "collshim: learning: %.0f of %d size classes settled (%.0f on a native "
                    "algorithm); %.0f calls spent exploring, %+.6f s against the vendor; "
                    "%.6f s saved afterwards (estimated)%s%s\n",
            settled, nmerged, native, calls, extra, saved,
            learn_out ? "; table: " : "", learn_out ? learn_out : "");
}

/* Gather every rank's entries at rank 0 (vendor calls). */
static struct learn_entry *gather_entries(int rank, int np, int *total)
{
    int n = nentries, *counts = NULL, *displs = NULL, sum = 0;
    struct learn_entry *all = NULL;
    if (rank == 0 && (!(counts = calloc((size_t)np, sizeof *counts)) ||
                      !(displs = calloc((size_t)np, sizeof *displs))))
        n = -1; /* still take part; rank 0 writes nothing */
    learn_io->gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && counts && r < np; r++) {
        displs[r] = sum * (int)sizeof *all;
        sum += counts[r] > 0 ? counts[r] : 0;
        counts[r] = (counts[r] > 0 ? counts[r] : 0) * (int)sizeof *all;
    }
    if (rank == 0)
        all = calloc((size_t)sum + 1, sizeof *all);
    learn_io->gatherv(entries, (n > 0 ? n : 0) * (int)sizeof *all, MPI_BYTE, all, counts, displs,
                   MPI_BYTE, 0, MPI_COMM_WORLD);
    free(counts);
    free(displs);
    *total = sum;
    return all;
}

void learn_results_gather(void)
{
    int rank, np, len = 0, total = 0;
    char name[MPI_MAX_PROCESSOR_NAME] = "", *names = NULL;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &np);
    PMPI_Get_processor_name(name, &len);
    if (rank == 0)
        names = calloc((size_t)np, MPI_MAX_PROCESSOR_NAME);
    learn_io->gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  0, MPI_COMM_WORLD);
    pthread_mutex_lock(&entries_lock);
    struct learn_entry *all = gather_entries(rank, np, &total);
    pthread_mutex_unlock(&entries_lock);
    if (rank == 0 && all && names) {
        char hosts[1024];
        merged = all;
        nmerged = merge_entries(all, total);
        distinct_hosts(names, np, hosts, sizeof hosts);
        if (learn_out)
            write_table(hosts, np);
        summary_line();
    } else {
        free(all);
    }
    free(names);
}

void learn_report(FILE *f)
{
    char range[64], tried[600];
    if (!merged)
        return;
    fprintf(f, "\n# learning (COLLSHIM_LEARN): per collective, communicator size, node shape and "
               "size class;\n# explore: calls spent exploring and their time beyond the vendor's "
               "(s, slowest rank);\n# after: calls on the settled choice and the time it saved "
               "against the vendor (s, estimated\n# from the measured means); x_vendor: the "
               "chosen algorithm's mean time / the vendor's\n");
    fprintf(f, "# %-20s %5s %5s %4s %-10s %4s %8s %10s %8s %10s %8s %-22s %s\n", "collective",
            "np", "nodes", "ppn", "size", "comm", "explore", "extra_s", "after", "saved_s",
            "x_vendor", "chosen", "tried");
    for (int i = 0; i < nmerged; i++) {
        const struct learn_entry *e = &merged[i];
        uint64_t lo = e->bucket ? 1ull << (e->bucket - 1) : 0;
        char a[32], b[32];
        tune_format_bytes(lo, a, sizeof a);
        tune_format_bytes(e->bucket ? lo << 1 : 1, b, sizeof b);
        snprintf(range, sizeof range, "%s-%s", a, b);
        tried_names(e, tried, sizeof tried);
        fprintf(f, "  %-20s %5d %5d %4d %-10s %4.0f %8.0f %10.6f %8.0f %10.6f %8.3f %-22s %s\n",
                coll_name((enum coll_id)e->coll), e->np, e->nodes, e->ppn, range, e->classes,
                e->explore_calls, e->extra_time, e->settled_calls, e->saved_time,
                e->settled_alg >= 0 ? ratio(e) : 0.0,
                e->settled_alg >= 0 ? registry_table[e->settled_alg].name : "(exploring)", tried);
    }
    if (entries_full)
        fprintf(f, "# WARNING: rank 0's table of %d size classes was full; later classes were "
                   "not shared nor counted\n", LEARN_ENTRIES);
}

void learn_free(void)
{
    free(merged);
    merged = NULL;
    nmerged = 0;
}
