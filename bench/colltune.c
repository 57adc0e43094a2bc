/* colltune.c - measures every algorithm of collshim and writes a tuning
 * table for this machine (doc/colltune.md).
 *
 *   mpirun -np 8 colltune -c allreduce,bcast --budget 15m -o cluster.table
 *   COLLSHIM_TUNING_FILE=cluster.table mpirun ... app
 *
 * Per collective, communicator size (the first N ranks of the job) and
 * power-of-two size, every arm - the vendor, each native algorithm and its
 * parameter values - is checked and timed with collbench's machinery
 * (timing.h); the choice, the ranges and the rules are tune_choose.h's, the
 * passes, budget and verification tune_run.h's. This file is the command
 * line: options, their checks (all before anything is measured), the
 * arms and the table file. */
#include "bench/bound.h"
#include "bench/collops.h"
#include "bench/output.h"
#include "bench/provenance.h"
#include "bench/timing.h"
#include "bench/tune_choose.h"
#include "bench/tune_run.h"
#include "bench/util.h"
#include "collshim.h"
#include "algorithms/coll.h"

#include <getopt.h>
#include <limits.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static int print_errors; /* rank 0 says what is wrong */

#define SAY(...)                                                                               \
    do {                                                                                       \
        if (print_errors)                                                                      \
            fprintf(stderr, "colltune: " __VA_ARGS__);                                         \
    } while (0)

/* Parameter sweeps: which algorithms take which parameter values. The
 * registry flags the seg= algorithms (ALG_TAKES_SEG, which learning uses)
 * but the public API does not expose flags, and outstanding= is not
 * declared there: new parameterised algorithms get a row here (or -S);
 * the unit test segmented_rows_are_flagged keeps the registry honest. */
struct sweep_row {
    char coll[32], alg[64], spec[160]; /* spec: "ALG:seg=16k/64k/256k" */
    int window;                        /* outstanding= is a window over p-1 peers */
};
/* Windows: 2, 4, 8, and 1024 for "every peer at once" at any p up to
 * 1025 (tune_useful_arms keeps only the smallest window of at least p - 1
 * peers, so at p <= 9 the 8 stands for it). Without it a sweep at p = 64
 * never timed all 63 exchanges in flight, which the built-in table runs
 * from 128 B blocks there, and chose @node at 0.65-0.78x the vendor where
 * that runs 0.56-0.67x (results/scale.md). */
static const struct sweep_row default_sweeps[] = {
    {"bcast", "pipeline", "pipeline:seg=16k/64k/256k", 0},
    {"bcast", "binary_pipeline", "binary_pipeline:seg=16k/64k/256k", 0},
    {"reduce", "pipeline", "pipeline:seg=16k/64k/256k", 0},
    {"reduce", "binary_pipeline", "binary_pipeline:seg=16k/64k/256k", 0},
    {"allreduce", "ring", "ring:seg=16k/64k/256k", 0},
    {"reduce_scatter", "ring", "ring:seg=16k/64k/256k", 0},
    {"reduce_scatter_block", "ring", "ring:seg=16k/64k/256k", 0},
    {"scan", "linear", "linear:seg=16k/64k/256k", 0},
    {"exscan", "linear", "linear:seg=16k/64k/256k", 0},
    {"gatherv", "linear_throttled", "linear_throttled:outstanding=2/4/8/1024", 1},
    {"scatterv", "linear_throttled", "linear_throttled:outstanding=2/4/8/1024", 1},
    {"alltoall", "scattered", "scattered:outstanding=2/4/8/1024", 1},
    {"alltoallv", "scattered", "scattered:outstanding=2/4/8/1024", 1},
    {"alltoallw", "scattered", "scattered:outstanding=2/4/8/1024", 1},
};
#define MAX_SWEEPS 64

struct options {
    const char *colls, *nps, *sizes, *output, *exclude, *csv, *check, *export_path;
    double budget, min_gain, max_call;
    int root, verify, max_reps;
    enum fence_kind fence;
    uint64_t seed;
    MPI_Datatype type;
    struct sweep_row sweeps[MAX_SWEEPS];
    int nsweeps;
};

