/* report.c - COLLSHIM_REPORT: what ran, merged over ranks at MPI_Finalize,
 * in the manner of mpiP.
 *
 * Per call (dispatch.c, when report_enabled): one slot of a fixed table,
 * keyed by (registry index, communicator size, log2 size bucket), found by
 * hashing with linear probing and claimed with one compare-and-swap; three
 * atomic adds. No allocation, no lock. Cost measured in results/report-overhead.md.
 *
 * At MPI_Finalize (init.c, while MPI still works): every rank sends its
 * used slots to rank 0 of MPI_COMM_WORLD through the vendor's gather (never
 * the shim's own), rank 0 merges them and writes one text file:
 *   COLLSHIM_REPORT=1 (or yes, true, on)  ./collshim-report-DATE-PID.txt
 *   COLLSHIM_REPORT=DIR                   DIR/collshim-report-DATE-PID.txt
 *   COLLSHIM_REPORT=PATH                  PATH
 * and prints the path it wrote on stderr. */
#include "config.h"
#include "shim/shim.h"
#include "select/learn.h"
#include "algorithms/registry.h"
#include "include/collshim.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REPORT_SLOTS 4096 /* power of two */
#define REPORT_PROBES 64
#define BUCKET_SHIFT 12   /* key = np << 24 | bucket << 12 | (alg + 1) */
#define NP_SHIFT 24

struct report_slot {
    uint64_t key;         /* 0: free */
    uint64_t calls, bytes, nanos;
};

int report_enabled;
static struct report_slot slots[REPORT_SLOTS];
static uint64_t dropped; /* calls that found no free slot */
static struct timespec load_time;

/* Library load time, for the wall time of the program (no MPI here). */
__attribute__((constructor)) static void report_clock_start(void)
{
    clock_gettime(CLOCK_MONOTONIC, &load_time);
}

/* bytes in [2^(b-1), 2^b) -> b; 0 bytes -> 0. */
static unsigned size_bucket(uint64_t bytes)
{
    return bytes ? 64u - (unsigned)__builtin_clzll(bytes) : 0u;
}

static uint64_t slot_key(int alg, int np, uint64_t bytes)
{
    return ((uint64_t)np << NP_SHIFT) | ((uint64_t)size_bucket(bytes) << BUCKET_SHIFT) |
           (uint64_t)(alg + 1);
}

void report_record(const struct coll_args *a, int alg, double seconds)
{
    uint64_t key = slot_key(alg, a->size, a->bytes);
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 52);
    for (int i = 0; i < REPORT_PROBES; i++) {
        struct report_slot *s = &slots[(h + (size_t)i) & (REPORT_SLOTS - 1)];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == 0 && __atomic_compare_exchange_n(&s->key, &k, key, 0, __ATOMIC_ACQ_REL,
                                                  __ATOMIC_ACQUIRE))
            k = key;
        if (k != key)
            continue;
        __atomic_fetch_add(&s->calls, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->bytes, a->bytes, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->nanos, (uint64_t)(seconds * 1e9), __ATOMIC_RELAXED);
        return;
    }
    __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
}

/* ---- at MPI_Finalize ---- */

struct rank_info {
    double wall;                 /* seconds since the library was loaded */
    double nanos;                /* in collectives, all slots */
    uint64_t dropped;
    int nslots;
    char host[MPI_MAX_PROCESSOR_NAME];
};

/* A merged row: one (algorithm, np, bucket) over all ranks. */
struct merged {
    uint64_t key;
    uint64_t rank_calls, bytes, nanos, max_rank_nanos;
};

static int key_alg(uint64_t k) { return (int)(k & ((1u << BUCKET_SHIFT) - 1)) - 1; }
static unsigned key_bucket(uint64_t k) { return (unsigned)(k >> BUCKET_SHIFT) & 0xfff; }
static int key_np(uint64_t k) { return (int)(k >> NP_SHIFT); }

static double elapsed_since_load(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - load_time.tv_sec) + (now.tv_nsec - load_time.tv_nsec) * 1e-9;
}

static int used_slots(struct report_slot *out, struct rank_info *info)
{
    int n = 0;
    info->nanos = 0;
    for (int i = 0; i < REPORT_SLOTS; i++) {
        if (!slots[i].key)
            continue;
        out[n++] = slots[i];
        info->nanos += (double)slots[i].nanos;
    }
    return n;
}

/* Order: collective, np, size bucket, algorithm. */
static int cmp_rows(const void *pa, const void *pb)
{
    uint64_t a = ((const struct report_slot *)pa)->key, b = ((const struct report_slot *)pb)->key;
    int ca = registry_table[key_alg(a)].coll, cb = registry_table[key_alg(b)].coll;
    if (ca != cb)
        return ca - cb;
    if (key_np(a) != key_np(b))
        return key_np(a) < key_np(b) ? -1 : 1;
    if (key_bucket(a) != key_bucket(b))
        return key_bucket(a) < key_bucket(b) ? -1 : 1;
    return key_alg(a) - key_alg(b);
}