static const char usage[] =
    "usage: colltune [options]\n"
    "  -c, --coll LIST      collectives, comma-separated, or all (default all)\n"
    "  -n, --np LIST        communicator sizes, each the first N ranks of the job\n"
    "                       (default 2, 3, 4, 6, 8, 12, 16, ... and the job's size)\n"
    "  -m, --sizes LO:HI    power-of-two sizes in bytes, k/m/g suffixes (default 4:1m)\n"
    "  -b, --budget TIME    time for everything, seconds or with s/m/h (15m); cuts\n"
    "                       repetitions, then sizes, to fit (default: no limit)\n"
    "  -o, --output PATH    the table (default colltune-FLAVOUR-npN.table)\n"
    "      --csv PATH       every arm of every case as collbench's CSV (sweep and\n"
    "                       verification)\n"
    "      --export PATH    also write the table in this MPI's own format, for the\n"
    "                       library alone (colltune-export, doc/export.md)\n"
    "  -x, --exclude LIST   algorithms to leave out\n"
    "  -S, --sweep SPEC     COLL:ALG:PARAM=V/V[:PARAM=V/V] replaces the values swept for\n"
    "                       that algorithm (repeatable); none: no parameter sweeps\n"
    "  -g, --min-gain F     smallest gain over the vendor or a neighbour's choice that\n"
    "                       counts (default 0.03)\n"
    "  -T, --type NAME      element type of reductions: float (default), double, int\n"
    "  -r, --root N         root of rooted collectives (default 0)\n"
    "  -M, --max-call SEC   an arm whose checked call takes longer is not timed (1)\n"
    "  -s, --seed N         seed of the shuffled order (default 24301)\n"
    "  -F, --fence KIND     how each timed call starts: window (all ranks at one\n"
    "                       instant of a synchronized clock; default) or barrier\n"
    "  -R, --max-reps N     timed calls per arm and case at most (default 1000; 3 on\n"
    "                       the smpi flavour, whose simulated times repeat exactly)\n"
    "      --machine PATH   measure the machine model when the job starts and\n"
    "                       write it to PATH, for COLLSHIM_MACHINE=PATH (doc/model.md)\n"
    "      --no-verify      skip the A/B run of the new table\n"
    "      --check PATH     measure nothing new: run the A/B verification of the table\n"
    "                       in PATH at the sizes and np given\n"
    "  -h, --help\n"
    "Sizes follow the OSU micro-benchmarks, as in collbench (doc/collbench.md);\n"
    "the rules key the shim's selection bytes (doc/colltune.md).\n";

/* ---- option parsing and checks ---- */

static int parse_time(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        return -1;
    if (*end == 'm')
        v *= 60, end++;
    else if (*end == 'h')
        v *= 3600, end++;
    else if (*end == 's')
        end++;
    *out = v;
    return *end || v <= 0 ? -1 : 0;
}

static int add_sweep(struct options *o, const char *arg)
{
    const char *c1 = strchr(arg, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!strcmp(arg, "none")) {
        o->nsweeps = 0;
        return 0;
    }
    if (!c2 || c1 == arg || c2 == c1 + 1 || o->nsweeps == MAX_SWEEPS ||
        (size_t)(c1 - arg) >= sizeof o->sweeps[0].coll || (size_t)(c2 - c1 - 1) >= sizeof o->sweeps[0].alg) {
        SAY("--sweep \"%s\": expected COLL:ALG:PARAM=V/V, e.g. bcast:pipeline:seg=8k/32k\n", arg);
        return -1;
    }
    struct sweep_row row = {.window = 0};
    snprintf(row.coll, sizeof row.coll, "%.*s", (int)(c1 - arg), arg);
    snprintf(row.alg, sizeof row.alg, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    snprintf(row.spec, sizeof row.spec, "%s", c1 + 1);
    for (int i = 0; i < o->nsweeps; i++)
        if (!strcmp(o->sweeps[i].coll, row.coll) && !strcmp(o->sweeps[i].alg, row.alg)) {
            o->sweeps[i] = row;
            return 0;
        }
    o->sweeps[o->nsweeps++] = row;
    return 0;
}

static int parse_options(struct options *o, int argc, char **argv)
{
    static const struct option longs[] = {
        {"coll", 1, 0, 'c'}, {"np", 1, 0, 'n'}, {"sizes", 1, 0, 'm'}, {"budget", 1, 0, 'b'},
        {"output", 1, 0, 'o'}, {"exclude", 1, 0, 'x'}, {"sweep", 1, 0, 'S'},
        {"min-gain", 1, 0, 'g'}, {"type", 1, 0, 'T'}, {"root", 1, 0, 'r'},
        {"max-call", 1, 0, 'M'}, {"seed", 1, 0, 's'}, {"no-verify", 0, 0, 'V'},
        {"csv", 1, 0, 'C'}, {"check", 1, 0, 'K'}, {"fence", 1, 0, 'F'},
        {"max-reps", 1, 0, 'R'}, {"export", 1, 0, 'E'}, {"machine", 1, 0, 'A'},
        {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int ch, bad = 0;
    memset(o, 0, sizeof *o);
    o->colls = "all", o->sizes = "4:1m", o->min_gain = 0.03, o->max_call = 1.0;
    o->verify = 1, o->seed = 24301, o->type = MPI_FLOAT;
    /* SMPI's simulated times repeat exactly (smpi/simulate-computation:no):
     * more repetitions cost hours of CPU and tell nothing new. */
    o->max_reps = !strcmp(collshim_flavour(), "smpi") ? 3 : 1000;
    o->nsweeps = (int)(sizeof default_sweeps / sizeof default_sweeps[0]);
    memcpy(o->sweeps, default_sweeps, sizeof default_sweeps);
    while (!bad && (ch = getopt_long(argc, argv, "c:n:m:b:o:x:S:g:T:r:M:s:F:R:h", longs, NULL)) != -1) {
        switch (ch) {
        case 'c': o->colls = optarg; break;
        case 'n': o->nps = optarg; break;
        case 'm': o->sizes = optarg; break;
        case 'b':
            if ((bad = parse_time(optarg, &o->budget)))
                SAY("--budget \"%s\": expected seconds, or a number with s, m or h (15m)\n", optarg);
            break;
        case 'o': o->output = optarg; break;
        case 'A': break; /* --machine: read before MPI_Init (main) */
        case 'x': o->exclude = optarg; break;
        case 'S': bad = add_sweep(o, optarg); break;
        case 'g': o->min_gain = atof(optarg); bad = o->min_gain < 0 || o->min_gain >= 1; break;
        case 'T':
            o->type = !strcmp(optarg, "float") ? MPI_FLOAT : !strcmp(optarg, "double") ? MPI_DOUBLE
                      : !strcmp(optarg, "int") ? MPI_INT : MPI_DATATYPE_NULL;
            bad = o->type == MPI_DATATYPE_NULL;
            break;
        case 'r': o->root = atoi(optarg) > 0 ? atoi(optarg) : 0; break;
        case 'M': o->max_call = atof(optarg); break;
        case 's': o->seed = strtoull(optarg, NULL, 0); break;
        case 'V': o->verify = 0; break;
        case 'R':
            o->max_reps = atoi(optarg);
            if ((bad = o->max_reps < 1))
                SAY("--max-reps \"%s\": expected a whole number of at least 1\n", optarg);
            break;
        case 'C': o->csv = optarg; break;
        case 'K': o->check = optarg; break;
        case 'E': o->export_path = optarg; break;
        case 'F':
            if ((bad = fence_parse(optarg) < 0))
                SAY("--fence \"%s\": the fences are window and barrier\n", optarg);
            else
                o->fence = (enum fence_kind)fence_parse(optarg);
            break;
        case 'h': return 1;
        default: bad = 1; break;
        }
    }
    return bad || optind < argc ? -1 : 0;
}

static int check_colls(struct tune_run *r, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    r->ncolls = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int c = collop_from_name(t);
        if (!strcmp(t, "all")) {
            for (c = 0; c < COLLOP_COUNT; c++)
                r->colls[c] = c;
            r->ncolls = COLLOP_COUNT;
            break;
        }
        if (c < 0) {
            SAY("unknown collective \"%s\"; the collectives are barrier, bcast, gather, gatherv, "
                "scatter, scatterv, allgather, allgatherv, alltoall, alltoallv, alltoallw, reduce, "
                "allreduce, reduce_scatter, reduce_scatter_block, scan, exscan (or all)\n", t);
            free(copy);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < r->ncolls; i++)
            dup |= r->colls[i] == c;
        if (!dup)
            r->colls[r->ncolls++] = c;
    }
    free(copy);
    if (!r->ncolls)
        SAY("no collective given (-c)\n");
    return r->ncolls ? 0 : -1;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static int check_nps(struct tune_run *r, const char *list, int world)
{
    r->nnps = 0;
    if (!list) {
        for (int n = 2; n < world && r->nnps < TUNE_MAX_NPS - 1; n = n % 3 ? n * 3 / 2 : n * 4 / 3)
            r->nps[r->nnps++] = n;
        r->nps[r->nnps++] = world;
        return 0;
    }
    char *copy = strdup(list), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t && r->nnps < TUNE_MAX_NPS; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long n = strtol(t, &end, 10);
        if (*end || n < 2 || n > world) {
            SAY("communicator size \"%s\" is not within 2..%d (the job's size)\n", t, world);
            free(copy);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < r->nnps; i++)
            dup |= r->nps[i] == n;
        if (!dup)
            r->nps[r->nnps++] = (int)n;
    }
    free(copy);
    qsort(r->nps, (size_t)r->nnps, sizeof r->nps[0], cmp_int);
    return r->nnps ? 0 : -1;
}

static int check_sizes(struct tune_run *r, const char *s)
{
    char buf[64];
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= sizeof buf) {
        SAY("size range \"%s\": expected LO:HI in bytes with k/m/g suffixes, e.g. 4:1m\n", s);
        return -1;
    }
    snprintf(buf, sizeof buf, "%.*s", (int)(colon - s), s);
    r->lo = bench_parse_bytes(buf);
    r->hi = bench_parse_bytes(colon + 1);
    if (r->lo < 0 || r->hi < 0) {
        SAY("size range \"%s\": cannot read %s\n", s, r->lo < 0 ? buf : colon + 1);
        return -1;
    }
    if (r->hi < r->lo || r->hi < 1) {
        SAY("impossible size range \"%s\": the upper end must be at least the lower end and "
            "at least 1 byte\n", s);
        return -1;
    }
    return 0;
}

/* Every collective must have a size it can measure at some np. */
static int check_measurable(const struct tune_run *r, const char *sizes)
{
    int elem = 1;
    MPI_Type_size(r->type, &elem);
    for (int i = 0; i < r->ncolls; i++) {
        int c = r->colls[i], any = c == COLL_barrier;
        for (long long s = r->lo > 0 ? r->lo : 1; !any && s <= r->hi; s *= 2)
            for (int k = 0; k < r->nnps && !any; k++)
                any = tune_measurable(c, r->nps[k], (size_t)s, elem);
        if (!any) {
            SAY("impossible size range \"%s\" for %s: its smallest case is %s (%d bytes%s)\n",
                sizes, collop_name(c),
                c == COLL_reduce_scatter_block ? "one element per rank" : "one element", elem,
                c == COLL_reduce_scatter_block ? " times np" : "");
            return -1;
        }
    }
    return 0;
}

/* ---- arms ---- */

static const struct sweep_row *find_sweep(const struct options *o, const char *coll,
                                          const char *alg)
{
    for (int i = 0; i < o->nsweeps; i++)
        if (!strcmp(o->sweeps[i].coll, coll) && !strcmp(o->sweeps[i].alg, alg))
            return &o->sweeps[i];
    return NULL;
}

/* "vendor,binomial,pipeline:seg=16k/64k/256k,..." for bench_arms_parse. */
static char *arm_spec(const struct options *o, const char *coll)
{
    struct bench_text t = {0};
    int n = collshim_algorithm_count(coll);
    bench_text_put(&t, "vendor");
    for (int i = 0; i < n; i++) {
        const char *name = collshim_algorithm_name(coll, i);
        const struct sweep_row *row = name ? find_sweep(o, coll, name) : NULL;
        /* intracommunicator tables: the inter_* algorithms cannot run them */
        if (name && strcmp(name, "vendor") && strncmp(name, "inter_", 6))
            bench_text_put(&t, ",%s", row ? row->spec : name);
    }
    return t.s;
}

static uint64_t param_value(const char *params, const char *key)
{
    const char *p = strstr(params, key);
    char buf[32];
    if (!p)
        return 0;
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(p + strlen(key), " "), p + strlen(key));
    long long v = bench_parse_bytes(buf);
    return v > 0 ? (uint64_t)v : 0;
}