/* Sort all ranks' slots and fold equal keys into rows; each slot is one
 * rank's, so the largest slot time is the busiest rank's. */
static int merge_rows(struct report_slot *all, int n, struct merged *rows)
{
    int nrows = 0;
    qsort(all, (size_t)n, sizeof *all, cmp_rows);
    for (int i = 0; i < n; i++) {
        struct merged *m = &rows[nrows];
        if (nrows == 0 || rows[nrows - 1].key != all[i].key) {
            memset(m, 0, sizeof *m);
            m->key = all[i].key;
            nrows++;
        } else {
            m = &rows[nrows - 1];
        }
        m->rank_calls += all[i].calls;
        m->bytes += all[i].bytes;
        m->nanos += all[i].nanos;
        if (all[i].nanos > m->max_rank_nanos)
            m->max_rank_nanos = all[i].nanos;
    }
    return nrows;
}

static void format_range(unsigned bucket, char *buf, size_t len)
{
    char lo[32], hi[32];
    if (bucket == 0) {
        snprintf(buf, len, "0");
        return;
    }
    tune_format_bytes(1ull << (bucket - 1), lo, sizeof lo);
    if (bucket >= 64)
        snprintf(hi, sizeof hi, "inf");
    else
        tune_format_bytes(1ull << bucket, hi, sizeof hi);
    snprintf(buf, len, "%s-%s", lo, hi);
}

static void write_header(FILE *f, const struct rank_info *info, int np)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "", date[64];
    int len = 0, hosts = 0;
    double wall = 0, sum = 0, maxc = 0;
    uint64_t drops = 0;
    time_t now = time(NULL);
    if (vendor.get_library_version)
        vendor.get_library_version(version, &len);
    for (char *p = version; *p; p++)
        if (*p == '\n' || *p == '\t')
            *p = *p == '\t' ? ' ' : '\0';
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    for (int r = 0; r < np; r++) {
        int seen = 0;
        for (int q = 0; q < r && !seen; q++)
            seen = !strcmp(info[q].host, info[r].host);
        hosts += !seen;
        wall = info[r].wall > wall ? info[r].wall : wall;
        sum += info[r].nanos * 1e-9;
        maxc = info[r].nanos * 1e-9 > maxc ? info[r].nanos * 1e-9 : maxc;
        drops += info[r].dropped;
    }
    fprintf(f, "# collshim report (COLLSHIM_REPORT): what ran, merged over %d ranks\n", np);
    fprintf(f, "# collshim %s (%s build); MPI: %s\n", COLLSHIM_VERSION, COLLSHIM_FLAVOUR, version);
    fprintf(f, "# date: %s; %d rank%s on %d host%s (rank 0 on %s)\n", date, np,
            np == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s", info[0].host);
    fprintf(f, "# ranks per core on the most loaded node: %d%s\n", layout_ranks_per_core(),
            layout_ranks_per_core() > 1 ? " (oversubscribed: tables' ranks_per_core= rules apply)"
                                        : "");
    machine_report(f);
    fprintf(f, "# wall time (max over ranks, from library load to MPI_Finalize): %.3f s\n", wall);
    fprintf(f, "# time in collectives: %.6f s per rank on average (%.1f%% of wall time), "
               "%.6f s at the busiest rank\n",
            sum / np, wall > 0 ? 100.0 * sum / np / wall : 0.0, maxc);
    if (drops)
        fprintf(f, "# WARNING: %llu calls found no free slot and are not counted\n",
                (unsigned long long)drops);
    fprintf(f, "# calls: collective calls, each counted once (not once per rank); bytes: the\n"
               "# selection size of each call (total of the full vector; 0 for the v and w\n"
               "# variants, where no rank knows it); time: seconds summed over ranks, mean per\n"
               "# call and rank; size ranges as in tuning rules: [lo, hi)\n");
}