static int make_sweep(const struct options *o, struct tune_run *r, int coll)
{
    int na = r->narms[coll];
    struct tune_sweep_arm *s = calloc((size_t)na + 1, sizeof *s);
    if (!(r->sweep[coll] = s))
        return -1;
    for (int a = 0; a < na; a++) {
        const struct bench_arm *arm = &r->arms[coll][a];
        const struct sweep_row *row = find_sweep(o, collop_name(coll), arm->alg);
        s[a].group = -1;
        if (arm->kind != ARM_NATIVE || !arm->params[0])
            continue;
        for (int b = 0; b <= a && s[a].group < 0; b++)
            if (!strcmp(r->arms[coll][b].alg, arm->alg))
                s[a].group = b;
        s[a].seg = param_value(arm->params, "seg=");
        s[a].window = row && row->window ? (int)param_value(arm->params, "outstanding=") : 0;
    }
    return 0;
}

static int make_arms(const struct options *o, struct tune_run *r)
{
    char err[512];
    for (int i = 0; i < o->nsweeps; i++)
        if (collop_from_name(o->sweeps[i].coll) < 0) {
            SAY("--sweep: unknown collective \"%s\"\n", o->sweeps[i].coll);
            return -1;
        }
    for (int i = 0; i < r->ncolls; i++) {
        int c = r->colls[i];
        char *spec = arm_spec(o, collop_name(c));
        int rc = bench_arms_parse(collop_name(c), spec, o->exclude, &r->arms[c], &r->narms[c], err,
                                  sizeof err);
        free(spec);
        if (rc) {
            SAY("%s\n", err);
            return -1;
        }
        if (make_sweep(o, r, c))
            return -1;
    }
    return 0;
}