/* One line per (collective, np), then one per (size range, algorithm). */
static void write_rows(FILE *f, const struct merged *rows, int nrows, double total_nanos)
{
    fprintf(f, "\n# per collective and communicator size\n");
    fprintf(f, "# %-20s %5s %12s %14s %12s %10s %6s\n", "collective", "np", "calls", "bytes",
            "time_s", "mean_us", "%coll");
    for (int i = 0; i < nrows;) {
        int j = i, np = key_np(rows[i].key), c = registry_table[key_alg(rows[i].key)].coll;
        uint64_t calls = 0, bytes = 0, nanos = 0;
        for (; j < nrows && key_np(rows[j].key) == np &&
               (int)registry_table[key_alg(rows[j].key)].coll == c; j++)
            calls += rows[j].rank_calls, bytes += rows[j].bytes, nanos += rows[j].nanos;
        fprintf(f, "  %-20s %5d %12.0f %14.0f %12.6f %10.2f %6.1f\n", coll_name((enum coll_id)c),
                np, (double)calls / np, (double)bytes / np, nanos * 1e-9,
                calls ? nanos * 1e-3 / calls : 0.0, total_nanos > 0 ? 100.0 * nanos / total_nanos : 0.0);
        i = j;
    }
    fprintf(f, "\n# algorithms per size range\n");
    fprintf(f, "# %-20s %5s %-12s %-24s %12s %12s %10s %12s\n", "collective", "np", "size",
            "algorithm", "calls", "time_s", "mean_us", "max_rank_s");
    for (int i = 0; i < nrows; i++) {
        const struct merged *m = &rows[i];
        const struct algorithm *alg = &registry_table[key_alg(m->key)];
        char range[64];
        int np = key_np(m->key);
        format_range(key_bucket(m->key), range, sizeof range);
        fprintf(f, "  %-20s %5d %-12s %-24s %12.0f %12.6f %10.2f %12.6f\n", coll_name(alg->coll),
                np, range, alg->name, (double)m->rank_calls / np, m->nanos * 1e-9,
                m->rank_calls ? m->nanos * 1e-3 / m->rank_calls : 0.0, m->max_rank_nanos * 1e-9);
    }
}

/* Why rank 0's algorithms ran: which sources of the selection chose each. */
static void write_sources(FILE *f)
{
    fprintf(f, "\n# why each algorithm ran at rank 0: what chose it (doc/model.md)\n");
    for (int i = 0; i < registry_count; i++) {
        unsigned bits = __atomic_load_n(&select_sources[i], __ATOMIC_RELAXED);
        if (!bits)
            continue;
        fprintf(f, "  %-20s %-24s", coll_name(registry_table[i].coll), registry_table[i].name);
        for (int s = 0; s < SELECT_SOURCES; s++)
            if (bits & (1u << s))
                fprintf(f, " [%s]", select_source_names[s]);
        fprintf(f, "\n");
    }
}

static int is_yes(const char *v)
{
    return !strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
           !strcasecmp(v, "on");
}

/* The file COLLSHIM_REPORT names (see the top of this file). */
static void report_path(char *buf, size_t len)
{
    const char *v = settings.report ? settings.report : "1";
    struct stat st;
    char name[128], date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y%m%d-%H%M%S", localtime(&now));
    snprintf(name, sizeof name, "collshim-report-%s-%ld.txt", date, (long)getpid());
    if (is_yes(v))
        snprintf(buf, len, "%s", name);
    else if (stat(v, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(buf, len, "%s/%s", v, name);
    else
        snprintf(buf, len, "%s", v);
}

static void write_file(struct rank_info *info, int np, struct report_slot *all, int n)
{
    char path[PATH_MAX], real[PATH_MAX];
    struct merged *rows = calloc((size_t)n + 1, sizeof *rows);
    double total = 0;
    FILE *f;
    report_path(path, sizeof path);
    if (!rows || !(f = fopen(path, "w"))) {
        fprintf(stderr, "collshim: cannot write the report to %s: %s\n", path, strerror(errno));
        free(rows);
        return;
    }
    for (int r = 0; r < np; r++)
        total += info[r].nanos;
    int nrows = merge_rows(all, n, rows);
    write_header(f, info, np);
    write_rows(f, rows, nrows, total);
    write_sources(f);
    learn_report(f);
    fclose(f);
    free(rows);
    fprintf(stderr, "collshim: report written to %s\n", realpath(path, real) ? real : path);
}

void report_write(void)
{
    struct rank_info mine = {0}, *info = NULL;
    struct report_slot *local, *all = NULL;
    int rank, np, len, n, total = 0, *counts = NULL, *displs = NULL;
    if (!report_enabled || vendor_resolve())
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &np);
    local = malloc(sizeof slots);
    n = local ? used_slots(local, &mine) : 0;
    mine.wall = elapsed_since_load();
    mine.dropped = __atomic_load_n(&dropped, __ATOMIC_RELAXED);
    mine.nslots = n;
    PMPI_Get_processor_name(mine.host, &len);
    if (rank == 0) {
        info = calloc((size_t)np, sizeof *info);
        counts = calloc((size_t)np, sizeof *counts);
        displs = calloc((size_t)np, sizeof *displs);
    }
    vendor.gather(&mine, (int)sizeof mine, MPI_BYTE, info, (int)sizeof mine, MPI_BYTE, 0,
                  MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < np; r++) {
        counts[r] = info[r].nslots * (int)sizeof *local;
        displs[r] = total;
        total += counts[r];
    }
    if (rank == 0)
        all = malloc((size_t)total + 1);
    vendor.gatherv(local ? (void *)local : (void *)&mine, n * (int)sizeof *local, MPI_BYTE, all,
                   counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank == 0 && info && all)
        write_file(info, np, all, total / (int)sizeof *local);
    free(local);
    free(all);
    free(info);
    free(counts);
    free(displs);
}