/* ---- budget ---- */

/* The least any run needs: the machine's model, then one size per
 * collective and communicator size with every arm at the most cut level,
 * at 50 us a call (faster than any collective across a network). */
static double budget_floor(const struct tune_run *r)
{
    double t = 1.0;
    for (int i = 0; i < r->ncolls; i++)
        t += r->nnps * tune_point_cost(r->narms[r->colls[i]] + (r->verify ? 3 : 0), 50e-6,
                                       &tune_levels[tune_nlevels - 1], r->max_reps);
    return t;
}

/* Start at the first level whose estimate fits the budget; 0 if it cannot. */
static int plan_budget(struct tune_run *r)
{
    char a[32], b[32];
    double full = tune_run_estimate(r, 0), least = tune_run_estimate(r, tune_nlevels - 1);
    double est[16];
    tune_format_time(full, a, sizeof a);
    if (r->rank == 0)
        fprintf(stderr, "colltune: %d cases (collective, np, size); about %s at full detail "
                        "(a guess from the machine's model, corrected as the sweep goes)\n",
                r->ncases, a);
    if (r->budget <= 0)
        return 1;
    if (least > r->budget) {
        tune_format_time(least, a, sizeof a);
        tune_format_time(r->budget, b, sizeof b);
        SAY("a budget of %s is too small: even with sizes x16 apart and 5 repetitions per arm "
            "this needs about %s here; give a larger --budget, or fewer collectives (-c), "
            "communicator sizes (-n) or sizes (-m)\n", b, a);
        return 0;
    }
    for (int k = 0; k < tune_nlevels; k++)
        est[k] = tune_run_estimate(r, k);
    r->level = r->max_level = tune_pick_level(est, 0, r->budget);
    if (r->rank == 0 && r->level > 0) {
        tune_format_time(r->budget, b, sizeof b);
        fprintf(stderr, "colltune: to fit the budget of %s: cutting %s\n", b,
                tune_levels[r->level].what);
    }
    return 1;
}

/* ---- the table ---- */

static char *make_rules(const struct tune_run *r, double min_gain)
{
    struct bench_text t = {0};
    struct tune_choose_opts co;
    tune_choose_opts_default(&co);
    co.min_gain = min_gain;
    bench_text_put(&t, "%s", "");
    for (int i = 0; i < r->ncolls; i++) {
        struct tune_series *s = NULL;
        int n = tune_run_series(r, r->colls[i], &s);
        if (n > 0) {
            bench_text_put(&t, "# %s\n", collop_name(r->colls[i]));
            tune_rules(collop_name(r->colls[i]), s, n, &co, &t);
        }
        tune_run_free_series(s, n > 0 ? n : 0);
        free(s);
    }
    return t.s;
}

/* The same text on every rank (rank 0's). */
static char *share_text(char *text, int rank)
{
    int len = rank == 0 && text ? (int)strlen(text) + 1 : 0;
    collshim_bypass(1);
    MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        free(text);
        text = calloc((size_t)len + 1, 1);
    }
    MPI_Bcast(text, len, MPI_CHAR, 0, MPI_COMM_WORLD);
    collshim_bypass(0);
    return text;
}

static void list_ints(char *buf, size_t len, const int *v, int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", v[i]);
}

static FILE *write_table(const struct tune_run *r, const struct options *o, const char *path,
                         const char *prov, const char *rules, double sweep_time)
{
    FILE *f = fopen(path, "w");
    char nps[256], lo[32], hi[32], b[32], t[32], colls[512] = "";
    if (!f) {
        perror(path);
        return NULL;
    }
    list_ints(nps, sizeof nps, r->nps, r->nnps);
    for (int i = 0; i < r->ncolls; i++)
        snprintf(colls + strlen(colls), sizeof colls - strlen(colls), "%s%s", i ? "," : "",
                 collop_name(r->colls[i]));
    bench_format_bytes((uint64_t)r->lo, lo, sizeof lo);
    bench_format_bytes((uint64_t)r->hi, hi, sizeof hi);
    tune_format_time(r->budget, b, sizeof b);
    tune_format_time(sweep_time, t, sizeof t);
    fprintf(f, "# collshim tuning table written by colltune; use it with "
               "COLLSHIM_TUNING_FILE=%s\n%s", path, prov ? prov : "");
    out_model(f, &r->model);
    out_fence(f, r->fence);
    fprintf(f, "# measured: %s at np %s, sizes %s..%s bytes (OSU sizes, powers of two), %s sums, "
               "root %d, not in place\n",
            colls, nps, lo, hi, o->type == MPI_DOUBLE ? "double" : o->type == MPI_INT ? "int" : "float",
            o->root);
    fprintf(f, "# reach: these rules apply up to np=%d, twice the largest communicator "
               "measured; larger communicators use the next table (the built-in one)\n",
            tune_np_reach(r->nps[r->nnps - 1]));
    fprintf(f, "# choice: fastest median; a native algorithm only where it beats the vendor by "
               "more than max(%.0f%%, 2 standard errors); ties keep the neighbouring size's "
               "choice, then the built-in's (doc/colltune.md)\n",
            o->min_gain * 100);
    fprintf(f, "# second looks: %d cases where a native algorithm came within the noise of "
               "beating the vendor were timed again (the vendor and up to 3 close calls, 3x the "
               "repetitions); at %d of them one then beat it clearly\n",
            r->looks, r->looks_won);
    if (r->demoted)
        fprintf(f, "# repaired: %d cases where the verification found the native choice more "
                   "than 5%% slower than the vendor run the vendor\n", r->demoted);
    fprintf(f, "# budget: %s; cut at most: %s; sweep took %s\n", r->budget > 0 ? b : "none",
            tune_levels[r->max_level].what, t);
    fputs(rules, f);
    fflush(f);
    return f;
}

/* Cases where the verification found the new table's native choice more
 * than 5% slower than the vendor go back to the vendor: the rules are made
 * again, the table rewritten, and every (collective, np) whose rules
 * changed verified again. Once: what the second verification finds stays
 * in its summary. Returns the rules in force (frees the old ones). */
static char *repair(struct tune_run *r, const struct options *o, char *rules, FILE **table,
                    const char *path, const char *prov, double sweep_time)
{
    int n = tune_run_demote(r);
    if (!n)
        return rules;
    char *fixed = share_text(r->rank == 0 ? make_rules(r, o->min_gain) : NULL, r->rank);
    tune_run_unverify_changed(r, rules, fixed);
    if (*table)
        fclose(*table);
    *table = r->rank == 0 ? write_table(r, o, path, prov, fixed, sweep_time) : NULL;
    if (r->rank == 0) {
        fprintf(stderr, "colltune: the verification found %d native choice%s slower than the "
                        "vendor; %s the vendor's now, verifying what changed\n",
                n, n == 1 ? "" : "s", n == 1 ? "it is" : "they are");
        printf("\n# repaired: %d case%s where the new table ran a native algorithm more than 5%% "
               "slower than the vendor now run the vendor; the table, rewritten to %s:\n%s",
               n, n == 1 ? "" : "s", path, fixed);
    }
    tune_run_verify(r, fixed, r->rank == 0 ? stdout : NULL, *table);
    free(rules);
    return fixed;
}

/* ---- main ---- */

static int setup(struct options *o, struct tune_run *r, int argc, char **argv, int world)
{
    int rc = parse_options(o, argc, argv);
    if (rc)
        return rc;
    if (world < 2) {
        SAY("needs a job of at least 2 ranks\n");
        return -1;
    }
    r->type = o->type, r->root = o->root, r->max_call = o->max_call, r->seed = o->seed;
    r->budget = o->budget, r->verify = o->verify, r->max_reps = o->max_reps;
    r->min_gain = o->min_gain, r->fence = o->fence;
    if (check_colls(r, o->colls) || check_nps(r, o->nps, world) || check_sizes(r, o->sizes) ||
        check_measurable(r, o->sizes) || make_arms(o, r))
        return -1;
    double floor = budget_floor(r);
    if (r->budget > 0 && r->budget < floor) {
        SAY("a budget of %g s is too small for one measurement of each collective and "
            "communicator size: that needs %.0f s at the least\n", r->budget, floor);
        return -1;
    }
    return 0;
}

static void split_comms(struct tune_run *r)
{
    for (int k = 0; k < r->nnps; k++) {
        r->comms[k] = MPI_COMM_NULL;
        MPI_Comm_split(MPI_COMM_WORLD, r->rank < r->nps[k] ? 0 : MPI_UNDEFINED, r->rank,
                       &r->comms[k]);
        r->nodes[k] = r->ppn[k] = 0;
        if (r->comms[k] != MPI_COMM_NULL)
            MPI_Comm_set_errhandler(r->comms[k], MPI_ERRORS_RETURN);
        if (r->comms[k] != MPI_COMM_NULL &&
            collshim_node_shape(r->comms[k], &r->nodes[k], &r->ppn[k], NULL, NULL))
            r->nodes[k] = r->ppn[k] = 0;
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    struct bench_text t = {0};
    char line[4096];
    if (!f) {
        perror(path);
        return NULL;
    }
    bench_text_put(&t, "%s", "");
    while (fgets(line, sizeof line, f))
        bench_text_put(&t, "%s", line);
    fclose(f);
    return t.s;
}

/* --check: the verification alone, of a table written before. */
static int check_table(struct options *o, struct tune_run *r)
{
    char err[2048];
    char *rules = share_text(r->rank == 0 ? read_text(o->check) : NULL, r->rank);
    int rc = 2;
    if (!rules || !*rules)
        SAY("--check %s: no table to verify\n", o->check);
    else if (collshim_tune(rules, err, sizeof err) != MPI_SUCCESS)
        SAY("--check %s: %s\n", o->check, err);
    else if (tune_run_plan(r) == 0) {
        collshim_tune(NULL, NULL, 0);
        r->verify = 1;
        for (int i = 0; i < r->ncases; i++)
            r->cases[i].state = CASE_MEASURED;
        r->t0 = MPI_Wtime();
        if (plan_budget(r)) {
            tune_run_verify(r, rules, r->rank == 0 ? stdout : NULL, NULL);
            rc = 0;
        }
    }
    free(rules);
    return rc;
}

/* colltune-export, installed beside colltune (in a build tree, colltune
 * runs from .libs/ and colltune-export one level up), on the table. */
static int export_table(const char *table, const char *out)
{
    char self[PATH_MAX], tool[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(tool, sizeof tool, "%s/colltune-export", self);
    if (access(tool, X_OK) && strlen(self) > 6 && !strcmp(self + strlen(self) - 6, "/.libs"))
        snprintf(tool, sizeof tool, "%.*s/colltune-export", (int)strlen(self) - 6, self);
    pid_t pid;
    int status;
    char *argv[] = {tool, (char *)table, (char *)out, NULL};
    if (posix_spawn(&pid, tool, NULL, NULL, argv, environ) || waitpid(pid, &status, 0) < 0) {
        SAY("--export: cannot run %s\n", tool);
        return -1;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* --csv: rank 0 opens the CSV and writes its header lines, before the
 * sweep or, with --check, the verification alone. */
static void open_csv(const struct options *o, struct tune_run *r, const char *prov)
{
    if (r->rank == 0 && o->csv && !(r->csv = fopen(o->csv, "w")))
        perror(o->csv);
    if (r->csv) {
        fputs(prov ? prov : "", r->csv);
        out_model(r->csv, &r->model);
        out_fence(r->csv, r->fence);
        out_csv_header(r->csv);
    }
}

/* Measure, choose, write, load, verify. Returns the exit status. */
static int run(struct options *o, struct tune_run *r, int argc, char **argv, int world)
{
    char path[512], err[2048], t[32];
    FILE *table = NULL;
    snprintf(path, sizeof path, "%s", o->output ? o->output : "");
    if (!o->output)
        snprintf(path, sizeof path, "colltune-%s-np%d.table", collshim_flavour(), world);
    if (r->rank == 0 && getenv("COLLSHIM_TUNING_FILE"))
        fprintf(stderr, "colltune: note: COLLSHIM_TUNING_FILE is set; \"built-in\" below means "
                        "it and the built-in table\n");
    char *prov = bench_provenance(MPI_COMM_WORLD, "colltune", argc, argv);
    split_comms(r);
    bound_measure(MPI_COMM_WORLD, r->type, &r->model);
    open_csv(o, r, prov);
    if (o->check) {
        int rc = check_table(o, r);
        if (r->csv)
            fclose(r->csv);
        free(prov);
        return rc;
    }
    if (tune_run_plan(r) || !plan_budget(r))
        return 2;
    r->t0 = MPI_Wtime();
    tune_run_sweep(r);
    double sweep_time = MPI_Wtime() - r->t0;
    if (r->rank == 0)
        fprintf(stderr, "colltune: sweep done; %d second looks at close calls, %d found a clear "
                        "gain over the vendor\n", r->looks, r->looks_won);
    char *rules = share_text(r->rank == 0 ? make_rules(r, o->min_gain) : NULL, r->rank);
    if (collshim_tune(rules, err, sizeof err) != MPI_SUCCESS) {
        SAY("the table does not parse (a bug): %s\n", err);
        return 1;
    }
    collshim_tune(NULL, NULL, 0);
    if (r->rank == 0 && (table = write_table(r, o, path, prov, rules, sweep_time)))
        printf("# the table, written to %s:\n%s", path, rules);
    if (r->verify)
        tune_run_verify(r, rules, r->rank == 0 ? stdout : NULL, table);
    if (r->verify)
        rules = repair(r, o, rules, &table, path, prov, sweep_time);
    if (table)
        fclose(table);
    if (r->csv)
        fclose(r->csv);
    tune_format_time(MPI_Wtime() - r->t0, t, sizeof t);
    if (r->rank == 0)
        fprintf(stderr, "colltune: wrote %s in %s; use it with COLLSHIM_TUNING_FILE=%s\n", path, t,
                path);
    int exported = r->rank || !table || !o->export_path || export_table(path, o->export_path) == 0;
    free(prov);
    free(rules);
    return table || r->rank ? (exported ? 0 : 1) : 1;
}

/* --machine PATH, read before MPI_Init, where the shim measures the
 * machine model: the old file goes, so the model is measured again and
 * written there (COLLSHIM_MACHINE, doc/model.md). */
static const char *machine_option(int argc, char **argv)
{
    const char *asked = NULL;
    for (int i = 1; i < argc; i++) {
        const char *path = !strcmp(argv[i], "--machine") && i + 1 < argc ? argv[i + 1]
                           : !strncmp(argv[i], "--machine=", 10)     ? argv[i] + 10
                                                                     : NULL;
        if (path && *path) {
            unlink(path);
            setenv("COLLSHIM_MACHINE", path, 1);
            asked = path;
        }
    }
    return asked;
}

/* What became of --machine, from rank 0. */
static void machine_said(const char *path, int rank)
{
    char line[512];
    if (!path || rank != 0)
        return;
    if (access(path, R_OK) == 0)
        printf("colltune: the machine model is in %s (COLLSHIM_MACHINE=%s reads it)\n", path, path);
    else if (collshim_machine_model(line, (int)sizeof line) != 0)
        printf("colltune: no machine model to write to %s: the job runs on one node, or "
               "COLLSHIM_MODEL=0\n", path);
}

int main(int argc, char **argv)
{
    static struct options o;
    static struct tune_run r;
    int world, rc;
    const char *machine = machine_option(argc, argv);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    print_errors = r.rank == 0;
    rc = setup(&o, &r, argc, argv, world);
    if (rc) {
        if (r.rank == 0 && rc > 0)
            fputs(usage, stdout);
        else if (r.rank == 0)
            fputs("colltune -h lists the options\n", stderr);
        MPI_Finalize();
        return rc > 0 ? 0 : 2;
    }
    rc = run(&o, &r, argc, argv, world);
    machine_said(machine, r.rank);
    for (int c = 0; c < COLLOP_COUNT; c++) {
        free(r.arms[c]);
        free(r.sweep[c]);
    }
    for (int i = 0; i < r.ncases; i++) {
        free(r.cases[i].useful);
        free(r.cases[i].res);
    }
    free(r.cases);
    for (int k = 0; k < r.nnps; k++)
        if (r.comms[k] != MPI_COMM_NULL)
            MPI_Comm_free(&r.comms[k]);
    MPI_Finalize();
    return rc;
}
